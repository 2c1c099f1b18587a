"""The ASGI application: routes made from the command registry, limits, errors as JSON.

Every command of :func:`lexigraph.commands.all_commands` that writes no
file is served as ``GET /api/<name>`` (query fields) and ``POST
/api/<name>`` (a JSON object), answering the document the command line
prints with ``--json``. The work runs in bounded thread pools so the
event loop stays free to answer (and to refuse) other requests.

Under load: each request gets a deadline (``--timeout`` seconds after it
arrived) that every query checks inside its loops; work still queued when
its deadline passes is dropped, never started; cheap commands (``check``,
``children``, ``info``, ``stats``) run in a lane of their own (by default on
the event loop itself: their work is bounded by the request's size), so they
never wait behind expensive ones; a list field holds at most ``max_values``
values; a body must arrive within ``body_timeout`` seconds (headers: the
protocol's ``header_timeout``, :mod:`lexigraph.server.protocol`); an
internal error is logged as one line.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import time
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, AsyncIterator

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..commands import Command, Context, Document, Param, all_commands
from ..errors import DeadlineExceeded, FileFormatError, LexiconError, QueryError, ResourceBusy
from . import params as P
from .lexicons import LexiconPool, UnknownLexicon
from .openapi import openapi
from .protocol import ARRIVED

log = logging.getLogger("lexigraph.server")

#: Commands whose work is long (searches over a grid or a board); at most ``max_heavy`` run at once.
HEAVY = frozenset({"fill", "suggest", "suggestions"})
#: Commands whose work is small and bounded by the request's size: they run in a lane of their own.
QUICK = frozenset({"check", "children", "info", "stats"})


@dataclass
class Limits:
    """What one request may ask of the server (``lexigraph serve --help`` sets them)."""

    max_body: int = 64 * 1024          # bytes of a POST body
    max_query: int = 8 * 1024          # bytes of a query string
    max_results: int = 1000            # results in one answer; the rest is counted in "total"
    max_values: int = 1000             # values of one list field (patterns, racks, words...) in one request
    timeout: float = 10.0              # seconds a request may take
    workers: int = 2                   # threads running commands (more add latency, not throughput: the GIL)
    quick_workers: int = 0             # threads running the quick commands; 0: on the event loop, at once
    max_pending: int = 128             # commands running or queued (per lane) before new ones get 503
    max_heavy: int = 2                 # fills and suggestions running at once
    heavy: frozenset[str] = HEAVY
    quick: frozenset[str] = QUICK
    grace: float = 0.5                 # extra seconds a command past its deadline has to hand back its answer
    header_timeout: float = 10.0       # seconds a request's headers may take to arrive (the protocol's)
    body_timeout: float = 10.0         # seconds a request's body may take to arrive
    max_games: int = 100               # games against lexigraph kept at once (the least recently used dropped)
    game_idle: float = 3600.0          # seconds a game is kept after its last request


@dataclass
class Lane:
    """A thread pool and its count of commands running or queued."""

    name: str
    workers: int
    executor: ThreadPoolExecutor | None = None
    busy: int = 0

    def start(self) -> ThreadPoolExecutor:
        if self.executor is None:
            assert self.workers > 0, "a lane of no threads runs its work on the event loop"
            self.executor = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix=f"lexigraph-{self.name}")
        return self.executor

    def stop(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None


class ApiError(Exception):
    """An error answered as ``{"error": {"type", "message"}}`` with an HTTP status."""

    def __init__(self, status: int, type_: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.type = type_
        self.message = message


def dump(doc: Any) -> bytes:
    """The JSON bytes of an answer (UTF-8, compact), as Starlette's JSONResponse writes them."""
    return json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


def error_response(status: int, type_: str, message: str, *, retry_after: float | None = None) -> JSONResponse:
    # A request whose body did not arrive leaves the connection in an unknown state: closed after the answer.
    headers = {"connection": "close"} if status == 408 else {}
    if retry_after is not None:  # a resource that may free up (memory): the client is told when to try again
        headers["retry-after"] = str(max(1, math.ceil(retry_after)))
    return JSONResponse({"error": {"type": type_, "message": message}}, status_code=status, headers=headers)


