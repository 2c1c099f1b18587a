"""A game's tables in the Python engine: the twin of ``lexigraph._native.GameTables`` (``native/game_tables.c``).

:class:`PythonGameTables` holds what :meth:`~lexigraph.engine.interface.Engine.game_tables`
was given (the board layout, the tiles, the leave table) and the lexicon's
word graph, checked once with the C type's checks (but for its limit of 64
tile codes: the Python jobs take larger alphabets), and the arrays the Python
jobs read parsed once: the points, the opening penalties, the vowels, the
leave table as a dict. Move generation (:mod:`.movegen`), self-play
(:mod:`.selfplay`), the simulation's play-outs (:mod:`.simulation`) and the
endgame (:mod:`.endgame`) read them from every request.

>>> import lexigraph
>>> from lexigraph.engine.interface import BoardLayout, GameSpec, TileSet
>>> lex = lexigraph.load(["ab", "ba"], pure_python=True)
>>> tiles = TileSet(bytes(27), bytes([2] * 27), b"", 2, 0)
>>> lex.engine.game_tables(GameSpec(BoardLayout(3, 4, bytes([1] * 9), bytes([1] * 9)), tiles)).points[:3]
[0, 0, 0]
>>> lex.engine.game_tables(GameSpec(BoardLayout(3, 4, bytes(8), bytes(9)), tiles))
Traceback (most recent call last):
...
lexigraph.errors.FileFormatError: <words>: GameTables: inconsistent arguments (a multiplier per square)
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..interface import BoardLayout, PackedLeaves, TileSet

if TYPE_CHECKING:  # pragma: no cover
    from ..wordgraph import WordGraph

#: Largest board side (``native/limits.h``: LX_MAX_BOARD_SIZE).
MAX_BOARD_SIZE = 26
#: Most tiles a rack of the game loops holds, exclusive (``native/game_tables.h``: LX_MAX_RACK).
MAX_RACK = 16


def _inconsistent(why: str) -> ValueError:
    return ValueError(f"GameTables: inconsistent arguments ({why})")


def _check_layout(layout: BoardLayout) -> None:
    squares = layout.size * layout.size
    if not 1 <= layout.size <= MAX_BOARD_SIZE or not 0 <= layout.start_square < squares:
        raise _inconsistent("the board's size or start square")
    if len(layout.letter_multipliers) != squares or len(layout.word_multipliers) != squares:
        raise _inconsistent("a multiplier per square")
    if layout.opening_penalty and len(layout.opening_penalty) != 16 * squares:
        raise _inconsistent("two opening penalties per square")


def _check_tiles(tiles: TileSet) -> None:
    codes = len(tiles.points)
    if codes < 2:  # no upper bound: the Python jobs take the alphabets beyond the C code's 64 tile codes
        raise _inconsistent("two tile codes or more")
    if len(tiles.counts) != codes or (tiles.vowels and len(tiles.vowels) != codes):
        raise _inconsistent("a count and a vowel flag per tile code")
    if not 1 <= tiles.rack_size < MAX_RACK or tiles.bingo_bonus < 0:
        raise _inconsistent("the rack size or the bingo bonus")


def _symmetric(layout: BoardLayout) -> bool:
    """Whether the layout is its own transpose; the opening penalties, in line coordinates, must be alike for the
    across plays and the down ones (their two halves equal)."""
    n = layout.size
    transposed = [column * n + row for row in range(n) for column in range(n)]
    half = len(layout.opening_penalty) // 2
    return (layout.start_square // n == layout.start_square % n
            and all(layout.letter_multipliers[i] == layout.letter_multipliers[j] for i, j in enumerate(transposed))
            and all(layout.word_multipliers[i] == layout.word_multipliers[j] for i, j in enumerate(transposed))
            and layout.opening_penalty[:half] == layout.opening_penalty[half:])


@dataclass(frozen=True, eq=False)
class PythonGameTables:
    """A game's tables over one lexicon's word graph (see the module docstring); the parsed arrays are read-only
    views of the given ones, computed once."""

    layout: BoardLayout
    tiles: TileSet
    leaves: PackedLeaves
    graph: "WordGraph"
    #: Each tile code's points.
    points: list[int] = field(init=False, repr=False)
    #: The opening penalties, two per square (line coordinates), or None.
    opening: tuple[float, ...] | None = field(init=False, repr=False)
    #: The vowels' codes.
    vowels: frozenset[int] = field(init=False, repr=False)
    #: The leave table: value by key.
    leave_values: dict[int, float] = field(init=False, repr=False)
    #: Whether the generator's shadow bounds hold (every letter multiplier from 1 to 4).
    shadow_bounds_hold: bool = field(init=False, repr=False)
    #: Whether the layout is its own transpose (multipliers, start on the diagonal, the across and down opening
    #: penalties alike): on an empty board the down plays are the across plays transposed.
    symmetric: bool = field(init=False, repr=False)

    def __post_init__(self) -> None:
        _check_layout(self.layout)
        _check_tiles(self.tiles)
        keys, values = self.leaves
        if len(keys) % 8 or len(values) != len(keys):
            raise _inconsistent("a leave table's keys and values differ in length")
        n = len(keys) // 8
        squares = self.layout.size * self.layout.size
        fields = {
            "points": list(self.tiles.points),
            "opening": struct.unpack(f"<{2 * squares}d", self.layout.opening_penalty)
            if self.layout.opening_penalty else None,
            "vowels": frozenset(code for code, vowel in enumerate(self.tiles.vowels) if vowel),
            "leave_values": dict(zip(struct.unpack(f"<{n}Q", keys), struct.unpack(f"<{n}d", values))),
            "shadow_bounds_hold": max(self.layout.letter_multipliers, default=1) <= 4,
            "symmetric": _symmetric(self.layout),
        }
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    @property
    def size(self) -> int:
        return self.layout.size

    @property
    def code_count(self) -> int:
        return len(self.tiles.points)
