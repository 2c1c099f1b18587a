"""The open lexicon: a memory-mapped file and the queries it answers.

Opening maps the file and checks it; nothing per word is created. Exact
lookups go through the hash index: in C when the optional ``_speedups``
extension is built (for single-ASCII-letter alphabets the lexicon class
itself inherits from its ``Probe`` type, so ``word in lex`` runs in the
``in`` slot), otherwise with plain ``int`` arithmetic on a ``memoryview``.
Neither path imports NumPy, so a one-shot ``lexigraph check`` starts fast.
Prefix walks use the word graph; scans, anagrams and patterns use NumPy
views of the length buckets.
"""

from __future__ import annotations

import builtins
import os
import sys
from zlib import crc32
from collections.abc import Iterable, Iterator, Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

from .errors import AlphabetError, FileFormatError, LexiconError, QueryError
from .fileformat import MappedFile, open_bytes, open_path

if os.environ.get("LEXIGRAPH_PURE_PYTHON"):
    _speedups = None
else:
    try:
        from . import _speedups
    except ImportError:  # built without a C compiler: the pure-Python paths answer
        _speedups = None

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from .alphabet import Alphabet
    from .anagram import Anagram
    from .crossword import Crossing
    from .diff import Diff
    from .hooks import Hooks
    from .probability import WordProbability
    from .search import Query

_ACCEPT = 1 << 8
_LAST = 1 << 9

DEFAULT_LEXICON = "enable.lex"


def default_path() -> str:
    """Path of the built-in ENABLE lexicon shipped inside the package."""
    return os.fspath(resources.files("lexigraph").joinpath("data").joinpath(DEFAULT_LEXICON))


def open(path: "str | os.PathLike[str] | None" = None) -> "Lexicon":  # noqa: A001 - mirrors io.open
    """Open a lexicon file; with no argument, the built-in ENABLE lexicon.

    >>> import lexigraph
    >>> with lexigraph.open() as lex:
    ...     len(lex), lex.check("zyzzyva")
    (172820, True)
    """
    return Lexicon(open_path(default_path() if path is None else path))


def load(source: Any, **build_options: Any) -> "Lexicon":
    """Open a lexicon file, or compile any other source (list, table, ``.daw``) in memory.

    >>> import lexigraph
    >>> lexigraph.load(["Apple", "pear", "pearl"]).words(prefix="pea")
    ['pear', 'pearl']
    """
    if isinstance(source, (str, os.PathLike)) and os.fspath(source) != "-":
        try:
            with builtins.open(source, "rb") as f:
                head = f.read(8)
        except OSError:
            head = b""
        from .fileformat import is_lexicon

        if is_lexicon(head):
            return open(source)
    from .builder import compile_source

    data, result = compile_source(source, **build_options)
    return Lexicon(open_bytes(data, name=str(result.info.get("source", "<memory>"))))


def _cast(view: memoryview, code: str) -> Any:
    """Little-endian unsigned integers of ``view``, indexable from Python."""
    if sys.byteorder == "little":
        return view.cast(code)
    import array

    arr = array.array(code, view.tobytes())
    arr.byteswap()
    return arr


def _u32(view: memoryview) -> Any:
    return _cast(view, "I")


def _need_int(index: dict[str, Any], key: str, name: str) -> int:
    value = index.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise FileFormatError(f"{name}: the index field {key!r} is missing or invalid")
    return value


