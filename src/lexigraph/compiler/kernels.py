"""The build's hot loops, in C or in Python: chosen once per build, held by it and handed down.

A build runs five kernels: the scan of a plain ASCII list
(:meth:`~BuildKernels.scan_ascii`), the words of one length cut into a
bucket's rows (:meth:`~BuildKernels.bucket_rows`), the bucket's hash table
(:meth:`~BuildKernels.hash_table`) and alphagram order
(:meth:`~BuildKernels.alphagram_order`), and the word graph
(:meth:`~BuildKernels.lexicon_graph`). Each runs in C (``lexigraph._native``:
``native/build_scan.c``, ``build_tables.c``, ``build_graph.c``) or as its
NumPy twin (:mod:`.scan`, :mod:`.buckets`, :mod:`.hash_tables`,
:mod:`.graph_builder`), and both write the same bytes.

:meth:`BuildKernels.choose` is the one choice: C unless the build was asked
for Python (``pure_python=True``, as a lexicon opened ``pure_python=True``
asks), ``LEXIGRAPH_PURE_PYTHON`` is set, or the extension is not built. A
build chooses once and hands the kernels down; no kernel asks again, so a
build asked for Python calls no C function.

>>> BuildKernels.choose(pure_python=True).kind
'python'
>>> rows = np.array([[3, 1], [1, 2], [2, 1]], np.uint8)
>>> [BuildKernels.choose(pure_python=p).alphagram_order(rows).tolist() for p in (False, True)]
[[1, 2, 0], [1, 2, 0]]
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from ..buildinfo import c_module
from ..engine.wordgraph import MAX_ARCS
from ..errors import BuildError
from .buckets import alphagram_order_numpy, bucket_rows_numpy
from .graph_builder import lexicon_graph_numpy
from .hash_tables import build_table_numpy, home_size, slot_dtype
from .scan import CHAR_CAP, MAX_LENGTH, Scan, scan_ascii_numpy
from .word_map_tables import word_map_tables_numpy


class BuildKernels:
    """The five kernels of a build, all in C or all in Python (:attr:`kind`)."""

    def __init__(self, native: object | None) -> None:
        # The C extension module (lexigraph/_native.pyi types its functions), or None for the NumPy twins.
        self._native: Any = native

    @classmethod
    def choose(cls, pure_python: bool = False) -> "BuildKernels":
        """C unless ``pure_python``, ``LEXIGRAPH_PURE_PYTHON`` or an extension that is not built says Python."""
        return cls(None if pure_python else c_module("_native"))

    @property
    def kind(self) -> Literal["c", "python"]:
        """``"c"`` or ``"python"``: where every kernel of this build runs."""
        return "python" if self._native is None else "c"

    def scan_ascii(self, data: bytes, table: bytes | None, min_length: int, max_length: int) -> Scan | None:
        """A plain ASCII list's words as tile codes in one scan (:func:`.scan.scan_ascii_numpy` says what)."""
        if not 1 <= min_length <= max_length <= MAX_LENGTH:
            raise BuildError(f"need 1 <= min_length <= max_length <= {MAX_LENGTH}")
        ext = self._native
        if ext is None:
            return scan_ascii_numpy(data, table, min_length, max_length)
        out = ext.scan_ascii(data, table, min_length, max_length, CHAR_CAP)
        if out is None:
            return None
        codes, lens, upper, lines, present, short, long, ordered = out
        letters = "".join(chr(97 + c) for c in range(26) if present >> c & 1)
        return Scan(np.frombuffer(codes, np.uint8), np.frombuffer(lens, np.uint8).astype(np.int64),
                    np.frombuffer(upper, np.uint8).astype(bool), lines, letters, short, long, ordered)

    def bucket_rows(self, flat: np.ndarray, starts: np.ndarray, ids: np.ndarray, length: int) -> bytes:
        """The words ``ids`` of one length (word i: ``flat[starts[i]:starts[i] + length]``), row after row."""
        ext = self._native
        if ext is None or length < 1:
            return bucket_rows_numpy(flat, starts, ids, length)
        data: bytes = ext.bucket_rows(np.ascontiguousarray(flat, np.uint8), np.ascontiguousarray(starts, np.int64),
                                      np.ascontiguousarray(ids, np.int64), length)
        return data

    def hash_table(self, rows: np.ndarray) -> tuple[np.ndarray, int]:
        """One length bucket's hash table and its home size (:func:`.hash_tables.build_table_numpy` says how)."""
        ext = self._native
        n = len(rows)
        if ext is None or not n or rows.ndim != 2 or not rows.shape[1]:
            return build_table_numpy(rows)
        size = home_size(n)
        data = ext.hash_table(np.ascontiguousarray(rows, np.uint8), n, rows.shape[1], size)
        return np.frombuffer(data, "<u4").astype(slot_dtype(n)), size

    def alphagram_order(self, rows: np.ndarray) -> np.ndarray:
        """A bucket's rows ordered by their alphagrams, ties by row (:func:`.buckets.alphagram_order_numpy`)."""
        ext = self._native
        count, length = rows.shape
        if ext is None or not count or not length:
            return alphagram_order_numpy(rows)
        data = ext.alphagram_order(np.ascontiguousarray(rows, np.uint8), count, length)
        return np.frombuffer(data, "<u4").astype(slot_dtype(count + 1))

    def lexicon_graph(self, flat: np.ndarray, starts: np.ndarray, lens: np.ndarray) -> tuple[bytes, int]:
        """The lexicon's word graph of words in strictly increasing code order: its arc records as a file
        stores them (little-endian), and the root (:func:`.graph_builder.lexicon_graph_numpy`)."""
        ext = self._native
        if ext is not None:
            out = ext.build_graph(np.ascontiguousarray(flat, np.uint8), np.ascontiguousarray(starts, np.int64),
                                  np.ascontiguousarray(lens, np.int64), MAX_ARCS)
            if out is not None:  # None: a signature collision, which the NumPy code settles
                data, root = out
                if data is None:
                    raise BuildError(f"word graph needs {root:,} arcs; the format holds at most {MAX_ARCS - 1:,}")
                return data, int(root)
        return lexicon_graph_numpy(flat, starts, lens)

    def word_map_tables(self, alphagrams: np.ndarray, highest_code: int,
                        max_blanks: int) -> list[tuple[bytes, bytes, int]]:
        """One length's word map tables for 0 .. ``max_blanks`` blanks (:func:`.word_map_tables.word_map_tables_numpy`
        says what): each a bucket directory, its records and log2 of its bucket count."""
        ext = self._native
        count, length = alphagrams.shape
        if ext is None or not count:
            return word_map_tables_numpy(alphagrams, highest_code, max_blanks)
        out: list[tuple[bytes, bytes, int]] = ext.word_map_tables(np.ascontiguousarray(alphagrams, np.uint8), count,
                                                                   length, highest_code, max_blanks)
        return out
