"""Self-play: two players play whole games from a seeded bag, the game loop in the engine (C), batches from here.

A player ranks plays by **equity** with a leave table (:class:`Player`
``("equity", leaves)``) or by **score** alone. Games come in mirrored pairs:
games ``2k`` and ``2k + 1`` draw from the same bag order with the seats
swapped, which cancels most of the luck of the draw. Game ``i`` of a run
depends only on the seed and ``i`` (``native/selfplay.c`` says how), so a run
split over any number of processes or machines gives the same games.

:func:`autoplay` plays a run in batches on a local process pool (all cores
by default) or on a Dask cluster (``cluster="tcp://host:8786"``; ``pip
install 'lexigraph[cluster]'``), and returns the :class:`Totals` and, on
request, each game's GCG text (:func:`game_gcg`).

>>> import lexigraph
>>> from lexigraph.scrabble.game import Game
>>> lex = lexigraph.open()
>>> run = autoplay(lex, Game.preset("scrabble"), [Player.score("a"), Player.score("b")], games=2, seed=5,
...                workers=1, keep_games=True)
>>> run.totals.games, run.totals.wins + run.totals.losses + run.totals.draws
(2, 2)
>>> run.gcg(0).splitlines()[1]
'#player1 a a'
"""

from __future__ import annotations

import math
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from ..compiler.registry import name_of
from ..engine.interface import TURN_EXCHANGE, TURN_PLAY, SelfPlayer, SelfPlayRequest
from ..support.workers import MAX_WORKERS, pool_size
from . import equity as eq
from .game import Game, GameError
from .leaves import LeaveTable
from .tiles import rack_text, tile_text

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..engine import Engines

__all__ = ["Player", "Run", "SimulationSettings", "Totals", "autoplay", "check_gcg_folder", "game_gcg", "play_batch",
           "selfplay_request"]

#: Games per batch handed to a worker: large enough that a batch costs far more than its dispatch.
BATCH_GAMES = 200
#: Games per batch when a simulation player plays (its games take seconds each).
SIMULATION_BATCH_GAMES = 2
#: Most games in one run.
MAX_GAMES = 100_000_000
#: The highest number a game may have (the engines count games in a signed 64-bit number).
MAX_GAME_INDEX = 2**63 - 1


@dataclass(frozen=True)
class SimulationSettings:
    """How a simulation player simulates each turn (:func:`lexigraph.scrabble.simulation.simulate`): the best
    ``candidates`` moves by equity, ``iterations`` play-outs of ``plies`` turns each (fewer when the stopping
    rule leaves one candidate)."""

    candidates: int = 5
    iterations: int = 64
    plies: int = 2


@dataclass(frozen=True)
class Player:
    """A self-play player: its name, and its leave table (``by_equity``) or None with score-only play; a
    simulation player (``simulating``: how) also simulates its best moves by equity before it chooses."""

    name: str
    by_equity: bool
    leaves: LeaveTable | None = None
    simulating: SimulationSettings | None = None

    @classmethod
    def score(cls, name: str = "score") -> "Player":
        """The player that plays its highest-scoring play."""
        return cls(name, False, None)

    @classmethod
    def equity(cls, leaves: LeaveTable | None, name: str = "equity") -> "Player":
        """The player that plays its best play by equity with ``leaves`` (None: no leave values)."""
        return cls(name, True, leaves)

    @classmethod
    def simulation(cls, leaves: LeaveTable | None, *, candidates: int = 5, iterations: int = 64, plies: int = 2,
                   name: str = "simulation") -> "Player":
        """The player that simulates its best ``candidates`` moves by equity with ``leaves`` (``iterations``
        play-outs of ``plies`` turns, see :mod:`lexigraph.scrabble.simulation`) and plays the winner. Its games
        are played turn by turn in Python around the engine's play-outs (slower than the C game loop)."""
        from .simulation import MAX_CANDIDATES, MAX_ITERATIONS, MAX_PLIES

        for what, value, high in (("candidates", candidates, MAX_CANDIDATES), ("iterations", iterations,
                                  MAX_ITERATIONS), ("plies", plies, MAX_PLIES)):
            if isinstance(value, bool) or not isinstance(value, int) or not (0 if what == "plies" else 1) <= value \
                    <= high:
                raise GameError(f"a simulation player's {what} must be a whole number up to {high:,}, "
                                f"not {value!r}")
        return cls(name, True, leaves, SimulationSettings(candidates, iterations, plies))

    def engine_player(self) -> SelfPlayer:
        """The player as the game loop reads it."""
        if not self.by_equity:
            return SelfPlayer(False)
        packed = self.leaves.packed if self.leaves is not None and len(self.leaves) else None
        if packed is None:
            if self.leaves is not None and len(self.leaves):
                raise GameError(f"the leave table {self.leaves.name or ''} has leaves the game loop cannot key "
                                "(more than 10 tiles, or tile codes past 63)")
            return SelfPlayer(True)
        return SelfPlayer(True, packed[0], packed[1])


