"""A helper thread's bound that a depth limit cut does not send the main thread's search deeper.

On several threads the main thread takes the bounds the helpers stored. A helper searched that child in another
window and order, so its depth limit may have cut lines that the main thread's own search would have followed to the
end of the game: taking such a bound, the main thread used to count its iteration as cut and search one or two plies
deeper than one thread does (docs/performance.md, "Two threads that part ways"). Now an iteration cut only by those
bounds is searched again at the same depth without them. Shown by hand (``endgame_borrowed_bounds``: bounds planted
as a helper's, not solved, on the children of the root's moves, deep enough for every iteration to take them): the
search still ends at one thread's depth, complete, with the exhaustive minimax's value and move, whether the planted
bounds are true or false."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from lexigraph.engine.interface import move_record_dtype
from lexigraph.scrabble.endgame import _request, endgame_racks
from lexigraph.scrabble.movegen import aligned
from lexigraph.scrabble.moves import move_from_record
from lexigraph.scrabble.tiles import parse_rack

from .test_endgame import GAME, WORDS, ZERO_TURNS_TO_END, _minimax_root, _positions

# endgame.c's bound kinds.
EXACT, LOWER, UPPER = 0, 1, 2

# The bounds are the C solver's table (the Python twin searches on one thread): these tests run on the C engine.
pytestmark = pytest.mark.parametrize("engine_kind", ["c"], indirect=True)


@pytest.fixture(scope="module")
def abcd(open_lexicon):
    return open_lexicon(WORDS, alphabet=GAME.alphabet)


def _root(lex, pos):
    """(request, racks, children): the search's request, both racks as codes, and per root move that does not end
    the game (its index in generation order; the pass: the move count) the child's exact value for the side to
    move there, by the exhaustive minimax."""
    aligned_pos = aligned(lex, pos)
    mine, theirs = endgame_racks(aligned_pos)
    request = _request(lex, aligned_pos, mine, theirs, 1 << 12, 1)
    *_, raw = lex.engine._native.endgame_root_order(request, 1, [])
    records = np.frombuffer(raw, move_record_dtype())
    children: dict[int, int] = {}
    for i, r in enumerate(records):
        squares = bytes(r["squares"][: int(r["length"])])
        left = Counter(mine)
        left.subtract(0 if b & 0x80 else b for b in squares if b)
        rest = sorted(left.elements())
        if rest:
            move = move_from_record(pos, mine, (int(r["score"]), int(r["row"]), int(r["col"]), int(r["across"]),
                                                squares))
            children[i] = _minimax_root(lex, pos.with_play(move), [theirs, rest], 0)[0]
    if pos.zero_turns + 1 < ZERO_TURNS_TO_END:
        children[len(records)] = _minimax_root(lex, pos, [theirs, mine], pos.zero_turns + 1)[0]
    return request, [mine, theirs], children


def _best_index(lex, pos, racks, raw_best) -> int:
    """The root move's index (generation order) of the minimax's best move (None: the pass, the move count)."""
    aligned_pos = aligned(lex, pos)
    request = _request(lex, aligned_pos, racks[0], racks[1], 1 << 12, 1)
    *_, raw = lex.engine._native.endgame_root_order(request, 1, [])
    records = np.frombuffer(raw, move_record_dtype())
    if raw_best is None:
        return len(records)
    score, row, col, across, squares = raw_best
    for i, r in enumerate(records):
        if (int(r["score"]), int(r["row"]), int(r["col"]), int(r["across"])) == (score, row, col, across) and bytes(
                r["squares"][: int(r["length"])]) == bytes(squares):
            return i
    raise AssertionError("the minimax's best move is not among the root's moves")


def _deep_positions(lex, count):
    """Positions whose one-thread search needs more than a few plies and has root moves with children."""
    out = []
    for pos in _positions(lex, 4 * count, first=500):
        request, racks, children = _root(lex, pos)
        base = lex.engine._native.endgame_borrowed_bounds(request, [])
        if children and base[2] >= 3:
            out.append((pos, request, racks, children, base))
        if len(out) == count:
            break
    assert len(out) == count
    return out


def test_without_planted_bounds_nothing_is_searched_again(abcd):
    for pos, _request_, racks, _children, (value, complete, _depth, researches, best) in _deep_positions(abcd, 6):
        expected, raw_best = _minimax_root(abcd, pos, racks, pos.zero_turns)
        assert complete and value == expected and researches == 0, pos.to_cgp()
        assert best == _best_index(abcd, pos, racks, raw_best), pos.to_cgp()


def test_true_unsolved_bounds_end_the_search_at_one_threads_depth(abcd):
    # Every child of the root holds a helper's exact value, not marked solved, at the deepest depth: each iteration
    # takes them, and before this change no iteration counted as uncut (the search ran to its last ply, inexact).
    for pos, request, racks, children, base in _deep_positions(abcd, 6):
        planted = [(i, v, EXACT) for i, v in children.items()]
        value, complete, depth, researches, best = abcd.engine._native.endgame_borrowed_bounds(request, planted)
        assert complete and researches >= 1, pos.to_cgp()
        assert (value, depth, best) == (base[0], base[2], base[4]), pos.to_cgp()


@pytest.mark.parametrize("kind", [EXACT, LOWER, UPPER])
def test_false_unsolved_bounds_never_reach_the_answer(abcd, kind):
    # Bounds no depth limit would give (a helper's search to another depth could): the answer is still the
    # minimax's, found by the iteration searched again without them.
    rng = random.Random(36 + kind)
    for pos, request, racks, children, base in _deep_positions(abcd, 6):
        expected, raw_best = _minimax_root(abcd, pos, racks, pos.zero_turns)
        planted = [(i, v + rng.choice([-40, -9, -1, 1, 9, 40]), kind) for i, v in children.items()]
        value, complete, depth, _researches, best = abcd.engine._native.endgame_borrowed_bounds(request, planted)
        assert complete and value == expected, pos.to_cgp()
        assert best == _best_index(abcd, pos, racks, raw_best), pos.to_cgp()
