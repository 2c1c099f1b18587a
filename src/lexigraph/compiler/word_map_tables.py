"""One length's word map tables in NumPy: the twin of ``native/wordmap_build.c`` (the same bytes).

Given the length's words as sorted codes in alphagram order, the words
table keys each distinct multiset by its rank (:func:`.wordmap_layout.rank_of`
in :mod:`lexigraph.engine`) with its first row and row count; the one-blank
table keys each multiset of L - 1 codes that one more letter makes a word
multiset, with the mask of those letters; the two-blank table keys each
multiset of L - 2 codes, with the mask of the smaller of the two letters
that complete it. Each table is hashed into a power-of-two bucket directory
(:func:`~lexigraph.engine.wordmap_layout.bucket_of`), records sorted by bucket
then key.

>>> rows = np.array([[1, 14, 20], [1, 14, 20], [1, 20, 20]], np.uint8)   # ant, tan, att as sorted codes
>>> [len(records) // 16 for _, records, _ in word_map_tables_numpy(rows, 26, 2)]
[2, 4, 3]
"""

from __future__ import annotations

import numpy as np

from ..engine.wordmap_layout import MULTIPLIER, RECORD, rank_table, table_size

_RECORD_DTYPE = np.dtype([("key", "<u8"), ("lo", "<u4"), ("hi", "<u4")])
assert _RECORD_DTYPE.itemsize == RECORD.size


def _ranks(sorted_rows: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The rank of every row of sorted codes (``table`` from :func:`rank_table`)."""
    out = np.zeros(len(sorted_rows), np.uint64)
    for i in range(sorted_rows.shape[1]):
        out += table[i][sorted_rows[:, i]]
    return out


def _rank_array(highest_code: int, length: int) -> np.ndarray:
    return np.array(rank_table(highest_code, max(length, 1)), dtype=np.uint64).reshape(max(length, 1), -1)


def _hash_table(keys: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[bytes, bytes, int]:
    """Distinct keys and their values as a bucket directory and records; and log2 of the buckets."""
    n = len(keys)
    size = table_size(n)
    log2 = size.bit_length() - 1
    buckets = ((keys * np.uint64(MULTIPLIER)) >> np.uint64(64 - log2)).astype(np.int64)
    order = np.lexsort((keys, buckets))  # by bucket, keys ascending within one (a probe stops past its key)
    starts = np.searchsorted(buckets[order], np.arange(size + 1)).astype("<u4")
    records = np.zeros(n, _RECORD_DTYPE)
    records["key"], records["lo"], records["hi"] = keys[order], lo[order], hi[order]
    return starts.tobytes(), records.tobytes(), log2


def _mask_table(keys: np.ndarray, bits: np.ndarray) -> tuple[bytes, bytes, int]:
    """Pairs (key, letter bit) merged into one record per key, the bits OR-ed into a 64-bit mask."""
    if not len(keys):
        return _hash_table(keys, keys.astype(np.uint32), keys.astype(np.uint32))
    order = np.argsort(keys, kind="stable")
    keys, bits = keys[order], bits[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    masks = np.bitwise_or.reduceat(bits, starts)
    return _hash_table(keys[starts], (masks & np.uint64(0xFFFFFFFF)).astype(np.uint32),
                       (masks >> np.uint64(32)).astype(np.uint32))


def word_map_tables_numpy(alphagrams: np.ndarray, highest_code: int, max_blanks: int) -> list[tuple[bytes, bytes, int]]:
    """One length's tables, for 0 .. ``max_blanks`` blanks: each a bucket directory, records and log2 of buckets.

    ``alphagrams`` holds the length's words as sorted codes, in alphagram
    order (``Store.alphagrams``): anagrams are runs, and the words of a
    multiset are the rows ``lo .. lo + hi`` of that order.
    """
    count, length = alphagrams.shape
    rows = np.ascontiguousarray(alphagrams, np.uint8)
    ranks = _ranks(rows, _rank_array(highest_code, length))
    firsts = np.flatnonzero(np.r_[True, ranks[1:] != ranks[:-1]]) if count else np.zeros(0, np.int64)
    sizes = np.diff(np.r_[firsts, count])
    tables = [_hash_table(ranks[firsts], firsts.astype(np.uint32), sizes.astype(np.uint32))]
    groups = rows[firsts]
    one = np.uint64(1)
    if max_blanks >= 1:
        table = _rank_array(highest_code, length - 1)
        keys = [_ranks(np.delete(groups, j, axis=1), table) for j in range(length)]
        bits = [one << groups[:, j].astype(np.uint64) for j in range(length)]
        tables.append(_mask_table(np.concatenate(keys), np.concatenate(bits)))
    if max_blanks >= 2:
        table = _rank_array(highest_code, length - 2)
        pairs = [(i, j) for i in range(length) for j in range(i + 1, length)]
        keys = [_ranks(np.delete(groups, [i, j], axis=1), table) for i, j in pairs]
        bits = [one << groups[:, i].astype(np.uint64) for i, _ in pairs]
        empty = np.zeros(0, np.uint64)
        tables.append(_mask_table(np.concatenate(keys) if keys else empty, np.concatenate(bits) if bits else empty))
    return tables
