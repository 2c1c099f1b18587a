"""Batch membership in NumPy: millions of words encoded together and looked up in a few array passes.

The twin of the C batch check (``native/batch.c``), which probes eight words
at a time. Words that are not strings, or do not split into tiles, are no
words.

>>> import lexigraph
>>> lex = lexigraph.open(pure_python=True)
>>> check_arrays(lex.store, ["cat", "tac", "act", 3]).tolist()
[True, False, True, False]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..hashing import lookup_rows
from ..store import Store


def _codes_fast(store: Store, words: list[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """All words' codes back to back, via one join and one table lookup (ASCII alphabets)."""
    table = store.alphabet.byte_table
    if table is None:
        return None
    try:
        blob = "\n".join(words)
    except TypeError:
        return None  # not all strings
    if blob.count("\n") != len(words) - 1:
        return None  # a word holds a newline itself
    if store.alphabet.fold and not blob.isascii():
        return None  # folding may turn non-ASCII words into words
    data = np.frombuffer(blob.encode("ascii", "replace"), np.uint8)
    breaks = np.flatnonzero(data == 10)
    starts = np.concatenate([[0], breaks + 1])
    ends = np.concatenate([breaks, [len(data)]])
    codes = np.frombuffer(table, np.uint8)[data]
    return codes, starts, ends - starts


def _codes_slow(store: Store, words: list[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    encode = store.alphabet.encode
    keys = [encode(w) if isinstance(w, str) else None for w in words]
    lens = np.fromiter((-1 if k is None else len(k) for k in keys), np.int64, len(keys))
    flat = np.frombuffer(b"".join(k for k in keys if k is not None), np.uint8)
    safe = np.maximum(lens, 0)
    starts = np.cumsum(safe) - safe
    return flat, starts, lens


def check_arrays(store: Store, words: list[object]) -> np.ndarray:
    """One boolean per word: is it a word of the store?"""
    n = len(words)
    found = np.zeros(n, bool)
    if not n:
        return found
    fast = _codes_fast(store, words)
    codes, starts, lens = fast if fast is not None else _codes_slow(store, words)
    for bucket in store.buckets:
        length = bucket.length
        sel = np.flatnonzero(lens == length)
        if not len(sel):
            continue
        rows = codes[starts[sel][:, None] + np.arange(length)]
        ok = rows.all(axis=1)
        sel, rows = sel[ok], rows[ok]
        # Raw rows: an exact lookup compares bytes, as the C probe does, whatever codes a file holds.
        found[sel] = lookup_rows(store.hash_slots(length), bucket.hash.home, store.raw_rows(length), rows)
    return found
