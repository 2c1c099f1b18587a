"""A grid turned into a fill problem: slots, cells, their domains, candidate rows, crossings and rules.

Every open cell has a *domain*, the set of tiles it may still hold (a bit
mask over tile codes); every slot has a *candidate set*, the rows of the
lexicon's length bucket that fit its cells' domains, drawn from the words
whose priority is at least the slot's minimum (:class:`Rules`). The problem
holds what the search and the engine's fill state
(:meth:`lexigraph.engine.interface.Engine.fill_state`) share.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Mapping, MutableSequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

from ...engine.interface import EAGER_ALWAYS, FillState, PropagationProblem
from ...errors import QueryError
from ...support.text import quote
from ..grid import Grid, Slot
from .constraints import MAX_BLOCKLIST, StemRule, blocked_rows, parse_slot_pattern, rows_matching, slot_regexes

if TYPE_CHECKING:  # pragma: no cover
    from ...engine import Engines
    from ...engine.interface import Engine
    from ...engine.store import Store

#: Cell domains, indexed by cell id (row * width + column): tile bit masks.
Domains: TypeAlias = "array[int] | MutableSequence[int]"
#: Longest slot the filler accepts (the C pass keeps per-position masks on the stack).
MAX_SLOT = 255
#: Longest run ``max_shared`` may forbid (a run is one 64-bit key of 6-bit tile codes in C).
MAX_SHARED = 10
#: Most bytes of candidate rows a fill may hold: each slot's starting candidates (4 bytes a word),
#: copied at most once by the search. A grid whose slots would need more is refused up front.
MAX_CANDIDATE_BYTES = 1 << 30
#: A word taken by a slot is struck at once from the slots with at most this many candidates, and
#: from larger ones when they are next filtered: they seldom lose more than that one word.
EAGER_LIMIT = 128


#: The fields of :class:`Rules` a caller sets (``given_ok`` is the fill's own, from its theme words).
RULE_KEYWORDS = ("min_priority", "min_by_length", "min_by_slot", "allow_repeats", "max_shared", "blocklist",
                 "distinct_stems", "slot_patterns")


@dataclass(frozen=True)
class Rules:
    """What a fill must respect besides the grid.

    ``min_priority``: every entry the fill chooses has at least this priority;
    ``min_by_length`` (length -> priority) and ``min_by_slot`` (slot name ->
    priority) set other minimums for some entries (the most specific wins:
    slot, then length, then ``min_priority``). Entries the grid gives whole
    take any priority. ``allow_repeats``: a word may fill more than one slot.
    ``max_shared``: 0, or N: no two entries share a run of N or more tiles
    (two entries the grid gives whole excepted). ``given_ok``: words (as the
    lexicon spells them) the grid may give whole even when the lexicon lacks
    them (theme entries).

    The constructor's constraints (:mod:`~lexigraph.crossword.fill.constraints`):
    ``blocklist``, words no entry the fill chooses may be; ``distinct_stems``:
    no two entries share a stem (``star``, ``stars``: see
    :func:`~lexigraph.crossword.fill.constraints.stem`), two entries the grid
    gives whole excepted; ``slot_patterns`` (slot name -> pattern): the slot's
    entry matches the pattern (``?`` one tile, ``*`` any run of tiles, a tile),
    and a pattern with no wildcard fixes that word in the slot (it counts as
    given, and may be missing from the lexicon).

    >>> r = Rules(40, {3: 30}, {"1A": 60})
    >>> r.floor("1A", 5), r.floor("2D", 3), r.floor("2D", 4)
    (60, 30, 40)
    """

    min_priority: int = 0
    min_by_length: Mapping[int, int] = field(default_factory=dict)
    min_by_slot: Mapping[str, int] = field(default_factory=dict)
    allow_repeats: bool = False
    max_shared: int = 0
    given_ok: frozenset[str] = frozenset()
    blocklist: frozenset[str] = frozenset()
    distinct_stems: bool = False
    slot_patterns: Mapping[str, str] = field(default_factory=dict)

    def floor(self, slot: str, length: int) -> int:
        """The lowest priority an entry of this slot may have."""
        got = self.min_by_slot.get(slot)
        if got is None:
            got = self.min_by_length.get(length, self.min_priority)
        return got

    def raised(self, floor: int) -> "Rules":
        """The same rules with no minimum below ``floor``."""
        return replace(
            self,
            min_priority=max(self.min_priority, floor),
            min_by_length={k: max(v, floor) for k, v in self.min_by_length.items()},
            min_by_slot={k: max(v, floor) for k, v in self.min_by_slot.items()},
        )


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
        self._words: dict[int, list[str]] = {}
        self._stems: dict[tuple[frozenset[int], frozenset[str]], StemRule] = {}
        self._blocked: dict[frozenset[str], dict[int, np.ndarray]] = {}

    def words(self, length: int) -> list[str]:
        """Every word of the length bucket, by row (decoded once)."""
        got = self._words.get(length)
        if got is None:
            rows = self.rows(length)
            got = self.alphabet.decode_rows(rows.tobytes(), length) if len(rows) else []
            self._words[length] = got
        return got

    def stem_rule(self, lengths: frozenset[int], outside: frozenset[str]) -> StemRule:
        """The stem rule over the words of these lengths, with the given words outside the slots searched."""
        key = (lengths, outside)
        got = self._stems.get(key)
        if got is None:
            got = StemRule({n: self.words(n) for n in sorted(lengths)}, outside)
            self._stems[key] = got
        return got

    def blocked(self, engine: "Engine", words: frozenset[str]) -> dict[int, np.ndarray]:
        """The rows, per length, of the blocklist's words the lexicon holds."""
        got = self._blocked.get(words)
        if got is None:
            got = blocked_rows(words, self.alphabet, lambda codes: self.row_of(engine, codes))
            self._blocked[words] = got
        return got

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

    def row_of(self, engine: "Engine", codes: bytes) -> int:
        """The row of the word spelled ``codes`` in its length bucket, or -1."""
        word_id = engine.id_of_codes(codes)
        b = self.store.bucket(len(codes))
        return word_id - b.first if b is not None and b.first <= word_id < b.stop else -1

    def word(self, length: int, row: int) -> str:
        return self.alphabet.decode(bytes(self.rows(length)[row]))


