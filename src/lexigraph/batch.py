"""Batch membership: millions of words checked with a handful of array passes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from .hashindex import lookup_rows

if TYPE_CHECKING:  # pragma: no cover
    from .lexicon import Lexicon


def _codes_fast(lex: "Lexicon", words: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """All words' codes back to back, via one join and one table lookup (ASCII alphabets)."""
    table = lex.alphabet.byte_table
    if table is None:
        return None
    try:
        blob = "\n".join(words)
    except TypeError:
        return None  # not all strings
    if blob.count("\n") != len(words) - 1:
        return None  # a word holds a newline itself
    if lex.alphabet.fold and not blob.isascii():
        return None  # folding may turn non-ASCII words into words
    data = np.frombuffer(blob.encode("ascii", "replace"), np.uint8)
    breaks = np.flatnonzero(data == 10)
    starts = np.concatenate([[0], breaks + 1])
    ends = np.concatenate([breaks, [len(data)]])
    codes = np.frombuffer(table, np.uint8)[data]
    return codes, starts, ends - starts


def _codes_slow(lex: "Lexicon", words: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    encode = lex.alphabet.encode
    keys = [encode(w) if isinstance(w, str) else None for w in words]
    lens = np.fromiter((-1 if k is None else len(k) for k in keys), np.int64, len(keys))
    flat = np.frombuffer(b"".join(k for k in keys if k is not None), np.uint8)
    safe = np.maximum(lens, 0)
    starts = np.cumsum(safe) - safe
    return flat, starts, lens


def check_many(lex: "Lexicon", words: Iterable[str]) -> np.ndarray:
    """One boolean per word: is it in ``lex``?"""
    if isinstance(words, np.ndarray):
        words = words.tolist()
    elif not isinstance(words, list):
        words = list(words)
    n = len(words)
    # Without the C extension, array passes; with it, C probes (see docs/performance.md).
    others = _check_arrays if lex._keys is None else _check_by_keys
    probe_many = getattr(lex, "_probe_many", None)
    if probe_many is not None and n:
        # The C batch path answers ASCII strings; 2 marks what it leaves to Python.
        verdict = np.empty(n, np.uint8)
        if probe_many(words, verdict):
            rest = np.flatnonzero(verdict == 2)
            verdict[rest] = others(lex, [words[i] for i in rest.tolist()])
        return verdict.view(bool)
    return others(lex, words)


def _check_by_keys(lex: "Lexicon", words: list[str]) -> np.ndarray:
    """Word by word through ``in``: Python encodes, C probes (any alphabet)."""
    return np.fromiter(map(lex.__contains__, words), bool, len(words))


def _check_arrays(lex: "Lexicon", words: list[str]) -> np.ndarray:
    n = len(words)
    found = np.zeros(n, bool)
    if not n:
        return found
    fast = _codes_fast(lex, words)
    if fast is None:
        codes, starts, lens = _codes_slow(lex, words)
    else:
        codes, starts, lens = fast
    for length in lex._buckets:
        sel = np.flatnonzero(lens == length)
        if not len(sel):
            continue
        rows = codes[starts[sel][:, None] + np.arange(length)]
        ok = rows.all(axis=1)
        sel, rows = sel[ok], rows[ok]
        table, home = lex._hash_table(length)
        found[sel] = lookup_rows(table, home, lex._rows(length), rows)
    return found
