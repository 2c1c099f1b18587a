"""Every public function of the game modules, grids, formats, the compiler and the alphabet refuses a
wrong type with a LexiconError (issue 21: 15 of 62 API calls raised AttributeError or TypeError)."""

from __future__ import annotations

import pytest

import lexigraph
from lexigraph.errors import LexiconError
from lexigraph.scrabble.game import Game, parse_square
from lexigraph.scrabble.position import Position, read_position
from lexigraph.scrabble.tiles import parse_rack, split_tiles, rack_text, tile_text
from lexigraph.scrabble.scoring import score_play, parse_play, score_placements, apply_move
from lexigraph.scrabble.movegen import generate, count_placements, board_phonies, generate_placements
from lexigraph.scrabble.gcg import read_gcg, analyze
from lexigraph.crossword.formats import acrosslite, grid_bytes, grid_from_text, ipuz, read_grid, write_grid
from lexigraph.crossword.grid import Grid
from lexigraph.crossword.fill import fill
from lexigraph.formats.export import to_bytes, export
from lexigraph.formats import daw, dawg32
from lexigraph.compiler.sources import read
from lexigraph.compiler.builder import build, compile_source
from lexigraph.compiler.normalize import normalize
from lexigraph.opener import open_source
from lexigraph.alphabet import Alphabet


@pytest.fixture(scope="module")
def objects():
    lex = lexigraph.open()
    g = Game.preset("scrabble")
    return lex, g, Position(g), grid_from_text("...\n...")


