"""Rotation orders: a length bucket's rows sorted by their tiles read from a given position onward.

A crossword pattern that opens with a wildcard, such as ``??ox??``, gives
the word graph nothing to follow and a prefix search nothing to narrow, so
without help it scans every row of its length. Read from the ``o``, though,
and wrapped around (``ox????``), the words it wants share a prefix: in the
bucket's rows sorted by their *rotation* at that position, they form one
range, found by binary search. Its cost follows the words that hold the run
of fixed tiles, not the list.

The C probe goes further with a pattern such as ``?a??e?t?``: it descends
the sorted keys like a trie, narrowing at each fixed tile and visiting
each tile present at a wildcard, so fixed tiles after a gap narrow too,
and it reads the pattern from the start (the word graph from the first
cell, or one rotation) that an estimate of the nodes visited favours. The
NumPy twin here narrows by the longest run and tests the other cells
column by column; both give the same rows.

A rotation's sort key is its first :data:`KEY_TILES` tiles packed into a
64-bit integer, most significant first; a run longer than that narrows by
its first tiles, and the caller tests the rest. Orders are built on first
use, per length and start, and kept for the store's lifetime (``n`` four-
and eight-byte entries for a bucket of ``n`` words). The C probe builds the
same orders itself (``native/rotation.c``, a radix sort).

>>> import lexigraph
>>> store = lexigraph.open().store
>>> codes = store.alphabet.encode("ox")
>>> best_run([None, None, codes[0], codes[1], None, None])
(2, 2)
>>> store.words_of_ids(run_rows(store, 6, 2, codes) + store.bucket(6).first)[:3]
['anoxia', 'anoxic', 'dioxan']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import QueryError
from .store import Store

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
else:
    from ..support.lazy import Lazy

    np = Lazy("numpy")

#: Tiles of a rotation its sort key holds.
KEY_TILES = 8


def best_run(tiles: Sequence[int | None]) -> tuple[int, int] | None:
    """``(start, length)`` of the longest run of fixed tiles, wrapping round the end; None when none is fixed.

    ``tiles`` holds a pattern's cells: a tile code where the cell allows one
    tile, None elsewhere. On ties the earliest start wins (the C probe
    chooses by the same rule).

    >>> best_run([None, 3, None, 4, 5]), best_run([1, None, 2, 3]), best_run([None, None])
    ((3, 2), (2, 3), None)
    """
    n = len(tiles)
    if all(t is not None for t in tiles):
        return (0, n) if n else None
    best: tuple[int, int] | None = None
    for start in range(n):
        if tiles[start] is None or tiles[start - 1] is not None:
            continue  # not where a run begins (start - 1 wraps round to the last cell)
        length = 1
        while tiles[(start + length) % n] is not None:
            length += 1
        if best is None or length > best[1]:
            best = (start, length)
    return best


def order(store: Store, length: int, start: int) -> tuple["np.ndarray", "np.ndarray"]:
    """``(keys, rows)``: the bucket's rows sorted by their rotation at ``start``, with their sort keys.

    ``rows`` are row numbers (ties in row order), ``keys`` ascending.

    >>> import lexigraph
    >>> store = lexigraph.open(["cab", "abc", "bca"]).store
    >>> keys, rows = order(store, 3, 1)
    >>> store.words_of_ids(rows.astype("int64") + store.bucket(3).first)  # by "bc"+"a", "ab"+"c", "ca"+"b"
    ['cab', 'abc', 'bca']
    """
    return store.cached(("rotation", length, start), lambda: _build(store, length, start))


def _build(store: Store, length: int, start: int) -> tuple["np.ndarray", "np.ndarray"]:
    rows = store.rows(length)
    keys = np.zeros(len(rows), np.uint64)
    for j in range(min(length, KEY_TILES)):
        keys |= rows[:, (start + j) % length].astype(np.uint64) << np.uint64(8 * (KEY_TILES - 1 - j))
    sorted_rows = np.argsort(keys, kind="stable")
    return keys[sorted_rows], sorted_rows.astype(np.uint32)


def run_rows(store: Store, length: int, start: int, tiles: bytes) -> "np.ndarray":
    """Rows of the ``length`` bucket whose tiles from ``start`` on (wrapping) begin with ``tiles``, ascending.

    Only the first :data:`KEY_TILES` tiles narrow the range: with a longer
    run, rows that hold its first tiles only are in it too.
    """
    if not 0 <= start < length or not tiles:
        raise QueryError("a run must start inside the word and hold a tile")
    keys, rows = order(store, length, start)
    head = tiles[:KEY_TILES]
    pad = KEY_TILES - len(head)
    low = int.from_bytes(head + b"\0" * pad, "big")
    high = int.from_bytes(head + b"\xff" * pad, "big")
    lo = int(np.searchsorted(keys, np.uint64(low), "left"))
    hi = int(np.searchsorted(keys, np.uint64(high), "right"))
    return np.sort(rows[lo:hi].astype(np.int64))
