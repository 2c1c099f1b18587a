"""The word graph built in C (lexigraph._native) against its NumPy twin in graph.py, and the built files against sets."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph.compiler import graph_builder as graph
from lexigraph.errors import BuildError
from lexigraph.compiler.normalize import normalize
from lexigraph.compiler.sources import read
from lexigraph.engine.wordgraph import MAX_ARCS

_native = pytest.importorskip("lexigraph._native", reason="the C extension lexigraph._native is not built")


def ragged(words: list[bytes]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lens = np.array([len(w) for w in words], np.int64)
    flat = np.frombuffer(b"".join(words), np.uint8) if words else np.zeros(0, np.uint8)
    return flat, np.cumsum(lens) - lens, lens


def numpy_graph(words: list[bytes]) -> tuple[np.ndarray, int]:
    flat, starts, lens = ragged(words)
    return graph.layout_arcs(graph.minimize(graph.build_trie(flat, starts, lens), accept_on_edge=True))


def c_graph(words: list[bytes]) -> tuple[np.ndarray, int]:
    flat, starts, lens = ragged(words)
    out = _native.build_graph(flat, starts, lens, MAX_ARCS)
    assert out is not None  # a 64-bit signature collision would be news
    data, root = out
    return np.frombuffer(data, "<u8").astype(np.uint64), root


def words_of(records: np.ndarray, root: int) -> set[bytes]:
    """Every word the graph spells, by a plain walk of the records."""
    out: set[bytes] = set()
    stack = [(root, b"")] if root else []
    while stack:
        node, prefix = stack.pop()
        i = node
        while True:
            r = int(records[i])
            word = prefix + bytes([r & 0xFF])
            if r >> 8 & 1:
                out.add(word)
            if r >> 32:
                stack.append((r >> 32, word))
            if r >> 9 & 1:
                break
            i += 1
    return out


def word_lists(max_alphabet: int = 30) -> st.SearchStrategy[list[bytes]]:
    """Sorted distinct words of tile codes 1..k, lengths 1-20, often sharing prefixes and suffixes."""

    @st.composite
    def build(draw: st.DrawFn) -> list[bytes]:
        k = draw(st.integers(1, max_alphabet))
        piece = st.binary(min_size=0, max_size=6).map(lambda b: bytes(1 + x % k for x in b))
        heads = draw(st.lists(piece, min_size=1, max_size=6))
        tails = draw(st.lists(piece, min_size=1, max_size=6))
        mids = draw(st.lists(piece, min_size=1, max_size=4))
        n = draw(st.integers(0, 120))
        words = set()
        for _ in range(n):
            w = draw(st.sampled_from(heads)) + draw(st.sampled_from(mids)) + draw(st.sampled_from(tails))
            if 1 <= len(w) <= 20:
                words.add(w)
        return sorted(words)

    return build()


@given(word_lists())
def test_c_graph_equals_numpy_record_for_record(words: list[bytes]) -> None:
    if not words:
        return
    c_records, c_root = c_graph(words)
    np_records, np_root = numpy_graph(words)
    assert c_root == np_root
    assert c_records.tolist() == np_records.tolist()
    assert words_of(c_records, c_root) == set(words)


@given(word_lists(max_alphabet=3))
def test_c_graph_on_small_alphabets(words: list[bytes]) -> None:
    if not words:
        return
    assert c_graph(words)[0].tolist() == numpy_graph(words)[0].tolist()
    assert words_of(*c_graph(words)) == set(words)


def test_dispatch_uses_c_unless_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEXIGRAPH_PURE_PYTHON", raising=False)
    words = [b"\x01\x02", b"\x01\x02\x03", b"\x02\x03"]
    flat, starts, lens = ragged(words)
    fast = graph.lexicon_graph(flat, starts, lens)
    pure = graph.lexicon_graph(flat, starts, lens, pure_python=True)
    assert fast[1] == pure[1] and fast[0].tolist() == pure[0].tolist()
    from lexigraph.buildinfo import c_module

    assert c_module("_native") is _native
    monkeypatch.setenv("LEXIGRAPH_PURE_PYTHON", "1")
    assert c_module("_native") is None


@pytest.mark.parametrize(
    "flat, starts, lens",
    [
        (b"\x02\x01", [0, 1], [1, 1]),  # not increasing
        (b"\x01\x01", [0, 1], [1, 1]),  # a duplicate
        (b"\x01\x02", [0, 0], [2, 1]),  # a word before its own prefix
        (b"\x01", [0], [2]),  # past the end of the tiles
        (b"\x01", [-1], [1]),
        (b"\x01", [0], [-1]),
    ],
)
def test_bad_input_is_refused_not_a_crash(flat: bytes, starts: list[int], lens: list[int]) -> None:
    with pytest.raises(ValueError):
        _native.build_graph(flat, np.array(starts, np.int64), np.array(lens, np.int64), MAX_ARCS)


def test_size_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError):
        _native.build_graph(b"", np.zeros(2, np.int64), np.zeros(3, np.int64), MAX_ARCS)
    with pytest.raises(ValueError):
        _native.build_graph(b"", np.zeros(3, np.int64), np.zeros(3, np.int32), MAX_ARCS)  # not int64: 12 bytes
    # the arc budget: (None, arcs needed), which the dispatcher turns into a BuildError
    assert _native.build_graph(b"\x01\x02", np.array([0, 1], np.int64), np.array([1, 1], np.int64), 2) == (None, 3)
    data, root = _native.build_graph(b"", np.zeros(0, np.int64), np.zeros(0, np.int64), MAX_ARCS)
    assert (data, root) == (bytes(8), 0)
    monkeypatch.setattr(graph, "MAX_ARCS", 2)
    with pytest.raises(BuildError, match="needs 3 arcs"):
        graph.lexicon_graph(np.frombuffer(b"\x01\x02", np.uint8), np.array([0, 1]), np.array([1, 1]))


@given(st.lists(st.text("abcdefgh", min_size=1, max_size=12), max_size=60),
       st.lists(st.text("abcdefghi", max_size=12), max_size=30))
def test_built_files_answer_like_a_set(tmp_path_factory: pytest.TempPathFactory, words: list[str],
                                       probes: list[str]) -> None:
    if not words:
        return
    path = tmp_path_factory.mktemp("c") / "w.lex"
    lexigraph.build(words, path, min_length=1)
    with lexigraph.open(path) as lex:
        want = set(words)
        for w in list(want) + probes:
            assert (w in lex) == (w in want), w
        assert set(lex.words()) == want


def test_twl06_graph_is_identical(shared) -> None:
    words = normalize(read(shared("twl06.txt")))
    keys = sorted(words.keys)
    assert keys == words.keys
    c_records, c_root = c_graph(keys)
    np_records, np_root = numpy_graph(keys)
    assert c_root == np_root
    assert np.array_equal(c_records, np_records)


# -- the hash tables -----------------------------------------------------------------------------------


@given(st.integers(1, 20), st.integers(1, 4), st.data())
def test_c_hash_table_equals_numpy(length: int, k: int, data: st.DataObject) -> None:
    from lexigraph.compiler import hash_tables as hashindex
    from lexigraph.engine.hashing import lookup_rows

    n = data.draw(st.integers(1, 300))
    codes = data.draw(st.lists(st.binary(min_size=length, max_size=length), min_size=n, max_size=n, unique=True))
    rows = np.frombuffer(b"".join(codes), np.uint8).reshape(n, length) % (k * 8) + 1
    c_table, c_size = hashindex.build_table(rows)
    np_table, np_size = hashindex.build_table(rows, pure_python=True)
    assert c_size == np_size and c_table.dtype == np_table.dtype
    assert c_table.tolist() == np_table.tolist()
    # every row is found where the lookup probes for it
    assert lookup_rows(c_table, c_size, rows, rows).all()


def test_hash_table_bad_input() -> None:
    with pytest.raises(ValueError):
        _native.hash_table(b"\x01\x02\x03", 2, 2, 10)  # not count x length bytes
    with pytest.raises(ValueError):
        _native.hash_table(b"", 0, 0, 10)
    with pytest.raises(ValueError):
        _native.hash_table(b"\x01", 1, 1, 0)
    with pytest.raises(ValueError):
        _native.hash_table(b"\x01", 1, 1, 1 << 40)  # an absurd size is refused, not allocated
    assert _native.hash_table(b"", 0, 3, 2) == bytes(12)


def test_twl06_files_are_byte_identical(shared, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole file from the C paths equals the pure-Python build, but for the build time stamp."""
    from lexigraph.compiler import builder
    from lexigraph.engine import fileformat

    path = shared("twl06.txt")
    monkeypatch.delenv("LEXIGRAPH_PURE_PYTHON", raising=False)
    fast = fileformat.open_bytes(builder.compile_source(path)[0])
    monkeypatch.setenv("LEXIGRAPH_PURE_PYTHON", "1")
    pure = fileformat.open_bytes(builder.compile_source(path)[0])
    assert {k: v for k, v in fast.index.items() if k != "built"} == {k: v for k, v in pure.index.items() if k != "built"}
    assert set(fast.sections) == set(pure.sections) and "graph" in fast.sections and "hash.7" in fast.sections
    for name in fast.sections:
        assert bytes(fast.view(name)) == bytes(pure.view(name)), name


