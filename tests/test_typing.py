"""The public API is typed: mypy --strict passes on the package, and type hints resolve at run time."""

from __future__ import annotations

import ast
import inspect
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import lexigraph
from lexigraph.engine import store, wordgraph

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_strict_passes_on_the_package():
    pytest.importorskip("mypy", reason="mypy is in the test extras: pip install -e '.[test]'")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "src/lexigraph"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


@pytest.mark.parametrize("cls", [lexigraph.Lexicon, store.Store, wordgraph.WordGraph, wordgraph.Arc])
def test_type_hints_resolve_on_every_public_method(cls):
    for name, member in inspect.getmembers(cls):
        if name.startswith("_") or not callable(member):
            continue
        typing.get_type_hints(member)  # raises on a name that does not resolve


def test_star_import_does_not_shadow_open():
    namespace: dict[str, object] = {}
    exec("from lexigraph import *", namespace)
    assert "open" not in namespace and "Lexicon" in namespace


def test_anagram_is_typed_by_its_blanks_flag():
    if shutil.which("mypy") is None and not _has_mypy():
        pytest.skip("mypy is not installed")
    code = (
        "import lexigraph\n"
        "from lexigraph.query.anagram import AnagramWithBlanks\n"
        "lex = lexigraph.open()\n"
        "ws: list[str] = lex.anagram('top')\n"
        "xs: list[AnagramWithBlanks] = lex.anagram('top', blanks=True)\n"
    )
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout


def _has_mypy() -> bool:
    try:
        import mypy  # noqa: F401
    except ImportError:
        return False
    return True


# -- `type: ignore` and `Any`: counted over the package's source --------------------------------------------------

PACKAGE = ROOT / "src" / "lexigraph"
SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
IGNORE = re.compile(r"#\s*type:\s*ignore(\[[^\]]*\])?")
#: At most this many `type: ignore` in the whole package (issue 33), each saying why.
MAX_TYPE_IGNORES = 5
#: At most this share of the public functions and methods may name `Any` in their signature (issue 33).
MAX_ANY_SHARE = 0.03


def relative(path: Path, package: Path = PACKAGE) -> str:
    return path.relative_to(package).as_posix()


def type_ignores(sources: list[Path], package: Path = PACKAGE) -> list[tuple[str, int, str]]:
    """Every `type: ignore` comment: (file, line, the line's text)."""
    return [(relative(p, package), no, line.strip()) for p in sources
            for no, line in enumerate(p.read_text("utf-8").splitlines(), 1) if IGNORE.search(line)]


def says_why(path: Path, no: int) -> bool:
    """Whether the `type: ignore` on line ``no`` comes with a reason: a comment after it, or on the line above."""
    lines = path.read_text("utf-8").splitlines()
    after = IGNORE.split(lines[no - 1], maxsplit=1)[-1]
    return bool(re.search(r"#\s*\S", after)) or lines[no - 2].strip().startswith("#")


def any_aliases(sources: list[Path]) -> set[str]:
    """Module-level names of the package bound to a type that holds `Any` (``Document = dict[str, Any]``)."""
    names = set()
    for path in sources:
        for node in ast.parse(path.read_text("utf-8")).body:
            target, value = None, None
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                target, value = node.targets[0].id, node.value
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                target, value = node.target.id, node.value
            if target and not isinstance(value, ast.Constant) and re.search(r"\bAny\b", ast.unparse(value)):
                names.add(target)
    return names


def public_signatures(sources: list[Path], package: Path = PACKAGE) -> list[tuple[str, bool]]:
    """Each public function and method of the public modules: ``("file:Class.name", names Any)``. `Any` counts
    written out or through a module-level alias that holds it."""
    aliases = any_aliases(sources)
    mentions = re.compile(r"\b(" + "|".join(["Any", *sorted(aliases)]) + r")\b")
    out: list[tuple[str, bool]] = []

    def visit(body: list[ast.stmt], where: str, prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
                a = node.args
                annotations = [x.annotation for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
                               if x is not None] + [node.returns]
                out.append((f"{where}:{prefix}{node.name}",
                            any(x is not None and mentions.search(ast.unparse(x)) for x in annotations)))
            elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                visit(node.body, where, f"{prefix}{node.name}.")

    for path in sources:
        where = relative(path, package)
        if not any(part.startswith("_") and part not in ("__init__.py", "__main__.py") for part in where.split("/")):
            visit(ast.parse(path.read_text("utf-8")).body, where, "")
    return out


def test_at_most_five_type_ignores_in_the_package():
    found = type_ignores(SOURCES)
    assert len(found) <= MAX_TYPE_IGNORES, "\n".join(f"{f}:{n}: {t}" for f, n, t in found)


def test_each_type_ignore_of_the_package_says_why():
    silent = [(f, n, t) for f, n, t in type_ignores(SOURCES) if not says_why(PACKAGE / f, n)]
    assert not silent, silent


def _share(signatures: list[tuple[str, bool]]) -> tuple[float, list[str]]:
    with_any = [name for name, has in signatures if has]
    return len(with_any) / max(len(signatures), 1), with_any


def test_any_in_at_most_3_percent_of_the_packages_public_signatures():
    share, with_any = _share(public_signatures(SOURCES))
    assert share <= MAX_ANY_SHARE, f"{share:.1%}:\n" + "\n".join(with_any)


def test_the_counts_see_what_they_count(tmp_path):
    """A planted package: an ignore without a reason and one with, Any written out and through an alias, a private
    function that does not count."""
    package = tmp_path / "planted"
    package.mkdir()
    source = package / "mod.py"
    source.write_text(
        "from typing import Any\n"
        "Document = dict[str, Any]\n"
        "def plain(x: int) -> int:\n    return x  # type: ignore[return-value]\n"
        "def loose(x: Any) -> None: ...\n"
        "def aliased() -> Document: ...\n"
        "def _private(x: Any) -> Any: ...\n"
        "class Thing:\n    def method(self) -> 'list[Any]': ...\n"
        "    # the stub declares it wrong\n    x = 1  # type: ignore[assignment]\n"
    )
    found = type_ignores([source], package)
    assert [n for _, n, _ in found] == [4, 11]
    assert [says_why(source, n) for _, n, _ in found] == [False, True]
    assert public_signatures([source], package) == [
        ("mod.py:plain", False), ("mod.py:loose", True), ("mod.py:aliased", True), ("mod.py:Thing.method", True)]
