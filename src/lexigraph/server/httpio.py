"""HTTP in and out for every route: request bodies bounded in size and time, query strings bounded, when a
request arrived, and every error answered as JSON: the app's exception handlers (:data:`EXCEPTION_HANDLERS`)
and its middleware for bugs (:class:`OneLineErrors`).

An :class:`~lexigraph.server.answers.ApiError` is answered as it says; a lexigraph error by its HTTP status
(:func:`lexigraph.server.answers.failure_of`: the request's fault 400, an unknown lexicon 404, the server's own
file 500, :class:`~lexigraph.errors.ResourceBusy` 503 with its ``Retry-After``, a query past its deadline 503
``TimeLimit``); Starlette's own 404 and 405 in the same JSON; a client gone before its body arrived one log line.

>>> error_response(503, "Busy", "try again", retry_after=2.5).headers["retry-after"]
'3'
>>> from lexigraph.errors import ResourceBusy
>>> r = lexicon_error_response(ResourceBusy("no memory now", retry_after=30), timeout=10)
>>> r.status_code, r.headers["retry-after"], r.body
(503, '30', b'{"error":{"type":"ResourceBusy","message":"no memory now"}}')
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import Callable, Coroutine
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import DeadlineExceeded, LexiconError, QueryError
from .answers import ApiError, failure_of, log_internal_error, time_limit
from .protocol import ARRIVED

__all__ = ["EXCEPTION_HANDLERS", "OneLineErrors", "api_error_response", "arrival", "check_query", "error_response",
           "lexicon_error_response", "read_body"]

log = logging.getLogger("lexigraph.server")


def error_response(status: int, type_: str, message: str, *, retry_after: float | None = None) -> JSONResponse:
    """``{"error": {"type", "message"}}`` with ``status``; a ``Retry-After`` (whole seconds) for what may clear."""
    # A request whose body did not arrive leaves the connection in an unknown state: closed after the answer.
    headers = {"connection": "close"} if status == 408 else {}
    if retry_after is not None:  # a resource that may free up (memory, workers): the client is told when to try again
        headers["retry-after"] = str(max(1, math.ceil(retry_after)))
    return JSONResponse({"error": {"type": type_, "message": message}}, status_code=status, headers=headers)


async def read_body(request: Request, limit: int, timeout: float) -> Any:
    """A request's JSON object body: 413 past ``limit`` bytes, 408 when it takes over ``timeout`` seconds to arrive,
    400 when it is not a JSON object (an empty body is ``{}``)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise ApiError(413, "TooLarge", f"the request body is larger than the limit of {limit} bytes")
    chunks = []

    async def read() -> None:
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ApiError(413, "TooLarge", f"the request body is larger than the limit of {limit} bytes")
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), timeout)
    except TimeoutError:
        raise ApiError(408, "Timeout", f"the request body did not arrive within {timeout:g} s") from None
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise ApiError(400, "QueryError", f"the request body is not JSON: {' '.join(str(e).split())[:200]}") from None
    if not isinstance(body, dict):
        raise ApiError(400, "QueryError", "the request body must be a JSON object")
    return body


def arrival(request: Request) -> float | None:
    """When the request's first byte was read (:mod:`lexigraph.server.protocol` notes it), or None."""
    value = request.scope.get("state", {}).get(ARRIVED)
    return value if isinstance(value, float) else None


def check_query(request: Request, limit: int) -> None:
    """Refuse a query string over the limit (414)."""
    if len(request.url.query.encode()) > limit:
        raise ApiError(414, "TooLarge", f"the query string is longer than the limit of {limit} bytes")


# -- errors: the app's exception handlers ------------------------------------------------------------------------

def api_error_response(exc: ApiError) -> JSONResponse:
    """The answer an :class:`ApiError` stands for."""
    return error_response(exc.status, exc.type, exc.message, retry_after=exc.retry_after)


def lexicon_error_response(exc: LexiconError, timeout: float) -> JSONResponse:
    """The answer to a lexigraph error; a query stopped at its deadline is the server's time limit (``timeout``)."""
    if isinstance(exc, DeadlineExceeded):
        return api_error_response(time_limit(timeout))
    return api_error_response(failure_of(exc).error())


async def on_api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return api_error_response(exc)


async def on_lexicon_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, LexiconError)
    return lexicon_error_response(exc, request.app.state.server.limits.timeout)


async def on_client_gone(request: Request, exc: Exception) -> Response:
    # Nobody reads this answer: say so in one line, not as an internal error with a traceback.
    log.info("client went away before its request body arrived: %s %s", request.method, request.url.path)
    return error_response(400, "ClientDisconnect", "the client went away before its request body arrived")


async def on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    names = {404: "NotFound", 405: "MethodNotAllowed"}
    return error_response(exc.status_code, names.get(exc.status_code, "HTTPError"), str(exc.detail))


#: The app's exception handlers: every error a route raises, answered as JSON.
EXCEPTION_HANDLERS: dict[Any, Callable[[Request, Exception], Coroutine[Any, Any, Response]]] = {
    ApiError: on_api_error,
    LexiconError: on_lexicon_error,
    QueryError: on_lexicon_error,
    HTTPException: on_http_error,
    ClientDisconnect: on_client_gone,
}


class OneLineErrors:
    """ASGI middleware: a bug becomes a JSON 500 and one log line, instead of a traceback logged twice.

    Starlette's own handler for ``Exception`` logs, answers and re-raises so
    that the server logs the traceback again; this answers and logs once.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            log_internal_error(f"{scope.get('method', '?')} {scope.get('path', '?')}", exc)
            if not started:
                response = error_response(500, "InternalError", f"internal error: {type(exc).__name__}")
                await response(scope, receive, send)
