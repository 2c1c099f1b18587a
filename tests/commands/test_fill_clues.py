"""``lexigraph fill ... --clues FILE -o OUT``: the clue file's clues (and the grid file's own) in the grid written,
read back by puzpy; bad clue files and outputs that cannot carry clues refused in one line, exit 2."""

from __future__ import annotations

import json

import pytest

from lexigraph.cli.main import main
from lexigraph.crossword.formats import acrosslite, grid_from_text, ipuz, read_grid

puz = pytest.importorskip("puz", reason="puzpy is not installed (pip install 'lexigraph[puz]')")


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path):
    (tmp_path / "g.txt").write_text("....\n....\n....\n")
    (tmp_path / "c.tsv").write_text("1A\tFirst across\n1 down\tFirst down\n6A\tLast across\n")
    return tmp_path


def test_clue_file_into_puz_and_ipuz(capsys, files, fill_oracle):
    import lexigraph

    for name in ("out.puz", "out.ipuz"):
        code, _, err = cli(capsys, "fill", str(files / "g.txt"), "--seed", "3", "--clues", str(files / "c.tsv"),
                           "-o", str(files / name))
        assert code == 0, err
        back = read_grid(files / name)
        assert back.is_complete() and fill_oracle.verify(lexigraph.open(), grid_from_text("....\n....\n...."), back) == []
        assert back.clues == {"1A": "First across", "6A": "Last across", "1D": "First down"}
    p = puz.load((files / "out.puz").read_bytes())
    numbering = p.clue_numbering()
    assert [e["clue"] for e in numbering.across] == ["First across", "", "Last across"]
    assert [e["clue"] for e in numbering.down] == ["First down", "", "", ""]


def test_the_grid_files_own_clues_are_kept(capsys, files):
    """An ipuz grid with clues: filled, its clues stay, and the clue file's replace those it names."""
    (files / "g.ipuz").write_text(json.dumps(ipuz.render(
        grid_from_text("....\n....\n....").with_clues({"1A": "Old", "2D": "Kept"}))))
    code, _, err = cli(capsys, "fill", str(files / "g.ipuz"), "--clues", str(files / "c.tsv"), "-o", str(files / "o.puz"))
    assert code == 0, err
    assert acrosslite.parse((files / "o.puz").read_bytes()).clues == {
        "1A": "First across", "6A": "Last across", "1D": "First down", "2D": "Kept"}


@pytest.mark.parametrize("clue_text, output, needles", [
    ("9A\tnone\n", "o.puz", ("c.tsv", "no slot '9A'")),
    ("1A first\n", "o.puz", ("c.tsv", "line 1", "a tab")),
    ("1A\tx\n1a\ty\n", "o.ipuz", ("c.tsv", "second clue")),
    ("1A\tx\n1 across\ty\n", "o.ipuz", ("c.tsv", "two clues for 1A")),
    ("1A\tfine\n", "o.txt", ("text grid carries no clues",)),
    ("1A\tfine\n", None, ("give --output too",)),
])
def test_bad_clue_files_are_one_line_errors(capsys, files, clue_text, output, needles):
    (files / "c.tsv").write_text(clue_text)
    argv = ["fill", str(files / "g.txt"), "--clues", str(files / "c.tsv")] + (["-o", str(files / output)] if output else [])
    code, out, err = cli(capsys, *argv)
    lines = err.splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("lexigraph: error: "), err
    assert all(n in lines[0] for n in needles), (needles, err)
    assert output is None or not (files / output).exists()


def test_clues_are_not_an_http_parameter():
    from lexigraph.commands.fill import FILL

    (param,) = [p for p in FILL.params if p.name == "clues"]
    assert param.cli_only
