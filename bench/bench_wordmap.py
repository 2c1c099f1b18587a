"""The word map for TWL06: build time, size and peak memory beside MAGPIE's ``convert text2wordmap``; lookups per
second.

Build: each round runs, as separate processes, lexigraph's map build from the TWL06 lexicon (C kernels, then the
NumPy twin), ``lexigraph build twl06.txt --word-map`` (the lexicon and its map from the text), and MAGPIE's
``magpie convert text2wordmap TWL06 -threads 1`` (its map from the text), rounds interleaved. CPU time is each
child's user + system time and peak memory its maximum resident set (``os.wait4``). MAGPIE runs in a private data
folder (a copy of the lexicon files from ``$MAGPIE_DIR/data/lexica``), so the shared one is never written.

Lookups: 7-tile racks drawn from the 100-tile English bag (0, 1 or 2 of them blanks), looked up for the 7-letter
words they make exactly: ``lookup_many`` (C, one call for all racks, no GIL), ``lookup`` from Python per rack (C
type), and the Python twin. MAGPIE has no command that only looks words up, so lookups are lexigraph's alone.

    LEXIGRAPH_SHARED_DATA=/work/shared/data MAGPIE_DIR=/work/peers/magpie python bench/bench_wordmap.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.compiler.word_map import build_word_map  # noqa: E402
from lexigraph.engine.python.wordmap import PythonWordMap  # noqa: E402
from lexigraph.engine.wordmap import open_word_map  # noqa: E402

BAG = "aaaaaaaaabbccddddeeeeeeeeeeeeffggghhiiiiiiiiijkllllmmnnnnnnooooooooppqrrrrrrssssttttttuuuuvvwwxyyz??"
MAP_SCRIPT = ("import sys, lexigraph\nfrom lexigraph.compiler.word_map import build_word_map\n"
              "lex = lexigraph.open(sys.argv[1])\n"
              "build_word_map(lex.store, sys.argv[2], pure_python=sys.argv[3] == 'python')\n")


def run_child(argv: list[str], cwd: str | None = None) -> tuple[float, float, int]:
    """CPU seconds (user + system), wall seconds and peak resident kB of one child process."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    err = child.stderr.read().decode() if child.stderr else ""
    if child.returncode:
        sys.exit(f"{argv[0]} failed ({child.returncode}): {err.strip()[:400]}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss


def magpie_folder(magpie: Path) -> Path:
    """A private MAGPIE data folder: the lexicon's files copied, the rest linked."""
    folder = Path(tempfile.mkdtemp(prefix="bench-wordmap-magpie-"))
    (folder / "data" / "lexica").mkdir(parents=True)
    for name in ("layouts", "letterdistributions", "strategy"):
        if (magpie / "data" / name).exists():
            (folder / "data" / name).symlink_to(magpie / "data" / name)
    for ext in ("txt", "kwg", "klv2"):
        shutil.copy(magpie / "data" / "lexica" / f"TWL06.{ext}", folder / "data" / "lexica" / f"TWL06.{ext}")
    return folder


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def bench_build(rounds: int, twl: Path, lex_path: Path, scratch: Path, magpie: Path | None) -> None:
    python = sys.executable
    cases: dict[str, tuple[list[str], str | None, Path]] = {
        "lexigraph map from .lex, C": ([python, "-c", MAP_SCRIPT, str(lex_path), str(scratch / "c.lxw"), "c"], None,
                                       scratch / "c.lxw"),
        "lexigraph map from .lex, NumPy": ([python, "-c", MAP_SCRIPT, str(lex_path), str(scratch / "p.lxw"),
                                            "python"], None, scratch / "p.lxw"),
        "lexigraph build --word-map from .txt": ([python, "-m", "lexigraph", "build", str(twl), "-o",
                                                  str(scratch / "t.lex"), "--word-map", "-q"], None,
                                                 scratch / "t.lxw"),
    }
    if magpie is not None:
        folder = magpie_folder(magpie)
        cases["MAGPIE convert text2wordmap"] = (
            [str(magpie / "bin" / "magpie"), "convert", "text2wordmap", "TWL06", "-lex", "TWL06", "-wmp", "false",
             "-threads", "1", "-savesettings", "false"], str(folder), folder / "data" / "lexica" / "TWL06.wmp")
    cpu: dict[str, list[float]] = {k: [] for k in cases}
    wall: dict[str, list[float]] = {k: [] for k in cases}
    rss: dict[str, list[int]] = {k: [] for k in cases}
    for _ in range(rounds):  # interleaved: each round runs every contender once
        for name, (argv, cwd, _) in cases.items():
            c, w, r = run_child(argv, cwd)
            cpu[name].append(c)
            wall[name].append(w)
            rss[name].append(r)
    reference = statistics.median(cpu["MAGPIE convert text2wordmap"]) if magpie is not None else None
    print(f"## Word map build, TWL06 ({rounds} rounds interleaved; medians, ranges)\n")
    print("| contender | CPU s | wall s | peak RSS MB | file bytes | CPU vs MAGPIE |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (_, _, out) in cases.items():
        ratio = f"{statistics.median(cpu[name]) / reference:.2f}x" if reference else "-"
        print(f"| {name} | {summary(cpu[name])} | {summary(wall[name])} | "
              f"{statistics.median(rss[name]) / 1024:.0f} | {out.stat().st_size:,} | {ratio} |")
    if (scratch / "c.lxw").read_bytes() != (scratch / "p.lxw").read_bytes():
        sys.exit("the C and NumPy builders wrote different files")
    print("\nThe C and NumPy builders wrote the same bytes.\n")


def bench_lookups(lex: lexigraph.Lexicon, map_path: Path, racks: int) -> None:
    wm = open_word_map(map_path, lex.store, "c")
    twin = PythonWordMap(map_path.read_bytes())
    rng = random.Random(34)
    print(f"## Word map lookups, TWL06 ({racks:,} random 7-tile racks per row; exact 7-letter words)\n")
    print("| blanks | C lookup_many, racks/s | C lookup from Python, racks/s | Python twin, racks/s | words found |")
    print("|---:|---:|---:|---:|---:|")
    for blanks in (0, 1, 2):
        rows = []
        while len(rows) < racks:
            rack = [t for t in rng.sample(BAG, 12) if t != "?"][: 7 - blanks]
            if len(rack) == 7 - blanks:
                rows.append(lex.alphabet.encode("".join(rack)))
        flat = b"".join(rows)
        t = time.process_time()
        found = wm.lookups.lookup_many(7, flat, blanks)
        many = racks / (time.process_time() - t)
        t = time.process_time()
        for row in rows:
            wm.lookups.lookup(7, row, blanks)
        per_call = racks / (time.process_time() - t)
        sample = rows[: max(1, racks // 20)]
        t = time.process_time()
        twin_found = sum(c for row in sample for _, c, _ in twin.lookup(7, row, blanks))
        twin_rate = len(sample) / (time.process_time() - t)
        assert twin_found == sum(c for row in sample for _, c, _ in wm.lookups.lookup(7, row, blanks))
        print(f"| {blanks} | {many:,.0f} | {per_call:,.0f} | {twin_rate:,.0f} | {found:,} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--racks", type=int, default=100_000)
    args = parser.parse_args()
    twl = data_file("twl06.txt")
    assert twl is not None
    magpie_dir = os.environ.get("MAGPIE_DIR", "/work/peers/magpie")
    magpie = Path(magpie_dir) if (Path(magpie_dir) / "bin" / "magpie").exists() else None
    if magpie is None:
        print(f"MAGPIE not found at {magpie_dir} (set MAGPIE_DIR): lexigraph alone\n")
    scratch = Path(tempfile.mkdtemp(prefix="bench-wordmap-"))
    lex_path = scratch / "twl06.lex"
    lexigraph.build(twl, lex_path)
    bench_build(args.rounds, twl, lex_path, scratch, magpie)
    lex = lexigraph.open(lex_path)
    map_path = scratch / "map.lxw"
    build_word_map(lex.store, map_path)
    bench_lookups(lex, map_path, args.racks)


if __name__ == "__main__":
    main()
