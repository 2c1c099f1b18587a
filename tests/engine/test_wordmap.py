"""The word map: its lookups held to a brute-force Counter oracle on both engines, the C and NumPy builders held
to the same bytes, and forged or stale files refused alike by the C reader and its twin."""

from __future__ import annotations

import random
import struct
import tempfile
import zlib
from collections import Counter
from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.compiler.kernels import BuildKernels
from lexigraph.compiler.word_map import build_word_map, word_map_bytes
from lexigraph.engine import compiled
from lexigraph.engine.python.wordmap import PythonWordMap
from lexigraph.engine.wordmap import WordMap, open_word_map
from lexigraph.engine.wordmap_layout import DESCRIPTOR, HEADER_SIZE, RECORD, rank_of
from lexigraph.errors import BuildError, FileFormatError, QueryError

from ..conftest import open_on

WORDS = ["ant", "tan", "nat", "tat", "at", "ta", "aa", "taunt", "tuna", "aunt", "nut", "tun", "unta", "tatu",
         "natant", "attune", "nutant", "tutu", "an", "un", "nu"]

needs_c = pytest.mark.skipif(not compiled.available(), reason="the C engine is not available")


def oracle(words: list[str], tiles: str, blanks: int, length: int) -> set[tuple[str, str]]:
    """Every word of ``length`` made of exactly ``tiles`` and ``blanks`` blanks, with the blanks' letters."""
    have = Counter(tiles)
    found = set()
    for w in words:
        if len(w) != length or len(tiles) + blanks != length:
            continue
        need = Counter(w)
        if not have - need:  # every tile is used
            found.add((w, "".join(sorted((need - have).elements()))))
    return found


def map_on(kind: str, words: list[str], blanks: int = 2) -> tuple[lexigraph.Lexicon, WordMap]:
    lex = open_on(kind, words)
    data, _ = word_map_bytes(lex.store, max_blanks=blanks, kernels=BuildKernels.choose(pure_python=kind == "python"))
    return lex, WordMap(data, lex.store, kind)


def all_hits(wm: WordMap, lex: lexigraph.Lexicon, tiles: str, blanks: int) -> set[tuple[str, str]]:
    """The map's answer for one exact multiset, as (word, blank letters)."""
    length = len(tiles) + blanks
    out = set()
    for first, count, blank_codes in wm.lookup(length, lex.alphabet.encode(tiles), blanks):
        for w in lex.alphabet.decode_rows(wm.rows(length, first, count), length):
            out.add((w, lex.alphabet.decode(blank_codes)))
    return out


def test_rank_is_a_bijection_onto_its_range():
    # Every multiset of 3 codes from 1..5 has a distinct rank, and the ranks fill [0, C(7, 3)).
    ranks = sorted(rank_of(c) for c in combinations_with_replacement(range(1, 6), 3))
    assert ranks == list(range(35))


@pytest.mark.parametrize("blanks", [0, 1, 2])
def test_lookups_equal_the_counter_oracle(engine_kind, blanks):
    lex, wm = map_on(engine_kind, WORDS)
    letters = sorted({c for w in WORDS for c in w})
    for length in range(2, 7):
        for combo in combinations_with_replacement(letters, length - blanks):
            tiles = "".join(combo)
            expected = oracle(WORDS, tiles, blanks, length)
            assert all_hits(wm, lex, tiles, blanks) == expected, tiles
            assert wm.has_codes(length, lex.alphabet.encode(tiles), blanks) == bool(expected)


@given(st.lists(st.text("abcde", min_size=2, max_size=6), min_size=1, max_size=40),
       st.text("abcde", max_size=6), st.integers(0, 2))
@settings(max_examples=60, deadline=None)
def test_generated_lists_on_both_engines(words, tiles, blanks):
    kinds = ["python"] + (["c"] if compiled.available() else [])
    length = len(tiles) + blanks
    if length < 2:
        return
    answers = []
    for kind in kinds:
        lex, wm = map_on(kind, words)
        if length > wm.header.max_length or any(c not in "".join(words) for c in tiles):
            return
        answers.append(all_hits(wm, lex, tiles, blanks))
        assert answers[-1] == oracle(sorted(set(words)), tiles, blanks, length)
    assert all(a == answers[0] for a in answers)
    if len(tiles) + blanks <= 15 and blanks <= 2:
        assert wm.lookups.playable_lengths(lex.alphabet.encode(tiles), blanks) == playable_oracle(
            sorted(w for w in set(words) if len(w) <= wm.header.max_length), tiles, blanks)


