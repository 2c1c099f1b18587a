"""Crossings (``query/crossings.py``) against brute force over the words each pattern matches."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexigraph import QueryError

from helpers.patterns import ALPHA, LETTERS, cell, load_scored, ranked, render, scored


@given(scored, st.lists(cell.filter(lambda c: c[0] != "*"), min_size=1, max_size=6),
       st.lists(cell.filter(lambda c: c[0] != "*"), min_size=1, max_size=6), st.data())
def test_cross_agrees_with_brute_force(pairs, cells_a, cells_b, data):
    lex, best = load_scored(pairs)
    pa, ra = render(cells_a)
    pb, rb = render(cells_b)
    i = data.draw(st.integers(0, len(cells_a) - 1))
    j = data.draw(st.integers(0, len(cells_b) - 1))
    wa = [w for w in best if ra.fullmatch(w)]
    wb = [w for w in best if rb.fullmatch(w)]
    tiles = sorted({w[i] for w in wa} & {w[j] for w in wb})
    c = lex.cross(pa, i, pb, j)
    assert c.tiles == tiles
    assert c.words_a == ranked(best, [w for w in wa if w[i] in tiles])
    assert c.words_b == ranked(best, [w for w in wb if w[j] in tiles])
    assert all(c.counts[t] == (sum(w[i] == t for w in wa), sum(w[j] == t for w in wb)) for t in tiles)


def test_acceptance_crossing(enable):
    c = enable.cross("E???Y", 2, "D???", 1)
    assert "j" in c.tiles and "v" not in c.tiles
    assert "enjoy" in c.words_a and "djin" in c.words_b


def test_bad_crossings(enable):
    with pytest.raises(QueryError, match="outside"):
        enable.cross("abc", 3, "abc", 0)
    with pytest.raises(QueryError, match="outside"):
        enable.cross("abc", -1, "abc", 0)
    with pytest.raises(QueryError, match="fixed-length"):
        enable.cross("ab*", 0, "abc", 0)


plain_words = st.lists(st.text(alphabet=LETTERS, min_size=1, max_size=7), min_size=1, max_size=150)


plain_cell = st.one_of(st.sampled_from(list(LETTERS)).map(lambda c: (c, c)), st.just(("?", ".")))


@given(plain_words, st.lists(plain_cell, min_size=1, max_size=6), st.lists(plain_cell, min_size=1, max_size=6),
       st.data())
def test_one_call_crossings_agree_with_brute_force(open_lexicon, words, cells_a, cells_b, data):
    """Unscored lists, plain patterns, the graph checked: the one-call C path of cross."""
    lex = open_lexicon(words, alphabet=ALPHA, min_length=1)
    lex.words(prefix="a")  # a walk: the graph is checked, and plain patterns may take the C path
    truth = set(words)
    pa, ra = render(cells_a)
    pb, rb = render(cells_b)
    i = data.draw(st.integers(0, len(cells_a) - 1))
    j = data.draw(st.integers(0, len(cells_b) - 1))
    wa = sorted(w for w in truth if ra.fullmatch(w))
    wb = sorted(w for w in truth if rb.fullmatch(w))
    tiles = sorted({w[i] for w in wa} & {w[j] for w in wb})
    c = lex.cross(pa, i, pb, j)
    assert c.tiles == tiles
    assert c.words_a == [w for w in wa if w[i] in tiles] and c.words_b == [w for w in wb if w[j] in tiles]
    assert c.counts == {t: (sum(w[i] == t for w in wa), sum(w[j] == t for w in wb)) for t in tiles}
    assert lex.match(pa) == wa
