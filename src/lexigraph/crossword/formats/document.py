"""A grid as a JSON document (what the server answers for a grid file, and takes to write one): its rows as plain
text (:mod:`.text`), its title and its clues by slot name.

>>> from .text import parse as text_grid
>>> doc = to_document(text_grid("c[ch]\\n..").with_clues({"1A": "Tea, in a rebus"}))
>>> doc
{'title': '', 'height': 2, 'width': 2, 'rows': ['C[CH]', '..'], 'clues': {'1A': 'Tea, in a rebus'}}
>>> from_document(doc).clues
{'1A': 'Tea, in a rebus'}
"""

from __future__ import annotations

from collections.abc import Mapping

from ...errors import QueryError
from ...support.jsontypes import JSONObject
from ..grid import Grid
from . import text

#: The fields a grid document has.
FIELDS = ("title", "height", "width", "rows", "clues")
#: Longest title accepted, in characters.
MAX_TITLE = 200


def to_document(grid: Grid) -> JSONObject:
    """The grid's document: title, height, width, rows (plain text, ``[CH]`` a multi-letter tile) and clues."""
    clues: JSONObject = dict(grid.clues)
    return {"title": grid.title, "height": grid.height, "width": grid.width,
            "rows": text.render(grid).split("\n"), "clues": clues}


def from_document(doc: object) -> Grid:
    """The grid a document describes: ``rows`` (a list of text rows, or one text), ``clues`` and ``title`` if any;
    ``height`` and ``width``, when given, must be the rows'."""
    if not isinstance(doc, Mapping):
        raise QueryError(f"a grid document is an object, not {type(doc).__name__}")
    rows = doc.get("rows")
    if isinstance(rows, list) and all(isinstance(r, str) for r in rows):
        rows = "\n".join(rows)
    if not isinstance(rows, str):
        raise QueryError("a grid document's 'rows' are a list of text rows ('.' empty, '#' block, letters)")
    title = doc.get("title", "")
    if not isinstance(title, str) or len(title) > MAX_TITLE or not title.isprintable():
        raise QueryError(f"a grid's 'title' is one line of text of at most {MAX_TITLE} characters")
    clues = doc.get("clues") or {}
    if not isinstance(clues, Mapping):
        raise QueryError("a grid document's 'clues' are an object of slot names and clues ({\"1A\": \"...\"})")
    grid = Grid(text.parse(rows).cells, title=title, clues=clues)
    for side in ("height", "width"):
        given = doc.get(side)
        if given is not None and given != getattr(grid, side):
            raise QueryError(f"the grid document's {side} is {given!r} but its rows make {getattr(grid, side)}")
    return grid
