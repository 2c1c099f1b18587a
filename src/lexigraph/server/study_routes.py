"""The routes of study (``/api/quiz``, ``/api/cardbox``): quizzes answered as they are typed, and the cardbox's
counts, over the app's study store (:class:`lexigraph.study.cardbox.CardBox`; docs/study.md, *HTTP*).

| route | what |
|---|---|
| ``POST /api/quiz`` | a new quiz: ``{"type", "search" / "words" / "questions" / "due", "order", "limit", "time_limit", "seed", "lexicon", "user"}``; 201 with the quiz |
| ``GET /api/quiz/{id}`` | the quiz as it stands |
| ``POST /api/quiz/{id}/answer`` | ``{"answer": "WORD"}``: the verdict (right, wrong, already, time_up) and the quiz |
| ``POST /api/quiz/{id}/next`` | the current question ended, its answers revealed, and the quiz at the next one |
| ``GET /api/quiz/{id}/summary`` | every question's result, the missed words with their hooks, the cardbox's counts |
| ``GET /api/cardbox?user=&lexicon=`` | the cardbox's counts: due now, by state and type |

Word Judge (``/api/judge``) and "why a word" (``/api/why``) are commands (:mod:`lexigraph.commands.judge`),
served as every command is.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .answers import ApiError

__all__ = ["STUDY_ROUTES"]


async def not_yet(request: Request) -> Response:
    raise ApiError(501, "NotImplemented", "this route is described in docs/study.md and not served yet")


#: The study routes, in the order the app lists them (before ``/api/{name}``).
STUDY_ROUTES = [
    Route("/api/quiz", not_yet, methods=["POST"]),
    Route("/api/quiz/{id}", not_yet, methods=["GET"]),
    Route("/api/quiz/{id}/answer", not_yet, methods=["POST"]),
    Route("/api/quiz/{id}/next", not_yet, methods=["POST"]),
    Route("/api/quiz/{id}/summary", not_yet, methods=["GET"]),
    Route("/api/cardbox", not_yet, methods=["GET"]),
]
