"""Word sources: plain and scored lists, the TWL06 table, Hasbro ``.daw``, wolges's ``.kwg``.

``read`` returns the raw words of a source, before normalisation. The format
is found from the content (``format=`` forces one): a lexicon file starts
with its magic number, gzip-compressed sources are decompressed, binary DAWG
tables are recognised by their records, and anything else is text, one word a
line, optionally ``WORD;SCORE``: UTF-8 unless a byte-order mark says UTF-16 or
UTF-32, or ``encoding=`` names another.

Reading is bounded: a source (or its decompressed content) larger than
:data:`MAX_SOURCE_BYTES` is refused with a :class:`SourceError`, so a FIFO
that never ends or ``/dev/zero`` cannot exhaust memory; a FIFO whose writer
sends nothing for :data:`lexigraph.support.files.READ_WAIT_SECONDS` is
refused too, rather than waited for forever.
"""

from __future__ import annotations

import codecs
import os
import sys
import zlib
from collections import Counter
from collections.abc import Iterable
from typing import IO, Union, cast

from ..alphabet import Alphabet
from ..errors import SourceError
from ..support.files import read_limited
from ..support.text import quote
from ..engine.fileformat import is_lexicon

FORMATS = ("text", "scored", "dawg32", "daw", "kwg")
#: Largest source read, in bytes, before or after decompression (far above any word list).
MAX_SOURCE_BYTES = 256 << 20
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
#: Highest score a scored list may give (priorities are stored in a byte).
MAX_SCORE = 255

Source = Union[str, "os.PathLike[str]", IO[bytes], IO[str], Iterable[str]]


class RawWords:
    """Words as read, before normalisation; ``scores`` is None for unscored sources.

    For text sources: ``line_numbers`` holds the 1-based line number of each
    word and ``raw_lines`` the lines as read; ``rejected`` the lines left out
    while reading (blank lines are not counted) as (line number, reason, text).
    A plain ASCII list read from bytes (:meth:`from_ascii`) keeps them in
    ``ascii_data`` and splits them into lines only when ``words``,
    ``line_numbers``, ``raw_lines`` or ``lines`` is first read, so a build
    that takes the whole text at once never makes a string per line. Once
    ``words``, ``line_numbers`` or ``raw_lines`` is handed out (the caller
    may edit it), ``ascii_data`` is dropped.

    >>> raw = RawWords.from_ascii(b"cat\\r\\n\\n dog\\n", "<w>")
    >>> raw.kind, raw.words, raw.line_numbers, raw.lines
    ('text', ['cat', 'dog'], [1, 3], 3)
    """

    def __init__(self, name: str, kind: str, words: list[str], scores: list[int | None] | None = None,
                 skipped: Counter[str] | None = None, lines: int = 0, score_max: int | None = None,
                 line_numbers: list[int] | None = None, raw_lines: list[str] | None = None,
                 rejected: list[tuple[int, str, str]] | None = None) -> None:
        self.name = name
        self.kind = kind
        self._words: list[str] | None = words
        self.scores = scores
        self.skipped: Counter[str] = Counter() if skipped is None else skipped
        self._lines = lines
        self.score_max = score_max
        self._line_numbers = line_numbers
        self._raw_lines = raw_lines
        self.rejected: list[tuple[int, str, str]] = [] if rejected is None else rejected
        #: The source's bytes, for a plain list in ASCII with no ``;`` (see :meth:`from_ascii`); else None.
        self.ascii_data: bytes | None = None
        #: The alphabet the source names for its words (a KWG file's tile table), used when the build names none.
        self.alphabet: Alphabet | None = None

    @classmethod
    def from_ascii(cls, data: bytes, name: str) -> RawWords:
        """The raw words of ``data``, ASCII text holding no ``;`` and no NUL, split into lines when first read."""
        if not data.isascii() or b";" in data or b"\0" in data:
            raise ValueError("from_ascii takes ASCII text holding no ';' and no NUL")
        raw = cls(name, "text", [])
        raw._words = None
        raw.ascii_data = data
        return raw

    def _split(self) -> list[str]:
        if self._words is None:
            assert self.ascii_data is not None
            parsed = parse_lines(self.ascii_data.decode("ascii").splitlines(), self.name)
            self._lines, self._line_numbers, self._raw_lines = parsed.lines, parsed.line_numbers, parsed.raw_lines
            self._words = parsed.words
        return self._words

    def _handed_out(self) -> None:
        # Lists handed out may be edited in place, which the text would not show: it stops
        # speaking for the words (normalisation then reads the lists).
        self._split()
        self.ascii_data = None

    @property
    def words(self) -> list[str]:
        self._handed_out()
        return self._split()

    @words.setter
    def words(self, value: list[str]) -> None:
        self._split()
        self._words = value
        self.ascii_data = None  # the text no longer says what the words are

    @property
    def lines(self) -> int:
        self._split()
        return self._lines

    @lines.setter
    def lines(self, value: int) -> None:
        self._split()
        self._lines = value
        self.ascii_data = None

    @property
    def line_numbers(self) -> list[int] | None:
        self._handed_out()
        return self._line_numbers

    @line_numbers.setter
    def line_numbers(self, value: list[int] | None) -> None:
        self._split()
        self._line_numbers = value
        self.ascii_data = None

    @property
    def raw_lines(self) -> list[str] | None:
        self._handed_out()
        return self._raw_lines

    @raw_lines.setter
    def raw_lines(self, value: list[str] | None) -> None:
        self._split()
        self._raw_lines = value
        self.ascii_data = None

    def __repr__(self) -> str:
        count = "unsplit" if self._words is None else f"{len(self._words)} words"
        return f"RawWords({self.name!r}, {self.kind!r}, {count})"


