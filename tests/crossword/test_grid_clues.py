"""Clues kept with a grid (crossword/grid.py) and carried by its files (crossword/formats/): ipuz and ``.puz``
round trips on generated grids, puzpy and the ipuz package reading what is written, rebus cells, clue files,
hostile files refused with one clear error."""

from __future__ import annotations

import json

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from lexigraph.crossword.formats import acrosslite, clues, grid_bytes, grid_from_text, ipuz, read_clues, read_grid, write_grid
from lexigraph.crossword.grid import BLOCK, MAX_CLUE, Grid
from lexigraph.errors import QueryError

puz = pytest.importorskip("puz", reason="puzpy is not installed (pip install 'lexigraph[puz]')")

CLUE_TEXT = st.text(st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs")), max_size=30)


@st.composite
def clued_grids(draw: st.DrawFn, rebus: bool = True) -> tuple[Grid, dict[str, str]]:
    """A grid of blocks, empty cells, letters (and multi-letter tiles), some of its slots clued; the clues as meant."""
    h, w = draw(st.integers(1, 7)), draw(st.integers(2, 7))
    tiles = [None, None, BLOCK, "a", "z"] + (["qu", "th"] if rebus else [])
    cells = [[draw(st.sampled_from(tiles)) for _ in range(w)] for _ in range(h)]
    g = Grid(cells, title=draw(st.sampled_from(["", "Mini", "Füße"])))
    chosen = {s.name: draw(CLUE_TEXT) for s in g.slots() if draw(st.booleans())}
    meant = {name: " ".join(t.split()) for name, t in chosen.items() if t.split()}
    return g.with_clues(chosen), meant


def oracle_clue_order(g: Grid) -> list[str]:
    """Across Lite's clue order, from the cells alone: walk the cells in reading order; at a cell starting an across
    run, its across entry, then at one starting a down run, its down entry."""
    out, n = [], 0
    is_open = lambda r, c: 0 <= r < g.height and 0 <= c < g.width and g.cells[r][c] != BLOCK  # noqa: E731
    for r in range(g.height):
        for c in range(g.width):
            a = is_open(r, c) and not is_open(r, c - 1) and is_open(r, c + 1)
            d = is_open(r, c) and not is_open(r - 1, c) and is_open(r + 1, c)
            n += a or d
            out += [f"{n}A"] * a + [f"{n}D"] * d
    return out


@settings(max_examples=60, deadline=None)
@given(clued_grids())
def test_clues_survive_ipuz_and_puz(case):
    g, meant = case
    assert g.clues == {name: meant[name] for name in [s.name for s in g.slots()] if name in meant}
    for back in (ipuz.parse(json.dumps(ipuz.render(g))), acrosslite.parse(acrosslite.render(g))):
        assert back == g and back.clues == g.clues and back.title == g.title


@settings(max_examples=40, deadline=None)
@given(clued_grids())
def test_puzpy_reads_the_grid_and_the_clues(case):
    """puzpy's own numbering gives each clue to the entry it was written for; rebus cells come back whole."""
    g, meant = case
    p = puz.load(acrosslite.render(g))
    numbering = p.clue_numbering()
    got = {f"{e['num']}A": e["clue"] for e in numbering.across} | {f"{e['num']}D": e["clue"] for e in numbering.down}
    assert got == {name: meant.get(name, "") for name in oracle_clue_order(g)}
    assert acrosslite.clue_order(g) == oracle_clue_order(g)
    rebus = p.rebus() if p.has_rebus() else None
    for r, row in enumerate(g.cells):
        for c, v in enumerate(row):
            i = r * g.width + c
            if v == BLOCK:
                assert p.solution[i] == "."
            elif v is not None and len(v) > 1:
                assert rebus is not None and rebus.get_rebus_solution(i) == v.upper()
            elif v is not None:
                assert p.solution[i] == v.upper()


@settings(max_examples=40, deadline=None)
@given(clued_grids())
def test_ipuz_written_is_valid_and_numbered(case):
    """The ipuz package's validator accepts it; and, as the spec asks of a crossword, ``puzzle`` labels the cells
    that start entries, and each clue list names those labels in order."""
    ipuz_pkg = pytest.importorskip("ipuz", reason="the ipuz package is not installed")
    g, meant = case
    doc = ipuz.render(g)
    ipuz_pkg.read(json.dumps(doc))
    assert doc["version"] == "http://ipuz.org/v2" and doc["kind"] == ["http://ipuz.org/crossword#1"]
    assert doc["dimensions"] == {"width": g.width, "height": g.height}
    labels = {(r, c): v for r, row in enumerate(doc["puzzle"]) for c, v in enumerate(row) if v not in (0, "#")}
    # the solution: '#' a block, 0 an empty cell (null would be an omitted one), else the tile in upper case
    assert doc["solution"] == [["#" if v == BLOCK else 0 if v is None else v.upper() for v in row] for row in g.cells]
    assert labels == g.numbers()
    for direction, key in (("A", "Across"), ("D", "Down")):
        names = [s for s in oracle_clue_order(g) if s.endswith(direction)]
        assert doc["clues"][key] == [[int(n[:-1]), meant.get(n, "")] for n in names]


def test_rebus_cells_in_every_format(tmp_path):
    g = grid_from_text("[qu]iz\n[th]#.").with_clues({"1A": "Test"})
    for name in ("g.txt", "g.ipuz", "g.puz"):
        write_grid(g, tmp_path / name)
        back = read_grid(tmp_path / name)
        assert back == g and back.cell(0, 0) == "qu" and back.cell(1, 0) == "th"
        assert back.clues == ({} if name.endswith(".txt") else {"1A": "Test"})
    assert json.loads(grid_bytes(g, "ipuz"))["solution"][0] == ["QU", "I", "Z"]


def test_a_clue_follows_its_entry():
    g = grid_from_text("...\n...\n...").with_clues({"1A": "top", "4A": "middle", "1D": "left", "3D": "right"})
    assert g.with_cells({(0, 0): "c"}).clues == g.clues  # letters keep every clue
    blocked = g.with_cells({(1, 2): BLOCK})  # 4A and 3D change; 1A and 1D keep their cells
    assert blocked.clues == {"1A": "top", "1D": "left"}
    assert g.with_clues({}).clues == {}


def test_clues_checked_on_the_grid():
    g = grid_from_text("..\n..")
    assert g.with_clues({"1 across": "a\tb\nc", "2-Down": " ", "1d": "x"}).clues == {"1A": "a b c", "1D": "x"}
    for bad, message in (({"9A": "x"}, "no slot '9A'"), ({"1A": 3}, "not text"), ({"1A": "x", "1a": "y"}, "two clues"),
                         ({"1A": "x" * (MAX_CLUE + 1)}, "at most"), ({"1A": "a\x00b"}, "control character"),
                         ([("1A", "x")], "mapping")):
        with pytest.raises(QueryError, match=message):
            g.with_clues(bad)


def test_clue_files(tmp_path):
    assert clues.parse("1A\tone\r\n# skipped\n\n1 down\ttwo\n") == {"1A": "one", "1DOWN": "two"}
    (tmp_path / "c.tsv").write_text("\ufeff1A\tone\n1D\ttwo\n", encoding="utf-8")
    assert read_clues(tmp_path / "c.tsv") == {"1A": "one", "1D": "two"}
    g = grid_from_text("..\n..").with_clues(read_clues(tmp_path / "c.tsv"))
    assert clues.parse(clues.render(g)) == g.clues
    for text, message in (("1A one", "a tab"), ("\tone", "a tab"), ("1A\tx\n1a\ty", "second clue")):
        with pytest.raises(QueryError, match=message):
            clues.parse(text)
    (tmp_path / "latin.tsv").write_bytes(b"1A\t\xe9t\xe9\n")
    with pytest.raises(QueryError, match="latin.tsv: the clue file is not UTF-8"):
        read_clues(tmp_path / "latin.tsv")
    with pytest.raises(QueryError, match="no such clue file"):
        read_clues(tmp_path / "none.tsv")


def _ipuz(clue_lists: object) -> str:
    doc = ipuz.render(grid_from_text("..\n..", ))
    doc["clues"] = clue_lists
    return json.dumps(doc)


def test_ipuz_clues_read_by_their_cells_labels():
    """A file numbered its own way: each clue goes to the entry whose first cell carries its label."""
    doc = ipuz.render(grid_from_text("..\n.."))
    doc["puzzle"] = [["a", "b"], ["c", 0]]
    doc["clues"] = {"Across": [{"number": "a", "clue": "top"}, ["c", "bottom"]], "Down:Downs": [["b", "right"]]}
    assert ipuz.parse(json.dumps(doc)).clues == {"1A": "top", "3A": "bottom", "2D": "right"}


@pytest.mark.parametrize("clue_lists, message", [
    ([["1", "x"]], "'clues' is not an object"),
    ({"Diagonal": [[1, "x"]]}, "only Across and Down"),
    ({"Across": "1 x"}, "not a list"),
    ({"Across": [[9, "x"]]}, "names no across entry"),
    ({"Down": [[3, "x"]]}, "names no down entry"),
    ({"Across": [[1, "x"], [1, "y"]]}, "two Across clues"),
    ({"Across": ["1 x"]}, "not \\[number, clue\\]"),
    ({"Across": [[1, 2]]}, "not a number and a text"),
    ({"Across": [[True, "x"]]}, "not a number and a text"),
    ({"Across": [[1, "a\x07"]]}, "control character"),
])
def test_hostile_ipuz_clues(clue_lists, message):
    with pytest.raises(QueryError, match=message):
        ipuz.parse(_ipuz(clue_lists))


def test_hostile_puz_clues(tmp_path):
    p = puz.load(acrosslite.render(grid_from_text("..\n..")))
    p.clues = ["only one"]
    with pytest.raises(QueryError, match="1 clues for 4 entries"):
        acrosslite.parse(p.tobytes())
    p.clues = ["a", "b", "c", "d\x01"]
    (tmp_path / "bad.puz").write_bytes(p.tobytes())
    with pytest.raises(QueryError, match="bad.puz: the clue for .* control character"):
        read_grid(tmp_path / "bad.puz")


def test_puz_version_follows_the_text():
    plain = puz.load(acrosslite.render(grid_from_text("..\n..").with_clues({"1A": "café"})))
    wide = puz.load(acrosslite.render(grid_from_text("..\n..").with_clues({"1A": "snow ☃"})))
    assert plain.version == b"1.3" and wide.version == b"2.0"
    assert wide.clue_numbering().across[0]["clue"] == "snow ☃"


# -- hostile files with clues: mutated, in a child with a memory cap -------------------------------------------------

CLUED = [grid_from_text(t).with_clues({"1A": "Über clue", "1D": "[x] \"q\""}) for t in ("cat\n...\n#..", "c[qu]#\n..a")]


def _round_trip(g: Grid) -> None:
    """What a grid read may be asked: written as each clue-carrying format and read back with its clues."""
    for back in (ipuz.parse(json.dumps(ipuz.render(g))), acrosslite.parse(acrosslite.render(g))):
        assert back == g and back.clues == g.clues
    clues.parse(clues.render(g))


@settings(max_examples=3, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(data=st.data())
def test_mutated_clued_files_give_a_grid_or_a_lexicon_error(data, capped, mutated):
    ipuz_seeds = [json.dumps(ipuz.render(g)) for g in CLUED]
    texts = [data.draw(mutated(ipuz_seeds, '{}[]":,#0123456789AcrosDwn')) for _ in range(15)]
    files = [data.draw(mutated([acrosslite.render(g) for g in CLUED], "", binary=True)) for _ in range(15)]
    sheets = [data.draw(mutated([clues.render(g) for g in CLUED], "\t\n#1AD x")) for _ in range(15)]

    def check(item: tuple[str, object]) -> None:
        kind, x = item
        if kind == "sheet":
            CLUED[0].with_clues(clues.parse(x))
        else:
            _round_trip(ipuz.parse(x) if kind == "ipuz" else acrosslite.parse(x))

    capped(check, [("ipuz", t) for t in texts] + [("puz", b) for b in files] + [("sheet", s) for s in sheets])
