"""KWG word graphs (formats/kwg.py): round trips on generated lists (the DAWG and every GADDAG path against an
oracle), the C layout and its Python twin byte for byte (and TWL06 as the earlier writer and wolges wrote it), round
trips through lexicons in every preset alphabet and the inferred one (the tile table), the alphabet of a file
without one, wolges's TWL06 file read back as TWL06 and written byte for byte, the written file in wolges with the
same move counts, hostile files."""

from __future__ import annotations

import json
import random
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.errors import LexiconError, SourceError
from lexigraph.formats import kwg
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.movegen import count_placements
from lexigraph.scrabble.position import Position

words_of_codes = st.lists(st.lists(st.integers(1, 6), min_size=1, max_size=7).map(bytes), max_size=40)


def gaddag_paths(data: bytes) -> set[bytes]:
    """Every accepted path of the GADDAG part, the separator as 0; after a separator the path goes on in the DAWG
    list its arc leads to (walked plainly, node by node)."""
    nodes = [int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data), 4)]
    out: set[bytes] = set()

    def walk(p: int, path: bytes, depth: int) -> None:
        assert depth < 40
        while p:
            node = nodes[p]
            tile, accepts, arc = node >> 24, bool(node & kwg.ACCEPTS), node & kwg.ARC_MASK
            here = path + bytes([tile])
            if accepts:
                out.add(here)
            if arc:
                walk(arc, here, depth + 1)
            if node & kwg.IS_END:
                break
            p += 1

    walk(nodes[1] & kwg.ARC_MASK, b"", 0)
    return out


def expected_gaddag(words: set[bytes]) -> set[bytes]:
    """For every word and every split into a non-empty front and a back: the front reversed, then (when there is
    a back) the separator and the back."""
    out = set()
    for w in words:
        for i in range(1, len(w) + 1):
            out.add(w[:i][::-1] + (b"\0" + w[i:] if i < len(w) else b""))
    return out


@settings(max_examples=120)
@given(words=words_of_codes)
def test_round_trip_on_generated_lists(words):
    data = kwg.build(words)
    assert kwg.looks_like(data) and kwg.has_gaddag(data)
    assert sorted(kwg.read_codes(data)) == sorted(set(words))
    assert gaddag_paths(data) == expected_gaddag(set(words))
    dawg_only = kwg.build(words, gaddag=False)
    assert sorted(kwg.read_codes(dawg_only)) == sorted(set(words))


def test_empty_list_and_one_word():
    empty = kwg.build([])
    assert empty == b"\x00\x00\x40\x00" * 2  # wolges's empty KWG
    assert kwg.read_codes(empty) == [] and kwg.read_words(empty) == []
    one = kwg.build([b"\x08\x05\x0c\x0c\x0f"])
    assert kwg.read_words(one) == ["hello"]
    assert gaddag_paths(one) == expected_gaddag({b"\x08\x05\x0c\x0c\x0f"})


def test_words_round_trip_through_lexicons(tmp_path):
    from lexigraph.cli.main import main

    words = ["zoa", "zoo", "zoos", "aa", "aah", "cat"]
    src = tmp_path / "words.txt"
    src.write_text("\n".join(words) + "\n")
    assert main(["build", str(src), "-o", str(tmp_path / "w.lex"), "-q"]) == 0
    assert main(["export", str(tmp_path / "w.lex"), "--format", "kwg", "-o", str(tmp_path / "w.kwg")]) == 0
    data = (tmp_path / "w.kwg").read_bytes()
    assert data == kwg.build_words(words, lexigraph.open(tmp_path / "w.lex").alphabet)
    assert main(["build", str(tmp_path / "w.kwg"), "-o", str(tmp_path / "back.lex"), "-q"]) == 0
    assert sorted(lexigraph.open(tmp_path / "back.lex").words()) == sorted(words)
    renamed = tmp_path / "w.bin"  # known by its first nodes, too
    renamed.write_bytes(data)
    assert sorted(lexigraph.open(renamed).words()) == sorted(words)


