"""Simulation: the top candidates by equity, each played out a few turns ahead against many draws, ranked.

For the best ``candidates`` moves by equity (plays, exchanges and the pass,
as :func:`lexigraph.scrabble.movegen.generate` ranks them with the leave
table), :func:`simulate` plays out the next ``plies`` turns (default 2: the
opponent's reply and our next turn, as wolges's simmer does) ``iterations``
times. Iteration ``i`` deals the tiles the side to move cannot see (the
opponent's rack and the bag) from ``(seed, i)`` alone, and **every candidate
meets the same deal** (common random numbers: the differences between
candidates are measured on the same racks). Each turn of a play-out is made
by self-play's equity player (the best play by equity, or an exchange, or a
pass), in C (``native/selfplay.c``) or in its Python twin. The opponent's rack
is always drawn: when the position gives it, only its size is taken.

**The inferred rack.** With ``infer`` (the opponent's last move, or an
:class:`~lexigraph.scrabble.inference.Inference` already computed) each
iteration first picks the leave the opponent kept from the inferred
distribution, by its weights, with the iteration's own random numbers, and
deals the rest of their rack from the other unseen tiles (the side to move's
rack as always): what their move said about their rack shapes their replies.
A distribution that does not fit the unseen tiles is refused.

The value of a play-out is simmer's final equity spread: our points from the
candidate on minus the opponent's, plus the leave value of our last leave
minus that of the opponent's last leave (none once the game has ended: the
end's rack points are then in the points). ``mean_spread`` is its mean.

**Win chance.** A play-out's final spread is the current score difference
plus its value. When the game ended in the play-out the result is known (1,
½ or 0); otherwise the chance is simmer's sigmoid, a lead of ``L`` points
with ``u`` tiles still unseen at the end (the bag and both racks) reading as
``1 / (1 + exp(-L / w))`` with ``w = (30 + u) / ln 9`` (a lead of ``30 + u``
points wins 90% of the time). ``win_rate`` is the mean over iterations.

**Ranking and the stopping rule.** Candidates are ranked by simmer's
objective, ``mean_spread + weight × win_rate``, the weight 10 points while
the game cannot end within the plies, rising to 10,000 (win chance first)
when the unseen tiles fit in the plies' racks. Standard errors are those of
the means over iterations. After ``min_iterations`` (default 64), at every
checkpoint (each :data:`CHECKPOINT` iterations, counted from the first), each
candidate is compared with the leader (the best mean objective) on the same
draws: when the mean of its objective minus the leader's, iteration by
iteration, plus z standard errors of that difference (z = :data:`Z`, 2.0) is
below 0, it is dropped: it keeps the statistics it had and is no longer
played out. (Paired on common draws, the difference's standard error is far
smaller than either candidate's: the rule drops what cannot win much sooner
than comparing mean + z·se with the leader's mean − z·se would.) The simulation stops when one candidate is left, at
``iterations``, or at ``time_limit`` (the iterations done so far answer,
and the result says it was cut short).

**Reproducible whatever the workers and threads.** Iterations are handed to
the workers in ranges between two checkpoints and put back in order, within
a range each of a worker's C threads (``threads``) takes the next iteration
in turn and writes its own rows, and the stopping rule is only read at
checkpoints: a seed gives the same ranking and the same statistics on one
worker or several, one thread or several.

>>> import lexigraph
>>> from lexigraph.scrabble.position import Position
>>> from lexigraph.scrabble.game import Game
>>> lex = lexigraph.open()
>>> pos = Position(Game.preset("scrabble"), racks=["AEINRST", ""])
>>> result = simulate(lex, pos, leaves=None, candidates=2, iterations=8, seed=1)
>>> len(result.ranked), result.ranked[0].iterations
(2, 8)
"""

from __future__ import annotations

import math
import os
import struct
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine.interface import (
    BLANK_FLAG, MAX_THREADS, SIMULATION_CANDIDATE_SIZE, TURN_EXCHANGE, TURN_PASS, TURN_PLAY, GameSpec,
    SimulationRequest, simulation_candidate,
)
from ..support.workers import MAX_WORKERS, pool_size
from . import equity as eq
from .bai import DELTA, still_in
from .game import GameError
from .inference import Inference, infer_last_move
from .movegen import LeavesSpec, aligned, generate, leave_table
from .moves import Move
from .position import Position
from .tables import game_spec, tables_for
from .tiles import parse_rack
from .winpct import WinTable, default_table
from .workers import LexiconRef, opened_lexicon

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..engine import Engines
    from .leaves import LeaveTable

__all__ = ["OBJECTIVES", "SimulatedPlay", "SimulationResult", "choose_move", "prepare", "simulate", "table_win",
           "win_chance"]

