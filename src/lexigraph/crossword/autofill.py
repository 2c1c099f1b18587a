"""Crossword autofill: fill a grid (or a region of it) from a scored lexicon, and rank suggestions for a slot.

The fill is a constraint search over the grid's slots:

* every open cell has a *domain*, the set of tiles it may still hold (a
  bit mask over tile codes); every slot has a *candidate set*, the rows of
  the lexicon's length bucket (NumPy) that fit its cells' domains, drawn
  from the words whose priority is at least ``min_priority``;
* *propagation* keeps the two consistent (arc consistency between crossing
  slots): filtering a slot's candidates by its cells' domains shrinks the
  domains to the tiles the surviving candidates use, which wakes the
  crossing slots, until nothing changes. That loop is the hot path; it
  runs in the C extension ``lexigraph._native`` when built (``Propagator``),
  else in Python and NumPy (:meth:`_Search.propagate`, :func:`_filter_py`),
  held to the same states by the tests;
* the search picks the slot with the fewest candidates per unit of
  conflict weight (slots whose filtering wiped out get heavier: *dom/wdeg*),
  tries its best candidate (highest priority first, then the one that
  leaves the crossing slots the most candidates, perturbed by a small
  seeded random amount), and on failure removes that candidate and propagates again
  (two-way branching). Runs restart with a growing budget of failures,
  keeping the weights; a run that ends within its budget has searched
  everything, so "no fill exists" is a proof.

Objective: among fills, a higher *lowest* priority first, then a higher
mean. The search tries high-priority words first (which favours the
mean); once a fill is found, ``improve`` seconds go to raising its lowest
priority: the search runs again with ``min_priority`` just above the fill's
lowest one, until that is proved impossible or the time is spent.

>>> import lexigraph
>>> from lexigraph.crossword.grid import Grid
>>> lex = lexigraph.load(["cat", "are", "ten", "car", "ate", "ten", "tan", "ace", "ran", "cab"])
>>> result = fill(lex, Grid.from_text("c..\\n...\\n..."), allow_repeats=True)
>>> result.status, sorted(w.word for w in result.words)
('filled', ['ace', 'ace', 'cat', 'cat', 'ten', 'ten'])
>>> print(result.grid.to_text())
CAT
ACE
TEN
>>> fill(lex, Grid.from_text("c..\\n...\\n...")).status   # without repeats: no fill
'no_fill'
"""

from __future__ import annotations

import functools
import math
import time
from array import array
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import numpy as np

from ..buildinfo import c_module
from ..errors import QueryError
from .grid import Grid, Slot

if TYPE_CHECKING:  # pragma: no cover
    from ..lexicon import Lexicon



_fill: Any = c_module("_native")

Status = Literal["filled", "no_fill", "timeout"]
#: Cell domains, indexed by cell id (row * width + column): tile bit masks.
Domains: TypeAlias = "array[int] | MutableSequence[int]"
Progress = Callable[[str, int, int], None]

#: Longest slot the filler accepts (the C pass keeps per-position masks on the stack).
MAX_SLOT = 255
#: Failures allowed in the first run; each restart allows half as many more.
_FIRST_BUDGET = 60
#: A priority difference of 10 weighs like a factor of 10 in the crossings' room (qxw's 10^score).
_PRIORITY_WEIGHT = math.log(10) / 10
#: Size of the seeded random perturbation of the value order, in units of log(room): enough
#: for different seeds to give different fills, small beside a factor of 10 in priority.
_NOISE = 0.3
#: A slot with more candidates than this is decided one cell at a time.
_CELL_BRANCHING = 500
_BUDGET_GROWTH = 1.5


# -- the lexicon's length buckets ------------------------------------------------


