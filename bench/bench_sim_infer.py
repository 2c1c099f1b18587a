"""Issue 36: does the simulation pick better plays when it deals the opponent's rack from the inferred leave?

    LEXIGRAPH_SHARED_DATA=/work/shared/data python bench/bench_sim_infer.py --pairs 20
    python bench/bench_sim_infer.py --pairs 200 --minutes 40 --out bench/results/sim-infer.jsonl

A mirrored match on TWL06 with the shipped leave table between two simulation players that differ in one thing:
player I deals the opponent's racks in its play-outs from the inference of the opponent's last move
(``simulate(..., infer=...)``, margin 5, at most ``--max-leaves`` leaves enumerated, else ``--samples`` racks
sampled), player N draws them from the unseen tiles. Otherwise both choose alike: the best ``--candidates``
moves by equity (plays, exchanges, the pass), ``--iterations`` play-outs of 2 plies (the stopping rule on), the
win objective; one candidate, or nothing unseen, plays the best by equity. The simulations of turn t of pair k
are seeded from (seed, k, t) for both players.

Pair k shuffles one bag (``random.Random((seed, k))``) and plays it twice, I first then N first. The game's
rules are self-play's: racks drawn from the bag's end, an exchange needs a full rack in the bag (the tiles go
back and the bag is shuffled again by the pair's generator), a player out with the bag empty gains twice the
other rack's points, six scoreless turns in a row end the game (each loses its rack's points).

Reported: I's result per game (1, 1/2, 0) and its spread, the means over pairs with standard errors over pairs
(the two games of a pair share a bag: they are not independent), and the CPU time of each player's choices.
Each game is printed (and appended to ``--out`` as JSON) as it ends, so a run cut short still answers.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.scrabble import equity as eq  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.inference import infer  # noqa: E402
from lexigraph.scrabble.leaves import LeaveTable  # noqa: E402
from lexigraph.scrabble.movegen import generate  # noqa: E402
from lexigraph.scrabble.moves import Move  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402
from lexigraph.scrabble.simulation import simulate  # noqa: E402
from lexigraph.scrabble.tiles import parse_rack, rack_text  # noqa: E402

SHIPPED = ROOT / "src" / "lexigraph" / "data" / "english-leaves.klv2"


class Seat:
    """A player's side: its rack (codes), score, and whether it infers."""

    def __init__(self, name: str, infers: bool) -> None:
        self.name, self.infers = name, infers
        self.rack: list[int] = []
        self.score = 0
        self.cpu = 0.0


def choose(lex, pos: Position, table: LeaveTable, seed: int, args, inference) -> Move:
    found = list(generate(lex, pos, top=args.candidates, exchanges=True, passes=True, leaves=table, sort="equity",
                          count_all=False))
    if len(found) == 1 or sum(eq.unseen_counts(pos, parse_rack(pos.game, pos.racks[0]))) == 0:
        return found[0]
    return simulate(lex, pos, leaves=table, moves=found, candidates=len(found), iterations=args.iterations,
                    seed=seed, workers=1, infer=inference).best