# -- alphagram order -----------------------------------------------------------------------------------


@given(st.integers(1, 20), st.integers(1, 255), st.data())
def test_c_alphagram_order_equals_numpy(length: int, top: int, data: st.DataObject) -> None:
    from lexigraph.compiler.builder import alphagram_order

    n = data.draw(st.integers(1, 200))
    rows = np.frombuffer(data.draw(st.binary(min_size=n * length, max_size=n * length)), np.uint8)
    rows = (rows % top + 1).astype(np.uint8).reshape(n, length)
    fast = alphagram_order(rows)
    pure = alphagram_order(rows, pure_python=True)
    assert fast.dtype == pure.dtype and fast.tolist() == pure.tolist()
    # the oracle: sorted by (alphagram, row)
    assert fast.tolist() == sorted(range(n), key=lambda i: (sorted(rows[i].tolist()), i))


def test_alphagram_order_bad_input() -> None:
    with pytest.raises(ValueError):
        _native.alphagram_order(b"\x01\x02\x03", 2, 2)
    with pytest.raises(ValueError):
        _native.alphagram_order(b"", 0, 0)
    assert _native.alphagram_order(b"", 0, 4) == b""
    # one long row of one tile: the counting sort's tallies do not wrap
    assert _native.alphagram_order(b"\x01" * 70000 + b"\x02" * 70000, 2, 70000) == bytes([0, 0, 0, 0, 1, 0, 0, 0])


