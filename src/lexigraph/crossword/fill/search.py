"""The fill's search: dom/wdeg variable order, value order by priority and room, two-way branching, restarts.

The search works on the engine's fill state (:class:`~lexigraph.engine.interface.FillState`),
which propagates every decision and keeps a trail: a decision is a mark on
the trail, backtracking is undoing to it, so the search holds no copy of
the grid per level and its memory does not grow with its depth.

It picks the slot with the fewest candidates per unit of conflict weight
(slots whose filtering wiped out get heavier: *dom/wdeg*), except that after
a word fails it stays on that slot until one of its words holds (*last
conflict*), tries its best
candidate (highest priority first, then the one that leaves the crossing
slots the most candidates, perturbed by a small seeded random amount), and
on failure strikes that candidate and propagates again (two-way
branching). Cells outside every slot are decided one tile at a time. Runs
restart with a growing budget of failures, keeping the weights; a
run that ends within its budget has searched everything, so "no fill
exists" is a proof.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ...engine.interface import FillState
from .problem import FillProblem

Progress = Callable[[str, int, int], None]

#: Failures allowed in the first run; each restart allows half as many more. (Ingrid's 500 and x1.1 were
#: tried on the four hardest scored grid-minimum pairs, three seeds each: 7 of 11 runs filled within 10 s
#: of CPU, against 11 of 13 with these.)
_FIRST_BUDGET = 60
_BUDGET_GROWTH = 1.5
#: A priority difference of 10 weighs like a factor of e in the crossings' room: enough for fills of a
#: high mean, little enough that the room decides between words of close scores (measured on scored
#: TWL06 at minimums 0, 40 and 50: a factor of 10 per 10 points filled fewer grids, no higher mean).
_PRIORITY_WEIGHT = 0.1
#: Size of the seeded random perturbation of the value order, in units of log(room), worth six points of
#: priority: different seeds give different fills, and restarts try different words. (0.3 filled the nine
#: hardest benchmark pairs 43 times in 45 seed runs of 10 s, 41 within Ingrid's time + 1 s, in 49 s of CPU;
#: 0.6 filled 45, all within, in 22 s, for a mean score 0.2 lower; 0.45 and 1.0 were in between.)
_NOISE = 0.6
#: Seconds between two progress reports.
_REPORT_EVERY = 0.25

CONSISTENT, PAST_DEADLINE = -1, -2


class Timeout(Exception):
    """The deadline passed."""


class BudgetOut(Exception):
    """A run used up its budget of failures: restart (``branch``: its decisions when it stopped)."""

    def __init__(self, branch: list["Decision"]) -> None:
        self.branch = branch


#: A decision on the search's branch: (taken, kind, var, value): ``taken`` is False for a refutation
#: (the value struck), ``kind`` is "slot" (var: a slot, value: a row) or "cell" (var: a cell, value: a tile).
Decision = tuple[bool, str, int, int]
#: Branches of interrupted runs kept as nogoods (the oldest are dropped beyond this many).
_MAX_NOGOOD_BRANCHES = 64


def _packed(branches: list[list[Decision]]) -> np.ndarray:
    """Branches as FillState.apply_nogoods reads them: per branch its length, then (flags, var, value) per
    decision (flags: 1 taken, 2 a cell's tile)."""
    flat: list[int] = []
    for branch in branches:
        flat.append(len(branch))
        for taken, kind, var, value in branch:
            flat += [int(taken) | (2 if kind == "cell" else 0), var, value]
    return np.array(flat, np.int32)


@dataclass
class Differ:
    """Fills found before (each: a row per slot, -1 for slots outside the count): a new fill must differ
    from each in at least ``at_least`` of the ``counted`` slots."""

    previous: list[list[int]]
    counted: list[int]
    at_least: int


class FillSearch:
    """One search over a propagated fill state; :meth:`run` leaves a fill in the state, or proves none."""

    def __init__(self, p: FillProblem, state: FillState, *, seed: int, deadline: float | None,
                 progress: Progress | None, differ: Differ | None = None,
                 weights: list[float] | None = None, started: float | None = None) -> None:
        self.p = p
        self.state = state
        self.seed = seed
        self.deadline = deadline
        self.progress = progress
        self.differ = differ
        self.weight = weights if weights is not None else [1.0] * len(p.slots)
        self.complete_slots = [si for si in range(len(p.slots)) if p.complete[si]]
        self._filters0 = state.filters
        self.nodes = 0
        self.failures = 0
        self.restarts = 0
        self.best_decided = 0
        self._started = time.monotonic() if started is None else started
        self._last_report = self._started
        self.noise: dict[int, np.ndarray] = {}
        #: The slot whose word last failed, chosen again until a word of it holds, or -1 (last-conflict
        #: reasoning, Lecoutre et al. 2009: the search goes back to the culprit of a failure instead of
        #: filling other slots first. On the stacked grids at minimum 0 it filled 16 of 16 seed runs within
        #: 20 s of CPU, against 12 without; on the nine hardest default pairs, 43 of 45 against 41.)
        self.last_conflict = -1
        self._wcache: dict[int, np.ndarray] = {}
        #: Per length: each row's priority x weight + its noise, the value order's key before the room.
        self._keys: dict[int, np.ndarray] = {}
        #: The room a crossing slot keeps, by its number of candidates: log(n + 1), up to the largest bucket.
        self._room = np.log(np.arange(max(len(r) for r in p.rows) + 1 if p.rows else 1) + 1.0)
        self._crossings = [np.array(c, np.int32).reshape(-1, 3) for c in p.crossings]
        #: Branches of the runs a restart interrupted. Every refutation on such a branch was taken once the
        #: value's whole subtree had failed, so under the decisions taken before it the value fails again:
        #: later runs strike it as soon as those decisions hold (reduced nld-nogoods, Lecoutre et al. 2007).
        self.nogoods: list[list[Decision]] = []
        state.set_nogoods(_packed(self.nogoods))  # the state walks them in C (a state may serve several searches)

    @property
    def filters(self) -> int:
        """Filtering passes this search ran."""
        return self.state.filters - self._filters0

    # -- choices ---------------------------------------------------------------------------------------

    def choose(self, sizes: Sequence[int]) -> tuple[str, int] | None:
        p = self.p
        best = None
        best_key = math.inf
        weight = self.weight
        if self.last_conflict >= 0:
            if sizes[self.last_conflict] > 1:
                return ("slot", self.last_conflict)
            self.last_conflict = -1
        for si in self.complete_slots:
            n = sizes[si]
            if n > 1:
                key = n / weight[si]
                if key < best_key:
                    best_key, best = key, si
        if best is not None:
            # A whole word even for a slot of thousands of candidates: deciding its cells one tile at a
            # time first left a grid of stacked 15-letter rows unfilled after 12 s of CPU on four seeds,
            # where whole words fill it in 0.5-4.8 s.
            return ("slot", best)
        state = self.state
        for cid in p.free_cells:
            m = state.domain(cid)
            if m & (m - 1):
                return ("cell", cid)
        return None

    def _noise(self, length: int, size: int) -> np.ndarray:
        got = self.noise.get(length)
        if got is None:
            rng = np.random.default_rng([self.seed, self.restarts, length])
            got = rng.random(size) * _NOISE
            self.noise[length] = got
        return got

    def taken(self, si: int, singles: Sequence[int]) -> list[int]:
        """Rows the other complete slots of the slot's length hold (no repeats)."""
        if self.p.allow_repeats:
            return []
        return [singles[t] for t in self.p.same_len[si] if t != si and singles[t] >= 0]

    def ranked_value(self, si: int, singles: Sequence[int]) -> int:
        """The best candidate of a slot: priority, then the crossings' room (log of the product), then noise."""
        rows = self.p.rows[si]
        length = rows.shape[1]
        keys = self._keys.get(length)
        if keys is None:
            keys = self.p.prio[si].astype(np.float64) * _PRIORITY_WEIGHT + self._noise(length, rows.shape[0])
            self._keys[length] = keys
        return self.state.best_row(si, keys, self._crossings[si], self._room, self.taken(si, singles))

    def cell_value(self, cid: int) -> int:
        """The tile for a cell that leaves its slots the most (priority-weighted) candidates."""
        p = self.p
        state = self.state
        m = state.domain(cid)
        score = np.zeros(256)
        for t, k in p.cell_slots[cid]:
            ct = state.candidates(t)
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

    def _tick(self, sizes: Sequence[int]) -> None:
        self.nodes += 1
        if self.deadline is not None or self.progress is not None:
            now = time.monotonic()
            if self.deadline is not None and now > self.deadline:
                raise Timeout()
            if self.progress is not None and now - self._last_report > _REPORT_EVERY:
                self._last_report = now
                decided = sum(1 for si in self.complete_slots if sizes[si] == 1)
                self.best_decided = max(self.best_decided, decided)
                total = len(self.complete_slots)
                stage = f"fill: {self.best_decided}/{total} slots at best, {self.restarts} restarts"
                if self.deadline is not None:  # the share of the time limit spent: it always moves
                    span = self.deadline - self._started
                    self.progress(stage, int(1000 * (now - self._started)), max(1, int(1000 * span)))
                else:
                    self.progress(stage, self.best_decided, total)

    def run(self) -> bool:
        """Search with restarts from the state as it is (propagated); True: the state holds a fill; False: none exists.

        Raises :class:`Timeout` past the deadline (the state is then back where it started).
        """
        state = self.state
        root = state.mark()
        budget = float(_FIRST_BUDGET)
        try:
            while True:
                try:
                    got = self.apply_nogoods(-1)
                    if got == CONSISTENT:
                        got = self.p.enforce(self.state, -1, self.deadline)
                    if got == PAST_DEADLINE:
                        raise Timeout()
                    if got != CONSISTENT:
                        state.undo(root)
                        return False
                    return self._dfs(int(budget))
                except BudgetOut as out:
                    state.undo(root)
                    if any(not taken for taken, _, _, _ in out.branch):
                        self.nogoods.append(out.branch)
                        del self.nogoods[:-_MAX_NOGOOD_BRANCHES]
                        state.set_nogoods(_packed(self.nogoods))
                    self.restarts += 1
                    self.last_conflict = -1
                    self.noise.clear()
                    self._keys.clear()
                    budget *= _BUDGET_GROWTH
        except Timeout:
            state.undo(root)
            raise

    def _dfs(self, budget: int) -> bool:
        state = self.state
        stack: list[tuple[int, str, int, int, int]] = []  # mark, kind, var, value, its place on the branch
        branch: list[Decision] = []
        failures = 0
        while True:
            sizes = state.sizes()
            self._tick(sizes)
            choice = self.choose(sizes)
            if choice is None:
                return True
            kind, var = choice
            if kind == "slot":
                value = self.ranked_value(var, state.singles())
            else:
                value = self.cell_value(var)
            mark = state.mark()
            got = self._decide(kind, var, value)
            if got == CONSISTENT:
                if var == self.last_conflict and kind == "slot":
                    self.last_conflict = -1
                stack.append((mark, kind, var, value, len(branch)))
                branch.append((True, kind, var, value))
                continue
            self._failed(got, mark)
            if kind == "slot":
                self.last_conflict = var
            # The choice failed: refute it, backing up while the refutation fails too.
            while True:
                failures += 1
                self.failures += 1
                if failures > budget:
                    raise BudgetOut(branch)
                here = state.mark()
                got = self._refute(kind, var, value)
                if got == CONSISTENT:
                    branch.append((False, kind, var, value))
                    break
                self._failed(got, here)
                if not stack:
                    return False
                mark, kind, var, value, at = stack.pop()
                state.undo(mark)
                del branch[at:]

    def _failed(self, got: int, mark: int) -> None:
        if got == PAST_DEADLINE:
            raise Timeout()
        self.weight[got] += 1
        self.state.undo(mark)

    def _decide(self, kind: str, var: int, value: int) -> int:
        if kind == "slot":
            got = self.state.assign(var, value, self.deadline)
        else:
            got = self.state.set_tile(var, value, self.deadline)
        return self._after(got, var if kind == "slot" else self.p.cell_slots[var][0][0])

    def _refute(self, kind: str, var: int, value: int) -> int:
        if kind == "slot":
            got = self.state.exclude(var, value, self.deadline)
        else:
            got = self.state.exclude_tile(var, value, self.deadline)
        return self._after(got, var if kind == "slot" else self.p.cell_slots[var][0][0])

    def _after(self, got: int, blame: int) -> int:
        """The rules beyond propagation, once a decision has propagated: nogoods, then differing fills."""
        if got == CONSISTENT and self.nogoods:
            got = self.apply_nogoods(blame)
        if got == CONSISTENT:
            got = self.p.enforce(self.state, blame, self.deadline)
        if got == CONSISTENT and self.differ is not None:
            got = self.check_differ(blame)
        return got

    def apply_nogoods(self, blame: int) -> int:
        """Strike what the branches of interrupted runs proved to fail under the decisions that hold now."""
        if not self.nogoods:
            return CONSISTENT
        return self.state.apply_nogoods(blame, self.deadline)

    def check_differ(self, blame: int) -> int:
        """Whether the fill can still differ enough from every earlier one; strikes what would make it agree too much."""
        differ = self.differ
        assert differ is not None
        state = self.state
        while True:
            singles = state.singles()
            struck = False
            for previous in differ.previous:
                agree = [si for si in differ.counted if singles[si] == previous[si]]
                room = len(differ.counted) - differ.at_least - len(agree)
                if room < 0:
                    return blame
                if room == 0:  # every slot still open must differ from this fill
                    for si in differ.counted:
                        if singles[si] < 0 and state.sizes()[si] > 1 and state.has(si, previous[si]):
                            got = state.exclude(si, previous[si], self.deadline)
                            if got != CONSISTENT:
                                return got if got == PAST_DEADLINE else blame
                            struck = True
                    if struck:
                        break
            if not struck:
                return CONSISTENT
