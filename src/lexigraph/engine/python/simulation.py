"""The simulation's play-outs in Python: the twin of ``simulate_plays`` in ``native/playouts.c``.

Iteration ``i`` deals the unseen tiles from ``(seed, i)`` alone (the random
numbers of pair ``i`` of self-play's run ``seed``, the tiles shuffled by
Fisher-Yates from the end, the opponent's rack drawn from the end); every
candidate of the iteration starts from that deal (common random numbers),
then ``plies`` turns follow, each by self-play's equity player
(:func:`lexigraph.engine.python.game_loop.take_turn`). The value is the side
to move's points from the candidate on minus the opponent's, plus its last
leave's value minus the opponent's (0 once the game has ended): wolges's
simmer's final equity spread. Slow, and there to be compared with the C
loop on small cases.

With inferred leaves (``opponent_leaves``, ``leave_weights``) the deal
starts the opponent's rack from one of them, picked by the iteration's first
random number below the total weight, and fills it from the other unseen
tiles shuffled (``playouts.c``'s ``deal_inferred``).
"""

from __future__ import annotations

import bisect
import struct
import time
from typing import TYPE_CHECKING

from ..interface import (
    BLANK_FLAG, SIMULATION_CANDIDATE_SIZE, SIMULATION_MAX_PLIES, TURN_EXCHANGE, TURN_PASS, TURN_PLAY,
    TURN_RECORD_SIZE, SimulationRequest, simulation_result_dtype,
)
from .game_loop import MAX_BAG, MAX_RACK, ZERO_TURNS_TO_END, GameState, Xoshiro, draw_tiles, put_back, rack_points
from .game_loop import leave_key_of, shuffle, take_turn

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from .tables import PythonGameTables

#: Most candidates and iterations one call takes (``playouts.c``).
MAX_CANDIDATES = 4096
MAX_ITERATIONS = 1 << 24


def _check(tables: "PythonGameTables", req: SimulationRequest) -> None:
    nc = len(tables.points)
    nn = tables.size * tables.size
    bad = (len(req.board) != nn or len(req.blanks) != nn or len(req.rack) != nc or len(req.unseen) != nc
           or len(req.candidates) % SIMULATION_CANDIDATE_SIZE
           or len(req.candidates) // SIMULATION_CANDIDATE_SIZE > MAX_CANDIDATES
           or not 0 <= req.plies <= SIMULATION_MAX_PLIES or req.zero_turns < 0
           or not 0 <= req.opponent_tiles <= tables.tiles.rack_size or sum(req.unseen) > MAX_BAG
           or req.opponent_tiles > sum(req.unseen) or sum(req.rack) > tables.tiles.rack_size
           or any(c >= nc for c in req.board) or any(b > 1 for b in req.blanks))
    if bad or not _inferred_leaves_fit(req, nc):
        raise ValueError("simulate_plays: inconsistent arguments")


def _inferred_leaves_fit(req: SimulationRequest, nc: int) -> bool:
    """Whether the inferred leaves are well formed (``playouts.c``'s ``check_inferred_leaves``): a count per code
    each within the unseen tiles and the opponent's rack, cumulative weights strictly increasing from above 0."""
    leaves, weights = req.opponent_leaves, req.leave_weights
    if len(leaves) % nc or len(weights) % 8 or len(leaves) // nc != len(weights) // 8:
        return False
    previous = 0
    for k, weight in enumerate(_cumulative(req)):
        leave = leaves[k * nc:(k + 1) * nc]
        if any(m > u for m, u in zip(leave, req.unseen)) or sum(leave) > req.opponent_tiles or weight <= previous:
            return False
        previous = weight
    return True


def _cumulative(req: SimulationRequest) -> tuple[int, ...]:
    return struct.unpack(f"<{len(req.leave_weights) // 8}Q", req.leave_weights)


