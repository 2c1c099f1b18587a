"""Positions: a board with tiles on it, the racks, scores and options; CGP and plain-text boards.

A square holds a tile code (1..n of the game's alphabet) or 0 when empty,
and a flag saying whether the tile is a blank. Tiles are written upper case,
blanks lower case, multi-letter tiles in brackets (``[CH]``), a blank on a
rack as ``?``.

CGP (Crossword Game Position, as in Macondo and Woogles)::

    BOARD RACK1/RACK2 SCORE1/SCORE2 ZERO_TURNS [opcode value; ...]

where ``BOARD`` is the rows separated by ``/`` with digits for runs of empty
squares, and the rack and score of the player on turn come first.

>>> from lexigraph.scrabble.game import Game
>>> p = Position.from_cgp("15/15/15/15/15/15/15/3CAt9/15/15/15/15/15/15/15 AEINRST/ 12/0 0 lex TWL06;")
>>> p.tile_at(7, 3), p.tile_at(7, 5), p.racks, p.scores, p.options["lex"]
('C', 't', ['AEINRST', ''], [12, 0], 'TWL06')
>>> p.to_cgp()
'15/15/15/15/15/15/15/3CAt9/15/15/15/15/15/15/15 AEINRST/ 12/0 0 lex TWL06;'
"""

from __future__ import annotations

import operator
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator

from ..support.text import quote
from .game import Game, GameError
from .tiles import TILE_TOKEN, parse_rack, split_tiles, tile_text

if TYPE_CHECKING:  # pragma: no cover
    from .moves import Move

#: Longest position text read, in characters (a CGP of the largest board is a few kilobytes).
MAX_POSITION_TEXT = 1 << 20
#: A run of empty squares in a CGP row: ASCII digits only (``str.isdigit`` takes ``¹⁵`` and ``١٥`` too).
_CGP_TOKEN = re.compile(r"[0-9]+|\[[^\]]*\]|.", re.DOTALL)

