"""The game loop's board kept from turn to turn (native/board_state.c): the games and play-outs are the bytes they
were before it (hashes pinned from the generator that set the board up from scratch every turn, on both engines),
and after every play of seeded games the state kept incrementally equals the state set up from scratch and an
independent brute-force oracle (cross-sets from the word list, cross sums, anchors)."""

from __future__ import annotations

import hashlib
import itertools
import random
from typing import Any

import numpy as np
import pytest

import lexigraph
from lexigraph.engine import compiled
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.leaves import LeaveTable, load_leaves
from lexigraph.scrabble.selfplay import Player, autoplay, selfplay_request
from lexigraph.scrabble.simulation import prepare
from lexigraph.scrabble.tables import game_tables
from helpers.games import ABCD_WORDS, abcd_game, harvested

# -- pinned records --------------------------------------------------------------------------------------------

#: sha256 (first 16 hex digits) of each game's (turns, game record), made before the board was kept from turn to
#: turn: the game loop must play the very same games.
ENABLE_GAMES = ["22f087012242bd78", "8d8574dc0985ebca", "9fa6a5952f554e9f", "69cf5812434cb26e",
                "67c2fe1f30dadfe4", "d8a7f4d89ebcff33"]
SMALL_GAMES = ["967cac5e476b553e", "fb3b69ef0ebdea79", "791282cf8ff3f546", "8c29bd33032507e3", "68dca641950184f7",
               "136e55c2c3f2e05a", "6877ad1ac30689fb", "bcfa09a2fecdfe2b", "080f0df3f21dae92", "d893f4221be32639"]
TWL_GAMES = ["ec56d27558f457a8", "94d6f20fe91021ed", "bad36c3eaa7bc938", "96f81dee65a5a19a"]
#: sha256 of simulate_plays(request, 0, 12) on positions harvested from ENABLE games (seed, turn).
PLAYOUTS = {(21, 5): "77431f142aaeec25", (8, 12): "5e19060857616faf"}


def digest(*parts) -> str:
    hashed = hashlib.sha256()
    for part in parts:
        hashed.update(bytes(part))
    return hashed.hexdigest()[:16]


def game_digests(lex, request, count: int) -> list[str]:
    return [digest(*lex.engine.play_games(request, i, 1)) for i in range(count)]


def small_table(alphabet) -> LeaveTable:
    rng = random.Random(34)
    leaves = {bytes(c) for n in (1, 2, 3) for c in itertools.combinations_with_replacement(range(5), n)}
    return LeaveTable({k: round(rng.uniform(-12, 12), 3) for k in sorted(leaves)}, alphabet)


def test_small_games_are_the_pinned_bytes(engine_kind):
    game = abcd_game()
    lex = lexigraph.load(ABCD_WORDS, alphabet=game.alphabet, pure_python=engine_kind == "python")
    request = selfplay_request(lex, game, [Player.equity(small_table(game.alphabet), "a"), Player.score("b")], 3)
    assert game_digests(lex, request, len(SMALL_GAMES)) == SMALL_GAMES


def test_enable_games_are_the_pinned_bytes(engine_kind, enable_on):
    game = Game.preset("scrabble")
    table = load_leaves(game.leaves, enable_on.alphabet)
    request = selfplay_request(enable_on, game, [Player.equity(table, "eq"), Player.score("sc")], 17)
    count = len(ENABLE_GAMES) if engine_kind == "c" else 1  # the twin is slow: its first game
    assert game_digests(enable_on, request, count) == ENABLE_GAMES[:count]


def test_twl06_games_with_the_shipped_table_are_the_pinned_bytes(twl):
    game = Game.preset("scrabble")
    table = load_leaves(game.leaves, twl.alphabet)
    request = selfplay_request(twl, game, [Player.equity(table, "a"), Player.equity(table, "b")], 2026)
    assert game_digests(twl, request, len(TWL_GAMES)) == TWL_GAMES