class _Buckets:
    """The lexicon's length buckets as NumPy rows and priorities (one per length, cached)."""

    def __init__(self, lex: "Lexicon") -> None:
        self.store = lex.store
        self.alphabet = lex.alphabet
        self.n_codes = len(lex.alphabet)
        self.lengths = set(self.store.lengths)
        self._rows: dict[int, np.ndarray] = {}
        self._prio: dict[int, np.ndarray] = {}
        self._base: dict[tuple[int, int], np.ndarray] = {}

    def rows(self, length: int) -> np.ndarray:
        got = self._rows.get(length)
        if got is None:
            if length not in self.lengths:
                got = np.zeros((0, length), np.uint8)
            else:
                got = np.ascontiguousarray(self.store.rows(length))
            self._rows[length] = got
        return got

    def priorities(self, length: int) -> np.ndarray:
        got = self._prio.get(length)
        if got is None:
            if length not in self.lengths:
                got = np.zeros(0, np.uint8)
            else:
                b = self.store.bucket(length)
                got = np.zeros(0, np.uint8) if b is None else self.store.priorities()[b.first : b.stop]
            self._prio[length] = got
        return got

    def base(self, length: int, min_priority: int) -> np.ndarray:
        """Rows of the bucket at or above ``min_priority``, ascending, as int32."""
        key = (length, min_priority)
        got = self._base.get(key)
        if got is None:
            prio = self.priorities(length)
            if min_priority <= 0:
                got = np.arange(len(prio), dtype=np.int32)
            else:
                got = np.flatnonzero(prio >= min_priority).astype(np.int32)
            self._base[key] = got
        return got

    def word(self, length: int, row: int) -> str:
        return self.alphabet.decode(bytes(self.rows(length)[row]))


# -- the hot loop: filter candidates by cell domains -------------------------------------

_LUTS: dict[int, np.ndarray] = {}


def _lut(mask: int) -> np.ndarray:
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


def _filter_py(
    rows: np.ndarray, idx: np.ndarray, masks: Sequence[int], check: Sequence[int] | None = None
) -> tuple[np.ndarray, list[int]]:
    """Keep the candidate rows whose tile in each position of ``check`` (default: all) its mask allows.

    Also returns, per position, the mask of the tiles the kept rows use.
    Positions left out of ``check`` must pass already (their mask has not
    shrunk since the candidates were last filtered): the C pass relies on
    it to stop collecting a position's tiles once it has seen them all.

    >>> rows = np.array([[1, 2], [1, 3], [2, 3]], np.uint8)
    >>> kept, used = _filter_py(rows, np.arange(3, dtype=np.int32), [0b10, 0b1110])
    >>> kept.tolist(), [bin(m) for m in used]
    ([0, 1], ['0b10', '0b1100'])
    """
    sub = rows[idx]
    keep = None
    for j in range(rows.shape[1]) if check is None else check:
        t = _lut(masks[j])[sub[:, j]]
        if t.all():
            continue
        keep = t if keep is None else keep & t
    if keep is not None:
        idx = idx[keep]
        sub = sub[keep]
    return idx, [_mask_of(sub[:, j]) for j in range(rows.shape[1])]


_ALL_POSITIONS = bytes(range(MAX_SLOT))


def _filter_c(
    rows: np.ndarray, idx: np.ndarray, masks: Sequence[int], check: Sequence[int] | None = None
) -> tuple[np.ndarray, list[int]]:
    """:func:`_filter_py` in C (``lexigraph._native.filter_rows``)."""
    width = rows.shape[1]
    kept, used = _fill.filter_rows(rows, width, idx, masks, _ALL_POSITIONS[:width] if check is None else bytes(check))
    return (idx if kept is None else np.frombuffer(kept, np.int32)), list(used)


# -- results -------------------------------------------------------------------------------


@dataclass(frozen=True)
class FilledWord:
    """One slot of a fill: its name, word, priority and whether the grid already held the whole word."""

    slot: str
    word: str
    priority: int
    fixed: bool


@dataclass
class FillResult:
    """The answer of :func:`fill`.

    ``status``: ``"filled"``; ``"no_fill"`` (the search was exhaustive:
    no fill exists); ``"timeout"`` (none found within the time limit).
    ``grid``: the filled grid (``None`` unless filled). ``reason`` and
    ``culprits`` (slot names) say why there is none, when that is known.
    ``optimal``: the lowest priority of the fill was proved the best
    possible. ``stats``: counts of the search.
    """

    status: Status
    grid: Grid | None = None
    words: list[FilledWord] = field(default_factory=list)
    reason: str | None = None
    culprits: list[str] = field(default_factory=list)
    optimal: bool = False
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def min_priority(self) -> int | None:
        ps = [w.priority for w in self.words if not w.fixed]
        return min(ps) if ps else None

    @property
    def mean_priority(self) -> float | None:
        ps = [w.priority for w in self.words if not w.fixed]
        return sum(ps) / len(ps) if ps else None


@dataclass(frozen=True)
class Suggestion:
    """A candidate for one slot: ``crossings`` holds, per crossing slot, how many candidates it keeps.

    ``score`` is the product of those counts (the forward-checked ranking).
    """

    word: str
    priority: int
    score: int
    crossings: dict[str, int]


class _Conflict(Exception):
    def __init__(self, slot: int) -> None:
        self.slot = slot


class _Timeout(Exception):
    pass


