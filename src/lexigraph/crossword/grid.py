"""Crossword grids: cells, standard numbering, slots, and the plain text, ipuz and ``.puz`` formats.

A grid is a rectangle of cells; each cell is a block (``"#"``), empty
(``None``) or holds one tile (its label, lower case: ``"a"``, or ``"ch"``
for a multi-letter tile, which fills one cell). A *slot* is a maximal
across or down run of two or more non-block cells; slots are numbered the
standard way (row by row, a cell gets the next number when it starts an
across or a down slot).

Plain text has one line per row: ``.`` or ``?`` an empty cell, ``#`` a
block, a letter a fixed cell, ``[ch]`` a multi-letter tile (or, with an
alphabet, its label written out). ipuz (JSON) and Across Lite ``.puz``
(through the ``puzpy`` library, ``pip install 'lexigraph[puz]'``) are read
and written too.

>>> g = Grid.from_text('''
... ..#
... ...
... #..
... ''')
>>> g.height, g.width, [s.name for s in g.slots()]
(3, 3, ['1A', '3A', '5A', '1D', '2D', '4D'])
>>> g.slot("3A").cells
((1, 0), (1, 1), (1, 2))
>>> print(g.with_cells({(1, 0): "c", (1, 1): "a", (1, 2): "t"}).to_text())
..#
CAT
#..
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..errors import LexiconError, QueryError
from ..query.pattern import not_a_tile
from ..support.files import read_limited, write_atomic
from ..support.text import one_line, quote

if TYPE_CHECKING:  # pragma: no cover
    from ..alphabet import Alphabet

BLOCK = "#"
#: Largest side accepted: Across Lite's limit, and far beyond any published grid.
MAX_SIDE = 255
#: Largest file read as a grid.
MAX_FILE_BYTES = 4 * 1024 * 1024
EMPTY_CHARS = ".?_"
FORMATS = ("text", "ipuz", "puz")

Cell = str | None
Format = Literal["text", "ipuz", "puz"]


@dataclass(frozen=True)
class Slot:
    """One entry of the grid: its number, direction (``"A"`` across, ``"D"`` down) and cells (row, column).

    >>> Slot(12, "A", ((3, 4), (3, 5))).name
    '12A'
    """

    number: int
    direction: Literal["A", "D"]
    cells: tuple[tuple[int, int], ...]

    @property
    def name(self) -> str:
        return f"{self.number}{self.direction}"

    def __len__(self) -> int:
        return len(self.cells)


class Grid:
    """An immutable crossword grid: blocks, empty cells and tiles.

    >>> g = Grid([["c", None], [None, "#"]])
    >>> g.cell(0, 0), g.cell(0, 1), g.cell(1, 1), g.is_block(1, 1)
    ('c', None, '#', True)
    """

    def __init__(self, cells: Sequence[Sequence[Cell]], *, title: str = "") -> None:
        if isinstance(cells, (str, bytes)) or not isinstance(cells, Sequence) or not all(
                isinstance(r, Sequence) and not isinstance(r, (str, bytes)) for r in cells):
            raise QueryError(f"a grid is rows of cells (lists of str or None), not {type(cells).__name__}"
                             f" {quote(cells)}")
        rows = [list(r) for r in cells]
        if not rows or not rows[0]:
            raise QueryError("the grid is empty")
        width = len(rows[0])
        for i, r in enumerate(rows):
            if len(r) != width:
                raise QueryError(f"the grid's rows differ in length: row 1 has {width} cells, row {i + 1} has {len(r)}")
        if len(rows) > MAX_SIDE or width > MAX_SIDE:
            raise QueryError(f"the grid is {len(rows)}x{width}; at most {MAX_SIDE} cells on a side are accepted")
        for i, r in enumerate(rows):
            for j, v in enumerate(r):
                if v is None or v == BLOCK:
                    continue
                if not isinstance(v, str) or not v.strip() or BLOCK in v:
                    raise QueryError(f"cell ({i + 1}, {j + 1}) holds {quote(v)}: not a tile, a block or empty")
                r[j] = v.strip().lower()
        self._cells: tuple[tuple[Cell, ...], ...] = tuple(tuple(r) for r in rows)
        self.height = len(rows)
        self.width = width
        self.title = title
        self._slots: list[Slot] | None = None

    # -- cells --------------------------------------------------------------

    @property
    def cells(self) -> tuple[tuple[Cell, ...], ...]:
        """Rows of cells: ``"#"`` block, ``None`` empty, a tile label."""
        return self._cells

    def cell(self, row: int, col: int) -> Cell:
        """The cell at (row, column), counted from 0."""
        return self._cells[self._row(row)][self._col(col)]

    def is_block(self, row: int, col: int) -> bool:
        return self._cells[self._row(row)][self._col(col)] == BLOCK

    def _row(self, row: object) -> int:
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < self.height:
            raise QueryError(f"row {quote(row)} is not a row of this {self.height}x{self.width} grid (0 to"
                             f" {self.height - 1})")
        return row

    def _col(self, col: object) -> int:
        if isinstance(col, bool) or not isinstance(col, int) or not 0 <= col < self.width:
            raise QueryError(f"column {quote(col)} is not a column of this {self.height}x{self.width} grid (0 to"
                             f" {self.width - 1})")
        return col

    def open_cells(self) -> list[tuple[int, int]]:
        """Every non-block cell, row by row."""
        return [(r, c) for r in range(self.height) for c in range(self.width) if self._cells[r][c] != BLOCK]

    def with_cells(self, values: Mapping[tuple[int, int], Cell]) -> "Grid":
        """A copy with some cells replaced."""
        if not isinstance(values, Mapping):
            raise QueryError(f"with_cells takes a mapping of (row, column) to a cell, not {type(values).__name__}")
        rows = [list(r) for r in self._cells]
        for key, v in values.items():
            if not (isinstance(key, tuple) and len(key) == 2):
                raise QueryError(f"with_cells: {quote(key)} is not a (row, column) pair")
            rows[self._row(key[0])][self._col(key[1])] = v
        return Grid(rows, title=self.title)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and self._cells == other._cells

    def __hash__(self) -> int:
        return hash(self._cells)

    def __repr__(self) -> str:
        return f"Grid({self.height}x{self.width}, {len(self.slots())} slots)"

    # -- numbering and slots --------------------------------------------------

    def _open(self, r: int, c: int) -> bool:
        return 0 <= r < self.height and 0 <= c < self.width and self._cells[r][c] != BLOCK

    def numbers(self) -> dict[tuple[int, int], int]:
        """The standard clue number of each cell that starts a slot."""
        out: dict[tuple[int, int], int] = {}
        n = 0
        for r in range(self.height):
            for c in range(self.width):
                if not self._open(r, c):
                    continue
                across = not self._open(r, c - 1) and self._open(r, c + 1)
                down = not self._open(r - 1, c) and self._open(r + 1, c)
                if across or down:
                    n += 1
                    out[(r, c)] = n
        return out

    def slots(self) -> list[Slot]:
        """Every slot: the across ones by number, then the down ones by number."""
        if self._slots is None:
            numbers = self.numbers()
            across: list[Slot] = []
            down: list[Slot] = []
            for (r, c), n in numbers.items():
                if not self._open(r, c - 1) and self._open(r, c + 1):
                    end = c
                    while self._open(r, end):
                        end += 1
                    across.append(Slot(n, "A", tuple((r, x) for x in range(c, end))))
                if not self._open(r - 1, c) and self._open(r + 1, c):
                    end = r
                    while self._open(end, c):
                        end += 1
                    down.append(Slot(n, "D", tuple((y, c) for y in range(r, end))))
            self._slots = across + down
        return list(self._slots)

    def slot(self, name: str) -> Slot:
        """A slot by name: ``12A``, ``3D`` (also ``12a``, ``12-across``, ``3 down``).

        >>> Grid.from_text("...\\n...").slot("2 down").cells
        ((0, 1), (1, 1))
        """
        if not isinstance(name, str):
            raise QueryError(f"a slot is named by text such as '1A', not {type(name).__name__} {quote(name)}")
        key = name.strip().lower().replace("-", "").replace(" ", "")
        for long, short in (("across", "a"), ("down", "d")):
            if key.endswith(long):
                key = key[: -len(long)] + short
        for s in self.slots():
            if s.name.lower() == key:
                return s
        raise QueryError(f"the grid has no slot {quote(name)} (slots are named like 1A, 2D)")

    def word(self, slot: Slot) -> list[Cell]:
        """The cells of a slot, in order."""
        if not isinstance(slot, Slot):
            raise QueryError(f"word() takes a Slot (grid.slot('1A')), not {type(slot).__name__}")
        return [self._cells[self._row(r)][self._col(c)] for r, c in slot.cells]

    def is_complete(self) -> bool:
        """Whether every non-block cell holds a tile."""
        return all(v is not None for row in self._cells for v in row)

    # -- plain text -------------------------------------------------------------

    @classmethod
    def from_text(cls, text: str, *, alphabet: "Alphabet | None" = None) -> "Grid":
        """Parse the plain text format (blank lines before and after the grid are ignored).

        With an ``alphabet``, fixed tiles are split greedily into its tiles
        (so Spanish ``CH`` is one cell); without one, each letter is a cell
        and ``[ch]`` writes a multi-letter tile.

        >>> Grid.from_text("c[ch]#\\n?.a").cells
        (('c', 'ch', '#'), (None, None, 'a'))
        """
        if not isinstance(text, str):
            raise QueryError("a grid must be text")
        lines = [ln.rstrip("\r\n").rstrip() for ln in text.split("\n")]
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines:
            raise QueryError("the grid is empty")
        if len(lines) > MAX_SIDE:
            raise QueryError(f"the grid has {len(lines)} rows; at most {MAX_SIDE} are accepted")
        rows = [_split_row(line.strip(), i + 1, alphabet) for i, line in enumerate(lines)]
        return cls(rows)

    def to_text(self) -> str:
        """The plain text format, tiles in upper case (``[CH]`` for a multi-letter tile)."""
        out = []
        for row in self._cells:
            out.append("".join("." if v is None else v if v == BLOCK else (v.upper() if len(v) == 1 else f"[{v.upper()}]") for v in row))
        return "\n".join(out)

    # -- ipuz -----------------------------------------------------------------

    @classmethod
    def from_ipuz(cls, data: Any) -> "Grid":
        """Read an ipuz crossword (a parsed JSON object or its text).

        Blocks come from ``puzzle``; tiles from ``solution`` where it has them.

        >>> g = Grid.from_text("ab\\n.#")
        >>> Grid.from_ipuz(g.to_ipuz()) == g
        True
        """
        if isinstance(data, (str, bytes, bytearray)):
            if len(data) > MAX_FILE_BYTES:
                raise QueryError(f"not valid ipuz: larger than {MAX_FILE_BYTES >> 20} MiB")
            try:
                data = json.loads(data)
            except (ValueError, RecursionError) as e:
                raise QueryError(f"not valid ipuz: the JSON does not parse ({one_line(str(e), 200)})") from None
        if not isinstance(data, dict):
            raise QueryError("not valid ipuz: the top level is not an object")
        kinds = data.get("kind")
        if not isinstance(kinds, list) or not any(isinstance(k, str) and "crossword" in k for k in kinds):
            raise QueryError("not valid ipuz: 'kind' does not name a crossword")
        dims = data.get("dimensions")
        if not isinstance(dims, dict):
            raise QueryError("not valid ipuz: 'dimensions' is missing")
        width, height = dims.get("width"), dims.get("height")
        for v, name in ((width, "width"), (height, "height")):
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= MAX_SIDE:
                raise QueryError(f"not valid ipuz: the {name} must be an integer from 1 to {MAX_SIDE}")
        assert isinstance(width, int) and isinstance(height, int)
        block = data.get("block", BLOCK)
        empty = data.get("empty", 0)
        puzzle = data.get("puzzle")
        solution = data.get("solution")
        if not isinstance(puzzle, list) or not _is_matrix(puzzle, height, width):
            raise QueryError(f"not valid ipuz: 'puzzle' must be {height} rows of {width} cells")
        if solution is not None and not _is_matrix(solution, height, width):
            raise QueryError(f"not valid ipuz: 'solution' must be {height} rows of {width} cells")
        rows: list[list[Cell]] = []
        for r in range(height):
            row: list[Cell] = []
            for c in range(width):
                p = puzzle[r][c]
                if isinstance(p, dict):
                    p = p.get("cell", empty)
                if p is None or _same(p, block):
                    row.append(BLOCK)
                    continue
                tile: Cell = None
                s = solution[r][c] if solution is not None else None
                if isinstance(s, dict):
                    s = s.get("value")
                if isinstance(s, str) and s and not _same(s, block) and not _same(s, empty) and s.strip():
                    tile = s.strip().lower()
                    if not tile.replace("·", "").isalpha():
                        raise QueryError(f"not valid ipuz: the solution cell ({r + 1}, {c + 1}) holds {quote(s)}")
                row.append(tile)
            rows.append(row)
        return cls(rows, title=str(data.get("title", "")) if isinstance(data.get("title", ""), str) else "")

    def to_ipuz(self) -> dict[str, Any]:
        """An ipuz crossword object (JSON-ready): numbered ``puzzle``, ``solution``, empty clues."""
        numbers = self.numbers()
        puzzle: list[list[Any]] = []
        solution: list[list[Any]] = []
        for r in range(self.height):
            prow: list[Any] = []
            srow: list[Any] = []
            for c in range(self.width):
                v = self._cells[r][c]
                if v == BLOCK:
                    prow.append(BLOCK)
                    srow.append(BLOCK)
                else:
                    prow.append(numbers.get((r, c), 0))
                    srow.append(None if v is None else v.upper())
            puzzle.append(prow)
            solution.append(srow)
        clues: dict[str, list[Any]] = {"Across": [], "Down": []}
        for s in self.slots():
            clues["Across" if s.direction == "A" else "Down"].append([s.number, ""])
        out: dict[str, Any] = {
            "version": "http://ipuz.org/v2",
            "kind": ["http://ipuz.org/crossword#1"],
            "dimensions": {"width": self.width, "height": self.height},
            "block": BLOCK,
            "empty": 0,
            "puzzle": puzzle,
            "solution": solution,
            "clues": clues,
        }
        if self.title:
            out["title"] = self.title
        return out

    # -- Across Lite .puz -------------------------------------------------------

    @classmethod
    def from_puz(cls, data: bytes) -> "Grid":
        """Read an Across Lite ``.puz`` file's bytes (needs the ``puzpy`` package).

        Tiles come from the solution; ``-`` (and ``X`` in a scrambled or
        blank solution) is an empty cell; rebus squares become multi-letter tiles.
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise QueryError(f"a .puz file is bytes, not {type(data).__name__}")
        if len(data) > MAX_FILE_BYTES:
            raise QueryError(f"not a valid .puz file: larger than {MAX_FILE_BYTES >> 20} MiB")
        puz = _puzpy()
        try:
            p = puz.load(bytes(data))
            width, height = int(p.width), int(p.height)
            if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
                raise QueryError(f"not a valid .puz file: the grid is {height}x{width}")
            if p.is_solution_locked():
                raise QueryError("the .puz file's solution is scrambled (locked); unlock it first")
            sol = p.solution
            rebus = p.rebus() if p.has_rebus() else None
            rows: list[list[Cell]] = []
            for r in range(height):
                row: list[Cell] = []
                for c in range(width):
                    i = r * width + c
                    ch = sol[i]
                    if ch in ".:":
                        row.append(BLOCK)
                    elif rebus is not None and rebus.is_rebus_square(i):
                        row.append((rebus.get_rebus_solution(i) or ch).lower())
                    elif ch.isalpha():
                        row.append(ch.lower())
                    else:
                        row.append(None)
                rows.append(row)
            title = str(p.title)
        except QueryError:
            raise
        except Exception as e:  # puzpy raises many kinds on damaged files, some over several lines
            raise QueryError(f"not a valid .puz file: {_puz_reason(e)}") from None
        return cls(rows, title=title)

    def to_puz(self) -> bytes:
        """Across Lite ``.puz`` bytes: the tiles as the solution, an empty player fill, empty clues."""
        puz = _puzpy()
        p = puz.Puzzle()
        p.width, p.height = self.width, self.height
        p.title = self.title
        sol = []
        rebus_cells: list[tuple[int, str]] = []
        for r, row in enumerate(self._cells):
            for c, v in enumerate(row):
                if v == BLOCK:
                    sol.append(".")
                elif v is None:
                    sol.append("-")
                else:
                    first = v[0].upper()
                    if len(v) > 1 or not ("A" <= first <= "Z"):
                        rebus_cells.append((r * self.width + c, v.upper()))
                        first = first if "A" <= first <= "Z" else "X"
                    sol.append(first)
        p.solution = "".join(sol)
        p.fill = "".join("." if ch == "." else "-" for ch in p.solution)
        p.clues = ["" for _ in self.slots()]
        # puzpy orders clues by number, across before down at the same number, as Across Lite does
        if rebus_cells:
            rb = p.rebus()
            for i, label in rebus_cells:
                rb.add_rebus_squares(i, label)
            rb._dirty = True  # noqa: SLF001 - puzpy saves the rebus tables only when told they changed
        try:
            return bytes(p.tobytes())
        except Exception as e:
            raise QueryError(f"this grid cannot be written as .puz: {one_line(str(e), 200)}") from None

    # -- files ------------------------------------------------------------------

    @classmethod
    def read(cls, path: "str | os.PathLike[str]", *, format: Format | None = None, alphabet: "Alphabet | None" = None) -> "Grid":  # noqa: A002
        """Read a grid file; the format comes from the extension (``.ipuz``, ``.puz``, else text)."""
        if not isinstance(path, (str, os.PathLike)):
            raise QueryError(f"Grid.read takes a path, not {type(path).__name__}")
        if format is not None and format not in FORMATS:
            raise QueryError(f"unknown grid format {quote(format)} (one of {', '.join(FORMATS)})")
        fmt = format or guess_format(path)
        data = read_limited(path, limit=MAX_FILE_BYTES, what="a grid", error=QueryError,
                            missing=f"no such grid file: {os.fspath(path)}")
        try:
            if fmt == "puz":
                return cls.from_puz(data)
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise QueryError("the file is not UTF-8 text") from None
            if fmt == "ipuz":
                return cls.from_ipuz(text)
            return cls.from_text(text, alphabet=alphabet)
        except QueryError as e:
            raise QueryError(f"{os.fspath(path)}: {e}") from None

    def dumps(self, format: Format = "text") -> bytes:  # noqa: A002
        """The grid in a file format, as bytes."""
        if format == "puz":
            return self.to_puz()
        if format == "ipuz":
            return (json.dumps(self.to_ipuz(), ensure_ascii=False) + "\n").encode()
        if format == "text":
            return (self.to_text() + "\n").encode()
        raise QueryError(f"unknown grid format {quote(format)} (one of {', '.join(FORMATS)})")

    def write(self, path: "str | os.PathLike[str]", *, format: Format | None = None,  # noqa: A002
              inputs: Iterable[object] = ()) -> None:
        """Write the grid atomically (:func:`lexigraph.support.files.write_atomic`).

        ``inputs``: the files the grid came from; writing over one of them is refused.
        """
        if not isinstance(path, (str, os.PathLike)):
            raise QueryError(f"Grid.write takes a path, not {type(path).__name__}")
        data = self.dumps(format or guess_format(path))
        try:
            write_atomic(path, data, inputs=inputs)
        except QueryError:
            raise
        except LexiconError as e:  # the grid's errors are all QueryErrors
            raise QueryError(str(e)) from None


