"""Word attributes as NumPy columns of the length buckets, for study queries.

Every column is computed once per length bucket, for all of its words in a
few array passes, and kept in the store's cache: alphagrams (each row's tiles
sorted), the number of anagrams, vowel and distinct-tile counts (the
columns of the tile set, draw combinations, probability ranks and point
values, are in :mod:`lexigraph.study.probability`). Batch membership of many
candidate rows (a word plus a hook tile, a prefix plus a word) is a binary
search of the sorted bucket, one ``np.searchsorted`` call for all of them.

>>> import lexigraph
>>> lex = lexigraph.load(["care", "race", "acre", "cares", "scare"])
>>> store = lex.store
>>> alphagram_rows(store, 4).tolist()[0]  # 'acre' -> a c e r, as codes
[1, 2, 3, 4]
>>> anagram_counts(store, 4).tolist()
[3, 3, 3]
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.store import Store


def first_id(store: "Store", length: int) -> int:
    """The id of the first word of ``length`` tiles (0 when there are none)."""
    b = store.bucket(length)
    return 0 if b is None else b.first


def keys(rows: np.ndarray) -> np.ndarray:
    """Rows of tile codes as fixed-width byte strings (one per row), for sorting and search."""
    rows = np.ascontiguousarray(rows, np.uint8)
    width = rows.shape[1]
    if width == 0:
        return np.zeros(len(rows), "S1")
    return rows.view(f"S{width}").ravel()


@dataclass(frozen=True)
class SortedKeys:
    """Sort keys of rows of ``width`` tiles, searchable by whole rows or by prefixes.

    Rows pack into one ``uint64`` each (``bits`` per tile, first tile
    highest) when ``bits * width <= 64``, which keeps tile order and makes
    a binary search several times faster than on byte strings; longer rows
    stay byte strings (``bits == 0``).
    """

    keys: np.ndarray
    width: int
    bits: int

    @classmethod
    def of(cls, rows: np.ndarray, n_tiles: int) -> "SortedKeys":
        """Keys of ``rows`` (sorted by tiles already)."""
        width = rows.shape[1]
        bits = max(1, n_tiles.bit_length())
        if 0 < width and bits * width <= 64:
            return cls(_pack(rows, bits), width, bits)
        return cls(keys(rows), width, 0)

    def encode(self, rows: np.ndarray) -> np.ndarray:
        return _pack(rows, self.bits) if self.bits else keys(rows)

    def contains(self, rows: np.ndarray) -> np.ndarray:
        """Whether each row (``width`` tiles) is one of the keys."""
        if not len(self.keys) or not len(rows):
            return np.zeros(len(rows), bool)
        return self.contains_keys(self.encode(rows))

    def contains_keys(self, q: np.ndarray) -> np.ndarray:
        """Whether each key (encoded as these keys are) is one of the keys."""
        if not len(self.keys) or not len(q):
            return np.zeros(len(q), bool)
        at = np.searchsorted(self.keys, q)
        np.minimum(at, len(self.keys) - 1, out=at)
        found: np.ndarray = self.keys[at] == q
        return found

    def ranges(self, prefixes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each row of ``prefixes`` (m, k < width), the range of keys that start with it."""
        m, k = prefixes.shape
        if self.bits:
            shift = self.bits * (self.width - k)
            base = _pack(prefixes, self.bits) if k else np.zeros(m, np.uint64)
            lo_key = base << np.uint64(shift) if shift < 64 else np.zeros(m, np.uint64)
            span = np.uint64((1 << shift) - 1) if shift < 64 else np.uint64(2**64 - 1)
            hi_key = lo_key | span
        else:
            high = np.full((m, k + 1), 255, np.uint8)
            high[:, :k] = prefixes
            lo_key, hi_key = keys(prefixes), keys(high)
        return np.searchsorted(self.keys, lo_key, "left"), np.searchsorted(self.keys, hi_key, "right")


def _pack(rows: np.ndarray, bits: int) -> np.ndarray:
    out = np.zeros(len(rows), np.uint64)
    shift = np.uint64(bits)
    for j in range(rows.shape[1]):
        out <<= shift
        out |= rows[:, j]
    return out


def bucket_keys(store: "Store", length: int) -> SortedKeys:
    """The sort keys of the bucket of ``length`` (cached)."""
    return store.cached(("study", "keys", length), lambda: SortedKeys.of(store.rows(length), len(store.alphabet)))


def contains_rows(store: "Store", candidates: np.ndarray) -> np.ndarray:
    """For each row of ``candidates`` (m, n) uint8, whether it is a word of ``n`` tiles.

    One binary search of the sorted bucket for all rows (codes are never 0,
    so key order is tile order).
    """
    m, n = candidates.shape
    if m == 0 or n == 0 or n not in store.lengths:
        return np.zeros(m, bool)
    return bucket_keys(store, n).contains(np.ascontiguousarray(candidates, np.uint8))


def alphagram_rows(store: "Store", length: int) -> np.ndarray:
    """Each word's tiles sorted by code: its alphagram, a (count, length) array."""
    return store.cached(("study", "alpha", length), lambda: np.sort(store.rows(length), axis=1))


def alphagram_groups(store: "Store", length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(group of each word, words per group, group keys sorted): words sharing an alphagram share a group."""

    def build() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        ks = keys(alphagram_rows(store, length))
        uniq, inverse, counts = np.unique(ks, return_inverse=True, return_counts=True)
        return inverse.ravel().astype(np.int64), counts.astype(np.int64), uniq

    return store.cached(("study", "groups", length), build)


def anagram_counts(store: "Store", length: int) -> np.ndarray:
    """How many words of the lexicon share each word's alphagram (the word included)."""

    def build() -> np.ndarray:
        inverse, counts, _ = alphagram_groups(store, length)
        out: np.ndarray = counts[inverse]
        return out

    return store.cached(("study", "anagrams", length), build)


def lut(codes: Iterable[int] | np.ndarray, size: int = 256, dtype: "type | np.dtype" = bool) -> np.ndarray:
    """A lookup table over tile codes: True (or the given values) at ``codes``."""
    table = np.zeros(size, dtype)
    table[np.asarray(list(codes), np.int64)] = True
    return table


def vowel_counts(store: "Store", length: int) -> np.ndarray:
    """Vowel tiles per word."""
    table = lut(store.alphabet.vowel_codes, dtype=np.uint8)
    return store.cached(("study", "vowels", length), lambda: table[store.rows(length)].sum(1, dtype=np.int64))


def distinct_counts(store: "Store", length: int) -> np.ndarray:
    """Distinct tiles per word."""

    def build() -> np.ndarray:
        alpha = alphagram_rows(store, length)
        if length == 0 or not len(alpha):
            return np.zeros(len(alpha), np.int64)
        out: np.ndarray = 1 + (np.diff(alpha, axis=1) != 0).sum(1, dtype=np.int64)
        return out

    return store.cached(("study", "distinct", length), build)


def occurrences_per_row(rows: np.ndarray, code: int) -> np.ndarray:
    """How many times tile ``code`` occurs in each row."""
    out: np.ndarray = (rows == code).sum(1, dtype=np.int64)
    return out