class _BudgetOut(Exception):
    pass


# -- the problem ---------------------------------------------------------------------------------


class _Problem:
    """A grid turned into slots, cells, domains and candidate sets, ready to search."""

    def __init__(
        self,
        lex: "Lexicon",
        grid: Grid,
        *,
        min_priority: int,
        allow_repeats: bool,
        region: "set[tuple[int, int]] | None",
        buckets: _Buckets | None = None,
        pure_python: bool | None = None,
    ) -> None:
        self.grid = grid
        self.buckets = buckets or _Buckets(lex)
        alphabet = lex.alphabet
        n_codes = len(alphabet)
        use_c = _fill is not None and n_codes <= 63 and not pure_python
        self.filter = _filter_c if use_c else _filter_py
        self.full = ((1 << (n_codes + 1)) - 1) & ~1  # bits 1..n
        self.allow_repeats = allow_repeats
        self.min_priority = min_priority
        width = grid.width
        self.width = width
        all_slots = grid.slots()
        if not all_slots:
            raise QueryError("the grid has no slot (no run of two or more open cells)")
        # Cells and their starting domains (a uint64 per cell id for the C loop; ints beyond 63 tiles).
        dom: Domains = array("Q", bytes(8 * grid.height * width)) if n_codes <= 63 else [0] * (grid.height * width)
        open_ids: set[int] = set()
        self.fixed_cells: set[int] = set()
        for r, c in grid.open_cells():
            v = grid.cell(r, c)
            cid = r * width + c
            open_ids.add(cid)
            if v is None:
                dom[cid] = self.full
            else:
                code = alphabet.code(v)
                if code is None:
                    raise QueryError(f"cell ({r + 1}, {c + 1}) holds {v!r}, which is not a tile of the lexicon")
                dom[cid] = 1 << code
                self.fixed_cells.add(cid)
        if region is None:
            target = set(open_ids)
        else:
            target = {r * width + c for r, c in region if (r * width + c) in open_ids}
        in_slot = {r * width + c for s in all_slots for r, c in s.cells}
        # The cells the fill writes (a cell in no slot is left as it is).
        self.target = (target - self.fixed_cells) & in_slot
        # Slots: those with a cell in the region; complete ones must become words, partial ones must stay possible.
        slots: list[Slot] = []
        complete: list[bool] = []
        for s in all_slots:
            ids = [r * width + c for r, c in s.cells]
            if region is not None and not any(i in target for i in ids):
                continue
            if len(s) > MAX_SLOT:
                raise QueryError(f"slot {s.name} is {len(s)} cells long; at most {MAX_SLOT} are accepted")
            slots.append(s)
            complete.append(all(i in self.target or i in self.fixed_cells for i in ids))
        self.slots = slots
        self.complete = complete
        # Whole words already in the grid outside the slots searched: no slot may repeat them.
        self.words_outside = [
            s for s in all_slots if s not in slots and all(r * width + c in self.fixed_cells for r, c in s.cells)
        ]
        self.slot_cells = [[r * width + c for r, c in s.cells] for s in slots]
        self.cell_slots: dict[int, list[tuple[int, int]]] = {}
        for si, cells in enumerate(self.slot_cells):
            for j, cid in enumerate(cells):
                self.cell_slots.setdefault(cid, []).append((si, j))
        self.crossings: list[list[tuple[int, int, int]]] = []  # per slot: (position, other slot, its position)
        for si, cells in enumerate(self.slot_cells):
            row = []
            for j, cid in enumerate(cells):
                for t, k in self.cell_slots[cid]:
                    if t != si:
                        row.append((j, t, k))
            self.crossings.append(row)
        self.rows = [self.buckets.rows(len(s)) for s in slots]
        self.prio = [self.buckets.priorities(len(s)) for s in slots]
        # The complete slots of each length (shared lists: a grid may have thousands of slots).
        groups: dict[int, list[int]] = {}
        for si, s in enumerate(slots):
            if complete[si]:
                groups.setdefault(len(s), []).append(si)
        self.same_len: list[list[int]] = [groups.get(len(s), []) for s in slots]
        # Cells to decide one by one: target cells in no complete slot.
        in_complete = {cid for si, cells in enumerate(self.slot_cells) if complete[si] for cid in cells}
        self.free_cells = sorted(cid for cid in self.target if cid not in in_complete)
        self.dom0 = dom
        self.names = [s.name for s in slots]
        self.propagator: Any = None
        if use_c:
            by_cell: list[list[tuple[int, int]]] = [[] for _ in range(len(dom))]
            for cid, refs in self.cell_slots.items():
                by_cell[cid] = refs
            self.propagator = _fill.Propagator(
                self.rows,
                self.slot_cells,
                by_cell,
                bytes(self.complete),
                self.same_len,
                allow_repeats,
                functools.partial(np.frombuffer, dtype=np.int32),
                time.monotonic,
            )

    # -- initial state -------------------------------------------------------------------------

    def initial(self) -> tuple[list[np.ndarray], Domains]:
        """Candidates filtered by the fixed cells alone (no propagation); raises for a fixed word not in the lexicon."""
        cand: list[np.ndarray] = []
        dom = self.dom0[:]
        for si, s in enumerate(self.slots):
            cells = self.slot_cells[si]
            fully_fixed = all(c in self.fixed_cells for c in cells)
            base = self.buckets.base(len(s), 0 if fully_fixed else self.min_priority)
            masks = [dom[c] for c in cells]
            if all(m == self.full for m in masks):
                kept = base
            else:
                kept, _ = self.filter(self.rows[si], base, masks)
            if fully_fixed and not len(kept):
                word = "".join(self.grid.cell(r, c) or "" for r, c in s.cells)
                raise QueryError(f"the fixed word {word!r} at {s.name} is not in the lexicon")
            cand.append(kept)
        if not self.allow_repeats:
            for s in self.words_outside:
                length = len(s)
                rows = self.buckets.rows(length)
                masks = [dom[r * self.width + c] for r, c in s.cells]
                here, _ = self.filter(rows, self.buckets.base(length, 0), masks)
                if not len(here):
                    continue  # not a word: the grid keeps it, nothing can repeat it
                for si, t in enumerate(self.slots):
                    if len(t) == length and self.complete[si]:
                        cand[si] = cand[si][cand[si] != here[0]]
        return cand, dom

    def pattern(self, si: int) -> str:
        return "".join((v if len(v) == 1 else f"[{v}]") if v else "?" for v in self.grid.word(self.slots[si]))


