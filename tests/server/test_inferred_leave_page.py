"""The Play tab's inferred leave: after lexigraph's play or exchange the page sends the game document's
``engine_move_seen`` (the position before the move as the person saw it, and the move) to ``/api/infer`` and shows
the most probable leaves and the expected tiles (Chromium)."""

from __future__ import annotations

import json
import urllib.request

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (pip install -e '.[browser]')")

from lexigraph.commands import Command, Context, Param, all_commands  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402
from lexigraph.server import create_app  # noqa: E402
from lexigraph.server.background import serve_in_thread  # noqa: E402

ASKED: list[dict] = []


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(request) as r:
        return json.load(r)


def stand_in_infer() -> Command:
    """An ``infer`` command that records what the page sends and answers a document of the real one's shape."""
    def run(ctx: Context, params) -> dict:
        ASKED.append(dict(params))
        pos = Position.from_cgp(params["position"])
        assert pos.racks[0] == "" and pos.racks[1], params  # the engine on turn, its rack unknown
        return {"move": params["move"], "kind": "play", "margin": 5.0, "exact": True, "possible": 10, "evaluated": 10,
                "consistent": 2, "unseen": 80, "leave_size": 2, "samples": 0, "seed": 0, "seconds": 0.0,
                "tile_means": {"E": 1.25, "S": 0.75}, "notes": [], "count": 2,
                "results": [{"leave": "ES", "probability": 0.75}, {"leave": "EE", "probability": 0.25}]}

    params = (Param("position", "CGP", required=True), Param("move", "move", required=True),
              Param("top", "top", kind="int", minimum=0, maximum=1000))
    return Command("infer", "A stand-in inference.", params, run, lambda d: [])


@pytest.fixture(scope="module")
def server_with_infer():
    commands = [c for c in all_commands() if c.name != "infer"] + [stand_in_infer()]
    with serve_in_thread(create_app(commands=commands)) as url:
        yield url


def test_the_inferred_leave_is_shown_after_lexigraphs_move(browser_context, server_with_infer):
    doc = post(f"{server_with_infer}/api/games", {"opponent": "score", "seed": 1, "first": "lexigraph"})
    seen = doc["engine_move_seen"]
    assert seen is not None and doc["turns"][-1]["player"] == "lexigraph"
    ASKED.clear()
    pg = browser_context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{server_with_infer}/?game={doc['id']}#play")
    pg.wait_for_selector("body[data-ready='1']")
    pg.wait_for_selector("#play-inferred-box:not([hidden])")
    pg.wait_for_function("document.querySelector('#play-inferred').textContent.includes('expected')", timeout=60000)
    shown = pg.inner_text("#play-inferred")
    assert shown == (f"after {seen['move']} (2 leaves consistent): ES 75.0%, EE 25.0%; expected tiles: E 1.25, "
                     f"S 0.75"), shown
    assert ASKED and ASKED[-1]["position"] == seen["cgp"] and ASKED[-1]["move"] == seen["move"]
    assert errors == []
    pg.close()


def test_no_inference_before_lexigraph_has_moved(browser_context, server_with_infer):
    doc = post(f"{server_with_infer}/api/games", {"opponent": "score", "seed": 1, "first": "you"})
    assert doc["engine_move_seen"] is None
    pg = browser_context.new_page()
    pg.goto(f"{server_with_infer}/?game={doc['id']}#play")
    pg.wait_for_selector("body[data-ready='1']")
    pg.wait_for_function("document.querySelector('#view-play').dataset.game")
    assert pg.is_hidden("#play-inferred-box")
    pg.close()
