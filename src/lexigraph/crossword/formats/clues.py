"""Clue files: a clue per line, the slot's name, a tab, the clue.

``1A<TAB>Feline pet`` (also ``1a``, ``1 across``, ``1-Down`` as
:meth:`~lexigraph.crossword.grid.Grid.slot` reads names). Blank lines and
lines starting with ``#`` are skipped. The names are checked against a
grid when the clues are given to it
(:meth:`~lexigraph.crossword.grid.Grid.with_clues`): a name that is no
slot of the grid, or a slot clued twice, is refused there.

>>> parse("1A\\tFeline pet\\n# a comment\\n\\n2d\\tNot off")
{'1A': 'Feline pet', '2D': 'Not off'}
>>> from .text import parse as text_grid
>>> print(render(text_grid("..\\n..").with_clues({"1D": "Sense organ", "1A": "Exist"})))
1A	Exist
1D	Sense organ
"""

from __future__ import annotations

from ...errors import QueryError
from ...support.text import quote
from ..grid import Grid

#: Largest clue file read, in characters.
MAX_TEXT = 1024 * 1024


def parse(text: str) -> dict[str, str]:
    """The clues of a clue file's text, by slot name (upper case, spaces and dashes dropped), in file order."""
    if not isinstance(text, str):
        raise QueryError(f"a clue file is text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise QueryError(f"the clue file is larger than {MAX_TEXT >> 20} MiB")
    clues: dict[str, str] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, tab, clue = line.partition("\t")
        key = name.strip().upper().replace(" ", "").replace("-", "")
        if not tab or not key:
            raise QueryError(f"clue file line {lineno} {quote(line)}: write the slot, a tab, the clue (1A<TAB>clue)")
        if key in clues:
            raise QueryError(f"clue file line {lineno}: a second clue for {name.strip()}")
        clues[key] = clue
    return clues


def render(grid: Grid) -> str:
    """A clue file of the grid's clues, in slot order (across, then down), one per line."""
    return "".join(f"{name}\t{clue}\n" for name, clue in grid.clues.items())
