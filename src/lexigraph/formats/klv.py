"""KLV and KLV2: the leave tables of wolges (and of the engines that share its files), read and written.

A leave table gives a value to each multiset of tiles a player may keep.
The file holds the leaves as the words of a KWG word graph (DAWG only, tiles
sorted within each leave, the blank as tile 0) and one value per leave in the
graph's word order (which is the leaves' sorted order):

    u32 node count N, N KWG nodes (u32 each, see lexigraph.formats.kwg),
    u32 value count V, V values

all little-endian. **KLV2** stores each value as a float32; the older
**KLV** as an int16 in 1/256 points. A reader tells them apart by what
follows: room for V float32s means KLV2. wolges's ``buildlex english-klv2
LEAVES.csv OUT.klv2`` writes KLV2 from a CSV of ``leave,value`` lines;
:func:`build` writes the same bytes (the graph laid out as wolges lays it
out, each value the float32 nearest its decimal text, as Rust reads it).

>>> data = build({b"\\x00": 25.5, b"\\x01": 1.0, b"\\x00\\x01": 20.25})
>>> read(data)
{b'\\x00': 25.5, b'\\x00\\x01': 20.25, b'\\x01': 1.0}
>>> read(build({b"\\x01": -0.5}, kind="klv"))
{b'\\x01': -0.5}
"""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping
from fractions import Fraction
from typing import Literal

import numpy as np

from . import kwg
from ..errors import SourceError

#: The two kinds: float32 values, or int16 values in 1/256 points.
KlvKind = Literal["klv2", "klv"]
#: What an int16 value of a KLV file counts: 1/256 of a point.
KLV_SCALE = 256


class KlvError(SourceError):
    """A KLV or KLV2 file is malformed, or a table cannot be written as one."""


def looks_like(data: bytes) -> bool:
    """The header's node count fits the file and its first node is a root pointer."""
    if len(data) < 12:
        return False
    count = int.from_bytes(data[:4], "little")
    end = 4 + 4 * count
    root = int.from_bytes(data[4:8], "little")
    return 1 <= count and end + 4 <= len(data) and root >> 22 == 1 and (root & kwg.ARC_MASK) < count


def kind_of(data: bytes, *, what: str = "leave table") -> KlvKind:
    """``"klv2"`` or ``"klv"``, as a reader of the file decides (see the module docstring)."""
    _graph, _count, _start, kind = _layout(data, what)
    return kind


def _layout(data: bytes, what: str) -> tuple[bytes, int, int, KlvKind]:
    if len(data) < 8:
        raise KlvError(f"{what}: {len(data)} bytes is too short for a leave table")
    nodes = int.from_bytes(data[:4], "little")
    end = 4 + 4 * nodes
    if nodes < 1 or end + 4 > len(data):
        raise KlvError(f"{what}: the header counts {nodes:,} graph nodes, more than the file holds")
    count = int.from_bytes(data[end : end + 4], "little")
    start = end + 4
    rest = len(data) - start
    if rest >= 4 * count:
        kind: KlvKind = "klv2"
        size = 4 * count
    else:
        kind = "klv"
        size = 2 * count
    if rest != size:
        raise KlvError(f"{what}: {rest} bytes follow the graph; {count:,} values take {2 * count} (KLV) "
                       f"or {4 * count} (KLV2)")
    return data[4:end], count, start, kind


def read(data: bytes, *, what: str = "leave table") -> dict[bytes, float]:
    """The table: each leave (its tiles as sorted tile numbers, 0 the blank) and its value (a float, exactly
    the file's float32, or its int16 / 256); :func:`read_arrays` as a dict."""
    rows, lengths, values = read_arrays(data, what=what)
    return {bytes(row[:n]): value for row, n, value in zip(rows.tolist(), lengths.tolist(), values.tolist())}


