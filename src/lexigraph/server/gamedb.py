"""The games against lexigraph kept in one SQLite file, so that a restarted server goes on with every game.

One row per game (how it was dealt: the lexicon's served name, the game preset, the opponent, who moved first,
the seed) and one row per turn made (:meth:`~lexigraph.scrabble.match.Match.turn_record`'s JSON). A match is
never stored whole: it is dealt again from its seed and its turns made again in order
(:meth:`~lexigraph.scrabble.match.Match.restore`), each checked against the game as it stands. A move's turns
(the person's and the engine's reply) are written in one transaction: a server killed at any moment has
recorded the whole move or none of it.

The file runs in WAL mode with a busy timeout, so two servers (or a server and a reader) may share it; every
write checks the game's turn count first, so two moves made at once on one game cannot both be recorded. The
file's ``application_id`` says it is lexigraph's and its ``user_version`` is the schema's version: a file of
another program, a newer schema, a damaged file or one locked past the timeout is a
:class:`GamesDatabaseError` (at start: one line and exit 2; later: a JSON error), never a traceback.

>>> db = GameDatabase(":memory:")
>>> db.insert(GameRow("g1", "enable", "scrabble", "equity", "you", 7), [], now=100.0, max_games=10, idle=60.0)
[]
>>> db.append("g1", 0, [{"seat": "player"}], over=False, now=101.0)
>>> db.game("g1").turns, db.turns("g1")
(1, [{'seat': 'player'}])
>>> db.expire(now=1000.0, idle=60.0), db.game("g1")
(['g1'], None)
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import FileFormatError, LexiconError
from ..support.sqlite_store import BUSY_TIMEOUT, SqliteStore, StoreKind

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "DamagedGame", "GameDatabase", "GameRow", "GamesDatabaseError",
           "MoveConflict", "default_path"]

#: ``PRAGMA application_id`` of a lexigraph games file ("LXGM").
APPLICATION_ID = 0x4C58474D
#: ``PRAGMA user_version``: the schema below. A file with a larger one was written by a newer lexigraph.
SCHEMA_VERSION = 1
#: Name of the file in the user's data folder.
FILE_NAME = "games.sqlite3"

SCHEMA = """
CREATE TABLE games (
    id       TEXT PRIMARY KEY,      -- the game's id in its URL (random, unguessable)
    lexicon  TEXT NOT NULL,         -- the served lexicon's name
    game     TEXT NOT NULL,         -- the game preset (scrabble, super)
    opponent TEXT NOT NULL,         -- score, equity or simulation
    first    TEXT NOT NULL,         -- 'you' or 'lexigraph'
    seed     TEXT NOT NULL,         -- the bag's seed, 0 .. 2**64 - 1, in decimal (wider than SQLite's integers)
    turns    INTEGER NOT NULL,      -- turns recorded (rows of the turns table)
    over     INTEGER NOT NULL,      -- 1 once the game has ended
    created  REAL NOT NULL,         -- Unix time
    used     REAL NOT NULL,         -- Unix time of the last request for it (idle expiry)
    seq      INTEGER NOT NULL       -- order of last use (the least recently used is dropped first)
);
CREATE INDEX games_by_use ON games (seq);
CREATE TABLE turns (
    game     TEXT NOT NULL,         -- games.id
    number   INTEGER NOT NULL,      -- 0, 1, 2... in the order played
    record   TEXT NOT NULL,         -- the turn as JSON (Match.turn_record)
    PRIMARY KEY (game, number)
) WITHOUT ROWID;
"""


class GamesDatabaseError(LexiconError):
    """The games file cannot be used: not SQLite, another program's, a newer schema, damaged or locked."""


class DamagedGame(FileFormatError):
    """One game's rows do not make a game (a forged or damaged record): that game cannot be shown or played."""


class MoveConflict(LexiconError):
    """A move recorded for a game that has changed since it was read (another server on the same file)."""


def default_path() -> str:
    """``$XDG_DATA_HOME/lexigraph/games.sqlite3``, or ``~/.local/share/lexigraph/games.sqlite3``.

    >>> default_path().endswith(os.path.join("lexigraph", "games.sqlite3"))
    True
    """
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "lexigraph", FILE_NAME)


@dataclass(frozen=True)
class GameRow:
    """How one game was dealt, and how far it has gone (``turns``, ``over``)."""

    id: str
    lexicon: str
    game: str
    opponent: str
    first: str
    seed: int
    turns: int = 0
    over: bool = False
    used: float = 0.0


def _loads(text: object, what: str) -> Any:
    """JSON text read back from the file (no NaN or infinities: a forged value is refused here)."""
    if not isinstance(text, str):
        raise DamagedGame(f"{what} is not text")

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    try:
        return json.loads(text, parse_constant=constant)
    except (ValueError, RecursionError) as e:
        raise DamagedGame(f"{what} is not JSON: {' '.join(str(e).split())[:120]}") from None


def _row(values: Sequence[object]) -> GameRow:
    """A games row, every column checked (a forged row is a :class:`DamagedGame`)."""
    key, lexicon, game, opponent, first, seed, turns, over, used = values
    if not all(isinstance(v, str) for v in (key, lexicon, game, opponent, first, seed)) or \
            not isinstance(turns, int) or turns < 0 or over not in (0, 1) or not isinstance(used, (int, float)):
        raise DamagedGame(f"the row of game {str(key)[:40]!r} is damaged")
    assert isinstance(seed, str) and isinstance(key, str)  # for the type checker: checked above
    if not seed.isdigit() or len(seed) > 20 or int(seed) >= 1 << 64:
        raise DamagedGame(f"the seed of game {key[:40]!r} is damaged")
    return GameRow(key, str(lexicon), str(game), str(opponent), str(first), int(seed), turns, bool(over),
                   float(used))


