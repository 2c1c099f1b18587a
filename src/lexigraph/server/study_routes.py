"""The routes of study (``/api/quiz``, ``/api/cardbox``): quizzes answered as they are typed, and the cardbox's
counts, over the app's study store (``request.app.state.study``, a :class:`lexigraph.study.cardbox.CardBox`;
docs/study.md, *HTTP*).

| route | what |
|---|---|
| ``POST /api/quiz`` | a new quiz: ``{"type", "search" / "words" / "questions" / "due", "order", "limit", "time_limit", "seed", "lexicon", "user"}``; 201 with the quiz |
| ``GET /api/quiz/{id}`` | the quiz as it stands |
| ``POST /api/quiz/{id}/answer`` | ``{"answer": "WORD"}``: the verdict (right, wrong, already, time_up) and the quiz |
| ``POST /api/quiz/{id}/next`` | the current question ended, its answers revealed, and the quiz at the next one |
| ``POST /api/quiz/{id}/end`` | the quiz ended before its last question (the question being answered graded when something was typed for it) and closed: its summary; answering it after is a 400 |
| ``GET /api/quiz/{id}/summary`` | every question's result, the missed words with their hooks, the cardbox's counts |
| ``GET /api/cardbox?user=&lexicon=`` | the cardbox's counts: due now, by state and type |
| ``POST /api/cardbox/import`` | ``{"list": TEXT, "type", "user", "lexicon"}``: a plain or Zyzzyva list's questions as new cards due now |
| ``GET /api/cardbox/export?user=&lexicon=&type=&format=`` | the cardbox's questions of one type with every answer, a download (plain or zyzzyva) |

Every route's work (the store, the lexicon's queries) runs in the query lane, never on the event loop. The
answers of one quiz are checked one at a time (a lock per app), so two typed at once are both kept. Word Judge
(``/api/judge``) and "why a word" (``/api/why``) are commands (:mod:`lexigraph.commands.judge`), served as every
command is.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..errors import QueryError
from ..study.cardbox import CardBox, StudyStoreError, check_user
from ..study.exchange import export_rows, export_text, import_document
from ..study.lists import FORMATS
from ..study.quiz import QUIZ_TYPES, Quiz
from ..study.sitting import (DEFAULT_USER, answer_document, cardbox_document, end_document, next_document,
                             quiz_request, start_quiz, summary_document)
from .answers import ApiError, dump
from .httpio import arrival, check_query, read_body
from .lanes import Server

__all__ = ["STUDY_ROUTES", "StudyState"]


class StudyState:
    """The study store of an app and the lock its quizzes' answers are checked under."""

    def __init__(self, box: CardBox, clock: Callable[[], float] = time.time) -> None:
        self.box = box
        self.clock = clock
        self.answering = threading.Lock()


def state_of(request: Request) -> tuple[Server, StudyState]:
    app_state = request.app.state
    server: Server = app_state.server
    study: StudyState = app_state.study
    return server, study


def answer(doc: dict[str, object], status: int = 200) -> Response:
    return Response(dump(doc), status_code=status, media_type="application/json")


def quiz_of(study: StudyState, key: str) -> Quiz:
    quiz = study.box.quiz(key)
    if quiz is None:
        raise ApiError(404, "NotFound", f"no quiz {key[:40]!r}")
    return quiz


async def new_quiz(request: Request) -> Response:
    """``POST /api/quiz``: a new quiz; 201 with it."""
    server, study = state_of(request)
    check_query(request, server.limits.max_query)
    body = await read_body(request, server.limits.max_body, server.limits.body_timeout)
    lexicon = body.pop("lexicon", None)
    if lexicon is not None and not isinstance(lexicon, str):
        raise ApiError(400, "QueryError", "field 'lexicon': a lexicon name")
    wanted = quiz_request(body)
    slot = server.pool.served(lexicon)  # an unknown lexicon is a 404 before any work

    def work(deadline: float) -> dict[str, object]:
        now = study.clock()
        held: list[tuple[Any, Any]] = []

        def open_list(source: object) -> Any:
            # A search's 'in NAME' list: a lexicon this server serves, held until the quiz is made.
            if not isinstance(source, str):
                raise QueryError("a list is named by a lexicon this server serves")
            other = server.pool.served(source)
            h = other.acquire()
            held.append((other, h))
            return h.lexicon

        try:
            with server.pool.use(slot.name) as lex:
                quiz = start_quiz(lex.store, lex.engine, study.box, slot.lexicon_name, wanted, now=now,
                                  open_list=open_list, deadline=deadline)
        finally:
            for other, h in held:
                other.release(h)
        return quiz.state(now)

    return answer(await server.run(work, what="POST /api/quiz", arrived=arrival(request)), status=201)