@dataclass
class Position:
    """A board, the racks (player on turn first), scores, zero-score turns and CGP options.

    >>> p = Position(Game.preset("scrabble"))
    >>> p.is_empty(), p.game.size
    (True, 15)
    """

    game: Game
    codes: list[int] = field(default_factory=list)  # row-major, 0 = empty
    blanks: list[bool] = field(default_factory=list)
    racks: list[str] = field(default_factory=lambda: ["", ""])
    scores: list[int] = field(default_factory=lambda: [0, 0])
    zero_turns: int = 0
    options: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.game, Game):
            raise GameError(f"a position needs a Game, not {type(self.game).__name__}")
        n = self.game.size * self.game.size
        # C-level passes (set of types, min, max): a position is made for every turn replayed
        for name, value, kind in (("codes", self.codes, int), ("blanks", self.blanks, bool)):
            if not isinstance(value, list) or not set(map(type, value)) <= {kind}:
                raise GameError(f"a position's {name} must be a list of {kind.__name__}")
        if self.codes and (min(self.codes) < 0 or max(self.codes) > len(self.game.alphabet)):
            raise GameError(f"a position's codes must be tile codes of the {self.game.name} game")
        if not (isinstance(self.racks, list) and len(self.racks) == 2 and all(isinstance(r, str) for r in self.racks)):
            raise GameError("a position's racks must be a list of two strings")
        if not (isinstance(self.scores, list) and len(self.scores) == 2
                and all(isinstance(s, int) and not isinstance(s, bool) for s in self.scores)):
            raise GameError("a position's scores must be a list of two whole numbers")
        if isinstance(self.zero_turns, bool) or not isinstance(self.zero_turns, int) or self.zero_turns < 0:
            raise GameError("a position's zero-score turn count must be a whole number >= 0")
        if not isinstance(self.options, dict):
            raise GameError("a position's options must be a dict")
        if not self.codes:
            self.codes = [0] * n
        if not self.blanks:
            self.blanks = [False] * n
        if len(self.codes) != n or len(self.blanks) != n:
            raise GameError(f"a board of the {self.game.name} game has {n} squares")

    # -- squares ----------------------------------------------------------

    @property
    def size(self) -> int:
        return self.game.size

    def copy(self) -> "Position":
        p = object.__new__(Position)  # a valid position's copy: no need to check it again
        p.game, p.codes, p.blanks, p.racks = self.game, list(self.codes), list(self.blanks), list(self.racks)
        p.scores, p.zero_turns, p.options = list(self.scores), self.zero_turns, dict(self.options)
        return p

    def is_empty(self) -> bool:
        return not any(self.codes)

    def _square(self, row: object, col: object) -> int:
        """The index of a square, refusing what is not one of the board."""
        for v in (row, col):
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < self.size:
                raise GameError(f"({quote(row)}, {quote(col)}) is not a square of the {self.size}x{self.size} board")
        assert isinstance(row, int) and isinstance(col, int)
        return row * self.size + col

    def tile_at(self, row: int, col: int) -> str | None:
        """The tile on a square as written (lower case for a blank), or None."""
        i = self._square(row, col)
        c = self.codes[i]
        return None if c == 0 else tile_text(self.game, c, self.blanks[i]).strip("[]")

    def place(self, row: int, col: int, code: int, blank: bool = False) -> None:
        i = self._square(row, col)
        given = code
        try:
            code = operator.index(code)  # NumPy integers too
        except TypeError:
            code = -1
        if isinstance(given, bool) or not 0 <= code <= len(self.game.alphabet):
            raise GameError(f"{quote(given)} is not a tile code of the {self.game.name} game")
        self.codes[i] = code
        self.blanks[i] = blank

    def with_play(self, move: "Move") -> "Position":
        """A copy with a :class:`~lexigraph.scrabble.movegen.Move`'s tiles on the board (racks and scores unchanged)."""
        tiles = getattr(move, "tiles", None)
        if not isinstance(tiles, (list, tuple)):
            raise GameError(f"with_play takes a Move, not {type(move).__name__}")
        p = self.copy()
        for t in tiles:
            code = self.game.alphabet.code(t.tile) if isinstance(getattr(t, "tile", None), str) else None
            if code is None:
                raise GameError(f"tile {quote(getattr(t, 'tile', t))} is not in the {self.game.name} game")
            p.place(t.row, t.col, code, t.blank)
        return p

    def tiles_on_board(self) -> list[int]:
        """Codes of the tiles on the board, 0 for each blank."""
        return [0 if b else c for c, b in zip(self.codes, self.blanks) if c]

    def unseen(self, rack: str | None = None) -> list[int]:
        """Tiles neither on the board nor on ``rack`` (default: the racks of the player on turn), 0 for blanks."""
        bag = Counter({c: n for c, n in enumerate(self.game.counts_by_code()) if n})
        bag.subtract(self.tiles_on_board())
        bag.subtract(parse_rack(self.game, self.racks[0] if rack is None else rack))
        return sorted(bag.elements())

    def overdrawn(self, rack: str | None = None) -> list[str]:
        """Tiles the board (and ``rack``, default: the player on turn's) hold more of than the game's bag,
        as ``"5 Z (the bag has 1)"``; empty when the position fits the bag.

        >>> g = Game.preset("scrabble").resized(5)
        >>> Position.from_text("ZZZZZ/...../...../...../.....".replace("/", chr(10)), g).overdrawn()
        ['5 Z (the bag has 1)']
        """
        counts = self.game.counts_by_code()
        used = Counter(self.tiles_on_board())
        try:
            used.update(parse_rack(self.game, self.racks[0] if rack is None else rack))
        except GameError:
            pass  # a rack that does not fit the bag is refused where it is read
        out = []
        for code, n in sorted(used.items()):
            if n > counts[code]:
                label = "blanks" if code == 0 else tile_text(self.game, code, False)
                out.append(f"{n} {label} (the bag has {counts[code]})")
        return out

    def words_on_board(self) -> Iterator[tuple[int, int, bool, list[int]]]:
        """Every run of two or more tiles: (row, col, across, codes)."""
        n = self.size
        for across in (True, False):
            for line in range(n):
                run: list[int] = []
                for k in range(n + 1):
                    r, c = (line, k) if across else (k, line)
                    code = self.codes[r * n + c] if k < n else 0
                    if code:
                        run.append(code)
                        continue
                    if len(run) >= 2:
                        start = k - len(run)
                        yield (line, start, True, run) if across else (start, line, False, run)
                    run = []

    # -- text -------------------------------------------------------------

    def board_text(self) -> str:
        """One line per row, ``.`` for empty squares.

        >>> p = Position.from_text("C..\\nAb.\\nT..", Game.preset("scrabble").resized(3))
        >>> print(p.board_text())
        C..
        Ab.
        T..
        """
        n = self.size
        lines = []
        for r in range(n):
            lines.append("".join(tile_text(self.game, self.codes[r * n + c], self.blanks[r * n + c])
                                 if self.codes[r * n + c] else "." for c in range(n)))
        return "\n".join(lines)

    @classmethod
    def from_text(cls, text: str, game: Game) -> "Position":
        """A plain board: one line per row, ``.`` (or space) for empty squares.

        Upper case tiles are natural and lower case ones blanks; a board
        written all in lower case holds natural tiles only.
        """
        _check_text(text, game, "a board")
        rows = [line.rstrip("\n") for line in text.strip("\n").split("\n")]
        rows = [r for r in rows if r.strip() != ""] if len(rows) > game.size else rows
        if len(rows) != game.size:
            raise GameError(f"the board has {len(rows)} rows; the {game.name} board has {game.size}")
        letters = "".join(ch for ch in text if ch.isalpha())
        all_lower = letters == letters.lower()
        pos = cls(game)
        for r, row in enumerate(rows):
            tiles = _row_tokens(row)
            if len(tiles) != game.size:
                raise GameError(f"row {r + 1} of the board has {len(tiles)} squares, not {game.size}")
            for c, tok in enumerate(tiles):
                if tok in (".", " ", "-", "_"):
                    continue
                code, blank = split_tiles(game, tok, what="board")[0]
                pos.place(r, c, code, blank and not all_lower)
        return pos

    # -- CGP --------------------------------------------------------------

    @classmethod
    def from_cgp(cls, cgp: str, game: Game | None = None) -> "Position":
        """Read a CGP string. The game is ``game``, else the ``bdn``/``var`` options, else Scrabble.

        >>> Position.from_cgp("15/15 A/ 0/0 0")
        Traceback (most recent call last):
        ...
        lexigraph.scrabble.game.GameError: bad CGP: the board has 2 rows; the scrabble board has 15
        """
        _check_text(cgp, game, "a CGP position")
        fields = cgp.strip().split(None, 4)
        if len(fields) < 4:
            raise GameError("bad CGP: expected BOARD RACKS SCORES ZERO_TURNS [options]")
        board_s, racks_s, scores_s, zero_s = fields[:4]
        options = _cgp_options(fields[4]) if len(fields) == 5 else {}
        if game is None:
            name = options.get("bdn", "")
            game = Game.preset("super") if "super" in name.lower() else Game.preset("scrabble")
        rows = board_s.split("/")
        if len(rows) != game.size:
            raise GameError(f"bad CGP: the board has {len(rows)} rows; the {game.name} board has {game.size}")
        pos = cls(game, options=options)
        for r, row in enumerate(rows):
            c = 0
            for tok in _CGP_TOKEN.findall(row):
                if tok[0] in "0123456789":
                    if len(tok) > 3:
                        raise GameError(f"bad CGP: row {r + 1} has a run of {quote(tok)} empty squares")
                    c += int(tok)
                    continue
                if tok.isdecimal() or tok.isdigit() or tok.isnumeric():
                    raise GameError(f"bad CGP: row {r + 1}: {tok!r} is not an ASCII digit (runs of empty squares"
                                    " are written 0-9)")
                if c >= game.size:
                    break
                code, blank = split_tiles(game, tok, what="CGP board")[0]
                pos.place(r, c, code, blank)
                c += 1
            if c != game.size:
                raise GameError(f"bad CGP: row {r + 1} has {c} squares, not {game.size}")
        racks = racks_s.split("/")
        if len(racks) != 2:
            raise GameError("bad CGP: racks are RACK1/RACK2")
        for rack in racks:
            parse_rack(game, rack)
        pos.racks = [r.upper() for r in racks]
        numbers = [*scores_s.split("/"), zero_s]
        if not all(re.fullmatch(r"-?[0-9]{1,9}", s) for s in numbers):
            raise GameError("bad CGP: scores are SCORE1/SCORE2 and then the zero-score turn count"
                            " (ASCII digits, at most 9 each)")
        scores = [int(s) for s in numbers[:-1]]
        zero = int(numbers[-1])
        if len(scores) != 2 or zero < 0:
            raise GameError("bad CGP: scores are SCORE1/SCORE2 and then the zero-score turn count")
        pos.scores = scores
        pos.zero_turns = zero
        return pos

    def to_cgp(self) -> str:
        n = self.size
        rows = []
        for r in range(n):
            out, run = [], 0
            for c in range(n):
                code = self.codes[r * n + c]
                if not code:
                    run += 1
                    continue
                if run:
                    out.append(str(run))
                    run = 0
                out.append(tile_text(self.game, code, self.blanks[r * n + c]))
            if run:
                out.append(str(run))
            rows.append("".join(out))
        opts = " ".join(f"{k} {v};" for k, v in self.options.items())
        s = f"{'/'.join(rows)} {self.racks[0]}/{self.racks[1]} {self.scores[0]}/{self.scores[1]} {self.zero_turns}"
        return f"{s} {opts}" if opts else s


