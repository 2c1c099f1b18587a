"""Games as data (scrabble/game.py): presets, TOML files and their errors; a larger board plays."""

from __future__ import annotations

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

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


# -- every game value range-checked at load ------------------------------------------------------------

from lexigraph.scrabble import game as game_module  # noqa: E402
from lexigraph.scrabble.game import GameError  # noqa: E402


def _toml(**fields: object) -> str:
    lines = ['name = "t"', "board = [" + ", ".join(['"' + "." * 7 + '"'] * 7) + "]"]
    for key, value in fields.items():
        lines.append(f"{key} = {value}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("key, low, high", [
    ("rack_size", 1, game_module.MAX_RACK_SIZE),
    ("bingo_bonus", 0, game_module.MAX_BINGO_BONUS),
    ("blanks", 0, game_module.MAX_TILE_COUNT),
])
def test_game_values_inside_their_range_load_and_outside_do_not(key, low, high):
    for ok in (low, high):
        assert getattr(Game.from_toml(_toml(**{key: ok})), key) == ok
    for bad in (low - 1, high + 1, 2**63 - 1, 10**20, -(2**63), '"7"', "true", "2.5"):
        with pytest.raises(GameError, match=key):
            Game.from_toml(_toml(**{key: bad}))


@pytest.mark.parametrize("column", [0, 1])
def test_tile_counts_and_points_are_bytes(column):
    limit = [game_module.MAX_TILE_COUNT, game_module.MAX_POINTS][column]
    pair = [1, 1]
    pair[column] = limit
    assert Game.from_toml(_toml(tiles="{ a = %s }" % pair, rack_size=1)).tiles["a"] == tuple(pair)
    for bad in (limit + 1, -1, 2**63 - 1):
        pair[column] = bad
        with pytest.raises(GameError, match="tile 'a'"):
            Game.from_toml(_toml(tiles="{ a = %s }" % pair))


def test_board_sizes_bag_and_score_bound():
    assert Game.from_toml('board = ["."]\n').size == 1
    with pytest.raises(GameError, match="27 rows; 1 to 26"):
        Game.from_toml("board = [" + ", ".join(['"' + "." * 27 + '"'] * 27) + "]\n")
    with pytest.raises(GameError, match="the bag holds 1,002 tiles"):
        Game.from_toml(_toml(tiles="{ a = [255, 1], b = [255, 1], c = [255, 1], d = [235, 1] }"))
    q = 'board = [' + ", ".join(['"' + "Q" * 15 + '"'] * 15) + "]\nrack_size = 15\n"
    with pytest.raises(GameError, match="more than 2,147,483,647"):
        Game.from_toml(q)
    # the bound is an upper bound: the standard games are far inside it
    for name in ("scrabble", "super"):
        g = Game.preset(name)
        best = game_module._highest_score(g.size, list(g.word_mult), list(g.letter_mult), g.rack_size,
                                          max(p for _, p in g.tiles.values()), g.bingo_bonus)
        assert 1000 < best < game_module.MAX_SCORE


@pytest.mark.parametrize("depth", [33, 3000, 5000])
def test_nesting_is_capped_before_tomllib_recurses(depth):
    with pytest.raises(GameError, match=f"nested {depth} deep"):
        Game.from_toml(_toml(x="[" * depth + "]" * depth))
    with pytest.raises(GameError, match="unknown field"):  # 32 levels parse; the field is then refused
        Game.from_toml(_toml(x="[" * 32 + "]" * 32))


# -- hostile game files: generated and mutated, in a child with a memory cap ---------------------------


def _game_seeds() -> list[str]:
    from importlib import resources

    files = resources.files("lexigraph").joinpath("games")
    return [files.joinpath(f"{name}.toml").read_text("utf-8") for name in ("scrabble", "super")] + [
        _toml(rack_size=5, bingo_bonus=30, start='"D4"', blanks=2, tiles="{ a = [9, 1], b = [2, 3] }"),
        'board = ["QT", "Dd"]\nalphabet = "spanish"\n',
    ]


_GAME_CHARS = '[]{}=",. 0123456789abdtqDTQ\n#-_'


NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


@settings(max_examples=4, deadline=None, phases=NO_SHRINK)  # a child per example: no slow shrinking
@given(data=st.data())
def test_mutated_game_files_give_a_game_or_a_lexicon_error(data, capped, mutated):
    from lexigraph.scrabble.movegen import generate
    from lexigraph.scrabble.position import Position

    import lexigraph

    lex = lexigraph.load(["cat", "qi", "za", "aa", "ab"])
    inputs = [data.draw(mutated(_game_seeds(), _GAME_CHARS)) for _ in range(20)]

    def check(text: str) -> None:
        game = Game.from_toml(text)
        generate(lex, Position(game), "AB?", top=3, exchanges=True, passes=True)

    capped(check, inputs)
