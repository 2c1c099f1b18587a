"""The simulation's play-outs in Python: the twin of ``simulate_plays`` in ``native/selfplay.c``.

Iteration ``i`` deals the unseen tiles from ``(seed, i)`` alone (xoshiro256**
seeded as pair ``i`` of self-play's run ``seed``, the tiles shuffled by
Fisher-Yates from the end, the opponent's rack drawn from the end); every
candidate of the iteration starts from that deal (common random numbers),
then ``plies`` turns follow, each by self-play's equity player
(:func:`lexigraph.engine.python.selfplay.take_turn`). The value is the side
to move's points from the candidate on minus the opponent's, plus its last
leave's value minus the opponent's (0 once the game has ended): wolges's
simmer's final equity spread. Slow, and there to be compared with the C
loop on small cases.
"""

from __future__ import annotations

import struct
import time
from typing import TYPE_CHECKING

from ..interface import (
    BLANK_FLAG, SIMULATION_CANDIDATE_SIZE, SIMULATION_MAX_PLIES, TURN_EXCHANGE, TURN_PASS, TURN_PLAY,
    TURN_RECORD_SIZE, SimulationRequest, simulation_result_dtype,
)
from .selfplay import (
    MAX_BAG, MAX_RACK, ZERO_TURNS_TO_END, Xoshiro, draw_tiles, leave_key_of, rack_points, take_turn,
)

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from . import PythonEngine


class _Dealt:
    """One iteration's deal: the board, both racks, the bag, the scores and the random numbers that follow."""

    __slots__ = ("board", "blanks", "racks", "bag", "scores", "rng")

    def __init__(self, board: bytearray, blanks: bytearray, racks: list[list[int]], bag: list[int],
                 scores: list[int], rng: Xoshiro) -> None:
        self.board, self.blanks, self.racks, self.bag, self.scores, self.rng = board, blanks, racks, bag, scores, rng

    def copy(self) -> "_Dealt":
        rng = Xoshiro(0, 0)
        rng.s = list(self.rng.s)
        return _Dealt(bytearray(self.board), bytearray(self.blanks), [list(r) for r in self.racks], list(self.bag),
                      list(self.scores), rng)


def _check(req: SimulationRequest) -> None:
    nc = len(req.points)
    nn = req.size * req.size
    bad = (not 1 <= req.size <= 26 or len(req.letter_multipliers) != nn or len(req.word_multipliers) != nn
           or len(req.board) != nn or len(req.blanks) != nn or not 2 <= nc <= 64 or len(req.rack) != nc
           or len(req.unseen) != nc or not 0 <= req.start_square < nn or not 1 <= req.rack_size < MAX_RACK
           or len(req.keys) % 8 or len(req.keys) != len(req.values) or len(req.candidates) % SIMULATION_CANDIDATE_SIZE
           or not 0 <= req.plies <= SIMULATION_MAX_PLIES or req.zero_turns < 0
           or not 0 <= req.opponent_tiles <= req.rack_size or sum(req.unseen) > MAX_BAG
           or req.opponent_tiles > sum(req.unseen) or sum(req.rack) > req.rack_size
           or any(c >= nc for c in req.board) or any(b > 1 for b in req.blanks))
    if bad:
        raise ValueError("simulate_plays: inconsistent arguments")


def simulate_plays(engine: "PythonEngine", req: SimulationRequest, first: int, count: int,
                   deadline: float | None = None) -> "np.ndarray":
    """The play-outs of iterations ``first .. first + count - 1`` (see the module docstring)."""
    import numpy as np

    _check(req)
    if first < 0 or count < 0:
        raise ValueError("simulate_plays: inconsistent arguments")
    n_cands = len(req.candidates) // SIMULATION_CANDIDATE_SIZE
    n = len(req.keys) // 8
    table = dict(zip(struct.unpack(f"<{n}Q", req.keys), struct.unpack(f"<{n}d", req.values)))
    unseen = [t for t, k in enumerate(req.unseen) for _ in range(k)]
    out = bytearray()
    for i in range(first, first + count):
        if deadline is not None and i > first and time.monotonic() > deadline:
            break
        rng = Xoshiro(req.seed, i)
        bag = list(unseen)
        for k in range(len(bag) - 1, 0, -1):
            j = rng.below(k + 1)
            bag[k], bag[j] = bag[j], bag[k]
        racks = [list(req.rack), [0] * len(req.points)]
        draw_tiles(racks[1], bag, req.opponent_tiles)
        dealt = _Dealt(bytearray(req.board), bytearray(req.blanks), racks, bag, [0, 0], rng)
        for c in range(n_cands):
            cand = req.candidates[c * SIMULATION_CANDIDATE_SIZE:(c + 1) * SIMULATION_CANDIDATE_SIZE]
            out += _play_out(engine, req, table, dealt.copy(), cand)
    return np.frombuffer(bytes(out), simulation_result_dtype()).reshape(-1, n_cands)


def _make_candidate(req: SimulationRequest, table: dict[int, float], st: _Dealt, cand: bytes) -> tuple[bool, float]:
    """Player 0 makes the candidate: (zero turn, its leave's value)."""
    nc = len(req.points)
    nn = req.size * req.size
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
    rack = st.racks[0]
    if bad or any(g > r for g, r in zip(gone, rack)):
        raise ValueError("simulate_plays: a candidate the position does not allow")
    key = leave_key_of(rack, gone)
    leave = table.get(key, 0.0) if key else 0.0
    if kind == TURN_PLAY:
        for sq, b in zip(squares, tiles):
            st.board[sq] = b & ~BLANK_FLAG
            st.blanks[sq] = 1 if b & BLANK_FLAG else 0
        st.scores[0] += score
    for t in range(nc):
        rack[t] -= gone[t]
    draw_tiles(rack, st.bag, req.rack_size)
    if kind == TURN_EXCHANGE:
        for t in range(nc):
            for _ in range(gone[t]):  # put back as self-play does
                st.bag.append(t)
                at = st.rng.below(len(st.bag))
                st.bag[-1] = st.bag[at]
                st.bag[at] = t
    return kind != TURN_PLAY, leave


def _play_out(engine: "PythonEngine", req: SimulationRequest, table: dict[int, float], st: _Dealt,
              cand: bytes) -> bytes:
    points = list(req.points)
    leave = [0.0, 0.0]
    zero, leave[0] = _make_candidate(req, table, st, cand)
    zeros = req.zero_turns + 1 if zero else 0
    out_player = 0 if not sum(st.racks[0]) and not st.bag else -1
    ply = 1
    while out_player < 0 and zeros < ZERO_TURNS_TO_END and ply <= req.plies:
        p = ply & 1
        rec = bytearray(TURN_RECORD_SIZE)
        zero = take_turn(engine, req, True, table, p, st.board, st.blanks, st.racks, st.bag, st.scores, st.rng, rec)
        zeros = zeros + 1 if zero else 0
        (key,) = struct.unpack_from("<Q", rec, 32)
        leave[p] = table.get(key, 0.0) if key else 0.0
        if not sum(st.racks[p]) and not st.bag:
            out_player = p
        ply += 1
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
    return struct.pack("<diHBx", value, spread, left, ended)
