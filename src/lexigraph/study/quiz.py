"""Quizzes: questions made from a search or from words, each question's answers from the lexicon's own queries,
and answers checked as they are typed (docs/study.md, *Quizzes*).

Four types, each a question and the query that answers it:

- ``anagram``: an alphagram (``AEINRST``); its answers are the words of exactly those tiles;
- ``subanagram``: a rack; every word of two tiles or more made from some of its tiles;
- ``hooks``: a word (``CARE``); every word one tile longer in front or at the back (``SCARE``, ``CARED``);
- ``pattern``: a pattern (``?ETAIN?``); every word it matches.

A :class:`Quiz` is plain data (it goes to and from JSON, so the study store keeps it between answers and a
quiz outlives the program that began it); the cardbox grades each question as it ends.

>>> import lexigraph
>>> lex = lexigraph.open()
>>> questions = make_questions(lex.store, lex.engine, "anagram", ["retains", "nastier", "care"])
>>> [(q.prompt, len(q.answers)) for q in questions]
[('AEINRST', 9), ('ACER', 3)]
>>> quiz = Quiz.new("q1", "anagram", "ENABLE", "default", "retains nastier care", questions, created=0.0)
>>> [quiz.answer(a, now=1.0).verdict for a in ("nastier", "NASTIER", "retinue")]
['right', 'already', 'wrong']
>>> ended = quiz.next()
>>> ended.correct, ended.missed[:3], quiz.question().prompt
(False, ['anestri', 'antsier', 'ratines'], 'ACER')
"""

from __future__ import annotations

import datetime
import random
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast, get_args

from ..errors import QueryError
from ..query.anagram import anagram
from ..query.matching import match
from .hooks import hooks
from .search import Sort, as_query, search_ids
from .search.evaluator import OpenListFunction

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.interface import Engine
    from ..engine.store import Store

__all__ = ["MAX_QUESTIONS", "ORDERS", "QUIZ_TYPES", "Answer", "Order", "Question", "QuestionResult", "Quiz",
           "QuizType", "answers_of", "make_questions", "prompt_of", "search_words"]

QuizType = Literal["anagram", "subanagram", "hooks", "pattern"]
QUIZ_TYPES: tuple[str, ...] = get_args(QuizType)
Order = Literal["probability", "alpha", "random", "given"]
ORDERS: tuple[str, ...] = get_args(Order)
Verdict = Literal["right", "wrong", "already", "time_up"]
#: The most questions in one quiz: a long sitting, and a bound on the work and the memory one request makes.
MAX_QUESTIONS = 500
#: The longest answer read (in characters): past any word; a longer one is simply wrong.
MAX_ANSWER = 64


def _checked_type(kind: str) -> QuizType:
    if kind not in QUIZ_TYPES:
        raise QueryError(f"unknown quiz type {kind!r}; use {', '.join(QUIZ_TYPES)}")
    return cast(QuizType, kind)


def prompt_of(store: "Store", kind: str, word: str) -> str:
    """The question ``word`` gives in a quiz of ``kind``, upper case: its alphagram (``anagram``,
    ``subanagram``), itself (``hooks``), itself with its vowels as ``?`` (``pattern``).

    >>> import lexigraph
    >>> store = lexigraph.open().store
    >>> [prompt_of(store, k, "retains") for k in ("anagram", "hooks", "pattern")]
    ['AEINRST', 'RETAINS', 'R?T??NS']
    """
    kind = _checked_type(kind)
    alphabet = store.alphabet
    codes = alphabet.encode(word)
    if not codes:
        raise QueryError(f"{word[:40]!r} is not spelled in the lexicon's tiles")
    if kind in ("anagram", "subanagram"):
        return alphabet.decode(bytes(sorted(codes))).upper()
    tiles = alphabet.split(alphabet.decode(codes)) or []
    if kind == "pattern":
        return "".join("?" if t in alphabet.vowels else t for t in tiles).upper()
    return "".join(tiles).upper()