# -- propagation -------------------------------------------------------------------------------------


class _Search:
    def __init__(self, p: _Problem, *, seed: int, deadline: float | None, progress: Progress | None) -> None:
        self.p = p
        self.seed = seed
        self.deadline = deadline
        self.progress = progress
        self.weight = [1.0] * len(p.slots)
        self.nodes = 0
        self.filters = 0
        self.failures = 0
        self.restarts = 0
        self.best_depth = 0
        self._last_report = 0.0
        self.noise: dict[int, np.ndarray] = {}
        self._wcache: dict[int, np.ndarray] = {}

    def propagate(
        self, cand: list[np.ndarray], dom: Domains, queue: "dict[int, set[int] | None]", singles: Iterable[int] = ()
    ) -> None:
        """Arc consistency from the slots in ``queue``; raises :class:`_Conflict` at a wipe-out.

        ``queue`` maps a slot to the positions whose cell domain shrank
        since it was last filtered (``None``: all of them; an empty set: none,
        only its candidates changed). The loop runs in C when the extension
        is built (``_native.Propagator``); this is its twin, step for step.
        """
        p = self.p
        if p.propagator is not None:
            got = p.propagator.propagate(cand, dom, queue, list(singles), self.deadline)
            self.filters = p.propagator.filters
            if got == -2:
                raise _Timeout()
            if got >= 0:
                raise _Conflict(got)
            return
        pending = list(queue)
        dirty: dict[int, set[int] | None] = dict(queue)
        newly_single = list(singles)
        while pending or newly_single:
            while newly_single:
                si = newly_single.pop()
                if p.allow_repeats or not p.complete[si]:
                    continue
                w = int(cand[si][0])
                for t in p.same_len[si]:
                    if t == si:
                        continue
                    ct = cand[t]
                    at = int(ct.searchsorted(w))
                    if at < len(ct) and ct[at] == w:
                        if len(ct) == 1:
                            raise _Conflict(t)
                        cand[t] = np.delete(ct, at)
                        if len(cand[t]) == 1:
                            newly_single.append(t)
                        if t not in dirty:
                            dirty[t] = set()
                            pending.append(t)
            if not pending:
                break
            self.filters += 1
            if self.deadline is not None and not self.filters & 255 and time.monotonic() > self.deadline:
                raise _Timeout()
            si = pending.pop()
            check = dirty.pop(si)
            cells = p.slot_cells[si]
            before = len(cand[si])
            kept, used = p.filter(p.rows[si], cand[si], [dom[c] for c in cells], None if check is None else sorted(check))
            if not len(kept):
                raise _Conflict(si)
            cand[si] = kept
            if len(kept) == 1 and before > 1:
                newly_single.append(si)
            for j, cid in enumerate(cells):
                m = used[j]
                if m != dom[cid]:
                    dom[cid] = m
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

    # -- choices ---------------------------------------------------------------------------------------

    def choose(self, cand: list[np.ndarray], dom: Domains) -> tuple[str, int] | None:
        p = self.p
        best = None
        best_key = math.inf
        for si, c in enumerate(cand):
            n = len(c)
            if n > 1 and p.complete[si]:
                key = n / self.weight[si]
                if key < best_key:
                    best_key, best = key, si
        if best is not None:
            if len(cand[best]) > _CELL_BRANCHING:
                # Many candidates: decide one cell of the slot first (its smallest domain).
                cells = [c for c in p.slot_cells[best] if dom[c] & (dom[c] - 1)]
                if cells:
                    return ("cell", min(cells, key=lambda c: (dom[c].bit_count(), c)))
            return ("slot", best)
        for cid in p.free_cells:
            if dom[cid] & (dom[cid] - 1):
                return ("cell", cid)
        return None

    def _noise(self, length: int, size: int) -> np.ndarray:
        got = self.noise.get(length)
        if got is None:
            rng = np.random.default_rng([self.seed, self.restarts, length])
            got = rng.random(size) * _NOISE
            self.noise[length] = got
        return got

    def ranked_value(self, cand: list[np.ndarray], si: int) -> int:
        """The best candidate of a slot: priority, then the crossings' room (log of the product), then noise."""
        p = self.p
        c = cand[si]
        rows = p.rows[si]
        sub = rows[c]
        score = np.zeros(len(c))
        for j, t, k in p.crossings[si]:
            ct = cand[t]
            if len(ct) <= 1:
                continue
            counts = np.bincount(p.rows[t][ct, k], minlength=256)
            score += np.log(counts + 1.0)[sub[:, j]]
        key = p.prio[si][c].astype(np.float64) * _PRIORITY_WEIGHT + score + self._noise(rows.shape[1], rows.shape[0])[c]
        return int(c[int(np.argmax(key))])

    def cell_value(self, cand: list[np.ndarray], dom: Domains, cid: int) -> int:
        """The tile for a cell that leaves its slots the most (priority-weighted) candidates."""
        p = self.p
        m = dom[cid]
        score = np.zeros(256)
        for t, k in p.cell_slots[cid]:
            ct = cand[t]
            weights = self._weights(t)[ct]
            score += np.log(np.bincount(p.rows[t][ct, k], weights=weights, minlength=256) + 1e-9)
        codes = [c for c in range(256) if (m >> c) & 1]
        noise = self._noise(0, 256)
        return max(codes, key=lambda code: (score[code] + noise[code], -code))

    def _weights(self, si: int) -> np.ndarray:
        """Per row of the slot's bucket: e^(weight x priority), the share a word counts for."""
        length = len(self.p.slots[si])
        got = self._wcache.get(length)
        if got is None:
            got = np.exp(self.p.prio[si].astype(np.float64) * _PRIORITY_WEIGHT)
            self._wcache[length] = got
        return got

    # -- the search ---------------------------------------------------------------------------------------

    def _tick(self, depth: int) -> None:
        self.nodes += 1
        if depth > self.best_depth:
            self.best_depth = depth
        if self.deadline is not None or self.progress is not None:
            now = time.monotonic()
            if self.deadline is not None and now > self.deadline:
                raise _Timeout()
            if self.progress is not None and now - self._last_report > 0.25:
                self._last_report = now
                self.progress("fill", self.best_depth, self._decisions_total)

    def run(self, cand0: list[np.ndarray], dom0: Domains) -> tuple[list[np.ndarray], Domains] | None:
        """Search from a propagated state with restarts; the filled state, or ``None`` when none exists."""
        p = self.p
        self._decisions_total = sum(1 for si, c in enumerate(cand0) if p.complete[si] and len(c) > 1) + len(p.free_cells)
        budget = float(_FIRST_BUDGET)
        while True:
            try:
                return self._dfs(list(cand0), dom0[:], int(budget))
            except _BudgetOut:
                self.restarts += 1
                self.noise.clear()
                budget *= _BUDGET_GROWTH

    def _dfs(self, cand: list[np.ndarray], dom: Domains, budget: int) -> tuple[list[np.ndarray], Domains] | None:
        stack: list[tuple[list[np.ndarray], Domains, str, int, int]] = []
        failures = 0
        while True:
            self._tick(len(stack))
            choice = self.choose(cand, dom)
            if choice is None:
                return cand, dom
            kind, var = choice
            if kind == "slot":
                value = self.ranked_value(cand, var)
            else:
                value = self.cell_value(cand, dom, var)
            child_c, child_d = list(cand), dom[:]
            try:
                self._assign(child_c, child_d, kind, var, value)
                stack.append((cand, dom, kind, var, value))
                cand, dom = child_c, child_d
                continue
            except _Conflict as e:
                self.weight[e.slot] += 1
            # The choice failed: refute it, backing up while the refutation fails too.
            while True:
                failures += 1
                self.failures += 1
                if failures > budget:
                    raise _BudgetOut()
                try:
                    self._refute(cand, dom, kind, var, value)
                    break
                except _Conflict as e:
                    self.weight[e.slot] += 1
                    if not stack:
                        return None
                    cand, dom, kind, var, value = stack.pop()

    def _assign(self, cand: list[np.ndarray], dom: Domains, kind: str, var: int, value: int) -> None:
        p = self.p
        if kind == "slot":
            cand[var] = np.array([value], np.int32)
            for j, cid in enumerate(p.slot_cells[var]):
                dom[cid] = 1 << int(p.rows[var][value, j])
            queue: dict[int, set[int] | None] = {}
            for _, t, k in p.crossings[var]:
                got = queue.setdefault(t, set())
                assert got is not None
                got.add(k)
            self.propagate(cand, dom, queue, singles=[var])
        else:
            dom[var] = 1 << value
            self.propagate(cand, dom, {t: {k} for t, k in p.cell_slots[var]})

    def _refute(self, cand: list[np.ndarray], dom: Domains, kind: str, var: int, value: int) -> None:
        p = self.p
        if kind == "slot":
            c = cand[var]
            rest = c[c != value]
            if not len(rest):
                raise _Conflict(var)
            cand[var] = rest
            self.propagate(cand, dom, {var: set()}, singles=[var] if len(rest) == 1 else ())
        else:
            dom[var] &= ~(1 << value)
            if not dom[var]:
                raise _Conflict(p.cell_slots[var][0][0])
            self.propagate(cand, dom, {t: {k} for t, k in p.cell_slots[var]})


