"""The engines an open lexicon runs on: the store, the word graph and the engine of hot loops.

* :class:`~lexigraph.engine.store.Store` (:mod:`.store`): the length buckets of
  the mapped file, word ids, codes and words, prefix ranges, priorities;
* :class:`~lexigraph.engine.wordgraph.WordGraph` (:mod:`.wordgraph`): the DAWG
  section and its accessors (the only reader of arc records in Python);
* an :class:`~lexigraph.engine.interface.Engine` (:mod:`.interface`): lookups,
  walks, anagram index, move generation and fill propagation, either
  :class:`~lexigraph.engine.compiled.CompiledEngine` (C) or
  :class:`~lexigraph.engine.python.PythonEngine`, chosen once by
  :func:`open_engines` when a lexicon opens.

Queries and jobs take these three (an :class:`Engines`; a
:class:`lexigraph.Lexicon` is one) and never a lexicon's own members.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ..buildinfo import pure_python as pure_python_switch
from .compiled import CompiledEngine, available, native
from .interface import Engine
from .python import PythonEngine
from .store import Store
from .wordgraph import WordGraph

if TYPE_CHECKING:  # pragma: no cover
    from .fileformat import MappedFile

__all__ = ["Engine", "Engines", "Store", "WordGraph", "c_engine_available", "open_engines"]


class Engines(Protocol):
    """What queries and jobs run on: one open lexicon's store, word graph and engine."""

    @property
    def store(self) -> Store: ...

    @property
    def graph(self) -> WordGraph: ...

    @property
    def engine(self) -> Engine: ...


def c_engine_available() -> bool:
    """Whether the C engine can be used: the extension is built and ``LEXIGRAPH_PURE_PYTHON`` is not set."""
    return available()


def open_engines(mapped: "MappedFile", *, pure_python: bool = False) -> tuple[Store, WordGraph, Engine]:
    """The store, word graph and engine of a mapped lexicon file; the one place the engine is chosen.

    The C engine unless ``pure_python`` (or ``LEXIGRAPH_PURE_PYTHON``) asks
    for the Python one, or the extension is not built.

    >>> import lexigraph
    >>> from lexigraph.engine.fileformat import open_path
    >>> store, graph, engine = open_engines(open_path(lexigraph.lexicon.default_path()), pure_python=True)
    >>> engine.kind, engine.id_of_codes(store.alphabet.encode("zyzzyva")) >= 0
    ('python', True)
    """
    store = Store(mapped)
    module = None if pure_python or pure_python_switch() else native()
    max_length = max(store.lengths, default=0)
    if module is not None:
        graph = WordGraph(mapped, store.alphabet, max_length, module.walk_codes)
        engine: Engine = CompiledEngine(store, graph)
    else:
        graph = WordGraph(mapped, store.alphabet, max_length, None)
        engine = PythonEngine(store, graph)
    return store, graph, engine
