"""Leave tables: what the tiles a player keeps are worth, read from KLV2, KLV or CSV and written back.

A :class:`LeaveTable` maps each multiset of tiles (a *leave*, blanks
included) to a value in points; a leave it does not list is worth 0. Engines
rank plays by *equity*, the score plus the value of the leave
(:mod:`lexigraph.scrabble.equity`). Three files hold them:

* **KLV2** (wolges's leave table, shared by the engines that use its files):
  the leaves as a KWG word graph plus a float32 per leave
  (:mod:`lexigraph.formats.klv`);
* **KLV**, its older form with int16 values in 1/256 points;
* **CSV**: ``leave,value`` lines (``?`` a blank, multi-letter tiles in
  brackets), as Macondo publishes leave values and as wolges's ``buildlex``
  reads them. A first line whose value is not a number is a header.

Values are held as floats exactly as a KLV2 holds them (each the float32
nearest the CSV's decimal text), so a table read from a CSV and one read
from the KLV2 built from it are equal. A value must lie within
±:data:`MAX_LEAVE_VALUE` points; any other (``3.4028235e38``, NaN) is a
:class:`LeaveError` naming the leave, whatever file it comes from. Tile numbers in the binary files are
English letters (``?`` 0, ``A`` 1 ... ``Z`` 26, as in wolges) when the
tiles are letters a-z, else the alphabet's own codes
(:func:`lexigraph.formats.kwg.file_alphabet`).

>>> t = LeaveTable.from_csv("?,25.5\\nS,8.0\\nQ,-7.25\\nQU,-4.0\\n")
>>> t.value("S"), t.value("QU"), t.value("UQ"), t.value("ZZZ")
(8.0, -4.0, -4.0, 0.0)
>>> LeaveTable.from_bytes(t.to_klv2()) == t
True
>>> print(t.to_csv(), end="")
?,25.5
Q,-7.25
S,8.0
QU,-4.0
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

import numpy as np

from ..alphabet import Alphabet
from ..engine.interface import LEAVE_KEY_TILES, leave_key
from ..errors import SourceError
from ..formats import klv
from ..formats.kwg import file_alphabet
from ..support.files import read_limited, refuse_overwrite, write_atomic
from .game import GameError

#: Largest leave table file read (bytes): the biggest published tables (every leave of up to 6 tiles) are ~10 MB.
MAX_FILE_BYTES = 256 << 20
#: Largest value a leave may have, in points either way: published tables stay within ±40 (a blank is worth
#: about 25), and no leave outweighs this many points of score; a value beyond it is a mistake, refused.
MAX_LEAVE_VALUE = 1000.0
_TOKEN = re.compile(r"\[[^\]]*\]|\?|[^\[\]?]+")


class LeaveError(GameError):
    """A leave table (file, CSV line or leave) is malformed."""


class LeaveTable(Mapping[bytes, float]):
    """Leave values by leave: keys are tile codes sorted ascending (0 the blank), values floats (float32-exact).

    A mapping (``len``, ``in``, iteration in key order); :meth:`value` reads a
    leave written as text or codes, unlisted leaves worth 0.
    """

    def __init__(self, values: Mapping[bytes, float], alphabet: Alphabet | None = None, *, name: str = "") -> None:
        self.alphabet = alphabet if alphabet is not None else Alphabet.preset("english")
        self.name = name
        size = len(self.alphabet)
        # In bulk (a learned table holds every leave of up to six tiles, 914,624 in English): sorted keys, the
        # float32 nearest each value, as a KLV2 stores it.
        keys = [bytes(sorted(leave)) for leave in values]
        if not all(keys):
            raise LeaveError("a leave table lists leaves of one tile or more")
        top = max(map(max, keys), default=0)
        if top > size:
            raise LeaveError(f"a leave uses tile {top}; the {self.alphabet.name} alphabet has {size} tiles")
        try:
            wide = np.fromiter(values.values(), np.float64, len(keys))
        except (TypeError, ValueError):
            raise LeaveError("a leave's value is not a number") from None
        self._check_values(wide, lambda at: keys[at])
        narrow = wide.astype(np.float32)  # within MAX_LEAVE_VALUE: no overflow
        table: dict[bytes, float] = dict(zip(keys, narrow.astype(np.float64).tolist()))
        self._dict: dict[bytes, float] | None = dict(sorted(table.items()))
        self._rows: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        #: The longest leave listed, in tiles.
        self.max_length = max(map(len, self._dict), default=0)
        self._packed: tuple[bytes, bytes] | None = None
        self._packed_done = False
        self._by_alphabet: dict[tuple[str, ...], LeaveTable] = {}

    @classmethod
    def from_arrays(cls, rows: "np.ndarray", lengths: "np.ndarray", values: "np.ndarray",
                    alphabet: Alphabet | None = None, *, name: str = "") -> "LeaveTable":
        """A table from arrays, as :func:`lexigraph.formats.klv.read_arrays` gives them: one leave per row of
        ``rows`` (tile codes ascending, zero-padded past ``lengths``), its value in ``values`` (float32-exact).

        Nothing is built per leave until a leave is asked for by key or the table is iterated: a table of
        every leave up to six tiles (914,624 in English) opens in a fraction of a second and its lookups for
        move generation (:attr:`packed`) are made from the arrays at once.

        >>> import numpy as np
        >>> t = LeaveTable.from_arrays(np.array([[19, 0], [19, 19]], np.uint8), np.array([1, 2]), np.array([8.0, 5.5]))
        >>> len(t), t.value("S"), t.value("SS"), t.value("Q")
        (2, 8.0, 5.5, 0.0)
        """
        table = cls({}, alphabet, name=name)
        rows = np.ascontiguousarray(rows, np.uint8)
        lengths = np.asarray(lengths, np.int64)
        values = np.asarray(values, np.float64)
        if rows.ndim != 2 or len(rows) != len(lengths) or len(values) != len(lengths):
            raise LeaveError("a leave table's arrays differ in length")
        if len(lengths) and (lengths.min() < 1 or lengths.max() > rows.shape[1]):
            raise LeaveError("a leave table lists leaves of one tile or more, within their rows")
        top = int(rows.max(initial=0))
        if top > len(table.alphabet):
            raise LeaveError(f"a leave uses tile {top}; the {table.alphabet.name} alphabet has {len(table.alphabet)} tiles")
        table._check_values(values, lambda at: bytes(rows[at, : lengths[at]]))
        table._dict = None
        table._rows = (rows, lengths, values)
        table.max_length = int(lengths.max(initial=0))
        return table

    def _check_values(self, values: "np.ndarray", leave_at: Callable[[int], bytes]) -> None:
        """Refuse a value beyond ±:data:`MAX_LEAVE_VALUE` or not a number, naming its leave (``leave_at(i)``)."""
        with np.errstate(invalid="ignore"):
            bad = ~(np.abs(values) <= MAX_LEAVE_VALUE)  # NaN compares false: refused too
        if bad.any():
            at = int(np.argmax(bad))
            raise LeaveError(f"the leave {self.text(leave_at(at))} has the value {float(values[at])!r}; leave values "
                             f"lie within ±{MAX_LEAVE_VALUE:g} points")

    @property
    def _values(self) -> dict[bytes, float]:
        """Leave (sorted codes) to value, built on first use from the arrays when the table came as arrays."""
        if self._dict is None:
            assert self._rows is not None
            rows, lengths, values = self._rows
            keys = [row[:n].tobytes() for row, n in zip(rows, lengths.tolist())]
            self._dict = dict(sorted(zip(keys, values.tolist())))
        return self._dict

    @property
    def packed(self) -> tuple[bytes, bytes] | None:
        """The table as the engines' leave lookups take it (``Engine.rack_leave_values``): sorted uint64 keys (a
        leave's codes, 6 bits each, its length in the top 4 bits) and a float64 each; None when a leave is too
        long for a key (over 10 tiles) or uses a code over 63."""
        if not self._packed_done:
            self._packed = self._pack(*(self._rows if self._rows is not None else self._arrays_of_dict()))
            self._packed_done = True
        return self._packed

    def _arrays_of_dict(self) -> tuple["np.ndarray", "np.ndarray", "np.ndarray"]:
        """The dict's leaves as :meth:`from_arrays` takes them (rows zero-padded, lengths, values)."""
        keys = list(self._values)
        width = max(self.max_length, 1)
        rows = np.frombuffer(b"".join(k.ljust(width, b"\0") for k in keys), np.uint8).reshape(len(keys), width)
        lengths = np.fromiter(map(len, keys), np.int64, len(keys))
        return rows, lengths, np.fromiter(self._values.values(), np.float64, len(keys))

    def _pack(self, rows: "np.ndarray", lengths: "np.ndarray", values: "np.ndarray") -> tuple[bytes, bytes] | None:
        """interface.leave_key for every leave at once (code i of a sorted leave in bits 6i.., its length in the
        top four bits), keys sorted with their values; None when a leave does not fit a key."""
        if self.max_length > LEAVE_KEY_TILES or int(rows.max(initial=0)) > 63:
            return None
        packed = lengths.astype(np.uint64) << np.uint64(60)
        for i in range(rows.shape[1]):
            column = np.where(lengths > i, rows[:, i], 0).astype(np.uint64)  # past a leave's end: nothing
            packed |= column << np.uint64(6 * i)
        order = np.argsort(packed, kind="stable")
        return packed[order].astype("<u8").tobytes(), values[order].astype("<f8").tobytes()

    @property
    def by_key(self) -> dict[bytes, float]:
        """The table as a dict keyed by sorted tile codes (read it, do not change it): the fast lookup."""
        return self._values

    # -- the mapping ------------------------------------------------------------------------------

    def __getitem__(self, leave: bytes) -> float:
        return self._values[bytes(sorted(leave))]

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._rows[1]) if self._rows is not None and self._dict is None else len(self._values)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LeaveTable):
            return NotImplemented
        return self._values == other._values and self.alphabet.labels == other.alphabet.labels

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"LeaveTable({len(self)} leaves{', ' + self.name if self.name else ''})"

    def value(self, leave: str | bytes | Iterable[int]) -> float:
        """The value of a leave (text such as ``"ERS?"``, or tile codes); 0 when the table does not list it."""
        key = self.codes(leave) if isinstance(leave, str) else bytes(sorted(leave))
        if self._dict is None and self.packed is not None:  # a table from arrays: one search, no dict built
            if not key or len(key) > LEAVE_KEY_TILES or key[-1] > 63:
                return 0.0
            keys = np.frombuffer(self.packed[0], "<u8")
            wanted = leave_key(key)
            at = int(np.searchsorted(keys, np.uint64(wanted)))
            if at < len(keys) and int(keys[at]) == wanted:
                return float(np.frombuffer(self.packed[1], "<f8")[at])
            return 0.0
        return self._values.get(key, 0.0)

    def codes(self, text: str) -> bytes:
        """A leave written as text (``?`` a blank, ``[CH]`` a multi-letter tile) as sorted tile codes."""
        codes: list[int] = []
        for token in _TOKEN.findall(text.strip()):
            if token == "?":
                codes.append(0)
                continue
            label = token[1:-1] if token.startswith("[") else token
            encoded = self.alphabet.code(label) if token.startswith("[") else None
            if encoded is not None:
                codes.append(encoded)
                continue
            split = self.alphabet.encode(label)
            if not label or split is None:
                raise LeaveError(f"bad leave {text!r}: {token!r} is not made of tiles of the {self.alphabet.name} "
                                 f"alphabet")
            codes.extend(split)
        return bytes(sorted(codes))

    def text(self, leave: bytes) -> str:
        """A leave as text: tiles upper case in code order, blanks last (``?``), multi-letter tiles bracketed."""
        out = []
        for code in sorted(leave, key=lambda c: (c == 0, c)):
            if code == 0:
                out.append("?")
            else:
                label = self.alphabet.label(code).upper()
                out.append(f"[{label}]" if len(label) > 1 else label)
        return "".join(out)

    def for_alphabet(self, alphabet: Alphabet) -> "LeaveTable":
        """The same table with another alphabet's codes (tiles matched by label; leaves of missing tiles dropped)."""
        if alphabet.labels == self.alphabet.labels:
            return self
        done = self._by_alphabet.get(alphabet.labels)
        if done is not None:  # remapped once per alphabet: a generation asks for it each time
            return done
        remap = {0: 0}
        for code, label in enumerate(self.alphabet.labels, 1):
            other = alphabet.code(label)
            if other is not None:
                remap[code] = other
        if self._dict is None and self._rows is not None:  # in bulk: codes mapped, leaves re-sorted
            rows, lengths, values_in = self._rows
            lookup = np.full(256, -1, np.int16)
            for old_code, new_code in remap.items():
                lookup[old_code] = new_code
            mapped = lookup[rows]
            inside = np.arange(rows.shape[1]) < lengths[:, None]
            keep = ~((mapped < 0) & inside).any(axis=1)
            mapped = np.where(inside, mapped, 256)[keep]  # past the end sorts last, then is zeroed
            mapped.sort(axis=1)
            rows_out = np.where(mapped == 256, 0, mapped).astype(np.uint8)
            done = self._by_alphabet[alphabet.labels] = LeaveTable.from_arrays(
                rows_out, lengths[keep], values_in[keep], alphabet, name=self.name)
            return done
        values = {bytes(remap[c] for c in k): v for k, v in self._values.items() if all(c in remap for c in k)}
        done = self._by_alphabet[alphabet.labels] = LeaveTable(values, alphabet, name=self.name)
        return done

    # -- files ------------------------------------------------------------------------------------

    @classmethod
    def from_csv(cls, text: str, alphabet: Alphabet | None = None, *, name: str = "") -> "LeaveTable":
        """A table from ``leave,value`` lines (a header line allowed; blank lines and ``#`` comments skipped)."""
        table = cls({}, alphabet, name=name)
        values: dict[bytes, float] = {}
        first = True
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split(",")]
            if len(parts) != 2:
                raise LeaveError(f"{name or 'CSV'} line {number}: expected 'leave,value', got {line[:60]!r}")
            leave, raw = parts
            try:
                value = klv.float32_of_text(raw)
            except ValueError:
                if first:
                    first = False
                    continue  # a header
                raise LeaveError(f"{name or 'CSV'} line {number}: {raw!r} is not a number") from None
            first = False
            if value != value or value in (float("inf"), float("-inf")):
                raise LeaveError(f"{name or 'CSV'} line {number}: the value {raw!r} is not a finite number")
            if abs(value) > MAX_LEAVE_VALUE:
                raise LeaveError(f"{name or 'CSV'} line {number}: the value {raw!r} is out of range; leave values "
                                 f"lie within ±{MAX_LEAVE_VALUE:g} points")
            try:
                key = table.codes(leave)
            except LeaveError as e:
                raise LeaveError(f"{name or 'CSV'} line {number}: {e}") from None
            if not key:
                raise LeaveError(f"{name or 'CSV'} line {number}: the leave is empty")
            if key in values:
                raise LeaveError(f"{name or 'CSV'} line {number}: the leave {leave!r} is listed twice")
            values[key] = value
        return cls(values, table.alphabet, name=name)

    @classmethod
    def from_bytes(cls, data: bytes, alphabet: Alphabet | None = None, *, name: str = "") -> "LeaveTable":
        """A table from the bytes of a KLV2, KLV or CSV file (told apart by their content), in ``alphabet``'s
        codes (default English)."""
        if klv.looks_like(data):
            try:
                rows, lengths, values = klv.read_arrays(data, what=name or "leave table")
            except SourceError as e:
                raise LeaveError(str(e)) from None
            wanted = alphabet if alphabet is not None else Alphabet.preset("english")
            return cls.from_arrays(rows, lengths, values, file_alphabet(wanted), name=name).for_alphabet(wanted)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise LeaveError(f"{name or 'leave table'}: neither a KLV2/KLV file nor a UTF-8 CSV") from None
        if "\0" in text:
            raise LeaveError(f"{name or 'leave table'}: neither a KLV2/KLV file nor a CSV of leave,value lines")
        return cls.from_csv(text, alphabet, name=name)

    @classmethod
    def read(cls, path: str | os.PathLike[str], alphabet: Alphabet | None = None) -> "LeaveTable":
        """A table from a KLV2, KLV or CSV file.

        Read as every named file is (:func:`lexigraph.support.files.read_limited`): at most
        :data:`MAX_FILE_BYTES`, and a FIFO or device waits a bounded time for its bytes.
        """
        data = read_limited(path, limit=MAX_FILE_BYTES, what="a leave table", error=LeaveError,
                            missing=f"cannot read the leave table {os.fspath(path)}: no such file")
        return cls.from_bytes(data, alphabet, name=Path(path).name)

    def to_klv2(self) -> bytes:
        """The table as a KLV2 file (byte for byte what wolges's ``buildlex ...-klv2`` writes from its CSV)."""
        return self.to_bytes("klv2")

    def to_bytes(self, kind: str = "klv2") -> bytes:
        """The table as a ``klv2``, ``klv`` or ``csv`` file."""
        if kind == "csv":
            return self.to_csv().encode("utf-8")
        binary: klv.KlvKind
        if kind == "klv2":
            binary = "klv2"
        elif kind == "klv":
            binary = "klv"
        else:
            raise LeaveError(f"unknown leave table format {kind!r}; choose klv2, klv or csv")
        numbered = self.for_alphabet(file_alphabet(self.alphabet))
        try:
            return klv.build(numbered.by_key, kind=binary)
        except klv.KlvError as e:
            raise LeaveError(str(e)) from None

    def to_csv(self) -> str:
        """``leave,value`` lines, shortest leaves first (each value the shortest text that reads back the same)."""
        lines = [f"{self.text(k)},{v!r}" for k, v in sorted(self._values.items(), key=lambda kv: (len(kv[0]), kv[0]))]
        return "".join(line + "\n" for line in lines)


