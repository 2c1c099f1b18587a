"""The word map file (``NAME.lxw``), built from a lexicon: for each length, the words each multiset makes.

For each word length L the map holds three hash tables (``docs/format.md``
gives every byte): the distinct multisets of L tiles, each with its words
(rows of the length's letters, in the lexicon's alphagram order); the
multisets of L - 1 tiles that one blank completes, with the letters the blank
can be; and the multisets of L - 2 tiles that two blanks complete, with the
letters the first (smaller) blank can be. Move generation looks plays up in
it instead of walking the word graph (MAGPIE's idea; the keys here are exact
64-bit multiset ranks, so a record is 16 bytes, not 32).

The tables of one length are built by a kernel of :class:`.kernels.BuildKernels`
(``native/wordmap_build.c``, or :func:`.word_map_tables.word_map_tables_numpy`) from the
length's alphagrams; both write the same bytes. This module lays the file out
around them and writes it atomically.

>>> import lexigraph, tempfile, os
>>> lex = lexigraph.load(["ant", "tan", "nat", "tat", "at", "ta"])
>>> with tempfile.TemporaryDirectory() as folder:
...     path = os.path.join(folder, "tiny.lxw")
...     info = build_word_map(lex.store, path, pure_python=True)
...     (info.tables, info.records)
(6, 13)
"""

from __future__ import annotations

import os
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from ..engine.store import Store
from ..engine.wordmap import WordMap, lexicon_identity, open_word_map
from ..engine.wordmap_layout import (
    DESCRIPTOR, HEADER, HEADER_SIZE, MAGIC, MAJOR, MAX_BLANKS, MAX_CODE, MAX_LENGTH, MIN_LENGTH, MINOR,
    MULTIPLIER, RECORD, SUFFIX, aligned, key_fits, word_map_path,
)
from ..errors import BuildError, FileFormatError
from ..support.files import write_atomic
from .cache import cache_dir
from .kernels import BuildKernels

#: ``progress(stage, done, total)``, as the lexicon's build reports: here ``("word map", lengths done, lengths)``.
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class WordMapInfo:
    """What a build wrote: the path, its size, the tables and records, the lengths and the seconds it took."""

    path: str
    bytes: int
    tables: int
    records: int
    min_length: int
    max_length: int
    max_blanks: int
    seconds: float


def mapped_lengths(store: Store) -> tuple[int, int]:
    """The shortest and longest length a map of this lexicon holds (every length whose keys fit 64 bits)."""
    highest = len(store.alphabet)
    longest = max(store.lengths, default=0)
    top = MIN_LENGTH - 1
    while top < min(longest, MAX_LENGTH) and key_fits(highest, top + 1):
        top += 1
    return MIN_LENGTH, top


def check_mappable(store: Store, max_blanks: int) -> None:
    """A :class:`BuildError` unless a word map of this lexicon can be built."""
    if type(max_blanks) is not int or not 0 <= max_blanks <= MAX_BLANKS:
        raise BuildError(f"a word map holds 0, 1 or 2 blanks, not {max_blanks!r}")
    if not 1 <= len(store.alphabet) <= MAX_CODE:
        raise BuildError(f"a word map needs an alphabet of 1 to {MAX_CODE} tiles; this one has {len(store.alphabet)}")
    low, high = mapped_lengths(store)
    if high < low:
        raise BuildError(f"the lexicon has no word of {MIN_LENGTH} tiles or more: a word map would be empty")


