"""The exact-match index: one open-addressing hash table per word length.

A word's home slot is ``crc32(codes) * size >> 32`` (zlib's CRC-32 of its
tile codes, scaled onto the table's ``size`` home slots; the one definition
is :mod:`lexigraph.engine.hashing`). Slots hold the
word's row in its length bucket plus one (0: empty). Collisions probe
forward without wrapping into an overflow tail whose last slot is always
empty, so every probe sequence ends inside the table, even in a corrupt
one. The same hash runs as one C call in the single-word path and as a
few array passes (a table-driven CRC) in the batch path.
"""

from __future__ import annotations

import numpy as np

from ..engine import hashing

LOAD = 0.35


def home_size(n_words: int) -> int:
    """Number of home slots for ``n_words`` words."""
    return max(2, int(n_words / LOAD) + 1)


def build_table_numpy(rows: np.ndarray) -> tuple[np.ndarray, int]:
    """The table for one length bucket; returns ``(slots, home_size)``.

    The slot array is longer than ``home_size`` by the overflow that linear
    probing needed, plus one empty slot that ends every probe sequence. (The
    C twin is ``native/build_tables.c``; the build chooses, :mod:`.kernels`.)

    >>> rows = np.array([[1, 2], [2, 1], [3, 3]], np.uint8)
    >>> table, size = build_table_numpy(rows)
    >>> size, sorted(table[table > 0].tolist())
    (9, [1, 2, 3])
    """
    n = len(rows)
    size = home_size(n)
    pos = hashing.home_slots(hashing.crc32_rows(rows), size)
    table = np.zeros(size + 64, np.uint32)
    pending = np.arange(n, dtype=np.int64)
    while len(pending):
        need = int(pos.max()) + 2
        if need > len(table):
            table = np.concatenate([table, np.zeros(need - len(table) + 64, np.uint32)])
        free = table[pos] == 0
        slots, first = np.unique(pos[free], return_index=True)
        table[slots] = (pending[free][first] + 1).astype(np.uint32)
        placed = np.zeros(len(pending), bool)
        placed[np.flatnonzero(free)[first]] = True
        pending = pending[~placed]
        pos = pos[~placed] + 1
    used = int(np.flatnonzero(table)[-1]) + 1 if n else 0
    table = table[: max(used, size) + 1]
    # Row numbers fit 16 bits in all but huge buckets: half the cache misses.
    return table.astype(slot_dtype(n)), size


def slot_dtype(n_words: int) -> str:
    """The slots' type: 16 bits for fewer than 65,535 words, else 32."""
    return "<u2" if n_words < 0xFFFF else "<u4"