@needs_c
def test_c_and_python_hits_are_equal_in_order():
    lex = open_on("c", WORDS)
    data, _ = word_map_bytes(lex.store)
    c, py = lexigraph._native.WordMap(data), PythonWordMap(data)
    code = lex.alphabet.encode
    for tiles, blanks in [("nt", 1), ("t", 2), ("", 2), ("ua", 2), ("tant", 2), ("aunt", 0), ("at", 0)]:
        length = len(tiles) + blanks
        assert c.lookup(length, code(tiles), blanks) == py.lookup(length, code(tiles), blanks)
        assert c.has_word(length, code(tiles), blanks) == py.has_word(length, code(tiles), blanks)


def playable_oracle(words: list[str], rack: str, blanks: int) -> int:
    """Bit m for each word of m tiles that the rack's tiles and blanks make (brute force)."""
    found = 0
    for w in words:
        short = Counter(w) - Counter(rack)
        if sum(short.values()) <= blanks:
            found |= 1 << len(w)
    return found


@pytest.mark.parametrize("rack, blanks", [("tantu", 0), ("tnu", 1), ("u", 2), ("", 2), ("aaaaaaa", 0), ("nt", 0),
                                          ("tuttaan", 2)])
def test_playable_lengths_equal_brute_force(engine_kind, rack, blanks):
    lex, wm = map_on(engine_kind, WORDS)
    assert wm.lookups.playable_lengths(lex.alphabet.encode(rack), blanks) == playable_oracle(WORDS, rack, blanks)


def test_lookup_many_counts_what_lookups_find(engine_kind):
    lex, wm = map_on(engine_kind, WORDS)
    code = lex.alphabet.encode
    for blanks, racks in [(0, ["tan", "tta", "nnn"]), (1, ["nt", "ta", "au"]), (2, ["t", "a", "n"])]:
        flat = b"".join(code(r) for r in racks)
        expected = sum(c for r in racks for _, c, _ in wm.lookup(3, code(r), blanks))
        assert wm.lookups.lookup_many(3, flat, blanks) == expected > 0
    with pytest.raises(ValueError):
        wm.lookups.lookup_many(3, code("tant"), 0)


@needs_c
@given(st.lists(st.text("abcdefgh", min_size=1, max_size=9), min_size=0, max_size=60), st.integers(0, 2))
@settings(max_examples=40, deadline=None)
def test_c_and_numpy_builders_write_the_same_bytes(words, blanks):
    if not any(len(w) >= 2 for w in words):
        return
    lex = open_on("python", words)
    c, _ = word_map_bytes(lex.store, max_blanks=blanks, kernels=BuildKernels.choose(pure_python=False))
    py, _ = word_map_bytes(lex.store, max_blanks=blanks, kernels=BuildKernels.choose(pure_python=True))
    assert c == py


def test_words_from_tiles_take_sub_racks(engine_kind):
    lex, wm = map_on(engine_kind, WORDS)
    rack = "tantu?"
    for length in range(2, 7):
        expected = set()
        for size_letters in range(length + 1):
            for blanks in (0, 1):
                if size_letters + blanks != length:
                    continue
                for sub in set(combinations_with_replacement(sorted("tantu"), size_letters)):
                    if not Counter(sub) - Counter("tantu"):
                        expected |= oracle(WORDS, "".join(sub), blanks, length)
        assert set(wm.words(rack, length)) == expected
    assert wm.words("tnu") == [("nut", ""), ("tun", "")]
    assert wm.words("a?") == sorted(oracle(WORDS, "a", 1, 2))
    with pytest.raises(QueryError):
        wm.words("t???")
    with pytest.raises(QueryError):
        wm.words("tx")