#: Most candidates, plies and iterations a simulation takes.
MAX_CANDIDATES = 100
MAX_PLIES = 10
MAX_ITERATIONS = 1_000_000
#: Iterations a simulation runs by default.
DEFAULT_ITERATIONS = 1000
#: The stopping rule: checked every CHECKPOINT iterations once min_iterations are done, z standard errors apart.
CHECKPOINT = 32
DEFAULT_MIN_ITERATIONS = 64
Z = 2.0
#: simmer's win-chance weights (points per unit of win chance) and sigmoid: a lead of SIGMOID_SPREAD + unseen
#: tiles wins SIGMOID_PROB of the time.
WIN_WEIGHT = 10.0
WIN_WEIGHT_OUT = 10000.0
SIGMOID_SPREAD = 30.0
SIGMOID_PROB = 0.9
#: What candidates are ranked by: "win" (the win table's chance, spread as a tie-breaker; best-arm
#: identification) or "simmer" (mean spread + weight x the sigmoid's win chance; the paired z rule).
OBJECTIVES = ("win", "simmer")
#: The spread's weight in the "win" objective, per point: 20 points of spread weigh as 1% of win chance.
SPREAD_TIEBREAK = 0.0005


@dataclass(frozen=True)
class SimulatedPlay:
    """One candidate's statistics: its static ``equity``, the mean final equity spread of its play-outs
    (``mean_spread``) and its win chance (``win_rate``), their standard errors, the play-outs it had
    (``iterations``), and whether the stopping rule dropped it; ``objective`` is what it was ranked by."""

    move: Move
    equity: float
    mean_spread: float
    win_rate: float
    spread_stderr: float
    win_stderr: float
    iterations: int
    dropped: bool
    objective: float = 0.0
    objective_stderr: float = 0.0

    def as_dict(self) -> dict[str, object]:
        """The candidate as plain values (the move as the ``moves`` command renders it)."""
        return {"move": self.move.to_dict(), "equity": round(self.equity, 4),
                "mean_spread": round(self.mean_spread, 4), "spread_stderr": round(self.spread_stderr, 4),
                "win_rate": round(self.win_rate, 6), "win_stderr": round(self.win_stderr, 6),
                "objective": round(self.objective, 4), "iterations": self.iterations, "dropped": self.dropped}


@dataclass
class SimulationResult:
    """The candidates ranked (those still in first, by objective), the best move, and how the run went:
    ``iterations`` done, ``complete`` (False when the time limit cut it short), ``stopped_early`` (one
    candidate left before ``iterations``)."""

    ranked: list[SimulatedPlay]
    plies: int
    seed: int
    iterations: int
    complete: bool
    stopped_early: bool
    seconds: float
    workers: int
    score_difference: int
    win_weight: float
    notes: list[str] = field(default_factory=list)
    objective: str = "win"
    inferred: Inference | None = None

    @property
    def best(self) -> Move:
        return self.ranked[0].move

    def as_dict(self) -> dict[str, object]:
        """The result as plain values (the JSON of ``lexigraph sim``)."""
        return {"best": self.best.to_dict(), "ranked": [p.as_dict() for p in self.ranked], "plies": self.plies,
                "seed": self.seed, "iterations": self.iterations, "complete": self.complete,
                "stopped_early": self.stopped_early, "seconds": round(self.seconds, 4), "workers": self.workers,
                "score_difference": self.score_difference, "win_weight": self.win_weight, "notes": list(self.notes),
                "objective": self.objective, **self._inferred_dict()}

    def _inferred_dict(self) -> dict[str, object]:
        """The inference the opponent's racks were drawn from, when there was one (its move, the leaves and how
        they were found; the five most probable leaves)."""
        if self.inferred is None:
            return {}
        found = self.inferred
        return {"inferred": {"move": found.observed.notation, "margin": None if math.isinf(found.margin)
                             else found.margin, "exact": found.exact, "consistent": found.consistent,
                             "leaves": [leave.as_dict() for leave in found.leaves[:5]]}}


def win_chance(final_spread: "np.ndarray", left: "np.ndarray", ended: "np.ndarray") -> "np.ndarray":
    """The win chance of play-outs from their final spread (the current difference plus the value), the tiles
    left unseen at their end, and whether the game ended (see the module docstring).

    >>> import numpy as np
    >>> [round(float(x), 3) for x in win_chance(np.array([40.0, 0.0, -5.0]), np.array([10, 10, 0]),
    ...                                           np.array([0, 0, 1]))]
    [0.9, 0.5, 0.0]
    """
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    width = (SIGMOID_SPREAD + left.astype(np.float64)) / math.log(SIGMOID_PROB / (1.0 - SIGMOID_PROB))
    sigmoid = 1.0 / (1.0 + np.exp(-final_spread / width))
    known = np.where(final_spread > 0, 1.0, np.where(final_spread < 0, 0.0, 0.5))
    out: np.ndarray = np.where(ended.astype(bool), known, sigmoid)
    return out


