"""The package's layout: no module reaches into another's private names, every module is documented, and the
engine is called through its typed interface."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import lexigraph

PACKAGE = Path(lexigraph.__file__).resolve().parent
ROOT = PACKAGE.parents[1]
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


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
