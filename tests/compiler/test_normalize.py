"""The one-scan path of a build (sources.RawWords.from_ascii, the kernels' scan_ascii in C and scan.py's NumPy twin)
against the general normalisation loop, on generated lists and on TWL06."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.compiler import builder
from lexigraph.engine import fileformat
from lexigraph.compiler import normalize as N
from lexigraph.compiler.kernels import BuildKernels
from lexigraph.compiler.scan import Scan, scan_ascii_numpy
from lexigraph.alphabet import Alphabet
from lexigraph.buildinfo import c_module
from lexigraph.errors import BuildError, LexiconError
from lexigraph.compiler.sources import RawWords, parse_lines, read

C = c_module("_native")
C_KERNELS = BuildKernels.choose()
needs_c = pytest.mark.skipif(C is None, reason="the C extension lexigraph._native is not built or switched off")

CLEAN = st.one_of(
    st.text("abcdeiz", max_size=9),  # lower case, often repeated: duplicates, prefixes
    st.text("abcz", max_size=6).map(str.upper),  # upper case: folded
    st.text("ab", min_size=12, max_size=20),  # too long for small max_length
)
WORDS = st.one_of(
    CLEAN,
    st.text("aBcZ", min_size=1, max_size=5),  # mixed case: the case policy decides
    st.sampled_from(["x1", "a b", "caf\u00e9", "\u00e9t\u00e9", " dog", "cat ", "q\t", "a;3", "\x0b", "\x00", "ab-c"]),
)
SEPS = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def lists(draw: st.DrawFn) -> bytes:
    """A list's bytes: lines with LF, CRLF or lone CR ends, sometimes sorted, sometimes without a final line end."""
    words = draw(st.lists(CLEAN if draw(st.booleans()) else WORDS, max_size=40))  # half: the fast path's lists
    if draw(st.booleans()):
        words.sort()
    seps = draw(st.lists(SEPS, min_size=len(words), max_size=len(words)))
    text = "".join(w + s for w, s in zip(words, seps))
    if words and draw(st.booleans()):
        text = text[: -len(seps[-1])]
    return text.encode("utf-8")


@contextmanager
def pure_python() -> Iterator[None]:
    """Every C path off inside the block (hypothesis tests cannot take monkeypatch)."""
    old = os.environ.get("LEXIGRAPH_PURE_PYTHON")
    os.environ["LEXIGRAPH_PURE_PYTHON"] = "1"
    try:
        yield
    finally:
        if old is None:
            del os.environ["LEXIGRAPH_PURE_PYTHON"]
        else:
            os.environ["LEXIGRAPH_PURE_PYTHON"] = old


def outcome(thunk):  # type: ignore[no-untyped-def]
    """What a normalisation gives: its words, report and alphabet, or its error message."""
    try:
        ws = thunk()
    except LexiconError as e:
        return type(e).__name__, str(e)
    return ws.keys, ws.report.to_dict(), ws.alphabet.labels, ws.priorities.tolist(), ws.has_priorities


def scans_equal(a: Scan | None, b: Scan | None) -> bool:
    if a is None or b is None:
        return a is b
    return all(np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y for x, y in zip(a, b)) and \
        all(x.dtype == y.dtype for x, y in zip(a[:3], b[:3]))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(lists(), st.integers(1, 3), st.integers(3, 15))
def test_fast_path_writes_what_the_loop_writes(data: bytes, low: int, high: int) -> None:
    fast = outcome(lambda: N.normalize(read(io.BytesIO(data)), min_length=low, max_length=high))
    loop = outcome(lambda: N.normalize(read(io.BytesIO(data)), min_length=low, max_length=high, rejects=[]))
    assert fast == loop
    with pure_python():
        assert outcome(lambda: N.normalize(read(io.BytesIO(data)), min_length=low, max_length=high)) == loop
    # the same words as an iterable of lines (each line one word, or the loop)
    lines = data.decode("utf-8").splitlines()
    assert outcome(lambda: N.normalize(parse_lines(lines, "<w>"), min_length=low, max_length=high)) == \
        outcome(lambda: N.normalize(parse_lines(lines, "<w>"), min_length=low, max_length=high, rejects=[]))


@settings(max_examples=200)
@given(lists(), st.sampled_from(["abcdz", "abcdeiz", "english"]), st.integers(1, 3), st.integers(3, 15))
def test_fast_path_with_an_alphabet(data: bytes, letters: str, low: int, high: int) -> None:
    alphabet = Alphabet.preset(letters) if letters == "english" else Alphabet.from_letters(letters)
    assert alphabet.byte_table is not None

    def run(rejects: list[N.Reject] | None):  # type: ignore[no-untyped-def]
        return outcome(lambda: N.normalize(read(io.BytesIO(data)), alphabet=alphabet, min_length=low,
                                           max_length=high, rejects=rejects))

    assert run(None) == run([])