def test_bad_words_are_refused_alike_on_both_layouts():
    for pure in (False, True):
        with pytest.raises(kwg.KwgError, match="tiles 1 to 63"):
            kwg.build([b"\x00\x01"], pure_python=pure)
        with pytest.raises(kwg.KwgError, match="empty word"):
            kwg.build([b""], pure_python=pure)
        with pytest.raises(kwg.KwgError, match="at most 255 tiles"):
            kwg.build([b"\x01" * 256], pure_python=pure)
        with pytest.raises(kwg.KwgError, match="tiles 0 to 63"):
            kwg.layout([b"\x40"], gaddag=False, pure_python=pure)
    with pytest.raises(kwg.KwgError, match="at most 63 tiles"):
        kwg.build_words(["a"], lexigraph.Alphabet([chr(0x3B1 + i) for i in range(24)] + [chr(0x430 + i) for i in
                                                                                           range(32)] + list("abcdefgh")))


def test_hostile_files_fail_cleanly():
    good = kwg.build([b"\x01\x02", b"\x01\x02\x03", b"\x02\x01"])
    rng = random.Random(3)
    for _ in range(400):
        forged = bytearray(good)
        for _ in range(rng.randint(1, 5)):
            forged[rng.randrange(len(forged))] = rng.randrange(256)
        try:
            kwg.read_codes(bytes(forged))
        except SourceError:
            pass
    cycle = (0x400001).to_bytes(4, "little") + ((1 << 24) | kwg.ACCEPTS | kwg.IS_END | 1).to_bytes(4, "little")
    with pytest.raises(SourceError, match="cycle"):
        kwg.read_codes(cycle, check_gaddag=False)
    with pytest.raises(SourceError):
        kwg.read_codes(b"\x00\x00\x40")
    with pytest.raises(LexiconError):
        kwg.read_words(kwg.build([b"\x1b"]))  # tile 27 is not English


@settings(max_examples=80)
@given(data=st.binary(min_size=4, max_size=120).filter(lambda d: len(d) % 4 == 0))
def test_random_nodes_never_crash(data):
    try:
        kwg.read_codes(data)
    except SourceError:
        pass


# -- TWL06 and wolges ------------------------------------------------------------------------------------


def test_wolges_twl06_reads_back_as_twl06(peer, twl_words):
    data = peer("data/TWL06.kwg").read_bytes()
    assert kwg.has_gaddag(data)
    assert sorted(kwg.read_words(data)) == sorted(w.lower() for w in twl_words)


def test_twl06_written_as_wolges_writes_it_gives_wolges_the_same_move_counts(peer, twl, shared, tmp_path):
    """The KWG lexigraph writes from TWL06 is wolges's file byte for byte, and wolges generates from it the move
    counts lexigraph finds on every position of the shared positions file."""
    from lexigraph.formats.export import export

    mine = tmp_path / "mine.kwg"
    export(twl, mine, "kwg")
    assert mine.read_bytes() == peer("data/TWL06.kwg").read_bytes()
    bench = peer("wolges/target/release/movegen-bench")
    game = Game.preset("scrabble")
    positions = json.loads(shared("../peers/scrabble-solver/positions.json").read_text())
    lines = []
    for p in positions:
        pos = Position.from_text("\n".join(p["board"]), game)
        pos.racks = [p["rack"], ""]
        lines.append(pos.to_cgp().split(" lex")[0] + f" lex TWL06; gid {p['name']};")
    cgp = tmp_path / "positions.cgp"
    cgp.write_text("\n".join(lines) + "\n")
    out = subprocess.run([str(bench), str(mine), str(cgp), "1", "0"], capture_output=True, text=True, check=True,
                         timeout=600).stdout
    counts = [json.loads(line)["placements_both_directions"] for line in out.splitlines() if '"name"' in line]
    assert counts == [count_placements(twl, Position.from_text("\n".join(p["board"]), game), p["rack"])
                      for p in positions]


# -- the C layout and its Python twin ----------------------------------------------------------------------

#: The KWG of TWL06 as lexigraph wrote it before the layout had a C twin (and as wolges's buildlex writes it).
TWL06_KWG_SHA256 = "99e409cc17b9fe578960b03894206af226183650d2fcfaab4f1aae1258858aa4"

