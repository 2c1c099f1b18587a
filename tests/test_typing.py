"""The public API is typed: mypy --strict passes on the package, and type hints resolve at run time."""

from __future__ import annotations

import inspect
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
