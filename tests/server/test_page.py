"""The page in a real headless Chromium (Debian's), driven by Playwright: search, board and grid views.

Screenshots of the three views go to ``build/screenshots/`` (or ``$LEXIGRAPH_SCREENSHOTS``).
Skips with the reason when Playwright or the browser is missing: ``apt-get install chromium`` and
``pip install -e '.[browser]'``; no browser is ever downloaded.
"""

from __future__ import annotations


import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (pip install -e '.[browser]')")

import lexigraph  # noqa: E402
from lexigraph.commands import all_commands  # noqa: E402
from lexigraph.crossword.grid import Grid  # noqa: E402

from helpers.browser import SHOTS, skip_without_chromium  # noqa: E402

skip_without_chromium()

COMMANDS = {c.name for c in all_commands()}


def shot(pg, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SHOTS / f"{name}.png"))


def words_shown(pg) -> list[str]:
    return pg.eval_on_selector_all(
        "#search-results li", "els => els.map(e => [...e.childNodes].find(n => n.nodeType === 3).textContent)")


def test_typing_a_pattern_shows_the_words(page):
    page.fill("#search-input", "??mo??t")
    page.wait_for_function("document.querySelector('#search-status').textContent.includes('word')")
    assert words_shown(page) == lexigraph.open().match("??mo??t")
    # Results as you type: one more letter narrows the list without pressing anything.
    page.fill("#search-input", "")
    page.type("#search-input", "quixot*", delay=20)
    n = len(lexigraph.open().match("quixot*"))
    page.wait_for_function(f"document.querySelectorAll('#search-results li').length === {n}")
    assert words_shown(page) == lexigraph.open().match("quixot*")
    shot(page, "search")


def test_paging_and_errors(page):
    page.fill("#search-input", "*x")
    page.wait_for_function("document.querySelector('#search-page').textContent.includes('page 1 of')")
    first = words_shown(page)
    page.click("#search-next")
    page.wait_for_function("document.querySelector('#search-page').textContent.includes('page 2 of')")
    second = words_shown(page)
    expected = lexigraph.open().match("*x")
    assert first + second == expected[: len(first) + len(second)] and len(first) == 100
    page.fill("#search-input", "ab[")
    page.wait_for_selector("#search-status.error")
    assert "no closing" in page.inner_text("#search-status")


def test_keyboard_alone(page):
    # Tab order reaches the views; arrows switch tabs; typing on the grid needs no mouse.
    page.focus("#tab-search")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-grid"
    assert page.is_visible("#grid") and not page.is_visible("#board")
    page.focus("#grid .cell >> nth=0")
    page.keyboard.type("ca")
    page.keyboard.press("#")
    assert page.eval_on_selector_all("#grid .cell", "els => els.slice(0, 3).map(e => e.classList.contains('block') ? '#' : e.firstChild ? e.firstChild.textContent : '')") == ["c", "a", "#"]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#slot-title').textContent.includes('(ca')")
    assert "Candidates for 1A (ca)" in page.inner_text("#slot-title")


def test_phone_sized_screen(page):
    page.set_viewport_size({"width": 375, "height": 740})
    for tab in ("search", "board", "grid"):
        page.click(f"#tab-{tab}")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{tab} view is wider than a phone screen by {overflow}px"
    shot(page, "board-phone")
    page.set_viewport_size({"width": 1100, "height": 820})


def test_grid_candidates_are_the_slot_pattern(page):
    page.click("#tab-grid")
    page.fill("#grid-rows", "3")
    page.fill("#grid-cols", "4")
    page.click("#grid-new")
    page.click("#grid .cell >> nth=0")
    page.keyboard.type("zo")
    try:
        page.wait_for_function("document.querySelector('#slot-title').textContent.includes('zo??')", timeout=10000)
    except sync_api.TimeoutError:
        raise AssertionError(f"title: {page.inner_text('#slot-title')!r}, focus: "
                             f"{page.evaluate('document.activeElement.outerHTML')}") from None
    page.wait_for_function("document.querySelectorAll('#candidates li').length > 1")
    shown = page.eval_on_selector_all("#candidates li", "els => els.map(e => e.textContent)")
    assert sorted(shown) == sorted(lexigraph.open().match("zo??"))[:200] or set(shown) <= set(lexigraph.open().match("zo??"))
    shot(page, "grid")


