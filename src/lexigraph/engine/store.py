"""The word store: the length buckets of an open lexicon file, and what they index.

Words are numbered by length, then in tile-code order within a length
(their *ids*). Each length has a :class:`Bucket`: its words as a
``(count, length)`` array of tile codes, its exact-match hash table and its
alphagram order. The :class:`Store` turns ids into codes and words and
back, lists prefix ranges, sorts ids, and owns the NumPy views and caches
that queries build on (``cached``). It validates every index field it uses
when the file is opened, so the queries never meet a forged offset, and
each bucket's contents the first time they are viewed (codes inside the
alphabet, rows strictly rising; an alphagram order that names every row
once, in alphagram order), so that no query answers from an index that
lies: a binary search of a forged bucket would find words that do not
match, and a forged alphagram order anagrams that are not.

>>> import lexigraph
>>> store = lexigraph.open().store
>>> b = store.bucket(2)
>>> b.length, b.first, b.count
(2, 0, 96)
>>> store.words_of_ids([0, 1, b.first + b.count])
['aa', 'ab', 'aah']
"""

from __future__ import annotations

import array
import sys
from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeVar, cast

from ..alphabet import MAX_TILES, Alphabet
from ..errors import AlphabetError, FileFormatError, LexiconError, QueryError
from .fileformat import MappedFile, Section

if TYPE_CHECKING:  # pragma: no cover
    import mmap

    import numpy as np
else:  # for run-time type hints, loaded on first use (start-up stays light)
    from ..support.lazy import Lazy

    np = Lazy("numpy")

#: Longest word a lexicon holds, in tiles (lengths are stored in a byte).
MAX_LENGTH = 255
#: The priority of every word of an unscored list.
DEFAULT_PRIORITY = 50
#: Up to this many ids, decoding and sorting run word by word: cheaper than array passes.
_FEW = 32
SortKey = Literal["alpha", "length", "priority"]
SORTS: tuple[SortKey, ...] = ("alpha", "length", "priority")
T = TypeVar("T")


@dataclass(frozen=True)
class HashTable:
    """Where one length's exact-match table lies: ``slots`` slots of ``width`` bytes at ``offset``.

    A word's home slot is ``crc32(codes) * home >> 32``; a slot holds a row
    of the bucket plus one (0: empty); probes run forward to the table's end.
    """

    offset: int
    slots: int
    width: int
    home: int


@dataclass(frozen=True)
class Bucket:
    """The words of one length: ids ``first .. first + count - 1``, rows at byte ``offset``.

    ``hash`` is its exact-match table; ``alphagram_offset`` / ``alphagram_width``
    locate its alphagram order (the bucket's rows sorted by their tiles in
    code order, as ``width``-byte row numbers).
    """

    length: int
    first: int
    count: int
    offset: int
    hash: HashTable
    alphagram_offset: int
    alphagram_width: int

    @property
    def stop(self) -> int:
        """One past the bucket's last word id."""
        return self.first + self.count


def _int(value: object, what: str, name: str, *, low: int = 0, high: int | None = None) -> int:
    """A JSON integer within bounds, or a FileFormatError (bools, floats, infinities refused)."""
    if type(value) is not int or value < low or (high is not None and value > high):
        raise FileFormatError(f"{name}: the index field {what} is missing or invalid")
    return value


_WIDTHS = {"<u2": 2, "<u4": 4}


