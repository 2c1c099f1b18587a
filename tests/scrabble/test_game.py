"""Games as data (scrabble/game.py): presets, TOML files and their errors; a larger board plays."""

from __future__ import annotations

import pytest

from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.movegen import generate
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.scoring import score_play


def test_games_as_data(tmp_path):
    sup = Game.preset("super")
    assert sup.size == 21 and sup.start == (10, 10) and sup.blanks == 4
    assert sum(n for n, _ in sup.tiles.values()) + sup.blanks == 200
    assert sup.premium(0, 0) == "Q"
    custom = tmp_path / "mini.toml"
    custom.write_text('name = "mini"\nalphabet = "english"\nrack_size = 5\nbingo_bonus = 30\nstart = "C3"\n'
                      'board = ["T...T", ".D.D.", "..D..", ".D.D.", "T...T"]\n')
    g = Game.load(str(custom))
    assert (g.size, g.rack_size, g.bingo_bonus, g.start, g.points_of("z")) == (5, 5, 30, (2, 2), 10)
    for text, err in [('board = ["..", "..."]', "row 2"), ('board = ["x."]', "row"), ("bogus = 1\nboard=['..','..']",
                                                                                      "unknown"), ("board = [", "TOML")]:
        bad = tmp_path / "bad.toml"
        bad.write_text(text)
        with pytest.raises(GameError, match=err):
            Game.load(str(bad))
    with pytest.raises(GameError):
        Game.load("no-such-game")


def test_super_scrabble_moves(open_lexicon):
    enable = open_lexicon()
    game = Game.preset("super")
    moves = generate(enable, Position(game), "QUIZ?", top=3)
    assert moves and all(m.tiles for m in moves)
    for m in moves:
        assert score_play(enable, Position(game), m.notation, rack="QUIZ?").score == m.score
