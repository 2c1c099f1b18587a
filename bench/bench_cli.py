"""Command line and sources: start-up, the word-list cache, the dawg32 word bomb.

    python bench/bench_cli.py [--rounds N]

Rounds are interleaved; prints medians and ranges. Needs ../shared/data
(or LEXIGRAPH_SHARED_DATA) for the cache rows.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("LEXIGRAPH_SHARED_DATA", ROOT.parent / "shared" / "data"))


def timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    return time.perf_counter() - start


def bomb(path: Path) -> None:
    records = []
    for level in range(24):
        nxt = (level + 1) * 2
        records += [(1 << 31) | (ord("a") << 24) | nxt, (ord("b") << 24) | nxt]
    records.append(ord("$") << 24)
    path.write_bytes(struct.pack(f"<{len(records)}I", *records))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    py = sys.executable
    tmp = Path(tempfile.mkdtemp())
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp / "cache")}
    twl = SHARED / "twl06.txt"
    rows: dict[str, list[float]] = {k: [] for k in ("python -c pass", "check dog", "-L twl06.lex check dog",
                                                    "-L twl06.txt check dog (cached)",
                                                    "-L twl06.txt check dog (cold)")}
    if twl.exists():
        subprocess.run([py, "-m", "lexigraph", "build", str(twl), "-o", str(tmp / "twl06.lex"), "-q"], check=True)
    for _ in range(args.rounds):
        rows["python -c pass"].append(timed([py, "-c", "pass"], env))
        rows["check dog"].append(timed([py, "-m", "lexigraph", "check", "dog"], env))
        if twl.exists():
            rows["-L twl06.lex check dog"].append(timed([py, "-m", "lexigraph", "-L", str(tmp / "twl06.lex"),
                                                         "check", "dog"], env))
            shutil.rmtree(tmp / "cache", ignore_errors=True)
            rows["-L twl06.txt check dog (cold)"].append(timed([py, "-m", "lexigraph", "-L", str(twl), "check",
                                                                "dog"], env))
            rows["-L twl06.txt check dog (cached)"].append(timed([py, "-m", "lexigraph", "-L", str(twl), "check",
                                                                  "dog"], env))
    for name, xs in rows.items():
        if xs:
            print(f"{name:34s} median {statistics.median(xs) * 1000:7.0f} ms  range {min(xs) * 1000:.0f}-"
                  f"{max(xs) * 1000:.0f} ms")
    path = tmp / "bomb.dawg32"
    bomb(path)
    code = ("import resource, time, lexigraph\nt = time.perf_counter()\n"
            f"try:\n    lexigraph.load({str(path)!r})\nexcept lexigraph.LexiconError as e:\n    print(e)\n"
            "print(f'{time.perf_counter() - t:.2f} s, max RSS '"
            "f'{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB')\n")
    out = subprocess.run([py, "-c", code], capture_output=True, text=True, env=env).stdout
    print(f"196-byte dawg32 word bomb: {' / '.join(out.split(chr(10))[::-1]).strip(' /')}")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
