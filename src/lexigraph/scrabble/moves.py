"""Moves: a play (tiles put on the board), an exchange or a pass, with its score, leave and notation.

A play's notation is ``8H WORD`` (across from row 8, column H) or ``H8 WORD``
(down): tiles upper case, blanks lower case, board tiles played through in
parentheses. An exchange is written ``-ABC``, a pass ``-``.

>>> from lexigraph.scrabble.game import Game
>>> from lexigraph.scrabble.position import Position
>>> pos = Position(Game.preset("scrabble"))
>>> move = move_from_record(pos, [3, 1, 20], (10, 7, 6, 1, bytes([3, 1, 20])))
>>> move.notation, move.score, move.words, move.leave
('8G CAT', 10, ('cat',), '')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

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
    """A play (or an exchange or a pass) with its score and leave.

    ``notation`` is ``8H WORD`` (across from row 8 column H) or ``H8 WORD``
    (down), upper case tiles, lower case blanks, board tiles played through
    in parentheses; an exchange is ``-ABC`` and a pass ``-``.
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

    @property
    def position(self) -> str:
        return self.notation.split(" ")[0] if self.kind == "play" else ""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "notation": self.notation, "score": self.score, "leave": self.leave}
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


class MoveList(list[Move]):
    """The moves :func:`generate` returns, with ``total``: the number of distinct plays before ``top``."""

    total: int = 0


def move_from_record(pos: Position, rack_codes: list[int], raw: RawPlay) -> Move:
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
    return Move("play", score, leave, row, col, bool(across), tuple(placed), words[0], tuple(words), notation)


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


