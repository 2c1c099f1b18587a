"""Issue 35: the simulation player by win probability against today's, at the same play-out budget per turn.

Both players are ``Player.simulation`` with the shipped leave table, the best 5 moves by equity, 2 plies and at
most ``--iterations`` play-outs per candidate a turn (the same budget of play-outs, so the same CPU: a play-out
costs the same C work whichever player asks for it, and the win table's lookup is one NumPy gather per batch):

* new: ``objective="win"``: play-outs end in the shipped win table's chance, spread as a tie-breaker, plays
  dropped by best-arm identification;
* today's: ``objective="simmer"``: mean spread + weight x simmer's sigmoid, the paired z rule.

The new player also searches the last turns (``endgame=True``, which the bench asks for): the bag empty,
the exact endgame solver's best move within ``--endgame-seconds``; with ``--pre-endgame``, one or two tiles in the
bag, the pre-endgame solver's answer when it judges every draw within that budget. ``--no-endgame`` simulates
every turn as before.

They meet in mirrored pairs on TWL06 (compiled from ../shared/data/twl06.txt), each pair's two games dealing
the same bag. Pairs are played in chunks and the running totals are printed after each one (a run cut short
still reports a rate): the new player's win rate and its standard error over pairs, and each player's CPU time
per turn (the worker's process CPU time around each choice, logged by
:func:`lexigraph.scrabble.simulation_player.log_turn_cpu`): mean and median over all its turns, and the mean over
its end turns (the bag empty) and the other turns.

    python bench/bench_winsim.py --pairs 1000 --chunk 10 --workers 2
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.leaves import LeaveTable  # noqa: E402
from lexigraph.scrabble.selfplay import Player, autoplay  # noqa: E402
from lexigraph.scrabble.simulation_player import log_turn_cpu, read_turn_cpu  # noqa: E402

SHIPPED = ROOT / "src" / "lexigraph" / "data" / "english-leaves.klv2"


def cpu_per_turn(logged: Iterable[tuple[str, int, float]]) -> dict[str, dict[str, float]]:
    """Each player's CPU seconds per turn from the logged choices (player, bag before the turn, seconds): the
    turns, the mean and median over all, and the mean over the turns with the bag empty (``end``) and the others
    (``before``; NaN when there were none).

    >>> cpu_per_turn([("a", 0, 0.5), ("a", 10, 0.1), ("a", 20, 0.3), ("b", 5, 0.2)])["a"]
    {'turns': 3, 'mean': 0.3, 'median': 0.3, 'end': 0.5, 'before': 0.2}
    """
    by_player: dict[str, list[tuple[int, float]]] = {}
    for who, bag, seconds in logged:
        by_player.setdefault(who, []).append((bag, seconds))
    out = {}
    for who, turns in sorted(by_player.items()):
        every = [s for _b, s in turns]
        end = [s for b, s in turns if b == 0]
        before = [s for b, s in turns if b > 0]
        out[who] = {"turns": len(every), "mean": statistics.fmean(every), "median": statistics.median(every),
                    "end": statistics.fmean(end) if end else math.nan,
                    "before": statistics.fmean(before) if before else math.nan}
    return out


def cpu_line(summary: dict[str, dict[str, float]]) -> str:
    """The CPU summary as one line of the report, milliseconds per turn."""
    return "; ".join(f"{who} CPU/turn mean {1000 * c['mean']:.1f} ms median {1000 * c['median']:.1f} ms "
                     f"(end {1000 * c['end']:.1f}, before {1000 * c['before']:.1f}, {int(c['turns'])} turns)"
                     for who, c in summary.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--chunk", type=int, default=10, help="pairs per chunk")
    parser.add_argument("--iterations", type=int, default=64)
    parser.add_argument("--candidates", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=350_001)
    parser.add_argument("--no-endgame", action="store_true", help="the new player simulates the last turns too")
    parser.add_argument("--endgame-seconds", type=float, default=None, help="the new player's end-of-game budget")
    parser.add_argument("--pre-endgame", action="store_true", help="the new player solves bag 1-2 pre-endgames")
    parser.add_argument("--cpu-log", default=None, help="prefix of the CPU logs (default: a scratch folder)")
    args = parser.parse_args()
    cpu_log = args.cpu_log or os.path.join(tempfile.mkdtemp(prefix="bench-winsim-cpu-"), "turns")
    log_turn_cpu(cpu_log)
    path = os.path.join(tempfile.gettempdir(), f"bench-winsim-twl06-{os.getpid()}.lex")
    lexigraph.build(data_file("twl06.txt"), path, name="TWL06")
    lex = lexigraph.open(path)
    table = LeaveTable.read(str(SHIPPED), lex.store.alphabet)
    budget = {} if args.endgame_seconds is None else {"endgame_seconds": args.endgame_seconds}
    new = Player.simulation(table, candidates=args.candidates, iterations=args.iterations, name="win",
                            objective="win", endgame=not args.no_endgame, pre_endgame=args.pre_endgame, **budget)
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
        print(f"      {cpu_line(cpu_per_turn(read_turn_cpu(cpu_log)))}", flush=True)


if __name__ == "__main__":
    main()
