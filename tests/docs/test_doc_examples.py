"""Every example in README.md and docs/*.md runs, and prints what the page shows.

The convention (documented in docs/json.md, "Runnable examples"): fenced
``console`` blocks are run command by command (``$ `` lines; the lines up to
the next command are the expected output; ``...`` as a line stands for any
lines, inside a line for any text; ``# exit N`` ends a command whose exit
status is N; ``> `` lines right after a command continue it), fenced
``pycon`` blocks run as doctests; both in a temporary directory shared by
the blocks of one page. Blocks that use
``$LEXIGRAPH_SHARED_DATA`` are skipped when the real lists are absent.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```\s*$", re.S | re.M)
EXIT = re.compile(r"\s+#\s*exit (\d+)\s*$")


def blocks(text: str) -> list[tuple[str, str, int]]:
    """(info string, body, line number) of each fenced block."""
    return [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1) for m in FENCE.finditer(text)]


def commands(body: str) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif (line.startswith("> ") or line == ">") and out and not out[-1][1]:  # continuation (here-documents)
            out[-1] = (out[-1][0] + "\n" + line[2:], [])
        elif out:
            out[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"output before any command: {line!r}")
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Exact lines, with '...' for any lines (a line of its own) or any text (inside a line)."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head.strip() == "...":
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    if not actual:
        return False
    pattern = "^" + ".*".join(map(re.escape, head.rstrip().split("..."))) + "$"
    return re.match(pattern, actual[0].rstrip()) is not None and matches(rest, actual[1:])


def test_matches():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"]) and not matches(["a"], ["a", "b"])
    assert matches(["in ... s"], ["in 0.04 s"]) and not matches(["x ... y"], ["x y"])


def environment(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = str(tmp / ".cache")
    env["LEXIGRAPH_LEXICONS"] = str(tmp / ".config" / "lexicons.toml")  # the page's own registry
    env["XDG_DATA_HOME"] = str(tmp / ".local" / "share")  # lexigraph serve's games file: not the user's
    env.pop("LEXIGRAPH_CACHE", None)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["COLUMNS"] = "100"
    return env


def run_shell(command: str, cwd: Path, env: dict[str, str]) -> tuple[int, str, str]:
    # `lexigraph` is this interpreter's, whatever the PATH holds.
    script = f'lexigraph() {{ "{sys.executable}" -m lexigraph "$@"; }}\n{command}\n'
    proc = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def run_console(body: str, where: str, cwd: Path, env: dict[str, str]) -> None:
    for command, expected in commands(body):
        status = 0
        m = EXIT.search(command)
        if m:
            status = int(m.group(1))
            command = command[: m.start()]
        code, out, err = run_shell(command, cwd, env)
        actual = out.splitlines()
        assert matches(expected, actual), (
            f"{where}: `{command}` printed:\n{out}\nstderr:\n{err}\nbut the page shows:\n" + "\n".join(expected)
        )
        assert code == status, f"{where}: `{command}` exited {code}, the page says {status}\n{err}"


def run_pycon(body: str, where: str, name: str, line: int, globs: dict) -> None:
    """Run a session; the sessions of one page share their names, as in a doctest file."""
    parser = doctest.DocTestParser()
    test = parser.get_doctest(body, globs, name, where, line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out: list[str] = []
    runner.run(test, out=out.append, clear_globs=False)
    globs.update(test.globs)
    assert runner.failures == 0, "".join(out)


#: Pages whose examples run in test_doc_examples_split.py: the pages' examples are most of a minute each, and the
#: test workers take a file each (--dist loadfile), so two files run on two cores.
SPLIT_OFF = ("formats.md", "games.md", "search.md")


@pytest.mark.parametrize("page", [p for p in PAGES if p.name not in SPLIT_OFF],
                         ids=[p.name for p in PAGES if p.name not in SPLIT_OFF])
def test_page_examples(page, tmp_path, monkeypatch):
    check_page(page, tmp_path, monkeypatch)


def check_page(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run every example of ``page`` (see the module's docstring)."""
    text = page.read_text()
    shared = os.environ.get("LEXIGRAPH_SHARED_DATA")
    have_shared = bool(shared) and Path(shared).is_dir()
    env = environment(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", env["XDG_CACHE_HOME"])
    ran = 0
    globs: dict = {"__name__": "__main__"}
    for info, body, line in blocks(text):
        where = f"{page.relative_to(ROOT)}:{line}"
        if info == "python" and body.lstrip().startswith(">>>"):
            info = "pycon"  # a Python session shown as python: run it too
        if info not in ("console", "pycon"):
            continue
        if "LEXIGRAPH_SHARED_DATA" in body and not have_shared:
            continue
        if info == "console":
            run_console(body, where, tmp_path, env)
        else:
            run_pycon(body, where, page.name, line, globs)
        ran += 1
    # An example written the old way (an indented `$ lexigraph` line) would never run: refuse it.
    outside = FENCE.sub("", text)
    stray = [ln for ln in outside.splitlines() if re.match(r"^( {4,}|\t)\$ lexigraph", ln)]
    assert not stray, f"{page.name}: examples outside console blocks: {stray[:3]}"
    if not ran:
        pytest.skip(f"{page.name} has no runnable example")
