"""Word map lookups in Python: the twin of ``native/wordmap.c`` (the same checks, the same answers).

:func:`parse_word_map` checks a word map's header and directory
(``docs/format.md``) and refuses a forged one with a
:class:`~lexigraph.errors.FileFormatError`, as ``lx_wordmap_init`` does;
:class:`PythonWordMap` answers the lookups move generation needs:

- :meth:`~PythonWordMap.has_word`: is there a word of length L made of
  these tiles and ``blanks`` blanks;
- :meth:`~PythonWordMap.lookup`: which: each hit is a run of rows of the
  length's letters (in the lexicon's alphagram order) and the letters the
  blanks stand for.

>>> import lexigraph
>>> from lexigraph.compiler.word_map import word_map_bytes
>>> from lexigraph.compiler.kernels import BuildKernels
>>> lex = lexigraph.load(["ant", "tan", "nat", "tat", "at"])
>>> data, _ = word_map_bytes(lex.store, kernels=BuildKernels.choose(pure_python=True))
>>> wm = PythonWordMap(data)
>>> code = lex.alphabet.encode
>>> wm.lookup(3, code("nt"), 1)          # one row-run per blank letter: a (ant, nat, tan), t: none
[(0, 3, b'\\x01')]
>>> wm.has_word(3, code("t"), 2), wm.has_word(3, code("n"), 2), wm.has_word(2, code("nt"), 0)
(True, True, False)
"""

from __future__ import annotations

import mmap
import zlib
from collections.abc import Sequence
from itertools import product

import numpy as np

from ...errors import FileFormatError, QueryError
from ..wordmap_layout import (
    ALIGN, DESCRIPTOR, HEADER, HEADER_SIZE, MAGIC, MAJOR, MAX_BLANKS, MAX_CODE, MAX_LENGTH, MAX_LOG2_BUCKETS,
    MIN_LOG2_BUCKETS, MULTIPLIER, RECORD, Descriptor, Header, bucket_of, key_fits, rank_table,
)

#: What a word map is read from: its bytes, or a read-only mapping of its file.
Mappable = bytes | bytearray | memoryview | mmap.mmap
#: A lookup's hits: (first row of the length's letters, row count, the blanks' letters as codes).
Hit = tuple[int, int, bytes]


