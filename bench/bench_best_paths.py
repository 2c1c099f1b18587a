"""The best move's two paths on the positions self-play really meets: the word map and the graph walk, per rack.

    python bench/bench_best_paths.py harvest [--games 40] [--seed 34]
    python bench/bench_best_paths.py time [--rounds 5] [--calls 3]
    python bench/bench_best_paths.py count --mode MODE          (under valgrind --tool=callgrind, see below)

``harvest`` plays ``--games`` seeded TWL06 self-play games (static equity players, the shipped leave table, one
process) and writes every turn's position (the board before the turn and the rack of the player on turn, as CGP;
the bag is the unseen tiles less a rack, as ``generate`` counts it) to ``bench/results/selfplay-positions.cgp``
(``bench/results`` is kept out of git). The TWL06 lexicon is built once into ``bench/results/twl06.lex`` and its word
map cached.

``time`` runs the C generation alone (``engine.generate_moves`` on a request prepared beforehand: ``top=1``, pruned,
by equity with the shipped table, the board set up in the call as ``generate`` does) on every harvested position,
for each path (``_native.word_map_path``: 0 chosen per rack, 1 the word map whenever it answers, 2 the graph walk
with the map in its bounds), modes interleaved within each round, thread CPU time; checks that the three give the
same record bytes; prints µs a call (median over rounds of the per-class sums) by rack kind (a blank; no blank and
a word by itself; no blank) and board (empty; open: fewer than 45 tiles on it;
closed: 45 or more).

``count`` runs each position's generation once with one mode, for instruction counts::

    valgrind --tool=callgrind --toggle-collect='lx_movegen_run' --callgrind-out-file=bench/results/cg.MODE \\
        .venv/bin/python bench/bench_best_paths.py count --mode MODE [--kind noblank]
    callgrind_annotate bench/results/cg.MODE | head

(only the generation is counted: the function the toggle names and what it calls).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph import _native  # noqa: E402
from lexigraph.scrabble import equity as eq  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.leaves import load_leaves  # noqa: E402
from lexigraph.scrabble.movegen import aligned, move_request  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402
from lexigraph.scrabble.runs import autoplay  # noqa: E402
from lexigraph.scrabble.selfplay import Player  # noqa: E402
from lexigraph.scrabble.tiles import parse_rack, rack_text  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
POSITIONS = RESULTS / "selfplay-positions.cgp"
#: Boards with this many tiles or more count as closed (the late game: few lines left for long plays).
CLOSED_FROM = 45
MODES = {0: "chosen", 1: "word map", 2: "graph walk"}


def open_twl06() -> lexigraph.Lexicon:
    """TWL06 built once into bench/results, its word map built and cached on first use."""
    path = RESULTS / "twl06.lex"
    if not path.exists():
        RESULTS.mkdir(exist_ok=True)
        lexigraph.build(data_file("twl06.txt"), path, name="TWL06")
    lex = lexigraph.open(path)
    if lex.word_map() is None:
        sys.exit("no word map for TWL06")
    return lex


def harvest(games: int, seed: int) -> None:
    lex = open_twl06()
    game = Game.preset("scrabble").for_lexicon(lex.alphabet)
    table = load_leaves(game.leaves, lex.store.alphabet)
    players = [Player.equity(table, "a"), Player.equity(table, "b")]
    run = autoplay(lex, game, players, games=games, seed=seed, workers=1, keep_games=True)
    lines = []
    for k in range(games):
        for turn, pos, _totals, _zeros in run.replay(k):
            here = pos.copy()
            here.racks = [rack_text(game, [int(c) for c in turn["rack"][: turn["rack_length"]]]), ""]
            lines.append(here.to_cgp())
    RESULTS.mkdir(exist_ok=True)
    POSITIONS.write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} positions of {games} games (seed {seed}) -> {POSITIONS}")


def board_kind(pos: Position) -> str:
    """empty; open (fewer than CLOSED_FROM tiles on the board: most lines still take long plays); closed."""
    tiles = sum(1 for c in pos.codes if c)
    return "empty" if not tiles else "open" if tiles < CLOSED_FROM else "closed"


def requests(lex: lexigraph.Lexicon, kind: str | None = None, source: Path = POSITIONS) -> list[tuple[str, str, object]]:
    """(rack kind, board kind, request) per harvested position (or per position of another CGP file)."""
    if not source.exists():
        sys.exit(f"no positions: run `{sys.argv[0]} harvest` first")
    game = Game.preset("scrabble").for_lexicon(lex.alphabet)
    table = load_leaves(game.leaves, lex.store.alphabet)
    wm = lex.word_map()
    out = []
    for line in source.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        pos = aligned(lex, Position.from_cgp(line, game))
        rack = pos.racks[0]
        codes = parse_rack(game, rack)
        if not codes:
            continue
        values = eq.rack_values(pos, codes, table, bag=eq.bag_size(pos, codes), engine=lex.engine)
        request = move_request(lex, pos, codes, values, leaves=table, top=1, prune=True)
        if 0 in codes:
            rack_kind = "blank"
        else:
            rack_kind = "no blank, a word" if wm is not None and len(codes) > 1 and wm.has_word(rack) \
                else "no blank"
        out.append((rack_kind, board_kind(pos), request))
    if kind == "noblank":
        out = [r for r in out if r[0] != "blank"]
    elif kind == "blank":
        out = [r for r in out if r[0] == "blank"]
    return out


def time_paths(rounds: int, calls: int, source: Path) -> None:
    lex = open_twl06()
    cases = requests(lex, source=source)
    generate = lex.engine.generate_moves
    # the same records on every path
    for _rack_kind, _board_kind, request in cases:
        answers = []
        for mode in MODES:
            _native.word_map_path(mode)
            answers.append(generate(request))
        if not answers[0] == answers[1] == answers[2]:
            sys.exit(f"the paths differ on {request!r}")
    _native.word_map_path(0)
    classes = sorted({(r, b) for r, b, _ in cases})
    sums: dict[tuple[int, str, str], list[float]] = {}
    for _ in range(rounds):
        for mode in MODES:
            _native.word_map_path(mode)
            totals: dict[tuple[str, str], float] = {c: 0.0 for c in classes}
            for rack_kind, kind, request in cases:
                start = time.thread_time()
                for _ in range(calls):
                    generate(request)
                totals[rack_kind, kind] += (time.thread_time() - start) / calls * 1e6
            for c, total in totals.items():
                sums.setdefault((mode, *c), []).append(total)
    _native.word_map_path(0)
    counts = {c: sum(1 for r, b, _ in cases if (r, b) == c) for c in classes}
    print(f"{len(cases)} positions, {rounds} rounds of {calls} calls; µs a call, median [range] over rounds, "
          "thread CPU; the same records on every path")
    print()
    print("| rack | board | positions | " + " | ".join(MODES.values()) + " | graph / map |")
    print("|---|---|--:|" + "--:|" * len(MODES) + "--:|")

    def cell(values: list[float], n: int) -> str:
        return (f"{statistics.median(values) / n:,.1f} [{min(values) / n:,.1f}-{max(values) / n:,.1f}]")

    every: dict[int, list[float]] = {m: [0.0] * rounds for m in MODES}
    for rack_kind, kind in classes:
        n = counts[rack_kind, kind]
        cells = [cell(sums[m, rack_kind, kind], n) for m in MODES]
        for m in MODES:
            for r in range(rounds):
                every[m][r] += sums[m, rack_kind, kind][r]
        ratio = statistics.median(sums[2, rack_kind, kind]) / statistics.median(sums[1, rack_kind, kind])
        print(f"| {rack_kind} | {kind} | {n} | " + " | ".join(cells) + f" | {ratio:.2f}x |")
    n = len(cases)
    ratio = statistics.median(every[2]) / statistics.median(every[1])
    print("| all | | " + f"{n} | " + " | ".join(cell(every[m], n) for m in MODES) + f" | {ratio:.2f}x |")


def count(mode: int, kind: str | None, source: Path) -> None:
    lex = open_twl06()
    cases = requests(lex, kind, source)
    if mode or hasattr(_native, "word_map_path"):  # mode 0 runs on builds without the switch too (a base revision)
        _native.word_map_path(mode)
    for _r, _b, request in cases:
        lex.engine.generate_moves(request)
    print(f"{len(cases)} generations, mode {mode} ({MODES[mode]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    h = sub.add_parser("harvest")
    h.add_argument("--games", type=int, default=40)
    h.add_argument("--seed", type=int, default=34)
    t = sub.add_parser("time")
    t.add_argument("--rounds", type=int, default=5)
    t.add_argument("--calls", type=int, default=3)
    c = sub.add_parser("count")
    c.add_argument("--mode", type=int, choices=sorted(MODES), required=True)
    c.add_argument("--kind", choices=("blank", "noblank"))
    for command in (t, c):
        command.add_argument("--positions", type=Path, default=POSITIONS,
                             help="a CGP file of positions with racks (default: the harvested ones)")
    args = parser.parse_args()
    if args.command == "harvest":
        harvest(args.games, args.seed)
    elif args.command == "time":
        time_paths(args.rounds, args.calls, args.positions)
    else:
        count(args.mode, args.kind, args.positions)


if __name__ == "__main__":
    main()