def simulate_plays(tables: "PythonGameTables", req: SimulationRequest, first: int, count: int,
                   deadline: float | None = None) -> "np.ndarray":
    """The play-outs of iterations ``first .. first + count - 1`` (see the module docstring); ``tables``: the
    request's (the engine checked they are its own)."""
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    _check(tables, req)
    if first < 0 or count < 0 or count > MAX_ITERATIONS:
        raise ValueError("simulate_plays: inconsistent arguments")
    n_cands = len(req.candidates) // SIMULATION_CANDIDATE_SIZE
    unseen = [t for t, k in enumerate(req.unseen) for _ in range(k)]
    cumulative = _cumulative(req)
    out = bytearray()
    for i in range(first, first + count):
        if deadline is not None and i > first and time.monotonic() > deadline:
            break
        dealt = _deal_inferred(req, cumulative, i) if cumulative else _deal(req, unseen, i)
        for c in range(n_cands):
            cand = req.candidates[c * SIMULATION_CANDIDATE_SIZE:(c + 1) * SIMULATION_CANDIDATE_SIZE]
            out += _play_out(tables, req, dealt.copy(), cand)
    return np.frombuffer(bytes(out), simulation_result_dtype()).reshape(-1, n_cands)


def simulation_deals(tables: "PythonGameTables", req: SimulationRequest, first: int, count: int) -> bytes:
    """The opponent's rack (a count per code) iterations ``first .. first + count - 1`` deal, one after another:
    the twin of ``playouts.c``'s ``simulation_deals``, the deal alone."""
    _check(tables, req)
    if first < 0 or count < 0 or count > MAX_ITERATIONS:
        raise ValueError("simulation_deals: inconsistent arguments")
    unseen = [t for t, k in enumerate(req.unseen) for _ in range(k)]
    cumulative = _cumulative(req)
    out = bytearray()
    for i in range(first, first + count):
        dealt = _deal_inferred(req, cumulative, i) if cumulative else _deal(req, unseen, i)
        out += bytes(dealt.racks[1])
    return bytes(out)


def _deal(req: SimulationRequest, unseen: list[int], i: int) -> GameState:
    """Iteration ``i``'s deal: the unseen tiles shuffled, the opponent's rack drawn, the rest the bag."""
    rng = Xoshiro(req.seed, i)
    bag = list(unseen)
    shuffle(rng, bag)
    racks = [list(req.rack), [0] * len(req.rack)]
    draw_tiles(racks[1], bag, req.opponent_tiles)
    return GameState(bytearray(req.board), bytearray(req.blanks), racks, [0, 0], bag, rng)


def _deal_inferred(req: SimulationRequest, cumulative: tuple[int, ...], i: int) -> GameState:
    """Iteration ``i``'s deal with inferred leaves: one drawn by weight onto the opponent's rack, the other unseen
    tiles shuffled, the rack filled from the end, the rest the bag."""
    nc = len(req.unseen)
    rng = Xoshiro(req.seed, i)
    k = bisect.bisect_right(cumulative, rng.below(cumulative[-1]))
    leave = list(req.opponent_leaves[k * nc:(k + 1) * nc])
    bag = [t for t in range(nc) for _ in range(leave[t], req.unseen[t])]
    shuffle(rng, bag)
    racks = [list(req.rack), leave]
    draw_tiles(racks[1], bag, req.opponent_tiles)
    return GameState(bytearray(req.board), bytearray(req.blanks), racks, [0, 0], bag, rng)