def test_a_study_search_shows_the_words_with_hooks(page):
    page.select_option("#search-mode", "search")
    page.fill("#search-input", "length 7 and anagram aeinrst")
    page.wait_for_function("document.querySelector('#search-status').textContent.includes('word')")
    from lexigraph.commands import Context

    cmd = next(c for c in all_commands() if c.name == "search")
    doc = cmd.run(Context(), {"expression": "length 7 and anagram aeinrst", "hooks": True, "limit": 100})
    assert words_shown(page) == [r["word"] for r in doc["results"]]
    hooks = page.eval_on_selector_all("#search-results li", "els => els.map(e => e.lastChild.textContent)")
    assert hooks == [r["hooks"]["back"] for r in doc["results"]]
    shot(page, "study-search")


def test_board_and_rack_show_the_best_move(page):
    from lexigraph.scrabble.game import Game
    from lexigraph.scrabble.movegen import generate
    from lexigraph.scrabble.position import Position

    page.click("#tab-board")
    page.click("#board .cell >> nth=112")        # H8, the centre
    page.keyboard.type("cat")
    page.fill("#rack", "AERST?S")
    page.click("#moves-go")
    page.wait_for_selector("#moves li")
    best = generate(lexigraph.open(), Position.from_text(
        "\n".join(["." * 15] * 7 + ["......." + "CAT" + "....."] + ["." * 15] * 7), Game.preset("scrabble")), "AERST?S")[0]
    first = page.inner_text("#moves li >> nth=0")
    assert str(best.score) in first
    assert page.eval_on_selector_all("#board .cell.new", "els => els.length") == len(best.tiles)
    shot(page, "board")


def test_a_leave_table_ranks_the_board_by_equity(page, tmp_path):
    """A CSV, then the same table as KLV2 (sent as Base64): the moves come ranked by equity, each with its equity
    and leave, as the library ranks them."""
    from lexigraph.scrabble.game import Game
    from lexigraph.scrabble.leaves import LeaveTable
    from lexigraph.scrabble.movegen import generate
    from lexigraph.scrabble.position import Position

    table = LeaveTable.from_csv("SS,60.0\n?,25.0\nE,2.0\n")
    (tmp_path / "leaves.csv").write_text(table.to_csv())
    (tmp_path / "leaves.klv2").write_bytes(table.to_klv2())
    pos = Position.from_text("\n".join(["." * 15] * 7 + ["......." + "CAT" + "....."] + ["." * 15] * 7),
                             Game.preset("scrabble"))
    best = generate(lexigraph.open(), pos, "AERST?S", leaves=table, top=3)
    page.click("#tab-board")
    page.click("#board .cell >> nth=112")
    page.keyboard.type("cat")
    page.fill("#rack", "AERST?S")
    for name in ("leaves.csv", "leaves.klv2"):
        page.evaluate("document.querySelector('#moves').innerHTML = ''")
        page.set_input_files("#leaves-file", str(tmp_path / name))  # a chosen table asks again by itself
        page.wait_for_selector("#moves li")
        page.wait_for_function("document.querySelector('#moves-status').textContent.includes('ranked by equity')")
        shown = page.eval_on_selector_all("#moves li", "els => els.slice(0, 3).map(e => [e.querySelector('.leave')"
                                          ".textContent, e.querySelector('.equity').textContent])")
        assert shown == [[m.leave or "-", f"{m.equity:.1f}"] for m in best], name
        assert "equity" in page.inner_text("#board-caption")
    page.click("#leaves-clear")  # back to the game's own table (the scrabble preset names one): still by equity
    default = generate(lexigraph.open(), pos, "AERST?S", top=1)[0]
    page.wait_for_function("document.querySelector('#moves li .equity') && document.querySelector('#moves li "
                           f".equity').textContent === '{default.equity:.1f}' && document.querySelector("
                           "'#moves-status').textContent.includes('ranked by equity')")
    shot(page, "board-equity")


