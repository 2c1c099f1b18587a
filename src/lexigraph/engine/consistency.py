"""The word graph against the length buckets: whether the graph spells exactly the buckets' words, checked once.

Both engines ask it before a walk of the graph answers and before a job
reads the graph (:meth:`~lexigraph.engine.interface.Engine.check_consistent`);
they differ only in how they walk the graph to answer it (the C walk or the
Python one), which each hands this check at each ask (``spells_the_buckets``:
the check keeps no reference to its engine, so that an engine it belongs to
is freed, and its file unmapped, as soon as it is dropped). The walk
is bounded: paths no longer than the longest word, no more words than the
buckets hold, no more arcs read than the words have tiles. Queries run in
threads (the server): the first asker runs the walk under a lock, every
later one reads the verdict.

>>> check = GraphCheck("tiny")
>>> check.holds(lambda: True), check.known_to_hold
(True, True)
>>> forged = GraphCheck("forged")
>>> forged.holds(lambda: False)
False
>>> forged.require(lambda: True)  # the verdict stands
Traceback (most recent call last):
...
lexigraph.errors.FileFormatError: forged: the word graph and the length buckets hold different words
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..errors import FileFormatError


class GraphCheck:
    """Whether one lexicon's word graph spells exactly its buckets' words (see the module docstring)."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._verdict: bool | None = None
        self._lock = threading.Lock()

    @property
    def known_to_hold(self) -> bool:
        """Whether the check has run and passed (it is not run here)."""
        return self._verdict is True

    def require(self, spells_the_buckets: Callable[[], bool]) -> None:
        """Raise :class:`~lexigraph.errors.FileFormatError` unless the graph spells exactly the buckets' words
        (``spells_the_buckets``: the engine's walk, run the first time only)."""
        if self._verdict is True:
            return
        with self._lock:  # one check, seen by every thread
            if self._verdict is None:
                self._verdict = False  # a check that raises has failed, for good
                self._verdict = spells_the_buckets()
        if not self._verdict:
            raise FileFormatError(f"{self._name}: the word graph and the length buckets hold different words")

    def holds(self, spells_the_buckets: Callable[[], bool]) -> bool:
        """:meth:`require` as a yes or no (the check runs here if it has not yet)."""
        if self._verdict is None:
            try:
                self.require(spells_the_buckets)
            except FileFormatError:
                pass
        return bool(self._verdict)
