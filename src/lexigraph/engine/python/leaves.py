"""A rack's leave values in Python: the twin of the C leave table (``native/leaves.c``), held to the same answers.

The table comes as sorted uint64 keys (a leave's sorted tile codes, 6 bits
each, its length in the top 4 bits) and a float64 per key, as
:attr:`lexigraph.scrabble.leaves.LeaveTable.packed` makes them. Every subset
of the rack a play may use is visited in index order (mixed radix over the
rack's codes, ascending, the first code turning fastest) and the leave it
keeps is looked up.

>>> import struct
>>> keys = struct.pack("<2Q", 1 << 60 | 19, 2 << 60 | 19 | 19 << 6)      # S, SS (see interface.leave_key)
>>> values = struct.pack("<2d", 8.0, 5.5)
>>> struct.unpack("<3d", rack_leave_values(keys, values, bytes(19) + b"\\x02"))   # used: none, one S, both
(5.5, 8.0, 0.0)
"""

from __future__ import annotations

import numpy as np

from ..interface import LEAVE_KEY_TILES as KEY_TILES
from .movegen import MAX_RACK_SUBSETS


def rack_leave_values(keys: bytes, values: bytes, rack: bytes) -> bytes:
    """A float64 per subset of ``rack`` (a count per tile code): the value of the leave it keeps, or 0."""
    if len(keys) % 8 or len(values) != len(keys) or len(rack) > 64:
        raise ValueError("rack_leave_values: inconsistent arguments")
    # A binary search per subset over the sorted keys, as the C twin does: a table of every leave up to six
    # tiles holds 914,624, too many to turn into a dict on each call.
    sorted_keys = np.frombuffer(keys, "<u8")
    sorted_values = np.frombuffer(values, "<f8")
    codes = [(code, count) for code, count in enumerate(rack) if count]
    size = 1
    for _code, count in codes:
        size *= count + 1
    if size > MAX_RACK_SUBSETS:
        raise ValueError("rack_leave_values: the rack has too many subsets")
    total = sum(count for _code, count in codes)
    digits = [0] * len(codes)
    wanted: list[int] = []
    for _index in range(size):
        kept = total - sum(digits)
        key = 0  # no key has length 0: worth 0
        if 0 < kept <= KEY_TILES:
            key = kept << 60
            at = 0
            for (code, count), used in zip(codes, digits):
                for _ in range(count - used):
                    key |= code << (6 * at)
                    at += 1
        wanted.append(key)
        for d, (_code, count) in enumerate(codes):
            digits[d] += 1
            if digits[d] <= count:
                break
            digits[d] = 0
    asked = np.array(wanted, np.uint64)
    if not len(sorted_keys):
        return bytes(8 * size)
    place = np.minimum(np.searchsorted(sorted_keys, asked), len(sorted_keys) - 1)
    out = np.where((sorted_keys[place] == asked) & (asked != 0), sorted_values[place], 0.0)
    return out.astype("<f8").tobytes()
