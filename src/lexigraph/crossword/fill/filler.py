"""Filling a grid: the rules, theme words to place, several fills, the drive to better fills, and the result.

Objective: fills are ranked by mean priority (``objective="mean"``), or by
lowest priority first, then mean (``objective="min"``). The search tries
high-priority words first (which favours both). ``improve`` gives more
time to the objective: with ``"min"``, the search runs again with every
minimum just above the fills' lowest priority, until that is proved
impossible or the time is spent; with ``"mean"``, it looks for more fills
(other seeds, each differing from those found) and keeps the best.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from ...engine.interface import EAGER_ALWAYS
from ...errors import QueryError
from ..grid import Grid
from .problem import EAGER_LIMIT, FillProblem, Rules, WordBuckets, checked_rules, rules_of
from .constraints import constrained_grid
from .regions import Region
from .results import Fill, FilledWord, FillResult, Objective, SlotCount
from .search import CONSISTENT, PAST_DEADLINE, Differ, FillSearch, Progress, Timeout

if TYPE_CHECKING:  # pragma: no cover
    from ...engine import Engines
    from ...engine.interface import FillState

#: Most fills one call may ask for.
MAX_FILLS = 100


def check_fill_arguments(seed: int, timeout: float | None) -> None:
    """Refuse a seed or a time limit that is not one (a :class:`QueryError`)."""
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise QueryError("seed must be a non-negative integer")
    if timeout is not None and (
        not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not timeout > 0 or math.isinf(timeout)
    ):
        raise QueryError("timeout must be a positive number of seconds")


def _check_seconds(value: object, what: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not (value >= 0) or math.isinf(value):
        raise QueryError(f"{what} must be a non-negative number of seconds")
    return float(value)


def fill(
    lex: "Engines",
    grid: Grid,
    *,
    rules: Rules | None = None,
    theme: Iterable[str] = (),
    fills: int = 1,
    differ: int | None = None,
    objective: Objective = "mean",
    seed: int = 0,
    timeout: float | None = None,
    region: "Region | None" = None,
    improve: float = 0.0,
    progress: Progress | None = None,
    locked: "Region | None" = None,
    **rule_keywords: object,
) -> FillResult:
    """Fill the grid's empty cells (or those of ``region``) with words of ``lex``.

    ``rules`` (a :class:`~lexigraph.crossword.fill.problem.Rules`): every
    entry the fill chooses has a priority of at least ``min_priority``
    (``min_by_length`` and ``min_by_slot`` set others for some lengths or
    slots, the most specific winning); no word fills two slots unless
    ``allow_repeats``; with ``max_shared=N``, no two entries share a run of N
    or more tiles. The rules' fields given as keywords (``min_priority=40``,
    the former spelling) build the same rules. The words of ``theme`` are
    placed in slots of their length (chosen by the fill) before the rest is
    filled.

    ``fills=N`` asks for N fills that differ from one another in at least
    ``differ`` entries (default: a fifth of the entries), ranked by
    ``objective`` (``"mean"`` priority, or ``"min"``: lowest priority first).
    ``timeout`` bounds the whole call (seconds); ``improve`` gives up to
    that many seconds (within the timeout) to the objective.
    ``progress(stage, done, total)`` is called a few times a second on long
    fills. ``locked`` (a region: slot names, a rectangle, cells): the fill may
    change every letter of ``region`` (the whole grid without one) except
    those of the locked cells, which it keeps as they are (an empty locked
    cell stays empty). The result is the same for the same arguments and ``seed``
    (unless a time limit cuts the search short).

    >>> import lexigraph
    >>> from lexigraph.crossword.formats import grid_from_text
    >>> lex = lexigraph.open()
    >>> r = fill(lex, grid_from_text("....\\n....\\n...."), seed=3)
    >>> r.status, len(r.words), r.grid.is_complete()
    ('filled', 7, True)
    >>> fill(lex, grid_from_text("qz.\\n...")).reason
    'no word fits 1A (QZ?)'
    >>> r = fill(lex, grid_from_text("....\\n....\\n...."), rules=Rules(min_priority=50), fills=3, differ=2)
    >>> len(r.fills), [f.mean_priority for f in r.fills]
    (3, [50.0, 50.0, 50.0])
    """
    check_fill_arguments(seed, timeout)
    if not isinstance(grid, Grid):
        raise QueryError(f"fill takes a Grid, not {type(grid).__name__}")
    if region is not None and not isinstance(region, (str, tuple, list, set, frozenset)):
        raise QueryError(f"a region is slot names, a rectangle or a set of cells, not {type(region).__name__}")
    checked = checked_rules(grid, rules_of(rules, rule_keywords))
    improve = _check_seconds(improve, "improve")
    if not isinstance(fills, int) or isinstance(fills, bool) or not 1 <= fills <= MAX_FILLS:
        raise QueryError(f"fills must be an integer from 1 to {MAX_FILLS}")
    if differ is not None and (not isinstance(differ, int) or isinstance(differ, bool) or differ < 1):
        raise QueryError("differ must be a positive integer (entries in which two fills differ)")
    if objective not in ("mean", "min"):
        raise QueryError("objective must be 'mean' or 'min'")
    start = time.monotonic()
    deadline = None if timeout is None else start + float(timeout)
    grid, cells, fixed = constrained_grid(grid, lex.store.alphabet, checked.slot_patterns, region, locked)
    buckets = WordBuckets(lex.store)
    themes = _theme_words(lex, grid, theme)
    session = _Session(lex, buckets, cells, seed, progress, objective)
    given_ok = checked.given_ok | frozenset([w for w, _ in themes] + fixed)
    result = session.solve(grid, replace(checked, given_ok=given_ok), themes, fills, differ, deadline, improve)
    result.seconds = time.monotonic() - start
    result.stats = dict(session.stats)
    return result


def slot_counts(
    lex: "Engines",
    grid: Grid,
    *,
    rules: Rules | None = None,
    region: "Region | None" = None,
    timeout: float | None = None,
    locked: "Region | None" = None,
    **rule_keywords: object,
) -> FillResult:
    """Each slot's candidates once the grid is made arc consistent, before any search: the hard slots.

    The result's ``slots`` holds a :class:`SlotCount` per slot (a slot
    with few candidates will be hard to fill; ``forced``: one candidate
    left). ``status`` is ``"no_fill"`` when propagation alone shows there
    is none (``culprits`` names the slot left empty, counted 0),
    ``"timeout"`` past ``timeout``, else ``"filled"`` (meaning: not ruled
    out; nothing is filled). ``rules`` (or its fields as keywords), ``region`` and ``locked``: as :func:`fill`
    takes them.

    >>> import lexigraph
    >>> from lexigraph.crossword.formats import grid_from_text
    >>> lex = lexigraph.open()
    >>> r = slot_counts(lex, grid_from_text("jo.\\n...\\n..."))
    >>> [(s.slot, s.candidates, s.forced) for s in r.slots][:3]
    [('1A', 6, False), ('4A', 166, False), ('5A', 405, False)]
    """
    check_fill_arguments(0, timeout)
    if not isinstance(grid, Grid):
        raise QueryError(f"slot_counts takes a Grid, not {type(grid).__name__}")
    checked = checked_rules(grid, rules_of(rules, rule_keywords))
    start = time.monotonic()
    deadline = None if timeout is None else start + float(timeout)
    grid, cells, fixed = constrained_grid(grid, lex.store.alphabet, checked.slot_patterns, region, locked)
    session = _Session(lex, WordBuckets(lex.store), cells, 0, None, "mean")
    prepared = session.prepare(grid, replace(checked, given_ok=checked.given_ok | frozenset(fixed)), deadline)
    result = prepared.failure or FillResult("filled")
    result.slots = prepared.counts
    result.seconds = time.monotonic() - start
    return result


def _theme_words(lex: "Engines", grid: Grid, theme: Iterable[str]) -> list[tuple[str, list[str]]]:
    """The theme words as the lexicon spells them, with their tiles; checked."""
    if isinstance(theme, str):
        theme = [theme]
    try:
        items = list(theme)
    except TypeError:
        raise QueryError("theme must be a list of words") from None
    alphabet = lex.store.alphabet
    out: list[tuple[str, list[str]]] = []
    seen: set[str] = set()
    lengths = {len(s) for s in grid.slots()}
    for word in items:
        if not isinstance(word, str):
            raise QueryError(f"theme word {word!r} is not text")
        tiles = alphabet.split(word.strip())
        if not tiles:
            raise QueryError(f"theme word {word!r} is not spelled with the lexicon's tiles")
        if len(tiles) not in lengths:
            raise QueryError(f"the grid has no slot of {len(tiles)} cells for the theme word {word!r}")
        spelled = "".join(tiles)
        if spelled in seen:
            raise QueryError(f"theme word {word!r} is given twice")
        seen.add(spelled)
        out.append((spelled, tiles))
    return out


def _too_few_words(p: FillProblem) -> tuple[int, int, int] | None:
    """A length whose complete slots outnumber the words that can fill any of them: (length, slots, words)."""
    by_length: dict[int, list[int]] = {}
    for si, s in enumerate(p.slots):
        if p.complete[si]:
            by_length.setdefault(len(s), []).append(si)
    for length, group in sorted(by_length.items()):
        arrays = {id(p.cand0[si]): p.cand0[si] for si in group}
        if len(arrays) == 1:
            words = len(next(iter(arrays.values())))
        elif len(group) > max(len(a) for a in arrays.values()):  # else the union is large enough
            words = len(np.unique(np.concatenate(list(arrays.values()))))
        else:
            continue
        if len(group) > words:
            return length, len(group), words
    return None


@dataclass
class _Prepared:
    """A grid made into a problem and propagated: its state (at the root), counts, or why it cannot be filled."""

    problem: FillProblem | None
    state: "FillState | None"
    counts: list[SlotCount]
    failure: FillResult | None


@dataclass
class _Found:
    """The fills one search round found, and how it ended."""

    fills: list[Fill]
    rows: list[list[int]]
    exhausted: bool
    timed_out: bool


class _Session:
    """One call of :func:`fill`: the shared lexicon buckets, region, seed and counters."""

    def __init__(self, lex: "Engines", buckets: WordBuckets, region: "set[tuple[int, int]] | None", seed: int,
                 progress: Progress | None, objective: Objective) -> None:
        self.lex = lex
        self.buckets = buckets
        self.region = region
        self.seed = seed
        self.progress = progress
        self.objective: Objective = objective
        self.stats = {"nodes": 0, "failures": 0, "restarts": 0, "filters": 0}
        self.started = time.monotonic()
        #: The slots given whole: those of the grid as the caller gave it, and theme words placed (None: all whole slots).
        self.given_names: set[str] | None = None
        #: The slots that failed most in an exhaustive search that found nothing.
        self.culprits: list[str] = []
        #: Theme words placed (or found in the grid): slot name -> word.
        self.theme_slots: dict[str, str] = {}

    # -- one grid ---------------------------------------------------------------------------------------

    def report(self, stage: str, deadline: float | None) -> None:
        """Progress outside the search: the share of the time limit spent, when there is one."""
        if self.progress is None:
            return
        if deadline is None:
            self.progress(stage, 0, 1)
        else:
            now = time.monotonic()
            self.progress(stage, int(1000 * (now - self.started)), max(1, int(1000 * (deadline - self.started))))

    def prepare(self, grid: Grid, rules: Rules, deadline: float | None) -> _Prepared:
        self.report("fill: reading the grid", deadline)
        p = FillProblem(self.lex, grid, rules=rules, region=self.region, buckets=self.buckets,
                        given_names=self.given_names)
        if not p.allow_repeats:
            themes = ["".join(v or "" for v in grid.word(s)).lower() for s in p.given_outside]
            twice = sorted({w for w in themes if w in rules.given_ok and themes.count(w) > 1})
            if twice:  # a theme word the lexicon lacks, twice in the grid
                return _Prepared(p, None, [self._count(p, si, len(c)) for si, c in enumerate(p.cand0)], FillResult(
                    "no_fill", reason=f"the word {twice[0]!r} fills two slots"))
        empty = p.first_empty()
        if empty is not None:
            floor = p.floors[empty]
            at_least = f" of priority {floor} or more" if floor else ""
            counts = [self._count(p, si, len(c)) for si, c in enumerate(p.cand0)]
            return _Prepared(p, None, counts, FillResult(
                "no_fill", reason=f"no word{at_least} fits {p.names[empty]} ({p.pattern(empty).upper()})",
                culprits=[p.names[empty]]))
        state = p.state(EAGER_ALWAYS)  # exact at the root: the counts are those of arc consistency
        self.report(f"fill: propagating over {len(p.slots):,} slots", deadline)
        got = state.propagate(p.initial_queue(), p.initial_singles(), deadline)
        if got == CONSISTENT:
            got = p.enforce(state, -1, deadline)
        self.stats["filters"] += state.filters
        counts = [self._count(p, si, n) for si, n in enumerate(state.sizes())]
        if got == PAST_DEADLINE:
            return _Prepared(p, None, counts, FillResult("timeout", reason="none found within the time limit"))
        if got != CONSISTENT:
            counts[got] = self._count(p, got, 0)
            return _Prepared(p, None, counts, FillResult(
                "no_fill", reason=f"the crossings leave no word for {p.names[got]} ({p.pattern(got).upper()})",
                culprits=[p.names[got]]))
        short = None if p.allow_repeats else _too_few_words(p)
        if short is not None:
            length, slots, words = short
            return _Prepared(p, None, counts, FillResult(
                "no_fill", reason=f"the grid has {slots:,} slots of {length} cells and only {words:,} words can fill "
                f"them (each slot needs its own word)"))
        state.eager_limit = EAGER_LIMIT
        return _Prepared(p, state, counts, None)

    @staticmethod
    def _count(p: FillProblem, si: int, n: int) -> SlotCount:
        return SlotCount(p.names[si], n, n == 1, p.given_whole[si])

    def search(self, prepared: _Prepared, wanted: int, differ: int | None, deadline: float | None,
               seed: int, previous: Sequence[list[int]] = ()) -> _Found:
        """Up to ``wanted`` fills, each differing from the others (and from ``previous``) as asked."""
        p, state = prepared.problem, prepared.state
        assert p is not None and state is not None
        counted = [si for si in range(len(p.slots)) if p.complete[si] and not p.given_whole[si]]
        at_least = differ if differ is not None else max(1, len(counted) // 5)
        rows: list[list[int]] = []
        fills: list[Fill] = []
        weights: list[float] | None = None
        root = state.mark()
        while len(fills) < wanted:
            known = list(previous) + rows
            rule = Differ(known, counted, at_least) if known else None
            if rule is not None and at_least > len(counted):
                return _Found(fills, rows, True, False)
            search = FillSearch(p, state, seed=seed + len(rows), deadline=deadline, progress=self.progress,
                                differ=rule, weights=weights, started=self.started)
            weights = search.weight
            if rule is not None:
                got = search.check_differ(0)
                if got == PAST_DEADLINE:
                    state.undo(root)
                    self._add(search)
                    return _Found(fills, rows, False, True)
                if got != CONSISTENT:
                    state.undo(root)
                    self._add(search)
                    return _Found(fills, rows, True, False)
            try:
                found = search.run()
            except Timeout:
                state.undo(root)
                self._add(search)
                return _Found(fills, rows, False, True)
            self._add(search)
            if not found:
                state.undo(root)
                if not fills:
                    hard = sorted(range(len(p.slots)), key=lambda s: -search.weight[s])[:3]
                    self.culprits = [p.names[s] for s in hard if search.weight[s] > 1]
                return _Found(fills, rows, True, False)
            singles = state.singles()
            rows.append(singles)
            fills.append(self._fill_of(p, state, singles))
            state.undo(root)
        return _Found(fills, rows, False, False)

    def _add(self, search: FillSearch) -> None:
        self.stats["nodes"] += search.nodes
        self.stats["failures"] += search.failures
        self.stats["restarts"] += search.restarts
        self.stats["filters"] += search.filters

    def _fill_of(self, p: FillProblem, state: "FillState", singles: list[int]) -> Fill:
        alphabet = p.buckets.alphabet
        values: dict[tuple[int, int], str | None] = {}
        for cid in p.target:
            m = state.domain(cid)
            values[(cid // p.width, cid % p.width)] = alphabet.label(m.bit_length() - 1)
        grid = p.grid.with_cells(values)
        words = []
        for si, s in enumerate(p.slots):
            if not p.complete[si]:
                continue
            row = singles[si]
            words.append(FilledWord(s.name, p.buckets.word(len(s), row), int(p.prio[si][row]), p.given_whole[si]))
        for s in p.given_outside:
            word = "".join(v or "" for v in p.grid.word(s)).lower()
            if word in p.rules.given_ok:  # a theme entry the lexicon lacks, written whole in the grid
                words.append(FilledWord(s.name, word, 0, True))
        order = {s.name: i for i, s in enumerate(p.grid.slots())}
        words.sort(key=lambda w: order[w.slot])
        return Fill(grid, words)

    # -- the whole call -----------------------------------------------------------------------------------

    def solve(self, grid: Grid, rules: Rules, themes: list[tuple[str, list[str]]], wanted: int,
              differ: int | None, deadline: float | None, improve: float) -> FillResult:
        self.culprits = []
        self.theme_slots = {}
        self.given_names = {s.name for s in grid.slots() if all(grid.word(s))}
        base = self.prepare(grid, rules, deadline)
        counts = base.counts
        if themes:
            placed = self._place_themes(grid, rules, themes, base, wanted, differ, deadline)
            if isinstance(placed, FillResult):
                placed.slots = counts
                return placed
            grid, prepared, found = placed
        else:
            if base.failure is not None:
                base.failure.slots = counts
                return base.failure
            prepared = base
            found = self.search(prepared, wanted, differ, deadline, self.seed)
        result = self._result(found, wanted)
        if result.status == "filled" and improve > 0:
            until = time.monotonic() + improve
            stop = until if deadline is None else min(deadline, until)
            result = self._improve(grid, rules, result, found, wanted, differ, stop)
        if self.theme_slots:
            result.fills = [self._mark_themes(f) for f in result.fills]
            if result.fills:
                result.grid, result.words = result.fills[0].grid, result.fills[0].words
        result.slots = counts
        return result

    def _result(self, found: _Found, wanted: int) -> FillResult:
        ranked = sorted(found.fills, key=lambda f: f.rank_key(self.objective), reverse=True)
        if not ranked:
            if found.timed_out:
                return FillResult("timeout", reason="none found within the time limit")
            return FillResult("no_fill", reason="no fill exists (the search was exhaustive)", culprits=self.culprits)
        result = FillResult("filled", grid=ranked[0].grid, words=ranked[0].words, fills=ranked)
        if len(ranked) < wanted:
            if found.timed_out:
                result.reason = f"found {len(ranked)} of {wanted} fills within the time limit"
            else:
                result.reason = (f"found {len(ranked)} of {wanted} fills: no other fill differs from these in "
                                 f"enough entries (the search was exhaustive)")
        return result

    def _improve(self, grid: Grid, rules: Rules, result: FillResult, found: _Found, wanted: int,
                 differ: int | None, stop: float) -> FillResult:
        if self.objective == "min":
            best = result
            while True:
                low = min((f.min_priority for f in best.fills if f.min_priority is not None), default=None)
                if low is None or low >= 255:
                    best.optimal = wanted == 1
                    return best
                prepared = self.prepare(grid, rules.raised(low + 1), stop)
                if prepared.failure is not None:
                    best.optimal = wanted == 1 and prepared.failure.status == "no_fill"
                    return best
                got = self.search(prepared, wanted, differ, stop, self.seed)
                if len(got.fills) < wanted:
                    best.optimal = wanted == 1 and got.exhausted
                    return best
                ranked = sorted(got.fills, key=lambda f: f.rank_key("min"), reverse=True)
                best = FillResult("filled", grid=ranked[0].grid, words=ranked[0].words, fills=ranked)
        # mean: more fills, each differing from every fill found, other seeds; keep the best
        everything = list(found.fills)
        rows = list(found.rows)
        prepared = self.prepare(grid, rules, stop)
        seed = self.seed + len(rows)
        while prepared.failure is None and time.monotonic() < stop:
            got = self.search(prepared, 1, differ, stop, seed + 1000, previous=rows)
            if not got.fills:
                break
            everything += got.fills
            rows += got.rows
            seed += 1
        ranked = sorted(everything, key=lambda f: f.rank_key("mean"), reverse=True)[:wanted]
        return FillResult("filled", grid=ranked[0].grid, words=ranked[0].words, fills=ranked, reason=result.reason)

    # -- theme words ----------------------------------------------------------------------------------------

    def _place_themes(self, grid: Grid, rules: Rules, themes: list[tuple[str, list[str]]], base: _Prepared,
                      wanted: int, differ: int | None,
                      deadline: float | None) -> "tuple[Grid, _Prepared, _Found] | FillResult":
        """The first placement of the theme words (longest first, each in the slots that leave their crossings
        the most words) under which the grid fills, with its fills; or why there is none."""
        if base.failure is not None and base.failure.status == "timeout":
            return base.failure
        p = base.problem
        assert p is not None
        present = {"".join(v or "" for v in grid.word(s)).lower(): s.name for s in grid.slots() if all(grid.word(s))}
        self.theme_slots = {present[w]: w for w, _ in themes if w in present}
        todo = sorted((t for t in themes if t[0] not in present), key=lambda t: -len(t[1]))
        if not todo:
            if base.failure is not None:
                return base.failure
            return grid, base, self.search(base, wanted, differ, deadline, self.seed)
        options = [self._theme_slots_for(p, tiles) for _, tiles in todo]
        for (word, _), slots in zip(todo, options):
            if not slots:
                return FillResult("no_fill", reason=f"no slot can take the theme word {word!r}")
        timed_out = False
        constructor = set(self.given_names or ())

        def place(i: int, g: Grid, taken: dict[str, str]) -> "tuple[Grid, _Prepared, _Found, dict[str, str]] | None":
            nonlocal timed_out
            if i == len(todo):
                self.given_names = constructor | set(taken)
                prepared = self.prepare(g, rules, deadline)
                if prepared.failure is not None:
                    timed_out |= prepared.failure.status == "timeout"
                    return None
                found = self.search(prepared, wanted, differ, deadline, self.seed)
                timed_out |= found.timed_out
                return (g, prepared, found, taken) if found.fills else None
            word, tiles = todo[i]
            for slot_name in options[i]:
                if timed_out or (deadline is not None and time.monotonic() > deadline):
                    timed_out = True
                    return None
                if slot_name in taken:
                    continue
                slot = g.slot(slot_name)
                if any(v is not None and v != t for v, t in zip(g.word(slot), tiles)):
                    continue
                # No pruning before every theme word is placed: a word still to place may be the one
                # a crossing needs, so a placement is judged whole (propagation, then the search).
                placed = g.with_cells({cell: t for cell, t in zip(slot.cells, tiles)})
                got = place(i + 1, placed, {**taken, slot_name: word})
                if got is not None:
                    return got
            return None

        got = place(0, grid, {})
        if got is None:
            if timed_out:
                return FillResult("timeout", reason="none found within the time limit")
            return FillResult("no_fill", reason="no placement of the theme words leaves a fill (the search was exhaustive)")
        g, prepared, found, taken = got
        self.theme_slots.update(taken)
        return g, prepared, found

    def _theme_slots_for(self, p: FillProblem, tiles: list[str]) -> list[str]:
        """The complete slots a theme word fits (by the grid's letters), best first: the placement that
        leaves its crossing slots the most starting candidates."""
        alphabet = p.buckets.alphabet
        codes = [alphabet.code(t) for t in tiles]
        scored: list[tuple[float, int, str]] = []
        for si, s in enumerate(p.slots):
            if not p.complete[si] or p.given_whole[si] or len(s) != len(tiles):
                continue
            if any(v is not None and v != t for v, t in zip(p.grid.word(s), tiles)):
                continue
            room = 0.0
            for j, t, k in p.crossings[si]:
                column = p.rows[t][p.cand0[t], k]
                room += math.log1p(int(np.count_nonzero(column == codes[j])))
            scored.append((-room, si, s.name))
        return [name for _, _, name in sorted(scored)]

    def _mark_themes(self, f: Fill) -> Fill:
        words = [replace(w, fixed=True, theme=True) if self.theme_slots.get(w.slot) == w.word else w for w in f.words]
        return Fill(f.grid, words)
