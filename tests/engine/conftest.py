"""Helpers of the engine tests: lexicon files changed in place, with checksums that still hold.

The forged-file test runs its cases in a child process, which loads this file by path
(``FORGE``); the tests in this folder reach the same functions through the ``forge`` fixture.
"""

from __future__ import annotations

import json
import struct
import types
import zlib
from pathlib import Path
from typing import Any

import pytest

from lexigraph.engine import fileformat

#: This file, for a child process that needs its functions.
FORGE = Path(__file__)
#: The header's layout (magic, version... index offset...), as the file format writes it.
HEADER = struct.Struct("<8sHHIQQQII16x")


def reseal(data: bytearray) -> bytes:
    """Recompute both checksums of a lexicon file's bytes."""
    struct.pack_into("<I", data, 40, zlib.crc32(data[64:]))
    struct.pack_into("<I", data, 44, zlib.crc32(bytes(data[:44] + data[48:64])))
    return bytes(data)


def rewrite(data: bytes, section: str, change: Any) -> bytes:
    """Change one section of a lexicon, then fix both checksums so that it opens."""
    out = bytearray(data)
    sec = fileformat.open_bytes(data).sections[section]
    out[sec.offset : sec.offset + sec.length] = change(bytes(out[sec.offset : sec.offset + sec.length]))
    return reseal(out)


def index_of(data: bytes) -> dict[str, Any]:
    return fileformat.open_bytes(data).index


def with_index(data: bytes, index: dict[str, Any]) -> bytes:
    """The same sections under another JSON index (checksums recomputed)."""
    offset = HEADER.unpack(data[: HEADER.size])[5]
    blob = json.dumps(index, ensure_ascii=False).encode()
    out = bytearray(data[:offset] + blob)
    struct.pack_into("<QQQ", out, 16, len(out), offset, len(blob))
    return reseal(out)


@pytest.fixture(scope="session")
def forge() -> types.SimpleNamespace:
    """``forge.rewrite``, ``forge.reseal``, ``forge.with_index``, ``forge.index_of``."""
    return types.SimpleNamespace(rewrite=rewrite, reseal=reseal, with_index=with_index, index_of=index_of)
