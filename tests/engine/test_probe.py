"""The engine under the facade: C and Python paths agree with each other and with a set, on any file."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph import FileFormatError, LexiconError
from lexigraph.engine import fileformat, probe, wordgraph
from lexigraph.compiler.builder import compile_source

needs_c = pytest.mark.skipif(not probe.c_extension_available(), reason="the C extension is not built or is switched off")

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


def both_paths(source: Any, **options: Any) -> tuple[lexigraph.Lexicon, lexigraph.Lexicon]:
    """The same compiled lexicon, opened on the C paths and on the Python ones."""
    data, _ = compile_source(source, **options)
    fast = lexigraph.Lexicon(fileformat.open_bytes(data))
    pure = lexigraph.Lexicon(fileformat.open_bytes(data), pure_python=True)
    assert type(fast) is type(pure) is lexigraph.Lexicon
    assert pure.pure_python and not pure.probe.uses_c and not pure.graph.uses_c
    return fast, pure


def test_one_class_whatever_the_alphabet_or_path():
    for lex in (lexigraph.open(), lexigraph.open(pure_python=True), lexigraph.open(["chico"], alphabet="spanish")):
        assert type(lex) is lexigraph.Lexicon


@needs_c
def test_the_c_arc_layout_is_the_python_one():
    from lexigraph import _native

    assert _native.ARC_LAYOUT == (
        wordgraph.TILE_MASK, wordgraph.ACCEPTS_BIT, wordgraph.LAST_BIT, wordgraph.TARGET_SHIFT, wordgraph.RECORD_SIZE
    )
    header = (Path(lexigraph.__file__).parent / "native" / "arc.h").read_text()
    assert "LX_TARGET_SHIFT 32" in header and "LX_RECORD_SIZE 8" in header


def test_arc_records_round_trip_and_walks_agree_with_the_words(enable):
    g = enable.graph
    assert enable.info["graph"]["layout"] == wordgraph.LAYOUT
    rec = int(g.records[g.root])
    assert wordgraph.Arc.unpack(rec).pack() == rec and rec & wordgraph.RESERVED_MASK == 0
    assert (g.records & np.uint64(wordgraph.RESERVED_MASK)).max() == 0
    # the generic depth-first walk finds exactly the words with a prefix
    for prefix in ("zyz", "qu", "dude"):
        found = [enable.alphabet.decode(k) for k in g.iter_words(enable.alphabet.encode(prefix))]
        assert found == enable.words(prefix=prefix)


@needs_c
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


@needs_c
@given(spanish_st, st.lists(st.text(alphabet="achlrñéü\u0301", max_size=6), max_size=30))
def test_multi_letter_tiles_agree_on_both_paths(words, probes):
    try:
        fast, pure = both_paths(words, alphabet="spanish")
    except lexigraph.BuildError:
        return  # nothing long enough to keep
    assert fast.probe.uses_c
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


def test_check_needs_a_string_on_both_paths():
    for lex in both_paths(["cat", "dog"]):
        with pytest.raises(TypeError, match="needs a str"):
            lex.check(5)  # type: ignore[arg-type]


def test_long_and_folded_words():
    long_word = "pneumonoultramicroscopicsilicovolcanoconiosis"
    fast, pure = both_paths(["cafe", long_word, "x" * 255, "ab"])
    for q in [long_word, long_word.upper(), "x" * 255, "x" * 254, "x" * 300, "café", "CAFE"]:
        assert (q in fast) == (q in pure), q[:20]
        assert fast.check_many([q, "ab"]).tolist() == pure.check_many([q, "ab"]).tolist()


def test_pickles_by_path_and_by_content(tmp_path):
    import pickle

    path = tmp_path / "p.lex"
    lexigraph.build(["one", "two", "three"], path)
    for lex in (lexigraph.open(path), lexigraph.open(["one", "two", "three"]), lexigraph.open(path, pure_python=True)):
        again = pickle.loads(pickle.dumps(lex))
        assert type(again) is lexigraph.Lexicon and list(again) == ["one", "three", "two"]
        assert again.pure_python == lex.pure_python
    assert len(pickle.dumps(lexigraph.open(path))) < 200  # the path, not the words


def test_pure_python_switch_runs_without_the_extension():
    env = dict(os.environ, LEXIGRAPH_PURE_PYTHON="1")
    code = (
        "import lexigraph; from lexigraph.engine import probe; lex = lexigraph.open(); "
        "assert not probe.c_extension_available() and lex.pure_python and type(lex) is lexigraph.Lexicon; "
        "print(lex.check('dog'), lex.check_many(['cat', 'tca']).tolist(), lex.children('dude'))"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True [True, False] ['$', 'd', 'e', 's']"


# -- hostile files -------------------------------------------------------------


def rewrite(data: bytes, section: str, change: Any) -> bytes:
    """Change one section of a lexicon, then fix both checksums so that it opens."""
    out = bytearray(data)
    sec = fileformat.open_bytes(data).sections[section]
    out[sec.offset : sec.offset + sec.length] = change(bytes(out[sec.offset : sec.offset + sec.length]))
    return reseal(out)


def reseal(data: bytearray) -> bytes:
    struct.pack_into("<I", data, 40, zlib.crc32(data[64:]))
    struct.pack_into("<I", data, 44, zlib.crc32(bytes(data[:44] + data[48:64])))
    return bytes(data)


def with_index(data: bytes, index: dict[str, Any]) -> bytes:
    """The same sections under another JSON index (checksums recomputed)."""
    _, _, _, _, _, offset, _, _, _ = fileformat._HEADER.unpack(data[:64])
    blob = json.dumps(index, ensure_ascii=False).encode()
    out = bytearray(data[:offset] + blob)
    struct.pack_into("<QQQ", out, 16, len(out), offset, len(blob))
    return reseal(out)


def index_of(data: bytes) -> dict[str, Any]:
    return fileformat.open_bytes(data).index


QUERIES: list[tuple[str, Any]] = [
    ("in", lambda lex: [q in lex for q in ["abc", "abd", "zz", "bb", "q", "abcde", "cab", "é", "xxxxx", 7]]),
    ("check_many", lambda lex: lex.check_many(["abc", "abd", "zz", "nope", "cab", "é"]).tolist()),
    ("word_id", lambda lex: [lex.word_id(q) for q in ["abc", "zz", "cab", "qq"]]),
    ("priority", lambda lex: [lex.priority(q) for q in ["abc", "zz"]]),
    ("children", lambda lex: [lex.children(p) for p in ["", "a", "ab", "abc", "c", "zz", "q"]]),
    ("words", lambda lex: [lex.words(prefix=p) for p in ["", "a", "ab", "c"]]),
    ("iter", lambda lex: list(lex)),
    ("anagram", lambda lex: [lex.anagram(r) for r in ["abcde", "ab?"]]),
    ("exact", lambda lex: [lex.anagram(r, mode="exact") for r in ["cab", "b?", "??"]]),
    ("match", lambda lex: [lex.match(p) for p in ["???", "a*", "[ab]?", "*e", "?b?", "?bc", "??e", "?b?d?"]]),
    ("count", lambda lex: lex.count("??")),
    ("cross", lambda lex: lex.cross("a??", 1, "?b?", 1).tiles),
    ("len", lambda lex: (len(lex), lex.lengths)),
]

GOOD_WORDS = ["abc", "abd", "bcd", "cde", "ace", "abcde", "bb", "zz", "cab", "bac"]


def outcomes(data: bytes) -> list[tuple[str, str, Any]]:
    """Each query's answer (or the kind of error) on both paths; any other exception propagates."""
    out = []
    for pure in (False, True):
        try:
            lex = lexigraph.Lexicon(fileformat.open_bytes(data), pure_python=pure)
        except LexiconError:
            out.append(("open", str(pure), "LexiconError"))
            continue
        for name, query in QUERIES:
            try:
                answer = query(lex)
            except LexiconError:
                answer = "LexiconError"
            out.append((name, str(pure), answer))
        lex.close()
    return out