def test_board_with_the_keyboard_alone(page):
    page.focus("#tab-search")
    page.keyboard.press("ArrowRight")                # to the Board tab
    page.keyboard.press("Tab")                       # the lexicon menu
    page.keyboard.press("Tab")                       # the board's cursor square (the centre)
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "H8"
    page.keyboard.type("cat")
    page.keyboard.press("Tab")                       # the rack
    page.keyboard.type("AERST?S")
    page.keyboard.press("Enter")
    page.wait_for_selector("#moves li")
    for _ in range(4):                               # Best moves, Clear board, Play (the best is chosen): the list
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "moves"
    page.keyboard.press("ArrowDown")                 # the second move
    chosen = page.inner_text("#moves li[aria-selected='true'] .word")
    new = page.eval_on_selector_all("#board .cell.new", "els => els.length")
    page.keyboard.press("Enter")                     # play it
    tiles = page.eval_on_selector_all("#board .cell.tile", "els => els.length")
    assert tiles == 3 + new and chosen


def test_filling_a_small_grid_shows_a_valid_fill(page):
    page.click("#tab-grid")
    page.fill("#grid-rows", "4")
    page.fill("#grid-cols", "4")
    page.click("#grid-new")
    page.click("#grid-fill")
    page.wait_for_function("document.querySelectorAll('#grid .cell.filled').length === 16")
    letters = page.eval_on_selector_all("#grid .cell", "els => els.map(e => e.firstChild.textContent)")
    rows = ["".join(letters[i * 4:(i + 1) * 4]) for i in range(4)]
    cols = ["".join(r[c] for r in rows) for c in range(4)]
    lex = lexigraph.open()
    assert all(w in lex for w in rows + cols), (rows, cols)
    shot(page, "grid-filled")


def _grid_letters(page, rows: int, cols: int) -> list[str]:
    letters = page.eval_on_selector_all("#grid .cell", "els => els.map(e => e.classList.contains('block') ? '#' : (e.firstChild && e.firstChild.nodeType === 3 ? e.firstChild.textContent : '.'))")
    return ["".join(letters[i * cols:(i + 1) * cols]) for i in range(rows)]


def test_several_fills_flip_and_keep_the_theme_word(page, fill_oracle):
    if "fill" not in COMMANDS:
        pytest.skip("no fill command")
    page.click("#tab-grid")
    page.fill("#grid-rows", "4")
    page.fill("#grid-cols", "4")
    page.click("#grid-new")
    page.fill("#grid-theme", "oboe")
    page.fill("#grid-fills", "3")
    page.click("#grid-fill")
    page.wait_for_selector("#grid-pager:not([hidden])")
    lex = lexigraph.open()
    seen = []
    for _ in range(3):
        rows = _grid_letters(page, 4, 4)
        assert fill_oracle.verify(lex, Grid.from_text("....\n....\n....\n...."), Grid.from_text("\n".join(rows)),
                                  theme=["oboe"]) == [], rows
        seen.append(rows)
        page.click("#grid-next")
    assert len({tuple(r) for r in seen}) == 3  # three different fills
    assert page.inner_text("#grid-which").startswith("fill 1 of 3")  # back to the first
    shot(page, "grid-fills")


def test_the_heat_map_shows_each_slots_candidates(page):
    if "fill" not in COMMANDS:
        pytest.skip("no fill command")
    from lexigraph.crossword.fill import slot_counts

    page.click("#tab-grid")
    page.fill("#grid-rows", "3")
    page.fill("#grid-cols", "4")
    page.click("#grid-new")
    page.focus("#grid .cell >> nth=0")
    page.keyboard.type("qu")
    page.click("#grid-heat")
    page.wait_for_selector("#grid .cell.heat-1, #grid .cell.heat-2, #grid .cell.heat-3, #grid .cell.heat-4")
    counts = {s.slot: s.candidates for s in slot_counts(lexigraph.open(), Grid.from_text("qu..\n....\n....")).slots}
    titles = page.eval_on_selector_all("#grid .cell", "els => els.map(e => e.title)")
    shown = {}
    for t in titles:
        for part in filter(None, t.split(", ")):
            name, n = part.split(": ")
            shown[name] = int(n.replace(",", ""))
    assert shown == counts
    least = min(counts["1A"], counts["1D"])
    classes = page.eval_on_selector("#grid .cell >> nth=0", "e => [...e.classList]")
    want = "heat-0" if least == 0 else "heat-1" if least == 1 else "heat-2" if least < 10 else "heat-3" if least < 100 else "heat-4" if least < 1000 else None
    assert want is None or want in classes, (least, classes)
    assert page.is_visible("#grid-heat-legend")
    shot(page, "grid-heat")
