"""The ``peg`` command on the command line and over HTTP: the library's answer, one clear error for bad input."""

from __future__ import annotations

import json

import pytest

from lexigraph.cli.main import main
from lexigraph.commands.peg import EXAMPLE


def test_the_command_line_answers_a_document(capsys):
    assert main(["peg", EXAMPLE, "--candidates", "2", "--time-limit", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["command"] == "peg" and doc["bag"] == 1 and doc["draws"] == 8 and doc["scenarios"] == 7
    assert doc["count"] == 3 and doc["results"][-1]["notation"] == "pass" or any(
        r["notation"] == "pass" for r in doc["results"])
    assert all(r["total"] == sum(r[k] for k in ("wins", "draws", "losses")) for r in doc["results"])


@pytest.mark.parametrize("argv, message", [
    (["peg", "empty", "--rack", "QUIZ"], "bag holds 89 tiles"),
    (["peg", EXAMPLE, "--candidates", "0"], "candidates"),
    (["peg", EXAMPLE, "--time-limit", "-1"], "time"),
    (["peg", EXAMPLE.replace("EIIIIIZ/", "/")], "no tiles"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and message in err, err


def test_peg_is_served():
    starlette = pytest.importorskip("starlette.testclient")
    from lexigraph.server import create_app

    with starlette.TestClient(create_app([("enable", None)])) as c:
        doc = c.post("/api/peg", json={"position": EXAMPLE, "candidates": 1, "time_limit": 1}).json()
        assert doc["command"] == "peg" and doc["bag"] == 1
        r = c.post("/api/peg", json={"position": "empty", "rack": "QUIZ"})
        assert r.status_code == 400 and "pre-endgame" in r.json()["error"]["message"]
