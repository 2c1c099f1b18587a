"""Progress on the command line (cli/progress.py): a bar with count, rate and time left on standard error, only on a
terminal, never with --json, --jsonl or --quiet, never on standard output; notes (leaves build's generation lines)
printed at once and not again. The renderer with a fake terminal and clock; the command line in a pseudo-terminal.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import pty
import select
import struct
import subprocess
import sys
from collections.abc import Sequence

import pytest

import lexigraph
from lexigraph.cli.main import build_parser, main
from lexigraph.cli.progress import REDRAW_EVERY, SHOW_AFTER, TerminalProgress
from lexigraph.commands import all_commands
from lexigraph.engine import compiled


class Terminal(io.StringIO):
    """Standard error as a terminal."""

    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def renderer(draw: bool = True, stream: io.StringIO | None = None, notes: io.StringIO | None = None):
    clock = Clock()
    progress = TerminalProgress(draw=draw, notes=notes, stream=Terminal() if stream is None else stream, clock=clock)
    return progress, clock


def test_nothing_is_drawn_off_a_terminal_or_when_told_not_to():
    for stream, draw in ((io.StringIO(), True), (Terminal(), False)):
        progress, clock = renderer(draw, stream)
        for done in range(0, 1001, 100):
            clock.now += 1
            progress("autoplay", done, 1000, unit="games")
        progress.close()
        assert stream.getvalue() == ""


def test_a_quick_command_draws_nothing():
    progress, clock = renderer()
    clock.now += SHOW_AFTER / 2
    progress("build: reading", 10, 10, unit="lines")
    progress.close()
    assert progress.stream.getvalue() == ""


def test_a_bar_shows_the_count_the_rate_and_the_time_left():
    progress, clock = renderer()
    clock.now += SHOW_AFTER + 1
    progress("autoplay", 200, 1000, unit="games")
    drawn = progress.stream.getvalue()
    assert "autoplay:" in drawn and "200/1000 games" in drawn and "games/s" in drawn and " 20%|" in drawn
    assert "<" in drawn.rsplit("\r", 1)[-1]  # elapsed<left
    progress.close()
    assert progress.stream.getvalue().endswith("\r")  # the line is cleared for the command's output


def test_redraws_are_throttled():
    progress, clock = renderer()
    clock.now += SHOW_AFTER + 1
    for done in range(1, 1000):  # all within one redraw interval
        progress("sim", done, 1000, unit="play-outs")
    clock.now += REDRAW_EVERY / 10
    progress("sim", 1000, 1000, unit="play-outs")  # the end is always drawn
    drawn = progress.stream.getvalue()
    assert drawn.count("sim:") <= 3 and "1000/1000 play-outs" in drawn and "999/1000" not in drawn


def test_unknown_totals_time_budgets_and_stages_that_count_nothing():
    progress, clock = renderer()
    clock.now += SHOW_AFTER + 1
    progress("build: reading", 1234, 0, unit="lines")
    progress("fill", 12_000, 60_000, unit="ms", detail="41/76 slots at best, 3 restarts")
    progress("export: writing", 0, 0)
    progress.close()
    reading, fill, writing = _lines_of(progress.stream.getvalue(), ("build: reading", "fill", "export: writing"))
    assert "1234 lines" in reading and "%" not in reading and "lines/s" in reading
    assert " 20%|" in fill and "41/76 slots at best, 3 restarts" in fill and "/s" not in fill and "ms" not in fill
    assert writing.startswith("export: writing [") and "%" not in writing


def _lines_of(drawn: str, stages: Sequence[str]) -> list[str]:
    """The last drawing of each stage's bar."""
    frames = [f for f in drawn.split("\r") if f.strip()]
    return [[f for f in frames if f.startswith(stage)][-1] for stage in stages]


def test_notes_are_printed_at_once_and_left_out_of_the_text_at_the_end():
    notes = io.StringIO()
    progress, clock = renderer(notes=notes)
    clock.now += SHOW_AFTER + 1
    progress("generation 1 of 2", 10, 10, unit="games", note="generation 1: 10 games")
    assert notes.getvalue() == "generation 1: 10 games\n"
    assert "generation 1 of 2" in progress.stream.getvalue()
    progress("generation 2 of 2", 10, 10, unit="games", note="x")
    lines = ["generation 1: 10 games", "x", "x", "summary"]
    assert list(progress.unshown(lines)) == ["x", "summary"]  # each note stands for one line
    silent = TerminalProgress(draw=True, notes=None, stream=Terminal())
    silent("generation 1 of 2", 10, 10, note="generation 1: 10 games")  # --json: the document has it
    assert silent.shown_notes == [] and list(silent.unshown(lines)) == lines


def test_every_command_takes_quiet():
    for cmd in all_commands():
        parser = build_parser(only=cmd.name)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        flags = {f for action in sub.choices[cmd.name]._actions for f in action.option_strings}
        assert {"--quiet", "-q"} <= flags, cmd.name


