"""Issue 11: lexigraph beside every peer, in one process, rounds interleaved; Markdown tables.

    pip install -e '.[bench]'            # marisa-trie, pyahocorasick (a row is skipped without its peer)
    python bench/bench_peers.py          # about 2-3 minutes on a busy 2-core machine
    python bench/bench_peers.py --rounds 3 --only anagram,prefix

Every table gives each contender's median throughput and lexigraph's ratio to it
(lexigraph's rate / the contender's), as the ratio of the medians and, in
brackets, the range of the per-round ratios. "lexigraph, pure Python" is the
same lexicon opened with ``pure_python=True``. Before timing, every contender's
answers to a sample of the queries are asserted equal (as sorted lists), so a
ratio never compares different work. Racks are drawn from an English tile bag
("bag") or uniformly from a-z ("uniform": they rarely make words, so they show
a query's fixed cost). A summary table against the issue's targets ends the run.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
import time
from itertools import combinations_with_replacement
from typing import Any, Callable

import numpy as np
from common import ALPHA, BAG, TwlTable, data_file, fmt_ratio, peer_table, rates, ratio_stats

import lexigraph

LEX, PURE = "lexigraph", "lexigraph, pure Python"


class Run:
    """Collects the tables and the summary rows of one run."""

    def __init__(self, rounds: int, pure: bool) -> None:
        self.rounds, self.pure = rounds, pure
        self.tables: list[str] = []
        self.summary: list[tuple[str, str, str, str, str]] = []

    def compare(
        self,
        title: str,
        queries: list[Any],
        contenders: dict[str, Callable[[Any], Any] | None],
        unit: str,
        *,
        norm: Callable[[Any], Any] = sorted,
        sample: int = 20,
        batch: bool = False,
        summary: list[tuple[str, str, str]] = (),  # type: ignore[assignment]
        note: str = "",
        rounds: int | None = None,
    ) -> None:
        """Check every contender against lexigraph on a sample, time them, add the table and summary rows.

        ``contenders`` map a name to a function of one query (``batch``: of the whole query list);
        None marks a missing peer. ``summary``: (query label, peer name, target) rows; the
        target is a string like ">= 0.5x".
        """
        missing = [k for k, f in contenders.items() if f is None]
        live = {k: f for k, f in contenders.items() if f is not None}
        if not self.pure:
            live.pop(PURE, None)
        for name in missing:
            print(f"note: {title}: peer {name!r} is not installed; its row is skipped", file=sys.stderr)
        # same answers first
        if batch:
            want = norm(live[LEX](queries[:sample]))
            for name, fn in live.items():
                got = norm(fn(queries[:sample]))
                assert got == want, f"{title}: {name} disagrees with lexigraph on the sample"
        else:
            for q in queries[:sample]:
                want = norm(live[LEX](q))
                for name, fn in live.items():
                    got = norm(fn(q))
                    assert got == want, f"{title}: {name} disagrees with lexigraph on {q!r}: {got!r:.200} != {want!r:.200}"
        cases = {k: (lambda f=f: f(queries)) if batch else (lambda f=f: [f(q) for q in queries]) for k, f in live.items()}
        got_rates = rates(cases, len(queries), rounds or self.rounds)
        subjects = [s for s in (LEX, PURE) if s in got_rates]
        self.tables.append(peer_table(f"{title} ({len(queries):,} queries a round)", got_rates, unit, subjects, note))
        print(self.tables[-1], flush=True)
        for query, peer, target in summary:
            if peer in missing:
                self.summary.append((query, peer, "peer missing", target, ""))
                continue
            med, lo, hi = ratio_stats(got_rates[LEX], got_rates[peer])
            need = float(target.strip(">= x"))
            pure = ""
            if PURE in got_rates:
                pure = fmt_ratio(ratio_stats(got_rates[PURE], got_rates[peer])[0])
            self.summary.append((query, peer, f"{fmt_ratio(med)} ({fmt_ratio(lo)}-{fmt_ratio(hi)})", target,
                                 ("yes" if med >= need else "**no**") + (f" | {pure}" if pure else " |")))

    def summary_table(self) -> str:
        lines = ["#### Summary against the issue 11 targets", "",
                 "| query | peer | lexigraph ÷ peer, median (range) | target | met | pure Python ÷ peer |",
                 "|---|---|---:|---:|:--:|---:|"]
        lines += [f"| {q} | {p} | {r} | {t} | {m} |" for q, p, r, t, m in self.summary]
        return "\n".join(lines) + "\n"


def bag_rack(rng: random.Random, tiles: int, blanks: int) -> str:
    return "".join(rng.sample(BAG, tiles - blanks)) + "?" * blanks


def uniform_rack(rng: random.Random, tiles: int, blanks: int) -> str:
    return "".join(rng.choice(ALPHA) for _ in range(tiles - blanks)) + "?" * blanks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-pure", action="store_true", help="skip the pure-Python rows")
    ap.add_argument("--only", default="", help="comma-separated groups: exact,sub,blank15,prefix,match,star,cross,"
                                               "build,scowl")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))

    def want(group: str) -> bool:
        return not only or group in only

    try:
        import marisa_trie
    except ImportError:
        marisa_trie = None
    try:
        import ahocorasick
    except ImportError:
        ahocorasick = None

    started = time.perf_counter()
    words_path = data_file("twl06.txt")
    words = words_path.read_text().split()
    tmp = tempfile.mkdtemp()
    lex_path = os.path.join(tmp, "twl06.lex")
    lexigraph.build(words_path, lex_path)
    lex = lexigraph.open(lex_path)
    pure = lexigraph.open(lex_path, pure_python=True)
    assert list(lex) == sorted(words), "the lexicon does not hold TWL06 as listed"
    run = Run(args.rounds, not args.no_pure)
    rng = random.Random(11)
    print(f"# lexigraph beside its peers, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, TWL06 "
          f"({len(words):,} words), C extension {'on' if lex.uses_c else 'OFF'}\n", flush=True)

    # -- exact anagrams: a dict from sorted letters to words ----------------------------------------
    if want("exact"):
        index: dict[str, list[str]] = {}
        for w in words:
            index.setdefault("".join(sorted(w)), []).append(w)
        fills = {b: ["".join(c) for c in combinations_with_replacement(ALPHA, b)] for b in (1, 2)}

        def dict_exact(rack: str) -> list[str]:
            letters = rack.replace("?", "")
            b = len(rack) - len(letters)
            if not b:
                return index.get("".join(sorted(letters)), [])
            out: set[str] = set()
            for extra in fills[b]:
                out.update(index.get("".join(sorted(letters + extra)), ()))
            return sorted(out)

        for blanks, n in ((0, 3000), (1, 500), (2, 60)):
            expansions = {0: "one lookup", 1: "26 lookups", 2: "351 lookups"}[blanks]
            for kind, make in (("bag", bag_rack), ("uniform", uniform_rack)):
                racks = [make(rng, rng.choice((7, 8)), blanks) for _ in range(n)]
                target = ">= 0.5x" if blanks == 0 else ">= 3x"
                run.compare(
                    f"exact anagram, 7-8 tiles, {blanks} blanks, {kind} racks", racks,
                    {LEX: lambda r: lex.anagram(r, mode="exact"), PURE: lambda r: pure.anagram(r, mode="exact"),
                     f"dict of sorted letters ({expansions})": dict_exact},
                    "racks/s",
                    summary=[(f"exact anagram 7-8 tiles, {blanks} blanks, {kind}",
                              f"dict of sorted letters ({expansions})", target)])

    # -- sub-anagrams: the TWL06 module's table walk and a NumPy letter-count matrix -----------------
    codes = np.frombuffer("".join(words).encode(), dtype=np.uint8) - 97
    lens = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    row_of = np.repeat(np.arange(len(words)), lens)
    matrix = np.zeros((len(words), 26), dtype=np.int8)
    np.add.at(matrix, (row_of, codes), 1)
    word_array = np.array(words, dtype=object)

    def numpy_sub(rack: str) -> list[str]:
        letters = rack.replace("?", "")
        have = np.bincount(np.frombuffer(letters.encode(), dtype=np.uint8) - 97, minlength=26).astype(np.int8)
        short = np.maximum(matrix - have, 0).sum(axis=1)
        return word_array[short <= len(rack) - len(letters)].tolist()

    if want("sub"):
        twl = TwlTable(data_file("twl06.dawg32").read_bytes())
        for blanks, n in ((0, 40), (1, 16), (2, 8)):
            for kind, make in (("bag", bag_rack), ("uniform", uniform_rack)):
                racks = [make(rng, 7, blanks) for _ in range(n)]
                run.compare(
                    f"sub-anagram, 7 tiles, {blanks} blanks, {kind} racks", racks,
                    {LEX: lex.anagram, PURE: pure.anagram, "TWL06 table walk": twl.anagram,
                     "NumPy letter-count matrix": numpy_sub},
                    "racks/s", sample=6,
                    summary=[(f"sub-anagram 7 tiles, {blanks} blanks, {kind}", "TWL06 table walk", ">= 30x"),
                             (f"sub-anagram 7 tiles, {blanks} blanks, {kind}", "NumPy letter-count matrix",
                              ">= 10x")])

    if want("blank15"):
        run.compare("15-blank rack (every word of 2-15 tiles)", ["?" * 15] * 3,
                    {LEX: lex.anagram, PURE: pure.anagram, "NumPy brute force": numpy_sub},
                    "racks/s", sample=1, summary=[("15-blank rack", "NumPy brute force", ">= 1x")])

    # -- prefixes: marisa-trie keys(prefix) --------------------------------------------------------------
    trie = marisa_trie.Trie(words) if marisa_trie else None
    if want("prefix"):
        for k, n in ((1, 12), (2, 100), (3, 1000)):
            for kind in ("bag", "uniform"):
                if kind == "bag":
                    prefixes = [rng.choice(words)[:k] for _ in range(n)]
                else:
                    prefixes = ["".join(rng.choice(ALPHA) for _ in range(k)) for _ in range(n)]
                run.compare(
                    f"words(prefix), {k}-tile prefixes, {'from words' if kind == 'bag' else 'uniform'}", prefixes,
                    {LEX: lambda p: lex.words(prefix=p), PURE: lambda p: pure.words(prefix=p),
                     "marisa-trie keys(prefix)": trie.keys if trie else None},
                    "prefixes/s", sample=10,
                    summary=[(f"words(prefix), {k} tiles, {'from words' if kind == 'bag' else 'uniform'}",
                              "marisa-trie keys(prefix)", ">= 1x")])

    # -- match: pyahocorasick --------------------------------------------------------------------------
    automaton = None
    if ahocorasick is not None and (want("match") or want("star")):
        automaton = ahocorasick.Automaton()
        for w in words:
            automaton.add_word(w, w)

    def fixed_pattern(word: str, fixed: int) -> str:
        keep = set(rng.sample(range(len(word)), fixed))
        return "".join(c if i in keep else "?" for i, c in enumerate(word))

    if want("match"):
        for kind in ("bag", "uniform"):
            if kind == "bag":
                pats = [fixed_pattern(w, 3) for w in rng.sample([w for w in words if 4 <= len(w) <= 8], 400)]
            else:
                pats = [fixed_pattern(uniform_rack(rng, rng.randint(4, 8), 0), 3) for _ in range(400)]
            run.compare(
                f"match, `?` patterns of 4-8 tiles with 3 fixed tiles, {'from words' if kind == 'bag' else 'uniform'}",
                pats,
                {LEX: lex.match, PURE: pure.match,
                 "pyahocorasick keys(MATCH_EXACT_LENGTH)":
                     (lambda p: list(automaton.keys(p, "?", ahocorasick.MATCH_EXACT_LENGTH))) if automaton else None},
                "patterns/s",
                summary=[(f"match `?` 3 fixed tiles, {'from words' if kind == 'bag' else 'uniform'}",
                          "pyahocorasick keys(MATCH_EXACT_LENGTH)", ">= 3x")])

    if want("star"):
        for kind in ("bag", "uniform"):
            if kind == "bag":
                stems = [w[:3] for w in rng.sample([w for w in words if len(w) >= 3], 1500)]
            else:
                stems = [uniform_rack(rng, 3, 0) for _ in range(1500)]
            run.compare(
                f"match `abc*` (3-tile prefix and star), {'from words' if kind == 'bag' else 'uniform'}", stems,
                {LEX: lambda s: lex.match(s + "*"), PURE: lambda s: pure.match(s + "*"),
                 "pyahocorasick keys(MATCH_AT_LEAST_PREFIX)":
                     (lambda s: list(automaton.keys(s, "?", ahocorasick.MATCH_AT_LEAST_PREFIX))) if automaton else None},
                "patterns/s", sample=30,
                summary=[(f"match `abc*`, {'from words' if kind == 'bag' else 'uniform'}",
                          "pyahocorasick keys(MATCH_AT_LEAST_PREFIX)", ">= 1x")])

    # -- cross: a compiled regex per length bucket plus set intersection ------------------------------------
    if want("cross"):
        buckets: dict[int, str] = {}
        for w in words:
            buckets.setdefault(len(w), []).append(w)  # type: ignore[arg-type]
        buckets = {n: "\n".join(ws) for n, ws in buckets.items()}  # type: ignore[misc]

        def regex_cross(q: tuple[str, int, str, int]) -> tuple[list[str], list[str], list[str]]:
            a, i, b, j = q
            wa = re.findall("^" + a.replace("?", ".") + "$", buckets.get(len(a), ""), re.M)
            wb = re.findall("^" + b.replace("?", ".") + "$", buckets.get(len(b), ""), re.M)
            tiles = {w[i] for w in wa} & {w[j] for w in wb}
            return sorted(tiles), [w for w in wa if w[i] in tiles], [w for w in wb if w[j] in tiles]

        def lex_cross(lx: Any) -> Callable[[tuple[str, int, str, int]], tuple[list[str], list[str], list[str]]]:
            def f(q: tuple[str, int, str, int]) -> tuple[list[str], list[str], list[str]]:
                c = lx.cross(*q)
                return c.tiles, c.words_a, c.words_b
            return f

        for kind in ("bag", "uniform"):
            def pattern() -> str:
                n = rng.randint(4, 8)
                if kind == "bag":
                    return fixed_pattern(rng.choice([w for w in words if len(w) == n]), rng.randint(1, 3))
                return fixed_pattern(uniform_rack(rng, n, 0), rng.randint(1, 3))

            pairs = []
            for _ in range(150):
                a, b = pattern(), pattern()
                pairs.append((a, rng.randrange(len(a)), b, rng.randrange(len(b))))
            run.compare(
                f"cross, random pairs of 4-8-tile patterns with 1-3 fixed tiles, "
                f"{'from words' if kind == 'bag' else 'uniform'}", pairs,
                {LEX: lex_cross(lex), PURE: lex_cross(pure), "regex per length bucket + set intersection": regex_cross},
                "crossings/s", norm=lambda t: (t[0], sorted(t[1]), sorted(t[2])),
                summary=[(f"cross 4-8 tiles, {'from words' if kind == 'bag' else 'uniform'}",
                          "regex per length bucket + set intersection", ">= 10x")])

    # -- build ----------------------------------------------------------------------------------------
    if want("build"):
        def lex_build(path: Any) -> list[str]:
            lexigraph.build(path[0], os.path.join(tmp, "b.lex"))
            return []

        def marisa_build(path: Any) -> list[str]:
            marisa_trie.Trie(open(path[0]).read().split()).save(os.path.join(tmp, "b.marisa"))
            return []

        # same content: lexigraph's file and marisa's trie hold the same words
        assert sorted(marisa_trie.Trie(words).keys()) == list(lex) if marisa_trie else True
        run.compare("build TWL06 from the text file (read, compile, write)", [words_path],
                    {LEX: lex_build, "marisa-trie build": marisa_build if marisa_trie else None},
                    "builds/s", batch=True, rounds=max(3, args.rounds - 2),
                    summary=[("build TWL06", "marisa-trie build", ">= 0.5x")],
                    note="Both read the text file and write their structure to disk; marisa-trie's keys "
                         "equal lexigraph's words (asserted). The batch is the one file, so a rate is builds/s.")

    # -- any alphabet: en-scowl-huge, with accented tiles ------------------------------------------------
    scowl_path = data_file("en-scowl-huge.txt", required=False)
    if want("scowl") and scowl_path is not None:
        scowl_lex = os.path.join(tmp, "scowl.lex")
        lexigraph.build(scowl_path, scowl_lex)
        sl = lexigraph.open(scowl_lex)
        sp = lexigraph.open(scowl_lex, pure_python=True)
        s_words = list(sl)
        accented = sum(1 for w in s_words if not w.isascii())
        s_set = set(s_words)
        probes = [rng.choice(s_words) for _ in range(80_000)]
        probes += ["".join(rng.choices(ALPHA, k=len(w))) for w in probes[:20_000]]
        rng.shuffle(probes)
        note = (f"en-scowl-huge as lexigraph builds it: {len(s_words):,} words, alphabet of "
                f"{len(sl.alphabet.labels)} tiles, {accented:,} words with accented tiles; probes: 80% words "
                f"of the list, 20% random strings. The set holds the lexicon's words.")
        run.compare("`w in lex`, en-scowl-huge (accented tiles)", probes,
                    {LEX: lambda ps: [w in sl for w in ps], PURE: lambda ps: [w in sp for w in ps],
                     "Python set": lambda ps: [w in s_set for w in ps]},
                    "words/s", batch=True, sample=5000, norm=list, note=note,
                    summary=[("`in`, en-scowl-huge", "Python set", ">= 0.5x")])
        run.compare("check_many, en-scowl-huge (accented tiles)", probes,
                    {LEX: lambda ps: sl.check_many(ps).tolist(), PURE: lambda ps: sp.check_many(ps).tolist(),
                     "set comprehension": lambda ps: [w in s_set for w in ps]},
                    "words/s", batch=True, sample=5000, norm=list,
                    summary=[("check_many, en-scowl-huge", "set comprehension", ">= 1.5x")])
    elif want("scowl"):
        print("note: en-scowl-huge.txt is missing; its rows are skipped", file=sys.stderr)

    print(run.summary_table())
    print(f"(run took {time.perf_counter() - started:.0f} s, {args.rounds} rounds)")


if __name__ == "__main__":
    main()
