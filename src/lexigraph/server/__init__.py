"""``lexigraph serve``: the JSON HTTP API and the web page, over one or more lexicons.

The command line wires this package in with :func:`add_arguments` and
:func:`main`; programs embed the ASGI app with :func:`create_app`. The web
stack (Starlette, uvicorn) comes with the ``serve`` extra
(``pip install 'lexigraph[serve]'``) and is imported only when a server
starts, so the rest of the command line starts as fast as before.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="lexigraph serve")
>>> add_arguments(parser)
>>> args = parser.parse_args(["--port", "9000", "--lexicon", "twl=twl06.lex"])
>>> args.port, args.lexicons, args.host
(9000, ['twl=twl06.lex'], '127.0.0.1')
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..commands import Command
from ..errors import LexiconError
from ..study.cardbox import default_path as study_default_path
from .gamedb import default_path
from .lanes import Limits
from .lexicons import LexiconPool, parse_spec
from .protocol import protocol_class

if TYPE_CHECKING:  # pragma: no cover
    from starlette.applications import Starlette

__all__ = ["add_arguments", "create_app", "main"]

EXTRA_HINT = "lexigraph serve needs the web stack: pip install 'lexigraph[serve]'"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``serve`` options to ``parser`` (the command line's ``serve`` subparser)."""
    parser.add_argument("--host", default="127.0.0.1", metavar="ADDRESS", help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, metavar="PORT", default=8080, help="port to listen on (default 8080)")
    parser.add_argument(
        "--lexicon", "-L", dest="lexicons", action="append", metavar="NAME=FILE",
        help="serve FILE under NAME (repeatable; the first is the default; a rebuilt FILE is picked up "
        "without a restart). Without it: the built-in ENABLE lexicon as 'enable'",
    )
    parser.add_argument("--max-results", type=int, metavar="N", default=1000, help="most results in one answer (default 1000)")
    parser.add_argument("--timeout", type=float, metavar="SECONDS", default=10.0, help="seconds a request may take (default 10)")
    parser.add_argument("--workers", type=int, metavar="N", default=2, help="threads answering queries (default 2)")
    parser.add_argument("--quick-workers", type=int, metavar="N", default=0,
                        help="threads answering the quick commands (check, children, info, stats) beside them "
                        "(default 0: on the event loop, at once)")
    parser.add_argument("--max-pending", type=int, metavar="N", default=128,
                        help="requests running or queued, per lane, before new ones get 503 (default 128)")
    parser.add_argument("--max-values", type=int, metavar="N", default=1000,
                        help="most values of one list field (patterns, racks, words...) in a request (default 1000)")
    parser.add_argument("--max-body", type=int, metavar="BYTES", default=64 * 1024, help="largest request body in bytes (default 65536)")
    parser.add_argument("--max-fills", type=int, metavar="N", default=2, help="fills running at once (default 2)")
    parser.add_argument("--heavy-workers", type=int, metavar="N", default=2,
                        help="worker processes answering the long commands (endgame, sim, moves, analyze, fill) at a "
                        "lower CPU priority, so that cheap requests stay fast (default 2; 0: in the query threads)")
    parser.add_argument("--heavy-pending", type=int, metavar="N", default=64,
                        help="long commands running or queued before new ones get 503 with Retry-After (default 64; "
                        "fewer when those queued would take longer than --timeout)")
    parser.add_argument("--heavy-start", choices=("server", "first-use"), default="server",
                        help="when the worker processes start: with the server (default: the first long command "
                        "does not wait for them) or with the first long command")
    parser.add_argument("--heavy-nice", type=int, metavar="N", default=10,
                        help="how many steps below the server's CPU priority the worker processes run (0-19; "
                        "default 10)")
    parser.add_argument("--client-timeout", type=float, metavar="SECONDS", default=10.0,
                        help="seconds a request's headers, and then its body, may take to arrive (default 10)")
    parser.add_argument("--max-games", type=int, metavar="N", default=100,
                        help="games against lexigraph kept at once; the least recently used is dropped (default 100)")
    parser.add_argument("--game-idle", type=float, metavar="SECONDS", default=3600.0,
                        help="seconds a game (finished or not) is kept after its last request (default 3600)")
    parser.add_argument("--games-db", metavar="PATH", default=None,
                        help="the SQLite file the games are kept in, so that a restarted server goes on with them "
                        "(default: $XDG_DATA_HOME/lexigraph/games.sqlite3, else "
                        "~/.local/share/lexigraph/games.sqlite3; ':memory:' keeps them in memory only)")
    parser.add_argument("--study-store", metavar="PATH", default=None,
                        help="the SQLite file the quizzes and the cardbox are kept in, shared with lexigraph quiz "
                        "(default: $XDG_DATA_HOME/lexigraph/study.sqlite, else ~/.local/share/lexigraph/study.sqlite; "
                        "':memory:' keeps them in memory only)")
    parser.add_argument("--log-level", default="warning", choices=("critical", "error", "warning", "info", "debug"),
                        help="server log detail (default warning)")


