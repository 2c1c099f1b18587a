"""The Grid tab as a constructor's editor, in a real headless Chromium (Debian's, driven by Playwright): a themed
15×15 puzzle built from an empty grid by keyboard and mouse (symmetric blocks, theme entries, a fill, five clues,
downloads that puzpy and the ipuz package read back), at desktop and phone width; undo and redo, rebus cells, the
other symmetries, a grid opened from a file or pasted, with its clues.

Skips with the reason when Playwright or the browser is missing; no browser is ever downloaded.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (pip install -e '.[browser]')")
puz = pytest.importorskip("puz", reason="puzpy is not installed (pip install 'lexigraph[puz]')")

import lexigraph  # noqa: E402
from lexigraph.crossword.formats import acrosslite, grid_bytes, grid_from_text, ipuz  # noqa: E402

from helpers.browser import SHOTS, covered_letters, labels_astray, overflow, skip_without_chromium  # noqa: E402

skip_without_chromium()


@pytest.fixture(scope="module")
def server():
    """The page's server, with time enough for a 15×15 fill on a loaded machine and on the Python engine (the
    default limit, 10 s, is the server's answer time, not what this test is about)."""
    from lexigraph.server import create_app
    from lexigraph.server.app import Limits
    from lexigraph.server.background import serve_in_thread

    with serve_in_thread(create_app(limits=Limits(timeout=300.0))) as url:
        yield url

#: A published-style 15×15 pattern (36 blocks, rotational symmetry); the theme entries go in 30A and 50A.
PATTERN = """\
.....##....#...
......#........
......#........
....#....##....
.......#...#...
.....#.........
...#....#...###
#...#.....#...#
###...#....#...
.........#.....
...#...#.......
....##....#....
........#......
........#......
...#....##.....""".split("\n")
THEME = {"30A": "crossword", "50A": "solutions"}
N = 15


def grid_letters(page, rows: int, cols: int) -> list[str]:
    """The grid as the page shows it: '#' a block, '.' empty, else the cell's letters (upper case; [QU] a rebus)."""
    cells = page.eval_on_selector_all("#grid .cell", "els => els.map(e => e.classList.contains('block') ? '#' : "
                                      "(e.firstChild && e.firstChild.nodeType === 3 ? e.firstChild.textContent : ''))")
    shown = ["#" if v == "#" else "." if not v else v.upper() if len(v) == 1 else f"[{v.upper()}]" for v in cells]
    return ["".join(shown[r * cols:(r + 1) * cols]) for r in range(rows)]


def cursor(page) -> tuple[int, int]:
    return tuple(page.evaluate("[+document.activeElement.dataset.r, +document.activeElement.dataset.c]"))


def walk_to(page, r: int, c: int) -> None:
    """The cursor moved to (r, c) with the arrow keys alone."""
    r0, c0 = cursor(page)
    for _ in range(abs(r - r0)):
        page.keyboard.press("ArrowDown" if r > r0 else "ArrowUp")
    for _ in range(abs(c - c0)):
        page.keyboard.press("ArrowRight" if c > c0 else "ArrowLeft")
    assert cursor(page) == (r, c)


def new_grid(page, rows: int, cols: int) -> None:
    page.click("#tab-grid")
    page.fill("#grid-rows", str(rows))
    page.fill("#grid-cols", str(cols))
    page.click("#grid-new")


def stats_line(g) -> str:
    """What the page says of a grid, from the library's slots: entries, blocks, short entries, unchecked cells."""
    slots = g.slots()
    cover = {}
    for s in slots:
        for cell in s.cells:
            cover[cell] = cover.get(cell, 0) + 1
    short = sum(len(s) < 3 for s in slots)
    unchecked = sum(cover.get(cell, 0) < 2 for cell in g.open_cells())
    notes = ([f"{short} entr{'y' if short == 1 else 'ies'} under 3 letters"] if short else []) + \
        ([f"{unchecked} unchecked cell{'' if unchecked == 1 else 's'}"] if unchecked else [])
    blocks = sum(v == "#" for row in g.cells for v in row)
    return f"{len(slots)} entries, {blocks} blocks" + (f"; {', '.join(notes)}" if notes else "")


def downloaded(page, button: str) -> bytes:
    with page.expect_download() as info:
        page.click(button)
    return Path(info.value.path()).read_bytes()


