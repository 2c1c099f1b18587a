"""``endgame_iterations`` (bench_endgame.py --depths): one thread's iterative deepening, the nodes searched by the
end of each iteration and the CPU seconds by then, held to what a full solve reports (its depth, its completeness,
its nodes)."""

from __future__ import annotations

import pytest

from lexigraph.scrabble.endgame import _request, endgame_racks, solve_endgame
from lexigraph.scrabble.movegen import aligned

from .test_endgame import GAME, WORDS, _positions

# A diagnostic of the C solver's iterations (the Python twin has none): C engine only.
pytestmark = pytest.mark.parametrize("engine_kind", ["c"], indirect=True)


@pytest.fixture(scope="module")
def abcd(open_lexicon):
    return open_lexicon(WORDS, alphabet=GAME.alphabet)


def _iterations(lex, pos, last_depth):
    aligned_pos = aligned(lex, pos)
    mine, theirs = endgame_racks(aligned_pos)
    request = _request(lex, aligned_pos, mine, theirs, 1 << 12, 1)
    return lex.engine._native.endgame_iterations(request, last_depth)


def test_each_iteration_counts_the_nodes_so_far_and_the_last_is_the_solves(abcd):
    deep = 0
    for pos in _positions(abcd, 8, first=700, unseen=6):
        solution = solve_endgame(abcd, pos, table_megabytes=1)
        rows, complete = _iterations(abcd, pos, 200)
        assert complete and [d for d, _n, _c in rows] == list(range(1, solution.depth + 1)), pos.to_cgp()
        nodes = [n for _d, n, _c in rows]
        assert all(0 < a < b for a, b in zip(nodes, nodes[1:])), pos.to_cgp()
        assert nodes[-1] == solution.thread_nodes[0], pos.to_cgp()  # one thread, the same search
        cpu = [c for _d, _n, c in rows]
        assert all(0.0 <= a <= b for a, b in zip(cpu, cpu[1:])), pos.to_cgp()
        if solution.depth >= 3:
            deep += 1
            capped, complete = _iterations(abcd, pos, solution.depth - 1)
            assert not complete and [r[:2] for r in capped] == [r[:2] for r in rows[:-1]], pos.to_cgp()
    assert deep >= 2


def test_a_depth_outside_the_plies_is_refused(abcd):
    pos = _positions(abcd, 1, first=700)[0]
    for depth in (0, 10_000):
        with pytest.raises(ValueError):
            _iterations(abcd, pos, depth)