def guess_format(path: "str | os.PathLike[str]") -> Format:
    """The grid format of a file name: ``.ipuz``, ``.puz``, anything else is text."""
    name = os.fspath(path).lower()
    if name.endswith(".ipuz"):
        return "ipuz"
    if name.endswith(".puz"):
        return "puz"
    return "text"


def _split_row(line: str, lineno: int, alphabet: "Alphabet | None") -> list[Cell]:
    """The cells of one text row: '.', '?' or '_' empty, '#' a block, a tile (or ``[tile]``) fixed.

    Characters that are no cell get the pattern language's own error
    (:func:`lexigraph.query.pattern.not_a_tile`), so ``c1t`` is refused in the
    same words by ``match`` and by ``fill --grid-text``.
    """
    where = f"grid row {lineno} {quote(line)}"
    cells: list[Cell] = []
    labels: list[str] = []
    if alphabet is not None:
        labels = sorted((lab for lab in alphabet.labels if len(lab) > 1), key=len, reverse=True)
        # The alphabet's own folding (case, NFC, accents it ignores), as a pattern's text gets it.
        line = alphabet.prepare(line)
    i = 0
    low = line.lower()
    while i < len(line):
        ch = line[i]
        if ch in EMPTY_CHARS:
            cells.append(None)
        elif ch == BLOCK:
            cells.append(BLOCK)
        elif ch == "[":
            end = line.find("]", i + 1)
            tile = line[i + 1 : end].strip().lower() if end > 0 else ""
            if end < 0 or not tile:
                raise QueryError(f"{where}: '[' at position {i} needs a tile and a closing ']'")
            if alphabet is not None and alphabet.code(tile) is None:
                raise not_a_tile(where, tile, i + 1)
            cells.append(tile)
            i = end
        elif ch.isalpha():
            for lab in labels:
                if low.startswith(lab, i):
                    cells.append(lab)
                    i += len(lab)
                    break
            else:
                if alphabet is not None and alphabet.code(ch) is None:
                    raise not_a_tile(where, ch, i)
                cells.append(ch.lower())
                i += 1
            continue
        else:
            raise not_a_tile(where, ch, i)
        i += 1
    return cells


def _is_matrix(value: Any, height: int, width: int) -> bool:
    return isinstance(value, list) and len(value) == height and all(isinstance(r, list) and len(r) == width for r in value)


def _same(value: Any, marker: Any) -> bool:
    return value == marker or str(value) == str(marker)


def _puzpy() -> Any:
    try:
        import puz  # type: ignore[import-untyped]
    except ImportError:
        raise QueryError("reading and writing .puz files needs the puzpy package: pip install 'lexigraph[puz]'") from None
    return puz


def _puz_reason(e: BaseException) -> str:
    """One line saying why puzpy refused a file (its struct errors name a byte format over several lines)."""
    import struct

    if isinstance(e, struct.error) or "unpack" in str(e) or "buffer" in str(e):
        return "the file is truncated or damaged"
    return one_line(str(e), 200) or type(e).__name__
