"""The command line (cli/main.py) as a user meets it: output, JSON, exit status like grep, one-line errors,
standard input, one case, options."""

from __future__ import annotations

import json
import os
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


def test_serve_without_the_server_extras_is_one_clear_error():
    """The serve extra missing (starlette and uvicorn cannot be imported): one line, exit 2."""
    code = (
        "import sys\n"
        "class Missing:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('starlette', 'uvicorn'):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "        return None\n"
        "sys.meta_path.insert(0, Missing())\n"
        "from lexigraph.cli.main import main\n"
        "sys.exit(main(['serve']))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("lexigraph: error:") and proc.stderr.count("\n") == 1, proc.stderr
    assert "serve" in proc.stderr and "Traceback" not in proc.stderr


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


# -- as a user meets it ----------------------------------------------------------------------------

pytestmark = pytest.mark.usefixtures("private_cache")  # each test its own cache folder


def cli_process(*argv, input=None):
    return subprocess.run([sys.executable, "-m", "lexigraph", *argv], input=input, capture_output=True, text=True)


@pytest.mark.parametrize(
    "argv, status",
    [
        (["match", "??mo??t"], 0),
        (["match", "zzzz?"], 1),
        (["match", "zzzz?", "--count"], 1),
        (["anagram", "top"], 0),
        (["anagram", "zzq", "--exact"], 1),
        (["words", "--prefix", "zyz"], 0),
        (["words", "--prefix", "qz"], 1),
        (["children", "dude"], 0),
        (["children", "qz"], 1),
        (["cross", "e???y", "2", "d???", "1"], 0),
        (["cross", "zzz", "0", "qqq", "0"], 1),
        (["check", "dog"], 0),
        (["check", "dog", "dgo"], 1),
        (["info"], 0),
        (["stats"], 0),
        (["children", "123"], 2),
        (["anagram", "123"], 2),
        (["words", "--length", "-1"], 2),
        (["match", "?", "--min-priority", "300"], 2),
        (["anagram", "top", "--exact", "--super"], 2),
        (["build", "x.txt", "-o", "y.lex", "--lexicon", "z"], 2),
    ],
)
def test_exit_status_like_grep(capsys, argv, status):
    code, out, err = run(capsys, *argv)
    assert code == status, (out, err)
    if status == 2:
        assert err.startswith("lexigraph: error:") and len(err.strip().splitlines()) == 1


def test_diff_exit_status(tmp_path, capsys):
    a = tmp_path / "a.txt"
    a.write_text("cat\ndog\n")
    b = tmp_path / "b.txt"
    b.write_text("cat\n")
    assert run(capsys, "diff", str(a), str(a))[0] == 0
    assert run(capsys, "diff", str(a), str(b))[0] == 1


def test_errors_name_options_as_typed(capsys):
    code, _, err = run(capsys, "anagram", "top", "--min-length", "0")
    assert code == 2 and "--min-length" in err and "min_length" not in err
    code, _, err = run(capsys, "anagram", "top", "--exact", "--super")
    assert "--exact" in err and "--super" in err
    code, _, err = run(capsys, "match", "?", "--limit", "x")
    assert "--limit" in err


def test_lexicon_offered_only_where_it_applies(capsys):
    code, _, err = run(capsys, "build", "--help")
    assert code == 0
    out = capsys.readouterr().out
    code, out, _ = run(capsys, "build", "--help")
    assert "--lexicon" not in out and "--rejects" in out
    code, out, _ = run(capsys, "match", "--help")
    assert "--lexicon" in out and "examples:" in out
    assert run(capsys, "--lexicon", "x.lex", "build", "a", "-o", "b")[0] == 2


@pytest.mark.parametrize(
    "argv, stdin, expected",
    [
        (["check", "-"], "dog\n\n  cat  \nzzq\n", "dog\tyes\ncat\tyes\nzzq\tno\n"),
        (["check", "emu", "-"], "DOG\n", "emu\tyes\ndog\tyes\n"),
        (["anagram", "-", "--exact"], "tpo\ngdo\n", "tpo\topt\ntpo\tpot\ntpo\ttop\ngdo\tdog\ngdo\tgod\n"),
        (["match", "-"], "?uixot??\nzyzzyv?\n", "?uixot??\tquixotes\n?uixot??\tquixotic\n?uixot??\tquixotry\n"
                                              "zyzzyv?\tzyzzyva\n"),
        (["children", "-"], "dude\nqu\n", "dude\t$ d e s\nqu\ta e i o r\n"),
    ],
)
def test_standard_input(argv, stdin, expected):
    proc = cli_process(*argv, input=stdin)
    assert proc.stdout == expected and proc.returncode in (0, 1), proc.stderr


def test_a_tab_in_an_input_line_does_not_break_tab_separated_output():
    proc = cli_process("check", "-", input="dog\nd\tog\ncat\n")
    lines = proc.stdout.splitlines()
    assert [line.count("\t") for line in lines] == [1, 1, 1]
    assert lines[1] == "d\\tog\tno" and proc.returncode == 1


def test_children_dash_without_input_is_not_a_silent_empty_answer():
    proc = cli_process("children", "-", input="")
    assert proc.returncode == 1 and proc.stdout == ""


def test_one_case_everywhere(capsys):
    _, out, _ = run(capsys, "anagram", "TOP")
    assert out == out.lower()
    _, out, _ = run(capsys, "anagram", "AALNST?", "--table")
    assert out == out.lower()
    _, out, _ = run(capsys, "anagram", "AALNST?", "--exact", "--show-blanks")
    assert out.split()[0] == "ANALyST"
    _, out, _ = run(capsys, "cross", "E???Y", "2", "D???", "1")
    assert out == out.lower()
    _, out, _ = run(capsys, "check", "QUIXOTIC")
    assert out == "quixotic\tyes\n"
    _, out, _ = run(capsys, "anagram", "AALNST?", "--exact", "--json")
    doc = json.loads(out)
    assert all(r["word"] == r["word"].lower() for r in doc["results"])


def test_jsonl_streams_one_result_per_line(capsys):
    code, out, _ = run(capsys, "words", "--prefix", "zy", "--jsonl")
    lines = out.splitlines()
    assert code == 0 and all(json.loads(line).keys() == {"word"} for line in lines) and len(lines) > 3
    code, out, _ = run(capsys, "match", "?", "--json", "--jsonl")
    assert code == 2


def test_start_up_imports_nothing_heavy(tmp_path):
    """`check dog`, on the built-in lexicon or a cached word list, never imports NumPy, argcomplete or tqdm."""
    src = tmp_path / "w.txt"
    src.write_text("dog\ncat\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    code = ("import sys, io, contextlib\nfrom lexigraph.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    main(sys.argv[1:])\n"
            "print(sorted(m for m in ('numpy', 'argcomplete', 'jsonschema', 'tqdm') if m in sys.modules))")
    subprocess.run([sys.executable, "-c", code, "-L", str(src), "check", "dog"], env=env, check=True,
                   capture_output=True)  # compiles and caches the list
    for argv in (["check", "dog"], ["-L", str(src), "check", "dog"]):
        proc = subprocess.run([sys.executable, "-c", code, *argv], env=env, capture_output=True, text=True)
        assert proc.stdout.strip() == "[]", (argv, proc.stdout, proc.stderr)


def test_a_command_line_imports_the_module_of_its_command_alone():
    """`check dog` imports lexigraph.commands.lookup and no other command module (commands/registry.py)."""
    code = ("import sys, io, contextlib\nfrom lexigraph.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    main(sys.argv[1:])\n"
            "print(sorted(m for m in sys.modules if m.startswith('lexigraph.commands.')))")
    proc = subprocess.run([sys.executable, "-c", code, "check", "dog"], capture_output=True, text=True, check=True)
    loaded = {m.rsplit(".", 1)[1] for m in eval(proc.stdout)} - {"command", "registry", "_common"}
    assert loaded == {"lookup"}, proc.stdout


# -- text, JSON and JSON lines tell the same story, and the exit status agrees ---------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PATTERN = st.text(alphabet=st.sampled_from(list("abcdeqz?*@#")), min_size=1, max_size=5)
_RACK = st.text(alphabet=st.sampled_from(list("aeinrstqz?")), min_size=1, max_size=5)


def _three(argv):
    import contextlib
    import io

    outs = []
    for extra in ([], ["--json"], ["--jsonl"]):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([*argv, *extra])
        outs.append((code, out.getvalue()))
    return outs


@settings(max_examples=25)
@given(pattern=_PATTERN)
def test_match_outputs_agree(pattern):
    (c1, text), (c2, doc), (c3, lines) = _three(["match", pattern, "--limit", "50"])
    if c1 == 2:
        assert c2 == c3 == 2
        return
    results = json.loads(doc)["results"]
    words = [r["word"] for r in results]
    assert text.splitlines() == words
    assert [json.loads(x) for x in lines.splitlines()] == results
    assert c1 == c2 == c3 == (0 if words else 1)
    import re

    regex = re.compile(pattern.replace("?", ".").replace("*", ".*").replace("@", "[aeiou]")
                       .replace("#", "[^aeiou]") + r"\Z")
    assert all(regex.match(w) for w in words)


@settings(max_examples=25)
@given(rack=_RACK)
def test_anagram_outputs_agree(rack):
    from collections import Counter

    (c1, text), (c2, doc), (c3, lines) = _three(["anagram", rack])
    results = json.loads(doc)["results"]
    assert text.splitlines() == [r["word"] for r in results]
    assert c1 == c2 == c3 == (0 if results else 1)
    have = Counter(rack)
    for r in results:  # every word fits the rack, blanks standing in for the missing tiles
        need = Counter(r["word"]) - have
        assert sum(need.values()) <= have["?"] and len(r["blanks"]) == sum(need.values())
        assert r["display"].lower() == r["word"]