def _cgp_options(text: str) -> dict[str, str]:
    """A CGP's opcodes (``lex TWL06; bdn super;``) as a dict."""
    options: dict[str, str] = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        op, _, value = part.partition(" ")
        options[op] = value.strip()
    return options


def named_lexicon(text: object) -> str:
    """The lexicon a position's text names (a CGP's ``lex`` opcode), or ``""``: read before the position is, since
    the lexicon chooses the tiles it is read with.

    >>> named_lexicon("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB/ 0/0 0 lex TWL06; bdn x;")
    'TWL06'
    >>> named_lexicon("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB/ 0/0 0"), named_lexicon("CAT/...")
    ('', '')
    """
    if not isinstance(text, str) or len(text) > MAX_POSITION_TEXT:
        return ""
    t = text.strip()
    fields = t.split(None, 4)
    if "\n" in t or len(fields) < 5:
        return ""
    return _cgp_options(fields[4]).get("lex", "")


def _row_tokens(row: str) -> list[str]:
    tokens: list[str] = TILE_TOKEN.findall(row)
    return tokens


def _check_text(text: object, game: object, what: str) -> None:
    if not isinstance(text, str):
        raise GameError(f"{what} is text, not {type(text).__name__}")
    if game is not None and not isinstance(game, Game):
        raise GameError(f"{what} is read for a Game, not {type(game).__name__}")
    if len(text) > MAX_POSITION_TEXT:
        raise GameError(f"{what} is longer than {MAX_POSITION_TEXT:,} characters")


def read_position(text: str, game: Game) -> Position:
    """A position from CGP or a plain board (several lines, or rows separated by ``/`` with no digits)."""
    _check_text(text, game, "a position")
    t = text.strip()
    if "\n" not in t and (" " in t or any(ch.isdigit() for ch in t.split(" ")[0])):
        return Position.from_cgp(t, game)
    if "\n" not in t and "/" in t:
        return Position.from_text(t.replace("/", "\n"), game)
    return Position.from_text(text, game)
