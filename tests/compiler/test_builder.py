"""The builder (compiler/builder.py): clean-up of the input, clear errors for bad sources, atomic writes."""

from __future__ import annotations

from collections import Counter

import pytest

import lexigraph
from lexigraph import LexiconError, SourceError


def test_input_cleanup_and_skip_reasons(tmp_path):
    src = tmp_path / "messy.txt"
    src.write_bytes(
        "\ufeffApple\r\n  pear  \r\n\r\nPEAR\r\ncan't\r\nx1\r\nice cream\r\nnaïve\r\nsoupçon\r\nz\r\n".encode()
    )
    result = lexigraph.build(src, tmp_path / "m.lex")
    lex = lexigraph.open(tmp_path / "m.lex")
    assert list(lex) == ["apple", "naïve", "pear", "soupçon"]
    skipped = result.report.skipped
    assert skipped == Counter({"punctuation": 1, "digits": 1, "space inside": 1, "too short": 1})
    assert result.report.duplicates == 1
    # NFD input is stored as NFC and found in either form
    lex2 = lexigraph.load(["cafe\u0301s"])
    assert "cafés" in lex2 and "cafe\u0301s" in lex2 and len(lex2.words(length=5)) == 1


@pytest.mark.parametrize(
    "content, message",
    [
        (bytes(range(256)) * 40, "binary"),
        ("caf\xe9\n".encode("latin-1"), "not UTF-8"),
        (b"", "no words"),
        (b"\n\n  \n", "no words"),
        (b"123\n456\n", "no words"),
    ],
)
def test_bad_sources_get_clear_errors(tmp_path, content, message):
    src = tmp_path / "bad.txt"
    src.write_bytes(content)
    with pytest.raises(LexiconError, match=message):
        lexigraph.build(src, tmp_path / "out.lex")
    assert not (tmp_path / "out.lex").exists()


def test_one_huge_line_is_skipped_not_fatal(tmp_path):
    src = tmp_path / "huge.txt"
    src.write_bytes(b"ok\n" + b"a" * 10_000_000 + b"\nfine\n")
    result = lexigraph.build(src, tmp_path / "h.lex")
    assert result.report.skipped["too long"] == 1 and result.report.kept == 2


def test_failed_build_leaves_existing_file_untouched(tmp_path):
    dest = tmp_path / "keep.lex"
    lexigraph.build(["alpha", "beta"], dest)
    before = dest.read_bytes()
    with pytest.raises(LexiconError):
        lexigraph.build(["1234"], dest)
    assert dest.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.lex"]


def test_rebuild_in_place_does_not_disturb_readers(tmp_path):
    dest = tmp_path / "live.lex"
    lexigraph.build(["old", "words"], dest)
    reader = lexigraph.open(dest)
    other = lexigraph.open(dest)
    lexigraph.build(["new", "list", "here"], dest)
    assert "old" in reader and "new" not in reader and list(reader) == ["old", "words"]
    fresh = lexigraph.open(dest)
    assert "new" in fresh and "old" not in fresh
    assert len(other) == 2 and len(fresh) == 3
    for lex in (reader, other, fresh):
        lex.close()


def test_a_missing_source_is_a_source_error(tmp_path):
    with pytest.raises(SourceError, match="no such file"):
        lexigraph.build(tmp_path / "missing.txt", tmp_path / "x.lex")
