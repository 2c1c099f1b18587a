"""The fill command's constraints on the command line and over HTTP: the same answers as the Python API, the JSON
of docs/schema/fill.json, one clear error for bad input."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import lexigraph
from lexigraph.cli.main import main
from lexigraph.crossword.fill import Rules, count_fills, fill, stem
from lexigraph.crossword.formats import grid_from_text

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "schema" / "fill.json"
GRID = "c..../.#.#./....."


def _run(capsys, *argv: str) -> tuple[int, dict]:
    code = main(["fill", "--grid-text", GRID, *argv, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else {"stderr": err})


def _validate(doc: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text())).validate(doc)


def test_cli_constraints_match_the_python_api(capsys, tmp_path):
    lex = lexigraph.open()
    grid = grid_from_text(GRID.replace("/", "\n"))
    blocklist = tmp_path / "never.txt"
    first = fill(lex, grid, seed=4)
    banned = [w.word for w in first.words][:2]
    blocklist.write_text("# never these\n" + "\n".join(banned) + "\n")
    code, doc = _run(capsys, "--seed", "4", "--blocklist", str(blocklist), "--slot", "4A=s*", "--distinct-stems")
    _validate(doc)
    rules = Rules(blocklist=frozenset(banned), slot_patterns={"4A": "s*"}, distinct_stems=True)
    expected = fill(lex, grid, seed=4, rules=rules)
    assert code == 0 and doc["grid"] == [
        "".join(v or "." for v in row).upper() for row in expected.grid.cells]
    got = {r["slot"]: r["word"] for r in doc["results"]}
    assert not set(banned) & set(got.values()) and got["4A"].startswith("s")
    assert len({stem(w) for w in got.values()}) == len(got)


def test_cli_fixed_word_and_locked_cells(capsys):
    code, doc = _run(capsys, "--slot", "1A=coala", "--seed", "1")
    assert code == 0 and doc["grid"][0] == "COALA" and doc["results"][0]["fixed"]
    main(["fill", "--grid-text", "cobra/.#.#./.....", "--locked", "1A", "--seed", "2", "--json"])
    doc = json.loads(capsys.readouterr()[0])
    assert doc["status"] == "filled" and doc["grid"][0] == "COBRA"


def test_cli_count_fills(capsys):
    lex = lexigraph.open()
    grid = grid_from_text(GRID.replace("/", "\n"))
    code, doc = _run(capsys, "--count-fills", "--region", "1A", "--cap", "100000")
    _validate(doc)
    expected = count_fills(lex, grid, region="1A", cap=100000)
    assert code == 0 and doc["exact"] and doc["fills_counted"] == expected.count > 0
    code, doc = _run(capsys, "--count-fills", "--cap", "3")
    _validate(doc)
    assert doc["fills_counted"] == 3 and not doc["exact"]
    main(["fill", "--grid-text", GRID, "--count-fills", "--cap", "3"])
    assert capsys.readouterr()[0].strip() == "at least 3 fills (the cap)"
    code, doc = _run(capsys, "--count-fills", "--slot", "1A=cq???")
    assert code == 3 and doc["fills_counted"] == 0 and doc["status"] == "no_fill"


@pytest.mark.parametrize("argv, message", [
    (["--slot", "1A"], "SLOT=PATTERN"),
    (["--slot", "9A=c*"], "no slot"),
    (["--slot", "1A=cq"], "has 2 tiles"),
    (["--slot", "1A=c?"], "spells 2 tiles"),
    (["--blocklist", "/nonexistent/never.txt"], "no such file"),
    (["--locked", "r9c9:r9c9"], "not inside"),
    (["--count-fills", "--cap", "0"], "cap"),
])
def test_cli_bad_constraints_are_one_line(capsys, argv, message):
    code = main(["fill", "--grid-text", GRID, *argv])
    out, err = capsys.readouterr()
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_http_fill_takes_the_constraints():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from lexigraph.server import create_app
    from lexigraph.server.app import Limits

    # The heavy lane's worker (niced) on a loaded machine: a limit that leaves it time to start and answer.
    with TestClient(create_app(limits=Limits(timeout=120.0))) as client:
        r = client.post("/api/fill", json={"grid_text": GRID, "seed": 4, "block": ["cobra"], "slot": ["1A=co*"],
                                           "distinct_stems": True})
        assert r.status_code == 200, r.text
        doc = r.json()
        _validate(doc)
        words = {x["slot"]: x["word"] for x in doc["results"]}
        assert words["1A"].startswith("co") and words["1A"] != "cobra"
        r = client.post("/api/fill", json={"grid_text": "cobra/.#.#./.....", "locked": "1A", "count_fills": True,
                                           "cap": 5})
        assert r.status_code == 200 and r.json()["fills_counted"] == 5
        r = client.post("/api/fill", json={"grid_text": GRID, "slot": ["1A=z?"]})
        assert r.status_code == 400 and "spells 2 tiles" in r.json()["error"]["message"]
        r = client.post("/api/fill", json={"grid_text": GRID, "blocklist": "/etc/passwd"})
        assert r.status_code == 400