@pytest.mark.parametrize("width, height", [(1100, 820), (375, 740)])
def test_a_themed_puzzle_from_an_empty_grid(page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    new_grid(page, N, N)
    assert page.input_value("#grid-symmetry") == "rotational"
    blocks = [(r, c) for r in range(N) for c in range(N) if PATTERN[r][c] == "#" and r * N + c < N * N // 2]
    # The first rows' blocks by keyboard (arrows, then '#': its partner is placed too) ...
    page.focus("#grid .cell >> nth=0")
    by_keyboard = [b for b in blocks if b[0] < 4]
    for r, c in by_keyboard:
        walk_to(page, r, c)
        page.keyboard.press("#")
    # ... the others by mouse, drawing blocks.
    page.click("#grid-draw")
    assert page.get_attribute("#grid-draw", "aria-pressed") == "true"
    for r, c in blocks[len(by_keyboard):]:
        page.click(f"#grid .cell >> nth={r * N + c}")
    page.click("#grid-draw")
    assert grid_letters(page, N, N) == PATTERN, "the blocks and their symmetric partners"
    assert page.inner_text("#grid-stats") == "78 entries, 36 blocks"
    # The theme entries typed into their slots.
    pattern = grid_from_text("\n".join(PATTERN))
    for name, word in THEME.items():
        r, c = pattern.slot(name).cells[0]
        page.click(f"#grid .cell >> nth={r * N + c}")
        if "cursor-down" in page.get_attribute(f"#grid .cell >> nth={r * N + c}", "class"):
            page.keyboard.press(" ")
        page.keyboard.type(word)
    page.click("#grid-fill")
    page.wait_for_function("document.querySelector('#grid-status').textContent.startsWith('filled')", timeout=300000)
    rows = grid_letters(page, N, N)
    filled = grid_from_text("\n".join(rows))
    lex = lexigraph.open()
    assert filled.is_complete() and all(filled.word(s) for s in filled.slots())
    assert all("".join(filled.word(s)) in lex for s in filled.slots()), rows
    assert {name: "".join(filled.word(filled.slot(name))) for name in THEME} == THEME
    # Five clues typed, each in the field numbered as its entry.
    clues = {"1A": "Hot drinks", "30A": "This, for one", "50A": "Answers", "1D": "Highest point", "5D": "Sailor's yes"}
    for name, text in clues.items():
        page.focus(f"#clue-{name}")
        assert page.inner_text(f"label[for='clue-{name}']") == name[:-1]
        page.keyboard.type(text)
        page.keyboard.press("Tab")
    assert page.inner_text("#clues-count").startswith("5 of 78 entries clued")
    page.fill("#grid-title", "Puzzles")
    assert covered_letters(page, "#grid .cell") == [] and overflow(page) <= 0
    assert labels_astray(page, "#view-grid") == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"grid-editor-{width}.png"), full_page=True)
    # The downloads: the .puz read by puzpy, the .ipuz valid for the ipuz package; the grid and the clues in both.
    p = puz.load(downloaded(page, "#grid-save-puz"))
    assert p.title == "Puzzles" and p.width == p.height == N
    assert [p.solution[r * N:(r + 1) * N] for r in range(N)] == [row.replace("#", ".") for row in rows]
    numbering = p.clue_numbering()
    got = {f"{e['num']}A": e["clue"] for e in numbering.across} | {f"{e['num']}D": e["clue"] for e in numbering.down}
    assert {k: v for k, v in got.items() if v} == clues and len(got) == 78
    text = downloaded(page, "#grid-save-ipuz").decode()
    ipuz_pkg = pytest.importorskip("ipuz", reason="the ipuz package is not installed")
    ipuz_pkg.read(text)
    back = ipuz.parse(text)
    assert back == filled and back.clues == {k: clues[k] for k in ("1A", "30A", "50A", "1D", "5D")}
    assert "Puzzles.puz" in page.inner_text("#grid-status") or "Puzzles.ipuz" in page.inner_text("#grid-status")


def test_undo_redo_rebus_and_the_other_symmetries(page):
    page.set_viewport_size({"width": 375, "height": 740})
    new_grid(page, 4, 5)
    page.focus("#grid .cell >> nth=0")
    page.keyboard.type("ab")
    page.keyboard.press("Insert")                    # a rebus cell: QU at (0, 2)
    assert page.is_visible("#grid-rebus-text")
    page.keyboard.type("qu")
    page.keyboard.press("Enter")
    assert grid_letters(page, 4, 5)[0] == "AB[QU].."
    assert cursor(page) == (0, 3)
    assert covered_letters(page, "#grid .cell") == [] and overflow(page) <= 0  # the rebus clear of its number
    assert labels_astray(page, "#view-grid") == []
    page.select_option("#grid-symmetry", "left-right")
    page.focus("#grid .cell >> nth=5")               # (1, 0): its mirror is (1, 4)
    page.keyboard.press("#")
    assert grid_letters(page, 4, 5)[1] == "#...#"
    page.focus("#grid .cell >> nth=9")               # a letter typed over the mirror block opens both
    page.keyboard.press("x")
    assert grid_letters(page, 4, 5)[1] == "....X"
    page.keyboard.press("Control+z")
    assert grid_letters(page, 4, 5)[1] == "#...#"
    page.select_option("#grid-symmetry", "none")
    page.focus("#grid .cell >> nth=12")              # (2, 2) alone
    page.keyboard.press("#")
    assert grid_letters(page, 4, 5) == ["AB[QU]..", "#...#", "..#..", "....."]
    assert page.inner_text("#grid-stats") == stats_line(grid_from_text("\n".join(grid_letters(page, 4, 5))))
    page.select_option("#grid-symmetry", "rotational")
    assert page.inner_text("#grid-stats").endswith(", blocks not rotational")
    page.select_option("#grid-symmetry", "none")
    page.keyboard.press("Control+z")
    assert grid_letters(page, 4, 5)[2] == "....."
    page.keyboard.press("Control+z")
    assert grid_letters(page, 4, 5)[1] == "....."
    page.click("#grid-undo")                         # the rebus cell goes
    assert grid_letters(page, 4, 5)[0] == "AB..."
    page.click("#grid-redo")
    page.focus("#grid .cell >> nth=0")
    page.keyboard.press("Control+y")
    assert grid_letters(page, 4, 5)[:2] == ["AB[QU]..", "#...#"]
    # A clue is undone as a cell is, and follows its entry while the entry keeps its cells.
    page.fill("#clue-1A", "Opening")
    page.press("#clue-1A", "Tab")
    page.focus("#grid .cell >> nth=19")
    page.keyboard.press("#")                         # (3, 4): 1A keeps its cells, its clue stays
    assert page.input_value("#clue-1A") == "Opening"
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    assert page.input_value("#clue-1A") == ""
    assert not page.is_disabled("#grid-redo")
    page.keyboard.press("Control+Shift+z")
    assert page.input_value("#clue-1A") == "Opening"


