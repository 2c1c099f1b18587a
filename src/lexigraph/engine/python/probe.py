"""Exact lookups in Python: the word id of a word's tile codes, through the hash index (the C probe's twin).

Plain ``int`` arithmetic on a ``memoryview``, no NumPy, so that a one-shot
``lexigraph check`` starts fast. A word's home slot in its length's table
is ``crc32(codes) * home >> 32`` (:func:`lexigraph.engine.hashing.home_slot`);
a slot holds a row of the bucket plus one (0: empty) and probes run forward
to the table's end. A slot that points past its bucket ends the probe as
"absent", as the C probe does.

>>> import lexigraph
>>> lex = lexigraph.open()
>>> probe = PythonProbe(lex.store)
>>> probe.id_of_codes(lex.alphabet.encode("aa")), probe.id_of_codes(b"\\x01\\x01\\x01\\x01\\x01\\x01")
(0, -1)
"""

from __future__ import annotations

from typing import Any

from ..hashing import home_slot
from ..store import Store, little_endian_ints


class PythonProbe:
    """Exact lookups over one store's hash tables."""

    def __init__(self, store: Store) -> None:
        buf = store.buffer
        self._buf = buf
        self._views: list[memoryview] = []
        # Indexed by length: (slots, home slots, byte offset of row "-1", length, count, first id).
        self._tables: list[tuple[Any, int, int, int, int, int] | None] = [None] * (max(store.lengths, default=0) + 1)
        for b in store.buckets:
            t = b.hash
            view = memoryview(buf)[t.offset : t.offset + t.slots * t.width]
            self._views.append(view)
            slots = little_endian_ints(view, "H" if t.width == 2 else "I")
            self._tables[b.length] = (slots, t.home, b.offset - b.length, b.length, b.count, b.first)

    def id_of_codes(self, key: bytes) -> int:
        """The word id of the tile codes ``key``, or -1."""
        tables = self._tables
        table = tables[len(key)] if len(key) < len(tables) else None
        if table is None:
            return -1
        slots, home, base, length, count, first = table
        buf = self._buf
        i = home_slot(key, home)
        n = len(slots)
        while i < n:
            v = slots[i]
            if not v or v > count:
                return -1
            start = base + v * length
            if buf[start : start + length] == key:
                return first + int(v) - 1
            i += 1
        return -1

    def close(self) -> None:
        self._tables = []
        for view in self._views:
            view.release()
