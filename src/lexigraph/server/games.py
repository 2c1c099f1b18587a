"""Games against lexigraph on the server: the games kept in a file, the matches in use in memory (their routes,
``/api/games``: :mod:`lexigraph.server.game_routes`).

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

from ..scrabble.game import PRESETS, Game, GameError
from ..scrabble.match import OPPONENTS, Match
from .gamedb import DamagedGame, GameDatabase, GameRow
from .lexicons import UnknownLexicon

if TYPE_CHECKING:  # pragma: no cover
    from ..lexicon import Lexicon

__all__ = ["FIRST", "GAME_PRESETS", "NEW_GAME_FIELDS", "Entry", "GameStore", "Opener"]

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

    def play(self, key: str, entry: Entry, text: str, deadline: float) -> dict[str, Any]:
        """The person's move ``text`` and the reply, made in memory and then recorded in one transaction (the
        caller holds ``entry.lock``); what :meth:`Match.play <lexigraph.scrabble.match.Match.play>` answers.
        :class:`~lexigraph.server.gamedb.MoveConflict` when another server moved the game meanwhile."""
        before = len(entry.match.turns)
        try:
            with self.opener(entry.lexicon) as lex:
                done = entry.match.play(lex, text, deadline=deadline)
            self.save(key, entry, before)
        except BaseException:
            if len(entry.match.turns) != before:  # half a move in memory: the file's game is the game
                self.forget(key)
            raise
        entry.settle()
        return done

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
