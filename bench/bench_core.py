"""Issue 2: check, check_many, children, open, build, memory and size on TWL06.

    python bench/bench_core.py
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

from common import TwlTable, data_file, measure, table, twl06_fixture

import lexigraph


def memory_growth(kind: str, lex_path: str, words_path: str, field: str = "VmRSS") -> int:
    """RSS growth in KiB after loading (and using) the words, in a fresh process."""
    code = f"""
import sys; sys.path.insert(0, {os.path.dirname(__file__)!r})
from common import rss_kib
import lexigraph, numpy, zlib
words = open({words_path!r}).read().split()[::7]
before = rss_kib({field!r})
if {kind!r} == "set":
    s = set(open({words_path!r}).read().split())
    hits = sum(w in s for w in words)
else:
    lex = lexigraph.open({lex_path!r})
    hits = sum(w in lex for w in words)
print(rss_kib({field!r}) - before)
"""
    return int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def main() -> None:
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
    t = measure({
        "set": lambda: [w in s for w in probes],
        "lexigraph `w in lex`": lambda: [w in lex for w in probes],
        "lexigraph `lex.check(w)`": lambda: [lex.check(w) for w in probes],
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
    t = measure({"set": lambda: [w in s for w in million], "check_many": lambda: lex.check_many(million)}, rounds=5)
    out.append(table("check_many on a million words", [(k, len(million) / v, "words/s") for k, v in t.items()],
                     "set", ">= 2x set"))

    prefixes = [w[: rng.randint(1, len(w))] for w in rng.sample(words, 5000)]
    t = measure({"TWL06 table walk": lambda: [twl.children(p) for p in prefixes],
                 "lexigraph children": lambda: [lex.children(p) for p in prefixes]})
    out.append(table("children(prefix)", [(k, len(prefixes) / v, "prefixes/s") for k, v in t.items()],
                     "TWL06 table walk", ">= 5x the table walk"))

    def open_close():
        lexigraph.open(lex_path).close()

    t = measure({"read text into a set": lambda: set(open(words_path).read().split()),
                 "lexigraph.open": open_close}, rounds=15)
    out.append(table("open", [(k, 1 / v, "opens/s") for k, v in t.items()], "read text into a set",
                     ">= 10x reading the list into a set"))

    grow_set = memory_growth("set", lex_path, str(words_path))
    grow_lex = memory_growth("lex", lex_path, str(words_path))
    anon_set = memory_growth("set", lex_path, str(words_path), "RssAnon")
    anon_lex = memory_growth("lex", lex_path, str(words_path), "RssAnon")
    info = lex.info
    size = os.path.getsize(lex_path)
    out.append(
        "## build, size, memory\n\n"
        f"- build of TWL06: median {builds[1]:.2f} s (target < 2 s)\n"
        f"- graph: {info['graph']['arcs']:,} four-byte arcs incl. the null arc (target <= 126,696)\n"
        f"- file: {size:,} bytes (target < 4 MB)\n"
        f"- memory growth after open and a pass of checks: {grow_lex:,} KiB; a set: {grow_set:,} KiB "
        f"(ratio {grow_lex / grow_set:.2f}, target <= 0.25); this counts the mapped file's pages, "
        "which the page cache shares between processes\n"
        f"- private (anonymous) memory growth: {anon_lex:,} KiB; a set: {anon_set:,} KiB "
        f"(ratio {anon_lex / max(anon_set, 1):.2f})\n"
    )
    print("\n".join(out))


if __name__ == "__main__":
    main()
