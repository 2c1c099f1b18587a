"""What the server answers: a command run on the served lexicons as JSON bytes, and errors as JSON.

Shared by the server's process and its worker processes (:mod:`lexigraph.server.workers`), so that a command
answers the same bytes wherever it runs; no web stack is imported here.

>>> dump({"word": "café", "ok": True})
b'{"word":"caf\\xc3\\xa9","ok":true}'
>>> from lexigraph.errors import QueryError, ResourceBusy
>>> failure_of(QueryError("bad pattern"))
Failure(status=400, type='QueryError', message='bad pattern', retry_after=None)
>>> failure_of(ResourceBusy("no memory now", retry_after=30)).retry_after
30.0
"""

from __future__ import annotations

import json
import logging
import os
import traceback
from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any

from ..commands import Command, Context
from ..errors import DeadlineExceeded, FileFormatError, LexiconError, ResourceBusy
from .gamedb import GamesDatabaseError
from .lexicons import LexiconPool, UnknownLexicon

log = logging.getLogger("lexigraph.server")

__all__ = ["ApiError", "Failure", "answer_command", "cap_results", "dump", "failure_of", "log_internal_error",
           "one_line", "time_limit"]


class ApiError(Exception):
    """An error answered as ``{"error": {"type", "message"}}`` with an HTTP status (and, for a 503 that may
    clear, a ``Retry-After`` in seconds)."""

    def __init__(self, status: int, type_: str, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.type = type_
        self.message = message
        self.retry_after = retry_after


@dataclass(frozen=True)
class Failure:
    """An error as plain data: what a worker process hands back instead of raising (every exception class
    need not survive pickling), and what the server answers for a :class:`LexiconError`."""

    status: int
    type: str
    message: str
    retry_after: float | None = None

    def error(self) -> ApiError:
        return ApiError(self.status, self.type, self.message, retry_after=self.retry_after)


def status_of(e: LexiconError) -> int:
    """The HTTP status of a lexigraph error: the request's fault (400), the server's file (500), now busy (503)."""
    if isinstance(e, UnknownLexicon):
        return 404
    if isinstance(e, (FileFormatError, GamesDatabaseError)):
        return 500  # the server's own file is bad, not the request
    if isinstance(e, (DeadlineExceeded, ResourceBusy)):
        return 503
    return 400


def failure_of(e: LexiconError) -> Failure:
    """The answer to a lexigraph error, as data."""
    retry = e.retry_after if isinstance(e, ResourceBusy) else None
    return Failure(status_of(e), type(e).__name__, str(e), retry)


def time_limit(limit: float) -> ApiError:
    """The answer to a request that ran (or waited) past its deadline."""
    return ApiError(503, "TimeLimit", f"the request took longer than the limit of {limit:g} s")


def dump(doc: object) -> bytes:
    """The JSON bytes of an answer (UTF-8, compact), as Starlette's JSONResponse writes them."""
    return json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


def one_line(exc: BaseException) -> str:
    """An exception in one log line: its type, message and where it was raised (file, line, function)."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno} in {frames[-1].name})" if frames else ""
    message = " ".join(str(exc).split())[:300]
    return f"{type(exc).__name__}: {message}{where}"


def log_internal_error(what: str, exc: BaseException) -> None:
    """One line at ERROR for a bug; its traceback only when the log is at DEBUG."""
    log.error("internal error on %s: %s", what, one_line(exc))
    if log.isEnabledFor(logging.DEBUG):
        log.debug("traceback of the internal error on %s", what, exc_info=exc)


def cap_results(doc: Mapping[str, object], limit: int) -> dict[str, object]:
    """Cut ``results`` to ``limit``, keeping the number before the cut in ``total``.

    >>> cap_results({"results": [1, 2, 3], "count": 3}, 2)
    {'results': [1, 2], 'count': 2, 'total': 3, 'truncated': True}
    """
    results = doc.get("results")
    if isinstance(results, list) and len(results) > limit:
        return {**doc, "total": doc.get("total", len(results)), "results": results[:limit], "count": limit,
                "truncated": True}
    return dict(doc)


def answer_command(pool: LexiconPool, cmd: Command, lexicon: str | None, values: Mapping[str, object], deadline: float,
                   max_results: int) -> bytes:
    """One command on the named served lexicon, as the JSON bytes of its answer; the lexicon (and any other it
    names, ``diff A B``) is held until the answer is made."""
    chosen = pool.served(lexicon).name
    held: list[tuple[Any, Any]] = []

    def opener(spec: str | None) -> Any:
        # The command's lexicon, or another one it names (diff A B): by the server's names only.
        slot = pool.served(chosen if spec is None else spec)
        h = slot.acquire()
        held.append((slot, h))
        return h.lexicon

    # options["files"] False: commands read no file of the host when a value could name one (a position).
    ctx = Context(lexicon_spec=chosen, lexicon_given=bool(lexicon), opener=opener, deadline=deadline,
                  max_results=max_results, options={"files": False})
    try:
        doc = cmd.run(ctx, values)
        # Serialise here, while the lexicon is still held: a document may hold views of the file.
        return dump(cap_results(doc, max_results))
    finally:
        for slot, h in held:
            slot.release(h)