async def show_quiz(request: Request) -> Response:
    """``GET /api/quiz/{id}``: the quiz as it stands."""
    server, study = state_of(request)
    check_query(request, server.limits.max_query)
    key = request.path_params["id"]
    doc = await server.run(lambda deadline: quiz_of(study, key).state(study.clock()), what="GET /api/quiz/{id}",
                           arrived=arrival(request))
    return answer(doc)


async def answer_quiz(request: Request) -> Response:
    """``POST /api/quiz/{id}/answer``: ``{"answer": "WORD"}`` checked against the current question."""
    server, study = state_of(request)
    check_query(request, server.limits.max_query)
    body = await read_body(request, server.limits.max_body, server.limits.body_timeout)
    unknown = sorted(set(body) - {"answer"})
    if unknown:
        raise ApiError(400, "QueryError", f"unknown field {unknown[0]!r} (an answer takes: answer)")
    text = body.get("answer")
    if not isinstance(text, str):
        raise ApiError(400, "QueryError", "field 'answer': the word typed")
    key = request.path_params["id"]

    def work(deadline: float) -> dict[str, object]:
        with study.answering:
            quiz = quiz_of(study, key)
            return answer_document(study.box, quiz, text, now=study.clock())

    return answer(await server.run(work, what="POST /api/quiz/{id}/answer", arrived=arrival(request)))


async def next_question(request: Request) -> Response:
    """``POST /api/quiz/{id}/next``: the current question ended, and the quiz at the next one."""
    server, study = state_of(request)
    check_query(request, server.limits.max_query)
    body = await read_body(request, server.limits.max_body, server.limits.body_timeout)
    if body:
        raise ApiError(400, "QueryError", f"unknown field {sorted(body)[0]!r} (next takes no field)")
    key = request.path_params["id"]

    def work(deadline: float) -> dict[str, object]:
        with study.answering:
            return next_document(study.box, quiz_of(study, key), now=study.clock())

    return answer(await server.run(work, what="POST /api/quiz/{id}/next", arrived=arrival(request)))


async def end_quiz(request: Request) -> Response:
    """``POST /api/quiz/{id}/end``: the quiz ended and closed in the store; its summary."""
    server, study = state_of(request)
    check_query(request, server.limits.max_query)
    body = await read_body(request, server.limits.max_body, server.limits.body_timeout)
    if body:
        raise ApiError(400, "QueryError", f"unknown field {sorted(body)[0]!r} (end takes no field)")
    key = request.path_params["id"]

    def work(deadline: float) -> dict[str, object]:
        with study.answering:  # after any answer already sent, never between an answer and its review
            quiz = quiz_of(study, key)
            with server.pool.use(server.pool.served(quiz.lexicon).name) as lex:
                return end_document(lex.store, study.box, quiz, now=study.clock(), deadline=deadline)

    return answer(await server.run(work, what="POST /api/quiz/{id}/end", arrived=arrival(request)))


async def quiz_summary(request: Request) -> Response:
    """``GET /api/quiz/{id}/summary``: every question ended, the missed words with their hooks, the counts."""
    server, study = state_of(request)
    check_query(request, server.limits.max_query)
    key = request.path_params["id"]

    def work(deadline: float) -> dict[str, object]:
        quiz = quiz_of(study, key)
        with server.pool.use(server.pool.served(quiz.lexicon).name) as lex:
            return summary_document(lex.store, study.box, quiz, now=study.clock(), deadline=deadline)

    return answer(await server.run(work, what="GET /api/quiz/{id}/summary", arrived=arrival(request)))


def user_of(value: object, where: str) -> str:
    """The study user a request names (``default`` when it names none); a 400 naming ``where`` when it is bad."""
    user = DEFAULT_USER if value is None else value
    try:
        return check_user(user)
    except StudyStoreError as e:  # the request's fault here
        raise ApiError(400, "QueryError", f"{where}: {e}") from None


def choice_of(value: object, choices: tuple[str, ...], default: str, where: str) -> str:
    if value is None or value == "":
        return default
    if not isinstance(value, str) or value not in choices:
        raise ApiError(400, "QueryError", f"{where}: one of {', '.join(choices)}")
    return value


def check_params(request: Request, known: tuple[str, ...], what: str) -> None:
    unknown = sorted(k for k in request.query_params if k not in known)
    if unknown:
        raise ApiError(400, "QueryError", f"unknown parameter {unknown[0]!r} ({what} takes: {', '.join(known)})")


