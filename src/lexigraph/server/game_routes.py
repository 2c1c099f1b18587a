"""The routes of the games against lexigraph (``/api/games``), over the app's games store
(:class:`~lexigraph.server.games.GameStore`).

| route | what |
|---|---|
| ``POST /api/games`` | a new game: ``{"opponent", "first", "seed", "game", "lexicon"}``; 201 with the game |
| ``GET /api/games/{id}`` | the game as the person sees it |
| ``POST /api/games/{id}/play`` | ``{"move": "8D WORD" / "-" / "-ABC"}``: the move, its analysis, the reply |
| ``GET /api/games/{id}/gcg`` | the game record (GCG text) |

Each handler finds the server and the games on its app (``request.app.state.server``, ``.games``). Every route's
work (reading the file, making a match again, a move) runs in the query lane, never on the event loop; one move
of a game is worked on at a time (another one meanwhile is a 409, as is a move on a game another server moved).
"""

from __future__ import annotations

import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..scrabble.game import Game
from ..scrabble.match import OPPONENTS, Match
from .answers import ApiError, dump
from .gamedb import MoveConflict
from .games import FIRST, GAME_PRESETS, NEW_GAME_FIELDS, Entry, GameStore
from .httpio import arrival, check_query, read_body
from .lanes import Server

__all__ = ["GAME_ROUTES", "game_gcg", "new_game", "play_move", "show_game"]


def server_and_games(request: Request) -> tuple[Server, GameStore]:
    """The state behind the app that received ``request``: the server and its games."""
    state = request.app.state
    server: Server = state.server
    games: GameStore = state.games
    return server, games


def entry_of(games: GameStore, key: str) -> Entry:
    """The game of ``key``; 404 when there is none."""
    try:
        return games.get(key)
    except KeyError:
        raise ApiError(404, "NotFound", f"no game {key[:40]!r} (it ended long ago, or never began)") from None


async def body_of(request: Request, server: Server, allowed: tuple[str, ...]) -> dict[str, Any]:
    """A game request's JSON body, bounded; 400 for a field it does not take."""
    check_query(request, server.limits.max_query)
    body: dict[str, Any] = await read_body(request, server.limits.max_body, server.limits.body_timeout)
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise ApiError(400, "QueryError", f"unknown field {unknown[0]!r} (a game takes: {', '.join(allowed)})")
    return body


def answer(key: str, doc: dict[str, Any], status: int = 200) -> Response:
    """The game's JSON document, with its id."""
    return Response(dump({"id": key, **doc}), status_code=status, media_type="application/json")


def new_game_fields(body: dict[str, Any]) -> tuple[str, str, int, str, str | None]:
    """A new game's opponent, first player, seed (a random one when not given), preset and lexicon name."""
    opponent = body.get("opponent", "equity")
    first = body.get("first", "you")
    seed = body.get("seed")
    preset = body.get("game", "scrabble")
    if opponent not in OPPONENTS:
        raise ApiError(400, "QueryError", f"field 'opponent': one of {', '.join(OPPONENTS)}")
    if first not in FIRST:
        raise ApiError(400, "QueryError", "field 'first': 'you' or 'lexigraph'")
    if seed is None:
        seed = secrets.randbits(32)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise ApiError(400, "QueryError", "field 'seed': a whole number from 0 to 2**64 - 1")
    if preset not in GAME_PRESETS:
        raise ApiError(400, "QueryError", f"field 'game': one of {', '.join(GAME_PRESETS)}")
    lexicon = body.get("lexicon")
    if lexicon is not None and not isinstance(lexicon, str):
        raise ApiError(400, "QueryError", "field 'lexicon': a lexicon name")
    return opponent, first, seed, preset, lexicon


async def new_game(request: Request) -> Response:
    """``POST /api/games``: a new game (lexigraph's first move made when it moves first); 201 with the game."""
    server, games = server_and_games(request)
    opponent, first, seed, preset, lexicon = new_game_fields(await body_of(request, server, NEW_GAME_FIELDS))
    name = server.pool.served(lexicon).name  # an unknown lexicon is a 404 before any work

    def work(deadline: float) -> tuple[str, dict[str, Any]]:
        with server.pool.use(name) as lex:
            match = Match(lex, Game.preset(preset), opponent=opponent, human_first=first == FIRST[0], seed=seed,
                          lexicon_name=server.pool.served(name).lexicon_name, deadline=deadline)
        return games.add(match, name, preset), match.state()

    key, doc = await server.run(work, what="POST /api/games", arrived=arrival(request))
    return answer(key, doc, status=201)


async def show_game(request: Request) -> Response:
    """``GET /api/games/{id}``: the game as of its last finished move."""
    server, games = server_and_games(request)
    check_query(request, server.limits.max_query)
    key = request.path_params["id"]
    doc = await server.run(lambda deadline: entry_of(games, key).shown, what="GET /api/games/{id}",
                           arrived=arrival(request))
    return answer(key, doc)


def make_move(games: GameStore, key: str, text: str, deadline: float) -> dict[str, Any]:
    """In the query lane: the person's move and the reply, one move of a game at a time (the game's lock, taken
    here, so that work refused or dropped never holds it)."""
    entry = entry_of(games, key)
    if not entry.lock.acquire(blocking=False):
        raise ApiError(409, "Busy", "a move of this game is being made; wait for its answer")
    try:
        done = games.play(key, entry, text, deadline)
        return {**entry.shown, **done}
    except MoveConflict as e:
        raise ApiError(409, "Conflict", str(e)) from None
    finally:
        entry.lock.release()


async def play_move(request: Request) -> Response:
    """``POST /api/games/{id}/play``: the person's move, its analysis and lexigraph's reply."""
    server, games = server_and_games(request)
    body = await body_of(request, server, ("move",))
    key = request.path_params["id"]
    text = body.get("move")
    if not isinstance(text, str):
        raise ApiError(400, "QueryError", "field 'move': a move such as '8D WORD', '-' (pass) or '-ABC' (exchange)")
    done = await server.run(lambda deadline: make_move(games, key, text, deadline),
                            what=f"POST /api/games/{key[:40]}/play", arrived=arrival(request))
    return answer(key, done)


async def game_gcg(request: Request) -> Response:
    """``GET /api/games/{id}/gcg``: the game record, as a file to download."""
    server, games = server_and_games(request)
    check_query(request, server.limits.max_query)
    key = request.path_params["id"]
    record = await server.run(lambda deadline: entry_of(games, key).record, what="GET /api/games/{id}/gcg",
                              arrived=arrival(request))
    return Response(record, media_type="text/plain; charset=utf-8",
                    headers={"content-disposition": f'attachment; filename="lexigraph-{key}.gcg"'})


#: The games' routes, in the order the app lists them (before ``/api/{name}``, which would take ``/api/games``).
GAME_ROUTES = [
    Route("/api/games", new_game, methods=["POST"]),
    Route("/api/games/{id}", show_game, methods=["GET"]),
    Route("/api/games/{id}/play", play_move, methods=["POST"]),
    Route("/api/games/{id}/gcg", game_gcg, methods=["GET"]),
]
