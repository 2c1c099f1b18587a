"""Games that survive the server: a real ``lexigraph serve`` process killed with SIGKILL mid-game and started
again on the same games file shows every finished move of every game and goes on; a kill during a move leaves
the whole move recorded or none of it."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
httpx = pytest.importorskip("httpx", reason="the API tests need httpx")

import lexigraph  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.match import HUMAN, Match  # noqa: E402
from lexigraph.scrabble.movegen import generate  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402
from lexigraph.server.gamedb import GameDatabase  # noqa: E402

pytestmark = [pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]

#: A server whose every move's transaction stops after its first turn row, saying so on stderr, until killed.
SLOW_COMMIT = """
import sys, time
from lexigraph.server import gamedb

insert = gamedb.GameDatabase._insert_turns

def slow(self, conn, key, first, turns):
    insert(self, conn, key, first, turns[:1])
    if len(turns) > 1:  # a move's turns: the person's and the reply
        print("in the transaction", file=sys.stderr, flush=True)
        time.sleep(60)
    insert(self, conn, key, first + 1, turns[1:])

gamedb.GameDatabase._insert_turns = slow
from lexigraph.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(db: Path, *, code: str | None = None) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``lexigraph serve`` on a free port and the games file ``db``, as a process of its own; killed at the end."""
    port = free_port()
    args = ["serve", "--port", str(port), "--games-db", str(db), "--heavy-workers", "0"]
    cmd = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "lexigraph", *args]
    env = dict(os.environ, XDG_DATA_HOME=str(db.parent / "xdg"))
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        stop = time.monotonic() + 60
        while True:
            try:
                httpx.get(url + "/healthz", timeout=2)
                break
            except httpx.HTTPError:
                if proc.poll() is not None or time.monotonic() > stop:
                    raise AssertionError(f"the server did not start: {proc.stderr.read() if proc.stderr else ''}")
                time.sleep(0.05)
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
        if proc.stderr:
            proc.stderr.close()


def wait_for_line(proc: subprocess.Popen[str], text: str, seconds: float = 60.0) -> bool:
    """Whether the process writes a line holding ``text`` on its stderr within ``seconds``."""
    import select

    assert proc.stderr is not None
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        ready, _, _ = select.select([proc.stderr], [], [], max(0.0, stop - time.monotonic()))
        if not ready:
            return False
        line = proc.stderr.readline()
        if not line:
            return False
        if text in line:
            return True
    return False


def best_move(lex: lexigraph.Lexicon, doc: dict) -> str:
    best = generate(lex, Position.from_cgp(doc["cgp"]), doc["rack"], top=1, sort="score", exchanges=False)
    return best[0].notation if len(best) else "-"


def shown(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in ("played", "analysis", "reply")}


def twin(lex: lexigraph.Lexicon, doc: dict, seed: int, opponent: str, first: str, moves: list[str]) -> Match:
    """The game as the Python API plays it: dealt from the seed, the same moves of the person."""
    m = Match(lex, Game.preset("scrabble"), opponent=opponent, human_first=first == "you", seed=seed)
    for move in moves:
        m.play(lex, move)
    return m


def test_a_killed_server_keeps_every_finished_move(tmp_path):
    lex = lexigraph.open()
    db = tmp_path / "games.sqlite3"
    specs = [(21, "equity", "you", 5), (22, "score", "lexigraph", 3), (23, "equity", "lexigraph", 0)]
    played: dict[str, list[str]] = {}
    docs: dict[str, dict] = {}
    with server(db) as (url, proc):
        for seed, opponent, first, n in specs:
            doc = httpx.post(url + "/api/games", json={"seed": seed, "opponent": opponent, "first": first}).json()
            played[doc["id"]] = []
            for _ in range(n):
                move = best_move(lex, doc)
                doc = httpx.post(f"{url}/api/games/{doc['id']}/play", json={"move": move}, timeout=30).json()
                played[doc["id"]].append(move)
            docs[doc["id"]] = shown(doc)
        records = {key: httpx.get(f"{url}/api/games/{key}/gcg").text for key in docs}
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    with server(db) as (url, _):
        for (seed, opponent, first, _n), (key, doc) in zip(specs, docs.items()):
            assert httpx.get(f"{url}/api/games/{key}").json() == doc
            assert httpx.get(f"{url}/api/games/{key}/gcg").text == records[key]
            # ... and goes on as the same match would, move for move
            m = twin(lex, doc, seed, opponent, first, played[key])
            move = best_move(lex, doc)
            r = httpx.post(f"{url}/api/games/{key}/play", json={"move": move}, timeout=30)
            expected = m.play(lex, move)
            assert r.status_code == 200 and r.json()["reply"] == expected["reply"], r.text
            assert shown(r.json()) == {"id": key, **m.state()}


def test_a_kill_inside_a_moves_transaction_records_none_of_it(tmp_path):
    lex = lexigraph.open()
    db = tmp_path / "games.sqlite3"
    with server(db, code=SLOW_COMMIT) as (url, proc):
        doc = httpx.post(url + "/api/games", json={"seed": 31, "opponent": "score"}).json()
        move = best_move(lex, doc)

        def send() -> None:
            try:
                httpx.post(f"{url}/api/games/{doc['id']}/play", json={"move": move}, timeout=120)
            except httpx.HTTPError:
                pass  # the server was killed before it answered, as planned

        threading.Thread(target=send, daemon=True).start()
        assert wait_for_line(proc, "in the transaction")  # the person's turn written, the reply's not yet
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert GameDatabase(str(db)).turns(doc["id"]) == []
    with server(db) as (url, _):
        assert httpx.get(f"{url}/api/games/{doc['id']}").json() == shown(doc)
        r = httpx.post(f"{url}/api/games/{doc['id']}/play", json={"move": move}, timeout=30)  # sent again
        assert r.status_code == 200 and len(r.json()["turns"]) == 2


def test_kills_at_random_times_leave_whole_moves(tmp_path):
    """A client plays as fast as it can while the server is killed at a random moment, again and again: the
    file holds every move answered, and at most the one in flight besides, whole (the person's turn and the
    reply together)."""
    lex = lexigraph.open()
    db = tmp_path / "games.sqlite3"
    rng = random.Random(32)
    answered: dict[str, int] = {}  # game id -> turns the last answer showed
    for round_ in range(5):
        with server(db) as (url, proc):
            for key, turns in answered.items():  # every answered move is there, and the games go on
                doc = httpx.get(f"{url}/api/games/{key}").json()
                assert len(doc["turns"]) in (turns, turns + 2) or (doc["over"] and len(doc["turns"]) == turns + 1)
                answered[key] = len(doc["turns"])
            stop = threading.Event()

            def play() -> None:
                doc = httpx.post(url + "/api/games", json={"seed": round_, "opponent": "equity"}).json()
                answered[doc["id"]] = len(doc["turns"])
                games = list(answered)
                while not stop.is_set():
                    key = rng.choice(games)
                    try:
                        doc = httpx.get(f"{url}/api/games/{key}", timeout=10).json()
                        if doc["over"]:
                            continue
                        doc = httpx.post(f"{url}/api/games/{key}/play", json={"move": best_move(lex, doc)},
                                         timeout=10).json()
                    except (httpx.HTTPError, json.JSONDecodeError):
                        return  # the server is gone
                    answered[key] = len(doc["turns"])

            player = threading.Thread(target=play, daemon=True)
            player.start()
            time.sleep(rng.uniform(0.2, 1.5))
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            stop.set()
            player.join(timeout=30)
    games = GameDatabase(str(db))
    for key, turns in answered.items():
        row = games.game(key)
        recorded = games.turns(key)
        assert row is not None and len(recorded) >= turns == len(recorded) or len(recorded) - turns in (1, 2)
        m = Match.restore(lex, Game.preset("scrabble"), opponent="equity", seed=row.seed,
                          turns=recorded)
        assert m.over or m.turn == HUMAN  # no half move: never the person's turn without the reply


def test_two_server_processes_on_one_file(tmp_path):
    """Two servers on one games file: each reads the other's moves; the same move sent to both at once is made
    once (the other gets a 409 or finds the squares taken); the file stays one game, turn after turn."""
    lex = lexigraph.open()
    db = tmp_path / "games.sqlite3"
    with server(db) as (a, _), server(db) as (b, _):
        doc = httpx.post(a + "/api/games", json={"seed": 41, "opponent": "equity"}).json()
        key = doc["id"]
        for turn in range(6):
            here, there = (a, b) if turn % 2 else (b, a)
            assert shown(httpx.get(f"{here}/api/games/{key}").json()) == shown(doc)
            move = best_move(lex, doc)
            answers: list = []
            threads = [threading.Thread(target=lambda url=url: answers.append(
                httpx.post(f"{url}/api/games/{key}/play", json={"move": move}, timeout=30))) for url in (here, there)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            codes = sorted(r.status_code for r in answers)
            assert codes.count(200) == 1 and set(codes) <= {200, 400, 409}, [r.text for r in answers]
            doc = next(r.json() for r in answers if r.status_code == 200)
        recorded = GameDatabase(str(db)).turns(key)
        assert len(recorded) == len(doc["turns"]) == 12
        m = Match.restore(lex, Game.preset("scrabble"), opponent="equity", seed=41,
                          turns=recorded)
        assert {"id": key, **m.state()} == shown(doc)