def source_name(source: object) -> str:
    if isinstance(source, (str, os.PathLike)):
        s = os.fspath(source)
        return "<stdin>" if s == "-" else s
    return getattr(source, "name", None) or "<words>"


def read_bytes(source: object) -> tuple[bytes | None, str]:
    """The bytes of a path, ``-`` (standard input) or file object; None for word iterables."""
    name = source_name(source)
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if path == "-":
            try:
                return _bounded(sys.stdin.buffer, name), name
            except OSError as e:
                raise SourceError(f"cannot read standard input: {e.strerror or e}") from None
        # a FIFO or device waits a bounded time for its writer; a directory or socket is refused
        return read_limited(path, limit=MAX_SOURCE_BYTES, what="a word list", error=SourceError), name
    if hasattr(source, "read"):
        data = source.read(MAX_SOURCE_BYTES + 1)
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        if len(data) > MAX_SOURCE_BYTES:
            raise _too_big(name)
        return bytes(data), name
    return None, name


def _too_big(name: str) -> SourceError:
    return SourceError(f"{name} is larger than {MAX_SOURCE_BYTES >> 20} MiB; refusing to read it as a word list")


def _bounded(f: IO[bytes], name: str) -> bytes:
    """At most MAX_SOURCE_BYTES of ``f`` (a file, a FIFO, a device): more is an error."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = f.read(min(1 << 20, MAX_SOURCE_BYTES + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_SOURCE_BYTES:
            raise _too_big(name)


def gunzip(data: bytes, name: str) -> bytes:
    """Decompress gzip data (several members allowed), refusing more than MAX_SOURCE_BYTES."""
    out = []
    size = 0
    while data:
        d = zlib.decompressobj(wbits=31)
        try:
            chunk = d.decompress(data, MAX_SOURCE_BYTES + 1 - size)
        except zlib.error as e:
            raise SourceError(f"{name}: corrupt gzip data ({e})") from None
        size += len(chunk)
        out.append(chunk)
        if size > MAX_SOURCE_BYTES or d.unconsumed_tail:
            raise SourceError(f"{name} decompresses to more than {MAX_SOURCE_BYTES >> 20} MiB; refusing to read it")
        if not d.eof:
            raise SourceError(f"{name}: the gzip data is truncated")
        data = d.unused_data
    return b"".join(out)


def bom_encoding(data: bytes) -> str | None:
    """The encoding a byte-order mark at the start of ``data`` names, if any."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding
    return None


