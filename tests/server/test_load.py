"""The server under load and against hostile clients: deadlines inside queries, queued work dropped, caps on
list fields, a lane for cheap commands, slow and vanishing clients, one log line per error, malformed HTTP."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
httpx = pytest.importorskip("httpx", reason="the API tests need httpx")

import lexigraph  # noqa: E402
from lexigraph.commands import Command, Context, Param  # noqa: E402
from lexigraph.server import create_app  # noqa: E402
from lexigraph.server.app import Limits  # noqa: E402
from lexigraph.server.background import serve_in_thread  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

WORDS = ["cat", "cats", "dog", "dogs", "act", "tac", "god", "do", "at", "ta"]
STARTED: list[str] = []


def _mark(ctx: Context, p: Mapping[str, Any]) -> dict[str, Any]:
    """Records that it started, then holds its thread for ``seconds`` (ignoring the deadline)."""
    STARTED.append(p["name"])
    time.sleep(p["seconds"])
    return {"command": "mark", "results": [], "count": 0}


def _check(ctx: Context, p: Mapping[str, Any]) -> dict[str, Any]:
    lex = ctx.lexicon()
    return {"command": "check", "results": [{"word": w, "valid": w in lex} for w in p["words"]]}


def _boom(ctx: Context, p: Mapping[str, Any]) -> dict[str, Any]:
    raise RuntimeError("a bug\nover two lines")


def _text(doc: Mapping[str, Any]) -> list[str]:
    return []


COMMANDS = [
    Command("mark", "Hold a thread.", (Param("name", "name", required=True),
                                       Param("seconds", "how long", kind="float", default=0.0)), _mark, _text),
    Command("check", "Check words.", (Param("words", "words", many=True, required=True),), _check, _text),
    Command("boom", "Fail.", (), _boom, _text),
]


class Records(logging.Handler):
    """The records of the server's and uvicorn's loggers while a test runs."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def at_least(self, level: int) -> list[logging.LogRecord]:
        return [r for r in self.records if r.levelno >= level]


@pytest.fixture()
def records() -> Iterator[Records]:
    handler = Records()
    loggers = [logging.getLogger(n) for n in ("lexigraph.server", "uvicorn.error", "uvicorn")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        for logger, level in zip(loggers, levels):
            logger.removeHandler(handler)
            logger.setLevel(level)


@pytest.fixture()
def small(tmp_path) -> str:
    path = tmp_path / "small.lex"
    lexigraph.build(WORDS, path)
    return str(path)


def raw(url: str, data: bytes, *, wait: float = 5.0, close_after_send: bool = False) -> bytes:
    """Send bytes on a new connection, read until the server closes it (or ``wait`` seconds)."""
    host, port = url.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=wait) as s:
        if data:
            s.sendall(data)
        if close_after_send:
            return b""
        chunks = []
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        except TimeoutError:
            chunks.append(b"<still open>")
        return b"".join(chunks)


def json_error(response: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = response.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), response
    return int(head[9:12]), json.loads(body)["error"]


def wait_until(condition: Any, seconds: float = 10.0) -> bool:
    stop = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > stop:
            return False
        time.sleep(0.01)
    return True


# -- deadlines and caps with the registry's commands ---------------------------------------------------------

def test_expensive_queries_stop_at_the_deadline_and_free_their_worker():
    """A thousand '*e*' patterns, fifteen-blank anagrams: a 503 at the deadline, and the worker is back at once."""
    app = create_app(limits=Limits(timeout=0.3, grace=0.5, workers=2))
    server = app.state.server
    with serve_in_thread(app) as url:
        calls = [("/api/match", {"patterns": ["*e*"] * 1000}),
                 ("/api/anagram", {"racks": ["?" * 15] * 50}),
                 ("/api/search", {"expression": " or ".join(f"pattern *{a}*{b}*" for a in "qzxjkv" for b in "wyfgh")}),
                 ("/words", None)]
        for path, body in calls:
            if body is None:
                r = httpx.get(url + path, params={"sp": "*e*", "max": 1000}, timeout=30)
                assert r.status_code == 200  # one pattern, cut at 1000 words: in time
                continue
            r = httpx.post(url + path, json=body, timeout=30)
            assert r.status_code == 503 and r.json()["error"]["type"] == "TimeLimit", (path, r.text[:200])
            # The query itself stopped: no thread still works on it after its answer (it used to run for minutes).
            assert wait_until(lambda: server.busy == 0), (path, server.busy)
        assert httpx.get(url + "/api/check", params={"words": "cat"}).status_code == 200


def test_list_fields_are_capped():
    app = create_app(limits=Limits(max_values=10))
    with serve_in_thread(app) as url:
        r = httpx.post(url + "/api/match", json={"patterns": ["c?t"] * 11})
        assert r.status_code == 400, r.text
        err = r.json()["error"]
        assert err["type"] == "QueryError" and "'patterns': at most 10 values" in err["message"]
        assert httpx.get(url + "/api/check", params=[("words", "cat")] * 11).status_code == 400
        assert httpx.post(url + "/api/match", json={"patterns": ["c?t"] * 10}).status_code == 200
        assert httpx.get(url + "/api").json()["limits"]["max_values"] == 10


