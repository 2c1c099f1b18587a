"""The Play tab's "Solve this pre-endgame": shown when the bag holds 1 to 4 tiles on the person's turn, it sends the
game's position to ``/api/peg`` and shows the best play's draws won, tied and lost (Chromium)."""

from __future__ import annotations

import json
import urllib.request

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (pip install -e '.[browser]')")

import lexigraph  # noqa: E402
from lexigraph.commands import Command, Context, Param, all_commands  # noqa: E402
from lexigraph.scrabble.movegen import generate  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402
from lexigraph.server import create_app  # noqa: E402
from lexigraph.server.background import serve_in_thread  # noqa: E402


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(request) as r:
        return json.load(r)


def pre_endgame_of(server: str) -> dict:
    """A game played through the API (the best play by score) until 1-4 tiles are in the bag, the person on turn."""
    lex = lexigraph.open()
    for seed in range(1, 40):
        doc = post(f"{server}/api/games", {"opponent": "score", "seed": seed})
        while doc["bag"] > 4 and not doc["over"]:
            pos = Position.from_cgp(doc["cgp"])
            best = generate(lex, pos, doc["rack"], top=1, sort="score", exchanges=False)
            move = best[0].notation if len(best) else ("-" + doc["rack"] if doc["bag"] >= 7 else "-")
            doc = post(f"{server}/api/games/{doc['id']}/play", {"move": move})
        if 1 <= doc["bag"] <= 4 and doc["turn"] == "you":
            return doc
    raise AssertionError("no pre-endgame in 39 games")


def stand_in_peg() -> Command:
    """A ``peg`` command that checks what the page sends (the person's rack first, 1-4 tiles in the bag, a time
    budget) and answers a document of the solver's shape at once."""
    def run(ctx: Context, params) -> dict:
        pos = Position.from_cgp(params["position"])
        bag = len(pos.unseen()) - 7
        assert 1 <= bag <= 4 and params.get("time_limit"), params
        best = generate(ctx.lexicon(), pos, pos.racks[0], top=1, sort="score")[0]
        row = {"move": best.to_dict(), "notation": best.notation, "wins": 5, "draws": 1, "losses": 2, "total": 8,
               "win_rate": 0.6875, "mean_spread": 12.5, "equity": float(best.score)}
        return {"bag": bag, "scenarios": 7, "draws": 8, "scenarios_done": 7, "exact": True, "endgames": 8,
                "seconds": 0.0, "best": row, "notes": [], "results": [row], "count": 1}

    return Command("peg", "A stand-in pre-endgame.", (Param("position", "CGP", required=True),
                                                       Param("time_limit", "S", kind="float", minimum=0,
                                                             maximum=86400)), run, lambda d: [])


@pytest.fixture(scope="module")
def server_with_peg():
    commands = [c for c in all_commands() if c.name != "peg"] + [stand_in_peg()]
    with serve_in_thread(create_app(commands=commands)) as url:
        yield url


def test_the_pre_endgame_button_asks_the_solver(browser_context, server_with_peg):
    doc = pre_endgame_of(server_with_peg)
    pg = browser_context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{server_with_peg}/?game={doc['id']}#play")
    pg.wait_for_selector("body[data-ready='1']")
    pg.wait_for_selector("#play-peg-box:not([hidden])")
    assert pg.is_hidden("#play-endgame-box")
    pg.click("#play-peg-solve")
    pg.wait_for_function("document.querySelector('#play-peg').textContent.includes('won')", timeout=60000)
    best = generate(lexigraph.open(), Position.from_cgp(doc["cgp"]), doc["rack"], top=1, sort="score")[0]
    shown = pg.inner_text("#play-peg")
    assert shown == (f"8 draws (every draw solved); best {best.notation}: 5 won, 1 tied, 2 lost "
                     f"(mean spread +12.5)"), shown
    assert errors == []
    pg.close()


def test_the_box_is_hidden_with_a_full_bag(browser_context, server_with_peg):
    doc = post(f"{server_with_peg}/api/games", {"opponent": "score", "seed": 1})
    pg = browser_context.new_page()
    pg.goto(f"{server_with_peg}/?game={doc['id']}#play")
    pg.wait_for_selector("body[data-ready='1']")
    pg.wait_for_function("document.querySelector('#view-play').dataset.game")
    assert pg.is_hidden("#play-peg-box")
    pg.close()
