"""Crossword grids as ipuz (JSON): read from a parsed object or its text, written as a JSON-ready object.

Blocks come from ``puzzle``; tiles from ``solution`` where it has them (a
string of several letters: a rebus cell, one multi-letter tile); clues from
``clues``' ``Across`` and ``Down`` lists, each clue tied to its entry through
the label of its first cell in ``puzzle`` (so a file numbered its own way
keeps its clues on their entries). A grid written is numbered the standard
way, with its clues (an entry without one: an empty clue).

>>> from .text import parse as text_grid
>>> grid = text_grid("ab\\n.#").with_clues({"1A": "Grade of muscles"})
>>> parse(render(grid)) == grid, parse(render(grid)).clues
(True, {'1A': 'Grade of muscles'})
>>> render(grid)["puzzle"], render(grid)["clues"]
([[1, 0], [0, '#']], {'Across': [[1, 'Grade of muscles']], 'Down': [[1, '']]})
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
    grid = Grid(rows, title=title if isinstance(title, str) else "")
    return grid.with_clues(_clues(data.get("clues"), puzzle, grid)) if data.get("clues") else grid


#: The clue lists read, by the direction's name in ipuz (``Across:Label`` is ``Across``, the label aside).
DIRECTIONS = {"across": "A", "down": "D"}


def _clues(clues: object, puzzle: list[list[object]], grid: Grid) -> dict[str, str]:
    """The file's clues by the grid's slot names: each clue's number is the label of its entry's first cell."""
    if not isinstance(clues, dict):
        raise QueryError("not valid ipuz: 'clues' is not an object of clue lists")
    cells = _labelled_cells(puzzle)
    starts: dict[tuple[tuple[int, int], str], str] = {(s.cells[0], s.direction): s.name for s in grid.slots()}
    out: dict[str, str] = {}
    for direction, items in clues.items():
        way = DIRECTIONS.get(str(direction).partition(":")[0].strip().lower())
        if way is None:
            raise QueryError(f"not valid ipuz: clues in direction {quote(direction)}: only Across and Down are read")
        if not isinstance(items, list):
            raise QueryError(f"not valid ipuz: the {direction} clues are not a list")
        for item in items:
            number, text = _clue_item(item, direction)
            first = cells.get(number)
            name = None if first is None else starts.get((first, way))
            if name is None:
                raise QueryError(f"not valid ipuz: the {direction} clue {quote(number)} names no {direction.lower()}"
                                 " entry of the grid")
            if name in out:
                raise QueryError(f"not valid ipuz: two {direction} clues numbered {quote(number)}")
            out[name] = text
    return out


def _labelled_cells(puzzle: list[list[object]]) -> dict[str, tuple[int, int]]:
    """Each label of ``puzzle`` (a number, or a text) and the cell it labels."""
    out: dict[str, tuple[int, int]] = {}
    for r, row in enumerate(puzzle):
        for c, p in enumerate(row):
            if isinstance(p, dict):
                p = p.get("cell")
            if isinstance(p, (int, str)) and not isinstance(p, bool) and str(p) not in ("0", "", "#", "null"):
                out.setdefault(str(p), (r, c))
    return out


def _clue_item(item: object, direction: str) -> tuple[str, str]:
    """A clue of a clue list as (its number as text, its text): ``[1, "clue"]`` or ``{"number": 1, "clue": ...}``."""
    if isinstance(item, list) and len(item) == 2:
        number, text = item
    elif isinstance(item, dict):
        number, text = item.get("number"), item.get("clue", "")
    else:
        raise QueryError(f"not valid ipuz: a {direction} clue is {quote(item)}, not [number, clue] nor an object")
    if not isinstance(number, (int, str)) or isinstance(number, bool) or not isinstance(text, str):
        raise QueryError(f"not valid ipuz: the {direction} clue {quote(item)} is not a number and a text")
    return str(number), text


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
    """An ipuz crossword object (JSON-ready): numbered ``puzzle``, ``solution``, a clue per entry."""
    numbers = grid.numbers()
    puzzle: list[list[JSONValue]] = []
    solution: list[list[JSONValue]] = []
    for r, row in enumerate(grid.cells):
        puzzle.append([BLOCK if v == BLOCK else numbers.get((r, c), 0) for c, v in enumerate(row)])
        solution.append([v if v == BLOCK else 0 if v is None else v.upper() for v in row])  # 0: empty (null: omitted)
    clues: dict[str, list[JSONValue]] = {"Across": [], "Down": []}
    given = grid.clues
    for s in grid.slots():
        clues["Across" if s.direction == "A" else "Down"].append([s.number, given.get(s.name, "")])
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
