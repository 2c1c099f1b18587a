"""The classic TWL06 module's 32-bit DAWG table (formats/dawg32.py): hand-built, the real table, hostile and
exponential files refused in bounded time and memory."""

from __future__ import annotations

import struct
import time

import pytest

import lexigraph
from lexigraph import SourceError

TWL_COUNTS = {2: 101, 3: 1015, 4: 4030, 5: 8938, 6: 15788, 7: 24029, 8: 29766, 9: 29150, 10: 22326,
              11: 16165, 12: 11417, 13: 7750, 14: 5059, 15: 3157}


def dawg32(records):
    """records: (more, letter, link)"""
    return b"".join(struct.pack("<I", (more << 31) | (ord(ch) << 24) | link) for more, ch, link in records)


# "at", "ate", "be": root list a, b
HAND_DAWG32 = dawg32([
    (1, "a", 2), (0, "b", 5),            # 0-1 root
    (0, "t", 3),                          # 2 a -> t
    (1, "$", 0), (0, "e", 6),             # 3-4 at: word, -> e
    (0, "e", 6),                          # 5 b -> e
    (0, "$", 0),                          # 6 word end
])


def test_hand_built_dawg32(tmp_path):
    path = tmp_path / "t.dawg32"
    path.write_bytes(HAND_DAWG32)
    lex = lexigraph.load(path)
    assert list(lex) == ["at", "ate", "be"]
    assert lex.info["source_format"] == "dawg32"


def test_twl06_table_gives_the_text_list(shared, twl_words):
    table = shared("twl06.dawg32")
    lex = lexigraph.load(table)
    assert lex.info["source_format"] == "dawg32"
    assert list(lex) == sorted(twl_words)
    assert lex.count_by_length() == TWL_COUNTS


HOSTILE = {
    "zero bytes": b"",
    "truncated record": HAND_DAWG32 + b"\x01\x02",
    "index past the end": dawg32([(0, "a", 99)]),
    "cycle": dawg32([(0, "a", 1), (1, "b", 1), (0, "$", 0)]),
    "never ends": dawg32([(1, "a", 0), (1, "b", 0)]),
    "letter outside": dawg32([(0, "a", 1), (0, "3", 0)]),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_dawg32_files(tmp_path, name):
    path = tmp_path / "hostile.bin"
    path.write_bytes(HOSTILE[name])
    start = time.perf_counter()
    with pytest.raises(lexigraph.LexiconError):
        lexigraph.load(path, format="dawg32")
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

    from lexigraph.dawg import MAX_EXPANDED_ARCS

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
    import lexigraph.dawg.expand as graph

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
