"""Self-play in Python: the twin of ``native/selfplay.c``, playing the same games move for move.

Slow (a Python move generator per turn), and there to be compared: the
tests play a few short games in both and require the same records byte for
byte. Game ``i`` is game ``i % 2`` of pair ``i // 2``: both games of a pair
shuffle the same bag (every tile of the tables' counts, codes ascending),
player A moving first in the even one and B in the odd one; the turns are
the game loop's (:mod:`.game_loop`).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from ..interface import GAME_RECORD_SIZE, TURN_RECORD_SIZE, SelfPlayRequest, game_record_dtype, turn_record_dtype
from .game_loop import MAX_BAG, MAX_RACK, ZERO_TURNS_TO_END, GameState, Xoshiro, draw_tiles, rack_points, shuffle
from .game_loop import take_turn

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from .tables import PythonGameTables


def play_games(tables: "tuple[PythonGameTables, PythonGameTables]", request: SelfPlayRequest, first: int,
               count: int) -> "tuple[np.ndarray, np.ndarray]":
    """Games ``first .. first + count - 1`` (see the module docstring), as the C game loop records them;
    ``tables``: the players' (the engine checked they are its own)."""
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    a, b = tables
    if a.layout != b.layout or a.tiles != b.tiles or a.graph is not b.graph:
        raise ValueError("play_games: the players' tables are of different games or lexicons")
    bag = sum(a.tiles.counts)
    if bag > MAX_BAG or bag < 2 * a.tiles.rack_size or count < 0 or first < 0:
        raise ValueError("play_games: inconsistent arguments")
    turns = bytearray()
    games = bytearray()
    for g in range(count):
        t, rec = _play_one(tables, request, first + g)
        turns += t
        games += rec
    return np.frombuffer(bytes(turns), turn_record_dtype()), np.frombuffer(bytes(games), game_record_dtype())


def _deal(tables: "PythonGameTables", seed: int, index: int) -> GameState:
    """Game ``index``'s start: the pair's bag shuffled, both racks drawn (the first mover first)."""
    nc = len(tables.points)
    rng = Xoshiro(seed, index >> 1)
    bag = [t for t in range(nc) for _ in range(tables.tiles.counts[t])]
    shuffle(rng, bag)
    n = tables.size
    state = GameState(bytearray(n * n), bytearray(n * n), [[0] * nc, [0] * nc], [0, 0], bag, rng)
    first = index & 1
    draw_tiles(state.racks[first], bag, tables.tiles.rack_size)
    draw_tiles(state.racks[1 - first], bag, tables.tiles.rack_size)
    return state


def _play_one(players: "tuple[PythonGameTables, PythonGameTables]", request: SelfPlayRequest,
              index: int) -> tuple[bytes, bytes]:
    tables = players[0]
    nc = len(tables.points)
    state = _deal(tables, request.seed, index)
    first = index & 1
    p, zeros, ending = first, 0, 1
    out = bytearray()
    while zeros < ZERO_TURNS_TO_END:
        player = request.players[p]
        rack = state.racks[p]
        rec = bytearray(TURN_RECORD_SIZE)
        rec[1] = p
        codes_on_rack = [t for t in range(nc) for _ in range(rack[t])][:MAX_RACK]
        rec[2] = len(codes_on_rack)
        rec[40:40 + len(codes_on_rack)] = bytes(codes_on_rack)
        struct.pack_into("<H", rec, 8, len(state.bag))
        zero = take_turn(players[p], player.by_equity, state, p, rec)
        zeros = zeros + 1 if zero else 0
        struct.pack_into("<i", rec, 16, state.scores[p])
        struct.pack_into("<H", rec, 10, len(state.bag))
        out += rec
        if not sum(rack) and not state.bag:
            ending = 0
            break
        p = 1 - p
    return bytes(out), _game_record(tables, state, index, len(out) // TURN_RECORD_SIZE, ending, p)


def _game_record(tables: "PythonGameTables", state: GameState, index: int, turns: int, ending: int,
                 last: int) -> bytes:
    """The game record (``selfplay.c``'s ``write_game``)."""
    points = tables.points
    adjust = [0, 0]
    if ending == 0:
        adjust[last] = 2 * rack_points(points, state.racks[1 - last])
    else:
        adjust = [-rack_points(points, state.racks[0]), -rack_points(points, state.racks[1])]
    game = bytearray(GAME_RECORD_SIZE)
    struct.pack_into("<q4iHBBB", game, 0, index, state.scores[0] + adjust[0], state.scores[1] + adjust[1], adjust[0],
                     adjust[1], turns, index & 1, ending, last if ending == 0 else 0)
    game[32:64] = b"\xff" * 32
    for q in range(2):
        left = [t for t in range(len(points)) for _ in range(state.racks[q][t])][:MAX_RACK]
        game[32 + 16 * q:32 + 16 * q + len(left)] = bytes(left)
    return bytes(game)
