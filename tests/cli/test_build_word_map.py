"""``lexigraph build --word-map``: the word map written beside the lexicon, and ``Lexicon.word_map()``'s file
beside it, its cache and its build on first use."""

from __future__ import annotations

import json
import os

import pytest

import lexigraph
from lexigraph.cli.main import main
from lexigraph.compiler.word_map import cached_word_map_path
from lexigraph.engine.wordmap import open_word_map
from lexigraph.engine.wordmap_layout import word_map_path

WORDS = "ant\ntan\nnat\ntat\nat\ntaunt\ntuna\naunt\n"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text(WORDS)
    return path


def test_build_writes_the_word_map_beside_the_lexicon(tmp_path, capsys, source):
    dest = tmp_path / "l.lex"
    code, out, _ = run(capsys, "build", str(source), "-o", str(dest), "--word-map")
    assert code == 0 and "the word map" in out
    beside = tmp_path / "l.lxw"
    lex = lexigraph.open(dest)
    wm = open_word_map(beside, lex.store, lex.engine.kind)
    assert wm.words("ant") == [("ant", ""), ("nat", ""), ("tan", "")]
    assert wm.header.max_blanks == 2
    code, out, _ = run(capsys, "--json", "build", str(source), "-o", str(dest), "--word-map", "--word-map-blanks", "1")
    doc = json.loads(out)["word_map"]
    assert doc["blanks"] == 1 and doc["bytes"] == beside.stat().st_size and doc["path"] == str(beside)


@pytest.mark.parametrize("argv", [["--word-map-blanks", "3"], ["--word-map-blanks", "-1"]])
def test_bad_word_map_options_are_one_line(tmp_path, capsys, source, argv):
    code, out, err = run(capsys, "build", str(source), "-o", str(tmp_path / "l.lex"), "--word-map", *argv)
    assert code == 2 and err.count("\n") == 1 and "--word-map-blanks" in err
    assert not (tmp_path / "l.lex").exists()


def test_the_word_map_never_overwrites_an_input(tmp_path, capsys):
    source = tmp_path / "l.lxw"  # the name the map would take
    source.write_text(WORDS)
    code, _, err = run(capsys, "build", str(source), "-o", str(tmp_path / "l.lex"), "--word-map")
    assert code == 2 and err.count("\n") == 1
    assert source.read_text() == WORDS and not (tmp_path / "l.lex").exists()


def test_a_device_output_is_refused_before_the_build(capsys, source):
    code, _, err = run(capsys, "build", str(source), "-o", os.devnull, "--word-map")
    assert code == 2 and "regular file" in err


def test_lexicon_word_map_beside_cached_or_built(tmp_path, monkeypatch, source, engine_kind):
    monkeypatch.setenv("LEXIGRAPH_CACHE", str(tmp_path / "cache"))
    dest = tmp_path / "l.lex"
    lexigraph.build(source, dest)
    lex = lexigraph.open(dest, pure_python=engine_kind == "python")
    assert lex.word_map(build=False) is None
    wm = lex.word_map()
    assert wm is not None and wm.kind == engine_kind
    assert lex.word_map(build=False) is wm  # kept while the lexicon is open
    cached = cached_word_map_path(lex.store)
    assert cached is not None and os.path.isfile(cached) and wm.name == cached
    assert wm.words("nt?") == [("ant", "a"), ("nat", "a"), ("tan", "a")]
    # A map beside the file wins; a stale one (the lexicon rebuilt) is passed over.
    (tmp_path / "other.txt").write_text(WORDS + "tutu\n")
    lexigraph.build(tmp_path / "other.txt", tmp_path / "other.lex")
    other = lexigraph.open(tmp_path / "other.lex")
    os.replace(cached, word_map_path(tmp_path / "other.lex"))
    again = lexigraph.open(tmp_path / "other.lex", pure_python=engine_kind == "python").word_map()
    assert again is not None and again.name != word_map_path(tmp_path / "other.lex")
    assert ("tutu", "") in again.words("tutu")
    other.close()


def test_no_cache_builds_in_memory(tmp_path, monkeypatch, source):
    monkeypatch.setenv("LEXIGRAPH_CACHE", "off")
    lex = lexigraph.open(source)
    wm = lex.word_map()
    assert wm is not None and wm.words("tuna", 4) == [("aunt", ""), ("tuna", "")]


def test_info_shows_the_word_map_beside_the_file(tmp_path, capsys, source):
    dest = tmp_path / "l.lex"
    run(capsys, "build", str(source), "-o", str(dest))
    code, out, _ = run(capsys, "--json", "-L", str(dest), "info")
    assert code == 0 and json.loads(out)["word_map"] is None
    code, out, _ = run(capsys, "-L", str(dest), "info")
    assert "none beside the file" in out
    run(capsys, "build", str(source), "-o", str(dest), "--word-map", "--word-map-blanks", "1")
    code, out, _ = run(capsys, "--json", "-L", str(dest), "info")
    doc = json.loads(out)["word_map"]
    assert doc == {"path": str(tmp_path / "l.lxw"), "bytes": (tmp_path / "l.lxw").stat().st_size, "blanks": 1,
                   "min_length": 2, "max_length": 5}
    # A map of another lexicon under this name is not this lexicon's.
    (tmp_path / "other.txt").write_text(WORDS + "tutus\n")
    run(capsys, "build", str(tmp_path / "other.txt"), "-o", str(dest))
    code, out, _ = run(capsys, "--json", "-L", str(dest), "info")
    assert json.loads(out)["word_map"] is None
