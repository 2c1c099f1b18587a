"""Self-play in Python: the twin of the C game loop (``native/selfplay.c``), playing the same games move for move.

Slow (a Python move generator per turn), and there to be compared: the
tests play a few short games in both and require the same records byte for
byte. The rules and the random numbers are ``selfplay.c``'s, restated here:

* game ``i`` is game ``i % 2`` of pair ``i // 2``; both games of a pair
  shuffle the same bag, player A moving first in the even one and B in the
  odd one;
* the pair's numbers come from xoshiro256** seeded by splitmix64 from
  ``seed + (pair + 1) * 0x9E3779B97F4A7C15`` (mod 2**64), the bag shuffled
  by Fisher-Yates from its end, draws from its end, exchanged tiles put back
  one by one at the end and swapped with a uniform position;
* a player plays its best play by equity (or by score), or exchanges, or
  passes; the game ends when a player plays out with the bag empty (it gains
  twice the other rack's points) or after six turns without a play (each
  loses its own rack's points).

>>> rng = Xoshiro(7, 0)
>>> [rng.below(10) for _ in range(5)] == [rng2 for rng2 in Xoshiro(7, 0).take(10, 5)]
True
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..interface import (
    BLANK_FLAG, GAME_RECORD_SIZE, LEAVE_KEY_TILES, TURN_EXCHANGE, TURN_PASS, TURN_PLAY, TURN_RECORD_SIZE,
    MoveRequest, SelfPlayer, SelfPlayRequest, SimulationRequest, game_record_dtype, turn_record_dtype,
)

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from . import PythonEngine

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
ZERO_TURNS_TO_END = 6
ENDGAME_PENALTY = 10.0
MAX_RACK = 16
MAX_BAG = 1024


def _splitmix64(x: int) -> tuple[int, int]:
    x = (x + GOLDEN) & MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


class Xoshiro:
    """xoshiro256** seeded by splitmix64 from ``seed + (pair + 1) * GOLDEN``: a pair's random numbers."""

    def __init__(self, seed: int, pair: int) -> None:
        x = (seed + (pair + 1) * GOLDEN) & MASK
        self.s = []
        for _ in range(4):
            x, z = _splitmix64(x)
            self.s.append(z)

    def next(self) -> int:
        s = self.s
        result = (_rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, k: int) -> int:
        """Uniform below ``k`` by rejection (as the C loop draws it)."""
        threshold = ((1 << 64) - k) % k
        while True:
            x = self.next()
            if x >= threshold:
                return x % k

    def take(self, k: int, n: int) -> Iterator[int]:
        """``n`` numbers below ``k``."""
        for _ in range(n):
            yield self.below(k)


def leave_key_of(rack: list[int], used: list[int] | None) -> int:
    key = 0
    at = 0
    for t, n in enumerate(rack):
        for _ in range((used[t] if used else 0), n):
            if at >= LEAVE_KEY_TILES:
                return 0
            key |= t << (6 * at)
            at += 1
    return key | at << 60 if at else 0


def play_games(engine: "PythonEngine", request: SelfPlayRequest, first: int, count: int) \
        -> "tuple[np.ndarray, np.ndarray]":
    """Games ``first .. first + count - 1`` (see the module docstring), as the C game loop records them."""
    import numpy as np

    if (len(request.counts) != len(request.points) or sum(request.counts) > MAX_BAG or request.rack_size < 1
            or request.rack_size >= MAX_RACK or sum(request.counts) < 2 * request.rack_size or count < 0
            or first < 0 or any(len(p.keys) % 8 or len(p.keys) != len(p.values) for p in request.players)):
        raise ValueError("play_games: inconsistent arguments")
    tables = []
    for p in request.players:
        n = len(p.keys) // 8
        tables.append(dict(zip(struct.unpack(f"<{n}Q", p.keys), struct.unpack(f"<{n}d", p.values))))
    turns = bytearray()
    games = bytearray()
    for g in range(count):
        t, rec = _play_one(engine, request, tables, first + g)
        turns += t
        games += rec
    return np.frombuffer(bytes(turns), turn_record_dtype()), np.frombuffer(bytes(games), game_record_dtype())


