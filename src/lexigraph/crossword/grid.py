"""Crossword grids: cells, standard numbering, slots.

A grid is a rectangle of cells; each cell is a block (``"#"``), empty
(``None``) or holds one tile (its label, lower case: ``"a"``, or ``"ch"``
for a multi-letter tile, which fills one cell). A *slot* is a maximal
across or down run of two or more non-block cells; slots are numbered the
standard way (row by row, a cell gets the next number when it starts an
across or a down slot). A grid may carry a clue per slot (by the slot's
name, ``1A``), kept while the slot keeps its cells. Grids are read from and
written to files (plain text, ipuz, ``.puz``) by
:mod:`lexigraph.crossword.formats`.

>>> g = Grid([[None, None, "#"], [None, None, None], ["#", None, None]])
>>> g.height, g.width, [s.name for s in g.slots()]
(3, 3, ['1A', '3A', '5A', '1D', '2D', '4D'])
>>> g.slot("3A").cells
((1, 0), (1, 1), (1, 2))
>>> g.with_cells({(1, 0): "c", (1, 1): "a", (1, 2): "t"}).cells[1]
('c', 'a', 't')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from ..errors import QueryError
from ..support.text import quote

BLOCK = "#"
#: Largest side accepted: Across Lite's limit, and far beyond any published grid.
MAX_SIDE = 255
#: Longest clue accepted, in characters: far beyond any published clue.
MAX_CLUE = 1000

Cell = str | None


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

    Two grids are equal when their cells are; the title and the clues are
    not compared.
    """

    def __init__(self, cells: Sequence[Sequence[Cell]], *, title: str = "",
                 clues: Mapping[str, str] | None = None) -> None:
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
        self._clues: dict[str, str] = self._checked_clues(clues) if clues else {}

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
        changed = Grid(rows, title=self.title)
        if self._clues:  # a clue follows its entry while the entry keeps its name and cells
            now = {s.name: s.cells for s in changed.slots()}
            before = {s.name: s.cells for s in self.slots()}
            changed._clues = {name: text for name, text in self._clues.items() if now.get(name) == before[name]}
        return changed

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

        >>> Grid([[None, None, None], [None, None, None]]).slot("2 down").cells
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

    # -- clues --------------------------------------------------------------

    @property
    def clues(self) -> dict[str, str]:
        """Each clued slot's clue by the slot's name, in slot order (across, then down).

        >>> Grid([[None, None], [None, None]], clues={"1d": "  Cat's cry ", "3A": ""}).clues
        {'1D': "Cat's cry"}
        """
        return dict(self._clues)

    def with_clues(self, clues: Mapping[str, str]) -> "Grid":
        """A copy whose clues are ``clues`` (slot name to text; an empty text: no clue)."""
        return Grid(self._cells, title=self.title, clues=clues)

    def _checked_clues(self, clues: object) -> dict[str, str]:
        """Clues by slot name, each slot's once, on one line, within :data:`MAX_CLUE`; in slot order."""
        if not isinstance(clues, Mapping):
            raise QueryError(f"clues are a mapping of slot names to text, not {type(clues).__name__}")
        given: dict[str, str] = {}
        for name, text in clues.items():
            slot = self.slot(name)
            if not isinstance(text, str):
                raise QueryError(f"the clue for {slot.name} is {type(text).__name__}, not text")
            line = " ".join(text.split())  # one line: a file's line breaks and tabs become spaces
            if len(line) > MAX_CLUE:
                raise QueryError(f"the clue for {slot.name} has {len(line)} characters; at most {MAX_CLUE}")
            if not line.isprintable():
                raise QueryError(f"the clue for {slot.name} holds a control character: {quote(line)}")
            if slot.name in given:
                raise QueryError(f"two clues for {slot.name}")
            if line:
                given[slot.name] = line
        return {s.name: given[s.name] for s in self.slots() if s.name in given}

    def is_complete(self) -> bool:
        """Whether every non-block cell holds a tile."""
        return all(v is not None for row in self._cells for v in row)
