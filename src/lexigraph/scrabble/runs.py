"""Self-play runs: a run's games played in batches (here, on a local process pool or a Dask cluster), its totals,
and its games kept as turn records and GCG.

:func:`autoplay` plays games ``first .. first + games - 1`` of the run
``seed`` between two :class:`~lexigraph.scrabble.players.Player`, in batches
of :data:`BATCH_GAMES` (of :data:`SIMULATION_BATCH_GAMES` when a simulation
player plays) handed out by :mod:`lexigraph.scrabble.workers`, and returns a
:class:`Run`: the :class:`Totals` from player A's side and, on request, every
turn (:meth:`Run.gcg` writes a game as GCG). Game ``i`` depends only on the
seed and ``i``, so the same seed gives the same games whatever the workers.

>>> import lexigraph
>>> from lexigraph.scrabble.game import Game
>>> from lexigraph.scrabble.players import Player
>>> run = autoplay(lexigraph.open(), Game.preset("scrabble"), [Player.score("a"), Player.score("b")], games=2,
...                seed=5, workers=1)
>>> run.totals.games, run.totals.wins + run.totals.losses + run.totals.draws
(2, 2)
"""

from __future__ import annotations

import math
import os
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from ..compiler.registry import name_of
from ..engine.interface import TURN_EXCHANGE, TURN_PLAY
from ..support.files import kind_of, write_atomic
from ..support.workers import MAX_WORKERS, pool_size
from .game import Game, GameError
from .players import Player, run_spec
from .position import Position
from .simulation_player import TurnByTurn
from .tiles import rack_text, tile_text
from .workers import BatchJob, LexiconRef, kept_records, run_batches

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..engine import Engines

__all__ = ["BATCH_GAMES", "Run", "Totals", "autoplay", "batches", "check_gcg_folder", "game_gcg", "totals"]

#: Games per batch handed to a worker: large enough that a batch costs far more than its dispatch.
BATCH_GAMES = 200
#: Games per batch when a simulation player plays (its games take seconds each).
SIMULATION_BATCH_GAMES = 2
#: Most games in one run.
MAX_GAMES = 100_000_000
#: The highest number a game may have (the engines count games in a signed 64-bit number).
MAX_GAME_INDEX = 2**63 - 1


def batches(first: int, games: int, size: int = BATCH_GAMES) -> list[tuple[int, int]]:
    """``(first, count)`` of each batch, in order; sizes even so that pairs stay whole.

    >>> batches(0, 450, 200)
    [(0, 200), (200, 200), (400, 50)]
    """
    size = max(2, size - size % 2)
    return [(s, min(size, first + games - s)) for s in range(first, first + games, size)]


@dataclass
class Totals:
    """What a run came to, from player A's side (the first player named).

    ``win_rate`` counts a draw as half a win; ``standard_error`` is that of
    the mean over pairs (a pair's two games are not independent), or over
    games when the run ends with an unpaired game.
    """

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    win_rate: float = 0.0
    standard_error: float = 0.0
    mean_spread: float = 0.0
    bingos_per_game: float = 0.0
    turns_per_game: float = 0.0
    seconds: float = 0.0
    games_per_second: float = 0.0
    workers: int = 1
    threads: int = 1

    def as_dict(self) -> dict[str, object]:
        """The totals as plain values."""
        return dict(self.__dict__)


def totals(games: "np.ndarray", bingos: int, turn_count: int) -> Totals:
    """The :class:`Totals` of game records, with the bingos and turns their games had (time fields left at 0)."""
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    n = len(games)
    t = Totals(games=n)
    if not n:
        return t
    diff = games["final"][:, 0].astype(np.int64) - games["final"][:, 1]
    t.wins, t.losses = int((diff > 0).sum()), int((diff < 0).sum())
    t.draws = n - t.wins - t.losses
    result = (diff > 0) + 0.5 * (diff == 0)
    t.win_rate = float(result.mean())
    units = result.reshape(-1, 2).mean(axis=1) if n % 2 == 0 and n >= 4 else result
    t.standard_error = float(units.std(ddof=1) / math.sqrt(len(units))) if len(units) > 1 else 0.0
    t.mean_spread = float(diff.mean())
    t.bingos_per_game = bingos / n
    t.turns_per_game = turn_count / n
    return t


def bingo_count(turns: "np.ndarray", rack_size: int) -> int:
    """Plays that put a whole rack down."""
    plays = turns[turns["kind"] == TURN_PLAY]
    return int(((plays["squares"] != 0).sum(axis=1) == rack_size).sum())