def table_win(table: WinTable, final_spread: "np.ndarray", got: "np.ndarray", plies: int) -> "np.ndarray":
    """Player 0's win chance at the end of play-outs (``got``: their records; ``final_spread``: player 0's final
    equity spread, the current difference plus the value): the result when the game ended, else the table's
    chance for the player on turn (player 0 after an odd number of plies), read from player 0's side.

    >>> import numpy as np
    >>> from lexigraph.engine.interface import simulation_result_dtype
    >>> t = WinTable.from_counts([4], [[0, 2, 4, 6, 8]], max_spread=2, smooth=False)
    >>> got = np.zeros(3, simulation_result_dtype())
    >>> got["left"], got["rack_on_turn"], got["ended"] = [8, 8, 0], [7, 7, 0], [0, 0, 1]
    >>> table_win(t, np.array([1.0, 1.0, -3.0]), got, 2).tolist()   # opponent on turn at -1: it wins 1/4
    [0.75, 0.75, 0.0]
    """
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    known = np.where(final_spread > 0, 1.0, np.where(final_spread < 0, 0.0, 0.5))
    unseen = got["left"].astype(np.int64) - got["rack_on_turn"]
    if (plies + 1) & 1 == 0:
        estimate = table.on_turn_many(final_spread, unseen)
    else:
        estimate = 1.0 - table.on_turn_many(-final_spread, unseen)
    out: np.ndarray = np.where(got["ended"].astype(bool), known, estimate)
    return out


def win_weight(unseen: int, plies: int, rack_size: int) -> float:
    """simmer's weight of the win chance in the objective: 10,000 when the unseen tiles fit in the racks of the
    plies (the game may end), 10 from twice that, in between linearly.

    >>> win_weight(80, 2, 7), win_weight(10, 2, 7)
    (10.0, 10000.0)
    """
    matter = plies * rack_size
    if matter <= 0 or unseen <= matter:
        return WIN_WEIGHT_OUT
    if unseen < 2 * matter:
        return WIN_WEIGHT_OUT + (unseen - matter) / matter * (WIN_WEIGHT - WIN_WEIGHT_OUT)
    return WIN_WEIGHT