def _candidate_tiles(tables: "PythonGameTables", st: GameState, cand: bytes) -> tuple[int, int, list[int]]:
    """The candidate's kind, score and the tiles it takes from player 0's rack (counts per code), checked against
    the position (``playouts.c``'s ``candidate_tiles``)."""
    nc = len(tables.points)
    nn = tables.size * tables.size
    kind, k, score = struct.unpack_from("<BBxxi", cand, 0)
    squares = struct.unpack_from(f"<{k}H", cand, 8) if k <= MAX_RACK else ()
    tiles = cand[40:40 + k]
    gone = [0] * nc
    bad = k > MAX_RACK or kind > TURN_PASS
    if not bad and kind == TURN_PLAY:
        bad = k < 1
        for sq, b in zip(squares, tiles):
            code = b & ~BLANK_FLAG
            if sq >= nn or st.board[sq] or not 1 <= code < nc:
                bad = True
                break
            gone[0 if b & BLANK_FLAG else code] += 1
    elif not bad and kind == TURN_EXCHANGE:
        bad = k < 1 or len(st.bag) < k or any(t >= nc for t in tiles)
        if not bad:
            for t in tiles:
                gone[t] += 1
    if bad or any(g > r for g, r in zip(gone, st.racks[0])):
        raise ValueError("simulate_plays: a candidate the position does not allow")
    return kind, score, gone


def _make_candidate(tables: "PythonGameTables", st: GameState, cand: bytes) -> tuple[bool, float]:
    """Player 0 makes the candidate: (zero turn, its leave's value)."""
    kind, score, gone = _candidate_tiles(tables, st, cand)
    rack = st.racks[0]
    key = leave_key_of(rack, gone)
    leave = tables.leave_values.get(key, 0.0) if key else 0.0
    if kind == TURN_PLAY:
        k = cand[1]
        for sq, b in zip(struct.unpack_from(f"<{k}H", cand, 8), cand[40:40 + k]):
            st.board[sq] = b & ~BLANK_FLAG
            st.blanks[sq] = 1 if b & BLANK_FLAG else 0
        st.scores[0] += score
    for t in range(len(rack)):
        rack[t] -= gone[t]
    draw_tiles(rack, st.bag, tables.tiles.rack_size)
    if kind == TURN_EXCHANGE:
        put_back(st.bag, st.rng, gone)
    return kind != TURN_PLAY, leave


def _play_out(tables: "PythonGameTables", req: SimulationRequest, st: GameState, cand: bytes) -> bytes:
    leave = [0.0, 0.0]
    zero, leave[0] = _make_candidate(tables, st, cand)
    zeros = req.zero_turns + 1 if zero else 0
    out_player = 0 if not sum(st.racks[0]) and not st.bag else -1
    ply = 1
    while out_player < 0 and zeros < ZERO_TURNS_TO_END and ply <= req.plies:
        p = ply & 1
        rec = bytearray(TURN_RECORD_SIZE)
        zero = take_turn(tables, True, st, p, rec)
        zeros = zeros + 1 if zero else 0
        (key,) = struct.unpack_from("<Q", rec, 32)
        leave[p] = tables.leave_values.get(key, 0.0) if key else 0.0
        if not sum(st.racks[p]) and not st.bag:
            out_player = p
        ply += 1
    return _result(tables, st, out_player, zeros, leave, (req.plies + 1) & 1)


def _result(tables: "PythonGameTables", st: GameState, out_player: int, zeros: int, leave: list[float],
            on_turn: int) -> bytes:
    """A play-out's result record (``playouts.c``'s ``write_result``)."""
    points = tables.points
    ended = 0
    if out_player >= 0:
        st.scores[out_player] += 2 * rack_points(points, st.racks[1 - out_player])
        ended = 1
    elif zeros >= ZERO_TURNS_TO_END:
        st.scores[0] -= rack_points(points, st.racks[0])
        st.scores[1] -= rack_points(points, st.racks[1])
        ended = 1
    spread = st.scores[0] - st.scores[1]
    value = float(spread) + (0.0 if ended else leave[0] - leave[1])
    left = len(st.bag) + sum(st.racks[0]) + sum(st.racks[1])
    rack_on_turn = 0 if ended else sum(st.racks[on_turn])  # every ply played: the player on turn's rack
    return struct.pack("<diHBB", value, spread, left, ended, rack_on_turn)