def test_a_grid_opened_or_pasted_with_its_clues(page, tmp_path):
    g = grid_from_text("cat#\n..[qu].\n#...").with_clues({"1A": "Pet", "6A": "Way out"})
    (tmp_path / "mine.puz").write_bytes(acrosslite.render(g))
    (tmp_path / "mine.ipuz").write_bytes(grid_bytes(g, "ipuz"))
    page.click("#tab-grid")
    for name in ("mine.puz", "mine.ipuz"):
        new_grid(page, 5, 5)
        page.set_input_files("#grid-open", str(tmp_path / name))
        page.wait_for_function(f"document.querySelector('#grid-status').textContent.startsWith('opened {name}')")
        assert grid_letters(page, 3, 4) == ["CAT#", "..[QU].", "#..."]
        assert page.input_value("#clue-1A") == "Pet" and page.input_value("#clue-6A") == "Way out"
        assert page.input_value("#clue-2D") == ""
    page.click("#grid-paste")
    page.fill("#grid-paste-text", "ab.\n.#.\n...")
    page.click("#grid-paste-load")
    page.wait_for_function("document.querySelector('#grid-status').textContent.startsWith('opened the pasted grid')")
    assert grid_letters(page, 3, 3) == ["AB.", ".#.", "..."] and page.is_hidden("#grid-paste-box")
    page.click("#grid-paste")
    page.fill("#grid-paste-text", json.dumps(ipuz.render(g)))
    page.click("#grid-paste-load")
    page.wait_for_function("document.querySelector('#grid-status').textContent.includes('2 clues')")
    assert page.input_value("#clue-6A") == "Way out"
    page.click("#grid-undo")                         # back to the pasted text grid
    assert grid_letters(page, 3, 3) == ["AB.", ".#.", "..."]
    page.click("#grid-paste")
    page.fill("#grid-paste-text", "a1\n..")
    page.click("#grid-paste-load")
    page.wait_for_selector("#grid-status.error")
    assert "grid row 1" in page.inner_text("#grid-status")


def test_design_proposes_grids_around_the_theme(page):
    """Design (when the server has the design command): a proposal of the size and symmetry asked, every theme word
    an entry of it, its blocks symmetric, its fill words of the lexicon; pressed again, the next proposal."""
    from lexigraph.commands import all_commands

    if "design" not in {c.name for c in all_commands()}:
        pytest.skip("no design command")
    new_grid(page, N, N)
    theme = ["pancakes", "waffles", "oatmeal"]
    page.fill("#grid-theme", " ".join(theme))
    assert page.is_visible("#grid-design")
    page.click("#grid-design")
    page.wait_for_function("document.querySelector('#grid-status').textContent.startsWith('design 1 of')", timeout=300000)
    lex = lexigraph.open()
    seen = []
    for k in (1, 2):
        rows = grid_letters(page, N, N)
        g = grid_from_text("\n".join(rows))
        entries = {"".join(g.word(s)) for s in g.slots() if all(g.word(s))}
        assert all(w in entries for w in theme), rows
        assert all(rows[r][c] == "#" if rows[N - 1 - r][N - 1 - c] == "#" else rows[r][c] != "#"
                   for r in range(N) for c in range(N)), rows
        if g.is_complete():
            assert all("".join(g.word(s)) in lex for s in g.slots()), rows
        assert page.inner_text("#grid-stats").startswith(f"{len(g.slots())} entries")
        seen.append(rows)
        if k == 2 or "of 1:" in page.inner_text("#grid-status"):
            break
        page.click("#grid-design")
        page.wait_for_function(f"document.querySelector('#grid-status').textContent.startsWith('design {k + 1} of')")
    assert len(seen) == 1 or seen[0] != seen[1]
    page.click("#grid-undo")                         # back to the grid before the proposal
    assert grid_letters(page, N, N) != seen[-1]
