"""Issue 34: where a self-play game and a play-out spend their instructions, lexigraph beside MAGPIE (callgrind).

    MAGPIE_BENCH=/work/peers/magpie/bin/magpie_bench python bench/callgrind_games.py selfplay --pairs 50
    MAGPIE_BENCH=... python bench/callgrind_games.py sim --playouts 500
    python bench/callgrind_games.py selfplay --only lexigraph --out /tmp/cg      # keep the callgrind files

Both programs run under ``valgrind --tool=callgrind`` on the same job: self-play of 2 * PAIRS seeded games
(static equity players both sides, TWL06, the shipped leave table; lexigraph's ``autoplay(workers=1, threads=1)``,
MAGPIE's ``autoplay games PAIRS ... -gp true -threads 1``), or PLAYOUTS play-outs of 5 candidates and 2 plies on
bench_magpie's simulated row 7 (``simulate(stopping=False)`` against ``gsim``). Instruction counts do not move
with the machine's load, so they compare the programs where the wall and CPU times of a shared machine cannot.

Only the function that plays the games or the play-outs (``ENTRY``) is counted (``--toggle-collect``: no start-up,
no loading), per game / per play-out and per turn where the turns are known, and split into the callees listed in
``OWN_GROUPS`` (lexigraph: each function's own count, so the rows add up to the whole) or ``MAGPIE_GROUPS``
(MAGPIE, built with link-time optimisation: inclusive counts of a few functions). MAGPIE must be built for an instruction set valgrind knows (its
release build's ``-march=native`` may use AVX-512: build a copy with ``-march=x86-64-v3`` and point
``MAGPIE_BENCH`` at it).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

#: The function whose inclusive count is the job's work: per program and job.
ENTRY = {
    ("lexigraph", "selfplay"): "play_claimed_games",
    ("lexigraph", "sim"): "play_claimed_iterations",
    ("magpie", "selfplay"): "autoplay_worker",
    ("magpie", "sim"): "bai_worker",
}

#: lexigraph's parts: each function's own instructions (its inlined helpers included), in the first row whose
#: regular expression matches its name (a compiler's suffix such as ``.part.0`` allowed): the rows add up to the
#: whole.
OWN_GROUPS = [
    ("generator: graph walk (extend_right, left parts, records)", r"extend_right|left_parts|record_play"),
    ("generator: word map search", r"search_window|window_extent|subset_score|sift_window_.*|generate_plays_by_word_map"
                                   r"|word_map_leave|whole_rack_makes_word|lx_wordmap_.*|playable_from|.*wordmap.*"),
    ("generator: anchors, bounds, the call's set-up", r"lx_movegen_run.*|generate_plays|sort_anchors|by_bound"
                                                      r"|prepare_bounds"
                                                      r"|prepare_word_map|collect_anchors|compute_place_values"
                                                      r"|rank_.*|sort_heap|start_generator|read_board"),
    ("libc qsort (the anchors' order)", r"qsort|msort_with_tmp|msort"),
    ("board state brought up to date / set up / copied", r"update_square|follow_tile|cross_set|completes_cross_word"
                                                          r"|update_orientation|note_changes|note_neighbour|add_once"
                                                          r"|lx_board_state_.*|put_tile|update_around|every_code"),
    ("leave values of the rack's subsets", r"walk_leaves|leave_at|value_leaves|indexed_leave_value"),
    ("turn, draws, deal, records", r"lx_take_turn|make_play|make_exchange|choose_exchange|best_play|play_one"
                                   r"|lx_draw|lx_exchange|begin_turn|write_game|deal.*|lx_shuffle|lx_random_.*"
                                   r"|play_claimed_.*|play_out|make_candidate|candidate_.*|write_result|lx_place_tiles"
                                   r"|lx_leave_key|lx_rack_points|claim_.*"),
    ("libc memcpy / memset", r"__mem.*|memcpy|memset"),
    ("libc malloc / free", r"malloc|free|_int_malloc|_int_free|cfree|calloc|realloc|_int_realloc|malloc_consolidate"),
]

#: MAGPIE's parts (built with link-time optimisation, most of its generator is inlined in generate_moves): inclusive
#: counts of a few functions; indented rows are parts of the row above.
MAGPIE_GROUPS = [
    ("move generation (generate_moves)", r"generate_moves"),
    ("  exchanges generated", r"generate_exchange_moves.*"),
    ("  shadow bounds", r"shadow_record"),
    ("  plays recorded (gen_record_scoring_plays)", r"gen_record_scoring_plays"),
    ("a play made (play_move_internal)", r"play_move_internal"),
    ("  cross-sets brought up to date", r"update_cross_set_for_move"),
    ("the game backed up before a play-out", r"game_backup"),
    ("the play-out's plays undone", r"game_unplay_last_move"),
]

LINE = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(\S.*?)\s*$")


def lexigraph_child(job: str, pairs: int, playouts: int) -> None:
    """The job itself, in this process (under callgrind)."""
    import lexigraph
    from bench_magpie import SIM_ROWS, cgp, lexicon
    from lexigraph.scrabble.game import Game
    from lexigraph.scrabble.leaves import load_leaves
    from lexigraph.scrabble.position import Position
    from lexigraph.scrabble.runs import autoplay
    from lexigraph.scrabble.selfplay import Player
    from lexigraph.scrabble.simulation import simulate

    magpie_dir = os.environ.get("MAGPIE_DIR")
    lex: lexigraph.Lexicon = lexicon(Path(magpie_dir) if magpie_dir else None)
    game = Game.preset("scrabble")
    table = load_leaves(game.leaves, lex.store.alphabet)
    if job == "selfplay":
        run = autoplay(lex, game, [Player.equity(table, "a"), Player.equity(table, "b")], games=2 * pairs, seed=1,
                       workers=1, threads=1, keep_games=True)
        assert run.turns is not None
        print(f"TURNS {len(run.turns)}")
    else:
        pos = Position.from_cgp(cgp(SIM_ROWS[0]), game)
        result = simulate(lex, pos, leaves=table, candidates=5, plies=2, iterations=playouts // 5, seed=1,
                          workers=1, stopping=False)
        print(f"PLAYOUTS {sum(p.iterations for p in result.ranked)} best {result.best.notation}")


def callgrind(command: list[str], out: Path, entry: str) -> str:
    run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--collect-atstart=no",
                          f"--toggle-collect={entry}", *command], capture_output=True, text=True, check=True)
    return run.stdout


def annotate(out: Path, inclusive: bool) -> tuple[int, dict[str, int]]:
    """The instructions counted (the entry's, all calls), and per function (callgrind's name less a recursion
    mark): with ``inclusive``, its inclusive count (the largest listed: a function inlined in several places is
    listed once per place), else its own count (the sum of its lines, wherever their source)."""
    text = subprocess.run(["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}", "--threshold=100", "--auto=no",
                           str(out)], capture_output=True, text=True, check=True).stdout
    counts: dict[str, int] = {}
    total = 0
    for line in text.splitlines():
        if "PROGRAM TOTALS" in line:
            total = int(line.split()[0].replace(",", ""))
            continue
        m = LINE.match(line)
        if not m:
            continue
        name = m.group(2).split(":", 1)[-1].split(" [", 1)[0].strip().split("'", 1)[0]
        value = int(m.group(1).replace(",", ""))
        counts[name] = max(counts.get(name, 0), value) if inclusive else counts.get(name, 0) + value
    return total, counts


def matcher(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"^({pattern})(\..*)?$")


def rows(program: str, out: Path) -> tuple[int, list[tuple[str, int]]]:
    """The instructions counted and the parts of them, in the order of the program's groups."""
    if program == "lexigraph":
        total, own = annotate(out, inclusive=False)
        parts = {name: 0 for name, _ in OWN_GROUPS}
        other = 0
        for function, value in own.items():
            group = next((name for name, pattern in OWN_GROUPS if matcher(pattern).match(function)), None)
            if group is None:
                other += value
            else:
                parts[group] += value
        return total, [*parts.items(), ("other", other)]
    total, counts = annotate(out, inclusive=True)
    found = []
    for name, pattern in MAGPIE_GROUPS:
        regex = matcher(pattern)
        # one count per function: the largest of its copies (name.part.0, name.constprop.0)
        found.append((name, max((v for k, v in counts.items() if regex.match(k)), default=0)))
    return total, found