def selfplay_request(game: Game, players: Sequence[Player], seed: int) -> SelfPlayRequest:
    """The engine's view of a run: the game's tables and the two players."""
    if len(players) != 2:
        raise GameError(f"self-play takes two players, not {len(players)}")
    if not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise GameError(f"a seed is a whole number from 0 to 2**64 - 1, not {seed!r}")
    if sum(game.counts_by_code()) < 2 * game.rack_size:
        raise GameError(f"the {game.name} game's bag holds too few tiles for two racks")
    return SelfPlayRequest(game.size, bytes(game.letter_mult), bytes(game.word_mult), bytes(game.points_by_code()),
                           bytes(game.counts_by_code()), game.start[0] * game.size + game.start[1], game.rack_size,
                           game.bingo_bonus, eq.opening_penalties(game), eq.vowel_flags(game),
                           (players[0].engine_player(), players[1].engine_player()), seed)


def play_batch(lex: "Engines", request: SelfPlayRequest, first: int, count: int) -> "tuple[np.ndarray, np.ndarray]":
    """Games ``first .. first + count - 1`` of the run: their turn and game records (see the engine's
    :meth:`~lexigraph.engine.interface.Engine.play_games`)."""
    return lex.engine.play_games(request, first, count)


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

    def as_dict(self) -> dict[str, Any]:
        """The totals as plain values."""
        return dict(self.__dict__)


def totals(games: "np.ndarray", bingos: int, turn_count: int) -> Totals:
    """The :class:`Totals` of game records, with the bingos and turns their games had (time fields left at 0)."""
    import numpy as np

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
        import numpy as np

        if self.turns is None or self.games is None:
            raise GameError("this run did not keep its games (keep_games=True keeps them)")
        if self._offsets is None:
            self._offsets = np.concatenate([[0], np.cumsum(self.games["turns"].astype(np.int64))])
        return self.turns[int(self._offsets[k]):int(self._offsets[k + 1])]

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
        from ..support.files import write_atomic

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
    from ..support.files import kind_of

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


