"""Every registered command's JSON output validates against docs/schema/<command>.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lexigraph.cli.main import main
from lexigraph.commands import all_commands

jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schema"
COMMANDS = {c.name: c for c in all_commands()}


def _registry():
    resources = []
    for path in SCHEMAS.glob("*.json"):
        schema = json.loads(path.read_text())
        resources.append((schema["$id"], referencing.Resource.from_contents(schema)))
    return referencing.Registry().with_resources(resources)


REGISTRY = _registry()


def validator(name: str):
    schema = json.loads((SCHEMAS / f"{name}.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, registry=REGISTRY)


def run_json(capsys, argv, mode="--json"):
    code = main([*argv, mode])
    out, err = capsys.readouterr()
    assert code in (0, 1), (argv, err)
    return code, out


# Invocations of the core commands; every other registered command is run through its examples.
CASES = {
    "check": [["check", "dog", "qxz"], ["check", "QI"]],
    "words": [["words", "--prefix", "zyz"], ["words", "--length", "2", "--limit", "3", "--offset", "1"],
              ["words", "--prefix", "qz"]],
    "children": [["children", "dude"], ["children"], ["children", "dude", "qz"]],
    "info": [["info"]],
    "stats": [["stats"]],
    "anagram": [["anagram", "AALNST?", "--exact"], ["anagram", "top", "--show-blanks"],
                ["anagram", "aalnst?", "--table"], ["anagram", "cat", "dog", "--sort", "length"]],
    "match": [["match", "??mo??t"], ["match", "??mo??t", "--count"], ["match", "q*", "--limit", "2", "--scores"],
              ["match", "zzzz?"]],
    "cross": [["cross", "e???y", "2", "d???", "1"], ["cross", "zzz", "0", "qqq", "0"]],
    "build": "files",
    "fill": "files",
    "export": "files",
    "diff": "files",
    "autoplay": "files",
    "leaves": "files",
    "lexicons": "files",
    "quiz": "files",
    "cardbox": "files",
    "playability": "files",
    "winpct": "files",
}


@pytest.fixture
def files(tmp_path, registry_file):
    a = tmp_path / "a.txt"
    a.write_text("cat\ndog\nDog\nx1\nemu\n")
    b = tmp_path / "b.txt"
    b.write_text("cat\nemu\nyak\n")
    grid = tmp_path / "grid.txt"
    grid.write_text("...\n...\n...\n")
    return {
        "build": [["build", str(a), "-o", str(tmp_path / "a.lex")]],
        "export": [["export", str(a), "--format", "text", "-o", str(tmp_path / "a.out")]],
        "diff": [["diff", str(a), str(b)], ["diff", str(a), str(b), "--only-a"], ["diff", str(a), str(a)]],
        "fill": [["fill", str(grid)], ["fill", str(grid), "--suggest", "1A"]],
        "autoplay": [["autoplay", "-n", "4", "--workers", "1"],
                     ["autoplay", "-n", "2", "--workers", "1", "--gcg", str(tmp_path / "games")]],
        "leaves": [["leaves", "build", "-o", str(tmp_path / "l.klv2"), "--generations", "10", "--max-length", "2",
                    "--workers", "1"]],
        "lexicons": [["lexicons", "add", "tiny", str(a)], ["lexicons", "list"], ["lexicons", "remove", "TINY"]],
        "quiz": [["quiz", "--search", "length 7 and probability 1-50", "--limit", "3", "--no-input", "--store",
                  str(tmp_path / "study.sqlite")],
                 ["quiz", "--type", "hooks", "care", "--no-input", "--store", str(tmp_path / "study.sqlite")]],
        "cardbox": [["cardbox", "import", str(a), "--store", str(tmp_path / "study.sqlite")],
                    ["cardbox", "stats", "--store", str(tmp_path / "study.sqlite")],
                    ["cardbox", "due", "--store", str(tmp_path / "study.sqlite")],
                    ["cardbox", "export", str(tmp_path / "out.txt"), "--format", "zyzzyva", "--store",
                     str(tmp_path / "study.sqlite")]],
        "playability": [["playability", "build", "--games", "4", "--workers", "1", "-o", str(tmp_path / "p1.tsv")],
                        ["playability", "build", "--games", "4", "--seed", "2", "--workers", "1", "-o",
                         str(tmp_path / "p2.tsv")],
                        ["playability", "top", str(tmp_path / "p1.tsv"), "--limit", "5"],
                        ["playability", "compare", str(tmp_path / "p1.tsv"), str(tmp_path / "p2.tsv")]],
        "winpct": [["winpct", "build", "-o", str(tmp_path / "w.lxwin"), "-n", "2", "--workers", "1"],
                   ["winpct", "build", "-o", str(tmp_path / "w.csv"), "-n", "2", "--workers", "1"]],
    }


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_a_valid_schema(name):
    assert (SCHEMAS / f"{name}.json").exists(), f"docs/schema/{name}.json is missing"
    validator(name)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_output_validates(name, capsys, files, tmp_path, monkeypatch, example_argvs):
    v = validator(name)
    envelope = validator("envelope")
    case = CASES.get(name)
    argvs = files[name] if case == "files" else case
    tried: dict[tuple[str, ...], str] = {}  # an example's --json document, from the run that showed it runs
    if argvs is None:
        monkeypatch.chdir(tmp_path)
        argvs = []
        for argv in example_argvs(COMMANDS[name], skip_substitutions=True):
            argv = [a for a in argv if a not in ("--json", "--jsonl")]
            code = main([*argv, "--json"])
            out, _ = capsys.readouterr()
            if code in (0, 1):
                argvs.append(argv)
                tried[tuple(argv)] = out
        assert argvs, f"none of {name}'s examples runs against the built-in lexicon; add one that does"
    for argv in argvs:
        out = tried[tuple(argv)] if tuple(argv) in tried else run_json(capsys, argv)[1]
        doc = json.loads(out)
        envelope.validate(doc)
        v.validate(doc)
        assert doc["command"] == name and doc["count"] == len(doc["results"])
        for r in doc["results"]:
            if "word" in r:
                assert r["word"] == r["word"].lower()
        if COMMANDS[name].writes_files:
            continue
        _, out = run_json(capsys, argv, "--jsonl")
        lines = [json.loads(line) for line in out.splitlines()]
        assert lines == doc["results"]


def test_error_document(capsys):
    code = main(["match", "[ab", "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and err.startswith("lexigraph: error:")
    doc = json.loads(out)
    validator("error").validate(doc)
    assert doc["error"]["type"] == "QueryError"


def test_schemas_reject_a_wrong_shape():
    with pytest.raises(jsonschema.ValidationError):
        validator("check").validate({"command": "check", "lexicon": "x", "invalid": 0, "count": 1,
                                     "results": [{"word": "dog", "valid": "yes"}]})
    with pytest.raises(jsonschema.ValidationError):
        validator("children").validate({"command": "children", "lexicon": "x", "count": 1,
                                        "results": [{"prefix": "dude", "tiles": ["$", "d"]}]})