# -- public API ------------------------------------------------------------------------------------------


Region: TypeAlias = "str | Iterable[str] | tuple[int, int, int, int] | set[tuple[int, int]] | frozenset[tuple[int, int]]"


def region_cells(grid: Grid, region: "Region | None") -> set[tuple[int, int]] | None:
    """The cells of a region: slot names, a rectangle, or a set of cells.

    Slot names: ``"1A,3D"`` or a list of names. A rectangle: a tuple
    ``(row1, col1, row2, col2)`` or the text ``"r1c1:r2c2"`` (``"1,1:3,5"``
    works too), rows and columns counted from 1 as people count them, both
    corners included. A ``set`` of ``(row, column)`` cells counts from 0, as
    :class:`Grid` and :class:`Slot` do.

    >>> g = Grid.from_text("...\\n...\\n...")
    >>> sorted(region_cells(g, "1A"))
    [(0, 0), (0, 1), (0, 2)]
    >>> len(region_cells(g, "1,1:2,2")), len(region_cells(g, {(0, 0), (2, 2)}))
    (4, 2)
    """
    if region is None:
        return None
    if isinstance(region, (set, frozenset)):
        chosen: set[tuple[int, int]] = set()
        for cell in region:
            if (
                not isinstance(cell, tuple)
                or len(cell) != 2
                or not all(isinstance(v, int) for v in cell)
                or not (0 <= cell[0] < grid.height and 0 <= cell[1] < grid.width)
            ):
                raise QueryError(f"the region's cell {cell!r} is not a (row, column) of the {grid.height}x{grid.width} grid")
            chosen.add((cell[0], cell[1]))
        if not chosen:
            raise QueryError("the region is empty")
        return chosen
    if isinstance(region, tuple) and len(region) == 4 and all(isinstance(v, int) for v in region):
        return _rectangle(grid, *region)
    if isinstance(region, str):
        text = region.strip()
        if ":" in text:
            corners = [_parse_corner(part) for part in text.split(":", 1)]
            return _rectangle(grid, corners[0][0], corners[0][1], corners[1][0], corners[1][1])
        items: list[str] = [x for x in text.replace(";", ",").replace(" ", ",").split(",") if x]
    else:
        items = [str(x) for x in region]
    if not items:
        raise QueryError("the region is empty")
    cells: set[tuple[int, int]] = set()
    for name in items:
        cells.update(grid.slot(name).cells)
    return cells


