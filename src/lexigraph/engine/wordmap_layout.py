"""The word map file's layout: its header, its directory, its keys and its hash, in one place.

The word map (``NAME.lxw``, see ``docs/format.md``) lists, for each word
length L, the words each multiset of tiles makes, and which letters one or
two blanks can be. It is read by :mod:`lexigraph.engine.wordmap` (the C
reader ``native/wordmap.c`` and its twin :mod:`.python.wordmap`) and written
by :mod:`lexigraph.compiler.word_map`; this module holds what both sides
must agree on, so that neither writes a number the other reads differently.

A multiset of tile codes ``t_1 <= ... <= t_n`` (codes 1..A, never a blank)
is keyed by its exact rank ``sum C(t_i + i - 2, i)`` (``i`` from 1): the
colex rank of the combination ``{t_i + i - 2}``, a bijection onto
``[0, C(A + n - 1, n))``.

>>> rank_of([1, 1]), rank_of([1, 2]), rank_of([2, 2]), rank_of([1, 3])
(0, 1, 2, 3)
>>> table_size(5), table_size(100), bucket_of(12345, 4)
(16, 64, 10)
"""

from __future__ import annotations

import math
import mmap
import os
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

#: The file's first eight bytes (``\\x89LXW\\r\\n\\x1a\\n``: catches text-mode mangling, as the lexicon's).
MAGIC = b"\x89LXW\r\n\x1a\n"
MAJOR = 1
MINOR = 0
HEADER_SIZE = 64
ALIGN = 64
#: The hash multiplier (2^64 / golden ratio), written in every header for readers in other languages.
MULTIPLIER = 0x9E3779B97F4A7C15
MASK64 = (1 << 64) - 1
#: Blank tables a map can hold: 0 (words only), 1 (one blank) or 2 (two blanks).
MAX_BLANKS = 2
#: The highest tile code a key may hold: a blank table's entry is a 64-bit mask of codes.
MAX_CODE = 63
#: The shortest length mapped: a play makes a word of two tiles at least.
MIN_LENGTH = 2
#: Lengths above this are not mapped (a length byte in the directory).
MAX_LENGTH = 255

#: magic, major, minor, header size, file size, lexicon size, lexicon body CRC, highest code, blank tables,
#: shortest and longest length, body CRC, header CRC, hash multiplier, 8 reserved bytes.
HEADER = struct.Struct("<8sHHIQQIBBBBIIQ8x")
#: One table's descriptor: offsets of its bucket directory and records, its record count, log2 of its bucket
#: count, its length and blank count, a zero byte, (k = 0) the offset and word count of its length's letters,
#: 8 reserved bytes.
DESCRIPTOR = struct.Struct("<QQIBBBxQQ8x")
#: One record: the key and two 32-bit values (k = 0: first row and row count; else the mask's low and high half).
RECORD = struct.Struct("<QII")
MIN_LOG2_BUCKETS = 4
MAX_LOG2_BUCKETS = 31


def aligned(n: int) -> int:
    """``n`` rounded up to the next multiple of :data:`ALIGN`."""
    return -(-n // ALIGN) * ALIGN


def key_fits(highest_code: int, length: int) -> bool:
    """Whether every multiset of ``length`` codes in 1..``highest_code`` has a rank below 2^64."""
    return highest_code >= 1 and math.comb(highest_code + length - 1, length) <= MASK64


def rank_table(highest_code: int, length: int) -> list[list[int]]:
    """``R[i][t]``, what code ``t`` adds to a rank at position ``i`` (0-based) of a sorted multiset."""
    return [[math.comb(t - 1 + i, i + 1) if t else 0 for t in range(highest_code + 1)] for i in range(length)]


def rank_of(sorted_codes: Sequence[int]) -> int:
    """The key of a multiset given as its codes sorted ascending (codes from 1)."""
    return sum(math.comb(t + i - 1, i + 1) for i, t in enumerate(sorted_codes))


def table_size(records: int) -> int:
    """Buckets of a table of ``records`` records: a power of two, at least 16 and at least half of them."""
    size = 1 << MIN_LOG2_BUCKETS
    while 2 * size < records:
        size *= 2
    return size


def bucket_of(key: int, log2_buckets: int) -> int:
    """A key's bucket: the top ``log2_buckets`` bits of ``key * MULTIPLIER`` modulo 2^64."""
    return (key * MULTIPLIER & MASK64) >> (64 - log2_buckets)


@dataclass(frozen=True)
class Header:
    """The word map's header fields (see ``docs/format.md``)."""

    file_size: int
    lexicon_size: int
    lexicon_crc: int
    highest_code: int
    max_blanks: int
    min_length: int
    max_length: int

    @property
    def table_count(self) -> int:
        """Descriptors in the directory: one per length and blank count."""
        return (self.max_length - self.min_length + 1) * (self.max_blanks + 1)


@dataclass(frozen=True)
class Descriptor:
    """One table's place in the file (see ``docs/format.md``)."""

    directory: int
    records: int
    count: int
    log2_buckets: int
    length: int
    blanks: int
    letters: int
    words: int


#: The word map file's suffix: ``NAME.lxw`` beside ``NAME.lex``.
SUFFIX = ".lxw"


def word_map_path(lexicon_path: str | os.PathLike[str]) -> str:
    """Where a lexicon file's word map lies beside it: its name with the suffix ``.lxw`` instead of its own."""
    root, _ = os.path.splitext(os.fspath(lexicon_path))
    return root + SUFFIX


def peek_header(path: str | os.PathLike[str]) -> Header | None:
    """The header of the word map at ``path`` if it reads as one (magic, checksum, version, size), else None.

    Only the 64 header bytes are read: what ``lexigraph info`` shows without opening the map.
    """
    try:
        with open(path, "rb") as f:
            head = f.read(HEADER_SIZE)
            size = os.fstat(f.fileno()).st_size
    except OSError:
        return None
    if len(head) < HEADER_SIZE or head[:8] != MAGIC:
        return None
    fields = HEADER.unpack(head)
    if zlib.crc32(head[:44] + head[48:]) != fields[12] or fields[1] != MAJOR or fields[4] != size:
        return None
    return Header(*fields[4:11])


def lexicon_identity(buffer: "bytes | mmap.mmap") -> tuple[int, int]:
    """A lexicon file's size and the CRC-32 of its body (its header's bytes 40..44): what a map is built for."""
    view = memoryview(buffer)
    return len(view), int.from_bytes(view[40:44], "little")