def sniff(data: bytes) -> str:
    """``"lexicon"``, ``"daw"``, ``"dawg32"``, ``"kwg"``, ``"text"`` or ``"binary"``."""
    if is_lexicon(data[:8]):
        return "lexicon"
    head = data[:65536]
    if b"\0" in head:
        # Deferred: the graph formats pull in NumPy, which a plain list (or a cached one) is read without.
        from ..formats import daw, dawg32, kwg

        if daw.looks_like(data):
            return "daw"
        if dawg32.looks_like(data):
            return "dawg32"
        if kwg.looks_like(data):
            return "kwg"
        return "binary"
    return "text"


def read(source: Source, *, format: str | None = None, encoding: str | None = None,
         alphabet: "Alphabet | None" = None) -> RawWords:
    """Read the raw words of ``source`` (path, ``-``, file object, or iterable of words).

    ``alphabet`` (the build's, when it names one) says which tiles a KWG file's tile numbers count, when the
    file does not say itself (:func:`lexigraph.formats.kwg.read`); other sources are text, split into tiles
    later. A source that names its alphabet gives it as ``RawWords.alphabet``.
    """
    if alphabet is not None and not isinstance(alphabet, Alphabet):
        raise SourceError(f"a source's alphabet is an Alphabet, not {type(alphabet).__name__}")
    if format is not None and (not isinstance(format, str) or format not in FORMATS):
        raise SourceError(f"unknown source format {quote(format)}; choose one of {', '.join(FORMATS)}")
    if encoding is not None and not isinstance(encoding, str):
        raise SourceError(f"an encoding is named by text (latin-1, utf-16), not {type(encoding).__name__}")
    data, name = read_bytes(source)
    if data is None:
        if isinstance(source, (bytes, bytearray)):
            raise SourceError("pass a path or a file object, not bytes")
        if not isinstance(source, Iterable):
            raise SourceError(f"cannot read words from a {type(source).__name__}")
        try:
            items: list[object] = list(source)
        except TypeError:
            raise SourceError(f"cannot read words from a {type(source).__name__}") from None
        # the types at C speed (one set of them); a str subclass, or anything else, looked at one by one
        if not set(map(type, items)) <= {str} and not all(isinstance(w, str) for w in items):
            raise SourceError("a word iterable must hold strings")
        return parse_lines(cast("list[str]", items), name)  # every item checked just above
    if data[:2] == b"\x1f\x8b":
        data = gunzip(data, name)
    kind = format
    if kind is None and name.lower().endswith(".kwg"):
        kind = "kwg"  # wolges's word graph has no magic number: its name says what it is
    if kind is None:
        kind = "text" if bom_encoding(data) or (encoding and not _is_utf8(encoding)) else sniff(data)
    if kind == "lexicon":
        raise SourceError(f"{name} is already a compiled lexicon")
    if kind == "binary":
        raise SourceError(f"{name} is binary data, not a word list, a dawg32 table, a .daw or a .kwg file")
    if kind == "dawg32":
        from ..formats import dawg32  # deferred: NumPy (see sniff)

        words = dawg32.read(data, what=name)
        return RawWords(name, "dawg32", words, lines=len(words))
    if kind == "daw":
        from ..formats import daw  # deferred: NumPy (see sniff)

        words = daw.read(data, what=name)
        return RawWords(name, "daw", words, lines=len(words))
    if kind == "kwg":
        from ..formats import kwg  # deferred: NumPy (see sniff)

        # a KWG names no alphabet: its tile table, `alphabet` or its name says which its tile numbers count
        words, numbering = kwg.read(data, what=name, alphabet=alphabet)
        raw = RawWords(name, "kwg", words, lines=len(words))
        raw.alphabet = numbering
        return raw
    if (
        (encoding is None or _is_utf8(encoding))
        and bom_encoding(data) is None
        and data.isascii()
        and b";" not in data
        and b"\0" not in data
    ):
        return RawWords.from_ascii(data, name)  # ASCII is UTF-8: nothing to decode; split when asked
    text = decode(data, name, encoding)
    return parse_lines(text.splitlines(), name)


