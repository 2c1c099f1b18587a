"""Issues 3, 4, 5: anagrams, crossword patterns and crossings, reading old formats, on TWL06.

    python bench/bench_queries.py
"""

from __future__ import annotations

import os
import random
import re

from common import TwlTable, data_file, measure, table, twl06_fixture

import lexigraph


def main() -> None:
    words_path, words, table_bytes, lex_path = twl06_fixture()
    tmp = os.path.dirname(lex_path)
    lexigraph.build(words_path, lex_path)
    lex = lexigraph.open(lex_path)
    twl = TwlTable(table_bytes)
    rng = random.Random(5)
    bag = "aaaaaaaaabbccddddeeeeeeeeeeeeffggghhiiiiiiiiijkllllmmnnnnnnooooooooppqrrrrrrssssttttttuuuuvvwwxyyz"
    out = []

    racks = ["".join(rng.sample(bag, 7 - b)) + "?" * b for b in (0, 1, 2) for _ in range(10)]
    lex.anagram(racks[0])  # builds the presence masks once
    t = measure({
        "TWL06 table walk": lambda: [twl.anagram(r) for r in racks[::5]],
        "lexigraph anagram": lambda: [lex.anagram(r) for r in racks],
    }, rounds=5)
    out.append(table("sub-anagrams of 7-tile racks, 0-2 blanks",
                     [(k, (6 if k.startswith("TWL") else len(racks)) / v, "racks/s") for k, v in t.items()],
                     "TWL06 table walk", ">= 12x the table walk"))

    def obvious_table(rack: str) -> list:
        letters = [c for c in rack if c != "?"]
        blanks = rack.count("?")
        res = []
        for extra in [""] + [chr(c) for c in range(97, 123)]:
            want = sorted(letters + list(extra))
            n = len(want) + blanks
            found = []
            for w in words:
                if len(w) != n:
                    continue
                rest = list(want)
                miss = 0
                for ch in sorted(w):
                    if ch in rest:
                        rest.remove(ch)
                    else:
                        miss += 1
                if miss <= blanks and not rest:
                    found.append(w)
            res.append(found)
        return res

    t = measure({"one pass per query (sorted letters)": lambda: obvious_table("aalnst?"),
                 "lexigraph anagram_table": lambda: lex.anagram_table("aalnst?")}, rounds=3)
    out.append(table("--table for AALNST? (27 exact-anagram queries)", [(k, 1 / v, "tables/s") for k, v in t.items()],
                     "one pass per query (sorted letters)", ">= 10x the obvious program"))

    patterns = []
    for _ in range(200):
        n = rng.randint(4, 8)
        cells = ["?"] * n
        for k in rng.sample(range(n), rng.randint(1, 3)):
            cells[k] = rng.choice("abcdefghilmnoprstu")
        patterns.append("".join(cells))
    joined = "\n".join(words)
    regexes = [re.compile("^" + p.replace("?", ".") + "$", re.M) for p in patterns]
    cases = {
        "compiled regex over the joined list": lambda: [r.findall(joined) for r in regexes[:20]],
        "lexigraph match": lambda: [lex.match(p) for p in patterns],
    }
    counts = {"compiled regex over the joined list": 20, "lexigraph match": len(patterns)}
    try:
        import ahocorasick

        automaton = ahocorasick.Automaton()
        for w in words:
            automaton.add_word(w, w)
        cases["pyahocorasick keys(MATCH_EXACT_LENGTH)"] = lambda: [
            list(automaton.keys(p, "?", ahocorasick.MATCH_EXACT_LENGTH)) for p in patterns]
        counts["pyahocorasick keys(MATCH_EXACT_LENGTH)"] = len(patterns)
    except ImportError:
        pass
    t = measure(cases, rounds=5)
    out.append(table("? patterns of 4-8 tiles with 1-3 fixed letters", [(k, counts[k] / v, "patterns/s") for k, v in t.items()],
                     "compiled regex over the joined list", ">= 20x regex, >= 2x pyahocorasick"))

    pairs = [(patterns[i], rng.randrange(len(patterns[i])), patterns[i + 1], rng.randrange(len(patterns[i + 1])))
             for i in range(0, 100, 2)]

    def brute_cross(a, i, b, j):
        ra, rb = re.compile(a.replace("?", ".")), re.compile(b.replace("?", "."))
        wa = [w for w in words if len(w) == len(a) and ra.fullmatch(w)]
        wb = [w for w in words if len(w) == len(b) and rb.fullmatch(w)]
        tiles = {w[i] for w in wa} & {w[j] for w in wb}
        return tiles, [w for w in wa if w[i] in tiles], [w for w in wb if w[j] in tiles]

    t = measure({"brute force over the list": lambda: [brute_cross(*p) for p in pairs[:5]],
                 "lexigraph cross": lambda: [lex.cross(*p) for p in pairs]}, rounds=3)
    out.append(table("cross for random pairs of 4-8-tile patterns",
                     [(k, (5 if k.startswith("brute") else len(pairs)) / v, "crossings/s") for k, v in t.items()],
                     "brute force over the list", ">= 20x brute force"))

    daw_path = os.path.join(tmp, "twl06.daw")
    from lexigraph.formats.export import export

    export(lex, daw_path, "daw")
    t = measure({
        "build from twl06.txt": lambda: lexigraph.build(words_path, os.path.join(tmp, "a.lex")),
        "build from twl06.dawg32": lambda: lexigraph.build(data_file("twl06.dawg32"), os.path.join(tmp, "b.lex")),
        "build from twl06.daw": lambda: lexigraph.build(daw_path, os.path.join(tmp, "c.lex")),
    }, rounds=3)
    out.append(table("reading old formats (whole build)", [(k, 1 / v, "builds/s") for k, v in t.items()],
                     "build from twl06.txt", "reading a table or .daw no slower than building from text"))
    from lexigraph.compiler.sources import read

    t2 = measure({"read twl06.dawg32": lambda: read(data_file("twl06.dawg32")),
                  "read twl06.daw": lambda: read(daw_path),
                  "read twl06.txt": lambda: read(words_path)}, rounds=5)
    rows = [(k, 1 / v, "reads/s") for k, v in t2.items()] + [("build from twl06.txt", 1 / t["build from twl06.txt"], "builds/s")]
    out.append(table("reading alone vs building from the text list", rows, "build from twl06.txt"))
    print("\n".join(out))


if __name__ == "__main__":
    main()
