"""Crossword fill propagation in Python and NumPy: the twins of ``native/fill.c``, step for step.

:func:`filter_rows` keeps a slot's candidate rows whose tiles its cells still
allow and reports, per position, the tiles the survivors use.
:class:`PythonPropagator` runs arc consistency between crossing slots with
it: filtering a slot shrinks its cells' domains to the tiles its surviving
candidates use, which wakes the slots crossing those cells, until nothing
changes; a slot left with one candidate takes that word away from the other
complete slots of its length when repeats are not allowed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..interface import PropagationProblem

_LUTS: dict[int, np.ndarray] = {}


def _lut(mask: int) -> np.ndarray:
    """A 256-entry table: whether each tile code is in the bit mask ``mask``."""
    lut = _LUTS.get(mask)
    if lut is None:
        lut = np.zeros(256, bool)
        lut[[c for c in range(256) if (mask >> c) & 1]] = True
        if len(_LUTS) > 4096:
            _LUTS.clear()
        _LUTS[mask] = lut
    return lut


def _mask_of(column: np.ndarray) -> int:
    present = np.flatnonzero(np.bincount(column, minlength=1))
    m = 0
    for c in present.tolist():
        m |= 1 << c
    return m


def filter_rows(rows: np.ndarray, candidates: np.ndarray, masks: Sequence[int],
                check: Sequence[int] | None = None) -> tuple[np.ndarray, list[int]]:
    """Keep the candidate rows whose tile in each position of ``check`` (default: all) its mask allows.

    Also returns, per position, the mask of the tiles the kept rows use.
    Positions left out of ``check`` must pass already (their mask has not
    shrunk since the candidates were last filtered): the C pass relies on
    it to stop collecting a position's tiles once it has seen them all.

    >>> rows = np.array([[1, 2], [1, 3], [2, 3]], np.uint8)
    >>> kept, used = filter_rows(rows, np.arange(3, dtype=np.int32), [0b10, 0b1110])
    >>> kept.tolist(), [bin(m) for m in used]
    ([0, 1], ['0b10', '0b1100'])
    """
    sub = rows[candidates]
    keep = None
    for j in range(rows.shape[1]) if check is None else check:
        t = _lut(masks[j])[sub[:, j]]
        if t.all():
            continue
        keep = t if keep is None else keep & t
    if keep is not None:
        candidates = candidates[keep]
        sub = sub[keep]
    return candidates, [_mask_of(sub[:, j]) for j in range(rows.shape[1])]


Filter = Callable[[np.ndarray, np.ndarray, Sequence[int], "Sequence[int] | None"], tuple[np.ndarray, list[int]]]


class PythonPropagator:
    """Arc consistency over a grid's slots (see the module docstring); the C ``Propagator``'s twin."""

    def __init__(self, problem: PropagationProblem, filter_rows: Filter = filter_rows,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.problem = problem
        self.filter = filter_rows
        self.clock = clock
        self.filters = 0

    def propagate(self, candidates: list[np.ndarray], domains: Any, queue: dict[int, Any],
                  singles: Sequence[int], deadline: float | None) -> int:
        """Filter from the slots in ``queue`` until nothing changes.

        ``queue`` maps a slot to the positions whose cell domain shrank since
        it was last filtered (``None``: all of them; empty: none, only its
        candidates changed); ``singles`` are slots just left with one
        candidate. ``candidates`` and ``domains`` are updated in place.
        Returns -1 when done, -2 past ``deadline``, else the slot left
        without candidates.
        """
        p = self.problem
        pending = list(queue)
        dirty: dict[int, set[int] | None] = {s: None if v is None else set(v) for s, v in queue.items()}
        newly_single = list(singles)
        while pending or newly_single:
            while newly_single:
                si = newly_single.pop()
                if p.allow_repeats or not p.complete[si]:
                    continue
                word = int(candidates[si][0])
                for t in p.same_length[si]:
                    if t == si:
                        continue
                    ct = candidates[t]
                    at = int(ct.searchsorted(word))
                    if at < len(ct) and ct[at] == word:
                        if len(ct) == 1:
                            return t
                        candidates[t] = np.delete(ct, at)
                        if len(candidates[t]) == 1:
                            newly_single.append(t)
                        if t not in dirty:
                            dirty[t] = set()
                            pending.append(t)
            if not pending:
                break
            self.filters += 1
            if deadline is not None and not self.filters & 255 and self.clock() > deadline:
                return -2
            si = pending.pop()
            check = dirty.pop(si)
            cells = p.slot_cells[si]
            before = len(candidates[si])
            kept, used = self.filter(p.rows[si], candidates[si], [domains[c] for c in cells],
                                     None if check is None else sorted(check))
            if not len(kept):
                return si
            candidates[si] = kept
            if len(kept) == 1 and before > 1:
                newly_single.append(si)
            for j, cid in enumerate(cells):
                m = used[j]
                if m != domains[cid]:
                    domains[cid] = m
                    for t, k in p.cell_slots[cid]:
                        if t == si:
                            continue
                        if t not in dirty:
                            dirty[t] = {k}
                            pending.append(t)
                        else:
                            d = dirty[t]
                            if d is not None:
                                d.add(k)
        return -1
