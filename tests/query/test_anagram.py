"""Anagrams against a Counter oracle: every mode, blanks, board tiles, length bounds."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph import QueryError


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
def test_anagrams_match_counter_oracle(open_lexicon, anagram_oracle, words, rack, blanks, mode, through, min_length,
                                      max_length):
    if not rack and not blanks:
        rack = "a"
    words = [w for w in words if len(w) >= 1]
    lex = open_lexicon(words, min_length=1, alphabet=ABC)
    truth = sorted(set(words))
    got = lex.anagram(rack + "?" * blanks, mode=mode, through=through, min_length=min_length, max_length=max_length)
    assert got == anagram_oracle(truth, rack, blanks, mode, through, min_length, max_length)


@given(words_st, st.text(alphabet="abcdef", min_size=1, max_size=5), st.integers(0, 2))
def test_star_means_super(open_lexicon, words, rack, blanks):
    lex = open_lexicon(words, min_length=1, alphabet=ABC)
    assert lex.anagram(rack + "?" * blanks + "*") == lex.anagram(rack + "?" * blanks, mode="super")


@given(words_st, st.text(alphabet="abcdef", min_size=1, max_size=6), st.integers(0, 3))
def test_blank_positions_explain_the_word(open_lexicon, words, rack, blanks):
    lex = open_lexicon(words, min_length=1, alphabet=ABC)
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


def test_random_racks_on_twl06(anagram_oracle, twl, twl_words):
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
            assert got == anagram_oracle(twl_words, rack, blanks, mode, through, 2, max_length), (rack, blanks, mode)


def test_sorting(twl):
    by_len = twl.anagram("retains", sort="length")
    sevens = [w for w in twl.anagram("retains", mode="exact")]
    assert by_len[: len(sevens)] == sevens and "stearin" in sevens
    assert [len(w) for w in by_len] == sorted((len(w) for w in by_len), reverse=True)
    assert sorted(by_len) == twl.anagram("retains")
    with pytest.raises(QueryError):
        twl.anagram("abc", sort="random")


def test_many_blanks_is_one_scan(twl, open_python):
    for lex in (twl, open_python(twl.path)):
        assert not lex.engine.rack_walk_pays(15, "sub")  # bounded: the column scan, not a combinatorial walk
        everything = lex.anagram("?" * 15)
        assert len(everything) == len(twl)
        exact = lex.anagram("?" * 15, mode="exact")
        assert len(exact) == twl.count_by_length()[15]


@pytest.mark.parametrize("rack", ["", "   ", "ab1", "a-b", "ab!", "ñandu"])
def test_bad_racks(twl, rack):
    with pytest.raises(QueryError):
        twl.anagram(rack)


def test_rack_longer_than_any_word(twl):
    assert twl.anagram("a" * 40, mode="exact") == []
    assert twl.anagram("abc", mode="sub", max_length=0) == []
    with pytest.raises(QueryError):
        twl.anagram("abc", mode="bogus")
    with pytest.raises(QueryError):
        twl.anagram("abc", through="?")


@pytest.mark.parametrize("rack", ["retains", "aalnst?", "qu??"])
def test_every_search_plan_agrees_on_twl06(twl, twl_words, open_lexicon, anagram_oracle, rack):
    from lexigraph.query import anagram as A

    pure = open_lexicon(twl.path)

    # the oracle only needs the words no longer than the rack
    words = [w.lower() for w in twl_words if len(w) <= len(rack)]
    blanks = rack.count("?")
    letters = rack.replace("?", "")
    for mode in ("sub", "exact"):
        expected = anagram_oracle(words, letters, blanks, mode)
        parsed = A.parse_anagram_rack(twl.alphabet, rack)
        for lex in (twl, pure):
            got = A.find_ids(lex.store, lex.engine, parsed, mode=mode, min_length=2)
            assert sorted(lex.store.words_of_ids(got)) == expected
        lo, hi = A.length_bounds(parsed, mode, 0, 2, None)
        assert sorted(twl.store.words_of_ids(A._scan_ids(twl.store, parsed, mode, b"", lo, hi))) == expected


@given(words_st, st.text(alphabet="abcdefg?", min_size=1, max_size=8), st.sampled_from(["sub", "exact", "super"]),
       st.booleans(), st.integers(1, 3))
def test_the_one_call_c_paths_give_the_oracle_answer(open_lexicon, anagram_oracle, words, rack, mode, star, min_length):
    """After the graph is checked, plain racks take the one-call C paths: the same answers."""
    lex = open_lexicon(words, min_length=1, alphabet=ABC)
    lex.words(prefix="a")  # a walk: the graph is checked, and the C probe may answer on its own
    text = rack + ("*" if star else "")
    blanks = rack.count("?")
    letters = rack.replace("?", "")
    if not letters and not blanks:
        return
    expected = anagram_oracle(sorted(set(words)), letters, blanks, mode, min_length=min_length, more=star)
    assert lex.anagram(text, mode=mode, min_length=min_length) == expected
    assert lex.words(prefix=letters[:2]) == sorted(w for w in set(words) if w.startswith(letters[:2]))
