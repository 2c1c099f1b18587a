"""The constructor's constraints against brute force on small grids, on both engines: a blocklist, distinct stems,
per-slot patterns and fixed words, locked cells, and how many fills a grid or a region admits.

The oracle enumerates every fill of a tiny grid over a small word list (slot by slot, from the cells alone) and
filters it by each constraint as the documentation states it; the fill, the counts and the region counts are
held to what it finds.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexigraph.alphabet import Alphabet
from lexigraph.crossword.fill import Rules, count_fills, fill, read_blocklist, slot_counts, stem, suggest
from lexigraph.crossword.formats import grid_from_text
from lexigraph.crossword.grid import BLOCK, Grid
from lexigraph.errors import QueryError

#: Real words over five letters, with stem families (star/stars, rat/rats, tear/tears...).
POOL = ["at", "as", "ta", "er", "es", "re", "ar", "st", "sat", "set", "tea", "eat", "ate", "tar", "rat", "art", "ear",
        "are", "era", "sea", "see", "tee", "ret", "res", "tas", "ars", "eats", "teas", "rats", "tars", "arts", "ears",
        "star", "rate", "tear", "seat", "east", "rest", "sear", "stare", "stars", "rates", "tears", "rest", "aster",
        "tears", "eater", "setter", "state", "taste", "treat", "tease", "sate", "ease", "eras", "seas", "tees", "rets"]
POOL = sorted(set(POOL))
LETTERS = "aerst"


def runs(cells: list[list[str | None]]) -> list[list[tuple[int, int]]]:
    """Every maximal across or down run of two or more open cells, across first, each in reading order."""
    h, w = len(cells), len(cells[0])
    lines = [[(r, c) for c in range(w)] for r in range(h)] + [[(r, c) for r in range(h)] for c in range(w)]
    out = []
    for line in lines:
        cur: list[tuple[int, int]] = []
        for r, c in line + [(-1, -1)]:
            if r >= 0 and cells[r][c] != BLOCK:
                cur.append((r, c))
                continue
            if len(cur) >= 2:
                out.append(cur)
            cur = []
    return out


def every_fill(words: set[str], cells: list[list[str | None]]) -> list[tuple[tuple[str | None, ...], ...]]:
    """Every way to write words of ``words`` into the grid's runs that agrees with its letters (repeats allowed)."""
    grid = [list(r) for r in cells]
    all_runs = runs(cells)
    out = []

    def go(i: int) -> None:
        if i == len(all_runs):
            out.append(tuple(tuple(r) for r in grid))
            return
        run = all_runs[i]
        for w in sorted(words):
            if len(w) != len(run) or any(grid[r][c] not in (None, ch) for ch, (r, c) in zip(w, run)):
                continue
            saved = [grid[r][c] for r, c in run]
            for ch, (r, c) in zip(w, run):
                grid[r][c] = ch
            go(i + 1)
            for v, (r, c) in zip(saved, run):
                grid[r][c] = v

    go(0)
    return out


def entries(before: list[list[str | None]], after) -> list[tuple[str, bool]]:
    """Each run's word in a filled grid, and whether the grid gave it whole before."""
    return [("".join(after[r][c] for r, c in run), all(before[r][c] is not None for r, c in run))
            for run in runs(before)]


def pattern_regex(pattern: str) -> re.Pattern[str]:
    return re.compile("".join(".*" if ch == "*" else "." if ch == "?" else re.escape(ch) for ch in pattern.lower()))


def allowed(before, after, *, allow_repeats=False, blocklist=(), stems=False, patterns=None, slot_runs=None) -> bool:
    """Whether a fill keeps every constraint, as the documentation states them."""
    got = entries(before, after)
    words = [w for w, _ in got]
    if not allow_repeats and len(words) != len(set(words)):
        return False
    if any(w in blocklist and not g for w, g in got):
        return False
    if stems:
        for i, (a, ga) in enumerate(got):
            for b, gb in got[i + 1:]:
                if not (ga and gb) and stem(a) == stem(b):
                    return False
    for name, pattern in (patterns or {}).items():
        run = slot_runs[name]
        if not pattern_regex(pattern).fullmatch("".join(after[r][c] for r, c in run)):
            return False
    return True


def oracle(words, cells, **rules) -> set:
    """Every fill the constraints allow (the grids)."""
    return {f for f in every_fill(set(words), cells) if allowed(cells, f, **rules)}


