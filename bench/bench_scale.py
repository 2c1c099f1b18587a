"""Issues 10 and 11: synthetic lists of 100k to 5M words; build cost, correctness, and query growth.

    python bench/bench_scale.py                          # 100k, 1M, 3M, 5M words
    python bench/bench_scale.py --sizes 100k,1M          # the small sizes first
    python bench/bench_scale.py --build-only --sizes 5M  # only build 5M and report its cost

The lists come from a bigram letter model trained on the built-in ENABLE list
(``list(lexigraph.open())``), so no shared data is needed: one pool of unique
words (2-15 letters) is generated with NumPy and each size is a random subset
of it, so every size has the same word-length and letter distribution. Each
build runs in a child process whose peak resident memory (``VmHWM``; ``ru_maxrss``
would count the parent's pages inherited across fork and exec) is
reported, next to that of a child that only imports lexigraph and reads the
list. Then the file is opened and checked against oracles (``in`` on sampled
words and non-words against the sorted list, ``children`` against the list's
prefix range, anagrams against a letter-count matrix of the list's short
buckets, ``match`` against a regular expression over the list), and five queries
are timed whose answers do not grow much with the list. The growth exponent
between two sizes is log(t2/t1) / log(n2/n1): 0 is output-sensitive, 1 is a scan.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import lexigraph

WIDTH = 15
ALPHA = "abcdefghijklmnopqrstuvwxyz"
CACHE = os.path.join(tempfile.gettempdir(), "lexigraph-scale")

BUILD_CHILD = r"""
import json, sys, time
mode, src, dest = sys.argv[1:4]

def hwm():  # this process's own peak RSS (ru_maxrss would include the parent's, inherited across exec)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])

import lexigraph, numpy
if mode == "baseline":
    n = len(open(src).read().split())
    print(json.dumps({"maxrss_kib": hwm(), "words": n}))
    sys.exit(0)
t = time.perf_counter()
result = lexigraph.build(src, dest)
elapsed = time.perf_counter() - t
print(json.dumps({"seconds": elapsed, "maxrss_kib": hwm(),
                  "kept": result.report.kept}))
"""


def parse_size(text: str) -> int:
    text = text.strip().lower()
    scale = {"k": 1_000, "m": 1_000_000}.get(text[-1], 1)
    return int(float(text.rstrip("km")) * scale)


def size_label(n: int) -> str:
    return f"{n // 1_000_000}M" if n % 1_000_000 == 0 else f"{n // 1000}k"


# -- the letter model -----------------------------------------------------------------------------


def train_bigrams() -> np.ndarray:
    """Row-cumulative transition probabilities over 27 symbols (0: start/end, 1-26: a-z)."""
    counts = np.ones((27, 27))  # add-one smoothing: every bigram possible
    counts[0, 0] = 0
    for w in lexigraph.open():
        s = [0] + [ord(c) - 96 for c in w] + [0]
        np.add.at(counts, (s[:-1], s[1:]), 1)
    # damp the smoothing so rare bigrams stay rare but present
    probs = counts / counts.sum(axis=1, keepdims=True)
    return np.cumsum(probs, axis=1)


def generate(cum: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` words drawn from the model as an S15 array (words longer than 15 letters are dropped)."""
    flat = (cum + np.arange(27)[:, None]).ravel()  # row r's cumulative probabilities shifted into [r, r+1]
    flat[26::27] = np.arange(1, 28) - 1e-12  # guard the top of each row against rounding
    state = np.zeros(count, dtype=np.int64)
    out = np.zeros((count, WIDTH + 1), dtype=np.uint8)
    alive = np.ones(count, dtype=bool)
    for step in range(WIDTH + 1):
        draw = np.searchsorted(flat, state + rng.random(count)) - state * 27
        draw = np.clip(draw, 0, 26)
        draw[~alive] = 0
        out[:, step] = draw
        alive &= draw != 0
        state = draw
    ok = (out[:, WIDTH] == 0) & (out[:, 1] != 0)  # ended by 15 letters, at least 2 letters
    rows = out[ok, :WIDTH]
    rows = np.where(rows > 0, rows + 96, 0).astype(np.uint8)
    return np.ascontiguousarray(rows).view(f"S{WIDTH}").ravel()


