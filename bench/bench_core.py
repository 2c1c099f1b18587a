"""Issue 2: check, check_many, children, open, build, memory and size on TWL06.

    python bench/bench_core.py
    python bench/bench_core.py --check-many   # only check_many against a set, strings already hashed and fresh
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

from common import TwlTable, data_file, measure, table, twl06_fixture

import lexigraph
from lexigraph.engine import compiled


def memory_growth(kind: str, lex_path: str, words_path: str) -> dict[str, int]:
    """Memory growth in KiB, in a fresh process: after loading, and after a pass of checks.

    ``open``: VmRSS growth right after opening (lexigraph's lazily imported
    modules included). ``pass``: VmRSS growth after checking every seventh
    word; ``private``/``file``: how much of that is private memory (RssAnon)
    and how much mapped file pages (RssFile), which the page cache shares
    between all processes that map the lexicon.
    """
    code = f"""
import sys, json; sys.path.insert(0, {os.path.dirname(__file__)!r})
from common import rss_kib
import lexigraph, numpy, zlib
words = open({words_path!r}).read().split()[::7]
fields = ("VmRSS", "RssAnon", "RssFile")
before = [rss_kib(f) for f in fields]
if {kind!r} == "set":
    s = set(open({words_path!r}).read().split())
    loaded = rss_kib("VmRSS")
    hits = sum(w in s for w in words)
else:
    lex = lexigraph.open({lex_path!r})
    loaded = rss_kib("VmRSS")
    hits = sum(w in lex for w in words)