@given(st.lists(st.text(" \tabc\u00e9", max_size=6), max_size=40))
def test_parse_lines_plain_lists(lines: list[str]) -> None:
    from lexigraph.compiler.sources import parse_lines

    raw = parse_lines(lines, "<words>")
    assert raw.kind == "text"
    assert raw.words == [s.strip() for s in lines if s.strip()]
    assert raw.line_numbers == [i for i, s in enumerate(lines, 1) if s.strip()]
    assert raw.lines == len(lines)


@pytest.mark.parametrize("length", [1, 7, 12, 13, 15, 16])
@pytest.mark.parametrize("top", [1, 2, 15, 16, 31, 32, 63, 64, 255])
def test_alphagram_order_at_the_key_boundaries(length: int, top: int) -> None:
    """Rows around the C code's switches (counts of up to 15 tiles, codes under 32 / 64, one-word keys)."""
    from lexigraph.compiler.builder import alphagram_order

    rng = np.random.default_rng(length * 1000 + top)
    rows = rng.integers(1, top + 1, size=(300, length)).astype(np.uint8)
    rows[:20] = top  # a row of one tile repeated: the largest count
    rows[20:40] = rows[40:60]  # equal rows: ties keep row order
    fast = alphagram_order(rows)
    assert fast.tolist() == alphagram_order(rows, pure_python=True).tolist()
    assert fast.tolist() == sorted(range(len(rows)), key=lambda i: (sorted(rows[i].tolist()), i))


def test_c_graph_chains() -> None:
    """Lexicons with more lists than nodes at any one height (the list sort outgrows the per-height arrays)."""
    for words in ([bytes([1]) * k for k in range(1, 60)], [bytes([1, 2]) * k for k in range(1, 30)],
                  sorted(bytes([3]) * k + bytes([1]) for k in range(1, 40))):
        c_records, c_root = c_graph(words)
        np_records, np_root = numpy_graph(words)
        assert c_root == np_root and np.array_equal(c_records, np_records)
        assert words_of(c_records, c_root) == set(words)


@given(st.lists(st.binary(min_size=1, max_size=6), min_size=1, max_size=30), st.data())
def test_bucket_rows_equals_numpy(words: list[bytes], data: st.DataObject) -> None:
    from lexigraph.compiler.builder import bucket_rows

    flat, starts, lens = ragged(words)
    length = data.draw(st.sampled_from(sorted(set(lens.tolist()))))
    ids = np.flatnonzero(lens == length)
    ids = np.array(data.draw(st.permutations(ids.tolist())), np.int64)
    fast = bucket_rows(flat, starts, ids, length)
    assert fast.tolist() == bucket_rows(flat, starts, ids, length, pure_python=True).tolist()
    assert [bytes(r) for r in fast.tolist()] == [words[i] for i in ids]


def test_bucket_rows_bad_input() -> None:
    flat = np.frombuffer(b"abcdef", np.uint8)
    starts = np.array([0, 3], np.int64)
    for ids, length in (([2], 3), ([-1], 3), ([1], 4), ([0], 0)):
        with pytest.raises(ValueError):
            _native.bucket_rows(flat, starts, np.array(ids, np.int64), length)
    with pytest.raises(ValueError):
        _native.bucket_rows(flat, np.array([-5], np.int64), np.array([0], np.int64), 1)
    with pytest.raises(ValueError):
        _native.bucket_rows(flat, b"123", b"", 1)  # not int64 arrays
    assert _native.bucket_rows(flat, starts, np.array([], np.int64), 3) == b""
