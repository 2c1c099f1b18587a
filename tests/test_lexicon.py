"""The lexicon core against brute-force oracles: membership, listing, prefixes, priorities."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph import FileFormatError, LexiconError, SourceError, BuildError

# Few letters, so that words share prefixes and suffixes and the graph is exercised.
small_words = st.lists(st.text(alphabet="abcde", min_size=1, max_size=7), min_size=1, max_size=120)


def oracle_children(words: set[str], prefix: str) -> list[str]:
    nxt = sorted({w[len(prefix)] for w in words if w.startswith(prefix) and len(w) > len(prefix)})
    return (["$"] if prefix and prefix in words else []) + nxt


def kept(words, min_length=2):
    return {w.lower() for w in words if len(w) >= min_length}


@given(small_words, st.lists(st.text(alphabet="abcdefx", max_size=8), max_size=40))
def test_membership_listing_and_prefixes_match_a_set(words, probes):
    if not kept(words):
        with pytest.raises(BuildError):
            lexigraph.load(words)
        return
    lex = lexigraph.load(words)
    truth = kept(words)
    assert len(lex) == len(truth)
    assert list(lex) == sorted(truth)
    for w in probes + list(truth):
        assert (w in lex) == (w in truth), w
        assert lex.check(w.upper()) == (w in truth)
    assert lex.check_many(probes + sorted(truth)).tolist() == [w in truth for w in probes + sorted(truth)]
    prefixes = {w[:k] for w in truth for k in range(len(w) + 1)} | set(probes)
    for p in prefixes:
        assert lex.children(p) == oracle_children(truth, p), p
        assert lex.words(prefix=p) == sorted(w for w in truth if w.startswith(p))
        for n in (2, 3, 5):
            assert lex.words(prefix=p, length=n) == sorted(w for w in truth if w.startswith(p) and len(w) == n)
    assert lex.count_by_length() == dict(sorted(Counter(map(len, truth)).items()))


@given(st.lists(st.tuples(st.text(alphabet="abc", min_size=2, max_size=5), st.integers(0, 255)), min_size=1, max_size=60))
def test_scored_lists_keep_the_highest_score(pairs):
    lines = [f"{w.upper()};{s}" for w, s in pairs] + ["plain"]
    lex = lexigraph.load(lines)
    best: dict[str, int] = {"plain": 50}
    for w, s in pairs:
        best[w] = max(best.get(w, -1), s)
    assert {w: lex.priority(w) for w in lex} == best
    assert lex.priority("zzzz") is None
    assert lex.info["has_priorities"] is True


def test_real_list_twl06(twl, twl_words):
    truth = set(twl_words)
    assert len(twl) == 178_691
    rng = random.Random(7)
    sample = rng.sample(twl_words, 3000)
    fakes = ["".join(rng.sample("abcdefghijklmnopqrstuvwxyz", rng.randint(2, 9))) for _ in range(3000)]
    probes = sample + fakes + [w + "q" for w in sample[:500]] + [w[:-1] for w in sample[:500]]
    assert [w in twl for w in probes] == [w in truth for w in probes]
    assert twl.check_many(probes).tolist() == [w in truth for w in probes]
    assert twl.children("dude") == ["$", "d", "e", "s"]
    for p in rng.sample(twl_words, 300):
        p = p[: rng.randint(0, len(p))]
        assert twl.children(p) == oracle_children(truth, p)
    assert list(twl) == sorted(truth)
    assert twl.words(prefix="zyz") == ["zyzzyva", "zyzzyvas"]
    assert twl.info["graph"]["arcs"] <= 126_696


def test_builtin_default_is_enable(enable):
    assert len(enable) == 172_820
    assert enable.info["name"] == "ENABLE"
    assert "aardvark" in enable and "zyzzyvas" in enable and "qzx" not in enable


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


def _corrupt(tmp_path, mutate):
    good = tmp_path / "good.lex"
    lexigraph.build(["some", "words", "here"], good)
    data = bytearray(good.read_bytes())
    bad = tmp_path / "bad.lex"
    bad.write_bytes(mutate(data))
    return bad


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d[: len(d) // 2], "truncated"),
        (lambda d: d[:30], "truncated"),
        (lambda d: d[:0], "not a lexigraph lexicon"),
        (lambda d: d + b"extra", "trailing"),
        (lambda d: d[:100] + bytes([d[100] ^ 1]) + d[101:], "corrupt"),
        (lambda d: d[:-3] + bytes([d[-3] ^ 0x40]) + d[-2:], "corrupt"),
        (lambda d: d[:20] + bytes([d[20] ^ 4]) + d[21:], "header is corrupt"),
        (lambda d: b"PK\x03\x04" + d[4:], "not a lexigraph lexicon"),
    ],
)
def test_damaged_files_are_refused(tmp_path, mutate, message):
    bad = _corrupt(tmp_path, mutate)
    with pytest.raises(FileFormatError, match=message):
        lexigraph.open(bad)


def test_other_files_and_missing_files(tmp_path):
    png = tmp_path / "picture.lex"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(200))
    with pytest.raises(FileFormatError, match="not a lexigraph"):
        lexigraph.open(png)
    with pytest.raises(FileFormatError, match="no such"):
        lexigraph.open(tmp_path / "missing.lex")
    with pytest.raises(lexigraph.LexiconError, match="directory"):
        lexigraph.open(tmp_path)
    with pytest.raises(SourceError, match="no such file"):
        lexigraph.build(tmp_path / "missing.txt", tmp_path / "x.lex")


def test_random_bit_flips_never_crash(tmp_path):
    good = tmp_path / "g.lex"
    lexigraph.build(["abc", "abd", "bcd", "cde"], good)
    data = good.read_bytes()
    rng = random.Random(1)
    for _ in range(200):
        d = bytearray(data)
        i = rng.randrange(len(d))
        d[i] ^= 1 << rng.randrange(8)
        p = tmp_path / "f.lex"
        p.write_bytes(d)
        with pytest.raises(FileFormatError):
            lexigraph.open(p)


def test_close_and_context_manager(tmp_path):
    path = tmp_path / "c.lex"
    lexigraph.build(["one", "two"], path)
    with lexigraph.open(path) as lex:
        rows = lex.words()
    assert rows == ["one", "two"]
    with pytest.raises(LexiconError, match="closed"):
        lex.words()


def test_characters_outside_the_alphabet_are_not_words(enable):
    # the built-in lexicon uses the english alphabet, which folds accents
    assert "café" in enable and "NAÏVE" in enable and "naive" in enable
    assert "døg" not in enable and "собака" not in enable and "straße" not in enable
    assert "d0g" not in enable and "" not in enable and 5 not in enable and None not in enable
    with pytest.raises(TypeError):
        enable.check(5)  # type: ignore[arg-type]
    assert enable.children("d0") == [] and enable.words(prefix="-") == []


def test_check_many_on_any_iterable(enable):
    words = (w for w in ["cat", "zzzz", "d\u00f8g", "Cat\n", "dog", "caf\u00e9"])
    assert enable.check_many(words).tolist() == [True, False, False, False, True, True]
    assert enable.check_many([]).tolist() == []
    assert enable.check_many(np.array(["cat", "dog"])).tolist() == [True, True]


@given(
    st.lists(st.text(alphabet="abcxyzABCXYZ", min_size=1, max_size=7), min_size=1, max_size=40),
    st.integers(1, 3),
    st.integers(3, 8),
)
def test_vectorised_normalisation_is_the_loops(words, low, high):
    """The whole-text path for plain ASCII lists writes the words and the report the general loop writes."""
    from lexigraph.compiler import normalize as N
    from lexigraph.compiler.sources import parse_lines

    def run(fast: bool):
        raw = parse_lines(words, "<w>")
        try:
            if fast:
                return N._normalize_ascii_letters(raw, None, low, high, "fold", None)
            return N.normalize(raw, min_length=low, max_length=high, rejects=[])  # rejects: the loop
        except BuildError as e:
            return str(e)

    fast, loop = run(True), run(False)
    if fast is None:  # mixed-case entries: the loop's case policy decides
        assert any(w != w.lower() and w != w.upper() for w in words)
        return
    if isinstance(loop, str):
        assert fast == loop
        return
    assert (fast.keys, fast.report.to_dict(), fast.alphabet) == (loop.keys, loop.report.to_dict(), loop.alphabet)


def test_the_version_is_the_one_pyproject_declares():
    import tomllib
    from pathlib import Path

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    declared = tomllib.loads(pyproject.read_text("utf-8"))["project"]["version"]
    assert lexigraph.__version__ == declared
    assert lexigraph.buildinfo.__version__ == declared