def play_game(lex, game: Game, table: LeaveTable, pair: int, first_infers: bool, args) -> dict:
    rng = random.Random(f"{args.seed}-{pair}")
    bag = [c for c, n in enumerate(game.counts_by_code()) for _ in range(n)]
    rng.shuffle(bag)
    seats = [Seat("I", True), Seat("N", False)] if first_infers else [Seat("N", False), Seat("I", True)]
    for s in seats:
        for _ in range(game.rack_size):
            s.rack.append(bag.pop())
    board = Position(game)
    last: tuple[Position, str] | None = None  # the board before the last move, and that move as infer reads it
    zeros, turn, p = 0, 0, 0
    points = game.points_by_code()
    while True:
        me, other = seats[p], seats[1 - p]
        pos = board.copy()
        pos.racks = [rack_text(game, me.rack), ""]
        pos.scores = [me.score, other.score]
        pos.zero_turns = zeros
        started = time.process_time()
        inference = None
        if me.infers and last is not None:
            before, move_text = last
            before = before.copy()
            before.racks = ["", rack_text(game, me.rack)]
            inference = infer(lex, before, move_text, margin=5.0, leaves=table, max_leaves=args.max_leaves,
                              samples=args.samples, seed=turn)
        move = choose(lex, pos, table, (args.seed * 1_000_003 + pair * 1009 + turn) % (1 << 64), args, inference)
        me.cpu += time.process_time() - started
        last = (board.copy(), _as_inferred(game, move))
        if move.kind == "play":
            board = board.with_play(move)
            for t in move.tiles:
                me.rack.remove(0 if t.blank else game.alphabet.code(t.tile))
            me.score += move.score
            zeros = 0
            while len(me.rack) < game.rack_size and bag:
                me.rack.append(bag.pop())
            if not me.rack and not bag:
                me.score += 2 * sum(points[c] for c in other.rack)
                break
        else:
            if move.kind == "exchange":
                back = parse_rack(game, move.exchanged)
                for c in back:
                    me.rack.remove(c)
                while len(me.rack) < game.rack_size and bag:
                    me.rack.append(bag.pop())
                bag.extend(back)
                rng.shuffle(bag)
            zeros += 1
            if zeros >= 6:
                for s in seats:
                    s.score -= sum(points[c] for c in s.rack)
                break
        turn += 1
        p = 1 - p
    i = seats[0] if seats[0].infers else seats[1]
    n = seats[1] if seats[0].infers else seats[0]
    spread = i.score - n.score
    return {"pair": pair, "i_first": first_infers, "spread": spread, "result": 1.0 if spread > 0 else
            0.5 if spread == 0 else 0.0, "turns": turn + 1, "cpu_i": round(i.cpu, 3), "cpu_n": round(n.cpu, 3)}


def _as_inferred(game: Game, move: Move) -> str:
    if move.kind == "play":
        return move.notation
    if move.kind == "exchange":
        return f"-{len(parse_rack(game, move.exchanged))}"
    return "-"


def summary(games: list[dict]) -> str:
    pairs: dict[int, list[dict]] = {}
    for g in games:
        pairs.setdefault(g["pair"], []).append(g)
    full = [v for v in pairs.values() if len(v) == 2]
    if len(full) < 2:
        return f"{len(games)} games"
    rate = [statistics.mean(g["result"] for g in v) for v in full]
    spread = [statistics.mean(g["spread"] for g in v) for v in full]
    se = lambda xs: statistics.stdev(xs) / math.sqrt(len(xs))  # noqa: E731
    cpu_i = statistics.median(g["cpu_i"] / (g["turns"] / 2) for v in full for g in v)
    cpu_n = statistics.median(g["cpu_n"] / (g["turns"] / 2) for v in full for g in v)
    return (f"{len(full)} pairs ({2 * len(full)} games): I's score {100 * statistics.mean(rate):.1f}% "
            f"(se {100 * se(rate):.1f}), spread {statistics.mean(spread):+.1f} (se {se(spread):.1f}); "
            f"CPU per choice, median of games: I {cpu_i:.2f} s, N {cpu_n:.2f} s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--first-pair", type=int, default=0)
    ap.add_argument("--candidates", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=64)
    ap.add_argument("--max-leaves", type=int, default=1000)
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--minutes", type=float, default=None, help="stop starting pairs after this long")
    ap.add_argument("--out", default=None, help="append each game as a JSON line")
    args = ap.parse_args()
    lex = lexigraph.open(data_file("twl06.txt"))
    game = Game.preset("scrabble")
    table = LeaveTable.read(str(SHIPPED), lex.store.alphabet)
    stop = None if args.minutes is None else time.monotonic() + 60 * args.minutes
    games: list[dict] = []
    for pair in range(args.first_pair, args.first_pair + args.pairs):
        if stop is not None and time.monotonic() > stop:
            break
        for first_infers in (True, False):
            g = play_game(lex, game, table, pair, first_infers, args)
            games.append(g)
            if args.out:
                with open(args.out, "a", encoding="utf-8") as f:
                    f.write(json.dumps(g) + "\n")
            print(json.dumps(g), "|", summary(games), flush=True)
    print(summary(games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
