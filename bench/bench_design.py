"""Grid design on theme sets, and Ingrid filling the same grids: lexigraph design, then lexigraph fill and Ingrid
on each designed pattern, side by side.

    pip install -e '.[wordfreq]'        # lexigraph with the C extension, and wordfreq for the scores
    sh ../shared/peers/ingrid/setup.sh  # Ingrid (ingrid_core); INGRID_BIN names another build
    python bench/bench_design.py [--minimum 40] [--timeout 60] [--rounds 3] [--seed 0] [--json out.jsonl]

The list: TWL06 scored by ``lexigraph build --score-by wordfreq`` (20 + 10 x Zipf), as bench_fill.py uses it.
Each theme set is designed once per seed (``lexigraph design --proposals 1 --min-priority M --timeout none
--fill-timeout 10``, a fresh process: its whole CPU time, user + system, is measured, and ``RLIMIT_CPU`` stops it
at T seconds of CPU: a design not done by then counts as not filled).
The best proposal's pattern (blocks and theme letters) is then filled ``--rounds`` times by lexigraph
(``lexigraph fill --theme ...``) and by Ingrid (``ingrid_core --min-score M``, the same words and scores, the
theme entries added at 50), rounds interleaved, each in a fresh process, its CPU time measured: medians, ranges
and the ratio. Every fill is checked (every entry in the list at or above the minimum or a theme entry, no
repeats, the pattern's letters kept).

Theme sets: two the tests use (tests/crossword/test_design.py) and nine held out, real-looking themes from
TWL06 and SCOWL words that no test or tuning run saw (the last five added after the first four were measured).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("LEXIGRAPH_SHARED_DATA", ROOT.parent / "shared" / "data"))
INGRID = Path(os.environ.get("INGRID_BIN", Path.home() / ".cache/lexigraph-peers/ingrid_core/target/release/ingrid_core"))

#: (name, the set's origin, its entries).
THEMES = [
    ("breakfast", "tests", ["pancakes", "waffles", "oatmeal"]),
    ("bed", "tests", ["breakfastinbed", "omelet", "bagels"]),
    ("medals", "held out", ["goldenretriever", "silverscreen", "bronzestatue"]),
    ("winter", "held out", ["snowflakes", "icicles", "blizzards", "frostbite"]),
    ("storm", "held out", ["thunderclap", "lightningrod", "raincoats"]),
    ("kitchen", "held out", ["saltshaker", "peppermill", "teakettle"]),
    # Added later (issue 38, second part), chosen before any design run on them.
    ("ocean", "held out", ["starfish", "seahorse", "jellyfish"]),
    ("garden", "held out", ["greenhouse", "flowerpots", "sunflower"]),
    ("orchestra", "held out", ["violinist", "trombonist", "percussion", "conductor"]),
    ("launch", "held out", ["launchpad", "countdown", "liftoff"]),
    ("library", "held out", ["bookshelf", "cardcatalog", "librarian"]),
]
WALL_FACTOR = 6
#: Wall-clock seconds each pattern's fill may take within a design.
FILL_SECONDS = 10.0


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_limited(argv: list[str], cpu_limit: float, env: dict[str, str] | None = None) -> tuple[int, str, float, float]:
    """Exit status, standard output, CPU seconds (user + system) and wall seconds of a child held to ``cpu_limit``."""

    def limit_cpu() -> None:
        seconds = max(1, math.ceil(cpu_limit))
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))

    before = _child_cpu()
    start = time.monotonic()
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=cpu_limit * WALL_FACTOR + 10, env=env,
                              preexec_fn=limit_cpu)
        code, out = proc.returncode, proc.stdout
    except subprocess.TimeoutExpired as e:
        code, out = 124, (e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or ""))
    if code in (-signal.SIGXCPU, -signal.SIGKILL):
        code = 124
    return code, out, _child_cpu() - before, time.monotonic() - start


def lexigraph_env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def entries_of(rows: list[str]) -> list[str]:
    out = []
    for lines in (rows, ["".join(col) for col in zip(*rows)]):
        for line in lines:
            out += [w for w in line.split("#") if len(w) >= 2]
    return out


def verify(pattern: list[str], rows: list[str], scores: dict[str, int], minimum: int, theme: list[str]) -> str | None:
    """Why the fill is wrong, or None."""
    if len(rows) != len(pattern) or any(len(a) != len(b) for a, b in zip(rows, pattern)):
        return "the grid changed shape"
    for a, b in zip(rows, pattern):
        for x, y in zip(a, b):
            if (y == "#") != (x == "#") or (y not in ".#" and x != y):
                return "a block or a letter of the pattern changed"
    words = entries_of(rows)
    for w in words:
        if w not in theme and scores.get(w, -1) < minimum:
            return f"{w!r} is not in the list at {minimum} or more"
    if len(set(words)) != len(words):
        return "a word is repeated"
    return None


def design_once(lex: Path, theme: list[str], minimum: int, timeout: float, seed: int) -> dict:
    # No wall-clock limit: RLIMIT_CPU stops the design at ``timeout`` seconds of CPU (a loaded machine would
    # otherwise turn the limit into a fraction of it); each pattern's fill may take FILL_SECONDS.
    argv = [sys.executable, "-m", "lexigraph", "design", "-L", str(lex), "--theme", ",".join(theme), "--proposals", "1",
            "--min-priority", str(minimum), "--seed", str(seed), "--timeout", "none", "--fill-timeout",
            str(FILL_SECONDS), "--json"]
    code, out, cpu, wall = run_limited(argv, timeout, lexigraph_env())
    try:
        doc = json.loads(out)
    except ValueError:
        doc = {"status": "stopped", "results": []}
    best = (doc.get("results") or [None])[0]
    return {"code": code, "cpu": cpu, "wall": wall, "status": doc.get("status"), "proposal": best,
            "patterns_tried": (doc.get("stats") or {}).get("patterns_tried")}


def fill_lexigraph(lex: Path, grid: Path, theme: list[str], minimum: int, timeout: float) -> tuple[bool, list[str] | None, float]:
    argv = [sys.executable, "-m", "lexigraph", "fill", str(grid), "-L", str(lex), "--min-priority", str(minimum),
            "--theme", ",".join(theme), "--timeout", "none", "--json"]
    code, out, cpu, _ = run_limited(argv, timeout, lexigraph_env())
    try:
        doc = json.loads(out)
    except ValueError:
        return False, None, cpu
    filled = doc.get("status") == "filled"
    return filled, [r.lower() for r in doc.get("grid") or []] if filled else None, cpu


def fill_ingrid(words: Path, grid: Path, minimum: int, timeout: float) -> tuple[bool, list[str] | None, float]:
    code, out, cpu, _ = run_limited([str(INGRID), "--wordlist", str(words), "--min-score", str(minimum), str(grid)],
                                    timeout)
    rows = [line.strip().lower() for line in out.splitlines() if line.strip()]
    return code == 0, rows if code == 0 else None, cpu


def _median_range(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minimum", type=int, default=40)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds for a design, and of CPU for a fill")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sets", default=",".join(name for name, _, _ in THEMES))
    parser.add_argument("--json")
    parser.add_argument("--patterns", help="fill the patterns an earlier run's --json log designed (no design)")
    parser.add_argument("--fill-cpu", type=float, default=None, help="seconds of CPU per fill (default: --timeout)")
    args = parser.parse_args()
    fill_cpu = args.fill_cpu or args.timeout
    twl = SHARED / "twl06.txt"
    if not twl.exists():
        print(f"{twl} is missing: set LEXIGRAPH_SHARED_DATA")
        return 2
    use_ingrid = INGRID.exists()
    if not use_ingrid:
        print(f"note: {INGRID} is missing (sh ../shared/peers/ingrid/setup.sh): Ingrid is left out")
    tmp = Path(tempfile.mkdtemp(prefix="bench-design-"))
    log = open(args.json, "a") if args.json else None
    env = lexigraph_env()
    lex = tmp / "twl06-wordfreq.lex"
    subprocess.run([sys.executable, "-m", "lexigraph", "build", str(twl), "--score-by", "wordfreq", "-o", str(lex),
                    "--quiet"], check=True, env=env)
    scored = tmp / "twl06-wordfreq.txt"
    subprocess.run([sys.executable, "-m", "lexigraph", "export", str(lex), "--format", "scored", "-o", str(scored)],
                   check=True, env=env, stdout=subprocess.DEVNULL)
    scores = {w: int(p) for w, _, p in (line.partition(";") for line in scored.read_text().split())}
    chosen = [t for t in THEMES if t[0] in args.sets.split(",")]
    print(f"TWL06 scored by wordfreq: {len(scores):,} words; minimum {args.minimum}; design limit {args.timeout:g} s; "
          f"{len(chosen)} theme sets; load average at start {os.getloadavg()[0]:.2f}", flush=True)
    print("| set | origin | theme | design | CPU (s) | wall (s) | patterns | blocks | entries | mean priority |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|")
    designed = []
    if args.patterns:  # the patterns of an earlier run, filled again side by side
        for line in open(args.patterns):
            rec = json.loads(line)
            if rec.get("kind") == "design" and rec.get("proposal") and rec["set"] in args.sets.split(","):
                designed.append((rec["set"], rec["theme"], [r.lower() for r in rec["proposal"]["pattern"]]))
        chosen = []
    for name, origin, theme in chosen:
        got = design_once(lex, theme, args.minimum, args.timeout, args.seed)
        p = got["proposal"]
        status = got["status"] if got["code"] != 124 else "stopped"
        if p and p["grid"]:
            problem = verify([r.lower() for r in p["pattern"]], [r.lower() for r in p["grid"]], scores, args.minimum,
                             theme)
            if problem:
                status = f"INVALID: {problem}"
        mean = p["mean_priority"] if p and p["mean_priority"] is not None else "-"
        print(f"| {name} | {origin} | {', '.join(theme)} | {status} | {got['cpu']:.2f} | {got['wall']:.1f} | "
              f"{got['patterns_tried']} | {p['blocks'] if p else '-'} | {p['entries'] if p else '-'} | {mean} |",
              flush=True)
        if log:
            log.write(json.dumps({"kind": "design", "set": name, "theme": theme, **got}) + "\n")
            log.flush()
        if p:
            designed.append((name, theme, [r.lower() for r in p["pattern"]]))
    if not designed:
        return 1
    # The same patterns filled by lexigraph and Ingrid, rounds interleaved.
    words = tmp / "ingrid.dict"
    words.write_text("".join(f"{w};{s}\n" for w, s in scores.items())
                     + "".join(f"{t};50\n" for _, theme, _ in designed for t in theme if t not in scores))
    times: dict[tuple[str, str], list[float]] = {}
    filled: dict[tuple[str, str], int] = {}
    for rnd in range(args.rounds):
        for name, theme, pattern in designed:
            grid = tmp / f"{name}.txt"
            grid.write_text("\n".join(pattern) + "\n")
            order = [("lexigraph", lambda: fill_lexigraph(lex, grid, theme, args.minimum, fill_cpu))]
            if use_ingrid:
                order.append(("ingrid", lambda: fill_ingrid(words, grid, args.minimum, fill_cpu)))
            if rnd % 2:
                order.reverse()
            for who, run in order:
                ok, rows, cpu = run()
                if ok and rows is not None and verify(pattern, rows, scores, args.minimum, theme):
                    ok = False
                times.setdefault((name, who), []).append(cpu if ok else fill_cpu)
                filled[(name, who)] = filled.get((name, who), 0) + int(ok)
                if log:
                    log.write(json.dumps({"kind": "fill", "set": name, "filler": who, "round": rnd, "ok": ok,
                                          "cpu": cpu}) + "\n")
    print()
    print("| set | lexigraph fills | lexigraph CPU (s), median (range) | Ingrid fills | Ingrid CPU (s), median (range) | Ingrid / lexigraph |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, _, _ in designed:
        lx = times[(name, "lexigraph")]
        row = f"| {name} | {filled[(name, 'lexigraph')]}/{args.rounds} | {_median_range(lx)} |"
        if use_ingrid:
            ig = times[(name, "ingrid")]
            ratio = statistics.median(ig) / max(statistics.median(lx), 1e-9)
            row += f" {filled[(name, 'ingrid')]}/{args.rounds} | {_median_range(ig)} | {ratio:.1f}x |"
        else:
            row += " - | - | - |"
        print(row, flush=True)
    print(f"\nload average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