def test_one_blank_map_refuses_two_blanks(engine_kind):
    lex, wm = map_on(engine_kind, WORDS, blanks=1)
    assert wm.header.max_blanks == 1
    assert set(wm.words("nt?")) == oracle(WORDS, "nt", 1, 3)
    with pytest.raises(QueryError):
        wm.has_word("n??")


def test_build_refuses_what_it_cannot_map(tmp_path):
    lex = lexigraph.load(["a", "b"], min_length=1)
    with pytest.raises(BuildError):
        build_word_map(lex.store, tmp_path / "x.lxw")
    lex = lexigraph.load(WORDS)
    with pytest.raises(BuildError):
        build_word_map(lex.store, tmp_path / "x.lxw", max_blanks=3)
    path = tmp_path / "w.lex"
    lexigraph.build(WORDS, path)
    before = path.read_bytes()
    with pytest.raises(lexigraph.LexiconError):  # never over its own input
        build_word_map(lexigraph.open(path).store, path)
    assert path.read_bytes() == before


# -- files: written atomically, opened, stale, forged ---------------------------------------------------------------


def test_open_checks_identity_and_checksum(tmp_path, engine_kind):
    lex = open_on(engine_kind, WORDS)
    other = open_on(engine_kind, WORDS + ["tutus"])
    path = tmp_path / "m.lxw"
    info = build_word_map(lex.store, path)
    assert info.bytes == path.stat().st_size and info.records > 0
    wm = open_word_map(path, lex.store, engine_kind)
    assert wm.words("ant") == [("ant", ""), ("nat", ""), ("tan", "")]
    wm.close()
    with pytest.raises(FileFormatError, match="another lexicon"):
        open_word_map(path, other.store, engine_kind)
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    (tmp_path / "bad.lxw").write_bytes(bytes(data))
    with pytest.raises(FileFormatError, match="checksum"):
        open_word_map(tmp_path / "bad.lxw", lex.store, engine_kind)
    with pytest.raises(FileFormatError):
        open_word_map(tmp_path / "missing.lxw", lex.store, engine_kind)


def _reseal(data: bytearray) -> bytes:
    """The header's checksum made right again (a forger's file: everything but the contents checks out)."""
    struct.pack_into("<I", data, 44, zlib.crc32(bytes(data[:44]) + bytes(data[48:64])))
    return bytes(data)


def _verdict(make, data: bytes, queries):
    try:
        wm = make(data)
    except (ValueError, FileFormatError):
        return "refused"
    out = []
    for q in queries:
        try:
            out.append(wm.lookup(*q))
        except (ValueError, FileFormatError):
            out.append("error")
    return out


@needs_c
def test_forged_files_refused_alike_by_c_and_python():
    lex = open_on("python", WORDS)
    good, _ = word_map_bytes(lex.store)
    code = lex.alphabet.encode
    queries = [(3, code("nt"), 1), (3, code("t"), 2), (4, code("aunt"), 0), (2, code("a"), 1), (5, code("tau"), 2)]
    rng = random.Random(34)
    forged = [good[:n] for n in (0, 8, 63, 64, 100, len(good) - 1)]
    # Directory fields (offsets, counts, log2, length, blanks) and records: single bytes changed, resealed.
    directory_end = HEADER_SIZE + DESCRIPTOR.size * 15
    for _ in range(400):
        data = bytearray(good)
        at = rng.randrange(36, directory_end) if rng.random() < 0.6 else rng.randrange(directory_end, len(good))
        data[at] = rng.randrange(256)
        forged.append(_reseal(data))
    refused = 0
    for data in forged:
        c = _verdict(lexigraph._native.WordMap, data, queries)
        py = _verdict(PythonWordMap, data, queries)
        assert c == py
        refused += c == "refused"
    assert refused > 50


def _with_record(good: bytes, length: int, lo: int, hi: int) -> bytes:
    """The words table of ``length`` with every record's (lo, hi) replaced."""
    data = bytearray(good)
    low = data[38]
    blanks = data[37] + 1
    d = DESCRIPTOR.unpack_from(data, HEADER_SIZE + DESCRIPTOR.size * (length - low) * blanks)
    for r in range(d[2]):
        struct.pack_into("<II", data, d[1] + RECORD.size * r + 8, lo, hi)
    return _reseal(data)


