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
only for the moves looked at. The tests hold both generators to the same
plays, scores and equities and to brute-force oracles.

Plays are ranked by **equity** (score plus the leave's value and the
adjustments of :mod:`lexigraph.scrabble.equity`) when a leave table is given
(``leaves=``) or the game names one, and by score otherwise (``sort=``
chooses). The generator values each play as it finds it and keeps the best
``top`` in a bounded heap, so asking for 20 never builds the rest.

>>> import lexigraph
>>> from lexigraph.scrabble.game import Game
>>> from lexigraph.scrabble.position import Position
>>> from lexigraph.scrabble.scoring import score_play
>>> lex = lexigraph.load(["cat", "cats", "at", "as", "ta", "act", "scat"])
>>> pos = Position(Game.preset("scrabble"))
>>> best = generate(lex, pos, "CATS")[:3]
>>> [(m.notation, m.score, m.leave) for m in best]       # the game's leave table: an S is worth keeping
[('8F ACT', 10, 'S'), ('8G CAT', 10, 'S'), ('8H ACT', 10, 'S')]
>>> m = score_play(lex, pos.with_play(best[0]), "F8 (A)T", rack="T")
>>> m.words, m.score
(('at',), 2)
"""

from __future__ import annotations

import os
import struct
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from ..engine.interface import GENERATE_BOTH_DIRECTIONS, GENERATE_BY_EQUITY, GENERATE_PRUNE, GENERATE_VALUES
from ..engine.interface import MoveGeneratorState, MoveRequest, move_record_dtype
from ..engine.python.movegen import MAX_RACK_SUBSETS
from . import equity as eq
from .game import Game, GameError
from .leaves import LeaveTable, load_leaves
from .moves import IllegalPlay, Move, MoveColumns, MoveList, Placed, RawPlay
from .position import Position
from .tables import game_tables
from .tiles import parse_rack, rack_text

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..alphabet import Alphabet
    from ..engine import Engines

__all__ = [
    "IllegalPlay", "LeavesSpec", "Move", "MoveColumns", "MoveList", "Placed", "aligned", "board_phonies",
    "MoveGenerator", "count_placements", "generate", "generate_columns", "generate_placements", "generator_for",
    "play_equity",
]

#: A leave table, or the path of a KLV2, KLV or CSV file holding one.
LeavesSpec = LeaveTable | str | os.PathLike[str]
#: How moves are ranked: by equity (score + leave value + adjustments), or by score.
SortKey = Literal["equity", "score"]

#: (game, lexicon alphabet) -> the game as that lexicon plays it; the objects kept so that their ids stay theirs.
_ALIGNED: dict[Any, tuple[Game, "Alphabet", Game]] = {}


#: The largest ``top`` taken as given: any larger asks for every move (no position has this many).
MAX_TOP = 2**31 - 1

def has_engines(lex: object) -> bool:
    """Whether ``lex`` is an open lexicon's engines (its store, graph and engine): each call's first check, so
    written out rather than as a loop over the names."""
    return hasattr(lex, "store") and hasattr(lex, "graph") and hasattr(lex, "engine")


def aligned(lex: "Engines", position: Position) -> Position:
    """The position re-coded in the lexicon's alphabet (labels kept); the same position when they agree.

    A lexicon whose tiles are not the game's is a :class:`GameError` naming the game to use
    (:meth:`lexigraph.scrabble.game.Game.for_lexicon`).
    """
    if not has_engines(lex):
        raise GameError(f"moves are found in an open lexicon (its engines), not {type(lex).__name__}")
    return _recoded(_checked(position), lex.store.alphabet)


def _recoded(position: Position, alphabet: "Alphabet") -> Position:
    """:func:`aligned` for a lexicon of ``alphabet``."""
    game = _game_for(position.game, alphabet)
    if game is position.game:
        return position
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


def _game_for(game: Game, alphabet: "Alphabet") -> Game:
    """``game`` as a lexicon of ``alphabet`` plays it (:meth:`Game.for_lexicon`), made once per pair of objects."""
    key = (id(game), id(alphabet))
    known = _ALIGNED.get(key)
    if known is None or known[0] is not game or known[1] is not alphabet:
        if len(_ALIGNED) > 64:
            _ALIGNED.clear()
        # the one rule of games and lexicons: the lexicon's tiles must be the game's (else an error naming a game)
        known = _ALIGNED[key] = (game, alphabet, game.for_lexicon(alphabet))
    return known[2]


def board_phonies(lex: "Engines", position: Position) -> list[str]:
    """Words on the board that are not in the lexicon (a position may hold phonies)."""
    pos = aligned(lex, position)  # checks the arguments first
    alphabet = position.game.alphabet
    bad = {alphabet.decode(bytes(codes)) for _r, _c, _a, codes in pos.words_on_board()
           if lex.engine.id_of_codes(bytes(codes)) < 0}
    return sorted(bad)


def move_request(engines: "Engines", position: Position, rack_codes: list[int],
                 leave_values: list[float] | None = None, *, leaves: LeaveTable | None = None,
                 top: int | None = None, by_equity: bool = True, prune: bool = False,
                 both_directions: bool = False) -> MoveRequest:
    """The engine's view of a position (in the lexicon's alphabet, :func:`aligned`) and a rack (tile codes, 0 a
    blank), valued by ``leave_values`` (:func:`lexigraph.scrabble.equity.rack_values` with the leave table
    ``leaves``; None or all zero: no values), the best ``top`` kept; on an empty board of a symmetric layout the
    across plays only unless ``both_directions`` (:class:`~lexigraph.engine.interface.MoveRequest`)."""
    counts = bytearray(len(position.game.alphabet) + 1)
    for c in rack_codes:
        counts[c] += 1
    values = eq.pack(leave_values) if leave_values and any(leave_values) else b""
    return MoveRequest(game_tables(engines, position.game, leaves), bytes(position.codes), bytes(position.blanks),
                       bytes(counts), values, -1 if top is None else top, by_equity, prune, True, both_directions)


#: (id(game), rack text) -> the game and the rack's codes: racks asked again (an analysis, a benchmark, the page)
#: are not parsed again; a few hundred kept.
_RACKS: dict[tuple[int, str], tuple[Game, tuple[int, ...]]] = {}


def _rack_codes(pos: Position, rack: str | None) -> list[int]:
    if rack is not None and not isinstance(rack, str):
        raise GameError(f"a rack must be a string, not {type(rack).__name__}")
    text = pos.racks[0] if rack is None else rack
    known = _RACKS.get((id(pos.game), text))
    if known is None or known[0] is not pos.game:
        if len(_RACKS) >= 512:
            _RACKS.clear()
        known = _RACKS[id(pos.game), text] = (pos.game, tuple(parse_rack(pos.game, text)))
    return list(known[1])


def count_placements(lex: "Engines", position: Position, rack: str | None = None) -> int:
    """The number of distinct plays (placements) for ``rack``: the generator's work without building moves."""
    pos = aligned(lex, _checked(position))
    codes = _rack_codes(pos, rack)
    if not codes:
        return 0
    _records, total = lex.engine.generate_moves(move_request(lex, pos, codes, top=0, both_directions=True))
    return total


