"""The fill's search: dom/wdeg variable order, value order by priority and room, two-way branching, restarts.

The search picks the slot with the fewest candidates per unit of conflict
weight (slots whose filtering wiped out get heavier: *dom/wdeg*), tries
its best candidate (highest priority first, then the one that leaves the
crossing slots the most candidates, perturbed by a small seeded random
amount), and on failure removes that candidate and propagates again
(two-way branching). A slot with very many candidates is decided one cell
at a time instead. Runs restart with a growing budget of failures, keeping
the weights; a run that ends within its budget has searched everything,
so "no fill exists" is a proof.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable

import numpy as np

from .problem import Domains, FillProblem

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


class Conflict(Exception):
    """A slot was left without candidates (``slot``: its index)."""

    def __init__(self, slot: int) -> None:
        self.slot = slot


class Timeout(Exception):
    """The deadline passed."""


class BudgetOut(Exception):
    """A run used up its budget of failures: restart."""


class FillSearch:
    def __init__(self, p: FillProblem, *, seed: int, deadline: float | None, progress: Progress | None) -> None:
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
        """Arc consistency from the slots in ``queue``; raises :class:`Conflict` at a wipe-out.

        ``queue`` maps a slot to the positions whose cell domain shrank
        since it was last filtered (``None``: all of them; an empty set: none,
        only its candidates changed). The engine's propagator runs the loop
        (C, or its Python twin :class:`lexigraph.engine.python.propagation.PythonPropagator`).
        """
        propagator = self.p.propagator
        got = propagator.propagate(cand, dom, queue, list(singles), self.deadline)
        self.filters = propagator.filters
        if got == -2:
            raise Timeout()
        if got >= 0:
            raise Conflict(got)

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
                raise Timeout()
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
            except BudgetOut:
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
            except Conflict as e:
                self.weight[e.slot] += 1
            # The choice failed: refute it, backing up while the refutation fails too.
            while True:
                failures += 1
                self.failures += 1
                if failures > budget:
                    raise BudgetOut()
                try:
                    self._refute(cand, dom, kind, var, value)
                    break
                except Conflict as e:
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
                raise Conflict(var)
            cand[var] = rest
            self.propagate(cand, dom, {var: set()}, singles=[var] if len(rest) == 1 else ())
        else:
            dom[var] &= ~(1 << value)
            if not dom[var]:
                raise Conflict(p.cell_slots[var][0][0])
            self.propagate(cand, dom, {t: {k} for t, k in p.cell_slots[var]})