def _calls(lex, g, p, grid):
    calls = {
        "Position.from_cgp(None)": lambda: Position.from_cgp(None),
        "Position.from_cgp(5)": lambda: Position.from_cgp(5),
        "Position.from_text(None, g)": lambda: Position.from_text(None, g),
        "Position(None)": lambda: Position(None),
        "Position(g, codes=5)": lambda: Position(g, codes=5),
        "read_position(b'x', g)": lambda: read_position(b"x", g),
        "parse_rack(g, ['A'])": lambda: parse_rack(g, ["A"]),
        "parse_rack(None, 'A')": lambda: parse_rack(None, "A"),
        "split_tiles(g, 5)": lambda: split_tiles(g, 5),
        "rack_text(g, 'AB')": lambda: rack_text(g, "AB"),
        "tile_text(g, 'a', False)": lambda: tile_text(g, "a", False),
        "score_play(lex, p, 8)": lambda: score_play(lex, p, 8),
        "score_play(lex, None, '8H AB')": lambda: score_play(lex, None, "8H AB"),
        "score_play(None, p, '8H AB')": lambda: score_play(None, p, "8H AB"),
        "score_play(lex, p, '8H AB', rack=5)": lambda: score_play(lex, p, "8H AB", rack=5),
        "parse_play(None, '8H AB')": lambda: parse_play(None, "8H AB"),
        "score_placements(lex, p, 5)": lambda: score_placements(lex, p, 5),
        "score_placements(lex, p, [(1,2)])": lambda: score_placements(lex, p, [(1, 2)]),
        "score_placements(lex, p, [('a','b','c','d')])": lambda: score_placements(lex, p, [("a", "b", "c", "d")]),
        "apply_move(p, 5)": lambda: apply_move(p, 5),
        "read_gcg(b'...')": lambda: read_gcg(b"..."),
        "read_gcg(None)": lambda: read_gcg(None),
        "analyze(lex, None)": lambda: analyze(lex, None),
        "generate(lex, p, 5)": lambda: generate(lex, p, 5),
        "generate(lex, p, 'AB', top=2.5)": lambda: generate(lex, p, "AB", top=2.5),
        "generate(None, p, 'AB')": lambda: generate(None, p, "AB"),
        "generate(lex, None, 'AB')": lambda: generate(lex, None, "AB"),
        "count_placements(lex, p, 5)": lambda: count_placements(lex, p, 5),
        "board_phonies(lex, None)": lambda: board_phonies(lex, None),
        "fill(lex, grid, region=5)": lambda: fill(lex, grid, region=5),
        "generate(lex, p, 'AB', top=-1)": lambda: generate(lex, p, "AB", top=-1),
        "Position.from_cgp('15/' * 14 + '15 A/ 0/0 0', 5)": lambda: Position.from_cgp("15/" * 14 + "15 A/ 0/0 0", 5),
        "read_gcg('', game=5)": lambda: read_gcg("", game=5),
        "p.tile_at(99, 0)": lambda: p.tile_at(99, 0),
        "p.place(0, 0, 'A')": lambda: p.copy().place(0, 0, "A"),
        "fill(lex, None)": lambda: fill(lex, None),
        "Game.load(5)": lambda: Game.load(5),
        "Game.preset(5)": lambda: Game.preset(5),
        "Game.from_toml(5)": lambda: Game.from_toml(5),
        "Game.from_dict(5)": lambda: Game.from_dict(5),
        "g.resized('a')": lambda: g.resized("a"),
        "g.with_alphabet(5)": lambda: g.with_alphabet(5),
        "g.premium('a', 1)": lambda: g.premium("a", 1),
        "g.points_of(5)": lambda: g.points_of(5),
        "g.square_name('a', 1)": lambda: g.square_name("a", 1),
        "parse_square(5, 15)": lambda: parse_square(5, 15),
        "Grid(5)": lambda: Grid(5),
        "grid_from_text(5)": lambda: grid_from_text(5),
        "ipuz.parse(5)": lambda: ipuz.parse(5),
        "acrosslite.parse('x')": lambda: acrosslite.parse("x"),
        "read_grid(5)": lambda: read_grid(5),
        "write_grid(grid, 5)": lambda: write_grid(grid, 5),
        "write_grid(5, 'x.txt')": lambda: write_grid(5, "x.txt"),
        "grid_bytes(grid, 5)": lambda: grid_bytes(grid, 5),
        "fill(lex, grid, rules=5)": lambda: fill(lex, grid, rules=5),
        "grid.slot(5)": lambda: grid.slot(5),
        "grid.word(5)": lambda: grid.word(5),
        "grid.cell('a', 0)": lambda: grid.cell("a", 0),
        "grid.with_cells(5)": lambda: grid.with_cells(5),
        "to_bytes(None, 'text')": lambda: to_bytes(None, "text"),
        "to_bytes(lex, 5)": lambda: to_bytes(lex, 5),
        "export(lex, 5, 'text')": lambda: export(lex, 5, "text"),
        "daw.read(5)": lambda: daw.read(5),
        "dawg32.read('x')": lambda: dawg32.read("x"),
        "daw.write(5, 5)": lambda: daw.write(5, 5),
        "read(5)": lambda: read(5),
        "read(None)": lambda: read(None),
        "read(['a'], format=5)": lambda: read(["a"], format=5),
        "read('/dev/null', encoding=5)": lambda: read("/dev/null", encoding=5),
        "build(5, None)": lambda: build(5, None),
        "build(['cat'], None, min_length='a')": lambda: build(["cat"], None, min_length="a"),
        "build(['cat'], None, max_length=2.5)": lambda: build(["cat"], None, max_length=2.5),
        "build(['cat'], None, alphabet=5)": lambda: build(["cat"], None, alphabet=5),
        "build(['cat'], None, name=5)": lambda: build(["cat"], None, name=5),
        "build(['cat'], 5)": lambda: build(["cat"], 5),
        "build(['cat'], None, case=5)": lambda: build(["cat"], None, case=5),
        "build(['cat'], None, progress=5)": lambda: build(["cat"], None, progress=5),
        "build(['cat'], None, rejects=5)": lambda: build(["cat"], None, rejects=5),
        "compile_source(['cat'], min_length=None)": lambda: compile_source(["cat"], min_length=None),
        "normalize(5)": lambda: normalize(5),
        "open_source(5)": lambda: open_source(5),
        "Alphabet.load(5)": lambda: Alphabet.load(5),
        "Alphabet(5)": lambda: Alphabet(5),
        "Alphabet.from_dict(5)": lambda: Alphabet.from_dict(5),
        "Alphabet.from_letters(5)": lambda: Alphabet.from_letters(5),
        "Alphabet.from_toml(5)": lambda: Alphabet.from_toml(5),
        "lex.alphabet.encode(5)": lambda: lex.alphabet.encode(5),
        "lex.alphabet.split(5)": lambda: lex.alphabet.split(5),
        "lex.alphabet.code(5)": lambda: lex.alphabet.code(5),
        "lex.alphabet.decode('x')": lambda: lex.alphabet.decode("x"),
        "lex.alphabet.label('x')": lambda: lex.alphabet.label("x"),
        "lex.alphabet.prepare(5)": lambda: lex.alphabet.prepare(5),
    }
    return calls


NAMES = list(_calls(None, None, None, None))


@pytest.mark.parametrize("name", NAMES)
def test_a_wrong_type_is_a_lexicon_error(objects, name):
    call = _calls(*objects)[name]
    if name in DEFINED:
        assert call() == DEFINED[name]
        return
    with pytest.raises(LexiconError):
        call()


#: Calls whose answer is defined for any input rather than an error.
DEFINED = {"parse_square(5, 15)": None}
