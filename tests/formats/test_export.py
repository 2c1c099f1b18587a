"""Writing a lexicon out (formats/export.py): bit-exact layouts, round trips through every format."""

from __future__ import annotations

import struct

import pytest

import lexigraph
from lexigraph.formats.export import to_bytes


def test_export_layouts_are_bit_exact_for_a_tiny_list(tmp_path):
    lex = lexigraph.load(["at", "ate", "be"])
    d = to_bytes(lex, "daw")
    entries = struct.unpack(f">{len(d) // 4}I", d)
    assert entries[0] == 0
    root = [e for e in entries[-2:]]
    assert [chr(e & 0xFF) for e in root] == ["a", "b"] and (root[-1] >> 9) & 1 and not (root[0] >> 9) & 1
    t = to_bytes(lex, "dawg32")
    recs = struct.unpack(f"<{len(t) // 4}I", t)
    assert [chr((r >> 24) & 0x7F) for r in recs[:2]] == ["a", "b"] and recs[0] >> 31 == 1 and recs[1] >> 31 == 0


@pytest.mark.parametrize("fmt", ["text", "scored", "daw", "dawg32"])
def test_every_export_round_trips(tmp_path, fmt):
    words = ["zebra;70", "zebras;10", "ab;90", "abc", "abd", "bcd", "abcdefghij", "quiz;30"]
    lex = lexigraph.load(words)
    out = tmp_path / f"x.{fmt}"
    from lexigraph.formats.export import export

    export(lex, out, fmt)
    again = lexigraph.load(out)
    assert list(again) == list(lex)
    if fmt == "scored":
        assert [again.priority(w) for w in again] == [lex.priority(w) for w in lex]


def test_twl06_round_trips_through_daw_and_dawg32(twl, tmp_path):
    for fmt in ("daw", "dawg32"):
        data = to_bytes(twl, fmt)
        path = tmp_path / f"t.{fmt}"
        path.write_bytes(data)
        again = lexigraph.load(path)
        assert again.diff(twl).same, fmt
