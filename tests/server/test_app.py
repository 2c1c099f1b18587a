"""The HTTP API: every route over HTTP, answers compared with the Python API, every limit and error, hot swap."""

from __future__ import annotations

import json
import os
import re
import threading
import time
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
httpx = pytest.importorskip("httpx", reason="the API tests need httpx")

from hypothesis import given, strategies as st  # noqa: E402
with warnings.catch_warnings():  # Starlette >= 1.x suggests httpx2; httpx still drives its test client
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.commands import Command, Context, Param, all_commands  # noqa: E402
from lexigraph.errors import QueryError, ResourceBusy  # noqa: E402
from lexigraph.server import create_app  # noqa: E402
from lexigraph.server.app import Limits  # noqa: E402
from lexigraph.server.served import served  # noqa: E402
from lexigraph.server.background import serve_in_thread  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

WORDS = ["cat", "cats", "dog", "dogs", "act", "tac", "god", "do", "at", "ta", "scat", "cast", "acts", "coat", "taco"]


# -- commands for the tests: the Python API in the registry's envelope -------------------------------------------

def _check(ctx: Context, p: Mapping[str, Any]) -> dict[str, Any]:
    lex = ctx.lexicon()
    results = [{"word": w.lower(), "valid": lex.check(w)} for w in p["words"]]
    return {"command": "check", "lexicon": ctx.lexicon_spec, "results": results, "count": len(results)}


def _match(ctx: Context, p: Mapping[str, Any]) -> dict[str, Any]:
    lex = ctx.lexicon()
    words = lex.match(p["pattern"], min_priority=p["min_priority"])
    res = [{"word": w} for w in words]
    return {"command": "match", "lexicon": ctx.lexicon_spec, "pattern": p["pattern"], "results": res, "count": len(res)}


def _sleep(ctx: Context, p: Mapping[str, Any]) -> dict[str, Any]:
    """Holds the lexicon for ``seconds``; stops at the deadline when ``honour`` is set."""
    lex = ctx.lexicon()
    stop = time.monotonic() + p["seconds"]
    while time.monotonic() < stop:
        if p["honour"] and ctx.deadline is not None and time.monotonic() >= ctx.deadline:
            return {"command": "sleep", "stopped": "deadline", "results": [], "count": 0}
        time.sleep(0.005)
    res = [{"word": w} for w in lex.words()]
    return {"command": "fill", "stopped": "done", "results": res, "count": len(res)}


def _boom(ctx: Context, p: Mapping[str, Any]) -> dict[str, Any]:
    if p["kind"] == "query":
        raise QueryError("rack 'x!' has a character that is not a tile: '!'")
    if p["kind"].startswith("busy "):  # "busy 2.5": a resource short now, free in 2.5 s
        raise ResourceBusy("no memory for this table now", retry_after=float(p["kind"].split()[1]))
    raise RuntimeError("a bug")


def _info(ctx: Context, p: Mapping[str, Any]) -> dict[str, Any]:
    assert p.get("file") is None
    lex = ctx.lexicon()
    return {"command": "info", "lexicon": ctx.lexicon_spec, "word_count": len(lex), "results": []}


def _text(doc: Mapping[str, Any]) -> list[str]:
    return [r["word"] for r in doc.get("results", [])]


TEST_COMMANDS = [
    Command("check", "Check words.", (Param("words", "words", many=True, positional=True, required=True),), _check, _text),
    Command("match", "Match a pattern.", (
        Param("pattern", "pattern", positional=True, required=True),
        Param("min_priority", "lowest priority", kind="int", default=0),
        Param("sort", "order", choices=("priority", "alpha"), default="priority"),
        Param("verbose", "cli only", kind="bool", cli_only=True),
    ), _match, _text),
    Command("fill", "Sleep like a long fill.", (
        Param("seconds", "how long", kind="float", default=0.0),
        Param("honour", "stop at the deadline", kind="bool", default=True),
        Param("suggest", "a slot: suggestions, not a fill"),
    ), _sleep, _text),
    Command("slow", "Sleep, not counted as a fill.", (
        Param("seconds", "how long", kind="float", default=0.0),
        Param("honour", "stop at the deadline", kind="bool", default=True),
    ), _sleep, _text),
    Command("boom", "Fail.", (Param("kind", "query or bug", default="bug"),), _boom, _text),
    Command("build", "Writes files: never served.", (), _boom, _text, writes_files=True),
    Command("load", "Needs a client-named file: never served.", (Param("file", "a file", required=True),), _boom, _text),
    Command("info", "An optional file: not offered; answers for the chosen lexicon.",
            (Param("file", "a file"), Param("verbose", "more", kind="bool", default=False)), _info, _text),
]


