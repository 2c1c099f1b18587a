"""Exact lookups (``in``, ``check``, ``check_many``, ``word_id``, ``priority``) on both engines, against a set."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph.compiler.builder import compile_source
from lexigraph.engine.interface import UNDECIDED

words_st = st.lists(st.text(alphabet="abcdeAB", min_size=1, max_size=9), min_size=1, max_size=150)
probes_st = st.lists(
    st.one_of(
        st.text(alphabet="abcdexAB", max_size=10),
        st.text(alphabet="ab\u00e9\u00f1 -'\n", max_size=4),
        st.text(max_size=3),
        st.integers(),
        st.none(),
    ),
    max_size=60,
)


def oracle_ids(truth: set[str]) -> dict[str, int]:
    """Word ids: by length, then alphabetically (the tiles a..e are coded in that order)."""
    return {w: i for i, w in enumerate(sorted(truth, key=lambda w: (len(w), w)))}


@given(words_st, probes_st)
def test_lookups_agree_with_a_set(open_lexicon, words, probes):
    truth = {w.lower() for w in words if len(w) >= 2}
    if not truth:
        return
    lex = open_lexicon(compile_source(words)[0])
    queries = probes + sorted(truth) + [w.upper() for w in truth]
    expected = [isinstance(q, str) and q.lower() in truth for q in queries]
    assert [q in lex for q in queries] == expected
    assert lex.check_many(queries).tolist() == expected
    strings = [q for q in queries if isinstance(q, str)]
    assert [lex.check(q) for q in strings] == [q.lower() in truth for q in strings]
    ids = oracle_ids(truth)
    assert [lex.word_id(q) for q in strings] == [ids.get(q.lower()) for q in strings]
    assert [lex.priority(q) for q in strings] == [50 if q.lower() in truth else None for q in strings]


spanish_st = st.lists(
    st.lists(st.sampled_from(["a", "ch", "ll", "rr", "ñ", "c", "l", "r", "é", "Ü"]), min_size=1, max_size=6).map("".join),
    min_size=1,
    max_size=80,
)


@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
@given(spanish_st, st.lists(st.text(alphabet="achlrñéü\u0301", max_size=6), max_size=30))
def test_multi_letter_tiles_give_the_python_answers(open_lexicon, open_python, words, probes):
    try:
        data, _ = compile_source(words, alphabet="spanish")
    except lexigraph.BuildError:
        return  # nothing long enough to keep
    fast, pure = open_lexicon(data), open_python(data)
    truth = set(fast)
    assert truth == set(pure)
    queries = probes + words + [w.upper() for w in words] + [None, 3]
    expected = [q in pure for q in queries]
    assert [q in fast for q in queries] == expected
    assert fast.check_many(queries).tolist() == expected == pure.check_many(queries).tolist()
    for q in probes + words:
        assert fast.word_id(q) == pure.word_id(q)
        assert fast.children(q) == pure.children(q)
        key = fast.alphabet.encode(q)
        assert (q in fast) == (key is not None and fast.alphabet.decode(key) in truth)


def test_check_needs_a_string(open_lexicon):
    lex = open_lexicon(["cat", "dog"])
    with pytest.raises(TypeError, match="needs a str"):
        lex.check(5)  # type: ignore[arg-type]


def test_long_and_folded_words(open_lexicon):
    long_word = "pneumonoultramicroscopicsilicovolcanoconiosis"
    lex = open_lexicon(["cafe", long_word, "x" * 255, "ab"])
    truth = {"cafe": True, long_word: True, long_word.upper(): True, "x" * 255: True, "x" * 254: False,
             "x" * 300: False, "café": False, "CAFE": True}  # the list's letters are its alphabet: no é
    for q, want in truth.items():
        assert (q in lex) == want, q[:20]
        assert lex.check_many([q, "ab"]).tolist() == [want, True]


latin1_text = st.text(alphabet="aAbcChHlLrRnñÑéÉáüÜ·.çxyzß ", max_size=8)


@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
@pytest.mark.parametrize("preset", ["spanish", "catalan", "french", "english"])
@given(words=st.lists(latin1_text, min_size=1, max_size=60), probes=st.lists(latin1_text, max_size=40))
def test_c_encoding_of_latin1_words_is_the_alphabets(open_lexicon, open_python, preset, words, probes):
    """The C probe's character tables and greedy multi-letter split give Alphabet.encode's answer."""
    try:
        data, _ = compile_source(words + ["chocho", "calle", "col.lecció", "cafè"], alphabet=preset)
    except lexigraph.BuildError:
        return
    fast, pure = open_lexicon(data), open_python(data)
    for q in probes + words + [w.upper() for w in words]:
        key = pure.alphabet.encode(q)
        expected = -1 if key is None else pure.engine.id_of_codes(key)
        got = fast.engine.id_of_word(q)
        assert got in (expected, UNDECIDED), (q, got, expected)
        if preset in ("spanish", "english"):  # their words encode in C: never left to Python
            assert got == expected, (q, got, expected)
        assert (q in fast) == (q in pure) == (expected >= 0)


def test_the_python_probe_leaves_words_to_the_alphabet(open_python):
    lex = open_python(["cat", "dog"])
    assert lex.engine.id_of_word("cat") == UNDECIDED
    assert lex.engine.id_of_codes(lex.alphabet.encode("dog")) == 1
    assert lex.engine.id_of_codes(lex.alphabet.encode("tac")) == -1


# -- hostile hash tables ------------------------------------------------------------------------------


@pytest.mark.parametrize("fill", [b"\xff", b"\x01", b"\x00"])
def test_hostile_hash_tables_find_nothing(open_lexicon, forge, fill):
    good, _ = compile_source(["abc", "abd", "bcd", "cde", "ace"])
    lex = open_lexicon(forge.rewrite(good, "hash.3", lambda b: fill * len(b)))
    found = [q in lex for q in ["abc", "abd", "bcd", "cde", "ace", "abe", "zzz"]]
    # empty slots (0), or rows past the bucket's end (0x0101, 0xFFFF): nothing is found, and nothing crashes
    assert not any(found)
    assert lex.check_many(["abc", "abd", "bcd", "cde", "ace", "abe", "zzz"]).tolist() == found


def test_a_slot_past_its_bucket_is_absent(open_lexicon, forge):
    good, _ = compile_source(["abc", "abd", "xyz"])
    # every slot claims row 3 of a 3-row bucket: past its end, into the next section
    lex = open_lexicon(forge.rewrite(good, "hash.3", lambda b: struct.pack("<H", 4) * (len(b) // 2)))
    assert [q in lex for q in ["abc", "abd", "xyz"]] == [False, False, False]