@st.composite
def small_case(draw, max_side=3):
    # The whole pool half the time: enough words that most small grids fill, and fills to count.
    words = draw(st.one_of(st.just(POOL), st.lists(st.sampled_from(POOL), min_size=3, max_size=len(POOL), unique=True)))
    h = draw(st.integers(2, max_side))
    w = draw(st.integers(2, max_side + 1))
    cells = [[draw(st.sampled_from([None] * 6 + [BLOCK, "a", "s", "e"])) for _ in range(w)] for _ in range(h)]
    return words, cells


def _lexicon(open_lexicon, words):
    return open_lexicon(list(words), alphabet=Alphabet.from_letters(LETTERS))


def _slot_runs(grid: Grid) -> dict[str, list[tuple[int, int]]]:
    return {s.name: list(s.cells) for s in grid.slots()}


def _given_twice(cells) -> bool:
    given = ["".join(cells[r][c] for r, c in run) for run in runs(cells) if all(cells[r][c] for r, c in run)]
    return len(given) != len(set(given))


def _check(lex, words, cells, rules: Rules, **oracle_rules) -> None:
    """fill, slot_counts and count_fills under ``rules`` against the oracle's fills."""
    grid = Grid(cells)
    if not grid.slots() or _given_twice(cells):
        return
    try:
        result = fill(lex, grid, rules=rules, seed=1)
    except QueryError as e:
        assert "is not in the lexicon" in str(e) or "pattern" in str(e), e
        return
    fills = oracle(words, cells, slot_runs=_slot_runs(grid), **oracle_rules)
    assert result.status == ("filled" if fills else "no_fill"), (rules, result.reason, len(fills))
    if fills:
        assert result.grid is not None and result.grid.cells in fills
    counted = count_fills(lex, grid, rules=rules, cap=10_000)
    assert counted.exact and counted.count == len(fills)
    counts = slot_counts(lex, grid, rules=rules)
    if fills:  # arc consistency never strikes a word some fill uses
        assert counts.status == "filled"
        names = [s.name for s in grid.slots()]
        per_slot = {n: {"".join(f[r][c] for r, c in s.cells) for f in fills} for n, s in zip(names, grid.slots())}
        for c in counts.slots:
            assert c.candidates >= len(per_slot[c.slot])


# -- each constraint, against brute force -----------------------------------------------------------------------------


