"""Hasbro's WORDLIST.DAW (formats/daw.py): hand-built and hostile files, the a-z export, stats and diff on a .daw."""

from __future__ import annotations

import json
import struct
import time

import pytest

import lexigraph
from lexigraph.formats.export import to_bytes


def daw(entries):
    """entries: (letter or '', ends_word, last, child); entry 0 is added here"""
    out = [0]
    for ch, end, last, child in entries:
        out.append((ord(ch) if ch else 0) | (end << 8) | (last << 9) | (child << 10))
    return b"".join(struct.pack(">I", e) for e in out)


# "at", "ate", "be" as .daw; the root list (A, B: fewer than 26 letters) is last.
HAND_DAW = daw([
    ("T", 1, 1, 2),   # 1: A -> T (at is a word), T -> list at 2
    ("E", 1, 1, 0),   # 2: E (ate / be end here)
    ("A", 0, 0, 1),   # 3: root A -> 1
    ("B", 0, 1, 2),   # 4: root B -> 2 (last)
])


def test_hand_built_daw(tmp_path):
    path = tmp_path / "t.daw"
    path.write_bytes(HAND_DAW)
    lex = lexigraph.load(path)
    assert list(lex) == ["at", "ate", "be"]
    assert lex.info["source_format"] == "daw"


HOSTILE = {
    "zero bytes": b"",
    "cycle": daw([("A", 1, 1, 1)]),
    "past end": daw([("A", 1, 1, 500)]),
    "bad letter": daw([("A", 1, 0, 0), ("\x07", 1, 1, 0)]),
    "no root end": b"\0\0\0\0" + struct.pack(">I", ord("A")),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_daw_files(tmp_path, name):
    path = tmp_path / "hostile.bin"
    path.write_bytes(HOSTILE[name])
    start = time.perf_counter()
    with pytest.raises(lexigraph.LexiconError):
        lexigraph.load(path, format="daw")
    with pytest.raises(lexigraph.LexiconError):
        lexigraph.load(path)
    assert time.perf_counter() - start < 5


def test_daw_export_is_lower_case_a_to_z_only(tmp_path):
    lex = lexigraph.load(["año", "niño"], alphabet="spanish")
    with pytest.raises(lexigraph.LexiconError, match="only the letters a-z"):
        to_bytes(lex, "daw")
    with pytest.raises(lexigraph.LexiconError, match="only the letters a-z"):
        to_bytes(lexigraph.load(["chico"], alphabet="spanish"), "daw")
    data = to_bytes(lexigraph.load(["cat", "dog"]), "daw")
    letters = {e & 0xFF for e in struct.unpack(f">{len(data) // 4}I", data)} - {0}
    assert letters and all(ord("a") <= b <= ord("z") for b in letters)


def test_stats_and_diff(tmp_path, capsys):
    from lexigraph.cli.main import main

    a = tmp_path / "a.txt"
    b = tmp_path / "b.daw"
    a.write_text("cat\ndog\nemu\nmoose\n")
    b.write_bytes(to_bytes(lexigraph.load(["dog", "emu", "goose", "moose", "ox"]), "daw"))
    assert main(["stats", str(b), "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["word_count"] == 5
    d = lexigraph.load(a).diff(lexigraph.load(b))
    assert d.only_a == ["cat"] and d.only_b == ["goose", "ox"] and d.both == 3
    assert d.counts == {2: (0, 1), 3: (3, 2), 5: (1, 2)}
    assert main(["diff", str(a), str(b), "--only-b"]) == 1  # they differ
    assert capsys.readouterr().out.split() == ["goose", "ox"]
    assert main(["diff", str(a), str(b)]) == 1
    text = capsys.readouterr().out
    assert "only in A: 1" in text and "only in B: 2" in text and "in both: 3" in text
