"""Sources: clean-up report, rejects file, case policy, encodings, gzip, bounded reads, every line accounted for."""

from __future__ import annotations

import gzip
import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexigraph
from lexigraph.compiler import sources
from lexigraph.opener import open_source
from lexigraph.cli.main import main
from lexigraph.errors import SourceError
from lexigraph.compiler.normalize import Reject, options


pytestmark = pytest.mark.usefixtures("private_cache")  # each test its own cache folder


MESSY = "Apple\napple\nBaltimore\n  pear \nx1\ncan't\nZ\nnai\u0308ve\nPEAR\nDOG\nMcDonald\n"


def test_report_and_rejects_file(tmp_path, capsys):
    src = tmp_path / "messy.txt"
    src.write_text(MESSY)
    rejects = tmp_path / "rejects.tsv"
    code = main(["build", str(src), "-o", str(tmp_path / "m.lex"), "--rejects", str(rejects), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    report = doc["build"]
    assert report["skipped"] == {"digits": 1, "punctuation": 1, "too short": 1}
    assert report["changed"] == {"capitalised only, folded": 2, "spaces trimmed": 1, "Unicode normalised (NFC)": 1,
                                 "upper case folded": 2}
    assert report["duplicates"] == 2 and report["case"] == "fold"
    lines = rejects.read_text().splitlines()
    assert lines[0].startswith("#")
    rows = [line.split("\t") for line in lines[1:]]
    by_line = {int(r[0]): r for r in rows}
    # every skipped line and every changed line, with its number, action and reason
    assert by_line[2][1:3] == ["skipped", "duplicate of line 1"]
    assert by_line[3][1:] == ["changed", "capitalised only, folded", "Baltimore", "baltimore"]
    assert by_line[4][1:] == ["changed", "spaces trimmed", "  pear ", "pear"]
    assert by_line[5][1:3] == ["skipped", "digits"] and by_line[7][1:3] == ["skipped", "too short"]
    assert by_line[9][1:3] == ["skipped", "duplicate of line 4"]
    skipped = sum(report["skipped"].values()) + report["duplicates"]
    assert sum(1 for r in rows if r[1] == "skipped") == skipped
    assert sorted(int(r[0]) for r in rows if r[1] == "changed") == [1, 3, 4, 8, 10, 11]


def test_case_policy_drop_proper(tmp_path, capsys):
    src = tmp_path / "names.txt"
    src.write_text("Baltimore\nParis\nparis\nrome\nNASA\nMcDonald\n")
    lex = open_source(str(src), case="drop-proper")
    assert list(lex) == ["nasa", "paris", "rome"]
    assert lex.info["build"]["skipped"] == {"capitalised only": 2}
    assert "baltimore" in open_source(str(src))  # the default folds
    # the same option wherever a source is read
    assert main(["-L", str(src), "check", "baltimore", "--case", "drop-proper"]) == 1
    assert main(["stats", str(src), "--case", "drop-proper"]) == 0
    out = capsys.readouterr().out
    assert "skipped (capitalised only): 2" in out


def test_stats_and_diff_show_the_same_summary(tmp_path, capsys):
    a = tmp_path / "a.txt"
    a.write_text("cat\nCat\nx1\ndog\n")
    b = tmp_path / "b.txt"
    b.write_text("cat\ndog\n")
    main(["stats", str(a)])
    stats = capsys.readouterr().out
    main(["diff", str(a), str(b)])
    diff = capsys.readouterr().out
    for line in ("  skipped (digits): 1", "  duplicates merged: 1"):
        assert line in stats.splitlines() and line in diff.splitlines()


def test_diff_warns_on_different_alphabets(tmp_path, capsys):
    src = tmp_path / "es.txt"
    src.write_text("año\nniño\ncasa\n")
    code = main(["diff", str(src), str(tmp_path / "es.txt"), "--alphabet", "spanish"])
    capsys.readouterr()
    assert code == 0  # the same alphabet on both sides
    lex_plain = lexigraph.build(src, tmp_path / "plain.lex")
    lexigraph.build(src, tmp_path / "folded.lex", alphabet="english")
    assert lex_plain.report.kept == 3
    code = main(["diff", str(tmp_path / "plain.lex"), str(tmp_path / "folded.lex")])
    out, err = capsys.readouterr()
    assert code == 1 and "warning: the two sides use different alphabets" in err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_unicode_encodings_and_byte_order_marks(tmp_path, encoding):
    src = tmp_path / "w.txt"
    src.write_bytes("año\nniño\ncasa\n".encode(encoding))
    if encoding in ("utf-16-le", "utf-16-be"):  # no byte-order mark: the encoding must be named
        with pytest.raises(SourceError):
            open_source(str(src))
        lex = open_source(str(src), encoding=encoding)
    else:
        lex = open_source(str(src))
    assert list(lex) == ["año", "casa", "niño"]


def test_gzip_sources(tmp_path, capsys):
    src = tmp_path / "w.txt.gz"
    src.write_bytes(gzip.compress(b"cat\ndog\n") + gzip.compress(b"emu\n"))
    assert list(open_source(str(src))) == ["cat", "dog", "emu"]
    bad = tmp_path / "bad.gz"
    bad.write_bytes(gzip.compress(b"cat\ndog\n")[:-12])
    with pytest.raises(SourceError, match="truncated|corrupt"):
        open_source(str(bad))


def test_reads_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "MAX_SOURCE_BYTES", 1 << 16)
    with pytest.raises(SourceError, match="larger than"):
        sources.read("/dev/zero")
    bomb = tmp_path / "bomb.gz"
    bomb.write_bytes(gzip.compress(b"a" * (1 << 20)))
    with pytest.raises(SourceError, match="decompresses to more"):
        sources.read(bomb)


def test_fifo_source_is_bounded(tmp_path, monkeypatch):
    import subprocess
    import sys

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen([sys.executable, "-c", f"import sys\nf=open({str(fifo)!r},'wb')\n"
                               "try:\n    while True: f.write(b'a'*65536)\nexcept BrokenPipeError: pass"])
    try:
        monkeypatch.setattr(sources, "MAX_SOURCE_BYTES", 1 << 20)
        with pytest.raises(SourceError, match="larger than"):
            sources.read(fifo)
    finally:
        writer.kill()
        writer.wait()


@given(st.lists(st.text(" \tabc\u00e9", max_size=6), max_size=40))
def test_parse_lines_plain_lists(lines: list[str]) -> None:
    raw = sources.parse_lines(lines, "<words>")
    assert raw.kind == "text"
    assert raw.words == [s.strip() for s in lines if s.strip()]
    assert raw.line_numbers == [i for i, s in enumerate(lines, 1) if s.strip()]
    assert raw.lines == len(lines)


def test_reject_tsv_escapes_control_characters():
    r = Reject(3, "skipped", "space inside", "a\tb", None)
    assert r.tsv() == "3\tskipped\tspace inside\ta\\tb"


def test_options_do_not_leak():
    with options(case="drop-proper"):
        assert list(lexigraph.load(["Paris", "rome"])) == ["rome"]
    assert list(lexigraph.load(["Paris", "rome"])) == ["paris", "rome"]


# -- every line accounted for, against an oracle ----------------------------------


from lexigraph.compiler.normalize import normalize  # noqa: E402
from lexigraph.compiler.sources import parse_lines  # noqa: E402

_LINE = st.text(alphabet=st.sampled_from(list("abcABC é1'")), max_size=6)


def _oracle(lines: list[str], case: str) -> tuple[dict[str, int], set[int]]:
    """Words kept (word -> first line) and the numbers of the lines skipped."""
    entries = [(n, s.strip()) for n, s in enumerate(lines, 1) if s.strip()]
    lower_entries = {w for _, w in entries if w == w.lower()}
    kept: dict[str, int] = {}
    skipped: set[int] = set()
    for n, w in entries:
        low = w.lower()
        proper = w != low and not w.isupper() and low not in lower_entries
        if not w.replace("é", "e").isalpha() or len(low) < 2 or (case == "drop-proper" and proper):
            skipped.add(n)
        elif low in kept:
            skipped.add(n)
        else:
            kept[low] = n
    return kept, skipped


@given(st.lists(_LINE, min_size=1, max_size=30), st.sampled_from(["fold", "drop-proper"]))
def test_every_line_is_kept_changed_or_rejected(lines, case):
    kept, skipped = _oracle(lines, case)
    rejects: list[Reject] = []
    raw = parse_lines(lines, "<generated>")
    try:
        words = normalize(raw, case=case, rejects=rejects)
    except lexigraph.BuildError:
        assert not kept
        return
    got = {words.alphabet.decode(k) for k in words.keys}
    assert got == set(kept)
    by_line = {r.line: r for r in rejects}
    assert len(by_line) == len(rejects)  # one entry per line
    assert {n for n, r in by_line.items() if r.action == "skipped"} == skipped
    report = words.report
    assert sum(report.skipped.values()) + report.duplicates == len(skipped)
    for word, n in kept.items():
        original = lines[n - 1]
        r = by_line.get(n)
        if original == word:
            assert r is None  # kept as it was: not listed
        else:
            assert r is not None and r.action == "changed" and r.result == word and r.text == original
    assert sum(report.changed.values()) >= sum(1 for r in rejects if r.action == "changed")
