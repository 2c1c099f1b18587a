"""Grid design: every proposal held to a validator written apart from the generator (symmetric, connected, every
cell checked, entries of 3 or more, the entry count rule, a sensible block count), every theme entry placed, the
fill valid, the same seed giving the same proposals; on both engines."""

from __future__ import annotations

import zlib

import pytest

from lexigraph.crossword.design import design
from lexigraph.crossword.fill import Rules
from lexigraph.errors import QueryError

BLOCK = "#"

#: The Python twin's budget where a 15x15 fill takes it minutes: its proposals' patterns are held to the validator
#: all the same (the patterns do not depend on the engine), and its fill is held to the C fill step for step by
#: ``test_fill.py::test_c_and_python_search_step_for_step``.
PYTHON_TWIN_SECONDS = 5


# -- the validator: the rules of a proposal, from the cells alone --------------------------------------------------------


def lines(cells) -> list[list[tuple[int, int]]]:
    h, w = len(cells), len(cells[0])
    return [[(r, c) for c in range(w)] for r in range(h)] + [[(r, c) for r in range(h)] for c in range(w)]


def entries(cells) -> list[list[tuple[int, int]]]:
    """Maximal runs of open cells, single cells included (a single cell is an unchecked cell or a 1-letter entry)."""
    out = []
    for line in lines(cells):
        run: list[tuple[int, int]] = []
        for r, c in line:
            if cells[r][c] == BLOCK:
                if run:
                    out.append(run)
                run = []
            else:
                run.append((r, c))
        if run:
            out.append(run)
    return out


def problems(cells, symmetry: str, themed: bool) -> list[str]:
    h, w = len(cells), len(cells[0])
    found = []
    image = {"rotational": lambda r, c: (h - 1 - r, w - 1 - c), "left-right": lambda r, c: (r, w - 1 - c),
             "none": lambda r, c: (r, c)}[symmetry]
    for r in range(h):
        for c in range(w):
            y, x = image(r, c)
            if (cells[r][c] == BLOCK) != (cells[y][x] == BLOCK):
                found.append(f"asymmetric at {r},{c}")
    runs = entries(cells)
    for run in runs:
        if len(run) < 3:
            found.append(f"a run of {len(run)} at {run[0]}")
    open_cells = [(r, c) for r in range(h) for c in range(w) if cells[r][c] != BLOCK]
    for cell in open_cells:  # checked: in an across and a down entry of 3 or more
        in_runs = [run for run in runs if cell in run]
        if len(in_runs) != 2 or any(len(run) < 3 for run in in_runs):
            found.append(f"cell {cell} is not checked")
    seen = {open_cells[0]} if open_cells else set()
    todo = list(seen)
    while todo:
        r, c = todo.pop()
        for y, x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= y < h and 0 <= x < w and cells[y][x] != BLOCK and (y, x) not in seen:
                seen.add((y, x))
                todo.append((y, x))
    if len(seen) != len(open_cells):
        found.append("not connected")
    limit = round((78 if themed else 72) * h * w / 225)
    count = sum(1 for run in runs if len(run) >= 2)
    if count > limit:
        found.append(f"{count} entries > {limit}")
    blocks = h * w - len(open_cells)
    if blocks > 0.18 * h * w + 0.5:
        found.append(f"{blocks} blocks")
    return found


def words_of(cells) -> list[str]:
    return ["".join(cells[r][c] or "." for r, c in run) for run in entries(cells) if len(run) >= 2]


def check_result(lex, result, symmetry: str, theme: list[str], rules: Rules | None = None) -> None:
    for p in result.proposals:
        pattern = [list(row) for row in p.pattern.cells]
        assert problems(pattern, symmetry, bool(theme)) == [], problems(pattern, symmetry, bool(theme))
        placed = words_of(pattern)
        assert all(t in placed for t in theme), (theme, placed)  # every theme entry whole in the pattern
        assert sorted(x.word for x in p.placements) == sorted(theme)
        if p.status == "filled":
            grid = [list(row) for row in p.fill.grid.cells]
            for r, row in enumerate(pattern):
                for c, v in enumerate(row):
                    assert (v == BLOCK) == (grid[r][c] == BLOCK) and (v is None or v == grid[r][c])
            got = words_of(grid)
            assert len(got) == len(set(got))
            floor = rules.min_priority if rules else 0
            for word in got:
                assert word in theme or (word in lex and (lex.priority(word) or 0) >= floor), word


