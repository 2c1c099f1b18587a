"""The optional C paths agree with the pure-Python ones and with a set, and survive hostile files."""

from __future__ import annotations

import struct
import zlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph import FileFormatError, LexiconError, fileformat, lexicon
from lexigraph.builder import compile_source

speedups = lexicon._speedups
pytestmark = pytest.mark.skipif(speedups is None, reason="the C extension is not built or is switched off")

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


def both_paths(source) -> tuple[lexigraph.Lexicon, lexigraph.Lexicon]:
    """The same compiled lexicon, opened with and without the C base."""
    data, _ = compile_source(source)
    fast = lexicon.Lexicon(fileformat.open_bytes(data))
    pure = lexicon._pure_python(lexicon._ByteLexicon(fileformat.open_bytes(data)))
    assert isinstance(fast, speedups.Probe) and not isinstance(pure, speedups.Probe)
    return fast, pure


@given(words_st, probes_st)
def test_c_and_python_paths_agree_with_a_set(words, probes):
    truth = {w.lower() for w in words if len(w) >= 2}
    if not truth:
        return
    fast, pure = both_paths(words)
    queries = probes + sorted(truth) + [w.upper() for w in truth]
    expected = [isinstance(q, str) and q.lower() in truth for q in queries]
    assert [q in fast for q in queries] == expected
    assert [q in pure for q in queries] == expected
    assert fast.check_many(queries).tolist() == expected
    assert pure.check_many(queries).tolist() == expected
    strings = [q for q in queries if isinstance(q, str)]
    assert [fast.check(q) for q in strings] == [pure.check(q) for q in strings]
    assert [fast.word_id(q) for q in strings] == [pure.word_id(q) for q in strings]
    assert [fast.priority(q) for q in strings] == [pure.priority(q) for q in strings]
    for p in strings + [w[:k] for w in truth for k in range(len(w))]:
        assert fast.children(p) == pure.children(p), p


spanish_st = st.lists(
    st.lists(st.sampled_from(["a", "ch", "ll", "rr", "ñ", "c", "l", "r", "é", "Ü"]), min_size=1, max_size=6).map("".join),
    min_size=1,
    max_size=80,
)


@given(spanish_st, st.lists(st.text(alphabet="achlrñéü\u0301", max_size=6), max_size=30))
def test_multi_letter_tiles_agree_on_both_paths(words, probes):
    try:
        data, _ = compile_source(words, alphabet="spanish")
    except lexigraph.BuildError:
        return  # nothing long enough to keep
    fast = lexicon.Lexicon(fileformat.open_bytes(data))
    pure = lexicon._pure_python(lexicon.Lexicon(fileformat.open_bytes(data)))
    assert fast._keys is not None and type(fast) is lexicon.Lexicon
    truth = set(fast)
    assert truth == set(pure)
    queries = probes + words + [w.upper() for w in words] + [None, 3]
    expected = [q in pure for q in queries]
    assert [q in fast for q in queries] == expected
    assert fast.check_many(queries).tolist() == expected == pure.check_many(queries).tolist()
    for q in probes + words:
        assert fast.word_id(q) == pure.word_id(q)
        assert fast.children(q) == pure.children(q)
        assert (q in fast) == (fast.alphabet.encode(q) is not None and fast.alphabet.decode(fast.alphabet.encode(q)) in truth)


def test_check_needs_a_string_on_both_paths():
    fast, pure = both_paths(["cat", "dog"])
    for lex in (fast, pure):
        with pytest.raises(TypeError, match="needs a str"):
            lex.check(5)  # type: ignore[arg-type]


def test_long_and_folded_words(twl_words):
    long_word = "pneumonoultramicroscopicsilicovolcanoconiosis"
    fast, pure = both_paths(["cafe", long_word, "x" * 300, "ab"])
    for q in [long_word, long_word.upper(), "x" * 300, "x" * 299, "café", "CAFE"]:
        assert (q in fast) == (q in pure), q[:20]
        assert fast.check_many([q, "ab"]).tolist() == pure.check_many([q, "ab"]).tolist()


