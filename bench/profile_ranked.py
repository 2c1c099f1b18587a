"""Issue 34: where the time of "every move ranked" goes, position by position (the 16 of bench_magpie.py).

    python bench/profile_ranked.py [--rounds 7] [--runs 5]

For each position, rounds interleaved, thread CPU µs (median of ``--runs`` calls a round, then the median and
range over rounds) of:

* ``generate``: ``generate(lex, pos, leaves=table)``, as ``bench_magpie.py --only moves`` times it;
* ``C call``: the generator state's native call alone, with the same arguments (every play found, valued and
  ranked in C);
* ``Python``: the difference: the checks, the rack, the leave table, the exchanges, the ``MoveList``.

With ``--cprofile`` it also prints cProfile's view of 200 calls on the smallest positions.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_magpie import POSITIONS, cgp, lexicon  # noqa: E402

from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.leaves import load_leaves  # noqa: E402
from lexigraph.scrabble.movegen import (MAX_TOP, _other_rack, _rack_codes, aligned, generate,  # noqa: E402
                                        generator_for)
from lexigraph.scrabble.position import Position  # noqa: E402
from lexigraph.engine.interface import GENERATE_BY_EQUITY, GENERATE_VALUES  # noqa: E402


def thread_median(fn: Callable[[], Any], runs: int) -> float:
    fn()
    times = []
    for _ in range(runs):
        t = time.thread_time_ns()
        fn()
        times.append(time.thread_time_ns() - t)
    return statistics.median(times) / 1000


def c_call(lex: Any, pos: Position, table: Any) -> Callable[[], Any]:
    gen = generator_for(lex, pos.game, table)
    p = aligned(lex, pos)
    codes = _rack_codes(p, None)
    counts = bytearray(len(p.game.alphabet) + 1)
    for c in codes:
        counts[c] += 1
    args = (bytes(p.codes), bytes(p.blanks), bytes(counts), _other_rack(p), MAX_TOP,
            GENERATE_BY_EQUITY | GENERATE_VALUES, None, b"")
    native = gen.state._native
    return lambda: native.generate(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cprofile", action="store_true")
    args = parser.parse_args()
    import os
    magpie_dir = os.environ.get("MAGPIE_DIR")
    lex = lexicon(Path(magpie_dir) if magpie_dir else None)
    table = load_leaves(Path(magpie_dir or "/work/peers/magpie") / "data" / "lexica" / "TWL06.klv2",
                        lex.store.alphabet)
    game = Game.preset("scrabble")
    positions = [Position.from_cgp(cgp(k), game) for k in range(len(POSITIONS))]
    whole: list[list[float]] = [[] for _ in positions]
    native: list[list[float]] = [[] for _ in positions]
    calls = [c_call(lex, pos, table) for pos in positions]
    for _ in range(args.rounds):
        for k, pos in enumerate(positions):
            whole[k].append(thread_median(lambda: generate(lex, pos, leaves=table), args.runs))
            native[k].append(thread_median(calls[k], args.runs))
    print("| # | rack | generate | C call | Python (difference) | Python share |")
    print("|--:|---|--:|--:|--:|--:|")
    tw = tc = 0.0
    for k in range(len(positions)):
        w, c = statistics.median(whole[k]), statistics.median(native[k])
        tw, tc = tw + w, tc + c
        print(f"| {k} | {POSITIONS[k][1]} | {w:,.0f} [{min(whole[k]):,.0f}-{max(whole[k]):,.0f}] | "
              f"{c:,.0f} [{min(native[k]):,.0f}-{max(native[k]):,.0f}] | {w - c:,.0f} | {(w - c) / w:.0%} |")
    print(f"| sum | | {tw:,.0f} | {tc:,.0f} | {tw - tc:,.0f} | {(tw - tc) / tw:.0%} |")
    if args.cprofile:
        for k in (2, 3, 11, 13):
            pos = positions[k]
            prof = cProfile.Profile()
            prof.enable()
            for _ in range(200):
                generate(lex, pos, leaves=table)
            prof.disable()
            print(f"\n### row {k} {POSITIONS[k][1]}, 200 calls")
            pstats.Stats(prof).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
