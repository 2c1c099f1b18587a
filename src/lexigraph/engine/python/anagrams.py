"""Exact anagrams through the alphagram index, in NumPy (the twin of ``native/alphagram.c``).

Each length bucket's alphagram order lists its rows sorted by their tiles in
code order; the words whose tiles are exactly a multiset form one range of
it, found by binary search. With blanks, one search per multiset the blanks
may stand for (``combinations_with_replacement``): few blanks only, which is
what the planner sends here (:data:`lexigraph.query.anagram.MAX_INDEX_BLANKS`).

>>> import lexigraph
>>> lex = lexigraph.open(pure_python=True)
>>> lex.store.words_of_ids(exact_anagram_ids(lex.store, lex.alphabet.encode("opt"), 0))
['opt', 'pot', 'top']
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

from ..deadline import check
from ..store import Store, concat_ids


def exact_anagram_ids(store: Store, codes: bytes, blanks: int, *, deadline: float | None = None) -> np.ndarray:
    """Ids of the words whose tiles are exactly ``codes`` plus ``blanks`` tiles of any kind, ascending.

    The bucket's alphagram index is checked on first use (:meth:`~lexigraph.engine.store.Store.alphagrams`).
    Past ``deadline``: :class:`~lexigraph.errors.DeadlineExceeded`.
    """
    check(deadline)
    length = len(codes) + blanks
    bucket = store.bucket(length)
    if bucket is None or not bucket.count:
        return np.zeros(0, np.int64)
    keys = store.alphagrams(length).view(f"S{length}").ravel()
    base = np.frombuffer(codes, np.uint8)
    if blanks:
        fills = np.array(list(combinations_with_replacement(range(1, len(store.alphabet) + 1), blanks)), np.uint8)
        queries = np.concatenate([np.broadcast_to(base, (len(fills), len(base))), fills], axis=1)
    else:
        queries = base[None, :]
    queries = np.ascontiguousarray(np.sort(queries, axis=1)).view(f"S{length}").ravel()
    lo = np.searchsorted(keys, queries, "left")
    hi = np.searchsorted(keys, queries, "right")
    order = store.alphagram_order(length)
    rows = concat_ids(order[a:b] for a, b in zip(lo.tolist(), hi.tolist()) if b > a)
    check(deadline)
    return np.sort(rows) + bucket.first