def _whole(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise GameError(f"{name} must be a whole number from {low:,} to {high:,}, not {value!r}")
    return value


def _candidate_bytes(pos: Position, move: Move) -> bytes:
    game = pos.game
    if move.kind == "play":
        squares, tiles = [], []
        for t in move.tiles:
            code = game.alphabet.code(t.tile)
            if code is None:
                raise GameError(f"tile {t.tile!r} is not in the {game.name} game")
            squares.append(t.row * game.size + t.col)
            tiles.append(code | (BLANK_FLAG if t.blank else 0))
        return simulation_candidate(TURN_PLAY, move.score, squares, tiles)
    if move.kind == "exchange":
        return simulation_candidate(TURN_EXCHANGE, 0, [], parse_rack(game, move.exchanged))
    return simulation_candidate(TURN_PASS, 0, [], [])


#: The total of the weights the inferred leaves are dealt by: each leave's probability in units of 2**-52.
LEAVE_WEIGHT_TOTAL = 1 << 52


def inferred_leaves(game: Any, inference: Inference, unseen: Sequence[int], opponent_tiles: int) -> tuple[bytes, bytes]:
    """The request's ``opponent_leaves`` and ``leave_weights`` for ``inference``: each leave as a count per code,
    its weight its probability in units of 2**-52 (a leave rounding to nothing is never dealt), cumulated. A
    :class:`GameError` for a distribution the unseen tiles (a count per code) cannot deal: a leave with tiles
    not unseen, larger than the opponent's rack, or a probability that is not a number from 0 to 1.

    >>> from lexigraph.scrabble.game import Game
    >>> from lexigraph.scrabble.inference import InferredLeave, Inference, ObservedMove
    >>> found = Inference(ObservedMove("pass"), 0.0, [InferredLeave("A", (1,), 0.75), InferredLeave("B", (2,), 0.25)],
    ...                   True, 2, 2, 2, 4, 1)
    >>> leaves, weights = inferred_leaves(Game.preset("scrabble"), found, [0, 2, 2] + [0] * 24, 7)
    >>> leaves[:3], leaves[27:30], [w / LEAVE_WEIGHT_TOTAL for w in struct.unpack("<2Q", weights)]
    (b'\\x00\\x01\\x00', b'\\x00\\x00\\x01', [0.75, 1.0])
    """
    if not isinstance(inference, Inference):
        raise GameError(f"infer must be the opponent's last move or an Inference, not {type(inference).__name__}")
    n_codes = len(unseen)
    leaves = bytearray()
    weights: list[int] = []
    total = 0
    for leave in inference.leaves:
        p = leave.probability
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise GameError(f"the inferred leave {leave.leave!r} has probability {p!r}: not a number from 0 to 1")
        counts = [0] * n_codes
        for code in leave.codes:
            if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code < n_codes:
                raise GameError(f"the inferred leave {leave.leave!r} holds a tile code ({code!r}) the game does not have")
            counts[code] += 1
        if len(leave.codes) > opponent_tiles:
            raise GameError(f"the inferred leave {leave.leave!r} holds {len(leave.codes)} tiles; the opponent's rack "
                            f"holds {opponent_tiles}")
        if any(m > u for m, u in zip(counts, unseen)):
            raise GameError(f"the inferred leave {leave.leave!r} holds tiles the side to move can see (on the board "
                            f"or its rack): the inference does not fit this position")
        weight = round(p * LEAVE_WEIGHT_TOTAL)
        if weight:
            total += weight
            leaves += bytes(counts)
            weights.append(total)
    if not weights:
        raise GameError("the inference holds no leave to deal (no rack the opponent may have held made their move)")
    return bytes(leaves), struct.pack(f"<{len(weights)}Q", *weights)


@dataclass(frozen=True)
class _Playouts:
    """A simulation's play-outs apart from any lexicon (they pickle): the game's spec (its leave table both sides
    play by) and the request's other fields, from which a worker makes its own lexicon's request."""

    spec: GameSpec
    fields: tuple[Any, ...]

    @classmethod
    def of(cls, spec: GameSpec, request: SimulationRequest) -> "_Playouts":
        return cls(spec, tuple(request[1:]))

    def request(self, engines: "Engines", candidates: bytes) -> SimulationRequest:
        """The engine's request over this lexicon's tables, for ``candidates``."""
        return SimulationRequest(tables_for(engines, self.spec), *self.fields)._replace(candidates=candidates)


#: The play-outs of the simulations under way on a process pool, by key: workers forked from this process find
#: them here, so that a range of iterations travels as a key and the candidates still in (a leave table is
#: megabytes).
_SHARED: dict[int, _Playouts] = {}


@dataclass(frozen=True)
class _Job:
    """What a worker needs for a range of iterations: the lexicon, the play-outs' key (or the play-outs
    themselves, for workers that were not forked) and the candidates still in."""

    ref: LexiconRef
    key: int
    playouts: _Playouts | None
    candidates: bytes
    threads: int = 1


def _run_range(job: _Job, first: int, count: int, deadline: float | None) -> "np.ndarray":
    playouts = job.playouts if job.playouts is not None else _SHARED.get(job.key)
    if playouts is None:
        raise GameError("a simulation's workers must be forked from the process that runs it")
    engines = opened_lexicon(job.ref)
    answer: np.ndarray = engines.engine.simulate_plays(playouts.request(engines, job.candidates), first, count,
                                                       deadline, job.threads)
    return answer


def prepare(engines: "Engines", position: Position, *, leaves: "LeavesSpec | None", candidates: int = 10,
            plies: int = 2, seed: int = 0, moves: Sequence[Move] | None = None, infer: Inference | None = None) \
        -> tuple[Position, list[Move], SimulationRequest]:
    """The position in the lexicon's alphabet, the candidates (``moves``, else the best ``candidates`` by
    equity: plays, exchanges and the pass) and the engine's request for their play-outs (the opponent's racks
    drawn from ``infer`` when given); every argument checked (a
    :class:`~lexigraph.scrabble.game.GameError` for anything wrong)."""
    candidates = _whole("candidates", candidates, 1, MAX_CANDIDATES)
    plies = _whole("plies", plies, 0, MAX_PLIES)
    seed = _whole("seed", seed, 0, (1 << 64) - 1)
    pos = aligned(engines, position)
    game = pos.game
    rack_codes = parse_rack(game, pos.racks[0])
    if not rack_codes:
        raise GameError("the side to move has no tiles: there is nothing to simulate")
    if len(rack_codes) > game.rack_size:
        raise GameError(f"the rack holds {len(rack_codes)} tiles; a {game.name} rack holds {game.rack_size}")
    overdrawn = pos.overdrawn()
    if overdrawn:
        raise GameError(f"the board and the rack hold more tiles than the {game.name} game has: "
                        + ", ".join(overdrawn))
    unseen = eq.unseen_counts(pos, rack_codes)
    n_unseen = sum(unseen)
    if n_unseen == 0:
        raise GameError("no tiles are unseen (the bag and the opponent's rack are empty): the game is over, "
                        "there is nothing to simulate")
    opponent_tiles = eq.other_rack_size(pos, n_unseen)
    if opponent_tiles > n_unseen:
        raise GameError(f"the opponent's rack holds {opponent_tiles} tiles but only {n_unseen} are unseen")
    table = leave_table(engines, pos, leaves)
    if table is not None and len(table) and table.packed is None:
        raise GameError("the leave table has leaves the play-outs cannot key (more than 10 tiles, or codes past 63)")
    if moves is None:
        found = generate(engines, pos, top=candidates, exchanges=True, passes=True, leaves=table, sort="equity",
                         count_all=False)
        chosen = list(found[:candidates])
    else:
        chosen = list(moves)[:candidates]
        if not chosen or not all(isinstance(m, Move) for m in chosen):
            raise GameError("moves must be a non-empty list of Move")
    blob = b"".join(_candidate_bytes(pos, m) for m in chosen)
    n_codes = len(game.alphabet) + 1
    rack = bytearray(n_codes)
    for c in rack_codes:
        rack[c] += 1
    tables = tables_for(engines, game_spec(game, _keyed(table)))
    opponent_leaves, leave_weights = (b"", b"") if infer is None else inferred_leaves(game, infer, unseen,
                                                                                       opponent_tiles)
    base = SimulationRequest(tables, bytes(pos.codes), bytes(pos.blanks), bytes(rack), bytes(unseen), opponent_tiles,
                             pos.zero_turns, blob, plies, seed, opponent_leaves, leave_weights)
    return pos, chosen, base


def simulate(engines: "Engines", position: Position, *, leaves: "LeavesSpec | None", candidates: int = 10,
             plies: int = 2, iterations: int = DEFAULT_ITERATIONS, seed: int = 0, workers: int | None = 1,
             time_limit: float | None = None, min_iterations: int = DEFAULT_MIN_ITERATIONS, stopping: bool = True,
             moves: Sequence[Move] | None = None, objective: str = "win", win_table: WinTable | None = None,
             delta: float = DELTA, max_playouts: int | None = None, cluster: str | None = None,
             progress: Callable[[int, int], None] | None = None, threads: int = 1,
             infer: "Inference | str | int | Move | None" = None) -> SimulationResult:
    """Simulate the best ``candidates`` moves for the side to move of ``position`` (see the module docstring).

    ``leaves``: the leave table both sides play by (a
    :class:`~lexigraph.scrabble.leaves.LeaveTable` or a KLV2, KLV or CSV
    file; None: the game's, if any). ``workers``: processes (None: every
    core); ``threads``: C threads each process plays its iterations on (1 to
    256; the same results on any number). ``time_limit`` (seconds): answer with the iterations done by then.
    ``stopping=False`` plays every candidate to ``iterations``. ``moves``:
    the candidates to simulate instead of the best by equity. ``objective``:
    ``"win"`` (the win table's chance, ``win_table``, default the shipped
    one, with the spread as a tie-breaker; candidates dropped by best-arm
    identification with error ``delta``) or ``"simmer"`` (simmer's objective
    and the paired z rule). ``max_playouts``: stop once that many play-outs
    are done (a budget; None: ``iterations`` alone). ``cluster``: a Dask
    scheduler's address to run the play-outs on instead of ``workers`` (the
    same answer for a seed). ``progress(done, total)``
    is called after each range of iterations with the play-outs done (an
    iteration plays out every candidate still in) and the play-outs the
    simulation will have done at most, which falls as candidates are dropped
    (at the end: the play-outs done). ``infer``: the opponent's last move
    (its notation on this board, tiles played through in parentheses, ``-N``
    an exchange of N tiles, ``-`` a pass, or a :class:`Move`), inferred with
    :func:`~lexigraph.scrabble.inference.infer_last_move`'s defaults and this
    leave table, or an :class:`~lexigraph.scrabble.inference.Inference`
    already computed (on the position before that move): each play-out deals
    the opponent's rack from it (module docstring).
    """
    start_time = time.monotonic()
    candidates = _whole("candidates", candidates, 1, MAX_CANDIDATES)
    plies = _whole("plies", plies, 0, MAX_PLIES)
    iterations = _whole("iterations", iterations, 1, MAX_ITERATIONS)
    min_iterations = _whole("min_iterations", min_iterations, 1, MAX_ITERATIONS)
    seed = _whole("seed", seed, 0, (1 << 64) - 1)
    if workers is not None:
        workers = _whole("workers", workers, 1, MAX_WORKERS)
    threads = _whole("threads", threads, 1, MAX_THREADS)
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not 0 < time_limit <= 86400 or math.isnan(time_limit)):
        raise GameError(f"time_limit must be a number of seconds above 0 and at most 86400, not {time_limit!r}")
    deadline = None if time_limit is None else start_time + float(time_limit)
    if objective not in OBJECTIVES:
        raise GameError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    if isinstance(delta, bool) or not isinstance(delta, (int, float)) or not 0 < delta < 1:
        raise GameError(f"delta must be a number between 0 and 1, not {delta!r}")
    if max_playouts is not None:
        max_playouts = _whole("max_playouts", max_playouts, 1, MAX_CANDIDATES * MAX_ITERATIONS)
    if win_table is not None and not isinstance(win_table, WinTable):
        raise GameError(f"win_table must be a WinTable, not {type(win_table).__name__}")
    table = (win_table or default_table()) if objective == "win" else None
    inferred = _inference(engines, position, infer, leaves, deadline)
    notes = []
    if inferred is not None and not inferred.leaves:
        notes.append(f"no rack the opponent may have held made {inferred.observed.notation} within "
                     f"{inferred.margin:g} points of its best move: their racks are drawn as without inference")
    pos, chosen, base = prepare(engines, position, leaves=leaves, candidates=candidates, plies=plies, seed=seed,
                                moves=moves, infer=inferred if inferred is not None and inferred.leaves else None)
    game = pos.game
    n_unseen = sum(base.unseen)
    diff = pos.scores[0] - pos.scores[1]
    weight = win_weight(n_unseen, plies, game.rack_size)
    first_stop = min_iterations if stopping else iterations + 1
    # A round plays at most the iterations up to the next checkpoint: more processes would never get work.
    n_workers = pool_size(workers, min(iterations, max(first_stop, CHECKPOINT)))
    spec = game_spec(game, _keyed(leave_table(engines, pos, leaves)))
    runner: _Runner | _DaskRunner
    if cluster:
        runner = _DaskRunner(engines, cluster, base, spec, threads)
        n_workers = runner.workers
    else:
        runner = _Runner(engines, n_workers, base, spec, threads)
    rule = _Rule(objective, table, diff, weight, plies, delta, len(chosen))
    try:
        stats = _simulate_loop(runner, base, len(chosen), iterations, first_stop, deadline, rule, max_playouts,
                               progress)
    finally:
        runner.close()
    done, complete, values_of, wins_of, utilities_of, dropped = stats
    ranked = []
    for c, move in enumerate(chosen):
        v = values_of[c]
        w = wins_of[c]
        obj = utilities_of[c]
        n = len(v)
        ranked.append(SimulatedPlay(
            move, float(move.equity if move.equity is not None else move.score), _mean(v), _mean(w), _stderr(v),
            _stderr(w), n, dropped[c], _mean(obj), _stderr(obj)))
    order = sorted(range(len(ranked)), key=lambda c: (ranked[c].dropped, -ranked[c].objective, c))
    survivors = sum(1 for p in ranked if not p.dropped)
    if not complete:
        notes.append(f"the time limit stopped the simulation after {done:,} of {iterations:,} iterations")
    return SimulationResult([ranked[c] for c in order], plies, seed, done, complete,
                            complete and survivors == 1 and done < iterations and len(chosen) > 1,
                            time.monotonic() - start_time, n_workers, diff, weight, notes, objective, inferred)