def report(program: str, job: str, out: Path, units: int, unit: str, turns: int | None) -> None:
    total, parts = rows(program, out)
    print(f"## {program}: {units:,} {unit}s, {total:,} instructions in {ENTRY[(program, job)]} "
          f"({total / units:,.0f} per {unit}" + (f", {turns:,} turns, {total / turns:,.0f} per turn" if turns else "")
          + ")")
    print()
    print(f"| part | instructions per {unit} | share |")
    print("|---|--:|--:|")
    for name, part in parts:
        if part:
            print(f"| {name.replace('  ', '&nbsp;&nbsp;')} | {part / units:,.0f} | {100 * part / total:.1f}% |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("job", choices=("selfplay", "sim"))
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--playouts", type=int, default=500)
    parser.add_argument("--only", choices=("lexigraph", "magpie"))
    parser.add_argument("--out", type=Path, help="keep the callgrind files here")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        lexigraph_child(args.job, args.pairs, args.playouts)
        return
    out_dir = args.out or Path(tempfile.mkdtemp())
    out_dir.mkdir(parents=True, exist_ok=True)
    units = 2 * args.pairs if args.job == "selfplay" else args.playouts
    unit = "game" if args.job == "selfplay" else "play-out"
    if args.only in (None, "lexigraph"):
        out = out_dir / f"lexigraph-{args.job}.callgrind"
        text = callgrind([sys.executable, __file__, args.job, "--child", "--pairs", str(args.pairs),
                          "--playouts", str(args.playouts)], out, ENTRY[("lexigraph", args.job)])
        turns = next((int(line.split()[1]) for line in text.splitlines() if line.startswith("TURNS ")), None)
        print("".join(line + "\n" for line in text.splitlines() if line.startswith("PLAYOUTS")))
        report("lexigraph", args.job, out, units, unit, turns)
    harness = os.environ.get("MAGPIE_BENCH")
    if args.only in (None, "magpie") and harness and Path(harness).exists():
        from bench_magpie import AUTOPLAY_COMMAND, SIM_COMMAND, SIM_ROWS, Magpie, cgp

        magpie = Magpie(Path(harness), Path(os.environ.get("MAGPIE_DIR", Path(harness).resolve().parents[1])) / "data")
        if args.job == "selfplay":
            tail = ["autoplay", AUTOPLAY_COMMAND.format(pairs=args.pairs, seed=1)]
        else:
            tail = ["cmd", cgp(SIM_ROWS[0]), SIM_COMMAND.format(n=args.playouts, seed=1)]
        out = out_dir / f"magpie-{args.job}.callgrind"
        text = callgrind([str(magpie.harness), str(magpie.data), magpie.settings(True), *tail], out,
                         ENTRY[("magpie", args.job)])
        turns = None
        if args.job == "selfplay":  # MAGPIE prints its turns
            turns = next((int(line.split()[-1]) for line in text.splitlines() if line.startswith("Turns Played")), None)
        report("magpie", args.job, out, units, unit, turns)
    print(f"callgrind files: {out_dir}")


if __name__ == "__main__":
    main()