def answers_of(store: "Store", engine: "Engine", kind: str, prompt: str,
               deadline: float | None = None) -> tuple[str, ...]:
    """Every answer to the question ``prompt`` in a quiz of ``kind``, from the lexicon's own queries, sorted.

    >>> import lexigraph
    >>> lex = lexigraph.open()
    >>> answers_of(lex.store, lex.engine, "hooks", "CARE")
    ('cared', 'carer', 'cares', 'caret', 'carex', 'scare')
    >>> answers_of(lex.store, lex.engine, "pattern", "?UIXOT??")
    ('quixotes', 'quixotic', 'quixotry')
    """
    kind = _checked_type(kind)
    text = prompt.lower()
    if kind == "anagram":
        found = anagram(store, engine, text, mode="exact", deadline=deadline)
    elif kind == "subanagram":
        found = anagram(store, engine, text, mode="sub", min_length=2, deadline=deadline)
    elif kind == "pattern":
        found = match(store, engine, text, deadline=deadline)
    else:
        h = hooks(store, text, deadline=deadline)
        found = [t + h.word for t in h.front] + [h.word + t for t in h.back]
    return tuple(sorted(set(cast("Iterable[str]", found))))


@dataclass(frozen=True)
class Question:
    """One question: its prompt (upper case) and every answer (lower case, sorted)."""

    prompt: str
    answers: tuple[str, ...]


def make_questions(store: "Store", engine: "Engine", kind: str, words: Iterable[str], *, limit: int = MAX_QUESTIONS,
                   given: bool = False, deadline: float | None = None) -> list[Question]:
    """The questions of ``words`` in order, each prompt once, at most ``limit``; ``given``: the words are the
    prompts themselves (alphagrams, racks, words or patterns), not words to make them from."""
    if not 0 < limit <= MAX_QUESTIONS:
        raise QueryError(f"a quiz has from 1 to {MAX_QUESTIONS} questions, not {limit}")
    seen: set[str] = set()
    out: list[Question] = []
    for word in words:
        prompt = _given_prompt(store, kind, word) if given else prompt_of(store, kind, word)
        if prompt in seen:
            continue
        seen.add(prompt)
        out.append(Question(prompt, answers_of(store, engine, kind, prompt, deadline)))
        if len(out) == limit:
            break
    return out


def _given_prompt(store: "Store", kind: str, text: str) -> str:
    """A prompt given as it is: checked to be spelled in the lexicon's tiles (a pattern: by its query)."""
    if not isinstance(text, str) or not text.strip():
        raise QueryError("a question is a non-empty text")
    prompt = unicodedata.normalize("NFC", text.strip()).upper()
    if _checked_type(kind) == "pattern":
        return prompt
    if not store.alphabet.encode(prompt.lower()):
        raise QueryError(f"question {prompt[:40]!r} is not spelled in the lexicon's tiles")
    return prompt_of(store, kind, prompt.lower()) if kind in ("anagram", "subanagram") else prompt


def search_words(store: "Store", engine: "Engine", expression: str, *, order: str = "probability",
                 seed: int | None = None, open_list: OpenListFunction | None = None,
                 deadline: float | None = None) -> list[str]:
    """The words of a search (docs/search.md) in a quiz's ``order``: ``probability`` (likeliest draw first),
    ``alpha``, ``random`` (shuffled by ``seed``) or ``given`` (as the search lists them: alphabetical)."""
    if order not in ORDERS:
        raise QueryError(f"unknown order {order!r}; use {', '.join(ORDERS)}")
    sort: Sort = "probability" if order == "probability" else "alpha"
    found = search_ids(store, engine, as_query(expression), sort=sort, open_list=open_list, deadline=deadline)
    words = store.words_of_ids(found.ids)
    return ordered(words, order, seed)