@pytest.fixture(scope="module")
def lexfile(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("lex") / "small.lex"
    lexigraph.build(WORDS, path)
    return path


@pytest.fixture(scope="module")
def client(lexfile):
    app = create_app([("small", str(lexfile)), ("enable", None)], commands=TEST_COMMANDS,
                     limits=Limits(max_results=50, max_body=2000, max_query=600))
    with TestClient(app) as c:
        yield c


def oracle_match(words: list[str], pattern: str) -> set[str]:
    rx = re.compile(pattern.replace("?", ".").replace("*", ".*") + r"\Z")  # '.' is any tile in both
    return {w for w in words if rx.match(w)}


# -- commands over HTTP -----------------------------------------------------------------------------------------

def test_get_and_post_answer_the_python_api(client, lexfile):
    lex = lexigraph.open(lexfile)
    words = ["cat", "cow", "Dogs", "taco", "zzz"]
    expected = [{"word": w.lower(), "valid": lex.check(w)} for w in words]
    got = client.get("/api/check", params=[("words", w) for w in words])
    assert got.status_code == 200 and got.headers["content-type"] == "application/json"
    assert got.json()["results"] == expected
    posted = client.post("/api/check", json={"words": words})
    assert posted.json() == got.json()
    assert client.post("/api/check", json={"words": "cat"}).json()["results"] == [{"word": "cat", "valid": True}]


@given(st.lists(st.sampled_from("acdgost?*."), min_size=1, max_size=5).map("".join))
def test_match_over_http_is_the_oracle(client, pattern):
    # Each answer is compared with the Python API and with a regex oracle over the word list.
    r = client.get("/api/match", params={"pattern": pattern})
    assert r.status_code == 200, r.text
    got = [x["word"] for x in r.json()["results"]]
    assert set(got) == oracle_match(WORDS, pattern)
    assert got == lexigraph.load(WORDS).match(pattern)


def test_lexicon_by_name(client):
    small = client.get("/api/check", params={"words": "zyzzyva"}).json()
    assert small["lexicon"] == "small" and small["results"][0]["valid"] is False
    big = client.get("/api/check", params={"words": "zyzzyva", "lexicon": "enable"}).json()
    assert big["lexicon"] == "enable" and big["results"][0]["valid"] is True
    assert client.post("/api/check", json={"words": ["zyzzyva"], "lexicon": "enable"}).json() == big
    r = client.get("/api/check", params={"words": "cat", "lexicon": "nope"})
    assert r.status_code == 404
    assert r.json()["error"]["type"] == "UnknownLexicon" and "small, enable" in r.json()["error"]["message"]


def test_results_are_capped_with_a_total(client):
    # The server's limit is 50 results; the rest is counted in "total".
    doc = client.get("/api/match", params={"pattern": "*", "lexicon": "enable"}).json()
    assert doc["count"] == 50 and len(doc["results"]) == 50 and doc["truncated"] is True
    assert doc["total"] == len(lexigraph.open()) == 172820


def test_datamuse_words(client):
    enable = lexigraph.open()
    got = client.get("/words", params={"sp": "??mo??t", "max": 5, "lexicon": "enable"}).json()
    assert got == [{"word": w, "score": enable.priority(w)} for w in enable.match("??mo??t", limit=5)]
    assert [g["word"] for g in client.get("/words", params={"sp": "ca*"}).json()] == ["cast", "cat", "cats"]
    assert len(client.get("/words", params={"sp": "*", "max": 10**6, "lexicon": "enable"}).json()) == 50
    for params, status in [({}, 400), ({"sp": "c["}, 400), ({"sp": "c*", "max": "x"}, 400),
                           ({"sp": "c*", "max": 0}, 400), ({"sp": "c*", "ml": "ringing"}, 400),
                           ({"sp": "c*", "lexicon": "x"}, 404)]:
        r = client.get("/words", params=params)
        assert r.status_code == status, params
        assert set(r.json()["error"]) == {"type", "message"}


def test_index_lists_served_commands_and_lexicons(client):
    doc = client.get("/api").json()
    names = [c["name"] for c in doc["commands"]]
    assert names == ["check", "match", "fill", "slow", "boom", "info"]  # build writes files; load needs a client's file
    match = next(c for c in doc["commands"] if c["name"] == "match")
    assert [p["name"] for p in match["params"]] == ["pattern", "min_priority", "sort"]   # cli_only hidden
    assert [x["name"] for x in doc["lexicons"]] == ["small", "enable"] and doc["default_lexicon"] == "small"
    assert client.get("/api/lexicons").json()["results"][1]["words"] == 172820
    assert client.get("/api/build").status_code == 404
    assert client.get("/api/load", params={"file": "/etc/passwd"}).status_code == 404
    r = client.get("/api/info", params={"file": "/etc/passwd"})
    assert r.status_code == 400 and "unknown parameter 'file'" in r.json()["error"]["message"]
    assert client.get("/api/info").json()["word_count"] == len(WORDS)
    assert [p["name"] for p in next(c for c in doc["commands"] if c["name"] == "info")["params"]] == ["verbose"]


def test_openapi_describes_every_route(client):
    spec = client.get("/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert set(spec["paths"]) == {"/api/check", "/api/match", "/api/fill", "/api/slow", "/api/boom", "/api/info", "/words", "/api/lexicons",
                                  "/api/games", "/api/games/{id}", "/api/games/{id}/play", "/api/games/{id}/gcg",
                                  "/api/grid/read", "/api/grid/write"}
    get = spec["paths"]["/api/match"]["get"]
    assert {p["name"]: p["schema"]["type"] for p in get["parameters"]} == {
        "pattern": "string", "min_priority": "integer", "sort": "string", "lexicon": "string"}
    assert next(p for p in get["parameters"] if p["name"] == "lexicon")["schema"]["enum"] == ["small", "enable"]
    body = spec["paths"]["/api/check"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["properties"]["words"]["type"] == "array" and body["required"] == ["words"]
    # Every parameter the spec names is accepted by the route, and the route refuses what it does not name.
    for path, item in spec["paths"].items():
        assert {"200", "201"} & set(next(iter(item.values()))["responses"])


def test_the_page_and_its_files(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    for src in re.findall(r'(?:src|href)="(/static/[^"]+)"', r.text):
        assert client.get(src).status_code == 200, src
    # No request to another host: every script and style the page loads is the server's own.
    assert not re.search(r'(?:src|href)="(?:https?:)?//', r.text)


# -- errors: JSON, one message, the command line's words --------------------------------------------------------

@pytest.mark.parametrize("method,path,kw,status,type_,words", [
    ("get", "/api/match", {"params": {"pattern": "c*", "min_priority": "x"}}, 400, "QueryError", "invalid int value: 'x'"),
    ("get", "/api/match", {"params": {"pattern": "c*", "sort": "size"}}, 400, "QueryError", "invalid choice: 'size'"),
    ("get", "/api/match", {"params": {"pattern": "c*", "sprt": "alpha"}}, 400, "QueryError", "unknown parameter 'sprt'"),
    ("get", "/api/match", {"params": {"pattern": "c*", "verbose": "1"}}, 400, "QueryError", "unknown parameter 'verbose'"),
    ("get", "/api/match", {"params": [("pattern", "c*"), ("pattern", "d*")]}, 400, "QueryError", "given 2 times"),
    ("get", "/api/match", {}, 400, "QueryError", "parameter 'pattern' is required"),
    ("get", "/api/check", {}, 400, "QueryError", "parameter 'words' is required"),
    ("post", "/api/check", {"json": {"words": []}}, 400, "QueryError", "parameter 'words' is required"),
    ("post", "/api/match", {"json": {"pattern": 3}}, 400, "QueryError", "invalid str value: 3"),
    ("post", "/api/match", {"json": {"pattern": "c*", "min_priority": True}}, 400, "QueryError", "invalid int"),
    ("post", "/api/match", {"json": ["c*"]}, 400, "QueryError", "must be a JSON object"),
    ("post", "/api/match", {"content": b"{nope"}, 400, "QueryError", "not JSON"),
    ("post", "/api/match", {"content": b"\xff\xfe"}, 400, "QueryError", "not JSON"),
    ("post", "/api/match?pattern=c*", {"json": {}}, 400, "QueryError", "JSON body"),
    ("get", "/api/nope", {}, 404, "NotFound", "no command named 'nope'"),
    ("get", "/nope", {}, 404, "NotFound", "Not Found"),
    ("delete", "/api/match", {}, 405, "MethodNotAllowed", "Method Not Allowed"),
    ("get", "/api/boom", {"params": {"kind": "query"}}, 400, "QueryError", "not a tile: '!'"),
    ("get", "/api/match", {"params": {"pattern": __file__}}, 400, "QueryError", "file names on the server"),
    ("post", "/api/check", {"json": {"words": ["cat", __file__]}}, 400, "QueryError", "file names on the server"),
])
def test_errors_are_json(client, method, path, kw, status, type_, words):
    r = client.request(method.upper(), path, **kw)
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["type"] == type_ and words in err["message"], err


def test_query_errors_carry_the_python_message(client):
    # The same words as the command line, which prints str() of the same exception.
    with pytest.raises(QueryError) as e:
        lexigraph.load(WORDS).match("c[")
    r = client.get("/api/match", params={"pattern": "c["})
    assert r.status_code == 400 and r.json() == {"error": {"type": "QueryError", "message": str(e.value)}}


@pytest.mark.parametrize("seconds,header", [(2.5, "3"), (0.2, "1"), (30, "30")])
def test_a_resource_busy_now_is_503_with_retry_after(client, seconds, header):
    """A command short of a resource (ResourceBusy, from its thread in the query lane) is a 503 whose Retry-After
    is the error's, in whole seconds rounded up (at least 1), and the server goes on answering."""
    r = client.get("/api/boom", params={"kind": f"busy {seconds}"})
    assert r.status_code == 503 and r.headers["retry-after"] == header
    assert r.json() == {"error": {"type": "ResourceBusy", "message": "no memory for this table now"}}
    assert client.get("/api/check", params={"words": "cat"}).status_code == 200


def test_internal_errors_are_json_500(lexfile):
    app = create_app([("small", str(lexfile))], commands=TEST_COMMANDS)
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/api/boom")
    assert r.status_code == 500 and r.json() == {"error": {"type": "InternalError", "message": "internal error: RuntimeError"}}


def test_body_and_query_size_limits(client):
    r = client.post("/api/check", json={"words": ["cat"] * 1000})
    assert r.status_code == 413 and r.json()["error"]["type"] == "TooLarge"
    r = client.post("/api/check", content=b'{"words": [' + b'"cat",' * 400 + b'"cat"]}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    # A chunked body with no Content-Length is counted as it arrives.
    r = client.post("/api/check", content=iter([b'{"words": [', b'"cat",' * 400, b'"cat"]}']))
    assert r.status_code == 413
    r = client.get("/api/check", params=[("words", "cat")] * 100)
    assert r.status_code == 414 and r.json()["error"]["type"] == "TooLarge"
    assert client.post("/api/check", json={"words": ["cat"] * 100}).status_code == 200


# -- time, saturation: over real HTTP on the loopback interface ------------------------------------------------

@pytest.fixture()
def slow_server(lexfile):
    limits = Limits(timeout=0.4, grace=0.2, workers=3, max_pending=3, max_fills=1)
    app = create_app([("small", str(lexfile))], commands=TEST_COMMANDS, limits=limits)
    with serve_in_thread(app) as url:
        yield url, app.state.server


def _in_threads(fns):
    out: list[Any] = [None] * len(fns)

    def go(i):
        out[i] = fns[i]()

    ts = [threading.Thread(target=go, args=(i,)) for i in range(len(fns))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return out


def test_a_job_past_the_deadline_stops_and_answers(slow_server):
    url, _ = slow_server
    # The command honours Context.deadline: it stops there and hands back what it has.
    r = httpx.get(url + "/api/fill", params={"seconds": 5, "honour": "true"}, timeout=10)
    assert r.status_code == 200 and r.json()["stopped"] == "deadline"


def test_a_job_ignoring_the_deadline_gets_503_and_the_server_stays_free(slow_server):
    url, server = slow_server
    r = httpx.get(url + "/api/fill", params={"seconds": 1.5, "honour": "false"}, timeout=10)
    # A 503 (not the 200 the finished work would give) means the answer came at the limit, before the work ended.
    assert r.status_code == 503 and r.json()["error"]["type"] == "TimeLimit", r.text
    # Meanwhile other requests are answered (the overrunning work holds one thread of three).
    assert httpx.get(url + "/api/check", params={"words": "cat"}).json()["results"][0]["valid"] is True
    deadline = time.monotonic() + 10
    while server.busy and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.busy == 0  # the thread came back: the work ended and the counters dropped


def test_concurrent_fills_are_bounded(slow_server):
    url, _ = slow_server
    # max_fills=1: of two fills at once, one runs and one is refused at once.
    rs = _in_threads([lambda: httpx.get(url + "/api/fill", params={"seconds": 0.3}, timeout=10)] * 2)
    codes = sorted(r.status_code for r in rs)
    assert codes == [200, 503], [r.text for r in rs]
    busy = next(r for r in rs if r.status_code == 503).json()["error"]
    assert busy["type"] == "Busy" and "fills" in busy["message"]
    # Suggestions for one slot are not fills: they run beside a fill.
    rs = _in_threads([lambda: httpx.get(url + "/api/fill", params={"seconds": 0.3}, timeout=10),
                      lambda: (time.sleep(0.1), httpx.get(url + "/api/fill", params={"seconds": 0.1, "suggest": "1A"},
                                                          timeout=10))[1]])
    assert [r.status_code for r in rs] == [200, 200], [r.text for r in rs]


def test_saturated_pool_answers_503(slow_server):
    url, server = slow_server
    # max_pending=3: three slow commands hold every slot; the next request is refused at once, not queued.
    hold = threading.Thread(target=lambda: _in_threads(
        [lambda: httpx.get(url + "/api/slow", params={"seconds": 0.5, "honour": "false"}, timeout=10)] * 3))
    hold.start()
    deadline = time.monotonic() + 5
    while server.busy < 3 and time.monotonic() < deadline:
        time.sleep(0.005)
    r = httpx.get(url + "/api/slow", params={"seconds": 0}, timeout=10)
    # A cheap command has a lane of its own: answered while the other lane is full.
    cheap = httpx.get(url + "/api/check", params={"words": "cat"}, timeout=10)
    hold.join()
    assert r.status_code == 503 and r.json()["error"]["type"] == "Busy", r.text
    assert cheap.status_code == 200, cheap.text
    assert httpx.get(url + "/api/slow", params={"seconds": 0}).status_code == 200


# -- hot swap ---------------------------------------------------------------------------------------------------

def test_hot_swap_under_concurrent_requests(tmp_path):
    path = tmp_path / "live.lex"
    lexigraph.build(["alpha", "beta"], path)
    app = create_app([("live", str(path))], commands=TEST_COMMANDS, limits=Limits(workers=4, max_pending=64))
    failures: list[str] = []
    seen: set[bool] = set()
    stop = threading.Event()

    with serve_in_thread(app) as url:
        def hammer():
            with httpx.Client(base_url=url, timeout=10) as c:
                while not stop.is_set():
                    r = c.get("/api/check", params=[("words", "alpha"), ("words", "gamma")])
                    if r.status_code != 200:
                        failures.append(r.text)
                        continue
                    res = r.json()["results"]
                    if res[0]["valid"] is not True:
                        failures.append(f"alpha missing: {res}")
                    seen.add(res[1]["valid"])

        threads = [threading.Thread(target=hammer) for _ in range(6)]
        for t in threads:
            t.start()
        try:
            for i in range(12):
                words = ["alpha", "beta"] + (["gamma"] if i % 2 == 0 else []) + [f"w{'x' * (i % 5)}"]
                lexigraph.build(words, path)          # an atomic rename over the served file
                time.sleep(0.05)
        finally:
            stop.set()
            for t in threads:
                t.join()
        # After the last build (without gamma) every answer comes from it.
        last = httpx.get(url + "/api/check", params={"words": "gamma"}).json()
        status = httpx.get(url + "/api/lexicons").json()["results"][0]
    assert failures == []
    assert seen == {True, False}                      # both versions of the file were served
    assert last["results"][0]["valid"] is False
    assert 1 <= status["generation"] <= 12 and status["error"] is None   # swaps happen at requests


def test_in_flight_requests_finish_on_the_old_file(tmp_path):
    path = tmp_path / "live.lex"
    lexigraph.build(["old", "words"], path)
    app = create_app([("live", str(path))], commands=TEST_COMMANDS)
    with serve_in_thread(app) as url:
        out: dict[str, Any] = {}
        t = threading.Thread(target=lambda: out.setdefault("r", httpx.get(
            url + "/api/fill", params={"seconds": 0.5, "honour": "false"}, timeout=10)))
        t.start()
        time.sleep(0.2)                               # the fill holds the old lexicon now
        lexigraph.build(["new", "list", "here"], path)
        fresh = httpx.get(url + "/api/match", params={"pattern": "*"}).json()
        t.join()
    assert [r["word"] for r in fresh["results"]] == ["here", "list", "new"]
    assert [r["word"] for r in out["r"].json()["results"]] == ["old", "words"]   # read after the swap, from the old map


def test_a_bad_replacement_keeps_the_last_good_file(tmp_path):
    path = tmp_path / "live.lex"
    lexigraph.build(["good"], path)
    app = create_app([("live", str(path))], commands=TEST_COMMANDS)
    with TestClient(app) as c:
        assert c.get("/api/check", params={"words": "good"}).json()["results"][0]["valid"]
        tmp = tmp_path / "x"
        tmp.write_bytes(path.read_bytes()[:100])      # a truncated file renamed into place
        os.replace(tmp, path)
        r = c.get("/api/check", params={"words": "good"})
        assert r.status_code == 200 and r.json()["results"][0]["valid"]
        assert "live.lex" in c.get("/api/lexicons").json()["results"][0]["error"]
        # The command line's own rebuild in place.
        import subprocess
        import sys

        (tmp_path / "better.txt").write_text("better\nwords\n")
        subprocess.run([sys.executable, "-m", "lexigraph", "build", str(tmp_path / "better.txt"), "-o", str(path),
                        "--quiet"], check=True)
        assert c.get("/api/check", params={"words": "better"}).json()["results"][0]["valid"]
        assert c.get("/api/lexicons").json()["results"][0]["error"] is None


# -- the registry and the serve command ------------------------------------------------------------------------

def test_every_registered_command_is_routed_and_described():
    cmds = [c for c in all_commands() if served(c)]
    app = create_app()
    with TestClient(app) as c:
        listed = [x["name"] for x in c.get("/api").json()["commands"]]
        paths = c.get("/openapi.json").json()["paths"]
    assert listed == [x.name for x in cmds]
    assert all(f"/api/{x.name}" in paths for x in cmds)
    assert not any(c.writes_files for c in cmds)


def test_serve_options_and_start_errors(capsys, tmp_path):
    import argparse

    from lexigraph.server import add_arguments, main

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--lexicon", f"x={tmp_path / 'missing.lex'}", "--port", "0"])
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("lexigraph: error: ") and "missing.lex" in err
    args = parser.parse_args(["--timeout", "0"])
    assert main(args) == 2 and "--timeout" in capsys.readouterr().err
    bad = tmp_path / "bad.lex"
    bad.write_text("no=\n")
    args = parser.parse_args(["--lexicon", "a=x.lex", "--lexicon", "a=y.lex"])
    assert main(args) == 2


# -- the registry's commands: HTTP answers the command line's --json and the Python API ------------------------

REGISTRY_CASES = [
    ("check", {"words": ["quixotic", "qxz", "QI"]}, ["check", "quixotic", "qxz", "QI"]),
    ("words", {"prefix": "zyz"}, ["words", "--prefix", "zyz"]),
    ("words", {"length": 2, "limit": 5, "offset": 3}, ["words", "--length", "2", "--limit", "5", "--offset", "3"]),
    ("children", {"prefixes": ["dude", "qu"]}, ["children", "dude", "qu"]),
    ("children", {}, ["children"]),
    ("info", {}, ["info"]),
    ("stats", {}, ["stats"]),
    ("anagram", {"racks": ["AALNST?"], "exact": True}, ["anagram", "AALNST?", "--exact"]),
    ("anagram", {"racks": ["retains"], "sort": "length"}, ["anagram", "retains", "--sort", "length"]),
    ("anagram", {"racks": ["AALNST?"], "table": True}, ["anagram", "AALNST?", "--table"]),
    ("match", {"patterns": ["??mo??t", "quixot*"]}, ["match", "??mo??t", "quixot*"]),
    ("match", {"patterns": ["q[^u]*"], "limit": 5}, ["match", "q[^u]*", "--limit", "5"]),
    ("match", {"patterns": ["?????"], "count": True}, ["match", "?????", "--count"]),
    ("cross", {"pattern_a": "e???y", "pos_a": 2, "pattern_b": "d???", "pos_b": 1},
     ["cross", "e???y", "2", "d???", "1"]),
]


def _registry():
    return {c.name: c for c in all_commands()}


@pytest.fixture(scope="module")
def builtin_client():
    with TestClient(create_app()) as c:
        yield c


def _unpaged(doc, cli_doc):
    # The server pages every list at its max_results, so a command that pages says its "total" even when
    # the whole list fits; that one field is the only difference allowed, and only when nothing was cut.
    if "total" in doc and "total" not in cli_doc and doc["total"] == doc["count"]:
        doc = {k: v for k, v in doc.items() if k != "total"}
    return doc


@pytest.mark.parametrize("name,params,argv", REGISTRY_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(REGISTRY_CASES)])
def test_registry_command_over_http_is_the_command_lines_json(builtin_client, capsys, name, params, argv):
    if name not in _registry():
        pytest.fail(f"no {name} command in the registry")
    from lexigraph import cli

    status = cli.main([*argv, "--json"])
    assert status in (0, 1)
    expected = json.loads(capsys.readouterr().out)
    got = builtin_client.post(f"/api/{name}", json=params)
    assert got.status_code == 200, got.text
    assert _unpaged(got.json(), expected) == expected
    # The same through GET, with the query string's spelling of lists and flags.
    query = [(k, str(x).lower() if isinstance(x, bool) else str(x))
             for k, v in params.items() for x in (v if isinstance(v, list) else [v])]
    assert _unpaged(builtin_client.get(f"/api/{name}", params=query).json(), expected) == expected


def test_registry_answers_are_the_python_apis(builtin_client):
    if not {"check", "match", "anagram", "children", "diff"} <= set(_registry()):
        pytest.fail("the core commands are not in the registry")
    lex = lexigraph.open()
    doc = builtin_client.get("/api/match", params={"patterns": "??mo??t"}).json()
    assert [r["word"] for r in doc["results"]] == lex.match("??mo??t")
    doc = builtin_client.get("/api/anagram", params={"racks": "aalnst?", "exact": "1"}).json()
    assert [r["word"] for r in doc["results"]] == lex.anagram("aalnst?", mode="exact")
    doc = builtin_client.get("/api/children", params={"prefixes": "dude"}).json()
    assert ["$"] * doc["results"][0]["is_word"] + doc["results"][0]["tiles"] == lex.children("dude")
    doc = builtin_client.post("/api/check", json={"words": ["cat", "qxz"]}).json()
    assert [r["valid"] for r in doc["results"]] == [lex.check("cat"), lex.check("qxz")]


def test_diff_and_info_name_served_lexicons_only(lexfile):
    if not {"diff", "info"} <= set(_registry()):
        pytest.fail("no diff or info command in the registry")
    app = create_app([("small", str(lexfile)), ("enable", None)])
    with TestClient(app) as c:
        doc = c.get("/api/diff", params={"a": "small", "b": "enable"}).json()
        expected = lexigraph.open(lexfile).diff(lexigraph.open())
        assert doc["only_a"] == expected.to_dict()["only_a"] if "only_a" in doc else True
        r = c.get("/api/info", params={"file": "/etc/passwd"})
        assert r.status_code == 404 and r.json()["error"]["type"] == "UnknownLexicon"
        assert c.get("/api/info", params={"file": "enable"}).json()["word_count"] == 172820
        assert c.get("/api/build").status_code == 404 and c.get("/api/export").status_code == 404


def test_no_request_reads_a_file_of_the_host(lexfile, tmp_path):
    """Lists named by a search, tile sets and games are the server's lexicons and presets, never its files."""
    secret = tmp_path / "secret.txt"
    secret.write_text("hushhush\nquietly\n")
    toml = tmp_path / "game.toml"
    toml.write_text("name = 'x'\n")
    app = create_app([("small", str(lexfile)), ("enable", None)])
    with TestClient(app) as c:
        for path, params in [
            ("/api/search", {"expression": f"length 3 and not in {secret}"}),
            ("/api/search", {"expression": "length 3", "tiles": str(secret)}),
            ("/api/probability", {"words": "cat", "tiles": str(secret)}),
            ("/api/moves", {"position": "empty", "rack": "AEINRST", "game": str(toml)}),
            ("/api/score", {"position": "empty", "move": "8H CAT", "game": str(toml)}),
        ]:
            r = c.get(path, params=params)
            assert r.status_code in (400, 404), (path, params, r.status_code)
            text = r.text
            assert "hushhush" not in text and "quietly" not in text
            assert r.json()["error"]["message"].count("\n") == 0
        # served names and presets still work
        doc = c.get("/api/search", params={"expression": "length 3 and not in enable", "lexicon": "small"}).json()
        assert doc["count"] == len([w for w in WORDS if len(w) == 3 and w not in lexigraph.open()])
        assert c.get("/api/probability", params={"words": "cat", "tiles": "english"}).status_code == 200
        assert c.get("/api/moves", params={"position": "empty", "rack": "CAT", "game": "scrabble"}).status_code == 200


def test_lexigraph_serve_runs_and_answers(tmp_path):
    import socket
    import subprocess
    import sys

    path = tmp_path / "small.lex"
    lexigraph.build(WORDS, path)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "lexigraph", "serve", "--port", str(port), "--lexicon",
                             f"small={path}", "--games-db", str(tmp_path / "games.sqlite3")],
                            stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                health = httpx.get(url + "/healthz", timeout=2).json()
                break
            except httpx.HTTPError:
                assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        assert health["lexicons"] == ["small"]
        assert httpx.get(url + "/words", params={"sp": "ca*"}).json() == [
            {"word": w, "score": 50} for w in ("cast", "cat", "cats")]
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert f"serving small on http://127.0.0.1:{port}/" in err and f"games kept in {tmp_path / 'games.sqlite3'}" in err


def test_the_registrys_long_queries_are_bounded():
    if "match" not in _registry():
        pytest.fail("no match command in the registry")
    app = create_app(limits=Limits(max_results=100, timeout=1.0))
    with serve_in_thread(app) as url:
        doc = httpx.get(url + "/api/match", params={"patterns": "*"}, timeout=30).json()
        assert doc["count"] == 100 and doc["total"] == 172820
        if "fill" in _registry():
            # An open 15x15 grid: the fill stops at the server's deadline and says so, or is refused in time.
            grid = "\n".join(["." * 15] * 15) + "\n"
            r = httpx.post(url + "/api/fill", json={"grid_text": grid}, timeout=30)
            assert r.status_code in (200, 503), r.text
            if r.status_code == 200:
                assert r.json()["status"] in ("filled", "timeout", "no_fill", "not_found")
            else:
                assert r.json()["error"]["type"] == "TimeLimit"
            # The worker came back: the next request is answered.
            assert httpx.get(url + "/api/check", params={"words": "cat"}, timeout=30).status_code == 200


def test_openapi_passes_a_validator(builtin_client):
    validator = pytest.importorskip("openapi_spec_validator", reason="openapi-spec-validator is not installed")
    validator.validate(builtin_client.get("/openapi.json").json())


def test_a_word_list_is_compiled_once_and_not_followed(tmp_path):
    src = tmp_path / "words.txt"
    src.write_text("apple\npear\n")
    with TestClient(create_app([("list", str(src))], commands=TEST_COMMANDS)) as c:
        assert c.get("/api/check", params={"words": "pear"}).json()["results"][0]["valid"]
        src.write_text("plum\n")
        assert c.get("/api/check", params={"words": "pear"}).json()["results"][0]["valid"]
        assert c.get("/api/lexicons").json()["results"][0]["generation"] == 0


def test_hot_swap_under_the_registrys_commands(tmp_path):
    needed = {"moves", "match", "fill", "search"}
    reg = _registry()
    if not {"check", "match"} <= set(reg):
        pytest.fail("the core commands are not in the registry")
    enable = lexigraph.open()
    words = [w for n in (2, 3, 4, 5, 6, 7) for w in enable.words(length=n)[::7]]
    path = tmp_path / "live.lex"
    lexigraph.build(words, path)
    calls = [("check", {"words": ["cat", "qxz"]}), ("match", {"patterns": ["c??e"]})]
    if "moves" in reg:
        calls.append(("moves", {"position": "empty", "rack": "AERST?S", "top": 5}))
    if "fill" in reg:
        calls.append(("fill", {"grid_text": "...\n...\n...\n", "suggest": "1A", "limit": 5}))
    if "search" in reg:
        calls.append(("search", {"expression": "length 5", "limit": 5}))
    failures: list[str] = []
    stop = threading.Event()
    with serve_in_thread(create_app([("live", str(path))])) as url:
        def hammer(k: int) -> None:
            with httpx.Client(base_url=url, timeout=30) as c:
                i = k
                while not stop.is_set():
                    name, body = calls[i % len(calls)]
                    i += 1
                    r = c.post(f"/api/{name}", json=body)
                    if r.status_code != 200:
                        failures.append(f"{name}: {r.status_code} {r.text[:200]}")

        threads = [threading.Thread(target=hammer, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        try:
            for i in range(6):
                lexigraph.build(words[i % 3::2], path)
                time.sleep(0.1)
        finally:
            stop.set()
            for t in threads:
                t.join()
        generation = httpx.get(url + "/api/lexicons").json()["results"][0]["generation"]
    assert failures == [] and generation >= 1
    assert needed & set(reg) <= {name for name, _ in calls}


def test_the_endgame_is_served(lexfile):
    """``/api/endgame`` answers the solver's document (GET and POST); a bad position is one JSON error."""
    from lexigraph.commands.endgame import EXAMPLE
    from lexigraph.scrabble.endgame import solve_endgame
    from lexigraph.scrabble.position import Position

    app = create_app([("enable", None)])
    expected = solve_endgame(lexigraph.open(), Position.from_cgp(EXAMPLE))
    with TestClient(app) as c:
        for doc in (c.get("/api/endgame", params={"position": EXAMPLE}).json(),
                    c.post("/api/endgame", json={"position": EXAMPLE, "time_limit": 20}).json()):
            assert doc["command"] == "endgame" and doc["complete"] is True
            assert doc["value"] == expected.value and doc["best"]["notation"] == expected.best.notation
        r = c.post("/api/endgame", json={"position": EXAMPLE.replace("GILN/ER", "GILN/EE")})
        assert r.status_code == 400 and "unseen" in r.json()["error"]["message"]
        r = c.post("/api/endgame", json={"position": EXAMPLE, "time_limit": -5})
        assert r.status_code == 400 and "time_limit must be from 0 to 86400, not -5" in r.json()["error"]["message"]
