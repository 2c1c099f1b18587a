"""Every numeric parameter of every command, given absurd values on the command line and over HTTP: one clean error
(exit 2 and one line on stderr; over HTTP a 4xx JSON error), or a defined result at the edges of the declared range;
never a traceback, an exit 1 from a crash, or a 500.

The parameters are not listed here: the tests walk every command's ``Param(kind="int")`` and
``Param(kind="float")``, so a new one is swept too (and must declare its range, the first test).
"""

from __future__ import annotations

import json
import math
import signal
import warnings
from pathlib import Path

import pytest

import lexigraph
from lexigraph.cli.main import main
from lexigraph.commands import all_commands
from lexigraph.commands.endgame import EXAMPLE as ENDGAME_CGP
from lexigraph.commands.peg import EXAMPLE as PEG_CGP

pytestmark = pytest.mark.usefixtures("private_cache")

#: A position before the opponent's move, for inference (their rack empty, the observer's second).
INFER_CGP = "15/15/15/15/15/15/15/5QUIZ6/15/15/15/15/15/15/15 /AEIRSTV 0/44 0"

#: A quick, valid command line for each command with numeric parameters (run in a folder made by ``workdir``).
CLI_BASES = {
    "endgame": ["endgame", ENDGAME_CGP],
    "build": ["build", "words.txt", "-o", "out.lex"],
    "fill": ["fill", "grid.txt", "-L", "words.txt"],
    "design": ["design", "--theme", "pancakes", "--proposals", "1", "--timeout", "5"],
    "words": ["words", "--prefix", "ca"],
    "moves": ["moves", "empty", "--rack", "QUIZ"],
    "analyze": ["analyze", "sample"],
    "anagram": ["anagram", "opt"],
    "match": ["match", "?o?"],
    "cross": ["cross", "c??", "0", "?a?", "1"],
    "autoplay": ["autoplay", "--games", "2", "--workers", "1"],
    "leaves": ["leaves", "build", "-o", "x.klv2", "--generations", "2", "--workers", "1", "--max-length", "1"],
    "winpct": ["winpct", "build", "-o", "w.csv", "--games", "2", "--workers", "1"],
    "sim": ["sim", "empty", "--rack", "QUIZ", "--candidates", "2", "--iterations", "4", "--workers", "1"],
    "search": ["search", "length 3"],
    "probability": ["probability", "cat"],
    "quiz": ["quiz", "cat", "--no-input", "--store", "study.sqlite"],
    "cardbox": ["cardbox", "due", "--store", "study.sqlite"],
    "playability": ["playability", "top", "--limit", "3"],  # build's numbers are read before its games begin
    "infer": ["infer", INFER_CGP, "-3", "--max-leaves", "50", "--samples", "20"],
    "peg": ["peg", PEG_CGP, "--candidates", "1", "--time-limit", "1"],  # the search answers what it did in time
}
#: A quick, valid request body for each served command with numeric parameters.
HTTP_BASES = {
    "endgame": {"position": ENDGAME_CGP},
    "fill": {"grid": "...\n...", "timeout": 5},
    "design": {"theme": ["pancakes"], "proposals": 1, "timeout": 5},
    "words": {"prefix": "ca"},
    "moves": {"position": "empty", "rack": "QUIZ"},
    "analyze": {"gcg": (Path(lexigraph.__file__).parent / "games" / "sample.gcg").read_text()},
    "anagram": {"racks": ["opt"]},
    "match": {"patterns": ["?o?"]},
    "cross": {"pattern_a": "c??", "pos_a": 0, "pattern_b": "?a?", "pos_b": 1},
    "sim": {"position": "empty", "rack": "QUIZ", "candidates": 2, "iterations": 4},
    "search": {"expression": "length 3"},
    "probability": {"words": ["cat"]},
    "infer": {"position": INFER_CGP, "move": "-3", "max_leaves": 50, "samples": 20},
    "peg": {"position": PEG_CGP, "candidates": 1, "time_limit": 5},
}
#: Parameters whose maximum is honest work done to the end (every sample drawn, every leave enumerated, the whole
#: time limit spent): the edge test runs their minimum and the first value past the range, not the maximum.
RUNS_TO_ITS_MAXIMUM = {("infer", "samples"), ("infer", "max_leaves"), ("peg", "time_limit"), ("peg", "candidates")}
#: Outside every declared range: far too large, negative, not a number, infinite.
OUTSIDE_INTS = [2**70, -1, -(2**63) - 1]
OUTSIDE_FLOATS = [math.nan, math.inf, -math.inf, -1.0, 1e308]


