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
from lexigraph.engine.interface import move_record_dtype
from lexigraph.scrabble import equity as eq
from lexigraph.scrabble.movegen import MAX_TOP, aligned, generate, move_request
from lexigraph.scrabble.tiles import parse_rack
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.runs import autoplay
from lexigraph.scrabble.selfplay import Player
from lexigraph.scrabble.tables import WORD_MAP_VARIABLE, game_tables
from helpers.moves import random_board
from conftest import open_on

RECORD_SIZE = move_record_dtype().itemsize


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
    full = keyed(generate(with_map, pos, rack)[:max(tops)])  # the full ranking's first: only those built as Moves
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


# -- the plays found in the word map (best window first): bytes and order of the full ranking's first N ---------

TOPS = (1, 2, 5, 20)


def records_of(lex, pos: Position, rack: str, table, *, top: int, prune: bool, by_equity: bool = True,
               both_directions: bool = False) -> bytes:
    """The engine's records for the position and rack, valued with the leave table (None: by score alone)."""
    pos = aligned(lex, pos)
    codes = parse_rack(pos.game, rack)
    values = eq.rack_values(pos, codes, table, bag=eq.bag_size(pos, codes), engine=lex.engine) if table else None
    request = move_request(lex, pos, codes, values, leaves=table, top=top, by_equity=by_equity, prune=prune,
                           both_directions=both_directions)
    records, _count = lex.engine.generate_moves(request)  # a record array, either engine
    return bytes(records.tobytes())


