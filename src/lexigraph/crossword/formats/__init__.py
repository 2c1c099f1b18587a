"""Crossword grid files: plain text (:mod:`.text`), ipuz (:mod:`.ipuz`) and Across Lite ``.puz``
(:mod:`.acrosslite`), each read into a :class:`~lexigraph.crossword.grid.Grid` and written from one (ipuz and
``.puz`` with the grid's clues); clue files (:mod:`.clues`); and files read and written whole, their format told
by the name (``.ipuz``, ``.puz``, anything else text).

>>> grid = grid_from_text("c..\\n...\\n#..")
>>> grid.height, [s.name for s in grid.slots()][:3]
(3, ['1A', '4A', '5A'])
>>> print(grid_to_text(grid.with_cells({(0, 1): "a", (0, 2): "t"})))
CAT
...
#..
>>> grid_bytes(grid, "ipuz")[:35]
b'{"version": "http://ipuz.org/v2", "'
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

from ...errors import LexiconError, QueryError
from ...support.files import read_limited, write_atomic
from ...support.text import quote
from ..grid import Grid
from . import acrosslite, clues, ipuz, text

if TYPE_CHECKING:  # pragma: no cover
    from ...alphabet import Alphabet

#: Largest file read as a grid.
MAX_FILE_BYTES = 4 * 1024 * 1024
FORMATS = ("text", "ipuz", "puz")
Format = Literal["text", "ipuz", "puz"]

grid_from_text = text.parse
grid_to_text = text.render


def guess_format(path: "str | os.PathLike[str]") -> Format:
    """The grid format of a file name: ``.ipuz``, ``.puz``, anything else is text.

    >>> guess_format("mine.ipuz"), guess_format("mine.PUZ"), guess_format("mine.txt")
    ('ipuz', 'puz', 'text')
    """
    name = os.fspath(path).lower()
    if name.endswith(".ipuz"):
        return "ipuz"
    if name.endswith(".puz"):
        return "puz"
    return "text"


def read_grid(path: "str | os.PathLike[str]", *, format: Format | None = None,  # noqa: A002
              alphabet: "Alphabet | None" = None) -> Grid:
    """Read a grid file; the format comes from ``format``, else the file's name."""
    if not isinstance(path, (str, os.PathLike)):
        raise QueryError(f"read_grid takes a path, not {type(path).__name__}")
    fmt = _checked_format(format) or guess_format(path)
    data = read_limited(path, limit=MAX_FILE_BYTES, what="a grid", error=QueryError,
                        missing=f"no such grid file: {os.fspath(path)}")
    try:
        if fmt == "puz":
            return acrosslite.parse(data)
        try:
            decoded = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise QueryError("the file is not UTF-8 text") from None
        if fmt == "ipuz":
            return ipuz.parse(decoded)
        return text.parse(decoded, alphabet=alphabet)
    except QueryError as e:
        raise QueryError(f"{os.fspath(path)}: {e}") from None


def read_clues(path: "str | os.PathLike[str]") -> dict[str, str]:
    """A clue file's clues by slot name (:mod:`.clues`: ``1A<TAB>clue`` lines), unchecked against any grid."""
    if not isinstance(path, (str, os.PathLike)):
        raise QueryError(f"read_clues takes a path, not {type(path).__name__}")
    data = read_limited(path, limit=clues.MAX_TEXT, what="a clue file", error=QueryError,
                        missing=f"no such clue file: {os.fspath(path)}")
    try:
        return clues.parse(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise QueryError(f"{os.fspath(path)}: the clue file is not UTF-8 text") from None
    except QueryError as e:
        raise QueryError(f"{os.fspath(path)}: {e}") from None


def grid_bytes(grid: Grid, format: Format = "text") -> bytes:  # noqa: A002
    """The grid in a file format, as bytes."""
    fmt = _checked_format(format)
    if fmt == "puz":
        return acrosslite.render(grid)
    if fmt == "ipuz":
        return (json.dumps(ipuz.render(grid), ensure_ascii=False) + "\n").encode()
    return (text.render(grid) + "\n").encode()


def write_grid(grid: Grid, path: "str | os.PathLike[str]", *, format: Format | None = None,  # noqa: A002
               inputs: Iterable[object] = ()) -> None:
    """Write the grid atomically (:func:`lexigraph.support.files.write_atomic`), in ``format`` or the one its
    name says. ``inputs``: the files the grid came from; writing over one of them is refused."""
    if not isinstance(grid, Grid):
        raise QueryError(f"write_grid writes a Grid, not {type(grid).__name__}")
    if not isinstance(path, (str, os.PathLike)):
        raise QueryError(f"write_grid takes a path, not {type(path).__name__}")
    data = grid_bytes(grid, _checked_format(format) or guess_format(path))
    try:
        write_atomic(path, data, inputs=inputs)
    except QueryError:
        raise
    except LexiconError as e:  # the grid's errors are all QueryErrors
        raise QueryError(str(e)) from None


def _checked_format(format: object) -> Format | None:  # noqa: A002
    if format is None:
        return None
    if format == "text" or format == "ipuz" or format == "puz":
        return format
    raise QueryError(f"unknown grid format {quote(format)} (one of {', '.join(FORMATS)})")