def _limits_from(args: argparse.Namespace) -> Limits:
    for name in ("quick_workers", "heavy_workers"):
        if getattr(args, name) < 0:
            raise LexiconError(f"--{name.replace('_', '-')} must be at least 0")
    if not 0 <= args.heavy_nice <= 19:
        raise LexiconError("--heavy-nice must be from 0 to 19")
    for name in ("max_results", "workers", "max_body", "max_fills", "max_pending", "max_values", "max_games",
                 "heavy_pending"):
        if getattr(args, name) < 1:
            raise LexiconError(f"--{name.replace('_', '-')} must be at least 1")
    for name in ("timeout", "client_timeout", "game_idle"):
        if not 0 < getattr(args, name) < float("inf"):
            raise LexiconError(f"--{name.replace('_', '-')} must be more than 0")
    return Limits(max_body=args.max_body, max_results=args.max_results, timeout=args.timeout,
                  workers=args.workers, quick_workers=args.quick_workers, max_fills=args.max_fills,
                  heavy_workers=args.heavy_workers, heavy_pending=args.heavy_pending, heavy_nice=args.heavy_nice,
                  heavy_at_start=args.heavy_start == "server",
                  max_pending=args.max_pending, max_values=args.max_values, header_timeout=args.client_timeout,
                  body_timeout=args.client_timeout, max_games=args.max_games, game_idle=args.game_idle)


def _games_path(given: str | None) -> str:
    """The games file ``serve`` keeps: ``--games-db``, else the default in the user's data folder."""
    if given is None:
        return default_path()
    if not given.strip():
        raise LexiconError("--games-db takes a file path, or ':memory:'")
    return given


def _study_path(given: str | None) -> str:
    """The study store ``serve`` keeps: ``--study-store``, else the user's, shared with ``lexigraph quiz``."""
    if given is None:
        return study_default_path()
    if not given.strip():
        raise LexiconError("--study-store takes a file path, or ':memory:'")
    return given


def create_app(
    lexicons: Sequence[str] | Sequence[tuple[str, str | None]] = (),
    *,
    limits: Limits | None = None,
    commands: Sequence[Command] | None = None,
    games_db: str = ":memory:",
    study_db: str = ":memory:",
) -> "Starlette":
    """The ASGI app serving ``lexicons`` (``"NAME=FILE"`` strings or ``(name, path)`` pairs).

    ``games_db``: the SQLite file the games against lexigraph are kept in (default here ``":memory:"``: in
    memory only; ``lexigraph serve`` keeps them in the user's data folder,
    :func:`lexigraph.server.gamedb.default_path`). ``study_db``: the study store (quizzes and the cardbox; the same
    default here, and ``serve`` keeps it in the user's data folder, :func:`lexigraph.study.cardbox.default_path`).

    >>> from starlette.testclient import TestClient      # doctest: +SKIP
    >>> with TestClient(create_app()) as client:         # doctest: +SKIP
    ...     client.get("/words", params={"sp": "?uixot??", "max": 2}).json()
    [{'word': 'quixotes', 'score': 0}, {'word': 'quixotic', 'score': 0}]
    """
    # Deferred: the app imports Starlette, which only a server needs (the serve extra; a missing one is one line).
    from .app import build_app

    specs = [parse_spec(s) if isinstance(s, str) else s for s in lexicons]
    return build_app(LexiconPool(specs), limits=limits, commands=commands, games_db=games_db, study_db=study_db)


def main(args: argparse.Namespace) -> int:
    """Run the server until interrupted; 2 (one line on stderr) when it cannot start."""
    try:
        import uvicorn  # deferred: the web stack, only when a server starts
    except ImportError:
        print(f"lexigraph: error: {EXTRA_HINT}", file=sys.stderr)
        return 2
    try:
        limits = _limits_from(args)
        games = _games_path(args.games_db)
        study = _study_path(args.study_store)
        app = create_app(args.lexicons or (), limits=limits, games_db=games, study_db=study)
    except ImportError:
        print(f"lexigraph: error: {EXTRA_HINT}", file=sys.stderr)
        return 2
    except LexiconError as e:
        print(f"lexigraph: error: {e}", file=sys.stderr)
        return 2
    names = ", ".join(app.state.server.pool.names)
    print(f"lexigraph: serving {names} on http://{args.host}:{args.port}/ (API: /api, OpenAPI: /openapi.json); "
          f"games kept in {app.state.games.db.path}; quizzes and the cardbox in {app.state.study.box.path}",
          file=sys.stderr)
    config: dict[str, Any] = {"host": args.host, "port": args.port, "log_level": args.log_level,
                              "http": protocol_class(limits.header_timeout)}
    try:
        uvicorn.run(app, **config)
    except OSError as e:
        print(f"lexigraph: error: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 2
    return 0