class Lexicon:
    """A compiled word list, memory-mapped and read-only.

    Open one with :func:`lexigraph.open` (a file) or :func:`lexigraph.load`
    (any source). Words are lower-case; queries accept any case.

    >>> import lexigraph
    >>> lex = lexigraph.load(["dude", "dudes", "duded", "dudeen", "dud"])
    >>> "DUDE" in lex, len(lex), list(lex)[:2]
    (True, 5, ['dud', 'dude'])
    >>> lex.children("dude")
    ['$', 'd', 'e', 's']
    """

    def __new__(cls, mapped: MappedFile) -> "Lexicon":
        if cls is Lexicon and _byte_alphabet(mapped.index):
            cls = _FastByteLexicon if _speedups is not None else _ByteLexicon
        if _speedups is not None and issubclass(cls, _speedups.Probe):
            return _speedups.Probe.__new__(cls)
        return super().__new__(cls)

    def __init__(self, mapped: MappedFile) -> None:
        self._file = mapped
        self._closed = False
        index = mapped.index
        name = mapped.name
        self.path = name
        from .alphabet import Alphabet

        try:
            self.alphabet: Alphabet = Alphabet.from_dict(index.get("alphabet"), origin=f"{name}: alphabet")
        except AlphabetError as e:
            raise FileFormatError(str(e)) from None
        self._n = _need_int(index, "word_count", name)
        buckets = index.get("buckets")
        if not isinstance(buckets, list):
            raise FileFormatError(f"{name}: the index has no length buckets")
        self._buckets: dict[int, tuple[int, int, int, int]] = {}
        expected_first = 0
        for b in buckets:
            if not isinstance(b, dict):
                raise FileFormatError(f"{name}: a length bucket is malformed")
            length, first, count = (_need_int(b, k, name) for k in ("length", "first", "count"))
            sec = mapped.sections.get(f"words.{length}")
            if sec is None or sec.shape != (count, length) or first != expected_first or length == 0:
                raise FileFormatError(f"{name}: the bucket of length {length} does not match its section")
            if length in self._buckets:
                raise FileFormatError(f"{name}: two buckets of length {length}")
            self._buckets[length] = (first, count, sec.offset, length)
            expected_first += count
        if expected_first != self._n:
            raise FileFormatError(f"{name}: the buckets hold {expected_first} words, the index says {self._n}")
        for sec_name in ("priority", "graph"):
            if sec_name not in mapped.sections:
                raise FileFormatError(f"{name}: the {sec_name!r} section is missing")
        if mapped.sections["priority"].shape != (self._n,):
            raise FileFormatError(f"{name}: the priority section does not match the word count")
        self._byte_table = self.alphabet.byte_table
        self._buf = mapped.buffer
        # Indexed by word length: (slots, home slots, byte offset of row "-1", length).
        self._tables: list[tuple[Any, int, int, int] | None] = [None] * (max(self._buckets, default=0) + 1)
        self._views: list[memoryview] = []
        for b in buckets:
            length = b["length"]
            home = _need_int(b, "hash_home", name)
            sec = mapped.sections.get(f"hash.{length}")
            if sec is None or sec.dtype not in ("<u2", "<u4") or len(sec.shape) != 1:
                raise FileFormatError(f"{name}: the hash index of length {length} is missing")
            view = mapped.view(f"hash.{length}")
            slots = _cast(view, "H" if sec.dtype == "<u2" else "I")
            self._views.append(view)
            # Reading the last slot here would map a page at open; the probe
            # loops stop at the table's end instead.
            if not 0 < home < len(slots):
                raise FileFormatError(f"{name}: the hash index of length {length} is malformed")
            offset = self._buckets[length][2]
            self._tables[length] = (slots, home, offset - length, length)
        self._graph = mapped.view("graph")
        self._arcs = _u32(self._graph)
        graph_info = index.get("graph") if isinstance(index.get("graph"), dict) else {}
        self._root = _need_int(graph_info, "root", name)
        if self._root >= len(self._arcs):
            raise FileFormatError(f"{name}: the graph's root lies outside the graph")
        self._priority = mapped.view("priority")
        self._np_cache: dict[Any, Any] = {}
        # Prefix walks and hash probes in C for every alphabet when the extension is built.
        self._walk_codes = None if _speedups is None else _speedups.walk_codes
        self._keys = None
        if _speedups is not None:
            self._keys = _speedups.Probe()
            self._attach_probe(self._keys, bytes(256))

    def _attach_probe(self, probe: Any, byte_table: bytes) -> None:
        """Point a C probe at this file's hash tables and buckets."""
        tables = []
        for length, (first, count, offset, _) in self._buckets.items():
            sec = self._file.sections[f"hash.{length}"]
            width = 2 if sec.dtype == "<u2" else 4
            tables.append((length, sec.offset, sec.shape[0], width, self._tables[length][1], offset, count, first))
        try:
            probe._probe_attach(self._file.buffer, byte_table, tables)
        except ValueError as e:
            raise FileFormatError(f"{self.path}: {e}") from None

    # -- basics ----------------------------------------------------------

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"{self._n:,} words"
        return f"<Lexicon {self.info.get('name', '?')!r} ({state}) from {self.path}>"

    def __len__(self) -> int:
        return self._n

    def __enter__(self) -> "Lexicon":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the mapping. Arrays already handed out stay valid until dropped."""
        if self._closed:
            return
        self._closed = True
        if self._keys is not None:
            self._keys._probe_release()
        self._np_cache.clear()
        self._tables = []
        for view in [*self._views, self._arcs, self._graph, self._priority]:
            if isinstance(view, memoryview):
                view.release()
        self._file.close()

    @property
    def info(self) -> dict[str, Any]:
        """The lexicon's metadata: name, source, build time, alphabet, counts per length...

        >>> import lexigraph
        >>> lexigraph.open().info["counts_by_length"]["2"]
        96
        """
        return {k: v for k, v in self._file.index.items() if k != "sections"}

    @property
    def lengths(self) -> list[int]:
        """Word lengths present, in tiles, ascending."""
        return sorted(self._buckets)

    def count_by_length(self) -> dict[int, int]:
        """Words per length in tiles.

        >>> import lexigraph
        >>> lexigraph.load(["ab", "cd", "efg"]).count_by_length()
        {2: 2, 3: 1}
        """
        return {length: self._buckets[length][1] for length in sorted(self._buckets)}

    def _check_open(self) -> None:
        if self._closed:
            raise LexiconError("the lexicon is closed")

    # -- exact lookups -----------------------------------------------------

    def encode(self, text: str) -> bytes | None:
        """Tile codes of ``text`` in this lexicon's alphabet, or None."""
        return self.alphabet.encode(text)

    def _id_of_key(self, key: bytes) -> int:
        """The word id of tile codes ``key``, or -1."""
        if self._keys is not None:
            i = self._keys._probe_key(key)
            if i == -2:
                self._check_open()
            return i
        tables = self._tables
        table = tables[len(key)] if len(key) < len(tables) else None
        if table is None:
            self._check_open()  # close() empties the tables
            return -1
        slots, home, base, length = table
        buf = self._buf
        i = (crc32(key) * home) >> 32
        try:
            while True:  # a valid table's last slot is empty; a corrupt one ends in IndexError
                v = slots[i]
                if not v:
                    return -1
                start = base + v * length
                if buf[start : start + length] == key:
                    return self._buckets[length][0] + v - 1
                i += 1
        except IndexError:
            return -1

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        key = self.alphabet.encode(word)
        return key is not None and self._id_of_key(key) >= 0

    def check(self, word: str) -> bool:
        """Whether ``word`` is in the lexicon (any case; unknown letters: False).

        >>> import lexigraph
        >>> lex = lexigraph.open()
        >>> lex.check("Dog"), lex.check("dgo"), lex.check("døg")
        (True, False, False)
        """
        if not isinstance(word, str):
            raise TypeError(f"check() needs a str, not {type(word).__name__}")
        return word in self

    def word_id(self, word: str) -> int | None:
        """The word's position in the file (by length, then alphabetically), or None."""
        key = self.alphabet.encode(word) if isinstance(word, str) else None
        if key is None:
            return None
        i = self._id_of_key(key)
        return None if i < 0 else i

    def priority(self, word: str) -> int | None:
        """The word's priority 0-255 (its score in a scored list; 50 otherwise), or None.

        >>> import lexigraph
        >>> lex = lexigraph.load(["ENJOY;60", "enjoin;25", "ennui"])
        >>> lex.priority("enjoy"), lex.priority("ennui"), lex.priority("nope")
        (60, 50, None)
        """
        i = self.word_id(word)
        return None if i is None else self._priority[i]

    def check_many(self, words: Iterable[str]) -> "np.ndarray":
        """Vectorised :meth:`check`: a boolean array, one entry per word.

        >>> import lexigraph
        >>> lexigraph.open().check_many(["cat", "tac", "act", "CAT", "c@t"]).tolist()
        [True, False, True, True, False]
        """
        self._check_open()
        from .batch import check_many

        return check_many(self, words)

    # -- NumPy views ----------------------------------------------------

    def _rows(self, length: int) -> "np.ndarray":
        """The bucket of ``length``-tile words: a read-only (count, length) uint8 array."""
        key = ("rows", length)
        rows = self._np_cache.get(key)
        if rows is None:
            self._check_open()
            import numpy as np

            first, count, offset, _ = self._buckets[length]
            rows = np.frombuffer(self._buf, np.uint8, count * length, offset).reshape(count, length)
            if count and int(rows.max(initial=0)) > len(self.alphabet) or (count and int(rows.min()) == 0):
                raise FileFormatError(f"{self.path}: words of length {length} hold codes outside the alphabet")
            self._np_cache[key] = rows
        return rows

    def _hash_table(self, length: int) -> "tuple[np.ndarray, int]":
        """The hash table of one length as a NumPy array, and its number of home slots."""
        key = ("hash", length)
        table = self._np_cache.get(key)
        if table is None:
            import numpy as np

            sec = self._file.sections[f"hash.{length}"]
            table = (np.frombuffer(self._file.view(f"hash.{length}"), sec.dtype), self._tables[length][1])
            self._np_cache[key] = table
        return table

    def _priorities(self) -> "np.ndarray":
        prio = self._np_cache.get("priority")
        if prio is None:
            import numpy as np

            prio = np.frombuffer(self._priority, np.uint8)
            self._np_cache["priority"] = prio
        return prio

    def _decode(self, length: int, rows: "np.ndarray") -> list[str]:
        return self.alphabet.decode_rows(rows.tobytes(), length)

    def _firsts(self) -> "tuple[np.ndarray, np.ndarray]":
        """First word id and length of every bucket, ascending."""
        got = self._np_cache.get("firsts")
        if got is None:
            import numpy as np

            lengths = np.array(self.lengths, np.int64)
            firsts = np.array([self._buckets[n][0] for n in self.lengths], np.int64)
            got = (firsts, lengths)
            self._np_cache["firsts"] = got
        return got

    def _length_of_ids(self, ids: "np.ndarray") -> "np.ndarray":
        import numpy as np

        firsts, lengths = self._firsts()
        return lengths[np.searchsorted(firsts, ids, "right") - 1]

    def _words_of_ids(self, ids: "np.ndarray") -> list[str]:
        """Decode word ids, keeping their order."""
        import numpy as np

        if not len(ids):
            return []
        n_tiles = len(self.alphabet)
        lens = self._length_of_ids(ids)
        if n_tiles == 255:  # no spare code for a separator: decode length by length
            return [self._decode(n, self._rows(n)[[i - self._buckets[n][0]]])[0]
                    for i, n in zip(ids.tolist(), lens.tolist())]
        codes = self._codes_of_ids(ids, int(lens.max()) + 1, lens)
        # Padding (0) is deleted, a spare code ends each word: one translate, one split.
        sep = n_tiles + 1
        codes[np.arange(len(ids)), lens] = sep
        table = self._np_cache.get("decode_table")
        if table is None:
            table = {0: None, sep: "\n", **{i + 1: label for i, label in enumerate(self.alphabet.labels)}}
            self._np_cache["decode_table"] = table
        return codes.tobytes().decode("latin-1").translate(table).split("\n")[:-1]

    def _codes_of_ids(self, ids: "np.ndarray", width: int, lens: "np.ndarray | None" = None) -> "np.ndarray":
        """Codes of word ids as rows zero-padded to ``width`` (``lens``: their lengths, if known)."""
        import numpy as np

        out = np.zeros((len(ids), width), np.uint8)
        if lens is None:
            lens = self._length_of_ids(ids)
        for length in np.unique(lens).tolist():
            at = np.flatnonzero(lens == length)
            out[at, :length] = self._rows(length)[ids[at] - self._buckets[length][0]]
        return out

    def _sort_ids(self, ids: "np.ndarray", by: str = "alpha") -> "np.ndarray":
        """Word ids in alphabetical order, or by priority or length (then alphabetical)."""
        import numpy as np

        ids = np.asarray(ids, np.int64)
        if len(ids) < 2:
            return ids
        lens = self._length_of_ids(ids)
        if lens.min() == lens.max():
            alpha = np.sort(ids)  # one bucket: ids are already in tile order
        else:
            width = int(lens.max())
            keys = self._codes_of_ids(ids, width, lens).view(f"S{width}").ravel()
            alpha = ids[np.argsort(keys, kind="stable")]
        if by == "alpha":
            return alpha
        if by == "priority":
            primary = -self._priorities()[alpha].astype(np.int64)
        elif by == "length":
            primary = -self._length_of_ids(alpha)
        else:
            raise QueryError(f"unknown sort {by!r}; use alpha, length or priority")
        return alpha[np.argsort(primary, kind="stable")]

    # -- listing ------------------------------------------------------------

    def _prefix_range(self, length: int, prefix: bytes) -> tuple[int, int]:
        rows = self._rows(length)
        if not prefix:
            return 0, len(rows)
        import numpy as np

        keys = rows.view(f"S{length}").ravel()
        lo = int(np.searchsorted(keys, np.bytes_(prefix), "left"))
        hi = int(np.searchsorted(keys, np.bytes_(prefix + b"\xff" * (length - len(prefix))), "right"))
        return lo, hi

    def _select(self, prefix: bytes, length: int | None) -> list[tuple[int, int, int]]:
        lengths = [length] if length is not None else self.lengths
        out = []
        for n in lengths:
            if n in self._buckets and n >= len(prefix):
                lo, hi = self._prefix_range(n, prefix)
                if hi > lo:
                    out.append((n, lo, hi))
        return out

    def _sorted_words(self, parts: list[tuple[int, int, int]]) -> list[str]:
        """Decode bucket slices and merge them into alphabetical (tile) order."""
        if not parts:
            return []
        if len(parts) == 1:
            n, lo, hi = parts[0]
            return self._decode(n, self._rows(n)[lo:hi])
        import numpy as np

        width = max(n for n, _, _ in parts)
        total = sum(hi - lo for _, lo, hi in parts)
        padded = np.zeros((total, width), np.uint8)
        words: list[str] = []
        at = 0
        for n, lo, hi in parts:
            block = self._rows(n)[lo:hi]
            padded[at : at + len(block), :n] = block
            words.extend(self._decode(n, block))
            at += len(block)
        order = np.argsort(padded.view(f"S{width}").ravel(), kind="stable")
        return [words[i] for i in order.tolist()]

    def words(self, prefix: str = "", length: int | None = None) -> list[str]:
        """Words starting with ``prefix`` (and of ``length`` tiles), in alphabetical order.

        >>> import lexigraph
        >>> lexigraph.open().words(prefix="zyz")
        ['zyzzyva', 'zyzzyvas']
        >>> lexigraph.open().words(prefix="q", length=2)
        []
        """
        self._check_open()
        if length is not None and (not isinstance(length, int) or length < 0):
            raise QueryError(f"length must be a non-negative integer, not {length!r}")
        key = self.alphabet.encode(prefix)
        if key is None:
            return []
        return self._sorted_words(self._select(key, length))

    def __iter__(self) -> Iterator[str]:
        """All words in alphabetical (tile) order, a first tile at a time."""
        self._check_open()
        for code in range(1, len(self.alphabet) + 1):
            yield from self._sorted_words(self._select(bytes([code]), None))

    # -- the word graph -----------------------------------------------------

    def _outside_graph(self) -> FileFormatError:
        return FileFormatError(f"{self.path}: the word graph points outside itself")

    def _arc_records(self, i: int) -> list[int]:
        """The records of the arc list starting at ``i`` (at most one per tile)."""
        arcs = self._arcs
        out = []
        try:
            for _ in range(len(self.alphabet)):
                rec = arcs[i]
                out.append(rec)
                if rec & _LAST:
                    break
                i += 1
        except IndexError:
            raise self._outside_graph() from None
        return out

    def _arc_list(self, i: int) -> dict[int, int]:
        """The arcs of the list starting at ``i``, by tile."""
        return {rec & 0xFF: rec for rec in self._arc_records(i)}

    def _top_lists(self) -> dict[int, dict[int, int]]:
        """Arc lists of the root and of its children as dicts: the widest lists,
        where a linear scan costs most, answered in one lookup."""
        top = self._np_cache.get("top")
        if top is None:
            top = {}
            if self._root:
                top[self._root] = self._arc_list(self._root)
                for rec in top[self._root].values():
                    if rec >> 10:
                        top[rec >> 10] = self._arc_list(rec >> 10)
            self._np_cache["top"] = top
        return top

    def _walk(self, key: bytes, list_next: bool = False) -> tuple[Any, ...] | None:
        """Follow ``key`` from the root: (index of the next arc list, prefix is a word).

        With ``list_next``, a third item: the arcs of that next list, as tile
        codes from the C walk and as whole records from the Python one
        (``x & 0xFF`` is the tile either way; no per-arc conversion is spent).
        """
        if self._walk_codes is not None:
            found = self._walk_codes(self._graph, self._root, key, len(self.alphabet) if list_next else 0)
            if found == -1:
                raise self._outside_graph()
            return found
        arcs = self._arcs
        top = self._top_lists()
        i = self._root
        accepts = False
        try:
            for c in key:
                if not i:
                    return None
                lookup = top.get(i)
                if lookup is not None:
                    rec = lookup.get(c)
                    if rec is None:
                        return None
                else:
                    while True:
                        rec = arcs[i]
                        tile = rec & 0xFF
                        if tile == c:
                            break
                        if rec & _LAST or tile > c:
                            return None
                        i += 1
                accepts = bool(rec & _ACCEPT)
                i = rec >> 10
        except IndexError:
            raise self._outside_graph() from None
        if list_next:
            return i, accepts, self._arc_records(i) if i else []
        return i, accepts

    def children(self, prefix: str = "") -> list[str]:
        """Tiles that can follow ``prefix``, sorted; ``"$"`` first when ``prefix`` is a word.

        >>> import lexigraph
        >>> lexigraph.open().children("dude")
        ['$', 'd', 'e', 's']
        >>> lexigraph.open().children("qz")
        []
        """
        self._check_open()
        key = self.alphabet.encode(prefix) if isinstance(prefix, str) else None
        if key is None:
            return []
        found = self._walk(key, list_next=True)
        if found is None:
            return []
        _, accepts, arcs = found
        out = ["$"] if accepts and key else []
        labels = self.alphabet.labels
        try:
            out += [labels[(arc & 0xFF) - 1] for arc in arcs]
        except IndexError:  # a tile code past the alphabet
            raise self._outside_graph() from None
        return out

    # -- richer queries (own modules) -----------------------------------------

    def anagram(
        self,
        rack: str,
        *,
        mode: str = "sub",
        through: str = "",
        min_length: int = 2,
        max_length: int | None = None,
        sort: str = "alpha",
        blanks: bool = False,
    ) -> "list[str] | list[Anagram]":
        """Words made from ``rack`` (``?`` a blank, trailing ``*`` for super-anagrams).

        ``mode``: ``"sub"`` (some tiles), ``"exact"`` (all), ``"super"`` (all
        and more). ``through``: board tiles every word must also use.
        ``sort``: ``"alpha"``, ``"length"`` (longest first) or ``"priority"``.
        With ``blanks=True`` the results are :class:`~lexigraph.anagram.Anagram`
        objects that say which positions blanks fill.

        >>> import lexigraph
        >>> lexigraph.open().anagram("top")
        ['op', 'opt', 'pot', 'to', 'top']
        >>> lexigraph.open().anagram("aalnst?", mode="exact")
        ['analyst', 'platans', 'saltant', 'saltpan', 'sealant', 'sultana']
        """
        self._check_open()
        from .anagram import anagram

        return anagram(
            self, rack, mode=mode, through=through, min_length=min_length,
            max_length=max_length, sort=sort, blanks=blanks,
        )

    def anagram_table(self, rack: str) -> list[tuple[str, list[str]]]:
        """Exact anagrams of ``rack``, then of ``rack`` plus each tile of the alphabet.

        The first entry is ``("", words)``; then ``(tile, words)`` for each tile.

        >>> import lexigraph
        >>> table = lexigraph.open().anagram_table("aalnst?")
        >>> table[0]
        ('', ['analyst', 'platans', 'saltant', 'saltpan', 'sealant', 'sultana'])
        >>> dict(table)["a"]
        ['cantalas', 'lantanas']
        """
        self._check_open()
        from .anagram import anagram_table

        return anagram_table(self, rack)

    def match(self, pattern: str, *, min_priority: int = 0, offset: int = 0, limit: int | None = None) -> list[str]:
        """Words matching a crossword pattern, best priority first, then alphabetical.

        ``?`` or ``.`` is any tile, ``[abc]`` a set, ``[^abc]`` its complement,
        ``@`` a vowel, ``#`` a consonant, ``*`` any run of tiles.

        >>> import lexigraph
        >>> lexigraph.open().match("?uixot??")
        ['quixotes', 'quixotic', 'quixotry']
        >>> lexigraph.open().match("q[^u]*", limit=3)
        ['qaid', 'qaids', 'qanat']
        """
        self._check_open()
        from .crossword import match

        return match(self, pattern, min_priority=min_priority, offset=offset, limit=limit)

    def count(self, pattern: str, *, min_priority: int = 0) -> int:
        """How many words :meth:`match` would return, without building the list.

        >>> import lexigraph
        >>> lexigraph.open().count("?????")
        8636
        """
        self._check_open()
        from .crossword import count

        return count(self, pattern, min_priority=min_priority)

    def cross(self, pattern_a: str, pos_a: int, pattern_b: str, pos_b: int, *, min_priority: int = 0) -> "Crossing":
        """Tiles that fit where two entries cross, and each entry's words that agree.

        >>> import lexigraph
        >>> c = lexigraph.open().cross("e???y", 2, "d???", 1)
        >>> "j" in c.tiles, "v" in c.tiles, "enjoy" in c.words_a
        (True, False, True)
        """
        self._check_open()
        from .crossword import cross

        return cross(self, pattern_a, pos_a, pattern_b, pos_b, min_priority=min_priority)

    def diff(self, other: "Lexicon") -> "Diff":
        """Compare with another lexicon: words only here, only there, per-length counts.

        >>> import lexigraph
        >>> d = lexigraph.load(["cat", "dog"]).diff(lexigraph.load(["dog", "emu"]))
        >>> d.only_a, d.only_b, d.both
        (['cat'], ['emu'], 1)
        """
        self._check_open()
        from .diff import diff

        return diff(self, other)

    # -- word study (issue 15: lexigraph.hooks, lexigraph.probability, lexigraph.search) ----------

    def hooks(self, word: str) -> "Hooks":
        """Front and back hook tiles of ``word``, and whether it stays a word without its first / last tile.

        >>> import lexigraph
        >>> str(lexigraph.open().hooks("care"))
        's ·CARE· drstx'
        """
        self._check_open()
        from .hooks import hooks

        return hooks(self, word)

    def probability(self, word: str, *, blanks: int = 2, tiles: Any = None) -> "WordProbability":
        """Draw combinations, chance and probability rank of ``word`` with the tile set's bag.

        ``tiles``: a tile set (preset name or alphabet file) when the lexicon's alphabet has none.

        >>> import lexigraph
        >>> p = lexigraph.open().probability("aeinrst", blanks=0)
        >>> p.combinations, p.rank
        (839808, None)
        """
        self._check_open()
        from .probability import word_probability

        return word_probability(self, word, blanks=blanks, tiles=tiles)

    def search(self, query: "Query | str", *, sort: str = "alpha", offset: int = 0,
               limit: int | None = None, lists: "Mapping[str, Any] | None" = None, blanks: int = 2,
               tiles: Any = None) -> list[str]:
        """Words matching a study search: conditions with ``and``, ``or``, ``not`` (``docs/search.md``).

        ``query``: an expression or a tree of :mod:`lexigraph.search`. ``sort``: ``alpha``, ``length``,
        ``probability`` or ``priority``. ``lists``: names for ``in NAME`` (a lexicon, words or a path).
        ``blanks`` (0-2) and ``tiles`` (a tile set) for probability.

        >>> import lexigraph
        >>> lexigraph.open().search("length 2 and contains x and back-hook ?")
        ['ax', 'ox', 'xi']
        """
        self._check_open()
        from .search import search

        return search(self, query, sort=sort, offset=offset, limit=limit, lists=lists,  # type: ignore[arg-type]
                      blanks=blanks, tiles=tiles)


