"""Rebuild the built-in English leave table, src/lexigraph/data/english-leaves.klv2, by self-play.

Five generations of self-play on the built-in lexicon (ENABLE) and the
``scrabble`` game, 40,000 to 300,000 games each (740,000 in all), seed 2026;
each generation plays with the table the one before learned
(``docs/selfplay.md`` says how a leave is valued). The same command line:

    lexigraph leaves build --generations 40000,80000,120000,200000,300000 --seed 2026 \\
        -o src/lexigraph/data/english-leaves.klv2

    python tools/make_default_leaves.py            # every core
    python tools/make_default_leaves.py --workers 2

The result depends only on the seed and the generations, not on the workers.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import lexigraph
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.leavegen import build_leaves
from lexigraph.scrabble.selfplay import Progress
from lexigraph.support.files import write_atomic

ROOT = Path(__file__).resolve().parents[1]
DEST = ROOT / "src" / "lexigraph" / "data" / "english-leaves.klv2"
GENERATIONS = [40_000, 80_000, 120_000, 200_000, 300_000]
SEED = 2026


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--generations", default=",".join(map(str, GENERATIONS)))
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("-o", "--output", default=str(DEST))
    args = parser.parse_args()
    generations = [int(g) for g in args.generations.split(",")]
    lex = lexigraph.open()
    began = time.monotonic()

    def progress(k: int, games: int, of: int) -> Progress:
        print(f"generation {k + 1} of {of}: {games:,} games", file=sys.stderr)
        return Progress(games)

    result = build_leaves(lex, Game.preset("scrabble"), generations=generations, seed=args.seed,
                          workers=args.workers, progress=progress, name="english-leaves")
    data = result.table.to_klv2()
    write_atomic(args.output, data)
    for k, (games, samples, seconds) in enumerate(zip(result.games, result.samples, result.seconds)):
        print(f"generation {k + 1}: {games:,} games, {samples:,} samples, {seconds:.0f} s")
    print(f"{len(result.table):,} leaves, {len(data):,} bytes, {time.monotonic() - began:.0f} s in all -> "
          f"{args.output}")


if __name__ == "__main__":
    main()
