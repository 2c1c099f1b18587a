"""The fill command, through Command.run (the command line builds on the same description)."""

from __future__ import annotations

import itertools
import json

import pytest

from lexigraph.commands import Context, all_commands
from lexigraph.commands.fill import EXIT_NO_FILL, FILL, exit_status
from lexigraph.errors import LexiconError
from lexigraph.crossword.formats import grid_from_text, ipuz, read_grid, write_grid



@pytest.fixture
def grid_file(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("....\n....\n....\n")
    return path


def run(**params):
    return FILL.run(Context(), params)


def test_registered():
    assert FILL in all_commands()
    names = {p.name for p in FILL.params}
    assert {"grid", "min_priority", "seed", "timeout", "allow_repeats", "region", "suggest", "output"} <= names


def test_fill_document_and_output(enable, fill_oracle, grid_file, tmp_path):
    before = grid_file.read_bytes()
    out = tmp_path / "out.ipuz"
    doc = run(grid=str(grid_file), seed=4, output=str(out))
    assert doc["command"] == "fill" and doc["status"] == "filled"
    assert doc["count"] == len(doc["results"]) == 7
    assert exit_status(doc) == 0 and FILL.found(doc)
    assert grid_file.read_bytes() == before
    filled = read_grid(out)
    assert filled == grid_from_text("\n".join(doc["grid"]))
    assert fill_oracle.verify(enable, read_grid(grid_file), filled) == []
    assert {r["word"] for r in doc["results"]} == {"".join(filled.word(s)) for s in filled.slots()}
    json.dumps(doc)
    lines = list(FILL.text(doc))
    assert lines[:3] == doc["grid"] and lines[-1].startswith("filled 7 slots")


def test_no_fill_has_its_own_exit_status(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("qz.\n...\n")
    doc = run(grid=str(path))
    assert doc["status"] == "no_fill" and exit_status(doc) == EXIT_NO_FILL == 3
    assert doc["culprits"] == ["1A"]
    assert list(FILL.text(doc)) == ["no fill exists: no word fits 1A (QZ?)"]


def test_timeout_status(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("\n".join(["......"] * 6))
    doc = run(grid=str(path), timeout=1e-9)
    assert doc["status"] == "timeout" and exit_status(doc) == 1


def test_suggest_and_region(grid_file):
    doc = run(grid=str(grid_file), suggest="2d", limit=5)
    assert doc["suggest"] == "2D" and doc["count"] == 5
    scores = [r["score"] for r in doc["results"]]
    assert scores == sorted(scores, reverse=True)
    assert set(doc["results"][0]["crossings"]) == {"1A", "5A", "6A"}
    doc = run(grid=str(grid_file), region="1A")
    assert doc["status"] == "filled" and [r["slot"] for r in doc["results"]] == ["1A"]
    assert doc["grid"][1:] == ["....", "...."]


def test_http_grid_text():
    doc = FILL.run(Context(), {"grid_text": "c..\n...\n..."})
    assert doc["status"] == "filled"
    doc = FILL.run(Context(), {"grid_text": json.dumps(ipuz.render(grid_from_text("c..\n...\n...")))})
    assert doc["status"] == "filled"


@pytest.mark.parametrize(
    "params",
    [
        {"grid": "/nonexistent/g.txt"},
        {"grid_text": "..\n."},
        {"grid_text": "..\n..", "suggest": "7A"},
        {"grid_text": "..\n..", "min_priority": 300},
        {"grid_text": "..\n..", "region": "9,9:10,10"},
        {"grid_text": "{not json"},
        {},
    ],
)
def test_errors_are_lexicon_errors(params):
    with pytest.raises(LexiconError):
        FILL.run(Context(), params)


def test_output_never_overwrites_the_input(grid_file):
    before = grid_file.read_bytes()
    with pytest.raises(LexiconError, match="is the input .*refusing to overwrite"):
        run(grid=str(grid_file), output=str(grid_file))
    assert grid_file.read_bytes() == before


def test_docs_examples_run():
    import doctest
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "docs" / "autofill.md"
    failed, attempted = doctest.testfile(str(path), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert attempted > 10 and failed == 0


def test_documents_follow_the_schema(grid_file):
    jsonschema = pytest.importorskip("jsonschema")
    from pathlib import Path

    schema = json.loads((Path(__file__).resolve().parents[2] / "docs" / "schema" / "fill.json").read_text())
    docs = [
        run(grid=str(grid_file)),
        run(grid=str(grid_file), suggest="1A", limit=3),
        FILL.run(Context(), {"grid_text": "qz.\n..."}),
    ]
    for doc in docs:
        jsonschema.validate(json.loads(json.dumps(doc)), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"command": "fill", "lexicon": "x", "results": [], "count": 0, "status": "maybe"}, schema)


# -- the command line ------------------------------------------------------------------------------


def cli(capsys, *argv):
    from lexigraph.cli.main import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_exit_statuses(capsys, tmp_path):
    code, out, err = cli(capsys, "fill", "--grid-text", "#..../...../...../...../....#", "--seed", "7")
    assert code == 0 and out.splitlines()[0] == "#TAVS" and err == ""
    code, out, err = cli(capsys, "fill", "--grid-text", "jq.../.....")
    assert code == 3 and out.strip() == "no fill exists: no word fits 1A (JQ???)"
    code, out, err = cli(capsys, "fill", "--grid-text", "/".join(["......"] * 6), "--timeout", "0.000001")
    assert code == 1 and "time limit" in out
    code, out, err = cli(capsys, "fill", "--grid-text", "ab/.%")
    assert code == 2 and err.count("\n") == 1 and err.startswith("lexigraph: error:") and "'%'" in err
    code, out, err = cli(capsys, "fill", str(tmp_path / "missing.txt"))
    assert code == 2 and "no such grid file" in err


def test_cli_json_output_file_and_suggest(capsys, tmp_path, enable, fill_oracle):
    grid = tmp_path / "g.ipuz"
    write_grid(grid_from_text("c...\n....\n...."), grid)
    before = grid.read_bytes()
    out_path = tmp_path / "filled.puz"
    code, out, err = cli(capsys, "fill", str(grid), "--seed", "2", "-o", str(out_path), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["status"] == "filled" and doc["output"] == str(out_path)
    assert grid.read_bytes() == before
    filled = read_grid(out_path)
    assert filled == grid_from_text("\n".join(doc["grid"]))
    assert fill_oracle.verify(enable, read_grid(grid), filled) == []  # the command line's default lexicon
    code, out, err = cli(capsys, "fill", str(grid), "--suggest", "1D", "--limit", "4", "--jsonl")
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and len(lines) == 4 and all(r["word"].startswith("c") for r in lines)


# -- rules, several fills, counts and the time limit on the command line (issue 25; issue 21's items) -----------


def test_cli_time_limit_is_on_by_default_and_none_lifts_it(capsys, monkeypatch):
    from lexigraph.commands import fill as fill_command

    seen = []
    real = fill_command.parse_timeout
    monkeypatch.setattr(fill_command, "parse_timeout", lambda v: seen.append(real(v)) or seen[-1])
    assert cli(capsys, "fill", "--grid-text", "..../..../....")[0] == 0
    assert cli(capsys, "fill", "--grid-text", "..../..../....", "--timeout", "none")[0] == 0
    assert cli(capsys, "fill", "--grid-text", "..../..../....", "--timeout", "2.5")[0] == 0
    assert seen == [fill_command.DEFAULT_TIMEOUT, None, 2.5]
    for bad in ("0", "-1", "soon", "inf"):
        code, out, err = cli(capsys, "fill", "--grid-text", "..../..../....", "--timeout", bad)
        assert code == 2 and err.count("\n") == 1 and "--timeout" in err, bad


def test_cli_refuses_bad_rules_in_one_line(capsys):
    for argv in (["--improve", "nan"], ["--improve", "inf"], ["--max-shared", "1"], ["--fills", "0"],
                 ["--min-by-slot", "9A:40"], ["--min-by-length", "x:40"], ["--differ", "0"], ["--theme", "a1b"]):
        code, out, err = cli(capsys, "fill", "--grid-text", "..../..../....", *argv)
        assert code == 2 and err.count("\n") == 1 and err.startswith("lexigraph: error:"), argv


def test_cli_region_without_a_whole_slot_says_so(capsys):
    code, out, err = cli(capsys, "fill", "--grid-text", "..../..../....", "--region", "r1c1:r1c1")
    lines = out.splitlines()
    assert code == 0 and lines[0][0] != "." and lines[0][1:] == "..."
    assert lines[-1] == "filled 0 slots; no slot lies wholly in the region, so no word is complete"


def test_rules_fills_and_counts_documents(enable, fill_oracle, grid_file):
    jsonschema = pytest.importorskip("jsonschema")
    from pathlib import Path

    schema = json.loads((Path(__file__).resolve().parents[2] / "docs" / "schema" / "fill.json").read_text())
    doc = run(grid=str(grid_file), fills=3, differ=2, max_shared=3, theme=["oboe"], min_by_length="3:0")
    jsonschema.validate(json.loads(json.dumps(doc)), schema)
    assert doc["status"] == "filled" and len(doc["fills"]) == 3
    assert doc["fills"][0]["grid"] == doc["grid"] and doc["fills"][0]["results"] == doc["results"]
    before = read_grid(grid_file)
    for f in doc["fills"]:
        filled = grid_from_text("\n".join(f["grid"]))
        assert fill_oracle.verify(enable, before, filled, max_shared=3, theme=["oboe"]) == []
    assert [r["word"] for r in doc["results"] if r["theme"]] == ["oboe"]
    # oboe and ergo both: two of the three rows, any word in the third, the downs words, nothing shared
    both = run(grid=str(grid_file), max_shared=3, theme=["oboe,ergo"])
    fours = [w for w in enable if len(w) == 4]
    shares = lambda a, b: any(a[i : i + 3] in b for i in range(len(a) - 2))  # noqa: E731
    exists = False
    for first, second in itertools.permutations(range(3), 2):
        for w in fours:
            rows = [w] * 3
            rows[first], rows[second] = "oboe", "ergo"
            entries = rows + ["".join(r[c] for r in rows) for c in range(4)]
            exists = exists or (all(e in enable for e in entries) and len(set(entries)) == 7 and not any(
                shares(a, b) for i, a in enumerate(entries) for b in entries[i + 1 :] if {a, b} != {"oboe", "ergo"}))
    assert both["status"] == ("filled" if exists else "no_fill")
    lines = list(FILL.text(doc))
    assert lines[0].startswith("fill 1 of 3: mean") and lines[-1].startswith("filled 7 slots")
    counts = run(grid=str(grid_file), counts=True)
    jsonschema.validate(json.loads(json.dumps(counts)), schema)
    assert [r["slot"] for r in counts["results"]] == [s.name for s in read_grid(grid_file).slots()]
    assert {r["slot"]: r["candidates"] for r in counts["results"]} == {s["slot"]: s["candidates"] for s in doc["slots"]}
    assert exit_status(counts) == 0 and list(FILL.text(counts))[0] in ("4444", "3444", "4443", "3333", "4433")
    none = FILL.run(Context(), {"grid_text": "qz.\n...", "counts": True})
    jsonschema.validate(json.loads(json.dumps(none)), schema)
    assert none["status"] == "no_fill" and exit_status(none) == EXIT_NO_FILL
