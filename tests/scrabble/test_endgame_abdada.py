"""The endgame's threads search as ABDADA does: a move whose child another thread is searching is put off until the
node's other moves are done. The deferral is shown on a hand-made table of busy children (``endgame_root_order``:
the root's moves in the order searched, held to the order without busy children), the value of a deferred search
to the exhaustive minimax; and the per-thread counts the solutions carry (nodes and CPU time of each thread)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from lexigraph.engine.interface import move_record_dtype
from lexigraph.scrabble.endgame import _request, endgame_racks, solve_endgame
from lexigraph.scrabble.movegen import aligned
from lexigraph.scrabble.tiles import parse_rack

from .test_endgame import GAME, WORDS, _minimax_root, _positions

# A root iteration this deep reaches the end of every game of the small positions: its value is exact.
DEEP = 40
# endgame.c's DEFER_MIN_DEPTH: shallower nodes never defer.
DEFER_MIN_DEPTH = 4


# The deferral is the C solver's (the Python twin searches on one thread): those tests run on the C engine alone.
on_c = pytest.mark.parametrize("engine_kind", ["c"], indirect=True)


@pytest.fixture(scope="module")
def abcd(open_lexicon):
    return open_lexicon(WORDS, alphabet=GAME.alphabet)


def _root_order(lex, pos, depth: int, busy: list[int]):
    """(order, value, complete, ends): the root's moves in the order searched with the children of ``busy`` marked
    as another thread's; ``ends[i]`` says whether move i (the pass: the last index) ends the game at once."""
    aligned_pos = aligned(lex, pos)
    mine, theirs = endgame_racks(aligned_pos)
    request = _request(lex, aligned_pos, mine, theirs, 1 << 12, 1)
    order, value, complete, raw = lex.engine._native.endgame_root_order(request, depth, busy)
    records = np.frombuffer(raw, move_record_dtype())
    ends = [int(np.count_nonzero(r["squares"][: r["length"]])) == len(mine) for r in records]
    ends.append(pos.zero_turns + 1 >= 6)  # the pass ends the game on the sixth turn without a play
    return list(order), value, bool(complete), ends


def _deferred_order(base: list[int], busy: set[int], ends: list[bool]) -> list[int]:
    """The order ABDADA searches in: the first move, then the moves not deferred, then the deferred ones (busy,
    not the first, not ending the game), each group in the base order."""
    deferred = [i for i in base[1:] if i in busy and not ends[i]]
    return [i for i in base if i not in deferred] + deferred


@on_c
def test_busy_children_are_searched_last_in_their_order(abcd):
    lex = abcd
    rng = random.Random(36)
    deferred_seen = 0
    for pos in _positions(lex, 10, first=40):
        base, _v, _c, ends = _root_order(lex, pos, DEEP, [])
        assert sorted(base) == list(range(len(ends))), pos.to_cgp()  # every root move searched once
        busy = set(rng.sample(base, k=max(1, len(base) // 2))) | {base[0]}
        order, _value, _complete, _ends = _root_order(lex, pos, DEEP, sorted(busy))
        expected = _deferred_order(base, busy, ends)
        assert order == expected, pos.to_cgp()
        deferred_seen += order != base
    assert deferred_seen >= 5  # the positions have root moves to put off


@on_c
def test_nodes_shallower_than_the_threshold_never_defer(abcd):
    lex = abcd
    for pos in _positions(lex, 5, first=40):
        base, _v, _c, _ends = _root_order(lex, pos, DEFER_MIN_DEPTH - 1, [])
        order, _v, _c, _ends = _root_order(lex, pos, DEFER_MIN_DEPTH - 1, base)
        assert order == base, pos.to_cgp()


@on_c
def test_a_search_that_defers_keeps_the_exhaustive_minimax_value(abcd):
    lex = abcd
    rng = random.Random(7)
    for pos in _positions(lex, 12, first=60):
        racks = [parse_rack(GAME, pos.racks[0]), parse_rack(GAME, pos.racks[1])]
        value, _raw = _minimax_root(lex, pos, racks, pos.zero_turns)
        base, _v, _c, _ends = _root_order(lex, pos, DEEP, [])
        busy = sorted(rng.sample(base, k=len(base) - 1))
        _order, got, complete, _ends = _root_order(lex, pos, DEEP, busy)
        assert complete and got == value, pos.to_cgp()


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_each_thread_reports_its_nodes_and_cpu_time(abcd, engine_kind, threads):
    counted = threads if engine_kind == "c" else 1  # the Python twin searches on one thread
    for pos in _positions(abcd, 4, first=300, unseen=6):
        solution = solve_endgame(abcd, pos, threads=threads)
        assert len(solution.thread_nodes) == len(solution.thread_cpu_seconds) == counted, pos.to_cgp()
        assert solution.thread_nodes[0] >= 1 and all(n >= 0 for n in solution.thread_nodes)
        assert sum(solution.thread_nodes) <= solution.nodes  # the principal variation's walk comes on top
        assert all(0.0 <= c for c in solution.thread_cpu_seconds)


@on_c
def test_the_threads_name_the_twins_value_and_move_on_a_harder_set(abcd, open_python):
    twin = open_python(WORDS, alphabet=GAME.alphabet)
    for pos in _positions(abcd, 6, first=900, unseen=6):
        reference = solve_endgame(twin, pos)
        for threads in (2, 3):
            got = solve_endgame(abcd, pos, threads=threads, table_megabytes=1)
            assert (got.value, got.best) == (reference.value, reference.best), (pos.to_cgp(), threads)
