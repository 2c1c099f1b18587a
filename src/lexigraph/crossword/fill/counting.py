"""How many fills a grid or a region admits, counted up to a cap: how free a corner is before filling it.

Every fill is counted once: a depth-first search over the engine's fill
state branches on each word of a slot (and, for cells in no slot wholly in
the region, on each tile), propagating every choice, so two leaves differ in
some cell. The rules hold as in :func:`~lexigraph.crossword.fill.filler.fill`
(minimums, repeats, shared runs, the blocklist, stems, slot patterns, locked
cells); slots that leave the region must keep a word that fits, as there.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ...engine.interface import EAGER_ALWAYS
from ...errors import QueryError
from ..grid import Grid
from .constraints import constrained_grid
from .problem import FillProblem, Rules, checked_rules, rules_of
from .regions import Region
from .search import CONSISTENT, PAST_DEADLINE

if TYPE_CHECKING:  # pragma: no cover
    from ...engine import Engines
    from ...engine.interface import FillState

#: Largest cap a count may ask for.
MAX_CAP = 1_000_000


@dataclass(frozen=True)
class FillCount:
    """``count`` fills found; ``exact``: the search was exhaustive (``count`` is every fill, below ``cap``);
    otherwise it stopped at the cap (``capped``) or at the time limit (``timed_out``)."""

    count: int
    cap: int
    exact: bool
    capped: bool
    timed_out: bool
    seconds: float


class _Counter:
    def __init__(self, p: FillProblem, state: "FillState", cap: int, deadline: float | None) -> None:
        self.p = p
        self.state = state
        self.cap = cap
        self.deadline = deadline
        self.count = 0
        self.timed_out = False

    def run(self) -> None:
        if self.count >= self.cap or self.timed_out:
            return
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.timed_out = True
            return
        state, p = self.state, self.p
        sizes = state.sizes()
        open_slots = [si for si in p.complete_slots if sizes[si] > 1]
        if open_slots:
            si = min(open_slots, key=lambda s: sizes[s])
            for row in state.candidates(si).tolist():
                self._try(lambda: state.assign(si, row, self.deadline), si)
                if self.count >= self.cap or self.timed_out:
                    return
            return
        for cid in p.free_cells:
            m = state.domain(cid)
            if m & (m - 1):
                blame = p.cell_slots[cid][0][0]
                for code in range(m.bit_length()):
                    if (m >> code) & 1:
                        self._try(lambda: state.set_tile(cid, code, self.deadline), blame)
                        if self.count >= self.cap or self.timed_out:
                            return
                return
        self.count += 1

    def _try(self, decide: Callable[[], int], blame: int) -> None:
        mark = self.state.mark()
        got = decide()
        if got == CONSISTENT:
            got = self.p.enforce(self.state, blame, self.deadline)
        if got == PAST_DEADLINE:
            self.timed_out = True
        elif got == CONSISTENT:
            self.run()
        self.state.undo(mark)


def count_fills(
    lex: "Engines",
    grid: Grid,
    *,
    rules: Rules | None = None,
    region: "Region | None" = None,
    locked: "Region | None" = None,
    cap: int = 1000,
    timeout: float | None = None,
    **rule_keywords: object,
) -> FillCount:
    """The number of fills of the grid's empty cells (or those of ``region``), up to ``cap``.

    ``rules`` (or its fields as keywords), ``region`` and ``locked``: as
    :func:`~lexigraph.crossword.fill.filler.fill` takes them. The count is
    exact when it is below ``cap`` and the search ended before ``timeout``.

    >>> import lexigraph
    >>> from lexigraph.crossword.formats import grid_from_text
    >>> lex = lexigraph.load(["cat", "cot", "act", "tab", "oat", "tot", "ta", "at"])
    >>> count_fills(lex, grid_from_text("c..\\n#.#"), region="1A").count   # cat (2D a? stays possible), not cot
    1
    >>> r = count_fills(lex, grid_from_text("...\\n#.#"), cap=2)
    >>> r.count, r.exact, r.capped
    (2, False, True)
    """
    if not isinstance(grid, Grid):
        raise QueryError(f"count_fills takes a Grid, not {type(grid).__name__}")
    if not isinstance(cap, int) or isinstance(cap, bool) or not 1 <= cap <= MAX_CAP:
        raise QueryError(f"cap must be an integer from 1 to {MAX_CAP:,}")
    if timeout is not None and (not isinstance(timeout, (int, float)) or isinstance(timeout, bool)
                                or not timeout > 0 or math.isinf(timeout)):
        raise QueryError("timeout must be a positive number of seconds")
    checked = checked_rules(grid, rules_of(rules, rule_keywords))
    start = time.monotonic()
    deadline = None if timeout is None else start + float(timeout)
    grid, cells, fixed = constrained_grid(grid, lex.store.alphabet, checked.slot_patterns, region, locked)
    p = FillProblem(lex, grid, rules=replace(checked, given_ok=checked.given_ok | frozenset(fixed)), region=cells)

    def answer(count: int, timed_out: bool) -> FillCount:
        return FillCount(count, cap, not timed_out and count < cap, count >= cap, timed_out, time.monotonic() - start)

    if p.first_empty() is not None:
        return answer(0, False)
    state = p.state(EAGER_ALWAYS)
    got = state.propagate(p.initial_queue(), p.initial_singles(), deadline)
    if got == CONSISTENT:
        got = p.enforce(state, -1, deadline)
    if got != CONSISTENT:
        return answer(0, got == PAST_DEADLINE)
    counter = _Counter(p, state, cap, deadline)
    counter.run()
    return answer(counter.count, counter.timed_out)
