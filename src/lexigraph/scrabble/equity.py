"""Equity: a play's score plus what the tiles it leaves on the rack are worth, and the usual adjustments.

``equity = score + leave value + adjustments``, where (as wolges, Macondo
and Quackle value a play before simulation):

* **leave value**: the leave table's value of the tiles kept
  (:class:`~lexigraph.scrabble.leaves.LeaveTable`; 0 without a table, or
  for a leave it does not list), while the bag holds tiles;
* **end of game** (the bag empty): a play that goes out gains twice the
  points on the opponent's rack (the unseen tiles); one that does not loses
  10 points plus twice the points of the tiles it keeps, and no leave value
  counts;
* **opening**: on an empty board, each vowel put on a square beside a premium
  square next to the start square's row (an across play) or column (a down
  play) costs 0.7 points (it opens a premium for the reply);
* **exchanges** are worth the value of what they keep, and are possible only
  while the bag holds at least a rack's worth of tiles.

The bag is the unseen tiles (neither on the board nor on the rack) less the
opponent's rack: as the position gives it, else a full rack.

All of it depends only on which rack tiles a play uses, but for the opening
squares: :func:`rack_values` makes one value per subset of the rack, which
the move generator reads with an index it keeps up to date as tiles leave the
rack (:class:`~lexigraph.engine.interface.MoveRequest`), so that the best N
plays by equity are ranked in the generator without building the rest.

>>> from lexigraph.scrabble.game import Game
>>> from lexigraph.scrabble.position import Position
>>> from lexigraph.scrabble.leaves import LeaveTable
>>> game = Game.preset("scrabble")
>>> leaves = LeaveTable.from_csv("S,8.0\\nQ,-7.0\\n")
>>> values = rack_values(Position(game), [17, 19], leaves)   # Q, S: used nothing, Q, S, both
>>> [values[i] for i in range(4)]
[0.0, 8.0, -7.0, 0.0]
>>> bag_size(Position(game), "QS")
91
"""

from __future__ import annotations

import re
import struct
from collections import Counter
from itertools import compress, product
from typing import TYPE_CHECKING

from ..engine.python.movegen import MAX_RACK_SUBSETS, place_values as engine_place_values
from .game import Game, GameError
from .position import Position
from .tiles import parse_rack

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.interface import Engine
    from .leaves import LeaveTable
    from .moves import Move

#: Points a vowel costs on a square beside a premium next to the start row or column, first play only.
OPENING_VOWEL_PENALTY = 0.7
#: What keeping tiles costs when the bag is empty, on top of twice their points.
ENDGAME_PENALTY = 10.0


def place_values(rack_codes: list[int], n_codes: int) -> tuple[list[int], int]:
    """Each code's place value in the used-tile index and the number of subsets (-1: more than allowed): the
    engines' index (:func:`lexigraph.engine.python.movegen.place_values`) for a rack given as its codes.

    >>> place_values([0, 2, 2, 3], 5)
    ([1, 0, 2, 6, 0], 12)
    """
    counts = [0] * n_codes
    for c in rack_codes:
        counts[c] += 1
    return engine_place_values(counts)


def other_rack_size(position: Position, unseen: int) -> int:
    """The opponent's rack size: as the position gives it, else a full rack if the unseen tiles allow."""
    if not position.racks[1:] or not position.racks[1].strip():
        return min(position.game.rack_size, unseen)
    try:
        known = parse_rack(position.game, position.racks[1])
    except GameError:
        known = []
    return len(known) if known else min(position.game.rack_size, unseen)


_BAG: dict[int, tuple[Game, list[int]]] = {}
#: (id(game), board codes, board blanks) -> the game and its tile counts less the board's: a few boards kept.
_OFF_BOARD: dict[tuple[int, bytes, bytes], tuple[Game, list[int]]] = {}