@needs_c
@settings(max_examples=300)
@given(lists(), st.integers(1, 3), st.integers(3, 15), st.sampled_from([None, "abcdz", "english"]))
def test_c_scan_equals_numpy_twin(data: bytes, low: int, high: int, letters: str | None) -> None:
    table = None
    if letters is not None:
        table = (Alphabet.preset(letters) if letters == "english" else Alphabet.from_letters(letters)).byte_table
    c = C_KERNELS.scan_ascii(data, table, low, high)
    twin = scan_ascii_numpy(data, table, low, high)
    assert scans_equal(c, twin), (c, twin)
    if c is not None:  # the oracle: the lines as str.splitlines splits them
        text = data.decode("ascii")
        assert c.lines == len(text.splitlines())
        words = [w.lower() for w in text.splitlines() if w]
        assert c.letters == "".join(sorted(set("".join(words))))
        kept = [w for w in words if low <= len(w) <= high]
        assert c.lengths.tolist() == [len(w) for w in kept]
        assert (c.short, c.long) == (sum(len(w) < low for w in words), sum(len(w) > high for w in words))
        if table is None:
            codes = b"".join(bytes(c.letters.index(ch) + 1 for ch in w) for w in kept)
            assert c.codes.tobytes() == codes
            keys = [bytes(c.letters.index(ch) + 1 for ch in w) for w in kept]
            assert c.ordered == all(a < b for a, b in pairwise(keys))


@needs_c
@settings(max_examples=300)
@given(st.binary(max_size=60), st.integers(1, 4), st.integers(4, 255))
def test_c_scan_on_any_bytes_equals_numpy_twin(data: bytes, low: int, high: int) -> None:
    """Any bytes at all: the same answer (mostly None), never a crash."""
    assert scans_equal(C_KERNELS.scan_ascii(data, None, low, high), scan_ascii_numpy(data, None, low, high))


@needs_c
def test_c_scan_bad_arguments() -> None:
    with pytest.raises(ValueError):
        C.scan_ascii(b"cat", b"short table", 2, 15, 2040)
    with pytest.raises(ValueError):
        C.scan_ascii(b"cat", None, 0, 15, 2040)
    with pytest.raises(ValueError):
        C.scan_ascii(b"cat", None, 3, 2, 2040)
    with pytest.raises(ValueError):
        C.scan_ascii(b"cat", None, 2, 256, 2040)
    with pytest.raises(TypeError):
        C.scan_ascii("cat", None, 2, 15, 2040)
    with pytest.raises(BuildError):
        C_KERNELS.scan_ascii(b"cat", None, 0, 15)
    # a line far longer than any word: counted too long, and its letters are not the alphabet's
    s = C_KERNELS.scan_ascii(b"q" * 5000 + b"\ncat\n", None, 2, 15)
    assert s is not None and (s.long, s.letters, s.lengths.tolist()) == (1, "act", [3])
    assert C_KERNELS.scan_ascii(b"q" * 5000 + b"\n", None, 2, 15) is None  # nothing left to code: the loop words it
    assert C_KERNELS.scan_ascii(b"", None, 2, 15) is None and C_KERNELS.scan_ascii(b"\r\n\n", None, 2, 15) is None


@given(lists())
def test_lazy_raw_words_are_the_parsed_lines(data: bytes) -> None:
    assume(b"\0" not in data)  # binary: refused (tests/compiler/test_sources.py)
    raw = read(io.BytesIO(data))
    text = data.decode("utf-8")
    want = parse_lines(text.splitlines(), "<w>")
    if raw.ascii_data is not None:
        assert text.isascii() and ";" not in text and "\0" not in text
    else:
        assert not text.isascii() or ";" in text or "\0" in text
    assert (raw.kind, raw.words, raw.scores, raw.lines, raw.line_numbers, raw.raw_lines, raw.rejected) == \
        (want.kind, want.words, want.scores, want.lines, want.line_numbers, want.raw_lines, want.rejected)


def test_word_set_forms() -> None:
    alphabet = Alphabet.from_letters("abc")
    report = N.Report(kept=2)
    prio = np.full(2, 50, np.uint8)
    flat = N.WordSet(alphabet, None, prio, False, None, report, codes=np.array([1, 2, 3], np.uint8),
                     lengths=np.array([1, 2]))
    keyed = N.WordSet(alphabet, [b"\x01", b"\x02\x03"], prio, False, None, report)
    assert flat.keys == keyed.keys and flat.codes.tolist() == keyed.codes.tolist() == [1, 2, 3]
    assert flat.lengths.dtype == keyed.lengths.dtype == np.int64 and keyed.lengths.tolist() == [1, 2]
    with pytest.raises(ValueError):
        N.WordSet(alphabet, None, prio, False, None, report)


def sections(data: bytes) -> tuple[dict[str, object], dict[str, bytes]]:
    f = fileformat.open_bytes(data)
    return {k: v for k, v in f.index.items() if k != "built"}, {n: bytes(f.view(n)) for n in f.sections}


