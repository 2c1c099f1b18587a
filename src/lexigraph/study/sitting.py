"""A quiz sitting, as the terminal and the server both run it: a quiz made from a request (a search, words, the
questions themselves, or the cardbox's due questions), each answer checked and kept, each question ended into
the cardbox, and the documents they show (docs/study.md: quiz-state, quiz-answer, quiz and cardbox).

>>> import lexigraph
>>> from lexigraph.study.cardbox import CardBox
>>> lex, box = lexigraph.open(), CardBox(":memory:")
>>> quiz = start_quiz(lex.store, lex.engine, box, "ENABLE", quiz_request({"words": ["care"]}), now=0.0, key="k")
>>> quiz.question().prompt
'ACER'
>>> [answer_document(box, quiz, w, now=1.0)["verdict"] for w in ("acre", "care", "race")]
['right', 'right', 'right']
>>> doc = summary_document(lex.store, box, quiz, now=2.0)
>>> doc["right"], doc["missed"], doc["cardbox"]["total"]
(1, [], 1)
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import QueryError
from .cardbox import CardBox, StudyStoreError, check_user
from .hooks import hooks_many
from .quiz import MAX_QUESTIONS, ORDERS, QUIZ_TYPES, Quiz, QuestionResult, make_questions, ordered, search_words
from .search.evaluator import OpenListFunction

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.interface import Engine
    from ..engine.store import Store

__all__ = ["DEFAULT_QUESTIONS", "DEFAULT_USER", "QUIZ_FIELDS", "QuizRequest", "answer_document", "cardbox_document",
           "end_document", "next_document", "quiz_request", "start_quiz", "summary_document"]

DEFAULT_USER = "default"
#: Questions in a quiz when the request does not say.
DEFAULT_QUESTIONS = 50
#: The fields a new quiz takes (``POST /api/quiz``; the command line's options).
QUIZ_FIELDS = ("type", "search", "words", "questions", "due", "order", "limit", "time_limit", "seed", "lexicon",
               "user")
#: The most words or questions a request may list.
MAX_LISTED = 10_000


@dataclass(frozen=True)
class QuizRequest:
    """What a new quiz is made of: its type, one source, the order, how many questions, the time limit."""

    type: str = "anagram"
    search: str | None = None
    words: tuple[str, ...] | None = None
    questions: tuple[str, ...] | None = None
    due: bool = False
    order: str | None = None
    limit: int = DEFAULT_QUESTIONS
    time_limit: float | None = None
    seed: int | None = None
    user: str = DEFAULT_USER

    @property
    def source(self) -> str:
        """The source in words, as the quiz document shows it."""
        if self.search is not None:
            return self.search
        if self.due:
            return "due"
        listed = self.words if self.words is not None else self.questions or ()
        shown = " ".join(listed[:8])
        return shown + (f" ... ({len(listed)})" if len(listed) > 8 else "")


def _strings(value: object, name: str) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise QueryError(f"field {name!r}: a list of texts")
    if not value or len(value) > MAX_LISTED:
        raise QueryError(f"field {name!r}: from 1 to {MAX_LISTED} texts")
    return tuple(value)


def _number(value: object, name: str, low: float, high: float, kind: type = int) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and not isinstance(value, int)):
        raise QueryError(f"field {name!r}: a {'whole ' if kind is int else ''}number from {low:g} to {high:g}")
    if not low <= value <= high:
        raise QueryError(f"field {name!r}: from {low:g} to {high:g}, not {value}")
    return kind(value)


def quiz_request(fields: Mapping[str, Any]) -> QuizRequest:
    """A new quiz's fields checked (unknown fields, types, ranges, exactly one source): a :class:`QuizRequest`, or
    one :class:`~lexigraph.errors.QueryError` naming the field.

    >>> quiz_request({"search": "length 7", "limit": 20}).limit
    20
    >>> quiz_request({"search": "length 7", "words": ["care"]})
    Traceback (most recent call last):
    ...
    lexigraph.errors.QueryError: a quiz takes one of search, words, questions, due: not 2
    """
    unknown = sorted(set(fields) - set(QUIZ_FIELDS))
    if unknown:
        raise QueryError(f"unknown field {unknown[0]!r} (a quiz takes: {', '.join(QUIZ_FIELDS)})")
    kind = fields.get("type") or "anagram"
    if kind not in QUIZ_TYPES:
        raise QueryError(f"field 'type': one of {', '.join(QUIZ_TYPES)}")
    search = fields.get("search")
    if search is not None and (not isinstance(search, str) or not search.strip()):
        raise QueryError("field 'search': a search expression (docs/search.md)")
    words = None if fields.get("words") is None else _strings(fields["words"], "words")
    questions = None if fields.get("questions") is None else _strings(fields["questions"], "questions")
    due = fields.get("due") or False
    if not isinstance(due, bool):
        raise QueryError("field 'due': true or false")
    given = sum(x is not None for x in (search, words, questions)) + due
    if given != 1:
        raise QueryError(f"a quiz takes one of search, words, questions, due: not {given}")
    order = fields.get("order")
    if order is not None and order not in ORDERS:
        raise QueryError(f"field 'order': one of {', '.join(ORDERS)}")
    limit = fields.get("limit")
    limit = DEFAULT_QUESTIONS if limit is None else _number(limit, "limit", 1, MAX_QUESTIONS)
    time_limit = fields.get("time_limit")
    time_limit = None if time_limit is None else _number(time_limit, "time_limit", 1, 86400, float)
    seed = fields.get("seed")
    seed = None if seed is None else _number(seed, "seed", 0, 2**64 - 1)
    user = fields.get("user")
    user = DEFAULT_USER if user is None else user
    try:
        check_user(user)
    except StudyStoreError as e:
        raise QueryError(f"field 'user': {e}") from None
    return QuizRequest(kind, search, words, questions, due, order, limit, time_limit, seed, user)


def start_quiz(store: "Store", engine: "Engine", box: CardBox, lexicon: str, request: QuizRequest, *, now: float,
               key: str | None = None, open_list: OpenListFunction | None = None,
               deadline: float | None = None) -> Quiz:
    """A new quiz on the lexicon (``lexicon``: its name in the cardbox), kept in ``box``."""
    r = request
    order = r.order or ("probability" if r.search is not None else "given")
    if r.search is not None:
        source = search_words(store, engine, r.search, order=order, seed=r.seed, open_list=open_list,
                              deadline=deadline)
        questions = make_questions(store, engine, r.type, source, limit=r.limit, deadline=deadline)
    elif r.due:
        due = [c.prompt for c in box.due(r.user, lexicon, r.type, limit=r.limit, now=now)]
        questions = make_questions(store, engine, r.type, ordered(due, order, r.seed), limit=r.limit, given=True,
                                   deadline=deadline)
    else:
        listed = r.words if r.words is not None else r.questions or ()
        questions = make_questions(store, engine, r.type, ordered(listed, order, r.seed), limit=r.limit,
                                   given=r.questions is not None, deadline=deadline)
    if not questions and r.due:
        raise QueryError(f"no {r.type} question of {lexicon} is due now in {r.user!r}'s cardbox")
    quiz = Quiz.new(key or secrets.token_urlsafe(9), r.type, lexicon, r.user, r.source, questions, created=now,
                    time_limit=r.time_limit)
    box.save_quiz(quiz, now=now)
    return quiz


def _ended(box: CardBox, quiz: Quiz, result: QuestionResult | None, now: float) -> dict[str, object] | None:
    """A question that ended goes into the cardbox (with the quiz as it now stands, in one transaction)."""
    if result is None:
        box.save_quiz(quiz, now=now)
        return None
    box.record(quiz, result, now=now)
    # A quiz timed out leaves its other questions unanswered: they are not graded (nothing was asked of them).
    return result.to_dict()


def answer_document(box: CardBox, quiz: Quiz, text: str, *, now: float) -> dict[str, Any]:
    """Check one typed answer and keep it: the verdict, the question it ended (if it did) and the quiz."""
    said = quiz.answer(text, now=now)
    result = _ended(box, quiz, said.ended, now)
    return {"id": quiz.id, "verdict": said.verdict, "word": said.word, "result": result, "quiz": quiz.state(now)}


def next_document(box: CardBox, quiz: Quiz, *, now: float) -> dict[str, Any]:
    """End the current question (its missed answers revealed, graded in the cardbox) and go on."""
    result = _ended(box, quiz, quiz.next(now), now)
    return {"id": quiz.id, "verdict": None, "word": None, "result": result, "quiz": quiz.state(now)}


def end_document(store: "Store", box: CardBox, quiz: Quiz, *, now: float,
                 deadline: float | None = None) -> dict[str, object]:
    """End the quiz before its last question (:meth:`Quiz.end`: the question being answered graded when
    something was typed for it) and keep it closed: its summary. A quiz already over gives its summary."""
    if not quiz.finished:
        _ended(box, quiz, quiz.end(now), now)  # the review (if any) and the quiz closed, in one transaction
    return summary_document(store, box, quiz, now=now, deadline=deadline)


def summary_document(store: "Store", box: CardBox, quiz: Quiz, *, now: float,
                     deadline: float | None = None) -> dict[str, object]:
    """The quiz's summary (docs/schema/quiz.json): every question ended, the missed words with their hooks, the
    cardbox's counts."""
    missed = [(w, r.prompt) for r in quiz.results for w in r.missed]
    hooked = hooks_many(store, [w for w, _ in missed], deadline=deadline) if missed else []
    counts = box.counts(quiz.user, quiz.lexicon, now=now)
    results = [r.to_dict() for r in quiz.results]
    return {
        "command": "quiz", "id": quiz.id, "type": quiz.type, "lexicon": quiz.lexicon, "user": quiz.user,
        "total": len(quiz.questions), "answered": len(quiz.results), "right": sum(r.correct for r in quiz.results),
        "wrong": sum(not r.correct for r in quiz.results), "finished": quiz.finished, "ended": quiz.ended,
        "results": results,
        "count": len(results),
        "missed": [{"word": w, "question": p, "front": "".join(h.front), "back": "".join(h.back)}
                   for (w, p), h in zip(missed, hooked)],
        "cardbox": {"total": counts["total"], "due_now": counts["due_now"], "next_due": counts["next_due"]},
    }


def cardbox_document(box: CardBox, user: str, lexicon: str, *, now: float) -> dict[str, object]:
    """The cardbox's counts (docs/schema/cardbox.json, action ``stats``): one row per quiz type."""
    counts = box.counts(user, lexicon, now=now)
    rows = [{"type": kind, **row} for kind, row in sorted(counts["by_type"].items())]
    return {"command": "cardbox", "action": "stats", "user": user, "lexicon": lexicon, "store": box.path,
            "total": counts["total"], "due_now": counts["due_now"], "next_due": counts["next_due"],
            "results": rows, "count": len(rows)}
