"""The Play tab in a real headless Chromium: a whole game against lexigraph, by keyboard only, at phone and desktop
width; the final scores shown are held to the GCG the server records, read here on its own.

Same set-up as ``test_page.py`` (Debian's Chromium through Playwright; skips cleanly when either is missing).
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections import defaultdict

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (pip install -e '.[browser]')")

import lexigraph  # noqa: E402
from lexigraph.commands import Command, Context, Param, all_commands  # noqa: E402
from lexigraph.scrabble.tiles import parse_rack  # noqa: E402
from lexigraph.scrabble.movegen import generate  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402
from lexigraph.server import create_app  # noqa: E402
from lexigraph.server.background import serve_in_thread  # noqa: E402

from helpers.browser import SHOTS, skip_without_chromium  # noqa: E402

skip_without_chromium()

#: Most turns a game may take before the test calls it stuck (a game of two players is rarely past 40).
MAX_TURNS = 120
#: Every control that makes a move: off once the game is over.
MOVE_CONTROLS = ("play-move", "play-submit", "play-pass", "play-exchange", "play-exchange-tiles", "play-shuffle")


def get(url: str) -> bytes:
    with urllib.request.urlopen(url) as r:
        return r.read()


def focus_is_visible(pg) -> bool:
    return pg.evaluate("(() => { const s = getComputedStyle(document.activeElement);"
                       " return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0; })()")


def active_id(pg) -> str:
    return pg.evaluate("document.activeElement.id")


def tab_to(pg, element_id: str, limit: int = 12, back: bool = False) -> None:
    """Press Tab (Shift+Tab: ``back``) until ``element_id`` has the focus, each stop showing where the focus is."""
    for _ in range(limit):
        if active_id(pg) == element_id:
            return
        pg.keyboard.press("Shift+Tab" if back else "Tab")
        assert focus_is_visible(pg), f"no visible focus on {pg.evaluate('document.activeElement.outerHTML')[:80]}"
    assert active_id(pg) == element_id, f"Tab never reached #{element_id}"


def no_page_overflow(pg) -> int:
    return pg.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def choose_move(lex, doc) -> str:
    """The test's player: the highest-scoring play of the rack the page shows; else an exchange, else a pass."""
    pos = Position.from_cgp(doc["cgp"])
    best = generate(lex, pos, doc["rack"], top=1, sort="score", exchanges=False)
    if len(best):
        return best[0].notation
    return "-" + doc["rack"] if doc["bag"] >= 7 else "-"


def cursor(pg) -> tuple[int, int, bool]:
    return pg.evaluate("(() => { const cells = [...document.querySelectorAll('#play-board .cell')];"
                       " const i = cells.findIndex(d => d.tabIndex === 0); const d = cells[i];"
                       " return [Math.floor(i / 15), i % 15, !d.classList.contains('cursor-down')]; })()")


def type_on_board(pg, doc, notation: str) -> None:
    """Put a play's tiles down on the board with the keyboard: arrows to its first new tile, Space for the
    direction, the letters (Shift: a blank); the page writes the move into its field."""
    square, word = notation.split(" ")
    m = re.fullmatch(r"([0-9]+)([A-Z])|([A-Z])([0-9]+)", square)
    assert m
    across = m.group(1) is not None
    row, col = (int(m.group(1)) - 1, ord(m.group(2)) - 65) if across else (int(m.group(4)) - 1, ord(m.group(3)) - 65)
    tiles, through = [], False
    for ch in word:
        if ch in "()":
            through = ch == "("
            continue
        tiles.append((ch, through))
    new = [(k, ch) for k, (ch, on_board) in enumerate(tiles) if not on_board]
    first = new[0][0]
    target = (row, col + first) if across else (row + first, col)
    for _ in range(4):                                   # from the move field back to the board's cursor square
        if pg.evaluate("document.activeElement.classList.contains('cell')"):
            break
        pg.keyboard.press("Shift+Tab")
    assert pg.evaluate("document.activeElement.closest('#play-board') !== null") and focus_is_visible(pg)
    r, c, now_across = cursor(pg)
    for key, steps in (("ArrowDown", target[0] - r), ("ArrowUp", r - target[0]),
                       ("ArrowRight", target[1] - c), ("ArrowLeft", c - target[1])):
        for _ in range(max(0, steps)):
            pg.keyboard.press(key)
    if now_across != across:
        pg.keyboard.press(" ")
    assert tuple(cursor(pg)) == (target[0], target[1], across)
    for _, ch in new:
        pg.keyboard.press(f"Shift+{ch.upper()}" if ch.islower() else ch.lower())
    assert pg.input_value("#play-move") == notation


def gcg_totals(text: str) -> dict[str, int]:
    """Each player's final score from a GCG record, summed from the points of its events (plays, exchanges,
    passes, end-of-game rack adjustments); each event's running total checked on the way."""
    sums: dict[str, int] = defaultdict(int)
    for line in text.splitlines():
        if not line.startswith(">"):
            continue
        nick, rest = line[1:].split(":", 1)
        fields = rest.split()
        points, total = int(fields[-2]), int(fields[-1])
        sums[nick] += points
        assert sums[nick] == total, line
    return dict(sums)


