"""Walks of the word graph in Python: racks and patterns, the twins of the C walks (``native/walks.c``).

A walk enumerates the graph depth first, so its words come out in
alphabetical (tile) order, and cuts every branch that cannot lead to an
answer: a tile the rack cannot pay for, a tile a pattern's position does
not allow. It reads the arcs a prefix lookup can reach
(:meth:`~lexigraph.engine.wordgraph.WordGraph.reachable_records`: tiles
rising along a list), so that on any file it agrees with the lookups.

>>> import lexigraph
>>> lex = lexigraph.open(pure_python=True)
>>> cells = [lex.alphabet.encode("o"), lex.alphabet.encode("xy")]  # o, then x or y
>>> [lex.alphabet.decode(w) for w in pattern_walk(lex.graph, cells, 2, 3)]
['ox', 'oxo', 'oxy', 'oy']
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import FileFormatError
from ..deadline import Countdown
from ..interface import RackMode
from ..wordgraph import ACCEPTS_BIT, TARGET_SHIFT, TILE_MASK, WordGraph


def rack_walk(graph: WordGraph, rack: Sequence[int], through: Sequence[int], blanks: int, min_length: int,
              max_length: int, mode: RackMode, *, deadline: float | None = None) -> list[bytes]:
    """The tile codes of every word a rack makes, depth first (alphabetical).

    ``rack`` and ``through`` count each tile code (256 entries): the rack's
    tiles, and board tiles every word must also use; ``blanks`` stand for
    any tile. ``mode``: ``sub`` (some of the rack), ``exact`` (all of it),
    ``super`` (all of it and any other tiles). Past ``deadline``:
    :class:`~lexigraph.errors.DeadlineExceeded`.

    >>> import lexigraph
    >>> lex = lexigraph.open(pure_python=True)
    >>> rack = [0] * 256
    >>> for c in lex.alphabet.encode("top"): rack[c] += 1
    >>> [lex.alphabet.decode(w) for w in rack_walk(lex.graph, rack, [0] * 256, 0, 2, 3, "sub")]
    ['op', 'opt', 'pot', 'to', 'top']
    """
    supply = [int(r) + int(t) for r, t in zip(rack, through)]
    need = [int(t) for t in through] if mode != "super" else supply
    used = [0] * 256
    state = {"blanks": blanks, "missing": sum(need)}
    out: list[bytes] = []
    path: list[int] = []
    limit = min(max_length, graph.max_length, 255)
    countdown = Countdown(deadline)

    def visit(node: int) -> None:
        depth = len(path)
        if depth >= limit or not node:
            return
        records = graph.reachable_records(node)
        countdown.tick(len(records))
        for rec in records:
            t = rec & TILE_MASK
            blank = 0
            if used[t] >= supply[t]:
                if mode == "super":
                    pass
                elif state["blanks"] > 0:
                    blank = 1
                else:
                    continue
            used[t] += 1
            state["blanks"] -= blank
            took = used[t] <= need[t]
            state["missing"] -= took
            path.append(t)
            length = depth + 1
            if state["missing"] <= limit - length:
                if rec & ACCEPTS_BIT and length >= min_length and state["missing"] == 0 and (
                    mode != "exact" or length == limit
                ):
                    out.append(bytes(path))
                visit(rec >> TARGET_SHIFT)
            path.pop()
            used[t] -= 1
            state["blanks"] += blank
            state["missing"] += took

    try:
        visit(graph.root)
    finally:
        del visit  # the nested function refers to itself: a cycle that would keep the graph until a collection
    return out


def pattern_walk(graph: WordGraph, cells: Sequence[bytes], min_length: int, max_length: int,
                 limit: int = -1, budget: int = -1, *, deadline: float | None = None) -> list[bytes]:
    """The tile codes of the words of ``min_length .. max_length`` tiles whose first tiles fit ``cells``.

    ``cells[i]`` holds the codes position ``i`` allows; later positions allow
    any tile. ``limit`` stops after that many words (-1: all). ``budget``
    bounds the arcs visited (-1: no bound): past it, a
    :class:`~lexigraph.errors.FileFormatError` (only a forged graph needs more
    arcs than its words have tiles). No path goes deeper than the lexicon's
    longest word. Past ``deadline``: :class:`~lexigraph.errors.DeadlineExceeded`.
    """
    allowed = [frozenset(c) for c in cells]
    out: list[bytes] = []
    path: list[int] = []
    top = min(max_length, graph.max_length, 255)
    visited = [0]
    countdown = Countdown(deadline)

    def visit(node: int) -> None:
        depth = len(path)
        if depth >= top or not node:
            return
        ok = allowed[depth] if depth < len(allowed) else None
        records = graph.reachable_records(node)
        visited[0] += len(records)
        countdown.tick(len(records))
        if 0 <= budget < visited[0]:
            raise FileFormatError(f"{graph.name}: the word graph holds more paths than its words")
        for rec in records:
            if 0 <= limit <= len(out):
                return
            t = rec & TILE_MASK
            if ok is not None and t not in ok:
                continue
            path.append(t)
            if rec & ACCEPTS_BIT and depth + 1 >= min_length:
                out.append(bytes(path))
            visit(rec >> TARGET_SHIFT)
            path.pop()

    try:
        visit(graph.root)
    finally:
        del visit  # the nested function refers to itself: a cycle that would keep the graph until a collection
    return out
