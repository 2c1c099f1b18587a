"""The ``infer`` command on the command line and over HTTP: the library's answer, one clear error for bad input."""

from __future__ import annotations

import json
import re

import pytest

import lexigraph
from lexigraph.cli.main import main
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.inference import infer
from lexigraph.scrabble.position import Position

BEFORE = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0"


def test_the_command_line_answers_the_library(capsys):
    expected = infer(lexigraph.open(), Position.from_cgp(BEFORE, Game.preset("scrabble")), "8H RETAIN")
    assert main(["infer", BEFORE, "8H RETAIN", "--top", "30", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["exact"] and doc["leave_size"] == 1 and doc["consistent"] == len(expected.leaves)
    assert [(r["leave"], r["probability"]) for r in doc["results"]] == [
        (x.leave, round(x.probability, 6)) for x in expected.leaves[:30]]
    assert sum(r["probability"] for r in doc["results"]) == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("argv, message", [
    (["infer", BEFORE, "8H QQ"], "holds 2 of Q"),
    (["infer", BEFORE, "-9"], "exchange gives back"),
    (["infer", BEFORE, "8H RETAIN", "--margin", "-1"], "margin"),
    (["infer", BEFORE.replace(" / ", " AB/ "), "8H RETAIN"], "leave their rack"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert re.search(message, err), err


def test_infer_is_served():
    starlette = pytest.importorskip("starlette.testclient")
    from lexigraph.server import create_app

    with starlette.TestClient(create_app([("enable", None)])) as c:
        doc = c.post("/api/infer", json={"position": BEFORE, "move": "8H RETAIN", "top": 3}).json()
        assert doc["command"] == "infer" and doc["count"] == min(3, doc["consistent"]) > 0
        r = c.post("/api/infer", json={"position": BEFORE, "move": "-9"})
        assert r.status_code == 400 and "exchange" in r.json()["error"]["message"]