wide_words = st.lists(st.lists(st.integers(1, 63), min_size=1, max_size=12).map(bytes), max_size=60)
#: Lists with long shared stretches: many GADDAG fronts, lists of many siblings and shared tails.
dense_words = st.lists(st.lists(st.sampled_from([1, 2, 3, 33, 62, 63]), min_size=1, max_size=9).map(bytes),
                       max_size=120)


def c_available() -> bool:
    from lexigraph.buildinfo import c_module

    return c_module("_native") is not None


@settings(max_examples=150, deadline=None)
@given(words=st.one_of(words_of_codes, wide_words, dense_words), gaddag=st.booleans())
def test_c_layout_is_the_python_layout_byte_for_byte(words, gaddag):
    if not c_available():
        pytest.skip("the C extension is not built (or LEXIGRAPH_PURE_PYTHON is set)")
    distinct = sorted(set(words))
    python = kwg.layout(distinct, gaddag=gaddag, pure_python=True)
    assert kwg.layout(distinct, gaddag=gaddag) == python
    import numpy as np

    lens = np.array([len(w) for w in distinct], np.int64)
    flat = np.frombuffer(b"".join(distinct), np.uint8)
    assert kwg.layout_rows(flat, lens, gaddag=gaddag) == python
    assert kwg.layout_rows(flat, lens, gaddag=gaddag, pure_python=True) == python
    assert sorted(kwg.read_codes(python)) == distinct


@settings(max_examples=60, deadline=None)
@given(leaves=st.lists(st.lists(st.integers(0, 6), min_size=1, max_size=6).map(lambda t: bytes(sorted(t))),
                       max_size=80))
def test_leave_graphs_with_the_blank_tile_are_the_same_on_both_layouts(leaves):
    distinct = sorted(set(leaves))
    python = kwg.layout(distinct, gaddag=False, pure_python=True)
    assert kwg.layout(distinct, gaddag=False) == python
    assert sorted(kwg.read_codes(python)) == distinct


def test_unsorted_words_are_an_error_of_the_c_layout_not_a_crash():
    if not c_available():
        pytest.skip("the C extension is not built (or LEXIGRAPH_PURE_PYTHON is set)")
    import numpy as np

    from lexigraph.buildinfo import c_module

    ext = c_module("_native")
    for flat, lens in ((b"\x02\x01", [1, 1]), (b"\x01\x01", [1, 1]), (b"\x01\x02\x01", [2, 1])):
        with pytest.raises(ValueError, match="sorted"):
            ext.kwg_layout(flat, np.array(lens, np.int64).tobytes(), True, kwg.MAX_NODES)
    with pytest.raises(ValueError):
        ext.kwg_layout(b"\x01", np.array([5], np.int64).tobytes(), True, kwg.MAX_NODES)
    assert ext.kwg_layout(b"\x01\x02", np.array([1, 1], np.int64).tobytes(), True, 2) == 4  # over: a node count


def test_a_graph_over_the_node_limit_is_one_error_on_both_layouts(monkeypatch):
    monkeypatch.setattr(kwg, "MAX_NODES", 20)  # the graph takes 30 nodes
    words = [bytes([a, b]) for a in range(1, 8) for b in range(1, 8)]
    for pure in (True, False):
        with pytest.raises(kwg.KwgError, match="more nodes than a KWG file holds"):
            kwg.build(words, pure_python=pure)
    assert len(kwg.build(words[:3])) // 4 == 11


def test_twl06_is_written_as_before_on_both_engines(twl, tmp_path):
    """The KWG of TWL06, on either engine, is the file the earlier (Python) writer wrote: wolges's bytes."""
    import hashlib

    from lexigraph.formats.export import to_bytes

    assert hashlib.sha256(to_bytes(twl, "kwg")).hexdigest() == TWL06_KWG_SHA256
    python = lexigraph.open(twl.path, pure_python=True)
    assert hashlib.sha256(to_bytes(python, "kwg")).hexdigest() == TWL06_KWG_SHA256
