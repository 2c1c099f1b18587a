"""Compiled walks of the word graph: racks, patterns and prefixes, in C with Python twins.

A walk enumerates the graph depth first, so its words come out in
alphabetical (tile) order, and cuts every branch that cannot lead to an
answer: a tile the rack cannot pay for, a tile a pattern's position does
not allow. Its cost grows with the answers and the branches it opens, not
with the list. Each walk runs in C (the ``lexigraph._native`` probe, which also maps
each word to its id through the hash index) when the lexicon has the C
probe, and otherwise in its Python twin below, which tests hold to the same
answers.

Walks list only the arcs a prefix lookup can reach (tiles rising along a
list, as in every valid file). Before a C walk answers its first query, the
lexicon's graph is checked once against its length buckets
(:func:`check_consistent`): the same words, each found by the hash index,
so that a walk and a scan of the buckets answer alike; a forged file whose
graph and buckets disagree gets a :class:`FileFormatError` instead.

>>> import lexigraph
>>> lex = lexigraph.open()
>>> cells = [lex.alphabet.encode("o"), lex.alphabet.encode("xy")]  # o, then x or y
>>> lex.store.words_of_ids(pattern_ids(lex.store, lex.graph, lex.probe, cells, 2, 3))
['ox', 'oxo', 'oxy', 'oy']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import FileFormatError
from .store import Store
from .wordgraph import ACCEPTS_BIT, TARGET_SHIFT, TILE_MASK, WordGraph

if TYPE_CHECKING:  # pragma: no cover
    from .probe import Probe

#: Most blanks a rack may hold for the C walk; more favour the column scan
#: (measured on TWL06: with three blanks the walk still wins, 12 ms against 33 ms).
MAX_RACK_BLANKS = 3
_MODE_CODES = {"sub": 0, "exact": 1, "super": 2}


def _engine(probe: "Probe") -> object | None:
    return getattr(probe, "engine", None)


def check_consistent(store: Store, graph: WordGraph, probe: "Probe") -> None:
    """Raise :class:`FileFormatError` unless the graph spells exactly the buckets' words (checked once, in C)."""

    def check() -> bool:
        engine = _engine(probe)
        if engine is None:
            return True
        found = engine.walk_pattern(graph.buffer, graph.root, len(store.alphabet), b"", 1, 255, True, -1)  # type: ignore[attr-defined]
        if found == -1:
            raise graph.outside()
        ids = np.frombuffer(found, "<i8")
        same = len(ids) == store.word_count and bool((np.sort(ids) == np.arange(store.word_count)).all())
        if same:  # checked: the C probe may now answer prefix listings on its own (Lexicon.words)
            engine.attach_graph(graph.offset, graph.size, graph.root, len(store.alphabet))  # type: ignore[attr-defined]
        return same

    if not store.cached(("walk", "consistent"), check):
        raise FileFormatError(f"{store.name}: the word graph and the length buckets hold different words")


# -- racks ------------------------------------------------------------------------


def rack_ids(store: Store, graph: WordGraph, probe: "Probe", codes: bytes, blanks: int, *, mode: str,
             through: bytes, min_length: int, max_length: int) -> np.ndarray:
    """Ids of the words a rack makes, in alphabetical order; see :func:`lexigraph.query.anagram.find_ids`.

    ``codes`` are the rack's tiles, ``blanks`` its blanks, ``through`` tiles
    every word must use; ``mode`` is ``sub``, ``exact`` or ``super``.
    """
    engine = _engine(probe)
    if engine is not None:
        found = _c_rack_walk(store, graph, probe, engine, codes, blanks, mode, through, min_length, max_length, True)
        return np.frombuffer(found, "<i8").astype(np.int64)
    words = rack_words_python(graph, np.frombuffer(tile_counts(codes), np.uint8),
                              np.frombuffer(tile_counts(through), np.uint8), blanks, min_length, max_length, mode)
    return _ids_of(probe, words)


def _c_rack_walk(store: Store, graph: WordGraph, probe: "Probe", engine: Any, codes: bytes, blanks: int, mode: str,
                 through: bytes, min_length: int, max_length: int, want_ids: bool) -> bytes:
    """The C rack walk's output (int64 ids, or each word's codes and a 0 byte), the graph checked first."""
    check_consistent(store, graph, probe)
    found = engine.walk_rack(graph.buffer, graph.root, len(store.alphabet), tile_counts(codes), tile_counts(through),
                             blanks, min_length, max_length, _MODE_CODES[mode], want_ids)
    if found == -1:
        raise graph.outside()
    return found  # type: ignore[no-any-return]


def tile_counts(codes: bytes) -> bytes:
    """How many of each tile code ``codes`` holds, as 256 bytes (capped at 255).

    >>> tile_counts(b"\\x01\\x01\\x03")[:4]
    b'\\x00\\x02\\x00\\x01'
    """
    counts = bytearray(256)
    for c in codes:
        if counts[c] < 255:
            counts[c] += 1
    return bytes(counts)


def rack_words(store: Store, graph: WordGraph, probe: "Probe", codes: bytes, blanks: int, *, mode: str,
               through: bytes, min_length: int, max_length: int) -> list[str]:
    """The words :func:`rack_ids` finds, alphabetically, decoded straight from the C walk (no ids)."""
    engine = _engine(probe)
    if engine is None:
        return store.words_of_ids(rack_ids(store, graph, probe, codes, blanks, mode=mode, through=through,
                                           min_length=min_length, max_length=max_length))
    return _decode_walk(store, _c_rack_walk(store, graph, probe, engine, codes, blanks, mode, through, min_length,
                                            max_length, False))


