"""Crossword fill propagation in Python and NumPy: the twins of ``native/fill.c``, step for step.

:func:`filter_rows` keeps a slot's candidate rows whose tiles its cells still
allow and reports, per position, the tiles the survivors use.
:class:`PythonFillState` holds a grid's candidates and cell domains and keeps
them arc consistent: filtering a slot shrinks its cells' domains to the tiles
its surviving candidates use, which wakes the slots crossing those cells,
until nothing changes; a complete slot left with one candidate takes its word
(no other complete slot may repeat it unless repeats are allowed) and, with
``max_shared``, its runs of tiles (no other entry may share one). Every change
goes on a trail that :meth:`PythonFillState.undo` unwinds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ..deadline import STEPS
from ..interface import PropagationProblem

_LUTS: dict[int, np.ndarray] = {}
#: A filtering pass weighs as much as this many steps of the loops that strike taken entries (``fill_state.c``).
FILTER_STEPS = STEPS // 256


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


_SIZE, _DOM, _USED, _KEY = range(4)
#: Result codes of the state's operations (besides a slot number: that slot ran out of candidates).
CONSISTENT, PAST_DEADLINE = -1, -2


class PythonFillState:
    """A grid's candidates and cell domains kept arc consistent, with a trail: the C ``FillState``'s twin.

    Built from a :class:`~lexigraph.engine.interface.PropagationProblem`, each
    slot's starting candidate rows (int32 arrays) and each cell's domain (a
    tile bit mask). A slot's candidates are a sparse set: a permutation of its
    starting rows (copied the first time it shrinks) whose first ``size`` are
    current; every change is written on a trail that :meth:`undo` unwinds.
    Operations return -1 (consistent), -2 (past the deadline) or the slot left
    without candidates; after anything but -1 the caller undoes to a mark.

    >>> from lexigraph.engine.interface import PropagationProblem
    >>> rows = np.array([[1, 2], [2, 1], [2, 2]], np.uint8)    # ab, ba, bb
    >>> p = PropagationProblem([rows, rows], [[0, 1], [0, 2]], [[(0, 0), (1, 0)], [(0, 1)], [(1, 1)]],
    ...                        b"\\1\\1", b"\\0\\0", [[0, 1], [0, 1]], True)   # repeats allowed
    >>> s = PythonFillState(p, [np.arange(3, dtype=np.int32)] * 2, [0b110, 0b110, 0b110])
    >>> s.propagate({0: None, 1: None}, [], None), s.sizes()
    (-1, [3, 3])
    >>> m = s.mark()
    >>> s.assign(0, 0, None), s.sizes(), s.candidates(1).tolist()   # 1A = ab: 1D starts with a
    (-1, [1, 1], [0])
    >>> s.undo(m); s.sizes()
    [3, 3]
    """

    def __init__(self, problem: PropagationProblem, candidates: Sequence[np.ndarray], domains: Sequence[int],
                 clock: Callable[[], float] = time.monotonic) -> None:
        p = problem
        n = len(p.rows)
        if not (len(p.slot_cells) == len(p.same_length) == len(p.complete) == len(p.fixed) == len(candidates) == n):
            raise ValueError("FillState: one entry per slot is needed")
        if p.max_shared and not 2 <= p.max_shared:
            raise ValueError("FillState: max_shared must be 0 or at least 2")
        if p.eager_limit < 0:
            raise ValueError("FillState: eager_limit must be >= 0")
        if len(domains) != len(p.cell_slots):
            raise ValueError("FillState: domains must hold one mask per cell")
        self.problem = p
        self.clock = clock
        self.width = [len(cells) for cells in p.slot_cells]
        self.perm: list[np.ndarray] = []
        for s in range(n):
            c = np.asarray(candidates[s], np.int32)
            if len(c) and (int(c.min()) < 0 or int(c.max()) >= len(p.rows[s])):
                raise IndexError("FillState: a candidate row lies outside the bucket")
            if len(c) > 1 and not bool((c[1:] > c[:-1]).all()):
                raise ValueError("FillState: a slot's candidate rows must be ascending")
            self.perm.append(c)
        self.own = [False] * n
        self.size = [len(c) for c in self.perm]
        # Per slot: the tiles its candidates use at each position, while they have not changed (else None).
        # A filtering pass whose dirty positions still allow them all would strike nothing: it is skipped.
        self.support: list[list[int] | None] = [None] * n
        self.nogoods: list[list[tuple[int, int, int]]] = []  # set_nogoods: (flags, var, value) per decision
        self.dom: list[int] = [int(m) for m in domains]
        self.trail: list[tuple[int, Any, Any]] = []
        self.owned_bytes = 0
        # one used map per bucket: row -> 1 + the single slot that holds the word
        buckets: dict[tuple[int, int], int] = {}
        self.bucket_id = [buckets.setdefault((p.rows[s].__array_interface__["data"][0], self.width[s]), len(buckets))
                          for s in range(n)]
        self.used: list[dict[int, int]] = [{} for _ in buckets]
        self.shared_slots = [s for s in range(n) if p.complete[s] and p.max_shared and self.width[s] >= p.max_shared]
        self.outside = n + 1
        self.keys: dict[bytes, int] = {}
        if p.max_shared:
            for word in p.given_words:
                for i in range(len(word) - p.max_shared + 1):
                    self.keys.setdefault(bytes(word[i : i + p.max_shared]), self.outside)
        self._eager_limit = p.eager_limit
        self.filters = 0
        self._countdown = 1  # steps until the clock is read again (each operation reads it at its first step)
        self._pending: list[int] = []
        self._dirty: dict[int, set[int] | None] = {}
        self._singles: list[int] = []

    # -- the trail ----------------------------------------------------------------------------------

    @property
    def trail_length(self) -> int:
        """Changes held for :meth:`undo`."""
        return len(self.trail)

    def mark(self) -> int:
        """The trail's length, for :meth:`undo`."""
        return len(self.trail)

    def undo(self, mark: int) -> None:
        """Unwind every change made since ``mark``."""
        if not 0 <= mark <= len(self.trail):
            raise ValueError("undo: the mark is not on the trail")
        trail = self.trail
        while len(trail) > mark:
            kind, a, b = trail.pop()
            if kind == _SIZE:
                self.size[a] = b
                self.support[a] = None
            elif kind == _DOM:
                self.dom[a] = b
            elif kind == _USED:
                del self.used[a][b]
            else:
                del self.keys[b]

    def _own(self, s: int) -> None:
        if not self.own[s]:
            self.perm[s] = self.perm[s].copy()
            self.own[s] = True
            self.owned_bytes += self.perm[s].nbytes

    def _set_size(self, s: int, n: int) -> None:
        self.trail.append((_SIZE, s, self.size[s]))
        self.size[s] = n
        self.support[s] = None

    def _set_dom(self, cell: int, mask: int) -> None:
        self.trail.append((_DOM, cell, self.dom[cell]))
        self.dom[cell] = mask

    # -- reading ------------------------------------------------------------------------------------

    def sizes(self) -> list[int]:
        """Each slot's number of candidates."""
        return list(self.size)

    def singles(self) -> list[int]:
        """Each slot's one candidate row, or -1 when it has more or none."""
        return [int(p[0]) if n == 1 else -1 for p, n in zip(self.perm, self.size)]

    @property
    def eager_limit(self) -> int:
        """A taken word or run is struck at once from the slots with at most this many candidates."""
        return self._eager_limit

    @eager_limit.setter
    def eager_limit(self, value: int) -> None:
        if value < 0:
            raise ValueError("eager_limit must be >= 0")
        self._eager_limit = value

    def candidates(self, slot: int) -> np.ndarray:
        """The slot's candidate rows, ascending (int32), as the C state's bit sets give them."""
        return np.sort(self.perm[slot][: self.size[slot]])

    def counts(self, slot: int, position: int) -> np.ndarray:
        """Candidates of the slot per tile code at ``position`` (at least 64 entries)."""
        rows = self.problem.rows[slot][self.perm[slot][: self.size[slot]], position]
        return np.bincount(rows, minlength=64).astype(np.int32)

    def best_row(self, slot: int, keys: np.ndarray, crossings: np.ndarray, room: np.ndarray,
                 taken: Sequence[int]) -> int:
        """The candidate with the highest ``keys[row]`` plus the room it leaves its crossings (see the protocol)."""
        c = self.candidates(slot)
        if len(taken):
            free = ~np.isin(c, np.asarray(taken, np.int32))
            if free.any():
                c = c[free]
        if not len(c):
            raise ValueError(f"best_row: slot {slot} has no candidates")
        sub = self.problem.rows[slot][c]
        key = keys[c]
        for j, t, k in np.asarray(crossings, np.int32).reshape(-1, 3).tolist():
            if self.size[t] <= 1:
                continue
            key += room[self.counts(t, k)][sub[:, j]]
        return int(c[int(np.argmax(key))])

    def has(self, slot: int, row: int) -> bool:
        """Whether the row is one of the slot's candidates."""
        return bool((self.perm[slot][: self.size[slot]] == row).any())

    def domain(self, cell: int) -> int:
        """The tiles the cell may hold (bit mask)."""
        return self.dom[cell]

    def domains(self) -> list[int]:
        """Every cell's domain."""
        return list(self.dom)

    # -- the queue ----------------------------------------------------------------------------------

    def _enqueue(self, t: int, k: int) -> None:
        dirty = self._dirty
        if t not in dirty:
            dirty[t] = set()
            self._pending.append(t)
        d = dirty[t]
        if k >= 0 and d is not None:
            d.add(k)

    def _begin(self, deadline: float | None) -> None:
        """An operation starts: its deadline checked (as ``native/deadline.h`` parses it), the clock read at its
        first step."""
        if deadline is not None and (isinstance(deadline, bool) or not isinstance(deadline, (int, float))):
            raise TypeError("a deadline is a time.monotonic() value or None")
        if deadline is not None and deadline != deadline:
            raise TypeError("a deadline is a time.monotonic() value or None, not nan")
        self._countdown = 1

    def _tick(self, deadline: float | None, steps: int = 1) -> bool:
        """``steps`` steps taken: past the deadline (the clock read every :data:`~lexigraph.engine.deadline.STEPS`
        steps, as the C state reads it)?"""
        if deadline is None:
            return False
        self._countdown -= steps
        if self._countdown > 0:
            return False
        self._countdown = STEPS
        return self.clock() > deadline

    def _run(self, deadline: float | None) -> int:
        result = CONSISTENT
        pending, singles = self._pending, self._singles
        while result == CONSISTENT and (pending or singles):
            while result == CONSISTENT and singles:
                result = self._take_single(singles.pop(), deadline)
            if result != CONSISTENT or not pending:
                break
            self.filters += 1
            if self._tick(deadline, FILTER_STEPS):
                result = PAST_DEADLINE
                break
            # the pending slot with the fewest candidates first, the last among equals (as fill.c)
            size = self.size
            pick = len(pending) - 1
            for i in range(pick):
                if size[pending[i]] < size[pending[pick]]:
                    pick = i
            si = pending[pick]
            pending[pick] = pending[-1]
            pending.pop()
            result = self._filter(si, self._dirty.pop(si))
        pending.clear()
        singles.clear()
        self._dirty.clear()
        return result

    # -- one slot's filtering pass ----------------------------------------------------------------

    def _runs_free(self, s: int, tiles: Sequence[int]) -> bool:
        n = self.problem.max_shared
        fixed = self.problem.fixed
        data = bytes(tiles)
        for i in range(len(data) - n + 1):
            o = self.keys.get(data[i : i + n], 0)
            if o and o != s + 1 and not (fixed[s] and self._given(o)):
                return False
        return True

    def _given(self, owner: int) -> bool:
        return owner == self.outside or (owner >= 1 and bool(self.problem.fixed[owner - 1]))

    def _filter(self, si: int, dirty: set[int] | None) -> int:
        p = self.problem
        cells = p.slot_cells[si]
        width = self.width[si]
        masks = [self.dom[c] for c in cells]
        support = self.support[si]
        if support is not None and all(not support[j] & ~masks[j] for j in (range(width) if dirty is None else dirty)):
            return self._shrink_domains(si, support)  # every candidate still fits
        n = self.size[si]
        idx = self.perm[si][:n]
        rows = p.rows[si]
        sub = rows[idx]
        keep = np.ones(n, bool)
        for j in range(width) if dirty is None else sorted(dirty):
            keep &= _lut(masks[j])[sub[:, j]]
        if p.complete[si] and not p.allow_repeats:
            used = self.used[self.bucket_id[si]]
            taken = [r for r, o in used.items() if o != si + 1]
            if taken:
                keep &= ~np.isin(idx, np.array(taken, np.int32))
        if p.complete[si] and p.max_shared and width >= p.max_shared and self.keys:
            for i in np.flatnonzero(keep).tolist():
                if not self._runs_free(si, sub[i].tolist()):
                    keep[i] = False
        kept, dropped = idx[keep], idx[~keep]
        if not len(kept):
            return si
        if len(dropped):
            self._own(si)
            self._set_size(si, len(kept))
            self.perm[si][:n] = np.concatenate([kept, dropped])
            if len(kept) == 1:
                self._singles.append(si)
        sub = sub[keep]
        seen = [_mask_of(sub[:, j]) for j in range(width)]
        self.support[si] = seen
        return self._shrink_domains(si, seen)

    def _shrink_domains(self, si: int, seen: list[int]) -> int:
        p = self.problem
        for j, cid in enumerate(p.slot_cells[si]):
            m = seen[j]
            if m == self.dom[cid]:
                continue
            self._set_dom(cid, m)
            for t, k in p.cell_slots[cid]:
                if t != si:
                    self._enqueue(t, k)
        return CONSISTENT

    def _strike_at(self, t: int, at: int) -> None:
        n = self.size[t]
        self._own(t)
        self._set_size(t, n - 1)
        perm = self.perm[t]
        row = perm[at]
        perm[at : n - 1] = perm[at + 1 : n].copy()
        perm[n - 1] = row

    def _take_single(self, s: int, deadline: float | None) -> int:
        p = self.problem
        if not p.complete[s]:
            return CONSISTENT
        w = int(self.perm[s][0])
        tiles = p.rows[s][w].tolist()
        if not p.allow_repeats:
            used = self.used[self.bucket_id[s]]
            owner = used.get(w, 0)
            if owner != s + 1:
                if owner:
                    return s
                used[w] = s + 1
                self.trail.append((_USED, self.bucket_id[s], w))
                for t in p.same_length[s]:
                    if self._tick(deadline):
                        return PAST_DEADLINE
                    n = self.size[t]
                    if t == s or n > self._eager_limit:
                        continue
                    at = np.flatnonzero(self.perm[t][:n] == w)
                    if not len(at):
                        continue
                    if n == 1:
                        return t
                    self._strike_at(t, int(at[0]))
                    self._enqueue(t, -1)
                    if n - 1 == 1:
                        self._singles.append(t)
        n_run = p.max_shared
        if n_run and len(tiles) >= n_run:
            data = bytes(tiles)
            added = 0
            for i in range(len(data) - n_run + 1):
                key = data[i : i + n_run]
                o = self.keys.get(key, 0)
                if o == s + 1:
                    continue
                if o:
                    if p.fixed[s] and self._given(o):
                        continue
                    return s
                self.keys[key] = s + 1
                self.trail.append((_KEY, 0, key))
                added += 1
            if not added:
                return CONSISTENT
            for t in self.shared_slots:
                if self._tick(deadline):
                    return PAST_DEADLINE
                n = self.size[t]
                if t == s or n > self._eager_limit:
                    continue
                idx = self.perm[t][:n]
                sub = p.rows[t][idx]
                free = np.array([self._runs_free(t, sub[i].tolist()) for i in range(n)], bool)
                if free.all():
                    continue
                if not free.any():
                    return t
                self._own(t)
                self._set_size(t, int(free.sum()))
                self.perm[t][:n] = np.concatenate([idx[free], idx[~free]])
                self._enqueue(t, -1)
                if free.sum() == 1:
                    self._singles.append(t)
        return CONSISTENT

    # -- operations ----------------------------------------------------------------------------------

    def propagate(self, queue: Mapping[int, Iterable[int] | None], singles: Sequence[int],
                  deadline: float | None) -> int:
        """Filter from the slots in ``queue`` (slot -> positions whose domain shrank, ``None``: all; empty:
        none, only its candidates changed) after taking the words of the ``singles`` (slots with one candidate)."""
        self._begin(deadline)
        n = len(self.perm)
        for t, positions in queue.items():
            if not 0 <= t < n:
                raise ValueError(f"FillState: slot {t} out of range")
            self._enqueue(t, -1)
            if positions is None:
                self._dirty[t] = None
                continue
            for k in positions:
                if not 0 <= k < self.width[t]:
                    raise ValueError(f"FillState: position {k} out of range")
                self._enqueue(t, k)
        for t in singles:
            if not 0 <= t < n or self.size[t] != 1:
                raise ValueError("propagate: a single slot has more or fewer than one candidate")
            self._singles.append(t)
        return self._run(deadline)

    def _at(self, s: int, row: int) -> int:
        if not 0 <= s < len(self.perm):
            raise ValueError(f"FillState: slot {s} out of range")
        at = np.flatnonzero(self.perm[s][: self.size[s]] == row)
        if not len(at):
            raise ValueError(f"row {row} is not a candidate of slot {s}")
        return int(at[0])

    def assign(self, slot: int, row: int, deadline: float | None) -> int:
        """The slot takes the word ``row``; propagate."""
        self._begin(deadline)
        at = self._at(slot, row)
        if self.size[slot] > 1:
            self._own(slot)
            self._set_size(slot, 1)
            perm = self.perm[slot]
            perm[1 : at + 1] = perm[:at].copy()
            perm[0] = row
        p = self.problem
        for j, tile in enumerate(p.rows[slot][row].tolist()):
            cid = p.slot_cells[slot][j]
            m = 1 << tile
            if self.dom[cid] == m:
                continue
            self._set_dom(cid, m)
            for t, k in p.cell_slots[cid]:
                if t != slot:
                    self._enqueue(t, k)
        self._singles.append(slot)
        return self._run(deadline)

    def exclude(self, slot: int, row: int, deadline: float | None) -> int:
        """Strike the word ``row`` from the slot; propagate."""
        self._begin(deadline)
        return self._exclude(slot, row, deadline)

    def _exclude(self, slot: int, row: int, deadline: float | None) -> int:
        at = self._at(slot, row)
        n = self.size[slot]
        if n == 1:
            return slot
        self._strike_at(slot, at)
        self._enqueue(slot, -1)
        if n - 1 == 1:
            self._singles.append(slot)
        return self._run(deadline)

    def _cell_change(self, cell: int, code: int, keep_only: bool, deadline: float | None) -> int:
        refs = self.problem.cell_slots[cell] if 0 <= cell < len(self.dom) else None
        if refs is None or not 0 <= code < 256:
            raise ValueError("FillState: cell or tile code out of range")
        if not refs:
            raise ValueError(f"cell {cell} lies in no slot")
        bit = 1 << code
        m = self.dom[cell] & bit if keep_only else self.dom[cell] & ~bit
        if not m:
            return refs[0][0]
        if m != self.dom[cell]:
            self._set_dom(cell, m)
            for t, k in refs:
                self._enqueue(t, k)
        return self._run(deadline)

    def set_tile(self, cell: int, code: int, deadline: float | None) -> int:
        """The cell takes the tile; propagate."""
        self._begin(deadline)
        return self._cell_change(cell, code, True, deadline)

    def exclude_tile(self, cell: int, code: int, deadline: float | None) -> int:
        """Strike the tile from the cell; propagate."""
        self._begin(deadline)
        return self._cell_change(cell, code, False, deadline)

    def set_nogoods(self, packed: np.ndarray) -> None:
        """The nogood branches :meth:`apply_nogoods` reads (see the protocol), checked once."""
        flat = np.asarray(packed, np.int32).tolist()
        branches: list[list[tuple[int, int, int]]] = []
        i = 0
        while i < len(flat):
            count = flat[i]
            if count < 0 or i + 1 + 3 * count > len(flat):
                raise ValueError("set_nogoods: packed branches are malformed or name a decision outside the grid")
            decisions = [(flat[j], flat[j + 1], flat[j + 2]) for j in range(i + 1, i + 1 + 3 * count, 3)]
            for flags, var, value in decisions:
                cell = flags & 2
                if (flags not in range(4) or var < 0 or value < 0
                        or (cell and (var >= len(self.dom) or not self.problem.cell_slots[var] or value > 63))
                        or (not cell and (var >= len(self.size) or value >= len(self.problem.rows[var])))):
                    raise ValueError("set_nogoods: packed branches are malformed or name a decision outside the grid")
            branches.append(decisions)
            i += 1 + 3 * count
        self.nogoods = branches

    def apply_nogoods(self, blame: int, deadline: float | None) -> int:
        """Strike what the nogood branches prove under the decisions that hold now (see the protocol)."""
        self._begin(deadline)
        branches = self.nogoods
        struck = True
        while struck:
            struck = False
            for branch in branches:
                for flags, var, value in branch:
                    if flags & 2:
                        m = self.dom[var]
                        holds, present = m == 1 << value, bool(m >> value & 1)
                    else:
                        present = self.has(var, value)
                        holds = present and self.size[var] == 1
                    if flags & 1:
                        if not holds:
                            break  # the decisions before the next refutations no longer all hold
                        continue
                    if not present:
                        continue
                    if holds:
                        if not flags & 2:
                            return var
                        return blame if blame >= 0 else self.problem.cell_slots[var][0][0]
                    got = (self._cell_change(var, value, False, deadline) if flags & 2
                           else self._exclude(var, value, deadline))
                    if got != -1:
                        return got
                    struck = True
                    break
                if struck:
                    break
        return -1