def test_queued_work_past_its_deadline_is_dropped_not_started(small):
    STARTED.clear()
    app = create_app([("small", small)], commands=COMMANDS, limits=Limits(timeout=0.3, grace=0.2, workers=1))
    with serve_in_thread(app) as url:
        out: dict[str, Any] = {}
        first = threading.Thread(target=lambda: out.setdefault("first", httpx.get(
            url + "/api/mark", params={"name": "first", "seconds": 1.0}, timeout=10)))
        first.start()
        assert wait_until(lambda: STARTED == ["first"])
        queued = httpx.get(url + "/api/mark", params={"name": "queued"}, timeout=10)  # behind it, in one thread
        first.join()
        assert queued.status_code == 503 and queued.json()["error"]["type"] == "TimeLimit"
        assert wait_until(lambda: app.state.server.busy == 0)
        assert STARTED == ["first"]  # the queued one never ran
        assert httpx.get(url + "/api/mark", params={"name": "later"}).status_code == 200
        assert STARTED == ["first", "later"]


@pytest.mark.parametrize("quick_workers", [0, 1])  # on the event loop (the default), or threads of their own
def test_cheap_commands_are_never_queued_behind_expensive_ones(small, quick_workers):
    app = create_app([("small", small)], commands=COMMANDS,
                     limits=Limits(timeout=5, workers=1, max_pending=2, quick=frozenset({"check"}),
                                   quick_workers=quick_workers))
    with serve_in_thread(app) as url:
        hold = [threading.Thread(target=lambda: httpx.get(url + "/api/mark", params={"name": "x", "seconds": 0.6},
                                                          timeout=10)) for _ in range(2)]
        for t in hold:
            t.start()
        assert wait_until(lambda: app.state.server.lanes["query"].busy == 2)
        refused = httpx.get(url + "/api/mark", params={"name": "y"}, timeout=10)
        answered = httpx.get(url + "/api/check", params={"words": "cat"}, timeout=10)
        busy_while = app.state.server.lanes["query"].busy
        health = httpx.get(url + "/healthz").json()
        for t in hold:
            t.join()
    assert refused.status_code == 503 and refused.json()["error"]["type"] == "Busy"
    assert answered.status_code == 200 and answered.json()["results"] == [{"word": "cat", "valid": True}]
    assert busy_while == 2  # answered while the other lane was still full
    assert health["lanes"]["query"] == 2 and health["busy"] >= 2


# -- hostile clients ---------------------------------------------------------------------------------------------

@pytest.fixture()
def strict(small) -> Iterator[str]:
    app = create_app([("small", small)], commands=COMMANDS, limits=Limits(header_timeout=0.3, body_timeout=0.3))
    with serve_in_thread(app) as url:
        yield url


@pytest.mark.parametrize("sent", [b"", b"GET /healthz HTTP/1.1\r\nHost: x\r\n", b"POST /api/check HTTP/1.1\r\n"])
def test_slow_headers_get_a_408_and_the_connection_closes(strict, sent):
    status, err = json_error(raw(strict, sent))
    assert status == 408 and err["type"] == "Timeout" and "headers" in err["message"]


def test_a_slow_body_gets_a_408(strict):
    head = b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    status, err = json_error(raw(strict, head + b'{"words": ['))
    assert status == 408 and err["type"] == "Timeout" and "body" in err["message"]


def test_a_kept_alive_connection_still_answers_after_a_quick_request(strict):
    host, port = strict.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=5) as s:
        for _ in range(2):
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            time.sleep(0.2)  # under the header limit each time: the same connection serves both
            assert b'"ok":true' in s.recv(65536)


@pytest.mark.parametrize("sent", [b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n",
                                  b"GET /\x00 HTTP/1.1\r\n\r\n", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"])
def test_malformed_http_gets_the_json_error(strict, sent):
    status, err = json_error(raw(strict, sent))
    assert status == 400 and err["type"] == "BadRequest" and err["message"].startswith("malformed HTTP request")


def test_a_client_gone_mid_body_is_one_line_not_an_internal_error(strict, records):
    head = b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
    raw(strict, head + b'{"words": ["cat", ', close_after_send=True)
    assert wait_until(lambda: any("went away" in r.getMessage() for r in records.records), 5)
    assert httpx.get(strict + "/healthz").status_code == 200
    assert records.at_least(logging.ERROR) == []
    assert all(r.exc_info is None for r in records.records)


def test_an_internal_error_is_a_json_500_logged_in_one_line(strict, records):
    r = httpx.get(strict + "/api/boom")
    assert r.status_code == 500 and r.json() == {"error": {"type": "InternalError", "message": "internal error: RuntimeError"}}
    errors = records.at_least(logging.ERROR)
    assert len(errors) == 1, [e.getMessage() for e in errors]
    line = errors[0].getMessage()
    assert "\n" not in line and errors[0].exc_info is None
    assert "RuntimeError: a bug over two lines" in line and "test_load.py" in line and "_boom" in line