_LOADED: dict[tuple[str, int, int, tuple[str, ...]], LeaveTable] = {}


def load_leaves(spec: "LeaveTable | str | os.PathLike[str] | None", alphabet: Alphabet) -> LeaveTable | None:
    """A leave table from a path (or one already read), in ``alphabet``'s codes; None stays None.

    Files are read once while they stay the same (path, size and time of
    change), so that a game's default table costs one read.
    """
    if spec is None:
        return None
    if isinstance(spec, LeaveTable):
        return spec.for_alphabet(alphabet)
    path = os.path.realpath(spec)
    try:
        st = os.stat(path)
    except OSError as e:
        raise LeaveError(f"cannot read the leave table {os.fspath(spec)}: {e.strerror or e}") from None
    key = (path, st.st_size, st.st_mtime_ns, alphabet.labels)
    table = _LOADED.get(key)
    if table is None:
        table = LeaveTable.read(path, alphabet)
        if len(_LOADED) >= 8:
            _LOADED.clear()
        _LOADED[key] = table
    return table


# -- a leave table file written in another format ------------------------------------------------------

#: The formats a leave table is exported in (``lexigraph export TABLE --format klv2``).
LEAVE_FORMATS = ("klv2", "klv", "leaves-csv")


def leaves_to_bytes(source: str | os.PathLike[str], format: str, alphabet: str | None = None) -> tuple[bytes, int]:
    """A leave table file (CSV, KLV or KLV2) written as ``klv2``, ``klv`` or ``leaves-csv``; and its leave count.

    ``alphabet`` names the tiles' alphabet (default English: as wolges numbers them).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "mine.csv")
    >>> _ = open(path, "w").write("S,8.0\\nQ,-7.25\\n")
    >>> data, count = leaves_to_bytes(path, "klv2")
    >>> count, LeaveTable.from_bytes(data).value("Q")
    (2, -7.25)
    """
    if format not in LEAVE_FORMATS:
        raise LeaveError(f"unknown leave table format {format!r}; choose one of {', '.join(LEAVE_FORMATS)}")
    table = LeaveTable.read(source, Alphabet.load(alphabet) if alphabet else None)
    return table.to_bytes("csv" if format == "leaves-csv" else format), len(table)


def export_leaves(source: str | os.PathLike[str], dest: str | os.PathLike[str], format: str,
                  alphabet: str | None = None) -> tuple[int, int]:
    """Write the leave table ``source`` to ``dest`` as ``format`` atomically; returns (bytes, leaves).

    A ``dest`` that is the table itself (or the alphabet file), directly or
    through links, is refused before anything is read: a table is never
    replaced by another format of itself (``mine.csv`` by binary, a KLV2 by
    the lossy KLV).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "mine.csv")
    >>> _ = open(path, "w").write("S,8.0\\n")
    >>> export_leaves(path, path, "klv2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lexigraph.errors.LexiconError: the output .../mine.csv is the input .../mine.csv: refusing to overwrite it; write to another file
    """
    inputs = [source, alphabet]
    refuse_overwrite(dest, inputs)
    data, leaves = leaves_to_bytes(source, format, alphabet)
    write_atomic(dest, data, inputs=inputs)
    return len(data), leaves
