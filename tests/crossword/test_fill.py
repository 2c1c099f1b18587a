"""Autofill (crossword/fill): every fill checked by an independent verifier, existence against brute force, on both
engines; the C engine's search step for step with its Python twin."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.alphabet import Alphabet
from lexigraph.crossword.fill import Rules, fill, region_cells, suggest
from lexigraph.crossword.formats import grid_from_text, read_grid
from lexigraph.crossword.grid import BLOCK, Grid
from lexigraph.engine.python.propagation import filter_rows
from lexigraph.errors import LexiconError, QueryError


def test_no_slots_and_bad_tiles(enable):
    with pytest.raises(QueryError, match="no slot"):
        fill(enable, grid_from_text(".#.\n#.#"))
    with pytest.raises(QueryError, match="not a tile"):
        fill(enable, grid_from_text("é.\n.."))
    with pytest.raises(QueryError, match="'qzx' at 1A is not in the lexicon"):
        fill(enable, grid_from_text("qzx\n..."))
    with pytest.raises(QueryError, match="no slot"):
        suggest(enable, grid_from_text("...\n..."), "9A")


# -- the filtering pass, on both engines, against its definition -------------------------------------------


@given(st.integers(1, 6), st.integers(0, 60), st.data())
def test_filter_rows_is_its_definition(enable_on, width, count, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    rows = rng.integers(1, 8, size=(count, width), dtype=np.uint8)
    idx = np.flatnonzero(rng.random(count) < 0.7).astype(np.int32)
    masks = [data.draw(st.integers(0, 2**9 - 1)) & ~1 for _ in range(width)]
    check = data.draw(st.one_of(st.none(), st.lists(st.integers(0, width - 1), unique=True)))
    # The search's invariant: the candidates pass every position left out of check.
    trusted = [j for j in range(width) if check is not None and j not in check]
    idx = np.array([i for i in idx.tolist() if all((masks[j] >> int(rows[i, j])) & 1 for j in trusted)], np.int32)
    got, used = enable_on.engine.filter_rows(rows, idx, masks, check)
    twin, twin_used = filter_rows(rows, idx, masks, check)
    assert got.tolist() == twin.tolist() and used == twin_used
    # and against the plain definition
    positions = range(width) if check is None else check
    want = [i for i in idx.tolist() if all((masks[j] >> int(rows[i, j])) & 1 for j in positions)]
    assert got.tolist() == want
    assert used == [sum(1 << c for c in set(int(rows[i, j]) for i in want)) for j in range(width)]


WORD = st.text(alphabet="abc", min_size=2, max_size=3)


@st.composite
def small_case(draw):
    words = draw(st.dictionaries(WORD, st.integers(0, 3), min_size=1, max_size=18))
    h = draw(st.integers(2, 3))
    w = draw(st.integers(2, 3))
    cells = [[draw(st.sampled_from([None, None, None, None, BLOCK, "a", "b"])) for _ in range(w)] for _ in range(h)]
    return words, cells
def _lexicon(open_, words: dict[str, int]):
    return open_([f"{w};{p}" for w, p in words.items()], format="scored", alphabet=Alphabet.from_letters("abc"))


@given(small_case(), st.integers(0, 2), st.booleans(), st.integers(0, 3))
@settings(max_examples=150)
def test_fill_agrees_with_brute_force(open_lexicon, fill_oracle, case, min_priority, allow_repeats, seed):
    words, cells = case
    grid = Grid(cells)
    if not grid.slots():
        return
    lex = _lexicon(open_lexicon, words)
    try:
        result = fill(lex, grid, rules=Rules(min_priority, allow_repeats=allow_repeats), seed=seed)
    except QueryError as e:
        # only a fixed run that is not a word
        assert "is not in the lexicon" in str(e)
        fixed_runs = [r for r in fill_oracle.runs(cells) if all(cells[y][x] is not None for y, x in r)]
        assert any("".join(cells[y][x] for y, x in r) not in words for r in fixed_runs)
        return
    exists = fill_oracle.brute_force_exists(words, grid, min_priority=min_priority, allow_repeats=allow_repeats)
    assert result.status == ("filled" if exists else "no_fill")
    if exists:
        assert fill_oracle.verify(lex, grid, result.grid, min_priority=min_priority, allow_repeats=allow_repeats) == []


@given(small_case(), st.data())
@settings(max_examples=80)
def test_region_fill(open_lexicon, fill_oracle, case, data):
    words, cells = case
    grid = Grid(cells)
    open_cells = grid.open_cells()
    if not grid.slots() or not open_cells:
        return
    lex = _lexicon(open_lexicon, words)
    region = set(data.draw(st.lists(st.sampled_from(open_cells), min_size=1, unique=True)))
    try:
        result = fill(lex, grid, region=region)
    except QueryError as e:
        assert "is not in the lexicon" in str(e) or "no slot" in str(e)
        return
    if result.status == "filled":
        assert fill_oracle.verify(lex, grid, result.grid, region=region) == []
    else:
        # no way to fill the region: then no full fill exists either
        assert not fill_oracle.brute_force_exists(words, grid)


def test_region_by_slots_and_rectangle(fill_oracle, enable):
    g = grid_from_text("....\n....\n....\n....")
    r = fill(enable, g, region="1A")
    assert r.status == "filled"
    assert [r.grid.cell(0, c) is not None for c in range(4)] == [True] * 4
    assert all(r.grid.cell(y, x) is None for y in range(1, 4) for x in range(4))
    assert fill_oracle.verify(enable, g, r.grid, region=region_cells(g, "1A")) == []
    r2 = fill(enable, g, region="1,1:2,2")
    assert sorted(k for k in itertools.product(range(4), range(4)) if r2.grid.cell(*k) is not None) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert fill_oracle.verify(enable, g, r2.grid, region=region_cells(g, (1, 1, 2, 2))) == []
    with pytest.raises(QueryError, match="rectangle"):
        fill(enable, g, region="1,1:9,9")
    with pytest.raises(QueryError, match="corner"):
        fill(enable, g, region="x:y")


def test_impossible_answers_name_the_slot(open_lexicon):
    lex = _lexicon(open_lexicon, {"ab": 1, "ba": 1, "abc": 1})
    r = fill(lex, grid_from_text("c.\n.."))
    assert r.status == "no_fill" and r.culprits == ["1A"] and "C?" in (r.reason or "")
    r = fill(lex, grid_from_text("..\n.."))  # ab/ba square needs repeats
    assert r.status == "no_fill"
    assert fill(lex, grid_from_text("..\n.."), rules=Rules(allow_repeats=True)).status == "filled"
    r = fill(lex, grid_from_text("a.\n.."), rules=Rules(min_priority=2))
    assert r.status == "no_fill" and "priority 2" in (r.reason or "")


def test_timeout_and_progress(enable):
    seen = []
    r = fill(enable, grid_from_text("......\n......\n......\n......\n......\n......"), timeout=1e-9)
    assert r.status == "timeout" and "time limit" in (r.reason or "")
    r = fill(enable, grid_from_text("....\n....\n...."), progress=lambda *a: seen.append(a))
    assert r.status == "filled"


def test_deterministic_per_seed(fill_oracle, enable):
    g = grid_from_text(".....\n.....\n.....\n.....\n.....")
    a = [fill(enable, g, seed=s).grid for s in (1, 2, 1)]
    assert a[0] == a[2]
    for x in a:
        assert fill_oracle.verify(enable, g, x) == []


def test_improve_raises_the_floor(open_lexicon, fill_oracle):
    words = {"ab": 1, "ba": 1, "ac": 5, "ca": 5, "aa": 0}
    lex = _lexicon(open_lexicon, words)
    g = grid_from_text("a.\n..")
    best = fill(lex, g, rules=Rules(allow_repeats=True), improve=5.0, objective="min")
    assert best.status == "filled" and best.optimal
    assert best.min_priority == 5
    assert fill_oracle.verify(lex, g, best.grid, min_priority=5, allow_repeats=True) == []


def test_bad_arguments(enable):
    g = grid_from_text("..\n..")
    for kwargs in ({"min_priority": -1}, {"min_priority": 256}, {"seed": -1}, {"timeout": 0}, {"timeout": float("nan")}, {"improve": -1}):
        with pytest.raises(LexiconError):
            fill(enable, g, **kwargs)


# -- suggestions --------------------------------------------------------------------------------------
@given(st.dictionaries(WORD, st.integers(0, 3), min_size=1, max_size=20))
@settings(max_examples=60)
def test_suggestion_scores_are_products_of_crossing_counts(open_lexicon, words):
    # 1A crosses 1D and 3D, which cross nothing else: the score of w is
    # (#2-letter words starting w[0]) * (#2-letter words starting w[2]).
    lex = _lexicon(open_lexicon, words)
    g = grid_from_text("...\n.#.")
    got = suggest(lex, g, "1A", limit=None)
    twos = [w for w in words if len(w) == 2]
    expect = {}
    for w in words:
        if len(w) != 3:
            continue
        score = sum(1 for x in twos if x[0] == w[0]) * sum(1 for x in twos if x[0] == w[2])
        if score:
            expect[w] = score
    assert {s.word: s.score for s in got} == expect
    scores = [(-s.score, -s.priority, s.word) for s in got]
    assert scores == sorted(scores)


def test_suggestions_keep_every_word_of_a_fill(enable):
    g = grid_from_text("ca..\n....\n....")
    names = {s.word for s in suggest(enable, g, "1A", limit=None)}
    for seed in range(3):
        r = fill(enable, g, seed=seed)
        assert r.status == "filled"
        assert "".join(r.grid.cell(0, c) for c in range(4)) in names
    assert all(w.startswith("ca") for w in names)


# -- real grids ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["grid5.txt", "grid15.txt"])
def test_real_grids_enable(fill_oracle, enable, shared, name):
    g = read_grid(shared("grids") / name)
    r = fill(enable, g, seed=0)
    assert r.status == "filled"
    assert fill_oracle.verify(enable, g, r.grid) == []


def test_real_grid_twl06(fill_oracle, twl, shared):
    g = read_grid(shared("grids") / "grid15_random.txt")
    r = fill(twl, g, seed=1)
    assert r.status == "filled"
    assert fill_oracle.verify(twl, g, r.grid) == []
    assert len(r.words) == len(g.slots())


def test_fixed_cells_are_kept(fill_oracle, enable):
    g = grid_from_text("q....\n.....\n..x..\n.....\n....z".replace("z", "."))
    r = fill(enable, g, seed=2)
    assert r.status == "filled"
    assert fill_oracle.verify(enable, g, r.grid) == []



def test_large_grid_is_bounded_by_the_time_limit(enable):
    # 441 separate 5x5 squares: more to fill than a time limit of a fifth of a second allows
    rows = ["#" * 125 if i % 6 == 5 else "".join("#" if c % 6 == 5 else "." for c in range(125)) for i in range(125)]
    r = fill(enable, grid_from_text("\n".join(rows)), timeout=0.2)
    assert r.status == "timeout"
    with pytest.raises(QueryError, match="at most 255"):
        grid_from_text("\n".join(["." * 1000] * 1000))


@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
@pytest.mark.parametrize("seed", [0, 1])
def test_c_and_python_search_step_for_step(enable_on, open_python, fill_oracle, seed):
    g = grid_from_text("....#....\n....#....\n.........\n###...###\n.........\n....#....\n....#....")
    c = fill(enable_on, g, seed=seed)
    py = fill(open_python(), g, seed=seed)
    assert c.status == py.status == "filled"
    assert c.grid == py.grid
    assert c.stats == py.stats  # same nodes, failures, restarts and filtering passes
    assert fill_oracle.verify(enable_on, g, c.grid) == []


def test_alphabets_beyond_63_tiles_use_the_python_path(open_lexicon, fill_oracle):
    letters = [chr(c) for c in range(0x3B1, 0x3B1 + 25)] + [chr(c) for c in range(0x430, 0x430 + 32)] + list("abcdefghij")
    lex = open_lexicon(["ab", "ba", "ая", "яа", "aя", "яb"], alphabet=Alphabet.from_letters(letters))
    assert len(lex.alphabet) > 63
    g = grid_from_text("..\n..")
    r = fill(lex, g, rules=Rules(allow_repeats=True))
    assert r.status == "filled" and fill_oracle.verify(lex, g, r.grid, allow_repeats=True) == []
    assert fill_oracle.brute_force_exists({w: 50 for w in lex}, g, allow_repeats=True)
    assert fill(lex, g).status == ("filled" if fill_oracle.brute_force_exists({w: 50 for w in lex}, g) else "no_fill")
