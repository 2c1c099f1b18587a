"""Listing words: every word with a prefix, in alphabetical (tile) order.

Each length bucket is sorted, so a prefix is a range of rows in every
bucket (two binary searches); the ranges are merged into one alphabetical
list by sorting their ids.

>>> import lexigraph
>>> lex = lexigraph.open()
>>> words_with_prefix(lex.store, lex.graph, "zyz")
['zyzzyva', 'zyzzyvas']
"""

from __future__ import annotations

from collections.abc import Iterator

from .store import Store
from .wordgraph import WordGraph


def words_with_prefix(store: Store, graph: WordGraph, prefix: str, length: int | None = None) -> list[str]:
    """Words starting with ``prefix`` (of ``length`` tiles when given), alphabetically."""
    key = store.alphabet.encode(prefix)
    if key is None:
        return []
    if key and graph.walk(key) is None:
        return []  # nothing starts with it: no bucket is touched
    return store.words_of_ids(store.sort_ids(store.ids_with_prefix(key, length)))


def iter_words(store: Store) -> Iterator[str]:
    """All words in alphabetical order, one first tile at a time (bounded memory)."""
    for code in range(1, len(store.alphabet) + 1):
        yield from store.words_of_ids(store.sort_ids(store.ids_with_prefix(bytes([code]))))
