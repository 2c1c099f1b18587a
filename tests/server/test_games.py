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


# -- the games file (SQLite): games that outlive the app, forged and damaged files, two servers on one file -----

import json  # noqa: E402
import os  # noqa: E402
import sqlite3  # noqa: E402
import threading  # noqa: E402

from lexigraph.server.gamedb import SCHEMA_VERSION, GameDatabase, GamesDatabaseError  # noqa: E402


def best_move(lex, doc) -> str:
    best = generate(lex, Position.from_cgp(doc["cgp"]), doc["rack"], top=1, sort="score", exchanges=False)
    return best[0].notation if len(best) else "-"


def play_moves(client, lex, doc, n):
    for _ in range(n):
        if doc["over"]:
            break
        r = client.post(f"/api/games/{doc['id']}/play", json={"move": best_move(lex, doc)})
        assert r.status_code == 200, r.text
        doc = r.json()
    return doc


def shown(doc):
    """A game's document without the answer to the last move (what GET /api/games/{id} shows)."""
    return {k: v for k, v in doc.items() if k not in ("played", "analysis", "reply")}


def test_games_outlive_the_app_on_the_same_file(tmp_path):
    lex = lexigraph.open()
    path = str(tmp_path / "games.sqlite3")
    with TestClient(create_app(games_db=path)) as c:
        deals = [("equity", "you", 3, 4), ("score", "lexigraph", 4, 2), ("equity", "lexigraph", 5, 0)]
        games = [play_moves(c, lex, new_game(c, opponent=o, first=f, seed=s), k) for o, f, s, k in deals]
        records = {g["id"]: c.get(f"/api/games/{g['id']}/gcg").text for g in games}
    with TestClient(create_app(games_db=path)) as c:  # a new server on the file: every game as it stood
        for g in games:
            assert c.get(f"/api/games/{g['id']}").json() == shown(g)
            assert c.get(f"/api/games/{g['id']}/gcg").text == records[g["id"]]
        # ... and each goes on as the same match would (its twin, dealt from the seed, with the same moves)
        g = games[0]
        twin = Match.restore(lex, Game.preset("scrabble"), opponent="equity", human_first=True, seed=3,
                             turns=GameDatabase(path).turns(g["id"]))
        move = best_move(lex, g)
        r = c.post(f"/api/games/{g['id']}/play", json={"move": move})
        expected = twin.play(lex, move)
        assert r.status_code == 200 and r.json()["reply"] == expected["reply"]
        assert r.json()["board"] == twin.state()["board"]


def test_every_move_is_one_transaction_of_its_turns(tmp_path):
    """The file holds, after each answer, exactly the turns the game shows (the person's and the reply)."""
    lex = lexigraph.open()
    path = str(tmp_path / "g.sqlite3")
    with TestClient(create_app(games_db=path)) as c:
        doc = new_game(c, opponent="score", seed=8)
        for _ in range(5):
            doc = play_moves(c, lex, doc, 1)
            with sqlite3.connect(path) as db:
                rows = db.execute("SELECT number, record FROM turns WHERE game = ? ORDER BY number",
                                  (doc["id"],)).fetchall()
                (turns,) = db.execute("SELECT turns FROM games WHERE id = ?", (doc["id"],)).fetchone()
            assert [n for n, _ in rows] == list(range(len(doc["turns"]))) and turns == len(rows)
            assert [json.loads(r)["move"]["notation"] for _, r in rows] == [t["notation"] for t in doc["turns"]]


def test_the_bounds_delete_rows(tmp_path):
    path = str(tmp_path / "g.sqlite3")
    clock = [1000.0]
    app = create_app(games_db=path, limits=Limits(max_games=2, game_idle=60.0))
    app.state.games.clock = lambda: clock[0]
    with TestClient(app) as c:
        ids = [new_game(c, opponent="score", seed=k)["id"] for k in range(3)]
        assert GameDatabase(path).count() == 2 and c.get(f"/api/games/{ids[0]}").status_code == 404
        clock[0] += 61                                               # both idle past the limit ...
        assert c.get(f"/api/games/{ids[1]}").status_code == 404
        new_game(c, opponent="score", seed=9)                         # ... deleted when a new game comes
        db = GameDatabase(path)
        assert db.count() == 1 and db.turns(ids[2]) == [] and db.game(ids[2]) is None


