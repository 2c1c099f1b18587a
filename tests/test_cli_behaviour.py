"""The command line as a user meets it: exit status like grep, standard input, tabs, one case, options."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from lexigraph.cli.main import main


pytestmark = pytest.mark.usefixtures("private_cache")  # each test its own cache folder


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def lexigraph(*argv, input=None):
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
    proc = lexigraph(*argv, input=stdin)
    assert proc.stdout == expected and proc.returncode in (0, 1), proc.stderr


def test_a_tab_in_an_input_line_does_not_break_tab_separated_output():
    proc = lexigraph("check", "-", input="dog\nd\tog\ncat\n")
    lines = proc.stdout.splitlines()
    assert [line.count("\t") for line in lines] == [1, 1, 1]
    assert lines[1] == "d\\tog\tno" and proc.returncode == 1


def test_children_dash_without_input_is_not_a_silent_empty_answer():
    proc = lexigraph("children", "-", input="")
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
    """`check dog`, on the built-in lexicon or a cached word list, never imports NumPy or argcomplete."""
    src = tmp_path / "w.txt"
    src.write_text("dog\ncat\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    code = ("import sys, io, contextlib\nfrom lexigraph.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    main(sys.argv[1:])\n"
            "print(sorted(m for m in ('numpy', 'argcomplete', 'jsonschema') if m in sys.modules))")
    subprocess.run([sys.executable, "-c", code, "-L", str(src), "check", "dog"], env=env, check=True,
                   capture_output=True)  # compiles and caches the list
    for argv in (["check", "dog"], ["-L", str(src), "check", "dog"]):
        proc = subprocess.run([sys.executable, "-c", code, *argv], env=env, capture_output=True, text=True)
        assert proc.stdout.strip() == "[]", (argv, proc.stdout, proc.stderr)


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
