"""The compiled-source cache (compiler/cache.py, opened through opener.py): reuse, rebuilds, keys by options, off and unwritable."""

from __future__ import annotations

import pytest

from lexigraph.compiler.cache import cache_dir
from lexigraph.opener import open_source

pytestmark = pytest.mark.usefixtures("private_cache")  # each test its own cache folder


def test_cache_reuses_rebuilds_and_keys_by_options(tmp_path):
    src = tmp_path / "w.txt"
    src.write_text("Paris\ncat\ndog\n")
    first = open_source(str(src))
    entries = sorted((cache_dir()).glob("*.lex"))
    assert len(entries) == 1 and str(first.path) == str(src)
    again = open_source(str(src))
    assert list(again) == list(first) and len(list(cache_dir().glob("*.lex"))) == 1
    open_source(str(src), case="drop-proper")
    assert len(list(cache_dir().glob("*.lex"))) == 2  # other options: another entry
    src.write_text("cat\ndog\nemu\n")
    assert "emu" in open_source(str(src))  # other content: another entry
    # a corrupt entry is rebuilt, not trusted
    for entry in cache_dir().glob("*.lex"):
        entry.write_bytes(entry.read_bytes()[:100])
    assert "emu" in open_source(str(src))
    assert not list(cache_dir().glob(".*.tmp"))


def test_cache_off_and_unwritable(tmp_path, monkeypatch):
    src = tmp_path / "w.txt"
    src.write_text("cat\ndog\n")
    monkeypatch.setenv("LEXIGRAPH_CACHE", "off")
    assert cache_dir() is None and "cat" in open_source(str(src))
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("LEXIGRAPH_CACHE", str(blocker / "sub"))
    assert "dog" in open_source(str(src))
