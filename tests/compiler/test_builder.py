"""The builder (compiler/builder.py): clean-up of the input, clear errors for bad sources, atomic writes;
its C table builders (alphagram order, bucket rows) against their NumPy twins."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph import LexiconError, SourceError
from lexigraph.compiler.buckets import alphagram_order_numpy, bucket_rows_numpy
from lexigraph.compiler.kernels import BuildKernels


def test_input_cleanup_and_skip_reasons(tmp_path):
    src = tmp_path / "messy.txt"
    src.write_bytes(
        "\ufeffApple\r\n  pear  \r\n\r\nPEAR\r\ncan't\r\nx1\r\nice cream\r\nnaïve\r\nsoupçon\r\nz\r\n".encode()
    )
    result = lexigraph.build(src, tmp_path / "m.lex")
    lex = lexigraph.open(tmp_path / "m.lex")
    assert list(lex) == ["apple", "naïve", "pear", "soupçon"]
    skipped = result.report.skipped
    assert skipped == Counter({"punctuation": 1, "digits": 1, "space inside": 1, "too short": 1})
    assert result.report.duplicates == 1
    # NFD input is stored as NFC and found in either form
    lex2 = lexigraph.load(["cafe\u0301s"])
    assert "cafés" in lex2 and "cafe\u0301s" in lex2 and len(lex2.words(length=5)) == 1


@pytest.mark.parametrize(
    "content, message",
    [
        (bytes(range(256)) * 40, "binary"),
        ("caf\xe9\n".encode("latin-1"), "not UTF-8"),
        (b"", "no words"),
        (b"\n\n  \n", "no words"),
        (b"123\n456\n", "no words"),
    ],
)
def test_bad_sources_get_clear_errors(tmp_path, content, message):
    src = tmp_path / "bad.txt"
    src.write_bytes(content)
    with pytest.raises(LexiconError, match=message):
        lexigraph.build(src, tmp_path / "out.lex")
    assert not (tmp_path / "out.lex").exists()


def test_one_huge_line_is_skipped_not_fatal(tmp_path):
    src = tmp_path / "huge.txt"
    src.write_bytes(b"ok\n" + b"a" * 10_000_000 + b"\nfine\n")
    result = lexigraph.build(src, tmp_path / "h.lex")
    assert result.report.skipped["too long"] == 1 and result.report.kept == 2


def test_failed_build_leaves_existing_file_untouched(tmp_path):
    dest = tmp_path / "keep.lex"
    lexigraph.build(["alpha", "beta"], dest)
    before = dest.read_bytes()
    with pytest.raises(LexiconError):
        lexigraph.build(["1234"], dest)
    assert dest.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.lex"]


def test_rebuild_in_place_does_not_disturb_readers(tmp_path):
    dest = tmp_path / "live.lex"
    lexigraph.build(["old", "words"], dest)
    reader = lexigraph.open(dest)
    other = lexigraph.open(dest)
    lexigraph.build(["new", "list", "here"], dest)
    assert "old" in reader and "new" not in reader and list(reader) == ["old", "words"]
    fresh = lexigraph.open(dest)
    assert "new" in fresh and "old" not in fresh
    assert len(other) == 2 and len(fresh) == 3
    for lex in (reader, other, fresh):
        lex.close()


def test_a_missing_source_is_a_source_error(tmp_path):
    with pytest.raises(SourceError, match="no such file"):
        lexigraph.build(tmp_path / "missing.txt", tmp_path / "x.lex")


@pytest.fixture
def native():
    return pytest.importorskip("lexigraph._native", reason="the C extension lexigraph._native is not built")


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
    n = data.draw(st.integers(1, 200))
    rows = np.frombuffer(data.draw(st.binary(min_size=n * length, max_size=n * length)), np.uint8)
    rows = (rows % top + 1).astype(np.uint8).reshape(n, length)
    fast = BuildKernels.choose().alphagram_order(rows)
    pure = alphagram_order_numpy(rows)
    assert fast.dtype == pure.dtype and fast.tolist() == pure.tolist()
    # the oracle: sorted by (alphagram, row)
    assert fast.tolist() == sorted(range(n), key=lambda i: (sorted(rows[i].tolist()), i))


def test_alphagram_order_bad_input(native) -> None:
    with pytest.raises(ValueError):
        native.alphagram_order(b"\x01\x02\x03", 2, 2)
    with pytest.raises(ValueError):
        native.alphagram_order(b"", 0, 0)
    assert native.alphagram_order(b"", 0, 4) == b""
    # one long row of one tile: the counting sort's tallies do not wrap
    assert native.alphagram_order(b"\x01" * 70000 + b"\x02" * 70000, 2, 70000) == bytes([0, 0, 0, 0, 1, 0, 0, 0])


@pytest.mark.parametrize("length", [1, 7, 12, 13, 15, 16])
@pytest.mark.parametrize("top", [1, 2, 15, 16, 31, 32, 63, 64, 255])
def test_alphagram_order_at_the_key_boundaries(length: int, top: int) -> None:
    """Rows around the C code's switches (counts of up to 15 tiles, codes under 32 / 64, one-word keys)."""
    rng = np.random.default_rng(length * 1000 + top)
    rows = rng.integers(1, top + 1, size=(300, length)).astype(np.uint8)
    rows[:20] = top  # a row of one tile repeated: the largest count
    rows[20:40] = rows[40:60]  # equal rows: ties keep row order
    fast = BuildKernels.choose().alphagram_order(rows)
    assert fast.tolist() == alphagram_order_numpy(rows).tolist()
    assert fast.tolist() == sorted(range(len(rows)), key=lambda i: (sorted(rows[i].tolist()), i))



# -- bucket rows ---------------------------------------------------------------------------------------


def ragged(words: list[bytes]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lens = np.array([len(w) for w in words], np.int64)
    flat = np.frombuffer(b"".join(words), np.uint8) if words else np.zeros(0, np.uint8)
    return flat, np.cumsum(lens) - lens, lens




@given(st.lists(st.binary(min_size=1, max_size=6), min_size=1, max_size=30), st.data())
def test_bucket_rows_equals_numpy(words: list[bytes], data: st.DataObject) -> None:
    flat, starts, lens = ragged(words)
    length = data.draw(st.sampled_from(sorted(set(lens.tolist()))))
    ids = np.flatnonzero(lens == length)
    ids = np.array(data.draw(st.permutations(ids.tolist())), np.int64)
    fast = BuildKernels.choose().bucket_rows(flat, starts, ids, length)
    assert fast == bucket_rows_numpy(flat, starts, ids, length)
    assert [fast[k * length:(k + 1) * length] for k in range(len(ids))] == [words[i] for i in ids]


def test_bucket_rows_bad_input(native) -> None:
    flat = np.frombuffer(b"abcdef", np.uint8)
    starts = np.array([0, 3], np.int64)
    for ids, length in (([2], 3), ([-1], 3), ([1], 4), ([0], 0)):
        with pytest.raises(ValueError):
            native.bucket_rows(flat, starts, np.array(ids, np.int64), length)
    with pytest.raises(ValueError):
        native.bucket_rows(flat, np.array([-5], np.int64), np.array([0], np.int64), 1)
    with pytest.raises(ValueError):
        native.bucket_rows(flat, b"123", b"", 1)  # not int64 arrays
    assert native.bucket_rows(flat, starts, np.array([], np.int64), 3) == b""
