"""HTTP in and out for every route: request bodies bounded in size and time, query strings bounded, when a
request arrived, errors answered as JSON.

>>> error_response(503, "Busy", "try again", retry_after=2.5).headers["retry-after"]
'3'
"""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from .answers import ApiError
from .protocol import ARRIVED

__all__ = ["arrival", "check_query", "error_response", "read_body"]


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