def assert_same_on_both_paths(data: bytes) -> None:
    """Each query: the same answer on the C and the Python path, or a LexiconError (on either)."""
    got = outcomes(data)
    c = {n: a for n, p, a in got if p == "False"}
    py = {n: a for n, p, a in got if p == "True"}
    if not probe.c_extension_available():
        return
    assert ("open" in c) == ("open" in py)  # opening validates the same fields on both paths
    differ = [(n, c[n], py[n]) for n in c if n in py and "LexiconError" not in (c[n], py[n]) and c[n] != py[n]]
    assert not differ, differ


def forged_files(good: bytes, seed: int, n: int) -> list[bytes]:
    """Files whose index fields or section bytes are perturbed, with valid checksums."""
    import random

    rng = random.Random(seed)
    index = index_of(good)
    sections = fileformat.open_bytes(good).sections
    weird = [None, True, -1, 0, 1, 2, 3, 10**8, 10**30, 1.5, float("inf"), float("nan"), "3", [], {}]
    out = []
    for _ in range(n):
        idx = json.loads(json.dumps(index))
        kind = rng.randrange(9)
        if kind == 0:  # a scalar field of the index
            key = rng.choice(["word_count", "min_length", "max_length", "name", "alphabet", "buckets", "graph"])
            idx[key] = rng.choice(weird)
        elif kind == 1:  # a bucket field
            b = rng.choice(idx["buckets"])
            b[rng.choice(["length", "first", "count", "hash_home"])] = rng.choice(weird)
        elif kind == 2:  # bucket order
            rng.shuffle(idx["buckets"])
        elif kind == 3:  # a section's offset, length, dtype or shape
            sec = idx["sections"][rng.choice(list(idx["sections"]))]
            field = rng.choice(["offset", "length", "dtype", "shape"])
            sec[field] = rng.choice(weird + ["<u8", "u1", "<u2", [1], [10**8, 3], [2, 2, 2]])
        elif kind == 4:  # the graph's root
            idx["graph"]["root"] = rng.choice(weird)
        elif kind == 5:  # the alphabet
            alpha = idx["alphabet"]
            choice = rng.randrange(5)
            if choice == 0:
                alpha["tiles"] = rng.choice([["A", "b"], [1, 2], ["a", "a"], ["a"] * 300, "abc", []])
            elif choice == 1:
                alpha["fold"] = rng.choice([{"A": "a"}, {"é": 5}, {"ab": "c"}, {"É": "e"}, []])
            elif choice == 2:
                alpha["vowels"] = rng.choice([["x"], [1], "a"])
            elif choice == 3:
                alpha["aliases"] = rng.choice([{"X": "a"}, {"q": "nope"}, {"a": "b"}])
            else:
                alpha["tiles"] = alpha["tiles"][: rng.randrange(len(alpha["tiles"]))]
        if kind <= 5:
            out.append(with_index(good, idx))
            continue
        name = rng.choice(list(sections))
        sec = sections[name]
        data = bytearray(good)
        if kind == 6:  # random bytes inside a section
            for _ in range(rng.randint(1, 6)):
                data[sec.offset + rng.randrange(sec.length)] = rng.randrange(256)
        elif kind == 7:  # arcs out of range, tiles outside the alphabet
            g = sections["graph"]
            i = rng.randrange(g.shape[0])
            rec = rng.choice([1 | (0xFFFFFFF << 32), 200 | wordgraph.LAST_BIT, 0, (1 << 64) - 1, 3 | (i << 32)])
            struct.pack_into("<Q", data, g.offset + 8 * i, rec)
        else:  # hash slots and alphagram rows past their bucket, codes 0 or past the alphabet
            target = rng.choice([n for n in sections if n.startswith(("hash.", "alphagram.", "words."))])
            s = sections[target]
            pos = s.offset + rng.randrange(max(1, s.length))
            data[pos] = rng.choice([0, 0xFF, 27, 60, 1, 2])
        out.append(reseal(data))
    return out


