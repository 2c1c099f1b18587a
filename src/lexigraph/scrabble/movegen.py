"""Move generation: every legal play on a board for a rack, scored, over the lexicon's word graph.

The generator is Appel and Jacobson's (1988): for each line of the board,
cross-check sets say which tiles may go on each empty square (the word
formed across the line must be in the lexicon), anchors are the empty
squares next to a tile (the start square on an empty board), and each play
is grown from an anchor: a left part from the rack (on squares that touch
nothing) or the board tiles already left of the anchor, then extended
right through the word graph, square by square.

It runs in the lexicon's engine (:meth:`lexigraph.engine.interface.Engine.generate_moves`):
the C generator, or its Python twin (:mod:`lexigraph.engine.python.movegen`)
when the lexicon was opened with ``pure_python=True``; both return the
same records, which this module ranks and turns into :class:`Move` objects
only for the moves asked for. The tests hold both generators to the same
plays and scores and to a brute-force oracle.

>>> import lexigraph
>>> from lexigraph.scrabble.game import Game
>>> from lexigraph.scrabble.position import Position
>>> from lexigraph.scrabble.scoring import score_play
>>> lex = lexigraph.load(["cat", "cats", "at", "as", "ta", "act", "scat"])
>>> pos = Position(Game.preset("scrabble"))
>>> best = generate(lex, pos, "CATS")[:3]
>>> [(m.notation, m.score, m.leave) for m in best]
[('8E CATS', 12, ''), ('8E SCAT', 12, ''), ('8F CATS', 12, '')]
>>> m = score_play(lex, pos.with_play(best[0]), "F8 (A)T", rack="T")
>>> m.words, m.score
(('at',), 2)
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..engine.interface import MoveRequest
from .game import Game, GameError
from .moves import IllegalPlay, Move, MoveList, Placed, RawPlay, move_from_record
from .position import Position
from .tiles import parse_rack, rack_text

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..engine import Engines

__all__ = [
    "IllegalPlay", "Move", "MoveList", "Placed", "aligned", "board_phonies", "count_placements", "generate",
    "generate_placements",
]

_ALIGNED: dict[Any, tuple[Game, Game]] = {}


def aligned(lex: "Engines", position: Position) -> Position:
    """The position re-coded in the lexicon's alphabet (labels kept); the same position when they agree."""
    if not all(hasattr(lex, name) for name in ("store", "graph", "engine")):
        raise GameError(f"moves are found in an open lexicon (its engines), not {type(lex).__name__}")
    _checked(position)
    alphabet = lex.store.alphabet
    if position.game.alphabet.labels == alphabet.labels:
        return position
    key = (id(position.game), alphabet.labels)
    pair = _ALIGNED.get(key)
    if pair is None or pair[0] is not position.game:
        if len(_ALIGNED) > 64:
            _ALIGNED.clear()
        pair = _ALIGNED[key] = (position.game, position.game.with_alphabet(alphabet))
    game = pair[1]
    p = Position(game, racks=list(position.racks), scores=list(position.scores), zero_turns=position.zero_turns,
                 options=dict(position.options))
    for i, c in enumerate(position.codes):
        if c:
            label = position.game.alphabet.label(c)
            code = alphabet.code(label)
            if code is None:
                raise GameError(f"the board holds {label.upper()!r}, which the lexicon's alphabet lacks")
            p.codes[i] = code
            p.blanks[i] = position.blanks[i]
    return p


def board_phonies(lex: "Engines", position: Position) -> list[str]:
    """Words on the board that are not in the lexicon (a position may hold phonies)."""
    pos = aligned(lex, position)  # checks the arguments first
    alphabet = position.game.alphabet
    bad = {alphabet.decode(bytes(codes)) for _r, _c, _a, codes in pos.words_on_board()
           if lex.engine.id_of_codes(bytes(codes)) < 0}
    return sorted(bad)


class _GameTables:
    """What every request of one game shares: its squares' multipliers and its points, as the engine takes them."""

    __slots__ = ("game", "letter_multipliers", "word_multipliers", "points", "start_square", "n_codes")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.letter_multipliers = bytes(game.letter_mult)
        self.word_multipliers = bytes(game.word_mult)
        self.points = bytes(game.points_by_code())  # each at most 255 (checked when the game is loaded)
        self.start_square = game.start[0] * game.size + game.start[1]
        self.n_codes = len(game.alphabet) + 1


_TABLES: dict[int, _GameTables] = {}


def _tables(game: Game) -> _GameTables:
    tables = _TABLES.get(id(game))
    if tables is None or tables.game is not game:
        if len(_TABLES) > 64:
            _TABLES.clear()
        tables = _TABLES[id(game)] = _GameTables(game)
    return tables


def move_request(position: Position, rack_codes: list[int]) -> MoveRequest:
    """The engine's view of a position and a rack (tile codes, 0 a blank)."""
    game = position.game
    tables = _tables(game)
    counts = bytearray(tables.n_codes)
    for c in rack_codes:
        counts[c] += 1
    return MoveRequest(game.size, bytes(position.codes), bytes(position.blanks), tables.letter_multipliers,
                       tables.word_multipliers, tables.points, bytes(counts), tables.start_square, game.rack_size,
                       game.bingo_bonus)


