"""The ASGI application: routes made from the command registry, limits, errors as JSON.

Every command of :func:`lexigraph.commands.all_commands` that writes no
file is served as ``GET /api/<name>`` (query fields) and ``POST
/api/<name>`` (a JSON object), answering the document the command line
prints with ``--json``. The work runs in lanes (:mod:`lexigraph.server.lanes`)
so the event loop stays free to answer (and to refuse) other requests:
cheap commands (``check``, ``children``, ``info``, ``stats``) on the event
loop itself (their work is bounded by the request's size), so they never
wait behind expensive ones; the other queries and the games in threads;
the long, CPU-bound commands (endgames, simulations, move lists, fills) in
worker processes at a lower CPU priority, so that they take only the CPU
the server leaves.

Under load: each request gets a deadline (``--timeout`` seconds after it
arrived) that every query checks inside its loops; work still queued when
its deadline passes is dropped, never started; a full lane answers 503 with
a ``Retry-After``; a list field holds at most ``max_values`` values; a body
must arrive within ``body_timeout`` seconds (headers: the protocol's
``header_timeout``, :mod:`lexigraph.server.protocol`); an internal error is
logged as one line.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from contextlib import asynccontextmanager
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

from ..commands import Command, Param, all_commands
from ..errors import DeadlineExceeded, LexiconError, QueryError
from . import params as P
from .answers import ApiError, cap_results, dump, failure_of, log_internal_error, one_line, time_limit
from .gamedb import GameDatabase
from .games import GameStore, game_routes
from .httpio import arrival, check_query, error_response, read_body
from .lanes import FILLS, HEAVY, QUICK, Lane, Limits, Server
from .lexicons import LexiconPool
from .openapi import openapi

__all__ = ["ApiError", "FILLS", "HEAVY", "QUICK", "Lane", "Limits", "Server", "arrival", "build_app", "cap_results",
           "check_query", "dump", "error_response", "http_params", "log_internal_error", "one_line", "read_body",
           "served", "time_limit"]

log = logging.getLogger("lexigraph.server")

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
    games_db: str = ":memory:",
) -> Starlette:
    """The ASGI app over ``pool``; ``commands`` defaults to the registry's (those :func:`served`).

    ``games_db`` is the games file (:mod:`lexigraph.server.gamedb`; ``":memory:"``, the default here: games
    kept in memory only); a file that cannot be used is a :class:`~lexigraph.server.gamedb.GamesDatabaseError`.
    """
    cmds = {c.name: c for c in (all_commands() if commands is None else commands) if served(c)}
    server = Server(pool, cmds, limits or Limits())
    games = GameStore(GameDatabase(games_db), pool.use, server.limits.max_games, server.limits.game_idle)
    static_dir = resources.files("lexigraph.server").joinpath("static")
    spec_cache: dict[str, Any] = {}

    async def api_command(request: Request) -> Response:
        name = request.path_params["name"]
        cmd = server.commands.get(name)
        if cmd is None:
            raise ApiError(404, "NotFound", f"no command named {name!r} (see /api)")
        check_query(request, server.limits.max_query)
        if request.method == "POST":
            body = await read_body(request, server.limits.max_body, server.limits.body_timeout)
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
        fill = name in server.limits.fills and not values.get("suggest")
        lane = server.lane_of(name)
        doc = await server.run(server.job(cmd, lexicon, values, lane), fill=fill, lane=lane,
                               what=f"{request.method} {request.url.path}", arrived=arrival(request))
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
        check_query(request, server.limits.max_query)
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
        return api_error_response(exc)

    async def on_lexicon_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, LexiconError)
        if isinstance(exc, DeadlineExceeded):  # the query stopped at its deadline: the server's time limit
            return api_error_response(time_limit(server.limits.timeout))
        return api_error_response(failure_of(exc).error())

    def api_error_response(exc: ApiError) -> Response:
        return error_response(exc.status, exc.type, exc.message, retry_after=exc.retry_after)

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
            games.db.close()

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
