"""A length bucket's arrays, as the build makes them in Python: the words of one length as rows, and their
alphagram order. (Their C twins are ``native/build_tables.c``; the build chooses, :mod:`.kernels`.)"""

from __future__ import annotations

import numpy as np

from .hash_tables import slot_dtype


def alphagram_order_numpy(rows: np.ndarray) -> np.ndarray:
    """Rows of a bucket ordered by their alphagrams (tiles sorted), ties by row, as little-endian row numbers.

    >>> alphagram_order_numpy(np.array([[3, 1], [1, 2], [2, 1]], np.uint8)).tolist()
    [1, 2, 0]
    """
    count, length = rows.shape
    grams = np.ascontiguousarray(np.sort(rows, axis=1)).view(f"S{length}").ravel() if count else np.zeros(0, "S1")
    order = np.argsort(grams, kind="stable")
    return order.astype(slot_dtype(count + 1))


def bucket_rows_numpy(flat: np.ndarray, starts: np.ndarray, ids: np.ndarray, length: int) -> bytes:
    """The words ``ids`` of one length (word i: ``flat[starts[i]:starts[i] + length]``), row after row.

    >>> flat = np.array([1, 2, 3, 4, 5], np.uint8); starts = np.array([0, 1, 3])
    >>> bucket_rows_numpy(flat, starts, np.array([2, 0]), 2)
    b'\\x04\\x05\\x01\\x02'
    """
    return np.asarray(flat[starts[ids][:, None] + np.arange(length)], np.uint8).tobytes()