def word_pool(size: int, seed: int) -> np.ndarray:
    """At least ``size`` unique model words, shuffled (cached under the temp folder)."""
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, f"pool-{seed}-{size}.npy")
    if os.path.exists(path):
        return np.load(path)
    rng = np.random.default_rng(seed)
    cum = train_bigrams()
    pool = np.zeros(0, dtype=f"S{WIDTH}")
    while len(pool) < size:
        pool = np.unique(np.concatenate([pool, generate(cum, max(500_000, (size - len(pool)) * 2), rng)]))
    rng.shuffle(pool)
    pool = pool[:size]
    np.save(path, pool)
    return pool


def write_list(words: np.ndarray, path: str) -> None:
    with open(path, "wb") as f:
        f.write(b"\n".join(np.sort(words).tolist()) + b"\n")


# -- build in a child -------------------------------------------------------------------------------


def child(mode: str, src: str, dest: str, timeout: float) -> dict:
    cmd = [sys.executable, "-c", BUILD_CHILD, mode, src, dest]
    t = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s", "wall": time.perf_counter() - t}
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        return {"error": f"exit {done.returncode}: {tail}", "wall": time.perf_counter() - t}
    return json.loads(done.stdout.strip().splitlines()[-1])


# -- oracles ------------------------------------------------------------------------------------------


class Oracle:
    """Brute-force answers from the sorted list (NumPy bytes arrays)."""

    def __init__(self, words: np.ndarray) -> None:
        self.sorted = np.sort(words)
        self.lengths = np.char.str_len(self.sorted)
        short = self.lengths <= 9
        self.short_words = self.sorted[short]
        self.short_len = self.lengths[short]
        codes = np.frombuffer(self.short_words.tobytes(), dtype=np.uint8).reshape(-1, WIDTH)
        self.counts = np.zeros((len(codes), 27), dtype=np.int8)
        rows = np.arange(len(codes))
        for col in range(WIDTH):  # one tile per row and column: plain fancy-index increments do not collide
            self.counts[rows, np.where(codes[:, col] > 0, codes[:, col] - 96, 0)] += 1
        self.counts = self.counts[:, 1:]

    def contains(self, probes: list[str]) -> list[bool]:
        keys = np.array([p.encode() for p in probes], dtype=f"S{WIDTH}")
        at = np.searchsorted(self.sorted, keys).clip(0, len(self.sorted) - 1)
        return (self.sorted[at] == keys).tolist()

    def prefix_range(self, prefix: str) -> list[str]:
        lo = int(np.searchsorted(self.sorted, prefix.encode()))
        hi = int(np.searchsorted(self.sorted, prefix.encode() + b"\xff"))
        return [w.decode() for w in self.sorted[lo:hi].tolist()]

    def children(self, prefix: str) -> list[str]:
        below = self.prefix_range(prefix)
        tiles = sorted({w[len(prefix)] for w in below if len(w) > len(prefix)})
        return (["$"] if below and below[0] == prefix else []) + tiles

    def anagram(self, rack: str, exact: bool) -> list[str]:
        letters = rack.replace("?", "")
        blanks = len(rack) - len(letters)
        have = np.bincount(np.frombuffer(letters.encode(), dtype=np.uint8) - 97, minlength=26).astype(np.int8)
        short = np.maximum(self.counts - have, 0).sum(axis=1)
        ok = short <= blanks
        ok &= (self.short_len == len(rack)) if exact else (self.short_len >= 2)
        return sorted(w.decode() for w in self.short_words[ok].tolist())

    def match(self, pattern: str) -> list[str]:
        rx = re.compile("^" + pattern.replace("?", "[a-z]").replace("*", "[a-z]*") + "$")
        if "*" not in pattern:
            sel = self.sorted[self.lengths == len(pattern)]
            return [w for w in (x.decode() for x in sel.tolist()) if rx.match(w)]
        return [w for w in (x.decode() for x in self.sorted.tolist()) if rx.match(w)]