def game_gcg(game: Game, turns: "np.ndarray", record: Any, players: Sequence[Player], *, seed: int = 0,
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


# -- running batches: in process, on a local pool, on a cluster ------------------------------------------------


@dataclass(frozen=True)
class LexiconRef:
    """How a worker reopens the lexicon: its file's path, or its bytes when it was compiled in memory."""

    path: str
    data: bytes | None
    pure_python: bool

    @classmethod
    def of(cls, lex: Any) -> "LexiconRef":
        """The reference of an open lexicon (its pickled form: by path, or bytes for one made in memory)."""
        _fn, (path, data, pure) = lex.__reduce__()
        return cls(path, data, pure)


_OPEN: dict[LexiconRef, Any] = {}


def opened_lexicon(ref: LexiconRef) -> Any:
    """The lexicon ``ref`` names, opened once per process (a worker keeps what it opened)."""
    lex = _OPEN.get(ref)
    if lex is None:
        # A worker keeps what it opened: the next batch of the run costs no open (and no check of the graph).
        lex = _reopen(ref)
        if len(_OPEN) > 4:
            _OPEN.clear()
        _OPEN[ref] = lex
    return lex


def _reopen(ref: LexiconRef) -> Any:
    from ..engine.fileformat import open_bytes, open_path
    from ..lexicon import Lexicon

    mapped = open_bytes(ref.data, name=ref.path or "<memory>") if ref.data is not None else open_path(ref.path)
    return Lexicon(mapped, pure_python=ref.pure_python)


#: The games and players of the runs with a simulation player under way, by key: a worker forked from this
#: process finds them here (a Game's alphabet does not pickle).
_TURN_BY_TURN: dict[int, tuple[Game, tuple["Player", "Player"]]] = {}


@dataclass(frozen=True)
class TurnByTurn:
    """A run with a simulation player, as its batches name it: a key to its game and players in this process
    (and in the workers forked from it)."""

    key: int

    def resolve(self) -> tuple[Game, tuple["Player", "Player"]]:
        """The run's game and players."""
        found = _TURN_BY_TURN.get(self.key)
        if found is None:
            raise GameError("a simulation player's games run in this process or in workers forked from it")
        return found


def run_batch(ref: LexiconRef, request: SelfPlayRequest, first: int, count: int,
              reducer: "Callable[[np.ndarray, np.ndarray], Any] | None" = None,
              turn_by_turn: "TurnByTurn | None" = None) -> Any:
    """A batch in a worker: games ``first .. first + count - 1``, their records, or what ``reducer`` makes of
    them (a picklable function of turns and games: leave learning sums in the worker). ``turn_by_turn``: the
    game and players of a run with a simulation player, played turn by turn
    (:func:`lexigraph.scrabble.simulation.play_simulated_games`) instead of in the engine's game loop."""
    if turn_by_turn is not None:
        from .simulation import play_simulated_games

        game, players = turn_by_turn.resolve()
        turns, games = play_simulated_games(opened_lexicon(ref), game, players, request.seed, first, count)
    else:
        turns, games = play_batch(opened_lexicon(ref), request, first, count)
    return reducer(turns, games) if reducer is not None else (turns, games)


def batches(first: int, games: int, size: int = BATCH_GAMES) -> list[tuple[int, int]]:
    """``(first, count)`` of each batch, in order; sizes even so that pairs stay whole.

    >>> batches(0, 450, 200)
    [(0, 200), (200, 200), (400, 50)]
    """
    size = max(2, size - size % 2)
    return [(s, min(size, first + games - s)) for s in range(first, first + games, size)]


def run_batches(ref: LexiconRef, request: SelfPlayRequest, parts: list[tuple[int, int]], *, workers: int | None,
                cluster: str | None, reducer: "Callable[[np.ndarray, np.ndarray], Any] | None" = None,
                progress: Callable[[int], None] | None = None,
                turn_by_turn: "TurnByTurn | None" = None) -> Iterator[Any]:
    """Each batch's result in batch order, whatever order they finish in: in this process (one worker), on a
    local process pool, or on the Dask cluster at ``cluster``."""
    if cluster:
        yield from _dask_batches(ref, request, parts, cluster, reducer, progress, turn_by_turn)
        return
    n = pool_size(workers, len(parts))
    if n <= 1:
        for first, count in parts:
            result = run_batch(ref, request, first, count, reducer, turn_by_turn)
            if progress:
                progress(count)
            yield result
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork where the platform has it: the workers inherit the imported modules (spawn re-imports them).
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods and sys.platform != "darwin" else "spawn")
    with ProcessPoolExecutor(max_workers=n, mp_context=context) as pool:
        futures = [pool.submit(run_batch, ref, request, first, count, reducer, turn_by_turn)
                   for first, count in parts]
        for (_first, count), future in zip(parts, futures):
            result = future.result()
            if progress:
                progress(count)
            yield result


def _dask_batches(ref: LexiconRef, request: SelfPlayRequest, parts: list[tuple[int, int]], address: str,
                  reducer: "Callable[[np.ndarray, np.ndarray], Any] | None",
                  progress: Callable[[int], None] | None,
                  turn_by_turn: "TurnByTurn | None" = None) -> Iterator[Any]:
    try:
        import distributed
    except ImportError:
        raise GameError("a cluster needs Dask: pip install 'lexigraph[cluster]'") from None
    _reachable(address)
    connect: Any = distributed.Client  # Dask ships no types for it
    try:
        client: Any = connect(address, timeout=10)
    except (OSError, TimeoutError, ValueError) as e:
        raise GameError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    try:
        # The lexicon travels by path when it has one: every machine of the cluster must hold the file there.
        # The request holds the players' leave tables (the English table's keys and values: 14 MiB) and a
        # lexicon made in memory travels as its bytes: both go to every worker once, and each batch's task
        # names them, instead of carrying its own copy in the task graph.
        shared_ref, shared_request = client.scatter([ref, request], broadcast=True)
        futures = [client.submit(run_batch, shared_ref, shared_request, first, count, reducer, turn_by_turn,
                                 pure=False)
                   for first, count in parts]
        for (_first, count), future in zip(parts, futures):
            result = future.result()
            if progress:
                progress(count)
            yield result
    finally:
        client.close()


