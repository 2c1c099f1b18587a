"""The word graph (engine/wordgraph.py): arc records, steps, prefix walks and the structure check, against a set."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexigraph import FileFormatError
from lexigraph.compiler.builder import compile_source
from lexigraph.engine import wordgraph
from lexigraph.engine.wordgraph import Arc

words_st = st.lists(st.text(alphabet="abcde", min_size=1, max_size=7), min_size=1, max_size=120)


def oracle_children(words: set[str], prefix: str) -> tuple[bool, str] | None:
    """(prefix is a word, the tiles that may follow it), or None when no word starts with it."""
    if not any(w.startswith(prefix) for w in words):
        return None
    return prefix in words, "".join(sorted({w[len(prefix)] for w in words if w.startswith(prefix) and w != prefix}))


def test_arc_records_round_trip_and_walks_agree_with_the_words(enable):
    g = enable.graph
    assert enable.info["graph"]["layout"] == wordgraph.LAYOUT
    rec = int(g.records[g.root])
    assert wordgraph.Arc.unpack(rec).pack() == rec and rec & wordgraph.RESERVED_MASK == 0
    assert (g.records & np.uint64(wordgraph.RESERVED_MASK)).max() == 0
    # the generic depth-first walk finds exactly the words with a prefix
    for prefix in ("zyz", "qu", "dude"):
        found = [enable.alphabet.decode(k) for k in g.iter_words(enable.alphabet.encode(prefix))]
        assert found == enable.words(prefix=prefix)


@given(st.integers(1, 255), st.booleans(), st.booleans(), st.integers(0, (1 << 32) - 1))
def test_arc_pack_and_unpack_are_inverse(tile, accepts, is_last, target):
    arc = Arc(tile, accepts, is_last, target)
    rec = arc.pack()
    assert Arc.unpack(rec) == arc
    assert rec & wordgraph.TILE_MASK == tile and rec >> wordgraph.TARGET_SHIFT == target
    assert bool(rec & wordgraph.ACCEPTS_BIT) == accepts and bool(rec & wordgraph.LAST_BIT) == is_last
    assert rec & wordgraph.RESERVED_MASK == 0 and rec < 1 << 64


@given(words_st, st.lists(st.text(alphabet="abcdef", max_size=8), max_size=30))
def test_walks_steps_and_listings_agree_with_a_set(open_lexicon, words, probes):
    truth = {w for w in words if len(w) >= 2}
    if not truth:
        return
    lex = open_lexicon(compile_source(words)[0])
    g = lex.graph
    g.check_structure()  # a built graph is well formed
    alphabet = lex.alphabet
    assert sorted(alphabet.decode(k) for k in g.iter_words()) == sorted(truth)
    prefixes = {w[:k] for w in truth for k in range(len(w) + 1)} | set(probes)
    for p in sorted(prefixes):
        key = alphabet.encode(p)
        if key is None:  # a letter outside the list's alphabet
            continue
        want = oracle_children(truth, p)
        got = g.children(key)
        assert (None if got is None else (got[0], alphabet.decode(got[1]))) == want, p
        assert [alphabet.decode(k) for k in g.iter_words(key)] == sorted(w for w in truth if w.startswith(p))
        arc = g.walk(key)
        if p and want is not None:
            assert arc is not None and arc.accepts == (p in truth)
            # the arcs out of the node are its children, tiles rising
            tiles = [a.tile for a in g.arcs(arc.target)]
            assert tiles == sorted(set(tiles)) and alphabet.decode(bytes(tiles)) == want[1]
        elif p:
            assert arc is None
    # steps from the root: one arc per first tile
    firsts = sorted({w[0] for w in truth})
    assert [g.label(a.tile) for a in g.arcs(g.root)] == firsts
    for t in firsts:
        code = alphabet.encode(t)[0]
        assert g.step(g.root, code) == g.arc_of(g.root, code)
        assert g.step(g.root, code).tile == code


def _graph_of(data: bytes) -> tuple[int, int, int]:
    """(offset, arc count, root) of the graph section."""
    from lexigraph.engine.fileformat import open_bytes

    mapped = open_bytes(data)
    sec = mapped.sections["graph"]
    return sec.offset, sec.shape[0], mapped.index["graph"]["root"]


@pytest.mark.parametrize("how", ["tile past the alphabet", "target past the end", "list never ends",
                                 "tiles not rising", "reserved bit set"])
def test_the_structure_check_refuses_malformed_records(open_lexicon, forge, how):
    good, _ = compile_source(["abc", "abd", "bcd", "bd"])
    offset, n, root = _graph_of(good)

    def change(section: bytes) -> bytes:
        recs = list(struct.unpack(f"<{n}Q", section))
        if how == "tile past the alphabet":
            recs[root] = (recs[root] & ~0xFF) | 200
        elif how == "target past the end":
            recs[root] = (recs[root] & 0xFFFFFFFF) | (n + 5) << 32
        elif how == "list never ends":
            recs[-1] &= ~wordgraph.LAST_BIT
        elif how == "tiles not rising":
            recs[root], recs[root + 1] = (recs[root + 1] & ~wordgraph.LAST_BIT) | (recs[root] & wordgraph.LAST_BIT), \
                (recs[root] & ~wordgraph.LAST_BIT) | (recs[root + 1] & wordgraph.LAST_BIT)
        else:
            recs[root] |= 1 << 12
        return struct.pack(f"<{n}Q", *recs)

    lex = open_lexicon(forge.rewrite(good, "graph", change))
    with pytest.raises(FileFormatError, match="outside"):
        lex.graph.check_structure()


def test_hostile_graph_is_refused_at_query_time(open_lexicon, forge):
    good, _ = compile_source(["abc", "abd", "bcd"])
    # every arc: tile "a", more siblings follow, next list far past the end
    lex = open_lexicon(forge.rewrite(good, "graph", lambda b: struct.pack("<Q", 1 | (0x3FFFFFF << 32)) * (len(b) // 8)))
    with pytest.raises(FileFormatError, match="outside"):
        lex.children("ab")