def generate_placements(lex: "Engines", position: Position, rack: str | None = None) -> list[RawPlay]:
    """Every play as a raw record ``(score, row, col, across, squares)`` (see :data:`RawPlay`), unsorted."""
    pos = aligned(lex, _checked(position))
    codes = _rack_codes(pos, rack)
    if not codes:
        return []
    records, _total = lex.engine.generate_moves(move_request(lex, pos, codes, both_directions=True))
    return _raw_plays(records)


def _raw_plays(records: "np.ndarray") -> list[RawPlay]:
    return [(int(r["score"]), int(r["row"]), int(r["col"]), int(r["across"]), bytes(r["squares"][: r["length"]]))
            for r in records]


def _checked(position: Position) -> Position:
    if not isinstance(position, Position):
        raise GameError(f"a position must be a Position, not {type(position).__name__}")
    return position


def leave_table(lex: "Engines", position: Position, leaves: "LeavesSpec | None") -> LeaveTable | None:
    """The leave table a generation uses: ``leaves`` (a table or a file), else the game's default, else None;
    in the lexicon's alphabet."""
    spec: LeavesSpec | None = leaves
    if spec is None:
        spec = position.game.leaves or None
    if spec is None:
        return None
    if not isinstance(spec, (LeaveTable, str, os.PathLike)):
        raise GameError(f"leaves must be a LeaveTable or a file path, not {type(spec).__name__}")
    if isinstance(spec, LeaveTable):
        return load_leaves(spec, lex.store.alphabet)
    return _leaves_at(spec, lex.store.alphabet)


