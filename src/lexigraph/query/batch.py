"""Batch membership: millions of words checked with a handful of array passes, or in C batches.

The engine answers (:meth:`~lexigraph.engine.interface.Engine.check_words`):
the C engine sends words to its probe eight at a time (their memory accesses
overlap); the Python engine encodes them together and looks them up in the
hash tables with NumPy.

>>> import lexigraph
>>> lex = lexigraph.open(pure_python=True)
>>> check_many(lex.engine, ["cat", "tac", "act"], lex.__contains__).tolist()
[True, False, True]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..engine.interface import Engine


def check_many(engine: Engine, words: Iterable[object], contains: Callable[[object], bool]) -> np.ndarray:
    """One boolean per word: is it a word? ``contains`` answers one word the batch leaves undecided."""
    items: list[object] = (
        words if isinstance(words, list) else words.tolist() if isinstance(words, np.ndarray) else list(words)
    )
    return engine.check_words(items, contains)
