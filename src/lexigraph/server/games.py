"""Games against lexigraph over HTTP: the games kept in a file, the matches in use in memory, the ``/api/games``
routes.

The game lives here, on the server, never in the page: the server deals
the tiles, checks every move against the move generator
(:class:`lexigraph.scrabble.match.Match`), plays the engine's replies under
the request's deadline, and records the GCG. Every game is kept in the
games file (:mod:`lexigraph.server.gamedb`, SQLite): how it was dealt and
each turn made, a move's turns in one transaction. A server killed and
started again on the same file shows every finished move and goes on; a
move it was making when killed was recorded whole or not at all (the
client, which got no answer, sends it again).

Hostile clients: at most ``Limits.max_games`` games are kept (a new game
beyond that deletes the game used least recently), a game untouched for
``Limits.game_idle`` seconds is deleted (a finished game too: its record
stays readable until then), a move's body is bounded by ``max_body`` and
its text by :data:`~lexigraph.scrabble.match.MAX_MOVE_TEXT`; one move of a
game is worked on at a time (another one meanwhile is a 409). Unknown ids
are 404; illegal moves the usual 400 JSON error (type ``IllegalPlay``, the
rule in the message); a game whose rows in the file do not make a game is a
500 (``DamagedGame``), a file busy past its timeout a 503 with Retry-After.

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
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..scrabble.game import PRESETS, Game, GameError
from ..scrabble.match import OPPONENTS, Match
from .gamedb import DamagedGame, GameDatabase, GameRow, MoveConflict
from .lexicons import UnknownLexicon

if TYPE_CHECKING:  # pragma: no cover
    from ..lexicon import Lexicon
    from .app import Server

__all__ = ["GameStore", "game_routes"]

#: The fields a new game takes.
NEW_GAME_FIELDS = ("opponent", "first", "seed", "lexicon", "game")
#: The games a new game may be played on (presets only: a client names no file of the server's).
GAME_PRESETS = PRESETS  # every shipped game: a lexicon plays the one whose tiles are its own
#: Who moves first, as a new game's field and the file's column say it.
FIRST = ("you", "lexigraph")

#: Opens a served lexicon by name for a ``with`` block (:meth:`lexigraph.server.lexicons.LexiconPool.use`).
Opener = Callable[[str], AbstractContextManager["Lexicon"]]


@dataclass
class Entry:
    """One game in use: the match, the lexicon it is played with, its lock, its turns in the file.

    ``shown`` is the game's document as of its last finished move: a request that reads the game while a
    move is being made (in a worker thread) reads that, never a match half way through a turn.
    """

    match: Match
    lexicon: str
    lock: threading.Lock = field(default_factory=threading.Lock)
    shown: dict[str, Any] = field(default_factory=dict)
    record: str = ""
    saved: int = 0

    def settle(self) -> None:
        """Take the document and the record of the game as it stands (after a move, under the lock)."""
        self.shown = self.match.state()
        self.record = self.match.gcg()


class GameStore:
    """Games by id, kept in a :class:`~lexigraph.server.gamedb.GameDatabase`: at most ``max_games`` (the least
    recently used deleted first), each deleted after ``idle`` seconds unused; the matches in use are held in
    memory (as many at most) and made again from the file when it holds more turns than they do.

    >>> import lexigraph
    >>> from contextlib import nullcontext
    >>> lex = lexigraph.open()
    >>> store = GameStore(GameDatabase(":memory:"), lambda name: nullcontext(lex), max_games=2, idle=60.0)
    >>> keys = [store.add(Match(lex, Game.preset("scrabble"), seed=k), "enable", "scrabble") for k in range(3)]
    >>> len(store), keys[0] in store, store.get(keys[2]).match.seed
    (2, False, 2)
    """

    def __init__(self, db: GameDatabase, opener: Opener, max_games: int = 100, idle: float = 3600.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.opener = opener
        self.max_games = max_games
        self.idle = idle
        self.clock = clock
        self._cache: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self.db.count()

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.db.game(key) is not None

    def add(self, match: Match, lexicon: str, preset: str) -> str:
        """Keep a new game (its turns so far in the same transaction); its id (random, unguessable)."""
        key = secrets.token_urlsafe(12)
        row = GameRow(key, lexicon, preset, match.opponent, FIRST[0] if match.first == 0 else FIRST[1], match.seed,
                      over=match.over)
        turns = [match.turn_record(i) for i in range(len(match.turns))]
        with self._lock:
            for gone in self.db.insert(row, turns, now=self.clock(), max_games=self.max_games, idle=self.idle):
                self._cache.pop(gone, None)
            entry = Entry(match, lexicon, saved=len(turns))
            entry.settle()
            self._keep(key, entry)
        return key

    def get(self, key: str) -> Entry:
        """The game of ``key``, marked as used now; :class:`KeyError` when there is none (or it expired)."""
        with self._lock:
            now = self.clock()
            row = self.db.game(key)
            if row is not None and now - row.used > self.idle:
                self.db.expire(now=now, idle=self.idle)
                row = None
            if row is None:
                self._cache.pop(key, None)
                raise KeyError(key)
            entry = self._cache.get(key)
            if entry is None or entry.saved != row.turns:
                entry = self._load(row)
            self.db.touch(key, now)
            self._keep(key, entry)
            return entry

    def save(self, key: str, entry: Entry, before: int) -> None:
        """Record the turns a move added to ``entry`` after its first ``before`` (one transaction). When that
        fails, the match in memory is dropped: it is ahead of the file, which is made again at the next request."""
        match = entry.match
        turns = [match.turn_record(i) for i in range(before, len(match.turns))]
        with self._lock:
            try:
                self.db.append(key, before, turns, over=match.over, now=self.clock())
            except BaseException:
                self._cache.pop(key, None)
                raise
            entry.saved = before + len(turns)

    def forget(self, key: str) -> None:
        """Drop the match in memory (a move failed half way): the next request makes it again from the file."""
        with self._lock:
            self._cache.pop(key, None)

    def _keep(self, key: str, entry: Entry) -> None:
        self._cache[key] = entry
        self._cache.move_to_end(key)
        while len(self._cache) > self.max_games:
            self._cache.popitem(last=False)

    def _load(self, row: GameRow) -> Entry:
        """The match of a row, dealt again from its seed with its turns made again; :class:`DamagedGame` when the
        rows do not make a game."""
        where = f"game {row.id[:40]!r} in the games file"
        if row.game not in GAME_PRESETS or row.opponent not in OPPONENTS or row.first not in FIRST:
            raise DamagedGame(f"{where}: its game, opponent or first player is not one this server offers")
        turns = self.db.turns(row.id)
        try:
            with self.opener(row.lexicon) as lex:
                match = Match.restore(lex, Game.preset(row.game), opponent=row.opponent,
                                      human_first=row.first == FIRST[0], seed=row.seed, turns=turns)
                # no lexicon_name: the match takes the name the served lexicon carries (its registered name)
        except GameError as e:
            raise DamagedGame(f"{where}: {e}") from None
        except UnknownLexicon as e:
            raise UnknownLexicon(f"{where} was played with the lexicon {row.lexicon!r}: {e}") from None
        if len(match.turns) != row.turns or match.over != row.over:
            raise DamagedGame(f"{where}: its turns do not match its row")
        entry = Entry(match, row.lexicon, saved=row.turns)
        entry.settle()
        return entry


def game_routes(server: "Server", store: GameStore) -> list[Route]:
    """The ``/api/games`` routes over ``server``'s lexicons, lanes and limits.

    Every route's work (reading the file, making a match again, a move) runs in the query lane, never on the
    event loop."""
    from .app import ApiError, arrival, check_query, dump, read_body

    def entry_of(key: str) -> Entry:
        try:
            return store.get(key)
        except KeyError:
            raise ApiError(404, "NotFound", f"no game {key[:40]!r} (it ended long ago, or never began)") from None

    async def body_of(request: Request, allowed: tuple[str, ...]) -> dict[str, Any]:
        check_query(request, server.limits.max_query)
        body: dict[str, Any] = await read_body(request, server.limits.max_body, server.limits.body_timeout)
        unknown = sorted(set(body) - set(allowed))
        if unknown:
            raise ApiError(400, "QueryError", f"unknown field {unknown[0]!r} (a game takes: {', '.join(allowed)})")
        return body

    def answer(key: str, doc: dict[str, Any], status: int = 200) -> Response:
        return Response(dump({"id": key, **doc}), status_code=status, media_type="application/json")

    async def new_game(request: Request) -> Response:
        body = await body_of(request, NEW_GAME_FIELDS)
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
        name = server.pool.served(lexicon).name  # an unknown lexicon is a 404 before any work

        def work(deadline: float) -> tuple[str, dict[str, Any]]:
            with server.pool.use(name) as lex:
                match = Match(lex, Game.preset(preset), opponent=opponent, human_first=first == FIRST[0], seed=seed,
                              lexicon_name=server.pool.served(name).lexicon_name, deadline=deadline)
            return store.add(match, name, preset), match.state()

        key, doc = await server.run(work, what="POST /api/games", arrived=arrival(request))
        return answer(key, doc, status=201)

    async def show_game(request: Request) -> Response:
        check_query(request, server.limits.max_query)
        key = request.path_params["id"]
        doc = await server.run(lambda deadline: entry_of(key).shown, what="GET /api/games/{id}",
                               arrived=arrival(request))
        return answer(key, doc)

    async def play(request: Request) -> Response:
        body = await body_of(request, ("move",))
        key = request.path_params["id"]
        text = body.get("move")
        if not isinstance(text, str):
            raise ApiError(400, "QueryError", "field 'move': a move such as '8D WORD', '-' (pass) or '-ABC' "
                           "(exchange)")

        def work(deadline: float) -> dict[str, Any]:
            entry = entry_of(key)
            # One move of a game at a time: taken in the worker, so that work refused or dropped never holds it.
            if not entry.lock.acquire(blocking=False):
                raise ApiError(409, "Busy", "a move of this game is being made; wait for its answer")
            try:
                done = make_move(key, entry, text, deadline)
                return {**entry.shown, **done}
            finally:
                entry.lock.release()

        done = await server.run(work, what=f"POST /api/games/{key[:40]}/play", arrived=arrival(request))
        return answer(key, done)

    def make_move(key: str, entry: Entry, text: str, deadline: float) -> dict[str, Any]:
        """The person's move and the reply, made in memory and then recorded in one transaction (under the lock)."""
        before = len(entry.match.turns)
        try:
            with server.pool.use(entry.lexicon) as lex:
                done = entry.match.play(lex, text, deadline=deadline)
            store.save(key, entry, before)
        except MoveConflict as e:
            raise ApiError(409, "Conflict", str(e)) from None
        except BaseException:
            if len(entry.match.turns) != before:  # half a move in memory: the file's game is the game
                store.forget(key)
            raise
        entry.settle()
        return done

    async def gcg(request: Request) -> Response:
        check_query(request, server.limits.max_query)
        key = request.path_params["id"]
        record = await server.run(lambda deadline: entry_of(key).record, what="GET /api/games/{id}/gcg",
                                  arrived=arrival(request))
        return Response(record, media_type="text/plain; charset=utf-8",
                        headers={"content-disposition": f'attachment; filename="lexigraph-{key}.gcg"'})

    return [
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{id}", show_game, methods=["GET"]),
        Route("/api/games/{id}/play", play, methods=["POST"]),
        Route("/api/games/{id}/gcg", gcg, methods=["GET"]),
    ]