def _records(lex: "Engines", pos: Position, rack_codes: list[int]) -> "np.ndarray":
    return lex.engine.generate_moves(move_request(pos, rack_codes))


def _rack_codes(pos: Position, rack: str | None) -> list[int]:
    if rack is not None and not isinstance(rack, str):
        raise GameError(f"a rack must be a string, not {type(rack).__name__}")
    return parse_rack(pos.game, pos.racks[0] if rack is None else rack)


def count_placements(lex: "Engines", position: Position, rack: str | None = None) -> int:
    """The number of distinct plays (placements) for ``rack``: the generator's work without building moves."""
    pos = aligned(lex, _checked(position))
    codes = _rack_codes(pos, rack)
    return len(_records(lex, pos, codes)) if codes else 0


def generate_placements(lex: "Engines", position: Position, rack: str | None = None) -> list[RawPlay]:
    """Every play as a raw record ``(score, row, col, across, squares)`` (see :data:`RawPlay`), unsorted."""
    pos = aligned(lex, _checked(position))
    codes = _rack_codes(pos, rack)
    if not codes:
        return []
    return _raw_plays(_records(lex, pos, codes))


def _raw_plays(records: "np.ndarray") -> list[RawPlay]:
    return [(int(r["score"]), int(r["row"]), int(r["col"]), int(r["across"]), bytes(r["squares"][: r["length"]]))
            for r in records]


def _ranked(records: "np.ndarray", top: int | None) -> "np.ndarray":
    """The records best score first; ties: across before down, then by square, then by the tiles placed."""
    import numpy as np

    count = len(records)
    scores = records["score"]
    if top is not None and top < count:
        cutoff = np.partition(scores, count - top)[count - top] if top > 0 else np.iinfo(np.int32).max
        chosen = np.flatnonzero(scores >= cutoff)
    else:
        chosen = np.arange(count)
    sub = records[chosen]
    squares = sub["squares"]
    keys = [squares[:, j] for j in range(squares.shape[1] - 1, -1, -1)]
    keys += [sub["length"], sub["col"], sub["row"], 1 - sub["across"].astype(np.int16), -sub["score"]]
    order = chosen[np.lexsort(keys)]
    return records[order if top is None else order[:top]]


def _checked(position: Position) -> Position:
    if not isinstance(position, Position):
        raise GameError(f"a position must be a Position, not {type(position).__name__}")
    return position


def generate(
    lex: "Engines",
    position: Position,
    rack: str | None = None,
    *,
    top: int | None = None,
    exchanges: bool = False,
    passes: bool = False,
) -> MoveList:
    """Every legal play for ``rack`` (default: the rack of the player on turn), best score first.

    Ties: across plays before down ones, then by square (row, then
    column), then by the tiles placed. ``top`` keeps the best ``top``
    plays. ``exchanges`` adds every distinct exchange (when the bag, the
    unseen tiles less the opponent's rack, holds at least a rack's worth of
    tiles), ``passes`` the pass.
    """
    if top is not None and (type(top) is not int or top < 0):
        raise GameError(f"top must be a non-negative integer, not {top!r}")
    pos = aligned(lex, _checked(position))
    rack_s = pos.racks[0] if rack is None else rack
    rack_codes = _rack_codes(pos, rack)
    records = _records(lex, pos, rack_codes) if rack_codes else None
    total = 0 if records is None else len(records)
    chosen = [] if records is None else _raw_plays(_ranked(records, top))
    moves = [move_from_record(pos, rack_codes, raw) for raw in chosen]
    extra: list[Move] = []
    if exchanges and rack_codes:
        unseen = len(pos.unseen(rack_s))
        if unseen - _other_rack_size(pos, unseen) >= pos.game.rack_size:
            extra.extend(_exchanges(pos.game, rack_codes))
    if passes:
        extra.append(Move("pass", 0, rack_text(pos.game, rack_codes), notation="-"))
    out = MoveList(moves + extra)
    out.total = total
    return out


def _exchanges(game: Game, rack_codes: list[int]) -> list[Move]:
    """Every distinct exchange of one or more of the rack's tiles."""
    out = []
    seen = set()
    for k in range(1, len(rack_codes) + 1):
        for combo in combinations(sorted(rack_codes), k):
            if combo in seen:
                continue
            seen.add(combo)
            left = Counter(rack_codes)
            left.subtract(combo)
            exchanged = rack_text(game, list(combo))
            out.append(Move("exchange", 0, rack_text(game, list(left.elements())), notation="-" + exchanged,
                            exchanged=exchanged))
    return out


def _other_rack_size(pos: Position, unseen: int) -> int:
    """The opponent's rack size: as the position gives it, else a full rack if the unseen tiles allow."""
    try:
        known = parse_rack(pos.game, pos.racks[1])
    except GameError:
        known = []
    return len(known) if known else min(pos.game.rack_size, unseen)
