"""The cardbox: every question answered, its history, and when it is due again (FSRS), in one SQLite file.

One *card* per (user, lexicon, quiz type, question), with its FSRS memory state (stability, difficulty, step)
and when it is due; one *review* row per answer (its time and grade); and the quizzes being taken (their JSON,
:class:`lexigraph.study.quiz.Quiz`), so that a quiz is taken up again after a restart, in the terminal or on
the page. Scheduling is the ``fsrs`` library's (``pip install 'lexigraph[study]'``; docs/study.md says why),
with fuzzing off so that a card's due date is a function of its history: a history replayed through
``fsrs.Scheduler(enable_fuzzing=False)`` gives the same dates.

The file (``$XDG_DATA_HOME/lexigraph/study.sqlite`` by default) runs in WAL mode with a busy timeout; each write
is one short ``BEGIN IMMEDIATE`` transaction, committed (written to the log) before the method returns, so a
review acknowledged survives the writer being killed at any moment, and the server and the terminal may share
the file. ``synchronous`` is ``NORMAL`` by default: the log is flushed to the disk at checkpoints, not at each
review, so a power cut (not a killed process) may lose the last reviews, never the file; ``durable=True``
(``FULL``) flushes at each review, at the cost of a disk flush per answer (about 12 ms on a loaded machine).
A file that is not SQLite, another program's, of a newer schema, or damaged is a :class:`StudyStoreError`; a
lock held past the timeout a :class:`~lexigraph.errors.ResourceBusy`.

>>> box = CardBox(":memory:", clock=lambda: 1_000_000.0)
>>> card = box.review("me", "ENABLE", "anagram", "AEINRST", correct=True)
>>> card.state, card.reviews, round(card.interval_days * 24 * 60)
('learning', 1, 10)
>>> box.counts("me", "ENABLE")["due_now"], box.counts("me", "ENABLE", now=1_000_000.0 + 601)["due_now"]
(0, 1)
"""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import LexiconError
from ..support.sqlite_store import BUSY_TIMEOUT, SqliteStore, StoreKind
from .quiz import QUIZ_TYPES, Quiz, QuestionResult

if TYPE_CHECKING:  # pragma: no cover
    import fsrs

__all__ = ["APPLICATION_ID", "BUSY_TIMEOUT", "CardBox", "CardView", "SCHEMA_VERSION", "STATES", "StudyStoreError",
           "default_path", "scheduler"]

#: ``PRAGMA application_id`` of a lexigraph study file ("LXST").
APPLICATION_ID = 0x4C585354
#: ``PRAGMA user_version``: the schema below.
SCHEMA_VERSION = 1
FILE_NAME = "study.sqlite"
#: A card's state as the store and the documents name it: 0 is a card never reviewed; 1-3 are FSRS's states.
STATES = ("new", "learning", "review", "relearning")
#: The longest user name (a user is a label on one machine's cardbox, not an account).
MAX_USER = 64

