"""Issue 36: the pre-endgame beside MAGPIE's ``peg``, on the same self-play positions, in one run.

    python bench/bench_peg.py                              # 4 positions, 1 tile in the bag, 60 s each
    python bench/bench_peg.py --positions 6 --bag 2 --time-limit 120

Positions come from self-play (TWL06 compiled from ../shared/data/twl06.txt, both players by equity): each game
replayed to its first turn with 1 to ``--bag`` tiles in the bag (``lexigraph.scrabble.peg.first_pre_endgame``);
their CGP is written to ``bench/results/peg-positions.cgp``. Each position is solved by both, interleaved:
lexigraph in this process (``solve_peg`` over every play and the pass, its CPU time by ``time.thread_time``),
MAGPIE as a child (``peg -pegtopk all``, its exhaustive setting: every candidate to the end of the game, with
``-pegtlim``; CPU time by ``resource.getrusage(RUSAGE_CHILDREN)``), both on one thread with the same time limit.
Reported per position: each one's best play, whether it finished, and the CPU seconds.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.leaves import LeaveTable  # noqa: E402
from lexigraph.scrabble.peg import first_pre_endgame, solve_peg  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402
from lexigraph.scrabble.selfplay import Player, autoplay  # noqa: E402

MAGPIE = Path(os.environ.get("MAGPIE_DIR", "/work/peers/magpie"))
SHIPPED = ROOT / "src" / "lexigraph" / "data" / "english-leaves.klv2"


def harvest(lex: lexigraph.Lexicon, count: int, bag: int, seed: int, games: int) -> list[Position]:
    table = LeaveTable.read(str(SHIPPED), lex.store.alphabet)
    run = autoplay(lex, Game.preset("scrabble"), [Player.equity(table, "a"), Player.equity(table, "b")],
                   games=games, seed=seed, workers=1, keep_games=True)
    out: list[Position] = []
    for k in range(games):
        pos = first_pre_endgame(run, k, bag)
        if pos is not None and len(pos.unseen()) - 7 == bag and pos.to_cgp() not in {p.to_cgp() for p in out}:
            out.append(pos)
        if len(out) == count:
            break
    return out


def run_magpie(pos: Position, seconds: float) -> tuple[str, bool, float]:
    """MAGPIE's best play, whether its exhaustive stage finished, and its CPU seconds."""
    cgp = pos.to_cgp().split(" lex ")[0]
    script = f"cgp {cgp}\npeg -pegtopk all -pegtlim {seconds:g}\n"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(["./bin/magpie", "set", "-mode", "sync", "-lex", "TWL06", "-threads", "1",
                          "-savesettings", "false", "-hr", "true"], input=script, capture_output=True, text=True,
                         cwd=MAGPIE, timeout=seconds * 3 + 60).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    best = re.search(r"^\s*1\s+(\S+(?: \S+)?)\s+\d+\s+\d+\s+\d+", out, re.M)
    stages = re.search(r"last completed stage (\d+)", out)
    finished = stages is not None and int(stages.group(1)) >= 1
    return (best.group(1) if best else "?"), finished, cpu


def run_lexigraph(lex: lexigraph.Lexicon, pos: Position, seconds: float) -> tuple[str, bool, float, int]:
    start = time.thread_time()
    solution = solve_peg(lex, pos, time_limit=seconds)
    cpu = time.thread_time() - start
    return solution.best.notation, solution.exact, cpu, solution.endgames


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--bag", type=int, default=1, choices=(1, 2, 3, 4))
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=36)
    args = ap.parse_args()
    lex = lexigraph.open(data_file("twl06.txt"))
    positions = harvest(lex, args.positions, args.bag, args.seed, args.games)
    results = ROOT / "bench" / "results"
    results.mkdir(exist_ok=True)
    (results / "peg-positions.cgp").write_text("".join(p.to_cgp() + "\n" for p in positions))
    print(f"{len(positions)} positions, bag {args.bag}, time limit {args.time_limit:g} s, one thread each")
    for pos in positions:
        ours = run_lexigraph(lex, pos, args.time_limit)
        theirs = run_magpie(pos, args.time_limit)
        print(f"{pos.to_cgp()}\n  lexigraph {ours[0]:16s} {'exact' if ours[1] else 'cut':5s} {ours[2]:7.2f} s CPU "
              f"({ours[3]} endgames)   magpie {theirs[0]:16s} {'done' if theirs[1] else 'cut':5s} {theirs[2]:7.2f} s CPU"
              f"   same best: {ours[0] == theirs[0]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