def _reachable(address: str, wait: float = 3.0) -> None:
    """Refuse at once a scheduler address nothing listens on (Dask itself would retry until its timeout)."""
    import socket
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(address if "://" in address else f"tcp://{address}")
        scheme, host, port = parts.scheme, parts.hostname, parts.port
    except ValueError:
        scheme, host, port = "", None, None
    if scheme not in ("tcp", "tls") or not host or not port:
        raise GameError(f"a Dask scheduler's address is tcp://HOST:PORT, not {address!r}")
    try:
        socket.create_connection((host, port), timeout=wait).close()
    except OSError as e:
        raise GameError(f"cannot reach the Dask scheduler at {address}: {e.strerror or e}") from None


class Progress:
    """A progress bar on a stream: games done, games per second."""

    def __init__(self, total: int, stream: Any = None) -> None:
        self.total = total
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.monotonic()

    def __call__(self, count: int) -> None:
        self.done += count
        elapsed = max(time.monotonic() - self.start, 1e-9)
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done:,}/{self.total:,} games, "
                          f"{self.done / elapsed:,.0f}/s")
        if self.done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def autoplay(lex: "Engines", game: Game, players: Sequence[Player], *, games: int, seed: int = 0, first: int = 0,
             workers: int | None = None, cluster: str | None = None, keep_games: bool = False,
             progress: Callable[[int], None] | None = None, batch: int = BATCH_GAMES) -> Run:
    """Play games ``first .. first + games - 1`` of the run ``seed`` between ``players`` (A, B).

    ``workers``: processes of a local pool (None: every core; 1: this
    process); ``cluster``: a Dask scheduler's address instead. The same seed
    gives the same games (and GCG) whatever the workers. ``keep_games``
    keeps every turn (for GCG); else only the totals are gathered.
    """
    import numpy as np

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
    request = selfplay_request(game, pair, seed)
    ref = LexiconRef.of(lex)
    parts = batches(first, games, batch)
    start = time.monotonic()
    reducer = None if keep_games else partial(_summary, game.rack_size)
    # A simulation player chooses turn by turn (Python around the engine's play-outs), in batches of a few games.
    turn_by_turn = None
    if any(p.simulating is not None for p in pair):
        if cluster:
            raise GameError("a simulation player plays on this machine (workers), not on a cluster")
        turn_by_turn = TurnByTurn(id(pair))
        _TURN_BY_TURN[turn_by_turn.key] = (game, pair)
        if batch == BATCH_GAMES:
            parts = batches(first, games, SIMULATION_BATCH_GAMES)
    try:
        results = list(run_batches(ref, request, parts, workers=workers, cluster=cluster, reducer=reducer,
                                   progress=progress, turn_by_turn=turn_by_turn))
    finally:
        if turn_by_turn is not None:
            _TURN_BY_TURN.pop(turn_by_turn.key, None)
    seconds = time.monotonic() - start
    all_turns = None
    if keep_games:
        all_turns = np.concatenate([r[0] for r in results])
        all_games = np.concatenate([r[1] for r in results])
        t = totals(all_games, bingo_count(all_turns, game.rack_size), len(all_turns))
    else:
        all_games = np.concatenate([r[0] for r in results])
        t = totals(all_games, sum(r[1] for r in results), sum(r[2] for r in results))
    t.seconds = seconds
    t.games_per_second = games / seconds if seconds > 0 else 0.0
    t.workers = pool_size(workers, len(parts)) if cluster is None else (workers or os.cpu_count() or 1)
    return Run(game, pair, seed, t, all_turns, all_games, name_of(lex))


def _summary(rack_size: int, turns: "np.ndarray", games: "np.ndarray") -> "tuple[np.ndarray, int, int]":
    """What a batch sends back when the games are not kept: the game records, bingos and turns."""
    return games, bingo_count(turns, rack_size), len(turns)