def _is_utf8(encoding: str) -> bool:
    return encoding.replace("-", "").replace("_", "").lower() in ("utf8", "utf8sig")


def decode(data: bytes, name: str, encoding: str | None) -> str:
    """Source bytes to text: a byte-order mark decides, then ``encoding``, then UTF-8."""
    bom = bom_encoding(data)
    if bom is not None and (encoding is None or _is_utf8(encoding) or encoding.lower().startswith(bom[:6])):
        encoding = bom
    if encoding is None or _is_utf8(encoding):
        if b"\0" in data[:65536]:
            raise SourceError(f"{name} is binary data, not a UTF-8 word list")
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            line = data.count(b"\n", 0, e.start) + 1
            raise SourceError(
                f"{name}: line {line} is not UTF-8 (byte 0x{data[e.start]:02x}); "
                "convert the file, or name its encoding (e.g. --encoding latin-1)"
            ) from None
    try:
        return data.decode(encoding)
    except LookupError:
        raise SourceError(f"unknown encoding {quote(encoding)}") from None
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise SourceError(f"{name}: line {line} cannot be decoded as {encoding}") from None


def parse_lines(lines: list[str], name: str) -> RawWords:
    """Split ``WORD;SCORE`` lines; blank lines are ignored, bad scores counted.

    >>> raw = parse_lines(["cat;60", "", " dog ", "emu;x"], "<words>")
    >>> raw.words, raw.scores, raw.line_numbers, raw.rejected
    (['cat', 'dog'], [60, None], [1, 3], [(4, 'bad score', 'emu;x')])
    """
    stripped = list(map(str.strip, lines))  # C-level map: no Python frame per line
    blank_free = all(stripped)  # the usual list: every line a word (C-level passes, not per-line Python)
    numbers = list(range(1, len(stripped) + 1)) if blank_free else [i for i, s in enumerate(stripped, 1) if s]
    if ";" not in "".join(stripped):
        plain = stripped if blank_free else [stripped[i - 1] for i in numbers]
        return RawWords(name, "text", plain, lines=len(lines), line_numbers=numbers, raw_lines=lines)
    words: list[str] = []
    scores: list[int | None] = []
    kept_numbers: list[int] = []
    skipped: Counter[str] = Counter()
    rejected: list[tuple[int, str, str]] = []
    top = 0
    for i in numbers:
        s = stripped[i - 1]
        if ";" not in s:
            words.append(s)
            scores.append(None)
            kept_numbers.append(i)
            continue
        word, _, raw_score = s.rpartition(";")
        score = _parse_score(raw_score)
        if score is None:
            skipped["bad score"] += 1
            rejected.append((i, "bad score", lines[i - 1]))
            continue
        words.append(word.strip())
        scores.append(score)
        kept_numbers.append(i)
        top = max(top, score)
    return RawWords(name, "scored", words, scores, skipped, lines=len(lines), score_max=top,
                    line_numbers=kept_numbers, raw_lines=lines, rejected=rejected)


def _parse_score(text: str) -> int | None:
    text = text.strip()
    try:
        value = int(text)
    except ValueError:
        try:
            f = float(text)
        except ValueError:
            return None
        if f != f or f in (float("inf"), float("-inf")):
            return None
        value = round(f)
    return value if 0 <= value <= MAX_SCORE else None