def _parse_corner(text: str) -> tuple[int, int]:
    import re

    m = re.fullmatch(r"\s*[rR]?(\d+)\s*[,cC]\s*(\d+)\s*", text)
    if m is None:
        raise QueryError(f"a rectangle corner is written r1c1 or 1,1 (row, column from 1), not {text!r}")
    return int(m.group(1)), int(m.group(2))


def _rectangle(grid: Grid, r1: int, c1: int, r2: int, c2: int) -> set[tuple[int, int]]:
    if not (1 <= r1 <= r2 <= grid.height and 1 <= c1 <= c2 <= grid.width):
        raise QueryError(f"the rectangle ({r1},{c1})-({r2},{c2}) is not inside the {grid.height}x{grid.width} grid")
    return {(r, c) for r in range(r1 - 1, r2) for c in range(c1 - 1, c2) if not grid.is_block(r, c)}


def _check_args(min_priority: int, seed: int, timeout: float | None) -> None:
    if not isinstance(min_priority, int) or isinstance(min_priority, bool) or not 0 <= min_priority <= 255:
        raise QueryError("min_priority must be an integer from 0 to 255")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise QueryError("seed must be a non-negative integer")
    if timeout is not None and (not isinstance(timeout, (int, float)) or not timeout > 0 or math.isinf(timeout)):
        raise QueryError("timeout must be a positive number of seconds")


