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
  runs in the lexicon's engine (:meth:`lexigraph.engine.interface.Engine.propagator`):
  C, or its Python and NumPy twin (:mod:`lexigraph.engine.python.propagation`),
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
>>> from lexigraph.crossword.formats import grid_from_text, grid_to_text
>>> lex = lexigraph.load(["cat", "are", "ten", "car", "ate", "ten", "tan", "ace", "ran", "cab"])
>>> result = fill(lex, grid_from_text("c..\\n...\\n..."), rules=Rules(allow_repeats=True))
>>> result.status, sorted(w.word for w in result.words)
('filled', ['ace', 'ace', 'cat', 'cat', 'ten', 'ten'])
>>> print(grid_to_text(result.grid))
CAT
ACE
TEN
>>> fill(lex, grid_from_text("c..\\n...\\n...")).status   # without repeats: no fill
'no_fill'

The rules (:class:`Rules`: the least priority, overall, by length and by
slot; repeats; shared runs) are one argument, ``rules=Rules(...)``, of
:func:`fill`, :func:`slot_counts` and :func:`suggest`; their fields given as
keywords (``allow_repeats=True``, the former spelling) build the same rules.
"""

from __future__ import annotations

from .constraints import read_blocklist, stem
from .counting import MAX_CAP, FillCount, count_fills
from .filler import MAX_FILLS, check_fill_arguments, fill, slot_counts
from .problem import (
    MAX_CANDIDATE_BYTES, MAX_SHARED, MAX_SLOT, RULE_KEYWORDS, Domains, FillProblem, Rules, WordBuckets, checked_rules,
)
from .regions import Region, region_cells
from .results import Fill, FilledWord, FillResult, Objective, SlotCount, Status, Suggestion
from .search import Progress
from .suggestions import suggest

__all__ = [
    "MAX_CAP", "FillCount", "count_fills", "read_blocklist", "stem",
    "MAX_CANDIDATE_BYTES", "MAX_FILLS", "MAX_SHARED", "MAX_SLOT", "Domains", "Fill", "FillProblem", "FillResult",
    "FilledWord", "Objective", "Progress", "RULE_KEYWORDS", "Region", "Rules", "SlotCount", "Status", "Suggestion",
    "WordBuckets", "check_fill_arguments", "checked_rules", "fill", "region_cells", "slot_counts", "suggest",
]
