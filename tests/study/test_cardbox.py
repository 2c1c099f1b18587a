"""The cardbox: stored FSRS states equal the fsrs library's for the same history (replayed independently), due
counts against a count over the reviews made, quizzes kept and taken up again, bad files refused in one error,
and no acknowledged review lost when the writer is killed with SIGKILL."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
from datetime import datetime, timezone

import pytest

from lexigraph.errors import ResourceBusy
from lexigraph.study.cardbox import CardBox, StudyStoreError
from lexigraph.study.quiz import Question, Quiz

fsrs = pytest.importorskip("fsrs")

T0 = 1_800_000_000.0


def replay(history: list[tuple[float, int]]) -> "fsrs.Card":
    """The card the fsrs library makes of a history, from a new card, with no help from the cardbox."""
    scheduler = fsrs.Scheduler(enable_fuzzing=False)
    card = fsrs.Card(card_id=1, due=datetime.fromtimestamp(history[0][0], timezone.utc))
    for when, rating in history:
        card, _ = scheduler.review_card(card, fsrs.Rating(rating), datetime.fromtimestamp(when, timezone.utc))
    return card


def test_stored_intervals_equal_the_fsrs_library(tmp_path):
    rng = random.Random(37)
    box = CardBox(str(tmp_path / "study.sqlite"))
    prompts = [f"Q{i}" for i in range(25)]
    now = T0
    made: dict[str, list[tuple[float, int]]] = {p: [] for p in prompts}
    for _ in range(400):
        prompt = rng.choice(prompts)
        now += rng.choice([30, 700, 3600, 86400, 5 * 86400, 40 * 86400])
        correct = rng.random() < 0.7
        box.review("me", "ENABLE", "anagram", prompt, correct=correct, now=now)
        made[prompt].append((now, 3 if correct else 1))
    for prompt, history in made.items():
        if not history:
            continue
        assert box.history("me", "ENABLE", "anagram", prompt) == history
        stored = box.card("me", "ENABLE", "anagram", prompt)
        expected = replay(history)
        assert stored is not None
        assert stored["state"] == int(expected.state) and stored["step"] == expected.step
        assert stored["stability"] == pytest.approx(expected.stability, rel=1e-12)
        assert stored["difficulty"] == pytest.approx(expected.difficulty, rel=1e-12)
        assert stored["due"] == pytest.approx(expected.due.timestamp(), abs=1e-3)
        assert stored["reviews"] == len(history)
    box.close()


def test_due_counts_against_a_count_of_the_reviews(tmp_path):
    rng = random.Random(1)
    box = CardBox(":memory:")
    due_at: dict[tuple[str, str], float] = {}
    for i in range(300):
        kind = rng.choice(["anagram", "hooks"])
        prompt = f"P{rng.randrange(120)}"
        card = box.review("u", "L", kind, prompt, correct=rng.random() < 0.6, now=T0 + i * 60)
        due_at[(kind, prompt)] = card.due
    assert box.add("u", "L", "pattern", ["C?T", "D?G", "C?T"], now=T0) == 2
    assert box.add("u", "L", "pattern", ["C?T"], now=T0) == 0
    for probe in (T0, T0 + 3600, T0 + 86400 * 3, T0 + 86400 * 400):
        counts = box.counts("u", "L", now=probe)
        expected_due = sum(d <= probe for d in due_at.values()) + 2
        assert counts["due_now"] == expected_due
        assert counts["total"] == len(due_at) + 2
        for kind in ("anagram", "hooks"):
            row = counts["by_type"][kind]
            assert row["total"] == sum(k == kind for k, _ in due_at)
            assert row["due_now"] == sum(k == kind and d <= probe for (k, _), d in due_at.items())
            assert row["new"] == 0 and row["learning"] + row["review"] + row["relearning"] == row["total"]
        assert counts["by_type"]["pattern"] == {"total": 2, "due_now": 2, "new": 2, "learning": 0, "review": 0,
                                                "relearning": 0}
        due = box.due("u", "L", now=probe, limit=10_000)
        assert len(due) == expected_due and [c.due for c in due] == sorted(c.due for c in due)
    assert box.counts("other", "L")["total"] == 0
    grouped = box._conn.execute("SELECT type, state, count(*) FROM cards GROUP BY type, state").fetchall()  # noqa: SLF001
    states = ("new", "learning", "review", "relearning")
    by_type = box.counts("u", "L")["by_type"]
    assert sorted((k, states.index(s), n) for k, row in by_type.items() for s in states if (n := row[s])) \
        == sorted(grouped)
    assert box.prompts("u", "L", "pattern") == ["C?T", "D?G"]


def test_quizzes_are_kept_and_taken_up_again(tmp_path):
    path = str(tmp_path / "s.sqlite")
    box = CardBox(path)
    quiz = Quiz.new("q1", "anagram", "ENABLE", "me", "", [Question("ACT", ("act", "cat")), Question("DGO", ("dog",))],
                    created=T0)
    box.save_quiz(quiz, now=T0)
    quiz.answer("cat", now=T0 + 1)
    ended = quiz.answer("act", now=T0 + 2).ended
    assert ended is not None
    view = box.record(quiz, ended, now=T0 + 2)
    assert ended.card == view.to_dict() and ended.card["reviews"] == 1
    box.close()
    again = CardBox(path)
    kept = again.latest_quiz("me")
    assert kept == quiz and again.quiz("q1") == quiz and again.quiz("nope") is None
    assert again.history("me", "ENABLE", "anagram", "ACT") == [(T0 + 2, 3)]
    kept.next()
    again.record(kept, kept.results[-1], now=T0 + 3)
    assert again.latest_quiz("me") is None  # finished
    again.close()


def test_bad_files_are_one_error(tmp_path):
    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(StudyStoreError, match="not a lexigraph study file"):
        CardBox(str(other))
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is no database" * 100)
    with pytest.raises(StudyStoreError):
        CardBox(str(junk))
    with pytest.raises(StudyStoreError, match="not a regular file"):
        CardBox(str(tmp_path))
    box = CardBox(str(tmp_path / "ok.sqlite"))
    with pytest.raises(StudyStoreError):
        box.review("", "L", "anagram", "A", correct=True)
    with pytest.raises(StudyStoreError):
        box.review("u", "L", "riddles", "A", correct=True)
    box._conn.execute("UPDATE cards SET state = state")  # noqa: SLF001 - a forged quiz row below
    box._conn.execute("INSERT INTO quizzes VALUES ('bad', 'u', 'L', 0, 1.0, '{\"id\": 3}')")  # noqa: SLF001
    with pytest.raises(StudyStoreError, match="damaged"):
        box.quiz("bad")
    box.close()


def test_a_lock_held_too_long_is_resource_busy(tmp_path):
    path = str(tmp_path / "s.sqlite")
    CardBox(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    box = CardBox(path, timeout=0.05)
    with pytest.raises(ResourceBusy):
        box.review("u", "L", "anagram", "A", correct=True)
    holder.execute("ROLLBACK")
    box.review("u", "L", "anagram", "A", correct=True)
    box.close()
    holder.close()


WRITER = textwrap.dedent("""
    import sys
    from lexigraph.study.cardbox import CardBox
    box = CardBox(sys.argv[1])
    for i in range(100000):
        box.review("me", "ENABLE", "anagram", f"Q{i % 500}", correct=i % 3 != 0, now=1.8e9 + i)
        print(i, flush=True)  # acknowledged: the review's transaction has committed
""")


def test_no_acknowledged_review_is_lost_when_the_writer_is_killed(tmp_path):
    path = str(tmp_path / "study.sqlite")
    proc = subprocess.Popen([sys.executable, "-c", WRITER, path], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    acknowledged = -1
    for line in proc.stdout:
        acknowledged = int(line)
        if acknowledged >= 150:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    tail = proc.stdout.read()  # acknowledged before it died, unread until now
    for line in tail.splitlines():
        if line.strip().isdigit():
            acknowledged = int(line)
    box = CardBox(path)
    reviews = box._conn.execute("SELECT count(*), max(time) FROM reviews").fetchone()  # noqa: SLF001
    assert reviews[0] >= acknowledged + 1
    assert reviews[1] >= 1.8e9 + acknowledged
    total = sum(len(box.history("me", "ENABLE", "anagram", f"Q{q}")) for q in range(500))
    assert total == reviews[0]
    box.close()