after = [rss_kib(f) - b for f, b in zip(fields, before)]
print(json.dumps({{"open": loaded - before[0], "pass": after[0], "private": after[1], "file": after[2]}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def median_growth(kind: str, lex_path: str, words_path: str, runs: int = 3) -> dict[str, int]:
    got = [memory_growth(kind, lex_path, words_path) for _ in range(runs)]
    return {k: sorted(g[k] for g in got)[runs // 2] for k in got[0]}


def check_many_conditions(lex: lexigraph.Lexicon, s: set[str], words: list[str], rng: random.Random,
                          rounds: int = 5) -> str:
    """check_many against a set on about a million strings, in the conditions that decide the ratio.

    - *the list's own strings, in its order*: TWL06's words five times over, the very str objects the set
      holds (CPython caches a str's hash, and the objects lie in memory in the order they are read), as in a
      program that checks the words it already holds, one after another;
    - *already hashed, random order*: 80% of them picked at random from the list's own objects, 20% random
      strings hashed once beforehand: hashes cached, but each lookup a cache miss;
    - *fresh*: the same strings as new objects decoded from bytes for each round (untimed), as read from a
      file or a request: a set must hash each one first.

    The set is asked two ways: a comprehension, and ``map(s.__contains__, ...)`` (the fastest pure-Python
    idiom). Rounds interleaved; medians.
    """
    import statistics

    in_order = words * 5
    probes = [rng.choice(words) for _ in range(800_000)]
    probes += ["".join(rng.sample("abcdefghijklmnopqrstuvwxyz", 7)) for _ in range(200_000)]
    rng.shuffle(probes)
    for w in probes:
        hash(w)  # the random strings hashed once too: "already hashed" means every one
    blob = "\n".join(probes).encode()
    conditions = {
        "the list's own, in its order": lambda: in_order,
        "already hashed, random order": lambda: probes,
        "fresh, random order": lambda: blob.decode().split("\n"),
    }
    contenders = {
        "set, comprehension": lambda ws: [w in s for w in ws],
        "set, map(s.__contains__)": lambda ws: list(map(s.__contains__, ws)),
        "check_many": lambda ws: lex.check_many(ws),
    }
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(rounds):
        for condition, strings in conditions.items():
            for name, fn in contenders.items():
                ws = strings()  # untimed: a fresh copy for the fresh condition
                t = time.perf_counter()
                fn(ws)
                times.setdefault((condition, name), []).append(time.perf_counter() - t)
    lines = ["## check_many against a set: strings of the list, already hashed, fresh", "",
             "| strings | contender | words/s | check_many / this |", "|---|---|---:|---:|"]
    for condition, strings in conditions.items():
        n = len(strings())
        best = statistics.median(times[(condition, "check_many")])
        for name in contenders:
            m = statistics.median(times[(condition, name)])
            lines.append(f"| {condition} | {name} | {n / m:,.0f} | {m / best:.2f}x |")
    return "\n".join(lines) + "\n"


def main() -> None:
    if sys.argv[1:] == ["--check-many"]:  # only the check_many conditions (python bench/bench_core.py --check-many)
        _, words, _, _ = twl06_fixture()
        print(check_many_conditions(lexigraph.load(words), set(words), words, random.Random(2024)))
        return
    words_path, words, table_bytes, lex_path = twl06_fixture()

    builds = []
    for _ in range(3):
        t = time.perf_counter()
        lexigraph.build(words_path, lex_path)
        builds.append(time.perf_counter() - t)
    builds.sort()
    lex = lexigraph.open(lex_path)
    s = set(words)
    twl = TwlTable(table_bytes)
    out = []

    rng = random.Random(2024)
    probes = [rng.choice(words) for _ in range(100_000)]
    probes += ["".join(rng.sample("abcdefghijklmnopqrstuvwxyz", len(w))) for w in probes[:25_000]]
    rng.shuffle(probes)
    few = probes[:3000]
    pure = lexigraph.open(lex_path, pure_python=True)  # as without the C extension
    t = measure({
        "set": lambda: [w in s for w in probes],
        "lexigraph `w in lex`": lambda: [w in lex for w in probes],
        "lexigraph `lex.check(w)`": lambda: [lex.check(w) for w in probes],
        "lexigraph `w in lex`, pure Python": lambda: [w in pure for w in probes],
        "TWL06 table walk": lambda: [twl.check(w) for w in few],
    })
    rows = [(k, (len(few) if k.startswith("TWL") else len(probes)) / v, "words/s") for k, v in t.items()]
    try:
        import marisa_trie

        trie = marisa_trie.Trie(words)
        rows.append(("marisa-trie", len(probes) / measure({"m": lambda: [w in trie for w in probes]})["m"], "words/s"))
    except ImportError:
        pass
    out.append(table("single-word check (80% words, 20% random strings)", rows, "set", ">= 0.25x set"))

    million = [rng.choice(words) for _ in range(800_000)]
    million += ["".join(rng.sample("abcdefghijklmnopqrstuvwxyz", 7)) for _ in range(200_000)]
    t = measure({"set": lambda: [w in s for w in million], "check_many": lambda: lex.check_many(million),
                 "check_many, pure Python": lambda: pure.check_many(million)}, rounds=5)
    out.append(table("check_many on a million words", [(k, len(million) / v, "words/s") for k, v in t.items()],
                     "set", ">= 2x set"))
    out.append(check_many_conditions(lex, s, words, rng))

    spanish = data_file("es-wspanish.txt", required=False)
    if spanish is not None:
        es = lexigraph.load(spanish, alphabet="spanish")
        es_words = list(es)
        es_set = set(es_words)
        es_probes = [rng.choice(es_words) for _ in range(50_000)]
        t = measure({"set": lambda: [w in es_set for w in es_probes],
                     "lexigraph `w in lex`": lambda: [w in es for w in es_probes],
                     "lexigraph check_many": lambda: es.check_many(es_probes)})
        out.append(table(f"Spanish, multi-letter tiles ({len(es):,} words; no target)",
                         [(k, len(es_probes) / v, "words/s") for k, v in t.items()], "set"))

    prefixes = [w[: rng.randint(1, len(w))] for w in rng.sample(words, 5000)]
    t = measure({"TWL06 table walk": lambda: [twl.children(p) for p in prefixes],
                 "lexigraph children": lambda: [lex.children(p) for p in prefixes],
                 "lexigraph children, pure Python": lambda: [pure.children(p) for p in prefixes]})
    out.append(table("children(prefix)", [(k, len(prefixes) / v, "prefixes/s") for k, v in t.items()],
                     "TWL06 table walk", ">= 5x the table walk"))

    def open_close():
        lexigraph.open(lex_path).close()

    t = measure({"read text into a set": lambda: set(open(words_path).read().split()),
                 "lexigraph.open": open_close}, rounds=15)
    out.append(table("open", [(k, 1 / v, "opens/s") for k, v in t.items()], "read text into a set",
                     ">= 10x reading the list into a set"))

    grow_set = median_growth("set", lex_path, str(words_path))
    grow_lex = median_growth("lex", lex_path, str(words_path))
    info = lex.info
    size = os.path.getsize(lex_path)

    def ratio(key: str) -> str:
        return f"{grow_lex[key] / max(grow_set[key], 1):.2f}x"

    out.append(
        "## memory growth (KiB, median of 3 fresh processes)\n\n"
        "| | set | lexigraph | ratio |\n|---|---:|---:|---:|\n"
        f"| after open (target <= 0.25x) | {grow_set['open']:,} | {grow_lex['open']:,} | {ratio('open')} |\n"
        f"| after open and {len(words) // 7:,} checks | {grow_set['pass']:,} | {grow_lex['pass']:,} | {ratio('pass')} |\n"
        f"| of which private memory | {grow_set['private']:,} | {grow_lex['private']:,} | {ratio('private')} |\n"
        f"| of which mapped file pages (shared) | {grow_set['file']:,} | {grow_lex['file']:,} | |\n"
    )
    out.append(
        "## build and size\n\n"
        f"- build of TWL06: median {builds[1]:.2f} s (target < 2 s)\n"
        f"- graph: {info['graph']['arcs']:,} eight-byte arc records incl. the null arc (target <= 126,696)\n"
        f"- file: {size:,} bytes (target < 4 MB)\n"
        f"- C extension: {'built' if compiled.available() else 'NOT built (pure-Python paths)'}\n"
    )
    print("\n".join(out))


if __name__ == "__main__":
    main()