class Store:
    """The length buckets of a validated lexicon file; see the module docstring."""

    def __init__(self, mapped: MappedFile) -> None:
        self._file = mapped
        self.name = mapped.name
        index = mapped.index
        name = mapped.name
        try:
            self.alphabet: Alphabet = Alphabet.from_dict(index.get("alphabet") or {}, origin=f"{name}: alphabet",
                                                         strict=True)
        except AlphabetError as e:
            raise FileFormatError(str(e)) from None
        self.word_count = _int(index.get("word_count"), "'word_count'", name)
        raw_buckets = index.get("buckets")
        if not isinstance(raw_buckets, list) or len(raw_buckets) > MAX_LENGTH:
            raise FileFormatError(f"{name}: the index has no valid list of length buckets")
        self._buckets: dict[int, Bucket] = {}
        expected_first = 0
        previous = 0
        for raw in raw_buckets:
            if not isinstance(raw, dict):
                raise FileFormatError(f"{name}: a length bucket is malformed")
            length = _int(raw.get("length"), "'length' of a bucket", name, low=1, high=MAX_LENGTH)
            if length <= previous:
                raise FileFormatError(f"{name}: the length buckets are not in increasing order of length")
            previous = length
            first = _int(raw.get("first"), f"'first' of length {length}", name)
            count = _int(raw.get("count"), f"'count' of length {length}", name)
            if first != expected_first:
                raise FileFormatError(f"{name}: the bucket of length {length} does not follow the one before")
            rows = self._section(f"words.{length}", ("u1",), (count, length))
            table = self._section(f"hash.{length}", tuple(_WIDTHS), None)
            home = _int(raw.get("hash_home"), f"'hash_home' of length {length}", name, low=1)
            if len(table.shape) != 1 or not home < table.shape[0] or home > 0xFFFFFFFF:
                raise FileFormatError(f"{name}: the hash index of length {length} is malformed")
            order = self._section(f"alphagram.{length}", tuple(_WIDTHS), (count,))
            self._buckets[length] = Bucket(
                length, first, count, rows.offset,
                HashTable(table.offset, table.shape[0], _WIDTHS[table.dtype], home),
                order.offset, _WIDTHS[order.dtype],
            )
            expected_first += count
        if expected_first != self.word_count:
            raise FileFormatError(f"{name}: the buckets hold {expected_first} words, the index says {self.word_count}")
        # Absent in unscored lexicons, where every word has the default priority.
        self._priority = (
            self._section("priority", ("u1",), (self.word_count,)) if "priority" in self._file.sections else None
        )
        self.lengths: list[int] = list(self._buckets)
        self._bucket_list = list(self._buckets.values())
        self._firsts_list = [b.first for b in self._bucket_list]
        #: Whether the words carry their own priorities (a scored list); otherwise every word has 50.
        self.has_priorities = self._priority is not None
        self._cache: dict[Hashable, object] = {}
        self._closed = False

    def _section(self, key: str, dtypes: tuple[str, ...], shape: tuple[int, ...] | None) -> Section:
        sec = self._file.sections.get(key)
        if sec is None or sec.dtype not in dtypes or (shape is not None and sec.shape != shape):
            raise FileFormatError(f"{self.name}: the {key!r} section is missing or does not match the index")
        return sec

    # -- the buffer ----------------------------------------------------------

    @property
    def buffer(self) -> "mmap.mmap | bytes":
        """The mapped file (an ``mmap`` or ``bytes``); offsets in buckets are into it."""
        self.check_open()
        return self._file.buffer

    def check_open(self) -> None:
        """Raise :class:`LexiconError` if the store was closed."""
        if self._closed:
            raise LexiconError("the lexicon is closed")

    def close(self) -> None:
        """Drop the views and caches; the file itself is closed by its owner."""
        self._closed = True
        self._cache.clear()

    def cached(self, key: Hashable, factory: Callable[[], T]) -> T:
        """A value this store keeps for its lifetime: ``factory()`` the first time, then the same object.

        Queries keep their derived arrays here (use keys that name the
        module, such as ``("anagram", "masks")``), so they live and die with
        the open lexicon.
        """
        self.check_open()
        try:
            return cast(T, self._cache[key])  # a key names one kind of value: the factory's
        except KeyError:
            value = factory()
            self._cache[key] = value
            return value

    # -- buckets ----------------------------------------------------------------

    def bucket(self, length: int) -> Bucket | None:
        """The bucket of ``length``-tile words, or None when there are none."""
        return self._buckets.get(length)

    @property
    def buckets(self) -> list[Bucket]:
        """Every bucket, by increasing length."""
        return list(self._bucket_list)

    @property
    def tile_count(self) -> int:
        """How many tiles all the words hold together (the arcs a walk of every word visits, at most)."""
        return sum(b.count * b.length for b in self.buckets)

    def count_by_length(self) -> dict[int, int]:
        """Words per length in tiles, ascending."""
        return {b.length: b.count for b in self._buckets.values()}

    def rows(self, length: int) -> "np.ndarray":
        """The words of ``length`` tiles: a read-only ``(count, length)`` uint8 array, rows sorted.

        Codes outside the alphabet and rows out of order or repeated
        (possible only in a forged file) are refused here, the first time a
        bucket is viewed: prefix ranges and every binary search rely on the
        order.
        """
        return self.cached(("rows", length), lambda: self._view_rows(length))

    def raw_rows(self, length: int) -> "np.ndarray":
        """The bucket's rows as stored, without the check of their codes (for byte comparisons only)."""
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        def view() -> "np.ndarray":
            b = self._buckets.get(length)
            if b is None:
                return np.zeros((0, length), np.uint8)
            return np.frombuffer(self.buffer, np.uint8, b.count * length, b.offset).reshape(b.count, length)

        return self.cached(("raw_rows", length), view)

    def _view_rows(self, length: int) -> "np.ndarray":
        rows = self.raw_rows(length)
        b = self._buckets.get(length)
        if b is not None and b.count and (int(rows.max()) > len(self.alphabet) or int(rows.min()) == 0):
            raise FileFormatError(f"{self.name}: words of length {length} hold codes outside the alphabet")
        if b is not None and b.count > 1:
            keys = rows.view(f"S{length}").ravel()
            # Rows end in a non-zero code (checked above), so the byte-string order is the tile order.
            if not (keys[1:] > keys[:-1]).all():
                raise FileFormatError(f"{self.name}: the words of length {length} are not in order")
        return rows

    def hash_slots(self, length: int) -> "np.ndarray":
        """The exact-match table of one length as a NumPy array (see :class:`HashTable`)."""
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        def view() -> "np.ndarray":
            t = self._buckets[length].hash
            return np.frombuffer(self.buffer, f"<u{t.width}", t.slots, t.offset)

        return self.cached(("hash", length), view)

    def alphagram_order(self, length: int) -> "np.ndarray":
        """Rows of the bucket in alphagram order (by their tiles sorted), as int64.

        Validated on first use: every row of the bucket once (a permutation),
        and :meth:`alphagrams` checks the order itself.
        """
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        def view() -> "np.ndarray":
            b = self._buckets[length]
            order = np.frombuffer(self.buffer, f"<u{b.alphagram_width}", b.count, b.alphagram_offset)
            if b.count and int(order.max()) >= b.count:
                raise FileFormatError(f"{self.name}: the alphagram index of length {length} points past its bucket")
            if b.count and int(np.bincount(order, minlength=b.count).min()) != 1:
                raise FileFormatError(f"{self.name}: the alphagram index of length {length} names a row twice")
            return order.astype(np.int64)

        return self.cached(("alphagram_order", length), view)

    def alphagrams(self, length: int) -> "np.ndarray":
        """The bucket's alphagrams (each row's tiles sorted) in alphagram order: ``(count, length)`` uint8.

        An order that does not list them sorted (a forged file) is a
        :class:`FileFormatError`: a binary search of it would find words that
        are not anagrams of the rack.
        """
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        def build() -> "np.ndarray":
            rows = self.rows(length)
            out = np.sort(rows[self.alphagram_order(length)], axis=1)
            keys = out.view(f"S{length}").ravel()
            if not (keys[1:] >= keys[:-1]).all():
                raise FileFormatError(f"{self.name}: the alphagram index of length {length} is not in alphagram order")
            out.flags.writeable = False
            return out

        return self.cached(("alphagrams", length), build)

    def priorities(self) -> "np.ndarray":
        """One priority (0-255) per word id, a read-only uint8 array."""
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        def view() -> "np.ndarray":
            sec = self._priority
            if sec is None:
                constant = np.full(self.word_count, DEFAULT_PRIORITY, np.uint8)
                constant.flags.writeable = False
                return constant
            return np.frombuffer(self.buffer, np.uint8, sec.length, sec.offset)

        return self.cached("priority", view)

    def priority_of(self, word_id: int) -> int:
        """The priority of one word id (no NumPy import)."""
        if not 0 <= word_id < self.word_count:
            raise QueryError(f"word id {word_id} is outside the lexicon")
        sec = self._priority
        return DEFAULT_PRIORITY if sec is None else int(self.buffer[sec.offset + word_id])

    # -- ids, codes and words ----------------------------------------------------

    def _firsts(self) -> "tuple[np.ndarray, np.ndarray]":
        import numpy as np

        return self.cached("firsts", lambda: (
            np.array([b.first for b in self._buckets.values()], np.int64),
            np.array(self.lengths, np.int64),
        ))

    def lengths_of_ids(self, ids: "np.ndarray | Sequence[int]") -> "np.ndarray":
        """The length of each word id."""
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        firsts, lengths = self._firsts()
        return lengths[np.searchsorted(firsts, np.asarray(ids, np.int64), "right") - 1]

    def codes_of_ids(self, ids: "np.ndarray | Sequence[int]", width: int | None = None,
                     lengths: "np.ndarray | None" = None) -> "np.ndarray":
        """Tile codes of word ids as rows zero-padded to ``width`` (default: the longest).

        ``lengths`` are the ids' lengths when the caller already has them.
        """
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        ids = np.asarray(ids, np.int64)
        if lengths is None:
            lengths = self.lengths_of_ids(ids)
        if width is None:
            width = int(lengths.max()) if len(ids) else 0
        out = np.zeros((len(ids), width), np.uint8)
        if len(ids) and lengths[0] == lengths.min() == lengths.max():  # one bucket: one gather
            length = int(lengths[0])
            out[:, :length] = self.rows(length)[ids - self._buckets[length].first]
            return out
        for length in np.unique(lengths).tolist():
            at = np.flatnonzero(lengths == length)
            out[at, :length] = self.rows(length)[ids[at] - self._buckets[length].first]
        return out

    def decode_rows(self, length: int, rows: "np.ndarray") -> list[str]:
        """Words of a block of rows of one length."""
        return self.alphabet.decode_rows(rows.tobytes(), length)

    def _bucket_of_id(self, word_id: int) -> Bucket:
        at = bisect_right(self._firsts_list, word_id) - 1
        bucket = self._bucket_list[at] if at >= 0 else None
        if bucket is None or not bucket.first <= word_id < bucket.stop:
            raise QueryError(f"word id {word_id} is outside the lexicon")
        return bucket

    def _word_of_id(self, word_id: int) -> str:
        b = self._bucket_of_id(word_id)
        self.rows(b.length)  # validates the bucket's codes, once
        start = b.offset + (word_id - b.first) * b.length
        return self.alphabet.decode(self.buffer[start : start + b.length])

    def words_of_ids(self, ids: "np.ndarray | Sequence[int]") -> list[str]:
        """Decode word ids, keeping their order."""
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        if len(ids) <= _FEW:  # a few words: no array passes, whose fixed cost would dominate
            return [self._word_of_id(int(i)) for i in ids]
        ids = np.asarray(ids, np.int64)
        n_tiles = len(self.alphabet)
        first = self._bucket_of_id(int(ids[0]))
        if int(ids.min()) >= first.first and int(ids.max()) < first.stop:  # one bucket: one gather, no padding
            return self.decode_rows(first.length, self.rows(first.length)[ids - first.first])
        lengths = self.lengths_of_ids(ids)
        if n_tiles == MAX_TILES:  # no spare code for a separator: decode length by length
            return [self.decode_rows(n, self.rows(n)[[i - self._buckets[n].first]])[0]
                    for i, n in zip(ids.tolist(), lengths.tolist())]
        codes = self.codes_of_ids(ids, int(lengths.max()) + 1, lengths)
        # Padding (0) is deleted, a spare code ends each word: one translate, one split.
        sep = n_tiles + 1
        codes[np.arange(len(ids)), lengths] = sep
        table = self.cached("decode_table", lambda: {
            0: None, sep: "\n", **{i + 1: label for i, label in enumerate(self.alphabet.labels)}
        })
        return codes.tobytes().decode("latin-1").translate(table).split("\n")[:-1]

    def sort_ids(self, ids: "np.ndarray | Sequence[int]", by: str = "alpha") -> "np.ndarray":
        """Word ids in alphabetical (tile) order, or by priority or length (best first, then alphabetical)."""
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        if by not in SORTS:
            raise QueryError(f"unknown sort {by!r}; use alpha, length or priority")
        if by == "alpha" and 1 < len(ids) <= _FEW:
            if len({self._bucket_of_id(int(i)).length for i in ids}) == 1:  # one bucket: ids are in tile order
                return np.array(sorted(int(i) for i in ids), np.int64)
        ids = np.asarray(ids, np.int64)
        if len(ids) < 2:
            return ids
        lengths = self.lengths_of_ids(ids)
        if lengths.min() == lengths.max():
            alpha = np.sort(ids)  # one bucket: ids are already in tile order
        else:
            width = int(lengths.max())
            keys = self.codes_of_ids(ids, width, lengths).view(f"S{width}").ravel()
            alpha = ids[np.argsort(keys, kind="stable")]
        if by == "alpha":
            return alpha
        if by == "priority":
            primary = -self.priorities()[alpha].astype(np.int64)
        else:
            primary = -self.lengths_of_ids(alpha)
        return alpha[np.argsort(primary, kind="stable")]

    def prefix_range(self, length: int, prefix: bytes) -> tuple[int, int]:
        """Rows ``lo .. hi - 1`` of the ``length`` bucket that start with the codes ``prefix``."""
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        rows = self.rows(length)
        if not prefix:
            return 0, len(rows)
        if len(prefix) > length:
            return 0, 0
        keys = rows.view(f"S{length}").ravel()
        lo = int(np.searchsorted(keys, np.bytes_(prefix), "left"))
        hi = int(np.searchsorted(keys, np.bytes_(prefix + b"\xff" * (length - len(prefix))), "right"))
        return lo, hi

    def ids_with_prefix(self, prefix: bytes, length: int | None = None) -> "np.ndarray":
        """Ids of the words starting with ``prefix`` (of ``length`` tiles), bucket by bucket."""
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        parts = []
        for n in ([length] if length is not None else self.lengths):
            b = self._buckets.get(n)
            if b is not None and n >= len(prefix):
                lo, hi = self.prefix_range(n, prefix)
                if hi > lo:
                    parts.append(np.arange(b.first + lo, b.first + hi))
        return np.concatenate(parts) if parts else np.zeros(0, np.int64)


def concat_ids(parts: Iterable["np.ndarray"]) -> "np.ndarray":
    """Concatenate id arrays (an empty int64 array for none)."""
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    chunks = list(parts)
    return np.concatenate(chunks) if chunks else np.zeros(0, np.int64)


def little_endian_ints(view: memoryview, code: str) -> "Sequence[int]":
    """Little-endian unsigned integers of ``view``, indexable from Python without NumPy."""
    if sys.byteorder == "little":
        ints: Sequence[int] = view.cast(code)  # type: ignore[call-overload]  # typeshed takes only literal codes
        return ints
    arr = array.array(code, view.tobytes())
    arr.byteswap()
    return arr
