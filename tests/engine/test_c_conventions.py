"""The conventions of the C files (``src/lexigraph/native``): one style, held by ``clang-format``; no entry point
of more than eight parameters (read from the stub, ``_native.pyi``); one way to keep a deadline (``deadline.h``).

These read the sources, not the built module: they run with or without the
C extension.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import lexigraph

ROOT = Path(__file__).resolve().parents[2]
NATIVE = Path(lexigraph.__file__).parent / "native"
C_FILES = sorted(NATIVE.glob("*.[ch]"))


def test_there_are_c_files() -> None:
    assert len(C_FILES) > 20 and (ROOT / ".clang-format").is_file()


@pytest.mark.skipif(shutil.which("clang-format") is None, reason="clang-format is not installed (apt-get install "
                                                                "clang-format)")
def test_every_c_file_is_formatted() -> None:
    """Each file is what ``clang-format`` makes of it with the repository's ``.clang-format``."""
    unformatted = []
    for path in C_FILES:
        formatted = subprocess.run(["clang-format", f"--style=file:{ROOT / '.clang-format'}", str(path)],
                                   capture_output=True, check=True, text=True).stdout
        if formatted != path.read_text():
            unformatted.append(path.name)
    assert not unformatted, f"run clang-format -i on {', '.join(unformatted)}"


# -- one boundary: no C entry point takes more than eight arguments ------------------------------------------

#: Most parameters a C entry point takes (its ``self`` aside): a job's tables and position travel as one request.
MOST_PARAMETERS = 8


def _callables(stub: ast.Module) -> list[tuple[str, ast.FunctionDef]]:
    """Every function of the stub, and every method of its classes, by qualified name."""
    found: list[tuple[str, ast.FunctionDef]] = []
    for node in stub.body:
        if isinstance(node, ast.FunctionDef):
            found.append((node.name, node))
        elif isinstance(node, ast.ClassDef):
            found.extend((f"{node.name}.{item.name}", item) for item in node.body if isinstance(item, ast.FunctionDef))
    return found


def _parameters(function: ast.FunctionDef, method: bool) -> list[str]:
    args = function.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return names[1:] if method else names


def test_every_c_entry_point_takes_at_most_eight_parameters() -> None:
    """Parsed from ``_native.pyi``, which ``tests/test_native.py`` holds to the module's exports."""
    stub = ast.parse((NATIVE.parent / "_native.pyi").read_text())
    callables = _callables(stub)
    assert len(callables) > 40 and any(name == "GameTables.__init__" for name, _ in callables)
    wide = {name: len(params) for name, function in callables
            if len(params := _parameters(function, "." in name)) > MOST_PARAMETERS}
    assert not wide, wide


def test_the_parameter_count_sees_what_it_forbids() -> None:
    planted = ast.parse("def f(a, b, c, d, e, f, g, h, i, /): ...\nclass K:\n    def m(self, a, *rest, b, **more): ...\n")
    counts = {name: len(_parameters(function, "." in name)) for name, function in _callables(planted)}
    assert counts == {"f": 9, "K.m": 4}


# -- one convention for deadlines ------------------------------------------------------------------------------


def test_only_deadline_c_reads_a_clock() -> None:
    """Every C loop keeps its deadline through ``deadline.h``: no other file reads a clock of its own."""
    clocks = re.compile(r"clock_gettime|QueryPerformanceCounter|gettimeofday|\btime\(|<time\.h>|lx_monotonic\(")
    readers = sorted(path.name for path in C_FILES if clocks.search(path.read_text()))
    assert readers == ["deadline.c", "deadline.h"]


# -- short functions ---------------------------------------------------------------------------------------------

#: Most lines a C function takes, its signature and braces included: each step of a long job is a function named
#: for what it does.
LONGEST_FUNCTION = 80


def _function_lengths(text: str) -> dict[str, int]:
    """Each function definition's lines, by name (the file formatted: a definition's name opens a line, its body's
    braces stand alone at the start of a line)."""
    lines = text.splitlines()
    found = {}
    for i, line in enumerate(lines):
        if line == "{" and i > 0 and (name := re.match(r"([A-Za-z_]\w*)\(", lines[i - 1])):
            end = lines.index("}", i)
            found[name.group(1)] = end - i + 3  # the return type's line, the name's line, the braces
    return found


def test_every_c_function_is_short() -> None:
    lengths = {f"{path.name}:{name}": n for path in C_FILES for name, n in _function_lengths(path.read_text()).items()}
    assert len(lengths) > 300
    long = {name: n for name, n in lengths.items() if n > LONGEST_FUNCTION}
    assert not long, long


def test_the_function_lengths_see_what_they_measure() -> None:
    text = "static int\nthree(void)\n{\n    return 3;\n}\n\nint\nfour(int x)\n{\n    x++;\n    return x;\n}\n"
    assert _function_lengths(text) == {"three": 5, "four": 6}