def parse_word_map(buffer: Mappable, name: str = "<word map>") -> tuple[Header, list[Descriptor]]:
    """The header and table descriptors of a word map, every field checked against the file."""
    view = memoryview(buffer)
    size = len(view)
    if size < HEADER_SIZE or bytes(view[:8]) != MAGIC:
        raise FileFormatError(f"{name} is not a lexigraph word map (no magic number or truncated)")
    head = bytes(view[:HEADER_SIZE])
    (_, major, minor, header_size, file_size, lexicon_size, lexicon_crc, highest, max_blanks, low, high, _,
     crc_head, multiplier) = HEADER.unpack(head)
    if zlib.crc32(head[:44] + head[48:]) != crc_head:
        raise FileFormatError(f"{name}: the word map's header is corrupt (checksum mismatch)")
    if major != MAJOR or header_size != HEADER_SIZE:
        raise FileFormatError(f"{name}: word map format {major}.{minor} is not read by this lexigraph "
                              f"({MAJOR}.x); rebuild it with 'lexigraph build --word-map'")
    if file_size != size:
        raise FileFormatError(f"{name}: the word map is {'truncated' if size < file_size else 'too long'} "
                              f"(header says {file_size:,} bytes, file has {size:,})")
    if (multiplier != MULTIPLIER or head[56:64] != bytes(8) or not 1 <= highest <= MAX_CODE
            or max_blanks > MAX_BLANKS or not 1 <= low <= high <= MAX_LENGTH or not key_fits(highest, high)):
        raise FileFormatError(f"{name}: the word map's header is malformed")
    header = Header(file_size, lexicon_size, lexicon_crc, highest, max_blanks, low, high)
    end_of_directory = HEADER_SIZE + header.table_count * DESCRIPTOR.size
    if end_of_directory > size:
        raise FileFormatError(f"{name}: the word map's directory lies outside the file")
    descriptors = []
    for t in range(header.table_count):
        fields = DESCRIPTOR.unpack_from(view, HEADER_SIZE + t * DESCRIPTOR.size)
        d = Descriptor(*fields)
        _check_descriptor(d, low + t // (max_blanks + 1), t % (max_blanks + 1), end_of_directory, size, name)
        _check_directory(view, d, name)
        descriptors.append(d)
    return header, descriptors


def _check_descriptor(d: Descriptor, length: int, blanks: int, start: int, size: int, name: str) -> None:
    buckets = 1 << d.log2_buckets if MIN_LOG2_BUCKETS <= d.log2_buckets <= MAX_LOG2_BUCKETS else 0

    def inside(offset: int, length_bytes: int) -> bool:
        return offset % ALIGN == 0 and start <= offset and offset + length_bytes <= size

    ok = (
        d.length == length and d.blanks == blanks and buckets
        and inside(d.directory, 4 * (buckets + 1)) and inside(d.records, RECORD.size * d.count)
        and (inside(d.letters, d.words * length) and d.words < 1 << 32 if blanks == 0 else d.letters == d.words == 0)
    )
    if not ok:
        raise FileFormatError(f"{name}: the word map's table of length {length} with {blanks} blank(s) "
                              "does not fit the file")


def _check_directory(view: memoryview, d: Descriptor, name: str) -> None:
    starts = np.frombuffer(view, "<u4", (1 << d.log2_buckets) + 1, d.directory)
    if int(starts[0]) != 0 or int(starts[-1]) != d.count or bool((starts[1:] < starts[:-1]).any()):
        raise FileFormatError(f"{name}: the word map's bucket directory of length {d.length} with {d.blanks} "
                              "blank(s) is not in order")


class PythonWordMap:
    """A word map's lookups in Python (the twin of the C ``WordMap``); ``buffer`` is checked at once."""

    def __init__(self, buffer: Mappable, name: str = "<word map>") -> None:
        self.header, descriptors = parse_word_map(buffer, name)
        self.name = name
        self._buffer = memoryview(buffer)
        self._tables = {(d.length, d.blanks): d for d in descriptors}
        h = self.header
        self._ranks = rank_table(h.highest_code, h.max_length)

    def _key(self, sorted_codes: Sequence[int]) -> int:
        return sum(self._ranks[i][t] for i, t in enumerate(sorted_codes))

    def _probe(self, length: int, blanks: int, key: int) -> tuple[int, int] | None:
        d = self._tables[(length, blanks)]
        b = bucket_of(key, d.log2_buckets)
        at = d.directory + 4 * b
        first, stop = int.from_bytes(self._buffer[at : at + 4], "little"), int.from_bytes(self._buffer[at + 4 : at + 8],
                                                                                           "little")
        for r in range(first, stop):
            k, lo, hi = RECORD.unpack_from(self._buffer, d.records + RECORD.size * r)
            if k == key:
                if blanks == 0 and (hi == 0 or lo + hi > d.words):
                    raise FileFormatError(f"{self.name}: a word map record of length {length} points past its words")
                return lo, hi
            if k > key:
                break
        return None

    def _checked(self, length: int, codes: bytes, blanks: int) -> list[int]:
        h = self.header
        if not h.min_length <= length <= h.max_length:
            raise QueryError(f"the word map holds lengths {h.min_length} to {h.max_length}, not {length}")
        if not 0 <= blanks <= h.max_blanks:
            raise QueryError(f"the word map holds 0 to {h.max_blanks} blanks, not {blanks}")
        if len(codes) + blanks != length:
            raise QueryError(f"{len(codes)} tiles and {blanks} blank(s) do not make {length}")
        if any(not 1 <= c <= h.highest_code for c in codes):
            raise QueryError(f"a tile code outside 1..{h.highest_code}")
        return sorted(codes)

    def has_word(self, length: int, codes: bytes, blanks: int) -> bool:
        """Whether some word of ``length`` tiles is made of exactly ``codes`` and ``blanks`` blanks."""
        letters = self._checked(length, codes, blanks)
        return self._probe(length, blanks, self._key(letters)) is not None

    def lookup(self, length: int, codes: bytes, blanks: int) -> list[Hit]:
        """The words of ``length`` tiles made of exactly ``codes`` and ``blanks`` blanks, one hit per blank
        letters (ascending): (first row, rows, the blanks' codes ascending)."""
        letters = self._checked(length, codes, blanks)
        if blanks == 0:
            found = self._probe(length, 0, self._key(letters))
            return [(found[0], found[1], b"")] if found else []
        hits: list[Hit] = []
        for c in self._mask_letters(length, blanks, letters, 1):
            with_c = sorted([*letters, c])
            if blanks == 1:
                found = self._probe(length, 0, self._key(with_c))
                if found:
                    hits.append((found[0], found[1], bytes([c])))
                continue
            for d in self._mask_letters(length, 1, with_c, c):
                found = self._probe(length, 0, self._key(sorted([*with_c, d])))
                if found:
                    hits.append((found[0], found[1], bytes([c, d])))
        return hits

    def _mask_letters(self, length: int, blanks: int, letters: list[int], lowest: int) -> list[int]:
        """The letters (from ``lowest``) of the mask of the ``blanks``-blank table at ``letters``."""
        found = self._probe(length, blanks, self._key(letters))
        if not found:
            return []
        mask = found[1] << 32 | found[0]
        return [c for c in range(lowest, self.header.highest_code + 1) if mask >> c & 1]

    def lookup_many(self, length: int, codes: bytes, blanks: int) -> int:
        """Rows of ``length - blanks`` codes looked up one after another: the number of words found in all."""
        n = length - blanks
        if n < 0 or (len(codes) % n if n else len(codes)):
            raise QueryError(f"{len(codes)} codes are not rows of {n}")
        rows = [codes[i : i + n] for i in range(0, len(codes), n)] if n else [b""]
        return sum(count for row in rows for _, count, _ in self.lookup(length, row, blanks))

    def playable_lengths(self, codes: bytes, blanks: int) -> int:
        """Bit m set iff some m of the rack's tiles (``codes`` and ``blanks`` blanks) make a word (m mapped);
        a rack of at most 15 tiles (``lx_wordmap_playable_lengths``)."""
        h = self.header
        if len(codes) + blanks > 15 or not 0 <= blanks <= h.max_blanks or any(
                not 1 <= c <= h.highest_code for c in codes):
            raise QueryError("a rack the word map does not hold (at most 15 tiles, blanks or codes)")
        letters = sorted(set(codes))
        found = 0
        for counts in product(*(range(codes.count(c) + 1) for c in letters)):
            chosen = [c for c, k in zip(letters, counts) for _ in range(k)]
            for b in range(blanks + 1):
                length = len(chosen) + b
                if h.min_length <= length <= h.max_length and not found >> length & 1 and self._probe(
                        length, b, self._key(chosen)) is not None:
                    found |= 1 << length
        return found
