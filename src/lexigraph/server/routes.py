"""The routes: every served command (``/api/<name>``), the index of commands (``/api``), the lexicons, the OpenAPI
description, Datamuse's ``/words``, the health check, the page and its files.

Each handler is a module-level function that finds the server's state on its app
(``request.app.state.server``, a :class:`~lexigraph.server.lanes.Server`: the lexicons, the commands served, the
lanes and the limits); :mod:`lexigraph.server.app` puts it there and lists the routes. A command's work runs in
its lane (:meth:`Server.run <lexigraph.server.lanes.Server.run>`), never on the event loop unless it is quick.
"""

from __future__ import annotations

import os
from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from .answers import ApiError
from .httpio import arrival, check_query, read_body
from .lanes import Server
from .openapi import openapi
from .served import command_values, http_params

__all__ = ["PageFiles", "STATIC", "api_command", "api_index", "api_lexicons", "datamuse_words", "health", "index",
           "openapi_json"]

#: The page's folder in the package: ``index.html``, its style and its modules (``server/static/*``, package data).
STATIC = str(resources.files("lexigraph.server").joinpath("static"))


def server_of(request: Request) -> Server:
    """The state behind the app that received ``request``."""
    server: Server = request.app.state.server
    return server


async def api_command(request: Request) -> Response:
    """``GET /api/<name>?field=value`` or ``POST /api/<name>`` with a JSON object: the command's JSON answer."""
    server = server_of(request)
    name = request.path_params["name"]
    cmd = server.commands.get(name)
    if cmd is None:
        raise ApiError(404, "NotFound", f"no command named {name!r} (see /api)")
    check_query(request, server.limits.max_query)
    body = None
    if request.method == "POST":
        body = await read_body(request, server.limits.max_body, server.limits.body_timeout)
    lexicon, values = command_values(cmd, request.query_params.multi_items(), max_values=server.limits.max_values,
                                     body=body)
    server.pool.served(lexicon)  # an unknown name is a 404 before any work
    # A fill is long; the same command asked for one slot's suggestions is not.
    fill = name in server.limits.fills and not values.get("suggest")
    lane = server.lane_of(name)
    doc = await server.run(server.job(cmd, lexicon, values, lane), fill=fill, lane=lane,
                           what=f"{request.method} {request.url.path}", arrived=arrival(request))
    return Response(doc, media_type="application/json")


async def api_index(request: Request) -> Response:
    """``GET /api``: the commands served and their fields, the lexicons, the limits (what the page reads)."""
    server = server_of(request)
    limits = server.limits
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
        "limits": {"max_results": limits.max_results, "timeout": limits.timeout, "max_body": limits.max_body,
                   "max_values": limits.max_values},
    })


async def api_lexicons(request: Request) -> Response:
    """``GET /api/lexicons``: each served lexicon's name, file, word count, generation and error."""
    server = server_of(request)
    return JSONResponse({"default": server.pool.default, "results": [s.__dict__ for s in server.pool.status()]})


async def openapi_json(request: Request) -> Response:
    """``GET /openapi.json``: the OpenAPI description, made once per app from the commands it serves."""
    state = request.app.state
    spec: dict[str, Any] | None = getattr(state, "openapi", None)
    if spec is None:
        server = server_of(request)
        spec = openapi(list(server.commands.values()), server.pool.names, server.limits.max_results,
                       params_of=http_params)
        state.openapi = spec
    return JSONResponse(spec)


def datamuse_request(request: Request, max_results: int) -> tuple[str, int, str | None]:
    """Datamuse's fields: the spelling pattern, how many words (at most ``max_results``), the lexicon named."""
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
    return sp, min(n, max_results), q.get("lexicon")


async def datamuse_words(request: Request) -> Response:
    """Datamuse's ``/words?sp=PATTERN&max=N``: ``[{"word", "score"}]``, best first."""
    server = server_of(request)
    check_query(request, server.limits.max_query)
    sp, n, lexicon = datamuse_request(request, server.limits.max_results)
    server.pool.served(lexicon)

    def work(deadline: float) -> list[dict[str, Any]]:
        with server.pool.use(lexicon) as lex:
            words = lex.match(sp.lower(), limit=n, deadline=deadline)
            return [{"word": w, "score": lex.priority(w) or 0} for w in words]

    return JSONResponse(await server.run(work, what="GET /words", arrived=arrival(request)))


async def health(request: Request) -> Response:
    """``GET /healthz``: the commands running or queued, in all and per lane; the lexicons."""
    server = server_of(request)
    return JSONResponse({"ok": True, "busy": server.busy, "lanes": {k: v.busy for k, v in server.lanes.items()},
                         "lexicons": server.pool.names})


async def index(request: Request) -> Response:
    """``GET /``: the page."""
    return FileResponse(os.path.join(STATIC, "index.html"), media_type="text/html; charset=utf-8")


class PageFiles(StaticFiles):
    """The page's files (``/static``), its modules as ``text/javascript`` whatever the platform's table of types
    says (a browser runs no module served as ``text/plain``, which some systems give ``.js``)."""

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        if str(full_path).endswith(".js") and "content-type" in response.headers:
            response.headers["content-type"] = "text/javascript; charset=utf-8"
        return response