def _rewrite(path, section: str, change) -> None:
    """Change one section of a lexicon file, then fix both checksums so that it opens."""
    data = bytearray(path.read_bytes())
    sec = fileformat.open_bytes(bytes(data)).sections[section]
    data[sec.offset : sec.offset + sec.length] = change(bytes(data[sec.offset : sec.offset + sec.length]))
    struct.pack_into("<I", data, 40, zlib.crc32(data[64:]))
    struct.pack_into("<I", data, 44, zlib.crc32(bytes(data[:44] + data[48:64])))
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("fill", [b"\xff", b"\x01", b"\x00"])
def test_hostile_hash_tables_give_answers_not_crashes(tmp_path, fill):
    path = tmp_path / "h.lex"
    lexigraph.build(["abc", "abd", "bcd", "cde", "ace"], path)
    _rewrite(path, "hash.3", lambda b: fill * len(b))
    mapped = fileformat.open_path(path)
    for lex in (lexicon.Lexicon(mapped), lexicon._pure_python(lexicon._ByteLexicon(fileformat.open_path(path)))):
        queries = ["abc", "zzz", "ab", "abcd", "xyz"]
        assert all(isinstance(q in lex, bool) for q in queries)
        assert lex.check_many(queries).dtype == np.bool_
        # an all-empty or out-of-range table finds nothing
        if fill != b"\x01":
            assert not any(q in lex for q in queries)


def test_hostile_graph_is_refused_at_query_time(tmp_path):
    path = tmp_path / "g.lex"
    lexigraph.build(["abc", "abd", "bcd"], path)
    # every arc: tile "a", more siblings follow, next list far past the end
    _rewrite(path, "graph", lambda b: struct.pack("<I", 1 | 0x3FFFFF << 10) * (len(b) // 4))
    pure = lexicon._pure_python(lexicon._ByteLexicon(fileformat.open_path(path)))
    for lex in (lexigraph.open(path), pure):
        with pytest.raises(FileFormatError, match="outside"):
            lex.children("ab")


def test_a_closed_lexicon_says_so_and_releases_the_map(tmp_path):
    path = tmp_path / "c.lex"
    lexigraph.build(["one", "two"], path)
    fast, pure = lexigraph.open(path), lexicon._pure_python(lexicon._ByteLexicon(fileformat.open_path(path)))
    for lex in (fast, pure):
        assert "one" in lex
        lex.close()
        with pytest.raises(LexiconError, match="closed"):
            "one" in lex  # noqa: B015
        with pytest.raises(LexiconError, match="closed"):
            lex.check("two")
        with pytest.raises(LexiconError, match="closed"):
            lex.check_many(["one"])
        assert 5 not in lex  # not a string: not a word, open or closed
    # the C base let go of the buffer, so the mapping really closed
    assert fast._file.buffer.closed


def test_forged_files_with_valid_checksums_never_crash(tmp_path):
    # Random bytes inside the sections, checksums recomputed: every query must
    # give an answer or a LexiconError, on the C paths and the Python ones.
    import random

    good_path = tmp_path / "good.lex"
    lexigraph.build(["abc", "abd", "bcd", "cde", "ace", "abcde", "bb", "zz", "cab"], good_path)
    good = good_path.read_bytes()
    sections = list(fileformat.open_bytes(good).sections.values())
    rng = random.Random(11)
    queries = ["abc", "abd", "zz", "bb", "q", "abcde", "cab", "xxxxx", "é", 7]
    for _ in range(150):
        data = bytearray(good)
        for _ in range(rng.randint(1, 6)):
            sec = rng.choice(sections)
            data[sec.offset + rng.randrange(sec.length)] = rng.randrange(256)
        struct.pack_into("<I", data, 40, zlib.crc32(data[64:]))
        struct.pack_into("<I", data, 44, zlib.crc32(bytes(data[:44] + data[48:64])))
        path = tmp_path / "forged.lex"
        path.write_bytes(bytes(data))
        for make in (lexigraph.open, lambda p: lexicon._pure_python(lexicon._ByteLexicon(fileformat.open_path(p)))):
            try:
                lex = make(path)
                assert all(isinstance(q in lex, bool) for q in queries)
                assert len(lex.check_many(queries)) == len(queries)
                for q in queries[:-1]:
                    lex.children(q[:2])
                    lex.word_id(q)
                list(lex)
                lex.anagram("abcde")
                lex.match("???")
                lex.close()
            except LexiconError:
                pass
