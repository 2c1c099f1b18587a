"""Crossword grids as ipuz (JSON): read from a parsed object or its text, written as a JSON-ready object.

Blocks come from ``puzzle``; tiles from ``solution`` where it has them. A
grid written is numbered the standard way, its clues empty.

>>> from .text import parse as text_grid
>>> grid = text_grid("ab\\n.#")
>>> parse(render(grid)) == grid
True
>>> render(grid)["puzzle"]
[[1, 0], [0, '#']]
"""

from __future__ import annotations

import json

from ...errors import QueryError
from ...support.jsontypes import JSONObject, JSONValue
from ...support.text import one_line, quote
from ..grid import BLOCK, MAX_SIDE, Cell, Grid

#: Largest ipuz text read.
MAX_TEXT = 4 * 1024 * 1024


def parse(data: object) -> Grid:
    """Read an ipuz crossword: a parsed JSON object, or its text (str or bytes)."""
    if isinstance(data, (str, bytes, bytearray)):
        if len(data) > MAX_TEXT:
            raise QueryError(f"not valid ipuz: larger than {MAX_TEXT >> 20} MiB")
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as e:
            raise QueryError(f"not valid ipuz: the JSON does not parse ({one_line(str(e), 200)})") from None
    if not isinstance(data, dict):
        raise QueryError("not valid ipuz: the top level is not an object")
    height, width = _dimensions(data)
    block = data.get("block", BLOCK)
    empty = data.get("empty", 0)
    puzzle = data.get("puzzle")
    solution = data.get("solution")
    if not isinstance(puzzle, list) or not _is_matrix(puzzle, height, width):
        raise QueryError(f"not valid ipuz: 'puzzle' must be {height} rows of {width} cells")
    if solution is not None and not _is_matrix(solution, height, width):
        raise QueryError(f"not valid ipuz: 'solution' must be {height} rows of {width} cells")
    rows = [[_cell(puzzle[r][c], None if solution is None else solution[r][c], block, empty, r, c)
             for c in range(width)] for r in range(height)]
    title = data.get("title", "")
    return Grid(rows, title=title if isinstance(title, str) else "")


def _dimensions(data: dict[object, object]) -> tuple[int, int]:
    kinds = data.get("kind")
    if not isinstance(kinds, list) or not any(isinstance(k, str) and "crossword" in k for k in kinds):
        raise QueryError("not valid ipuz: 'kind' does not name a crossword")
    dims = data.get("dimensions")
    if not isinstance(dims, dict):
        raise QueryError("not valid ipuz: 'dimensions' is missing")
    width, height = dims.get("width"), dims.get("height")
    if not isinstance(width, int) or isinstance(width, bool) or not 1 <= width <= MAX_SIDE:
        raise QueryError(f"not valid ipuz: the width must be an integer from 1 to {MAX_SIDE}")
    if not isinstance(height, int) or isinstance(height, bool) or not 1 <= height <= MAX_SIDE:
        raise QueryError(f"not valid ipuz: the height must be an integer from 1 to {MAX_SIDE}")
    return height, width


def _cell(p: object, s: object, block: object, empty: object, r: int, c: int) -> Cell:
    """The cell of a ``puzzle`` entry and its ``solution`` entry."""
    if isinstance(p, dict):
        p = p.get("cell", empty)
    if p is None or _same(p, block):
        return BLOCK
    if isinstance(s, dict):
        s = s.get("value")
    if not (isinstance(s, str) and s and not _same(s, block) and not _same(s, empty) and s.strip()):
        return None
    tile = s.strip().lower()
    if not tile.replace("·", "").isalpha():
        raise QueryError(f"not valid ipuz: the solution cell ({r + 1}, {c + 1}) holds {quote(s)}")
    return tile


def render(grid: Grid) -> JSONObject:
    """An ipuz crossword object (JSON-ready): numbered ``puzzle``, ``solution``, empty clues."""
    numbers = grid.numbers()
    puzzle: list[list[JSONValue]] = []
    solution: list[list[JSONValue]] = []
    for r, row in enumerate(grid.cells):
        puzzle.append([BLOCK if v == BLOCK else numbers.get((r, c), 0) for c, v in enumerate(row)])
        solution.append([v if v == BLOCK else None if v is None else v.upper() for v in row])
    clues: dict[str, list[JSONValue]] = {"Across": [], "Down": []}
    for s in grid.slots():
        clues["Across" if s.direction == "A" else "Down"].append([s.number, ""])
    out: JSONObject = {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "dimensions": {"width": grid.width, "height": grid.height},
        "block": BLOCK,
        "empty": 0,
        "puzzle": puzzle,
        "solution": solution,
        "clues": clues,
    }
    if grid.title:
        out["title"] = grid.title
    return out


def _is_matrix(value: object, height: int, width: int) -> bool:
    return isinstance(value, list) and len(value) == height and all(isinstance(r, list) and len(r) == width
                                                                    for r in value)


def _same(value: object, marker: object) -> bool:
    return value == marker or str(value) == str(marker)
