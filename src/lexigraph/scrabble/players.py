"""Self-play's players, and a run as the engines and the workers take it.

A :class:`Player` ranks plays by **equity** with a leave table
(:meth:`Player.equity`) or by **score** alone (:meth:`Player.score`); a
simulation player (:meth:`Player.simulation`) simulates its best moves by
equity before it chooses (:mod:`lexigraph.scrabble.simulation_player`).

:class:`RunSpec` is a run's games as its workers take them: each player's
game and leave table as plain bytes (:func:`lexigraph.scrabble.tables.game_spec`),
their rules and the seed. It pickles (a run hands it to a process pool or a
Dask cluster), and it plays a batch of games on whatever lexicon it is handed
(:meth:`RunSpec.__call__`), through that lexicon's tables
(:func:`lexigraph.scrabble.tables.tables_for`, kept with the lexicon, so a
worker makes them once per run).

>>> import lexigraph
>>> from lexigraph.scrabble.game import Game
>>> spec = run_spec(Game.preset("scrabble"), [Player.score("a"), Player.equity(None, "b")], 5)
>>> turns, games = spec(lexigraph.open(), 0, 2)
>>> [int(g["index"]) for g in games]
[0, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.interface import MAX_THREADS, GameSpec, SelfPlayer, SelfPlayRequest
from .game import Game, GameError
from .leaves import LeaveTable
from .simulation import MAX_CANDIDATES, MAX_ITERATIONS, MAX_PLIES
from .tables import game_spec, tables_for

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..engine import Engines

__all__ = ["DEFAULT_ENDGAME_SECONDS", "MAX_ENDGAME_SECONDS", "Player", "RunSpec", "SimulationSettings", "run_spec",
           "selfplay_request"]

#: A simulation player's budget for an end-of-game search (the bag empty, or one or two tiles in it), in seconds:
#: about what a simulation of 5 candidates x 64 play-outs costs a turn, so that the search does not make the player
#: dearer than simulating (docs/performance.md, "Issue 35").
DEFAULT_ENDGAME_SECONDS = 0.05
#: The longest end-of-game budget taken, in seconds.
MAX_ENDGAME_SECONDS = 60.0


@dataclass(frozen=True)
class SimulationSettings:
    """How a simulation player simulates each turn (:func:`lexigraph.scrabble.simulation.simulate`): the best
    ``candidates`` moves by equity, ``iterations`` play-outs of ``plies`` turns each (fewer when the stopping
    rule leaves one candidate), ranked by ``objective`` ("win": the win table; "simmer": today's spread and
    sigmoid), within ``time_limit`` seconds a turn when given. With ``endgame``, the last turns are searched instead
    (:mod:`lexigraph.scrabble.simulation_player`): the bag empty, the exact endgame when solved within
    ``endgame_seconds``;
    with ``pre_endgame`` also, one or two tiles in the bag, the pre-endgame within ``endgame_seconds``, its answer
    taken only when it covers every draw."""

    candidates: int = 5
    iterations: int = 64
    plies: int = 2
    objective: str = "win"
    time_limit: float | None = None
    endgame: bool = False
    endgame_seconds: float = DEFAULT_ENDGAME_SECONDS
    pre_endgame: bool = False


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
                   name: str = "simulation", objective: str = "win", time_limit: float | None = None,
                   endgame: bool = False, endgame_seconds: float = DEFAULT_ENDGAME_SECONDS,
                   pre_endgame: bool = False) -> "Player":
        """The player that simulates its best ``candidates`` moves by equity with ``leaves`` (``iterations``
        play-outs of ``plies`` turns, see :mod:`lexigraph.scrabble.simulation`) and plays the winner. Its games
        are played turn by turn in Python around the engine's play-outs (slower than the C game loop).

        ``endgame`` (off by default: over 1,000 mirrored pairs it gained nothing measurable, and its budget is
        wall time, so a search it cuts short makes the games depend on the machine's load, not only the seed):
        once the bag is empty, play the exact endgame solver's best move when it finishes within
        ``endgame_seconds`` (else simulate). ``pre_endgame`` (with ``endgame``): with one or two tiles in the bag, play the
        pre-endgame solver's best play when it judges every draw within ``endgame_seconds`` (else simulate).

        >>> Player.simulation(None).simulating.endgame, Player.simulation(None, endgame=True).simulating.endgame
        (False, True)
        >>> Player.simulation(None, endgame_seconds=0)
        Traceback (most recent call last):
        ...
        lexigraph.scrabble.game.GameError: a simulation player's endgame budget is more than 0 and at most 60 seconds, not 0
        """
        for what, value, high in (("candidates", candidates, MAX_CANDIDATES), ("iterations", iterations,
                                  MAX_ITERATIONS), ("plies", plies, MAX_PLIES)):
            if isinstance(value, bool) or not isinstance(value, int) or not (0 if what == "plies" else 1) <= value \
                    <= high:
                raise GameError(f"a simulation player's {what} must be a whole number up to {high:,}, "
                                f"not {value!r}")
        if objective not in ("win", "simmer"):
            raise GameError(f"a simulation player's objective is win or simmer, not {objective!r}")
        if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                       or not 0 < time_limit <= 3600):
            raise GameError(f"a simulation player's time limit is from 0 to 3,600 seconds, not {time_limit!r}")
        for what, flag in (("endgame", endgame), ("pre_endgame", pre_endgame)):
            if not isinstance(flag, bool):
                raise GameError(f"a simulation player's {what} is True or False, not {flag!r}")
        if isinstance(endgame_seconds, bool) or not isinstance(endgame_seconds, (int, float)) \
                or not 0 < endgame_seconds <= MAX_ENDGAME_SECONDS:
            raise GameError(f"a simulation player's endgame budget is more than 0 and at most "
                            f"{MAX_ENDGAME_SECONDS:g} seconds, not {endgame_seconds!r}")
        return cls(name, True, leaves, SimulationSettings(candidates, iterations, plies, objective, time_limit,
                                                          endgame, float(endgame_seconds), pre_endgame))

    def game_spec(self, game: Game) -> GameSpec:
        """The game with the player's leave table, as the game loop reads it (a score player keys none)."""
        table = self.leaves if self.by_equity and self.leaves is not None and len(self.leaves) else None
        if table is not None and table.packed is None:
            raise GameError(f"the leave table {table.name or ''} has leaves the game loop cannot key "
                            "(more than 10 tiles, or tile codes past 63)")
        return game_spec(game, table)


@dataclass(frozen=True)
class RunSpec:
    """A run's games as its workers take them: player A's and player B's game spec and rule, and the seed (see the
    module docstring)."""

    specs: tuple[GameSpec, GameSpec]
    by_equity: tuple[bool, bool]
    seed: int
    #: C threads a worker plays its batch on (the same games on any number: each depends on the seed and its number)
    threads: int = 1

    def request(self, engines: "Engines") -> SelfPlayRequest:
        """The engine's request over this lexicon's tables."""
        players = [SelfPlayer(tables_for(engines, spec), by_equity) for spec, by_equity in
                   zip(self.specs, self.by_equity)]
        return SelfPlayRequest((players[0], players[1]), self.seed)

    def __call__(self, engines: "Engines", first: int, count: int) -> "tuple[np.ndarray, np.ndarray]":
        """Games ``first .. first + count - 1`` of the run: their turn and game records (see the engine's
        :meth:`~lexigraph.engine.interface.Engine.play_games`)."""
        return engines.engine.play_games(self.request(engines), first, count, self.threads)


def run_spec(game: Game, players: Sequence[Player], seed: int, threads: int = 1) -> RunSpec:
    """A run of ``players`` (A, B) on ``game`` (in the lexicon's alphabet) from ``seed``, on ``threads`` C threads
    per worker, checked."""
    if len(players) != 2:
        raise GameError(f"self-play takes two players, not {len(players)}")
    if not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise GameError(f"a seed is a whole number from 0 to 2**64 - 1, not {seed!r}")
    if sum(game.counts_by_code()) < 2 * game.rack_size:
        raise GameError(f"the {game.name} game's bag holds too few tiles for two racks")
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise GameError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {threads!r}")
    return RunSpec((players[0].game_spec(game), players[1].game_spec(game)),
                   (players[0].by_equity, players[1].by_equity), seed, threads)


def selfplay_request(engines: "Engines", game: Game, players: Sequence[Player], seed: int) -> SelfPlayRequest:
    """The engine's view of a run of ``players`` on ``game`` (in the lexicon's alphabet) from ``seed``."""
    return run_spec(game, players, seed).request(engines)
