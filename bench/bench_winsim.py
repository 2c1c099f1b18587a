"""Issue 35: the simulation player by win probability against today's, at the same play-out budget per turn.

Both players are ``Player.simulation`` with the shipped leave table, the best 5 moves by equity, 2 plies and at
most ``--iterations`` play-outs per candidate a turn (the same budget of play-outs, so the same CPU: a play-out
costs the same C work whichever player asks for it, and the win table's lookup is one NumPy gather per batch):

* new: ``objective="win"``: play-outs end in the shipped win table's chance, spread as a tie-breaker, plays
  dropped by best-arm identification;
* today's: ``objective="simmer"``: mean spread + weight x simmer's sigmoid, the paired z rule.

They meet in mirrored pairs on TWL06 (compiled from ../shared/data/twl06.txt), each pair's two games dealing
the same bag. Pairs are played in chunks and the running totals are printed after each one (a run cut short
still reports a rate): the new player's win rate and its standard error over pairs.

    python bench/bench_winsim.py --pairs 1000 --chunk 10 --workers 2
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.leaves import LeaveTable  # noqa: E402
from lexigraph.scrabble.selfplay import Player, autoplay  # noqa: E402

SHIPPED = ROOT / "src" / "lexigraph" / "data" / "english-leaves.klv2"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--chunk", type=int, default=10, help="pairs per chunk")
    parser.add_argument("--iterations", type=int, default=64)
    parser.add_argument("--candidates", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=350_001)
    args = parser.parse_args()
    path = os.path.join(tempfile.gettempdir(), f"bench-winsim-twl06-{os.getpid()}.lex")
    lexigraph.build(data_file("twl06.txt"), path, name="TWL06")
    lex = lexigraph.open(path)
    table = LeaveTable.read(str(SHIPPED), lex.store.alphabet)
    new = Player.simulation(table, candidates=args.candidates, iterations=args.iterations, name="win",
                            objective="win")
    old = Player.simulation(table, candidates=args.candidates, iterations=args.iterations, name="simmer",
                            objective="simmer")
    pair_results: list[float] = []
    spreads: list[float] = []
    began = time.monotonic()
    cpu0 = time.process_time()
    for first in range(0, 2 * args.pairs, 2 * args.chunk):
        games = min(2 * args.chunk, 2 * args.pairs - first)
        run = autoplay(lex, Game.preset("scrabble"), [new, old], games=games, seed=args.seed, first=first,
                       workers=args.workers, keep_games=True)
        assert run.games is not None
        diff = run.games["final"][:, 0].astype(int) - run.games["final"][:, 1]
        result = (diff > 0) + 0.5 * (diff == 0)
        pair_results.extend(result.reshape(-1, 2).mean(axis=1).tolist())
        spreads.extend(diff.tolist())
        n = len(pair_results)
        rate = sum(pair_results) / n
        se = (math.sqrt(sum((x - rate) ** 2 for x in pair_results) / (n - 1) / n) if n > 1 else 0.0)
        print(f"{n:5d} pairs ({2 * n} games): win {100 * rate:.2f}% ± {100 * se:.2f}, mean spread "
              f"{sum(spreads) / len(spreads):+.2f}, {time.monotonic() - began:.0f} s "
              f"(this process {time.process_time() - cpu0:.0f} s CPU)", flush=True)


if __name__ == "__main__":
    main()
