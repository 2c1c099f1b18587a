"""The game loop in Python: the twin of ``native/game_loop.c``, shared by self-play (:mod:`.selfplay`) and the
simulation's play-outs (:mod:`.simulation`).

The rules and the random numbers are ``game_loop.h``'s, restated here:

* a game's numbers come from xoshiro256** seeded by splitmix64 from
  ``seed + (pair + 1) * 0x9E3779B97F4A7C15`` (mod 2**64) (:class:`Xoshiro`);
  a bag is shuffled by Fisher-Yates from its end (:func:`shuffle`), tiles
  are drawn from its end (:func:`draw_tiles`), exchanged tiles put back one
  by one at the end and swapped with a uniform position;
* a player plays its best play by equity (or by score), or exchanges, or
  passes (:func:`take_turn`); a game ends when a player plays out with the
  bag empty (it gains twice the other rack's points) or after six turns
  without a play (each loses its own rack's points).

>>> rng = Xoshiro(7, 0)
>>> [rng.below(10) for _ in range(5)] == [rng2 for rng2 in Xoshiro(7, 0).take(10, 5)]
True
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..interface import BLANK_FLAG, LEAVE_KEY_TILES, TURN_EXCHANGE, TURN_PASS, TURN_PLAY, MoveRequest
from .movegen import generate_moves

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from .tables import PythonGameTables

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

    def copy(self) -> "Xoshiro":
        """The same state, apart."""
        twin = Xoshiro(0, 0)
        twin.s = list(self.s)
        return twin


def shuffle(rng: Xoshiro, tiles: list[int]) -> None:
    """Fisher-Yates from the end, in place."""
    for i in range(len(tiles) - 1, 0, -1):
        j = rng.below(i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]


def leave_key_of(rack: list[int], used: list[int] | None) -> int:
    """The key of the tiles ``rack`` keeps when ``used`` go (counts per code; None: none), or 0."""
    key = 0
    at = 0
    for t, n in enumerate(rack):
        for _ in range((used[t] if used else 0), n):
            if at >= LEAVE_KEY_TILES:
                return 0
            key |= t << (6 * at)
            at += 1
    return key | at << 60 if at else 0


def draw_tiles(rack: list[int], bag: list[int], rack_size: int) -> None:
    """Draw from the bag's end until the rack holds ``rack_size`` tiles or the bag is empty."""
    while sum(rack) < rack_size and bag:
        rack[bag.pop()] += 1


def rack_points(points: list[int], rack: list[int]) -> int:
    """The points of the tiles on a rack (counts per code; blanks score nothing)."""
    return sum(rack[t] * points[t] for t in range(1, len(points)))


def put_back(bag: list[int], rng: Xoshiro, gone: list[int]) -> None:
    """Exchanged tiles (counts per code) back into the bag: each at the end, then swapped with a uniform place."""
    for t, n in enumerate(gone):
        for _ in range(n):
            bag.append(t)
            at = rng.below(len(bag))
            bag[-1] = bag[at]
            bag[at] = t


@dataclass
class GameState:
    """A game in play: the board and its blanks, both racks (counts per code) and scores, the bag, the random
    numbers to come."""

    board: bytearray
    blanks: bytearray
    racks: list[list[int]]
    scores: list[int]
    bag: list[int]
    rng: Xoshiro

    def copy(self) -> "GameState":
        """The same state, apart."""
        return GameState(bytearray(self.board), bytearray(self.blanks), [list(r) for r in self.racks],
                         list(self.scores), list(self.bag), self.rng.copy())


def _subset_count(rack: list[int]) -> int:
    size = 1
    for n in rack:
        if n:
            size *= n + 1
    return size


def _leave_values(tables: "PythonGameTables", state: GameState, p: int) -> list[float]:
    """What keeping the rest of the rack is worth per subset (index order): the leave table's value while the bag
    holds tiles, else the end's adjustment (``game_loop.c``'s ``value_leaves``)."""
    points = tables.points
    rack = state.racks[p]
    codes = [t for t in range(len(points)) if rack[t]]
    opponent = rack_points(points, state.racks[1 - p])
    used = [0] * len(points)
    values: list[float] = []
    for _ in range(_subset_count(rack)):
        kept = sum(rack[t] - used[t] for t in codes)
        if state.bag:
            values.append(tables.leave_values.get(leave_key_of(rack, used), 0.0) if 0 < kept <= LEAVE_KEY_TILES
                          else 0.0)
        else:
            kept_points = sum((rack[t] - used[t]) * points[t] for t in codes if t)
            values.append(2.0 * opponent if kept == 0 else -ENDGAME_PENALTY - 2.0 * kept_points)
        for t in codes:
            used[t] += 1
            if used[t] <= rack[t]:
                break
            used[t] = 0
    return values


