"""Rotation orders (patterns that open with a wildcard) against brute force, in C and in Python."""

from __future__ import annotations

import random
import re

from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph.engine import rotation

LETTERS = "abc"
ALPHA = lexigraph.Alphabet(list(LETTERS))


def longest_runs(tiles):
    """Every (start, length) of a maximal run of fixed cells, wrapping round, by brute force."""
    n = len(tiles)
    if all(t is not None for t in tiles):
        return [(0, n)] if n else []
    doubled = list(tiles) + list(tiles)
    runs = []
    for start in range(n):
        if tiles[start] is None or tiles[start - 1] is not None:
            continue
        length = 0
        while doubled[start + length] is not None:
            length += 1
        runs.append((start, length))
    return runs


@given(st.lists(st.one_of(st.none(), st.integers(1, 3)), max_size=12))
def test_best_run_is_the_earliest_longest_run(tiles):
    runs = longest_runs(tiles)
    got = rotation.best_run(tiles)
    if not runs:
        assert got is None
        return
    longest = max(length for _, length in runs)
    assert got == min((s, n) for s, n in runs if n == longest)


long_words = st.lists(st.text(alphabet=LETTERS, min_size=1, max_size=12), min_size=1, max_size=120)


@given(long_words, st.data())
def test_run_rows_are_the_rows_whose_rotation_starts_with_the_run(words, data):
    lex = lexigraph.load(words, alphabet=ALPHA, min_length=1)
    store = lex.store
    length = data.draw(st.sampled_from(store.lengths))
    start = data.draw(st.integers(0, length - 1))
    run = data.draw(st.text(alphabet=LETTERS, min_size=1, max_size=length))
    bucket = store.words_of_ids(range(store.bucket(length).first, store.bucket(length).first + store.bucket(length).count))
    head = run[: rotation.KEY_TILES]
    expected = [i for i, w in enumerate(bucket) if (w[start:] + w[:start]).startswith(head)]
    assert rotation.run_rows(store, length, start, lex.alphabet.encode(run)).tolist() == expected


plain_cell = st.one_of(st.sampled_from(list(LETTERS)), st.just("?"))


@given(long_words, st.lists(plain_cell, min_size=1, max_size=12), st.booleans())
def test_patterns_opening_with_a_wildcard_agree_with_the_regex(open_lexicon, words, cells, star):
    """Runs longer than the sort key, runs that wrap round, and stars (the scan's per-length buckets)."""
    lex = open_lexicon(words, alphabet=ALPHA, min_length=1)
    lex.words(prefix="a")  # the graph is checked: plain patterns take the one-call C path
    pattern = "?" + "".join(cells) + ("*" if star else "")
    regex = re.compile(pattern.replace("?", ".").replace("*", ".*"))
    expected = sorted(w for w in set(words) if regex.fullmatch(w))
    assert lex.match(pattern) == expected
    assert lex.count(pattern) == len(expected)
    suffix = "*" + "".join(cells)  # a suffix search: every length's rotation at its last tiles
    regex = re.compile(suffix.replace("?", ".").replace("*", ".*"))
    assert lex.match(suffix) == sorted(w for w in set(words) if regex.fullmatch(w))


def test_twl06_patterns_opening_with_a_wildcard(twl, twl_words, open_python):
    words = sorted(w.lower() for w in twl_words)
    pure = open_python(twl.path)
    twl.words(prefix="q")  # the graph is checked
    by_length: dict[int, str] = {}
    for w in words:
        by_length[len(w)] = by_length.get(len(w), "") + w + "\n"
    rng = random.Random(11)
    for _ in range(150):
        w = rng.choice(words)
        keep = set(rng.sample(range(1, len(w)), rng.randint(1, len(w) - 1))) if len(w) > 1 else set()
        pattern = "".join(c if i in keep else "?" for i, c in enumerate(w))
        expected = re.findall("^" + pattern.replace("?", ".") + "$", by_length[len(w)], re.M)
        assert twl.match(pattern) == expected == pure.match(pattern), pattern
        a, b = twl.cross(pattern, 0, pattern, len(w) - 1), pure.cross(pattern, 0, pattern, len(w) - 1)
        assert (a.tiles, a.words_a, a.counts) == (b.tiles, b.words_a, b.counts), pattern