def _status_of(e: LexiconError) -> int:
    if isinstance(e, UnknownLexicon):
        return 404
    if isinstance(e, FileFormatError):
        return 500  # the server's own file is bad, not the request
    if isinstance(e, (DeadlineExceeded, ResourceBusy)):
        return 503
    return 400


def time_limit(limit: float) -> "ApiError":
    """The answer to a request that ran (or waited) past its deadline."""
    return ApiError(503, "TimeLimit", f"the request took longer than the limit of {limit:g} s")


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


_FILE_NAMES = {"file", "path", "source", "output", "dest", "files", "paths", "out"}


def _names_a_file(p: Param) -> bool:
    """A parameter that names a file on the server's disk (the client names lexicons only by served names)."""
    completer = getattr(p, "completer", None)
    if completer == "lexicon":
        return False
    if completer == "file":
        return True
    return p.name in _FILE_NAMES or (p.metavar is not None and "FILE" in p.metavar.upper())


def http_params(cmd: Command) -> list[Param]:
    """The parameters a command takes over HTTP: not the command line's own, nor file names."""
    return [p for p in P.http_params(cmd.params) if not _names_a_file(p)]


def served(cmd: Command) -> bool:
    """Whether a command is offered over HTTP.

    Commands that write files are not, nor those that need a file named by
    the client; an optional file parameter (``info FILE``) is simply not
    offered, and the command answers for the chosen lexicon. Parameters
    that name lexicons (``diff A B``) take the names the server was started with.
    """
    if cmd.writes_files:
        return False
    return not any(p.required and _names_a_file(p) for p in P.http_params(cmd.params))


def refuse_paths(cmd: Command, values: dict[str, Any]) -> None:
    """Refuse a text value that names an existing file on the server.

    Some commands read a file when a value names one (a position, a game
    file); over HTTP a client must send the content, not a name on the
    server's disk. Values that name lexicons are checked against the
    server's own names instead.
    """
    for p in http_params(cmd):
        if p.kind != "str" or getattr(p, "completer", None) == "lexicon":
            continue
        value = values.get(p.name)
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, str) and v and len(v) < 4096 and "\n" not in v and os.path.isfile(v):
                raise ApiError(400, "QueryError", f"parameter {p.name!r}: file names on the server are not accepted "
                               "over HTTP; send the content instead")


def cap_results(doc: Document, limit: int) -> Document:
    """Cut ``results`` to ``limit``, keeping the number before the cut in ``total``."""
    results = doc.get("results")
    if isinstance(results, list) and len(results) > limit:
        doc = dict(doc)
        doc.setdefault("total", len(results))
        doc["results"] = results[:limit]
        doc["count"] = limit
        doc["truncated"] = True
    return doc