def test_sixteen_moves_at_once_on_one_game_make_one_game(tmp_path):
    lex = lexigraph.open()
    path = str(tmp_path / "g.sqlite3")
    app = create_app(games_db=path, limits=Limits(workers=4))
    with TestClient(app) as c:
        doc = new_game(c, opponent="equity", seed=12)
        for _ in range(4):
            move = best_move(lex, doc)
            before = len(doc["turns"])
            answers: list = []
            threads = [threading.Thread(target=lambda: answers.append(
                c.post(f"/api/games/{doc['id']}/play", json={"move": move}))) for _ in range(16)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            # The move is made once: the others wait their turn (409) or find its squares taken (400).
            codes = sorted(r.status_code for r in answers)
            assert codes.count(200) == 1 and set(codes) <= {200, 400, 409}, [r.text for r in answers]
            doc = c.get(f"/api/games/{doc['id']}").json()
            assert len(doc["turns"]) == before + 2
        turns = GameDatabase(path).turns(doc["id"])
        again = Match.restore(lex, Game.preset("scrabble"), opponent="equity", seed=12,
                              turns=turns)
        assert again.state() == {k: v for k, v in doc.items() if k != "id"}
        assert [t["seat"] for t in turns] == ["player", "lexigraph"] * (len(turns) // 2)


def test_damaged_and_foreign_files_are_one_clear_error(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 100)
    foreign = tmp_path / "other.sqlite3"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE t (x)")
    newer = tmp_path / "newer.sqlite3"
    GameDatabase(str(newer)).close()
    with sqlite3.connect(newer) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cases = {text: "not a usable games file", foreign: "not a lexigraph games file", newer: "newer than this",
             fifo: "not a regular file", tmp_path: "not a regular file"}
    for path, message in cases.items():
        with pytest.raises(GamesDatabaseError, match=message):
            create_app(games_db=str(path))


def test_serve_refuses_a_bad_games_file_in_one_line(tmp_path, capsys):
    from lexigraph.cli.main import main

    (tmp_path / "x.sqlite3").write_text("garbage " * 1000)
    assert main(["serve", "--port", "1", "--games-db", str(tmp_path / "x.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lexigraph: error: ") and err.count("\n") == 1 and "Traceback" not in err
    for bad in (["--games-db", ""], ["--heavy-nice", "20"], ["--heavy-workers", "-1"], ["--heavy-pending", "0"]):
        assert main(["serve", "--port", "1", *bad]) == 2
        assert capsys.readouterr().err.count("\n") == 1


def test_a_forged_game_is_a_json_error_and_the_others_play_on(tmp_path):
    lex = lexigraph.open()
    path = str(tmp_path / "g.sqlite3")
    with TestClient(create_app(games_db=path)) as c:
        docs = [play_moves(c, lex, new_game(c, opponent="score", seed=s), 2) for s in (1, 2, 3, 4, 5, 6)]
    ids = [d["id"] for d in docs]
    with sqlite3.connect(path) as db:
        (text,) = db.execute("SELECT record FROM turns WHERE game = ? AND number = 0", (ids[0],)).fetchone()
        first = json.loads(text)
        first["rack"] = "QQQQQQQ"
        db.execute("UPDATE turns SET record = ? WHERE game = ? AND number = 0", (json.dumps(first), ids[0]))
        db.execute("UPDATE turns SET record = 'NaN' WHERE game = ? AND number = 1", (ids[1],))
        db.execute("DELETE FROM turns WHERE game = ? AND number = 0", (ids[2],))
        db.execute("UPDATE games SET seed = '-5' WHERE id = ?", (ids[3],))
        db.execute("UPDATE games SET opponent = 'cheater' WHERE id = ?", (ids[4],))
    with TestClient(create_app(games_db=path)) as c:
        for key in ids[:5]:
            for route in (f"/api/games/{key}", f"/api/games/{key}/gcg"):
                r = c.get(route)
                assert r.status_code == 500 and r.json()["error"]["type"] == "DamagedGame", r.text
                assert key[:10] in r.json()["error"]["message"]
            r = c.post(f"/api/games/{key}/play", json={"move": "-"})
            assert r.status_code == 500 and r.json()["error"]["type"] == "DamagedGame"
        assert c.get(f"/api/games/{ids[5]}").json() == shown(docs[5])
        assert c.post(f"/api/games/{ids[5]}/play", json={"move": "-"}).status_code == 200


def test_a_locked_file_is_a_503_with_retry_after(tmp_path):
    path = str(tmp_path / "g.sqlite3")
    app = create_app(games_db=path)
    app.state.games.db = GameDatabase(path, timeout=0.2)  # a short wait, so that the test is short
    with TestClient(app) as c:
        doc = new_game(c, opponent="score", seed=1)
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")                    # another process writing, for longer than the wait
        try:
            r = c.post(f"/api/games/{doc['id']}/play", json={"move": "-"})
            assert r.status_code == 503 and r.json()["error"]["type"] == "ResourceBusy", r.text
            assert int(r.headers["retry-after"]) >= 1
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        # The move was not recorded, and the game in memory was dropped for the file's: the same move again.
        assert len(c.get(f"/api/games/{doc['id']}").json()["turns"]) == 0
        r = c.post(f"/api/games/{doc['id']}/play", json={"move": "-"})
        assert r.status_code == 200 and len(r.json()["turns"]) == 2


def test_two_servers_on_one_file(tmp_path):
    """Each sees the other's moves; a move on a game the other has moved meanwhile is a 409, not a fork."""
    lex = lexigraph.open()
    path = str(tmp_path / "g.sqlite3")
    with TestClient(create_app(games_db=path)) as a, TestClient(create_app(games_db=path)) as b:
        doc = new_game(a, opponent="score", seed=6)
        assert b.get(f"/api/games/{doc['id']}").json() == shown(doc)
        doc = play_moves(b, lex, doc, 1)
        assert a.get(f"/api/games/{doc['id']}").json() == shown(doc)   # A reads the file's newer game
        doc = play_moves(a, lex, doc, 1)
        assert b.get(f"/api/games/{doc['id']}").json() == shown(doc)
        # B holds the game; A moves; B's move, made on what it held, is refused as a conflict.
        store_b = b.app.state.games
        entry = store_b.get(doc["id"])
        doc = play_moves(a, lex, doc, 1)
        stale = store_b.get  # B would reload on its next request; make it play on its stale match instead
        store_b.get = lambda key: entry
        try:
            r = b.post(f"/api/games/{doc['id']}/play", json={"move": "-"})
        finally:
            store_b.get = stale
        assert r.status_code == 409 and r.json()["error"]["type"] == "Conflict", r.text
        assert b.get(f"/api/games/{doc['id']}").json() == shown(doc)  # the file's game, untouched
        turns = GameDatabase(path).turns(doc["id"])
        assert len(turns) == len(doc["turns"]) == 6


def test_a_new_games_file_is_its_owners_alone(tmp_path):
    path = tmp_path / "deep" / "er" / "games.sqlite3"
    GameDatabase(str(path)).close()
    assert (path.stat().st_mode & 0o777) == 0o600 and (path.parent.stat().st_mode & 0o777) == 0o700
