"""Crossword grids as plain text: one line per row.

``.``, ``?`` or ``_`` is an empty cell, ``#`` a block, a letter a fixed
cell, ``[ch]`` a multi-letter tile (or, with an alphabet, its label written
out: Spanish ``CH`` is one cell). Blank lines before and after the grid are
ignored; tiles are written back in upper case.

>>> grid = parse("c[ch]#\\n?.a")
>>> grid.cells
(('c', 'ch', '#'), (None, None, 'a'))
>>> print(render(grid))
C[CH]#
..A
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import QueryError
from ...query.pattern import not_a_tile
from ...support.text import quote
from ..grid import BLOCK, MAX_SIDE, Cell, Grid

if TYPE_CHECKING:  # pragma: no cover
    from ...alphabet import Alphabet

#: The characters that stand for an empty cell.
EMPTY_CHARS = ".?_"


def parse(text: str, *, alphabet: "Alphabet | None" = None) -> Grid:
    """The grid a plain text spells.

    With an ``alphabet``, fixed tiles are split greedily into its tiles
    (so Spanish ``CH`` is one cell); without one, each letter is a cell
    and ``[ch]`` writes a multi-letter tile.
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
    return Grid([_split_row(line.strip(), i + 1, alphabet) for i, line in enumerate(lines)])


def render(grid: Grid) -> str:
    """The plain text of a grid, tiles in upper case (``[CH]`` for a multi-letter tile), rows joined by newlines."""
    return "\n".join("".join(_cell_text(v) for v in row) for row in grid.cells)


def _cell_text(v: Cell) -> str:
    if v is None:
        return "."
    if v == BLOCK:
        return v
    return v.upper() if len(v) == 1 else f"[{v.upper()}]"


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