_KIND = StoreKind(noun="games file", error=GamesDatabaseError, application_id=APPLICATION_ID,
                  schema_version=SCHEMA_VERSION, oldest_version=1, path_option="--games-db", private=True,
                  schema=tuple(statement for statement in SCHEMA.split(";") if statement.strip()))


class GameDatabase(SqliteStore):
    """The games file: opened (and made, with its folder, when missing) and checked once; thread-safe.

    ``path`` ``":memory:"`` keeps the games in memory only (a restart loses them). A new file is readable by
    its owner only: a game's id is what lets a client play it.
    """

    def __init__(self, path: str, *, timeout: float = BUSY_TIMEOUT) -> None:
        super().__init__(path, _KIND, timeout=timeout, durable=True)

    # -- reading and writing ---------------------------------------------------------------------------------

    def insert(self, row: GameRow, turns: Sequence[dict[str, Any]], *, now: float, max_games: int,
               idle: float) -> list[str]:
        """A new game and its first turns; first the games idle past ``idle`` seconds and, while ``max_games``
        are kept, the least recently used are deleted (their ids returned). One transaction."""
        with self._writing() as conn:
            gone = self._expired(conn, now, idle)
            (count,) = conn.execute("SELECT count(*) FROM games").fetchone()
            if count >= max_games:
                gone += [k for (k,) in conn.execute("SELECT id FROM games ORDER BY seq LIMIT ?",
                                                    (count - max_games + 1,)).fetchall()]
            self._delete(conn, gone)
            conn.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (row.id, row.lexicon, row.game, row.opponent, row.first, str(row.seed), len(turns),
                          int(row.over), now, now, self._next_seq(conn)))
            self._insert_turns(conn, row.id, 0, turns)
        return gone

    def append(self, key: str, before: int, turns: Sequence[dict[str, Any]], *, over: bool, now: float) -> None:
        """The turns of one move, after the game's first ``before`` turns; :class:`MoveConflict` when the file
        holds another number of turns for it by now (or no game), and nothing is written. One transaction."""
        with self._writing() as conn:
            found = conn.execute("SELECT turns FROM games WHERE id = ?", (key,)).fetchone()
            if found is None or found[0] != before:
                raise MoveConflict("this game changed meanwhile (another server shares its file); load it again")
            self._insert_turns(conn, key, before, turns)
            conn.execute("UPDATE games SET turns = ?, over = ?, used = ?, seq = ? WHERE id = ?",
                         (before + len(turns), int(over), now, self._next_seq(conn), key))

    def _insert_turns(self, conn: sqlite3.Connection, key: str, first: int, turns: Sequence[dict[str, Any]]) -> None:
        for i, record in enumerate(turns):
            conn.execute("INSERT INTO turns VALUES (?, ?, ?)",
                         (key, first + i, json.dumps(record, ensure_ascii=False, allow_nan=False)))

    def touch(self, key: str, now: float) -> None:
        """Mark a game used now (its idle time and its place in the least-recently-used order start again)."""
        with self._writing() as conn:
            conn.execute("UPDATE games SET used = ?, seq = ? WHERE id = ?", (now, self._next_seq(conn), key))

    def game(self, key: str) -> GameRow | None:
        """The row of game ``key``, or None."""
        with self._reading() as conn:
            found = conn.execute("SELECT id, lexicon, game, opponent, first, seed, turns, over, used FROM games "
                                 "WHERE id = ?", (key,)).fetchone()
        return None if found is None else _row(found)

    def turns(self, key: str) -> list[Any]:
        """Game ``key``'s turns, in order (each the JSON of one turn, parsed); :class:`DamagedGame` when they are
        not numbered 0, 1, 2... or one is not JSON."""
        with self._reading() as conn:
            rows = conn.execute("SELECT number, record FROM turns WHERE game = ? ORDER BY number", (key,)).fetchall()
        if [n for n, _ in rows] != list(range(len(rows))):
            raise DamagedGame(f"the turns of game {key[:40]!r} are not numbered in order")
        return [_loads(text, f"turn {n + 1} of game {key[:40]!r}") for n, text in rows]

    def expire(self, *, now: float, idle: float) -> list[str]:
        """Delete the games unused for more than ``idle`` seconds; their ids."""
        with self._writing() as conn:
            gone = self._expired(conn, now, idle)
            self._delete(conn, gone)
        return gone

    def count(self) -> int:
        with self._reading() as conn:
            return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])

    @staticmethod
    def _expired(conn: sqlite3.Connection, now: float, idle: float) -> list[str]:
        return [k for (k,) in conn.execute("SELECT id FROM games WHERE used < ?", (now - idle,)).fetchall()]

    @staticmethod
    def _delete(conn: sqlite3.Connection, keys: Sequence[str]) -> None:
        for key in keys:
            conn.execute("DELETE FROM turns WHERE game = ?", (key,))
            conn.execute("DELETE FROM games WHERE id = ?", (key,))

    @staticmethod
    def _next_seq(conn: sqlite3.Connection) -> int:
        return int(conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM games").fetchone()[0])