def check(lex: lexigraph.Lexicon, words: np.ndarray, oracle: Oracle, rng: random.Random,
          cum: np.ndarray, seed: int) -> list[str]:
    """Compare lexigraph with the oracles on samples; returns failures (empty: all agree)."""
    fails: list[str] = []
    sample = [w.decode() for w in rng.sample(words.tolist(), 2000)]
    outside = [w.decode() for w in generate(cum, 4000, np.random.default_rng(seed + 1)).tolist()]
    probes = sample + outside + ["".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=rng.randint(2, 15)))
                                 for _ in range(1000)]
    got = [p in lex for p in probes]
    if got != oracle.contains(probes):
        fails.append(f"`in`: {sum(a != b for a, b in zip(got, oracle.contains(probes)))} of {len(probes)} differ")
    for w in sample[:300]:
        p = w[: rng.randint(2, len(w))]
        if lex.children(p) != oracle.children(p):
            fails.append(f"children({p!r}): {lex.children(p)} != {oracle.children(p)}")
            break
    racks = [w for w in sample if 4 <= len(w) <= 9][:25]
    for w in racks:
        rack = "".join(rng.sample(w, len(w)))
        for r in (rack, rack[1:] + "?"):
            for exact in (True, False):
                if exact is False and len(r) > 8:
                    continue
                got_a = sorted(lex.anagram(r, mode="exact" if exact else "sub"))
                want = oracle.anagram(r, exact)
                if got_a != want:
                    fails.append(f"anagram({r!r}, {'exact' if exact else 'sub'}): {len(got_a)} words, oracle {len(want)}")
    for w in [w for w in sample if len(w) >= 6][:6]:
        keep = set(rng.sample(range(len(w)), 3))
        pat = "".join(c if i in keep else "?" for i, c in enumerate(w))
        for p in (pat, w[:3] + "*" if len(words) <= 1_000_000 else pat):
            if sorted(lex.match(p)) != oracle.match(p):
                fails.append(f"match({p!r}) differs from the regex")
    return fails


# -- timed queries --------------------------------------------------------------------------------


RUN = {
    "exact anagram of a 7-8-letter word": lambda lex, q: lex.anagram(q, mode="exact"),
    "`?` pattern of an 8-10-letter word, 4 fixed": lambda lex, q: lex.match(q),
    "the same, opening with a wildcard": lambda lex, q: lex.match(q),
    "words(prefix), 5-tile prefix": lambda lex, q: lex.words(prefix=q),
    "sub-anagram, 7 tiles": lambda lex, q: lex.anagram(q),
}
BANDS = {  # result counts a query must give to be timed: the same band at every size
    "exact anagram of a 7-8-letter word": (1, 2),
    "`?` pattern of an 8-10-letter word, 4 fixed": (1, 4),
    "the same, opening with a wildcard": (1, 4),
    "words(prefix), 5-tile prefix": (1, 4),
    "sub-anagram, 7 tiles": (10, 30),  # racks: a word's letters or 7 uniform letters
}


