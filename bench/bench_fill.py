"""Crossword autofill: lexigraph against qxw on the grids of ../shared/data/grids with TWL06.

    pip install -e .            # with the C extension built
    apt-get install qxw         # the peer (skipped with a note when missing)
    python bench/bench_fill.py [--rounds 5] [--timeout 120] [--improve 0]

Both fillers get the same scored word list. TWL06 has no scores, so the
benchmark derives them deterministically with a word-frequency-like rule:
a word made of common letters counts as a common word. Each word's score
is the mean, over its letters, of log10 of the letter's frequency in
English text (the usual e=12.7%, t=9.1%, ... table); within each length
the words are ranked by it and the quartiles get priorities 50, 40, 30
and 20 (ties keep alphabetical order). qxw reads the same list with its
own score field, (priority - 20) / 10, i.e. 0 to 3 (a weight of 10^score).

Rounds are interleaved (each round runs every grid with qxw, then with
lexigraph, seed = round number). Times:

* lexigraph ``fill``: the search alone, the lexicon already open (it is a
  memory-mapped file: opening costs milliseconds), wall clock and CPU;
* lexigraph ``process``: a new process that opens the lexicon, reads the
  grid, fills and writes (what the command line costs);
* qxw ``filler``: the search alone as qxw reports it (-D 1, the first
  "search finished" figure), after loading its dictionary. It is CPU time:
  pinned to a core that another process keeps busy, qxw reports the same
  figure while its wall clock time doubles. qxw ``wall``: the whole run
  (conversion, dictionary, fill).

Ratios: the fill alone, CPU against CPU (qxw filler / lexigraph fill CPU);
the same against lexigraph's wall clock (a floor: on a loaded machine the
wall clock also counts time spent waiting for a core); the whole run (qxw
wall / lexigraph process).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import lexigraph  # noqa: E402
from lexigraph.crossword.fill import fill  # noqa: E402
from lexigraph.crossword.grid import Grid  # noqa: E402

SHARED = Path(os.environ.get("LEXIGRAPH_SHARED_DATA", ROOT.parent / "shared" / "data"))
# the peers live beside the data: ../shared/peers
PEER = Path(os.environ.get("LEXIGRAPH_SHARED_PEERS", SHARED.parent / "peers")) / "qxw" / "run.sh"

# Relative frequency of letters in English text, in percent.
LETTER_FREQ = dict(
    zip(
        "etaoinshrdlcumwfgypbvkjxqz",
        [12.7, 9.1, 8.2, 7.5, 7.0, 6.7, 6.3, 6.1, 6.0, 4.3, 4.0, 2.8, 2.8, 2.4, 2.4, 2.2, 2.0, 2.0, 1.9, 1.5, 0.98, 0.77, 0.15, 0.15, 0.095, 0.074],
    )
)
LEVELS = (50, 40, 30, 20)


def scored_words(words: list[str]) -> dict[str, int]:
    """The benchmark's priorities: quartiles of mean letter log-frequency within each length."""
    by_len: dict[int, list[str]] = {}
    for w in words:
        by_len.setdefault(len(w), []).append(w)
    out: dict[str, int] = {}
    for group in by_len.values():
        group.sort()
        ranked = sorted(group, key=lambda w: -sum(math.log10(LETTER_FREQ[c]) for c in w) / len(w))
        n = len(ranked)
        for i, w in enumerate(ranked):
            out[w] = LEVELS[min(3, i * 4 // n)]
    return out


def run_qxw(grid: Path, dictionary: Path, timeout: float) -> dict:
    proc = subprocess.run(["sh", str(PEER), str(grid), str(dictionary), str(int(timeout))], capture_output=True, text=True)
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"rc": proc.returncode, "wall_s": None, "filler_cpu_s": None, "words": []}


def run_process(lex_path: Path, grid: Path, out: Path, seed: int, timeout: float, improve: float) -> tuple[float, bool]:
    code = (
        "import sys, lexigraph\n"
        "from lexigraph.crossword.grid import Grid\n"
        "from lexigraph.crossword.fill import fill\n"
        "lex = lexigraph.open(sys.argv[1])\n"
        "r = fill(lex, Grid.read(sys.argv[2]), seed=int(sys.argv[4]), timeout=float(sys.argv[5]), improve=float(sys.argv[6]))\n"
        "r.grid is not None and r.grid.write(sys.argv[3])\n"
        "sys.exit(0 if r.status == 'filled' else 1)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, str(lex_path), str(grid), str(out), str(seed), str(timeout), str(improve)], env=env)
    return time.perf_counter() - t, proc.returncode == 0


def check_fill(lex: lexigraph.Lexicon, grid: Grid, filled: Grid) -> bool:
    words = ["".join(filled.word(s)) for s in filled.slots()]
    kept = all(grid.cell(r, c) in (None, filled.cell(r, c)) for r, c in grid.open_cells())
    return kept and filled.is_complete() and all(w in lex for w in words) and len(set(words)) == len(words)


def fmt(xs: list[float]) -> str:
    return f"{statistics.median(xs):.3f} ({min(xs):.3f}-{max(xs):.3f})" if xs else "-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--improve", type=float, default=0.0, help="seconds lexigraph may spend raising the lowest priority")
    ap.add_argument("--grids", nargs="*", default=None)
    args = ap.parse_args()
    twl = SHARED / "twl06.txt"
    if not twl.exists():
        print(f"skipped: {twl} is missing")
        return 0
    grids = [Path(g) for g in args.grids] if args.grids else sorted((SHARED / "grids").glob("*.txt"))
    have_qxw = (shutil.which("qxw") is not None or Path("/usr/games/qxw").exists()) and PEER.exists()
    if not have_qxw:
        print(f"note: qxw or {PEER} is missing (apt-get install qxw): lexigraph runs alone")
    tmp = Path(tempfile.mkdtemp(prefix="bench-fill-"))
    try:
        words = twl.read_text().split()
        scores = scored_words([w.lower() for w in words])
        scored = tmp / "twl06-scored.txt"
        scored.write_text("".join(f"{w};{p}\n" for w, p in sorted(scores.items())))
        qdict = tmp / "twl06-qxw.txt"
        qdict.write_text("".join(f"{w.upper()} {(p - 20) // 10}\n" for w, p in sorted(scores.items())))
        lex_path = tmp / "twl06-scored.lex"
        lexigraph.build(scored, lex_path, format="scored")
        lex = lexigraph.open(lex_path)
        level_counts = {lv: sum(1 for p in scores.values() if p == lv) for lv in LEVELS}
        print(f"TWL06 scored: {len(scores):,} words, priorities {level_counts}")
        stats: dict[str, dict[str, list]] = {
            g.name: {k: [] for k in ("lx_fill", "lx_cpu", "lx_proc", "lx_ok", "lx_mean", "lx_low", "q_fill", "q_wall", "q_ok", "q_mean", "q_low")}
            for g in grids
        }
        for rnd in range(args.rounds):
            for g in grids:
                s = stats[g.name]
                grid = Grid.read(g)
                if have_qxw:
                    q = run_qxw(g, qdict, args.timeout)
                    ok = q.get("rc") == 0 and len(q.get("words", [])) == len(grid.slots())
                    ok = ok and all(w.lower() in lex for w in q["words"])
                    s["q_ok"].append(ok)
                    if ok:
                        s["q_fill"].append(q["filler_cpu_s"])
                        s["q_wall"].append(q["wall_s"])
                        ps = [lex.priority(w.lower()) or 0 for w in q["words"]]
                        s["q_mean"].append(sum(ps) / len(ps))
                        s["q_low"].append(min(ps))
                t, c = time.perf_counter(), time.process_time()
                r = fill(lex, grid, seed=rnd, timeout=args.timeout, improve=args.improve)
                elapsed, cpu = time.perf_counter() - t, time.process_time() - c
                ok = r.status == "filled" and r.grid is not None and check_fill(lex, grid, r.grid)
                s["lx_ok"].append(ok)
                if ok:
                    s["lx_fill"].append(elapsed)
                    s["lx_cpu"].append(cpu)
                    s["lx_mean"].append(r.mean_priority)
                    s["lx_low"].append(r.min_priority)
                proc_s, pok = run_process(lex_path, g, tmp / "out.txt", rnd, args.timeout, args.improve)
                if pok:
                    s["lx_proc"].append(proc_s)
                print(
                    f"round {rnd} {g.name}: lexigraph {r.status} {elapsed:.3f}s {r.stats}"
                    + (f"; qxw rc={q.get('rc')} filler {q.get('filler_cpu_s')}s wall {q.get('wall_s')}s" if have_qxw else ""),
                    flush=True,
                )
        print()
        print(f"{args.rounds} rounds, median (min-max) seconds; mean priority of the fill (lowest in brackets)")
        print(
            "| grid | slots | lexigraph fill (wall) | fill CPU | process | filled | qxw filler (CPU) | qxw wall | filled "
            "| fill ratio (CPU) | vs our wall | whole-run ratio | mean priority lexigraph | qxw |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for g in grids:
            s = stats[g.name]
            n_slots = len(Grid.read(g).slots())
            ratio = wall_ratio = whole = "-"
            if s["q_fill"] and s["lx_fill"]:
                ratio = f"{statistics.median(s['q_fill']) / statistics.median(s['lx_cpu']):.1f}x"
                wall_ratio = f"{statistics.median(s['q_fill']) / statistics.median(s['lx_fill']):.1f}x"
            if s["q_wall"] and s["lx_proc"]:
                whole = f"{statistics.median(s['q_wall']) / statistics.median(s['lx_proc']):.1f}x"
            lm = f"{statistics.mean(s['lx_mean']):.1f} ({min(s['lx_low'])})" if s["lx_mean"] else "-"
            qm = f"{statistics.mean(s['q_mean']):.1f} ({min(s['q_low'])})" if s["q_mean"] else "-"
            print(
                f"| {g.name} | {n_slots} | {fmt(s['lx_fill'])} | {fmt(s['lx_cpu'])} | {fmt(s['lx_proc'])} | {sum(s['lx_ok'])}/{len(s['lx_ok'])} "
                f"| {fmt(s['q_fill'])} | {fmt(s['q_wall'])} | {sum(s['q_ok'])}/{len(s['q_ok'])} | {ratio} | {wall_ratio} | {whole} | {lm} | {qm} |"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