@given(small_case(), st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_blocklist_agrees_with_brute_force(open_lexicon, case, data):
    words, cells = case
    blocked = set(data.draw(st.lists(st.sampled_from(words), max_size=4)))
    lex = _lexicon(open_lexicon, words)
    _check(lex, words, cells, Rules(blocklist=frozenset(blocked)), blocklist=blocked)


@given(small_case(max_side=4), st.booleans())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_distinct_stems_agree_with_brute_force(open_lexicon, case, repeats):
    words, cells = case
    lex = _lexicon(open_lexicon, words)
    _check(lex, words, cells, Rules(distinct_stems=True, allow_repeats=repeats), stems=True, allow_repeats=repeats)


@st.composite
def slot_pattern(draw, length: int):
    tokens = draw(st.lists(st.sampled_from(["?", "?", "*", *LETTERS]), min_size=1, max_size=length))
    text = "".join(tokens)
    fixed = sum(1 for t in tokens if t != "*")
    if fixed > length or ("*" not in tokens and fixed != length):
        text = "*" + text[: length - 1] if fixed > length else text + "*"
    return text


@given(small_case(), st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_slot_patterns_agree_with_brute_force(open_lexicon, case, data):
    words, cells = case
    grid = Grid(cells)
    if not grid.slots():
        return
    chosen = data.draw(st.lists(st.sampled_from(grid.slots()), min_size=1, max_size=2, unique_by=lambda s: s.name))
    patterns = {s.name: data.draw(slot_pattern(len(s))) for s in chosen}
    patterns = {k: v for k, v in patterns.items() if any(ch in "?*" for ch in v)}  # fixed words: tested below
    lex = _lexicon(open_lexicon, words)
    _check(lex, words, cells, Rules(slot_patterns=patterns), patterns=patterns)


@given(small_case(), st.data())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_word_fixed_in_a_slot_is_its_entry(open_lexicon, case, data):
    words, cells = case
    grid = Grid(cells)
    if not grid.slots():
        return
    slot = data.draw(st.sampled_from(grid.slots()))
    word = data.draw(st.sampled_from([w for w in POOL if len(w) == len(slot)] or ["x" * len(slot)]))
    lex = _lexicon(open_lexicon, words)
    if any(ch not in LETTERS for ch in word):
        return
    try:
        result = fill(lex, grid, rules=Rules(slot_patterns={slot.name: word}), seed=2)
    except QueryError as e:
        assert "fixed in" in str(e) or "is not in the lexicon" in str(e)
        assert "fixed in" not in str(e) or any(grid.cell(*c) not in (None, t) for c, t in zip(slot.cells, word))
        return
    # The oracle: the grid with the word written in; the word counts as given (it may be missing from the list).
    written = [list(r) for r in cells]
    for (r, c), t in zip(slot.cells, word):
        written[r][c] = t
    if _given_twice(written):
        return
    fills = oracle(set(words) | {word}, written, slot_runs=_slot_runs(grid))
    fills = {f for f in fills if all(w in words or (w == word and g) for w, g in entries(written, f))}
    assert result.status == ("filled" if fills else "no_fill"), result.reason
    if fills:
        assert result.grid.cells in fills
        assert [w for w in result.words if w.slot == slot.name][0].word == word


@given(small_case(), st.data())
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_locked_cells_are_kept_and_the_rest_may_change(open_lexicon, case, data):
    words, cells = case
    grid = Grid(cells)
    if not grid.slots():
        return
    lex = _lexicon(open_lexicon, words)
    full = oracle(words, [[BLOCK if v == BLOCK else None for v in row] for row in cells])
    if not full:
        return
    start = sorted(full)[data.draw(st.integers(0, len(full) - 1))]  # a filled grid to refill
    open_cells = [(r, c) for r in range(len(cells)) for c in range(len(cells[0])) if cells[r][c] != BLOCK]
    locked = set(data.draw(st.lists(st.sampled_from(open_cells), max_size=3)))
    filled = Grid([list(r) for r in start])
    result = fill(lex, filled, locked=locked, seed=3)
    agrees = {f for f in full if all(f[r][c] == start[r][c] for r, c in locked)}
    # Locked cells' whole slots are given: the oracle's fills over the erased grid, keeping the locked letters.
    erased = [[start[r][c] if (r, c) in locked or start[r][c] == BLOCK else None for c in range(len(cells[0]))]
              for r in range(len(cells))]
    expected = oracle(words, erased)
    assert expected == agrees or _given_twice(erased)
    assert result.status == ("filled" if expected else "no_fill"), result.reason
    if expected:
        assert result.grid.cells in expected
        assert all(result.grid.cell(r, c) == start[r][c] for r, c in locked)
    assert count_fills(lex, filled, locked=locked, cap=10_000).count == len(expected)


@given(small_case(), st.integers(1, 2))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_region_counts_agree_with_brute_force(open_lexicon, case, band):
    """A band of rows: its across slots are filled, the down slots leaving it must keep a word that fits."""
    words, cells = case
    grid = Grid(cells)
    if not grid.slots() or band >= grid.height:
        return
    lex = _lexicon(open_lexicon, words)
    region = (1, 1, band, grid.width)
    try:
        got = count_fills(lex, grid, region=region, cap=100_000)
    except QueryError as e:
        assert "is not in the lexicon" in str(e)
        return
    inside = {(r, c) for r in range(band) for c in range(grid.width)}
    all_runs = runs(cells)
    whole = [run for run in all_runs if all(cell in inside or cells[cell[0]][cell[1]] is not None for cell in run)
             and any(cell in inside for cell in run)]
    partial = [run for run in all_runs if any(cell in inside for cell in run) and run not in whole]
    band_grid = [row[:] if i < band else [BLOCK] * len(row) for i, row in enumerate(cells)]
    if sorted(runs(band_grid)) != sorted(whole) or any(all(cells[r][c] is not None for r, c in run) for run in whole):
        return  # the band's own runs are not the grid's whole slots there, or it holds given words
    in_whole = {cell for run in whole for cell in run}
    in_partial = {cell for run in partial for cell in run}  # a cell in no slot at all is left as it is
    free = sorted((r, c) for r, c in inside if cells[r][c] is None and (r, c) not in in_whole and (r, c) in in_partial)
    found = set()
    for f in every_fill(set(words), band_grid):
        got_words = ["".join(f[r][c] for r, c in run) for run in whole]
        if len(got_words) != len(set(got_words)):
            continue
        for tiles in itertools.product(LETTERS, repeat=len(free)):  # band cells in no whole slot: any tile
            g = [list(row) for row in f]
            for (r, c), t in zip(free, tiles):
                g[r][c] = t
            # Each slot leaving the band must still fit some word.
            if all(any(len(w) == len(run) and pattern_regex("".join(
                    g[r][c] if (r, c) in inside else (cells[r][c] or "?") for r, c in run)).fullmatch(w) for w in words)
                   for run in partial):
                found.add(tuple(tuple(g[r][c] for c in range(grid.width)) for r in range(band)))
    assert got.exact and got.count == len(found), (got, len(found))


# -- the examples of the documentation, and errors ----------------------------------------------------------------


def test_stems_the_documentation_names():
    for group in (["star", "stars", "starred", "starring"], ["bake", "baked", "baking", "bakes"],
                  ["try", "tries", "tried"], ["dress", "dresses"], ["play", "played", "plays", "playing"]):
        assert len({stem(w) for w in group}) == 1, group
    assert stem("dress") != stem("dre") and stem("cat") != stem("cot")


def test_stars_and_star_never_both(open_lexicon):
    words = ["star", "stars", "ta", "at", "tea", "eat", "rats", "tsar", "tsars", "sat"]
    lex = _lexicon(open_lexicon, words)
    grid = grid_from_text("star#\n....#\n.....")
    for seed in range(4):
        r = fill(lex, grid_from_text("....\n#...\n"), rules=Rules(distinct_stems=True), seed=seed)
        if r.status == "filled":
            got = [w.word for w in r.words]
            assert len({stem(w) for w in got}) == len(got)
    assert count_fills(lex, grid, rules=Rules(distinct_stems=True)).count <= count_fills(lex, grid).count
    # A slot whose only candidates share the given word's stem is left empty by the counts.
    g = grid_from_text("stars\n.#.#.\n.....")
    assert slot_counts(_lexicon(open_lexicon, ["stars", "star", "sat"]), Grid([["s", "t", "a", "r", "s"],
                                                                             [None, None, None, None, None]]),
                       rules=Rules(distinct_stems=True)).status == "no_fill"
    assert g.slot("1A")


def test_suggest_honours_the_constraints(open_lexicon):
    words = ["star", "stars", "tars", "rats", "arts", "tsar"]
    lex = _lexicon(open_lexicon, words)
    grid = grid_from_text("stars#....")
    got = {s.word for s in suggest(lex, grid, "2A", limit=None)}
    assert got == {"star", "tars", "rats", "arts", "tsar"}
    got = {s.word for s in suggest(lex, grid, "2A", rules=Rules(distinct_stems=True, blocklist=frozenset({"rats"}),
                                                               slot_patterns={"2A": "?a*"}), limit=None)}
    assert got == {"tars"}


def _untyped(**fields: Any) -> dict[str, Any]:
    """Fields of the wrong type, as a caller without a type checker may give them."""
    return fields


def test_bad_constraints_are_one_clear_error(open_lexicon):
    lex = _lexicon(open_lexicon, ["star", "rats"])
    grid = grid_from_text("....\n....")
    for rules, message in [
        (Rules(slot_patterns={"9A": "s*"}), "no slot"),
        (Rules(slot_patterns={"1A": "s?????"}), "spells 6 tiles"),
        (Rules(slot_patterns={"1A": "s??"}), "spells 3 tiles"),
        (Rules(slot_patterns={"1A": "q*"}), "not a tile"),
        (Rules(slot_patterns={"1A": "a#b*"}), "not a tile"),
        (Rules(slot_patterns={"1A": ""}), "pattern"),
        (Rules(**_untyped(slot_patterns={"1A": 5})), "slot name and a pattern"),
        (Rules(**_untyped(blocklist="star")), "set of words"),
        (Rules(**_untyped(distinct_stems="yes")), "True or False"),
    ]:
        with pytest.raises(QueryError, match=message):
            fill(lex, grid, rules=rules)
    with pytest.raises(QueryError, match="puts T where"):
        fill(lex, grid_from_text("s...\n...."), rules=Rules(slot_patterns={"1A": "tsar"}))
    with pytest.raises(QueryError, match="cap"):
        count_fills(lex, grid, cap=0)
    with pytest.raises(QueryError, match="region"):
        fill(lex, grid, locked=[(1, 2)])


def test_read_blocklist():
    assert read_blocklist("Star\n# a comment\nrats;10  # scored lists too\n\n") == frozenset({"star", "rats"})


def test_a_fixed_word_missing_from_the_lexicon_is_given(open_lexicon):
    lex = _lexicon(open_lexicon, ["at", "ta", "as", "sa", "ts"])
    r = fill(lex, grid_from_text("..\n.."), rules=Rules(slot_patterns={"1A": "ss"}, allow_repeats=True))
    assert r.status in ("filled", "no_fill")
    if r.status == "filled":
        assert r.words[0].word == "ss" and r.words[0].fixed