def read_arrays(data: bytes, *, what: str = "leave table") -> tuple["np.ndarray", "np.ndarray", "np.ndarray"]:
    """The table in bulk, in the file's order (leaves sorted as byte strings, as their values are stored):
    ``rows`` (one leave per row, tile numbers ascending, zero-padded), ``lengths`` and ``values`` (float64,
    exactly the file's float32, or its int16 / 256), with no object per leave.
    """
    graph, count, start, kind = _layout(data, what)
    by_length = kwg.read_code_rows(graph, what=what)
    total = sum(len(rows) for rows in by_length.values())
    if total != count:
        raise KlvError(f"{what}: the graph holds {total:,} leaves but the file has {count:,} values")
    width = max(by_length, default=1)
    padded = np.full((total, width), -1, np.int16)  # -1 after a leave's end: a shorter leave sorts first
    lengths = np.empty(total, np.int64)
    at = 0
    for length, rows in sorted(by_length.items()):
        if length and (np.diff(rows.astype(np.int16), axis=1) < 0).any():
            bad = rows[np.flatnonzero((np.diff(rows.astype(np.int16), axis=1) < 0).any(axis=1))[0]]
            raise KlvError(f"{what}: the leave {bad.tolist()} is not in tile order")
        padded[at : at + len(rows), :length] = rows
        lengths[at : at + len(rows)] = length
        at += len(rows)
    order = np.lexsort(padded.T[::-1]) if total else np.zeros(0, np.int64)
    rows_out = np.where(padded[order] < 0, 0, padded[order]).astype(np.uint8)
    if kind == "klv2":
        values = np.frombuffer(data, "<f4", count, start).astype(np.float64)
        if not np.isfinite(values).all():
            raise KlvError(f"{what}: a leave's value is {values[~np.isfinite(values)][0]}")
    else:
        values = np.frombuffer(data, "<i2", count, start).astype(np.float64) / KLV_SCALE
    return rows_out, lengths[order], values


def build(values: Mapping[bytes, float], *, kind: KlvKind = "klv2") -> bytes:
    """A KLV2 (or KLV) file of ``values``: leave (tile numbers, any order; 0 the blank) to value.

    KLV2 stores each value as the nearest float32, KLV as the nearest int16
    count of 1/256 points (a value beyond that range is refused).
    """
    by_leave: dict[bytes, float] = {}
    for leave, value in values.items():
        key = bytes(sorted(leave))
        if not key:
            raise KlvError("a leave table holds leaves of one tile or more; the empty leave has no entry")
        if key in by_leave:
            raise KlvError(f"the leave {list(key)} is given twice")
        if not math.isfinite(value):
            raise KlvError(f"the leave {list(key)} has the value {value}")
        by_leave[key] = value
    leaves = sorted(by_leave)
    for leave in leaves:
        if max(leave) > kwg.MAX_TILE:
            raise KlvError(f"a leave table holds tiles 0 to {kwg.MAX_TILE}; a leave uses tile {max(leave)}")
    graph = kwg.layout(leaves, gaddag=False)
    if kind == "klv2":
        packed = b"".join(struct.pack("<f", by_leave[k]) for k in leaves)
    elif kind == "klv":
        scaled = [round(by_leave[k] * KLV_SCALE) for k in leaves]
        if any(not -32768 <= v <= 32767 for v in scaled):
            raise KlvError(f"a KLV file holds values from -128 to 127.99; use KLV2 for this table")
        packed = struct.pack(f"<{len(scaled)}h", *scaled)
    else:
        raise KlvError(f"unknown leave table kind {kind!r}; choose klv2 or klv")
    return (struct.pack("<I", len(graph) // 4) + graph + struct.pack("<I", len(leaves)) + packed)


def float32_of_text(text: str) -> float:
    """The float32 nearest the decimal ``text`` (ties to even), as Rust's ``f32::from_str`` reads it.

    Rounding first to a double and then to a float32 may go wrong when the
    double lands exactly halfway between two float32s; the exact decimal
    decides those.

    >>> float32_of_text("0.1")
    0.10000000149011612
    >>> float32_of_text("1.00000005960464477539062500001")   # just above a halfway point
    1.0000001192092896
    """
    value = float(text)
    if not math.isfinite(value):
        return value
    nearest = _f32(value)
    if nearest == value:
        return nearest
    lower, upper = (nearest, _next_f32(nearest, value)) if nearest < value else (_next_f32(nearest, value), nearest)
    if (lower + upper) / 2 != value or not math.isfinite(lower + upper):
        return nearest
    exact = Fraction(text.strip())
    if exact < Fraction(value):
        return lower
    if exact > Fraction(value):
        return upper
    return nearest


def _f32(value: float) -> float:
    """The float32 nearest ``value``; beyond the largest float32, an infinity (as Rust reads such text)."""
    try:
        result: float = struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)
    return result


def _next_f32(value: float, toward: float) -> float:
    """The float32 next to the float32 ``value`` in the direction of ``toward`` (past the largest: infinity)."""
    with np.errstate(over="ignore"):  # the step past the largest float32 is infinity, as it should be: no warning
        return float(np.nextafter(np.float32(value), np.float32(math.inf if toward > value else -math.inf)))
