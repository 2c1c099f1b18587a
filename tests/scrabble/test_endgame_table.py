"""The endgame's transposition table (native/endgame.c, the layout above ``Entry``): a table far too small for the
search (one slot: every position replaces the last, every probe meets another position's entry) and large values
(tiles of 240-255 points, past what a 12-bit field would hold) still give the exhaustive minimax's value and move,
on 1, 2 and 3 threads and on both engines."""

from __future__ import annotations

import pytest

import lexigraph
from lexigraph.alphabet import Alphabet
from lexigraph.engine.interface import ENDGAME_ENTRY_BYTES
from lexigraph.scrabble.endgame import _moves_of, _request, endgame_racks, solve_endgame, table_entries
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.movegen import aligned
from lexigraph.scrabble.moves import move_from_record
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.tiles import parse_rack

from .test_endgame import GAME, WORDS, _minimax_root, _positions, random_endgame

#: What a 12-bit value field would hold at most: values past it are the large-value cases.
ENTRY_VALUE_MAX = 2047


@pytest.fixture(scope="module")
def abcd(open_lexicon):
    return open_lexicon(WORDS, alphabet=GAME.alphabet)


def _oracle(lex: lexigraph.Lexicon, pos: Position) -> tuple[int, str | None]:
    """The exhaustive minimax's value and best move (notation; None: the pass)."""
    racks = [parse_rack(pos.game, pos.racks[0]), parse_rack(pos.game, pos.racks[1])]
    value, raw = _minimax_root(lex, pos, racks, pos.zero_turns)
    return value, None if raw is None else move_from_record(pos, racks[0], raw).notation


def _solve_with_entries(lex: lexigraph.Lexicon, position: Position, entries: int,
                        threads: int) -> tuple[int, bool, str | None]:
    """The engine's answer with a table of ``entries`` slots (below the 1 MB the public API's smallest table
    holds): value, complete, the best move's notation (None: the pass)."""
    pos = aligned(lex, position)
    mine, theirs = endgame_racks(pos)
    answer = lex.engine.solve_endgame(_request(lex, pos, mine, theirs, entries, threads), None)
    pv = _moves_of(pos, [mine, theirs], answer.pv)
    best = pv[0] if pv else None  # None: the pass
    return answer.value, answer.complete, None if best is None else best.notation


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("entries", [1, 2, 16])
def test_tiny_tables_keep_the_exhaustive_minimax_value_and_move(abcd, entries, threads):
    for pos in _positions(abcd, 10, first=700, unseen=5):
        value, best = _oracle(abcd, pos)
        assert _solve_with_entries(abcd, pos, entries, threads) == (value, True, best), pos.to_cgp()


def _heavy_game() -> Game:
    """The abcd game with tiles of 240-255 points: spreads pass the entry's value field."""
    points = {"a": 250, "b": 255, "c": 240, "d": 245}
    base = Game.preset("scrabble").resized(7)
    alpha = Alphabet(["a", "b", "c", "d"], name="abcd", counts={t: 3 for t in "abcd"}, points=points, blanks=1,
                     vowels=["a"])
    return Game(name="heavy", alphabet=alpha, board=base.board, start=base.start,
                tiles={t: (3, p) for t, p in points.items()}, blanks=1, rack_size=3, bingo_bonus=20)


@pytest.mark.parametrize("threads", [1, 2])
def test_values_past_the_entry_field_stay_exact(open_lexicon, threads):
    game = _heavy_game()
    lex = open_lexicon(WORDS, alphabet=GAME.alphabet)
    checked = beyond = 0
    for seed in range(60):
        pos = random_endgame(lex, 900 + seed, game=game, unseen=5)
        if pos is None:
            continue
        value, best = _oracle(lex, pos)
        beyond += abs(value) > ENTRY_VALUE_MAX
        checked += 1
        for entries in (1, 1 << 10):
            assert _solve_with_entries(lex, pos, entries, threads) == (value, True, best), (pos.to_cgp(), entries)
        if checked == 12:
            break
    assert checked == 12 and beyond >= 3, (checked, beyond)


def test_the_megabytes_hold_entries_of_the_documented_size():
    assert ENDGAME_ENTRY_BYTES == 16  # key XOR data, then data: the whole 64-bit key is checked (docs/games.md)
    for mb in (1, 64, 4096):
        assert table_entries(mb) == (mb << 20) // ENDGAME_ENTRY_BYTES


def test_the_public_api_with_the_smallest_table_equals_the_oracle(abcd):
    for pos in _positions(abcd, 4, first=760, unseen=5):
        solution = solve_endgame(abcd, pos, table_megabytes=1, threads=2)
        value, best = _oracle(abcd, pos)
        assert (solution.value, solution.complete) == (value, True), pos.to_cgp()
        assert (solution.best.notation if solution.best else None) == best
