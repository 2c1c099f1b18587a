"""Autofill: every fill checked by an independent verifier, existence against brute force, both filter paths."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.crossword import fill as autofill
from lexigraph.alphabet import Alphabet
from lexigraph.crossword.fill import fill, region_cells, suggest
from lexigraph.errors import LexiconError, QueryError
from lexigraph.crossword.grid import BLOCK, Grid

# -- an independent model of the grid: runs of open cells, found without the Grid class ----------


def runs(cells: list[list[str | None]]) -> list[list[tuple[int, int]]]:
    """Every maximal across or down run of >= 2 open cells (unnumbered, any order)."""
    h, w = len(cells), len(cells[0])
    out = []
    for r in range(h):
        line = [(r, c) for c in range(w)]
        out += _runs_of(line, cells)
    for c in range(w):
        line = [(r, c) for r in range(h)]
        out += _runs_of(line, cells)
    return out


def _runs_of(line, cells):
    out, cur = [], []
    for r, c in line:
        if cells[r][c] != BLOCK:
            cur.append((r, c))
        else:
            if len(cur) >= 2:
                out.append(cur)
            cur = []
    if len(cur) >= 2:
        out.append(cur)
    return out


def verify(lex, before: Grid, after: Grid, *, min_priority=0, allow_repeats=False, region=None) -> list[str]:
    """Problems with a fill, judged from the cells alone (empty list: a valid fill)."""
    problems = []
    if after.height != before.height or after.width != before.width:
        return ["the grid changed size"]
    for r in range(before.height):
        for c in range(before.width):
            b, a = before.cell(r, c), after.cell(r, c)
            if b is not None and a != b:
                problems.append(f"cell {r},{c} was {b!r}, now {a!r}")
            if b is None and region is not None and (r, c) not in region and a is not None:
                problems.append(f"cell {r},{c} outside the region was filled")
    seen = []
    for run in runs([list(row) for row in after.cells]):
        tiles = [after.cell(r, c) for r, c in run]
        if any(t is None for t in tiles):
            if region is None:
                problems.append(f"run {run} is not filled")
            else:  # a partial run that could be completed must still be completable
                pattern = "".join(t if t is not None else "?" for t in tiles)
                was = "".join(before.cell(r, c) or "?" for r, c in run)
                if not lex.match(pattern, min_priority=0) and lex.match(was, min_priority=0):
                    problems.append(f"partial run {was} -> {pattern} can no longer be completed")
            continue
        word = "".join(tiles)
        was_fixed = all(before.cell(r, c) is not None for r, c in run)
        if was_fixed and region is not None and word not in lex:
            continue  # a region fill leaves the rest of the grid as it is, non-words included
        if word not in lex:
            problems.append(f"{word!r} is not in the lexicon")
        elif not was_fixed and (lex.priority(word) or 0) < min_priority:
            problems.append(f"{word!r} has priority {lex.priority(word)} < {min_priority}")
        seen.append(word)
    if not allow_repeats and len(seen) != len(set(seen)):
        problems.append(f"repeated words: {sorted(w for w in set(seen) if seen.count(w) > 1)}")
    return problems


def brute_force_exists(words: dict[str, int], grid: Grid, *, min_priority=0, allow_repeats=False) -> bool:
    """Exhaustive search, run by run, over the word list (small inputs only)."""
    cells = [list(row) for row in grid.cells]
    all_runs = runs(cells)
    pool = {w for w, p in words.items() if p >= min_priority}
    # a run the grid already holds whole may use any word of the lexicon, whatever its priority
    given_whole = [all(cells[r][c] is not None for r, c in run) for run in all_runs]

    def fits(word, run):
        return len(word) == len(run) and all(cells[r][c] in (None, ch) for ch, (r, c) in zip(word, run))

    def go(i, used):
        if i == len(all_runs):
            return True
        run = all_runs[i]
        if given_whole[i]:
            word = "".join(cells[r][c] for r, c in run)
            options = [word] if word in words else []
        else:
            options = [w for w in pool if fits(w, run)]
        for w in options:
            if not allow_repeats and w in used:
                continue
            saved = [cells[r][c] for r, c in run]
            for ch, (r, c) in zip(w, run):
                cells[r][c] = ch
            if go(i + 1, used | {w}):
                return True
            for v, (r, c) in zip(saved, run):
                cells[r][c] = v
        return False

    return go(0, frozenset())


# -- grids -------------------------------------------------------------------------------------


def test_text_round_trip_and_numbering():
    g = Grid.from_text("\n..#..\n.....\n#...#\n")
    assert (g.height, g.width) == (3, 5)
    names = [s.name for s in g.slots()]
    assert names == ["1A", "3A", "5A", "7A", "1D", "2D", "3D", "4D", "6D"]
    assert Grid.from_text(g.to_text()) == g
    # the slots are exactly the runs of the independent model
    assert sorted(sorted(s.cells) for s in g.slots()) == sorted(sorted(r) for r in runs([list(x) for x in g.cells]))


@given(st.integers(1, 7), st.integers(1, 7), st.data())
def test_numbering_matches_runs(h, w, data):
    cells = [[data.draw(st.sampled_from([None, None, BLOCK, "a"])) for _ in range(w)] for _ in range(h)]
    g = Grid(cells)
    slots = g.slots()
    assert sorted(tuple(s.cells) for s in slots) == sorted(tuple(r) for r in runs(cells))
    numbers = g.numbers()
    # numbers run 1..n in reading order over the cells that start a run
    starts = sorted({s.cells[0] for s in slots})
    assert [numbers[c] for c in starts] == list(range(1, len(starts) + 1))
    for s in slots:
        assert numbers[s.cells[0]] == s.number
    assert Grid.from_text(g.to_text()) == g
    assert Grid.from_ipuz(json.dumps(g.to_ipuz())) == g
    assert Grid.from_puz(g.to_puz()) == g


def test_multi_letter_tiles():
    es = lexigraph.load(["cha", "chi", "as", "is"], alphabet="spanish")
    assert Grid.from_text("CHAL\n#.O", alphabet=es.alphabet).cells[0] == ("ch", "a", "l")
    square = Grid.from_text("[ch].\n..")
    r = fill(es, square)
    assert r.status == "filled" and verify(es, square, r.grid) == []
    assert r.grid.cells in ((("ch", "a"), ("i", "s")), (("ch", "i"), ("a", "s")))
    assert Grid.from_text("[ch]al").cells[0] == ("ch", "a", "l")
    assert Grid.from_puz(Grid.from_text("[ch]a\n..").to_puz()).cell(0, 0) == "ch"
    assert "[CH]" in Grid.from_text("[ch]a").to_text()
    with pytest.raises(QueryError, match="not a tile of this lexicon"):
        Grid.from_text("w.", alphabet=lexigraph.load(["ab"]).alphabet)


@pytest.mark.parametrize(
    "text, message",
    [
        ("...\n..", "differ in length"),
        ("..%\n...", "'%' at position 2 is not a tile of this lexicon"),
        ("", "empty"),
        ("\n\n", "empty"),
        ("[\n..", "closing"),
        ("\n".join(["." * 1000] * 3), "at most 255"),
        ("\n".join(["."] * 1000), "at most 255"),
    ],
)
def test_bad_text_grids(text, message):
    with pytest.raises(QueryError, match=message):
        Grid.from_text(text)


def test_no_slots_and_bad_tiles(enable):
    with pytest.raises(QueryError, match="no slot"):
        fill(enable, Grid.from_text(".#.\n#.#"))
    with pytest.raises(QueryError, match="not a tile"):
        fill(enable, Grid.from_text("é.\n.."))
    with pytest.raises(QueryError, match="'qzx' at 1A is not in the lexicon"):
        fill(enable, Grid.from_text("qzx\n..."))
    with pytest.raises(QueryError, match="no slot"):
        suggest(enable, Grid.from_text("...\n..."), "9A")


@pytest.mark.parametrize(
    "data, message",
    [
        (b"not json", "does not parse"),
        (b"[]", "top level"),
        (b'{"kind": ["x"]}', "crossword"),
        (b'{"kind": ["http://ipuz.org/crossword#1"]}', "dimensions"),
        (b'{"kind": ["http://ipuz.org/crossword#1"], "dimensions": {"width": 2, "height": 1}, "puzzle": [[0]]}', "puzzle"),
        (b'{"kind": ["http://ipuz.org/crossword#1"], "dimensions": {"width": 1e9, "height": 1}}', "width"),
        (b'{"kind": ["http://ipuz.org/crossword#1"], "dimensions": {"width": 1, "height": 1}, "puzzle": [[0]], "solution": [["4"]]}', "solution"),
    ],
)
def test_bad_ipuz(tmp_path, data, message):
    path = tmp_path / "bad.ipuz"
    path.write_bytes(data)
    with pytest.raises(QueryError, match=message):
        Grid.read(path)
    assert path.read_bytes() == data


@given(st.binary(max_size=200), st.integers(0, 400))
@settings(max_examples=40)
def test_damaged_puz_is_a_clear_error(junk, cut):
    good = Grid.from_text("ab.\n.#.\n...").to_puz()
    for data in (junk, good[:cut], good[:cut] + junk + good[cut + len(junk):]):
        try:
            g = Grid.from_puz(data)
        except QueryError:
            continue
        assert isinstance(g, Grid)


def test_files_round_trip_and_are_not_modified(tmp_path):
    g = Grid.from_text("ab.\n.#.\n...")
    for ext in ("txt", "ipuz", "puz"):
        path = tmp_path / f"g.{ext}"
        g.write(path)
        data = path.read_bytes()
        assert Grid.read(path) == g
        assert path.read_bytes() == data
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    with pytest.raises(QueryError, match="cannot read"):
        Grid.read(tmp_path / "missing.txt")


# -- the filtering pass: C and NumPy agree ----------------------------------------------------------


@pytest.mark.skipif(autofill._fill is None, reason="the C extension is not built")
@given(st.integers(1, 6), st.integers(0, 60), st.data())
def test_filter_c_matches_python(width, count, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    rows = rng.integers(1, 8, size=(count, width), dtype=np.uint8)
    idx = np.flatnonzero(rng.random(count) < 0.7).astype(np.int32)
    masks = [data.draw(st.integers(0, 2**9 - 1)) & ~1 for _ in range(width)]
    check = data.draw(st.one_of(st.none(), st.lists(st.integers(0, width - 1), unique=True)))
    # The search's invariant: the candidates pass every position left out of check.
    trusted = [j for j in range(width) if check is not None and j not in check]
    idx = np.array([i for i in idx.tolist() if all((masks[j] >> int(rows[i, j])) & 1 for j in trusted)], np.int32)
    a, ma = autofill._filter_py(rows, idx, masks, check)
    b, mb = autofill._filter_c(rows, idx, masks, check)
    assert a.tolist() == b.tolist()
    assert ma == mb
    # and against the plain definition
    positions = range(width) if check is None else check
    want = [i for i in idx.tolist() if all((masks[j] >> int(rows[i, j])) & 1 for j in positions)]
    assert a.tolist() == want
    assert ma == [sum(1 << c for c in set(int(rows[i, j]) for i in want)) for j in range(width)]


@pytest.mark.skipif(autofill._fill is None, reason="the C extension is not built")
def test_filter_c_checks_its_arguments():
    rows = np.ones((3, 2), np.uint8)
    f = autofill._fill.filter_rows
    with pytest.raises(IndexError):
        f(rows, 2, np.array([5], np.int32), [2, 2], b"\0")
    with pytest.raises(ValueError):
        f(rows, 4, np.array([0], np.int32), [2, 2, 2, 2], b"")
    with pytest.raises(ValueError):
        f(rows, 2, np.array([0], np.int32), [2], b"")
    with pytest.raises(ValueError):
        f(rows, 2, np.array([0], np.int32), [2, 2], b"\x07")
    with pytest.raises(TypeError):
        f(rows, 2, [0], [2, 2], b"")
    with pytest.raises(OverflowError):
        f(rows, 2, np.array([0], np.int32), [2, -1], b"")
    assert f(rows, 2, np.array([0, 2], np.int32), [2, 2], b"\0\1") == (None, (2, 2))
    kept, used = f(rows, 2, np.array([0, 2], np.int32), [4, 2], b"\0")
    assert kept == b"" and used == (0, 0)


# -- fills against brute force on small generated lexicons -----------------------------------------

WORD = st.text(alphabet="abc", min_size=2, max_size=3)


@st.composite
def small_case(draw):
    words = draw(st.dictionaries(WORD, st.integers(0, 3), min_size=1, max_size=18))
    h = draw(st.integers(2, 3))
    w = draw(st.integers(2, 3))
    cells = [[draw(st.sampled_from([None, None, None, None, BLOCK, "a", "b"])) for _ in range(w)] for _ in range(h)]
    return words, cells


def _lexicon(words: dict[str, int]):
    return lexigraph.load([f"{w};{p}" for w, p in words.items()], format="scored", alphabet=Alphabet.from_letters("abc"))


@given(small_case(), st.integers(0, 2), st.booleans(), st.integers(0, 3))
@settings(max_examples=150)
def test_fill_agrees_with_brute_force(case, min_priority, allow_repeats, seed):
    words, cells = case
    grid = Grid(cells)
    if not grid.slots():
        return
    lex = _lexicon(words)
    try:
        result = fill(lex, grid, min_priority=min_priority, allow_repeats=allow_repeats, seed=seed)
    except QueryError as e:
        # only a fixed run that is not a word
        assert "is not in the lexicon" in str(e)
        fixed_runs = [r for r in runs(cells) if all(cells[y][x] is not None for y, x in r)]
        assert any("".join(cells[y][x] for y, x in r) not in words for r in fixed_runs)
        return
    exists = brute_force_exists(words, grid, min_priority=min_priority, allow_repeats=allow_repeats)
    assert result.status == ("filled" if exists else "no_fill")
    if exists:
        assert verify(lex, grid, result.grid, min_priority=min_priority, allow_repeats=allow_repeats) == []
    # both filtering paths give the same answer
    twin = fill(lex, grid, min_priority=min_priority, allow_repeats=allow_repeats, seed=seed, pure_python=True)
    assert twin.status == result.status and twin.grid == result.grid


@given(small_case(), st.data())
@settings(max_examples=80)
def test_region_fill(case, data):
    words, cells = case
    grid = Grid(cells)
    open_cells = grid.open_cells()
    if not grid.slots() or not open_cells:
        return
    lex = _lexicon(words)
    region = set(data.draw(st.lists(st.sampled_from(open_cells), min_size=1, unique=True)))
    try:
        result = fill(lex, grid, region=region)
    except QueryError as e:
        assert "is not in the lexicon" in str(e) or "no slot" in str(e)
        return
    if result.status == "filled":
        assert verify(lex, grid, result.grid, region=region) == []
    else:
        # no way to fill the region: then no full fill exists either
        assert not brute_force_exists(words, grid)


def test_region_by_slots_and_rectangle(enable):
    g = Grid.from_text("....\n....\n....\n....")
    r = fill(enable, g, region="1A")
    assert r.status == "filled"
    assert [r.grid.cell(0, c) is not None for c in range(4)] == [True] * 4
    assert all(r.grid.cell(y, x) is None for y in range(1, 4) for x in range(4))
    assert verify(enable, g, r.grid, region=region_cells(g, "1A")) == []
    r2 = fill(enable, g, region="1,1:2,2")
    assert sorted(k for k in itertools.product(range(4), range(4)) if r2.grid.cell(*k) is not None) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert verify(enable, g, r2.grid, region=region_cells(g, (1, 1, 2, 2))) == []
    with pytest.raises(QueryError, match="rectangle"):
        fill(enable, g, region="1,1:9,9")
    with pytest.raises(QueryError, match="corner"):
        fill(enable, g, region="x:y")


def test_impossible_answers_name_the_slot():
    lex = _lexicon({"ab": 1, "ba": 1, "abc": 1})
    r = fill(lex, Grid.from_text("c.\n.."))
    assert r.status == "no_fill" and r.culprits == ["1A"] and "C?" in (r.reason or "")
    r = fill(lex, Grid.from_text("..\n.."))  # ab/ba square needs repeats
    assert r.status == "no_fill"
    assert fill(lex, Grid.from_text("..\n.."), allow_repeats=True).status == "filled"
    r = fill(lex, Grid.from_text("a.\n.."), min_priority=2)
    assert r.status == "no_fill" and "priority 2" in (r.reason or "")


def test_timeout_and_progress(enable):
    seen = []
    r = fill(enable, Grid.from_text("......\n......\n......\n......\n......\n......"), timeout=1e-9)
    assert r.status == "timeout" and "time limit" in (r.reason or "")
    r = fill(enable, Grid.from_text("....\n....\n...."), progress=lambda *a: seen.append(a))
    assert r.status == "filled"


def test_deterministic_per_seed(enable):
    g = Grid.from_text(".....\n.....\n.....\n.....\n.....")
    a = [fill(enable, g, seed=s).grid for s in (1, 2, 1)]
    assert a[0] == a[2]
    for x in a:
        assert verify(enable, g, x) == []


def test_improve_raises_the_floor():
    words = {"ab": 1, "ba": 1, "ac": 5, "ca": 5, "aa": 0}
    lex = _lexicon(words)
    g = Grid.from_text("a.\n..")
    best = fill(lex, g, allow_repeats=True, improve=5.0)
    assert best.status == "filled" and best.optimal
    assert best.min_priority == 5
    assert verify(lex, g, best.grid, min_priority=5, allow_repeats=True) == []


def test_bad_arguments(enable):
    g = Grid.from_text("..\n..")
    for kwargs in ({"min_priority": -1}, {"min_priority": 256}, {"seed": -1}, {"timeout": 0}, {"timeout": float("nan")}, {"improve": -1}):
        with pytest.raises(LexiconError):
            fill(enable, g, **kwargs)


# -- suggestions --------------------------------------------------------------------------------------


@given(st.dictionaries(WORD, st.integers(0, 3), min_size=1, max_size=20))
@settings(max_examples=60)
def test_suggestion_scores_are_products_of_crossing_counts(words):
    # 1A crosses 1D and 3D, which cross nothing else: the score of w is
    # (#2-letter words starting w[0]) * (#2-letter words starting w[2]).
    lex = _lexicon(words)
    g = Grid.from_text("...\n.#.")
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
    g = Grid.from_text("ca..\n....\n....")
    names = {s.word for s in suggest(enable, g, "1A", limit=None)}
    for seed in range(3):
        r = fill(enable, g, seed=seed)
        assert r.status == "filled"
        assert "".join(r.grid.cell(0, c) for c in range(4)) in names
    assert all(w.startswith("ca") for w in names)


# -- real grids ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["grid5.txt", "grid15.txt"])
def test_real_grids_enable(enable, shared, name):
    g = Grid.read(shared("grids") / name)
    r = fill(enable, g, seed=0)
    assert r.status == "filled"
    assert verify(enable, g, r.grid) == []


def test_real_grid_twl06(twl, shared):
    g = Grid.read(shared("grids") / "grid15_random.txt")
    r = fill(twl, g, seed=1)
    assert r.status == "filled"
    assert verify(twl, g, r.grid) == []
    assert len(r.words) == len(g.slots())


def test_fixed_cells_are_kept(enable):
    g = Grid.from_text("q....\n.....\n..x..\n.....\n....z".replace("z", "."))
    r = fill(enable, g, seed=2)
    assert r.status == "filled"
    assert verify(enable, g, r.grid) == []



def test_large_grid_is_bounded_by_the_time_limit(enable):
    # 1,024 separate 3x3 squares need 6,144 different 3-letter words: ENABLE has about a thousand.
    rows = ["#" * 127 if i % 4 == 3 else ("...#" * 32)[:127] for i in range(127)]
    r = fill(enable, Grid.from_text("\n".join(rows)), timeout=0.3)
    assert r.status == "timeout"
    with pytest.raises(QueryError, match="at most 255"):
        Grid.from_text("\n".join(["." * 1000] * 1000))


@pytest.mark.skipif(autofill._fill is None, reason="the C extension is not built")
@pytest.mark.parametrize("seed", [0, 1])
def test_c_and_python_search_step_for_step(enable, seed):
    g = Grid.from_text("....#....\n....#....\n.........\n###...###\n.........\n....#....\n....#....")
    c = fill(enable, g, seed=seed)
    py = fill(enable, g, seed=seed, pure_python=True)
    assert c.status == py.status == "filled"
    assert c.grid == py.grid
    assert c.stats == py.stats  # same nodes, failures, restarts and filtering passes
    assert verify(enable, g, c.grid) == []


@pytest.mark.skipif(autofill._fill is None, reason="the C extension is not built")
def test_propagator_checks_its_arguments():
    P = autofill._fill.Propagator
    rows = np.ones((2, 2), np.uint8)
    wrap = lambda b: np.frombuffer(b, np.int32)  # noqa: E731
    ok = ([rows], [[0, 1]], [[(0, 0)], [(0, 1)]], b"\x01", [[0]], False, wrap, lambda: 0.0)
    prop = P(*ok)
    cand = [np.array([0, 1], np.int32)]
    dom = array_q([2, 2])
    assert prop.propagate(cand, dom, {0: None}, [], None) == -1
    assert cand[0].tolist() == [0, 1] and list(dom) == [2, 2]
    assert prop.propagate(cand, array_q([4, 2]), {0: {0}}, [], None) == 0  # wiped out: slot 0
    for bad in (
        ([rows], [[0, 5]], [[(0, 0)], [(0, 1)]], b"\x01", [[0]], False, wrap, None),  # cell out of range
        ([rows], [[0, 1]], [[(0, 0)], [(0, 1)]], b"", [[0]], False, wrap, None),  # one flag per slot
        ([rows], [[0, 1, 1]], [[(0, 0)], [(0, 1)]], b"\x01", [[0]], False, wrap, None),  # width
        ([rows], [[0, 1]], [[(3, 0)], [(0, 1)]], b"\x01", [[0]], False, wrap, None),  # slot out of range
    ):
        with pytest.raises((ValueError, TypeError)):
            P(*bad)
    with pytest.raises(ValueError):
        prop.propagate(cand, array_q([2]), {0: None}, [], None)
    with pytest.raises(ValueError):
        prop.propagate(cand, dom, {0: {9}}, [], None)
    with pytest.raises(IndexError):
        prop.propagate([np.array([7], np.int32)], dom, {0: None}, [], None)


def array_q(values):
    from array import array

    return array("Q", values)


def test_writing_to_special_paths(tmp_path):
    import os
    import stat

    g = Grid.from_text("ab\n..")
    g.write("/dev/null")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    target = tmp_path / "real.txt"
    target.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    g.write(link)
    assert link.is_symlink() and Grid.read(target) == g
    with pytest.raises(QueryError, match="directory"):
        g.write(tmp_path)


def test_alphabets_beyond_63_tiles_use_the_python_path():
    letters = [chr(c) for c in range(0x3B1, 0x3B1 + 25)] + [chr(c) for c in range(0x430, 0x430 + 32)] + list("abcdefghij")
    lex = lexigraph.load(["ab", "ba", "ая", "яа", "aя", "яb"], alphabet=Alphabet.from_letters(letters))
    assert len(lex.alphabet) > 63
    g = Grid.from_text("..\n..")
    r = fill(lex, g, allow_repeats=True)
    assert r.status == "filled" and verify(lex, g, r.grid, allow_repeats=True) == []
    assert brute_force_exists({w: 50 for w in lex}, g, allow_repeats=True)
    assert fill(lex, g).status == ("filled" if brute_force_exists({w: 50 for w in lex}, g) else "no_fill")


def test_ipuz_variants():
    data = {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "dimensions": {"width": 3, "height": 2},
        "block": "X",
        "empty": "0",
        "puzzle": [[{"cell": 1, "style": {"shapebg": "circle"}}, 2, "X"], [3, None, "0"]],
        "solution": [["C", {"value": "A"}, "X"], [None, "#", "0"]],
    }
    g = Grid.from_ipuz(json.dumps(data))
    assert g.cells == (("c", "a", BLOCK), (None, BLOCK, None))
    back = Grid.from_ipuz(g.to_ipuz())
    assert back == g
    data["solution"][0][0] = "4"
    with pytest.raises(QueryError, match="solution cell"):
        Grid.from_ipuz(data)
