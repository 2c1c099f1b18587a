"""The /api/games routes: a game played over HTTP and held to the Python API, and what hostile clients get."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
pytest.importorskip("httpx", reason="the API tests need httpx")

with warnings.catch_warnings():  # Starlette >= 1.x suggests httpx2; httpx still drives its test client
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.gcg import read_gcg  # noqa: E402
from lexigraph.scrabble.match import HUMAN, Match  # noqa: E402
from lexigraph.scrabble.movegen import generate  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402
from lexigraph.server import create_app  # noqa: E402
from lexigraph.server.app import Limits  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(limits=Limits(max_games=3, max_body=4096))) as c:
        yield c


def unseen_by_hand(doc) -> dict[str, int]:
    """The tiles the person has not seen, counted from the game's tile set, the board rows and the rack."""
    game = Game.preset("scrabble")
    left = {label.upper(): count for label, (count, _points) in game.tiles.items()}
    left["?"] = game.blanks
    for row in doc["board"]:
        for ch in row:
            if ch != ".":
                left["?" if ch.islower() else ch] -= 1
    for ch in doc["rack"]:
        left[ch] -= 1
    return {tile: n for tile, n in left.items() if n}


def new_game(client, **fields):
    r = client.post("/api/games", json=fields)
    assert r.status_code == 201, r.text
    return r.json()


def test_a_game_over_http_is_the_python_match(client):
    lex = lexigraph.open()
    doc = new_game(client, opponent="equity", first="lexigraph", seed=9)
    twin = Match(lex, Game.preset("scrabble"), opponent="equity", human_first=False, seed=9)  # named ENABLE
    assert doc["rack"] == twin.rack(HUMAN) and doc["turns"][0]["notation"] == twin.turns[0].move.notation
    for _ in range(200):
        if doc["over"]:
            break
        best = generate(lex, Position.from_cgp(doc["cgp"]), doc["rack"], top=1, sort="score", exchanges=False)
        move = best[0].notation if len(best) else "-"
        r = client.post(f"/api/games/{doc['id']}/play", json={"move": move})
        assert r.status_code == 200, r.text
        expected = twin.play(lex, move)
        doc = r.json()
        assert doc["analysis"] == expected["analysis"] and doc["reply"] == expected["reply"]
        assert doc["board"] == twin.state()["board"]
        assert doc["unseen"] == unseen_by_hand(doc)
        assert sum(doc["unseen"].values()) == doc["bag"] + doc["opponent_rack_size"]
    assert doc["over"] and doc["result"]["scores"] == {"you": twin.scores[0], "lexigraph": twin.scores[1]}
    gcg = client.get(f"/api/games/{doc['id']}/gcg")
    assert gcg.status_code == 200 and gcg.headers["content-type"].startswith("text/plain")
    assert "attachment" in gcg.headers["content-disposition"]
    assert gcg.text == twin.gcg()
    assert read_gcg(gcg.text).replay().board_text().split("\n") == doc["board"]
    r = client.post(f"/api/games/{doc['id']}/play", json={"move": "-"})
    assert r.status_code == 400 and r.json()["error"]["message"] == "the game is over"


def test_illegal_moves_are_json_errors_and_change_nothing(client):
    doc = new_game(client, opponent="score", seed=2)                   # rack AABEITW
    for move, kind in [("8H BAWTE", "IllegalPlay"), ("8H ZAX", "IllegalPlay"), ("1A BAIT", "IllegalPlay"),
                       ("-ZZ", "IllegalPlay"), ("8H B?T", "IllegalPlay"), ("hello", "IllegalPlay")]:
        r = client.post(f"/api/games/{doc['id']}/play", json={"move": move})
        assert r.status_code == 400 and r.json()["error"]["type"] == kind, (move, r.text)
    for body in [{"move": 7}, {"move": None}, {}, {"move": "-", "extra": 1}, [1, 2]]:
        r = client.post(f"/api/games/{doc['id']}/play", json=body)
        assert r.status_code == 400 and set(r.json()["error"]) == {"type", "message"}, (body, r.text)
    assert client.get(f"/api/games/{doc['id']}").json() == doc


def test_bad_new_games_unknown_ids_and_sizes(client):
    for fields in [{"opponent": "random"}, {"first": "nobody"}, {"seed": -1}, {"seed": "1"}, {"seed": True},
                   {"game": "/etc/passwd"}, {"colour": "red"}, {"lexicon": 5}]:
        r = client.post("/api/games", json=fields)
        assert r.status_code == 400, (fields, r.text)
    assert client.post("/api/games", json={"lexicon": "nope"}).status_code == 404
    for path in ["/api/games/nope", "/api/games/nope/gcg"]:
        r = client.get(path)
        assert r.status_code == 404 and r.json()["error"]["type"] == "NotFound"
    assert client.post("/api/games/nope/play", json={"move": "-"}).status_code == 404
    doc = new_game(client, opponent="score", seed=1)
    r = client.post(f"/api/games/{doc['id']}/play", content=b'{"move": "' + b"A" * 5000 + b'"}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    r = client.post(f"/api/games/{doc['id']}/play", json={"move": "8H " + "A" * 1000})
    assert r.status_code == 400
    assert client.delete(f"/api/games/{doc['id']}").status_code == 405


def test_live_games_are_bounded_least_recently_used_first(client):
    ids = [new_game(client, opponent="score", seed=k)["id"] for k in range(3)]
    assert client.get(f"/api/games/{ids[0]}").status_code == 200  # the first is now the most recently used
    ids.append(new_game(client, opponent="score", seed=3)["id"])    # a fourth drops the second
    assert [client.get(f"/api/games/{k}").status_code for k in ids] == [200, 404, 200, 200]


def test_idle_games_expire():
    with TestClient(create_app(limits=Limits(game_idle=0.01))) as c:
        doc = new_game(c, opponent="score", seed=1)
        import time

        time.sleep(0.05)
        assert c.get(f"/api/games/{doc['id']}").status_code == 404


def test_the_simulation_opponent_without_its_module(client):
    import importlib.util

    if importlib.util.find_spec("lexigraph.scrabble.simulation") is not None:
        pytest.skip("the simulation module is installed")
    r = client.post("/api/games", json={"opponent": "simulation"})
    assert r.status_code == 400 and "simulation" in r.json()["error"]["message"]


def test_the_simulation_opponent_plays(client):
    pytest.importorskip("lexigraph.scrabble.simulation")
    doc = new_game(client, opponent="simulation", first="lexigraph", seed=4)
    assert len(doc["turns"]) == 1 and doc["turns"][0]["player"] == "lexigraph"


def test_one_move_of_a_game_at_a_time():
    app = create_app()
    with TestClient(app) as c:
        doc = new_game(c, opponent="score", seed=1)
        entry = app.state.games.get(doc["id"])
        with entry.lock:                                  # a move of this game is being made
            r = c.post(f"/api/games/{doc['id']}/play", json={"move": "-"})
            assert r.status_code == 409 and r.json()["error"]["type"] == "Busy"
            assert c.get(f"/api/games/{doc['id']}").json() == doc  # reading it meanwhile reads the game as it stood
        assert c.post(f"/api/games/{doc['id']}/play", json={"move": "-"}).status_code == 200
