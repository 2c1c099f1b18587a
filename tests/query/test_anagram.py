"""Anagrams against a Counter oracle: every mode, blanks, board tiles, length bounds."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph import QueryError


def oracle(words, rack, blanks, mode, through="", min_length=2, max_length=None, more=False):
    """Brute force over the whole list, one Counter per word."""
    rc, tc = Counter(rack), Counter(through)
    size = len(rack) + blanks + len(through)
    if more:
        mode = "super"
    out = []
    for w in words:
        n = len(w)
        if n < min_length or (max_length is not None and n > max_length):
            continue
        if through and n <= len(through):
            continue
        wc = Counter(w)
        if any(wc[t] < k for t, k in tc.items()):
            continue
        rest = wc - tc
        if mode == "super":
            ok = n >= size and not (rc - rest)
        else:
            ok = sum((rest - rc).values()) <= blanks and (n == size if mode == "exact" else n <= size)
        if ok:
            out.append(w)
    return sorted(out)


ABC = lexigraph.Alphabet(list("abcdefg"))
words_st = st.lists(st.text(alphabet="abcdef", min_size=1, max_size=8), min_size=1, max_size=150)


@given(
    words_st,
    st.text(alphabet="abcdefg", max_size=7),
    st.integers(0, 3),
    st.sampled_from(["sub", "exact", "super"]),
    st.text(alphabet="abcdef", max_size=2),
    st.integers(1, 4),
    st.one_of(st.none(), st.integers(2, 9)),
)
def test_anagrams_match_counter_oracle(words, rack, blanks, mode, through, min_length, max_length):
    if not rack and not blanks:
        rack = "a"
    words = [w for w in words if len(w) >= 1]
    lex = lexigraph.load(words, min_length=1, alphabet=ABC)
    truth = sorted(set(words))
    got = lex.anagram(rack + "?" * blanks, mode=mode, through=through, min_length=min_length, max_length=max_length)
    assert got == oracle(truth, rack, blanks, mode, through, min_length, max_length)


@given(words_st, st.text(alphabet="abcdef", min_size=1, max_size=5), st.integers(0, 2))
def test_star_means_super(words, rack, blanks):
    lex = lexigraph.load(words, min_length=1, alphabet=ABC)
    assert lex.anagram(rack + "?" * blanks + "*") == lex.anagram(rack + "?" * blanks, mode="super")


@given(words_st, st.text(alphabet="abcdef", min_size=1, max_size=6), st.integers(0, 3))
def test_blank_positions_explain_the_word(words, rack, blanks):
    lex = lexigraph.load(words, min_length=1, alphabet=ABC)
    for a in lex.anagram(rack + "?" * blanks, blanks=True):
        real = Counter(t for i, t in enumerate(a.tiles) if i not in a.blank_positions)
        assert not real - Counter(rack)
        assert len(a.blank_positions) <= blanks
        assert "".join(a.tiles) == a.word


def test_acceptance_bingos_on_twl06(twl):
    assert twl.anagram("AALNST?", mode="exact") == [
        "analyst", "cantals", "latinas", "platans", "saltant", "saltpan", "sealant", "sultana",
    ]
    assert twl.anagram("AALNST?", mode="exact", through="I") == [
        "alations", "annalist", "fantails", "lanitals", "nasality", "platinas",
        "santalic", "staminal", "tailfans", "talisman", "valiants",
    ]
    table = dict(twl.anagram_table("aalnst?"))
    assert table["i"] == twl.anagram("AALNST?", mode="exact", through="I")
    assert table[""] == twl.anagram("AALNST?", mode="exact")


def test_twl_module_compat(twl):
    from lexigraph import twl as twl_module

    twl_module.use(twl)
    try:
        assert twl_module.anagram("top") == ["op", "opt", "pot", "to", "top"]
        assert twl_module.check("dog") and not twl_module.check("dgo")
        assert twl_module.children("dude") == ["$", "d", "e", "s"]
        assert len(set(twl_module.iterator())) == 178_691
    finally:
        twl_module.use(None)


def test_random_racks_on_twl06(twl, twl_words):
    rng = random.Random(3)
    letters = "aaaaaaaaabbccddddeeeeeeeeeeeeffggghhiiiiiiiiijkllllmmnnnnnnooooooooppqrrrrrrssssttttttuuuuvvwwxyyz"
    # the oracle is slow on 178k words: a few racks per mode, mostly short words
    for mode in ("sub", "exact", "super"):
        for _ in range(2):
            rack = "".join(rng.sample(letters, 6 if mode != "super" else 4))
            blanks = rng.randint(0, 2)
            through = rng.choice(["", "", rng.choice(letters)])
            max_length = 9 if mode == "super" else None
            got = twl.anagram(rack + "?" * blanks, mode=mode, through=through, max_length=max_length)
            assert got == oracle(twl_words, rack, blanks, mode, through, 2, max_length), (rack, blanks, mode)


def test_sorting(twl):
    by_len = twl.anagram("retains", sort="length")
    sevens = [w for w in twl.anagram("retains", mode="exact")]
    assert by_len[: len(sevens)] == sevens and "stearin" in sevens
    assert [len(w) for w in by_len] == sorted((len(w) for w in by_len), reverse=True)
    assert sorted(by_len) == twl.anagram("retains")
    with pytest.raises(QueryError):
        twl.anagram("abc", sort="random")


def test_many_blanks_is_one_scan(twl):
    start = time.perf_counter()
    everything = twl.anagram("?" * 15)
    assert len(everything) == len(twl)
    exact = twl.anagram("?" * 15, mode="exact")
    assert len(exact) == twl.count_by_length()[15]
    assert time.perf_counter() - start < 20  # generous: bounded, not combinatorial


@pytest.mark.parametrize("rack", ["", "   ", "ab1", "a-b", "ab!", "ñandu"])
def test_bad_racks(twl, rack):
    with pytest.raises(QueryError):
        twl.anagram(rack)


def test_rack_longer_than_any_word(twl):
    assert twl.anagram("a" * 40, mode="exact") == []
    assert twl.anagram("abc", mode="bogus" if False else "sub", max_length=0) == []
    with pytest.raises(QueryError):
        twl.anagram("abc", mode="bogus")
    with pytest.raises(QueryError):
        twl.anagram("abc", through="?")


@given(
    words_st,
    st.text(alphabet="abcdefg", max_size=7),
    st.integers(0, 3),
    st.sampled_from(["sub", "exact", "super"]),
    st.text(alphabet="abcdef", max_size=2),
)
def test_every_search_plan_gives_the_oracle_answer(words, rack, blanks, mode, through):
    """The C graph walk, its Python twin, the alphagram index and the column scan agree with brute force."""
    from lexigraph.query import anagram as A
    from lexigraph.engine import walks as walk

    if not rack and not blanks:
        rack = "a"
    lex = lexigraph.load(words, min_length=1, alphabet=ABC)
    pure = lexigraph.Lexicon(lexigraph.engine.fileformat.open_bytes(bytes(lex.store.buffer)), pure_python=True)
    parsed = A.parse_anagram_rack(lex.alphabet, rack + "?" * blanks)
    board = lex.alphabet.encode(through) or b""
    expected = oracle(sorted(set(words)), rack, blanks, mode, through, 1, None)
    size = parsed.size + len(board)
    lo = max(1, len(board) + 1 if board else 1)
    hi = size if mode != "super" else max(lex.lengths)
    lo = size if mode != "sub" else lo
    plans = {
        "scan": A.find_ids(lex.store, parsed, mode=mode, through=board, min_length=1),
        "python walk": walk.rack_ids(pure.store, pure.graph, pure.probe, parsed.codes, parsed.blanks, mode=mode,
                                     through=board, min_length=lo, max_length=hi),
    }
    if lex.probe.uses_c:
        plans["c walk"] = walk.rack_ids(lex.store, lex.graph, lex.probe, parsed.codes, parsed.blanks, mode=mode,
                                        through=board, min_length=lo, max_length=hi)
    if mode == "exact":
        plans["alphagram index"] = A.exact_ids(lex.store, parsed.codes + board, parsed.blanks)
        plans["alphagram walk"] = A.exact_ids(lex.store, parsed.codes + board, parsed.blanks, lex.probe)
        if not board and lex.probe.uses_c and parsed.size >= 2:
            fast = lex.probe.engine.exact_anagram_words(rack + "?" * blanks)
            assert fast is None or fast == expected
    for name, ids in plans.items():
        assert sorted(lex.store.words_of_ids(ids)) == expected, name
    for name in ("python walk", "c walk"):
        if name in plans:  # a walk lists words alphabetically
            assert lex.store.words_of_ids(plans[name]) == expected, name


@pytest.mark.parametrize("rack", ["retains", "aalnst?", "qu??"])
def test_every_search_plan_agrees_on_twl06(twl, twl_words, rack):
    from lexigraph.query import anagram as A

    # the oracle only needs the words no longer than the rack
    words = [w.lower() for w in twl_words if len(w) <= len(rack)]
    blanks = rack.count("?")
    letters = rack.replace("?", "")
    for mode in ("sub", "exact"):
        expected = oracle(words, letters, blanks, mode)
        parsed = A.parse_anagram_rack(twl.alphabet, rack)
        got = A.find_ids(twl.store, parsed, mode=mode, min_length=2, graph=twl.graph, probe=twl.probe)
        assert sorted(twl.store.words_of_ids(got)) == expected
        assert sorted(twl.store.words_of_ids(A.find_ids(twl.store, parsed, mode=mode, min_length=2))) == expected


@given(words_st, st.text(alphabet="abcdefg?", min_size=1, max_size=8), st.sampled_from(["sub", "exact", "super"]),
       st.booleans(), st.integers(1, 3))
def test_the_one_call_c_paths_give_the_oracle_answer(words, rack, mode, star, min_length):
    """After the graph is checked, plain racks take the one-call C paths: the same answers."""
    lex = lexigraph.load(words, min_length=1, alphabet=ABC)
    lex.words(prefix="a")  # a walk: the graph is checked, and the C probe may answer on its own
    text = rack + ("*" if star else "")
    blanks = rack.count("?")
    letters = rack.replace("?", "")
    if not letters and not blanks:
        return
    expected = oracle(sorted(set(words)), letters, blanks, mode, min_length=min_length, more=star)
    assert lex.anagram(text, mode=mode, min_length=min_length) == expected
    assert lex.words(prefix=letters[:2]) == sorted(w for w in set(words) if w.startswith(letters[:2]))
