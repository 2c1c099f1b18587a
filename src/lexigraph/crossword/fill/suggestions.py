"""Ranked candidates for one slot of a grid: forward checking against its crossings."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from ...errors import QueryError
from ..grid import Grid
from ...engine.interface import EAGER_ALWAYS
from .constraints import constrained_grid
from .problem import FillProblem, Rules, checked_rules, rules_of
from .results import Suggestion
from .search import CONSISTENT

if TYPE_CHECKING:  # pragma: no cover
    from ...engine import Engines


def suggest(
    lex: "Engines",
    grid: Grid,
    slot: str,
    *,
    rules: Rules | None = None,
    limit: int | None = 50,
    **rule_keywords: object,
) -> list[Suggestion]:
    """Candidates for one slot, ranked by how many candidates they leave to the crossing slots.

    The grid is first made arc consistent (every crossing can still be
    filled); each candidate's ``score`` is the product, over the slot's
    crossings, of the number of candidates the crossing keeps with the
    candidate's tile in the shared cell. Ties: priority, then alphabetical.
    ``rules`` (or its fields as keywords): as :func:`~lexigraph.crossword.fill.filler.fill` takes them.

    >>> import lexigraph
    >>> from lexigraph.crossword.formats import grid_from_text
    >>> lex = lexigraph.open()
    >>> [s.word for s in suggest(lex, grid_from_text("q...\\n....\\n....\\n...."), "1A", limit=3)]
    ['qats', 'qoph', 'qaid']
    """
    if not isinstance(grid, Grid):
        raise QueryError(f"suggest takes a Grid, not {type(grid).__name__}")
    checked = checked_rules(grid, rules_of(rules, rule_keywords))
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 0):
        raise QueryError("limit must be a non-negative integer")
    target = grid.slot(slot)
    grid, _, fixed = constrained_grid(grid, lex.store.alphabet, checked.slot_patterns, None, None)
    # With the slot as the region, its crossings are partial slots: they must stay possible.
    rules = replace(checked, given_ok=checked.given_ok | frozenset(fixed))
    p = FillProblem(lex, grid, rules=rules, region=set(target.cells))
    if p.first_empty() is not None:
        return []
    state = p.state(EAGER_ALWAYS)
    if state.propagate(p.initial_queue(), p.initial_singles(), None) != CONSISTENT:
        return []
    if p.enforce(state, -1, None) != CONSISTENT:
        return []
    si = p.names.index(target.name)
    sizes = state.sizes()
    c = state.candidates(si)
    rows = p.rows[si]
    sub = rows[c]
    score = np.ones(len(c), dtype=np.float64)
    per: list[tuple[str, np.ndarray]] = []
    for j, t, k in p.crossings[si]:
        counts = state.counts(t, k) if sizes[t] else np.zeros(256, np.int32)
        got = counts[sub[:, j]]
        per.append((p.names[t], got))
        score *= got
    prio = p.prio[si][c]
    # Ties: priority, then the row (rows are sorted, so ascending row order is alphabetical order).
    order = np.lexsort((c, -prio.astype(np.int64), -score))
    if limit is not None:
        order = order[:limit]
    words = p.buckets.alphabet.decode_rows(sub[order].tobytes(), rows.shape[1]) if len(order) else []
    return [
        Suggestion(word, int(prio[i]), int(score[i]), {name: int(got[i]) for name, got in per})
        for word, i in zip(words, order.tolist())
    ]
