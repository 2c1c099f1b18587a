"""Filling a grid: the whole search, the drive to a better lowest priority, and the result.

Objective: among fills, a higher *lowest* priority first, then a higher
mean. The search tries high-priority words first (which favours the
mean); once a fill is found, ``improve`` seconds go to raising its lowest
priority: the search runs again with ``min_priority`` just above the fill's
lowest one, until that is proved impossible or the time is spent.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

import numpy as np

from ...errors import QueryError
from ..grid import Grid
from .problem import Domains, FillProblem, WordBuckets
from .regions import Region, region_cells
from .results import FilledWord, FillResult
from .search import Conflict, FillSearch, Progress, Timeout

if TYPE_CHECKING:  # pragma: no cover
    from ...engine import Engines


def check_fill_arguments(min_priority: int, seed: int, timeout: float | None) -> None:
    if not isinstance(min_priority, int) or isinstance(min_priority, bool) or not 0 <= min_priority <= 255:
        raise QueryError("min_priority must be an integer from 0 to 255")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise QueryError("seed must be a non-negative integer")
    if timeout is not None and (not isinstance(timeout, (int, float)) or not timeout > 0 or math.isinf(timeout)):
        raise QueryError("timeout must be a positive number of seconds")


def fill(
    lex: "Engines",
    grid: Grid,
    *,
    min_priority: int = 0,
    seed: int = 0,
    timeout: float | None = None,
    allow_repeats: bool = False,
    region: "Region | None" = None,
    improve: float = 0.0,
    progress: Progress | None = None,
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
    check_fill_arguments(min_priority, seed, timeout)
    if not isinstance(grid, Grid):
        raise QueryError(f"fill takes a Grid, not {type(grid).__name__}")
    if region is not None and not isinstance(region, (str, tuple, list, set, frozenset)):
        raise QueryError(f"a region is slot names, a rectangle or a set of cells, not {type(region).__name__}")
    if not isinstance(improve, (int, float)) or improve < 0:
        raise QueryError("improve must be a non-negative number of seconds")
    start = time.monotonic()
    deadline = None if timeout is None else start + float(timeout)
    cells = region_cells(grid, region)
    buckets = WordBuckets(lex.store)
    best: FillResult | None = None
    floor = min_priority
    while True:
        result = _fill_once(lex, grid, buckets, floor, seed, deadline, allow_repeats, cells, progress)
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
    lex: "Engines",
    grid: Grid,
    buckets: WordBuckets,
    min_priority: int,
    seed: int,
    deadline: float | None,
    allow_repeats: bool,
    region: set[tuple[int, int]] | None,
    progress: Progress | None,
) -> FillResult:
    p = FillProblem(lex, grid, min_priority=min_priority, allow_repeats=allow_repeats, region=region, buckets=buckets)
    cand, dom = p.initial()
    for si, c in enumerate(cand):
        if not len(c):
            at_least = f" of priority {min_priority} or more" if min_priority else ""
            return FillResult(
                "no_fill", reason=f"no word{at_least} fits {p.names[si]} ({p.pattern(si).upper()})", culprits=[p.names[si]]
            )
    search = FillSearch(p, seed=seed, deadline=deadline, progress=progress)
    try:
        search.propagate(cand, dom, dict.fromkeys(range(len(cand))), singles=[si for si, c in enumerate(cand) if len(c) == 1])
    except Conflict as e:
        return FillResult(
            "no_fill",
            reason=f"the crossings leave no word for {p.names[e.slot]} ({p.pattern(e.slot).upper()})",
            culprits=[p.names[e.slot]],
        )
    except Timeout:
        return FillResult("timeout", reason="none found within the time limit", stats=_stats(search))
    try:
        got = search.run(cand, dom)
    except Timeout:
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


def _stats(search: FillSearch) -> dict[str, int]:
    return {"nodes": search.nodes, "failures": search.failures, "restarts": search.restarts, "filters": search.filters}


def _result(p: FillProblem, cand: list[np.ndarray], dom: Domains, search: FillSearch) -> FillResult:
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