def fill(
    lex: "Lexicon",
    grid: Grid,
    *,
    min_priority: int = 0,
    seed: int = 0,
    timeout: float | None = None,
    allow_repeats: bool = False,
    region: "Region | None" = None,
    improve: float = 0.0,
    progress: Progress | None = None,
    pure_python: bool | None = None,
) -> FillResult:
    """Fill the grid's empty cells (or those of ``region``) with words of ``lex``.

    ``timeout`` bounds the whole call (seconds); ``improve`` gives up to
    that many seconds (within the timeout) to raising the fill's lowest
    priority. ``progress(stage, done, total)`` is called a few times a
    second on long fills. The result is the same for the same arguments
    and ``seed`` (unless a time limit cuts the search short).

    >>> import lexigraph
    >>> lex = lexigraph.open()
    >>> r = fill(lex, Grid.from_text("....\\n....\\n...."), seed=3)
    >>> r.status, len(r.words), r.grid.is_complete()
    ('filled', 7, True)
    >>> fill(lex, Grid.from_text("qz.\\n...")).reason
    'no word fits 1A (QZ?)'
    """
    _check_args(min_priority, seed, timeout)
    if not isinstance(improve, (int, float)) or improve < 0:
        raise QueryError("improve must be a non-negative number of seconds")
    start = time.monotonic()
    deadline = None if timeout is None else start + float(timeout)
    cells = region_cells(grid, region)
    buckets = _Buckets(lex)
    best: FillResult | None = None
    floor = min_priority
    while True:
        result = _fill_once(
            lex, grid, buckets, floor, seed, deadline, allow_repeats, cells, progress, pure_python
        )
        if best is None:
            best = result
            if result.status != "filled" or improve <= 0:
                break
            until = time.monotonic() + float(improve)
            deadline = until if deadline is None else min(deadline, until)
        elif result.status == "filled":
            best = result
        else:
            best.optimal = result.status == "no_fill"
            break
        low = best.min_priority
        if low is None or low >= 255:
            best.optimal = True
            break
        floor = low + 1
    best.seconds = time.monotonic() - start
    return best