def queries(lex: lexigraph.Lexicon, words: np.ndarray, rng: random.Random, want: int = 100) -> dict[str, list[str]]:
    """Queries made from sampled words, kept only when their result count is in the query's band.

    A random subset of a bigger list answers more, so a query drawn the same way
    would find more words as the list grows; holding the count in a band makes the
    growth exponent that of the search alone. Where too few candidates fall in the
    band, the ones closest to it are used (the mean result count is reported).
    """
    pick = [w.decode() for w in rng.sample(words.tolist(), 40000)]

    def pattern(w: str, first: int = 0) -> str:
        keep = set(rng.sample(range(first, len(w)), 4))
        return "".join(c if i in keep else "?" for i, c in enumerate(w))

    candidates = {
        "exact anagram of a 7-8-letter word": ["".join(rng.sample(w, len(w))) for w in pick if len(w) in (7, 8)],
        "`?` pattern of an 8-10-letter word, 4 fixed": [pattern(w) for w in pick if 8 <= len(w) <= 10],
        "the same, opening with a wildcard": [pattern(w, 1) for w in pick if 8 <= len(w) <= 10],
        "words(prefix), 5-tile prefix": [w[:5] for w in pick if len(w) >= 6],
        "sub-anagram, 7 tiles": [x for w in pick if len(w) == 7
                                           for x in ("".join(rng.sample(w, 7)), "".join(rng.choices(ALPHA, k=7)))],
    }
    out: dict[str, list[str]] = {}
    for name, qs in candidates.items():
        lo, hi = BANDS[name]
        scored = []
        for q in qs[: want * 8]:
            c = len(RUN[name](lex, q))
            scored.append((0 if lo <= c <= hi else min(abs(c - lo), abs(c - hi)), q))
        scored.sort(key=lambda x: x[0])
        out[name] = [q for _, q in scored[:want]]
    return out


def time_queries(lexes: dict[int, lexigraph.Lexicon], qs: dict[int, dict[str, list[str]]],
                 rounds: int) -> dict[int, dict[str, tuple[float, float]]]:
    """Median seconds per query and mean result count, per size; rounds interleaved over sizes and queries.

    Interleaving the sizes spreads a busy machine's noise over all of them, so the
    growth exponents compare like with like.
    """
    times = {n: {k: [] for k in qs[n]} for n in lexes}  # type: ignore[var-annotated]
    results = {n: {k: statistics.mean(len(RUN[k](lexes[n], q)) for q in v) for k, v in qs[n].items()}
               for n in lexes}  # also warms the pages up
    for _ in range(rounds):
        for n, lex in lexes.items():
            for k, v in qs[n].items():
                f = RUN[k]
                t = time.perf_counter()
                for q in v:
                    f(lex, q)
                times[n][k].append((time.perf_counter() - t) / len(v))
    return {n: {k: (statistics.median(times[n][k]), results[n][k]) for k in qs[n]} for n in lexes}


