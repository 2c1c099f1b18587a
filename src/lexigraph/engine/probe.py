"""Exact lookups: the word id of a word's tile codes, through the hash index.

Two implementations answer behind one interface (:class:`Probe`):
:class:`PythonProbe`, plain ``int`` arithmetic on a ``memoryview``, and
:class:`CProbe`, the optional C extension ``lexigraph._native``, which for alphabets of
single ASCII letters also encodes the words itself. Both apply the same
bounds: a probe stops at its table's end, and a slot that points past its
bucket ends the probe as "absent". Neither imports NumPy, so a one-shot
``lexigraph check`` starts fast.

>>> import lexigraph
>>> lex = lexigraph.open()
>>> probe = PythonProbe(lex.store)
>>> probe.id_of_codes(lex.alphabet.encode("aa")), probe.id_of_codes(b"\\x01\\x01\\x01\\x01\\x01\\x01")
(0, -1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol
from zlib import crc32

from ..buildinfo import c_module
from ..errors import FileFormatError
from .store import Store, little_endian_ints

if TYPE_CHECKING:  # pragma: no cover
    from .._native import Probe as NativeProbe

native: Any = c_module("_native")

#: Answer of :meth:`Probe.id_of_word` when the word must be encoded in Python first.
UNDECIDED = -2


def c_extension_available() -> bool:
    """Whether the C extension ``lexigraph._native`` is built and not switched off."""
    return native is not None


class Probe(Protocol):
    """Exact lookup over one store's hash index."""

    uses_c: bool

    def id_of_codes(self, key: bytes) -> int:
        """The word id of the tile codes ``key``, or -1."""

    def id_of_word(self, word: str) -> int:
        """The word id of ``word`` when the probe encodes words itself; -1 absent; ``UNDECIDED`` otherwise."""

    def close(self) -> None:
        """Release the buffer."""


class PythonProbe:
    """The pure-Python probe: the twin the C probe is tested against."""

    uses_c = False

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
        tables = self._tables
        table = tables[len(key)] if len(key) < len(tables) else None
        if table is None:
            return -1
        slots, home, base, length, count, first = table
        buf = self._buf
        i = (crc32(key) * home) >> 32
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

    def id_of_word(self, word: str) -> int:
        return UNDECIDED

    def close(self) -> None:
        self._tables = []
        for view in self._views:
            view.release()


class CProbe:
    """The C probe; with ``char_table`` (Latin-1 character -> tile code) it also encodes Latin-1 words."""

    uses_c = True

    def __init__(self, store: Store, char_table: bytes | None,
                 program: tuple[bytes, bytes, list[tuple[bytes, int]]] | None = None) -> None:
        self.engine: NativeProbe = native.Probe()
        tables = [
            (b.length, b.hash.offset, b.hash.slots, b.hash.width, b.hash.home, b.offset, b.count, b.first,
             b.alphagram_offset, b.alphagram_width)
            for b in store.buckets
        ]
        try:
            if program is not None:  # multi-letter tiles: greedy split in C
                prepare, codes, multi = program
                self.engine.attach(store.buffer, codes, tables, True, prepare, multi)
            else:
                self.engine.attach(store.buffer, char_table or bytes(256), tables, char_table is not None)
        except ValueError as e:
            raise FileFormatError(f"{store.name}: {e}") from None
        # The C methods themselves, bound: no Python frame between a query and the probe.
        self.id_of_codes: Callable[[bytes], int] = self.engine.id_of_codes
        self.id_of_word: Callable[[str], int] = self.engine.id_of_word

    def close(self) -> None:
        self.engine.release()


def make_probe(store: Store, *, pure_python: bool = False) -> Probe:
    """The C probe when the extension is built (and ``pure_python`` is false), else the Python one."""
    if native is None or pure_python:
        return PythonProbe(store)
    return CProbe(store, store.alphabet.latin1_table, store.alphabet.latin1_program)
