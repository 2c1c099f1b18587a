"""``pure_python=True`` keeps the C extension out, the build included: a lexicon compiled and opened so, its queries
and jobs, and the Python examples of docs/games.md, docs/autofill.md and docs/search.md with every lexicon opened so
(its build too, and the word graphs written apart from a lexicon, as a leave table's KLV2) call no function of
``lexigraph._native``.

Each runs in a child process in which every public callable of the extension module is replaced by a tripwire that
records its name and calls through; the child prints the names recorded. (The ``Facade`` stays: it is the class every
:class:`lexigraph.Lexicon` is, and on the Python engine its ``in`` hands each word to Python.) A planted call shows the
tripwires see a C call.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lexigraph.buildinfo import c_module

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(c_module("_native") is None,
                                reason="the C extension is not built (or switched off): nothing to keep out")

#: Run first in the child: tripwires on the extension's callables; every lexicon and every build in Python.
TRIPWIRES = r"""
import functools, importlib, json, sys
from dataclasses import replace
import lexigraph
from lexigraph import lexicon
from lexigraph.compiler import builder
from lexigraph.formats import kwg

native = importlib.import_module("lexigraph._native")
CALLS = []

def tripwire(name, function):
    @functools.wraps(function)
    def recorded(*args, **kwargs):
        CALLS.append(name)
        return function(*args, **kwargs)
    return recorded

for name in dir(native):
    value = getattr(native, name)
    if not name.startswith("_") and callable(value) and name != "Facade":
        setattr(native, name, tripwire(name, value))

if FORCE_PURE:
    real_engines, real_options = lexicon.open_engines, builder.build_options
    lexicon.open_engines = lambda mapped, pure_python=False: real_engines(mapped, pure_python=True)
    builder.build_options = lambda options=None, keywords=None: replace(real_options(options, keywords),
                                                                       pure_python=True)
    kwg.c_module = lambda name: None  # word graphs written apart from a lexicon (a leave table's KLV2) too
"""

REPORT = "\nprint(json.dumps(sorted(set(CALLS))))\n"


def run_child(body: str, *, force_pure: bool, cwd: Path) -> list[str]:
    """The names of the extension's callables the child called while running ``body``."""
    code = f"FORCE_PURE = {force_pure}\n" + TRIPWIRES + body + REPORT
    env_path = str(ROOT / "tests")
    proc = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=1800,
                          env={**_environment(cwd), "PYTHONPATH": env_path})
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _environment(tmp: Path) -> dict[str, str]:
    sys.path.insert(0, str(ROOT / "tests" / "docs"))
    try:
        from test_doc_examples import environment
    finally:
        sys.path.pop(0)
    env: dict[str, str] = environment(tmp)
    env.pop("LEXIGRAPH_PURE_PYTHON", None)
    return env


JOBS = r"""
from lexigraph.compiler.options import BuildOptions
from lexigraph.crossword.fill import Rules, fill
from lexigraph.crossword.formats import grid_from_text
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.movegen import generate
from lexigraph.scrabble.position import Position

words = ["cat", "cab", "act", "tab", "bat", "abs", "at", "ta", "ab", "ba", "cats", "scab", "tabs"]
lexigraph.build(words, "w.lex", pure_python=True)
lexigraph.build(words, "w2.lex", BuildOptions(pure_python=True, min_length=3))
for lex in (lexigraph.load(words, pure_python=True), lexigraph.open("w.lex", pure_python=True),
            lexigraph.load(words + ["Scat", "x1"], BuildOptions(pure_python=True))):
    assert lex.engine.kind == "python"
    "cat" in lex, lex.check("tab"), lex.words(prefix="ca"), lex.anagram("tacs?"), lex.match("?a?"), lex.count("*")
    lex.cross("c??", 1, "?a?", 1), lex.children("ca"), lex.hooks("cat"), lex.search("length 3 and contains a")
lex = lexigraph.load(words, pure_python=True)
generate(lex, Position(Game.preset("scrabble")), "CATSB", top=3)
fill(lex, grid_from_text("...\n...\n..."), rules=Rules(allow_repeats=True))
"""


def test_a_lexicon_built_and_opened_pure_python_calls_no_c_function(tmp_path):
    assert run_child(JOBS, force_pure=False, cwd=tmp_path) == []


def test_the_tripwires_see_a_c_call(tmp_path):
    """The same child, a build and a lexicon without pure_python: the C calls are recorded."""
    calls = run_child("lexigraph.load(['cat', 'dog']).anagram('tac')\n", force_pure=False, cwd=tmp_path)
    assert {"build_graph", "hash_table", "alphagram_order", "bucket_rows", "scan_ascii"} <= set(calls), calls


PAGES = ["games.md", "autofill.md", "search.md"]

DOC_EXAMPLES = r"""
from pathlib import Path
from test_doc_examples import blocks, run_console, run_pycon, environment
page = Path({page!r})
env = environment(Path.cwd())
globs = {{"__name__": "__main__"}}
for info, body, line in blocks(page.read_text()):
    if info == "python" and body.lstrip().startswith(">>>"):
        info = "pycon"
    if "LEXIGRAPH_SHARED_DATA" in body or info not in ("console", "pycon"):
        continue
    if info == "console":
        run_console(body, f"{{page.name}}:{{line}}", Path.cwd(), env)  # the command line, another process
    else:
        run_pycon(body, f"{{page.name}}:{{line}}", page.name, line, globs)
"""


@pytest.mark.parametrize("page", PAGES)
def test_the_docs_examples_with_every_lexicon_pure_python_call_no_c_function(page, tmp_path):
    body = "sys.path.insert(0, " + repr(str(ROOT / "tests" / "docs")) + ")\n" + \
        DOC_EXAMPLES.format(page=str(ROOT / "docs" / page))
    assert run_child(body, force_pure=True, cwd=tmp_path) == []
