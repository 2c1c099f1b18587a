"""The alphabet of a KWG file (formats/kwg.py): a lexicon written as a KWG reads back as the same words, in the same
tiles, in every preset alphabet and in the inferred one (the tile table), on both engines; a file without a tile
table is read in the alphabet ``--alphabet`` or its name gives, and refused when a tile is beyond English; forged
tile tables fail cleanly."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.alphabet import Alphabet
from lexigraph.cli.main import main
from lexigraph.errors import SourceError
from lexigraph.formats import kwg
from lexigraph.formats.export import to_bytes

from ..conftest import open_on

#: The tiles words are drawn from, per alphabet: every tile of a preset; for the inferred alphabet, letters
#: beyond a-z too (which a file numbers in their own order).
TILES = {name: list(Alphabet.preset(name).labels) for name in ("english", "spanish", "catalan", "french")}
TILES["letters"] = list("abdelrå") + ["ñ", "ç", "é", "z", "ß", "ø"]


@pytest.fixture(scope="module", autouse=True)
def no_cache() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LEXIGRAPH_CACHE", "off")
        yield


def words_in(name: str) -> st.SearchStrategy[set[str]]:
    word = st.lists(st.sampled_from(TILES[name]), min_size=2, max_size=7).map("".join)
    return st.sets(word, min_size=1, max_size=30)


def read_back(kind: str, data: bytes, filename: str = "words.kwg", **options: object) -> lexigraph.Lexicon:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / filename
        path.write_bytes(data)
        return open_on(kind, str(path), **options)


@pytest.mark.parametrize("name", sorted(TILES))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_lexicon_reads_back_from_its_kwg_in_every_alphabet(engine_kind, name, data):
    words = data.draw(words_in(name))
    alphabet = None if name == "letters" else name
    lex = open_on(engine_kind, sorted(words), alphabet=alphabet)
    expected = {w for w in words if len(lex.alphabet.split(w) or ()) >= 2}  # two tiles at least (min_length)
    assert set(lex.words()) == expected
    file = to_bytes(lex, "kwg")
    back = read_back(engine_kind, file)
    assert set(back.words()) == expected
    if kwg.english_numbered(lex.alphabet):  # wolges's English file: no table, the list's letters as tiles again
        assert kwg.tile_table(file) is None
    else:
        assert back.alphabet == lex.alphabet  # the same tiles, and the same tile set, folds and aliases
        assert kwg.tile_table(file) == lex.alphabet
    assert {w: len(back.alphabet.split(w) or ()) for w in expected} == {w: len(lex.alphabet.split(w) or ())
                                                                       for w in expected}


def test_spanish_tiles_survive_the_round_trip(engine_kind):
    lex = open_on(engine_kind, ["chocho", "calle", "perro", "año", "cacho"], alphabet="spanish")
    back = read_back(engine_kind, to_bytes(lex, "kwg"))
    assert back.alphabet.name == "spanish"
    assert back.anagram("CH O O ?", mode="exact") == ["chocho"]
    assert back.match("ch?ch?") == ["chocho"]


def test_the_reproduction_reads_back_al_bla_der(tmp_path, capsys, monkeypatch, engine_kind):
    """printf 'al\\nblå\\nder\\n' -> build -> export --format kwg -> -L x.kwg words: the words, not ae beg cdf."""
    if engine_kind == "python":
        monkeypatch.setenv("LEXIGRAPH_PURE_PYTHON", "1")
    src = tmp_path / "x.txt"
    src.write_text("al\nblå\nder\n", encoding="utf-8")
    assert main(["build", str(src), "-o", str(tmp_path / "x.lex"), "-q"]) == 0
    assert main(["export", str(tmp_path / "x.lex"), "--format", "kwg", "-o", str(tmp_path / "x.kwg")]) == 0
    capsys.readouterr()
    assert main(["-L", str(tmp_path / "x.kwg"), "words"]) == 0
    assert capsys.readouterr().out == "al\nblå\nder\n"


# -- a file without a tile table (as wolges writes a non-English lexicon) ---------------------------------


def spanish_file_without_table() -> tuple[bytes, list[str]]:
    es = Alphabet.preset("spanish")
    words = ["chocho", "año", "perro", "zorro"]
    return kwg.build([es.encode(w) for w in words]), words  # ñ is tile 16, rr 21, z 28: beyond Z


def test_a_file_without_a_table_is_read_in_the_alphabet_given(engine_kind):
    data, words = spanish_file_without_table()
    assert kwg.tile_table(data) is None
    back = read_back(engine_kind, data, alphabet="spanish")
    assert sorted(back.words()) == sorted(words)
    assert len(back.alphabet.split("chocho") or ()) == 4


def test_a_file_without_a_table_beyond_z_is_refused_without_an_alphabet(tmp_path, capsys):
    data, _ = spanish_file_without_table()
    (tmp_path / "x.kwg").write_bytes(data)
    assert main(["-L", str(tmp_path / "x.kwg"), "words"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tile 28 is beyond the 26 tiles of the english alphabet" in err
    assert "--alphabet" in err


def test_a_file_is_read_in_the_alphabet_its_name_gives(engine_kind, tmp_path):
    """As MAGPIE and Macondo do: FILE2017 is Spanish, DISC Catalan; RD (German) has no preset here."""
    data, words = spanish_file_without_table()
    assert sorted(read_back(engine_kind, data, "FILE2017.kwg").words()) == sorted(words)
    ca = Alphabet.preset("catalan")
    catalan = ["col·lecció", "plaça", "nyap"]
    disc = kwg.build([ca.encode(w) for w in catalan])
    assert sorted(read_back(engine_kind, disc, "DISC2.kwg").words()) == sorted(ca.decode(ca.encode(w)) for w in
                                                                               catalan)
    with pytest.raises(SourceError, match="names a German lexicon.*--alphabet FILE"):
        read_back(engine_kind, kwg.build([b"\x01\x02"]), "RD28.kwg")
    assert sorted(read_back(engine_kind, kwg.build([b"\x01\x02"]), "CSW21.kwg").words()) == ["ab"]


def test_english_files_read_as_before_and_carry_no_table(engine_kind):
    lex = open_on(engine_kind, ["cat", "zoo", "quiz"])
    data = to_bytes(lex, "kwg")
    english = Alphabet.preset("english")
    assert data == kwg.build([english.encode(w) for w in ["cat", "zoo", "quiz"]])
    assert sorted(read_back(engine_kind, data, "x.bin").words()) == ["cat", "quiz", "zoo"]


def test_the_alphabet_given_reads_the_text_of_a_file_with_a_table(engine_kind):
    """--alphabet over a file with a table: its words (text) split into the tiles given, as any word source."""
    lex = open_on(engine_kind, ["al", "blå", "der"])
    back = read_back(engine_kind, to_bytes(lex, "kwg"), alphabet="english")
    assert sorted(back.words()) == ["al", "bla", "der"]  # å folded by the English alphabet


# -- forged tile tables ---------------------------------------------------------------------------------------


def test_forged_tile_tables_fail_cleanly():
    good = kwg.build_words(["chocho", "año"], Alphabet.preset("spanish"))
    table_start = len(kwg.build([Alphabet.preset("spanish").encode(w) for w in ["chocho", "año"]]))
    rng = random.Random(5)
    for _ in range(300):
        forged = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            forged[rng.randrange(table_start, len(forged))] = rng.randrange(256)
        try:
            words, alphabet = kwg.read(bytes(forged), what="forged.kwg")
        except SourceError:
            continue  # the one error a forged file may give
        assert all(isinstance(w, str) for w in words) and (alphabet is None or len(alphabet) <= kwg.MAX_TILE)
    truncated = good[:table_start] + good[-48:]  # the length and signature without the payload
    with pytest.raises(SourceError, match="tile table"):
        kwg.read(truncated)
    not_an_alphabet = kwg.with_tile_table(kwg.build([b"\x01"]), Alphabet(["a"])).replace(
        b"\x00\x00\x40\x27", b"\x00\x00\x40\x28")  # one nibble of the JSON changed: '{' becomes another byte
    with pytest.raises(SourceError):
        kwg.read(not_an_alphabet)


def test_the_tile_table_is_nodes_any_reader_can_scan():
    """Readers that scan every node of a file (wolges's word counts, MAGPIE's packed graph) meet only valid
    one-node lists after the graph: no word, no arc, the end of a list, a tile below 64; wolges's count of
    words from every node (which panics on a cycle and reads arcs as indexes) goes through the whole file."""
    es = Alphabet.preset("spanish")
    graph = kwg.build([es.encode(w) for w in ["chocho", "año"]])
    data = kwg.build_words(["chocho", "año"], es)
    nodes = [int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data), 4)]
    for node in nodes[len(graph) // 4 :]:
        assert node & kwg.ARC_MASK == 0 and node & kwg.IS_END and not node & kwg.ACCEPTS and node >> 24 < 64
    counts = [0] * len(nodes)
    busy = -1

    def count_words_at(p: int) -> int:  # wolges's Kwg::count_words_at, as it is written
        if p >= len(counts):
            return 0
        assert counts[p] != busy, "a cycle"
        if counts[p] == 0:
            counts[p] = busy
            node = nodes[p]
            below = count_words_at(node & kwg.ARC_MASK) if node & kwg.ARC_MASK else 0
            after = 0 if node & kwg.IS_END else count_words_at(p + 1)
            counts[p] = bool(node & kwg.ACCEPTS) + below + after
        return counts[p]

    for p in reversed(range(len(nodes))):
        count_words_at(p)
    assert counts[nodes[0] & kwg.ARC_MASK] == 2  # the DAWG's two words
