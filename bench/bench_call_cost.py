"""What a call of ``generate`` costs beyond the generation, two revisions side by side, rounds interleaved.

    python bench/bench_call_cost.py --before OLD/.venv/bin/python [--after NEW/python] [--rounds 7] [--calls 400]

Each round runs, in a fresh process of each revision (the order alternating from round to round), the best move
by equity (``generate(lex, pos, top=1, count_all=False)``, the pruned path every game job takes) on a few rows of
``positions16.cgp`` (small positions, where the fixed cost shows: EEIIOUU and AEINRST on the empty board,
QZXJKA?, EIOQRTU mid-game), and the C generation alone on the same request (``engine.generate_moves`` with the
request prepared beforehand), ``--calls`` times each, thread CPU time. Printed per row: each revision's median µs
a call (range over rounds), the C generation's, and the difference: what the call costs beyond the generation.
TWL06 from ``../shared/data`` with the shipped leave table; the lexicon is built once, by the after revision.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import DATA  # noqa: E402

ROWS = (2, 1, 3, 11)
CGP_LINES = [line for line in (Path(__file__).resolve().parent / "positions16.cgp").read_text().splitlines()
             if line.strip() and not line.startswith("#")]


def work(lexicon: str, calls: int) -> dict[str, list[float]]:
    """In a process of one revision: per row, µs a call of generate() and of the C generation alone."""
    import lexigraph
    from lexigraph.scrabble import equity as eq
    from lexigraph.scrabble.game import Game
    from lexigraph.scrabble.movegen import generate, leave_table, move_request
    from lexigraph.scrabble.position import Position
    from lexigraph.scrabble.tiles import parse_rack

    lex = lexigraph.open(lexicon)
    game = Game.preset("scrabble").for_lexicon(lex.alphabet)
    out: dict[str, list[float]] = {}
    for row in ROWS:
        pos = Position.from_cgp(CGP_LINES[row], game)
        codes = parse_rack(game, pos.racks[0])
        table = leave_table(lex, pos, None)
        values = eq.rack_values(pos, codes, table, bag=eq.bag_size(pos, codes), engine=lex.engine)
        request = move_request(lex, pos, codes, values, leaves=table, top=1, prune=True)
        timings = []
        for job in (lambda: generate(lex, pos, top=1, count_all=False), lambda: lex.engine.generate_moves(request)):
            for _ in range(20):
                job()
            start = time.thread_time()
            for _ in range(calls):
                job()
            timings.append((time.thread_time() - start) / calls * 1e6)
        out[f"{row} {pos.racks[0]}"] = timings
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=False, help="the older revision's python")
    parser.add_argument("--after", default=sys.executable, help="the newer revision's python (default: this one)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--work", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.work:
        print(json.dumps(work(args.work[0], int(args.work[1]))))
        return
    if not args.before:
        parser.error("--before PYTHON is required")
    if not (DATA / "twl06.txt").exists():
        print(f"skipped: {DATA / 'twl06.txt'} is not there")
        return
    with tempfile.TemporaryDirectory() as folder:
        lexicon = os.path.join(folder, "twl06.lex")
        subprocess.run([args.after, "-m", "lexigraph", "build", str(DATA / "twl06.txt"), "-o", lexicon, "--quiet"],
                       check=True)
        sides = {"before": args.before, "after": args.after}
        got: dict[str, list[dict[str, list[float]]]] = {side: [] for side in sides}
        for round_no in range(args.rounds):
            for side in ("before", "after") if round_no % 2 else ("after", "before"):
                out = subprocess.run([sides[side], __file__, "--work", lexicon, str(args.calls)], capture_output=True,
                                     text=True, check=True).stdout
                got[side].append(json.loads(out.splitlines()[-1]))
    print("| row, rack | before: call | before: C alone | before: beyond | after: call | after: C alone "
          "| after: beyond | call before / after |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")

    def cell(values: list[float]) -> str:
        return f"{statistics.median(values):.1f} [{min(values):.1f}-{max(values):.1f}]"

    for row in got["after"][0]:
        line = [row]
        for side in sides:
            calls = [r[row][0] for r in got[side]]
            alone = [r[row][1] for r in got[side]]
            line += [cell(calls), cell(alone), cell([a - b for a, b in zip(calls, alone)])]
        ratio = statistics.median(r[row][0] for r in got["before"]) / statistics.median(
            r[row][0] for r in got["after"])
        print("| " + " | ".join(line) + f" | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
