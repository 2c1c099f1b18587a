"""The study routes (/api/quiz, /api/cardbox) and the study commands served (/api/judge, /api/why): a quiz taken
over HTTP, every document validated against its schema, answers held to the lexicon, the cardbox's counts after
it, a quiz that outlives its server, and what hostile clients get."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
pytest.importorskip("httpx", reason="the API tests need httpx")
pytest.importorskip("fsrs", reason="the cardbox needs the study extra: pip install 'lexigraph[study]'")
jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.server import create_app  # noqa: E402
from lexigraph.server.app import Limits  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schema"


def validator(name: str):
    resources = [(json.loads(p.read_text())["$id"], referencing.Resource.from_contents(json.loads(p.read_text())))
                 for p in SCHEMAS.glob("*.json")]
    schema = json.loads((SCHEMAS / f"{name}.json").read_text())
    return jsonschema.Draft202012Validator(schema, registry=referencing.Registry().with_resources(resources))


STATE, ANSWER, SUMMARY, CARDBOX = (validator(n) for n in ("quiz-state", "quiz-answer", "quiz", "cardbox"))


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(limits=Limits(max_body=4096))) as c:
        yield c


@pytest.fixture(scope="module")
def enable():
    return lexigraph.open()


def test_a_twenty_question_anagram_quiz(client, enable):
    r = client.post("/api/quiz", json={"search": "length 7 and probability 1-500", "limit": 20, "user": "t20"})
    assert r.status_code == 201, r.text
    quiz = r.json()
    STATE.validate(quiz)
    assert quiz["total"] == 20 and quiz["position"] == 0 and quiz["question"]["found"] == []
    key, right, wrong = quiz["id"], 0, 0
    for i in range(20):
        q = quiz["question"]
        answers = enable.anagram(q["prompt"].lower(), mode="exact")
        assert q["answers"] == len(answers) and q["index"] == i
        if i % 4 == 3:  # a wrong answer, then give up
            r = client.post(f"/api/quiz/{key}/answer", json={"answer": "zzzzzzz"})
            ANSWER.validate(r.json())
            assert r.json()["verdict"] == "wrong" and r.json()["result"] is None
            r = client.post(f"/api/quiz/{key}/next", json={})
            doc = r.json()
            ANSWER.validate(doc)
            assert doc["verdict"] is None and doc["result"]["answers"] == answers
            assert doc["result"]["correct"] is False and doc["result"]["wrong"] == ["zzzzzzz"]
            wrong += 1
        else:
            for n, word in enumerate(answers):
                r = client.post(f"/api/quiz/{key}/answer", json={"answer": word.upper()})
                doc = r.json()
                ANSWER.validate(doc)
                assert doc["verdict"] == "right" and doc["word"] == word
                assert (doc["result"] is not None) == (n == len(answers) - 1)
                if n == 0 and len(answers) > 1:  # typed again: already given, and no penalty
                    twice = client.post(f"/api/quiz/{key}/answer", json={"answer": word}).json()
                    assert twice["verdict"] == "already" and twice["quiz"]["question"]["found"] == [word]
            assert doc["result"]["correct"] is True and doc["result"]["card"]["reviews"] == 1
            right += 1
        quiz = doc["quiz"]
        assert quiz["score"] == {"right": right, "wrong": wrong, "answers_found": quiz["score"]["answers_found"],
                                 "answers_total": quiz["score"]["answers_total"]}
    assert quiz["finished"] and quiz["question"] is None
    summary = client.get(f"/api/quiz/{key}/summary").json()
    SUMMARY.validate(summary)
    assert summary["right"] + summary["wrong"] == 20 and summary["answered"] == 20
    for m in summary["missed"]:
        h = enable.hooks(m["word"])
        assert m["front"] == "".join(h.front) and m["back"] == "".join(h.back)
    counts = client.get("/api/cardbox", params={"user": "t20"}).json()
    CARDBOX.validate(counts)
    assert counts["total"] == 20 and counts["due_now"] == 0  # every card was just reviewed: due later
    assert sum(r["total"] for r in counts["results"]) == 20


def test_other_types_and_sources(client, enable):
    for kind, field, values in (("hooks", "words", ["care", "cat"]), ("pattern", "questions", ["?UIXOT??"]),
                                ("subanagram", "questions", ["CAT"])):
        r = client.post("/api/quiz", json={"type": kind, field: values, "user": "kinds"})
        assert r.status_code == 201, r.text
        STATE.validate(r.json())
        key = r.json()["id"]
        done = client.post(f"/api/quiz/{key}/next", json={}).json()
        expected = {"hooks": ["cared", "carer", "cares", "caret", "carex", "scare"],
                    "pattern": ["quixotes", "quixotic", "quixotry"],
                    "subanagram": ["act", "at", "cat", "ta"]}[kind]
        assert done["result"]["answers"] == expected
    r = client.post("/api/quiz", json={"type": "hooks", "due": True, "user": "kinds"})
    assert r.status_code == 400  # the hooks cards were just reviewed: none due


def test_ending_a_quiz_early(client, enable):
    quiz = client.post("/api/quiz", json={"words": ["care", "retains", "dog"], "user": "ender"}).json()
    key = quiz["id"]
    for w in ("acre", "care", "race"):  # the first question, right
        client.post(f"/api/quiz/{key}/answer", json={"answer": w})
    client.post(f"/api/quiz/{key}/answer", json={"answer": "nastier"})  # the second, begun
    r = client.post(f"/api/quiz/{key}/end", json={})
    assert r.status_code == 200, r.text
    doc = r.json()
    SUMMARY.validate(doc)
    assert doc["ended"] and doc["finished"] and doc["answered"] == 2 and doc["total"] == 3
    assert doc["right"] == 1 and doc["wrong"] == 1
    missed = set(enable.anagram("aeinrst", mode="exact")) - {"nastier"}
    assert {m["word"] for m in doc["missed"]} == missed
    assert doc["cardbox"]["total"] == 2  # the question not reached is not graded
    shown = client.get(f"/api/quiz/{key}").json()
    STATE.validate(shown)
    assert shown["ended"] and shown["finished"] and shown["question"] is None
    for route, body in (("answer", {"answer": "dog"}), ("next", {})):
        refused = client.post(f"/api/quiz/{key}/{route}", json=body)
        assert refused.status_code == 400 and "ended" in refused.json()["error"]["message"], refused.text
    again = client.post(f"/api/quiz/{key}/end", json={})
    assert again.status_code == 200 and again.json() == doc  # nothing more graded
    assert client.get("/api/cardbox", params={"user": "ender"}).json()["total"] == 2
    assert client.get(f"/api/quiz/{key}/summary").json() == doc


def test_ending_refuses_fields_and_unknown_quizzes(client):
    assert client.post("/api/quiz/nope/end", json={}).status_code == 404
    key = client.post("/api/quiz", json={"words": ["cat"], "user": "ender2"}).json()["id"]
    r = client.post(f"/api/quiz/{key}/end", json={"now": 1})
    assert r.status_code == 400 and set(r.json()) == {"error"}
    untouched = client.post(f"/api/quiz/{key}/end", json={}).json()
    assert untouched["ended"] and untouched["answered"] == 0 and untouched["cardbox"]["total"] == 0


def alphagram(word: str) -> str:
    return "".join(sorted(word.upper()))


def test_cardbox_import_and_export_round_trip(client, enable):
    words = ["retains", "nastier", "care", "dog", "q@x"]  # two of one question; one not in the tiles
    r = client.post("/api/cardbox/import", json={"list": "# mine\n" + "\n".join(words) + "\n", "user": "io"})
    assert r.status_code == 200, r.text
    doc = r.json()
    CARDBOX.validate(doc)
    questions = list(dict.fromkeys(alphagram(w) for w in words[:4]))  # the oracle: sorted letters, in order
    assert doc["results"] == [{"type": "anagram", "questions": 3, "added": 3, "skipped": 1}]
    assert "q@x" in doc["warnings"][0]
    again = client.post("/api/cardbox/import", json={"list": "CARE\nrace\n", "user": "io"}).json()
    assert again["results"][0]["added"] == 0  # already in the cardbox
    counts = client.get("/api/cardbox", params={"user": "io"}).json()
    assert counts["total"] == 3 and counts["due_now"] == 3  # new cards, due now
    assert client.get("/api/cardbox", params={"user": "someone else"}).json()["total"] == 0
    r = client.get("/api/cardbox/export", params={"user": "io", "format": "zyzzyva"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert r.headers["content-disposition"] == 'attachment; filename="cardbox-ENABLE-anagram-zyzzyva.txt"'
    expected = "".join(f"Q: {q}\n" + "".join(f"A: {w.upper()}\n" for w in enable.anagram(q.lower(), mode="exact"))
                       for q in questions)
    assert r.text == expected
    plain = client.get("/api/cardbox/export", params={"user": "io"}).text
    assert plain.split() == [w for q in questions for w in enable.anagram(q.lower(), mode="exact")]
    # Zyzzyva's list, imported by another user as hooks questions: its Q: lines are the questions
    zyz = client.post("/api/cardbox/import", json={"list": r.text, "user": "io2", "type": "hooks"}).json()
    assert zyz["results"][0]["added"] == 3
    back = client.get("/api/cardbox/export", params={"user": "io2", "type": "hooks", "format": "zyzzyva"}).text
    assert [line[3:] for line in back.splitlines() if line.startswith("Q: ")] == questions
    assert client.get("/api/cardbox/export", params={"user": "nobody"}).text == ""


@pytest.mark.parametrize("body", [
    {}, {"list": ""}, {"list": "   \n# only a comment\n"}, {"list": 3}, {"list": "care", "type": "riddle"},
    {"list": "care", "user": ""}, {"list": "care", "user": "x" * 100}, {"list": "care", "colour": "red"},
    {"list": "care", "lexicon": 3},
])
def test_bad_imports_are_one_json_error(client, body):
    r = client.post("/api/cardbox/import", json=body)
    assert r.status_code == 400, (body, r.text)
    assert set(r.json()) == {"error"}


def test_import_bounded_body_and_bad_exports(client):
    big = client.post("/api/cardbox/import", json={"list": "care\n" * 2000})  # past this app's 4096 bytes
    assert big.status_code == 413 and set(big.json()) == {"error"}
    assert client.post("/api/cardbox/import", json={"list": "care", "lexicon": "nope"}).status_code == 404
    for params in ({"format": "csv"}, {"type": "riddle"}, {"colour": "red"}, {"user": "x" * 100}):
        r = client.get("/api/cardbox/export", params=params)
        assert r.status_code == 400 and set(r.json()) == {"error"}, params
    assert client.get("/api/cardbox/export", params={"lexicon": "nope"}).status_code == 404


def test_a_quiz_outlives_its_server(tmp_path):
    path = str(tmp_path / "study.sqlite")
    with TestClient(create_app(study_db=path)) as c:
        quiz = c.post("/api/quiz", json={"words": ["care", "dog"], "time_limit": 600}).json()
        c.post(f"/api/quiz/{quiz['id']}/answer", json={"answer": "acre"})
    with TestClient(create_app(study_db=path)) as c:
        shown = c.get(f"/api/quiz/{quiz['id']}").json()
        assert shown["question"]["found"] == ["acre"] and shown["time_limit"] == 600
        assert c.post(f"/api/quiz/{quiz['id']}/answer", json={"answer": "acre"}).json()["verdict"] == "already"


@pytest.mark.parametrize("body", [
    {}, {"search": "length 7", "words": ["cat"]}, {"type": "riddle", "words": ["cat"]}, {"words": "cat"},
    {"words": ["cat"], "limit": 0}, {"words": ["cat"], "limit": 501}, {"words": ["cat"], "time_limit": -1},
    {"words": ["cat"], "user": ""}, {"words": ["cat"], "colour": "red"}, {"search": "length ("},
    {"words": ["c@t"]}, {"words": ["cat"], "lexicon": 3}, {"words": ["cat"], "order": "best"},
    {"due": "yes"}, {"search": "length 40"},
])
def test_bad_quiz_requests_are_one_json_error(client, body):
    r = client.post("/api/quiz", json=body)
    assert r.status_code == 400, (body, r.text)
    assert set(r.json()) == {"error"}


def test_unknown_and_bad_answers(client):
    assert client.get("/api/quiz/nope").status_code == 404
    assert client.post("/api/quiz/nope/answer", json={"answer": "x"}).status_code == 404
    assert client.get("/api/quiz/nope/summary").status_code == 404
    assert client.post("/api/quiz", json={"words": ["cat"], "lexicon": "nope"}).status_code == 404
    key = client.post("/api/quiz", json={"words": ["cat"]}).json()["id"]
    assert client.post(f"/api/quiz/{key}/answer", json={"answer": 3}).status_code == 400
    assert client.post(f"/api/quiz/{key}/answer", json={"word": "act"}).status_code == 400
    assert client.post(f"/api/quiz/{key}/answer", json={"answer": "x" * 2000}).json()["word"] == "x" * 64
    assert client.post(f"/api/quiz/{key}/next", json={"x": 1}).status_code == 400
    client.post(f"/api/quiz/{key}/next", json={})
    over = client.post(f"/api/quiz/{key}/answer", json={"answer": "act"})
    assert over.status_code == 400 and "over" in over.json()["error"]["message"]
    assert client.get("/api/cardbox", params={"colour": "red"}).status_code == 400
    assert client.get("/api/cardbox", params={"user": "x" * 100}).status_code == 400


def test_judge_says_the_verdict_alone(client):
    ok = client.post("/api/judge", json={"words": ["quixotic", "zyzzyva"]}).json()
    bad = client.post("/api/judge", json={"words": ["quixotic", "qxz"]}).json()
    assert ok == {"command": "judge", "lexicon": "ENABLE", "verdict": "VALID", "results": [{"verdict": "VALID"}],
                  "count": 1}
    assert bad["verdict"] == "NOT VALID" and "qxz" not in json.dumps(bad)
    validator("judge").validate(bad)
    assert client.post("/api/judge", json={"words": []}).status_code == 400


def test_why_a_word(client, enable):
    doc = client.get("/api/why", params={"words": "care"}).json()
    validator("why").validate(doc)
    r = doc["results"][0]
    assert r["valid"] and r["front"] == "s" and r["back"] == "drstx" and r["anagrams"] == ["acre", "race"]
    assert r["probability_rank"] == enable.probability("care").rank


def test_serve_refuses_a_bad_study_store_in_one_line(tmp_path, capsys):
    from lexigraph.cli.main import main

    (tmp_path / "x.sqlite").write_text("garbage " * 1000)
    for bad in (["--study-store", str(tmp_path / "x.sqlite")], ["--study-store", ""], ["--study-store", str(tmp_path)]):
        assert main(["serve", "--port", "1", "--games-db", ":memory:", *bad]) == 2
        err = capsys.readouterr().err
        assert err.startswith("lexigraph: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
