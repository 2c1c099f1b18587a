"""Matching patterns (``query/matching.py``) against a regular-expression oracle."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph import QueryError

from helpers.patterns import ALPHA, LETTERS, cell, load_scored, ranked, render, scored


@given(scored, st.lists(cell, min_size=1, max_size=7), st.integers(0, 100))
def test_match_and_count_agree_with_regex(pairs, cells, min_priority):
    lex, best = load_scored(pairs)
    pattern, regex = render(cells)
    expected = ranked(best, [w for w in best if regex.fullmatch(w) and best[w] >= min_priority])
    assert lex.match(pattern, min_priority=min_priority) == expected
    assert lex.match(pattern.upper(), min_priority=min_priority) == expected
    assert lex.count(pattern, min_priority=min_priority) == len(expected)
    assert lex.match(pattern, min_priority=min_priority, offset=2, limit=3) == expected[2:5]


def test_twl06_patterns_against_regex(twl, twl_words):
    rng = random.Random(11)
    joined = "\n".join(twl_words)
    for _ in range(40):
        n = rng.randint(3, 8)
        cells = ["?"] * n
        for k in rng.sample(range(n), rng.randint(1, 3)):
            cells[k] = rng.choice("abcdefghilmnoprstu")
        if rng.random() < 0.3:
            cells[rng.randrange(n)] = rng.choice(["@", "#", "[aeiou]", "[^st]"])
        if rng.random() < 0.3:
            cells.insert(rng.randrange(n + 1), "*")
        pattern = "".join(cells)
        regex = (pattern.replace("?", "[a-z]").replace("@", "[aeiou]").replace("#", "[b-df-hj-np-tv-z]")
                 .replace("*", "[a-z]*"))
        expected = re.findall(rf"^{regex}$", joined, re.M)
        assert twl.match(pattern) == sorted(expected), pattern
        assert twl.count(pattern) == len(expected)


def test_paging_is_stable_across_instances(tmp_path):
    path = tmp_path / "s.lex"
    lexigraph.build([f"{w};{s}" for w, s in [("abc", 10), ("abd", 90), ("abe", 90), ("abf", 40)]], path)
    a, b = lexigraph.open(path), lexigraph.open(path)
    full = a.match("ab?")
    assert full == ["abd", "abe", "abf", "abc"]
    assert a.match("ab?", limit=2) + b.match("ab?", offset=2) == full
    assert a.match("ab?", min_priority=50) == ["abd", "abe"]
    assert a.info["score_scale"] == 100


@pytest.mark.parametrize("pattern", ["[ab", "ab]", "", "   ", "a b", "[]", "a1", "a[b1]"])
def test_bad_patterns(enable, pattern):
    with pytest.raises(QueryError):
        enable.match(pattern)


def test_hostile_patterns_are_answered(enable):
    assert enable.count("*" * 1000) == len(enable)
    assert enable.match("a" * 10_000) == []
    assert enable.count("*a" * 3000 + "*") == 0
    assert enable.count("?" * 5000) == 0
    with pytest.raises(QueryError):
        enable.match("a" * 200_000)


def test_bad_min_priority(enable):
    with pytest.raises(QueryError):
        enable.match("abc", min_priority=300)


plain_words = st.lists(st.text(alphabet=LETTERS, min_size=1, max_size=7), min_size=1, max_size=150)


@given(plain_words, st.lists(cell, min_size=1, max_size=7), st.integers(0, 5), st.one_of(st.none(), st.integers(0, 6)))
def test_unscored_lists_agree_with_the_regex(open_lexicon, words, cells, offset, limit):
    """Unscored lists (where the walk's order is the result order), the graph checked: every plan the engine takes."""
    lex = open_lexicon(words, alphabet=ALPHA, min_length=1)
    lex.words(prefix="a")  # the graph is checked: plain patterns may take the one-call C paths
    pattern, regex = render(cells)
    expected = sorted(w for w in set(words) if regex.fullmatch(w))
    end = None if limit is None else offset + limit
    assert lex.match(pattern, offset=offset, limit=limit) == expected[offset:end]
    assert lex.count(pattern) == len(expected)


def test_walk_plans_agree_on_twl06(twl, twl_words, open_python):
    words = sorted(w.lower() for w in twl_words)
    pure = open_python(twl.path)
    for pattern in ["??mo??t", "q[^u]*", "qu*", "?uixot??", "[aeiou]#@#@#", "zz*", "?????", "abc*"]:
        regex = re.compile(pattern.replace("?", ".").replace("@", "[aeiou]").replace("#", "[^aeiou]")
                           .replace("*", ".*").replace("[^u]", "[a-tv-z]"))
        expected = [w for w in words if regex.fullmatch(w)]
        assert twl.match(pattern) == expected == pure.match(pattern), pattern
        assert twl.count(pattern) == len(expected) == pure.count(pattern)
    for prefix in ["", "a", "qu", "zyz", "xyzzy"]:
        assert twl.words(prefix=prefix) == [w for w in words if w.startswith(prefix)] == pure.words(prefix=prefix)