def _play_one(engine: "PythonEngine", req: SelfPlayRequest, tables: list[dict[int, float]], index: int) \
        -> tuple[bytes, bytes]:
    nc = len(req.points)
    points = list(req.points)
    n = req.size
    rng = Xoshiro(req.seed, index >> 1)
    bag = [t for t in range(nc) for _ in range(req.counts[t])]
    for i in range(len(bag) - 1, 0, -1):
        j = rng.below(i + 1)
        bag[i], bag[j] = bag[j], bag[i]
    board = bytearray(n * n)
    blanks = bytearray(n * n)
    racks = [[0] * nc, [0] * nc]
    scores = [0, 0]

    first = index & 1
    draw_tiles(racks[first], bag, req.rack_size)
    draw_tiles(racks[1 - first], bag, req.rack_size)
    p, zeros, ending = first, 0, 1
    out = bytearray()
    while zeros < ZERO_TURNS_TO_END:
        player: SelfPlayer = req.players[p]
        rack = racks[p]
        rec = bytearray(TURN_RECORD_SIZE)
        rec[1] = p
        codes_on_rack = [t for t in range(nc) for _ in range(rack[t])][:MAX_RACK]
        rec[2] = len(codes_on_rack)
        rec[40:40 + len(codes_on_rack)] = bytes(codes_on_rack)
        struct.pack_into("<H", rec, 8, len(bag))
        zero = take_turn(engine, req, player.by_equity, tables[p], p, board, blanks, racks, bag, scores, rng, rec)
        zeros = zeros + 1 if zero else 0
        struct.pack_into("<i", rec, 16, scores[p])
        struct.pack_into("<H", rec, 10, len(bag))
        out += rec
        if not sum(rack) and not bag:
            ending = 0
            break
        p = 1 - p
    adjust = [0, 0]
    if ending == 0:
        adjust[p] = 2 * rack_points(points, racks[1 - p])
    else:
        adjust = [-rack_points(points, racks[0]), -rack_points(points, racks[1])]
    game = bytearray(GAME_RECORD_SIZE)
    struct.pack_into("<q4iHBBB", game, 0, index, scores[0] + adjust[0], scores[1] + adjust[1], adjust[0], adjust[1],
                     len(out) // TURN_RECORD_SIZE, first, ending, p if ending == 0 else 0)
    game[32:64] = b"\xff" * 32
    for q in range(2):
        left = [t for t in range(nc) for _ in range(racks[q][t])][:MAX_RACK]
        game[32 + 16 * q:32 + 16 * q + len(left)] = bytes(left)
    return bytes(out), bytes(game)


def draw_tiles(rack: list[int], bag: list[int], rack_size: int) -> None:
    while sum(rack) < rack_size and bag:
        rack[bag.pop()] += 1


def rack_points(points: list[int], rack: list[int]) -> int:
    return sum(rack[t] * points[t] for t in range(1, len(points)))


def take_turn(engine: "PythonEngine", req: "SelfPlayRequest | SimulationRequest", by_equity: bool,
              table: dict[int, float], p: int, board: bytearray, blanks: bytearray, racks: list[list[int]],
              bag: list[int], scores: list[int], rng: Xoshiro, rec: bytearray) -> bool:
    """One turn of player ``p`` by its rule (``selfplay.c``'s ``take_turn``): the board, racks, bag and scores
    updated, the turn written in ``rec`` (kind, leave key, score, equity, squares); True for a zero turn (an
    exchange or a pass). Self-play and the simulation's play-outs take their turns here."""
    from .movegen import generate_moves

    nc = len(req.points)
    points = list(req.points)
    n = req.size
    zero = False
    rack = racks[p]
    codes = [t for t in range(nc) if rack[t]]
    size = 1
    for t in codes:
        size *= rack[t] + 1
    values: list[float] = []
    if by_equity:
        opp = rack_points(points, racks[1 - p])
        used = [0] * nc
        for _ in range(size):
            kept = sum(rack[t] - used[t] for t in codes)
            kept_points = sum((rack[t] - used[t]) * points[t] for t in codes if t)
            if bag:
                v = table.get(leave_key_of(rack, used), 0.0) if 0 < kept <= LEAVE_KEY_TILES else 0.0
            else:
                v = 2.0 * opp if kept == 0 else -ENDGAME_PENALTY - 2.0 * kept_points
            values.append(v)
            for t in codes:
                used[t] += 1
                if used[t] <= rack[t]:
                    break
                used[t] = 0
    empty = not any(board)
    request = MoveRequest(n, bytes(board), bytes(blanks), req.letter_multipliers, req.word_multipliers,
                          req.points, bytes(rack), req.start_square, req.rack_size, req.bingo_bonus,
                          struct.pack(f"<{size}d", *values) if by_equity else b"",
                          req.opening_penalty if by_equity and empty else b"", req.vowels, 1,
                          by_equity, True)
    records, _count = generate_moves(engine.graph, request, None)
    have_play = len(records) > 0
    play_key = 0.0
    if have_play:
        play_key = float(records[0]["equity"]) if by_equity else float(records[0]["score"])
    exchange = -1
    if len(bag) >= req.rack_size:
        if by_equity:
            best = 0.0
            for i in range(1, size):
                if exchange < 0 or values[i] > best:
                    best, exchange = values[i], i
            if have_play and not best > play_key:
                exchange = -1
        elif not have_play:
            exchange = size - 1
    if exchange >= 0:
        gone = [0] * nc
        rest = exchange
        for t in codes:
            gone[t] = rest % (rack[t] + 1)
            rest //= rack[t] + 1
        rec[0] = TURN_EXCHANGE
        struct.pack_into("<d", rec, 24, values[exchange] if by_equity else 0.0)
        struct.pack_into("<Q", rec, 32, leave_key_of(rack, gone))
        back = [t for t in range(nc) for _ in range(gone[t])]
        rec[56:56 + len(back)] = bytes(back)
        rec[3] = len(back)
        for t in range(nc):
            rack[t] -= gone[t]
        draw_tiles(racks[p], bag, req.rack_size)
        for t in back:
            bag.append(t)
            at = rng.below(len(bag))
            bag[-1] = bag[at]
            bag[at] = t
        zero = True
    elif have_play:
        r = records[0]
        score, row, col, across, length = int(r["score"]), int(r["row"]), int(r["col"]), int(r["across"]), \
            int(r["length"])
        squares = bytes(r["squares"][:length])
        rec[0] = TURN_PLAY
        rec[3:7] = bytes([length, row, col, across])
        struct.pack_into("<i", rec, 12, score)
        struct.pack_into("<d", rec, 24, float(r["equity"]))
        rec[56:56 + length] = squares
        gone = [0] * nc
        for k, b in enumerate(squares):
            if not b:
                continue
            sq = row * n + col + k if across else (row + k) * n + col
            board[sq] = b & ~BLANK_FLAG
            blanks[sq] = 1 if b & BLANK_FLAG else 0
            gone[0 if b & BLANK_FLAG else b] += 1
        struct.pack_into("<Q", rec, 32, leave_key_of(rack, gone))
        for t in range(nc):
            rack[t] -= gone[t]
        scores[p] += score
        draw_tiles(racks[p], bag, req.rack_size)
        zero = False
    else:
        rec[0] = TURN_PASS
        struct.pack_into("<Q", rec, 32, leave_key_of(rack, None))
        zero = True
    return zero
