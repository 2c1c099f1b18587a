"""Crossword autofill with a scored list: lexigraph, Ingrid and qxw side by side, at minimum scores 0, 40 and 50.

    pip install -e '.[wordfreq]'      # lexigraph with the C extension, and wordfreq for the scores
    sh ../shared/peers/ingrid/setup.sh  # Ingrid (ingrid_core); INGRID_BIN names another build
    apt-get install qxw                 # qxw (skipped with a note when missing)
    python bench/bench_fill.py [--generated 24] [--seeds 3] [--first-seed 0] [--timeout 20] [--rounds 1] [--json out.jsonl]

The list: TWL06 scored by ``lexigraph build --score-by wordfreq`` (20 + 10 x
Zipf frequency; see lexigraph.compiler.scores). Every filler gets the same
list: lexigraph the compiled lexicon, Ingrid the same words as ``word;score``
lines with ``--min-score`` (its own minimum), qxw the words at or above the
minimum with the score as its weight ((priority - 20) / 10, so 10^weight
follows the frequency).

The grids: the shared ones (../shared/data/grids) and ``--generated`` 15x15
grids in the US style (180-degree symmetry, every entry at least 3 long,
all cells connected, 36 to 40 blocks, 72 to 78 entries), from ``--seeds``
seeds. Each round runs every grid at every minimum with each filler in
turn, in a fresh process each time (its whole CPU time, user + system,
is measured: word-list loading and start-up included, as a constructor
waits for them). Each run may use ``--timeout`` seconds of CPU (a hard
``RLIMIT_CPU``, so that a loaded machine takes nobody's time away; a wall
clock limit of six times that guards against a stall); a run stopped by it
counts as a failure that took the timeout. Every fill is checked by the verifier below (every entry
in the list at or above the minimum, no repeats, fixed letters kept).

Targets (issue 25), per minimum: lexigraph fills every grid Ingrid fills;
its median CPU is at most half of Ingrid's; no grid takes it more than
Ingrid's time plus one second; its mean score is at least Ingrid's (over
the grids both fill).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("LEXIGRAPH_SHARED_DATA", ROOT.parent / "shared" / "data"))
PEERS = Path(os.environ.get("LEXIGRAPH_SHARED_PEERS", SHARED.parent / "peers"))
QXW = PEERS / "qxw" / "run.sh"
INGRID = Path(os.environ.get("INGRID_BIN", Path.home() / ".cache/lexigraph-peers/ingrid_core/target/release/ingrid_core"))
MINIMUMS = (0, 40, 50)
FILLERS = ("lexigraph", "ingrid", "qxw")


# -- grids --------------------------------------------------------------------------------------------


def _runs_ok(blocks: list[list[bool]], n: int) -> bool:
    for lines in (blocks, [list(col) for col in zip(*blocks)]):
        for line in lines:
            run = 0
            for b in line + [True]:
                if b:
                    if 0 < run < 3:
                        return False
                    run = 0
                else:
                    run += 1
    return True


def _connected(blocks: list[list[bool]], n: int) -> bool:
    cells = [(r, c) for r in range(n) for c in range(n) if not blocks[r][c]]
    if not cells:
        return False
    seen = {cells[0]}
    todo = deque([cells[0]])
    while todo:
        r, c = todo.popleft()
        for y, x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= y < n and 0 <= x < n and not blocks[y][x] and (y, x) not in seen:
                seen.add((y, x))
                todo.append((y, x))
    return len(seen) == len(cells)


def _entries(blocks: list[list[bool]]) -> int:
    count = 0
    for lines in (blocks, [list(col) for col in zip(*blocks)]):
        for line in lines:
            count += sum(1 for i, b in enumerate(line) if not b and (i == 0 or line[i - 1]))
    return count


def us_grid(seed: int, n: int = 15, blocks_range: tuple[int, int] = (36, 40), entries: tuple[int, int] = (72, 78)) -> str:
    """A US-style grid: 180-degree symmetric, entries of 3 or more, connected; blocks and entries in range."""
    rng = random.Random(seed)
    while True:
        target = rng.randint(*blocks_range)
        blocks = [[False] * n for _ in range(n)]
        placed = tries = 0
        while placed < target and tries < 4000:
            tries += 1
            r, c = rng.randrange(n), rng.randrange(n)
            if blocks[r][c]:
                continue
            add = 1 if (r, c) == (n - 1 - r, n - 1 - c) else 2
            if placed + add > blocks_range[1]:
                continue
            blocks[r][c] = blocks[n - 1 - r][n - 1 - c] = True
            if _runs_ok(blocks, n) and _connected(blocks, n):
                placed += add
            else:
                blocks[r][c] = blocks[n - 1 - r][n - 1 - c] = False
        if blocks_range[0] <= placed <= blocks_range[1] and entries[0] <= _entries(blocks) <= entries[1]:
            return "\n".join("".join("#" if b else "." for b in row) for row in blocks) + "\n"


# -- the verifier ---------------------------------------------------------------------------------------


def entries_of(rows: list[str]) -> list[str]:
    out = []
    for lines in (rows, ["".join(col) for col in zip(*rows)]):
        for line in lines:
            out += [w for w in line.split("#") if len(w) >= 2]
    return out


def verify(template: list[str], rows: list[str], scores: dict[str, int], minimum: int) -> str | None:
    """Why the fill is wrong, or None."""
    if len(rows) != len(template) or any(len(a) != len(b) for a, b in zip(rows, template)):
        return "the grid changed shape"
    for a, b in zip(rows, template):
        for x, y in zip(a, b):
            if (y == "#") != (x == "#") or (y not in ".#" and x != y) or x == ".":
                return "a block, a fixed letter or an empty cell differs"
    words = entries_of(rows)
    given = set(entries_of(template)) - {w for w in entries_of(template) if "." in w}
    for w in words:
        if w not in scores:
            return f"{w!r} is not in the list"
        if scores[w] < minimum and w not in given:
            return f"{w!r} scores {scores[w]} < {minimum}"
    if len(set(words)) != len(words):
        return "a word is repeated"
    return None


# -- the fillers ------------------------------------------------------------------------------------------


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


#: The wall-clock guard, as a multiple of the CPU limit: generous, so that only a stall trips it.
WALL_FACTOR = 6


def _run(argv: list[str], cpu_limit: float, env: dict[str, str] | None = None) -> tuple[int, str, float, bool]:
    """Exit status, standard output, CPU seconds of the process (and its children), and whether the CPU
    limit (or the wall-clock guard) stopped it."""

    def limit_cpu() -> None:  # in the child, before exec: inherited by what it starts (qxw under sh)
        seconds = max(1, math.ceil(cpu_limit))
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))

    before = _child_cpu()
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=cpu_limit * WALL_FACTOR + 10, env=env,
                              preexec_fn=limit_cpu)
        code, out = proc.returncode, proc.stdout
        stopped = False
    except subprocess.TimeoutExpired as e:
        code, out = 124, (e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or ""))
        stopped = True
    # SIGXCPU (or SIGKILL at the hard limit) ends the process; under sh it comes back as 128 + the signal
    killed = code in (-signal.SIGXCPU, -signal.SIGKILL, 128 + signal.SIGXCPU, 128 + signal.SIGKILL)
    return code, out, _child_cpu() - before, stopped or killed


Outcome = tuple[bool, "list[str] | None", float, bool]  # filled, the filled rows, CPU seconds, timed out


def _lexigraph_env() -> dict[str, str]:
    # Bytecode cached, as an installed package has it (a PYTHONDONTWRITEBYTECODE in the environment would
    # make every run compile lexigraph's modules again: 30-90 ms no user pays).
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_lexigraph(lex: Path, grid: Path, minimum: int, timeout: float, seed: int) -> Outcome:
    env = _lexigraph_env()
    argv = [sys.executable, "-m", "lexigraph", "fill", str(grid), "-L", str(lex), "--min-priority", str(minimum),
            "--seed", str(seed), "--timeout", "none", "--json"]
    code, out, cpu, late = _run(argv, timeout, env)
    try:
        doc = json.loads(out)
    except ValueError:
        return False, None, cpu, late
    filled = doc.get("status") == "filled"
    rows = [row.lower() for row in doc.get("grid") or []]
    return filled, rows if filled else None, cpu, late and not filled


def run_ingrid(words: Path, grid: Path, minimum: int, timeout: float) -> Outcome:
    code, out, cpu, late = _run([str(INGRID), "--wordlist", str(words), "--min-score", str(minimum), str(grid)],
                                timeout)
    rows = [line.strip().lower() for line in out.splitlines() if line.strip()]
    return code == 0, rows if code == 0 else None, cpu, late and code != 0


def run_qxw(lists: dict[int, Path], grid: Path, minimum: int, timeout: float) -> Outcome:
    wall = str(int(timeout * WALL_FACTOR))
    code, out, cpu, late = _run(["sh", str(QXW), str(grid), str(lists[minimum]), wall], timeout)
    try:
        doc = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return False, None, cpu, late
    if doc.get("rc") != 0:
        return False, None, cpu, late or doc.get("rc") in (124, 128 + signal.SIGXCPU, 128 + signal.SIGKILL)
    # qxw answers with its words, slot by slot: rebuild the grid from the deck's order (across, then down)
    template = [line.rstrip("\n") for line in grid.read_text().splitlines() if line.strip()]
    rows = [list(r) for r in template]
    slots = []
    for r, line in enumerate(template):
        c = 0
        while c < len(line):
            if line[c] == "#":
                c += 1
                continue
            start = c
            while c < len(line) and line[c] != "#":
                c += 1
            if c - start >= 2:
                slots.append([(r, k) for k in range(start, c)])
    for c in range(len(template[0])):
        r = 0
        while r < len(template):
            if template[r][c] == "#":
                r += 1
                continue
            start = r
            while r < len(template) and template[r][c] != "#":
                r += 1
            if r - start >= 2:
                slots.append([(k, c) for k in range(start, r)])
    words = [w.lower() for w in doc.get("words", [])]
    if len(words) != len(slots):
        return False, None, cpu
    for cells, w in zip(slots, words):
        for (r, c), ch in zip(cells, w):
            rows[r][c] = ch
    return True, ["".join(r) for r in rows], cpu, False


# -- the run -------------------------------------------------------------------------------------------------


def mean_score(rows: list[str], scores: dict[str, int], template: list[str]) -> float:
    given = {w for w in entries_of(template) if "." not in w}
    ps = [scores[w] for w in entries_of(rows) if w not in given]
    return sum(ps) / len(ps) if ps else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--generated", type=int, default=24, help="generated 15x15 grids (at least 20 for the issue)")
    ap.add_argument("--seeds", type=int, default=3, help="seeds the generated grids come from")
    ap.add_argument("--first-seed", type=int, default=0,
                    help="the first of those seeds (3 with --seeds 3: grids none of the defaults' runs has seen)")
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--minimums", type=int, nargs="*", default=list(MINIMUMS))
    ap.add_argument("--fillers", nargs="*", default=list(FILLERS))
    ap.add_argument("--json", help="append one JSON line per run here")
    args = ap.parse_args()
    twl = SHARED / "twl06.txt"
    if not twl.exists():
        print(f"skipped: {twl} is missing")
        return 0
    fillers = list(args.fillers)
    if "ingrid" in fillers and not INGRID.exists():
        print(f"note: {INGRID} is missing (sh {PEERS / 'ingrid' / 'setup.sh'}): Ingrid is left out")
        fillers.remove("ingrid")
    if "qxw" in fillers and not (QXW.exists() and (shutil.which("qxw") or Path("/usr/games/qxw").exists())):
        print("note: qxw is missing (apt-get install qxw): it is left out")
        fillers.remove("qxw")
    tmp = Path(tempfile.mkdtemp(prefix="bench-fill-"))
    log = open(args.json, "a") if args.json else None
    try:
        lex = tmp / "twl06-wordfreq.lex"
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        subprocess.run([sys.executable, "-m", "lexigraph", "build", str(twl), "--score-by", "wordfreq", "-o", str(lex),
                        "--quiet"], check=True, env=env)
        # one run first, so that every measured run finds the bytecode cached
        subprocess.run([sys.executable, "-m", "lexigraph", "fill", str(SHARED / "grids" / "grid5.txt"), "-L", str(lex),
                        "--json"], env=_lexigraph_env(), stdout=subprocess.DEVNULL, check=False)
        scored = tmp / "twl06-wordfreq.txt"
        subprocess.run([sys.executable, "-m", "lexigraph", "export", str(lex), "--format", "scored", "-o", str(scored)],
                       check=True, env=env, stdout=subprocess.DEVNULL)
        scores = {w: int(p) for w, _, p in (line.partition(";") for line in scored.read_text().split())}
        qxw_lists = {}
        for m in args.minimums:
            qxw_lists[m] = tmp / f"qxw-{m}.txt"
            qxw_lists[m].write_text("".join(f"{w.upper()} {(p - 20) / 10:.1f}\n" for w, p in scores.items() if p >= m))
        grids = sorted((SHARED / "grids").glob("*.txt"))
        for i in range(args.generated):
            grid_seed = args.first_seed + i % args.seeds
            path = tmp / f"us15-s{grid_seed}-{i // args.seeds:02d}.txt"
            path.write_text(us_grid(1000 * grid_seed + i // args.seeds))
            grids.append(path)
        print(f"TWL06 scored by wordfreq: {len(scores):,} words; {sum(p >= 40 for p in scores.values()):,} at 40 or more, "
              f"{sum(p >= 50 for p in scores.values()):,} at 50 or more")
        print(f"{len(grids)} grids ({args.generated} generated), minimums {args.minimums}, limit {args.timeout:g} s of CPU per run, "
              f"{args.rounds} round(s); load average at start {os.getloadavg()[0]:.2f}", flush=True)
        runs: list[dict] = []
        for rnd in range(args.rounds):
            for g in grids:
                template = [line.strip() for line in g.read_text().splitlines() if line.strip()]
                for m in args.minimums:
                    for name in fillers:
                        if name == "lexigraph":
                            ok, rows, cpu, late = run_lexigraph(lex, g, m, args.timeout, rnd)
                        elif name == "ingrid":
                            ok, rows, cpu, late = run_ingrid(scored, g, m, args.timeout)
                        else:
                            ok, rows, cpu, late = run_qxw(qxw_lists, g, m, args.timeout)
                        problem = verify(template, rows, scores, m) if ok and rows else None
                        if problem:
                            print(f"  {name} {g.name} min {m}: INVALID FILL: {problem}")
                            ok = False
                        # a run stopped by the time limit counts the whole limit: the constructor waited that long
                        rec = {"round": rnd, "grid": g.name, "minimum": m, "filler": name, "filled": ok,
                               "cpu_s": round(args.timeout if late else cpu, 3), "measured_cpu_s": round(cpu, 3),
                               "timed_out": late,
                               "mean_score": round(mean_score(rows, scores, template), 2) if ok and rows else None}
                        runs.append(rec)
                        if log:
                            log.write(json.dumps(rec) + "\n")
                    line = " ".join(
                        f"{r['filler']}={'F' if r['filled'] else 'T' if r['timed_out'] else '-'}{r['cpu_s']:.2f}"
                        for r in runs[-len(fillers):])
                    print(f"round {rnd} {g.name:22} min {m:2}: {line}", flush=True)
        report(runs, fillers, args.minimums, args.timeout)
        print(f"load average at the end {os.getloadavg()[0]:.2f}")
    finally:
        if log:
            log.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def report(runs: list[dict], fillers: list[str], minimums: list[int], timeout: float) -> None:
    print()
    print("CPU seconds of the whole process (a run past the timeout counts the timeout); median over the runs of a grid.")
    print("| minimum | filler | grids filled | median CPU | max CPU | mean score (grids all filled) |")
    print("|---:|---|---:|---:|---:|---:|")
    verdicts = []
    for m in minimums:
        per: dict[str, dict[str, list[dict]]] = {f: {} for f in fillers}
        for r in runs:
            if r["minimum"] == m:
                per[r["filler"]].setdefault(r["grid"], []).append(r)
        grids = sorted(per[fillers[0]])
        cpu = {f: {g: statistics.median(x["cpu_s"] for x in per[f][g]) for g in grids} for f in fillers}
        filled = {f: {g: all(x["filled"] for x in per[f][g]) for g in grids} for f in fillers}
        common = [g for g in grids if all(filled[f][g] for f in fillers)]
        for f in fillers:
            means = [statistics.mean(x["mean_score"] for x in per[f][g]) for g in common]
            print(f"| {m} | {f} | {sum(filled[f].values())}/{len(grids)} | {statistics.median(cpu[f].values()):.2f} "
                  f"| {max(cpu[f].values()):.2f} | {statistics.mean(means) if means else float('nan'):.2f} ({len(common)}) |")
        if "ingrid" in fillers and "lexigraph" in fillers:
            lx, ig = "lexigraph", "ingrid"
            missed = [g for g in grids if filled[ig][g] and not filled[lx][g]]
            slow = [(g, cpu[lx][g], cpu[ig][g]) for g in grids if cpu[lx][g] > cpu[ig][g] + 1.0]
            both = [g for g in grids if filled[lx][g] and filled[ig][g]]
            lx_mean = statistics.mean(statistics.mean(x["mean_score"] for x in per[lx][g]) for g in both) if both else 0
            ig_mean = statistics.mean(statistics.mean(x["mean_score"] for x in per[ig][g]) for g in both) if both else 0
            med_lx, med_ig = statistics.median(cpu[lx].values()), statistics.median(cpu[ig].values())
            verdicts.append(
                f"minimum {m}: fills every grid Ingrid fills: {'yes' if not missed else 'no ' + str(missed)}; "
                f"median CPU {med_lx:.2f} s vs Ingrid {med_ig:.2f} s ({med_ig / med_lx if med_lx else float('inf'):.1f}x; "
                f"target 2x): {'yes' if med_lx <= med_ig / 2 else 'no'}; no grid over Ingrid + 1 s: "
                f"{'yes' if not slow else 'no ' + str([(g, round(a, 2), round(b, 2)) for g, a, b in slow])}; "
                f"mean score {lx_mean:.2f} vs {ig_mean:.2f} on the {len(both)} grids both fill: "
                f"{'yes' if lx_mean >= ig_mean else 'no'}")
    print()
    for v in verdicts:
        print(v)


if __name__ == "__main__":
    sys.exit(main())
