"""The file format (engine/fileformat.py): damaged, foreign, old and lying files are refused, on both engines."""

from __future__ import annotations

import os
import random
import struct

import pytest

import lexigraph
from lexigraph import FileFormatError
from lexigraph.compiler.builder import compile_source
from lexigraph.engine import fileformat


def _corrupt(tmp_path, mutate):
    good = tmp_path / "good.lex"
    lexigraph.build(["some", "words", "here"], good)
    data = bytearray(good.read_bytes())
    bad = tmp_path / "bad.lex"
    bad.write_bytes(mutate(data))
    return bad


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d[: len(d) // 2], "truncated"),
        (lambda d: d[:30], "truncated"),
        (lambda d: d[:0], "not a lexigraph lexicon"),
        (lambda d: d + b"extra", "trailing"),
        (lambda d: d[:100] + bytes([d[100] ^ 1]) + d[101:], "corrupt"),
        (lambda d: d[:-3] + bytes([d[-3] ^ 0x40]) + d[-2:], "corrupt"),
        (lambda d: d[:20] + bytes([d[20] ^ 4]) + d[21:], "header is corrupt"),
        (lambda d: b"PK\x03\x04" + d[4:], "not a lexigraph lexicon"),
    ],
)
def test_damaged_files_are_refused(tmp_path, mutate, message):
    bad = _corrupt(tmp_path, mutate)
    with pytest.raises(FileFormatError, match=message):
        lexigraph.open(bad)


def test_other_files_and_missing_files(tmp_path):
    png = tmp_path / "picture.lex"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(200))
    with pytest.raises(FileFormatError, match="not a lexigraph"):
        lexigraph.open(png)
    with pytest.raises(FileFormatError, match="no such"):
        lexigraph.open(tmp_path / "missing.lex")
    with pytest.raises(lexigraph.LexiconError, match="directory"):
        lexigraph.open(tmp_path)


def test_random_bit_flips_never_crash(tmp_path):
    good = tmp_path / "g.lex"
    lexigraph.build(["abc", "abd", "bcd", "cde"], good)
    data = good.read_bytes()
    rng = random.Random(1)
    for _ in range(200):
        d = bytearray(data)
        i = rng.randrange(len(d))
        d[i] ^= 1 << rng.randrange(8)
        p = tmp_path / "f.lex"
        p.write_bytes(d)
        with pytest.raises(FileFormatError):
            lexigraph.open(p)


def test_a_tiny_file_claiming_a_huge_bucket_is_refused_cheaply(open_lexicon, forge):
    good, _ = compile_source(["abc", "abd"])
    idx = forge.index_of(good)
    idx["buckets"].append({"length": 10**8, "first": 2, "count": 0, "hash_home": 1})
    with pytest.raises(FileFormatError):
        open_lexicon(forge.with_index(good, idx))
    idx = forge.index_of(good)
    idx["sections"]["words.3"]["offset"] = float("inf")
    with pytest.raises(FileFormatError, match="malformed"):
        fileformat.open_bytes(forge.with_index(good, idx))


def test_version_1_files_are_refused_with_a_way_out(forge):
    good, _ = compile_source(["abc"])
    old = bytearray(good)
    struct.pack_into("<H", old, 8, 1)
    with pytest.raises(FileFormatError, match="rebuild it"):
        fileformat.open_bytes(forge.reseal(old))


def test_sections_read_back_as_written():
    """pack then open_bytes: every section's bytes, dtype and shape, and the index, as given (a round-trip oracle)."""
    import numpy as np

    sections = {"a": (b"\x01\x02\x03\x04", "u1", (2, 2)), "b": (np.arange(3, dtype="<u8").tobytes(), "<u8", (3,))}
    data = fileformat.pack({"name": "t", "x": [1, 2]}, sections)
    mapped = fileformat.open_bytes(data)
    assert mapped.index["name"] == "t" and mapped.index["x"] == [1, 2]
    for name, (blob, dtype, shape) in sections.items():
        sec = mapped.sections[name]
        assert bytes(mapped.view(name)) == blob and sec.dtype == dtype and tuple(sec.shape) == shape