class FillProblem:
    """A grid turned into slots, cells, domains and starting candidates, ready to search.

    ``cand0`` and ``dom0`` hold each slot's candidates filtered by the grid's
    fixed cells alone (no propagation); :meth:`state` makes the engine's fill
    state from them. A slot whose cells are all fixed is *given* (any
    priority; it must be in the lexicon unless the rules allow it) unless
    ``given_names`` leaves it out: then it is an entry like the others.
    """

    def __init__(
        self,
        lex: "Engines",
        grid: Grid,
        *,
        rules: Rules,
        region: "set[tuple[int, int]] | None",
        buckets: WordBuckets | None = None,
        given_names: "set[str] | None" = None,
    ) -> None:
        self.grid = grid
        self.rules = rules
        self.buckets = buckets or WordBuckets(lex.store)
        alphabet = lex.store.alphabet
        n_codes = len(alphabet)
        self.engine = lex.engine
        self.full = ((1 << (n_codes + 1)) - 1) & ~1  # bits 1..n
        self.allow_repeats = rules.allow_repeats
        width = grid.width
        self.width = width
        all_slots = grid.slots()
        if not all_slots:
            raise QueryError("the grid has no slot (no run of two or more open cells)")
        for s in all_slots:
            if len(s) > MAX_SLOT:
                raise QueryError(f"slot {s.name} is {len(s)} cells long; at most {MAX_SLOT} are accepted")
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
        # Slots: those with a cell in the region; complete ones must become words, partial ones must stay
        # possible. A whole word the grid gives that the lexicon lacks is left out when the rules allow it.
        slots: list[Slot] = []
        complete: list[bool] = []
        given_whole: list[bool] = []
        self.given_outside: list[Slot] = []  # whole words outside the slots searched
        for s in all_slots:
            ids = [r * width + c for r, c in s.cells]
            # Given: the grid holds the whole word, and (when ``given_names`` says which) the constructor wrote it,
            # rather than theme words placed across it.
            whole = all(i in self.fixed_cells for i in ids) and (given_names is None or s.name in given_names)
            if whole:
                word = "".join(grid.cell(r, c) or "" for r, c in s.cells)
                codes = bytes(alphabet.code(grid.cell(r, c) or "") or 0 for r, c in s.cells)
                if self.buckets.row_of(self.engine, codes) < 0:
                    if self.buckets.alphabet.decode(codes) in rules.given_ok:
                        self.given_outside.append(s)
                        continue
                    if region is None or any(i in target for i in ids):
                        raise QueryError(f"the fixed word {word!r} at {s.name} is not in the lexicon")
            if region is not None and not any(i in target for i in ids):
                if whole:
                    self.given_outside.append(s)
                continue
            slots.append(s)
            complete.append(all(i in self.target or i in self.fixed_cells for i in ids))
            given_whole.append(whole)
        self.slots = slots
        self.complete = complete
        self.given_whole = given_whole
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
        self.names = [s.name for s in slots]
        self.floors = [0 if given_whole[si] else rules.floor(s.name, len(s)) for si, s in enumerate(slots)]
        self.dom0 = dom
        self.lengths = [len(s) for s in slots]
        self.complete_slots = [si for si in range(len(slots)) if complete[si]]
        self.stems: StemRule | None = None
        if rules.distinct_stems:
            outside = frozenset("".join(v or "" for v in grid.word(s)) for s in self.given_outside)
            self.stems = self.buckets.stem_rule(frozenset(self.lengths[si] for si in self.complete_slots), outside)
        self.cand0 = self._starting_candidates(dom)
        size = sum(len(c) for c in self.cand0) * 4
        if size > MAX_CANDIDATE_BYTES:
            raise QueryError(
                f"the grid's {len(slots):,} slots would hold {size >> 20:,} MiB of candidate words; a fill holds at "
                f"most {MAX_CANDIDATE_BYTES >> 20:,} MiB (fill a region, or use a smaller grid or list)"
            )

    def _starting_candidates(self, dom: Domains) -> list[np.ndarray]:
        cand: list[np.ndarray] = []
        filtered: dict[tuple[int, int, tuple[int, ...]], np.ndarray] = {}
        for si, s in enumerate(self.slots):
            masks = [dom[c] for c in self.slot_cells[si]]
            base = self.buckets.base(len(s), self.floors[si])
            if all(m == self.full for m in masks):
                kept = base
            else:
                key = (len(s), self.floors[si], tuple(masks))
                got = filtered.get(key)
                if got is None:
                    got, _ = self.engine.filter_rows(self.rows[si], base, masks, None)
                    filtered[key] = got
                kept = got
            cand.append(kept)
        self._apply_constraints(cand)
        # Whole words the grid gives outside the slots searched: no complete slot may repeat them.
        if not self.allow_repeats:
            by_length: dict[int, set[int]] = {}
            for s in self.given_outside:
                codes = bytes(self.buckets.alphabet.code(self.grid.cell(r, c) or "") or 0 for r, c in s.cells)
                row = self.buckets.row_of(self.engine, codes)
                if row >= 0:
                    by_length.setdefault(len(s), set()).add(row)
            for si, s in enumerate(self.slots):
                taken = by_length.get(len(s))
                if taken and self.complete[si]:
                    cand[si] = cand[si][~np.isin(cand[si], np.fromiter(taken, np.int32, len(taken)))]
        return cand

    def _apply_constraints(self, cand: list[np.ndarray]) -> None:
        """The blocklist (entries the fill chooses) and the slots' patterns, on the starting candidates."""
        blocked = self.buckets.blocked(self.engine, self.rules.blocklist) if self.rules.blocklist else {}
        patterns = self.rules.slot_patterns
        regexes = slot_regexes(self.grid, patterns, self.buckets.alphabet) if patterns else {}
        for si, s in enumerate(self.slots):
            rows = blocked.get(len(s))
            if rows is not None and not self.given_whole[si]:
                cand[si] = cand[si][~np.isin(cand[si], rows)]
            regex = regexes.get(s.name)
            if regex is not None:
                cand[si] = rows_matching(self.rows[si], cand[si], regex)

    def enforce(self, state: FillState, blame: int, deadline: float | None) -> int:
        """The rules propagation leaves to the search (distinct stems), after a decision has propagated:
        -1 consistent, -2 past the deadline, else the slot to blame (``blame`` when it is not negative)."""
        if self.stems is None:
            return -1
        return self.stems.enforce(state, self.lengths, self.complete_slots, self.given_whole, blame, deadline)

    def given_codes(self) -> list[bytes]:
        """The tile codes of the whole words the grid gives outside the slots searched."""
        alphabet = self.buckets.alphabet
        return [bytes(alphabet.code(self.grid.cell(r, c) or "") or 0 for r, c in s.cells) for s in self.given_outside]

    def state(self, eager_limit: int = EAGER_LIMIT) -> FillState:
        """The engine's fill state, before any propagation."""
        by_cell: list[list[tuple[int, int]]] = [[] for _ in range(len(self.dom0))]
        for cid, refs in self.cell_slots.items():
            by_cell[cid] = refs
        problem = PropagationProblem(
            self.rows, self.slot_cells, by_cell, bytes(self.complete), bytes(self.given_whole), self.same_len,
            self.allow_repeats, self.rules.max_shared, eager_limit, self.given_codes(),
        )
        return self.engine.fill_state(problem, self.cand0, self.dom0)

    def first_empty(self) -> int | None:
        """A slot left without starting candidates (before propagation), or None."""
        for si, c in enumerate(self.cand0):
            if not len(c):
                return si
        return None

    def pattern(self, si: int) -> str:
        return "".join((v if len(v) == 1 else f"[{v}]") if v else "?" for v in self.grid.word(self.slots[si]))

    def initial_queue(self) -> dict[int, Iterable[int] | None]:
        """Every slot, every position: the first propagation."""
        return dict.fromkeys(range(len(self.slots)))

    def initial_singles(self) -> list[int]:
        return [si for si, c in enumerate(self.cand0) if len(c) == 1]


