"""The game loop's board kept from turn to turn (native/board_state.c): the games and play-outs are the bytes they
were before it (hashes pinned from the generator that set the board up from scratch every turn, on both engines),
and after every play of seeded games the state kept incrementally equals the state set up from scratch and an
independent brute-force oracle (cross-sets from the word list, cross sums, anchors)."""

from __future__ import annotations

import hashlib
import itertools
import random

import pytest

import lexigraph
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.leaves import LeaveTable, load_leaves
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.selfplay import Player, autoplay, selfplay_request
from lexigraph.scrabble.simulation import prepare
from lexigraph.scrabble.tiles import rack_text
from helpers.games import ABCD_WORDS, abcd_game

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


def harvested(lex, game: Game, table: LeaveTable, seed: int, at: int) -> Position:
    """The position before turn ``at`` of a self-play game, the mover's rack known, the scores kept."""
    run = autoplay(lex, game, [Player.equity(table, "a"), Player.equity(table, "b")], games=1, seed=seed,
                   workers=1, keep_games=True)
    turns = run.game_turns(0)
    pos = Position(run.game)
    totals = [0, 0]
    for turn in turns[:at]:
        for square, tile in placed_tiles(turn):
            pos.place(*square, tile & 0x7F, bool(tile & 0x80))
        totals[int(turn["player"])] = int(turn["total"])
    mover = int(turns[at]["player"])
    pos.racks = [rack_text(run.game, [int(c) for c in turns[at]["rack"][: turns[at]["rack_length"]]]), ""]
    pos.scores = [totals[mover], totals[1 - mover]]
    return pos


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