#: The tables, their indexes, and the triggers that keep the tallies (one statement each).
SCHEMA = (
    """CREATE TABLE cards (
        id          INTEGER PRIMARY KEY,
        user        TEXT NOT NULL,
        lexicon     TEXT NOT NULL,
        type        TEXT NOT NULL,      -- anagram, subanagram, hooks, pattern
        prompt      TEXT NOT NULL,      -- the question, upper case
        state       INTEGER NOT NULL,   -- 0 new, 1 learning, 2 review, 3 relearning (fsrs.State)
        step        INTEGER,            -- FSRS's learning or relearning step
        stability   REAL,
        difficulty  REAL,
        due         REAL NOT NULL,      -- Unix seconds
        last_review REAL,               -- Unix seconds
        reviews     INTEGER NOT NULL,
        lapses      INTEGER NOT NULL,
        UNIQUE (user, lexicon, type, prompt)
    )""",
    "CREATE INDEX cards_due ON cards (user, lexicon, due)",
    "CREATE INDEX cards_type_due ON cards (user, lexicon, type, due)",
    """CREATE TABLE reviews (
        card    INTEGER NOT NULL,       -- cards.id
        time    REAL NOT NULL,          -- Unix seconds
        rating  INTEGER NOT NULL,       -- fsrs.Rating: 1 Again, 3 Good
        quiz    TEXT                    -- the quiz it was answered in
    )""",
    "CREATE INDEX reviews_by_card ON reviews (card, time)",
    """CREATE TABLE quizzes (
        id       TEXT PRIMARY KEY,
        user     TEXT NOT NULL,
        lexicon  TEXT NOT NULL,
        finished INTEGER NOT NULL,
        used     REAL NOT NULL,         -- Unix seconds of the last answer
        doc      TEXT NOT NULL          -- the quiz as JSON (Quiz.to_dict)
    )""",
    "CREATE INDEX quizzes_by_use ON quizzes (user, finished, used)",
    # How many cards of each (user, lexicon, type, state): kept by the triggers below in the same transaction as
    # the change, so that the counts by state are read from a few rows, not counted over every card.
    """CREATE TABLE tallies (
        user TEXT NOT NULL, lexicon TEXT NOT NULL, type TEXT NOT NULL, state INTEGER NOT NULL, n INTEGER NOT NULL,
        PRIMARY KEY (user, lexicon, type, state)
    ) WITHOUT ROWID""",
    """CREATE TRIGGER cards_added AFTER INSERT ON cards BEGIN
        INSERT INTO tallies VALUES (new.user, new.lexicon, new.type, new.state, 1)
            ON CONFLICT (user, lexicon, type, state) DO UPDATE SET n = n + 1;
    END""",
    """CREATE TRIGGER cards_moved AFTER UPDATE OF state ON cards WHEN old.state != new.state BEGIN
        UPDATE tallies SET n = n - 1
            WHERE user = old.user AND lexicon = old.lexicon AND type = old.type AND state = old.state;
        INSERT INTO tallies VALUES (new.user, new.lexicon, new.type, new.state, 1)
            ON CONFLICT (user, lexicon, type, state) DO UPDATE SET n = n + 1;
    END""",
    """CREATE TRIGGER cards_removed AFTER DELETE ON cards BEGIN
        UPDATE tallies SET n = n - 1
            WHERE user = old.user AND lexicon = old.lexicon AND type = old.type AND state = old.state;
    END""",
)


class StudyStoreError(LexiconError):
    """The study file cannot be used: not SQLite, another program's, a newer schema, damaged, not a file."""


def default_path() -> str:
    """``$XDG_DATA_HOME/lexigraph/study.sqlite``, or ``~/.local/share/lexigraph/study.sqlite``.

    >>> default_path().endswith(os.path.join("lexigraph", "study.sqlite"))
    True
    """
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "lexigraph", FILE_NAME)


def scheduler() -> "fsrs.Scheduler":
    """The FSRS scheduler the cardbox uses: the library's defaults, fuzzing off (a due date is a function of the
    history). A :class:`StudyStoreError` when the ``fsrs`` package is not installed."""
    try:
        import fsrs  # optional (lexigraph[study]): only the cardbox's reviews need it
    except ImportError:
        raise StudyStoreError("the cardbox needs the fsrs package: pip install 'lexigraph[study]'") from None
    return fsrs.Scheduler(enable_fuzzing=False)


def _iso(seconds: float) -> str:
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _utc(seconds: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)


@dataclass(frozen=True)
class CardView:
    """A card as the documents show it: its state, when it is due, the interval to then, its reviews."""

    id: int
    type: str
    prompt: str
    state: str
    due: float
    last_review: float | None
    reviews: int

    @property
    def interval_days(self) -> float:
        return 0.0 if self.last_review is None else max(0.0, (self.due - self.last_review) / 86400)

    def to_dict(self) -> dict[str, object]:
        return {"state": self.state, "due": _iso(self.due), "interval_days": round(self.interval_days, 6),
                "reviews": self.reviews}


def check_user(user: object) -> str:
    """A user name: text of 1 to :data:`MAX_USER` characters, no control characters."""
    if not isinstance(user, str) or not 0 < len(user) <= MAX_USER or not user.isprintable():
        raise StudyStoreError(f"a user is a name of 1 to {MAX_USER} printable characters")
    return user


