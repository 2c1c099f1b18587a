"""``match --hooks`` and ``anagram --hooks``: the hooks column, in text, JSON and JSON lines.

Each word's column is held to ``lex.hooks(word)`` and to a brute-force oracle (a set of words: which
tiles make a word in front or behind, whether the word stays one without its first or last tile).
"""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph.cli.main import main
from lexigraph.commands import Context, all_commands
from lexigraph.study.hooks import INNER

COMMANDS = {c.name: c for c in all_commands()}
SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schema"
LETTERS = string.ascii_lowercase


pytestmark = pytest.mark.usefixtures("private_cache")  # each test its own cache folder


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    return out


def oracle(words: set[str], word: str) -> dict[str, object]:
    """The hooks field of ``word`` found by trying every tile against a set of words."""
    return {
        "front": "".join(t for t in LETTERS if t + word in words),
        "back": "".join(t for t in LETTERS if word + t in words),
        "inner_front": len(word) >= 2 and word[1:] in words,
        "inner_back": len(word) >= 2 and word[:-1] in words,
    }


def oracle_of(lex: lexigraph.Lexicon, word: str) -> dict[str, object]:
    """The oracle on the built-in lexicon: the only words that matter are one tile longer or shorter."""
    near = [t + word for t in LETTERS] + [word + t for t in LETTERS] + [word[1:], word[:-1]]
    valid = lex.check_many(near).tolist()
    return oracle({w for w, ok in zip(near, valid) if ok and w}, word)


def line_of(h: dict[str, object], word: str) -> str:
    """A hooks column line without its alignment, as study tools print it."""
    shown = f"{INNER if h['inner_front'] else ''}{word.upper()}{INNER if h['inner_back'] else ''}"
    return f"{h['front']} {shown} {h['back']}".strip()


# -- the built-in lexicon ---------------------------------------------------------------------------------------

MATCH_CASES = [["c?re"], ["??mo??t"], ["q[^u]*", "--limit", "6"], ["a?", "x?"],
               ["?????", "--limit", "40", "--offset", "7"], ["cat*", "--min-priority", "1", "--limit", "30"]]
ANAGRAM_CASES = [["acer", "--exact"], ["retains*", "--sort", "length"], ["aalnst?", "--exact"], ["top", "dog"],
                 ["qi?", "--min-length", "2"]]


def check_json(lex, doc, argv):
    assert doc["results"], argv
    for r in doc["results"]:
        assert r["hooks"] == lex.hooks(r["word"]).to_dict(), r
        assert r["hooks"] == oracle_of(lex, r["word"]), r


def check_text(lex, out, doc, tagged):
    lines = out.splitlines()
    results = doc["results"]
    assert len(lines) == len(results)
    width = max(len(r["hooks"]["front"]) for r in results)
    for line, r in zip(lines, results):
        if tagged:
            tag, _, line = line.partition("\t")
            assert tag == r.get("pattern", r.get("rack"))
        assert line.strip() == str(lex.hooks(r["word"])) == line_of(oracle_of(lex, r["word"]), r["word"])
        # the front hooks are right-aligned in one column, so every word starts at the same place
        if width:
            assert line[width] == " " and line[:width] == r["hooks"]["front"].rjust(width)
        assert line[width + 1 if width else 0 :].lstrip(INNER).startswith(r["word"].upper())


@pytest.mark.parametrize("command, argv", [("match", a) for a in MATCH_CASES] + [("anagram", a) for a in ANAGRAM_CASES])
def test_hooks_column_is_each_words_hooks(capsys, enable, command, argv):
    doc = json.loads(run(capsys, command, *argv, "--hooks", "--json"))
    check_json(enable, doc, argv)
    plain = json.loads(run(capsys, command, *argv, "--json"))
    assert [{k: v for k, v in r.items() if k != "hooks"} for r in doc["results"]] == plain["results"]
    tagged = len({r.get("pattern", r.get("rack")) for r in doc["results"]}) > 1
    check_text(enable, run(capsys, command, *argv, "--hooks"), doc, tagged)
    lines = [json.loads(line) for line in run(capsys, command, *argv, "--hooks", "--jsonl").splitlines()]
    assert lines == doc["results"]


