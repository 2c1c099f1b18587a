"""The study commands on the command line: exit status, JSON, hooks column, lists, standard input."""

from __future__ import annotations

import io
import json

import pytest

import lexigraph
from lexigraph.cli.main import main


pytestmark = pytest.mark.usefixtures("private_cache")  # each test its own cache folder


def run(capsys, *argv):
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
def test_exit_status(capsys, argv, status):
    code, out, err = run(capsys, *argv)
    assert code == status, (out, err)
    if status == 2:
        assert err.startswith("lexigraph: error:") and len(err.strip().splitlines()) == 1


def test_search_json_and_text_agree_with_the_api(capsys):
    lex = lexigraph.open()
    expr = "length 7 and probability 1-200 and back-hook s"
    code, out, _ = run(capsys, "search", expr, "--sort", "probability", "--limit", "10", "--json")
    doc = json.loads(out)
    assert code == 0 and [r["word"] for r in doc["results"]] == lex.search(expr, sort="probability", limit=10)
    assert doc["total"] == len(lex.search(expr))
    code, out, _ = run(capsys, "search", expr, "--sort", "probability", "--limit", "10")
    assert out.split() == lex.search(expr, sort="probability", limit=10)
    code, out, _ = run(capsys, "search", expr, "--sort", "probability", "--limit", "10", "--hooks")
    lines = out.splitlines()
    for line, word in zip(lines, lex.search(expr, sort="probability", limit=10)):
        h = lex.hooks(word)
        assert line.strip() == str(h)


def test_search_with_a_list_and_a_tile_set(capsys, tmp_path):
    mine = tmp_path / "mine.txt"
    mine.write_text("aa\nab\nzz\nqi\n")
    code, out, _ = run(capsys, "search", "length 2 and not in mine", "--list", f"mine={mine}", "--limit", "3")
    assert code == 0 and out.split() == ["ad", "ae", "ag"]
    code, out, err = run(capsys, "search", "points 20-", "-L", str(mine))
    assert code == 2 and "no tile set" in err
    code, out, _ = run(capsys, "search", "points 11-", "-L", str(mine), "--tiles", "english")
    assert code == 0 and out.split() == ["qi", "zz"]


def test_hooks_reads_standard_input(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("care\naa\n"))
    code, out, _ = run(capsys, "hooks", "-")
    assert code == 0 and out.splitlines() == ["s ·CARE· drstx", "b AA hls"]