def numeric(where: str) -> list[tuple[str, object]]:
    """(command, Param) for every numeric parameter the command line (``cli``) or the server (``http``) takes."""
    out = []
    for cmd in all_commands():
        if where == "http" and cmd.writes_files:
            continue
        for p in cmd.params:
            if p.kind in ("int", "float") and not (p.http_only if where == "cli" else p.cli_only):
                out.append((cmd.name, p))
    return out


def test_every_numeric_parameter_declares_its_range():
    params = numeric("cli") + numeric("http")
    assert len({(c, p.name) for c, p in params}) >= 44  # every one of issue 32's sweep
    for command, p in params:
        assert p.minimum is not None and p.maximum is not None and p.minimum <= p.maximum, (command, p.name)
    assert set(CLI_BASES) == {c for c, _ in numeric("cli")}
    assert set(HTTP_BASES) == {c for c, _ in numeric("http")}


def _text(value: object) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else "inf" if value > 0 else "-inf"
    return str(value)


def _argv(command: str, p, value: object) -> list[str]:
    argv = list(CLI_BASES[command])
    if p.positional:  # cross's positions: the 2nd and 4th operands
        argv[{"pos_a": 2, "pos_b": 4}[p.name]] = _text(value)
    elif p.flag in argv:  # the base's own value replaced, as FLAG=VALUE (a negative number is not an option)
        at = argv.index(p.flag)
        argv[at: at + 2] = [f"{p.flag}={_text(value)}"]
    else:
        argv.append(f"{p.flag}={_text(value)}")
    return argv


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    (tmp_path / "words.txt").write_text("cat\ndog\nact\ncod\nago\ntog\n")
    (tmp_path / "grid.txt").write_text("...\n...\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


class Late(Exception):
    pass


def run_bounded(capsys, argv: list[str], seconds: int = 60) -> tuple[int, str, str]:
    """``lexigraph ARGV`` in-process; more than ``seconds`` fails the case (a bound, not a measure)."""

    def late(*_args: object) -> None:
        raise Late(" ".join(argv))

    previous = signal.signal(signal.SIGALRM, late)
    signal.alarm(seconds)
    try:
        code = main(argv)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command, p", numeric("cli"), ids=lambda x: getattr(x, "name", x))
def test_absurd_numbers_on_the_command_line_are_one_clean_error(workdir, capsys, command, p):
    for value in OUTSIDE_INTS if p.kind == "int" else OUTSIDE_FLOATS:
        argv = _argv(command, p, value)
        code, _, err = run_bounded(capsys, argv)
        lines = err.splitlines()
        assert code == 2 and len(lines) == 1, (argv, code, err[-2000:])
        assert lines[0].startswith(f"lexigraph: error: {p.flag} must be from "), (argv, err)


@pytest.mark.parametrize("command, p", numeric("cli"), ids=lambda x: getattr(x, "name", x))
def test_numbers_at_the_edges_of_their_range_give_a_result_or_one_error(workdir, capsys, command, p):
    """The declared minimum and maximum, and 2**63 (the first number a C ssize_t cannot hold): the command
    answers (exit 0, 1 or 3) or refuses in one line what its input does not allow; never a traceback."""
    values = [p.minimum] + ([] if (command, p.name) in RUNS_TO_ITS_MAXIMUM else [p.maximum]) + \
        ([2**63] if p.kind == "int" else [])
    for value in values:
        if p.kind == "int":
            value = int(value)
        argv = _argv(command, p, value)
        code, _, err = run_bounded(capsys, argv)
        assert code in (0, 1, 2, 3), (argv, code, err[-2000:])
        assert "Traceback" not in err and "Warning" not in err, (argv, err[-2000:])
        if code == 2:
            assert len(err.splitlines()) == 1 and err.startswith("lexigraph: error: "), (argv, err)


def test_the_reported_numbers_are_refused_in_one_line(workdir, capsys):
    """The reproductions (--first, --top of moves and analyze past a C ssize_t: a traceback and exit 1), and
    the largest --first whose games all have numbers."""
    for argv, needle in [
        (["autoplay", "--first", "9223372036854775808", "-n", "2", "--workers", "1"],
         "--first must be from 0 to 9223372036854775807, not 9223372036854775808"),
        (["autoplay", "--first", "9223372036854775807", "-n", "2", "--workers", "1"],
         "first must be at most 9,223,372,036,854,775,806"),
        (["moves", "empty", "--rack", "QUIZ", "--top", "9223372036854775808"], "--top must be from 0 to 2147483647"),
        (["analyze", "sample", "--top", "9223372036854775808"], "--top must be from 0 to 2147483647"),
    ]:
        code, out, err = run_bounded(capsys, argv)
        assert code == 2 and not out, (argv, err)
        assert len(err.splitlines()) == 1 and needle in err, (argv, err)
    code, out, err = run_bounded(capsys, ["autoplay", "--first", "9223372036854775806", "-n", "2", "--workers", "1"])
    assert code == 0 and "2 games" in out, err
    code, out, err = run_bounded(capsys, ["moves", "empty", "--rack", "QUIZ", "--both-directions", "--top",
                                          "2147483647"])
    assert code == 0 and len(out.splitlines()) > 20, err  # a count past every move: all of them (both directions)


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("starlette", reason="the server needs the serve extra")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from lexigraph.server import create_app

    with TestClient(create_app([("enable", None)])) as c:
        # The heavy lane's worker processes start with its first command, and that start counts against the
        # request's time limit: started here, so that no case's 4xx turns into a 503 on a loaded machine.
        c.post("/api/analyze", json=HTTP_BASES["analyze"] | {"top": -1})
        yield c


def _assert_4xx(response, name, what) -> None:
    assert 400 <= response.status_code < 500, (what, response.status_code, response.text[:300])
    message = response.json()["error"]["message"]
    assert "\n" not in message and len(message) < 400 and name in message, (what, message)


@pytest.mark.parametrize("command, p", numeric("http"), ids=lambda x: getattr(x, "name", x))
def test_absurd_numbers_over_http_are_4xx_json_errors(client, command, p):
    for value in OUTSIDE_INTS if p.kind == "int" else OUTSIDE_FLOATS:
        body = json.dumps(HTTP_BASES[command] | {p.name: value})  # NaN and Infinity as Python's JSON writes them
        r = client.post(f"/api/{command}", content=body, headers={"content-type": "application/json"})
        _assert_4xx(r, p.name, (command, p.name, value))
    query = {k: v if isinstance(v, list) else str(v) for k, v in HTTP_BASES[command].items()}
    r = client.get(f"/api/{command}", params=query | {p.name: str(2**70)})
    _assert_4xx(r, p.name, (command, p.name, "GET"))


def test_the_reported_request_is_a_400(client):
    r = client.post("/api/analyze", json=HTTP_BASES["analyze"] | {"top": 2**70})
    assert r.status_code == 400 and "top must be from 0 to" in r.json()["error"]["message"]
    r = client.post("/api/moves", json=HTTP_BASES["moves"] | {"top": 2**31 - 1, "both_directions": True})
    assert r.status_code == 200 and r.json()["count"] > 20  # a count past every move: all of them (both directions)


def test_the_openapi_description_declares_the_ranges(client):
    """Each numeric query field of a served command carries its declared minimum and maximum."""
    paths = client.get("/openapi.json").json()["paths"]
    for command, p in numeric("http"):
        fields = {f["name"]: f["schema"] for f in paths[f"/api/{command}"]["get"]["parameters"]}
        assert (fields[p.name].get("minimum"), fields[p.name].get("maximum")) == (p.minimum, p.maximum), (command,
                                                                                                        p.name)
