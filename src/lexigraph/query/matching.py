"""Matching patterns: the words a pattern of the pattern language matches, and how many, over the length buckets.

A pattern is parsed into cells (a set of allowed tiles each) and stars by
:mod:`lexigraph.query.pattern`, the one parser of the pattern language.
A fixed-length pattern scans one length bucket: the cell that allows the
fewest tiles is tested on its whole column first, later cells only on the
survivors, and a fixed first tile narrows the bucket by binary search
before any scan. A pattern with stars is a sequence of segments matched
greedily leftmost, which is exact for globs and needs no backtracking, so
no pattern can blow up. Every function takes a ``deadline``
(:mod:`lexigraph.engine.deadline`), checked between buckets and between
the segment positions of a glob, and handed to the engine's walks.
"""

from __future__ import annotations


import numpy as np

from ..engine import rotation
from ..engine.deadline import check
from ..engine.interface import Engine
from ..engine.store import Store, concat_ids
from ..errors import QueryError
from .pattern import STAR, ParsedPattern, parse

def _lut(cell: np.ndarray) -> np.ndarray:
    lut = np.zeros(256, bool)
    lut[cell] = True
    return lut


def _cell_test(column: np.ndarray, cell: np.ndarray) -> np.ndarray:
    if len(cell) == 1:
        same: np.ndarray = column == cell[0]
        return same
    allowed: np.ndarray = _lut(cell)[column]
    return allowed


def _fixed_rows(store: Store, cells: list[np.ndarray], length: int) -> np.ndarray:
    """Rows (indexes into the bucket) whose every position fits its cell.

    The longest run of single tiles narrows the bucket by binary search: over
    the rows when the run opens the word, else over the rotation order at its
    start (:mod:`lexigraph.engine.rotation`). NumPy then tests the other cells
    column by column, the most selective first.
    """
    rows = store.rows(length)
    n_codes = len(store.alphabet)
    lo, hi = 0, len(rows)
    # The longest run of single tiles narrows the bucket by binary search: in the rows themselves
    # when it starts the word, else in the rotation order at its start.
    singles = [int(c[0]) if len(c) == 1 else None for c in cells]
    run = rotation.best_run(singles)
    prefix = bytearray()
    for tile in singles:
        if tile is None:
            break
        prefix.append(tile)
    idx = None
    covered: set[int] = set()
    if run is not None and run[0] and run[1] > len(prefix):
        start, size = run
        idx = rotation.run_rows(store, length, start, bytes(singles[(start + k) % length] or 0 for k in range(size)))
        covered = {(start + k) % length for k in range(min(size, rotation.KEY_TILES))}
        prefix.clear()
    elif prefix:
        lo, hi = store.prefix_range(length, bytes(prefix))
    rest = [(j, c) for j, c in enumerate(cells) if j >= len(prefix) and j not in covered and len(c) < n_codes]
    rest.sort(key=lambda jc: len(jc[1]))
    for j, cell in rest:
        if idx is None:
            ok = _cell_test(rows[lo:hi, j], cell)
            idx = np.flatnonzero(ok) + lo
        else:
            idx = idx[_cell_test(rows[idx, j], cell)]
        if not len(idx):
            break
    return np.arange(lo, hi) if idx is None else idx


def _glob_rows(store: Store, segments: list[list[np.ndarray]], length: int, deadline: float | None) -> np.ndarray:
    """Rows matching ``seg0 * seg1 * ... * segN`` at this length (greedy leftmost)."""
    head, middles, tail = segments[0], segments[1:-1], segments[-1]
    need = sum(len(s) for s in segments)
    if need > length:
        return np.zeros(0, np.int64)
    cells_fixed = list(head) + [None] * (length - len(head) - len(tail)) + list(tail)
    everything = len(store.alphabet)
    anchored = [c if c is not None else np.arange(1, everything + 1, dtype=np.uint8) for c in cells_fixed]
    idx = _fixed_rows(store, anchored, length)
    if not middles or not len(idx):
        return idx
    rows = store.rows(length)[idx]
    cur = np.full(len(idx), len(head), np.int64)
    alive = np.ones(len(idx), bool)
    limit = length - len(tail)
    for seg in middles:
        m = len(seg)
        found = np.full(len(idx), -1, np.int64)
        for start in range(len(head), limit - m + 1):
            check(deadline)  # each start is a few array passes: the clock costs nothing beside them
            todo = alive & (found < 0) & (cur <= start)
            if not todo.any():
                if not (alive & (found < 0)).any():
                    break
                continue
            ok = todo.copy()
            for k, cell in enumerate(seg):
                ok &= _cell_test(rows[:, start + k], cell)
            found[ok] = start
        alive &= found >= 0
        cur = found + m
    return idx[alive]