def _pure_python(lex: Lexicon) -> Lexicon:
    """Send ``lex``'s hash probes and graph walks through Python, as without the C extension.

    For tests and benchmarks that compare the two paths on one file; a
    lexicon whose class inherits the C ``Probe`` keeps that base.
    """
    if lex._keys is not None:
        lex._keys._probe_release()
    lex._keys = lex._walk_codes = None
    return lex


def _byte_alphabet(index: dict[str, Any]) -> bool:
    """Whether every tile is one ASCII character and ASCII text needs no folding."""
    alphabet = index.get("alphabet")
    if not isinstance(alphabet, dict):
        return False
    keys = list(alphabet.get("tiles") or []) + list(alphabet.get("aliases") or {})
    folds = alphabet.get("fold") or {}
    return all(isinstance(k, str) and len(k) == 1 and k.isascii() for k in keys) and not any(
        isinstance(k, str) and k.isascii() for k in folds
    )


class _ByteLexicon(Lexicon):
    """A lexicon whose tiles are single ASCII letters: membership in a few C calls."""

    def __contains__(self, word: object) -> bool:
        # The library's hot path, so _id_of_key is repeated inline: a method
        # call would cost a fifth of the lookup. A character outside the
        # alphabet becomes code 0, which no stored word holds.
        try:
            key = word.encode("ascii").translate(self._byte_table)  # type: ignore[attr-defined]
        except UnicodeEncodeError:
            return Lexicon.__contains__(self, word)
        except AttributeError:
            return False
        try:
            slots, home, base, length = self._tables[len(key)]  # type: ignore[misc]
        except (IndexError, TypeError):
            self._check_open()  # close() empties the tables
            return False
        buf = self._buf
        i = (crc32(key) * home) >> 32
        try:
            while True:  # a valid table's last slot is empty; a corrupt one ends in IndexError
                v = slots[i]
                if not v:
                    return False
                start = base + v * length
                if buf[start : start + length] == key:
                    return True
                i += 1
        except IndexError:
            return False


if _speedups is not None:

    class _FastByteLexicon(_speedups.Probe, _ByteLexicon):  # type: ignore[misc]
        """:class:`_ByteLexicon` with ``in``, ``check`` and ``check_many`` in C.

        The C base answers ASCII strings and hands anything else back to the
        Python paths through ``_contains_general``.
        """

        _contains_general = Lexicon.__contains__

        def __init__(self, mapped: MappedFile) -> None:
            super().__init__(mapped)
            self._attach_probe(self, self._byte_table)

        def close(self) -> None:
            self._probe_release()  # the C base holds the buffer; the map cannot close before
            super().close()

        close.__doc__ = Lexicon.close.__doc__