def test_twl06_fast_path_builds_the_same_file(shared, monkeypatch: pytest.MonkeyPatch) -> None:
    """TWL06 by the one-scan path (C, then its NumPy twin) and by the general loop: the same file."""
    path = shared("twl06.txt")
    raw = read(path)
    assert raw.ascii_data is not None  # the fast path's input: nothing decoded or split
    fast = builder.compile_source(path)[0]
    loop = builder.compile_source(path, rejects=[])[0]  # collecting rejects runs the general loop
    monkeypatch.setenv("LEXIGRAPH_PURE_PYTHON", "1")
    pure = builder.compile_source(path)[0]
    assert sections(fast) == sections(loop) == sections(pure)
    assert sections(fast)[0]["word_count"] == 178691


@settings(max_examples=40, deadline=None)
@given(lists(), st.integers(1, 3))
def test_generated_files_are_the_same(tmp_path_factory: pytest.TempPathFactory, data: bytes, low: int) -> None:
    path = tmp_path_factory.mktemp("fast") / "words.txt"
    path.write_bytes(data)
    try:
        fast = sections(builder.compile_source(path, min_length=low)[0])
    except LexiconError as e:
        with pytest.raises(type(e)):
            builder.compile_source(path, min_length=low, rejects=[])
        return
    assert fast == sections(builder.compile_source(path, min_length=low, rejects=[])[0])
    # an iterable of the lines: no source path, so its index differs; its sections do not
    assert fast[1] == sections(builder.compile_source(data.decode("utf-8").splitlines(), min_length=low)[0])[1]


def test_raw_words_repr() -> None:
    assert "unsplit" in repr(RawWords.from_ascii(b"cat\n", "<w>"))


def test_raw_words_edited_after_reading_leave_the_fast_path() -> None:
    raw = read(io.BytesIO(b"cat\ndog\n"))
    assert raw.ascii_data is not None
    raw.words = ["emu", "gnu"]
    assert raw.ascii_data is None
    assert N.normalize(raw).keys == N.normalize(parse_lines(["emu", "gnu"], "<w>")).keys
    with pytest.raises(ValueError):
        RawWords.from_ascii(b"cat;3\n", "<w>")
    with pytest.raises(ValueError):
        RawWords.from_ascii("caf\u00e9\n".encode(), "<w>")


@settings(max_examples=30, deadline=None)
@given(lists(), st.sampled_from([None, "utf-8", "latin-1"]), st.booleans())
def test_gzip_and_encodings_give_what_the_loop_gives(data: bytes, encoding: str | None, gz: bool) -> None:
    """Compressed sources and named encodings: the one-scan path only where the loop would read the same words."""
    import gzip

    blob = gzip.compress(data) if gz else data

    def run(rejects: list[N.Reject] | None):  # type: ignore[no-untyped-def]
        return outcome(lambda: N.normalize(read(io.BytesIO(blob), encoding=encoding), rejects=rejects))

    assert run(None) == run([])
    try:
        raw = read(io.BytesIO(blob), encoding=encoding)
    except LexiconError:
        return
    assert (raw.ascii_data is not None) == (encoding != "latin-1" and data.isascii() and b";" not in data
                                            and b"\0" not in data)


def test_a_nul_anywhere_in_an_ascii_list_is_reported_not_raised(tmp_path):
    """A NUL past the first 64 KiB: the list still builds, the line skipped as the loop says."""
    path = tmp_path / "late-nul.txt"
    path.write_bytes(b"cat\n" * 20000 + b"dog\nd\x00g\n")
    result = lexigraph.build(path, tmp_path / "late-nul.lex")
    assert result.report.kept == 2 and result.report.skipped["control characters"] == 1
    assert result.report.duplicates == 19999


def test_lists_edited_in_place_after_reading_are_what_is_built():
    raw = read(io.BytesIO(b"cat\ndog\n"))
    raw.words.append("emu")
    raw.words[0] = "cow"
    raw.line_numbers.append(3)
    raw.raw_lines[0] = "cow"
    raw.raw_lines.append("emu")
    ws = N.normalize(raw)
    assert [ws.alphabet.decode(k) for k in ws.keys] == ["cow", "dog", "emu"]


@given(
    st.lists(st.text(alphabet="abcxyzABCXYZ", min_size=1, max_size=7), min_size=1, max_size=40),
    st.integers(1, 3),
    st.integers(3, 8),
)
def test_vectorised_normalisation_is_the_loops(words, low, high):
    """The whole-text path for plain ASCII lists writes the words and the report the general loop writes."""
    from lexigraph.compiler.sources import parse_lines

    def run(fast: bool):
        raw = parse_lines(words, "<w>")
        try:
            if fast:
                return N._normalize_ascii_letters(raw, None, low, high, "fold", None, BuildKernels.choose())
            return N.normalize(raw, min_length=low, max_length=high, rejects=[])  # rejects: the loop
        except BuildError as e:
            return str(e)

    fast, loop = run(True), run(False)
    if fast is None:  # mixed-case entries: the loop's case policy decides
        assert any(w != w.lower() and w != w.upper() for w in words)
        return
    if isinstance(loop, str):
        assert fast == loop
        return
    assert (fast.keys, fast.report.to_dict(), fast.alphabet) == (loop.keys, loop.report.to_dict(), loop.alphabet)
