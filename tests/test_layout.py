"""The package's layout: the data flows one way (no import cycle among modules or stages, imports inside functions
counted; each import inside a function on a list with its reason), no module reaches into another's private names,
every module is documented, and the engine is called through its typed interface."""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path

import pytest

import lexigraph

PACKAGE = Path(lexigraph.__file__).resolve().parent
ROOT = PACKAGE.parents[1]
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _load_import_graph():
    """tools/import_graph.py, the reader of the package's imports (the architecture doc's diagram is drawn by it)."""
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "tools" / "import_graph.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["import_graph"] = module
    spec.loader.exec_module(module)
    return module


import_graph = _load_import_graph()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve(path: Path, module: str | None, level: int) -> str:
    """The absolute name of a ``from`` import in the module at ``path``."""
    if not level:
        return module or ""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package.pop()
    base = package[: len(package) - level + 1]
    return ".".join(base + ([module] if module else []))


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def violations(path: Path) -> list[str]:
    """Private names this module takes from another module, and direct imports of the C extension."""
    tree = ast.parse(path.read_text("utf-8"))
    here = module_name(path)
    found = []
    imported: dict[str, str] = {}  # local name -> module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = resolve(path, node.module, node.level)
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if full == "lexigraph._native" or source == "lexigraph._native":
                    found.append(f"{here}: imports the C extension by name ({full})")
                elif private(alias.name) and source != here:
                    found.append(f"{here}: from {source} import {alias.name}")
                else:
                    imported[alias.asname or alias.name] = full
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "lexigraph._native":
                    found.append(f"{here}: imports the C extension by name")
                imported[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else \
                    alias.name.split(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr) and isinstance(node.value, ast.Name):
            target = imported.get(node.value.id)
            if target is not None and target.startswith("lexigraph") and _is_module(target):
                found.append(f"{here}: {node.value.id}.{node.attr} ({target})")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "import_module":
            if node.args and isinstance(node.args[0], ast.Constant) and "_native" in str(node.args[0].value):
                found.append(f"{here}: imports the C extension by name")
    return found


def _is_module(name: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def test_no_module_takes_a_private_name_from_another():
    found = [v for path in MODULES for v in violations(path)]
    assert not found, "\n".join(found)


def test_the_c_extension_is_loaded_only_through_buildinfo():
    pattern = re.compile(r"lexigraph\._native|from \.+ import _native|c_module\(")
    users = {module_name(p) for p in MODULES if pattern.search(p.read_text("utf-8"))}
    # c_module("_native") is the one door; these modules hold it (by name, the string "_native")
    for path in MODULES:
        text = path.read_text("utf-8")
        assert "import _native" not in text and "lexigraph._native import" not in text, module_name(path)
    assert "lexigraph.buildinfo" in users


def test_the_layout_checker_sees_what_it_forbids(tmp_path):
    """The checks above on a planted module: they would fail if a module broke the rules."""
    planted = PACKAGE / "query" / "_layout_probe_planted.py"
    assert not planted.exists()
    planted.write_text("from ..engine.store import _int\nfrom .. import _native\nfrom ..engine import store\n"
                       "x = store._int\n")
    try:
        found = violations(planted)
    finally:
        planted.unlink()
    assert len(found) == 3, found


def documented_names() -> str:
    return (ROOT / "docs" / "architecture.md").read_text("utf-8")


def test_every_module_is_named_in_the_architecture_doc():
    doc = documented_names()
    sources = MODULES + sorted((PACKAGE / "native").glob("*.c"))
    missing = [str(p.relative_to(PACKAGE)) for p in sources if str(p.relative_to(PACKAGE)) not in doc]
    assert not missing, missing


ENGINE_CALLERS = ["query", "study", "scrabble", "crossword", "lexicon.py"]


def test_no_type_ignore_at_engine_call_sites():
    found = []
    for part in ENGINE_CALLERS:
        where = PACKAGE / part
        for path in ([where] if where.is_file() else sorted(where.rglob("*.py"))):
            for no, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                if "engine." in line and "type: ignore" in line:
                    found.append(f"{path.relative_to(PACKAGE)}:{no}: {line.strip()}")
    assert not found, "\n".join(found)


# -- one direction: no cycle, and every import inside a function on the list with its reason ------------------

#: Third-party packages that must be imported only where they are needed (inside the function that needs them)
#: or at the top of a module that needs them anyway; an import of one inside a function is on a list below.
HEAVY = frozenset({"numpy", "tqdm", "dask", "distributed", "starlette", "uvicorn", "httptools", "wordfreq",
                   "playwright", "argcomplete", "puz", "jsonschema"})

NUMPY_AT_START = ("NumPy (and the modules that import it) loads on first use: `lexigraph check dog` starts without "
                  "it (tests/cli/test_main.py::test_start_up_imports_nothing_heavy)")
PYTHON_ENGINE = ("the Python engine's twins (and NumPy) load only when that engine is chosen, and each on first use: "
                 "`LEXIGRAPH_PURE_PYTHON=1 lexigraph check dog` starts without NumPy")

#: Imports made inside a function of the package, each deferring something heavy: (importer, imported) -> why.
DEFERRED: dict[tuple[str, str], str] = {
    ("lexigraph.lexicon", "lexigraph.compiler.builder"): NUMPY_AT_START + "; opening a .lex file builds nothing",
    **{("lexigraph.lexicon", f"lexigraph.{query}"): NUMPY_AT_START + "; the Lexicon hands each query to its module"
       for query in ("query.anagram", "query.batch", "query.crossings", "query.diff", "query.listing",
                     "query.matching", "study.hooks", "study.probability", "study.search")},
    ("lexigraph.lexicon", "lexigraph.compiler.word_map"): NUMPY_AT_START + "; a lexicon opens without its word map",
    ("lexigraph.opener", "lexigraph.compiler.builder"): NUMPY_AT_START + "; a lexicon file or a cached list opens "
                                                        "without a build",
    **{("lexigraph.compiler.sources", f"lexigraph.formats.{fmt}"): NUMPY_AT_START + "; the graph formats use it, and a "
       "cached word list's bytes are read without them (`-L words.txt check dog`)" for fmt in ("daw", "dawg32", "kwg")},
    **{("lexigraph.engine.store", "numpy"): NUMPY_AT_START, ("lexigraph.engine.wordgraph", "numpy"): NUMPY_AT_START,
       ("lexigraph.engine.hashing", "numpy"): NUMPY_AT_START, ("lexigraph.engine.compiled", "numpy"): NUMPY_AT_START,
       ("lexigraph.engine.interface", "numpy"): NUMPY_AT_START},
    ("lexigraph.engine.python", "numpy"): PYTHON_ENGINE,
    ("lexigraph.engine.python.move_generator", "lexigraph.engine.python.leaves"): PYTHON_ENGINE,
    **{("lexigraph.engine.python", f"lexigraph.engine.python.{twin}"): PYTHON_ENGINE
       for twin in ("anagrams", "batch", "leaves", "propagation")},
    **{(f"lexigraph.engine.python.{twin}", "numpy"): PYTHON_ENGINE
       for twin in ("endgame", "movegen", "selfplay", "simulation")},
    **{(f"lexigraph.scrabble.{job}", "numpy"): NUMPY_AT_START
       for job in ("leavegen", "movegen", "runs", "simulation", "simulation_player")},
    ("lexigraph.cli.main", "lexigraph.server"): "the server (and Starlette, uvicorn) loads only for `lexigraph serve`",
    ("lexigraph.cli.progress", "tqdm"): "tqdm costs 45-150 ms to import: loaded when a bar is about to be drawn "
                                        "(docs/architecture.md, Progress)",
    ("lexigraph.cli.completion", "argcomplete"): "optional (lexigraph[completion]); needed only when the shell asks "
                                                 "for completions",
    ("lexigraph.compiler.scores", "wordfreq"): "optional (lexigraph[wordfreq]) and heavy: only for --score-by wordfreq",
    ("lexigraph.crossword.formats.acrosslite", "puz"): "optional (lexigraph[puz]): only to read or write a .puz "
                                                        "file",
    ("lexigraph.scrabble.workers", "distributed"): "optional (lexigraph[cluster]): only to run on a Dask cluster",
    ("lexigraph.scrabble.simulation", "distributed"): "optional (lexigraph[cluster]): only to simulate on a Dask "
                                                      "cluster",
    ("lexigraph.server", "uvicorn"): "optional (lexigraph[serve]): only when the server runs",
    ("lexigraph.server.background", "uvicorn"): "optional (lexigraph[serve]): only when the server runs",
    ("lexigraph.server.protocol", "uvicorn"): "optional (lexigraph[serve]): only when the server runs",
    ("lexigraph.server.protocol", "httptools"): "optional: uvicorn's faster HTTP parser, when installed",
    ("lexigraph.server", "lexigraph.server.app"): "Starlette loads only when the server runs (`serve --help` "
                                                  "builds its options without it)",
}

#: Imports inside functions in the files other parts of issue 33 restructure (engine/, server/, the game jobs'
#: self-play, simulation, move generation, endgame and leave learning): each to be moved to the top of its module
#: or justified in DEFERRED by that work. Delete an entry once its import is gone.
PENDING: dict[tuple[str, str], str] = {}
PENDING_CYCLES: list[list[str]] = []


def inside_functions(found) -> dict[tuple[str, str], list[int]]:
    """The imports made inside functions, of the package or of a heavy package: (importer, imported) -> lines."""
    out: dict[tuple[str, str], list[int]] = {}
    for i in found:
        if i.in_function and (i.of_package or i.imported in HEAVY):
            out.setdefault((i.importer, i.imported), []).append(i.line)
    return out


@pytest.fixture(scope="module")
def found():
    return import_graph.all_imports()


def test_no_import_cycle_among_modules(found):
    cycles = import_graph.cycles(import_graph.module_graph(found))
    unexpected = [c for c in cycles if c not in PENDING_CYCLES]
    assert not unexpected, "import cycles (imports inside functions count):\n" + "\n".join(map(" ".join, unexpected))
    gone = [c for c in PENDING_CYCLES if c not in cycles]
    assert not gone, f"these cycles are gone: delete them from PENDING_CYCLES: {gone}"


def test_no_import_cycle_among_stages(found):
    graph = import_graph.stage_graph(found)
    cycles = import_graph.cycles(graph)
    assert not cycles, f"stages that import each other (imports inside functions count): {cycles}"


def test_every_import_inside_a_function_is_on_the_list_with_its_reason(found):
    unlisted = {pair: lines for pair, lines in inside_functions(found).items() if pair not in DEFERRED
                and pair not in PENDING}
    assert not unlisted, "imports inside functions that are on no list (move them to the top of the module, or " \
        "add them to DEFERRED with what they defer):\n" + "\n".join(f"{a} -> {b} (lines {lines})"
                                                                     for (a, b), lines in sorted(unlisted.items()))


def test_the_lists_hold_only_imports_still_made(found):
    made = inside_functions(found)
    stale = sorted(pair for pair in [*DEFERRED, *PENDING] if pair not in made)
    assert not stale, f"no longer imported inside a function: delete them from DEFERRED or PENDING: {stale}"
    assert not set(DEFERRED) & set(PENDING)


#: The modules whose deferred imports other parts of issue 33 comment as they restructure them (engine/, server/,
#: the game jobs' self-play and simulation); delete an entry once its module's deferred imports are commented.
COMMENTED_ELSEWHERE: tuple[str, ...] = ()


def test_each_deferred_import_is_commented_where_it_is_made(found):
    """Where the package defers an import (DEFERRED), a comment within the lines before it says why: the reader
    of the function sees it without opening this test."""
    uncommented = []
    for (importer, imported), lines in inside_functions(found).items():
        if (importer, imported) not in DEFERRED or importer.startswith(COMMENTED_ELSEWHERE):
            continue
        source = import_graph.modules()[importer].read_text("utf-8").splitlines()
        for line in lines:
            near = source[max(0, line - 4): line]
            if not any("#" in text for text in near):
                uncommented.append(f"{importer}:{line} -> {imported}")
    assert not uncommented, "deferred imports without a comment saying why:\n" + "\n".join(uncommented)


def _planted_package(root: Path) -> Path:
    """A package named lexigraph with a module cycle made through an import inside a function, a stage cycle, an
    unlisted import of NumPy inside a function, and an import under TYPE_CHECKING that must not count."""
    package = root / "lexigraph"
    for folder in (package, package / "low", package / "high"):
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text("")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text("def f():\n    from . import a\n    import numpy\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import d\n")
    (package / "d.py").write_text("from . import c\n")
    (package / "low" / "x.py").write_text("from ..high import y\n")
    (package / "high" / "y.py").write_text("def g():\n    from ..low import x\n")
    return package


def test_the_import_checks_see_what_they_forbid(tmp_path):
    package = _planted_package(tmp_path)
    found = import_graph.all_imports(package)
    assert import_graph.cycles(import_graph.module_graph(found)) == [
        ["lexigraph.a", "lexigraph.b"], ["lexigraph.high.y", "lexigraph.low.x"]]
    assert import_graph.cycles(import_graph.stage_graph(found)) == [["a", "b"], ["high", "low"]]  # modules: stages
    unlisted = {pair for pair in inside_functions(found) if pair not in DEFERRED}
    assert unlisted == {("lexigraph.b", "lexigraph.a"), ("lexigraph.b", "numpy"),
                        ("lexigraph.high.y", "lexigraph.low.x")}



# -- docs/architecture.md: its chart drawn from the imports, its references to the code resolved ---------------


def test_the_architecture_docs_stages_are_the_imports(found):
    """The floors and the chart in docs/architecture.md are what tools/import_graph.py draws from the source now."""
    block = import_graph.documented_block(documented_names())
    assert block is not None, "docs/architecture.md has lost its generated block"
    assert block == import_graph.doc_block(found), "the imports changed: run python tools/import_graph.py --write"


def test_the_floors_put_each_stage_above_every_stage_it_imports(found):
    graph = import_graph.stage_graph(found)
    floor = import_graph.floors(graph)
    assert all(floor[a] > floor[b] for a, targets in graph.items() for b in targets)


#: The stages below lexicon.py: none of them imports it (they take a store, the engines or a word source).
BELOW_THE_LEXICON = ("errors", "buildinfo", "support", "alphabet", "dawg", "engine", "formats", "compiler", "query",
                     "study", "crossword")


def test_no_stage_below_the_lexicon_imports_it(found):
    users = sorted({i.importer for i in found if i.imported == "lexigraph.lexicon"
                    and import_graph.stage(i.importer) in BELOW_THE_LEXICON})
    assert not users, users


CODE_REFERENCE = re.compile(r"`((?:[a-z_]+/)*[a-z_]+\.py):([A-Za-z_][\w.]*)`")


def test_every_code_reference_in_the_architecture_doc_resolves():
    """Each `path/module.py:name` the doc names (the request followed from the command line to C, above all) is a
    name of that module, so that a rename shows up here rather than in a reader's search."""
    missing = []
    for path, name in CODE_REFERENCE.findall(documented_names()):
        module = "lexigraph." + path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        try:
            target: object = importlib.import_module(module)
        except ImportError:
            missing.append(f"{path}: no such module")
            continue
        for part in name.split("."):
            target = getattr(target, part, None)
        if target is None:
            missing.append(f"{path}:{name}")
    assert not missing, missing
    assert len(CODE_REFERENCE.findall(documented_names())) >= 20  # the walk-through is there