@dataclass
class Run:
    """A run's totals, and its games when kept (turn and game records, game by game)."""

    game: Game
    players: tuple[Player, Player]
    seed: int
    totals: Totals
    turns: "np.ndarray | None" = None
    games: "np.ndarray | None" = None
    lexicon_name: str = ""
    _offsets: "np.ndarray | None" = field(default=None, repr=False)

    def game_turns(self, k: int) -> "np.ndarray":
        """The turn records of the ``k``-th game kept."""
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        if self.turns is None or self.games is None:
            raise GameError("this run did not keep its games (keep_games=True keeps them)")
        if self._offsets is None:
            self._offsets = np.concatenate([[0], np.cumsum(self.games["turns"].astype(np.int64))])
        return self.turns[int(self._offsets[k]):int(self._offsets[k + 1])]

    def replay(self, k: int) -> Iterator[tuple["np.void", Position, list[int], int]]:
        """The ``k``-th game kept, turn by turn: each turn record with the position before it (board only, racks
        empty), both players' totals before it and the turns in a row without a play before it.

        The position is one object, changed in place as the turns go by: copy it to keep it.
        """
        pos = Position(self.game)
        totals = [0, 0]
        zeros = 0
        for t in self.game_turns(k):
            yield t, pos, totals, zeros
            if int(t["kind"]) == TURN_PLAY:
                row, col, across = int(t["row"]), int(t["col"]), bool(t["across"])
                for j, b in enumerate(int(x) for x in t["squares"][: t["length"]]):
                    if b:
                        pos.place(row + (0 if across else j), col + (j if across else 0), b & 0x7F, bool(b & 0x80))
                zeros = 0
            else:
                zeros += 1
            totals[int(t["player"])] = int(t["total"])

    def gcg(self, k: int) -> str:
        """The ``k``-th game kept, as GCG text."""
        if self.games is None:
            raise GameError("this run did not keep its games (keep_games=True keeps them)")
        return game_gcg(self.game, self.game_turns(k), self.games[k], self.players, seed=self.seed,
                        lexicon=self.lexicon_name)

    def write_gcg(self, folder: str | os.PathLike[str], *, inputs: Sequence[object] = ()) -> list[str]:
        """Each game kept as ``game-NNNNNN.gcg`` in ``folder`` (made if need be), written atomically; the paths.

        ``inputs``: files the run read (the lexicon's, leave tables), never written over.
        """
        if self.games is None:
            raise GameError("this run did not keep its games (keep_games=True keeps them)")
        check_gcg_folder(folder)
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as e:
            raise GameError(f"cannot make the GCG folder {os.fspath(folder)}: {e.strerror or e}") from None
        width = max(6, len(str(int(self.games["index"].max()) if len(self.games) else 0)))
        paths = []
        for k in range(len(self.games)):
            path = os.path.join(folder, f"game-{int(self.games[k]['index']):0{width}d}.gcg")
            write_atomic(path, self.gcg(k).encode("utf-8"), inputs=inputs)
            paths.append(path)
        return paths


def check_gcg_folder(folder: str | os.PathLike[str]) -> None:
    """Refuse a folder the GCG files of a run cannot go to, before a game is played: a path that is not a
    folder (a regular file, ``/dev/null``), or one that cannot be made or written in.

    >>> check_gcg_folder("/dev/null")
    Traceback (most recent call last):
    ...
    lexigraph.scrabble.game.GameError: the GCG folder /dev/null is a character device, not a folder: name a folder (made if need be) for the GCG files
    """
    shown = os.fspath(folder)
    path = os.path.abspath(shown)
    existing = path
    while not os.path.lexists(existing):  # the nearest folder that exists: the rest is made
        existing = os.path.dirname(existing)
    try:
        mode = os.stat(existing).st_mode
    except OSError as e:
        raise GameError(f"cannot use the GCG folder {shown}: {e.strerror or e}") from None
    if not stat.S_ISDIR(mode):
        where = shown if existing == path else f"{shown} (its {existing})"
        raise GameError(f"the GCG folder {where} is {kind_of(mode)}, not a folder: name a folder (made if need "
                        f"be) for the GCG files")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise GameError(f"cannot write in the GCG folder {existing}: permission denied")


def game_gcg(game: Game, turns: "np.ndarray", record: "np.void", players: Sequence[Player], *, seed: int = 0,
             lexicon: str = "") -> str:
    """One game as GCG: the first mover is ``#player1``; plays, exchanges, passes and the end's rack points."""
    first = int(record["first"])
    order = [first, 1 - first]
    nicks = [_nick(players[0].name, "a"), _nick(players[1].name, "b")]
    if nicks[0] == nicks[1]:
        nicks = [nicks[0] + "1", nicks[1] + "2"]
    lines = ["#character-encoding UTF-8"]
    for k, who in enumerate(order):
        lines.append(f"#player{k + 1} {nicks[who]} {players[who].name}")
    if lexicon:
        lines.append(f"#lexicon {lexicon}")
    lines.append(f"#title self-play seed {seed} game {int(record['index'])}")
    for t in turns:
        who = int(t["player"])
        rack = rack_text(game, [int(c) for c in t["rack"][: t["rack_length"]]])
        head = f">{nicks[who]}: {rack}"
        if t["kind"] == TURN_PLAY:
            length = int(t["length"])
            word = "".join("." if b == 0 else tile_text(game, b & 0x7F, bool(b & 0x80)) for b in
                           (int(x) for x in t["squares"][:length]))
            square = game.square_name(int(t["row"]), int(t["col"]), bool(t["across"]))
            lines.append(f"{head} {square} {word} +{int(t['score'])} {int(t['total'])}")
        elif t["kind"] == TURN_EXCHANGE:
            back = rack_text(game, [int(c) for c in t["squares"][: t["length"]]])
            lines.append(f"{head} -{back} +0 {int(t['total'])}")
        else:
            lines.append(f"{head} - +0 {int(t['total'])}")
    left = [[int(c) for c in record["racks"][q] if c != 255] for q in (0, 1)]
    if record["ending"] == 0:
        out = int(record["out"])
        lines.append(f">{nicks[out]}: ({rack_text(game, left[1 - out])}) +{int(record['adjust'][out])} "
                     f"{int(record['final'][out])}")
    else:
        for who in order:
            if left[who]:
                lines.append(f">{nicks[who]}: ({rack_text(game, left[who])}) {int(record['adjust'][who])} "
                             f"{int(record['final'][who])}")
    return "\n".join(lines) + "\n"