def play_a_whole_game(pg, server, width: int, height: int, use_board: bool) -> None:
    lex = lexigraph.open()
    pg.set_viewport_size({"width": width, "height": height})
    pg.focus("#tab-search")
    for _ in range(3):
        pg.keyboard.press("ArrowRight")
    assert active_id(pg) == "tab-play" and pg.is_visible("#view-play")
    tab_to(pg, "play-opponent")
    pg.keyboard.press("ArrowUp")                         # from equity (the default) to score
    assert pg.input_value("#play-opponent") == "score"
    tab_to(pg, "play-first")
    assert pg.input_value("#play-first") == "you"
    tab_to(pg, "play-new")
    pg.keyboard.press("Enter")
    pg.wait_for_function("document.querySelector('#view-play').dataset.game")
    game = pg.eval_on_selector("#view-play", "e => e.dataset.game")
    turns_seen = 0
    for _ in range(MAX_TURNS):
        doc = json.loads(get(f"{server}/api/games/{game}"))
        if doc["over"]:
            break
        assert doc["turn"] == "you"
        assert active_id(pg) == "play-move" and focus_is_visible(pg)
        move = choose_move(lex, doc)
        if use_board and not move.startswith("-"):
            type_on_board(pg, doc, move)
            pg.keyboard.press("Enter")                   # on the board: play the tiles typed
        else:
            pg.keyboard.type(move)
            pg.keyboard.press("Enter")
        try:
            pg.wait_for_function(f"+document.querySelector('#view-play').dataset.turns > {len(doc['turns'])}",
                                 timeout=20000)
        except sync_api.TimeoutError:
            raise AssertionError(f"{move!r} was not played: {pg.inner_text('#play-status')!r}") from None
        turns_seen += 1
        assert pg.evaluate("document.querySelector('#play-status').classList.contains('error')") is False, \
            pg.inner_text("#play-status")
        assert pg.inner_text("#play-analysis").startswith(move + ":") or move.startswith("-")
        if turns_seen == 1:                              # the analysis shown is the server's
            mine = json.loads(get(f"{server}/api/games/{game}"))["turns"][len(doc["turns"])]["analysis"]
            shown = pg.eval_on_selector_all("#play-best li", "els => els.map(e => [e.querySelector('.word')"
                                            ".textContent, e.querySelector('.equity').textContent])")
            assert shown == [[b["notation"].split(" ", 1)[-1] if b["kind"] == "play" else b["notation"],
                              f"{b['equity']:.1f}"] for b in mine["best"]]
            assert f"rank {mine['rank']} of {mine['of']}" in pg.inner_text("#play-analysis")
            rack = sorted(pg.inner_text("#play-rack").split())
            tab_to(pg, "play-shuffle", back=True)        # the rack shuffled by keyboard keeps its tiles
            pg.keyboard.press("Enter")
            assert sorted(pg.inner_text("#play-rack").split()) == rack
            tab_to(pg, "play-move")
        if turns_seen == 2:
            assert no_page_overflow(pg) <= 0, f"the Play view is wider than the screen at {width}px"
    else:
        raise AssertionError(f"the game did not end within {MAX_TURNS} turns")
    pg.wait_for_selector("#play-result:not([hidden])")
    assert active_id(pg) == "play-gcg" and focus_is_visible(pg)  # the end hands the focus to the record
    assert all(pg.is_disabled(f"#{c}") for c in MOVE_CONTROLS)    # Shuffle too: nothing moves any more
    assert no_page_overflow(pg) <= 0, f"the Play view is wider than the screen at {width}px"
    shown = {"player": int(pg.inner_text("#play-final-you")), "lexigraph": int(pg.inner_text("#play-final-engine"))}
    record = get(f"{server}/api/games/{game}/gcg").decode()
    assert gcg_totals(record) == shown, record
    href = pg.get_attribute("#play-gcg", "href")
    assert href == f"/api/games/{game}/gcg"
    assert pg.evaluate(f"fetch({json.dumps(href)}).then(r => r.text())") == record
    SHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SHOTS / f"play-{width}.png"), full_page=True)


def test_a_whole_game_by_keyboard_at_phone_width(page, server):
    play_a_whole_game(page, server, 375, 740, use_board=True)


def test_a_whole_game_by_keyboard_on_a_desktop(page, server):
    play_a_whole_game(page, server, 1100, 820, use_board=False)


def test_an_illegal_move_is_refused_and_the_game_goes_on(page, server):
    page.click("#tab-play")
    page.select_option("#play-opponent", "score")
    page.click("#play-new")
    page.wait_for_function("document.querySelector('#view-play').dataset.game")
    before = page.eval_on_selector("#view-play", "e => e.dataset.turns")
    page.fill("#play-move", "8H QXZQ")
    page.press("#play-move", "Enter")
    page.wait_for_selector("#play-status.error")
    assert page.eval_on_selector("#view-play", "e => e.dataset.turns") == before


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(request) as r:
        return json.load(r)