def test_records_past_their_words_are_an_error(engine_kind):
    lex = open_on(engine_kind, WORDS)
    good, _ = word_map_bytes(lex.store)
    for lo, hi in [(0, 1000), (2**32 - 1, 2), (0, 0)]:
        data = _with_record(good, 3, lo, hi)
        wm = WordMap(data, lex.store, engine_kind, verify=False)
        with pytest.raises(FileFormatError):
            wm.words("ant")
        with pytest.raises(FileFormatError):
            wm.has_word("ant")


# -- TWL06 ----------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def twl_map(twl, tmp_path_factory):
    path = tmp_path_factory.mktemp("wordmap") / "twl06.lxw"
    info = build_word_map(twl.store, path)
    return path, info


def test_twl06_size_and_entries(twl_map):
    path, info = twl_map
    assert info.records == 161_019 + 836_545 + 2_047_306  # MAGPIE's .wmp holds as many entries
    assert info.bytes < 115_828_143 and info.bytes == path.stat().st_size


@pytest.mark.parametrize("blanks", [0, 1, 2])
def test_twl06_lookups_equal_the_oracle(twl, twl_words, twl_map, engine_kind, blanks):
    lex = twl if engine_kind == "c" else lexigraph.open(twl.path, pure_python=True)
    if engine_kind == "c" and lex.engine.kind != "c":
        pytest.skip("the C engine is not available")
    wm = open_word_map(twl_map[0], lex.store, engine_kind)
    by_length: dict[int, list[str]] = {}
    for w in twl_words:
        by_length.setdefault(len(w), []).append(w.lower())
    rng = random.Random(blanks)
    bag = "aaaaaaaaabbccddddeeeeeeeeeeeeffggghhiiiiiiiiijkllllmmnnnnnnooooooooppqrrrrrrssssttttttuuuuvvwwxyyz"
    for _ in range(25):
        size = rng.choice([2, 3, 5, 7, 8, 9])
        tiles = "".join(sorted(rng.sample(bag, size - blanks)))
        if rng.random() < 0.5:  # a word's own tiles less the blanks: a multiset that hits
            word = rng.choice(by_length[size])
            tiles = "".join(sorted(rng.sample(word, size - blanks)))
        assert all_hits(wm, lex, tiles, blanks) == oracle(by_length[size], tiles, blanks, size), tiles
    wm.close()


def test_twl06_builders_write_the_same_bytes(twl, twl_map):
    if not compiled.available():
        pytest.skip("the C engine is not available")
    py, _ = word_map_bytes(twl.store, kernels=BuildKernels.choose(pure_python=True))
    assert py == twl_map[0].read_bytes()


def test_numpy_views_match_the_records(twl_map):
    # The records of every table are sorted by bucket, then key: what a probe's early stop relies on.
    path, _ = twl_map
    data = path.read_bytes()
    wm = PythonWordMap(data)
    for d in wm._tables.values():  # noqa: SLF001 - the layout itself is under test
        rec = np.frombuffer(data, np.dtype([("key", "<u8"), ("lo", "<u4"), ("hi", "<u4")]), d.count, d.records)
        keys = rec["key"]
        buckets = (keys * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - d.log2_buckets)
        assert (np.diff(buckets.astype(np.int64)) >= 0).all()
        same = buckets[1:] == buckets[:-1]
        assert (keys[1:][same] > keys[:-1][same]).all()


