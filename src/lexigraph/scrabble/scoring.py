"""Checking and scoring one play, independently of the move generator.

A play is read from its notation (:func:`parse_play`: ``8H QU(I)Z``,
``8H QU.Z``) or given as the tiles it puts down; :func:`score_placements`
checks every rule a play must keep and scores it the way players do: the
main word along the play's line, plus each cross word a new tile makes,
premiums counting only under new tiles, and the bingo bonus for a full
rack. An illegal play raises :class:`~lexigraph.scrabble.moves.IllegalPlay`
naming the rule it breaks. Tests hold this scorer and the generators to
the same scores.

>>> import lexigraph
>>> from lexigraph.scrabble.game import Game
>>> from lexigraph.scrabble.position import Position
>>> lex = lexigraph.load(["cat", "cats", "at", "as", "ta", "act", "scat"])
>>> move = score_play(lex, Position(Game.preset("scrabble")), "8G CAT", rack="CATS")
>>> move.score, move.leave
(10, 'S')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..engine.interface import BLANK_FLAG
from .game import Game, GameError, parse_square
from .movegen import aligned, has_engines
from .moves import IllegalPlay, Move, move_from_record
from .position import Position
from .tiles import parse_rack, rack_text, split_tiles, tile_text
from ..support.text import quote

#: Longest play text read (``8H`` and a word of at most a board's side, each tile at most a few characters).
MAX_PLAY_TEXT = 1000


def _check_engines(lex: object) -> None:
    if not has_engines(lex):
        raise GameError(f"plays are scored against an open lexicon (its engines), not {type(lex).__name__}")


def _check_position(position: object) -> None:
    if not isinstance(position, Position):
        raise GameError(f"a position must be a Position, not {type(position).__name__}")

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Engines

#: A tile put down: (row, column, tile code, is a blank).
Placement = tuple[int, int, int, bool]
Square = tuple[int, int]


def play_tokens(game: Game, text: str, play: str | None = None) -> list[tuple[int, bool, bool]]:
    """The tiles of a play's word (``QU(I)Z``, ``QU.Z``) in order: ``(code, blank, played through)``, a board
    tile written ``.`` as code 0 (``play``: the whole play, for the messages).

    >>> from lexigraph.scrabble.game import Game
    >>> play_tokens(Game.preset("scrabble"), "Q(U)i")
    [(17, False, False), (21, False, True), (9, True, False)]
    """
    play = text if play is None else play
    tokens: list[tuple[int, bool, bool]] = []  # (code, blank, played through)
    depth = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "()":
            depth += 1 if ch == "(" else -1
            i += 1
            continue
        if ch == ".":
            tokens.append((0, False, True))
            i += 1
            continue
        if ch == "[":
            j = text.find("]", i)
            if j < 0:
                raise IllegalPlay(f"bad play {quote(play)}: unclosed '['", "malformed")
            token = text[i : j + 1]
            i = j + 1
        else:
            token = ch
            i += 1
        code, blank = split_tiles(game, token, what="play")[0]
        tokens.append((code, blank, depth > 0))
    # Letters that only make sense grouped into multi-letter tiles (Spanish CH) are regrouped.
    if any(len(label) > 1 for label in game.alphabet.labels) and "[" not in text and "(" not in text:
        regrouped = split_tiles(game, text.replace(".", "?"), what="play", allow_blank=True)
        tokens = [(c, b, c == 0) for c, b in regrouped]
    return tokens


def parse_play(position: Position, play: str) -> list[Placement]:
    """``"8H QU(I)Z"`` or ``"8H QU.Z"`` -> the new tiles ``[(row, col, code, blank)]``.

    Board tiles may be written in parentheses, as ``.``, or as themselves.

    >>> from lexigraph.scrabble.game import Game
    >>> parse_play(Position(Game.preset("scrabble")), "8H Qi")
    [(7, 7, 17, False), (7, 8, 9, True)]
    """
    _check_position(position)
    game = position.game
    n = game.size
    parts = play.strip().split() if isinstance(play, str) and len(play) <= MAX_PLAY_TEXT else []
    if len(parts) != 2:
        raise IllegalPlay(f"bad play {quote(play)}: expected POSITION WORD such as '8H QUIZ'", "malformed")
    square = parse_square(parts[0], n)
    if square is None:
        raise IllegalPlay(f"bad play {quote(play)}: {quote(parts[0])} is not a square of the board", "malformed")
    row, col, across = square
    tokens = play_tokens(game, parts[1], play)
    placed = []
    for k, (code, blank, through) in enumerate(tokens):
        r, c = (row, col + k) if across else (row + k, col)
        if r >= n or c >= n:
            raise IllegalPlay(f"the play {quote(play)} runs off the board", "off board")
        on_board = position.codes[r * n + c]
        if on_board:
            if code and code != on_board:
                raise IllegalPlay(
                    f"{game.square_name(r, c)} holds {tile_text(game, on_board, position.blanks[r * n + c])}, "
                    f"not {tile_text(game, code, blank)}", "occupied")
            continue
        if through or code == 0:
            raise IllegalPlay(f"{game.square_name(r, c)} is empty: nothing to play through", "malformed")
        placed.append((r, c, code, blank))
    return placed


def run_through(occupied: Callable[[int, int], bool], size: int, row: int, col: int, across: bool) -> list[Square]:
    """The squares of the run of tiles through ``(row, col)`` along a line (across or down), in order.

    ``occupied(r, c)`` says whether a square holds a tile (the new ones
    included); the run is ``(row, col)`` itself and every tile touching it
    in an unbroken line on either side. Every word of a play is such a run.

    >>> run_through(lambda r, c: c in (2, 3, 4), 15, 0, 3, True)
    [(0, 2), (0, 3), (0, 4)]
    """
    dr, dc = (0, 1) if across else (1, 0)
    r, c = row, col
    while r - dr >= 0 and c - dc >= 0 and occupied(r - dr, c - dc):
        r, c = r - dr, c - dc
    squares = [(r, c)]
    while r + dr < size and c + dc < size and occupied(r + dr, c + dc):
        r, c = r + dr, c + dc
        squares.append((r, c))
    return squares


def score_placements(lex: "Engines", position: Position, placed: Sequence[Placement], rack: str | None = None) -> Move:
    """Check and score tiles put on the board (independently of the generator).

    Raises :class:`IllegalPlay` with the reason: ``no tiles``, ``occupied``,
    ``off board``, ``not in line``, ``gap``, ``not connected``, ``first
    move off the centre``, ``not on rack``, ``too short`` or ``not in
    lexicon``.
    """
    _check_engines(lex)
    _check_position(position)
    if rack is not None and not isinstance(rack, str):
        raise GameError(f"a rack is text such as 'AEINRST', not {type(rack).__name__}")
    game = position.game
    n = game.size
    if not isinstance(placed, (list, tuple)) or not all(
            isinstance(p, tuple) and len(p) == 4 and all(isinstance(v, int) for v in p) for p in placed):
        raise GameError("placements are a list of (row, column, code, blank) tuples of integers")
    if any(not 0 <= code <= len(game.alphabet) for _, _, code, _ in placed):
        raise GameError(f"a placement's code is not a tile code of the {game.name} game")
    if not placed:
        raise IllegalPlay("a play puts at least one tile on the board", "no tiles")
    squares = {(r, c) for r, c, _, _ in placed}
    if len(squares) != len(placed):
        raise IllegalPlay("two tiles on one square", "occupied")
    for r, c, _, _ in placed:
        if not (0 <= r < n and 0 <= c < n):
            raise IllegalPlay("a tile lies off the board", "off board")
        if position.codes[r * n + c]:
            raise IllegalPlay(f"{game.square_name(r, c)} is already occupied", "occupied")
    rows = {r for r, _ in squares}
    cols = {c for _, c in squares}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalPlay("the tiles are not in one row or column", "not in line")
    new = {(r, c): (code, blank) for r, c, code, blank in placed}

    def tile(r: int, c: int) -> tuple[int, bool] | None:
        if (r, c) in new:
            return new[(r, c)]
        code = position.codes[r * n + c]
        return (code, position.blanks[r * n + c]) if code else None

    def occupied(r: int, c: int) -> bool:
        return (r, c) in new or bool(position.codes[r * n + c])

    first_row, first_col = min(squares)
    if len(placed) == 1:
        # A lone tile reads across when it touches a tile across, or touches nothing down.
        touches_across = len(run_through(occupied, n, first_row, first_col, True)) > 1
        touches_down = len(run_through(occupied, n, first_row, first_col, False)) > 1
        across = touches_across or not touches_down
    else:
        across = len(rows) == 1
    main = run_through(occupied, n, first_row, first_col, across)
    last_row, last_col = max(squares)
    if (last_row, last_col) not in main:
        gap = next((r, c) for r, c in _line(first_row, first_col, last_row, last_col) if not occupied(r, c))
        raise IllegalPlay(f"there is a gap at {game.square_name(gap[0], gap[1], across)}", "gap")
    if position.is_empty():
        if game.start not in squares:
            raise IllegalPlay(f"the first play must cover the start square {game.square_name(*game.start)}",
                              "first move off the centre")
    elif len(main) == len(placed) and all(len(run_through(occupied, n, r, c, not across)) == 1 for r, c in squares):
        raise IllegalPlay("the play touches no tile on the board", "not connected")
    rack_codes = _rack_of(game, position, placed, rack)
    points = game.points_by_code()

    def word_score(run: list[Square]) -> tuple[list[int], int]:
        total, multiplier, codes = 0, 1, []
        for r, c in run:
            found = tile(r, c)
            assert found is not None  # a run holds tiles only
            code, blank = found
            codes.append(code)
            value = 0 if blank else points[code]
            if (r, c) in new:
                value *= game.letter_mult[r * n + c]
                multiplier *= game.word_mult[r * n + c]
            total += value
        return codes, total * multiplier

    words: list[list[int]] = []
    score = 0
    runs = [main] + [run_through(occupied, n, r, c, not across) for r, c in sorted(squares)]
    for run in runs:
        if len(run) >= 2:
            codes, value = word_score(run)
            words.append(codes)
            score += value
    if not words:
        raise IllegalPlay("a play must form a word of at least two tiles", "too short")
    alphabet = game.alphabet
    # By tile codes, not text: two L tiles do not spell the Spanish LL tile.
    bad = [alphabet.decode(bytes(w)) for w in words if lex.engine.id_of_codes(bytes(w)) < 0]
    if bad:
        raise IllegalPlay(f"not in the lexicon: {', '.join(w.upper() for w in bad)}", "not in lexicon", bad)
    if len(placed) == game.rack_size:
        score += game.bingo_bonus
    if len(main) < 2:  # a lone tile whose word runs the other way
        across = not across
        main = run_through(occupied, n, first_row, first_col, across)
    record = bytes(0 if sq not in new else new[sq][0] | (BLANK_FLAG if new[sq][1] else 0) for sq in main)
    return move_from_record(position, rack_codes, (score, main[0][0], main[0][1], 1 if across else 0, record))


def _line(r1: int, c1: int, r2: int, c2: int) -> list[Square]:
    """The squares from (r1, c1) to (r2, c2) along their row or column."""
    if r1 == r2:
        return [(r1, c) for c in range(c1, c2 + 1)]
    return [(r, c1) for r in range(r1, r2 + 1)]


def _rack_of(game: Game, position: Position, placed: Sequence[Placement], rack: str | None) -> list[int]:
    """The rack's tile codes (0 a blank), checked to hold the tiles played; no rack known: the tiles played."""
    rack_text_given = position.racks[0] if rack is None else rack
    if not isinstance(rack_text_given, str):
        raise GameError(f"a rack must be a string, not {type(rack_text_given).__name__}")
    if rack_text_given.strip() in ("", "-"):
        rack_text_given = rack_text(game, [0 if blank else code for _, _, code, blank in placed])
        try:
            rack_codes = parse_rack(game, rack_text_given)
        except GameError as e:
            raise IllegalPlay(str(e), "not on rack") from None
    else:
        rack_codes = parse_rack(game, rack_text_given)
    left = Counter(rack_codes)
    for _, _, code, blank in placed:
        key = 0 if blank else code
        if left[key] <= 0:
            what = "a blank" if blank else tile_text(game, code, False)
            raise IllegalPlay(f"{what} is not on the rack {quote(rack_text_given)}", "not on rack")
        left[key] -= 1
    return rack_codes


def score_play(lex: "Engines", position: Position, play: str, rack: str | None = None) -> Move:
    """Check and score a play written ``8H WORD`` (see :func:`parse_play`); :class:`IllegalPlay` if illegal."""
    _check_engines(lex)
    _check_position(position)
    if rack is not None and not isinstance(rack, str):
        raise GameError(f"a rack is text such as 'AEINRST', not {type(rack).__name__}")
    pos = aligned(lex, position)
    return score_placements(lex, pos, parse_play(pos, play), rack)


def apply_move(position: Position, move: Move) -> Position:
    """A copy of ``position`` with the move's tiles on the board (racks and scores unchanged)."""
    _check_position(position)
    if not isinstance(move, Move):
        raise GameError(f"apply_move takes a Move, not {type(move).__name__}")
    p = position.copy()
    alphabet = p.game.alphabet
    for t in move.tiles:
        code = alphabet.code(t.tile)
        if code is None:
            raise GameError(f"tile {quote(t.tile)} is not in the game's alphabet")
        p.place(t.row, t.col, code, t.blank)
    return p