def placed_tiles(turn) -> list[tuple[tuple[int, int], int]]:
    """The squares a turn record's play puts tiles on, with their bytes (| 0x80 for a blank); none for others."""
    if turn["kind"] != 0:
        return []
    placed = []
    for i, tile in enumerate(int(x) for x in turn["squares"][: turn["length"]]):
        if tile:
            row, col = int(turn["row"]), int(turn["col"])
            placed.append(((row, col + i) if turn["across"] else (row + i, col), tile))
    return placed


def test_play_outs_are_the_pinned_bytes(enable):
    game = Game.preset("scrabble")
    table = load_leaves(game.leaves, enable.alphabet)
    for (seed, at), expected in PLAYOUTS.items():
        pos = harvested(enable, game, table, seed, at)
        _plays, _moves, request = prepare(enable, pos, leaves=table, candidates=5, plies=2, seed=3)
        assert digest(enable.engine.simulate_plays(request, 0, 12, None, 1)) == expected
        assert digest(enable.engine.simulate_plays(request, 0, 12, None, 2)) == expected


# -- the incremental state against the state from scratch and a brute-force oracle --------------------------------

needs_c = pytest.mark.skipif(not compiled.available(), reason="the C engine is not available")
_native: Any = compiled.native()
ACROSS, DOWN = 1, 0


def unpack_state(state: tuple) -> dict[str, np.ndarray]:
    """A debug state (board_state.c) as arrays of shape (2, squares): orientation 0 (down), 1 (across)."""
    empty, *arrays = state
    kinds = ("u1", "<i4", "u1", "u1", "<u8", "<i4", "u1", "u1")
    names = ("tiles", "points", "letter", "word", "cross", "cross_score", "has_cross", "anchor")
    unpacked = {name: np.frombuffer(raw, dtype=kind).reshape(2, -1) for name, kind, raw in zip(names, kinds, arrays)}
    unpacked["empty"] = np.array([empty])
    return unpacked


def oracle_state(lex, game: Game, board: bytearray, blanks: bytearray) -> dict[str, np.ndarray]:
    """What the state must hold, by brute force: each cross-word tried with every code and looked up in the
    lexicon's word set (not its graph), the points summed, the neighbours looked at."""
    size, points = game.size, game.points_by_code()
    squares = size * size
    every = sum(1 << code for code in range(1, len(points)))
    empty = not any(board)
    out = {name: np.zeros((2, squares), dtype=np.int64) for name in ("tiles", "points", "cross", "cross_score",
                                                                     "has_cross", "anchor")}
    out["cross"] = np.full((2, squares), every, dtype=np.uint64)
    at = lambda r, c: r * size + c  # noqa: E731
    for o in (DOWN, ACROSS):
        step = (1, 0) if o == ACROSS else (0, 1)  # the cross-word runs down for across plays, across for down ones
        side = (0, 1) if o == ACROSS else (1, 0)
        for r in range(size):
            for c in range(size):
                line = at(r, c) if o == ACROSS else at(c, r)
                tile = board[at(r, c)]
                out["tiles"][o, line] = tile
                out["points"][o, line] = 0 if not tile or blanks[at(r, c)] else points[tile]
                if tile:
                    continue
                before, after = [], []
                rr, cc = r - step[0], c - step[1]
                while rr >= 0 and cc >= 0 and board[at(rr, cc)]:
                    before.insert(0, at(rr, cc))
                    rr, cc = rr - step[0], cc - step[1]
                rr, cc = r + step[0], c + step[1]
                while rr < size and cc < size and board[at(rr, cc)]:
                    after.append(at(rr, cc))
                    rr, cc = rr + step[0], cc + step[1]
                beside = [(r - side[0], c - side[1]), (r + side[0], c + side[1])]
                anchor = any(0 <= y < size and 0 <= x < size and board[at(y, x)] for y, x in beside)
                anchor = anchor or (empty and (r, c) == tuple(game.start))
                if before or after:
                    anchor = True
                    out["has_cross"][o, line] = 1
                    out["cross_score"][o, line] = sum(0 if blanks[q] else points[board[q]] for q in before + after)
                    word = lambda code: bytes([board[q] for q in before] + [code] + [board[q] for q in after])  # noqa
                    out["cross"][o, line] = sum(1 << code for code in range(1, len(points))
                                                if lex.alphabet.decode(word(code)) in lex)
                out["anchor"][o, line] = int(anchor)
    return out


