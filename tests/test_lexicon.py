"""The lexicon facade (lexicon.py) against brute-force oracles, on both engines: membership, listing, prefixes,
priorities, pickling, closing."""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
from bisect import bisect_left
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph import BuildError, LexiconError

# Few letters, so that words share prefixes and suffixes and the graph is exercised.
small_words = st.lists(st.text(alphabet="abcde", min_size=1, max_size=7), min_size=1, max_size=120)


def oracle_children(words: set[str], prefix: str) -> list[str]:
    nxt = sorted({w[len(prefix)] for w in words if w.startswith(prefix) and len(w) > len(prefix)})
    return (["$"] if prefix and prefix in words else []) + nxt


def sorted_children(ordered: list[str], prefix: str) -> list[str]:
    """:func:`oracle_children` on the words sorted: those starting with ``prefix`` are one run, found by bisection
    (a big list's hundreds of prefixes without a scan of every word for each)."""
    run = ordered[bisect_left(ordered, prefix):bisect_left(ordered, prefix + chr(0x10FFFF))]
    return oracle_children(set(run), prefix)


def kept(words, min_length=2):
    return {w.lower() for w in words if len(w) >= min_length}


@given(small_words, st.lists(st.text(alphabet="abcdefx", max_size=8), max_size=40))
def test_membership_listing_and_prefixes_match_a_set(open_lexicon, words, probes):
    if not kept(words):
        with pytest.raises(BuildError):
            open_lexicon(words)
        return
    lex = open_lexicon(words)
    truth = kept(words)
    assert len(lex) == len(truth)
    assert list(lex) == sorted(truth)
    for w in probes + list(truth):
        assert (w in lex) == (w in truth), w
        assert lex.check(w.upper()) == (w in truth)
    assert lex.check_many(probes + sorted(truth)).tolist() == [w in truth for w in probes + sorted(truth)]
    prefixes = {w[:k] for w in truth for k in range(len(w) + 1)} | set(probes)
    for p in prefixes:
        assert lex.children(p) == oracle_children(truth, p), p
        assert lex.words(prefix=p) == sorted(w for w in truth if w.startswith(p))
        for n in (2, 3, 5):
            assert lex.words(prefix=p, length=n) == sorted(w for w in truth if w.startswith(p) and len(w) == n)
    assert lex.count_by_length() == dict(sorted(Counter(map(len, truth)).items()))


@given(st.lists(st.tuples(st.text(alphabet="abc", min_size=2, max_size=5), st.integers(0, 255)), min_size=1, max_size=60))
def test_scored_lists_keep_the_highest_score(open_lexicon, pairs):
    lines = [f"{w.upper()};{s}" for w, s in pairs] + ["plain"]
    lex = open_lexicon(lines)
    best: dict[str, int] = {"plain": 50}
    for w, s in pairs:
        best[w] = max(best.get(w, -1), s)
    assert {w: lex.priority(w) for w in lex} == best
    assert lex.priority("zzzz") is None
    assert lex.info["has_priorities"] is True


def test_real_list_twl06(twl, twl_words):
    truth = set(twl_words)
    assert len(twl) == 178_691
    rng = random.Random(7)
    sample = rng.sample(twl_words, 3000)
    fakes = ["".join(rng.sample("abcdefghijklmnopqrstuvwxyz", rng.randint(2, 9))) for _ in range(3000)]
    probes = sample + fakes + [w + "q" for w in sample[:500]] + [w[:-1] for w in sample[:500]]
    assert [w in twl for w in probes] == [w in truth for w in probes]
    assert twl.check_many(probes).tolist() == [w in truth for w in probes]
    assert twl.children("dude") == ["$", "d", "e", "s"]
    ordered = sorted(truth)
    for n, p in enumerate(rng.sample(twl_words, 300)):
        p = p[: rng.randint(0, len(p))]
        want = sorted_children(ordered, p)
        assert n >= 10 or want == oracle_children(truth, p)  # the bisection held to the scan on the first few
        assert twl.children(p) == want
    assert list(twl) == ordered
    assert twl.words(prefix="zyz") == ["zyzzyva", "zyzzyvas"]
    assert twl.info["graph"]["arcs"] <= 126_696


def test_builtin_default_is_enable(enable):
    assert len(enable) == 172_820
    assert enable.info["name"] == "ENABLE"
    assert "aardvark" in enable and "zyzzyvas" in enable and "qzx" not in enable
def test_close_and_context_manager(tmp_path):
    path = tmp_path / "c.lex"
    lexigraph.build(["one", "two"], path)
    with lexigraph.open(path) as lex:
        rows = lex.words()
    assert rows == ["one", "two"]
    with pytest.raises(LexiconError, match="closed"):
        lex.words()


def test_characters_outside_the_alphabet_are_not_words(enable):
    # the built-in lexicon uses the english alphabet, which folds accents
    assert "café" in enable and "NAÏVE" in enable and "naive" in enable
    assert "døg" not in enable and "собака" not in enable and "straße" not in enable
    assert "d0g" not in enable and "" not in enable and 5 not in enable and None not in enable
    with pytest.raises(TypeError):
        enable.check(5)  # type: ignore[arg-type]
    assert enable.children("d0") == [] and enable.words(prefix="-") == []


def test_check_many_on_any_iterable(enable):
    words = (w for w in ["cat", "zzzz", "d\u00f8g", "Cat\n", "dog", "caf\u00e9"])
    assert enable.check_many(words).tolist() == [True, False, False, False, True, True]
    assert enable.check_many([]).tolist() == []
    assert enable.check_many(np.array(["cat", "dog"])).tolist() == [True, True]


def test_one_class_whatever_the_alphabet_or_engine():
    for lex in (lexigraph.open(), lexigraph.open(pure_python=True), lexigraph.open(["chico"], alphabet="spanish"),
                lexigraph.open(["chico"], alphabet="spanish", pure_python=True)):
        assert type(lex) is lexigraph.Lexicon


def test_pickles_by_path_and_by_content(tmp_path, engine_kind):
    path = tmp_path / "p.lex"
    lexigraph.build(["one", "two", "three"], path)
    pure = engine_kind == "python"
    for lex in (lexigraph.open(path, pure_python=pure), lexigraph.open(["one", "two", "three"], pure_python=pure)):
        again = pickle.loads(pickle.dumps(lex))
        assert type(again) is lexigraph.Lexicon and list(again) == ["one", "three", "two"]
        assert again.pure_python == lex.pure_python and again.engine.kind == engine_kind
    assert len(pickle.dumps(lexigraph.open(path, pure_python=pure))) < 200  # the path, not the words


def test_a_closed_lexicon_says_so_and_releases_the_map(tmp_path, open_lexicon):
    path = tmp_path / "c.lex"
    lexigraph.build(["one", "two"], path)
    lex = open_lexicon(path)
    assert "one" in lex
    lex.close()
    with pytest.raises(LexiconError, match="closed"):
        "one" in lex  # noqa: B015
    with pytest.raises(LexiconError, match="closed"):
        lex.check("two")
    with pytest.raises(LexiconError, match="closed"):
        lex.check_many(["one"])
    with pytest.raises(LexiconError, match="closed"):
        lex.words()
    assert 5 not in lex  # not a string: not a word, open or closed
    assert lex._file.buffer.closed  # the engine let go of the buffer, so the map really closed
