"""Issue 35: simulation speed with the win table and best-arm identification against today's objective, in one run.

Positions: the ``bench_sim.py`` harvest on TWL06 (the board before turn 6 of self-play games, bag non-empty). For
each, both objectives simulate the best 5 moves by equity, 2 plies, at most ``--iterations`` iterations with
their stopping rule on, one process; rounds interleaved (win, simmer, win, simmer, ...). Reported: play-outs per
CPU second of this process (``time.process_time``; every candidate's play-outs counted), medians and ranges, and
the play-outs each needed before it stopped.

    python bench/bench_simspeed.py --positions 5 --rounds 3 --iterations 400
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_sim import SHIPPED, harvest  # noqa: E402
from common import data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.scrabble.leaves import LeaveTable  # noqa: E402
from lexigraph.scrabble.simulation import simulate  # noqa: E402
from lexigraph.scrabble.winpct import default_table  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=400)
    args = parser.parse_args()
    path = os.path.join(tempfile.gettempdir(), f"bench-simspeed-twl06-{os.getpid()}.lex")
    lexigraph.build(data_file("twl06.txt"), path, name="TWL06")
    lex = lexigraph.open(path)
    table = LeaveTable.read(str(SHIPPED), lex.store.alphabet)
    default_table()  # read once, before the clock
    positions = harvest(lex, table, args.positions)
    rates: dict[str, list[float]] = {"win": [], "simmer": []}
    used: dict[str, list[int]] = {"win": [], "simmer": []}
    for _round in range(args.rounds):
        for k, pos in enumerate(positions):
            for objective in ("win", "simmer"):
                cpu = time.process_time()
                result = simulate(lex, pos, leaves=table, candidates=5, plies=2, iterations=args.iterations,
                                  seed=k, objective=objective)
                spent = time.process_time() - cpu
                playouts = sum(p.iterations for p in result.ranked)
                rates[objective].append(playouts / spent)
                used[objective].append(playouts)
    for objective in ("win", "simmer"):
        r = rates[objective]
        print(f"{objective:6s}: {statistics.median(r):,.0f} play-outs per CPU s (range {min(r):,.0f}-{max(r):,.0f}); "
              f"play-outs per simulation: median {statistics.median(used[objective]):,.0f} "
              f"(of at most {5 * args.iterations:,})")
    print(f"ratio win/simmer (medians): {statistics.median(rates['win']) / statistics.median(rates['simmer']):.3f}")


if __name__ == "__main__":
    main()
