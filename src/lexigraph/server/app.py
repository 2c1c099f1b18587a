"""The ASGI application, assembled: the routes, the error handlers, the middleware and the server's state.

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

Where each part lives: the routes in :mod:`~lexigraph.server.routes` and
:mod:`~lexigraph.server.game_routes`, which commands and fields are offered in
:mod:`~lexigraph.server.served`, HTTP in and out and the errors as JSON in
:mod:`~lexigraph.server.httpio`, the lanes and the limits in
:mod:`~lexigraph.server.lanes`. The handlers are module-level functions that find
the server's state on the app: ``app.state.server`` (a :class:`Server`) and
``app.state.games`` (a :class:`~lexigraph.server.games.GameStore`) and ``app.state.study`` (the study store:
:class:`~lexigraph.server.study_routes.StudyState`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Mount, Route

from ..commands import Command, all_commands
from ..study.cardbox import CardBox
from . import routes
from .gamedb import GameDatabase
from .game_routes import GAME_ROUTES
from .grid_routes import GRID_ROUTES
from .games import GameStore
from .httpio import EXCEPTION_HANDLERS, OneLineErrors
from .lanes import Limits, Server
from .lexicons import LexiconPool
from .served import served
from .study_routes import STUDY_ROUTES, StudyState

__all__ = ["Limits", "Server", "build_app"]


def app_routes() -> list[BaseRoute]:
    """Every route, in the order they are matched (the games' and the grid files' before ``/api/{name}``)."""
    return [
        Route("/", routes.index),
        Route("/api", routes.api_index),
        Route("/api/lexicons", routes.api_lexicons),
        *GAME_ROUTES,
        *STUDY_ROUTES,
        *GRID_ROUTES,
        Route("/api/{name}", routes.api_command, methods=["GET", "POST"]),
        Route("/openapi.json", routes.openapi_json),
        Route("/words", routes.datamuse_words),
        Route("/healthz", routes.health),
        Mount("/static", app=routes.PageFiles(directory=routes.STATIC), name="static"),
    ]


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """The lanes start with the app; they stop, and the games file closes, when it ends."""
    app.state.server.start()
    try:
        yield
    finally:
        app.state.server.stop()
        app.state.games.db.close()
        app.state.study.box.close()


def build_app(
    pool: LexiconPool,
    *,
    limits: Limits | None = None,
    commands: Sequence[Command] | None = None,
    games_db: str = ":memory:",
    study_db: str = ":memory:",
) -> Starlette:
    """The ASGI app over ``pool``; ``commands`` defaults to the registry's (those :func:`served`).

    ``games_db`` is the games file (:mod:`lexigraph.server.gamedb`; ``":memory:"``, the default here: games
    kept in memory only); a file that cannot be used is a :class:`~lexigraph.server.gamedb.GamesDatabaseError`.
    ``study_db`` is the study store, the quizzes and the cardbox (:mod:`lexigraph.study.cardbox`; ``":memory:"``,
    the default here); a file that cannot be used is a :class:`~lexigraph.study.cardbox.StudyStoreError`.
    """
    cmds = {c.name: c for c in (all_commands() if commands is None else commands) if served(c)}
    server = Server(pool, cmds, limits or Limits())
    games = GameStore(GameDatabase(games_db), pool.use, server.limits.max_games, server.limits.game_idle)
    app = Starlette(routes=app_routes(), lifespan=lifespan, middleware=[Middleware(OneLineErrors)],
                    exception_handlers=EXCEPTION_HANDLERS)
    app.state.server = server
    app.state.games = games
    app.state.study = StudyState(CardBox(study_db))
    return app