#: (path, id(alphabet)) -> the file's identity when read, the alphabet, the table: a few kept.
_LEAVES_AT: dict[tuple[str | bytes, int], tuple[tuple[int, ...], "Alphabet", LeaveTable | None]] = {}


def _leaves_at(path: "str | os.PathLike[str]", alphabet: "Alphabet") -> LeaveTable | None:
    """The table :func:`load_leaves` reads from ``path``, known again by one ``os.stat`` (device, inode, size, time
    of change: a replaced file is read again) instead of resolving the path on every call."""
    name = os.fspath(path)
    try:
        st = os.stat(name)
    except OSError:
        return load_leaves(path, alphabet)  # its error
    identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    known = _LEAVES_AT.get((name, id(alphabet)))
    if known is not None and known[0] == identity and known[1] is alphabet:
        return known[2]
    table = load_leaves(path, alphabet)
    if len(_LEAVES_AT) >= 16:
        _LEAVES_AT.clear()
    _LEAVES_AT[name, id(alphabet)] = (identity, alphabet, table)
    return table


def generate(
    lex: "Engines",
    position: Position,
    rack: str | None = None,
    *,
    top: int | None = None,
    exchanges: bool | None = None,
    passes: bool = False,
    leaves: "LeavesSpec | None" = None,
    sort: SortKey | None = None,
    deadline: float | None = None,
    count_all: bool = True,
    both_directions: bool = False,
) -> MoveList:
    """Every legal play for ``rack`` (default: the rack of the player on turn), best first.

    Each move carries its score and its ``equity`` (score plus the leave's
    value and the adjustments of :mod:`lexigraph.scrabble.equity`).
    ``leaves`` is a leave table (a :class:`~lexigraph.scrabble.leaves.LeaveTable`
    or a KLV2, KLV or CSV file; default: the game's). ``sort`` ranks by
    ``"equity"`` or ``"score"``; by default by equity when there is a leave
    table, else by score. Ties: across plays before down ones, then by square
    (row, then column), then by the tiles placed. ``top`` keeps the best
    ``top`` moves (found in the generator: the rest are never built).

    ``exchanges`` adds every distinct exchange (when the bag holds at least a
    rack's worth of tiles), worth the value of what it keeps; ``passes`` the
    pass. Ranked by equity, they are ranked with the plays (default: listed
    when ranking by equity); ranked by score, they follow the plays. Past
    ``deadline`` (a :func:`time.monotonic` value) the generation raises
    :class:`~lexigraph.errors.DeadlineExceeded`.

    The moves come as a :class:`MoveList`: each :class:`Move` is built when
    looked at, and ``.columns`` gives the plays as NumPy arrays; ``.total``
    counts every play. With ``top`` and ``count_all=False`` the generator
    skips the anchors whose best possible play (a shadow bound) cannot make
    the list: the same moves, sooner, and ``.total`` is -1.

    On an empty board whose layout is its own transpose (every preset's),
    each down play is an across play transposed, of the same value: only the
    across plays are listed and counted (MAGPIE's and Macondo's convention),
    unless ``both_directions``.
    """
    if top is not None and (type(top) is not int or top < 0):
        raise GameError(f"top must be a non-negative integer, not {top!r}")
    if sort not in (None, "equity", "score"):
        raise GameError(f"sort must be 'equity' or 'score', not {sort!r}")
    pos = aligned(lex, _checked(position))
    rack_codes = _rack_codes(pos, rack)
    table = leave_table(lex, pos, leaves)
    return generator_for(lex, pos.game, table).ranked(pos, rack_codes, top=top, exchanges=exchanges, passes=passes,
                                                     sort=sort, deadline=deadline, count_all=count_all,
                                                     both_directions=both_directions)


