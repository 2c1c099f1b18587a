"""Games as data: a board layout with premium squares, a tile set, a rack size and a bingo bonus.

A game is a small TOML file (``docs/games.md``); lexigraph ships ``scrabble``
(15x15) and ``super`` (Super Scrabble, 21x21) with English tiles, and
``spanish``, ``catalan`` and ``french`` (15x15, the tiles of those alphabet
presets). Tile counts and points come from the alphabet preset the game names
unless the file lists its own. A lexicon plays a game whose tiles are its own
(:meth:`Game.for_lexicon`).

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
from importlib import resources
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from ..alphabet import Alphabet
from ..compiler.registry import is_name
from ..errors import LexiconError, QueryError
from ..support.presets import parse_toml, read_preset, read_spec
from ..support.text import cut, quote

#: The games that ship: English Scrabble and Super Scrabble, and Scrabble in the other preset alphabets.
PRESETS = ("scrabble", "super", "spanish", "catalan", "french")

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

#: The ranges every game value is checked against when a game is made (``docs/games.md``).
MIN_SIZE, MAX_SIZE = 1, 26  # board side; the C move generator's LX_MAX_BOARD_SIZE
MAX_RACK_SIZE = 15  # exchanges enumerate the rack's sub-racks: 2**15 at most
MAX_BINGO_BONUS = 1000
MAX_POINTS = 255  # the move generators take a tile's points as a byte
MAX_TILE_COUNT = 255  # of one tile, and of the blanks
MAX_BAG = 1000  # tiles in the bag, blanks included (Super Scrabble has 200)
#: Highest score any play may reach (the move generators add scores in 32-bit integers).
MAX_SCORE = 2**31 - 1


class GameError(QueryError):
    """A game definition, position, game record or play is malformed (a :class:`QueryError`)."""


_SQUARE = re.compile(r"^([A-Za-z])([0-9]{1,2})$|^([0-9]{1,2})([A-Za-z])$")  # ASCII digits only


def column_letter(col: int) -> str:
    return chr(ord("A") + col)


@dataclass(frozen=True)
class Game:
    """A Scrabble-family game: board, premiums, tiles and rules.

    ``board`` holds one string per row of premium characters (``PREMIUMS``);
    ``start`` is the (row, column) the first move must cover; ``tiles`` maps
    each tile label to ``(count, points)``; ``blanks`` is the number of blank
    tiles (they score 0); ``leaves`` the path of its default leave table
    (KLV2, KLV or CSV; relative paths from the game file's folder, a preset's from the package's ``data``
    folder), or "". The ``scrabble`` preset names ``english-leaves.klv2``, learned by self-play
    (``docs/selfplay.md``). ``lexicon`` is the registered name of the lexicon the game is played with
    (``lexigraph lexicons``), or "": the commands choose it when no ``--lexicon`` is given.
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
    lexicon: str = ""
    letter_mult: tuple[int, ...] = field(default=(), repr=False, compare=False)
    word_mult: tuple[int, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        where = f"game {quote(self.name) if not isinstance(self.name, str) else self.name}"
        if not isinstance(self.name, str):
            raise GameError(f"{where}: the name must be text")
        if not isinstance(self.alphabet, Alphabet):
            raise GameError(f"{where}: the alphabet must be an Alphabet, not {type(self.alphabet).__name__}")
        if isinstance(self.board, str) or not isinstance(self.board, (tuple, list)) or not all(
                isinstance(row, str) for row in self.board):
            raise GameError(f"{where}: the board must be a sequence of row strings")
        size = len(self.board)
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GameError(f"{where}: the board has {size} rows; {MIN_SIZE} to {MAX_SIZE} allowed")
        lm: list[int] = []
        wm: list[int] = []
        for r, row in enumerate(self.board):
            if len(row) != size:
                raise GameError(f"{where}: row {r + 1} has {len(row)} squares, not {size} (boards are square)")
            for ch in row:
                if ch not in PREMIUMS:
                    raise GameError(f"{where}: unknown premium {quote(ch)} in row {r + 1}")
                lm.append(PREMIUMS[ch][0])
                wm.append(PREMIUMS[ch][1])
        if not (isinstance(self.start, tuple) and len(self.start) == 2 and all(_is_int(v) for v in self.start)):
            raise GameError(f"{where}: the start square must be a (row, column) pair")
        sr, sc = self.start
        if not (0 <= sr < size and 0 <= sc < size):
            raise GameError(f"{where}: the start square lies off the board")
        _check_range(where, "rack_size", self.rack_size, 1, MAX_RACK_SIZE)
        _check_range(where, "bingo_bonus", self.bingo_bonus, 0, MAX_BINGO_BONUS)
        _check_range(where, "blanks", self.blanks, 0, MAX_TILE_COUNT)
        if not isinstance(self.tiles, Mapping):
            raise GameError(f"{where}: tiles must map a tile to (count, points)")
        bag = self.blanks
        for label, value in self.tiles.items():
            if not isinstance(label, str) or self.alphabet.code(label) is None:
                raise GameError(f"{where}: tile {quote(label)} is not in the alphabet {self.alphabet.name}")
            if not (isinstance(value, (tuple, list)) and len(value) == 2):
                raise GameError(f"{where}: tile {quote(label)} must have (count, points)")
            count, points = value
            _check_range(where, f"the count of tile {quote(label)}", count, 0, MAX_TILE_COUNT)
            _check_range(where, f"the points of tile {quote(label)}", points, 0, MAX_POINTS)
            bag += count
        if bag > MAX_BAG:
            raise GameError(f"{where}: the bag holds {bag:,} tiles; at most {MAX_BAG:,} allowed")
        best = _highest_score(size, wm, lm, self.rack_size, max((p for _, p in self.tiles.values()), default=0),
                              self.bingo_bonus)
        if best > MAX_SCORE:
            raise GameError(f"{where}: a play could score {best:,}, more than {MAX_SCORE:,} (fewer word premiums,"
                            " points or rack tiles)")
        object.__setattr__(self, "letter_mult", tuple(lm))
        object.__setattr__(self, "word_mult", tuple(wm))

    # -- loading ----------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> "Game":
        """A built-in game: ``scrabble`` or ``super``."""
        if not isinstance(name, str):
            raise GameError(f"a game preset is named by text, not {type(name).__name__}")
        text = read_preset(name, kind="game", folder="games", presets=PRESETS, error=GameError)
        return cls.from_toml(text, origin=f"preset {name}")

    @classmethod
    def load(cls, spec: "str | Path | Game") -> "Game":
        """A preset by name or a game file (TOML) by path."""
        if isinstance(spec, Game):
            return spec
        if not isinstance(spec, (str, Path)):
            raise GameError(f"a game is a preset name, a file path or a Game, not {type(spec).__name__}")
        text, origin = read_spec(str(spec), kind="game", folder="games", presets=PRESETS, error=GameError)
        return cls.from_toml(text, origin=origin)

    @classmethod
    def from_toml(cls, text: str, *, origin: str = "game") -> "Game":
        """A game from the text of a game file (refused when deeper than a settings file nests)."""
        return cls.from_dict(parse_toml(text, origin=origin, error=GameError), origin=origin)

    @classmethod
    def from_dict(cls, data: Mapping[str, object], *, origin: str = "game", alphabet: Alphabet | None = None) -> "Game":
        """A game from parsed TOML. ``alphabet`` overrides the one the file names."""
        if not isinstance(data, Mapping):
            raise GameError(f"{origin}: a game is a table of fields, not {type(data).__name__}")
        if alphabet is not None and not isinstance(alphabet, Alphabet):
            raise GameError(f"{origin}: alphabet must be an Alphabet, not {type(alphabet).__name__}")
        known = {"name", "title", "alphabet", "rack_size", "bingo_bonus", "start", "board", "tiles", "blanks", "leaves",
                 "lexicon"}
        extra = set(data) - known
        if extra:
            raise GameError(f"{origin}: unknown field(s) {cut(', '.join(sorted(map(str, extra))), 200)}")
        spec = data.get("alphabet", "english")
        if alphabet is None and not isinstance(spec, str):
            raise GameError(f"{origin}: alphabet must be a preset name or a file path")
        try:
            alpha = alphabet or Alphabet.load(str(spec))
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
            parsed = parse_square(start_s, size) if isinstance(start_s, str) else None
            if parsed is None:
                raise GameError(f"{origin}: start {quote(start_s)} is not a square of the board such as H8")
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
                if not (isinstance(v, list) and len(v) == 2 and all(_is_int(x) for x in v)):
                    raise GameError(f"{origin}: tile {quote(label)} must be [count, points]")
                tiles[str(label).lower()] = (v[0], v[1])
        blanks = data.get("blanks", alpha.blanks if alpha.blanks is not None else 2)

        def _int(key: str, default: int) -> int:
            v = data.get(key, default)
            if not isinstance(v, int) or isinstance(v, bool):
                raise GameError(f"{origin}: {key} must be an integer")
            return v

        if not isinstance(blanks, int) or isinstance(blanks, bool):
            raise GameError(f"{origin}: blanks must be an integer")
        name = data.get("name", "custom")
        title = data.get("title", name)
        if not isinstance(name, str) or not isinstance(title, str):
            raise GameError(f"{origin}: name and title must be text")
        leaves = data.get("leaves", "")
        if not isinstance(leaves, str):
            raise GameError(f"{origin}: leaves must be the path of a leave table")
        lexicon = data.get("lexicon", "")
        if not isinstance(lexicon, str) or (lexicon != "" and not is_name(lexicon)):
            raise GameError(f"{origin}: lexicon {quote(lexicon)} is not a lexicon name (letters, digits, '.', '_', "
                            "'+', '-'; lexigraph lexicons list shows the registered ones)")
        if leaves and not Path(leaves).is_absolute() and Path(origin).is_file():
            leaves = str(Path(origin).parent / leaves)
        elif leaves and not Path(leaves).is_absolute() and origin.startswith("preset "):
            # a preset's table ships in the package's data folder
            leaves = str(Path(str(resources.files("lexigraph").joinpath("data"))) / leaves)
        return cls(
            name=cut(name, 60),
            title=cut(title, 200),
            alphabet=alpha,
            board=tuple(board),
            start=start,
            tiles=tiles,
            blanks=blanks,
            rack_size=_int("rack_size", 7),
            bingo_bonus=_int("bingo_bonus", 50),
            leaves=leaves,
            lexicon=lexicon,
        )

    def for_lexicon(self, alphabet: Alphabet) -> "Game":
        """This game as a lexicon in ``alphabet`` plays it, or a :class:`GameError` that names the game to use.

        The one rule of every job where a game meets a lexicon (moves, scores,
        analyses, self-play, simulations, endgames, leave tables, the server's
        games): the lexicon's tiles must be the game's. They are when the
        lexicon's alphabet is the game's; else when it carries no tile set of
        its own (an alphabet inferred from a list) or the same one by name (an
        ``english`` lexicon on ``super``), every tile of it is a tile of the
        game, and every multi-letter tile of the game is one of it. Then the game comes back re-coded in the lexicon's tiles
        (:meth:`with_alphabet`; itself when the tiles are the same). A Spanish
        lexicon on the English ``scrabble`` game would be scored with English
        points, drawn from an English bag and valued with an English leave
        table: it is refused; so is a list built without ``--alphabet spanish`` on the
        Spanish game, where it would spell CH as C and H.

        >>> from lexigraph.alphabet import Alphabet
        >>> g = Game.preset("scrabble")
        >>> g.for_lexicon(Alphabet.from_letters("abcdefghijklmnopqrstuvwxyz")) is g   # a plain a-z list
        True
        >>> g.for_lexicon(Alphabet.preset("spanish"))
        Traceback (most recent call last):
        ...
        lexigraph.scrabble.game.GameError: the lexicon's tiles are the spanish set and the game scrabble plays the english set (its points, bag and leave table): play the game spanish (--game spanish)
        >>> Game.preset("spanish").for_lexicon(Alphabet.preset("spanish")).name
        'spanish'
        """
        if not isinstance(alphabet, Alphabet):
            raise GameError(f"a game is played with a lexicon's Alphabet, not {type(alphabet).__name__}")
        if alphabet is self.alphabet or alphabet == self.alphabet:
            return self
        why = self._mismatch(alphabet)
        if why:
            raise GameError(f"{why}: {_advice(alphabet)}")
        return self if alphabet.labels == self.alphabet.labels else self.with_alphabet(alphabet)

    def _mismatch(self, alphabet: Alphabet) -> str | None:
        """Why a lexicon in ``alphabet`` cannot play this game (see :meth:`for_lexicon`), or None."""
        if alphabet is self.alphabet or alphabet == self.alphabet:
            return None
        if alphabet.counts and alphabet.name != self.alphabet.name:
            return (f"the lexicon's tiles are the {alphabet.name} set and the game {self.name} plays the "
                    f"{self.alphabet.name} set (its points, bag and leave table)")
        missing = [label for label in alphabet.labels if label not in self.tiles]
        if missing:
            shown = " ".join(_shown(label) for label in missing[:8]) + (" ..." if len(missing) > 8 else "")
            return f"the lexicon has tiles the game {self.name} lacks ({shown})"
        spelled = [label for label in self.tiles if len(label) > 1 and label not in alphabet.labels]
        if spelled:  # the lexicon spells CH as C and H: its words would never use the game's CH tile
            shown = " ".join(_shown(label) for label in spelled[:8])
            return f"the game {self.name} has tiles the lexicon spells letter by letter ({shown})"
        return None

    def with_alphabet(self, alphabet: Alphabet) -> "Game":
        """The same board and rules with another alphabet's tiles (a tile the game lacks takes the alphabet's count
        and points, else 0), whatever they are: to make a game, not to play one (see :meth:`for_lexicon`)."""
        if not isinstance(alphabet, Alphabet):
            raise GameError(f"with_alphabet takes an Alphabet, not {type(alphabet).__name__}")
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
            leaves=self.leaves, lexicon=self.lexicon,
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
        if not _is_int(size) or not MIN_SIZE <= size <= self.size:
            raise GameError(f"a resized {self.name} board has {MIN_SIZE} to {self.size} rows, not {quote(size)}")
        off = (self.size - size) // 2
        rows = tuple(row[off : off + size] for row in self.board[off : off + size])
        return Game(
            name=f"{self.name}-{size}", alphabet=self.alphabet, board=rows, start=(size // 2, size // 2),
            tiles=self.tiles, blanks=self.blanks, rack_size=min(self.rack_size, size),
            bingo_bonus=self.bingo_bonus, title=self.title, leaves=self.leaves, lexicon=self.lexicon,
        )

    # -- queries ----------------------------------------------------------

    @property
    def size(self) -> int:
        return len(self.board)

    def _square(self, row: object, col: object) -> tuple[int, int]:
        if not (_is_int(row) and _is_int(col)):
            raise GameError(f"({quote(row)}, {quote(col)}) is not a square: rows and columns are whole numbers")
        assert isinstance(row, int) and isinstance(col, int)
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise GameError(f"({row}, {col}) is off the {self.size}x{self.size} board")
        return row, col

    def premium(self, row: int, col: int) -> str:
        r, c = self._square(row, col)
        return self.board[r][c]

    def points_of(self, label: str) -> int:
        """The points of a tile label (0 for a tile the game lacks)."""
        if not isinstance(label, str):
            raise GameError(f"a tile is named by its label, not {type(label).__name__}")
        return self.tiles.get(label, (0, 0))[1]

    def count_of(self, label: str) -> int:
        """How many of a tile the bag holds (0 for a tile the game lacks)."""
        if not isinstance(label, str):
            raise GameError(f"a tile is named by its label, not {type(label).__name__}")
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
        row, col = self._square(row, col)
        return f"{row + 1}{column_letter(col)}" if across else f"{column_letter(col)}{row + 1}"


def games_for(alphabet: Alphabet) -> list[str]:
    """The game presets a lexicon in ``alphabet`` can play (see :meth:`Game.for_lexicon`).

    >>> from lexigraph.alphabet import Alphabet
    >>> games_for(Alphabet.preset("spanish")), games_for(Alphabet.from_letters("cat"))
    (['spanish'], ['scrabble', 'super', 'french'])
    """
    return [name for name in PRESETS if Game.preset(name)._mismatch(alphabet) is None]


def _shown(label: str) -> str:
    """A tile as players write it: upper case (a letter without a one-letter capital, like ß, as it is)."""
    upper = label.upper()
    return upper if len(upper) == len(label) else label


def _advice(alphabet: Alphabet) -> str:
    """What to do instead: a game preset that plays the lexicon's tiles; else the alphabet preset that would keep
    its words in tiles such a game plays; else a game file of one's own."""
    games = games_for(alphabet)
    if games:
        return f"play the game {games[0]} (--game {games[0]})"
    best: tuple[int, str, str] | None = None  # (the lexicon's tiles it has as tiles, not folded), alphabet, game
    for name in PRESETS:
        tiles = Game.preset(name).alphabet
        if tiles.counts and all(tiles.encode(label) is not None for label in alphabet.labels):
            kept = sum(tiles.code(label) is not None for label in alphabet.labels)
            if best is None or kept > best[0]:
                best = (kept, tiles.name, name)
    if best is not None:
        return (f"build the lexicon with --alphabet {best[1]} and play the game {best[2]} (--game {best[2]}), "
                "or give a game file with the lexicon's tiles (docs/games.md)")
    return "give a game file whose tiles are the lexicon's (docs/games.md)"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_range(where: str, what: str, value: object, low: int, high: int) -> None:
    """Refuse ``value`` unless it is a whole number from ``low`` to ``high`` (one message for every game value)."""
    if not _is_int(value):
        raise GameError(f"{where}: {what} must be a whole number, not {quote(value)}")
    assert isinstance(value, int)
    if not low <= value <= high:
        shown = f"{value:,}" if abs(value) < 10**30 else f"a {len(str(abs(value)))}-digit number"
        raise GameError(f"{where}: {what} is {shown}; {low:,} to {high:,} allowed")


def _highest_score(size: int, word_mult: list[int], letter_mult: list[int], rack_size: int, top_points: int,
                   bingo: int) -> int:
    """A bound on any play's score: every word of the play at most a full line of the dearest tile on the
    dearest letter premium, times the largest product of word premiums that a rack's tiles can cover in one line."""
    covered = min(rack_size, size)
    product = 1
    for line in range(size):
        for step in (1, size):  # a row, then a column
            first = line * size if step == 1 else line
            mults = sorted((word_mult[first + k * step] for k in range(size)), reverse=True)[:covered]
            p = 1
            for m in mults:
                p *= m
            product = max(product, p)
    words = covered + 1  # the main word and one cross-word per tile placed
    return words * size * top_points * max(letter_mult, default=1) * product + bingo


def parse_square(text: str, size: int) -> tuple[int, int, bool] | None:
    """``8H`` -> (7, 7, across=True); ``H8`` -> (7, 7, across=False); None if malformed or off the board.

    >>> parse_square("8H", 15), parse_square("h8", 15), parse_square("16A", 15)
    ((7, 7, True), (7, 7, False), None)
    """
    if not isinstance(text, str) or not _is_int(size):
        return None
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
