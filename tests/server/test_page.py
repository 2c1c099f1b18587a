"""The page in a real headless Chromium (Debian's), driven by Playwright: search, board and grid views.

Screenshots of the three views go to ``build/screenshots/`` (or ``$LEXIGRAPH_SCREENSHOTS``).
Skips with the reason when Playwright or the browser is missing: ``apt-get install chromium`` and
``pip install -e '.[browser]'``; no browser is ever downloaded.
"""

from __future__ import annotations

from collections import Counter

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (pip install -e '.[browser]')")

import lexigraph  # noqa: E402
from lexigraph.commands import all_commands  # noqa: E402
from lexigraph.crossword.formats import grid_from_text  # noqa: E402

from helpers.browser import SHOTS, covered_letters, labels_astray, overflow, skip_without_chromium  # noqa: E402

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
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "H8, start, double word"
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
        assert fill_oracle.verify(lex, grid_from_text("....\n....\n....\n...."), grid_from_text("\n".join(rows)),
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
    counts = {s.slot: s.candidates for s in slot_counts(lexigraph.open(), grid_from_text("qu..\n....\n....")).slots}
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


WIDTHS = ((375, 740), (1100, 820))


def wait_for_words(pg, expected: list[str], what: str) -> None:
    """Wait until the Search tab shows ``expected`` (its first page), then hold it to them."""
    try:
        pg.wait_for_function("(want) => JSON.stringify([...document.querySelectorAll('#search-results li')].map(e => "
                             "[...e.childNodes].find(n => n.nodeType === 3).textContent)) === JSON.stringify(want)",
                             arg=expected, timeout=15000)
    except sync_api.TimeoutError:
        pass
    assert words_shown(pg) == expected, what


def by_probability(lex, words: list[str]) -> list[str]:
    """``words`` (in tile order) as probability orders them: each one's rank, then shorter first, then tile order."""
    at = {w: i for i, w in enumerate(words)}
    return sorted(words, key=lambda w: (lex.probability(w).rank, len(w), at[w]))


def test_anagrams_by_mode_length_and_probability(page):
    """The Search tab's anagrams, chosen by keyboard: some tiles, every tile, every tile and more; a length range;
    longest first, probability, alphabetical. Each page shown is ``lexicon.anagram`` filtered and ordered as asked,
    every page of it reached (the server pages; no word is lost past its --max-results)."""
    lex = lexigraph.open()
    rack = "aeinrst?"
    page.focus("#search-mode")
    page.keyboard.press("ArrowDown")                 # Pattern -> Anagram
    assert page.input_value("#search-mode") == "anagram" and page.is_visible("#anagram-options")
    page.keyboard.press("Tab")
    page.keyboard.type(rack)
    longest = lex.anagram(rack, sort="length")
    wait_for_words(page, longest[:100], "some of the tiles, longest first")
    assert page.inner_text("#search-status") == f"{len(longest):,} words"
    pages = -(-len(longest) // 100)
    assert page.inner_text("#search-page") == f"page 1 of {pages}"
    page.focus("#search-next")                       # page by page to the last: every one is there
    for k in range(2, pages + 1):
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelector('#search-page').textContent === 'page {k} of {pages}'")
    wait_for_words(page, longest[(pages - 1) * 100:], "the last page")
    assert page.is_disabled("#search-next") and not page.is_disabled("#search-prev")
    page.focus("#search-input")
    page.keyboard.press("Tab")                       # to the options: every tile
    assert page.evaluate("document.activeElement.id") == "anagram-mode"
    page.keyboard.press("ArrowDown")
    wait_for_words(page, lex.anagram(rack, mode="exact", sort="length"), "every tile")
    page.keyboard.press("ArrowUp")                   # some of the tiles again, of 7 tiles, by probability
    page.keyboard.press("Tab")
    page.keyboard.type("7")
    page.keyboard.press("Tab")
    page.keyboard.type("7")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "anagram-sort"
    page.keyboard.press("ArrowDown")                 # longest first -> probability
    sevens = by_probability(lex, lex.anagram(rack, min_length=7, max_length=7))
    assert len(sevens) > 100
    wait_for_words(page, sevens[:100], "sevens by probability")
    ranks = page.eval_on_selector_all("#search-results li small", "els => els.map(e => e.textContent)")
    assert ranks == [f"#{lex.probability(w).rank}" for w in sevens[:100]]
    page.focus("#search-next")
    page.keyboard.press("Enter")
    wait_for_words(page, sevens[100:200], "the second page of sevens")
    page.fill("#search-input", "quiz")               # every tile and more, 6 to 7 tiles, alphabetical
    page.select_option("#anagram-mode", "super")
    page.fill("#anagram-min", "6")
    page.select_option("#anagram-sort", "alpha")
    wait_for_words(page, lex.anagram("quiz", mode="super", min_length=6, max_length=7), "super, alphabetical")
    assert words_shown(page) and all(not Counter("quiz") - Counter(w) for w in words_shown(page))
    shot(page, "search-anagrams")


def test_the_leave_line_names_the_table_that_ranked(page, tmp_path):
    """No table chosen: the line names the game's own table (the server's moves document says which ranked) and
    says equity; Rank by score says so; a chosen table is named; Game's table goes back to the game's own."""
    from lexigraph.commands import Context
    from lexigraph.commands.moves import MOVES

    served = MOVES.run(Context(options={"files": False}), {"position": "empty", "rack": "AERST?S", "top": 1})
    own = served["leaves"]
    assert own == "english-leaves.klv2" and served["sort"] == "equity"
    (tmp_path / "mine.csv").write_text("S,9.0\n?,20.0\n")
    page.click("#tab-board")
    status = "document.querySelector('#leaves-status').textContent"
    page.wait_for_function(f"{status}.includes({own!r})")
    assert page.inner_text("#leaves-status") == (f"Leave table {own}, the game's own: moves are ranked by equity "
                                                 "(score + the leave's value).")
    page.fill("#rack", "AERST?S")
    page.press("#rack", "Enter")
    page.wait_for_selector("#moves li")
    assert "ranked by equity" in page.inner_text("#moves-status") and own in page.inner_text("#leaves-status")
    page.focus("#moves-sort")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")                 # default -> equity -> score
    page.wait_for_function(f"{status}.endsWith('ranked by score.')")
    assert page.inner_text("#leaves-status") == f"Leave table {own}, the game's own: moves are ranked by score."
    page.set_input_files("#leaves-file", str(tmp_path / "mine.csv"))
    page.wait_for_function(f"{status}.includes('mine.csv')")
    assert page.inner_text("#leaves-status") == "Leave table mine.csv (chosen here): moves are ranked by score."
    page.focus("#leaves-clear")
    page.keyboard.press("Enter")                     # Game's table
    page.wait_for_function(f"{status}.includes({own!r})")
    assert page.is_disabled("#leaves-clear") and "No leave table" not in page.inner_text("#leaves-status")


def test_a_late_answer_to_an_earlier_ranking_is_dropped(page):
    """Rank by equity, then by score at once: the equity answer held back until the score one is shown is dropped
    when it comes, so the list and both lines say score (each choice asks the server again; answers may cross)."""
    held = []

    def hold_equity(route):
        if (route.request.post_data_json or {}).get("sort") == "equity":
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/moves", hold_equity)
    page.click("#tab-board")
    page.fill("#rack", "AERST?S")
    page.select_option("#moves-sort", "equity")
    page.select_option("#moves-sort", "score")
    status = "document.querySelector('#leaves-status').textContent"
    page.wait_for_function(f"{status}.endsWith('ranked by score.')")
    assert len(held) == 1
    with page.expect_response(lambda r: r.request.post_data_json.get("sort") == "equity"):
        held[0].continue_()
    page.evaluate("() => new Promise((done) => setTimeout(done, 200))")  # the answer read and handled (or dropped)
    assert page.inner_text("#leaves-status").endswith("ranked by score.")
    assert "ranked by score" in page.inner_text("#moves-status")
    scores = page.eval_on_selector_all("#moves li .score", "els => els.map(e => +e.textContent)")
    assert scores and scores == sorted(scores, reverse=True)


PREMIUM_NAMES = [("tw", "TW", "triple word"), ("dw", "DW", "double word"), ("tl", "TL", "triple letter"),
                 ("dl", "DL", "double letter")]


def legend_holds_to_the_board(pg, legend: str, board: str, centre: int) -> None:
    """The legend names each premium beside the label and colour its squares show, and the start square's star."""
    items = pg.eval_on_selector_all(f"{legend} li", "els => els.map(e => e.textContent)")
    assert items == [f"{label}{name}" for _, label, name in PREMIUM_NAMES] + ["\u2605start (double word)"]
    for cls, label, name in PREMIUM_NAMES:
        swatch = pg.eval_on_selector(f"{legend} .swatch.{cls}", "e => getComputedStyle(e).backgroundColor")
        squares = pg.eval_on_selector_all(f"{board} .cell.{cls}:not(.tile)", "els => els.map(e => [getComputedStyle(e)"
                                          ".backgroundColor, e.textContent, e.getAttribute('aria-label')])")
        assert squares and all(c == swatch and t in (label, "\u2605") and a.endswith(name) for c, t, a in squares), cls
    start = pg.eval_on_selector(f"{board} .cell >> nth={centre}", "e => [e.textContent, e.getAttribute('aria-label')]")
    assert start == ["\u2605", "H8, start, double word"]
    assert pg.get_attribute(legend, "aria-label") == "Premium squares"
    right = pg.eval_on_selector(legend, "e => e.getBoundingClientRect().right")
    assert right <= pg.evaluate("window.innerWidth")


def test_premium_squares_have_a_legend(page):
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        page.click("#tab-board")
        legend_holds_to_the_board(page, "#board-legend", "#board", 112)
        page.click("#tab-play")
        page.click("#play-new")
        page.wait_for_function("document.querySelector('#view-play').dataset.game")
        legend_holds_to_the_board(page, "#play-legend", "#play-board", 112)
        assert overflow(page) <= 0
    shot(page, "play-legend")


def test_nothing_covers_a_letter_and_labels_keep_their_controls(page):
    """At phone and desktop width: a grid's slot numbers, a board's premium labels and the arrow of the typing
    direction stay clear of the letters (across and down, on numbered squares); every label stays beside its
    control (the Play tab's First with its menu) and nothing overlaps, in every tab; no sideways scrolling."""
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        page.reload()                                # typing across again
        page.wait_for_selector("body[data-ready='1']")
        page.click("#tab-grid")
        page.fill("#grid-rows", "15")
        page.fill("#grid-cols", "15")
        page.click("#grid-new")
        page.focus("#grid .cell >> nth=0")
        page.keyboard.type("wmwmwmwmwmwmwmw")       # row 1: fifteen numbered squares; the cursor stays on the last
        assert covered_letters(page, "#grid .cell") == []
        page.keyboard.press("Home")
        page.keyboard.press("ArrowDown")
        page.keyboard.type("mw")                     # row 2: square 16
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press(" ")                     # down, on square 16's M
        assert page.eval_on_selector("#grid .cell >> nth=15", "e => e.className").count("cursor-down") == 1
        assert covered_letters(page, "#grid .cell") == []
        assert labels_astray(page, "#view-grid") == [] and overflow(page) <= 0
        page.fill("#grid-rows", "25")
        page.fill("#grid-cols", "25")
        page.click("#grid-new")                      # the largest grid: it scrolls in its frame, the page does not
        assert overflow(page) <= 0
        page.click("#tab-board")
        page.focus("#board .cell >> nth=112")
        page.keyboard.type("wmw")
        page.keyboard.press("ArrowLeft")             # the cursor on the last W, across
        assert covered_letters(page, "#board .cell") == []
        page.keyboard.press(" ")
        assert covered_letters(page, "#board .cell") == []
        coords = page.eval_on_selector_all("#board .coord", "els => els.map(e => e.textContent)")
        assert coords == [""] + [chr(65 + c) for c in range(15)] + [str(r) for r in range(1, 16)]
        assert labels_astray(page, "#view-board") == [] and labels_astray(page, "header") == []
        assert overflow(page) <= 0
        page.click("#tab-play")
        assert labels_astray(page, "#play-setup") == []
        page.click("#tab-search")
        page.select_option("#search-mode", "anagram")
        assert labels_astray(page, "#view-search") == [] and overflow(page) <= 0
        shot(page, f"layout-{width}")