#: Move generators kept per open lexicon: at most this many (games and leave tables in use at once).
MAX_GENERATORS = 32


def generator_for(lex: "Engines", game: Game, leaves: "LeavesSpec | None" = None) -> "MoveGenerator":
    """The :class:`MoveGenerator` of ``game`` (put in the lexicon's alphabet) with the leave table ``leaves`` (a
    table or a file; None: none, not the game's), made once per open lexicon and pair of objects and kept with the lexicon
    (:meth:`lexigraph.engine.store.Store.cached`), so that it lives and dies with it.

    >>> import lexigraph
    >>> lex = lexigraph.open()
    >>> game = Game.preset("scrabble")
    >>> generator_for(lex, game) is generator_for(lex, game)
    True
    """
    if not has_engines(lex):
        raise GameError(f"moves are found in an open lexicon (its engines), not {type(lex).__name__}")
    game = _game_for(game, lex.store.alphabet)
    kept: dict[tuple[int, int], MoveGenerator] = lex.store.cached(("scrabble", "move generators"), dict)
    found = kept.get((id(game), id(leaves)))
    if found is None or found.game is not game or found.given is not leaves:
        if len(kept) >= MAX_GENERATORS:
            kept.clear()
        found = kept[id(game), id(leaves)] = MoveGenerator(lex, game, leaves)
    return found


