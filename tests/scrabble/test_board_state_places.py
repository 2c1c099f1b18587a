"""The kept board state (native/board_state.c) after tiles put down in any shape: a play's tiles in one row or one
column (with gaps, the way a play goes through board tiles), and tiles scattered over the board (which no play
makes, the debug entry takes them): after each placement the state kept incrementally equals the state set up from
scratch for the same board (lx_board_state_set, which computes every square on its own)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.engine import compiled
from lexigraph.scrabble.tables import game_tables
from helpers.games import ABCD_WORDS, abcd_game

pytestmark = pytest.mark.skipif(not compiled.available(), reason="the C engine is not available")
_native: Any = compiled.native()
SIZE = 7
GAME = abcd_game(SIZE)


def shaped(draw: st.DrawFn, free: list[int]) -> list[int]:
    """Up to five of the free squares: in one row, in one column, or anywhere."""
    shape = draw(st.sampled_from(["row", "column", "anywhere"]))
    anchor = draw(st.sampled_from(free))
    if shape == "row":
        pool = [q for q in free if q // SIZE == anchor // SIZE]
    elif shape == "column":
        pool = [q for q in free if q % SIZE == anchor % SIZE]
    else:
        pool = free
    return draw(st.lists(st.sampled_from(pool), min_size=1, max_size=5, unique=True))


@st.composite
def placements(draw: st.DrawFn) -> list[tuple[list[int], bytes]]:
    """A few placements one after another, each on squares still empty, codes 1..4, some as blanks."""
    free = list(range(SIZE * SIZE))
    out = []
    for _ in range(draw(st.integers(1, 8))):
        if not free:
            break
        squares = shaped(draw, free)
        tiles = bytes(draw(st.integers(1, 4)) | (0x80 if draw(st.booleans()) else 0) for _ in squares)
        out.append((squares, tiles))
        free = [q for q in free if q not in squares]
    return out


@pytest.fixture(scope="module")
def tables():
    return game_tables(lexigraph.load(ABCD_WORDS, alphabet=GAME.alphabet), GAME)


@settings(max_examples=150, deadline=None)
@given(plays=placements())
def test_kept_state_equals_scratch_after_any_placement(tables, plays):
    empty = bytes(SIZE * SIZE)
    kept = _native.board_state_after(tables, empty, empty, plays)
    board, blanks = bytearray(empty), bytearray(empty)
    for (squares, tiles), state in zip(plays, kept, strict=True):
        for square, tile in zip(squares, tiles):
            board[square], blanks[square] = tile & 0x7F, tile >> 7
        assert state == _native.board_state(tables, bytes(board), bytes(blanks))
