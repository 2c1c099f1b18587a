"""Issue 21's inputs, as a hostile or careless user gives them: one clear error (exit 2, one line on stderr),
in bounded time, and nothing on disk lost.

Commands that could block (FIFOs) run in a child process with a short ``LEXIGRAPH_READ_WAIT`` and a
timeout, so that a regression fails the test instead of hanging the suite; the rest run in-process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import lexigraph
from lexigraph.cli.main import main

pytestmark = pytest.mark.usefixtures("private_cache")

WORDS = b"cat\ndog\nemu\nqi\nza\n"
GAME = 'name = "tiny"\nboard = ["...", "...", "..."]\n'


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error(err: str, *needles: str) -> str:
    """The one line of ``err``, an error, holding every needle."""
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith("lexigraph: error: "), err
    for needle in needles:
        assert needle in lines[0], (needle, err)
    return lines[0]


def child(argv: list[str], cwd: Path, timeout: float = 60) -> tuple[int, str, str]:
    """``lexigraph ARGV`` in a child process; the timeout is the bound on its time (a hang fails the test)."""
    env = dict(os.environ, LEXIGRAPH_READ_WAIT="0.5", LEXIGRAPH_CACHE="off")
    proc = subprocess.run([sys.executable, "-m", "lexigraph", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout, proc.stderr


# -- data loss ---------------------------------------------------------------------------------------


@pytest.fixture
def sources(tmp_path):
    words = tmp_path / "words.txt"
    words.write_bytes(WORDS)
    (tmp_path / "link.txt").symlink_to(words)
    os.link(words, tmp_path / "hard.txt")
    lexigraph.build(["cat", "dog"], tmp_path / "out.lex")
    (tmp_path / "out-link.lex").symlink_to(tmp_path / "out.lex")
    (tmp_path / "grid.txt").write_text("c..\n...\n...\n")
    (tmp_path / "grid-link.txt").symlink_to(tmp_path / "grid.txt")
    return tmp_path


@pytest.mark.parametrize("argv, kept", [
    (["build", "words.txt", "-o", "words.txt"], "words.txt"),
    (["build", "words.txt", "-o", "link.txt"], "words.txt"),
    (["build", "link.txt", "-o", "words.txt"], "words.txt"),
    (["build", "words.txt", "-o", "hard.txt"], "words.txt"),
    (["build", "words.txt", "-o", "x.lex", "--rejects", "words.txt"], "words.txt"),
    (["build", "words.txt", "-o", "x.lex", "--rejects", "hard.txt"], "words.txt"),
    (["export", "out.lex", "--format", "text", "-o", "out.lex"], "out.lex"),
    (["export", "out.lex", "--format", "daw", "-o", "out-link.lex"], "out.lex"),
    (["export", "words.txt", "--format", "scored", "-o", "link.txt"], "words.txt"),
    (["fill", "grid.txt", "-o", "grid-link.txt"], "grid.txt"),
])
def test_no_command_writes_over_its_input(sources, capsys, monkeypatch, argv, kept):
    monkeypatch.chdir(sources)
    before = {p.name: p.read_bytes() for p in sources.iterdir() if p.is_file()}
    code, out, err = cli(capsys, *argv)
    assert code == 2
    one_error(err, "refusing to overwrite")
    after = {p.name: p.read_bytes() for p in sources.iterdir() if p.is_file()}
    assert after == before and (sources / kept).read_bytes() == before[kept]  # byte for byte, nothing added
    assert not (sources / "x.lex").exists()


def test_rejects_and_output_may_not_be_one_file(sources, capsys, monkeypatch):
    monkeypatch.chdir(sources)
    code, _, err = cli(capsys, "build", "words.txt", "-o", "new.lex", "--rejects", "new.lex")
    assert code == 2 and not (sources / "new.lex").exists()
    one_error(err, "name the same file")


# -- unbounded memory and time: FIFOs, devices -------------------------------------------------------


@pytest.fixture
def fifo_dir(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "words.txt").write_bytes(WORDS)
    (tmp_path / "fifo-alphabet.toml").write_text(GAME + 'alphabet = "fifo"\n')
    return tmp_path


@pytest.mark.parametrize("argv, what", [
    (["build", "fifo", "-o", "x.lex"], "a word list"),
    (["stats", "fifo"], "a word list"),
    (["check", "cat", "-L", "fifo"], "a word list"),
    (["fill", "fifo"], "a grid"),
    (["search", "length 3 and in fifo"], "a word list"),
    (["moves", "empty", "--rack", "A", "--game", "fifo"], "a game file"),
    (["moves", "fifo", "--rack", "A"], "a position file"),
    (["analyze", "fifo"], "a GCG file"),
    (["probability", "cat", "--tiles", "fifo"], "an alphabet file"),
    (["check", "cat", "-L", "words.txt", "--alphabet", "fifo"], "an alphabet file"),
    (["moves", "empty", "--rack", "A", "--game", "fifo-alphabet.toml"], "an alphabet file"),
])
def test_a_fifo_with_no_writer_is_refused_in_bounded_time(fifo_dir, argv, what):
    code, out, err = child(argv, fifo_dir)
    assert code == 2, err
    one_error(err, "fifo (a FIFO): nothing to read for 0.5 s", what)


def test_a_fifo_with_a_writer_is_still_a_source(fifo_dir):
    """Process substitution (``build <(zcat list.gz)``) hands a FIFO whose writer is there: it is read."""
    fifo = fifo_dir / "fifo"
    writer = subprocess.Popen([sys.executable, "-c", f"open({str(fifo)!r}, 'wb').write({WORDS!r})"])
    try:
        code, out, err = child(["build", "fifo", "-o", "x.lex", "-q"], fifo_dir)
    finally:
        writer.wait(timeout=60)
    assert code == 0, err
    assert list(lexigraph.open(fifo_dir / "x.lex")) == ["cat", "dog", "emu", "qi", "za"]


@pytest.mark.parametrize("argv, needles", [
    (["moves", "empty", "--rack", "A", "--game", "/dev/zero"], ["character device", "a game file"]),
    (["search", "probability 1-3", "--tiles", "/dev/zero"], ["character device", "an alphabet file"]),
    (["check", "cat", "-L", "words.txt", "--alphabet", "/dev/zero"], ["character device", "an alphabet file"]),
    (["moves", "empty", "--rack", "A", "--game", "zero-alphabet.toml"], ["character device", "an alphabet file"]),
    (["analyze", "/dev/zero"], ["/dev/zero (a character device)", "a GCG file"]),
    (["moves", "/dev/zero"], ["/dev/zero (a character device)", "a position file"]),
    (["fill", "/dev/zero"], ["/dev/zero (a character device)", "a grid"]),
])
def test_devices_are_read_with_a_cap_and_named(tmp_path, capsys, monkeypatch, argv, needles):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.txt").write_bytes(WORDS)
    (tmp_path / "zero-alphabet.toml").write_text(GAME + 'alphabet = "/dev/zero"\n')
    code, _, err = cli(capsys, *argv)
    assert code == 2
    one_error(err, *needles)


# -- game values -------------------------------------------------------------------------------------

BIG = [2**63 - 1, 10**20, -1]


@pytest.mark.parametrize("line", [
    *(f"rack_size = {v}" for v in BIG),
    *(f"bingo_bonus = {v}" for v in BIG),
    *(f"blanks = {v}" for v in BIG),
    "tiles = { a = [9223372036854775807, 1], b = [2, 3] }",
    "tiles = { a = [9, 9223372036854775807], b = [2, 3] }",
    "tiles = { a = [9, 100000000000000000000], b = [2, 3] }",
    "tiles = { a = [9, 256], b = [2, 3] }",
    'start = "Z99"',
    "rack_size = true",
])
def test_game_values_are_range_checked_at_load(tmp_path, capsys, line):
    game = tmp_path / "g.toml"
    game.write_text(GAME + line + "\n")
    code, out, err = cli(capsys, "moves", "empty", "--rack", "AB", "--game", str(game), "--exchanges")
    assert code == 2 and out == ""
    assert len(one_error(err)) < 200  # a 20-digit value is named, not echoed at length


def test_a_board_of_27_rows_and_a_rack_of_16_are_refused(tmp_path, capsys):
    game = tmp_path / "g.toml"
    game.write_text('board = [' + ", ".join(['"' + "." * 27 + '"'] * 27) + "]\n")
    assert cli(capsys, "moves", "empty", "--rack", "AB", "--game", str(game))[0] == 2
    game.write_text(GAME + "rack_size = 16\n")
    code, _, err = cli(capsys, "moves", "empty", "--rack", "AB", "--game", str(game))
    assert code == 2
    one_error(err, "rack_size is 16; 1 to 15 allowed")


# -- tracebacks --------------------------------------------------------------------------------------


@pytest.mark.parametrize("digits", ["¹⁵", "١٥", "１５", "15" + "0" * 30])
def test_cgp_rows_take_ascii_digits_only(capsys, digits):
    cgp = "/".join([digits] + ["15"] * 14) + " AB/ 0/0 0"
    code, _, err = cli(capsys, "moves", cgp)
    assert code == 2
    one_error(err, "bad CGP")


@pytest.mark.parametrize("score", ["+" + "9" * 4300, "+" + "9" * 10, "+١٢"])
def test_gcg_scores_are_short_ascii_numbers(tmp_path, capsys, score):
    gcg = tmp_path / "g.gcg"
    gcg.write_text(f"#player1 a A\n#player2 b B\n>a: CAT 8G CAT {score} 10\n")
    code, _, err = cli(capsys, "analyze", str(gcg))
    assert code == 2
    assert len(one_error(err, "GCG line 3", "is not a number")) < 200


@pytest.mark.parametrize("depth", [3000, 5000])
@pytest.mark.parametrize("opener", ["[", "{a="])
def test_a_deeply_nested_game_file_is_refused_before_parsing(tmp_path, capsys, depth, opener):
    closer = "]" if opener == "[" else "}"
    game = tmp_path / "g.toml"
    game.write_text(GAME + "x = " + opener * depth + "1" + closer * depth + "\n")
    code, _, err = cli(capsys, "moves", "empty", "--rack", "AB", "--game", str(game))
    assert code == 2
    one_error(err, f"nested {depth} deep")


# -- smaller -----------------------------------------------------------------------------------------


def test_a_long_rack_is_echoed_at_a_readable_length(capsys):
    code, _, err = cli(capsys, "moves", "empty", "--rack", "A" * 100_000)
    assert code == 2
    assert len(one_error(err, "'AAAA")) < 300


def test_a_truncated_puz_is_one_line(tmp_path, capsys):
    pytest.importorskip("puz")
    from lexigraph.crossword.formats import acrosslite, grid_from_text

    data = acrosslite.render(grid_from_text("\n".join(["abc.#" * 3] * 15)))
    for cut in (13, 40, len(data) // 2):
        path = tmp_path / "t.puz"
        path.write_bytes(data[:cut])
        code, _, err = cli(capsys, "fill", str(path))
        assert code == 2
        one_error(err, "not a valid .puz file")


@pytest.mark.parametrize("exchange, needle", [
    ("-XYZ", "which the rack 'AEIOU??' does not hold"),
    ("-AEIOU??A", "an exchange of 8 tiles; a rack holds 7"),
    ("-" + "A" * 30, "an exchange of 30 tiles"),
    ("-99", "a rack holds 7"),
])
def test_gcg_exchanges_must_come_from_the_rack(tmp_path, capsys, exchange, needle):
    gcg = tmp_path / "g.gcg"
    gcg.write_text(f"#player1 a A\n#player2 b B\n>a: CATRSXY 8G CAT +10 10\n>b: AEIOU?? {exchange} +0 0\n")
    code, _, err = cli(capsys, "analyze", str(gcg))
    assert code == 2
    one_error(err, "GCG line 4", needle)


def test_a_recorded_score_the_board_disagrees_with_is_kept_and_reported(tmp_path, capsys):
    gcg = tmp_path / "g.gcg"
    gcg.write_text("#player1 a A\n#player2 b B\n>a: CATRSXY 8G CAT +12 12\n>b: AEIOU?? - +0 0\n")
    code, out, err = cli(capsys, "analyze", str(gcg), "--top", "1")
    assert code == 0 and "8G CAT 10 (recorded 12)" in out
    assert err == "lexigraph: warning: turn 1 (a, 8G CAT): the record says 12 points, the board gives 10\n"
    code, out, _ = cli(capsys, "analyze", str(gcg), "--top", "1", "--json")
    turns = json.loads(out)["results"]
    assert [(t["recorded_score"], t["score"], t["score_differs"]) for t in turns] == [(12, 10, True), (0, 0, False)]


def test_a_board_with_five_z_says_the_bag_is_exceeded(capsys):
    cgp = "15/15/15/15/15/15/15/5ZZZZZ5/15/15/15/15/15/15/15 AB/ 0/0 0"
    code, _, err = cli(capsys, "moves", cgp)
    assert "the board and rack hold more tiles than the scrabble bag: 5 Z (the bag has 1)" in err
    code, out, _ = cli(capsys, "score", cgp, "H7 ZA", "--json")
    assert "5 Z (the bag has 1)" in json.loads(out)["warnings"][0]


def test_probability_on_a_plain_list_uses_the_english_tile_set_without_a_warning(tmp_path, capsys):
    """A build as documented (a plain a-z list, the inferred alphabet): probability and points answer from the
    English tile set, with no warning, in --json too."""
    words = tmp_path / "words.txt"
    words.write_bytes(WORDS)
    code, out, err = cli(capsys, "probability", "cat", "-L", str(words))
    assert code == 0 and out.startswith("cat\tACT\trank ") and err == ""
    code, out, err = cli(capsys, "probability", "cat", "-L", str(words), "--json")
    doc = json.loads(out)
    assert doc["tile_set"] == "english" and "warnings" not in doc and err == ""
    code, out, err = cli(capsys, "search", "points 10-", "-L", str(words))
    assert code == 0 and out.split() == ["qi", "za"] and err == ""
    code, out, err = cli(capsys, "search", "points 10-", "-L", str(words), "--tiles", "english")
    assert out.split() == ["qi", "za"] and err == ""


# -- over HTTP ---------------------------------------------------------------------------------------


def test_the_same_inputs_over_http_are_4xx_json_errors():
    pytest.importorskip("starlette", reason="the server needs the serve extra")
    pytest.importorskip("httpx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from lexigraph.server import create_app

    with TestClient(create_app([("enable", None)])) as c:
        for path, params in [
            ("/api/moves", {"position": "/".join(["¹⁵"] + ["15"] * 14) + " AB/ 0/0 0"}),
            ("/api/moves", {"position": "empty", "rack": "A" * 5_000}),
        ]:
            r = c.get(path, params=params)
            assert 400 <= r.status_code < 500, (path, r.status_code, r.text[:200])
            message = r.json()["error"]["message"]
            assert "\n" not in message and len(message) < 300
        gcg = "#player1 a A\n#player2 b B\n>a: CAT 8G CAT +" + "9" * 4300 + " 10\n"
        r = c.post("/api/analyze", json={"gcg": gcg})
        assert 400 <= r.status_code < 500 and "is not a number" in r.json()["error"]["message"]