def unseen_counts(position: Position, rack_codes: list[int]) -> list[int]:
    """How many of each tile code (0: blanks) are neither on the board nor in ``rack_codes`` (never below 0)."""
    game = position.game
    cached = _BAG.get(id(game))
    if cached is None or cached[0] is not game:
        if len(_BAG) > 64:
            _BAG.clear()
        cached = _BAG[id(game)] = (game, game.counts_by_code())
    board = bytes(position.codes)
    blanks = bytes(position.blanks)
    known = _OFF_BOARD.get((id(game), board, blanks))  # the same board is looked at again and again (simulations)
    if known is None or known[0] is not game:
        counts = [n - board.count(code) for code, n in enumerate(cached[1])]
        counts[0] = cached[1][0]
        if any(blanks):
            for code in compress(board, blanks):  # a blank counts as a blank, not as its letter
                counts[code] += 1
                counts[0] -= 1
        if len(_OFF_BOARD) > 16:
            _OFF_BOARD.clear()
        known = _OFF_BOARD[(id(game), board, blanks)] = (game, counts)
    counts = list(known[1])
    for code in rack_codes:
        counts[code] -= 1
    return [max(c, 0) for c in counts]


def bag_size(position: Position, rack: str | list[int] | None = None) -> int:
    """Tiles in the bag: unseen tiles (not on the board or on ``rack``, default the rack on turn) less the
    opponent's rack."""
    codes = parse_rack(position.game, position.racks[0] if rack is None else rack) if not isinstance(rack, list) \
        else rack
    unseen = sum(unseen_counts(position, codes))
    return unseen - other_rack_size(position, unseen)


def rack_values(position: Position, rack_codes: list[int], leaves: "LeaveTable | None", *,
                bag: int | None = None, engine: "Engine | None" = None) -> list[float]:
    """What keeping the rest of the rack is worth, for each subset of the rack a play may use.

    Index ``i`` is a subset in mixed radix (see :func:`place_values`); the
    value is the leave's (bag not empty) or the end-of-game adjustment (bag
    empty; see the module docstring). ``bag`` defaults to :func:`bag_size`;
    ``engine`` (a lexicon's) looks the leaves up in C when it can.
    """
    game = position.game
    n_codes = len(game.alphabet) + 1
    counts = Counter(rack_codes)
    codes = sorted(counts)
    _places, size = place_values(rack_codes, n_codes)
    if size < 0:
        raise GameError(f"a rack of {len(rack_codes)} tiles has more than {MAX_RACK_SUBSETS:,} subsets to value")
    if bag is None:
        bag = bag_size(position, rack_codes)
    if bag > 0:
        if leaves is None or not len(leaves):
            return [0.0] * size
        packed = leaves.packed
        if engine is not None and packed is not None:
            rack = bytearray(n_codes)
            for c, n in counts.items():
                rack[c] = n
            return list(struct.unpack(f"<{size}d", engine.rack_leave_values(packed[0], packed[1], bytes(rack))))
        out = [0.0] * size
        lookup = leaves.by_key.get
        longest = leaves.max_length
        # kept[c][u]: the tiles of code c kept when u of them are used (codes ascending, so keys come out sorted)
        kept = [[bytes([c]) * (counts[c] - u) for u in range(counts[c] + 1)] for c in codes]
        total = len(rack_codes)
        for i, used in enumerate(product(*[range(counts[c] + 1) for c in reversed(codes)])):
            if total - sum(used) > longest:
                continue
            key = b"".join(kept[k][u] for k, u in enumerate(reversed(used)))
            out[i] = lookup(key, 0.0)
        return out
    points = game.points_by_code()
    unseen = unseen_counts(position, rack_codes)
    opponent = sum(points[c] * n for c, n in enumerate(unseen))
    out = [0.0] * size
    for i, used in enumerate(product(*[range(counts[c] + 1) for c in reversed(codes)])):
        kept_points = sum(points[c] * (counts[c] - u) for c, u in zip(reversed(codes), used))
        kept_tiles = len(rack_codes) - sum(used)
        out[i] = 2.0 * opponent if kept_tiles == 0 else -ENDGAME_PENALTY - 2.0 * kept_points
    return out