def test_every_table_record_equals_brute_force():
    # Each record of each table, read back from the file: the words' rows, and the blank masks bit for bit.
    lex = open_on("python", WORDS)
    data, _ = word_map_bytes(lex.store, kernels=BuildKernels.choose(pure_python=True))
    wm = PythonWordMap(data)
    codes = {w: sorted(lex.alphabet.encode(w)) for w in set(WORDS) if len(w) >= 2}
    top = wm.header.highest_code
    for (length, blanks), d in wm._tables.items():  # noqa: SLF001 - the layout itself is under test
        expected: dict[int, int] = {}
        for w, c in codes.items():
            if len(w) != length:
                continue
            if blanks == 0:
                expected[rank_of(c)] = expected.get(rank_of(c), 0) + 1
            for i in range(length):
                for j in range(i + 1, length) if blanks == 2 else [None] if blanks == 1 else []:
                    rest = [t for k, t in enumerate(c) if k not in (i, j)]
                    expected[rank_of(rest)] = expected.get(rank_of(rest), 0) | 1 << c[i]
        found = {}
        for r in range(d.count):
            key, lo, hi = RECORD.unpack_from(data, d.records + RECORD.size * r)
            if blanks == 0:
                rows = wm._buffer[d.letters + lo * length : d.letters + (lo + hi) * length]  # noqa: SLF001
                assert all(sorted(rows[k * length : (k + 1) * length]) == sorted(rows[:length]) for k in range(hi))
                assert rank_of(sorted(rows[:length])) == key
                found[key] = hi
            else:
                found[key] = hi << 32 | lo
                assert found[key] >> (top + 1) == 0 and found[key] & 1 == 0
        assert found == expected, (length, blanks)


@needs_c
def test_c_lookups_from_threads_agree():
    from concurrent.futures import ThreadPoolExecutor

    lex = open_on("c", WORDS)
    data, _ = word_map_bytes(lex.store)
    c = lexigraph._native.WordMap(data)
    code = lex.alphabet.encode
    jobs = [(3, code("nt"), 1), (3, code("t"), 2), (4, code("aunt"), 0), (5, code("tau"), 2)] * 50
    alone = [c.lookup(*j) for j in jobs]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(lambda j: c.lookup(*j), jobs)) == alone


PURE_JOBS = r"""
from lexigraph.compiler.word_map import build_word_map
from lexigraph.engine.wordmap import open_word_map
lex = lexigraph.load(["cat", "act", "tab", "bat", "at", "ta", "cats", "scab"], pure_python=True)
info = build_word_map(lex.store, "w.lxw", pure_python=True)
wm = open_word_map("w.lxw", lex.store, lex.engine.kind)
assert wm.words("tac?") == [("cats", "s")], wm.words("tac?")
assert lex.word_map().words("ta?", 3)
"""


@needs_c
def test_a_pure_python_word_map_calls_no_c_function(tmp_path):
    from ..test_pure_python import run_child

    assert run_child(PURE_JOBS, force_pure=False, cwd=tmp_path) == []
    calls = run_child(PURE_JOBS.replace("pure_python=True", "pure_python=False"), force_pure=False, cwd=tmp_path)
    assert {"word_map_tables"} <= set(calls), calls  # the tripwires see the C builder


@pytest.mark.parametrize("seed", [1, 2])
def test_forged_maps_answer_or_refuse_in_bounded_memory(engine_kind, capped, seed):
    # Resealed files with random bytes changed anywhere (the header's fields, the directory, the tables, the
    # letters), opened without the body checksum and queried: a result or a LexiconError, in a capped child.
    lex = open_on(engine_kind, WORDS)
    good, _ = word_map_bytes(lex.store)
    rng = random.Random(seed)
    forged = []
    for _ in range(150):
        data = bytearray(good)
        for _ in range(rng.choice([1, 2, 8])):
            data[rng.randrange(8, len(data))] = rng.randrange(256)
        forged.append(_reseal(data))

    def check(data: bytes) -> None:
        wm = WordMap(data, lex.store, engine_kind, verify=False)
        wm.words("ant?"), wm.words("tn??"), wm.words("tantu?", 4), wm.has_word("ta?"), wm.has_word("aunt")

    outcomes = capped(check, forged, memory=1 << 30, timeout=120)
    assert "error" in outcomes and "ok" in outcomes


