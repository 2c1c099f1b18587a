"""Issue 34: the C instructions of "every move ranked" on bench_magpie.py's positions, function by function.

    python bench/callgrind_ranked.py 1 3 11 13 [--calls 10] [--out DIR]

Each row runs in its own ``valgrind --tool=callgrind`` process: the lexicon and the leave table load, then
``--calls`` + 1 calls of ``generate(lex, pos, leaves=table)`` (every move ranked, as ``bench_magpie.py --only
moves`` times it). Only the C generation (``MoveGenerator_generate``, ``native/generator.c``) and the extras'
ranking (``rank_extras``, ``native/ranking.c``) are counted (``--toggle-collect``): instruction counts do not move
with the machine's load. Printed per row: instructions per call of each, and the functions' own counts (the
generator's callees) per call. The Python around them is timed by ``bench/profile_ranked.py``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENTRIES = ("MoveGenerator_generate", "rank_extras")


def child(row: int, calls: int) -> None:
    sys.path.insert(0, str(HERE))
    from bench_magpie import cgp, lexicon

    from lexigraph.scrabble.game import Game
    from lexigraph.scrabble.leaves import load_leaves
    from lexigraph.scrabble.movegen import generate
    from lexigraph.scrabble.position import Position

    magpie = Path(os.environ.get("MAGPIE_DIR", "/work/peers/magpie"))
    lex = lexicon(magpie)
    table = load_leaves(magpie / "data" / "lexica" / "TWL06.klv2", lex.store.alphabet)
    pos = Position.from_cgp(cgp(row), Game.preset("scrabble"))
    for _ in range(calls + 1):
        generate(lex, pos, leaves=table)


def annotate(out: Path, inclusive: bool) -> list[tuple[int, str]]:
    text = subprocess.run(["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}", str(out)],
                          capture_output=True, text=True, check=True).stdout
    rows = []
    for line in text.splitlines():
        found = re.match(r"^\s*([\d,]+) \([^)]*\)\s+\S*?:?(\S+?)(?: \[|$)", line) or re.match(r"^\s*([\d,]+)\s+(.*)$",
                                                                                              line)
        if found and "PROGRAM TOTALS" not in line:
            rows.append((int(found.group(1).replace(",", "")), found.group(2).strip()))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", type=int, nargs="+")
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.rows[0], args.calls)
        return
    out_dir = args.out or Path(tempfile.mkdtemp())
    calls = args.calls + 1
    for row in args.rows:
        out = out_dir / f"ranked-row{row}.cg"
        subprocess.run(["valgrind", "--tool=callgrind", *(f"--toggle-collect={e}" for e in ENTRIES),
                        f"--callgrind-out-file={out}", sys.executable, __file__, "--child", str(row),
                        "--calls", str(args.calls)], check=True, capture_output=True)
        inclusive = annotate(out, True)
        totals = {e: next((n for n, name in inclusive if name.endswith(e)), 0) for e in ENTRIES}
        print(f"row {row}: C generation {totals[ENTRIES[0]] / calls:,.0f} instructions a call, ranking of the "
              f"extras {totals[ENTRIES[1]] / calls:,.0f}")
        for n, name in annotate(out, False)[:8]:
            print(f"    {n / calls:>12,.0f}  {name}")


if __name__ == "__main__":
    main()
