"""lexigraph: compile word lists into one memory-mapped lexicon and query it fast.

>>> import lexigraph
>>> lex = lexigraph.open()            # the built-in ENABLE lexicon
>>> "quixotic" in lex, lex.children("quixoti")
(True, ['c', 's'])
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .buildinfo import __version__
from .errors import (
    AlphabetError,
    BuildError,
    DeadlineExceeded,
    FileFormatError,
    LexiconError,
    QueryError,
    ResourceBusy,
    SourceError,
)
from .lexicon import Lexicon, load
from .lexicon import open as open  # exported, but kept out of __all__ (no shadowing by import *)

# Building pulls in NumPy and the graph code; a plain `lexigraph check dog`
# never needs them, so they load on first use.
_LAZY = {"build": "compiler.builder", "BuildResult": "compiler.builder", "BuildOptions": "compiler.options",
         "Alphabet": "alphabet",
         "extensions": "buildinfo", "Game": "scrabble.game", "Position": "scrabble.position", "Move": "scrabble.moves"}


#: Modules reachable as ``lexigraph.NAME`` (``from lexigraph import twl``: the classic TWL06 module's drop-in).
_MODULES = {"twl": "twl"}


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        value = import_module(f".{_MODULES[name]}", __name__)
        globals()[name] = value
        return value
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'lexigraph' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "Alphabet",
    "AlphabetError",
    "BuildError",
    "BuildOptions",
    "BuildResult",
    "DeadlineExceeded",
    "FileFormatError",
    "Game",
    "Lexicon",
    "LexiconError",
    "Move",
    "Position",
    "QueryError",
    "ResourceBusy",
    "SourceError",
    "build",
    "extensions",
    "load",
    "__version__",
]
# `open` is deliberately not in __all__: `from lexigraph import *` must not shadow the built-in.