def us(seconds: float) -> str:
    micro = seconds * 1e6
    return f"{micro:,.0f}" if micro >= 100 else f"{micro:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100k,1M,3M,5M")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=1800, help="seconds allowed for one build")
    ap.add_argument("--build-only", action="store_true")
    ap.add_argument("--no-check", action="store_true", help="skip the oracle checks (for repeated timing runs)")
    ap.add_argument("--keep", default="", help="folder to keep the lists and lexicon files in")
    ap.add_argument("--reuse", action="store_true",
                    help="with --keep: reuse a lexicon built by an earlier run and its recorded build cost")
    args = ap.parse_args()
    sizes = sorted(parse_size(s) for s in args.sizes.split(","))

    folder = args.keep or tempfile.mkdtemp(prefix="lexigraph-scale-")
    os.makedirs(folder, exist_ok=True)
    t = time.perf_counter()
    pool = word_pool(max(5_000_000, sizes[-1]), args.seed)
    cum = train_bigrams()
    print(f"# scaling, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: pool of {len(pool):,} unique model "
          f"words ready in {time.perf_counter() - t:.0f} s; files in {folder}\n", flush=True)

    builds: list[dict] = []
    chosen: dict[int, dict[str, list[str]]] = {}
    for n in sizes:
        rng = random.Random(args.seed + n)
        words = pool[:n]
        src = os.path.join(folder, f"words-{size_label(n)}.txt")
        dest = os.path.join(folder, f"words-{size_label(n)}.lex")
        if not os.path.exists(src):
            write_list(words, src)
        record = dest + ".build.json"
        if args.reuse and os.path.exists(record) and os.path.exists(dest):
            with open(record) as f:
                base, got = json.load(f)
        else:
            base = child("baseline", src, dest, args.timeout)
            got = child("build", src, dest, args.timeout)
            got["at"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
            if "error" not in got:
                with open(record, "w") as f:
                    json.dump([base, got], f)
        row = {"n": n, "src": src, "dest": dest, "base_kib": base.get("maxrss_kib", 0), **got}
        if "error" not in got:
            lex = lexigraph.open(dest)
            row["size"] = os.path.getsize(dest)
            row["arcs"] = lex.info["graph"]["arcs"]
            row["words"] = len(lex)
            if len(lex) != n:
                row["error"] = f"{len(lex):,} words in the file, {n:,} in the list"
            if not args.build_only:
                if not args.no_check:
                    t = time.perf_counter()
                    oracle = Oracle(words)
                    fails = check(lex, words, oracle, rng, cum, args.seed)
                    row["check"] = "all agree" if not fails else "; ".join(fails[:3])
                    row["check_s"] = time.perf_counter() - t
                    del oracle
                chosen[n] = queries(lex, words, rng)
            lex.close()
        builds.append(row)
        print(json.dumps({k: v for k, v in row.items() if k not in ("src",)}), flush=True)
        del words

    print("\n#### Builds (each in a fresh child process)\n")
    print("| words | build | peak RSS of the build | baseline (import + read list) | file | arcs | bytes/word | check |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in builds:
        if "error" in r:
            print(f"| {r['n']:,} | **failed** after {r.get('wall', 0):.0f} s: {r['error']} | | | | | | |")
            continue
        print(f"| {r['n']:,} | {r['seconds']:.1f} s | {r['maxrss_kib'] / 1024:,.0f} MiB | {r['base_kib'] / 1024:,.0f} MiB "
              f"| {r['size'] / 2**20:,.1f} MiB | {r['arcs']:,} | {r['size'] / r['n']:.1f} | {r.get('check', 'not run')} |")
    failed = [r for r in builds if "error" in r]
    for r in failed:
        print(f"\nreproduce: python bench/bench_scale.py --build-only --sizes {size_label(r['n'])}"
              f"   (or: lexigraph.build({r['src']!r}, 'out.lex'))")

    timings = time_queries({n: lexigraph.open(os.path.join(folder, f"words-{size_label(n)}.lex")) for n in chosen},
                           chosen, args.rounds) if chosen else {}
    if timings:
        ns = sorted(timings)
        names = list(timings[ns[0]])
        print("\n#### Query time per size (median of rounds; mean results in brackets) and growth exponent\n")
        print("Result-count bands: " + "; ".join(f"{k}: {lo}-{hi}" for k, (lo, hi) in BANDS.items()) + "\n")
        print("| query | " + " | ".join(f"{size_label(n)}: µs (results)" for n in ns) + " | " +
              " | ".join(f"exp {size_label(a)}→{size_label(b)}" for a, b in zip(ns, ns[1:])) + " | fit |")
        print("|---|" + "---:|" * (len(ns) + len(ns)))
        for name in names:
            cells = [f"{us(timings[n][name][0])} ({timings[n][name][1]:.1f})" for n in ns]
            exps = [f"{math.log(timings[b][name][0] / timings[a][name][0]) / math.log(b / a):.2f}"
                    for a, b in zip(ns, ns[1:])]
            fit = np.polyfit(np.log([float(n) for n in ns]), np.log([timings[n][name][0] for n in ns]), 1)[0] \
                if len(ns) > 1 else float("nan")
            print(f"| {name} | " + " | ".join(cells) + " | " + " | ".join(exps) + f" | {fit:.2f} |")
        print("\nfit: the slope of log(time) against log(words), least squares over all sizes.")


if __name__ == "__main__":
    main()
