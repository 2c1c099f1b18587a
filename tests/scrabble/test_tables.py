"""A game's tables (scrabble/tables.py, native/game_tables.c and engine/python/tables.py): made once per lexicon,
game and leave table and shared by every job's request; another game, leave table or lexicon gets others; a
closed lexicon makes none; an engine refuses another's tables; the C type and its twin refuse the same bad
arguments."""

from __future__ import annotations

import pytest

import lexigraph
from lexigraph.engine.interface import BoardLayout, GameSpec, MoveRequest, PackedLeaves, TileSet
from lexigraph.errors import FileFormatError, LexiconError, QueryError
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.leaves import LeaveTable
from lexigraph.scrabble.movegen import generate
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.tables import game_spec, game_tables, tables_for
from helpers.games import ABCD_WORDS, abcd_game

WORDS = ["cat", "cats", "act", "at", "ta", "scat", "tab", "bat"]


def test_tables_are_made_once_per_lexicon_game_and_leave_table(engine_kind, open_lexicon):
    lex = open_lexicon(WORDS)
    game = Game.preset("scrabble").for_lexicon(lex.alphabet)
    table = LeaveTable.from_csv("S,8\nT,-7\n", lex.alphabet)
    tables = game_tables(lex, game)
    assert game_tables(lex, game) is tables
    assert tables_for(lex, game_spec(game)) is tables
    assert tables.layout == game_spec(game).layout and tables.tiles == game_spec(game).tiles
    with_leaves = game_tables(lex, game, table)
    assert with_leaves is not tables and with_leaves is game_tables(lex, game, table)
    assert with_leaves.leaves == PackedLeaves(*table.packed)
    other_game = Game.preset("scrabble").for_lexicon(lex.alphabet)  # equal, another object: the same spec's tables
    assert game_tables(lex, other_game) is tables
    other_lexicon = open_lexicon(WORDS)
    assert game_tables(other_lexicon, game) is not tables


def test_every_job_shares_the_tables(engine_kind, open_lexicon):
    """Moves, the engine's requests and self-play read the one object the lexicon keeps."""
    from lexigraph.scrabble.movegen import move_request
    from lexigraph.scrabble.selfplay import Player, selfplay_request

    game = abcd_game()
    lex = open_lexicon(ABCD_WORDS, alphabet=game.alphabet)
    pos = Position(game, racks=["abcd", ""])
    request = move_request(lex, pos, [1, 2, 3, 4])
    assert request.tables is game_tables(lex, game)
    players = [Player.score(), Player.equity(None)]
    assert {id(p.tables) for p in selfplay_request(lex, game, players, 1).players} == {id(request.tables)}
    assert len(generate(lex, pos)) > 0


def test_a_closed_lexicon_makes_no_tables_and_its_engine_takes_no_others(engine_kind, open_lexicon):
    lex = open_lexicon(WORDS)
    other = open_lexicon(WORDS)
    game = Game.preset("scrabble").for_lexicon(lex.alphabet)
    pos = Position(game, racks=["CATS", ""])
    request = MoveRequest(game_tables(other, game), bytes(pos.codes), bytes(pos.blanks),
                          bytes([0, 1, 0, 1] + [0] * 16 + [1, 0, 0, 0, 0, 0, 0]))
    with pytest.raises(QueryError, match="another lexicon"):
        lex.engine.generate_moves(request)
    lex.close()
    with pytest.raises(LexiconError):
        game_tables(lex, game)


@pytest.mark.parametrize("change, why", [
    (dict(layout=BoardLayout(3, 4, bytes([1] * 8), bytes([1] * 9))), "a multiplier per square"),
    (dict(layout=BoardLayout(27, 4, bytes(729), bytes(729))), "size or start square"),
    (dict(layout=BoardLayout(3, 9, bytes([1] * 9), bytes([1] * 9))), "size or start square"),
    (dict(layout=BoardLayout(3, 4, bytes([1] * 9), bytes([1] * 9), bytes(8))), "two opening penalties"),
    (dict(tiles=TileSet(bytes(1), bytes(1), b"", 7, 50)), "tile codes"),
    (dict(tiles=TileSet(bytes(5), bytes(4), b"", 7, 50)), "a count and a vowel flag"),
    (dict(tiles=TileSet(bytes(5), bytes(5), bytes(3), 7, 50)), "a count and a vowel flag"),
    (dict(tiles=TileSet(bytes(5), bytes(5), b"", 16, 50)), "rack size"),
    (dict(tiles=TileSet(bytes(5), bytes(5), b"", 7, -1)), "bingo bonus"),
    (dict(leaves=PackedLeaves(bytes(8), bytes(16))), "keys and values"),
])
def test_both_engines_refuse_the_same_bad_tables(engine_kind, open_lexicon, change, why):
    lex = open_lexicon(["ab", "ba"], alphabet=lexigraph.Alphabet(list("abcd")))
    spec = GameSpec(BoardLayout(3, 4, bytes([1] * 9), bytes([1] * 9)), TileSet(bytes(5), bytes([2] * 5), b"", 2, 0))
    assert lex.engine.game_tables(spec).layout == spec.layout
    with pytest.raises(FileFormatError, match=why):
        lex.engine.game_tables(spec._replace(**change))
