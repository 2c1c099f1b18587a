"""The C fill state (candidates as bit sets) against its Python twin (sparse sets), operation by operation.

Random small problems (an open grid: its rows and columns are the slots), random rules (repeats, runs
shared, eager striking) and random sequences of decisions, refutations, tile changes and undos: after
each operation both states must answer alike (the result, every slot's size, single and candidates,
every cell's domain, the counts per tile, the value order's choice), and the answers are checked
against their definitions on the candidates (counts as a Counter, best_row by a plain maximum).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexigraph.engine.interface import EAGER_ALWAYS, PropagationProblem


def _problem(rng: np.random.Generator, height: int, width: int, n_tiles: int, words: int, repeats: bool,
             max_shared: int, eager: int) -> tuple[PropagationProblem, list[np.ndarray], list[int]]:
    """An open height x width grid: slots 0..height-1 the rows, then the columns."""
    buckets = {n: np.unique(rng.integers(1, n_tiles + 1, size=(words, n), dtype=np.uint8), axis=0)
               for n in {height, width}}
    slots = [[r * width + c for c in range(width)] for r in range(height)]
    slots += [[r * width + c for r in range(height)] for c in range(width)]
    cell_slots: list[list[tuple[int, int]]] = [[] for _ in range(height * width)]
    for s, cells in enumerate(slots):
        for j, cid in enumerate(cells):
            cell_slots[cid].append((s, j))
    rows = [buckets[len(cells)] for cells in slots]
    same = {n: [s for s, cells in enumerate(slots) if len(cells) == n] for n in buckets}
    problem = PropagationProblem(rows, slots, cell_slots, b"\1" * len(slots), b"\0" * len(slots),
                                 [same[len(cells)] for cells in slots], repeats, max_shared, eager, [])
    # starting candidates: an ascending random subset of each bucket
    candidates = [np.flatnonzero(rng.random(len(r)) < 0.8).astype(np.int32) for r in rows]
    full = (1 << (n_tiles + 1)) - 2
    domains = [full & ~(1 << int(rng.integers(1, n_tiles + 1))) if rng.random() < 0.2 else full
               for _ in range(height * width)]
    return problem, candidates, domains


def _same(c, py, problem: PropagationProblem, rng: np.random.Generator) -> None:
    sizes = c.sizes()
    assert sizes == py.sizes()
    assert c.singles() == py.singles()
    assert c.domains() == py.domains()
    for s, rows in enumerate(problem.rows):
        cand = c.candidates(s)
        assert cand.tolist() == py.candidates(s).tolist() == sorted(set(cand.tolist()))
        for k in range(rows.shape[1]):
            got = c.counts(s, k)
            assert got.tolist() == py.counts(s, k)[:64].tolist()
            want = Counter(int(rows[r, k]) for r in cand)
            assert {t: int(n) for t, n in enumerate(got.tolist()) if n} == dict(want)
        row = int(rng.integers(-1, len(rows) + 1))
        assert c.has(s, row) == py.has(s, row) == (row in set(cand.tolist()))
        if not len(cand):
            continue
        keys = np.round(rng.random(len(rows)) * 4) / 4  # quarters: ties, which go to the lowest row
        crossings = np.array([(j, t, k) for j, cid in enumerate(problem.slot_cells[s])
                              for t, k in problem.cell_slots[cid] if t != s], np.int32)
        room = np.log(np.arange(max(len(r) for r in problem.rows) + 1) + 1.0)
        taken = [int(x) for x in rng.choice(cand, size=min(len(cand), int(rng.integers(0, 3))), replace=False)]
        best = c.best_row(s, keys, crossings, room, taken)
        assert best == py.best_row(s, keys, crossings, room, taken)
        pool = [r for r in cand.tolist() if r not in taken] or cand.tolist()

        def key(r: int) -> float:
            total = float(keys[r])
            for j, t, k in crossings.tolist():
                if sizes[t] > 1:
                    total += float(room[int((problem.rows[t][c.candidates(t), k] == rows[r, j]).sum())])
            return total

        # the same float additions in the same order: exact, so ties are exact too
        top = max(key(r) for r in pool)
        assert best == min(r for r in pool if key(r) == top)


def _random_nogoods(rng: np.random.Generator, state, problem: PropagationProblem, n_cells: int,
                    n_tiles: int) -> np.ndarray:
    """Packed branches (see FillState.set_nogoods) of decisions drawn mostly from what holds or is possible now."""
    flat: list[int] = []
    singles = state.singles()
    for _ in range(int(rng.integers(0, 4))):
        decisions = []
        for _ in range(int(rng.integers(1, 5))):
            taken = int(rng.random() < 0.5)
            if rng.random() < 0.8:
                s = int(rng.integers(0, len(problem.rows)))
                cand = state.candidates(s).tolist()
                row = singles[s] if singles[s] >= 0 and rng.random() < 0.7 else (
                    int(rng.choice(cand)) if cand and rng.random() < 0.8 else int(rng.integers(0, len(problem.rows[s]))))
                decisions += [taken, s, row]
            else:
                decisions += [taken | 2, int(rng.integers(0, n_cells)), int(rng.integers(1, n_tiles + 1))]
        flat += [len(decisions) // 3, *decisions]
    return np.array(flat, np.int32)


@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.integers(2, 5), st.integers(2, 6), st.booleans(),
       st.sampled_from([0, 0, 2]), st.sampled_from([0, 1, 3, EAGER_ALWAYS]), st.lists(st.integers(0, 11), max_size=14))
@settings(max_examples=60, deadline=None)
def test_c_state_is_its_python_twin(enable_on, open_python, seed, height, width, n_tiles, repeats, max_shared, eager,
                                    ops):
    rng = np.random.default_rng(seed)
    problem, candidates, domains = _problem(rng, height, width, n_tiles, 40, repeats, max_shared, eager)
    c = enable_on.engine.fill_state(problem, candidates, domains)
    py = open_python().engine.fill_state(problem, candidates, domains)
    assert type(c) is not type(py)
    singles = [s for s, cand in enumerate(candidates) if len(cand) == 1]
    queue = dict.fromkeys(range(len(problem.rows)))
    got = c.propagate(queue, singles, None)
    assert got == py.propagate(queue, singles, None)
    if got != -1:
        return
    _same(c, py, problem, rng)
    marks, py_marks = [c.mark()], [py.mark()]  # the trails differ in length: each undoes to its own marks
    for op in ops:
        sizes = c.sizes()
        open_slots = [s for s, n in enumerate(sizes) if n > 1]
        if op >= 10:  # nogoods: random branches of decisions, some holding now
            packed = _random_nogoods(rng, c, problem, height * width, n_tiles)
            c.set_nogoods(packed)
            py.set_nogoods(packed)
            marks.append(c.mark())
            py_marks.append(py.mark())
            blame = int(rng.integers(-1, len(problem.rows)))
            got = c.apply_nogoods(blame, None)
            assert got == py.apply_nogoods(blame, None)
            if got != -1:
                c.undo(marks.pop())
                py.undo(py_marks.pop())
            _same(c, py, problem, rng)
            continue
        if op >= 8 and len(marks) > 1:  # back to an earlier mark
            at = int(rng.integers(0, len(marks)))
            c.undo(marks[at])
            py.undo(py_marks[at])
            del marks[at + 1:], py_marks[at + 1:]
            _same(c, py, problem, rng)
            continue
        marks.append(c.mark())
        py_marks.append(py.mark())
        if op < 4 and open_slots:
            s = int(rng.choice(open_slots))
            row = int(rng.choice(c.candidates(s)))
            got = (c.assign if op < 2 else c.exclude)(s, row, None)
            assert got == (py.assign if op < 2 else py.exclude)(s, row, None)
        elif op < 8:
            cell = int(rng.integers(0, height * width))
            tile = int(rng.integers(1, n_tiles + 1))
            got = (c.set_tile if op < 6 else c.exclude_tile)(cell, tile, None)
            assert got == (py.set_tile if op < 6 else py.exclude_tile)(cell, tile, None)
        else:
            continue
        if got != -1:  # a wipe-out: the caller undoes
            c.undo(marks.pop())
            py.undo(py_marks.pop())
        _same(c, py, problem, rng)


@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
def test_c_state_refuses_what_its_bit_sets_cannot_hold(enable_on):
    rows = np.array([[1, 2], [2, 1]], np.uint8)
    base = PropagationProblem([rows], [[0, 1]], [[(0, 0)], [(0, 1)]], b"\1", b"\0", [[0]], False)
    state = enable_on.engine.fill_state
    with pytest.raises(ValueError, match="ascending"):
        state(base, [np.array([1, 0], np.int32)], [6, 6])
    with pytest.raises(IndexError):
        state(base, [np.array([0, 2], np.int32)], [6, 6])
    s = state(base, [np.array([0, 1], np.int32)], [6, 6])
    for packed in ([1, 0, 0], [2, 1, 0, 0], [1, 4, 0, 0], [1, 1, 1, 0], [1, 1, 0, 2], [1, 3, 2, 1], [1, 3, 0, 64], [-1]):
        with pytest.raises(ValueError):  # short, bad flags, no such slot, row outside the bucket, no such cell or tile
            s.set_nogoods(np.array(packed, np.int32))
    room = np.log(np.arange(3) + 1.0)
    for keys, crossings, short_room in (
        (np.zeros(3), np.zeros((0, 3), np.int32), room),  # a key per row of the bucket
        (np.zeros(2), np.array([[5, 0, 0]], np.int32), room),  # a crossing outside the slot
        (np.zeros(2), np.array([[0, 0, 0]], np.int32), room[:1]),  # room shorter than the counts
    ):
        with pytest.raises(ValueError):
            s.best_row(0, keys, crossings, short_room, [])
    assert s.best_row(0, np.array([0.0, 1.0]), np.zeros((0, 3), np.int32), room, []) == 1
    assert s.best_row(0, np.array([0.0, 1.0]), np.zeros((0, 3), np.int32), room, [1]) == 0
    assert s.best_row(0, np.array([0.0, 1.0]), np.zeros((0, 3), np.int32), room, [0, 1]) == 1  # all taken: all count
