"""POST /api/analyze: a game record's analysis in win chances over HTTP (the command's document, the schema's
fields), a simulation budget within the request's deadline, and bad input answered as a JSON error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from lexigraph.server import create_app  # noqa: E402
from lexigraph.server.app import Limits  # noqa: E402

GCG = """#player1 ann Ann
#player2 bob Bob
>ann: AEINRST 8D RETAINS +66 66
>bob: EIOPSXY 9E SOX +39 39
>ann: ABDEGLO 10F GOLBD +30 96
>ann: ABDEGLO -- -30 66
>bob: EIPYAGT -AGT +0 39
>ann: ABDEGLO (time) -10 56
"""


@pytest.fixture(scope="module")
def client():
    # a long limit: the heavy lane's worker opens the lexicon and the tables first, on a machine that may be loaded
    with TestClient(create_app([("enable", None)], limits=Limits(timeout=300.0))) as c:
        yield c


def test_analyze_answers_win_chances_and_a_summary(client):
    r = client.post("/api/analyze", json={"gcg": GCG, "top": 1})
    assert r.status_code == 200, r.text[:300]
    doc = r.json()
    assert [t["turn"] for t in doc["results"]] == [1, 2, 3, 5]
    assert doc["results"][2]["challenged"] and doc["results"][2]["phony"]
    for t in doc["results"]:
        assert 0 <= t["win_before"] <= 1 and 0 <= t["win_after"] <= 1 and t["win_lost"] >= 0
        assert t["mistake"] in ("none", "inaccuracy", "mistake", "blunder") and t["method"] == "static"
    assert [s["player"] for s in doc["summary"]] == ["ann", "bob"]
    jsonschema = pytest.importorskip("jsonschema")
    import referencing

    schemas = Path(__file__).resolve().parents[2] / "docs" / "schema"
    registry = referencing.Registry().with_resources(
        (s["$id"], referencing.Resource.from_contents(s)) for s in
        (json.loads(p.read_text()) for p in schemas.glob("*.json")))
    jsonschema.Draft202012Validator(json.loads((schemas / "analyze.json").read_text()),
                                    registry=registry).validate(doc)


def test_analyze_simulates_within_a_play_out_budget(client):
    r = client.post("/api/analyze", json={"gcg": GCG, "top": 1, "iterations": 8, "candidates": 2})
    assert r.status_code == 200, r.text[:300]
    turns = r.json()["results"]
    assert all(t["method"] == "simulation" and t["alternatives"] for t in turns)
    assert all(t["win_lost"] == 0 for t in turns if t["best_move"] == t["play"])


@pytest.mark.parametrize("body, needle", [
    ({"gcg": GCG, "budget": "soon"}, "budget"),
    ({"gcg": GCG, "budget": -1}, "budget"),
    ({"gcg": GCG, "win_table": "/etc/passwd"}, ""),
    ({"gcg": ">a: AB 8H AB +x 4"}, "not a number"),
])
def test_bad_analysis_requests_are_json_errors(client, body, needle):
    r = client.post("/api/analyze", json=body)
    assert 400 <= r.status_code < 500, r.text[:300]
    assert needle in r.json()["error"]["message"]