def test_forged_files_give_the_same_answer_on_both_paths_or_an_error():
    # Runs in a child process with a 2 GiB address-space limit, so that an
    # allocation a forged size provokes fails the test instead of the machine.
    code = "import sys; sys.path.insert(0, sys.argv[1]); import test_engine as t; t.run_forgeries(int(sys.argv[2]))"
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))"
    result = subprocess.run(
        [sys.executable, "-c", f"{limit}; {code}", str(Path(__file__).parent), "300"],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "forged files checked: 300" in result.stdout


def run_forgeries(n: int) -> None:
    good, _ = compile_source(GOOD_WORDS)
    assert_same_on_both_paths(good)
    for data in forged_files(good, 11, n):
        assert_same_on_both_paths(data)
    print(f"forged files checked: {n}")


def test_a_tiny_file_claiming_a_huge_bucket_is_refused_cheaply():
    good, _ = compile_source(["abc", "abd"])
    idx = index_of(good)
    idx["buckets"].append({"length": 10**8, "first": 2, "count": 0, "hash_home": 1})
    with pytest.raises(FileFormatError):
        lexigraph.Lexicon(fileformat.open_bytes(with_index(good, idx)))
    idx = index_of(good)
    idx["sections"]["words.3"]["offset"] = float("inf")
    with pytest.raises(FileFormatError, match="malformed"):
        fileformat.open_bytes(with_index(good, idx))


@pytest.mark.parametrize("fill", [b"\xff", b"\x01", b"\x00"])
def test_hostile_hash_tables_give_the_same_answers(fill):
    good, _ = compile_source(["abc", "abd", "bcd", "cde", "ace"])
    data = rewrite(good, "hash.3", lambda b: fill * len(b))
    assert_same_on_both_paths(data)
    for pure in (False, True):
        lex = lexigraph.Lexicon(fileformat.open_bytes(data), pure_python=pure)
        if fill != b"\x01":  # an all-empty or out-of-range table finds nothing
            assert not any(q in lex for q in ["abc", "abd", "bcd"])


def test_a_slot_past_its_bucket_is_absent_on_both_paths():
    good, _ = compile_source(["abc", "abd", "xyz"])
    # every slot claims row 3 of a 3-row bucket: past its end, into the next section
    data = rewrite(good, "hash.3", lambda b: struct.pack("<H", 4) * (len(b) // 2))
    for pure in (False, True):
        lex = lexigraph.Lexicon(fileformat.open_bytes(data), pure_python=pure)
        assert [q in lex for q in ["abc", "abd", "xyz"]] == [False, False, False]


def test_hostile_graph_is_refused_at_query_time():
    good, _ = compile_source(["abc", "abd", "bcd"])
    # every arc: tile "a", more siblings follow, next list far past the end
    data = rewrite(good, "graph", lambda b: struct.pack("<Q", 1 | (0x3FFFFFF << 32)) * (len(b) // 8))
    for pure in (False, True):
        lex = lexigraph.Lexicon(fileformat.open_bytes(data), pure_python=pure)
        with pytest.raises(FileFormatError, match="outside"):
            lex.children("ab")


def test_version_1_files_are_refused_with_a_way_out():
    good, _ = compile_source(["abc"])
    old = bytearray(good)
    struct.pack_into("<H", old, 8, 1)
    with pytest.raises(FileFormatError, match="rebuild it"):
        fileformat.open_bytes(reseal(old))


def test_a_closed_lexicon_says_so_and_releases_the_map(tmp_path):
    path = tmp_path / "c.lex"
    lexigraph.build(["one", "two"], path)
    for lex in (lexigraph.open(path), lexigraph.open(path, pure_python=True)):
        assert "one" in lex
        lex.close()
        with pytest.raises(LexiconError, match="closed"):
            "one" in lex  # noqa: B015
        with pytest.raises(LexiconError, match="closed"):
            lex.check("two")
        with pytest.raises(LexiconError, match="closed"):
            lex.check_many(["one"])
        assert 5 not in lex  # not a string: not a word, open or closed
        assert lex._file.buffer.closed  # the probe let go of the buffer, so the map really closed


latin1_text = st.text(alphabet="aAbcChHlLrRnñÑéÉáüÜ·.çxyzß ", max_size=8)


@needs_c
@pytest.mark.parametrize("preset", ["spanish", "catalan", "french", "english"])
@given(words=st.lists(latin1_text, min_size=1, max_size=60), probes=st.lists(latin1_text, max_size=40))
def test_c_encoding_of_latin1_words_is_the_alphabets(preset, words, probes):
    """The C probe's character tables and greedy multi-letter split give Alphabet.encode's answer."""
    try:
        fast, pure = both_paths(words + ["chocho", "calle", "col.lecció", "cafè"], alphabet=preset)
    except lexigraph.BuildError:
        return
    for q in probes + words + [w.upper() for w in words]:
        key = pure.alphabet.encode(q)
        expected = -1 if key is None else pure.probe.id_of_codes(key)
        got = fast.probe.id_of_word(q)
        assert got in (expected, probe.UNDECIDED), (q, got, expected)
        if preset in ("spanish", "english"):  # their words encode in C: never left to Python
            assert got == expected, (q, got, expected)
        assert (q in fast) == (q in pure) == (expected >= 0)