# -- designs ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("theme, symmetry", [
    (["pancakes", "waffles", "oatmeal"], "rotational"),
    (["breakfastinbed", "omelet", "bagels"], "rotational"),
    (["coffeecup", "teapot"], "left-right"),
    (["sunrise", "sunset"], "none"),
])
def test_every_proposal_is_valid_and_holds_the_theme(open_lexicon, engine_kind, theme, symmetry):
    lex = open_lexicon()
    timeout = 60 if engine_kind == "c" else PYTHON_TWIN_SECONDS
    r = design(lex, theme=theme, symmetry=symmetry, proposals=2, seed=3, timeout=timeout)
    assert r.proposals and r.status in ("filled", "unfilled")
    check_result(lex, r, symmetry, theme)
    ranked = [p.score for p in r.proposals if p.status == "filled"]
    assert ranked == sorted(ranked, reverse=True)


def test_themeless_grids_keep_the_themeless_entry_count(open_lexicon, engine_kind):
    lex = open_lexicon()
    if engine_kind == "c":  # no time limit (each fill runs to its end): the fill is checked whatever the machine
        r = design(lex, proposals=1, seed=1, timeout=None, fill_timeout=1e6)
        assert r.status == "filled"
    else:
        r = design(lex, proposals=1, seed=1, timeout=PYTHON_TWIN_SECONDS)
    assert r.proposals
    check_result(lex, r, "rotational", [])


def test_the_same_seed_gives_the_same_proposals(open_lexicon, engine_kind):
    lex = open_lexicon()
    # No time limit anywhere (each fill runs to its end), so that nothing depends on the machine's speed. The Python
    # twin, slower, makes one proposal (its fills are held to C's step for step in test_fill.py).
    proposals = 2 if engine_kind == "c" else 1
    args = dict(theme=["pancakes", "waffles", "oatmeal"], proposals=proposals, seed=5, timeout=None, fill_timeout=1e6)
    a, b = design(lex, **args), design(lex, **args)
    assert [p.pattern for p in a.proposals] == [p.pattern for p in b.proposals]
    assert [p.fill.grid if p.fill else None for p in a.proposals] == [p.fill.grid if p.fill else None
                                                                       for p in b.proposals]
    c = design(lex, **dict(args, seed=6))
    assert [p.pattern for p in a.proposals] != [p.pattern for p in c.proposals]


def test_central_entry_and_revealer(open_lexicon):
    lex = open_lexicon()
    r = design(lex, theme=["pancakes", "waffles"], central="breakfast", revealer="brunch", proposals=1, seed=2,
               timeout=60)
    assert r.proposals
    check_result(lex, r, "rotational", ["pancakes", "waffles", "breakfast", "brunch"])
    where = {p.word: p for p in r.proposals[0].placements}
    assert where["breakfast"].row == 7 and where["breakfast"].col == 3 and where["breakfast"].direction == "A"
    assert where["brunch"].row == max(p.row for p in where.values())


def test_design_fills_at_a_minimum_score(open_lexicon, engine_kind):
    # priorities 40 to 59 spread over the words of every length (a checksum), so that half of each length is below
    # the floor and a fill at 50 or more exists
    scores = {w: 40 + zlib.crc32(w.encode()) % 20 for w in open_lexicon()}
    scores.update(pancakes=10, waffles=10)  # theme entries take any priority
    lex = open_lexicon([f"{w};{p}" for w, p in scores.items()], format="scored")
    rules = Rules(min_priority=50)
    if engine_kind == "c":  # no time limit (the fill runs to its end): the fill is checked whatever the machine
        r = design(lex, theme=["pancakes", "waffles"], proposals=1, seed=1, timeout=None, fill_timeout=1e6,
                   rules=rules)
        assert r.status == "filled"
    else:
        r = design(lex, theme=["pancakes", "waffles"], proposals=1, seed=1, timeout=PYTHON_TWIN_SECONDS, rules=rules)
    assert r.proposals
    check_result(lex, r, "rotational", ["pancakes", "waffles"], rules)


@pytest.mark.parametrize("kwargs, message", [
    (dict(symmetry="diagonal"), "symmetry"),
    (dict(height=2), "height"),
    (dict(theme=["abcdefghijklmnopq"]), "17 tiles"),
    (dict(theme=["ab"]), "2 tiles"),
    (dict(theme=["cat", "cat"]), "twice"),
    (dict(central="pancakes"), "central entry"),
    (dict(proposals=0), "proposals"),
    (dict(seed=-1), "seed"),
    (dict(timeout=0), "timeout"),
    (dict(max_run=2), "max_run"),
    (dict(fill_timeout=-1), "fill_timeout"),
    (dict(theme=[5]), "text"),
])
def test_bad_arguments_are_one_clear_error(open_lexicon, kwargs, message):
    with pytest.raises(QueryError, match=message):
        design(open_lexicon(), **kwargs)


def test_a_theme_that_cannot_fit_says_so(open_lexicon):
    theme = ["breakfastinbed", "omeletstation", "coffeeandtoast", "orangejuicebar", "scrambledeggs", "frenchtoasts",
             "hashbrowns"]
    r = design(open_lexicon(), theme=theme, proposals=1, timeout=20)
    assert r.status == "no_grid" and r.reason and not r.proposals, (r.status, r.reason)