_KIND = StoreKind(noun="study file", error=StudyStoreError, application_id=APPLICATION_ID,
                  schema_version=SCHEMA_VERSION, schema=SCHEMA, path_option="--store")


class CardBox(SqliteStore):
    """The study file, opened (made, with its folder, when missing) and checked once; thread-safe.

    ``path`` ``":memory:"`` keeps it in memory only. ``clock``: the time (Unix seconds) a review or a count
    is made at, unless given. ``durable``: each review also survives a power cut (``synchronous=FULL``); it
    always survives a killed process.
    """

    def __init__(self, path: str, *, timeout: float = BUSY_TIMEOUT, clock: Callable[[], float] = time.time,
                 durable: bool = False) -> None:
        self.clock = clock
        self._scheduler: fsrs.Scheduler | None = None
        super().__init__(path, _KIND, timeout=timeout, durable=durable)

    def __enter__(self) -> "CardBox":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reviews ---------------------------------------------------------------------------------------------

    def _fsrs(self) -> "fsrs.Scheduler":
        if self._scheduler is None:
            self._scheduler = scheduler()
        return self._scheduler

    def review(self, user: str, lexicon: str, kind: str, prompt: str, *, correct: bool, now: float | None = None,
               quiz: str | None = None) -> CardView:
        """Grade one question (``Good`` when ``correct``, else ``Again``): its card made or moved on by FSRS and
        the review recorded, in one transaction. The card after it."""
        when = self.clock() if now is None else now
        with self._writing() as conn:
            return self._review(conn, user, lexicon, kind, prompt, correct, when, quiz)

    def _review(self, conn: sqlite3.Connection, user: str, lexicon: str, kind: str, prompt: str, correct: bool,
                when: float, quiz: str | None) -> CardView:
        import fsrs  # optional: _fsrs() has said so when it is missing

        sched = self._fsrs()
        key = self._card_id(conn, check_user(user), lexicon, kind, prompt, when)
        row = conn.execute("SELECT state, step, stability, difficulty, due, last_review, reviews, lapses FROM cards "
                           "WHERE id = ?", (key,)).fetchone()
        card = _fsrs_card(key, row)
        rating = fsrs.Rating.Good if correct else fsrs.Rating.Again
        card, _ = sched.review_card(card, rating, _utc(when))
        lapses = row[7] + (not correct and row[0] == 2)
        due = card.due.timestamp()
        conn.execute("UPDATE cards SET state = ?, step = ?, stability = ?, difficulty = ?, due = ?, last_review = ?, "
                     "reviews = reviews + 1, lapses = ? WHERE id = ?",
                     (int(card.state), card.step, card.stability, card.difficulty, due, when, lapses, key))
        conn.execute("INSERT INTO reviews VALUES (?, ?, ?, ?)", (key, when, int(rating), quiz))
        return CardView(key, kind, prompt, STATES[int(card.state)], due, when, row[6] + 1)

    @staticmethod
    def _card_id(conn: sqlite3.Connection, user: str, lexicon: str, kind: str, prompt: str, now: float) -> int:
        if kind not in QUIZ_TYPES:
            raise StudyStoreError(f"unknown quiz type {kind!r}")
        found = conn.execute("SELECT id FROM cards WHERE user = ? AND lexicon = ? AND type = ? AND prompt = ?",
                             (user, lexicon, kind, prompt)).fetchone()
        if found is not None:
            return int(found[0])
        cursor = conn.execute("INSERT INTO cards (user, lexicon, type, prompt, state, due, reviews, lapses) "
                              "VALUES (?, ?, ?, ?, 0, ?, 0, 0)", (user, lexicon, kind, prompt, now))
        return int(cursor.lastrowid or 0)

    def add(self, user: str, lexicon: str, kind: str, prompts: Iterable[str], *, now: float | None = None) -> int:
        """New cards, due now, for the prompts not in the cardbox yet (an import); how many were added."""
        when = self.clock() if now is None else now
        added = 0
        with self._writing() as conn:
            for prompt in prompts:
                if kind not in QUIZ_TYPES:
                    raise StudyStoreError(f"unknown quiz type {kind!r}")
                # rowcount: this statement's own rows (total_changes would count the tallies' trigger too)
                added += conn.execute("INSERT OR IGNORE INTO cards (user, lexicon, type, prompt, state, due, reviews, "
                                      "lapses) VALUES (?, ?, ?, ?, 0, ?, 0, 0)",
                                      (check_user(user), lexicon, kind, prompt, when)).rowcount
        return added

    def history(self, user: str, lexicon: str, kind: str, prompt: str) -> list[tuple[float, int]]:
        """A card's reviews in order: (Unix time, FSRS rating)."""
        with self._reading() as conn:
            return [(float(t), int(r)) for t, r in conn.execute(
                "SELECT r.time, r.rating FROM reviews r JOIN cards c ON c.id = r.card WHERE c.user = ? AND "
                "c.lexicon = ? AND c.type = ? AND c.prompt = ? ORDER BY r.time, r.rowid",
                (user, lexicon, kind, prompt))]

    def card(self, user: str, lexicon: str, kind: str, prompt: str) -> dict[str, object] | None:
        """A card's stored row (``state``, ``step``, ``stability``, ``difficulty``, ``due``, ``last_review``,
        ``reviews``, ``lapses``), or None."""
        with self._reading() as conn:
            row = conn.execute("SELECT state, step, stability, difficulty, due, last_review, reviews, lapses FROM cards "
                               "WHERE user = ? AND lexicon = ? AND type = ? AND prompt = ?",
                               (user, lexicon, kind, prompt)).fetchone()
        if row is None:
            return None
        names = ("state", "step", "stability", "difficulty", "due", "last_review", "reviews", "lapses")
        return dict(zip(names, row))

    # -- what is due -----------------------------------------------------------------------------------------

    def counts(self, user: str, lexicon: str, *, now: float | None = None) -> dict[str, Any]:
        """The cardbox's counts: ``total``, ``due_now``, ``next_due`` (ISO time of the next card not due now, or
        None) and ``by_type`` (per type: total, due now, and per state)."""
        when = self.clock() if now is None else now
        # The states from the tallies; due now, one counted index range per type (SQLite counts a range without
        # sorting or grouping; a GROUP BY over a user's cards costs ten times more at 50,000 cards).
        by_type: dict[str, dict[str, int]] = {}
        due_now = 0
        with self._reading() as conn:
            for kind, state, n in conn.execute("SELECT type, state, n FROM tallies WHERE user = ? AND lexicon = ? "
                                               "AND n > 0", (user, lexicon)).fetchall():
                row = by_type.setdefault(kind, {"total": 0, "due_now": 0, **{s: 0 for s in STATES}})
                row[STATES[state] if 0 <= state < len(STATES) else "new"] += int(n)
                row["total"] += int(n)
            for kind, row in by_type.items():
                (n,) = conn.execute("SELECT count(*) FROM cards WHERE user = ? AND lexicon = ? AND type = ? "
                                    "AND due <= ?", (user, lexicon, kind, when)).fetchone()
                row["due_now"] = int(n)
                due_now += int(n)
            (nxt,) = conn.execute("SELECT min(due) FROM cards WHERE user = ? AND lexicon = ? AND due > ?",
                                  (user, lexicon, when)).fetchone()
        return {"total": sum(r["total"] for r in by_type.values()), "due_now": due_now,
                "next_due": None if nxt is None else _iso(float(nxt)), "by_type": by_type}

    def due(self, user: str, lexicon: str, kind: str | None = None, *, limit: int = 50,
            now: float | None = None) -> list[CardView]:
        """The cards due now, the longest overdue first (of one type, or of all), at most ``limit``."""
        when = self.clock() if now is None else now
        sql = "SELECT id, type, prompt, state, due, last_review, reviews FROM cards WHERE user = ? AND lexicon = ? " \
              "AND due <= ?"
        args: list[Any] = [user, lexicon, when]
        if kind is not None:
            sql += " AND type = ?"
            args.append(kind)
        with self._reading() as conn:
            rows = conn.execute(sql + " ORDER BY due LIMIT ?", (*args, limit)).fetchall()
        return [CardView(int(i), str(t), str(p), STATES[s], float(d), None if lr is None else float(lr), int(n))
                for i, t, p, s, d, lr, n in rows]

    def prompts(self, user: str, lexicon: str, kind: str) -> list[str]:
        """Every question of one type in the cardbox, in the order they were added (an export)."""
        with self._reading() as conn:
            return [str(p) for (p,) in conn.execute("SELECT prompt FROM cards WHERE user = ? AND lexicon = ? AND "
                                                    "type = ? ORDER BY id", (user, lexicon, kind))]

    # -- quizzes ---------------------------------------------------------------------------------------------

    def save_quiz(self, quiz: Quiz, *, now: float | None = None) -> None:
        """Keep a quiz as it stands (after each answer)."""
        with self._writing() as conn:
            self._put_quiz(conn, quiz, self.clock() if now is None else now)

    def record(self, quiz: Quiz, result: QuestionResult, *, now: float | None = None) -> CardView:
        """A question of ``quiz`` ended: its review and the quiz as it now stands, in one transaction (a review
        and the quiz that made it are never kept apart). Sets ``result.card``."""
        when = self.clock() if now is None else now
        with self._writing() as conn:
            view = self._review(conn, quiz.user, quiz.lexicon, quiz.type, result.prompt, result.correct, when, quiz.id)
            result.card = view.to_dict()
            self._put_quiz(conn, quiz, when)
        return view

    @staticmethod
    def _put_quiz(conn: sqlite3.Connection, quiz: Quiz, now: float) -> None:
        conn.execute("INSERT OR REPLACE INTO quizzes VALUES (?, ?, ?, ?, ?, ?)",
                     (quiz.id, check_user(quiz.user), quiz.lexicon, int(quiz.finished), now,
                      json.dumps(quiz.to_dict(), ensure_ascii=False, allow_nan=False)))

    def quiz(self, key: str) -> Quiz | None:
        """The quiz ``key``, or None; a :class:`StudyStoreError` when its row is not a quiz (a damaged file)."""
        with self._reading() as conn:
            row = conn.execute("SELECT doc FROM quizzes WHERE id = ?", (key,)).fetchone()
        return None if row is None else _quiz_of(key, row[0])

    def latest_quiz(self, user: str, lexicon: str | None = None) -> Quiz | None:
        """The user's quiz answered most recently and not finished (what ``lexigraph quiz --resume`` takes up)."""
        sql = "SELECT id, doc FROM quizzes WHERE user = ? AND finished = 0"
        args: list[Any] = [user]
        if lexicon is not None:
            sql += " AND lexicon = ?"
            args.append(lexicon)
        with self._reading() as conn:
            row = conn.execute(sql + " ORDER BY used DESC LIMIT 1", args).fetchone()
        return None if row is None else _quiz_of(str(row[0]), row[1])


def _quiz_of(key: str, text: object) -> Quiz:
    try:
        if not isinstance(text, str):
            raise ValueError("not text")
        return Quiz.from_dict(json.loads(text))
    except (ValueError, KeyError, TypeError, IndexError, RecursionError) as e:
        raise StudyStoreError(f"quiz {key[:40]!r} in the study file is damaged: {str(e)[:120]}") from None


def _fsrs_card(key: int, row: Sequence[Any]) -> "fsrs.Card":
    """The stored card as the library's: a card never reviewed is FSRS's new card (learning, step 0)."""
    import fsrs  # optional (lexigraph[study]): the scheduler was made first, and said so when it is missing

    state, step, stability, difficulty, due, last_review = row[:6]
    if state == 0:
        return fsrs.Card(card_id=key, due=_utc(due))
    return fsrs.Card(card_id=key, state=fsrs.State(state), step=step, stability=stability, difficulty=difficulty,
                     due=_utc(due), last_review=None if last_review is None else _utc(last_review))