def endgame_of(server: str) -> dict:
    """A game played through the API (the score player's moves) until the bag is empty with the person on turn."""
    lex = lexigraph.open()
    for seed in range(1, 20):
        doc = post(f"{server}/api/games", {"opponent": "score", "seed": seed})
        while doc["bag"] and not doc["over"]:
            doc = post(f"{server}/api/games/{doc['id']}/play", {"move": choose_move(lex, doc)})
        if doc["endgame_cgp"]:
            return doc
    raise AssertionError("no endgame in 19 games")


def stand_in_solver() -> Command:
    """An ``endgame`` command for the page's plumbing, until the solver's branch is merged: it checks the position
    the page sends (both racks; the bag empty: the unseen tiles are the other rack) and answers a document of the
    solver's shape: the best play by score, then a pass."""
    def run(ctx: Context, params) -> dict:
        lex = ctx.lexicon()
        pos = Position.from_cgp(params["position"])
        assert pos.racks[1] and sorted(pos.unseen()) == sorted(parse_rack(pos.game, pos.racks[1])), pos.to_cgp()
        best = generate(lex, pos, pos.racks[0], top=1, sort="score")[0].to_dict()
        return {"value": best["score"], "complete": True, "best": best, "pv": [best, {"kind": "pass"}],
                "depth": 2, "nodes": 1, "seconds": 0.0, "table_megabytes": 0}

    return Command("endgame", "A stand-in solver.", (Param("position", "CGP", required=True),), run, lambda d: [])


@pytest.fixture(scope="module")
def server_with_solver():
    commands = [c for c in all_commands() if c.name != "endgame"] + [stand_in_solver()]
    with serve_in_thread(create_app(commands=commands)) as url:
        yield url


def solve_on_the_page(pg, server: str) -> tuple[dict, str]:
    doc = endgame_of(server)
    pg.goto(f"{server}/?game={doc['id']}#play")         # a game named in the address is shown again
    pg.wait_for_selector("body[data-ready='1']")
    assert pg.eval_on_selector("#view-play", "e => e.dataset.game") == doc["id"]
    assert pg.input_value("#play-move") == "" and pg.inner_text("#play-bag") == "0"
    pg.wait_for_selector("#play-endgame-box:not([hidden])")
    pg.focus("#tab-play")
    tab_to(pg, "play-solve", limit=40)
    pg.keyboard.press("Enter")
    pg.wait_for_function("document.querySelector('#play-endgame').textContent.includes('value')", timeout=60000)
    return doc, pg.inner_text("#play-endgame")


def test_the_endgame_opens_in_the_solver(browser_context, server_with_solver):
    pg = browser_context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    doc, shown = solve_on_the_page(pg, server_with_solver)
    pos = Position.from_cgp(doc["endgame_cgp"])
    best = generate(lexigraph.open(), pos, pos.racks[0], top=1, sort="score")[0]
    assert shown.startswith(f"value +{best.score} (solved exactly); best {best.notation}; "
                            f"principal variation: {best.notation}, pass"), shown
    assert errors == []
    pg.close()


def test_the_endgame_solver_itself(browser_context, server):
    pytest.importorskip("lexigraph.scrabble.endgame")
    pg = browser_context.new_page()
    doc, shown = solve_on_the_page(pg, server)
    assert "principal variation" in shown and "value" in shown
    pg.close()


def finished_game(server: str) -> dict:
    """A game played to its end through the API (the score player's moves)."""
    lex = lexigraph.open()
    doc = post(f"{server}/api/games", {"opponent": "score", "seed": 3})
    for _ in range(MAX_TURNS):
        if doc["over"]:
            return doc
        doc = post(f"{server}/api/games/{doc['id']}/play", {"move": choose_move(lex, doc)})
    raise AssertionError(f"the game did not end within {MAX_TURNS} turns")


def test_a_finished_game_takes_no_more_moves(page, server):
    """A finished game shown again: Shuffle and every other move control are off, and the board's keys put no tile
    down, write no move and send nothing; the rack stays as it was."""
    doc = finished_game(server)
    page.goto(f"{server}/?game={doc['id']}#play")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#play-result:not([hidden])")
    assert [c for c in MOVE_CONTROLS if not page.is_disabled(f"#{c}")] == []
    rack = page.inner_text("#play-rack")
    page.click("#play-shuffle", force=True)              # a click on the disabled button does nothing
    assert page.inner_text("#play-rack") == rack
    page.focus("#play-board .cell[tabindex='0']")
    for key in ("a", "Shift+E", "Enter", "Escape"):
        page.keyboard.press(key)
    page.keyboard.press("ArrowRight")                    # looking around the board still works
    assert page.evaluate("document.activeElement.closest('#play-board') !== null")
    assert page.eval_on_selector_all("#play-board .cell.new", "els => els.length") == 0
    assert page.input_value("#play-move") == ""
    assert json.loads(get(f"{server}/api/games/{doc['id']}"))["turns"] == doc["turns"]
    assert page.eval_on_selector("#view-play", "e => e.dataset.turns") == str(len(doc["turns"]))