def ordered(words: Sequence[str], order: str, seed: int | None) -> list[str]:
    """``words`` in a quiz's ``order`` (``probability`` and ``given`` keep them as they come)."""
    out = list(words)
    if order == "alpha":
        out.sort()
    elif order == "random":
        random.Random(seed).shuffle(out)
    return out


# -- a quiz being taken ----------------------------------------------------------------------------------------

@dataclass
class Answer:
    """What one typed answer was: its verdict and the word as the lexicon spells it (lower case)."""

    verdict: Verdict
    word: str
    ended: "QuestionResult | None" = None


@dataclass
class QuestionResult:
    """A question ended: every answer, those found, missed and wrong; correct when all were found and none was
    wrong. ``card``: the cardbox's card after this review (set by the cardbox)."""

    index: int
    prompt: str
    answers: list[str]
    found: list[str]
    missed: list[str]
    wrong: list[str]
    correct: bool
    card: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass
class Quiz:
    """A quiz being taken: its questions, where it stands, what was typed. Plain data (:meth:`to_dict`,
    :meth:`from_dict`); the caller passes the time (``now``: Unix seconds) so that a quiz can be kept and
    taken up again later, in another process."""

    id: str
    type: QuizType
    lexicon: str
    user: str
    source: str
    questions: list[Question]
    created: float
    time_limit: float | None = None
    position: int = 0
    found: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    results: list[QuestionResult] = field(default_factory=list)
    timed_out: bool = False
    #: Ended before its last question (:meth:`end`): over, and never taken up again.
    ended: bool = False

    @classmethod
    def new(cls, key: str, kind: str, lexicon: str, user: str, source: str, questions: Sequence[Question], *,
            created: float, time_limit: float | None = None) -> "Quiz":
        if not questions:
            raise QueryError("this quiz has no questions: the search or the list gave none")
        if time_limit is not None and not 1 <= time_limit <= 86400:
            raise QueryError("time_limit: from 1 to 86400 seconds, or none")
        return cls(key, _checked_type(kind), lexicon, user, source, list(questions), created, time_limit)

    @property
    def finished(self) -> bool:
        return self.timed_out or self.ended or self.position >= len(self.questions)

    def _over(self) -> QueryError:
        return QueryError("this quiz was ended: start another" if self.ended else "this quiz is over")

    def question(self) -> Question | None:
        """The question being answered, or None once the quiz is over."""
        return None if self.finished else self.questions[self.position]

    def seconds_left(self, now: float) -> float | None:
        if self.time_limit is None:
            return None
        return max(0.0, self.created + self.time_limit - now)

    def answer(self, text: str, *, now: float, spell: Callable[[str], str | None] | None = None) -> Answer:
        """Check one typed answer against the current question. ``spell``: the answer as the lexicon spells
        it (None when it is not spelled in its tiles); by default NFC, stripped, lower case."""
        if not isinstance(text, str):
            raise QueryError("an answer is a text")
        word = _normalised(text) if spell is None else (spell(text[:MAX_ANSWER]) or _normalised(text))
        if self.finished:
            raise self._over()
        left = self.seconds_left(now)
        if left is not None and left <= 0:
            self.timed_out = True
            return Answer("time_up", word, self._end())
        question = self.questions[self.position]
        if word in self.found or word in self.wrong:
            return Answer("already", word)
        if word in question.answers:
            self.found.append(word)
            ended = self._end() if len(self.found) == len(question.answers) else None
            return Answer("right", word, ended)
        self.wrong.append(word)
        return Answer("wrong", word)

    def next(self, now: float = 0.0) -> QuestionResult:
        """End the current question (its missed answers revealed) and go on to the next (none, past the time
        limit at ``now``)."""
        if self.finished:
            raise self._over()
        if self.time_limit is not None and self.created + self.time_limit <= now:
            self.timed_out = True  # the question being answered when the time ran out ends, and the quiz
        return self._end()

    def end(self, now: float = 0.0) -> QuestionResult | None:
        """End the quiz before its last question. The question being answered ends (graded) when something
        was typed for it; the questions not reached are not graded (nothing was asked of them). Ending a quiz
        that is over changes nothing (None).

        >>> quiz = Quiz.new("q", "anagram", "ENABLE", "me", "", [Question("ACT", ("act", "cat"))] * 3, created=0.0)
        >>> quiz.answer("cat", now=1.0).verdict, quiz.end(2.0).missed, quiz.finished, quiz.end(3.0)
        ('right', ['act'], True, None)
        >>> quiz.next()
        Traceback (most recent call last):
        ...
        lexigraph.errors.QueryError: this quiz was ended: start another
        """
        if self.finished:
            return None
        if self.time_limit is not None and self.created + self.time_limit <= now:
            self.timed_out = True
        typed = bool(self.found or self.wrong)
        result = self._end() if typed else None
        self.ended = True
        return result

    def _end(self) -> QuestionResult:
        question = self.questions[self.position]
        missed = [w for w in question.answers if w not in self.found]
        result = QuestionResult(self.position, question.prompt, list(question.answers), list(self.found), missed,
                                list(self.wrong), not missed and not self.wrong)
        self.results.append(result)
        self.position += 1
        self.found, self.wrong = [], []
        return result

    # -- as documents -----------------------------------------------------------------------------------------

    def state(self, now: float) -> dict[str, Any]:
        """The quiz as it stands (docs/schema/quiz-state.json): the current question without its answers."""
        left = self.seconds_left(now)
        expired = left is not None and left <= 0  # over, though no answer has come since to say so
        q = None if expired else self.question()
        shown = None if q is None else {"index": self.position, "prompt": q.prompt, "answers": len(q.answers),
                                        "found": list(self.found), "wrong": list(self.wrong)}
        return {
            "id": self.id, "type": self.type, "lexicon": self.lexicon, "user": self.user, "source": self.source,
            "created": iso_time(self.created), "time_limit": self.time_limit, "seconds_left": left,
            "total": len(self.questions), "position": self.position, "finished": self.finished or expired,
            "ended": self.ended,
            "score": {"right": sum(r.correct for r in self.results),
                      "wrong": sum(not r.correct for r in self.results),
                      "answers_found": sum(len(r.found) for r in self.results) + len(self.found),
                      "answers_total": sum(len(q.answers) for q in self.questions)},
            "question": shown,
        }

    def to_dict(self) -> dict[str, object]:
        """The whole quiz as JSON-ready data (what the store keeps)."""
        doc = asdict(self)
        doc["questions"] = [[q.prompt, list(q.answers)] for q in self.questions]
        return doc

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> "Quiz":
        """A quiz from :meth:`to_dict`'s data; a ``ValueError`` (or ``KeyError``, ``TypeError``) when it is not one."""
        questions = [Question(str(p), tuple(str(a) for a in answers)) for p, answers in doc["questions"]]
        results = [QuestionResult(**r) for r in doc["results"]]
        quiz = cls(str(doc["id"]), _checked_type(doc["type"]), str(doc["lexicon"]), str(doc["user"]),
                   str(doc["source"]), questions, float(doc["created"]),
                   None if doc["time_limit"] is None else float(doc["time_limit"]), int(doc["position"]),
                   [str(w) for w in doc["found"]], [str(w) for w in doc["wrong"]], results, bool(doc["timed_out"]),
                   bool(doc.get("ended", False)))  # a quiz kept before quizzes could be ended has no 'ended'
        if not 0 <= quiz.position <= len(questions) or len(results) != quiz.position:
            raise ValueError("the quiz's position does not match its results")
        return quiz


def _normalised(text: str) -> str:
    return unicodedata.normalize("NFC", text[:MAX_ANSWER].strip()).lower()


def iso_time(seconds: float) -> str:
    """Unix seconds as ISO 8601 in UTC, to the second.

    >>> iso_time(0)
    '1970-01-01T00:00:00Z'
    """
    return datetime.datetime.fromtimestamp(int(seconds), datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
