"""Quizzes: every question's answers against an independent oracle (a Counter, a set, a regex over the word
list) on generated lists and on TWL06 when present, on both engines; answers checked as typed; the quiz's
document and its round trip through JSON."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexigraph.errors import QueryError
from lexigraph.study.quiz import MAX_QUESTIONS, Quiz, answers_of, make_questions, prompt_of, search_words

VOWELS = set("aeiou")


def random_words(seed: int, n: int = 300, letters: str = "aeilnrst", max_len: int = 7) -> list[str]:
    rng = random.Random(seed)
    out: set[str] = set()
    while len(out) < n:
        out.add("".join(rng.choice(letters) for _ in range(rng.randint(2, max_len))))
    return sorted(out)


# -- the oracles: nothing of lexigraph's, only the word list --

# Brute force over every word; the cheap length test first (each is implied by the test after it), so that a
# 178,691-word list costs a scan, not a sort or a Counter per word.


def oracle_anagram(words: list[str], prompt: str) -> tuple[str, ...]:
    letters = sorted(prompt.lower())
    return tuple(sorted(w for w in words if len(w) == len(letters) and sorted(w) == letters))


def oracle_subanagram(words: list[str], prompt: str) -> tuple[str, ...]:
    rack = Counter(prompt.lower())
    return tuple(sorted(w for w in words if 2 <= len(w) <= len(prompt) and not Counter(w) - rack))


def oracle_hooks(words: list[str], prompt: str) -> tuple[str, ...]:
    base = prompt.lower()
    return tuple(sorted({w for w in words if len(w) == len(base) + 1 and (w[1:] == base or w[:-1] == base)}))


def oracle_pattern(words: list[str], prompt: str) -> tuple[str, ...]:
    rx = re.compile(prompt.lower().replace("?", ".") + r"\Z")
    return tuple(sorted(w for w in words if rx.match(w)))


ORACLES = {"anagram": oracle_anagram, "subanagram": oracle_subanagram, "hooks": oracle_hooks,
           "pattern": oracle_pattern}


def oracle_prompt(kind: str, word: str) -> str:
    if kind in ("anagram", "subanagram"):
        return "".join(sorted(word)).upper()
    if kind == "pattern":
        return "".join("?" if c in VOWELS else c for c in word).upper()
    return word.upper()


@pytest.mark.parametrize("kind", sorted(ORACLES))
def test_answers_equal_the_oracle_on_generated_lists(open_lexicon, kind):
    for seed in range(3):
        words = random_words(seed)
        lex = open_lexicon(words)
        sample = random.Random(seed).sample(words, 40)
        questions = make_questions(lex.store, lex.engine, kind, sample, limit=MAX_QUESTIONS)
        prompts = list(dict.fromkeys(oracle_prompt(kind, w) for w in sample))
        assert [q.prompt for q in questions] == prompts
        for q in questions:
            assert q.answers == ORACLES[kind](words, q.prompt), (kind, q.prompt)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text("aeilnrst", min_size=2, max_size=6), min_size=1, max_size=60, unique=True),
       st.text("aeilnrst", min_size=2, max_size=7))
def test_answers_equal_the_oracle_on_any_list(words, probe):
    import lexigraph

    lex = lexigraph.load(sorted(words), alphabet="english", pure_python=True)
    for kind, oracle in ORACLES.items():
        prompt = oracle_prompt(kind, probe)
        assert answers_of(lex.store, lex.engine, kind, prompt) == oracle(sorted(words), prompt), (kind, prompt)


#: The oracles' answers on TWL06 by (kind, prompt): each is worked out once, by brute force over the whole list, and
#: held to both engines' questions (the oracles do not depend on the engine).
TWL06_ANSWERS: dict[tuple[str, str], tuple[str, ...]] = {}


def twl06_answer(words: list[str], kind: str, prompt: str) -> tuple[str, ...]:
    if (kind, prompt) not in TWL06_ANSWERS:
        if kind == "subanagram":
            by_length = [w for w in words if len(w) <= 7]
            answer = oracle_subanagram(by_length if len(prompt) <= 7 else words, prompt)
        else:
            answer = ORACLES[kind](words, prompt)
        TWL06_ANSWERS[kind, prompt] = answer
    return TWL06_ANSWERS[kind, prompt]


def test_answers_equal_the_oracle_on_twl06(twl_words, engine_kind):
    from conftest import open_on

    words = sorted(set(twl_words))
    lex = open_on(engine_kind, words)  # TWL06 compiled in memory, on the engine of the case
    sample = random.Random(6).sample([w for w in words if 4 <= len(w) <= 8], 30)
    for kind in ("anagram", "hooks", "pattern"):
        for q in make_questions(lex.store, lex.engine, kind, sample):
            assert q.answers == twl06_answer(words, kind, q.prompt), (kind, q.prompt)
    for q in make_questions(lex.store, lex.engine, "subanagram", sample[:8]):
        assert q.answers == twl06_answer(words, "subanagram", q.prompt)


def test_search_questions_follow_probability_order(enable):
    words = search_words(enable.store, enable.engine, "length 7 and probability 1-20", order="probability")
    ranks = [enable.probability(w).rank for w in words]
    assert ranks == sorted(ranks) and len(words) >= 20
    questions = make_questions(enable.store, enable.engine, "anagram", words, limit=5)
    assert questions[0].prompt == "".join(sorted(words[0])).upper()
    assert len(questions) == 5
    assert set(search_words(enable.store, enable.engine, "length 7 and probability 1-20", order="random", seed=3)) \
        == set(words)


def test_given_questions(enable):
    qs = make_questions(enable.store, enable.engine, "anagram", ["tsrniea", "AEINRST"], given=True)
    assert [q.prompt for q in qs] == ["AEINRST"]
    with pytest.raises(QueryError):
        make_questions(enable.store, enable.engine, "anagram", ["a1"], given=True)
    with pytest.raises(QueryError):
        make_questions(enable.store, enable.engine, "nonsense", ["care"])
    with pytest.raises(QueryError):
        make_questions(enable.store, enable.engine, "anagram", ["care"], limit=0)
    with pytest.raises(QueryError):
        prompt_of(enable.store, "anagram", "c@t")


def test_answers_checked_as_typed(enable):
    qs = make_questions(enable.store, enable.engine, "hooks", ["care", "qi"])
    quiz = Quiz.new("k", "hooks", "ENABLE", "me", "care qi", qs, created=100.0)
    verdicts = [quiz.answer(a, now=101.0).verdict for a in ("scare", " SCARE ", "xcare", "xcare", "cared")]
    assert verdicts == ["right", "already", "wrong", "already", "right"]
    last = None
    for word in ("carer", "cares", "caret", "carex"):
        last = quiz.answer(word, now=102.0)
    assert last is not None and last.ended is not None
    assert last.ended.correct is False and last.ended.wrong == ["xcare"] and last.ended.missed == []
    assert quiz.question() is not None and quiz.question().prompt == "QI"
    ended = quiz.next()  # "qi" has no hooks in ENABLE: nothing to type
    assert ended.answers == [] and ended.correct and quiz.finished
    with pytest.raises(QueryError):
        quiz.answer("qis", now=103.0)


def test_time_limit(enable):
    qs = make_questions(enable.store, enable.engine, "anagram", ["care", "retains"])
    quiz = Quiz.new("k", "anagram", "ENABLE", "me", "", qs, created=100.0, time_limit=30)
    assert quiz.answer("acre", now=110.0).verdict == "right"
    assert quiz.state(now=120.0)["seconds_left"] == 10.0
    assert quiz.state(now=131.0)["finished"] and quiz.state(now=131.0)["question"] is None
    assert not quiz.finished  # until an answer or next says so
    late = quiz.answer("race", now=131.0)
    assert late.verdict == "time_up" and quiz.finished and late.ended is not None and "race" in late.ended.missed
    again = Quiz.new("k", "anagram", "ENABLE", "me", "", qs, created=100.0, time_limit=30)
    ended = again.next(now=140.0)  # next past the time: that question ends, and the quiz
    assert ended.index == 0 and again.finished and len(again.results) == 1
    with pytest.raises(QueryError):
        Quiz.new("k", "anagram", "ENABLE", "me", "", qs, created=0.0, time_limit=0)
    with pytest.raises(QueryError):
        Quiz.new("k", "anagram", "ENABLE", "me", "", [], created=0.0)


def test_quiz_round_trips_through_json(enable):
    qs = make_questions(enable.store, enable.engine, "subanagram", ["cat", "dog"])
    quiz = Quiz.new("k", "subanagram", "ENABLE", "me", "cat dog", qs, created=5.0)
    quiz.answer("act", now=6.0)
    quiz.next()
    quiz.answer("god", now=7.0)
    again = Quiz.from_dict(json.loads(json.dumps(quiz.to_dict())))
    assert again == quiz
    assert again.state(now=8.0) == quiz.state(now=8.0)
    state = quiz.state(now=8.0)
    assert state["question"] == {"index": 1, "prompt": "DGO", "answers": len(qs[1].answers), "found": ["god"],
                                 "wrong": []}
    broken = quiz.to_dict() | {"position": 7}
    with pytest.raises(ValueError):
        Quiz.from_dict(broken)


def test_ending_a_quiz_early(enable):
    qs = make_questions(enable.store, enable.engine, "anagram", ["care", "retains", "dog"])
    quiz = Quiz.new("k", "anagram", "ENABLE", "me", "", qs, created=0.0)
    quiz.answer("acre", now=1.0)
    quiz.answer("care", now=1.0)
    quiz.answer("race", now=1.0)  # the first question ends, all found
    assert quiz.answer("nastier", now=2.0).verdict == "right"
    ended = quiz.end(now=3.0)  # something was typed for the second: it is graded, the third is not
    assert ended is not None and ended.prompt == "AEINRST" and ended.found == ["nastier"]
    assert sorted(ended.missed) == sorted(set(enable.anagram("aeinrst", mode="exact")) - {"nastier"})
    assert quiz.finished and quiz.ended and len(quiz.results) == 2 and quiz.question() is None
    assert quiz.end(now=4.0) is None and len(quiz.results) == 2  # ending again changes nothing
    for step in (lambda: quiz.answer("dog", now=5.0), lambda: quiz.next(now=5.0)):
        with pytest.raises(QueryError, match="ended"):
            step()
    kept = Quiz.from_dict(json.loads(json.dumps(quiz.to_dict())))
    assert kept == quiz and kept.ended and kept.state(6.0)["ended"] and kept.state(6.0)["finished"]
    old = quiz.to_dict()
    del old["ended"]  # a quiz kept before quizzes could be ended
    assert not Quiz.from_dict(old).ended


def test_ending_a_quiz_with_nothing_typed_grades_nothing(enable):
    qs = make_questions(enable.store, enable.engine, "anagram", ["care", "dog"])
    quiz = Quiz.new("k", "anagram", "ENABLE", "me", "", qs, created=0.0)
    assert quiz.end(now=1.0) is None and quiz.ended and quiz.results == [] and quiz.position == 0
