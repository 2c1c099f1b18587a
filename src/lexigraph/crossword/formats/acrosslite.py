"""Crossword grids as Across Lite ``.puz`` files, through the ``puzpy`` package (``pip install 'lexigraph[puz]'``).

Tiles come from the solution; ``-`` (and ``X`` in a scrambled or blank
solution) is an empty cell; rebus squares become multi-letter tiles, and a
multi-letter tile is written as a rebus square. Clues are read and written
in Across Lite's order (by number, across before down at the same number),
one per entry (an entry without a clue: an empty one). A grid written has an
empty player fill; it is a version 1.3 file (ISO-8859-1 text) unless its
title or a clue needs more, then version 2.0 (UTF-8).
"""

from __future__ import annotations

import importlib
import struct
from typing import Any

from ...errors import QueryError
from ...support.text import one_line
from ..grid import BLOCK, MAX_SIDE, Cell, Grid

#: Largest ``.puz`` file read.
MAX_BYTES = 4 * 1024 * 1024


def parse(data: bytes) -> Grid:
    """Read an Across Lite ``.puz`` file's bytes."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise QueryError(f"a .puz file is bytes, not {type(data).__name__}")
    if len(data) > MAX_BYTES:
        raise QueryError(f"not a valid .puz file: larger than {MAX_BYTES >> 20} MiB")
    puz = _puzpy()
    try:
        p = puz.load(bytes(data))
        width, height = int(p.width), int(p.height)
        if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
            raise QueryError(f"not a valid .puz file: the grid is {height}x{width}")
        if p.is_solution_locked():
            raise QueryError("the .puz file's solution is scrambled (locked); unlock it first")
        rebus = p.rebus() if p.has_rebus() else None
        rows = [[_cell(p.solution, rebus, r * width + c) for c in range(width)] for r in range(height)]
        title = str(p.title)
        texts = [str(c) for c in p.clues]
    except QueryError:
        raise
    except Exception as e:  # puzpy raises many kinds on damaged files, some over several lines
        raise QueryError(f"not a valid .puz file: {_puz_reason(e)}") from None
    grid = Grid(rows, title=title)
    order = clue_order(grid)
    if len(texts) != len(order):
        raise QueryError(f"not a valid .puz file: {len(texts)} clues for {len(order)} entries")
    return grid.with_clues(dict(zip(order, texts)))


def clue_order(grid: Grid) -> list[str]:
    """The grid's slot names in Across Lite's clue order: by number, across before down at the same number.

    >>> from .text import parse as text_grid
    >>> clue_order(text_grid("...\\n.#."))
    ['1A', '1D', '2D']
    """
    return [s.name for s in sorted(grid.slots(), key=lambda s: (s.number, s.direction))]


def _cell(solution: str, rebus: Any, i: int) -> Cell:
    ch = solution[i]
    if ch in ".:":
        return BLOCK
    if rebus is not None and rebus.is_rebus_square(i):
        return str(rebus.get_rebus_solution(i) or ch).lower()
    return ch.lower() if ch.isalpha() else None


def render(grid: Grid) -> bytes:
    """Across Lite ``.puz`` bytes: the tiles as the solution, an empty player fill, the clues."""
    puz = _puzpy()
    clues = grid.clues
    texts = [clues.get(name, "") for name in clue_order(grid)]
    p = puz.Puzzle(version="1.3" if _latin1(grid.title, *texts) else "2.0")
    p.width, p.height = grid.width, grid.height
    p.title = grid.title
    sol = []
    rebus_cells: list[tuple[int, str]] = []
    for r, row in enumerate(grid.cells):
        for c, v in enumerate(row):
            if v == BLOCK:
                sol.append(".")
            elif v is None:
                sol.append("-")
            else:
                first = v[0].upper()
                if len(v) > 1 or not ("A" <= first <= "Z"):
                    rebus_cells.append((r * grid.width + c, v.upper()))
                    first = first if "A" <= first <= "Z" else "X"
                sol.append(first)
    p.solution = "".join(sol)
    p.fill = "".join("." if ch == "." else "-" for ch in p.solution)
    p.clues = texts
    if rebus_cells:
        rb = p.rebus()
        for i, label in rebus_cells:
            rb.add_rebus_squares(i, label)
        rb._dirty = True  # noqa: SLF001 - puzpy saves the rebus tables only when told they changed
    try:
        return bytes(p.tobytes())
    except Exception as e:
        raise QueryError(f"this grid cannot be written as .puz: {one_line(str(e), 200)}") from None


def _latin1(*texts: str) -> bool:
    """Whether every text fits ISO-8859-1, the text encoding of a version 1 file."""
    try:
        for t in texts:
            t.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


def _puzpy() -> Any:
    """The ``puz`` module of puzpy (it ships no types: imported by name, used untyped)."""
    try:
        # Deferred: puzpy is optional (lexigraph[puz]), needed only to read or write a .puz file.
        return importlib.import_module("puz")
    except ImportError:
        raise QueryError("reading and writing .puz files needs the puzpy package: pip install 'lexigraph[puz]'") \
            from None


def _puz_reason(e: BaseException) -> str:
    """One line saying why puzpy refused a file (its struct errors name a byte format over several lines)."""
    if isinstance(e, struct.error) or "unpack" in str(e) or "buffer" in str(e):
        return "the file is truncated or damaged"
    return one_line(str(e), 200) or type(e).__name__
