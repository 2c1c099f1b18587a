"""The design command on the command line and over HTTP: the JSON of docs/schema/design.json, its exit statuses,
one clear error for bad input, and POST /api/design answering as the command does."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from lexigraph.cli.main import main

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "schema" / "design.json"
THEME = "pancakes,waffles,oatmeal"


def _validate(doc: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text())).validate(doc)


def test_cli_json_and_text(capsys):
    code = main(["design", "--theme", THEME, "--proposals", "1", "--seed", "2", "--json"])
    doc = json.loads(capsys.readouterr()[0])
    _validate(doc)
    assert code == {"filled": 0, "unfilled": 1}[doc["status"]]
    best = doc["results"][0]
    assert sorted(t["word"] for t in best["theme"]) == sorted(THEME.split(","))
    pattern = best["pattern"]
    for t in best["theme"]:  # the row and column count from 1, the slot's letters are the word's
        r, c = t["row"] - 1, t["col"] - 1
        assert pattern[r][c: c + len(t["word"])].lower() == t["word"]
    main(["design", "--theme", THEME, "--proposals", "1", "--seed", "2"])
    out = capsys.readouterr()[0]
    assert out.startswith("proposal 1: ") and "pancakes" in out


def test_cli_no_grid_and_errors(capsys):
    code = main(["design", "--theme", "breakfastinbed,omeletstation,coffeeandtoast,orangejuicebar,scrambledeggs,"
                 "frenchtoasts,hashbrowns", "--json", "--timeout", "20"])
    doc = json.loads(capsys.readouterr()[0])
    _validate(doc)
    assert code == 3 and doc["status"] == "no_grid" and doc["reason"] and doc["count"] == 0
    for argv, message in [(["--size", "abc"], "size"), (["--symmetry", "diagonal"], "diagonal"),
                          (["--theme", "ab"], "2 tiles"), (["--central", "pancakes"], "central entry")]:
        code = main(["design", *argv])
        err = capsys.readouterr()[1]
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_http_design():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from lexigraph.server import create_app
    from lexigraph.server.app import Limits

    # The heavy lane's worker (niced) on a loaded machine: a limit that leaves it time to start and answer.
    with TestClient(create_app(limits=Limits(timeout=120.0))) as client:
        r = client.post("/api/design", json={"theme": THEME.split(","), "proposals": 1, "seed": 2, "timeout": 30})
        assert r.status_code == 200, r.text
        doc = r.json()
        _validate(doc)
        assert doc["status"] in ("filled", "unfilled", "no_grid")
        assert all(sorted(t["word"] for t in p["theme"]) == sorted(THEME.split(",")) for p in doc["results"])
        r = client.post("/api/design", json={"theme": ["ab"]})
        assert r.status_code == 400 and "2 tiles" in r.json()["error"]["message"]
        r = client.post("/api/design", json={"symmetry": "diagonal"})
        assert r.status_code == 400


def test_progress_counts_the_time_limit():
    from lexigraph.commands import Context
    from lexigraph.commands.design import DESIGN

    seen: list[tuple] = []

    def record(stage, done, total, unit="", detail="", note=""):
        seen.append((stage, done, total, unit, detail))

    DESIGN.run(Context(progress=record), {"theme": THEME.split(","), "proposals": 1, "seed": 2, "timeout": 30})
    assert seen and all(s[0] == "design" and s[3] == "ms" and 0 <= s[1] <= s[2] for s in seen)
    assert any(s[4].startswith("pattern") for s in seen) and any(s[4].startswith("filling") for s in seen)
    assert [s[1] for s in seen] == sorted(s[1] for s in seen)  # never going down