def _decode_walk(store: Store, found: bytes) -> list[str]:
    """Words from a walk's output: each word's tile codes followed by a 0 byte."""
    if not found:
        return []
    table = store.cached(("walk", "decode"), lambda: {
        0: "\n", **{i + 1: label for i, label in enumerate(store.alphabet.labels)}
    })
    return found.decode("latin-1").translate(table).split("\n")[:-1]


def _ids_of(probe: "Probe", words: list[bytes]) -> np.ndarray:
    ids = [probe.id_of_codes(w) for w in words]
    return np.array([i for i in ids if i >= 0], np.int64)


def rack_words_python(graph: WordGraph, rack: np.ndarray, through: np.ndarray, blanks: int, min_length: int,
                      max_length: int, mode: str) -> list[bytes]:
    """The Python twin of the C rack walk: the tile codes of every word that fits, depth first.

    >>> import lexigraph
    >>> lex = lexigraph.open()
    >>> rack = np.bincount(np.frombuffer(lex.alphabet.encode("top"), np.uint8), minlength=256)
    >>> [lex.alphabet.decode(w) for w in rack_words_python(lex.graph, rack, np.zeros(256, int), 0, 2, 3, "sub")]
    ['op', 'opt', 'pot', 'to', 'top']
    """
    supply = [int(r) + int(t) for r, t in zip(rack.tolist(), through.tolist())]
    need = through.tolist() if mode != "super" else supply
    used = [0] * 256
    state = {"blanks": blanks, "missing": sum(need)}
    out: list[bytes] = []
    path: list[int] = []
    limit = min(max_length, 255)

    def visit(node: int) -> None:
        depth = len(path)
        if depth >= limit or not node:
            return
        for rec in graph.reachable_records(node):
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

    visit(graph.root)
    return out


# -- patterns and prefixes --------------------------------------------------------


def masks_of(cells: Sequence[bytes]) -> bytes:
    """Per-position 256-bit sets of tile codes, as the C walk takes them."""
    out = bytearray(32 * len(cells))
    for i, cell in enumerate(cells):
        for code in cell:
            out[32 * i + (code >> 3)] |= 1 << (code & 7)
    return bytes(out)


def pattern_ids(store: Store, graph: WordGraph, probe: "Probe", cells: Sequence[bytes], min_length: int,
                max_length: int, limit: int = -1) -> np.ndarray:
    """Ids of the words of ``min_length .. max_length`` tiles whose first tiles fit ``cells``, alphabetically.

    ``cells[i]`` holds the codes position ``i`` allows; later positions allow
    any tile. ``limit`` stops after that many words (-1: all).
    """
    engine = _engine(probe)
    if engine is not None:
        found = _c_pattern_walk(store, graph, probe, engine, cells, min_length, max_length, limit, True)
        ids = np.frombuffer(found, "<i8").astype(np.int64)
        return ids[ids >= 0]
    return _ids_of(probe, pattern_words_python(graph, cells, min_length, max_length, limit))


def pattern_words(store: Store, graph: WordGraph, probe: "Probe", cells: Sequence[bytes], min_length: int,
                  max_length: int, limit: int = -1) -> list[str]:
    """The words :func:`pattern_ids` finds, decoded straight from the walk (no ids, no sort).

    Every word of a range of lengths (no cells: a rack of blanks, a listing)
    is kept once decoded, and later answers are copies of it.
    """
    engine = _engine(probe)
    if engine is None:
        return store.words_of_ids(pattern_ids(store, graph, probe, cells, min_length, max_length, limit))
    if not cells and limit < 0:
        every = store.cached(("walk", "all", min_length, max_length),
                             lambda: tuple(_walk_words(store, graph, probe, engine, cells, min_length, max_length, -1)))
        return list(every)
    return _walk_words(store, graph, probe, engine, cells, min_length, max_length, limit)


def _walk_words(store: Store, graph: WordGraph, probe: "Probe", engine: Any, cells: Sequence[bytes],
                min_length: int, max_length: int, limit: int) -> list[str]:
    return _decode_walk(store, _c_pattern_walk(store, graph, probe, engine, cells, min_length, max_length, limit,
                                               False))


def _c_pattern_walk(store: Store, graph: WordGraph, probe: "Probe", engine: Any, cells: Sequence[bytes],
                    min_length: int, max_length: int, limit: int, want_ids: bool) -> bytes:
    """The C pattern walk's output (int64 ids, or each word's codes and a 0 byte), the graph checked first."""
    check_consistent(store, graph, probe)
    found = engine.walk_pattern(graph.buffer, graph.root, len(store.alphabet), masks_of(cells),
                                min_length, max_length, want_ids, limit)
    if found == -1:
        raise graph.outside()
    return found  # type: ignore[no-any-return]


def pattern_words_python(graph: WordGraph, cells: Sequence[bytes], min_length: int, max_length: int,
                         limit: int = -1) -> list[bytes]:
    """The Python twin of the C pattern walk: tile codes of the words found, depth first.

    >>> import lexigraph
    >>> lex = lexigraph.open()
    >>> [lex.alphabet.decode(w) for w in pattern_words_python(lex.graph, [lex.alphabet.encode("o")], 2, 2)]
    ['od', 'oe', 'of', 'oh', 'om', 'on', 'op', 'or', 'os', 'ow', 'ox', 'oy']
    """
    allowed = [frozenset(c) for c in cells]
    out: list[bytes] = []
    path: list[int] = []
    top = min(max_length, 255)

    def visit(node: int) -> None:
        depth = len(path)
        if depth >= top or not node:
            return
        ok = allowed[depth] if depth < len(allowed) else None
        for rec in graph.reachable_records(node):
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

    visit(graph.root)
    return out
