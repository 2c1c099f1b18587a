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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from struct import Struct
from typing import TYPE_CHECKING, Any, NamedTuple, Sequence, overload

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

from ..support.jsontypes import JSONObject
from ..engine.interface import BLANK_FLAG, MOVE_RECORD_SQUARES
from .game import GameError, column_letter
from .position import Position
from .tiles import tile_text

#: A move record (lexigraph.engine.interface.move_record_dtype) as struct reads it.
_RECORD = Struct(f"<iBBBBd{MOVE_RECORD_SQUARES}s")

#: A raw play, as the generators and the scorer hand it over: (score, row, column, across (1/0), squares);
#: ``squares`` holds a byte per square of the main word, 0 for a board tile, else the tile code (| BLANK_FLAG).
RawPlay = tuple[int, int, int, int, bytes]


class IllegalPlay(GameError):
    """A play that breaks a rule; ``reason`` names the rule, ``words`` lists words not in the lexicon."""

    def __init__(self, message: str, reason: str, words: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.reason = reason
        self.words = tuple(words)


class Placed(NamedTuple):
    """A tile put on the board by a play (a named tuple: a play has several, made by the thousand)."""

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

    def to_dict(self) -> JSONObject:
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
        self._builder: MoveBuilder | None = None
        self._raw: bytes | None = None

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
        if self._builder is None or self._raw is None:
            self._builder = MoveBuilder(self.position, self.rack_codes)
            # The records' bytes, read with struct: a field of a NumPy record costs a microsecond a read.
            self._raw = self.records.tobytes()
        if i < 0:
            i += len(self.records)
        if not 0 <= i < len(self.records):
            raise IndexError("play index out of range")
        score, row, col, across, length, equity, squares = _RECORD.unpack_from(self._raw, i * _RECORD.size)
        return self._builder.build((score, row, col, across, squares[:length]), equity)


class MoveList(Sequence[Move]):
    """The moves :func:`~lexigraph.scrabble.movegen.generate` returns, best first, each built when looked at.

    ``total`` is the number of distinct plays before ``top`` (-1: not counted); ``columns``
    gives the plays as NumPy columns (:class:`MoveColumns`). It compares
    equal to a list of the same moves.
    """

    total: int = 0

    def __init__(self, moves: Sequence[Move] = (), *, columns: MoveColumns | None = None,
                 extras: "dict[int, Move | Callable[[], Move]] | None" = None, total: int | None = None,
                 extra_at: Sequence[int] | None = None, extra_move: Callable[[int], Move] | None = None) -> None:
        self._extra_move: Callable[[int], Move]
        if columns is None:
            self._plays: MoveColumns | None = None
            listed = list(moves)
            self._extra_at: Sequence[int] = range(len(listed))
            self._extra_move = listed.__getitem__
        else:
            self._plays = columns
            if extra_at is not None and extra_move is not None:
                # the extras (exchanges, the pass) by rank: their places ascending, the k-th built by extra_move(k)
                self._extra_at, self._extra_move = extra_at, extra_move
            elif not extras:  # plays only (the best move's usual answer): nothing to sort
                self._extra_at, self._extra_move = (), _no_extra
            else:
                given = dict(extras or {})
                self._extra_at = sorted(given)
                builds = [given[i] for i in self._extra_at]
                self._extra_move = lambda k: _built(builds[k])
        self._built: dict[int, Move] = {}
        self._size = len(self._extra_at) + (0 if self._plays is None else len(self._plays))
        self.total = self._size if total is None else total

    @property
    def columns(self) -> MoveColumns | None:
        """The plays as columns (in this list's order, without exchanges and the pass); None if built from moves."""
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
        move = self._built.get(i)
        if move is not None:
            return move
        k = bisect_left(self._extra_at, i)  # the extras before place i
        if k < len(self._extra_at) and self._extra_at[k] == i:
            move = self._extra_move(k)
        else:
            assert self._plays is not None
            move = self._plays.move(i - k)
        self._built[i] = move
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

    # Defining __eq__ leaves a MoveList unhashable (Python sets __hash__ to None), as a list is.

    def __repr__(self) -> str:
        shown = [repr(m) for m in self[:3]]
        more = f", ... {len(self) - 3} more" if len(self) > 3 else ""
        return f"MoveList([{', '.join(shown)}{more}], total={self.total})"


def _no_extra(k: int) -> Move:
    raise IndexError(k)


def _built(extra: "Move | Callable[[], Move]") -> Move:
    """An extra move as given to :class:`MoveList`: the move, or the function that builds it."""
    return extra if isinstance(extra, Move) else extra()


def move_from_record(pos: Position, rack_codes: list[int], raw: RawPlay, *, equity: float | None = None) -> Move:
    """The :class:`Move` of a raw play (see :data:`RawPlay`) made from the rack ``rack_codes``."""
    return MoveBuilder(pos, rack_codes).build(raw, equity)


class MoveBuilder:
    """Builds the :class:`Move` of raw plays on one position for one rack, remembering what plays share: the
    tiles' written forms, the board tiles beside each square (for cross-words)."""

    __slots__ = ("pos", "game", "rack", "rack_order", "texts", "labels", "crosses")

    def __init__(self, pos: Position, rack_codes: list[int]) -> None:
        self.pos = pos
        self.game = pos.game
        self.texts, self.labels = _tile_texts(pos.game)
        self.rack = [0] * len(self.labels)
        for c in rack_codes:
            self.rack[c] += 1
        #: the rack's codes as a leave is written: code order, blanks last
        self.rack_order = sorted(set(rack_codes), key=_BLANK_LAST)
        self.crosses: dict[tuple[int, int], tuple[bytes, bytes]] = {}

    def _cross(self, square: int, across: int) -> tuple[bytes, bytes]:
        """The board tiles before and after ``square`` across the play's line (above and below for an across play)."""
        got = self.crosses.get((square, across))
        if got is None:
            codes = self.pos.codes
            n = self.game.size
            step = n if across else 1
            r, c = divmod(square, n)
            line_pos, limit = (r, n) if across else (c, n)
            before = []
            k = line_pos - 1
            while k >= 0 and codes[square - (line_pos - k) * step]:
                before.append(codes[square - (line_pos - k) * step])
                k -= 1
            after = []
            k = line_pos + 1
            while k < limit and codes[square + (k - line_pos) * step]:
                after.append(codes[square + (k - line_pos) * step])
                k += 1
            got = self.crosses[(square, across)] = (bytes(reversed(before)), bytes(after))
        return got

    def build(self, raw: RawPlay, equity: float | None = None) -> Move:
        score, row, col, across, squares = raw
        game = self.game
        n = game.size
        board, blanks = self.pos.codes, self.pos.blanks
        plain, blanked = self.texts
        labels = self.labels
        decode = game.alphabet.decode
        cross = self._cross
        placed: list[Placed] = []
        left = self.rack[:]
        parts: list[str] = []
        word = bytearray(squares)
        crosses: list[str] = []
        through = ""
        step = 1 if across else n
        square = row * n + col
        for k, b in enumerate(squares):
            if not b:
                code = board[square]
                word[k] = code
                through += (blanked if blanks[square] else plain)[code]
            else:
                if through:
                    parts.append(f"({through})")
                    through = ""
                if b & BLANK_FLAG:
                    code = b ^ BLANK_FLAG
                    word[k] = code
                    parts.append(blanked[code])
                    left[0] -= 1
                    placed.append(Placed(*divmod(square, n), labels[code], True))
                else:
                    code = b
                    parts.append(plain[code])
                    left[code] -= 1
                    placed.append(Placed(*divmod(square, n), labels[code], False))
                before, after = cross(square, across)
                if before or after:
                    crosses.append(decode(before + bytes((code,)) + after))
            square += step
        if through:
            parts.append(f"({through})")
        leave = "".join([plain[c] * left[c] for c in self.rack_order])
        main = decode(bytes(word))
        return Move("play", score, leave, row, col, bool(across), tuple(placed), main, (main, *crosses),
                    f"{game.square_name(row, col, bool(across))} {''.join(parts)}", equity=equity)


def _BLANK_LAST(code: int) -> tuple[bool, int]:
    return code == 0, code


_TEXTS: dict[int, tuple[Any, tuple[list[str], list[str]], list[str]]] = {}


def _tile_texts(game: Any) -> tuple[tuple[list[str], list[str]], list[str]]:
    """Per tile code: how a tile is written (as a tile, as a blank), and its label."""
    got = _TEXTS.get(id(game))
    if got is None or got[0] is not game:
        if len(_TEXTS) > 64:
            _TEXTS.clear()
        codes = range(len(game.alphabet) + 1)
        texts = ([tile_text(game, c, False) for c in codes], [tile_text(game, c, True) for c in codes])
        labels = [""] + list(game.alphabet.labels)
        got = _TEXTS[id(game)] = (game, texts, labels)
    return got[1], got[2]


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