def walk_plan(pattern: ParsedPattern) -> tuple[list[bytes], int, int] | None:
    """``(cells, min_length, max_length)`` for the graph walk, or None when the bucket scan answers.

    The walk answers a pattern that starts with a fixed tile: fixed cells,
    optionally followed by one ``*``. Its cost follows the branches the
    pattern leaves open, so a pattern that opens with a wildcard, which
    leaves every branch open, goes to the scan of the bucket's columns
    instead (measured: a 4-8-tile crossing pattern with its fixed cells later
    took about 1 ms by the walk, a fraction of that by the scan), and so do
    stars elsewhere.
    """
    tail = bool(pattern.cells) and pattern.cells[-1] is STAR
    if any(c is STAR for c in pattern.cells[: len(pattern.cells) - tail]):
        return None
    cells = pattern.tile_cells()
    if len(cells) > 255:  # no word is longer than 255 tiles
        return None
    if not cells or len(cells[0]) != 1:
        return None
    fixed = [c.tobytes() for c in cells]
    return (fixed, max(len(fixed), 1), 255) if tail else (fixed, len(fixed), len(fixed))


def pattern_ids(store: Store, engine: Engine, pattern: ParsedPattern, min_priority: int = 0, *,
                deadline: float | None = None) -> np.ndarray:
    """All word ids matching a parsed pattern (ascending from the scan, alphabetical from the walk).

    Where the engine's walks pay (the C engine), fixed cells and a trailing
    ``*`` are answered by a walk of the word graph, whose cost follows the
    branches the pattern leaves open; other patterns scan the buckets.
    """
    if type(min_priority) is not int or not 0 <= min_priority <= 255:
        raise QueryError("min_priority must be an integer from 0 to 255")
    check(deadline)
    plan = walk_plan(pattern) if engine.pattern_walk_pays else None
    if plan is not None:
        ids = engine.pattern_ids(*plan, deadline=deadline)
        return ids[store.priorities()[ids] >= min_priority] if min_priority and len(ids) else ids
    out = []
    if pattern.has_star:
        segments = pattern.segments()
        for each in store.buckets:
            if each.length >= pattern.fixed:
                check(deadline)
                out.append(_glob_rows(store, segments, each.length, deadline) + each.first)
    else:
        bucket = store.bucket(len(pattern.cells))
        if bucket is not None:
            out.append(_fixed_rows(store, pattern.tile_cells(), bucket.length) + bucket.first)
    ids = concat_ids(out)
    if min_priority and len(ids):
        ids = ids[store.priorities()[ids] >= min_priority]
    return ids


def _paging(offset: int, limit: int | None) -> int | None:
    if type(offset) is not int or offset < 0:
        raise QueryError("offset must be a non-negative integer")
    if limit is not None and (type(limit) is not int or limit < 0):
        raise QueryError("limit must be a non-negative integer")
    return None if limit is None else offset + limit


def _in_walk_order(store: Store, min_priority: int) -> bool:
    """Whether a walk's alphabetical order is already the result order: every word has one priority."""
    return not store.has_priorities and type(min_priority) is int and 0 <= min_priority <= 50


def match(store: Store, engine: Engine, pattern: str, *, min_priority: int = 0, offset: int = 0,
          limit: int | None = None, deadline: float | None = None) -> list[str]:
    """See :meth:`lexigraph.Lexicon.match`."""
    end = _paging(offset, limit)
    parsed = parse(store.alphabet, pattern)
    if engine.pattern_walk_pays and _in_walk_order(store, min_priority):
        plan = walk_plan(parsed)
        if plan is not None:  # already in result order: decode straight from the walk, stop at the page's end
            found = engine.pattern_words(*plan, limit=-1 if end is None else end, deadline=deadline)
            return found[offset:]
    ids = _paged_ids(store, engine, parsed, min_priority, offset, end, deadline)
    check(deadline)
    return store.words_of_ids(ids)


def match_ids(store: Store, engine: Engine, pattern: str, *, min_priority: int = 0, offset: int = 0,
              limit: int | None = None, deadline: float | None = None) -> np.ndarray:
    """Matching word ids in result order (priority, then alphabetical), paged."""
    end = _paging(offset, limit)
    return _paged_ids(store, engine, parse(store.alphabet, pattern), min_priority, offset, end, deadline)


def _paged_ids(store: Store, engine: Engine, parsed: ParsedPattern, min_priority: int, offset: int,
               end: int | None, deadline: float | None) -> np.ndarray:
    ids = pattern_ids(store, engine, parsed, min_priority, deadline=deadline)
    if not (_in_walk_order(store, min_priority) and engine.pattern_walk_pays and walk_plan(parsed) is not None):
        check(deadline)
        ids = store.sort_ids(ids, "priority")
    return ids[offset:end]


def count(store: Store, engine: Engine, pattern: str, *, min_priority: int = 0,
          deadline: float | None = None) -> int:
    """See :meth:`lexigraph.Lexicon.count`."""
    return int(len(pattern_ids(store, engine, parse(store.alphabet, pattern), min_priority, deadline=deadline)))
