"""Moves: a play (tiles put on the board), an exchange or a pass, with its score, equity, leave and notation.

A play's notation is ``8H WORD`` (across from row 8, column H) or ``H8 WORD``
(down): tiles upper case, blanks lower case, board tiles played through in
parentheses. An exchange is written ``-ABC``, a pass ``-``.

The generator's answers stay as records (:func:`~lexigraph.engine.interface.move_record_dtype`)
until a move is looked at: :class:`MoveList` builds a :class:`Move` on first
access, and :class:`MoveColumns` gives every play as NumPy columns (square,
direction, score, equity, tiles) for programs that value moves themselves.

>>> from lexigraph.scrabble.game import Game
>>> from lexigraph.scrabble.position import Position
>>> pos = Position(Game.preset("scrabble"))
>>> move = move_from_record(pos, [3, 1, 20], (10, 7, 6, 1, bytes([3, 1, 20])))
>>> move.notation, move.score, move.words, move.leave
('8G CAT', 10, ('cat',), '')
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence, overload

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

from ..engine.interface import BLANK_FLAG
from .game import GameError, column_letter
from .position import Position
from .tiles import rack_text, tile_text

#: A raw play, as the generators and the scorer hand it over: (score, row, column, across (1/0), squares);
#: ``squares`` holds a byte per square of the main word, 0 for a board tile, else the tile code (| BLANK_FLAG).
RawPlay = tuple[int, int, int, int, bytes]


class IllegalPlay(GameError):
    """A play that breaks a rule; ``reason`` names the rule, ``words`` lists words not in the lexicon."""

    def __init__(self, message: str, reason: str, words: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.reason = reason
        self.words = tuple(words)


@dataclass(frozen=True)
class Placed:
    """A tile put on the board by a play."""

    row: int
    col: int
    tile: str  # the label, lower case
    blank: bool


@dataclass(frozen=True)
class Move:
    """A play (or an exchange or a pass) with its score, equity and leave.

    ``notation`` is ``8H WORD`` (across from row 8 column H) or ``H8 WORD``
    (down), upper case tiles, lower case blanks, board tiles played through
    in parentheses; an exchange is ``-ABC`` and a pass ``-``. ``equity`` is
    the score plus the leave's value and the adjustments of
    :mod:`lexigraph.scrabble.equity` (None when not valued).
    """

    kind: str  # "play", "exchange" or "pass"
    score: int
    leave: str
    row: int = 0
    col: int = 0
    across: bool = True
    tiles: tuple[Placed, ...] = ()
    word: str = ""
    words: tuple[str, ...] = ()
    notation: str = ""
    exchanged: str = ""
    equity: float | None = None

    @property
    def position(self) -> str:
        return self.notation.split(" ")[0] if self.kind == "play" else ""

    @property
    def leave_value(self) -> float | None:
        """What the leave (and the adjustments) add to the score: ``equity - score``."""
        return None if self.equity is None else self.equity - self.score

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "notation": self.notation, "score": self.score, "leave": self.leave}
        if self.equity is not None:
            d["equity"] = round(self.equity, 4)
            d["leave_value"] = round(self.equity - self.score, 4)
        if self.kind == "play":
            d.update(
                word=self.word,
                position=self.position,
                row=self.row + 1,
                col=column_letter(self.col),
                direction="across" if self.across else "down",
                words=list(self.words),
                tiles=[{"row": t.row + 1, "col": column_letter(t.col), "tile": t.tile, "blank": t.blank}
                       for t in self.tiles],
            )
        elif self.kind == "exchange":
            d["exchanged"] = self.exchanged
        return d


class MoveColumns:
    """Plays as columns: NumPy arrays over the generator's records, a :class:`Move` built only when asked for.

    ``row``, ``col`` (0-based), ``across`` (bool), ``score``, ``equity``,
    ``length`` (squares of the main word) and ``tiles`` (a row of bytes per
    play: 0 for a board tile, else the tile code, ``| 0x80`` for a blank) are
    views of the records, in their order.
    """

    def __init__(self, position: Any, rack_codes: list[int], records: "np.ndarray") -> None:
        self.position = position
        self.rack_codes = rack_codes
        self.records = records

    @property
    def row(self) -> "np.ndarray":
        return self.records["row"]

    @property
    def col(self) -> "np.ndarray":
        return self.records["col"]

    @property
    def across(self) -> "np.ndarray":
        return self.records["across"].astype(bool)

    @property
    def score(self) -> "np.ndarray":
        return self.records["score"]

    @property
    def equity(self) -> "np.ndarray":
        return self.records["equity"]

    @property
    def length(self) -> "np.ndarray":
        return self.records["length"]

    @property
    def tiles(self) -> "np.ndarray":
        return self.records["squares"]

    def __len__(self) -> int:
        return len(self.records)

    def __getitem__(self, i: int) -> "Move":
        return self.move(i)

    def __iter__(self) -> Iterator["Move"]:
        return (self.move(i) for i in range(len(self.records)))

    def move(self, i: int) -> "Move":
        """The :class:`Move` of play ``i``."""
        r = self.records[i]
        length = int(r["length"])
        raw = (int(r["score"]), int(r["row"]), int(r["col"]), int(r["across"]), r["squares"][:length].tobytes())
        return move_from_record(self.position, self.rack_codes, raw, equity=float(r["equity"]))


class MoveList(Sequence[Move]):
    """The moves :func:`~lexigraph.scrabble.movegen.generate` returns, best first, each built when looked at.

    ``total`` is the number of distinct plays before ``top``; ``columns``
    gives the plays as NumPy columns (:class:`MoveColumns`). It compares
    equal to a list of the same moves.
    """

    total: int = 0

    def __init__(self, moves: Sequence[Move] = (), *, columns: MoveColumns | None = None,
                 extras: dict[int, Move] | None = None, total: int | None = None) -> None:
        if columns is None:
            self._plays: MoveColumns | None = None
            self._extras = dict(enumerate(moves))
        else:
            self._plays = columns
            self._extras = dict(extras or {})
        self._extra_at = sorted(self._extras)
        self._built: dict[int, Move] = {}
        self._size = len(self._extras) + (0 if self._plays is None else len(self._plays))
        self.total = self._size if total is None else total

    @property
    def columns(self) -> MoveColumns | None:
        """The plays as columns (in this list's order, the exchanges and the pass left out); None if built from moves."""
        return self._plays

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, i: int) -> Move: ...

    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...

    def __getitem__(self, i: int | slice) -> Move | list[Move]:
        if isinstance(i, slice):
            return [self._move(k) for k in range(*i.indices(self._size))]
        if i < 0:
            i += self._size
        if not 0 <= i < self._size:
            raise IndexError("move index out of range")
        return self._move(i)

    def _move(self, i: int) -> Move:
        extra = self._extras.get(i)
        if extra is not None:
            return extra
        move = self._built.get(i)
        if move is None:
            assert self._plays is not None
            move = self._built[i] = self._plays.move(i - bisect_left(self._extra_at, i))
        return move

    def __iter__(self) -> Iterator[Move]:
        return (self._move(i) for i in range(self._size))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (MoveList, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = [repr(m) for m in self[:3]]
        more = f", ... {len(self) - 3} more" if len(self) > 3 else ""
        return f"MoveList([{', '.join(shown)}{more}], total={self.total})"


def move_from_record(pos: Position, rack_codes: list[int], raw: RawPlay, *, equity: float | None = None) -> Move:
    """The :class:`Move` of a raw play (see :data:`RawPlay`) made from the rack ``rack_codes``."""
    score, row, col, across, squares = raw
    game = pos.game
    n = game.size
    alpha = game.alphabet
    placed: list[Placed] = []
    left = Counter(rack_codes)
    parts: list[str] = []
    word_codes: list[int] = []
    through: list[str] = []
    for k, b in enumerate(squares):
        r, c = (row, col + k) if across else (row + k, col)
        if b == 0:
            code = pos.codes[r * n + c]
            word_codes.append(code)
            through.append(tile_text(game, code, pos.blanks[r * n + c]))
            continue
        if through:
            parts.append("(" + "".join(through) + ")")
            through = []
        code, blank = b & ~BLANK_FLAG, bool(b & BLANK_FLAG)
        word_codes.append(code)
        placed.append(Placed(r, c, alpha.label(code), blank))
        parts.append(tile_text(game, code, blank))
        left[0 if blank else code] -= 1
    if through:
        parts.append("(" + "".join(through) + ")")
    words = [alpha.decode(bytes(word_codes))]
    for t in placed:
        cw = perpendicular_word(pos, t.row, t.col, alpha.code(t.tile) or 0, bool(across))
        if cw is not None:
            words.append(alpha.decode(bytes(cw)))
    leave = rack_text(game, list(left.elements()))
    notation = f"{game.square_name(row, col, bool(across))} {''.join(parts)}"
    return Move("play", score, leave, row, col, bool(across), tuple(placed), words[0], tuple(words), notation,
                equity=equity)


def perpendicular_word(pos: Position, row: int, col: int, code: int, across: bool) -> list[int] | None:
    """The cross-word through a new tile at (row, col) for a play in direction ``across``, or None."""
    n = pos.size
    dr, dc = (1, 0) if across else (0, 1)
    r, c = row, col
    while 0 <= r - dr and 0 <= c - dc and pos.codes[(r - dr) * n + c - dc]:
        r, c = r - dr, c - dc
    out = []
    while r < n and c < n and (pos.codes[r * n + c] or (r, c) == (row, col)):
        out.append(code if (r, c) == (row, col) else pos.codes[r * n + c])
        r, c = r + dr, c + dc
    return out if len(out) >= 2 else None