def move_equity(position: Position, move: "Move", rack_codes: list[int], values: list[float]) -> float:
    """The equity of ``move`` (a play, an exchange or a pass from ``rack_codes``) given the rack's
    :func:`rack_values`: what the generator computes for it, in the same order of sums.

    >>> from lexigraph.scrabble.game import Game
    >>> from lexigraph.scrabble.moves import Move, Placed
    >>> game = Game.preset("scrabble")
    >>> play = Move("play", 4, "EEIUU", 7, 6, True, (Placed(7, 6, "o", False), Placed(7, 7, "i", False)))
    >>> rack = [5, 5, 9, 9, 15, 21, 21]
    >>> round(move_equity(Position(game), play, rack, rack_values(Position(game), rack, None)), 4)   # O beside a DL
    3.3
    """
    game = position.game
    places, _size = place_values(rack_codes, len(game.alphabet) + 1)
    if move.kind == "pass":
        return values[0]
    if move.kind == "exchange":
        codes = [0 if t == "?" else game.alphabet.code(t) or 0 for t in _tiles_of(move.exchanged)]
        return values[sum(places[c] for c in codes)]
    used = [0 if t.blank else game.alphabet.code(t.tile) or 0 for t in move.tiles]
    value = float(move.score) + values[sum(places[c] for c in used)]
    if not any(position.codes):
        opening = struct.unpack(f"<{2 * game.size * game.size}d", opening_penalties(game))
        vowels = game.alphabet.vowel_codes
        n = game.size
        base = 0 if move.across else n * n
        for t in move.tiles:
            code = game.alphabet.code(t.tile) or 0
            if code in vowels:
                value += opening[base + (t.row * n + t.col if move.across else t.col * n + t.row)]
    return value


def _tiles_of(text: str) -> list[str]:
    return [tok.strip("[]").lower() if tok != "?" else tok for tok in re.findall(r"\[[^\]]*\]|.", text)]


def pack(values: list[float]) -> bytes:
    """Little-endian float64s, as the move generator takes them."""
    return struct.pack(f"<{len(values)}d", *values)


_OPENING: dict[int, tuple[Game, bytes]] = {}


def opening_penalties(game: Game, penalty: float = OPENING_VOWEL_PENALTY) -> bytes:
    """Per orientation and square (line coordinates, see :class:`~lexigraph.engine.interface.MoveRequest`), what
    a vowel costs there on an empty board: ``penalty`` on the start row's squares whose column has a premium square
    just above or below the start row (across plays), and likewise down the start column."""
    key = id(game)
    cached = _OPENING.get(key)
    if cached is not None and cached[0] is game and penalty == OPENING_VOWEL_PENALTY:
        return cached[1]
    n = game.size
    row0, col0 = game.start
    lm, wm = game.letter_mult, game.word_mult

    def premium(r: int, c: int) -> bool:
        return 0 <= r < n and 0 <= c < n and (lm[r * n + c] > 1 or wm[r * n + c] > 1)

    values = [0.0] * (2 * n * n)
    for c in range(n):  # across: line = the start row
        if premium(row0 - 1, c) or premium(row0 + 1, c):
            values[row0 * n + c] = -penalty
    for r in range(n):  # down: line = the start column, position = the row
        if premium(r, col0 - 1) or premium(r, col0 + 1):
            values[n * n + col0 * n + r] = -penalty
    packed = pack(values)
    if penalty == OPENING_VOWEL_PENALTY:
        if len(_OPENING) > 64:
            _OPENING.clear()
        _OPENING[key] = (game, packed)
    return packed


_VOWELS: dict[int, tuple[Game, bytes]] = {}


def vowel_flags(game: Game) -> bytes:
    """A byte per tile code: 1 for the alphabet's vowels."""
    cached = _VOWELS.get(id(game))
    if cached is not None and cached[0] is game:
        return cached[1]
    flags = bytearray(len(game.alphabet) + 1)
    for code in game.alphabet.vowel_codes:
        flags[code] = 1
    if len(_VOWELS) > 64:
        _VOWELS.clear()
    _VOWELS[id(game)] = (game, bytes(flags))
    return bytes(flags)
