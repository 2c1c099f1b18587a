"""Study searches on TWL06: lexigraph's search language against the same query as a Python predicate.

The peer is what a study script does without lexigraph: one predicate per
word over the list, with everything it can precompute outside the timing
(a set of the words for hooks and prefixes, a probability rank per word,
the number of anagrams per alphagram, point values). Rounds interleaved,
medians; "cold" is lexigraph's first call on a freshly opened lexicon
(its columns are built then and cached for the later calls).

Run: python bench/bench_study.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import bisect
import statistics
import sys
import tempfile
import time
from collections import Counter
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import data_file, measure  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.alphabet import Alphabet  # noqa: E402

EN = Alphabet.preset("english")
COUNTS, POINTS, BLANKS = EN.counts or {}, EN.points or {}, EN.blanks or 0
VOWELS = set("aeiou")


def combinations(word: str) -> int:
    """Draws with up to two blanks (the definition in docs/search.md), word by word."""
    need = Counter(word)
    poly = [1, 0, 0]
    for t, w in need.items():
        f = [comb(COUNTS[t], w - s) if w >= s else 0 for s in range(3)]
        poly = [sum(poly[i] * f[j - i] for i in range(j + 1)) for j in range(3)]
    return sum(comb(BLANKS, j) * poly[j] for j in range(3))


class Peer:
    """Precomputed helpers for the predicates (built once, outside the timing)."""

    def __init__(self, words: list[str], enable: set[str]) -> None:
        self.words = words
        self.set = set(words)
        self.enable = enable
        self.alpha = Counter("".join(sorted(w)) for w in words)
        self.points = {w: sum(POINTS[c] for c in w) for w in words}
        self.rank: dict[str, int] = {}
        by_len: dict[int, list[tuple[int, str]]] = {}
        for w in words:
            by_len.setdefault(len(w), []).append((combinations(w), w))
        for group in by_len.values():
            values = sorted(c for c, _ in group)
            for c, w in group:
                self.rank[w] = 1 + len(values) - bisect.bisect_right(values, c)

    def select(self, pred) -> list[str]:
        return [w for w in self.words if pred(w)]


def queries(p: Peer) -> list[tuple[str, object]]:
    s = p.set
    letters = "abcdefghijklmnopqrstuvwxyz"

    def sub(w: str, rack: Counter, blanks: int) -> bool:
        return sum(max(0, c - rack[t]) for t, c in Counter(w).items()) <= blanks

    rack = Counter("retains")
    return [
        ("length 7 and probability 1-1000 and back-hook s",
         lambda w: len(w) == 7 and p.rank[w] <= 1000 and w + "s" in s),
        ("length 8 and vowels 3 and contains j",
         lambda w: len(w) == 8 and sum(c in VOWELS for c in w) == 3 and "j" in w),
        ("not in enable", lambda w: w not in p.enable),
        ("length 7-8 and pattern *ing and takes-prefix re",
         lambda w: 7 <= len(w) <= 8 and w.endswith("ing") and "re" + w in s),
        ("subanagram retains?? and length 7- and anagrams 2-",
         lambda w: len(w) >= 7 and len(w) <= 9 and sub(w, rack, 2) and p.alpha["".join(sorted(w))] >= 2),
        ("length 5 and distinct 5 and points 10-",
         lambda w: len(w) == 5 and len(set(w)) == 5 and p.points[w] >= 10),
        ("length 4 and front-hook ? and back-hook ? and inner-hook front",
         lambda w: len(w) == 4 and any(t + w in s for t in letters) and any(w + t in s for t in letters)
         and w[1:] in s),
        ("probability 1-100 and (contains q or contains z) and not contains u",
         lambda w: p.rank[w] <= 100 and ("q" in w or "z" in w) and "u" not in w),
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    words_path = data_file("twl06.txt")
    words = words_path.read_text().split()
    lex_path = Path(tempfile.mkdtemp()) / "twl06.lex"
    lexigraph.build(words_path, lex_path, alphabet="english")
    enable = lexigraph.open()
    peer = Peer(words, set(enable))
    lists = {"enable": enable}
    print(f"TWL06: {len(words):,} words; rounds: {args.rounds}; C extension: {enable.uses_c}")
    rows = []
    for text, pred in queries(peer):
        fresh = lexigraph.open(lex_path)
        t = time.perf_counter()
        got = fresh.search(text, lists=lists)
        cold = time.perf_counter() - t
        expect = sorted(peer.select(pred))
        assert got == expect, (text, len(got), len(expect))
        med = measure({
            "lexigraph": lambda: fresh.search(text, lists=lists),
            "predicate": lambda: peer.select(pred),
        }, rounds=args.rounds)
        rows.append((text, len(got), cold, med["lexigraph"], med["predicate"]))
    print()
    print("| query | words | lexigraph cold | lexigraph warm | Python predicate | ratio (warm) | ratio (cold) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for text, n, cold, warm, base in rows:
        print(f"| `{text}` | {n:,} | {cold * 1e3:.1f} ms | {warm * 1e3:.2f} ms | {base * 1e3:.0f} ms "
              f"| {base / warm:,.0f}x | {base / cold:,.1f}x |")
    ratios = [base / warm for *_, warm, base in rows]
    cold_ratios = [base / cold for _, _, cold, _, base in rows]
    print()
    print(f"median ratio: {statistics.median(ratios):,.0f}x warm (min {min(ratios):,.0f}x), "
          f"{statistics.median(cold_ratios):,.1f}x cold (min {min(cold_ratios):,.1f}x); target >= 20x")


if __name__ == "__main__":
    main()
