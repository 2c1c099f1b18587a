"""The engine's walks of the word graph (rack and pattern walks, the alphagram index) on both engines, and their
Python twins (engine/python/walks.py, engine/python/anagrams.py) called directly, against brute force."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph.engine.python import counts_by_code
from lexigraph.engine.python.anagrams import exact_anagram_ids
from lexigraph.engine.python.walks import pattern_walk, rack_walk
from lexigraph.query.anagram import length_bounds, parse_anagram_rack

ABC = lexigraph.Alphabet(list("abcdefg"))
words_st = st.lists(st.text(alphabet="abcdef", min_size=1, max_size=8), min_size=1, max_size=150)


@given(
    words_st,
    st.text(alphabet="abcdefg", max_size=7),
    st.integers(0, 3),
    st.sampled_from(["sub", "exact", "super"]),
    st.text(alphabet="abcdef", max_size=2),
)
def test_rack_walks_and_the_alphagram_index_give_the_oracle_answer(open_lexicon, anagram_oracle, words, rack, blanks,
                                                                  mode, through):
    if not rack and not blanks:
        rack = "a"
    lex = open_lexicon(words, min_length=1, alphabet=ABC)
    parsed = parse_anagram_rack(lex.alphabet, rack + "?" * blanks)
    board = lex.alphabet.encode(through) or b""
    expected = anagram_oracle(sorted(set(words)), rack, blanks, mode, through, 1, None)
    lo, hi = length_bounds(parsed, mode, len(board), 1, None)
    hi = min(hi, max(lex.lengths))
    engine = lex.engine
    # a walk lists words alphabetically, whatever the engine
    ids = engine.rack_ids(parsed.codes, parsed.blanks, mode=mode, through=board, min_length=lo, max_length=hi)
    assert lex.store.words_of_ids(ids) == expected
    assert engine.rack_words(parsed.codes, parsed.blanks, mode=mode, through=board, min_length=lo,
                             max_length=hi) == expected
    twin = rack_walk(lex.graph, counts_by_code(parsed.codes), counts_by_code(board), parsed.blanks, lo, hi, mode)
    assert [lex.alphabet.decode(w) for w in twin] == expected
    if mode == "exact":
        for found in (engine.exact_anagram_ids(parsed.codes + board, parsed.blanks),
                      exact_anagram_ids(lex.store, parsed.codes + board, parsed.blanks)):
            assert found.tolist() == sorted(found.tolist())  # ascending ids
            assert sorted(lex.store.words_of_ids(found)) == expected
        if not board and parsed.size >= 2:
            lex.words(prefix="a")  # the graph is checked: the C engine may answer in one call
            quick = engine.quick_exact_anagrams(rack + "?" * blanks)
            assert quick is None or quick == expected


plain_cell = st.one_of(st.sampled_from(list("abcdefg")), st.just("?"), st.sets(st.sampled_from("abcdefg"), min_size=2,
                                                                                max_size=4).map(lambda s: "".join(sorted(s))))


@given(words_st, st.lists(plain_cell, max_size=7), st.booleans(), st.one_of(st.just(-1), st.integers(0, 5)))
def test_pattern_walks_give_the_regex_answer(open_lexicon, words, cells, tail, limit):
    """Cells of allowed tiles, then any tiles (``tail``) or nothing: the words in alphabetical order."""
    lex = open_lexicon(words, min_length=1, alphabet=ABC)
    alphabet = lex.alphabet
    codes = [bytes(sorted(alphabet.encode(c) or b"")) if c != "?" else bytes(range(1, len(alphabet) + 1))
             for c in cells]
    regex = re.compile("".join("." if c == "?" else f"[{c}]" for c in cells) + (".*" if tail else ""))
    expected = sorted(w for w in set(words) if regex.fullmatch(w))
    lo, hi = (max(len(cells), 1), 255) if tail else (len(cells), len(cells))
    if not cells and not tail:
        expected = []
    if limit >= 0:
        expected = expected[:limit]
    engine = lex.engine
    assert engine.pattern_words(codes, lo, hi, limit) == expected
    assert lex.store.words_of_ids(engine.pattern_ids(codes, lo, hi, limit)) == expected
    assert [alphabet.decode(w) for w in pattern_walk(lex.graph, codes, lo, hi, limit)] == expected
