"""Writing a lexicon back out: plain and scored lists, Hasbro ``.daw``, the TWL06 table, wolges's KWG.

(Leave tables are written by :mod:`lexigraph.scrabble.leaves`, beside the table.)"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Protocol

import numpy as np

from . import daw
from . import dawg32
from . import kwg
from .. import dawg
from ..errors import LexiconError
from ..support.files import refuse_overwrite, write_atomic
from ..support.text import quote
from ..engine.store import Store


class Exportable(Protocol):
    """What an export reads of an open lexicon (a :class:`lexigraph.Lexicon` is one): its store, the file it
    came from (never written over), and its engine choice (the KWG writer follows it)."""

    @property
    def store(self) -> Store: ...

    @property
    def path(self) -> str: ...

    @property
    def pure_python(self) -> bool: ...

EXPORT_FORMATS = ("text", "scored", "daw", "dawg32", "kwg")
#: ``progress(stage, done, total)``, as the builder's (:data:`lexigraph.compiler.builder.Progress`).
Progress = Callable[[str, int, int], None]


def _trie(store: Store) -> dawg.Trie:
    """The lexicon's trie, rebuilt from its (validated) length buckets."""
    ids = store.sort_ids(np.arange(store.word_count))
    lens = store.lengths_of_ids(ids)
    width = int(lens.max())
    padded = store.codes_of_ids(ids, width, lens)
    flat = padded[np.arange(width)[None, :] < lens[:, None]]
    starts = np.cumsum(lens) - lens
    return dawg.build_trie(flat, starts, lens)


def _kwg(store: Store, *, pure_python: bool) -> bytes:
    """The lexicon as wolges's KWG: its words in code order, in bulk (:func:`lexigraph.formats.kwg.from_codes`)."""
    ids = store.sort_ids(np.arange(store.word_count))
    lens = store.lengths_of_ids(ids).astype(np.int64)
    width = int(lens.max()) if len(lens) else 0
    padded = store.codes_of_ids(ids, width, lens)
    flat = padded[np.arange(width)[None, :] < lens[:, None]]  # row by row: each word's codes in turn
    return kwg.from_codes(flat, lens, store.alphabet, pure_python=pure_python)


def to_bytes(lex: Exportable, format: str, progress: Progress | None = None) -> bytes:
    """The lexicon in ``format`` (one of ``text``, ``scored``, ``daw``, ``dawg32``, ``kwg``).

    ``progress(stage, 0, 1)`` is called as each stage starts (as the builder reports its stages).

    >>> import lexigraph
    >>> to_bytes(lexigraph.load(["cat;70", "dog"]), "scored")
    b'cat;70\\ndog;50\\n'
    """
    if not isinstance(format, str) or format not in EXPORT_FORMATS:
        raise LexiconError(f"unknown export format {quote(format)}; choose one of {', '.join(EXPORT_FORMATS)}")
    store = getattr(lex, "store", None)
    if not isinstance(store, Store):
        raise LexiconError(f"export takes an open lexicon, not {type(lex).__name__}")
    labels = list(store.alphabet.labels)
    if progress:
        progress("ordering the words", 0, 1)
    if format == "kwg":
        if progress:
            progress("building the DAWG and the GADDAG", 0, 1)
        return _kwg(store, pure_python=bool(getattr(lex, "pure_python", False)))
    if format in ("text", "scored"):
        ids = store.sort_ids(np.arange(store.word_count))
        words = store.words_of_ids(ids)
        if format == "text":
            return ("\n".join(words) + "\n").encode("utf-8")
        prio = store.priorities()[ids].tolist()
        return "".join(f"{w};{p}\n" for w, p in zip(words, prio)).encode("utf-8")
    trie = _trie(store)
    if progress:
        progress("building the word graph", 0, 1)
    if format == "daw":
        return daw.write(dawg.minimize(trie, accept_on_edge=True), labels)
    return dawg32.write(dawg.minimize(trie, accept_on_edge=False), labels)


def export(lex: Exportable, dest: str | os.PathLike[str], format: str, progress: Progress | None = None) -> int:
    """Write the lexicon to ``dest`` atomically; returns the number of bytes written.

    A ``dest`` that is the lexicon's own file (or the word list it was
    compiled from), directly or through links, is refused. ``progress``: as
    :func:`to_bytes` reports it, and ``"writing"`` last.
    """
    if not isinstance(dest, (str, os.PathLike)):
        raise LexiconError(f"export writes to a path, not {type(dest).__name__}")
    inputs = [getattr(lex, "path", None)]
    refuse_overwrite(dest, inputs)
    data = to_bytes(lex, format, progress)
    if progress:
        progress("writing", 0, 1)
    write_atomic(dest, data, inputs=inputs)
    return len(data)
