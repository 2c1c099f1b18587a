"""The word graph built in C (lexigraph._native) against its NumPy twin (lexigraph.dawg, graph_builder.py), and the built files against sets."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph import dawg
from lexigraph.compiler import graph_builder as graph
from lexigraph.compiler import kernels
from lexigraph.compiler.kernels import BuildKernels
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
    return graph.layout_arcs(dawg.minimize(dawg.build_trie(flat, starts, lens), accept_on_edge=True))


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
    fast = BuildKernels.choose().lexicon_graph(flat, starts, lens)
    pure = BuildKernels.choose(pure_python=True).lexicon_graph(flat, starts, lens)
    assert BuildKernels.choose().kind == "c" and fast == pure
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
    monkeypatch.setattr(kernels, "MAX_ARCS", 2)  # the C kernel's budget
    monkeypatch.setattr(graph, "MAX_ARCS", 2)  # the NumPy twin's (LEXIGRAPH_PURE_PYTHON=1 chooses it)
    with pytest.raises(BuildError, match="needs 3 arcs"):
        BuildKernels.choose().lexicon_graph(np.frombuffer(b"\x01\x02", np.uint8), np.array([0, 1]), np.array([1, 1]))


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



def test_c_graph_chains() -> None:
    """Lexicons with more lists than nodes at any one height (the list sort outgrows the per-height arrays)."""
    for words in ([bytes([1]) * k for k in range(1, 60)], [bytes([1, 2]) * k for k in range(1, 30)],
                  sorted(bytes([3]) * k + bytes([1]) for k in range(1, 40))):
        c_records, c_root = c_graph(words)
        np_records, np_root = numpy_graph(words)
        assert c_root == np_root and np.array_equal(c_records, np_records)
        assert words_of(c_records, c_root) == set(words)