def test_leaves_build_prints_each_generation_line_once(tmp_path, capsys):
    out = tmp_path / "t.klv2"
    code = main(["leaves", "build", "-o", str(out), "--generations", "2,4", "--workers", "1", "--max-length", "2"])
    stdout, stderr = capsys.readouterr()
    lines = stdout.splitlines()
    assert code == 0 and stderr == ""
    assert [line.split(":")[0] for line in lines] == ["generation 1", "generation 2", lines[2].split(":")[0]]
    assert lines[2].endswith(f"-> {out}")


# -- the command line in a pseudo-terminal ---------------------------------------------------------------


def run_on_a_terminal(argv: Sequence[str], code: str | None = None, *, both: bool = False) -> tuple[int, str, str]:
    """Run ``lexigraph ARGV`` (or ``python -c CODE ARGV``) with standard error on a pseudo-terminal of 100 x 30;
    its exit status, standard output and what the terminal showed (``both``: standard output on the terminal
    too, in the order written)."""
    import fcntl
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    command = [sys.executable, "-c", code or "import sys\nfrom lexigraph.cli.main import main\nsys.exit(main())",
               *argv]
    proc = subprocess.Popen(command, stdout=slave if both else subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    os.close(slave)
    shown = bytearray()
    while True:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal's last writer exited
                break
            if not chunk:
                break
            shown += chunk
        elif proc.poll() is not None:
            break
    out = proc.stdout.read().decode() if proc.stdout else ""
    status = proc.wait(timeout=600)
    os.close(master)
    return status, out, shown.decode(errors="replace")


#: ``python -c`` code running the command line with its bar due at once (SHOW_AFTER 0): the bar's tests need a command
#: that runs past SHOW_AFTER, and a few games do instead of a second's worth (the wait proves nothing more).
BAR_AT_ONCE = ("import sys\nimport lexigraph.cli.progress as progress\nprogress.SHOW_AFTER = 0.0\n"
               "from lexigraph.cli.main import main\nsys.exit(main())")


def games_that_take_a_second() -> int:
    """A few games on this engine (C: about 300 a second; Python: about 1), run with :data:`BAR_AT_ONCE`."""
    return 20 if compiled.available() and not lexigraph.buildinfo.pure_python() else 2


def test_autoplay_draws_a_bar_with_a_count_and_a_rate_on_a_terminal():
    games = games_that_take_a_second()
    status, out, shown = run_on_a_terminal(["autoplay", "-n", str(games), "--workers", "1"], BAR_AT_ONCE)
    assert status == 0 and out.startswith(f"{games:,} games")
    assert "autoplay:" in shown and f"/{games} games" in shown and "games/s" in shown and "%|" in shown
    assert "autoplay:" not in out and "\r" not in out  # standard output holds the document alone


@pytest.mark.parametrize("option", ["--quiet", "--json"])
def test_quiet_and_json_draw_nothing(option):
    games = games_that_take_a_second()
    status, out, shown = run_on_a_terminal(["autoplay", "-n", str(games), "--workers", "1", option], BAR_AT_ONCE)
    assert status == 0 and shown == ""
    if option == "--json":
        assert json.loads(out)["totals"]["games"] == games


def test_nothing_is_drawn_when_standard_error_is_not_a_terminal():
    games = games_that_take_a_second()
    proc = subprocess.run([sys.executable, "-c", BAR_AT_ONCE, "autoplay", "-n", str(games), "--workers", "1"],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert proc.returncode == 0 and proc.stderr == "" and proc.stdout.startswith(f"{games:,} games")


def test_leaves_build_on_a_terminal_prints_each_generation_line_as_it_ends(tmp_path):
    games = games_that_take_a_second()
    argv = ["leaves", "build", "--generations", f"{games},{games}", "--workers", "1", "--max-length", "2"]
    status, out, shown = run_on_a_terminal([*argv, "-o", str(tmp_path / "a.klv2")], BAR_AT_ONCE)
    lines = out.splitlines()
    assert status == 0 and [line.split(":")[0] for line in lines[:2]] == ["generation 1", "generation 2"]
    assert len(lines) == 3 and "generation 1 of 2" in shown and "generation 1:" not in shown
    # Standard output on the terminal too: generation 1's line comes before generation 2's bar, and once.
    status, _, shown = run_on_a_terminal([*argv, "-o", str(tmp_path / "b.klv2")], BAR_AT_ONCE, both=True)
    assert status == 0 and shown.count("generation 1:") == shown.count("generation 2:") == 1
    assert shown.index("generation 1 of 2") < shown.index("generation 1:") < shown.index("generation 2 of 2")


def test_a_quick_command_on_a_terminal_never_imports_tqdm(tmp_path):
    source = tmp_path / "w.txt"
    source.write_text("cat\ndog\n")
    code = ("import sys\nfrom lexigraph.cli.main import main\nstatus = main()\n"
            "print('tqdm' in sys.modules)\nsys.exit(status)")
    status, out, shown = run_on_a_terminal(["build", str(source), "-o", str(tmp_path / "w.lex")], code)
    assert status == 0 and out.splitlines()[-1] == "False" and shown == ""