def checked_rules(grid: Grid, rules: object) -> Rules:
    """``rules`` checked against ``grid`` (one :class:`QueryError` for anything wrong), slot names resolved
    (``1a``, ``1 across`` -> ``1A``).

    >>> from lexigraph.crossword.grid import Grid
    >>> checked_rules(Grid([[None, None], [None, None]]), Rules(min_by_slot={"1 across": 60})).min_by_slot
    {'1A': 60}
    >>> checked_rules(Grid([[None, None]]), Rules(min_priority=300))
    Traceback (most recent call last):
    ...
    lexigraph.errors.QueryError: min_priority must be an integer from 0 to 255
    """
    if not isinstance(rules, Rules):
        raise QueryError(f"rules is a Rules (crossword.fill.Rules), not {type(rules).__name__}")

    def priority(value: object, what: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 255:
            raise QueryError(f"{what} must be an integer from 0 to 255")
        return value

    floor = priority(rules.min_priority, "min_priority")
    by_length: dict[int, int] = {}
    if rules.min_by_length is not None:
        if not isinstance(rules.min_by_length, Mapping):
            raise QueryError("min_by_length must map lengths to priorities")
        for k, v in rules.min_by_length.items():
            if not isinstance(k, int) or isinstance(k, bool) or not 2 <= k <= MAX_SLOT:
                raise QueryError(f"min_by_length: {k!r} is not a slot length (2 to {MAX_SLOT})")
            by_length[k] = priority(v, f"min_by_length[{k}]")
    by_slot: dict[str, int] = {}
    if rules.min_by_slot is not None:
        if not isinstance(rules.min_by_slot, Mapping):
            raise QueryError("min_by_slot must map slot names to priorities")
        for name, v in rules.min_by_slot.items():
            if not isinstance(name, str):
                raise QueryError(f"min_by_slot: {name!r} is not a slot name")
            by_slot[grid.slot(name).name] = priority(v, f"min_by_slot[{name}]")
    if not isinstance(rules.allow_repeats, bool):
        raise QueryError("allow_repeats must be True or False")
    shared = 0 if rules.max_shared is None else rules.max_shared
    if not isinstance(shared, int) or isinstance(shared, bool) or not (shared == 0 or 2 <= shared <= MAX_SHARED):
        raise QueryError(f"max_shared must be an integer from 2 to {MAX_SHARED} (or 0: no limit)")
    blocklist = rules.blocklist
    if isinstance(blocklist, str) or not isinstance(blocklist, (frozenset, set, list, tuple)) or not all(
            isinstance(w, str) for w in blocklist):
        raise QueryError("blocklist must be a set of words")
    if len(blocklist) > MAX_BLOCKLIST:
        raise QueryError(f"the blocklist holds {len(blocklist):,} words; at most {MAX_BLOCKLIST:,} are accepted")
    if not isinstance(rules.distinct_stems, bool):
        raise QueryError("distinct_stems must be True or False")
    if not isinstance(rules.slot_patterns, Mapping):
        raise QueryError("slot_patterns must map slot names to patterns ({'1A': '??AR*'})")
    patterns: dict[str, str] = {}
    for name, text in rules.slot_patterns.items():
        if not isinstance(name, str) or not isinstance(text, str):
            raise QueryError(f"slot_patterns: {quote(name)} -> {quote(text)} is not a slot name and a pattern")
        key = grid.slot(name).name
        if key in patterns:
            raise QueryError(f"slot_patterns gives {key} twice")
        parse_slot_pattern(text)
        patterns[key] = text.strip().lower()
    return Rules(floor, by_length, by_slot, rules.allow_repeats, shared, rules.given_ok,
                 frozenset(w.strip().lower() for w in blocklist), rules.distinct_stems, patterns)


def rules_of(rules: Rules | None, keywords: Mapping[str, object]) -> Rules:
    """The rules a fill, a count or a suggestion runs by: ``rules``, or the rule keywords given one by one
    (``min_priority=40``: the former spelling, which builds the same :class:`Rules`), not both.

    >>> rules_of(None, {"min_priority": 40, "allow_repeats": True}) == Rules(40, allow_repeats=True)
    True
    >>> rules_of(Rules(), {"min_priority": 40})
    Traceback (most recent call last):
    ...
    lexigraph.errors.QueryError: give the rules as rules=Rules(...) or as keywords, not both
    """
    if not keywords:
        return Rules() if rules is None else rules
    if rules is not None:
        raise QueryError("give the rules as rules=Rules(...) or as keywords, not both")
    unknown = sorted(set(keywords) - set(RULE_KEYWORDS))
    if unknown:
        raise TypeError(f"unknown fill argument{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}")
    build: Callable[..., Rules] = Rules  # checked by checked_rules, whatever the keywords hold
    return build(**keywords)
