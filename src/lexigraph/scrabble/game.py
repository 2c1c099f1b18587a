"""Games as data: a board layout with premium squares, a tile set, a rack size and a bingo bonus.

A game is a small TOML file (``docs/games.md``); lexigraph ships ``scrabble``
(15x15) and ``super`` (Super Scrabble, 21x21). Tile counts and points come
from the alphabet preset the game names unless the file lists its own.

>>> g = Game.preset("scrabble")
>>> g.size, g.rack_size, g.bingo_bonus, g.start
(15, 7, 50, (7, 7))
>>> g.points_of("q"), g.count_of("e"), g.blanks
(10, 12, 2)
>>> g.premium(0, 0), g.premium(7, 7), g.premium(0, 3)
('T', 'D', 'd')
>>> g.square_name(7, 7), g.square_name(7, 7, across=False)
('8H', 'H8')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from ..alphabet import Alphabet
from ..errors import LexiconError, QueryError
from ..support.presets import parse_toml, read_preset, read_spec

PRESETS = ("scrabble", "super")

#: letter multiplier, word multiplier of each premium character
PREMIUMS: dict[str, tuple[int, int]] = {
    ".": (1, 1),
    "d": (2, 1),
    "t": (3, 1),
    "q": (4, 1),
    "D": (1, 2),
    "T": (1, 3),
    "Q": (1, 4),
}

MAX_SIZE = 26


class GameError(QueryError):
    """A game definition, position, game record or play is malformed (a :class:`QueryError`)."""


_SQUARE = re.compile(r"^([A-Za-z])(\d{1,2})$|^(\d{1,2})([A-Za-z])$")


def column_letter(col: int) -> str:
    return chr(ord("A") + col)


@dataclass(frozen=True)
class Game:
    """A Scrabble-family game: board, premiums, tiles and rules.

    ``board`` holds one string per row of premium characters (``PREMIUMS``);
    ``start`` is the (row, column) the first move must cover; ``tiles`` maps
    each tile label to ``(count, points)``; ``blanks`` is the number of blank
    tiles (they score 0); ``leaves`` the path of its default leave table
    (KLV2, KLV or CSV; relative paths from the game file's folder), or "".
    """

    name: str
    alphabet: Alphabet
    board: tuple[str, ...]
    start: tuple[int, int]
    tiles: Mapping[str, tuple[int, int]]
    blanks: int = 2
    rack_size: int = 7
    bingo_bonus: int = 50
    title: str = ""
    leaves: str = ""
    letter_mult: tuple[int, ...] = field(default=(), repr=False, compare=False)
    word_mult: tuple[int, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        size = len(self.board)
        if not 2 <= size <= MAX_SIZE:
            raise GameError(f"game {self.name}: the board has {size} rows; 2 to {MAX_SIZE} allowed")
        lm: list[int] = []
        wm: list[int] = []
        for r, row in enumerate(self.board):
            if len(row) != size:
                raise GameError(f"game {self.name}: row {r + 1} has {len(row)} squares, not {size} (boards are square)")
            for ch in row:
                if ch not in PREMIUMS:
                    raise GameError(f"game {self.name}: unknown premium {ch!r} in row {r + 1}")
                lm.append(PREMIUMS[ch][0])
                wm.append(PREMIUMS[ch][1])
        sr, sc = self.start
        if not (0 <= sr < size and 0 <= sc < size):
            raise GameError(f"game {self.name}: the start square lies off the board")
        if self.rack_size < 1:
            raise GameError(f"game {self.name}: rack_size must be at least 1")
        if self.blanks < 0:
            raise GameError(f"game {self.name}: blanks must be >= 0")
        for label, (count, points) in self.tiles.items():
            if self.alphabet.code(label) is None:
                raise GameError(f"game {self.name}: tile {label!r} is not in the alphabet {self.alphabet.name}")
            if count < 0 or points < 0:
                raise GameError(f"game {self.name}: tile {label!r} has a negative count or points")
        object.__setattr__(self, "letter_mult", tuple(lm))
        object.__setattr__(self, "word_mult", tuple(wm))

    # -- loading ----------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> "Game":
        """A built-in game: ``scrabble`` or ``super``."""
        text = read_preset(name, kind="game", folder="games", presets=PRESETS, error=GameError)
        return cls.from_toml(text, origin=f"preset {name}")

    @classmethod
    def load(cls, spec: "str | Path | Game") -> "Game":
        """A preset by name or a game file (TOML) by path."""
        if isinstance(spec, Game):
            return spec
        text, origin = read_spec(str(spec), kind="game", folder="games", presets=PRESETS, error=GameError)
        return cls.from_toml(text, origin=origin)

    @classmethod
    def from_toml(cls, text: str, *, origin: str = "game") -> "Game":
        return cls.from_dict(parse_toml(text, origin=origin, error=GameError), origin=origin)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, origin: str = "game", alphabet: Alphabet | None = None) -> "Game":
        """A game from parsed TOML. ``alphabet`` overrides the one the file names."""
        known = {"name", "title", "alphabet", "rack_size", "bingo_bonus", "start", "board", "tiles", "blanks", "leaves"}
        extra = set(data) - known
        if extra:
            raise GameError(f"{origin}: unknown field(s) {', '.join(sorted(extra))}")
        try:
            alpha = alphabet or Alphabet.load(str(data.get("alphabet", "english")))
        except LexiconError as e:
            raise GameError(f"{origin}: {e}") from None
        board = data.get("board")
        if not isinstance(board, list) or not all(isinstance(r, str) for r in board):
            raise GameError(f"{origin}: 'board' must be a list of row strings")
        size = len(board)
        start_s = data.get("start")
        if start_s is None:
            start = (size // 2, size // 2)
        else:
            parsed = parse_square(str(start_s), size)
            if parsed is None:
                raise GameError(f"{origin}: start {start_s!r} is not a square such as H8")
            start = parsed[0], parsed[1]
        tiles: dict[str, tuple[int, int]] = {}
        raw = data.get("tiles")
        if raw is None:
            counts, points = alpha.counts, alpha.points
            if not counts or not points:
                raise GameError(f"{origin}: the alphabet {alpha.name} has no tile counts and points; add a [tiles] table")
            for label in alpha.labels:
                tiles[label] = (int(counts.get(label, 0)), int(points.get(label, 0)))
        else:
            if not isinstance(raw, Mapping):
                raise GameError(f"{origin}: [tiles] must map a tile to [count, points]")
            for label, v in raw.items():
                if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v)):
                    raise GameError(f"{origin}: tile {label!r} must be [count, points]")
                tiles[str(label).lower()] = (v[0], v[1])
        blanks = data.get("blanks", alpha.blanks if alpha.blanks is not None else 2)

        def _int(key: str, default: int) -> int:
            v = data.get(key, default)
            if not isinstance(v, int) or isinstance(v, bool):
                raise GameError(f"{origin}: {key} must be an integer")
            return v

        if not isinstance(blanks, int):
            raise GameError(f"{origin}: blanks must be an integer")
        leaves = data.get("leaves", "")
        if not isinstance(leaves, str):
            raise GameError(f"{origin}: leaves must be the path of a leave table")
        if leaves and not Path(leaves).is_absolute() and Path(origin).is_file():
            leaves = str(Path(origin).parent / leaves)
        return cls(
            name=str(data.get("name", "custom")),
            title=str(data.get("title", data.get("name", "custom"))),
            alphabet=alpha,
            board=tuple(board),
            start=start,
            tiles=tiles,
            blanks=blanks,
            rack_size=_int("rack_size", 7),
            bingo_bonus=_int("bingo_bonus", 50),
            leaves=leaves,
        )

    def with_alphabet(self, alphabet: Alphabet) -> "Game":
        """The same board and rules with another lexicon's alphabet (tiles it lacks get count 0, points 0)."""
        if alphabet == self.alphabet:
            return self
        tiles = {}
        for label in alphabet.labels:
            if label in self.tiles:
                tiles[label] = self.tiles[label]
            elif alphabet.counts and alphabet.points:
                tiles[label] = (alphabet.counts.get(label, 0), alphabet.points.get(label, 0))
            else:
                tiles[label] = (0, 0)
        return Game(
            name=self.name, alphabet=alphabet, board=self.board, start=self.start, tiles=tiles,
            blanks=self.blanks, rack_size=self.rack_size, bingo_bonus=self.bingo_bonus, title=self.title,
            leaves=self.leaves,
        )

    def resized(self, size: int) -> "Game":
        """The centre ``size`` x ``size`` window of this board (premiums kept, start at its centre), for small boards.

        >>> print("\\n".join(Game.preset("scrabble").resized(5).board))
        t...t
        .d.d.
        ..D..
        .d.d.
        t...t
        """
        if not 2 <= size <= self.size:
            raise GameError(f"a resized {self.name} board has 2 to {self.size} rows")
        off = (self.size - size) // 2
        rows = tuple(row[off : off + size] for row in self.board[off : off + size])
        return Game(
            name=f"{self.name}-{size}", alphabet=self.alphabet, board=rows, start=(size // 2, size // 2),
            tiles=self.tiles, blanks=self.blanks, rack_size=min(self.rack_size, size),
            bingo_bonus=self.bingo_bonus, title=self.title, leaves=self.leaves,
        )

    # -- queries ----------------------------------------------------------

    @property
    def size(self) -> int:
        return len(self.board)

    def premium(self, row: int, col: int) -> str:
        return self.board[row][col]

    def points_of(self, label: str) -> int:
        return self.tiles.get(label, (0, 0))[1]

    def count_of(self, label: str) -> int:
        return self.tiles.get(label, (0, 0))[0]

    def points_by_code(self) -> list[int]:
        """Points indexed by tile code (index 0, the blank, scores 0)."""
        out = [0] * (len(self.alphabet) + 1)
        for label, (_, pts) in self.tiles.items():
            c = self.alphabet.code(label)
            if c is not None:
                out[c] = pts
        return out

    def counts_by_code(self) -> list[int]:
        """Tile counts indexed by code; index 0 holds the blanks."""
        out = [0] * (len(self.alphabet) + 1)
        out[0] = self.blanks
        for label, (count, _) in self.tiles.items():
            c = self.alphabet.code(label)
            if c is not None:
                out[c] = count
        return out

    def square_name(self, row: int, col: int, across: bool = True) -> str:
        """Standard notation: ``8H`` (row first) for across plays, ``H8`` for down ones."""
        return f"{row + 1}{column_letter(col)}" if across else f"{column_letter(col)}{row + 1}"


def parse_square(text: str, size: int) -> tuple[int, int, bool] | None:
    """``8H`` -> (7, 7, across=True); ``H8`` -> (7, 7, across=False); None if malformed or off the board.

    >>> parse_square("8H", 15), parse_square("h8", 15), parse_square("16A", 15)
    ((7, 7, True), (7, 7, False), None)
    """
    m = _SQUARE.match(text.strip())
    if not m:
        return None
    if m.group(1):
        col, row, across = ord(m.group(1).upper()) - 65, int(m.group(2)) - 1, False
    else:
        row, col, across = int(m.group(3)) - 1, ord(m.group(4).upper()) - 65, True
    if not (0 <= row < size and 0 <= col < size):
        return None
    return row, col, across
