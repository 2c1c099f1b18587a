"""The lexicon file: a header, aligned binary sections, a JSON index.

Layout (all integers little-endian; see ``docs/format.md``)::

    0   8  magic  b"\\x89LXG\\r\\n\\x1a\\n"
    8   2  major version (readers refuse a newer major)
    10  2  minor version
    12  4  header size (64)
    16  8  file size
    24  8  index offset        (the JSON index comes after the sections)
    32  8  index length
    40  4  CRC-32 of bytes 64 .. file size
    44  4  CRC-32 of the other 60 header bytes (0 .. 44 and 48 .. 64)
    48 16  reserved, zero

Sections start at multiples of 64 bytes so that NumPy and ``memoryview``
can view them in place. Nothing here ever unpickles or evaluates data.
"""

from __future__ import annotations

import json
import mmap
import os
import stat
import struct
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import FileFormatError
from ..support.files import write_atomic as write_through_atomically

MAGIC = b"\x89LXG\r\n\x1a\n"
MAJOR = 2
MINOR = 0
HEADER_SIZE = 64
ALIGN = 64
_HEADER = struct.Struct("<8sHHIQQQII16x")
_DTYPES = {"u1": 1, "<u2": 2, "<u4": 4, "<u8": 8}
MAX_INDEX_LENGTH = 64 << 20


@dataclass(frozen=True)
class Section:
    offset: int
    length: int
    dtype: str
    shape: tuple[int, ...]