def check_games(lex, game: Game, table: LeaveTable | None, seed: int, games: int) -> int:
    """Every play of `games` seeded games: the state kept incrementally equals the state set up from scratch and
    the oracle's; returns the number of plays checked."""
    tables = game_tables(lex, game, table)
    run = autoplay(lex, game, [Player.equity(table, "a"), Player.equity(table, "b")], games=games, seed=seed,
                   workers=1, keep_games=True)
    checked = 0
    for g in range(games):
        plays = [placed_tiles(turn) for turn in run.game_turns(g)]
        plays = [p for p in plays if p]
        empty = bytes(game.size * game.size)
        kept = _native.board_state_after(tables, empty, empty,
                                         [([r * game.size + c for (r, c), _t in play], bytes(t for _s, t in play))
                                          for play in plays])
        assert len(kept) == len(plays)
        board, blanks = bytearray(empty), bytearray(empty)
        for play, state in zip(plays, kept):
            for (r, c), tile in play:
                board[r * game.size + c], blanks[r * game.size + c] = tile & 0x7F, tile >> 7
            assert state == _native.board_state(tables, bytes(board), bytes(blanks))
            got, want = unpack_state(state), oracle_state(lex, game, board, blanks)
            assert not got["empty"][0]
            for name, expected in want.items():
                assert np.array_equal(got[name].astype(expected.dtype), expected), name
            checked += 1
    return checked


@needs_c
def test_the_empty_board_state_is_the_oracles(enable):
    game = Game.preset("scrabble")
    empty = bytes(game.size * game.size)
    state = unpack_state(_native.board_state(game_tables(enable, game), empty, empty))
    want = oracle_state(enable, game, bytearray(empty), bytearray(empty))
    assert state["empty"][0] == 1 and state["anchor"].sum() == 2
    for name, expected in want.items():
        assert np.array_equal(state[name].astype(expected.dtype), expected), name


@needs_c
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kept_state_equals_scratch_and_oracle_generated_lexicons(seed):
    """Random word lists over a, b, c, d (blanks in the bag): every play of six games."""
    rng = random.Random(seed)
    words = sorted({"".join(rng.choice("abcd") for _ in range(rng.randint(2, 6))) for _ in range(150)})
    game = abcd_game()
    lex = lexigraph.load(words, alphabet=game.alphabet)
    assert check_games(lex, game, small_table(game.alphabet), seed, 6) > 20


@needs_c
def test_kept_state_equals_scratch_and_oracle_enable(enable):
    game = Game.preset("scrabble")
    assert check_games(enable, game, load_leaves(game.leaves, enable.alphabet), 5, 2) > 20


@needs_c
def test_kept_state_equals_scratch_and_oracle_twl06(twl):
    game = Game.preset("scrabble")
    assert check_games(twl, game, load_leaves(game.leaves, twl.alphabet), 34, 2) > 20


@needs_c
def test_bad_plays_are_refused(enable):
    game = Game.preset("scrabble")
    tables = game_tables(enable, game)
    empty = bytes(game.size * game.size)
    for plays in ([([112], b"\x00")], [([112], b"\x1c")], [([112, 112], b"\x01\x02")], [([9999], b"\x01")],
                  [([112], b"\x01"), ([112], b"\x02")], [([1, 2], b"\x01")]):
        with pytest.raises(ValueError):
            _native.board_state_after(tables, empty, empty, plays)
    with pytest.raises(ValueError):
        _native.board_state(tables, b"\x00" * 3, b"\x00" * 3)