def test_outputs_validate_against_the_schemas(capsys):
    jsonschema = pytest.importorskip("jsonschema")
    referencing = pytest.importorskip("referencing")
    schemas = [json.loads(p.read_text()) for p in SCHEMAS.glob("*.json")]
    registry = referencing.Registry().with_resources(
        [(s["$id"], referencing.Resource.from_contents(s)) for s in schemas])
    for command, argv in [("match", ["c?re", "--scores"]), ("anagram", ["acer?", "--exact", "--show-blanks"])]:
        schema = json.loads((SCHEMAS / f"{command}.json").read_text())
        validator = jsonschema.Draft202012Validator(schema, registry=registry)
        doc = json.loads(run(capsys, command, *argv, "--hooks", "--json"))
        assert all("hooks" in r for r in doc["results"])
        validator.validate(doc)
        doc["results"][0]["hooks"]["middle"] = "x"
        with pytest.raises(jsonschema.ValidationError):
            validator.validate(doc)


def test_show_blanks_keeps_the_blank_tiles_in_lower_case(capsys, enable):
    doc = json.loads(run(capsys, "anagram", "acer?", "--exact", "--show-blanks", "--hooks", "--json"))
    lines = run(capsys, "anagram", "acer?", "--exact", "--show-blanks", "--hooks").splitlines()
    plain = run(capsys, "anagram", "acer?", "--exact", "--show-blanks").splitlines()
    assert plain == [r["display"] for r in doc["results"]] and len(lines) == len(plain)
    assert any(d != d.upper() for d in plain)
    for line, r in zip(lines, doc["results"]):
        h = r["hooks"]
        shown = f"{INNER if h['inner_front'] else ''}{r['display']}{INNER if h['inner_back'] else ''}"
        assert line.strip() == f"{h['front']} {shown} {h['back']}".strip()
        assert line.upper().strip() == str(enable.hooks(r["word"])).upper()


def test_scores_follow_the_column(capsys, enable):
    lines = run(capsys, "match", "c?re", "--hooks", "--scores").splitlines()
    words = enable.match("c?re")
    assert len(lines) == len(words)
    for line, w in zip(lines, words):
        column, _, score = line.partition("\t")
        assert column.strip() == str(enable.hooks(w)) and score == str(enable.priority(w))


def test_hooks_do_not_change_counts_or_exit_status(capsys):
    assert run(capsys, "match", "?????", "--count", "--hooks") == run(capsys, "match", "?????", "--count")
    assert main(["match", "zzzz?", "--hooks"]) == 1 and main(["anagram", "zzq", "--exact", "--hooks"]) == 1
    assert capsys.readouterr().out == ""


def test_hooks_and_table_exclude_each_other(capsys):
    code = main(["anagram", "aalnst?", "--table", "--hooks"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("lexigraph: error:") and "--hooks" in err and len(err.strip().splitlines()) == 1


# -- generated lexicons -----------------------------------------------------------------------------------------

#: Word sets over a..e; "abcde" is always in, so every tile is a tile of the lexicon.
small_words = st.sets(st.text(alphabet="abcde", min_size=2, max_size=5), max_size=60).map(lambda s: s | {"abcde"})


@given(small_words, st.sampled_from(["??", "???", "????", "a*", "*e", "?b*"]))
def test_match_hooks_on_generated_lexicons(words, pattern):
    lex = lexigraph.load(sorted(words))
    ctx = Context(opener=lambda spec: lex)
    doc = COMMANDS["match"].run(ctx, {"patterns": [pattern], "hooks": True})
    assert sorted(r["word"] for r in doc["results"]) == sorted(lex.match(pattern))
    for r in doc["results"]:
        assert r["hooks"] == oracle(words, r["word"])
    lines = list(COMMANDS["match"].text(doc))
    assert [line.strip() for line in lines] == [line_of(r["hooks"], r["word"]) for r in doc["results"]]


@given(small_words, st.text(alphabet="abcde?", min_size=1, max_size=5))
def test_anagram_hooks_on_generated_lexicons(words, rack):
    lex = lexigraph.load(sorted(words))
    ctx = Context(opener=lambda spec: lex)
    doc = COMMANDS["anagram"].run(ctx, {"racks": [rack], "hooks": True})
    for r in doc["results"]:
        assert r["hooks"] == oracle(words, r["word"])
    lines = list(COMMANDS["anagram"].text(doc))
    assert [line.strip() for line in lines] == [line_of(r["hooks"], r["word"]) for r in doc["results"]]
