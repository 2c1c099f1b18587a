"""Word sources: plain and scored lists, the TWL06 table, Hasbro ``.daw``.

``read`` returns the raw words of a source, before normalisation. The format
is found from the content (``format=`` forces one): a lexicon file starts
with its magic number, binary DAWG tables are recognised by their records,
and anything else must be UTF-8 text, one word a line, optionally
``WORD;SCORE``.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO, Union

from . import daw, dawg32
from .errors import SourceError
from .fileformat import is_lexicon

FORMATS = ("text", "scored", "dawg32", "daw")
#: Highest score a scored list may give (priorities are stored in a byte).
MAX_SCORE = 255

Source = Union[str, "os.PathLike[str]", IO[bytes], IO[str], Iterable[str]]


@dataclass
class RawWords:
    """Words as read, before normalisation; ``scores`` is None for unscored sources."""

    name: str
    kind: str
    words: list[str]
    scores: list[int | None] | None = None
    skipped: Counter = field(default_factory=Counter)
    lines: int = 0
    score_max: int | None = None


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
            return sys.stdin.buffer.read(), name
        try:
            with open(path, "rb") as f:
                return f.read(), name
        except FileNotFoundError:
            raise SourceError(f"no such file: {path}") from None
        except IsADirectoryError:
            raise SourceError(f"{path} is a directory, not a word list") from None
        except OSError as e:
            raise SourceError(f"cannot read {path}: {e.strerror or e}") from None
    if hasattr(source, "read"):
        data = source.read()  # type: ignore[union-attr]
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        return bytes(data), name
    return None, name


def sniff(data: bytes) -> str:
    """``"lexicon"``, ``"daw"``, ``"dawg32"``, ``"text"`` or ``"binary"``."""
    if is_lexicon(data[:8]):
        return "lexicon"
    head = data[:65536]
    if b"\0" in head:
        if daw.looks_like(data):
            return "daw"
        if dawg32.looks_like(data):
            return "dawg32"
        return "binary"
    return "text"


def read(source: Source, *, format: str | None = None, encoding: str | None = None) -> RawWords:
    """Read the raw words of ``source`` (path, ``-``, file object, or iterable of words)."""
    if format is not None and format not in FORMATS:
        raise SourceError(f"unknown source format {format!r}; choose one of {', '.join(FORMATS)}")
    data, name = read_bytes(source)
    if data is None:
        if isinstance(source, (bytes, bytearray)):
            raise SourceError("pass a path or a file object, not bytes")
        try:
            items = list(source)  # type: ignore[arg-type]
        except TypeError:
            raise SourceError(f"cannot read words from a {type(source).__name__}") from None
        if not all(isinstance(w, str) for w in items):
            raise SourceError("a word iterable must hold strings")
        return parse_lines(items, name)
    kind = format or sniff(data)
    if kind == "lexicon":
        raise SourceError(f"{name} is already a compiled lexicon")
    if kind == "binary":
        raise SourceError(f"{name} is binary data, not a word list, a dawg32 table or a .daw file")
    if kind == "dawg32":
        words = dawg32.read(data, what=name)
        return RawWords(name, "dawg32", words, lines=len(words))
    if kind == "daw":
        words = daw.read(data, what=name)
        return RawWords(name, "daw", words, lines=len(words))
    text = decode(data, name, encoding)
    return parse_lines(text.splitlines(), name)


def decode(data: bytes, name: str, encoding: str | None) -> str:
    if encoding is None or encoding.replace("-", "").replace("_", "").lower() in ("utf8", "utf8sig"):
        if b"\0" in data[:65536] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
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
        raise SourceError(f"unknown encoding {encoding!r}") from None
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise SourceError(f"{name}: line {line} cannot be decoded as {encoding}") from None


def parse_lines(lines: list[str], name: str) -> RawWords:
    """Split ``WORD;SCORE`` lines; blank lines are ignored, bad scores counted."""
    stripped = [s for s in map(str.strip, lines) if s]
    if not any(";" in s for s in stripped):
        return RawWords(name, "text", stripped, lines=len(lines))
    words: list[str] = []
    scores: list[int | None] = []
    skipped: Counter = Counter()
    top = 0
    for s in stripped:
        if ";" not in s:
            words.append(s)
            scores.append(None)
            continue
        word, _, raw_score = s.rpartition(";")
        score = _parse_score(raw_score)
        if score is None:
            skipped["bad score"] += 1
            continue
        words.append(word.strip())
        scores.append(score)
        top = max(top, score)
    return RawWords(name, "scored", words, scores, skipped, lines=len(lines), score_max=top)


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

