"""The word map inside move generation (issue 34): the C engine's game tables carry the lexicon's word map when
it has one, and the pruned best plays (``count_all=False``, bounds tightened by the map) stay the full ranking's
first, on both engines (the Python twin ranks every play and takes no map)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import lexigraph
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.leaves import load_leaves
from lexigraph.scrabble.movegen import generate
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.runs import autoplay
from lexigraph.scrabble.selfplay import Player
from lexigraph.scrabble.tables import WORD_MAP_VARIABLE, game_tables
from helpers.moves import random_board
from conftest import open_on


def keyed(moves) -> list[tuple]:
    return [(m.kind, m.notation, m.score, m.equity) for m in moves]


def bag_of(game: Game, rng: random.Random) -> list[str]:
    bag = [game.alphabet.label(c).upper() if c else "?" for c, n in enumerate(game.counts_by_code())
           for _ in range(n)]
    rng.shuffle(bag)
    return bag


def positions_with_racks(lex, seed: int, turns: int, extra_racks: tuple[str, ...]) -> list[tuple[Position, str]]:
    """Every turn of a game of best moves from a seeded bag (the empty board first), with the rack drawn and a few
    chosen racks (blanks, bingo-prone letters)."""
    game = Game.preset("scrabble")
    rng = random.Random(seed)
    bag = bag_of(game, rng)
    pos = Position(game)
    out = []
    for _ in range(turns):
        rack = "".join(bag.pop() for _ in range(7))
        out += [(pos, rack)] + [(pos, extra) for extra in extra_racks]
        best = generate(lex, pos, rack, top=1)
        if best and best[0].kind == "play":
            pos = pos.with_play(best[0])
    return out


@contextmanager
def no_word_map() -> Iterator[None]:
    """Game tables made inside are made without the word map (it is in the cache: any lexicon would find it)."""
    before = os.environ.get(WORD_MAP_VARIABLE)
    os.environ[WORD_MAP_VARIABLE] = "0"
    try:
        yield
    finally:
        if before is None:
            del os.environ[WORD_MAP_VARIABLE]
        else:
            os.environ[WORD_MAP_VARIABLE] = before


def assert_pruned_equal_full(with_map, without_map, pos: Position, rack: str, tops=(1, 2, 5)) -> None:
    full = keyed(generate(with_map, pos, rack))
    for top in tops:
        pruned = keyed(generate(with_map, pos, rack, top=top, count_all=False))
        assert pruned == full[:top], (pos.to_cgp(), rack, top)
        with no_word_map():
            plain = keyed(generate(without_map, pos, rack, top=top, count_all=False))
        assert pruned == plain, (pos.to_cgp(), rack)


@pytest.fixture
def enable_pair(engine_kind, private_cache):
    """ENABLE on the case's engine twice: with its word map (built into the test's cache) and without one (its
    tables made inside no_word_map)."""
    with_map = open_on(engine_kind)
    assert with_map.word_map() is not None
    without_map = open_on(engine_kind)
    assert without_map.store is not with_map.store
    return with_map, without_map


def test_the_c_tables_carry_the_word_map(enable_pair, engine_kind):
    with_map, without_map = enable_pair
    game = Game.preset("scrabble")
    tables = game_tables(with_map, game)
    with no_word_map():
        plain = game_tables(without_map, game)
    assert game_tables(without_map, game) is plain  # kept: made once per lexicon and spec
    if engine_kind == "c":
        assert tables.word_map is with_map.word_map().lookups
        assert plain.word_map is None
        assert tables.use_word_map(with_map.word_map().lookups) is False  # set once: shared tables never change
    else:
        assert not hasattr(tables, "word_map")


def test_no_map_is_built_for_the_tables(engine_kind, private_cache):
    """A lexicon with no map beside it or in the cache gets none (the generator is exact without it)."""
    lex = open_on(engine_kind, ["cat", "act", "tack", "attack"])
    tables = game_tables(lex, Game.preset("scrabble").for_lexicon(lex.alphabet))
    assert getattr(tables, "word_map", None) is None
    assert lex.word_map(build=False) is None


def test_pruned_best_with_the_word_map_equal_the_full_ranking_on_games(enable_pair, engine_kind):
    """Every turn of two seeded games, the drawn rack, racks with one and two blanks and short racks: the best 1, 2 and 5 with
    the map's bounds are the full ranking's first, and the same as without the map."""
    with_map, without_map = enable_pair
    extra = ("AEINRST", "AALNST?", "AEINR??", "QI", "ZAX") if engine_kind == "c" else ("AEINRST", "QI")
    turns = 8 if engine_kind == "c" else 3
    for seed in (34, 35):
        for pos, rack in positions_with_racks(with_map, seed, turns, extra):
            assert_pruned_equal_full(with_map, without_map, pos, rack)


@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
def test_pruned_best_with_the_word_map_on_random_boards(enable_pair):
    """Boards of random letters (phony words across and down, blanks among them): the map's lookups go through
    board tiles that spell nothing, and the plays kept are still the full ranking's first."""
    with_map, without_map = enable_pair
    game = Game.preset("scrabble")
    rng = random.Random(341)
    letters = [c for c in range(1, 27)]
    for _ in range(6):
        pos = random_board(game, rng, letters, 0.12)
        bag = bag_of(game, rng)
        for rack in ("".join(bag[:7]), "".join(bag[7:12]), "".join(bag[12:14]), "RETAIN?", "SATIRE?"):
            assert_pruned_equal_full(with_map, without_map, pos, rack, tops=(1, 3, 20))


def test_self_play_is_the_same_with_the_word_map(enable_pair):
    """Every turn of self-play takes the pruned best move: with the map in the tables, the games are the same,
    turn for turn (on the Python engine the map is not used and the games are trivially the same)."""
    with_map, without_map = enable_pair
    game = Game.preset("scrabble")
    table = load_leaves(game.leaves, with_map.store.alphabet)
    players = [Player.equity(table, "a"), Player.score("b")]
    games = 30 if with_map.engine.kind == "c" else 2
    runs = [autoplay(with_map, game, players, games=games, seed=34, workers=1, keep_games=True)]
    with no_word_map():
        runs.append(autoplay(without_map, game, players, games=games, seed=34, workers=1, keep_games=True))
    assert runs[0].turns is not None and runs[1].turns is not None and len(runs[0].turns)
    assert runs[0].turns.tobytes() == runs[1].turns.tobytes()
    assert runs[0].games.tobytes() == runs[1].games.tobytes()
