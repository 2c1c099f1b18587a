"""One SQLite file that keeps what a user builds up (games in progress, study history) across a killed process.

A store is opened (made, with its folder, when missing) and checked once: a regular file, SQLite's own
``quick_check``, the ``application_id`` saying it is this kind of lexigraph file and a ``user_version`` this
lexigraph reads. Then it runs in WAL mode, and every write is one ``BEGIN IMMEDIATE`` transaction committed
before the method returns: all of it or none of it, whatever kills the process. One connection serves every
thread under a lock; a lock held by another process beyond ``timeout`` seconds is
:class:`~lexigraph.errors.ResourceBusy` (a 503 with ``Retry-After`` over HTTP), any other SQLite failure the
store's own error class, in one line.

The study file (``study/cardbox.py``) and the server's games file (``server/gamedb.py``) are both one of these;
each says what it is in a :class:`StoreKind`.

>>> kind = StoreKind(noun="notes file", error=LexiconError, application_id=0x4C584E54, schema_version=1,
...                  schema=("CREATE TABLE notes (text TEXT NOT NULL)",), path_option="--notes")
>>> store = SqliteStore(":memory:", kind)
>>> with store._writing() as conn:
...     _ = conn.execute("INSERT INTO notes VALUES ('a play to remember')")
>>> with store._reading() as conn:
...     conn.execute("SELECT text FROM notes").fetchall()
[('a play to remember',)]
>>> store.close()
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from ..errors import LexiconError, ResourceBusy

#: Seconds a write waits for another process's write lock before the store answers ResourceBusy.
BUSY_TIMEOUT = 5.0


@dataclass(frozen=True)
class StoreKind:
    """What one kind of store is: its name in messages, its error, its identity and its schema.

    ``oldest_version``: the oldest ``user_version`` this lexigraph still reads (None: only ``schema_version``).
    ``private``: a new file is made readable by its owner only (before SQLite opens it).
    """

    noun: str
    error: type[LexiconError]
    application_id: int
    schema_version: int
    schema: Sequence[str]
    path_option: str
    oldest_version: int | None = None
    private: bool = False


class SqliteStore:
    """A checked SQLite file of one :class:`StoreKind`; thread-safe. ``":memory:"`` keeps it in memory only.

    ``durable``: ``synchronous=FULL`` (a commit survives a power cut), else ``NORMAL`` (it survives a killed
    process, which is what WAL promises either way).
    """

    def __init__(self, path: str, kind: StoreKind, *, timeout: float = BUSY_TIMEOUT, durable: bool = True) -> None:
        self.path = path
        self.kind = kind
        self.durable = durable
        self._lock = threading.Lock()
        self._conn = self._connect(path, kind, timeout)
        try:
            self._prepare()
        except BaseException:
            self._conn.close()
            raise

    # -- opening ---------------------------------------------------------------------------------------------

    @staticmethod
    def _connect(path: str, kind: StoreKind, timeout: float) -> sqlite3.Connection:
        if path != ":memory:":
            try:
                mode = os.stat(path).st_mode
            except FileNotFoundError:
                mode = None
            except OSError as e:
                raise kind.error(f"cannot use the {kind.noun} {path}: {e.strerror or e}") from None
            if mode is not None and not stat.S_ISREG(mode):  # a FIFO or a device would hang or mislead SQLite
                raise kind.error(f"the {kind.noun} {path} is not a regular file")
            try:
                os.makedirs(os.path.dirname(os.path.abspath(path)), mode=0o700, exist_ok=True)
                if mode is None and kind.private:  # made private before SQLite writes anything into it
                    os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            except FileExistsError:
                pass  # made meanwhile by another process
            except OSError as e:
                raise kind.error(f"cannot make the {kind.noun} {path}: {e.strerror or e}") from None
        try:
            # Autocommit (isolation_level None): each write is one explicit BEGIN IMMEDIATE ... COMMIT.
            return sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as e:
            raise kind.error(f"cannot open the {kind.noun} {path}: {e}") from None

    def _prepare(self) -> None:
        """Check the file is this kind's and of a schema this version reads; make the tables in a new one."""
        kind, conn = self.kind, self._conn
        try:
            if self._pragmas() == (0, 0) and not self._has_tables():
                self._create()
            app, version = self._pragmas()
            if app != kind.application_id:
                raise kind.error(f"{self.path} is not a lexigraph {kind.noun} (another program's SQLite database); "
                                 f"give {kind.path_option} another path")
            self._check_version(version)
            (verdict,) = conn.execute("PRAGMA quick_check").fetchone()
            if verdict != "ok":
                raise kind.error(f"the {kind.noun} {self.path} is damaged ({str(verdict)[:120]}); move it away or "
                                 f"give {kind.path_option} another path")
            conn.execute("PRAGMA journal_mode=WAL").fetchone()
            conn.execute(f"PRAGMA synchronous={'FULL' if self.durable else 'NORMAL'}")
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                raise ResourceBusy(f"the {kind.noun} {self.path} is locked by another process: {e}",
                                   retry_after=BUSY_TIMEOUT) from None
            raise kind.error(f"cannot use the {kind.noun} {self.path}: {e}") from None
        except sqlite3.DatabaseError as e:
            raise kind.error(f"{self.path} is not a usable {kind.noun}: {e}") from None

    def _check_version(self, version: int) -> None:
        kind = self.kind
        oldest = kind.schema_version if kind.oldest_version is None else kind.oldest_version
        if version > kind.schema_version:
            raise kind.error(f"the {kind.noun} {self.path} has schema version {version}, newer than this "
                             f"lexigraph's ({kind.schema_version}): run a newer lexigraph, or give "
                             f"{kind.path_option} another path")
        if version < oldest:
            raise kind.error(f"the {kind.noun} {self.path} has schema version {version}; this lexigraph reads "
                             f"versions {oldest} to {kind.schema_version}: give {kind.path_option} another path")

    def _pragmas(self) -> tuple[int, int]:
        (app,) = self._conn.execute("PRAGMA application_id").fetchone()
        (version,) = self._conn.execute("PRAGMA user_version").fetchone()
        return int(app), int(version)

    def _has_tables(self) -> bool:
        return int(self._conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]) > 0

    def _create(self) -> None:
        conn = self._conn
        conn.execute("PRAGMA journal_mode=WAL").fetchone()
        conn.execute("BEGIN IMMEDIATE")
        try:
            if self._has_tables() or self._pragmas() != (0, 0):  # another process made them meanwhile
                conn.execute("ROLLBACK")
                return
            for statement in self.kind.schema:
                conn.execute(statement)
            conn.execute(f"PRAGMA application_id = {self.kind.application_id}")
            conn.execute(f"PRAGMA user_version = {self.kind.schema_version}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- transactions ----------------------------------------------------------------------------------------

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._errors():
            yield self._conn

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One transaction holding the write lock from its start (BEGIN IMMEDIATE): all of it or none."""
        with self._lock, self._errors():
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """SQLite's errors as lexigraph's: a lock held too long is a 503 with Retry-After, the rest a clear error."""
        try:
            yield
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                raise ResourceBusy(f"the {self.kind.noun} is busy (another process is writing it): {e}",
                                   retry_after=BUSY_TIMEOUT) from None
            raise self.kind.error(f"the {self.kind.noun} {self.path}: {e}") from None
        except sqlite3.Error as e:
            raise self.kind.error(f"the {self.kind.noun} {self.path}: {e}") from None