class MoveGenerator:
    """Move generation for one lexicon, game and leave table, its state kept across calls: the game's tables
    parsed once, and the engine's generator (:meth:`lexigraph.engine.interface.Engine.move_generator`), which
    counts the bag and values the rack's subsets itself, keeps the last rack's values and the state of a board
    asked again (cross-sets, anchors), and in C generates without the GIL. :func:`generator_for` keeps one per
    (lexicon, game, leave table); :func:`generate` uses it.

    >>> import lexigraph
    >>> lex = lexigraph.load(["qi", "qis"])
    >>> gen = MoveGenerator(lex, Game.preset("scrabble"), LeaveTable.from_csv("S,8.0"))
    >>> pos = Position(Game.preset("scrabble"))
    >>> [(m.notation, m.equity) for m in gen.generate(pos, "QIS", top=2)]
    [('8G QI', 30.0), ('8H QI', 29.3)]
    """

    def __init__(self, lex: "Engines", game: Game, leaves: "LeavesSpec | None" = None) -> None:
        if not has_engines(lex):
            raise GameError(f"moves are found in an open lexicon (its engines), not {type(lex).__name__}")
        # no reference to the lexicon or its engine: the lexicon keeps this object (generator_for), and a cycle
        # would keep its mapped file open until the garbage collector runs
        self.alphabet = lex.store.alphabet
        self.game = _game_for(game, self.alphabet)
        self.given = leaves
        self.leaves = load_leaves(leaves, lex.store.alphabet)  # in the lexicon's codes
        leaves = self.leaves
        self.tables = game_tables(lex, self.game, leaves)
        self.state = lex.engine.move_generator(self.tables)
        # a table whose leaves the engines cannot key (:attr:`LeaveTable.packed` None) is valued in Python
        self.values_in_engine = leaves is None or not len(leaves) or leaves.packed is not None

    def generate(self, position: Position, rack: str | None = None, *, top: int | None = None,
                 exchanges: bool | None = None, passes: bool = False, sort: SortKey | None = None,
                 deadline: float | None = None, count_all: bool = True, both_directions: bool = False) -> MoveList:
        """:func:`generate` with this generator's leave table (the position's game must be this one's)."""
        if top is not None and (type(top) is not int or top < 0):
            raise GameError(f"top must be a non-negative integer, not {top!r}")
        if sort not in (None, "equity", "score"):
            raise GameError(f"sort must be 'equity' or 'score', not {sort!r}")
        pos = _recoded(_checked(position), self.alphabet)
        if pos.game is not self.game and pos.game != self.game:
            raise GameError("the position's game is not the generator's (generator_for makes one per game)")
        return self.ranked(pos, _rack_codes(pos, rack), top=top, exchanges=exchanges, passes=passes, sort=sort,
                           deadline=deadline, count_all=count_all, both_directions=both_directions)

    def ranked(self, pos: Position, rack_codes: list[int], *, top: int | None, exchanges: bool | None,
               passes: bool, sort: SortKey | None, deadline: float | None, count_all: bool,
               both_directions: bool) -> MoveList:
        """The moves of :func:`generate`, the arguments checked and the position in this generator's game."""
        if top is not None:
            top = min(top, MAX_TOP)  # more than any position has: the same list, in a number C takes
        table = self.leaves
        by_equity = (table is not None) if sort is None else sort == "equity"
        with_exchanges = by_equity if exchanges is None else bool(exchanges)
        game = pos.game
        if not rack_codes:
            out = MoveList([Move("pass", 0, "", notation="-", equity=0.0)] if passes else [])
            out.total = 0
            return out
        if len(rack_codes) > 16 and eq.place_values(rack_codes, len(game.alphabet) + 1)[1] < 0:
            raise GameError(f"a rack of {len(rack_codes)} tiles has more than {MAX_RACK_SUBSETS:,} subsets to "
                            "value")
        counts = bytearray(len(game.alphabet) + 1)
        for c in rack_codes:
            counts[c] += 1
        flags = ((GENERATE_BY_EQUITY if by_equity else 0) | (0 if count_all else GENERATE_PRUNE)
                 | (GENERATE_BOTH_DIRECTIONS if both_directions else 0))
        given = b""
        if self.values_in_engine:
            flags |= GENERATE_VALUES
        else:
            given = eq.pack(eq.rack_values(pos, rack_codes, table, bag=eq.bag_size(pos, rack_codes)))
        # every play ranked: asked of the engine as the best MAX_TOP (it ranks them faster than a NumPy sort)
        records, total, packed, bag = self.state.generate(
            pos.codes, pos.blanks, bytes(counts), _other_rack(pos), MAX_TOP if top is None else top,
            flags, deadline, given)
        if top is None:  # every move ranked: the exchanges ranked and placed in arrays, none built
            return _every_move(self.state, MoveColumns(pos, rack_codes, records), counts, packed,
                               with_exchanges and bag >= game.rack_size, passes, by_equity, total)
        extra: list[tuple[float, int, Any]] = []  # (equity, order, how to build the move): built only if listed
        exchanging = with_exchanges and bag >= game.rack_size
        if top == 1 and by_equity and (exchanging or passes):  # the best move alone (every game job's question)
            return _best_move(self.state, pos, rack_codes, counts, records, total, packed, exchanging, passes)
        values: list[float] = []
        if exchanging or passes:
            values = list(struct.unpack(f"<{len(packed) // 8}d", packed))
        if exchanging:
            extra.extend(_exchanges(game, rack_codes, values, _cutoff(records, values, top, by_equity),
                                    top if by_equity else None))
        if passes:
            rest = rack_text(game, rack_codes)
            extra.append((values[0], 1 << 30, lambda: Move("pass", 0, rest, notation="-", equity=values[0])))
        columns = MoveColumns(pos, rack_codes, records)
        if not extra:
            return MoveList(columns=columns, total=total)
        extra.sort(key=lambda e: (-e[0], e[1]))
        if not by_equity:  # by score: the plays, then the exchanges and the pass
            return MoveList(columns=columns, extras={len(records) + k: e[2] for k, e in enumerate(extra)},
                            total=total)
        return _merged(columns, extra, top, total)