@dataclass
class Server:
    """The state behind one app: lexicons, commands, the lanes of workers and their counters."""

    pool: LexiconPool
    commands: dict[str, Command]
    limits: Limits = field(default_factory=Limits)
    heavy_busy: int = 0
    lanes: dict[str, Lane] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.lanes:
            self.lanes = {"query": Lane("query", self.limits.workers), "quick": Lane("quick", self.limits.quick_workers)}

    @property
    def busy(self) -> int:
        """Commands running or queued, in every lane."""
        return sum(lane.busy for lane in self.lanes.values())

    def lane_of(self, command: str) -> Lane:
        """The lane a command runs in: the quick one for the cheap commands, the query one for the rest."""
        return self.lanes["quick" if command in self.limits.quick else "query"]

    def start(self) -> None:
        for lane in self.lanes.values():
            if lane.workers:
                lane.start()

    def stop(self) -> None:
        for lane in self.lanes.values():
            lane.stop()

    async def run(self, fn: Callable[[float], Any], heavy: bool = False, lane: Lane | None = None,
                  what: str = "a request", arrived: float | None = None) -> Any:
        """Run ``fn(deadline)`` in a lane's pool; 503 when it is saturated or past the time limit.

        The deadline is ``timeout`` seconds after the request ``arrived`` (its
        first byte, when the protocol noted it; else now); work still queued
        when it passes is dropped, not started. The busy counters drop when the
        thread really finishes, so work that overran its time still counts
        against the limits until it ends.
        """
        lim = self.limits
        lane = lane or self.lanes["query"]
        if lane.busy >= lim.max_pending:
            raise ApiError(503, "Busy", f"the server is busy ({lim.max_pending} requests in progress); try again")
        if heavy and self.heavy_busy >= lim.max_heavy:
            raise ApiError(503, "Busy", f"{lim.max_heavy} long jobs (fills) are running already; try again")
        now = time.monotonic()
        deadline = min(now, arrived if arrived is not None else now) + lim.timeout
        if not lane.workers:  # a lane of no threads: the work runs on the event loop itself, at once
            lane.busy += 1
            try:
                return fn(deadline)
            finally:
                lane.busy -= 1
        executor = lane.start()
        loop = asyncio.get_running_loop()
        lane.busy += 1
        if heavy:
            self.heavy_busy += 1
        answered = False

        def started() -> Any:
            if time.monotonic() > deadline:  # it waited its whole time in the queue: dropped, never started
                raise DeadlineExceeded("the request waited past its deadline in the queue and was not started")
            return fn(deadline)

        fut = loop.run_in_executor(executor, started)

        def done(f: "asyncio.Future[Any]") -> None:
            lane.busy -= 1
            if heavy:
                self.heavy_busy -= 1
            if f.cancelled():
                return
            e = f.exception()  # an answer nobody waits for any more (time limit, client gone) ends quietly
            if answered and e is not None and not isinstance(e, LexiconError):
                log_internal_error(what, e)  # ... unless it is a bug: one line

        fut.add_done_callback(done)
        try:
            # shield: a client that goes away, or the time limit, does not cancel the bookkeeping above.
            return await asyncio.wait_for(asyncio.shield(fut), max(0.0, deadline + lim.grace - time.monotonic()))
        except TimeoutError:
            raise time_limit(lim.timeout) from None
        finally:
            answered = True

    def run_command(self, cmd: Command, lexicon: str | None, values: dict[str, Any], deadline: float) -> bytes:
        """One command on the named lexicon, in a worker thread; the lexicon is held until the answer is made."""
        chosen = self.pool.served(lexicon).name
        held: list[tuple[Any, Any]] = []

        def opener(spec: str | None) -> Any:
            # The command's lexicon, or another one it names (diff A B): by the server's names only.
            slot = self.pool.served(chosen if spec is None else spec)
            h = slot.acquire()
            held.append((slot, h))
            return h.lexicon

        # options["files"] False: commands read no file of the host when a value could name one (a position).
        ctx = Context(lexicon_spec=chosen, lexicon_given=bool(lexicon), opener=opener, deadline=deadline,
                      max_results=self.limits.max_results, options={"files": False})
        try:
            doc = cmd.run(ctx, values)
            # Serialise here, while the lexicon is still held: a document may hold views of the file.
            return dump(cap_results(doc, self.limits.max_results))
        finally:
            for slot, h in held:
                slot.release(h)


async def _read_body(request: Request, limit: int, timeout: float) -> Any:
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


#: A request's JSON body, bounded in size and in time (the routes beyond the commands' read theirs with it).
read_body = _read_body


def arrival(request: Request) -> float | None:
    """When the request's first byte was read (:mod:`lexigraph.server.protocol` notes it), or None."""
    value = request.scope.get("state", {}).get(ARRIVED)
    return value if isinstance(value, float) else None