def word_map_bytes(store: Store, *, max_blanks: int = MAX_BLANKS, kernels: BuildKernels | None = None,
                   progress: Progress | None = None) -> tuple[bytes, int]:
    """The word map of a lexicon as the bytes of its file, and its number of records."""
    check_mappable(store, max_blanks)
    kernels = kernels or BuildKernels.choose()
    low, high = mapped_lengths(store)
    highest = len(store.alphabet)
    descriptors_at = HEADER_SIZE
    at = aligned(descriptors_at + (high - low + 1) * (max_blanks + 1) * DESCRIPTOR.size)
    parts: list[bytes] = []
    descriptors: list[bytes] = []
    records = 0

    def place(data: bytes) -> int:
        nonlocal at
        where = at
        parts.append(data + bytes(aligned(len(data)) - len(data)))
        at += aligned(len(data))
        return where

    for done, length in enumerate(range(low, high + 1)):
        if progress:
            progress("word map", done, high - low + 1)
        if store.bucket(length):
            alphagrams = store.alphagrams(length)
            letters = store.rows(length)[store.alphagram_order(length)]
        else:
            alphagrams = letters = np.zeros((0, length), np.uint8)
        letters_at = place(np.ascontiguousarray(letters, np.uint8).tobytes())
        for blanks, (directory, table, log2) in enumerate(kernels.word_map_tables(alphagrams, highest, max_blanks)):
            count = len(table) // RECORD.size
            records += count
            directory_at = place(directory)
            table_at = place(table)
            descriptors.append(DESCRIPTOR.pack(directory_at, table_at, count, log2, length, blanks,
                                               letters_at if blanks == 0 else 0, len(letters) if blanks == 0 else 0))
    if progress:
        progress("word map", high - low + 1, high - low + 1)
    directory_block = b"".join(descriptors)
    directory_block += bytes(aligned(HEADER_SIZE + len(directory_block)) - HEADER_SIZE - len(directory_block))
    body_crc = zlib.crc32(directory_block)
    for part in parts:  # part by part: the body is joined once, with the header
        body_crc = zlib.crc32(part, body_crc)
    lexicon_size, lexicon_crc = lexicon_identity(store)
    head = HEADER.pack(MAGIC, MAJOR, MINOR, HEADER_SIZE, at, lexicon_size, lexicon_crc,
                       highest, max_blanks, low, high, body_crc, 0, MULTIPLIER)
    head = head[:44] + zlib.crc32(head[:44] + head[48:]).to_bytes(4, "little") + head[48:]
    assert len(head) == HEADER_SIZE and at == HEADER_SIZE + len(directory_block) + sum(map(len, parts))
    return b"".join([head, directory_block, *parts]), records


def build_word_map(store: Store, dest: str | os.PathLike[str], *, max_blanks: int = MAX_BLANKS,
                   pure_python: bool = False, progress: Progress | None = None,
                   inputs: Iterable[object] = ()) -> WordMapInfo:
    """Build the word map of an open lexicon's store and write it to ``dest`` atomically.

    ``pure_python`` builds it with the NumPy kernels (the C ones otherwise,
    when the extension is built): the file is the same byte for byte. The
    lexicon's file and ``inputs`` are never written over.
    """
    start = time.perf_counter()
    data, records = word_map_bytes(store, max_blanks=max_blanks, kernels=BuildKernels.choose(pure_python),
                                   progress=progress)
    if progress:
        progress("writing", 0, 1)
    write_atomic(dest, data, inputs=[store.name, *inputs])
    low, high = mapped_lengths(store)
    return WordMapInfo(os.fspath(dest), len(data), (high - low + 1) * (max_blanks + 1), records, low, high,
                       max_blanks, time.perf_counter() - start)


def cached_word_map_path(store: Store, max_blanks: int = MAX_BLANKS) -> str | None:
    """Where the cache keeps the word map of this lexicon (keyed by its size and checksum), or None (no cache)."""
    folder = cache_dir()
    if folder is None:
        return None
    size, crc = lexicon_identity(store)
    return os.fspath(folder / "wordmaps" / f"{crc:08x}-{size}-b{max_blanks}{SUFFIX}")


def word_map_for(store: Store, lexicon_path: str, kind: str, *, build: bool = True,
                 max_blanks: int = MAX_BLANKS) -> WordMap | None:
    """The word map of an open lexicon: the one beside its file, else the cache's, else (``build``) one built
    now, written to the cache atomically (or kept in memory when the cache is off); None when there is none.

    A file beside the lexicon or in the cache that was built for another lexicon (the lexicon was rebuilt) or
    is damaged is passed over, and the cache's is rebuilt. Lookups run in ``kind`` ("c" or "python").
    """
    cached = cached_word_map_path(store, max_blanks)
    for candidate in (word_map_path(lexicon_path), cached):
        if candidate and os.path.isfile(candidate):
            try:
                return open_word_map(candidate, store, kind)
            except FileFormatError:
                continue
    if not build:
        return None
    if cached is None:
        data, _ = word_map_bytes(store, max_blanks=max_blanks, kernels=BuildKernels.choose(kind == "python"))
        return WordMap(data, store, kind, "<word map in memory>", verify=False)
    os.makedirs(os.path.dirname(cached), exist_ok=True)
    build_word_map(store, cached, max_blanks=max_blanks, pure_python=kind == "python")
    return open_word_map(cached, store, kind)
