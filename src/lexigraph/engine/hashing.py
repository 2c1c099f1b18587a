"""The hash index's slot formula, the one Python definition (``native/hash.h`` is its C twin).

A word's *home slot* in its length's table of ``home`` home slots is
``crc32(codes) * home >> 32``: zlib's CRC-32 of its tile codes, scaled to
the table by a multiplication instead of a modulo. The builder places words
with it, the probes find them with it; a test holds the C formula to this
one.

>>> home_slot(b"\\x01\\x02", 1000) == (__import__("zlib").crc32(b"\\x01\\x02") * 1000) >> 32
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from zlib import crc32

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np


def home_slot(codes: bytes, home: int) -> int:
    """The first slot a probe for ``codes`` looks at, in a table of ``home`` home slots."""
    return (crc32(codes) * home) >> 32


def home_slots(crcs: "np.ndarray", home: int) -> "np.ndarray":
    """:func:`home_slot` of many words at once, given their CRC-32s (:func:`crc32_rows`)."""
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    return ((crcs.astype(np.uint64) * np.uint64(home)) >> np.uint64(32)).astype(np.int64)


_CRC_TABLE: "np.ndarray | None" = None


def crc32_rows(rows: "np.ndarray") -> "np.ndarray":
    """zlib's CRC-32 of every row of a 2-D uint8 array, a column at a time.

    >>> import numpy as np
    >>> int(crc32_rows(np.array([[1, 2]], np.uint8))[0]) == crc32(b"\\x01\\x02")
    True
    """
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    global _CRC_TABLE
    if _CRC_TABLE is None:
        table = np.arange(256, dtype=np.uint32)
        for _ in range(8):
            table = np.where(table & 1, (table >> np.uint32(1)) ^ np.uint32(0xEDB88320), table >> np.uint32(1))
        _CRC_TABLE = table.astype(np.uint32)
    crc = np.full(len(rows), 0xFFFFFFFF, np.uint32)
    eight = np.uint32(8)
    for j in range(rows.shape[1]):
        crc = _CRC_TABLE[(crc ^ rows[:, j]) & np.uint32(0xFF)] ^ (crc >> eight)
    return crc ^ np.uint32(0xFFFFFFFF)


def lookup_rows(table: "np.ndarray", size: int, bucket: "np.ndarray", rows: "np.ndarray") -> "np.ndarray":
    """For each row of ``rows`` (words of the bucket's length): is it in ``bucket``?

    Probes as the single-word paths do: forward from the home slot to the
    table's end, stopping at an empty slot or one that points past the bucket.
    """
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    n = len(rows)
    found = np.zeros(n, bool)
    if not n or not len(bucket) or not len(table):
        return found
    width = rows.shape[1]
    q = np.ascontiguousarray(rows).view(f"V{width}").ravel()
    b = np.ascontiguousarray(bucket).view(f"V{width}").ravel()
    pos = home_slots(crc32_rows(rows), size)
    live = np.arange(n)
    end = len(table)
    while len(live):
        inside = pos < end
        ids = table[np.minimum(pos, end - 1)].astype(np.int64) - 1
        full = inside & (ids >= 0) & (ids < len(b))
        hit = np.zeros(len(live), bool)
        hit[full] = b[ids[full]] == q[live[full]]
        found[live[hit]] = True
        go = full & ~hit
        live, pos = live[go], pos[go] + 1
    return found
