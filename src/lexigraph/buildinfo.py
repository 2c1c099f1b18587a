"""What this installation of lexigraph runs with: its version and its C extension module.

>>> sorted(extensions()) == sorted(set(extensions()))
True
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
from pathlib import Path
from types import ModuleType
from typing import Any

#: This release of lexigraph (``lexigraph.__version__``; pyproject.toml says the same).
__version__ = "0.1.0"

#: The C extension modules lexigraph knows of: one, ``_native`` (its sources are in ``native/``);
#: each of its paths has a pure-Python twin.
KNOWN = ("_native",)


def pure_python() -> bool:
    """Whether ``LEXIGRAPH_PURE_PYTHON`` switches every C path off."""
    return bool(os.environ.get("LEXIGRAPH_PURE_PYTHON"))


def c_module(name: str) -> ModuleType | None:
    """The C extension module ``lexigraph.<name>``, or None: not built (no compiler) or switched off.

    Every module with a C path loads its extension through here, so one
    switch, ``LEXIGRAPH_PURE_PYTHON``, turns them all off.

    >>> c_module("_no_such_extension") is None
    True
    """
    if pure_python():
        return None
    try:
        return importlib.import_module(f"lexigraph.{name}")
    except ImportError:  # built without a C compiler: the pure-Python twin answers
        return None


def _built() -> list[str]:
    """The known modules that are compiled, or expected (their C sources are in ``native/``).

    Only known names: a module a former release compiled (``_speedups``, ``_build``...) may linger
    beside the package after an upgrade in place, but nothing loads it.
    """
    here = Path(__file__).parent
    names = set()
    for name in KNOWN:
        compiled = any((here / f"{name}{suffix}").exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)
        if compiled or any((here / "native").glob("*.c")):
            names.add(name)
    return sorted(names)


def extensions() -> dict[str, bool]:
    """Each C extension module of the package (built or expected), and whether it is in use.

    A module is in use when it imports and ``LEXIGRAPH_PURE_PYTHON`` is not set.
    """
    out: dict[str, bool] = {}
    off = pure_python()
    for name in _built():
        if off:
            out[name] = False
            continue
        try:
            importlib.import_module(f"lexigraph.{name}")
        except ImportError:
            out[name] = False
        else:
            out[name] = True
    return out


def version_text() -> str:
    """What ``lexigraph --version`` prints.

    >>> version_text().startswith("lexigraph ")
    True
    """
    ext = extensions()
    if not ext:
        c = "no C extension"
    else:
        c = ", ".join(f"{name} {'in use' if used else 'not in use'}" for name, used in ext.items())
        if pure_python():
            c += " (LEXIGRAPH_PURE_PYTHON is set)"
        elif not any(ext.values()):
            c += " (not compiled: pure-Python paths, slower)"
    return f"lexigraph {__version__} (C extension: {c})"
