"""``lexigraph quiz`` line by line (answers, next, quitting, resuming from the store), ``lexigraph cardbox`` (stats,
due, import and export of plain and Zyzzyva lists), ``judge`` and ``why`` on the command line, and bad input as
one line on standard error with exit 2."""

from __future__ import annotations

import io
import json

import pytest

import lexigraph
from lexigraph.cli.main import main
from lexigraph.study.cardbox import CardBox
from lexigraph.study.lists import read_list

pytest.importorskip("fsrs", reason="the cardbox needs the study extra: pip install 'lexigraph[study]'")


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))  # never the user's own cardbox
    return str(tmp_path / "study.sqlite")


def run(capsys, monkeypatch, argv, stdin=""):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_quiz_line_by_line_quit_and_resume(capsys, monkeypatch, store):
    enable = lexigraph.open()
    code, out, err = run(capsys, monkeypatch, ["quiz", "care", "retains", "dog", "--store", store, "--json"],
                         "acre\nCARE\nacre\nrace\n\nxyz\n:q\nnever read\n")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["answered"] == 2 and doc["right"] == 1 and doc["wrong"] == 1 and not doc["finished"]
    assert [m["word"] for m in doc["missed"]] == enable.anagram("aeinrst", mode="exact")
    assert "right: acre" in err and "already: acre" in err and "wrong: xyz" in err and "--resume" in err
    box = CardBox(store)
    kept = box.quiz(doc["id"])
    assert kept is not None and kept.position == 2 and kept.wrong == ["xyz"]
    box.close()
    code, out, err = run(capsys, monkeypatch, ["quiz", "--resume", "last", "--store", store, "--json"], "god\ndog\n")
    doc2 = json.loads(out)
    assert code == 0 and doc2["id"] == doc["id"] and doc2["finished"] and doc2["answered"] == 3
    assert doc2["results"][-1]["correct"] is False and doc2["results"][-1]["wrong"] == ["xyz"]
    code, out, err = run(capsys, monkeypatch, ["quiz", "--resume", "last", "--store", store])
    assert code == 2 and err.startswith("lexigraph: error: no quiz to resume") and err.count("\n") == 1
    code, out, err = run(capsys, monkeypatch, ["cardbox", "stats", "--store", store, "--json"])
    stats = json.loads(out)
    assert stats["total"] == 3 and stats["results"][0]["type"] == "anagram"


def test_a_quiz_ended_early_is_not_resumed(capsys, monkeypatch, store):
    code, out, err = run(capsys, monkeypatch, ["quiz", "care", "dog", "--store", store, "--json", "--no-input"])
    key = json.loads(out)["id"]
    with CardBox(store) as box:
        quiz = box.quiz(key)
        assert quiz is not None
        quiz.end(now=1.0)
        box.save_quiz(quiz, now=1.0)
    code, out, err = run(capsys, monkeypatch, ["quiz", "--resume", key, "--store", store], "acre\n")
    assert code == 2 and "was ended" in err and err.count("\n") == 1, err
    code, out, err = run(capsys, monkeypatch, ["quiz", "--resume", "last", "--store", store])
    assert code == 2 and "no quiz to resume" in err
    code, out, err = run(capsys, monkeypatch, ["quiz", "--resume", key, "--store", store, "--no-input", "--json"])
    assert code == 0 and json.loads(out)["ended"]


def test_ctrl_d_keeps_the_quiz(capsys, monkeypatch, store):
    code, out, err = run(capsys, monkeypatch, ["quiz", "--type", "hooks", "care", "--store", store], "scare\n")
    assert code == 0 and "not finished" in out and "1/6" in err
    box = CardBox(store)
    assert box.latest_quiz("default", "ENABLE").found == ["scare"]
    box.close()


def test_cardbox_import_export_and_due(capsys, monkeypatch, store, tmp_path):
    plain = tmp_path / "sevens.txt"
    plain.write_text("# my sevens\nretains\nNASTIER+\nsatire 12\nqxz1\n")
    code, out, err = run(capsys, monkeypatch, ["cardbox", "import", str(plain), "--store", store])
    assert code == 0 and "added 2 of 2" in out and "left out" in err
    zyz = tmp_path / "zyz.txt"
    zyz.write_text("Q: ACT\nA: ACT\nA:  CAT# [n]\nQ: AEIRST\nA: SATIRE\n")
    code, out, err = run(capsys, monkeypatch, ["cardbox", "import", str(zyz), "--store", store, "--json"])
    assert json.loads(out)["results"][0] == {"type": "anagram", "questions": 2, "added": 1, "skipped": 0}
    code, out, err = run(capsys, monkeypatch, ["cardbox", "due", "--store", store])
    assert [line.split("\t")[1] for line in out.splitlines()] == ["AEINRST", "AEIRST", "ACT"]
    out_file = tmp_path / "out.txt"
    code, out, err = run(capsys, monkeypatch, ["cardbox", "export", str(out_file), "--format", "zyzzyva",
                                               "--store", store])
    back = read_list(out_file.read_text())
    enable = lexigraph.open()
    assert back.questions == ["AEINRST", "AEIRST", "ACT"]
    assert set(back.words) == {w for q in back.questions for w in enable.anagram(q.lower(), mode="exact")}
    code, out, err = run(capsys, monkeypatch, ["cardbox", "export", "-", "--store", store])
    assert out.split() == sorted(enable.anagram("aeinrst", mode="exact")) + \
        enable.anagram("aeirst", mode="exact") + enable.anagram("act", mode="exact")
    # a due quiz asks the imported questions
    code, out, err = run(capsys, monkeypatch, ["quiz", "--due", "--store", store, "--json"], "")
    assert json.loads(out)["total"] == 3


@pytest.mark.parametrize("argv", [
    ["quiz", "--search", "length ("], ["quiz"], ["quiz", "cat", "--search", "length 3"],
    ["quiz", "c@t"], ["quiz", "cat", "--limit", "0"], ["quiz", "cat", "--time-limit", "nan"],
    ["quiz", "--resume", "nope"], ["quiz", "cat", "--user", ""], ["quiz", "--list", "/nonexistent"],
    ["quiz", "--due"], ["cardbox", "import"], ["cardbox", "export"], ["cardbox", "stats", "file"],
    ["cardbox", "import", "/nonexistent"], ["judge"], ["why", "c@t"],
])
def test_bad_input_is_one_line_and_exit_2(capsys, monkeypatch, store, argv):
    code, out, err = run(capsys, monkeypatch, [*argv, "--store", store] if argv[0] != "judge" and argv[0] != "why"
                         else argv)
    assert code == 2, (argv, out, err)
    assert err.startswith("lexigraph: error:") and err.count("\n") == 1, err


def test_a_store_that_is_not_a_study_file(capsys, monkeypatch, tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_text("not sqlite at all " * 100)
    code, out, err = run(capsys, monkeypatch, ["cardbox", "stats", "--store", str(bad)])
    assert code == 2 and err.count("\n") == 1


def test_judge_and_why(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, ["judge", "quixotic", "zyzzyva"])
    assert (code, out) == (0, "VALID\n")
    code, out, err = run(capsys, monkeypatch, ["judge", "quixotic", "qxz"])
    assert (code, out) == (1, "NOT VALID\n")
    code, out, err = run(capsys, monkeypatch, ["judge", "-"], "cat\ndog\n")
    assert (code, out) == (0, "VALID\n")
    code, out, err = run(capsys, monkeypatch, ["why", "care"])
    assert code == 0 and "hooks: s ·CARE· drstx" in out and "anagrams: acre race" in out
