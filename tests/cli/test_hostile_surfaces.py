"""Issue 32's reproductions on the newer surfaces (leave tables, self-play, simulation, endgames): each ends with a
result or one clear error (exit 2, one line on stderr; over HTTP a 4xx JSON error, or 503 with Retry-After when
memory is short now), in bounded time and memory, and no file is lost.

Commands that could block or that need a limit on memory run in a child process (a short
``LEXIGRAPH_READ_WAIT``, an address-space limit) with a timeout, so that a regression fails the test instead
of hanging the suite; the rest run in-process. Where an engine is involved, both run (``engine_kind``).
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

import lexigraph
from lexigraph.cli.main import main
from lexigraph.commands.endgame import EXAMPLE as ENDGAME_CGP
from lexigraph.scrabble.leaves import MAX_LEAVE_VALUE, LeaveError, LeaveTable
from lexigraph.support.workers import MAX_WORKERS, pool_size

pytestmark = pytest.mark.usefixtures("private_cache")

WORDS = "cat\ndog\nact\ncod\nago\ntog\n"
SCRABBLE_TOML = Path(lexigraph.__file__).parent / "games" / "scrabble.toml"


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


def child(argv: list[str], cwd: Path, *, env: dict[str, str] | None = None, memory: int | None = None,
          timeout: float = 120) -> tuple[int, str, str]:
    """``lexigraph ARGV`` in a child process (``memory``: its address-space limit in bytes); the timeout bounds
    its time (a hang fails the test)."""
    code = "import sys\n"
    if memory is not None:
        code += f"import resource\nresource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))\n"
    code += "from lexigraph.cli.main import main\nsys.exit(main(sys.argv[1:]))\n"
    full = dict(os.environ, LEXIGRAPH_READ_WAIT="0.5", LEXIGRAPH_CACHE="off", **(env or {}))
    proc = subprocess.run([sys.executable, "-c", code, *argv], cwd=cwd, env=full, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout, proc.stderr


def engine_env(kind: str) -> dict[str, str]:
    """The environment that runs a child on the engine of the case."""
    return {"LEXIGRAPH_PURE_PYTHON": "1"} if kind == "python" else {"LEXIGRAPH_PURE_PYTHON": ""}


def game_naming_leaves(folder: Path, leaves: str) -> Path:
    """A copy of the scrabble game whose default leave table is ``leaves``."""
    lines = [f'leaves = "{leaves}"' if line.startswith("leaves =") else line
             for line in SCRABBLE_TOML.read_text().splitlines()]
    path = folder / "named.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


# -- files lost: every write of a table or lexicon refuses its own input ---------------------------------------


@pytest.fixture
def tables(tmp_path):
    (tmp_path / "mine.csv").write_text("S,8.0\nQ,-7.5\n?,25.5\n")
    (tmp_path / "n.klv2").write_bytes(LeaveTable.from_csv("S,8.0\nQ,-7.5\n").to_klv2())
    (tmp_path / "link.klv2").symlink_to(tmp_path / "n.klv2")
    (tmp_path / "game-000000.gcg").write_bytes((tmp_path / "n.klv2").read_bytes())  # a table a GCG would replace
    (tmp_path / "words.txt").write_text(WORDS)
    lexigraph.build(WORDS.split(), tmp_path / "out.lex")
    (tmp_path / "grid.txt").write_text("...\n...\n")
    (tmp_path / "alpha.toml").write_text('name = "mini"\ntiles = ["a", "c", "d", "g", "o", "t"]\n')
    game_naming_leaves(tmp_path, "n.klv2")
    return tmp_path


@pytest.mark.parametrize("argv", [
    ["export", "mine.csv", "--format", "klv2", "-o", "mine.csv"],
    ["export", "n.klv2", "--format", "klv", "-o", "n.klv2"],
    ["export", "n.klv2", "--format", "leaves-csv", "-o", "link.klv2"],
    ["export", "link.klv2", "--format", "klv2", "-o", "n.klv2"],
    ["leaves", "build", "-o", "n.klv2", "--start", "link.klv2", "--generations", "2", "--workers", "1"],
    ["leaves", "build", "-o", "n.klv2", "--game", "named.toml", "--generations", "2", "--workers", "1"],
    ["-L", "out.lex", "leaves", "build", "-o", "out.lex", "--generations", "2", "--workers", "1"],
    ["-L", "words.txt", "leaves", "build", "-o", "words.txt", "--generations", "2", "--workers", "1"],
    ["-L", "words.txt", "fill", "grid.txt", "-o", "words.txt"],
    ["autoplay", "-n", "2", "--workers", "1", "--player-a", "game-000000.gcg", "--gcg", "."],
    ["export", "words.txt", "--alphabet", "alpha.toml", "--format", "scored", "-o", "alpha.toml"],
])
def test_no_write_of_a_table_or_lexicon_replaces_its_input(tables, capsys, monkeypatch, argv):
    monkeypatch.chdir(tables)
    before = {p.name: p.read_bytes() for p in tables.iterdir() if p.is_file()}
    code, _, err = cli(capsys, *argv)
    assert code == 2
    one_error(err, "refusing to overwrite")
    after = {p.name: p.read_bytes() for p in tables.iterdir() if p.is_file()}
    assert after == before  # byte for byte, nothing added


def test_a_leave_table_exported_elsewhere_reads_back_the_same(tables, capsys, monkeypatch):
    monkeypatch.chdir(tables)
    for fmt, name in (("klv2", "out.klv2"), ("leaves-csv", "out.csv")):
        code, out, err = cli(capsys, "export", "mine.csv", "--format", fmt, "-o", name)
        assert code == 0 and not err and out.startswith(f"wrote {name}: 3 leaves")
        assert LeaveTable.read(tables / name) == LeaveTable.read(tables / "mine.csv")


# -- hangs: a FIFO or device as a leave table ------------------------------------------------------------------


@pytest.fixture
def fifo_dir(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    game_naming_leaves(tmp_path, str(tmp_path / "fifo"))
    return tmp_path


@pytest.mark.parametrize("argv", [
    ["moves", "empty", "--rack", "QUIZ", "--leaves", "fifo"],
    ["autoplay", "-n", "2", "--workers", "1", "--player-a", "fifo"],
    ["leaves", "build", "-o", "x.klv2", "--generations", "2", "--workers", "1", "--start", "fifo"],
    ["moves", "empty", "--rack", "QUIZ", "--game", "named.toml"],
    ["autoplay", "-n", "2", "--workers", "1", "--game", "named.toml"],
    ["sim", "empty", "--rack", "QUIZ", "--iterations", "4", "--workers", "1", "--leaves", "fifo"],
    ["analyze", "sample", "--leaves", "fifo"],
    ["export", "fifo", "--format", "klv2", "-o", "x.klv2"],
])
def test_a_fifo_as_a_leave_table_is_refused_in_bounded_time(fifo_dir, argv):
    code, _, err = child(argv, fifo_dir)
    assert code == 2, err
    one_error(err, "fifo (a FIFO): nothing to read for 0.5 s", "a leave table")
    assert not (fifo_dir / "x.klv2").exists()


@pytest.mark.parametrize("spec, needle", [("/", "/ is a directory, not a leave table"),
                                          ("missing.klv2", "no such leave table file: missing.klv2")])
def test_a_leave_table_that_is_no_file_says_what_it_is(tmp_path, capsys, monkeypatch, spec, needle):
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(capsys, "moves", "empty", "--rack", "QUIZ", "--leaves", spec)
    assert code == 2
    one_error(err, needle)


def test_a_fifo_with_a_writer_is_still_a_leave_table(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen([sys.executable, "-c", f"open({str(fifo)!r}, 'w').write('Z,900.0\\n')"])
    try:
        code, out, err = child(["moves", "empty", "--rack", "QUIZ", "--leaves", "fifo", "--top", "1", "--json"],
                               tmp_path)
    finally:
        writer.wait(timeout=60)
    assert code == 0, err
    assert json.loads(out)["results"][0]["leave"] == "Z"  # the table was read: keeping the Z is worth 900


# -- leave values out of range: one error, never NumPy's warning ----------------------------------------------


@pytest.mark.parametrize("value", ["3.4028235e38", "-3.4028235e38", "1000.5", "-1e6", "1e30"])
def test_a_csv_leave_value_out_of_range_is_one_error_without_a_warning(tmp_path, value):
    (tmp_path / "big.csv").write_text(f"S,8.0\nQ,{value}\n")
    for argv in (["moves", "empty", "--rack", "QUIZ", "--leaves", "big.csv"],
                 ["export", "big.csv", "--format", "klv2", "-o", "big.klv2"],
                 ["autoplay", "-n", "2", "--workers", "1", "--player-a", "big.csv"]):
        code, _, err = child(argv, tmp_path)
        assert code == 2, err
        one_error(err, "big.csv line 2", "out of range", f"±{MAX_LEAVE_VALUE:g} points")
        assert "Warning" not in err
    assert not (tmp_path / "big.klv2").exists()


def test_leave_values_within_range_are_kept_and_beyond_it_refused_in_every_form():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a NumPy RuntimeWarning would raise here
        edge = LeaveTable.from_csv(f"S,{MAX_LEAVE_VALUE:g}\nQ,-{MAX_LEAVE_VALUE:g}\n")
        assert (edge.value("S"), edge.value("Q")) == (MAX_LEAVE_VALUE, -MAX_LEAVE_VALUE)
        assert LeaveTable.from_bytes(edge.to_klv2()) == edge
        for value in (3.4028234663852886e38, 1000.5, float("nan"), float("inf")):
            with pytest.raises(LeaveError, match="leave values lie within"):
                LeaveTable({b"\x13": value})
            import numpy as np

            with pytest.raises(LeaveError, match="leave values lie within"):
                LeaveTable.from_arrays(np.array([[19]], np.uint8), np.array([1]), np.array([value]))
        # A KLV2 file holding the largest float32 (written by another tool): refused when read.
        data = bytearray(edge.to_klv2())
        data[-4:] = bytes.fromhex("ffff7f7f")
        with pytest.raises(LeaveError, match=r"the leave [QS] has the value 3.40282\d*e\+38"):
            LeaveTable.from_bytes(bytes(data))


# -- autoplay --gcg: the folder checked before any game ----------------------------------------------------------


@pytest.mark.parametrize("folder, needle", [
    ("/dev/null", "the GCG folder /dev/null is a character device, not a folder"),
    ("a-file", "the GCG folder a-file is a regular file, not a folder"),
    ("a-file/games", "the GCG folder a-file/games (its "),
])
def test_autoplay_refuses_a_gcg_path_that_is_no_folder_before_playing(tmp_path, capsys, monkeypatch, folder,
                                                                        needle):
    import lexigraph.scrabble.selfplay as selfplay

    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("keep me\n")

    def no_games(*args, **kwargs):
        raise AssertionError("a game was played before the GCG folder was checked")

    monkeypatch.setattr(selfplay, "autoplay", no_games)
    code, _, err = cli(capsys, "autoplay", "-n", "2", "--workers", "1", "--gcg", folder)
    assert code == 2
    one_error(err, needle)
    assert (tmp_path / "a-file").read_text() == "keep me\n"


def test_autoplay_makes_the_gcg_folder_and_says_what_it_takes(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "autoplay", "-n", "2", "--workers", "1", "--gcg", "new/games")
    assert code == 0 and not err
    assert sorted(p.name for p in (tmp_path / "new" / "games").iterdir()) == ["game-000000.gcg", "game-000001.gcg"]
    code, out, _ = cli(capsys, "autoplay", "--help")
    assert code == 0
    help_text = " ".join(out.split())
    assert "into this folder, made if need be" in help_text and "/dev/null is refused" in help_text


# -- workers: no more processes than the work can use ---------------------------------------------------------


@pytest.fixture
def pools(monkeypatch):
    """The ``max_workers`` of every process pool started (the real pool runs)."""
    started: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    class Recording(real):
        def __init__(self, max_workers=None, **kwargs):
            started.append(max_workers)
            super().__init__(max_workers=max_workers, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Recording)
    return started


def test_a_simulation_starts_no_more_processes_than_its_play_outs(pools, enable, capsys):
    code, out, err = cli(capsys, "sim", "empty", "--rack", "QUIZ", "--workers", str(MAX_WORKERS), "--candidates",
                         "2", "--iterations", "8", "--json")
    assert code == 0, err
    assert pools == [8] and json.loads(out)["workers"] == 8
    code, _, err = cli(capsys, "sim", "empty", "--rack", "QUIZ", "--workers", "1024", "--iterations", "8")
    assert code == 2 and pools == [8]
    one_error(err, f"--workers must be from 1 to {MAX_WORKERS}, not 1024")


def test_self_play_starts_no_more_processes_than_its_batches(pools, enable):
    from lexigraph.scrabble.game import Game
    from lexigraph.scrabble.selfplay import Player, autoplay

    players = [Player.score("a"), Player.score("b")]
    run = autoplay(enable, Game.preset("scrabble"), players, games=4, workers=MAX_WORKERS, batch=2)
    assert pools == [2] and run.totals.workers == 2
    one = autoplay(enable, Game.preset("scrabble"), players, games=4, workers=MAX_WORKERS, batch=4)
    assert pools == [2] and one.totals.workers == 1  # one batch: played here, no pool
    assert (one.totals.wins, one.totals.mean_spread) == (run.totals.wins, run.totals.mean_spread)


def test_pool_size_is_the_request_within_the_work_and_the_maximum():
    for requested in (None, 1, 2, 7, MAX_WORKERS):
        for pieces in (1, 2, 8, 10_000):
            size = pool_size(requested, pieces)
            assert 1 <= size <= min(pieces, MAX_WORKERS)
            assert size == min(requested or os.cpu_count() or 1, pieces, MAX_WORKERS)


# -- endgames: what is wrong with the position; memory short now -------------------------------------------------


def _cgp(racks: str) -> str:
    board, _, rest = ENDGAME_CGP.partition(" ")
    return f"{board} {racks} {rest.split(' ', 1)[1]}"


@pytest.mark.parametrize("racks, needles", [
    ("GILN/", ["the opponent's rack is not given", "with the bag empty, the unseen tiles are their rack (ER)"]),
    ("GILN/EE", ["the opponent's rack EE is not the unseen tiles ER"]),
])
def test_an_endgame_says_what_is_wrong_with_the_racks(enable, capsys, engine_kind, monkeypatch, racks, needles):
    monkeypatch.setenv("LEXIGRAPH_PURE_PYTHON", "1" if engine_kind == "python" else "")
    code, _, err = cli(capsys, "endgame", _cgp(racks))
    assert code == 2
    one_error(err, *needles)


@pytest.mark.parametrize("cgp, needles", [
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0",
     ["the bag is not empty", "leave 93 tiles unseen", "at least 86 are in the bag"]),
    ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/QU 0/0 0",
     ["the bag is not empty", "93 tiles are unseen, the opponent's 2 and 91 in the bag"]),
])
def test_an_endgame_before_the_bag_is_empty_counts_the_unseen_tiles(capsys, cgp, needles):
    code, _, err = cli(capsys, "endgame", cgp)
    assert code == 2
    line = one_error(err, *needles, "an endgame starts once the bag is empty")
    assert "holds 93 tiles" not in line and "more than the rack size" not in line


def test_an_endgame_table_without_memory_is_a_memory_error_naming_the_option(tmp_path, engine_kind):
    """Within the documented range, but more than the process may map now: the same error on both engines."""
    code, out, err = child(["endgame", ENDGAME_CGP, "--table-mb", "4096"], tmp_path, env=engine_env(engine_kind),
                           memory=2 << 30)
    assert code == 2, err
    line = one_error(err, "no memory now for the endgame's transposition table of 4,096 MB", "--table-mb 4096")
    assert ".lex" not in line and "lexicon" not in line and "Traceback" not in err
    code, out, err = child(["endgame", ENDGAME_CGP, "--table-mb", "16"], tmp_path, env=engine_env(engine_kind),
                           memory=2 << 30)
    assert code == 0 and out.startswith("value +25  (complete)"), err


def test_an_endgame_table_without_memory_is_a_503_with_retry_after_over_http(tmp_path, engine_kind):
    pytest.importorskip("starlette", reason="the server needs the serve extra")
    pytest.importorskip("httpx")
    script = textwrap.dedent(f"""
        import json, resource, sys, warnings
        resource.setrlimit(resource.RLIMIT_AS, ({2 << 30}, {2 << 30}))
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
        from lexigraph.server import create_app
        from lexigraph.server.lanes import Limits
        # 120 s: the heavy lane's processes start with the first request, slowly on a busy machine (conftest.py)
        with TestClient(create_app([("enable", None)], limits=Limits(timeout=120))) as c:
            out = []
            for mb in (4096, 16):
                r = c.post("/api/endgame", json={{"position": {ENDGAME_CGP!r}, "table_mb": mb}})
                out.append([r.status_code, r.headers.get("retry-after"), r.json()])
        print(json.dumps(out))
    """)
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=180,
                          env=dict(os.environ, LEXIGRAPH_CACHE="off", **engine_env(engine_kind)))
    assert proc.returncode == 0, proc.stderr[-3000:]
    (busy, retry, error), (ok, _, answer) = json.loads(proc.stdout.splitlines()[-1])
    assert busy == 503 and retry is not None and float(retry) > 0
    message = error["error"]["message"]
    assert "no memory now" in message and "table_mb 4096" in message and ".lex" not in message
    assert ok == 200 and answer["value"] == 25
