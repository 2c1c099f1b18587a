"""The command line: output, JSON, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import lexigraph
from lexigraph.cli.main import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_exit_codes_and_json(capsys):
    assert run(capsys, "check", "dog", "cat")[0] == 0
    code, out, _ = run(capsys, "check", "dog", "dgo")
    assert code == 1 and out == "dog\tyes\ndgo\tno\n"
    code, out, _ = run(capsys, "--json", "check", "dog")
    assert json.loads(out)["results"] == [{"word": "dog", "valid": True}]
    code, out, _ = run(capsys, "check", "DOG", "--json")
    assert json.loads(out)["results"][0] == {"word": "dog", "valid": True}


def test_words_children_info(capsys):
    assert run(capsys, "words", "--prefix", "zyz")[1].split() == ["zyzzyva", "zyzzyvas"]
    assert run(capsys, "children", "dude")[1].strip() == "$ d e s"
    code, out, _ = run(capsys, "info", "--json")
    assert json.loads(out)["word_count"] == 172_820
    code, out, _ = run(capsys, "children", "dude", "--json")
    assert json.loads(out)["results"] == [{"prefix": "dude", "is_word": True, "tiles": ["d", "e", "s"]}]


def test_build_and_use_a_lexicon(tmp_path, capsys):
    src = tmp_path / "list.txt"
    src.write_text("Alpha;80\nbeta;20\ngamma\n12\n")
    dest = tmp_path / "l.lex"
    code, out, _ = run(capsys, "build", str(src), "-o", str(dest))
    assert code == 0 and "3 words" in out and "skipped (digits): 1" in out
    code, out, _ = run(capsys, "--lexicon", str(dest), "match", "?????", "--scores")
    assert out.split() == ["alpha;80", "gamma;50"]
    code, out, _ = run(capsys, "-L", str(dest), "match", "*a", "--count")
    assert out.strip() == "3"


def test_anagram_output(capsys):
    code, out, _ = run(capsys, "anagram", "AALNST?", "--exact", "--show-blanks")
    assert out.split()[0] == "ANALyST"
    code, out, _ = run(capsys, "anagram", "AALNST?", "--table")
    lines = out.splitlines()
    assert lines[0].startswith("aalnst?   : analyst") and lines[9].startswith("aalnst?+i :")
    assert len(lines) == 27


def test_cross_and_stats(capsys):
    code, out, _ = run(capsys, "cross", "E???Y", "2", "D???", "1")
    assert code == 0 and "j" in out.splitlines()[0].split(":")[1].split()
    code, out, _ = run(capsys, "stats")
    assert out.splitlines()[-1].split() == ["total", "172820"]


@pytest.mark.parametrize(
    "argv",
    [
        ["match", "[ab"],
        ["anagram", "a1"],
        ["--lexicon", "/nonexistent.lex", "check", "dog"],
        ["cross", "abc", "9", "abc", "0"],
        ["build", "/nonexistent.txt", "-o", "/tmp/x.lex"],
        ["nosuchcommand"],
        ["words", "--length", "x"],
    ],
)
def test_errors_are_one_line_exit_2(argv):
    proc = subprocess.run([sys.executable, "-m", "lexigraph", *argv], capture_output=True, text=True)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("lexigraph: error:")


def test_stdin_words_and_build(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "lexigraph", "check", "-"], input="dog\ncat\nzzq\n",
                          capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stdout.split() == ["dog", "yes", "cat", "yes", "zzq", "no"]
    dest = tmp_path / "s.lex"
    proc = subprocess.run([sys.executable, "-m", "lexigraph", "build", "-", "-o", str(dest), "--json"],
                          input="one\ntwo\nthree\n", capture_output=True, text=True)
    assert proc.returncode == 0 and json.loads(proc.stdout)["word_count"] == 3
    assert list(lexigraph.open(dest)) == ["one", "three", "two"]


def test_export_to_stdout(capsys, tmp_path):
    src = tmp_path / "w.txt"
    src.write_text("b\nab\nabc\n")
    code, out, _ = run(capsys, "export", str(src), "--format", "text", "-o", "-")
    assert out == "ab\nabc\n"


def test_serve_without_server_is_one_clear_error(capsys):
    import importlib.util

    if importlib.util.find_spec("lexigraph.server") is not None:
        pytest.skip("lexigraph.server is present")
    code, out, err = run(capsys, "serve")
    assert code == 2 and err.startswith("lexigraph: error:") and "server" in err
    assert len(err.strip().splitlines()) == 1


def test_serve_calls_the_server_module(capsys, monkeypatch):
    import types

    calls = {}
    fake = types.ModuleType("lexigraph.server")

    def add_arguments(parser):
        parser.add_argument("--port", type=int, default=8080, help="port")

    def main_(args):
        calls["port"] = args.port
        return 0

    fake.add_arguments, fake.main = add_arguments, main_
    monkeypatch.setitem(sys.modules, "lexigraph.server", fake)
    assert run(capsys, "serve", "--port", "9000")[0] == 0
    assert calls == {"port": 9000}


def test_man_page_and_completion(capsys):
    code, out, _ = run(capsys, "man")
    assert code == 0 and out.startswith(".TH LEXIGRAPH 1")
    from lexigraph.commands import all_commands

    for cmd in all_commands():
        assert f".SS {cmd.name}" in out
    pytest.importorskip("argcomplete")
    for shell in ("bash", "zsh", "fish"):
        code, out, _ = run(capsys, "completion", shell)
        assert code == 0 and "lexigraph" in out


def test_version_says_whether_the_c_extension_is_used(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("lexigraph ") and "C extension" in out
    proc = subprocess.run([sys.executable, "-m", "lexigraph", "--version"], capture_output=True, text=True,
                          env={**__import__("os").environ, "LEXIGRAPH_PURE_PYTHON": "1"})
    assert "not in use" in proc.stdout or "no C extension" in proc.stdout


def test_every_argument_has_help_and_every_command_examples():
    import argparse

    from lexigraph.cli.main import build_parser
    from lexigraph.commands import all_commands

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, p in sub.choices.items():
        for action in p._actions:
            assert action.help, f"{name}: {action.option_strings or action.dest} has no help"
    for cmd in all_commands():
        assert 2 <= len(cmd.examples) <= 4 or cmd.name == "info", cmd.name
        assert all(e.startswith("lexigraph ") or "| lexigraph" in e for e in cmd.examples), cmd.name


def test_every_example_parses(example_argvs):
    """The examples each command shows are valid command lines (shell pipes and redirections aside)."""
    from lexigraph.cli.main import build_parser
    from lexigraph.commands import all_commands

    parser = build_parser()
    for cmd in all_commands():
        for argv in example_argvs(cmd):
            args = parser.parse_args(argv)
            assert args.command == cmd.name, argv
