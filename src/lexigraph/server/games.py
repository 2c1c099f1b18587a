"""Games against lexigraph over HTTP: a bounded store of matches and the ``/api/games`` routes.

The game lives here, on the server, never in the page: the server deals
the tiles, checks every move against the move generator
(:class:`lexigraph.scrabble.match.Match`), plays the engine's replies under
the request's deadline, and records the GCG.

Hostile clients: at most ``Limits.max_games`` games are kept (a new game
beyond that drops the game used least recently), a game untouched for
``Limits.game_idle`` seconds is dropped, a move's body is bounded by
``max_body`` and its text by :data:`~lexigraph.scrabble.match.MAX_MOVE_TEXT`;
one move of a game is worked on at a time (another one meanwhile is a 409).
Unknown ids are 404; illegal moves the usual 400 JSON error (type
``IllegalPlay``, the rule in the message).

| route | what |
|---|---|
| ``POST /api/games`` | a new game: ``{"opponent", "first", "seed", "lexicon"}``; 201 with the game |
| ``GET /api/games/{id}`` | the game as the person sees it |
| ``POST /api/games/{id}/play`` | ``{"move": "8D WORD" / "-" / "-ABC"}``: the move, its analysis, the reply |
| ``GET /api/games/{id}/gcg`` | the game record (GCG text) |
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..scrabble.game import PRESETS, Game
from ..scrabble.match import OPPONENTS, Match

if TYPE_CHECKING:  # pragma: no cover
    from .app import Server

__all__ = ["GameStore", "game_routes"]

#: The fields a new game takes.
NEW_GAME_FIELDS = ("opponent", "first", "seed", "lexicon", "game")
#: The games a new game may be played on (presets only: a client names no file of the server's).
GAME_PRESETS = PRESETS  # every shipped game: a lexicon plays the one whose tiles are its own


@dataclass
class Entry:
    """One live game: the match, the lexicon it is played with, its lock and when it was last used.

    ``shown`` is the game's document as of its last finished move: a request that reads the game while a
    move is being made (in a worker thread) reads that, never a match half way through a turn.
    """

    match: Match
    lexicon: str
    used: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)
    shown: dict[str, Any] = field(default_factory=dict)
    record: str = ""

    def settle(self) -> None:
        """Take the document and the record of the game as it stands (after a move, under the lock)."""
        self.shown = self.match.state()
        self.record = self.match.gcg()


class GameStore:
    """Live games by id: at most ``max_games``, least recently used dropped first, idle ones expired.

    >>> store = GameStore(max_games=2, idle=60.0)
    >>> keys = [store.add(game, "enable") for game in ("first", "second", "third")]  # matches, in real use
    >>> len(store), keys[0] in store, store.get(keys[2]).match
    (2, False, 'third')
    """

    def __init__(self, max_games: int = 100, idle: float = 3600.0) -> None:
        self.max_games = max_games
        self.idle = idle
        self._games: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, key: object) -> bool:
        return key in self._games

    def expire(self, now: float | None = None) -> None:
        """Drop the games idle for longer than ``idle`` seconds."""
        now = time.monotonic() if now is None else now
        with self._lock:
            while self._games:
                key, entry = next(iter(self._games.items()))
                if now - entry.used <= self.idle:
                    break
                del self._games[key]

    def add(self, match: Match, lexicon: str) -> str:
        """Keep a new game; its id (random, unguessable). Drops the least recently used game when full."""
        self.expire()
        key = secrets.token_urlsafe(12)
        with self._lock:
            while len(self._games) >= self.max_games:
                self._games.popitem(last=False)
            self._games[key] = Entry(match, lexicon)
        return key

    def get(self, key: str) -> Entry:
        """The game of ``key``, marked as used now; :class:`KeyError` when there is none (or it expired)."""
        self.expire()
        with self._lock:
            entry = self._games[key]
            entry.used = time.monotonic()
            self._games.move_to_end(key)
            return entry


def game_routes(server: "Server", store: GameStore) -> list[Route]:
    """The ``/api/games`` routes over ``server``'s lexicons, lanes and limits."""
    from .app import ApiError, arrival, check_query, dump, read_body

    def entry_of(request: Request) -> tuple[str, Entry]:
        key = request.path_params["id"]
        try:
            return key, store.get(key)
        except KeyError:
            raise ApiError(404, "NotFound", f"no game {key[:40]!r} (it ended long ago, or never began)") from None

    async def body_of(request: Request, allowed: tuple[str, ...]) -> dict[str, Any]:
        check_query(request, server.limits.max_query)
        body: dict[str, Any] = await read_body(request, server.limits.max_body, server.limits.body_timeout)
        unknown = sorted(set(body) - set(allowed))
        if unknown:
            raise ApiError(400, "QueryError", f"unknown field {unknown[0]!r} (a game takes: {', '.join(allowed)})")
        return body

    def answer(key: str, entry: Entry, extra: dict[str, Any] | None = None, status: int = 200) -> Response:
        doc = {"id": key, **entry.shown, **(extra or {})}
        return Response(dump(doc), status_code=status, media_type="application/json")

    async def new_game(request: Request) -> Response:
        body = await body_of(request, NEW_GAME_FIELDS)
        opponent = body.get("opponent", "equity")
        first = body.get("first", "you")
        seed = body.get("seed")
        preset = body.get("game", "scrabble")
        if opponent not in OPPONENTS:
            raise ApiError(400, "QueryError", f"field 'opponent': one of {', '.join(OPPONENTS)}")
        if first not in ("you", "lexigraph"):
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
        name = server.pool.served(lexicon).name  # an unknown lexicon is a 404 before any work

        def work(deadline: float) -> tuple[str, Entry]:
            with server.pool.use(name) as lex:
                match = Match(lex, Game.preset(preset), opponent=opponent, human_first=first == "you", seed=seed,
                              lexicon_name=server.pool.served(name).lexicon_name, deadline=deadline)
            key = store.add(match, name)
            entry = store.get(key)
            entry.settle()
            return key, entry

        key, entry = await server.run(work, what="POST /api/games", arrived=arrival(request))
        return answer(key, entry, status=201)

    async def show_game(request: Request) -> Response:
        check_query(request, server.limits.max_query)
        key, entry = entry_of(request)
        return answer(key, entry)

    async def play(request: Request) -> Response:
        body = await body_of(request, ("move",))
        key, entry = entry_of(request)
        text = body.get("move")
        if not isinstance(text, str):
            raise ApiError(400, "QueryError", "field 'move': a move such as '8D WORD', '-' (pass) or '-ABC' "
                           "(exchange)")
        def work(deadline: float) -> dict[str, Any]:
            # One move of a game at a time: taken in the worker, so that work refused or dropped never holds it.
            if not entry.lock.acquire(blocking=False):
                raise ApiError(409, "Busy", "a move of this game is being made; wait for its answer")
            try:
                with server.pool.use(entry.lexicon) as lex:
                    done = entry.match.play(lex, text, deadline=deadline)
                entry.settle()
                return done
            finally:
                entry.lock.release()

        done = await server.run(work, what=f"POST /api/games/{key[:40]}/play", arrived=arrival(request))
        return answer(key, entry, done)

    async def gcg(request: Request) -> Response:
        check_query(request, server.limits.max_query)
        key, entry = entry_of(request)
        return Response(entry.record, media_type="text/plain; charset=utf-8",
                        headers={"content-disposition": f'attachment; filename="lexigraph-{key}.gcg"'})

    return [
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{id}", show_game, methods=["GET"]),
        Route("/api/games/{id}/play", play, methods=["POST"]),
        Route("/api/games/{id}/gcg", gcg, methods=["GET"]),
    ]
