"""The shipped win-percentage table against simmer's fixed sigmoid on held-out self-play positions (Brier scores).

The positions come from a self-play run of the equity player (the game's leave table) against itself with a
seed the table was not learned from (the shipped table: seed 35; held out: seed 3535). Each position is the
player on turn's spread and tiles unseen before it moves, and whether it went on to win (a draw counts ½). Also
reported: MAGPIE's own winpct.csv on the same positions, when present.

    python bench/bench_winpct.py --positions 20000 --workers 2
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import lexigraph
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.leaves import load_leaves
from lexigraph.scrabble.wingen import self_play_positions
from lexigraph.scrabble.winpct import WinTable, brier_scores, default_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=3535)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--magpie", default=os.path.join(os.environ.get("MAGPIE_DIR", "/work/peers/magpie"),
                                                          "data/strategy/winpct.csv"))
    args = parser.parse_args()
    lex = lexigraph.open()
    game = Game.preset("scrabble")
    leaves = load_leaves(game.leaves, lex.alphabet)
    began = time.monotonic()
    games = max(2, int(args.positions / 22) // 2 * 2)  # about 22 positions a game
    s, u, f = self_play_positions(lex, game, leaves=leaves, games=games, seed=args.seed, workers=args.workers)
    s, u, f = s[:args.positions], u[:args.positions], f[:args.positions]
    print(f"{len(s):,} held-out positions from {games:,} games (seed {args.seed}), {time.monotonic() - began:.0f} s")
    tables = [("lexigraph (shipped)", default_table())]
    if os.path.exists(args.magpie):
        tables.append(("MAGPIE winpct.csv", WinTable.read(args.magpie)))
    outcome = np.where(f > 0, 1.0, np.where(f < 0, 0.0, 0.5))
    print(f"base rate (player on turn wins): {outcome.mean():.4f}; constant-prediction Brier "
          f"{np.mean((outcome - outcome.mean()) ** 2):.5f}")
    for name, table in tables:
        table_score, sigmoid_score = brier_scores(table, s, u, f)
        print(f"{name}: Brier {table_score:.5f}; fixed sigmoid {sigmoid_score:.5f}; "
              f"improvement {sigmoid_score - table_score:.5f}")
    # by stage of the game: the tiles unseen
    table = default_table()
    for low, high in ((61, 93), (31, 60), (8, 30), (1, 7)):
        m = (u >= low) & (u <= high)
        if m.any():
            t, g = brier_scores(table, s[m], u[m], f[m])
            print(f"  unseen {low}-{high}: {m.sum():,} positions, table {t:.5f}, sigmoid {g:.5f}")


if __name__ == "__main__":
    main()
