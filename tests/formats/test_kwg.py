"""KWG word graphs (formats/kwg.py): round trips on generated lists (the DAWG and every GADDAG path against an
oracle), wolges's TWL06 file read back as TWL06 and written byte for byte, the written file in wolges with the same
move counts, multi-letter tiles refused, hostile files."""

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


def test_multi_letter_tiles_are_refused():
    from lexigraph.formats.export import to_bytes

    spanish = lexigraph.open(["chocho", "llama", "año"], alphabet="spanish")
    with pytest.raises(kwg.KwgError, match="multi-letter tiles"):
        to_bytes(spanish, "kwg")
    with pytest.raises(kwg.KwgError, match="multi-letter tiles"):
        kwg.build_words(["chocho"], spanish.alphabet)
    with pytest.raises(kwg.KwgError, match="tiles 1 to 63"):
        kwg.build([b"\x00\x01"])
    with pytest.raises(kwg.KwgError, match="empty word"):
        kwg.build([b""])


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