def _best_move(state: MoveGeneratorState, pos: Position, rack_codes: list[int], code_counts: bytearray,
               records: "np.ndarray", total: int, packed: bytes, exchanges: bool, passes: bool) -> MoveList:
    """The best move by equity of ``records`` (the best play, if any), the best exchange (when ``exchanges``) and the
    pass (when ``passes``), as :func:`_merged` ranks them for ``top`` 1: a play first at equal equity, then an
    exchange (fewer tiles first, then the lower index), then the pass; the extras' best found by the engine
    (:meth:`~lexigraph.engine.interface.MoveGeneratorState.best_extra`), none of them built unless it wins."""
    order = _exchange_order(bytes(code_counts), len(packed) // 8) if exchanges else b""
    extra = state.best_extra(packed, order, passes)
    if extra is None or (len(records) and float(records["equity"][0]) >= extra[1]):
        # the best play wins (the usual case): no exchange or pass built
        return MoveList(columns=MoveColumns(pos, rack_codes, records if len(records) <= 1 else records[:1]),
                        total=total)
    game = pos.game
    subset, value = extra
    if subset == 0:
        rest = rack_text(game, rack_codes)
        build: Callable[[], Move] = lambda: Move("pass", 0, rest, notation="-", equity=value)
    else:
        build = partial(_exchange_move, game, rack_codes, subset, value)
    return MoveList(columns=MoveColumns(pos, rack_codes, records[:0]), extras={0: build}, total=total)


def _every_move(state: MoveGeneratorState, columns: MoveColumns, code_counts: bytearray, packed: bytes,
                exchanges: bool, passes: bool, by_equity: bool, total: int) -> MoveList:
    """Every play (ranked by the engine), every exchange (when ``exchanges``) and the pass (when ``passes``) in one
    :class:`MoveList`, as :func:`_exchanges` and :func:`_merged` rank them: the engine ranks the extras
    (:meth:`~lexigraph.engine.interface.MoveGeneratorState.rank_extras`: by equity down, fewer tiles first, then the
    subset's index, the pass last of its value) and places them after the plays of at least their equity (by
    equity) or after every play (by score); each move is built only when looked at."""
    if not exchanges and not passes:
        return MoveList(columns=columns, total=total)
    order = _exchange_order(bytes(code_counts), len(packed) // 8) if exchanges else b""
    places, ranked = state.rank_extras(columns.records, packed, order, passes, by_equity)
    position, rack = columns.position, columns.rack_codes
    game = position.game

    def extra_move(k: int) -> Move:
        subset, value = _RANKED_EXTRA.unpack_from(ranked, k * _RANKED_EXTRA.size)
        if subset == 0:
            return Move("pass", 0, rack_text(game, rack), notation="-", equity=value)
        return _exchange_move(game, rack, subset, value)

    return MoveList(columns=columns, extra_at=memoryview(places).cast("q"), extra_move=extra_move, total=total)


#: An extra as :meth:`~lexigraph.engine.interface.MoveGeneratorState.rank_extras` ranks it: (subset, value).
_RANKED_EXTRA = struct.Struct("<qd")

#: a rack's count per tile code -> its exchanges' order: (tiles exchanged << 24 | subset index), index 1 on
_EXCHANGE_ORDERS: dict[bytes, bytes] = {}


def _exchange_order(code_counts: bytes, size: int) -> bytes:
    """The tie order of the exchanges of a rack holding ``code_counts[c]`` tiles of code ``c``, as little-endian
    int64s (:func:`_subset_sizes`: fewer tiles first, then the index), made once per rack (a few hundred kept)."""
    order = _EXCHANGE_ORDERS.get(code_counts)
    if order is None or len(order) != 8 * (size - 1):
        if len(_EXCHANGE_ORDERS) >= 512:
            _EXCHANGE_ORDERS.clear()
        sizes = _subset_sizes([n for n in code_counts if n], size)  # digits per code on the rack, ascending codes
        order = _EXCHANGE_ORDERS[code_counts] = struct.pack(f"<{size - 1}q",
                                                            *(sizes[i] << 24 | i for i in range(1, size)))
    return order


def _other_rack(pos: Position) -> int:
    """The opponent's rack size when the position says it (:func:`lexigraph.scrabble.equity.other_rack_size`), else
    -1: a full rack if the unseen tiles allow."""
    if not pos.racks[1:] or not pos.racks[1].strip():
        return -1
    try:
        known = parse_rack(pos.game, pos.racks[1])
    except GameError:
        known = []
    return len(known) if known else -1


def _cutoff(records: "np.ndarray", values: list[float], top: int, by_equity: bool) -> float | None:
    """The equity an exchange must reach to make the list (None: any): that of the last of ``top`` plays, and of
    the ``top``-th best exchange."""
    if not by_equity:
        return None
    if top == 0:
        return float("inf")
    cutoff = float(records["equity"][top - 1]) if len(records) >= top else -float("inf")
    if len(values) - 1 > top:
        cutoff = max(cutoff, sorted(values[1:], reverse=True)[top - 1])
    return None if cutoff == -float("inf") else cutoff


#: Up to this ``top``, plays and exchanges are merged in Python (see :func:`_merged`).
_SHORT_MERGE = 64


def _merged(columns: MoveColumns, extra: list[tuple[float, int, Any]], top: int, total: int) -> MoveList:
    """Plays (ranked) and exchanges / the pass (sorted) in one ranking by equity, a play first at equal equity;
    cut to ``top``."""
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    if top <= _SHORT_MERGE:
        # a short list (the best move, a few candidates): merged in Python, cheaper than NumPy's calls
        plays = columns.records["equity"][:top].tolist()
        before_list: list[int] = []
        i = 0
        for k, (value, _order, _build) in enumerate(extra):
            while i < len(plays) and plays[i] >= value:  # a play first at equal equity
                i += 1
            before_list.append(i + k)
    else:
        values = np.array([-value for value, _order, _build in extra])
        before_list = (np.searchsorted(-columns.equity, values, side="right") + np.arange(len(extra))).tolist()
    extras: dict[int, Any] = dict(zip(before_list, (build for _value, _order, build in extra)))
    size = len(columns) + len(extra)
    if top < size:
        extras = {i: m for i, m in extras.items() if i < top}
        columns = MoveColumns(columns.position, columns.rack_codes, columns.records[: top - len(extras)])
    return MoveList(columns=columns, extras=extras, total=total)


def play_equity(lex: "Engines", position: Position, move: Move, rack: str | None = None, *,
                leaves: "LeavesSpec | None" = None) -> float:
    """The equity of one move (a play, an exchange or a pass) made from ``rack``, as :func:`generate` values it.

    >>> import lexigraph
    >>> from lexigraph.scrabble.game import Game
    >>> from lexigraph.scrabble.leaves import LeaveTable
    >>> lex, pos = lexigraph.load(["qi", "qis"]), Position(Game.preset("scrabble"))
    >>> best = generate(lex, pos, "QIS", top=1, leaves=LeaveTable.from_csv("S,8.0"))[0]
    >>> best.notation, best.equity, play_equity(lex, pos, best, "QIS", leaves=LeaveTable.from_csv("S,8.0"))
    ('8G QI', 30.0, 30.0)
    """
    pos = aligned(lex, _checked(position))
    rack_codes = _rack_codes(pos, rack)
    table = leave_table(lex, pos, leaves)
    values = eq.rack_values(pos, rack_codes, table, bag=eq.bag_size(pos, rack_codes), engine=lex.engine)
    return eq.move_equity(pos, move, rack_codes, values)


def generate_columns(lex: "Engines", position: Position, rack: str | None = None, *,
                     leaves: "LeavesSpec | None" = None, deadline: float | None = None) -> MoveColumns:
    """Every legal play as NumPy columns (:class:`MoveColumns`: square, direction, score, equity, tiles), in no
    particular order, no :class:`Move` built: for programs that value or filter every move themselves.

    >>> import lexigraph
    >>> from lexigraph.scrabble.game import Game
    >>> cols = generate_columns(lexigraph.load(["cat", "act", "at"]), Position(Game.preset("scrabble")), "CAT")
    >>> len(cols), sorted(set(cols.score.tolist()))
    (16, [4, 10])
    >>> sorted({move.word for move in cols})          # a Move is built only here
    ['act', 'at', 'cat']
    """
    pos = aligned(lex, _checked(position))
    rack_codes = _rack_codes(pos, rack)
    import numpy as np  # deferred: start-up

    if not rack_codes:
        return MoveColumns(pos, rack_codes, np.zeros(0, move_record_dtype()))
    table = leave_table(lex, pos, leaves)
    values = eq.rack_values(pos, rack_codes, table, bag=eq.bag_size(pos, rack_codes), engine=lex.engine)
    records, _total = lex.engine.generate_moves(move_request(lex, pos, rack_codes, values, leaves=table,
                                                             both_directions=True), deadline)
    return MoveColumns(pos, rack_codes, records)


def _exchanges(game: Game, rack_codes: list[int], values: list[float], cutoff: float | None,
               top: int | None = None) -> list[tuple[float, int, Any]]:
    """Every distinct exchange of one or more of the rack's tiles, worth what it keeps: ``values`` by used tiles,
    so exchange ``i`` (in the index of :func:`lexigraph.scrabble.equity.place_values`) is worth ``values[i]``.

    Those below ``cutoff`` cannot make the list and are left out, and of the
    rest those below the ``top``-th best; each entry is (equity, order: fewer
    tiles first, then the index, a function that builds the :class:`Move`).
    """
    if cutoff is None:
        chosen = list(range(1, len(values)))
    else:
        chosen = [i for i in range(1, len(values)) if values[i] >= cutoff]
    if top is not None and len(chosen) > top:
        least = sorted((values[i] for i in chosen), reverse=True)[top - 1] if top else float("inf")
        chosen = [i for i in chosen if values[i] >= least]  # ties at the edge kept: the order decides below
    counts = [n for _code, n in sorted(Counter(rack_codes).items())]
    sizes = _subset_sizes(counts, len(values)) if len(chosen) > 16 else None
    out: list[tuple[float, int, Any]] = []
    for index in chosen:
        if sizes is not None:
            size = sizes[index]
        else:
            size, rest = 0, index
            for count in counts:  # the mixed-radix digits: how many of each code go back
                rest, used = divmod(rest, count + 1)
                size += used
        value = values[index]
        out.append((value, size << 24 | index, partial(_exchange_move, game, rack_codes, index, value)))
    if top is not None and len(out) > top:
        out.sort(key=lambda e: (-e[0], e[1]))
        del out[top:]
    return out


def _subset_sizes(counts: list[int], size: int) -> list[int]:
    """The number of tiles of each subset of a rack, in index order (an odometer over the digits)."""
    digits = [0] * len(counts)
    out = [0] * size
    used = 0
    for index in range(size):
        out[index] = used
        for d, count in enumerate(counts):
            if digits[d] < count:
                digits[d] += 1
                used += 1
                break
            used -= digits[d]
            digits[d] = 0
    return out


def _exchange_move(game: Game, rack_codes: list[int], index: int, value: float) -> Move:
    exchanged: list[int] = []
    for code, count in sorted(Counter(rack_codes).items()):  # the mixed-radix digits: how many of each go back
        index, used = divmod(index, count + 1)
        exchanged.extend([code] * used)
    left = Counter(rack_codes)
    left.subtract(exchanged)
    text = rack_text(game, exchanged)
    return Move("exchange", 0, rack_text(game, list(left.elements())), notation="-" + text, exchanged=text,
                equity=value)