async def cardbox_counts(request: Request) -> Response:
    """``GET /api/cardbox?user=&lexicon=``: the cardbox's counts."""
    server, study = state_of(request)
    check_query(request, server.limits.max_query)
    check_params(request, ("lexicon", "user"), "the cardbox")
    q = request.query_params
    user = user_of(q.get("user") or None, "parameter 'user'")
    slot = server.pool.served(q.get("lexicon"))
    doc = await server.run(lambda deadline: cardbox_document(study.box, user, slot.lexicon_name, now=study.clock()),
                           what="GET /api/cardbox", arrived=arrival(request))
    return answer(doc)


#: The fields ``POST /api/cardbox/import`` takes.
IMPORT_FIELDS = ("list", "type", "user", "lexicon")


async def cardbox_import(request: Request) -> Response:
    """``POST /api/cardbox/import``: a list's questions (plain, or Zyzzyva's Anagram Question/Answer) as new
    cards due now; the body is bounded by the server's ``max_body``."""
    server, study = state_of(request)
    check_query(request, server.limits.max_query)
    body = await read_body(request, server.limits.max_body, server.limits.body_timeout)
    unknown = sorted(set(body) - set(IMPORT_FIELDS))
    if unknown:
        raise ApiError(400, "QueryError", f"unknown field {unknown[0]!r} (an import takes: {', '.join(IMPORT_FIELDS)})")
    text = body.get("list")
    if not isinstance(text, str) or not text.strip():
        raise ApiError(400, "QueryError", "field 'list': the list's text (one word a line, or Zyzzyva's Q: and A: lines)")
    kind = choice_of(body.get("type"), QUIZ_TYPES, "anagram", "field 'type'")
    user = user_of(body.get("user"), "field 'user'")
    lexicon = body.get("lexicon")
    if lexicon is not None and not isinstance(lexicon, str):
        raise ApiError(400, "QueryError", "field 'lexicon': a lexicon name")
    slot = server.pool.served(lexicon)

    def work(deadline: float) -> dict[str, object]:
        with server.pool.use(slot.name) as lex:
            return import_document(lex.store, study.box, user, slot.lexicon_name, kind, text, now=study.clock(),
                                   deadline=deadline)

    return answer(await server.run(work, what="POST /api/cardbox/import", arrived=arrival(request)))


async def cardbox_export(request: Request) -> Response:
    """``GET /api/cardbox/export?user=&lexicon=&type=&format=``: the cardbox's questions of one type with every
    answer, as a list file to save (``plain``: one word a line; ``zyzzyva``: Anagram Question/Answer)."""
    server, study = state_of(request)
    check_query(request, server.limits.max_query)
    check_params(request, ("format", "lexicon", "type", "user"), "an export")
    q = request.query_params
    user = user_of(q.get("user") or None, "parameter 'user'")
    kind = choice_of(q.get("type"), QUIZ_TYPES, "anagram", "parameter 'type'")
    fmt = choice_of(q.get("format"), FORMATS, "plain", "parameter 'format'")
    slot = server.pool.served(q.get("lexicon"))

    def work(deadline: float) -> str:
        with server.pool.use(slot.name) as lex:
            rows = export_rows(lex.store, lex.engine, study.box, user, slot.lexicon_name, kind, deadline=deadline)
        return export_text(rows, fmt)

    text = await server.run(work, what="GET /api/cardbox/export", arrived=arrival(request))
    name = f"cardbox-{slot.lexicon_name}-{kind}{'-zyzzyva' if fmt == 'zyzzyva' else ''}.txt"
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in name)
    return Response(text, media_type="text/plain; charset=utf-8",
                    headers={"content-disposition": f'attachment; filename="{safe}"'})


#: The study routes, in the order the app lists them (before ``/api/{name}``).
STUDY_ROUTES = [
    Route("/api/quiz", new_quiz, methods=["POST"]),
    Route("/api/quiz/{id}", show_quiz, methods=["GET"]),
    Route("/api/quiz/{id}/answer", answer_quiz, methods=["POST"]),
    Route("/api/quiz/{id}/next", next_question, methods=["POST"]),
    Route("/api/quiz/{id}/end", end_quiz, methods=["POST"]),
    Route("/api/quiz/{id}/summary", quiz_summary, methods=["GET"]),
    Route("/api/cardbox", cardbox_counts, methods=["GET"]),
    Route("/api/cardbox/import", cardbox_import, methods=["POST"]),
    Route("/api/cardbox/export", cardbox_export, methods=["GET"]),
]