def _choose_exchange(by_equity: bool, rack_size: int, bag: int, values: list[float], size: int,
                     play_key: float | None) -> int:
    """The subset to exchange (``game_loop.c``'s ``choose_exchange``), or -1; ``play_key``: the best play's
    equity (None: no play)."""
    if bag < rack_size:
        return -1
    if not by_equity:
        return -1 if play_key is not None else size - 1
    exchange, best = -1, 0.0
    for i in range(1, size):
        if exchange < 0 or values[i] > best:
            best, exchange = values[i], i
    if play_key is not None and not best > play_key:
        return -1
    return exchange


def _make_exchange(tables: "PythonGameTables", state: GameState, p: int, index: int, equity: float,
                   rec: bytearray) -> None:
    rack = state.racks[p]
    gone = [0] * len(rack)
    rest = index
    for t in range(len(rack)):
        if rack[t]:
            gone[t] = rest % (rack[t] + 1)
            rest //= rack[t] + 1
    rec[0] = TURN_EXCHANGE
    struct.pack_into("<d", rec, 24, equity)
    struct.pack_into("<Q", rec, 32, leave_key_of(rack, gone))
    back = [t for t in range(len(rack)) for _ in range(gone[t])]
    rec[56:56 + len(back)] = bytes(back)
    rec[3] = len(back)
    for t in range(len(rack)):
        rack[t] -= gone[t]
    draw_tiles(rack, state.bag, tables.tiles.rack_size)
    put_back(state.bag, state.rng, gone)


def _make_play(tables: "PythonGameTables", state: GameState, p: int, r: "np.void", rec: bytearray) -> None:
    score, row, col, across, length = int(r["score"]), int(r["row"]), int(r["col"]), int(r["across"]), int(r["length"])
    squares = bytes(r["squares"][:length])
    n = tables.size
    rack = state.racks[p]
    rec[0] = TURN_PLAY
    rec[3:7] = bytes([length, row, col, across])
    struct.pack_into("<i", rec, 12, score)
    struct.pack_into("<d", rec, 24, float(r["equity"]))
    rec[56:56 + length] = squares
    gone = [0] * len(rack)
    for k, b in enumerate(squares):
        if not b:
            continue
        sq = row * n + col + k if across else (row + k) * n + col
        state.board[sq] = b & ~BLANK_FLAG
        state.blanks[sq] = 1 if b & BLANK_FLAG else 0
        gone[0 if b & BLANK_FLAG else b] += 1
    struct.pack_into("<Q", rec, 32, leave_key_of(rack, gone))
    for t in range(len(rack)):
        rack[t] -= gone[t]
    state.scores[p] += score
    draw_tiles(rack, state.bag, tables.tiles.rack_size)


def take_turn(tables: "PythonGameTables", by_equity: bool, state: GameState, p: int, rec: bytearray) -> bool:
    """One turn of player ``p`` by its rule (``game_loop.c``'s ``lx_take_turn``): the state updated, the turn
    written in ``rec`` (kind, leave key, score, equity, squares); True for a zero turn (an exchange or a pass).
    Self-play and the simulation's play-outs take their turns here."""
    rack = state.racks[p]
    size = _subset_count(rack)
    values = _leave_values(tables, state, p) if by_equity else []
    request = MoveRequest(tables, bytes(state.board), bytes(state.blanks), bytes(rack),
                          struct.pack(f"<{size}d", *values) if by_equity else b"", 1, by_equity, True, by_equity)
    records, _count = generate_moves(tables, request, None)
    play_key = None  # the play's equity (or score): what an exchange must beat
    if len(records):
        play_key = float(records[0]["equity"]) if by_equity else float(records[0]["score"])
    exchange = _choose_exchange(by_equity, tables.tiles.rack_size, len(state.bag), values, size, play_key)
    if exchange >= 0:
        _make_exchange(tables, state, p, exchange, values[exchange] if by_equity else 0.0, rec)
        return True
    if len(records):
        _make_play(tables, state, p, records[0], rec)
        return False
    rec[0] = TURN_PASS
    struct.pack_into("<Q", rec, 32, leave_key_of(rack, None))
    return True
