"""A lexicon's word map opened: mapped, checked, its lookups in C or in Python as the lexicon's engine chose.

:func:`open_word_map` maps a ``.lxw`` file (``docs/format.md``), refuses a
forged or damaged one, and a map built for another lexicon (another size or
body checksum), with a :class:`~lexigraph.errors.FileFormatError`; then
makes the lookups of the lexicon's engine kind: the C ``WordMap``
(``native/wordmap.c``, whose ``lx_wordmap_*`` functions move generation calls
without the GIL) or its twin :class:`.python.wordmap.PythonWordMap`. Both
answer the same.

>>> import lexigraph, tempfile, os
>>> from lexigraph.compiler.word_map import build_word_map
>>> lex = lexigraph.load(["ant", "tan", "nat", "tat", "at", "taunt"])
>>> folder = tempfile.mkdtemp()
>>> _ = build_word_map(lex.store, os.path.join(folder, "tiny.lxw"))
>>> wm = open_word_map(os.path.join(folder, "tiny.lxw"), lex.store, lex.engine.kind)
>>> wm.words("tn?")
[('ant', 'a'), ('nat', 'a'), ('tan', 'a')]
>>> wm.words("TANTU", 3), wm.has_word("t??")
([('ant', ''), ('nat', ''), ('tan', ''), ('tat', '')], True)
>>> wm.close()
"""

from __future__ import annotations

import math
import mmap
import os
import zlib
from itertools import product
from typing import Any

from ..buildinfo import c_module
from ..errors import FileFormatError, QueryError
from .python.wordmap import Hit, Mappable, PythonWordMap, parse_word_map
from .store import Store
from .wordmap_layout import HEADER_SIZE
from .wordmap_layout import lexicon_identity as layout_identity

#: The character that stands for a blank in :meth:`WordMap.words`.
BLANK = "?"
#: At most this many choices of letters are walked for one :meth:`WordMap.words` call (a bound on its time).
MAX_SUBSETS = 1 << 16


def lexicon_identity(store: Store) -> tuple[int, int]:
    """The lexicon file's size and the CRC-32 of its body (its header's bytes 40..44): what a map is built for."""
    return layout_identity(store.buffer)