def _align(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


def pack(index: Mapping[str, object], sections: Mapping[str, tuple[bytes, str, tuple[int, ...]]]) -> bytes:
    """Assemble a complete lexicon file in memory.

    ``sections`` maps a name to ``(data, dtype, shape)``; the section table
    is added to ``index`` under ``"sections"``.
    """
    parts: list[bytes] = []
    table: dict[str, dict[str, Any]] = {}
    pos = HEADER_SIZE
    for name, (data, dtype, shape) in sections.items():
        pad = _align(pos) - pos
        parts.append(b"\0" * pad)
        pos += pad
        table[name] = {"offset": pos, "length": len(data), "dtype": dtype, "shape": list(shape)}
        parts.append(data)
        pos += len(data)
    full_index = dict(index)
    full_index["sections"] = table
    blob = json.dumps(full_index, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    pad = _align(pos) - pos
    parts.append(b"\0" * pad)
    pos += pad
    index_offset = pos
    parts.append(blob)
    body = b"".join(parts)
    size = HEADER_SIZE + len(body)
    crc_body = zlib.crc32(body)
    head = _HEADER.pack(MAGIC, MAJOR, MINOR, HEADER_SIZE, size, index_offset, len(blob), crc_body, 0)
    crc_head = zlib.crc32(head[:44] + head[48:])
    head = head[:44] + struct.pack("<I", crc_head) + head[48:]
    return head + body


def write_atomic(dest: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``dest`` atomically (see :func:`lexigraph.support.files.write_atomic`).

    Readers that have the old file mapped keep seeing it; a failure leaves
    the old file untouched; devices and FIFOs are written through.
    """
    write_through_atomically(dest, data)


class MappedFile:
    """A validated lexicon file: its buffer, its index and its sections."""

    def __init__(self, buffer: "mmap.mmap | bytes", index: dict[str, Any], sections: dict[str, Section], name: str):
        self.buffer = buffer
        self.index = index
        self.sections = sections
        self.name = name

    def view(self, name: str) -> memoryview:
        s = self.sections[name]
        return memoryview(self.buffer)[s.offset : s.offset + s.length]

    def close(self) -> None:
        if isinstance(self.buffer, mmap.mmap):
            try:
                self.buffer.close()
            except BufferError:
                # NumPy views the caller still holds keep the map alive;
                # it is released when they are.
                pass


def is_lexicon(head: bytes) -> bool:
    """Whether bytes start with the lexicon magic number."""
    return head[:8] == MAGIC


def is_lexicon_file(path: "str | os.PathLike[str]") -> bool:
    """Whether the file at ``path`` starts with the lexicon magic number (False if it cannot be read).

    Only a regular file can be a lexicon (it is mapped): a FIFO or device is
    not opened here, which would block or eat its first bytes.
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as f:
            return is_lexicon(f.read(8))
    except OSError:
        return False


def open_path(path: str | os.PathLike[str]) -> MappedFile:
    """Map and validate a lexicon file.

    The header, the index and the checksum are read through the file, not
    the mapping: opening maps no page of the file into this process, so its
    resident memory grows only with the pages that queries touch.
    """
    name = os.fspath(path)
    try:
        mode = os.stat(name).st_mode
        if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):  # a FIFO would block the open; nothing else maps
            raise FileFormatError(f"{name} is not a regular file (a FIFO or a device), so not a lexicon file")
        with open(name, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < HEADER_SIZE:
                head = f.read(HEADER_SIZE)
                _check_magic(head, name)
                raise FileFormatError(f"{name}: truncated lexicon ({size} bytes, smaller than its header)")
            buffer = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            try:
                return _validate(buffer, name, _FileReader(f))
            except BaseException:
                buffer.close()
                raise
    except FileNotFoundError:
        raise FileFormatError(f"no such lexicon file: {name}") from None
    except IsADirectoryError:
        raise FileFormatError(f"{name} is a directory, not a lexicon file") from None
    except (OSError, ValueError) as e:
        raise FileFormatError(f"cannot open {name}: {getattr(e, 'strerror', None) or e}") from None


class _FileReader:
    """Byte ranges and the checksum of an open file, read without mapping it."""

    def __init__(self, f: Any) -> None:
        self._f = f

    def read(self, offset: int, length: int) -> bytes:
        self._f.seek(offset)
        data: bytes = self._f.read(length)
        return data

    def crc_from(self, offset: int) -> int:
        self._f.seek(offset)
        crc = 0
        chunk = bytearray(1 << 18)
        view = memoryview(chunk)
        while got := self._f.readinto(chunk):
            crc = zlib.crc32(view[:got], crc)
        return crc


class _BytesReader:
    def __init__(self, data: "bytes | mmap.mmap") -> None:
        self._data = data

    def read(self, offset: int, length: int) -> bytes:
        return bytes(self._data[offset : offset + length])

    def crc_from(self, offset: int) -> int:
        return zlib.crc32(memoryview(self._data)[offset:])


def open_bytes(data: bytes, name: str = "<memory>") -> MappedFile:
    """Validate a lexicon held in memory (for lexicons compiled on the fly)."""
    if len(data) < HEADER_SIZE:
        _check_magic(data, name)
        raise FileFormatError(f"{name}: truncated lexicon ({len(data)} bytes, smaller than its header)")
    return _validate(data, name, _BytesReader(data))


def _check_magic(head: bytes, name: str) -> None:
    if head[: len(MAGIC)] != MAGIC[: len(head)] or not head:
        raise FileFormatError(f"{name} is not a lexigraph lexicon (no magic number); build one with 'lexigraph build'")


def _validate(buffer: "mmap.mmap | bytes", name: str, reader: "_FileReader | _BytesReader") -> MappedFile:
    size = len(buffer)
    head = reader.read(0, HEADER_SIZE)
    _check_magic(head, name)
    magic, major, minor, header_size, file_size, index_offset, index_length, crc_body, crc_head = _HEADER.unpack(head)
    if zlib.crc32(head[:44] + head[48:]) != crc_head:
        raise FileFormatError(f"{name}: the header is corrupt (checksum mismatch)")
    if major > MAJOR:
        raise FileFormatError(f"{name}: format version {major}.{minor} is newer than this lexigraph reads ({MAJOR}.x); upgrade lexigraph")
    if major == 1:
        raise FileFormatError(
            f"{name}: format version 1.{minor} is no longer read; rebuild it from its word list "
            "with 'lexigraph build WORDLIST -o FILE'"
        )
    if major < MAJOR or header_size != HEADER_SIZE:
        raise FileFormatError(f"{name}: unknown format version {major}.{minor}")
    if file_size != size:
        what = "truncated" if size < file_size else "has trailing data"
        raise FileFormatError(f"{name}: the lexicon is {what} (header says {file_size:,} bytes, file has {size:,})")
    if reader.crc_from(HEADER_SIZE) != crc_body:
        raise FileFormatError(f"{name}: the lexicon is corrupt (checksum mismatch); rebuild it")
    if not (HEADER_SIZE <= index_offset and index_offset + index_length == size and index_length <= MAX_INDEX_LENGTH):
        raise FileFormatError(f"{name}: the index lies outside the file")
    try:
        index = json.loads(reader.read(index_offset, index_length).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise FileFormatError(f"{name}: the index is not valid JSON") from None
    if not isinstance(index, dict) or not isinstance(index.get("sections"), dict):
        raise FileFormatError(f"{name}: the index has no section table")
    sections: dict[str, Section] = {}
    for key, raw in index["sections"].items():
        shape = raw.get("shape") if isinstance(raw, dict) else None
        fields = [raw.get("offset"), raw.get("length"), *shape] if isinstance(shape, list) else []
        # Strict JSON integers only: floats, infinities and booleans are refused before any arithmetic.
        if (
            not fields
            or not isinstance(shape, list)
            or not 1 <= len(shape) <= 2
            or not isinstance(raw.get("dtype"), str)
            or any(type(x) is not int or not 0 <= x <= size for x in fields)
        ):
            raise FileFormatError(f"{name}: section {key!r} is malformed")
        sec = Section(raw["offset"], raw["length"], raw["dtype"], tuple(shape))
        itemsize = _DTYPES.get(sec.dtype)
        count = 1
        for dim in sec.shape:
            if dim < 0:
                count = -1
                break
            count *= dim
        if (
            itemsize is None
            or count < 0
            or count * itemsize != sec.length
            or sec.offset % ALIGN
            or sec.offset < HEADER_SIZE
            or sec.offset + sec.length > index_offset
        ):
            raise FileFormatError(f"{name}: section {key!r} does not fit the file")
        sections[key] = sec
    return MappedFile(buffer, index, sections, name)
