"""The hash tables (compiler/hash_tables.py): the C table equals the NumPy one, and finds every row."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexigraph.compiler import hash_tables
from lexigraph.compiler.kernels import BuildKernels
from lexigraph.engine.hashing import lookup_rows


@pytest.fixture
def native():
    return pytest.importorskip("lexigraph._native", reason="the C extension lexigraph._native is not built")


@given(st.integers(1, 20), st.integers(1, 4), st.data())
def test_c_hash_table_equals_numpy(length: int, k: int, data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 300))
    codes = data.draw(st.lists(st.binary(min_size=length, max_size=length), min_size=n, max_size=n, unique=True))
    rows = np.frombuffer(b"".join(codes), np.uint8).reshape(n, length) % (k * 8) + 1
    c_table, c_size = BuildKernels.choose().hash_table(rows)
    np_table, np_size = hash_tables.build_table_numpy(rows)
    assert c_size == np_size and c_table.dtype == np_table.dtype
    assert c_table.tolist() == np_table.tolist()
    # every row is found where the lookup probes for it
    assert lookup_rows(c_table, c_size, rows, rows).all()


def test_hash_table_bad_input(native) -> None:
    with pytest.raises(ValueError):
        native.hash_table(b"\x01\x02\x03", 2, 2, 10)  # not count x length bytes
    with pytest.raises(ValueError):
        native.hash_table(b"", 0, 0, 10)
    with pytest.raises(ValueError):
        native.hash_table(b"\x01", 1, 1, 0)
    with pytest.raises(ValueError):
        native.hash_table(b"\x01", 1, 1, 1 << 40)  # an absurd size is refused, not allocated
    assert native.hash_table(b"", 0, 3, 2) == bytes(12)
