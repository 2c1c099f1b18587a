"""Issue 36: rack inference on self-play turns, the inferred mean leave value beside the truth and beside none.

    python bench/bench_inference.py                       # 40 turns
    python bench/bench_inference.py --turns 1000 --games 100

Self-play games (TWL06 from ../shared/data/twl06.txt, both players by equity with the shipped leave table)
are replayed turn by turn; at every play made with tiles left in the bag afterwards, the position before it
(the mover on turn, their rack hidden, the observer's rack hidden too: every tile off the board is unseen) and
the play are handed to ``lexigraph.scrabble.inference.infer`` (margin 5, the same leave table), and the
distribution's mean leave value is set beside the value of the leave the player really kept, and beside the
mean under no inference (``margin=inf``: the draw probabilities alone). Reported: the mean absolute error of
each against the truth, how often inference is closer, and the CPU time per inference.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.engine.interface import TURN_PLAY  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.inference import infer  # noqa: E402
from lexigraph.scrabble.leaves import LeaveTable  # noqa: E402
from lexigraph.scrabble.moves import move_from_record  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402
from lexigraph.scrabble.selfplay import Player, autoplay  # noqa: E402
from lexigraph.scrabble.tiles import rack_text  # noqa: E402

SHIPPED = ROOT / "src" / "lexigraph" / "data" / "english-leaves.klv2"


def turns_of(run, k: int):
    """(position before, the play, the true leave's codes) of each play of game ``k`` that leaves tiles in the
    bag."""
    game = run.game
    pos = Position(game)
    for t in run.game_turns(k):
        rack = [int(c) for c in t["rack"][: t["rack_length"]]]
        if int(t["kind"]) != TURN_PLAY:
            continue
        raw = (int(t["score"]), int(t["row"]), int(t["col"]), int(t["across"]), bytes(int(x) for x in t["squares"][: t["length"]]))
        move = move_from_record(pos, rack, raw)
        used = [0 if b & 0x80 else b for b in raw[4] if b]
        leave = list(rack)
        for c in used:
            leave.remove(c)
        if int(t["bag_before"]) - len(used) > 0 and leave:
            yield pos.copy(), move, leave
        pos = pos.with_play(move)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--samples", type=int, default=500)
    ap.add_argument("--max-leaves", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=36)
    args = ap.parse_args()
    lex = lexigraph.open(data_file("twl06.txt"))
    game = Game.preset("scrabble")
    table = LeaveTable.read(str(SHIPPED), lex.store.alphabet)
    run = autoplay(lex, game, [Player.equity(table, "a"), Player.equity(table, "b")], games=args.games,
                   seed=args.seed, workers=1, keep_games=True)
    errors_inferred, errors_none, closer, seconds, exact = [], [], 0, [], 0
    for k in range(args.games):
        for pos, move, leave in turns_of(run, k):
            if len(errors_inferred) >= args.turns:
                break
            truth = table.value(leave)
            started = time.process_time()
            inferred = infer(lex, pos, move, margin=5.0, leaves=table, samples=args.samples,
                             max_leaves=args.max_leaves, seed=len(errors_inferred))
            seconds.append(time.process_time() - started)
            prior = infer(lex, pos, move, margin=math.inf, leaves=table, samples=args.samples,
                          max_leaves=args.max_leaves, seed=len(errors_inferred))
            guess = inferred.mean_value(table) if inferred.leaves else prior.mean_value(table)
            errors_inferred.append(abs(guess - truth))
            errors_none.append(abs(prior.mean_value(table) - truth))
            closer += errors_inferred[-1] < errors_none[-1]
            exact += inferred.exact
            print(f"{len(errors_inferred):4d} {move.notation:20s} truth {truth:+7.2f} inferred {guess:+7.2f} "
                  f"none {prior.mean_value(table):+7.2f} ({inferred.consistent} leaves, "
                  f"{'exact' if inferred.exact else 'sampled'}, {seconds[-1]:.2f} s)", flush=True)
    n = len(errors_inferred)
    print(f"turns {n}: mean |error| inferred {statistics.mean(errors_inferred):.2f}, none "
          f"{statistics.mean(errors_none):.2f}; inference closer on {closer} ({100 * closer / n:.0f}%); "
          f"exact {exact}; CPU per inference median {statistics.median(seconds):.2f} s "
          f"(range {min(seconds):.2f}-{max(seconds):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
