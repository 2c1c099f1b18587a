"""Listing words: every word with a prefix, in alphabetical (tile) order.

Where the engine's walks pay (:attr:`~lexigraph.engine.interface.Engine.pattern_walk_pays`,
the C engine), a walk of the word graph below the prefix lists the words
already in order. Otherwise each length bucket is sorted, so a prefix is a
range of rows in every bucket (two binary searches), and the ranges are
merged into one alphabetical list by sorting their ids.

>>> import lexigraph
>>> lex = lexigraph.open()
>>> words_with_prefix(lex.store, lex.graph, lex.engine, "zyz")
['zyzzyva', 'zyzzyvas']
"""

from __future__ import annotations

from collections.abc import Iterator

from ..engine.deadline import check
from ..engine.interface import Engine
from ..engine.store import Store
from ..engine.wordgraph import WordGraph


def words_with_prefix(store: Store, graph: WordGraph, engine: Engine, prefix: str,
                      length: int | None = None, *, deadline: float | None = None) -> list[str]:
    """Words starting with ``prefix`` (of ``length`` tiles when given), alphabetically; stopped at ``deadline``."""
    key = store.alphabet.encode(prefix)
    if key is None or (length is not None and not len(key) <= length <= max(store.lengths, default=0)):
        return []  # no word is that short or that long
    if engine.pattern_walk_pays:  # the graph is checked: it may be walked
        if key and graph.follow(key) is None:
            return []  # nothing starts with it: one step of the walk says so
        low, high = (length, length) if length is not None else (max(len(key), 1), 255)
        return engine.pattern_words([bytes([c]) for c in key], low, high, deadline=deadline)
    ids = store.ids_with_prefix(key, length)
    check(deadline)
    ids = store.sort_ids(ids)
    check(deadline)
    return store.words_of_ids(ids)


def iter_words(store: Store, engine: Engine) -> Iterator[str]:
    """All words in alphabetical order, one first tile at a time (bounded memory)."""
    for code in range(1, len(store.alphabet) + 1):
        if engine.pattern_walk_pays:
            yield from engine.pattern_words([bytes([code])], 1, 255)
        else:
            yield from store.words_of_ids(store.sort_ids(store.ids_with_prefix(bytes([code]))))