def _nick(name: str, default: str) -> str:
    nick = "".join(ch for ch in name if ch.isalnum() or ch in "-_.")
    return nick[:20] or default


def autoplay(lex: "Engines", game: Game, players: Sequence[Player], *, games: int, seed: int = 0, first: int = 0,
             workers: int | None = None, cluster: str | None = None, keep_games: bool = False,
             progress: Callable[[int], None] | None = None, batch: int = BATCH_GAMES, threads: int = 1) -> Run:
    """Play games ``first .. first + games - 1`` of the run ``seed`` between ``players`` (A, B).

    ``workers``: processes of a local pool (None: every core; 1: this
    process); ``cluster``: a Dask scheduler's address instead. ``threads``:
    C threads each worker plays its batches on (1 to 256; the Python engine
    plays in turn). The same seed gives the same games (and GCG) whatever the
    workers and threads. ``keep_games``
    keeps every turn (for GCG); else only the totals are gathered.
    """
    import numpy as np  # deferred: start-up

    if not isinstance(games, int) or not 0 < games <= MAX_GAMES:
        raise GameError(f"games must be a whole number from 1 to {MAX_GAMES:,}, not {games!r}")
    if not isinstance(first, int) or first < 0:
        raise GameError(f"first must be a whole number from 0, not {first!r}")
    if first > MAX_GAME_INDEX - (games - 1):
        raise GameError(f"the games' numbers run from first to first + games - 1, at most {MAX_GAME_INDEX:,}: "
                        f"first must be at most {MAX_GAME_INDEX - (games - 1):,}, not {first:,}")
    if workers is not None and (not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS):
        raise GameError(f"workers must be a whole number from 1 to {MAX_WORKERS}, not {workers!r}")
    game = game.for_lexicon(lex.store.alphabet)  # the lexicon's tiles must be the game's
    pair = (players[0], players[1]) if len(players) == 2 else None
    if pair is None:
        raise GameError(f"self-play takes two players, not {len(players)}")
    job: BatchJob = run_spec(game, pair, seed, threads)  # checked whoever plays: the seed, the bag, the leave tables
    parts = batches(first, games, batch)
    start = time.monotonic()
    # A simulation player chooses turn by turn (Python around the engine's play-outs), in batches of a few games.
    turn_by_turn = None
    if any(p.simulating is not None for p in pair):
        if cluster:
            raise GameError("a simulation player plays on this machine (workers), not on a cluster")
        job = turn_by_turn = TurnByTurn.register(game, pair, seed)
        if batch == BATCH_GAMES:
            parts = batches(first, games, SIMULATION_BATCH_GAMES)
    ref = LexiconRef.of(lex)
    all_turns = None
    try:
        if keep_games:
            kept = list(run_batches(ref, job, parts, workers=workers, cluster=cluster, reducer=kept_records,
                                    progress=progress))
        else:
            summaries = list(run_batches(ref, job, parts, workers=workers, cluster=cluster,
                                         reducer=partial(_summary, game.rack_size), progress=progress))
    finally:
        if turn_by_turn is not None:
            turn_by_turn.release()
    seconds = time.monotonic() - start
    if keep_games:
        all_turns = np.concatenate([turns for turns, _ in kept])
        all_games = np.concatenate([games for _, games in kept])
        t = totals(all_games, bingo_count(all_turns, game.rack_size), len(all_turns))
    else:
        all_games = np.concatenate([games for games, _, _ in summaries])
        t = totals(all_games, sum(bingos for _, bingos, _ in summaries), sum(turns for _, _, turns in summaries))
    t.seconds = seconds
    t.games_per_second = games / seconds if seconds > 0 else 0.0
    t.workers = pool_size(workers, len(parts)) if cluster is None else (workers or os.cpu_count() or 1)
    t.threads = threads
    return Run(game, pair, seed, t, all_turns, all_games, name_of(lex))


def _summary(rack_size: int, turns: "np.ndarray", games: "np.ndarray") -> "tuple[np.ndarray, int, int]":
    """What a batch sends back when the games are not kept: the game records, bingos and turns."""
    return games, bingo_count(turns, rack_size), len(turns)