def test_the_c_header_and_python_share_the_constants():
    import re
    from pathlib import Path

    from lexigraph.engine import wordmap_layout as layout

    native = Path(lexigraph.__file__).parent / "native"
    if not (native / "wordmap.h").exists():
        pytest.skip("the C sources are not installed beside the package")
    header = (native / "wordmap.h").read_text()
    source = (native / "wordmap.c").read_text()
    defines = dict(re.findall(r"#define (\w+) (\w+)", header + source))
    assert int(defines["LX_WORDMAP_MAX_BLANKS"]) == layout.MAX_BLANKS
    assert int(defines["LX_WORDMAP_MAX_CODE"]) == layout.MAX_CODE
    assert int(defines["LX_WORDMAP_MAX_LENGTH"]) == layout.MAX_LENGTH
    assert int(defines["HEADER_SIZE"]) == layout.HEADER_SIZE == layout.HEADER.size
    assert int(defines["DESCRIPTOR_SIZE"]) == layout.DESCRIPTOR.size
    assert int(defines["RECORD_SIZE"]) == layout.RECORD.size
    assert int(defines["ALIGNMENT"]) == layout.ALIGN
    assert int(defines["MIN_LOG2_BUCKETS"]) == layout.MIN_LOG2_BUCKETS
    assert int(defines["MAX_LOG2_BUCKETS"]) == layout.MAX_LOG2_BUCKETS
    assert int(re.search(r"MULTIPLIER UINT64_C\((0x[0-9A-F]+)\)", source).group(1), 16) == layout.MULTIPLIER


def test_build_reports_progress_per_length():
    lex = open_on("python", WORDS)
    seen: list[tuple[str, int, int]] = []
    with tempfile.TemporaryDirectory() as folder:
        info = build_word_map(lex.store, Path(folder) / "m.lxw", progress=lambda *report: seen.append(report))
    lengths = info.max_length - info.min_length + 1
    assert [r for r in seen if r[0] == "word map"] == [("word map", k, lengths) for k in range(lengths + 1)]
    assert seen[-1] == ("writing", 0, 1)


def test_multi_letter_tiles(engine_kind):
    # Spanish: CH, LL and RR are one tile each, so 'perro' is 4 tiles and 'chico' 4.
    words = ["chico", "coche", "perro", "pero", "llama", "malla", "calle", "carro", "corra", "roca", "ocho"]
    lex = open_on(engine_kind, words, alphabet="spanish")
    data, _ = word_map_bytes(lex.store, kernels=BuildKernels.choose(pure_python=engine_kind == "python"))
    wm = WordMap(data, lex.store, engine_kind)
    tiles = {w: lex.alphabet.split(w) for w in words}
    for w in words:
        for blanks in (0, 1, 2):
            rack = tiles[w][blanks:]
            expected = set()
            for v, t in tiles.items():
                extra = Counter(t) - Counter(rack)
                if len(t) == len(rack) + blanks and not Counter(rack) - Counter(t):
                    expected.add((v, "".join(sorted(extra.elements(), key=lex.alphabet.code))))
            got = set(wm.words("".join(rack) + "?" * blanks))
            assert got == expected, (w, blanks)


def test_alphabets_over_63_tiles_have_no_map():
    letters = [chr(c) for c in range(0x3B1, 0x3C9)] + [chr(c) for c in range(0x430, 0x450)] + list("abcdefghij")
    words = ["".join(letters[i : i + 3]) for i in range(0, len(letters) - 2)]
    lex = lexigraph.load(words)
    assert len(lex.alphabet) > 63
    with pytest.raises(BuildError, match="63"):
        word_map_bytes(lex.store)


def sub_rack_oracle(words: list[str], rack: str, blanks: int, length: int) -> set[tuple[str, str]]:
    """Every word of ``length`` some sub-rack makes: m letters of the rack and ``length - m`` of its blanks."""
    found = set()
    for used in range(min(blanks, length) + 1):
        for sub in set(combinations_with_replacement(sorted(rack), length - used)):
            if not Counter(sub) - Counter(rack):
                found |= oracle(words, "".join(sub), used, length)
    return found


def test_huge_racks_are_refused_at_once(engine_kind):
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = [letters[i : i + 3] for i in range(24)] + ["aab", "bba"]
    lex, wm = map_on(engine_kind, words, blanks=1)
    with pytest.raises(QueryError, match="too many"):
        wm.words(letters + letters, 3)
    for rack in ["abcdefghij?", "aabk?", "xyz"]:
        assert set(wm.words(rack, 3)) == sub_rack_oracle(words, rack.replace("?", ""), rack.count("?"), 3)