class WordMap:
    """An open word map of one lexicon: its lookups (C or Python) and words decoded in the lexicon's alphabet."""

    def __init__(self, buffer: Mappable, store: Store, kind: str, name: str = "<word map>", *,
                 verify: bool = True) -> None:
        self.header, descriptors = parse_word_map(buffer, name)
        if (self.header.lexicon_size, self.header.lexicon_crc) != lexicon_identity(store):
            raise FileFormatError(f"{name}: this word map was built for another lexicon; rebuild it")
        if verify and zlib.crc32(memoryview(buffer)[HEADER_SIZE:]) != int.from_bytes(
                memoryview(buffer)[40:44], "little"):
            raise FileFormatError(f"{name}: the word map is corrupt (checksum mismatch); rebuild it")
        if self.header.highest_code != len(store.alphabet):
            raise FileFormatError(f"{name}: the word map's alphabet is not the lexicon's")
        self.name = name
        self.kind = kind
        self._buffer = buffer
        self._store = store
        self._letters = {d.length: (d.letters, d.words) for d in descriptors if d.blanks == 0}
        native = c_module("_native") if kind == "c" else None
        # The C type (lexigraph/_native.pyi) or its twin: the same methods, the same answers.
        self.lookups: Any = native.WordMap(buffer) if native is not None else PythonWordMap(buffer, name)

    def close(self) -> None:
        """Release the lookups and the mapping (a map still viewed elsewhere is released when the views are)."""
        self.lookups = None
        if isinstance(self._buffer, mmap.mmap):
            try:
                self._buffer.close()
            except BufferError:
                pass

    def lookup(self, length: int, codes: bytes, blanks: int) -> list[Hit]:
        """The hits of one exact multiset (:meth:`.python.wordmap.PythonWordMap.lookup`)."""
        hits: list[Hit] = self._ask("lookup", length, codes, blanks)
        return hits

    def has_codes(self, length: int, codes: bytes, blanks: int) -> bool:
        """Whether a word of ``length`` is made of exactly ``codes`` and ``blanks`` blanks."""
        return bool(self._ask("has_word", length, codes, blanks))

    def _ask(self, method: str, length: int, codes: bytes, blanks: int) -> Any:
        """One lookup, its arguments checked here (QueryError) so that the C type's ValueError means the file."""
        self._check_size(length, blanks)
        if len(codes) + blanks != length or any(not 1 <= c <= self.header.highest_code for c in codes):
            raise QueryError(f"{len(codes)} tiles and {blanks} blank(s) in 1..{self.header.highest_code} do not "
                             f"make {length}")
        if self.lookups is None:
            raise QueryError("the word map is closed")
        try:
            return getattr(self.lookups, method)(length, codes, blanks)
        except FileFormatError:
            raise
        except ValueError as e:  # the C type's word for a forged record
            raise FileFormatError(f"{self.name}: {e}") from None

    def rows(self, length: int, first: int, count: int) -> bytes:
        """Rows ``first .. first + count`` of the letters of ``length`` (the words in alphagram order)."""
        offset, words = self._letters[length]
        if not 0 <= first <= first + count <= words:
            raise FileFormatError(f"{self.name}: rows past the words of length {length}")
        return bytes(memoryview(self._buffer)[offset + first * length : offset + (first + count) * length])

    def _parse(self, tiles: str) -> tuple[bytes, int]:
        blanks = tiles.count(BLANK)
        codes = self._store.alphabet.encode(tiles.replace(BLANK, ""))
        if codes is None:
            raise QueryError(f"tiles {tiles!r} are not in the lexicon's alphabet")
        return codes, blanks

    def has_word(self, tiles: str) -> bool:
        """Whether some word is made of exactly these tiles (``?`` a blank)."""
        codes, blanks = self._parse(tiles)
        self._check_size(len(codes) + blanks, blanks)
        return self.has_codes(len(codes) + blanks, codes, blanks)

    def _check_size(self, length: int, blanks: int) -> None:
        h = self.header
        if not h.min_length <= length <= h.max_length:
            raise QueryError(f"the word map holds words of {h.min_length} to {h.max_length} tiles, not {length}")
        if blanks > h.max_blanks:
            raise QueryError(f"the word map holds at most {h.max_blanks} blank(s), not {blanks}")

    def words(self, tiles: str, length: int | None = None) -> list[tuple[str, str]]:
        """The words of ``length`` tiles (all the tiles if None) made from ``tiles`` (``?`` a blank), each with
        the letters its blanks stand for, sorted."""
        codes, blanks = self._parse(tiles)
        size = len(codes) + blanks if length is None else length
        if size > len(codes) + blanks:
            return []
        self._check_size(size, blanks)
        alphabet = self._store.alphabet
        found: set[tuple[str, str]] = set()
        for letters, used in self._sub_multisets(codes, blanks, size):
            for first, count, blank_codes in self.lookup(size, letters, used):
                chosen = alphabet.decode(blank_codes)
                data = self.rows(size, first, count)
                found.update((w, chosen) for w in alphabet.decode_rows(data, size))
        return sorted(found)

    def _sub_multisets(self, codes: bytes, blanks: int, size: int) -> list[tuple[bytes, int]]:
        """Every distinct sub-multiset of ``size`` tiles: its letters and how many blanks it holds."""
        letters = sorted(set(codes))
        limits = [codes.count(c) for c in letters]
        if math.prod(n + 1 for n in limits) > MAX_SUBSETS:  # checked before the walk, which would visit them all
            raise QueryError(f"too many sub-racks of {len(codes) + blanks} tiles to look up "
                             f"(at most {MAX_SUBSETS:,} choices of letters)")
        out: list[tuple[bytes, int]] = []
        for used in range(min(blanks, size) + 1):
            for counts in product(*(range(n + 1) for n in limits)):
                if sum(counts) == size - used:
                    out.append((bytes(c for c, n in zip(letters, counts) for _ in range(n)), used))
        return out


def open_word_map(path: str | os.PathLike[str], store: Store, kind: str, *, verify: bool = True) -> WordMap:
    """Map and check the word map at ``path`` for the lexicon of ``store``; lookups of ``kind`` ("c", "python")."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as f:
            if os.fstat(f.fileno()).st_size < HEADER_SIZE:
                raise FileFormatError(f"{name} is not a lexigraph word map (truncated)")
            buffer = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except FileNotFoundError:
        raise FileFormatError(f"no such word map file: {name}") from None
    except (OSError, ValueError) as e:
        raise FileFormatError(f"cannot open {name}: {getattr(e, 'strerror', None) or e}") from None
    try:
        return WordMap(buffer, store, kind, name, verify=verify)
    except BaseException:
        buffer.close()
        raise