def _fill_once(
    lex: "Lexicon",
    grid: Grid,
    buckets: _Buckets,
    min_priority: int,
    seed: int,
    deadline: float | None,
    allow_repeats: bool,
    region: set[tuple[int, int]] | None,
    progress: Progress | None,
    pure_python: bool | None,
) -> FillResult:
    p = _Problem(lex, grid, min_priority=min_priority, allow_repeats=allow_repeats, region=region, buckets=buckets, pure_python=pure_python)
    cand, dom = p.initial()
    for si, c in enumerate(cand):
        if not len(c):
            at_least = f" of priority {min_priority} or more" if min_priority else ""
            return FillResult(
                "no_fill", reason=f"no word{at_least} fits {p.names[si]} ({p.pattern(si).upper()})", culprits=[p.names[si]]
            )
    search = _Search(p, seed=seed, deadline=deadline, progress=progress)
    try:
        search.propagate(cand, dom, dict.fromkeys(range(len(cand))), singles=[si for si, c in enumerate(cand) if len(c) == 1])
    except _Conflict as e:
        return FillResult(
            "no_fill",
            reason=f"the crossings leave no word for {p.names[e.slot]} ({p.pattern(e.slot).upper()})",
            culprits=[p.names[e.slot]],
        )
    except _Timeout:
        return FillResult("timeout", reason="none found within the time limit", stats=_stats(search))
    try:
        got = search.run(cand, dom)
    except _Timeout:
        return FillResult("timeout", reason="none found within the time limit", stats=_stats(search))
    if got is None:
        hard = sorted(range(len(p.slots)), key=lambda s: -search.weight[s])[:3]
        return FillResult(
            "no_fill",
            reason="no fill exists (the search was exhaustive)",
            culprits=[p.names[s] for s in hard if search.weight[s] > 1],
            stats=_stats(search),
        )
    cand, dom = got
    return _result(p, cand, dom, search)


def _stats(search: _Search) -> dict[str, int]:
    return {"nodes": search.nodes, "failures": search.failures, "restarts": search.restarts, "filters": search.filters}


def _result(p: _Problem, cand: list[np.ndarray], dom: Domains, search: _Search) -> FillResult:
    alphabet = p.buckets.alphabet
    values: dict[tuple[int, int], str | None] = {}
    for cid in p.target:
        m = dom[cid]
        code = m.bit_length() - 1
        values[(cid // p.width, cid % p.width)] = alphabet.label(code)
    grid = p.grid.with_cells(values)
    words = []
    for si, s in enumerate(p.slots):
        if not p.complete[si]:
            continue
        row = int(cand[si][0])
        fixed = all(c in p.fixed_cells for c in p.slot_cells[si])
        words.append(FilledWord(s.name, p.buckets.word(len(s), row), int(p.prio[si][row]), fixed))
    return FillResult("filled", grid=grid, words=words, stats=_stats(search))


def suggest(
    lex: "Lexicon",
    grid: Grid,
    slot: str,
    *,
    min_priority: int = 0,
    allow_repeats: bool = False,
    limit: int | None = 50,
    pure_python: bool | None = None,
) -> list[Suggestion]:
    """Candidates for one slot, ranked by how many candidates they leave to the crossing slots.

    The grid is first made arc consistent (every crossing can still be
    filled); each candidate's ``score`` is the product, over the slot's
    crossings, of the number of candidates the crossing keeps with the
    candidate's tile in the shared cell. Ties: priority, then alphabetical.

    >>> import lexigraph
    >>> lex = lexigraph.open()
    >>> [s.word for s in suggest(lex, Grid.from_text("q...\\n....\\n....\\n...."), "1A", limit=3)]
    ['qats', 'qoph', 'qaid']
    """
    _check_args(min_priority, 0, None)
    if limit is not None and (not isinstance(limit, int) or limit < 0):
        raise QueryError("limit must be a non-negative integer")
    target = grid.slot(slot)
    p = _Problem(lex, grid, min_priority=min_priority, allow_repeats=allow_repeats, region=set(target.cells), pure_python=pure_python)
    # With the slot as the region, its crossings are partial slots: they must stay possible.
    cand, dom = p.initial()
    search = _Search(p, seed=0, deadline=None, progress=None)
    try:
        search.propagate(cand, dom, dict.fromkeys(range(len(cand))), singles=[si for si, c in enumerate(cand) if len(c) == 1])
    except _Conflict:
        return []
    si = p.names.index(target.name)
    c = cand[si]
    rows = p.rows[si]
    sub = rows[c]
    score = np.ones(len(c), dtype=np.float64)
    per: list[tuple[str, np.ndarray]] = []
    for j, t, k in p.crossings[si]:
        counts = np.bincount(p.rows[t][cand[t], k], minlength=256)
        got = counts[sub[:, j]]
        per.append((p.names[t], got))
        score *= got
    prio = p.prio[si][c]
    # Rows are sorted, so ascending row order is alphabetical order.
    order = np.lexsort((c, -prio.astype(np.int64), -score))
    if limit is not None:
        order = order[:limit]
    words = p.buckets.alphabet.decode_rows(sub[order].tobytes(), rows.shape[1]) if len(order) else []
    return [
        Suggestion(word, int(prio[i]), int(score[i]), {name: int(got[i]) for name, got in per})
        for word, i in zip(words, order.tolist())
    ]


__all__ = ["FillResult", "FilledWord", "Suggestion", "fill", "region_cells", "suggest"]
