"""Regions of a grid to fill: slot names, rectangles or sets of cells."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeAlias

from ...errors import QueryError
from ..grid import Grid

Region: TypeAlias = "str | Iterable[str] | tuple[int, int, int, int] | set[tuple[int, int]] | frozenset[tuple[int, int]]"


def region_cells(grid: Grid, region: "Region | None") -> set[tuple[int, int]] | None:
    """The cells of a region: slot names, a rectangle, or a set of cells.

    Slot names: ``"1A,3D"`` or a list of names. A rectangle: a tuple
    ``(row1, col1, row2, col2)`` or the text ``"r1c1:r2c2"`` (``"1,1:3,5"``
    works too), rows and columns counted from 1 as people count them, both
    corners included. A ``set`` of ``(row, column)`` cells counts from 0, as
    :class:`Grid` and :class:`Slot` do.

    >>> g = Grid([[None] * 3] * 3)
    >>> sorted(region_cells(g, "1A"))
    [(0, 0), (0, 1), (0, 2)]
    >>> len(region_cells(g, "1,1:2,2")), len(region_cells(g, {(0, 0), (2, 2)}))
    (4, 2)
    """
    if region is None:
        return None
    if isinstance(region, (set, frozenset)):
        chosen: set[tuple[int, int]] = set()
        for cell in region:
            if (
                not isinstance(cell, tuple)
                or len(cell) != 2
                or not all(isinstance(v, int) for v in cell)
                or not (0 <= cell[0] < grid.height and 0 <= cell[1] < grid.width)
            ):
                raise QueryError(f"the region's cell {cell!r} is not a (row, column) of the {grid.height}x{grid.width} grid")
            chosen.add((cell[0], cell[1]))
        if not chosen:
            raise QueryError("the region is empty")
        return chosen
    if isinstance(region, tuple) and len(region) == 4 and all(isinstance(v, int) and not isinstance(v, bool) for v in region):
        return _rectangle(grid, *region)
    if isinstance(region, str):
        text = region.strip()
        if ":" in text:
            corners = [_parse_corner(part) for part in text.split(":", 1)]
            return _rectangle(grid, corners[0][0], corners[0][1], corners[1][0], corners[1][1])
        items: list[str] = [x for x in text.replace(";", ",").replace(" ", ",").split(",") if x]
    elif isinstance(region, (list, tuple)) and all(isinstance(x, str) for x in region):
        items = list(region)
    else:
        raise QueryError(
            "a region is slot names ('1A,3D' or a list of them), a rectangle ('r1c1:r3c5' or (1, 1, 3, 5)) "
            f"or a set of (row, column) cells, not {type(region).__name__} {region!r}"[:300]
        )
    if not items:
        raise QueryError("the region is empty")
    cells: set[tuple[int, int]] = set()
    for name in items:
        cells.update(grid.slot(name).cells)
    return cells


def _parse_corner(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*[rR]?(\d+)\s*[,cC]\s*(\d+)\s*", text)
    if m is None:
        raise QueryError(f"a rectangle corner is written r1c1 or 1,1 (row, column from 1), not {text!r}")
    return int(m.group(1)), int(m.group(2))


def _rectangle(grid: Grid, r1: int, c1: int, r2: int, c2: int) -> set[tuple[int, int]]:
    if not (1 <= r1 <= r2 <= grid.height and 1 <= c1 <= c2 <= grid.width):
        raise QueryError(f"the rectangle ({r1},{c1})-({r2},{c2}) is not inside the {grid.height}x{grid.width} grid")
    return {(r, c) for r in range(r1 - 1, r2) for c in range(c1 - 1, c2) if not grid.is_block(r, c)}
