"""The study commands (search, hooks, probability) run through Command.run, and the examples of docs/search.md."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

import lexigraph
from lexigraph.commands import Context, all_commands
from lexigraph.commands.study import HOOKS, PROBABILITY, SEARCH
from lexigraph.errors import QueryError
from lexigraph.study.search import search_ids

ROOT = Path(__file__).resolve().parents[2]


def run(cmd, **params):
    doc = cmd.run(Context(), params)
    json.dumps(doc)  # JSON-ready
    assert doc["command"] == cmd.name and doc["lexicon"] == "ENABLE"
    assert doc["count"] == len(doc["results"])
    return doc


def test_registered():
    names = {c.name for c in all_commands()}
    assert {"search", "hooks", "probability"} <= names


def test_search_document_matches_the_api(enable):
    doc = run(SEARCH, expression="length 7 and probability 1-200 and back-hook s", sort="probability", limit=5)
    assert [r["word"] for r in doc["results"]] == enable.search(
        "length 7 and probability 1-200 and back-hook s", sort="probability", limit=5)
    assert doc["total"] == len(enable.search("length 7 and probability 1-200 and back-hook s"))
    first = doc["results"][0]
    assert set(first) >= {"word", "length", "priority", "alphagram", "anagrams", "probability_rank", "combinations", "points"}
    p = enable.probability(first["word"])
    assert (first["probability_rank"], first["combinations"], first["points"]) == (p.rank, p.combinations, p.points)
    assert first["alphagram"] == "".join(sorted(first["word"]))
    assert first["anagrams"] == len(enable.anagram(first["word"], mode="exact"))


def test_search_hooks_and_groups(enable):
    doc = run(SEARCH, expression="anagram aeprs or anagram eilv", group=True, hooks=True)
    words = [r["word"] for r in doc["results"]]
    assert sorted(words) == sorted(enable.search("anagram aeprs or anagram eilv"))
    for r in doc["results"]:
        h = enable.hooks(r["word"])
        assert r["hooks"] == h.to_dict()
    groups = [r["group"] for r in doc["results"]]
    assert groups == sorted(groups)  # members of a group are adjacent
    lines = list(SEARCH.text(doc))
    assert "" in lines  # a blank line between the two groups
    assert any(line.strip().startswith("cgjprt APERS") for line in lines)
    assert len([line for line in lines if line]) == len(words)


def test_search_without_a_tile_set_leaves_the_probability_fields_out():
    lex = lexigraph.open(["cat", "act", "tac"])
    doc = SEARCH.run(Context(opener=lambda spec: lex), {"expression": "anagram act"})
    assert [r["word"] for r in doc["results"]] == ["act", "cat", "tac"]
    assert "probability_rank" not in doc["results"][0] and doc["results"][0]["anagrams"] == 3
    doc = SEARCH.run(Context(opener=lambda spec: lex), {"expression": "anagram act", "tiles": "english"})
    assert doc["results"][0]["points"] == 5


def test_search_limits_and_lists(tmp_path):
    ctx = Context(max_results=3)
    doc = SEARCH.run(ctx, {"expression": "length 2"})
    assert doc["count"] == 3 and doc["total"] == 96
    mine = tmp_path / "mine.txt"
    mine.write_text("aa\nab\nzz\n")
    doc = run(SEARCH, expression="length 2 and in mine", lists=[f"mine={mine}"])
    assert [r["word"] for r in doc["results"]] == ["aa", "ab"]
    doc = run(SEARCH, expression=f"length 2 and in '{mine}'")
    assert doc["total"] == 2
    with pytest.raises(QueryError, match="NAME=FILE"):
        run(SEARCH, expression="length 2", lists=["mine"])


def test_hooks_command(enable):
    doc = run(HOOKS, words=["care", "qi", "AA"])
    assert doc["results"][0] == {"word": "care", "valid": True, "front": "s", "back": "drstx",
                                 "inner_front": True, "inner_back": True}
    assert doc["results"][1]["valid"] is False and doc["results"][2]["word"] == "aa"
    assert list(HOOKS.text(doc)) == ["s ·CARE· drstx", "  QI  (not a word)", "b AA hls"]
    assert HOOKS.found(doc)
    assert not HOOKS.found(run(HOOKS, words=["qi"]))
    with pytest.raises(QueryError):
        run(HOOKS, words=[])


def test_probability_command(enable):
    doc = run(PROBABILITY, words=["retains", "aeinrst"], blanks=0)
    r = doc["results"][0]
    assert r["combinations"] == enable.probability("retains", blanks=0).combinations and r["blanks"] == 0
    assert doc["results"][1]["probability_rank"] is None
    lines = list(PROBABILITY.text(doc))
    assert lines[0].startswith("retains\tAEINRST\trank ") and "not a word" in lines[1]
    assert PROBABILITY.found(doc)
    with pytest.raises(QueryError, match="0, 1 or 2"):
        run(PROBABILITY, words=["cat"], blanks=5)


def test_schema_files_describe_the_documents():
    """The documents are validated against these files by tests/test_json_schema.py."""
    for name in ("search", "hooks", "probability"):
        schema = json.loads((ROOT / "docs" / "schema" / f"{name}.json").read_text())
        assert schema["properties"]["command"]["const"] == name


def test_found_ids_and_paging(enable):
    found = search_ids(enable.store, enable.engine, "length 3 and contains z", sort="length",
                       offset=2, limit=3)
    assert found.total == len(enable.search("length 3 and contains z"))
    assert enable.store.words_of_ids(found.ids) == enable.search("length 3 and contains z")[2:5]


def test_docs_search_examples_run():
    result = doctest.testfile(str(ROOT / "docs" / "search.md"), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.attempted > 20 and result.failed == 0
