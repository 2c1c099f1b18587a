"""The study commands (commands/study.py: search, hooks, probability) through Command.run and on the command line,
and the examples of docs/search.md."""

from __future__ import annotations

import doctest
import io
import json
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.cli.main import main
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
    lex = lexigraph.open(["cañ", "ñac", "nac"])  # ñ: not one of the letters a-z, so no default tile set
    doc = SEARCH.run(Context(opener=lambda spec: lex), {"expression": "length 3"})
    assert [r["word"] for r in doc["results"]] == ["cañ", "nac", "ñac"]
    assert "probability_rank" not in doc["results"][0] and doc["tile_set"] is None
    doc = SEARCH.run(Context(opener=lambda spec: lex), {"expression": "anagram nac", "tiles": "spanish"})
    assert doc["results"][0]["points"] == 5 and doc["tile_set"] == "spanish"


def test_search_and_probability_default_to_the_english_tile_set():
    """An a-z lexicon with no tile set answers from the English tile set (the bag the English games play its
    tiles from), as if --tiles english were given, with no warning."""
    lex = lexigraph.open(["cat", "act", "tac", "zzz"])
    ctx = Context(opener=lambda spec: lex)
    doc = SEARCH.run(ctx, {"expression": "anagram act"})
    assert doc["tile_set"] == "english" and "warnings" not in doc
    given = SEARCH.run(ctx, {"expression": "anagram act", "tiles": "english"})
    assert doc["results"] == given["results"] and given["tile_set"] == "english"
    doc = SEARCH.run(ctx, {"expression": "points 30-"})
    assert [r["word"] for r in doc["results"]] == ["zzz"] and "warnings" not in doc
    doc = PROBABILITY.run(ctx, {"words": ["cat"]})
    assert doc["tile_set"] == doc["results"][0]["tile_set"] == "english" and "warnings" not in doc
    assert doc["results"][0] == PROBABILITY.run(ctx, {"words": ["cat"], "tiles": "english"})["results"][0]


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
    with pytest.raises(QueryError, match="blanks must be from 0 to 2, not 5"):
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


# -- the command line -------------------------------------------------------------------------------



def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "argv, status",
    [
        (["search", "length 2 and contains x"], 0),
        (["search", "length 9 and contains qqq"], 1),
        (["search", "length 7 and"], 2),
        (["search", "lenght 7"], 2),
        (["search", "length 2", "--sort", "random"], 2),
        (["search", "length 2", "--blanks", "3", "--sort", "probability"], 2),
        (["search", "in /no/such/file.txt"], 2),
        (["hooks", "care"], 0),
        (["hooks", "qi"], 1),
        (["probability", "retains"], 0),
        (["probability", "aeinrst"], 1),
        (["probability", "c@t"], 2),
    ],
)
def test_exit_status(private_cache, capsys, argv, status):
    code, out, err = cli(capsys, *argv)
    assert code == status, (out, err)
    if status == 2:
        assert err.startswith("lexigraph: error:") and len(err.strip().splitlines()) == 1


def test_search_json_and_text_agree_with_the_api(private_cache, capsys):
    lex = lexigraph.open()
    expr = "length 7 and probability 1-200 and back-hook s"
    code, out, _ = cli(capsys, "search", expr, "--sort", "probability", "--limit", "10", "--json")
    doc = json.loads(out)
    assert code == 0 and [r["word"] for r in doc["results"]] == lex.search(expr, sort="probability", limit=10)
    assert doc["total"] == len(lex.search(expr))
    code, out, _ = cli(capsys, "search", expr, "--sort", "probability", "--limit", "10")
    assert out.split() == lex.search(expr, sort="probability", limit=10)
    code, out, _ = cli(capsys, "search", expr, "--sort", "probability", "--limit", "10", "--hooks")
    lines = out.splitlines()
    for line, word in zip(lines, lex.search(expr, sort="probability", limit=10)):
        h = lex.hooks(word)
        assert line.strip() == str(h)


def test_search_with_a_list_and_a_tile_set(private_cache, capsys, tmp_path):
    mine = tmp_path / "mine.txt"
    mine.write_text("aa\nab\nzz\nqi\n")
    code, out, _ = cli(capsys, "search", "length 2 and not in mine", "--list", f"mine={mine}", "--limit", "3")
    assert code == 0 and out.split() == ["ad", "ae", "ag"]
    code, out, err = cli(capsys, "search", "points 20-", "-L", str(mine))  # the English tile set
    assert code == 0 and out.split() == ["zz"] and err == ""
    code, out, _ = cli(capsys, "search", "points 11-", "-L", str(mine), "--tiles", "english")
    assert code == 0 and out.split() == ["qi", "zz"]


def test_hooks_reads_standard_input(private_cache, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("care\naa\n"))
    code, out, _ = cli(capsys, "hooks", "-")
    assert code == 0 and out.splitlines() == ["s ·CARE· drstx", "b AA hls"]


# -- hostile search queries: generated and mutated, in a child with a memory cap ----------------------

_QUERY_SEEDS = [
    "length 7 and (contains q or contains z)",
    "anagram retains or subanagram aeinrst",
    "pattern c?t and not in other and vowels 1-",
    "points 10- and probability 1-100 and priority >=50",
    "front-hook s and back-hook s and inner-hook and takes-prefix un and takes-suffix ed",
    "distinct 3 and anagrams 2- and length -5",
]
_QUERY_CHARS = "()'\" -<>=0123456789aeinrst?*[]^,.#andornot\t"


NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


@settings(max_examples=4, deadline=None, phases=NO_SHRINK)  # a child per example: no slow shrinking
@given(data=st.data())
def test_mutated_search_queries_give_words_or_a_lexicon_error(data, capped, mutated):
    lex = lexigraph.load(["cat", "act", "tac", "retains", "stainer", "quiz", "zoo", "scat", "cats", "unset"])
    inputs = [data.draw(mutated(_QUERY_SEEDS, _QUERY_CHARS)) for _ in range(25)]

    def refuse(name: object) -> None:
        raise QueryError(f"no lists here ({str(name)[:20]})")

    def check(query: str) -> None:
        search_ids(lex.store, lex.engine, query, limit=5, open_list=refuse)
        search_ids(lex.store, lex.engine, query, sort="probability", limit=3, open_list=refuse)
        SEARCH.run(Context(opener=lambda spec: lex), {"expression": query, "limit": 3, "hooks": True})

    capped(check, inputs)
