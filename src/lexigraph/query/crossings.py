"""Crossings: which tiles fit the cell where two entries cross, and each entry's words that agree.

Each entry's pattern is matched (:mod:`lexigraph.query.matching`); the tile
every match puts in the shared cell is counted per side, and the tiles both
sides allow are the answer.

>>> import lexigraph
>>> lex = lexigraph.open()
>>> c = cross(lex.store, lex.engine, "e???y", 2, "d???", 1)
>>> c.tiles, c.counts["j"]
(['e', 'i', 'j', 'o', 'r'], (1, 1))
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..engine.interface import Engine
from ..engine.store import Store
from ..errors import QueryError
from .matching import pattern_ids
from .pattern import parse


@dataclass(frozen=True)
class Crossing:
    """What fits where two entries cross.

    ``tiles``: the tiles both entries allow in the shared cell, sorted.
    ``words_a`` / ``words_b``: each entry's words that put one of those tiles
    there (best priority first). ``counts``: per tile, how many words of
    each entry put it there.
    """

    tiles: list[str]
    words_a: list[str]
    words_b: list[str]
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)


def cross(store: Store, engine: Engine, pattern_a: str, pos_a: int, pattern_b: str, pos_b: int, *,
          min_priority: int = 0, deadline: float | None = None) -> Crossing:
    """See :meth:`lexigraph.Lexicon.cross`."""
    pa, pb = parse(store.alphabet, pattern_a), parse(store.alphabet, pattern_b)
    for p, pos, name in ((pa, pos_a, "first"), (pb, pos_b, "second")):
        if p.has_star:
            raise QueryError(f"the {name} pattern {p.text!r} has a '*': a crossing needs fixed-length patterns")
        if not isinstance(pos, int) or isinstance(pos, bool) or not 0 <= pos < len(p.cells):
            raise QueryError(f"position {pos!r} is outside the {name} pattern {p.text!r} (0 to {len(p.cells) - 1})")
    ids_a = pattern_ids(store, engine, pa, min_priority, deadline=deadline)
    ids_b = pattern_ids(store, engine, pb, min_priority, deadline=deadline)
    tiles_a = _tile_at(store, ids_a, len(pa.cells), pos_a)
    tiles_b = _tile_at(store, ids_b, len(pb.cells), pos_b)
    # Per-tile counts as 256-entry tables: the shared tiles and each side's words in a few lookups.
    count_a = np.bincount(tiles_a, minlength=256)
    count_b = np.bincount(tiles_b, minlength=256)
    shared = (count_a > 0) & (count_b > 0)
    common = np.flatnonzero(shared).tolist()
    keep_a, keep_b = ids_a[shared[tiles_a]], ids_b[shared[tiles_b]]
    if store.has_priorities:
        keep_a, keep_b = store.sort_ids(keep_a, "priority"), store.sort_ids(keep_b, "priority")
    else:  # one bucket each, in ascending (alphabetical) or walk (alphabetical) order already
        keep_a, keep_b = np.sort(keep_a), np.sort(keep_b)
    labels = store.alphabet.labels
    return Crossing(
        tiles=[labels[c - 1] for c in common],
        words_a=store.words_of_ids(keep_a),
        words_b=store.words_of_ids(keep_b),
        counts={labels[c - 1]: (int(count_a[c]), int(count_b[c])) for c in common},
    )


def _tile_at(store: Store, ids: np.ndarray, length: int, pos: int) -> np.ndarray:
    if not len(ids):
        return np.zeros(0, np.uint8)
    bucket = store.bucket(length)
    assert bucket is not None  # ids came from this bucket
    tiles: np.ndarray = store.rows(length)[ids - bucket.first, pos]
    return tiles