def _inference(engines: "Engines", position: Position, infer: "Inference | str | int | Move | None",
               leaves: "LeavesSpec | None", deadline: float | None) -> Inference | None:
    """The inference the play-outs deal the opponent's racks from: ``infer`` itself, or inferred from the
    opponent's last move on ``position`` (after it)."""
    if infer is None or isinstance(infer, Inference):
        return infer
    if not isinstance(infer, (str, int, Move)):
        raise GameError(f"infer must be the opponent's last move or an Inference, not {type(infer).__name__}")
    return infer_last_move(engines, position, infer, leaves=leaves, deadline=deadline)


def _keyed(table: "LeaveTable | None") -> "LeaveTable | None":
    """The leave table the play-outs key (none for an empty one)."""
    return table if table is not None and len(table) else None


def _mean(a: "np.ndarray") -> float:
    return float(a.mean()) if len(a) else 0.0


def _stderr(a: "np.ndarray") -> float:
    return float(a.std(ddof=1) / math.sqrt(len(a))) if len(a) > 1 else 0.0


def _run_shared(ref: LexiconRef, playouts: _Playouts, candidates: bytes, first: int, count: int,
                threads: int = 1) -> "np.ndarray":
    """A range of iterations on a Dask worker: the lexicon and the play-outs scattered to it once. No deadline
    travels (another machine's clock is not this one's): the caller reads its own between ranges."""
    engines = opened_lexicon(ref)
    answer: np.ndarray = engines.engine.simulate_plays(playouts.request(engines, candidates), first, count, None,
                                                       threads)
    return answer


