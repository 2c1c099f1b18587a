"""A grid turned into a fill problem: slots, cells, their domains, candidate rows and crossings.

Every open cell has a *domain*, the set of tiles it may still hold (a bit
mask over tile codes); every slot has a *candidate set*, the rows of the
lexicon's length bucket that fit its cells' domains, drawn from the words
whose priority is at least ``min_priority``. The problem holds what the
search and the engine's propagator (:meth:`lexigraph.engine.interface.Engine.propagator`)
share.
"""

from __future__ import annotations

from array import array
from collections.abc import MutableSequence
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

from ...engine.interface import PropagationProblem
from ...errors import QueryError
from ..grid import Grid, Slot

if TYPE_CHECKING:  # pragma: no cover
    from ...engine import Engines
    from ...engine.store import Store

#: Cell domains, indexed by cell id (row * width + column): tile bit masks.
Domains: TypeAlias = "array[int] | MutableSequence[int]"
#: Longest slot the filler accepts (the C pass keeps per-position masks on the stack).
MAX_SLOT = 255


class WordBuckets:
    """The lexicon's length buckets as NumPy rows and priorities (one per length, cached)."""

    def __init__(self, store: "Store") -> None:
        self.store = store
        self.alphabet = store.alphabet
        self.n_codes = len(store.alphabet)
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


class FillProblem:
    """A grid turned into slots, cells, domains and candidate sets, ready to search."""

    def __init__(
        self,
        lex: "Engines",
        grid: Grid,
        *,
        min_priority: int,
        allow_repeats: bool,
        region: "set[tuple[int, int]] | None",
        buckets: WordBuckets | None = None,
    ) -> None:
        self.grid = grid
        self.buckets = buckets or WordBuckets(lex.store)
        alphabet = lex.store.alphabet
        n_codes = len(alphabet)
        self.engine = lex.engine
        self.filter = self.engine.filter_rows
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
        by_cell: list[list[tuple[int, int]]] = [[] for _ in range(len(dom))]
        for cid, refs in self.cell_slots.items():
            by_cell[cid] = refs
        self.propagator = self.engine.propagator(PropagationProblem(
            self.rows, self.slot_cells, by_cell, bytes(self.complete), self.same_len, allow_repeats))

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
                kept, _ = self.filter(self.rows[si], base, masks, None)
            if fully_fixed and not len(kept):
                word = "".join(self.grid.cell(r, c) or "" for r, c in s.cells)
                raise QueryError(f"the fixed word {word!r} at {s.name} is not in the lexicon")
            cand.append(kept)
        if not self.allow_repeats:
            for s in self.words_outside:
                length = len(s)
                rows = self.buckets.rows(length)
                masks = [dom[r * self.width + c] for r, c in s.cells]
                here, _ = self.filter(rows, self.buckets.base(length, 0), masks, None)
                if not len(here):
                    continue  # not a word: the grid keeps it, nothing can repeat it
                for si, t in enumerate(self.slots):
                    if len(t) == length and self.complete[si]:
                        cand[si] = cand[si][cand[si] != here[0]]
        return cand, dom

    def pattern(self, si: int) -> str:
        return "".join((v if len(v) == 1 else f"[{v}]") if v else "?" for v in self.grid.word(self.slots[si]))


# -- propagation -------------------------------------------------------------------------------------
