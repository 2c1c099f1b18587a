"""The sim command (commands/sim.py): its document against the API, workers, the server's limits, hostile input on
the command line (one line on stderr, exit 2)."""

from __future__ import annotations

import json
import time

import pytest

from lexigraph.cli.main import main
from lexigraph.commands import Context, all_commands
from lexigraph.commands.sim import SIM
from lexigraph.errors import LexiconError
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.simulation import simulate


def test_registered():
    assert "sim" in {c.name for c in all_commands()}


def test_document_matches_the_api(enable):
    params = {"position": "empty", "rack": "QUIZ", "candidates": 3, "iterations": 40, "seed": 5, "workers": 1}
    doc = SIM.run(Context(), params)
    result = simulate(enable, Position(Game.preset("scrabble"), racks=["QUIZ", ""]), leaves=None, candidates=3,
                      iterations=40, seed=5)
    assert [r["move"]["notation"] for r in doc["results"]] == [p.move.notation for p in result.ranked]
    assert [r["mean_spread"] for r in doc["results"]] == [round(p.mean_spread, 4) for p in result.ranked]
    assert doc["best"] == result.best.to_dict() and doc["complete"] and doc["count"] == 3
    two = SIM.run(Context(), {**params, "workers": 2})
    assert two["results"] == doc["results"] and two["workers"] == 2
    lines = list(SIM.text(doc))
    assert "complete" in lines[0] and lines[2].endswith(doc["results"][0]["move"]["notation"])


def test_served_on_one_worker_within_the_deadline():
    served = Context(options={"files": False}, deadline=time.monotonic() + 60)
    doc = SIM.run(served, {"position": "empty", "rack": "AEINRST", "candidates": 2, "iterations": 10,
                           "workers": 8})
    assert doc["workers"] == 1 and doc["complete"]
    late = Context(options={"files": False}, deadline=time.monotonic() + 0.001)
    doc = SIM.run(late, {"position": "empty", "rack": "AEINRST", "candidates": 2, "iterations": 1_000_000})
    assert not doc["complete"] and doc["iterations"] >= 1 and doc["notes"]


@pytest.mark.parametrize("argv, words", [
    (["--candidates", "0"], "--candidates"),
    (["--iterations", "100000000"], "--iterations"),
    (["--plies", "11"], "--plies"),
    (["--workers", "0"], "--workers"),
    (["--time-limit", "-1"], "time"),
    (["--rack", "QQQQ"], "Q"),
    (["--rack", "AEINRSTU"], "rack"),
    (["--rack", ""], "no tiles"),
])
def test_hostile_input_one_line_exit_2(capsys, argv, words):
    code = main(["sim", "empty", "--rack", "AEINRST", *argv])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and words in err


def test_no_unseen_tiles_refused():
    # the whole bag on the board and the rack: nothing left to draw
    game = Game.preset("scrabble").resized(15)
    pos = Position(game, racks=["A", ""])
    tiles = [c for c, n in enumerate(game.counts_by_code()) for _ in range(n)]
    tiles.remove(game.alphabet.code("a"))
    for square, code in enumerate(tiles):
        pos.place(square // 15, square % 15, code or 1, code == 0)
    with pytest.raises(LexiconError, match="unseen"):
        SIM.run(Context(), {"position": pos.to_cgp(), "candidates": 1, "iterations": 1, "workers": 1})


def test_json_on_the_command_line(capsys):
    code = main(["sim", "empty", "--rack", "QUIZ", "--candidates", "2", "--iterations", "8", "--workers", "1",
                 "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["command"] == "sim" and doc["iterations"] == 8


# -- the opponent's rack dealt from the inferred leave (--infer) ------------------------------------------------

QUIZ_AFTER = "15/15/15/15/15/15/15/5QUIZ6/15/15/15/15/15/15/15 AEIRSTV/ 0/44 0"
#: After the opponent's six-tile opening: one tile kept, 26 leaves to value (cheap on the Python engine too).
ZEBRAS_AFTER = "15/15/15/15/15/15/15/3ZEBRAS6/15/15/15/15/15/15/15 DGLNOOU/ 0/52 0"


def test_infer_matches_the_api(enable):
    from lexigraph.scrabble.inference import infer_last_move

    params = {"position": ZEBRAS_AFTER, "candidates": 2, "iterations": 16, "seed": 3, "workers": 1,
              "infer": "8D ZEBRAS", "infer_margin": 8.0}
    doc = SIM.run(Context(), params)
    pos = Position.from_cgp(ZEBRAS_AFTER, Game.preset("scrabble"))
    inference = infer_last_move(enable, pos, "8D ZEBRAS", margin=8.0)
    result = simulate(enable, pos, leaves=None, candidates=2, iterations=16, seed=3, infer=inference)
    assert [r["mean_spread"] for r in doc["results"]] == [round(p.mean_spread, 4) for p in result.ranked]
    assert doc["inferred"]["move"] == "8D ZEBRAS" and doc["inferred"]["margin"] == 8.0
    assert doc["inferred"]["leaves"] == [leave.as_dict() for leave in inference.leaves[:5]]
    plain = SIM.run(Context(), {k: v for k, v in params.items() if not k.startswith("infer")})
    assert "inferred" not in plain and plain["results"] != doc["results"]
    assert any("suggests they kept" in line for line in SIM.text(doc))


@pytest.mark.parametrize("argv, words", [
    (["--infer", "8A QUIZ"], "does not hold"),          # not the move on this board
    (["--infer", "8F QUAZ"], "does not hold"),
    (["--infer", "9Z XX"], "move must"),
    (["--infer", "-9"], "exchange"),
    (["--infer", ""], "--infer"),
    (["--infer", "8F QUIZ", "--infer-margin", "-1"], "--infer-margin"),
    (["--infer", "8F QUIZ", "--infer-margin", "nan"], "--infer-margin"),
])
def test_infer_hostile_input_one_line_exit_2(capsys, argv, words):
    code = main(["sim", QUIZ_AFTER, "--candidates", "2", "--iterations", "4", "--workers", "1", *argv])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and words in err


def test_infer_over_http():
    pytest.importorskip("starlette", reason="the server needs the serve extra")
    pytest.importorskip("httpx", reason="the API tests need httpx")
    import warnings

    with warnings.catch_warnings():  # Starlette >= 1.x suggests httpx2; httpx still drives its test client
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from lexigraph.server import create_app
    from lexigraph.server.app import Limits

    with TestClient(create_app([("enable", None)], limits=Limits(timeout=300))) as c:  # the Python engine is slow
        body = {"position": ZEBRAS_AFTER, "candidates": 2, "iterations": 8, "infer": "8D ZEBRAS"}
        ok = c.post("/api/sim", json=body)
        assert ok.status_code == 200 and ok.json()["inferred"]["move"] == "8D ZEBRAS"
        for bad in ("8A ZEBRAS", "9Z XX", 7):
            refused = c.post("/api/sim", json={**body, "infer": bad})
            assert refused.status_code == 400, (bad, refused.text)
            assert refused.json()["error"]["message"].count("\n") == 0
        assert c.post("/api/sim", json={**body, "infer_margin": -3}).status_code == 400