class _DaskRunner:
    """Ranges of iterations on a Dask cluster, split over its workers and answered in order: the same
    iterations, and so the same answer for a seed, as on one worker or a process pool."""

    def __init__(self, engines: "Engines", address: str, base: SimulationRequest, spec: GameSpec,
                 threads: int = 1) -> None:
        self.threads = threads
        try:
            import distributed  # deferred: Dask is an optional dependency (lexigraph[cluster])
        except ImportError:
            raise GameError("a cluster needs Dask: pip install 'lexigraph[cluster]'") from None
        connect: Any = distributed.Client  # Dask ships no types for it
        try:
            self.client: Any = connect(address, timeout=10)
        except (OSError, TimeoutError, ValueError) as e:
            raise GameError(f"cannot reach the Dask scheduler at {address}: {e}") from None
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        # the lexicon (by path, or its bytes) and the play-outs (a leave table is megabytes) go to every worker once
        self.ref, self.playouts = self.client.scatter([LexiconRef.of(engines), _Playouts.of(spec, base)],
                                                      broadcast=True)

    def run(self, request: SimulationRequest, first: int, count: int, deadline: float | None) -> "np.ndarray":
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        size = -(-count // self.workers)
        parts = [(s, min(size, first + count - s)) for s in range(first, first + count, size)]
        futures = [self.client.submit(_run_shared, self.ref, self.playouts, request.candidates, s, k, self.threads,
                                      pure=False)
                   for s, k in parts]
        out = [f.result() for f in futures]
        return np.concatenate(out) if out else np.zeros((0, 0))

    def close(self) -> None:
        self.client.close()


class _Runner:
    """Ranges of iterations run here (one worker) or on a local process pool, answered in order."""

    def __init__(self, engines: "Engines", workers: int, base: SimulationRequest, spec: GameSpec,
                 threads: int = 1) -> None:
        self.engines = engines
        self.workers = workers
        self.threads = threads
        self.pool: Any = None
        self.key = id(base)
        self.forked = False
        self.playouts = _Playouts.of(spec, base)
        self.ref = LexiconRef.of(engines)
        if workers > 1:
            import multiprocessing  # deferred: a simulation on one worker needs no pool
            from concurrent.futures import ProcessPoolExecutor

            methods = multiprocessing.get_all_start_methods()
            self.forked = "fork" in methods and sys.platform != "darwin"
            if self.forked:
                _SHARED[self.key] = self.playouts  # before the pool forks its workers
            context = multiprocessing.get_context("fork" if self.forked else "spawn")
            self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)

    def run(self, request: SimulationRequest, first: int, count: int, deadline: float | None) -> "np.ndarray":
        """Iterations ``first .. first + count - 1``: the whole prefix done (all of them unless the deadline
        passed)."""
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        if self.pool is None:
            return self.engines.engine.simulate_plays(request, first, count, deadline, self.threads)
        size = -(-count // self.workers)
        parts = [(s, min(size, first + count - s)) for s in range(first, first + count, size)]
        job = _Job(self.ref, self.key, None if self.forked else self.playouts, request.candidates, self.threads)
        futures = [self.pool.submit(_run_range, job, s, k, deadline) for s, k in parts]
        out = []
        for (_s, k), future in zip(parts, futures):
            got = future.result()
            out.append(got)
            if len(got) < k:  # the deadline: keep the iterations done without a gap
                for rest in futures:
                    rest.cancel()
                break
        return np.concatenate(out) if out else np.zeros((0, 0))

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        _SHARED.pop(self.key, None)


@dataclass(frozen=True)
class _Rule:
    """How play-outs are valued and candidates dropped: ``objective`` "win" (the table's win chance plus
    :data:`SPREAD_TIEBREAK` per point of spread; best-arm identification, :mod:`lexigraph.scrabble.bai`) or
    "simmer" (mean spread + ``weight`` x the sigmoid's win chance; the paired z rule)."""

    objective: str
    table: WinTable | None
    diff: int
    weight: float
    plies: int
    delta: float
    arms: int

    def value(self, got: "np.ndarray") -> "tuple[np.ndarray, np.ndarray, np.ndarray]":
        """Per play-out record (an array of them): its value, player 0's win chance and the utility ranked."""
        import numpy as np  # deferred: start-up

        value = got["value"].astype(np.float64)
        if self.table is None:
            win = win_chance(self.diff + value, got["left"], got["ended"])
            return value, win, value + self.weight * win
        win = table_win(self.table, self.diff + value, got, self.plies)
        return value, win, win + SPREAD_TIEBREAK * value

    def keep(self, active: list[int], utilities: "dict[int, np.ndarray]") -> list[int]:
        """The candidates still in contention, every one of ``active`` having had the same iterations."""
        import numpy as np  # deferred: start-up

        if self.table is not None:
            columns = np.stack([utilities[c] for c in active], axis=1)
            return [active[k] for k in still_in(list(range(len(active))), columns, arms=self.arms,
                                                delta=self.delta)]
        means = {c: float(o.mean()) for c, o in utilities.items()}
        leader = max(active, key=lambda c: (means[c], -c))
        # paired on the same draws: the difference's standard error is far smaller than either candidate's
        return [c for c in active if c == leader
                or float((utilities[c] - utilities[leader]).mean()) + Z * _stderr(utilities[c] - utilities[leader])
                >= 0]


def _simulate_loop(runner: "_Runner | _DaskRunner", base: SimulationRequest, n_cands: int, iterations: int, min_iterations: int,
                   deadline: float | None, rule: _Rule, max_playouts: int | None = None,
                   progress: Callable[[int, int], None] | None = None) \
        -> "tuple[int, bool, list[np.ndarray], list[np.ndarray], list[np.ndarray], list[bool]]":
    import numpy as np  # deferred: start-up

    active = list(range(n_cands))
    dropped = [False] * n_cands
    values: list[list[np.ndarray]] = [[] for _ in range(n_cands)]
    wins: list[list[np.ndarray]] = [[] for _ in range(n_cands)]
    utilities: list[list[np.ndarray]] = [[] for _ in range(n_cands)]
    done = 0
    played = 0  # play-outs: the iterations of each candidate
    complete = True
    while done < iterations:
        # the next stop: the next checkpoint, never before min_iterations, never past the play-out budget
        nxt = min(iterations, max(min_iterations, (done // CHECKPOINT + 1) * CHECKPOINT))
        if max_playouts is not None:
            nxt = min(nxt, done + max(1, (max_playouts - played) // len(active)))
        blob = b"".join(base.candidates[c * SIMULATION_CANDIDATE_SIZE:(c + 1) * SIMULATION_CANDIDATE_SIZE]
                        for c in active)
        request = base._replace(candidates=blob)
        got = runner.run(request, done, nxt - done, deadline)
        got = got.reshape(-1, len(active)) if got.size else np.zeros((0, len(active)), got.dtype)
        if len(got):
            value, win, utility = rule.value(got)
            for k, c in enumerate(active):
                values[c].append(value[:, k])
                wins[c].append(win[:, k])
                utilities[c].append(utility[:, k])
        done += len(got)
        played += len(got) * len(active)
        if progress is not None:
            progress(played, played + (iterations - done) * len(active))
        if done < nxt:
            complete = False
            break
        if deadline is not None and time.monotonic() > deadline and done < iterations:
            complete = False
            break
        if max_playouts is not None and played >= max_playouts:
            break
        if done >= min_iterations and done % CHECKPOINT == 0 or done == min_iterations:
            kept = rule.keep(active, {c: np.concatenate(utilities[c]) for c in active})
            for c in active:
                dropped[c] = c not in kept
            active = kept
            if len(active) == 1:
                break
            if progress is not None:  # the dropped candidates play no more
                progress(played, played + (iterations - done) * len(active))
    if progress is not None:
        progress(played, played)
    empty = np.zeros(0)
    return (done, complete, [np.concatenate(v) if v else empty for v in values],
            [np.concatenate(w) if w else empty for w in wins],
            [np.concatenate(u) if u else empty for u in utilities], dropped)


def choose_move(engines: "Engines", position: Position, *, leaves: "LeavesSpec | None", seed: int = 0,
                time_limit: float | None = None, candidates: int = 10, iterations: int = DEFAULT_ITERATIONS,
                plies: int = 2, workers: int | None = 1, objective: str = "win",
                win_table: WinTable | None = None, threads: int = 1) -> Move | None:
    """The simulation's choice for the side to move: a play or an exchange (a :class:`Move`), or None to pass.

    One candidate (or none) needs no play-outs: the best move by equity is
    answered at once.
    """
    pos = aligned(engines, position)
    game = pos.game
    rack_codes = parse_rack(game, pos.racks[0])
    if not rack_codes:
        return None
    table = leave_table(engines, pos, leaves)
    found = list(generate(engines, pos, top=_whole("candidates", candidates, 1, MAX_CANDIDATES), exchanges=True,
                          passes=True, leaves=table, sort="equity", count_all=False))
    if not found:
        return None
    if len(found) == 1 or sum(eq.unseen_counts(pos, rack_codes)) == 0:
        best = found[0]
    else:
        best = simulate(engines, pos, leaves=table, candidates=candidates, plies=plies, iterations=iterations,
                        seed=seed, workers=workers, time_limit=time_limit, moves=found, objective=objective,
                        win_table=win_table, threads=threads).best
    return None if best.kind == "pass" else best