def check_counts(params: Sequence[Param], values: dict[str, Any], limit: int) -> None:
    """Refuse a list field of more than ``limit`` values (patterns, racks, words...): each costs a query."""
    for p in params:
        given = values.get(p.name)
        if p.many and isinstance(given, list) and len(given) > limit:
            raise ApiError(400, "QueryError", f"parameter {p.name!r}: at most {limit} values in one request, "
                           f"not {len(given)}")


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


def _check_query(request: Request, limit: int) -> None:
    if len(request.url.query.encode()) > limit:
        raise ApiError(414, "TooLarge", f"the query string is longer than the limit of {limit} bytes")


#: Refuse a query string over the limit (414).
check_query = _check_query


def _pop_lexicon(items: list[tuple[str, Any]]) -> tuple[str | None, list[tuple[str, Any]]]:
    lexicon = None
    rest = []
    for k, v in items:
        if k == "lexicon":
            if not isinstance(v, str):
                raise ApiError(400, "QueryError", "parameter 'lexicon': expected a lexicon name")
            lexicon = v
        else:
            rest.append((k, v))
    return lexicon, rest


def build_app(
    pool: LexiconPool,
    *,
    limits: Limits | None = None,
    commands: Sequence[Command] | None = None,
) -> Starlette:
    """The ASGI app over ``pool``; ``commands`` defaults to the registry's (those :func:`served`)."""
    cmds = {c.name: c for c in (all_commands() if commands is None else commands) if served(c)}
    server = Server(pool, cmds, limits or Limits())
    static_dir = resources.files("lexigraph.server").joinpath("static")
    spec_cache: dict[str, Any] = {}

    async def api_command(request: Request) -> Response:
        name = request.path_params["name"]
        cmd = server.commands.get(name)
        if cmd is None:
            raise ApiError(404, "NotFound", f"no command named {name!r} (see /api)")
        _check_query(request, server.limits.max_query)
        if request.method == "POST":
            body = await _read_body(request, server.limits.max_body, server.limits.body_timeout)
            lexicon, rest = _pop_lexicon(list(body.items()))
            qlex, qrest = _pop_lexicon(list(request.query_params.multi_items()))
            if qrest:
                raise ApiError(400, "QueryError", "a POST takes its parameters in the JSON body")
            values = P.from_json(http_params(cmd), dict(rest))
            lexicon = lexicon or qlex
        else:
            lexicon, rest = _pop_lexicon(list(request.query_params.multi_items()))
            values = P.from_query(http_params(cmd), rest)
        check_counts(http_params(cmd), values, server.limits.max_values)
        refuse_paths(cmd, values)
        server.pool.served(lexicon)  # an unknown name is a 404 before any work
        # A fill is long; the same command asked for one slot's suggestions is not.
        heavy = name in server.limits.heavy and not values.get("suggest")
        doc = await server.run(lambda deadline: server.run_command(cmd, lexicon, values, deadline), heavy=heavy,
                               lane=server.lane_of(name), what=f"{request.method} {request.url.path}",
                               arrived=arrival(request))
        return Response(doc, media_type="application/json")

    async def api_index(request: Request) -> Response:
        return JSONResponse({
            "commands": [
                {
                    "name": c.name,
                    "summary": c.summary,
                    "path": f"/api/{c.name}",
                    "params": [
                        {"name": p.name, "help": p.help, "kind": p.kind, "many": p.many, "required": p.required,
                         "default": p.default, "choices": list(p.choices) if p.choices else None}
                        for p in http_params(c)
                    ],
                }
                for c in server.commands.values()
            ],
            "lexicons": [s.__dict__ for s in server.pool.status()],
            "default_lexicon": server.pool.default,
            "limits": {"max_results": server.limits.max_results, "timeout": server.limits.timeout,
                       "max_body": server.limits.max_body, "max_values": server.limits.max_values},
        })

    async def api_lexicons(request: Request) -> Response:
        return JSONResponse({"default": server.pool.default, "results": [s.__dict__ for s in server.pool.status()]})

    async def openapi_json(request: Request) -> Response:
        if "spec" not in spec_cache:
            spec_cache["spec"] = openapi(list(server.commands.values()), server.pool.names, server.limits.max_results,
                                         params_of=http_params)
        return JSONResponse(spec_cache["spec"])

    async def datamuse_words(request: Request) -> Response:
        """Datamuse's ``/words?sp=PATTERN&max=N``: ``[{"word", "score"}]``, best first."""
        _check_query(request, server.limits.max_query)
        q = request.query_params
        unsupported = [k for k in q if k not in ("sp", "max", "lexicon")]
        if unsupported:
            raise ApiError(400, "QueryError", f"unsupported parameter {unsupported[0]!r}: this server answers sp and max")
        sp = q.get("sp")
        if not sp:
            raise ApiError(400, "QueryError", "parameter 'sp' (a spelling pattern) is required")
        try:
            n = int(q.get("max", "100"))
        except ValueError:
            raise ApiError(400, "QueryError", f"parameter 'max': invalid int value: {q.get('max')!r}") from None
        if n < 1:
            raise ApiError(400, "QueryError", "parameter 'max' must be at least 1")
        n = min(n, server.limits.max_results)
        lexicon = q.get("lexicon")
        server.pool.served(lexicon)

        def work(deadline: float) -> list[dict[str, Any]]:
            with server.pool.use(lexicon) as lex:
                words = lex.match(sp.lower(), limit=n, deadline=deadline)
                return [{"word": w, "score": lex.priority(w) or 0} for w in words]

        return JSONResponse(await server.run(work, what="GET /words", arrived=arrival(request)))

    async def index(request: Request) -> Response:
        return FileResponse(str(static_dir.joinpath("index.html")), media_type="text/html; charset=utf-8")

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "busy": server.busy, "lanes": {k: v.busy for k, v in server.lanes.items()},
                             "lexicons": server.pool.names})

    async def on_api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return error_response(exc.status, exc.type, exc.message)

    async def on_lexicon_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, LexiconError)
        if isinstance(exc, DeadlineExceeded):  # the query stopped at its deadline: the server's time limit
            return on_api_error_now(time_limit(server.limits.timeout))
        retry = exc.retry_after if isinstance(exc, ResourceBusy) else None
        return error_response(_status_of(exc), type(exc).__name__, str(exc), retry_after=retry)

    def on_api_error_now(exc: ApiError) -> Response:
        return error_response(exc.status, exc.type, exc.message)

    async def on_client_gone(request: Request, exc: Exception) -> Response:
        # Nobody reads this answer: say so in one line, not as an internal error with a traceback.
        log.info("client went away before its request body arrived: %s %s", request.method, request.url.path)
        return error_response(400, "ClientDisconnect", "the client went away before its request body arrived")

    async def on_http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        names = {404: "NotFound", 405: "MethodNotAllowed"}
        return error_response(exc.status_code, names.get(exc.status_code, "HTTPError"), str(exc.detail))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.start()
        try:
            yield
        finally:
            server.stop()

    from .games import GameStore, game_routes

    games = GameStore(server.limits.max_games, server.limits.game_idle)
    routes = [
        Route("/", index),
        Route("/api", api_index),
        Route("/api/lexicons", api_lexicons),
        *game_routes(server, games),
        Route("/api/{name}", api_command, methods=["GET", "POST"]),
        Route("/openapi.json", openapi_json),
        Route("/words", datamuse_words),
        Route("/healthz", health),
        Mount("/static", app=StaticFiles(directory=str(static_dir)), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(OneLineErrors)],
        exception_handlers={
            ApiError: on_api_error,
            LexiconError: on_lexicon_error,
            QueryError: on_lexicon_error,
            HTTPException: on_http_error,
            ClientDisconnect: on_client_gone,
        },
    )
    app.state.server = server
    app.state.games = games
    return app
