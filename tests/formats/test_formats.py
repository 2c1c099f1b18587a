"""Old formats: the TWL06 dawg32 table and Hasbro .daw, hand-built and hostile files, export round-trips."""

from __future__ import annotations

import json
import struct
import time

import pytest

import lexigraph
from lexigraph import SourceError
from lexigraph.formats.export import to_bytes

TWL_COUNTS = {2: 101, 3: 1015, 4: 4030, 5: 8938, 6: 15788, 7: 24029, 8: 29766, 9: 29150, 10: 22326,
              11: 16165, 12: 11417, 13: 7750, 14: 5059, 15: 3157}


def dawg32(records):
    """records: (more, letter, link)"""
    return b"".join(struct.pack("<I", (more << 31) | (ord(ch) << 24) | link) for more, ch, link in records)


def daw(entries):
    """entries: (letter or '', ends_word, last, child); entry 0 is added here"""
    out = [0]
    for ch, end, last, child in entries:
        out.append((ord(ch) if ch else 0) | (end << 8) | (last << 9) | (child << 10))
    return b"".join(struct.pack(">I", e) for e in out)


# "at", "ate", "be": root list a, b
HAND_DAWG32 = dawg32([
    (1, "a", 2), (0, "b", 5),            # 0-1 root
    (0, "t", 3),                          # 2 a -> t
    (1, "$", 0), (0, "e", 6),             # 3-4 at: word, -> e
    (0, "e", 6),                          # 5 b -> e
    (0, "$", 0),                          # 6 word end
])
# Same words as .daw; the root list (A, B: fewer than 26 letters) is last.
HAND_DAW = daw([
    ("T", 1, 1, 2),   # 1: A -> T (at is a word), T -> list at 2
    ("E", 1, 1, 0),   # 2: E (ate / be end here)
    ("A", 0, 0, 1),   # 3: root A -> 1
    ("B", 0, 1, 2),   # 4: root B -> 2 (last)
])


def test_hand_built_dawg32_and_daw(tmp_path):
    for name, data in (("t.dawg32", HAND_DAWG32), ("t.daw", HAND_DAW)):
        path = tmp_path / name
        path.write_bytes(data)
        lex = lexigraph.load(path)
        assert list(lex) == ["at", "ate", "be"], name
        assert lex.info["source_format"] == name.split(".")[1]


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


def test_twl06_table_gives_the_text_list(shared, twl_words):
    table = shared("twl06.dawg32")
    lex = lexigraph.load(table)
    assert lex.info["source_format"] == "dawg32"
    assert list(lex) == sorted(twl_words)
    assert lex.count_by_length() == TWL_COUNTS


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


HOSTILE = {
    "zero bytes": b"",
    "truncated record": HAND_DAWG32 + b"\x01\x02",
    "index past the end": dawg32([(0, "a", 99)]),
    "cycle": dawg32([(0, "a", 1), (1, "b", 1), (0, "$", 0)]),
    "never ends": dawg32([(1, "a", 0), (1, "b", 0)]),
    "letter outside": dawg32([(0, "a", 1), (0, "3", 0)]),
    "daw cycle": daw([("A", 1, 1, 1)]),
    "daw past end": daw([("A", 1, 1, 500)]),
    "daw bad letter": daw([("A", 1, 0, 0), ("\x07", 1, 1, 0)]),
    "daw no root end": b"\0\0\0\0" + struct.pack(">I", ord("A")),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_graph_files(tmp_path, name):
    path = tmp_path / "hostile.bin"
    path.write_bytes(HOSTILE[name])
    fmt = "daw" if name.startswith("daw") else "dawg32"
    start = time.perf_counter()
    with pytest.raises(lexigraph.LexiconError):
        lexigraph.load(path, format=fmt)
    with pytest.raises(lexigraph.LexiconError):
        lexigraph.load(path)
    assert time.perf_counter() - start < 5


def test_exponential_graph_is_refused(tmp_path):
    # 26 letters, each pointing at the next level's list: 26**40 words
    records = []
    for level in range(40):
        nxt = (level + 1) * 26 if level < 39 else 0
        for k in range(26):
            records.append((1 if k < 25 else 0, chr(ord("a") + k), nxt))
    records.append((0, "$", 0))
    path = tmp_path / "bomb.dawg32"
    path.write_bytes(dawg32(records))
    with pytest.raises(SourceError, match="refusing|cycle"):
        lexigraph.load(path, format="dawg32")


def word_bomb() -> bytes:
    """196 bytes: 24 levels of two letters each, every path a word: 2**24 words, 33.5 million arcs."""
    records = []
    for level in range(24):
        nxt = (level + 1) * 2
        records += [(1, "a", nxt), (0, "b", nxt)]
    records.append((0, "$", 0))
    return dawg32(records)


def test_word_bomb_stops_in_bounded_memory(tmp_path):
    import tracemalloc

    from lexigraph.compiler.graph_builder import MAX_EXPANDED_ARCS

    path = tmp_path / "bomb.dawg32"
    path.write_bytes(word_bomb())
    assert path.stat().st_size == 196 and MAX_EXPANDED_ARCS < 2**25 - 2  # the bomb's arcs are over the limit
    tracemalloc.start()
    try:
        with pytest.raises(SourceError, match="refusing to expand"):
            lexigraph.load(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 512 << 20  # far below the 2 GiB the whole read would have taken


def test_a_small_bomb_under_the_limit_is_read(tmp_path, monkeypatch):
    import lexigraph.compiler.graph_builder as graph

    records = []
    for level in range(10):
        records += [(1, "a", (level + 1) * 2), (0, "b", (level + 1) * 2)]
    records.append((0, "$", 0))
    path = tmp_path / "small.dawg32"
    path.write_bytes(dawg32(records))
    lex = lexigraph.load(path)
    assert len(lex) == 2**10 and all(len(w) == 10 for w in lex)
    monkeypatch.setitem(graph.expand_words.__kwdefaults__, "limit", 1000)
    with pytest.raises(SourceError, match="more than 1,000 arcs"):
        lexigraph.load(path)


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