def assert_best_first_is_the_ranking(lex, pos: Position, rack: str, table, tops=TOPS) -> int:
    """For N in ``tops``, by equity and by score, across only and both directions on an empty board: the pruned best N
    are, byte for byte and in order, the first N of every play ranked. Returns the number of plays ranked."""
    ranked = 0
    for by_equity in (True, False):
        for both in ((False, True) if not any(pos.codes) else (False,)):
            full = records_of(lex, pos, rack, table if by_equity else None, top=MAX_TOP, prune=False,
                              by_equity=by_equity, both_directions=both)
            ranked = max(ranked, len(full) // RECORD_SIZE)
            for top in tops:
                best = records_of(lex, pos, rack, table if by_equity else None, top=top, prune=True,
                                  by_equity=by_equity, both_directions=both)
                assert best == full[:top * RECORD_SIZE], (pos.to_cgp(), rack, top, by_equity, both)
    return ranked


@pytest.fixture
def enable_with_map(engine_kind, private_cache):
    lex = open_on(engine_kind)
    assert lex.word_map() is not None
    return lex


def test_best_first_plays_equal_the_ranking_on_games(enable_with_map):
    """Every turn of two seeded games of best moves (the empty board first), with the rack drawn and racks with one
    and two blanks, a bingo rack, two tiles, the two blanks alone."""
    lex = enable_with_map
    game = Game.preset("scrabble")
    table = load_leaves(game.leaves, lex.store.alphabet)
    c = lex.engine.kind == "c"
    extra = ("AALNST?", "AEINR??", "AEINRST", "QI", "EEIIOUU", "??") if c else ("AEINR?", "QI")
    ranked = 0
    for seed in (134, 135):
        for pos, rack in positions_with_racks(lex, seed, 8 if c else 2, extra):
            ranked += assert_best_first_is_the_ranking(lex, pos, rack, table, TOPS if c else (1, 5))
    assert ranked > 20 * max(TOPS)  # the positions have plays beyond the tops


def board_from_bag(game: Game, rng: random.Random, fill: float) -> Position:
    """A board of random letters drawn from the game's bag (a blank as a random letter), each square taken with chance
    ``fill``: the tiles left unseen are the bag's, so a full board leaves the bag smaller than a rack, or empty."""
    pos = Position(game)
    tiles = [c for c, n in enumerate(game.counts_by_code()) for _ in range(n)]
    rng.shuffle(tiles)
    for i in range(game.size * game.size):
        if tiles and rng.random() < fill:
            code = tiles.pop()
            pos.codes[i] = code or rng.randrange(1, len(game.alphabet) + 1)
            pos.blanks[i] = code == 0
    return pos


@pytest.mark.parametrize("fill", [0.08, 0.25, 0.42])
def test_best_first_plays_equal_the_ranking_on_random_boards(enable_with_map, fill):
    """Random letters (phonies the cross-checks must refuse), blanks on the board; the fullest boards leave the bag
    smaller than a rack or empty (the leave values fold the end-of-game adjustments in)."""
    lex = enable_with_map
    game = Game.preset("scrabble")
    table = load_leaves(game.leaves, lex.store.alphabet)
    rng = random.Random(int(fill * 1000) + 34)
    c = lex.engine.kind == "c"  # the Python twin ranks every play (no map): one board, two racks
    small_bags = 0
    for _ in range(4 if c else 1):
        pos = board_from_bag(game, rng, fill)
        for rack in ("RETAIN?", "S?", "ESS?AB", "QUIZ", "EEE") if c else ("S?", "QUIZ"):
            small_bags += eq.bag_size(pos, rack) < game.rack_size
            assert_best_first_is_the_ranking(lex, pos, rack, table, (1, 3, 20))
    assert fill < 0.4 or small_bags or not c
    
    
def test_best_first_with_exchanges_and_passes(enable_with_map):
    """The exchanges and the pass compete with the plays found in the map: generate's best N equal its full list's
    first N, exchanges on and off."""
    lex = enable_with_map
    game = Game.preset("scrabble")
    for pos, rack in positions_with_racks(lex, 36, 4, ("EEIIOUU", "UUUVVWW", "QV?")):
        for exchanges in (True, False):
            full = keyed(generate(lex, pos, rack, exchanges=exchanges, passes=True)[:max(TOPS)])
            for top in TOPS:
                best = keyed(generate(lex, pos, rack, top=top, count_all=False, exchanges=exchanges, passes=True))
                assert best == full[:top], (pos.to_cgp(), rack, exchanges, top)
    assert game.rack_size == 7


def test_best_first_on_the_super_board(enable_with_map):
    """A 21 x 21 board (words longer than the map's longest in reach: the graph walk where it must)."""
    lex = enable_with_map
    game = Game.preset("super").for_lexicon(lex.alphabet)
    table = load_leaves(game.leaves, lex.store.alphabet) if game.leaves else None
    pos = Position(game)
    for rack in ("AEINRST", "A??", "????AB") if lex.engine.kind == "c" else ("AB?",):
        assert_best_first_is_the_ranking(lex, pos, rack, table, (1, 5))
        best = generate(lex, pos, rack, top=1, count_all=False)
        pos = pos.with_play(best[0]) if best and best[0].kind == "play" else pos


SPANISH_WORDS = ["chocho", "calle", "cacho", "hacha", "llama", "ocho", "lo", "la", "al", "ch", "olla", "callo", "chal",
                 "rra", "carro", "corro", "erre", "ella", "le", "el", "eh", "he", "ah", "ha", "oh", "ho", "año",
                 "llorar", "chorro", "achacar", "cachorro", "hallar"]


def test_best_first_with_multi_letter_tiles(engine_kind, private_cache):
    """Spanish tiles (CH, LL, RR one tile each): the map's keys and the board's codes are the same tile codes."""
    lex = open_on(engine_kind, SPANISH_WORDS, alphabet="spanish")
    assert lex.word_map() is not None
    game = Game.preset("scrabble").with_alphabet(lex.alphabet)
    rng = random.Random(3434)
    codes = [lex.alphabet.code(t) for t in ("a", "ch", "ll", "o", "rr", "e", "h", "l", "c")]
    for fill in (0.0, 0.1, 0.3):
        pos = random_board(game, rng, codes, fill)
        for rack in ("[CH]O", "A[LL]?", "[RR]AE", "[CH]A[LL]O", "O?L", "ACHO[RR]O?", "[CH]A[LL]??"):
            assert_best_first_is_the_ranking(lex, pos, rack, None, (1, 2, 5))


def test_best_first_on_played_twl06_games(shared, engine_kind, private_cache, tmp_path):
    """Every turn of seeded games of best moves on TWL06 with the shipped leave table, the racks drawn and racks with
    blanks (the real list and its map; skipped without the shared data)."""
    if engine_kind != "c":
        pytest.skip("the Python twin ranks every play: held to it on ENABLE above")
    path = tmp_path / "twl06.lex"
    lexigraph.build(shared("twl06.txt"), path)
    lex = open_on(engine_kind, path)
    assert lex.word_map() is not None
    game = Game.preset("scrabble")
    table = load_leaves(game.leaves, lex.store.alphabet)
    for seed in (6, 7, 8):
        for pos, rack in positions_with_racks(lex, seed, 12, ("AEINR??", "AALNST?")):
            assert_best_first_is_the_ranking(lex, pos, rack, table)


def test_best_first_with_a_large_top_and_without_leave_values(enable_with_map):
    """A heap of hundreds (plays past the first windows compete), and ranking by equity with no leave values (the
    equity is the score, the subsets' leaves all 0)."""
    lex = enable_with_map
    c = lex.engine.kind == "c"
    for pos, rack in positions_with_racks(lex, 37, 4 if c else 1, ("AEINR??", "RETAINS")):
        for table in (None, load_leaves(Game.preset("scrabble").leaves, lex.store.alphabet)):
            full = records_of(lex, pos, rack, table, top=MAX_TOP, prune=False, by_equity=True)
            for top in (300, 3000) if c else (300,):
                best = records_of(lex, pos, rack, table, top=top, prune=True, by_equity=True)
                assert best == full[:top * RECORD_SIZE], (pos.to_cgp(), rack, top, table is None)


@contextmanager
def word_map_path(mode: int) -> Iterator[None]:
    """The pruned ranking's path forced (1 the word map whenever it answers, 2 the graph walk), then restored."""
    from lexigraph import _native

    before = _native.word_map_path(mode)
    try:
        yield
    finally:
        _native.word_map_path(before)


@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
def test_either_path_gives_the_ranking_for_every_rack(enable_with_map):
    """Either path, forced for every rack (blank-free racks that are no word included, which the word map path does
    not take by default; restricted squares under heavy tiles): the pruned best N are the full ranking's first N,
    bytes and order."""
    lex = enable_with_map
    game = Game.preset("scrabble")
    table = load_leaves(game.leaves, lex.store.alphabet)
    for mode in (1, 2):
        rng = random.Random(3400 + mode)
        with word_map_path(mode):
            for pos, rack in positions_with_racks(lex, 340 + mode, 6, ("EIOQRTU", "EEIIOUU", "CWMFJRD")):
                assert_best_first_is_the_ranking(lex, pos, rack, table, (1, 3))
            pos = board_from_bag(game, rng, 0.3)
            for rack in ("QUIZ", "EEE", "RSTLNEA", "VV"):
                assert_best_first_is_the_ranking(lex, pos, rack, table, (1, 3))


def test_the_path_mode_is_checked():
    _native = pytest.importorskip("lexigraph._native")
    for bad in (-1, 3):
        with pytest.raises(ValueError):
            _native.word_map_path(bad)
    assert _native.word_map_path(0) == 0
