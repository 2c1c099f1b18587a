"""The engine interface: every hot loop of an open lexicon, under one set of names, in C or in Python.

An :class:`Engine` is chosen once, when a lexicon opens
(:func:`lexigraph.engine.open_engine`): :class:`~lexigraph.engine.compiled.CompiledEngine`
runs the C extension ``lexigraph._native``, :class:`~lexigraph.engine.python.PythonEngine`
its pure-Python and NumPy twins, which tests hold to the same answers. The
lexicon holds the engine and hands it to every query and every job, which
call its methods and never ask which implementation they got. Where the
two differ is cost, not answers; the planners that choose between a graph
walk and a column scan ask the engine's cost model
(:meth:`Engine.rack_walk_pays`, :attr:`Engine.pattern_walk_pays`).

The ``quick_*`` methods answer a whole common query in one call when the
engine can (the C engine, once it has checked the word graph against the
buckets), and return None otherwise: the caller then takes the general
path, which gives the same answer.

Every method whose work grows with the lexicon (the walks, the exact
anagrams, the one-call answers) takes a ``deadline`` (keyword-only, except
for the one-call answers, which the C engine binds to C methods that take
positional arguments only): a
:func:`time.monotonic` value, or None for no limit. Past it the method
raises :class:`~lexigraph.errors.DeadlineExceeded` (:mod:`lexigraph.engine.deadline`);
the C engine's loops read the same clock every few thousand steps. That
argument is the one way a deadline travels: the server hands it to the
command, the command to the :class:`~lexigraph.Lexicon` method, the method
to the query, the query to the engine.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol

from ..errors import QueryError, ResourceBusy

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

#: What :meth:`Engine.id_of_word` answers when the word must first be encoded in Python.
UNDECIDED = -2
#: In a move record's square byte, the bit that marks a blank (the tile code is in the other bits).
BLANK_FLAG = 0x80
#: Bytes per move record: int32 score, row, column, across (1/0), length of the main word, float64 equity,
#: then a byte per square.
MOVE_RECORD_SIZE = 48
#: Longest main word a move record holds, in squares.
MOVE_RECORD_SQUARES = MOVE_RECORD_SIZE - 16
#: Most tiles of a leave a leave table's key holds (6 bits a tile, the length in the top 4 bits of a uint64).
LEAVE_KEY_TILES = 10
#: The three rack modes of a walk: some tiles, all of them, all and more.
RackMode = Literal["sub", "exact", "super"]
#: What :meth:`Engine.quick_cross` returns: the shared tile codes, each side's words, each side's count per tile.
CrossAnswer = tuple[bytes, list[str], list[str], list[int], list[int]]


class BoardLayout(NamedTuple):
    """A game's board, as the engines read it (``docs/games.md``): ``size`` squares a side, numbered
    ``row * size + column``; the start square; a byte per square for its letter and word multipliers; and
    ``opening_penalty``: float64s (little-endian), two per square in line coordinates (``line * size +
    position``: the across plays' squares, line = row, then the down plays', line = column), added for each vowel
    a play puts there on an empty board (empty: none; :func:`lexigraph.scrabble.equity.opening_penalties`)."""

    size: int
    start_square: int
    letter_multipliers: bytes
    word_multipliers: bytes
    opening_penalty: bytes = b""


class TileSet(NamedTuple):
    """A game's tiles, as the engines read them: a byte per tile code (index 0: the blank) for its ``points`` (at
    most 255), its ``counts`` in the bag and whether it is a vowel (``vowels``: 1; empty: none); the rack size (1
    to 15) and the bingo bonus."""

    points: bytes
    counts: bytes
    vowels: bytes
    rack_size: int
    bingo_bonus: int


class PackedLeaves(NamedTuple):
    """A leave table as the engines look leaves up (:attr:`lexigraph.scrabble.leaves.LeaveTable.packed`): sorted
    little-endian uint64 keys (:func:`leave_key`) and a float64 value each; empty: no table."""

    keys: bytes = b""
    values: bytes = b""


class GameSpec(NamedTuple):
    """What a game's tables are made of, apart from any lexicon: plain bytes and numbers (they pickle, so a run
    hands them to its workers), from which each engine makes its :class:`GameTables`
    (:meth:`Engine.game_tables`)."""

    layout: BoardLayout
    tiles: TileSet
    leaves: PackedLeaves = PackedLeaves()


class GameTables(Protocol):
    """A game's tables in one engine: the board layout, the tiles, a leave table and the lexicon's word graph,
    checked and parsed once (:meth:`Engine.game_tables`) and shared by every request of move generation,
    self-play, simulation and the endgame over that lexicon, game and leave table
    (:mod:`lexigraph.scrabble.tables` keeps them). The C engine's is ``lexigraph._native.GameTables``
    (``native/game_tables.h``), the Python engine's :class:`lexigraph.engine.python.tables.PythonGameTables`:
    each engine takes only its own."""

    @property
    def layout(self) -> BoardLayout: ...

    @property
    def tiles(self) -> TileSet: ...

    @property
    def leaves(self) -> PackedLeaves: ...


#: :meth:`MoveGeneratorState.generate`'s flags: rank by equity (else by score); skip the anchors that cannot make
#: the best ``top`` (plays not counted); on an empty board of a symmetric layout the down plays too; value the
#: rack's subsets from the tables' leave table (else by the values given).
GENERATE_BY_EQUITY = 1
GENERATE_PRUNE = 2
GENERATE_BOTH_DIRECTIONS = 4
GENERATE_VALUES = 8


class GeneratorAnswer(NamedTuple):
    """What :meth:`MoveGeneratorState.generate` answers: the plays kept (records of :func:`move_record_dtype`),
    the plays counted (-1 when pruned), what keeping each subset of the rack is worth (little-endian float64s in
    the mixed-radix order of :class:`MoveRequest`'s ``leave_values``, end-of-game adjustments folded in) and the
    tiles in the bag."""

    records: "np.ndarray"
    total: int
    values: bytes
    bag: int


class RankedExtras(NamedTuple):
    """:meth:`MoveGeneratorState.rank_extras`' answer: ``places``, each extra's index in the whole list
    (ascending, a little-endian int64 each), and ``ranked``, a little-endian (int64 subset, float64 value) per
    extra in rank order (equity descending, then the tie order; subset 0 is the pass)."""

    places: bytes
    ranked: bytes


class MoveGeneratorState(Protocol):
    """A move generator kept across calls for one game's tables (:meth:`Engine.move_generator`): the C engine's
    keeps the rack's values and the board's state between calls and generates without the GIL
    (``native/generator.c``); the Python engine's (:mod:`lexigraph.engine.python.move_generator`) computes the
    same answers each time."""

    def generate(self, board: "bytes | list[int]", blanks: "bytes | list[bool]", rack: bytes, other_rack: int,
                 top: int, flags: int, deadline: float | None = None, values: bytes = b"") -> GeneratorAnswer:
        """The plays for ``rack`` (a count per tile code) on ``board``/``blanks`` (as :class:`MoveRequest`'s, or a
        :class:`~lexigraph.scrabble.position.Position`'s lists),
        the bag counted from the tables' tiles less the board's, the rack's and the opponent's rack
        (``other_rack`` tiles, or -1: a full rack if the unseen tiles allow), each subset of the rack valued by the
        leave table while the bag holds tiles, else by the end-of-game adjustments (with ``GENERATE_VALUES``; else
        ``values``), the best ``top`` kept (-1: every play), with the ``GENERATE_*`` ``flags``."""

    def rank_extras(self, records: "np.ndarray", values: bytes, order: bytes, passes: bool,
                    by_equity: bool) -> "RankedExtras":
        """The exchanges and the pass ranked among ``records`` (plays ranked by equity, best first): ``values``
        as :class:`GeneratorAnswer`'s (subset 0 keeps every tile: the pass; subset ``i`` > 0 is exchanged, worth
        ``values[i]``), ``order`` a little-endian int64 per exchange (subsets 1 on; empty: none listed) breaking
        ties (lower first), the pass listed when ``passes`` (after the exchanges of its value). Each extra is
        placed after the plays of at least its equity when ``by_equity``, else after every play."""

    def best_extra(self, values: bytes, order: bytes, passes: bool) -> tuple[int, float] | None:
        """The extra :meth:`rank_extras` would rank first (the same ``values``, ``order`` and ``passes``), as
        (subset, value): the best move's question, answered without ranking the rest; None when none is listed."""


class MoveRequest(NamedTuple):
    """One move-generation problem, as the generators read it (``docs/games.md``).

    ``tables``: the game's (:class:`GameTables`); ``board`` a tile code per
    square (0 empty), ``blanks`` 1 where the board tile is a blank; ``rack``
    how many of each tile code the rack holds (index 0: blanks). A tuple
    (cheap to make: a request is made per call).

    Equity and ranking (:mod:`lexigraph.scrabble.equity` builds the values):

    * ``leave_values``: little-endian float64s, one per subset of the rack a
      play may use, indexed in mixed radix over the rack's tile codes in
      ascending order (the digit of code ``t`` counts the ``t`` tiles used;
      its place value is the product of ``count + 1`` over the codes below
      it): what keeping the rest is worth, end-of-game adjustments folded in.
      Empty: nothing (equity is the score).
    * ``opening``: on an empty board, add the tables' opening penalty of each
      square where a play puts a vowel.
    * ``top``: keep the best ``top`` plays, best first (-1: every play, in no
      particular order); ``by_equity``: rank by equity (else by score). Ties
      go across before down, then by row, column, length and the squares'
      bytes.
    * ``prune`` (with ``top`` > 0): the generator may skip the anchors whose
      best possible play cannot make the best ``top`` (a shadow bound); the
      plays kept are the same, and the count of plays is then -1.
    * ``both_directions``: on an empty board whose layout is its own
      transpose (multipliers, start square and opening penalties), every down
      play is an across play transposed, of the same value, ranked after it:
      only the across plays come (MAGPIE's and Macondo's convention), unless
      this is set.
    """

    tables: GameTables
    board: bytes
    blanks: bytes
    rack: bytes
    leave_values: bytes = b""
    top: int = -1
    by_equity: bool = True
    prune: bool = False
    opening: bool = True
    both_directions: bool = False


class SelfPlayer(NamedTuple):
    """One side of self-play, as the game loop reads it: its tables (the game's, with its leave table) and its
    rule: ``by_equity`` ranks plays by equity (score plus the value of the tiles kept in its leave table, and the
    end-of-game and opening adjustments; exchanges when an exchange keeps a leave worth more), else by score alone
    (exchanging the whole rack only when it has no play)."""

    tables: GameTables
    by_equity: bool


class SelfPlayRequest(NamedTuple):
    """Games of self-play, as the game loops read them (``docs/selfplay.md``).

    ``players``: player A and player B, their tables of one game and word
    graph. ``seed``: the run's seed; game ``i`` depends only on ``(seed,
    i)``: games ``2k`` and ``2k + 1`` share the bag order of pair ``k``, A
    moving first in the even one and B in the odd one.
    """

    players: tuple[SelfPlayer, SelfPlayer]
    seed: int


class EndgameRequest(NamedTuple):
    """One endgame (the bag empty, both racks known), as the solvers read it (``docs/games.md``).

    ``tables``, the board and its blanks as in :class:`MoveRequest`;
    ``racks``: the side to move's and the other side's tile counts per code
    (index 0: blanks), each of 1 to :data:`ENDGAME_MAX_RACK` tiles;
    ``zero_turns``: the turns without a play just made (0-5; six end the
    game); ``table_entries``: the transposition table's 16-byte entries (a
    power of two, at most :data:`ENDGAME_MAX_TABLE_MB` megabytes' worth);
    ``threads``: the threads the C solver searches on (1 to
    :data:`ENDGAME_MAX_THREADS`; the answer is the same on any number, the
    Python twin searches on one).
    """

    tables: GameTables
    board: bytes
    blanks: bytes
    racks: tuple[bytes, bytes]
    zero_turns: int
    table_entries: int
    threads: int = 1


class EndgameAnswer(NamedTuple):
    """What an endgame solver answers: the value (the spread from here to the end, the side to move's view),
    whether the search finished (False: stopped at its deadline, the best found so far), the depth of the last
    finished iteration, the nodes searched, and the principal variation as move records
    (:func:`move_record_dtype`; a pass has length 0), the best move first. Per thread of the search (the main
    thread first; the Python twin's one): ``thread_nodes``, the nodes it searched until the answer (the
    principal variation's walk not counted), and ``thread_cpu_seconds``, its CPU time there."""

    value: int
    complete: bool
    depth: int
    nodes: int
    pv: "np.ndarray"
    thread_nodes: tuple[int, ...] = ()
    thread_cpu_seconds: tuple[float, ...] = ()


#: Most tiles on either rack of an endgame the solvers take.
ENDGAME_MAX_RACK = 16
#: Largest transposition table of the endgame solver, in megabytes.
ENDGAME_MAX_TABLE_MB = 4096
#: Bytes per entry of the endgame solver's transposition table.
ENDGAME_ENTRY_BYTES = 16
#: Most threads one endgame searches on (``native/endgame.c``'s LX_ENDGAME_MAX_THREADS).
ENDGAME_MAX_THREADS = 64


def endgame_table_busy(table_entries: int) -> ResourceBusy:
    """The error of an endgame whose transposition table finds no memory now (either engine): the machine's
    memory, not the lexicon or the position, is short; the same request may succeed later, or a smaller
    table now.

    >>> str(endgame_table_busy(1 << 28))
    "no memory now for the endgame's transposition table of 4,096 MB; ask for a smaller table, or try again later"
    """
    megabytes = table_entries * ENDGAME_ENTRY_BYTES >> 20
    return ResourceBusy(f"no memory now for the endgame's transposition table of {megabytes:,} MB; ask for a smaller "
                        f"table, or try again later", retry_after=30)


class SimulationRequest(NamedTuple):
    """A simulation's play-outs, as the engines read them (:mod:`lexigraph.scrabble.simulation`).

    ``tables``: the game's, with the leave table both sides play by; the
    position: ``board`` and ``blanks`` (a byte per square), ``rack`` (a count
    per tile code) of the side to move, ``unseen`` (a count per code: the
    opponent's rack and the bag), ``opponent_tiles`` (the opponent's rack
    size), ``zero_turns`` (the consecutive zero-score turns so far);
    ``candidates`` :data:`SIMULATION_CANDIDATE_SIZE` bytes each
    (:func:`simulation_candidate`); ``plies`` the turns played after the
    candidate; ``seed`` the run's seed (iteration ``i`` deals the unseen tiles
    from ``(seed, i)`` alone, ``native/playouts.c`` says how).
    ``opponent_leaves`` and ``leave_weights``: the leaves the opponent's rack
    starts from, inferred from their last move (a count per tile code each,
    ``len(rack)`` bytes per leave) and their cumulative weights (little-endian
    uint64, strictly increasing); each iteration picks one by weight from its
    own random numbers and fills the rack from the other unseen tiles. Empty
    (the default): the whole rack is drawn.
    """

    tables: GameTables
    board: bytes
    blanks: bytes
    rack: bytes
    unseen: bytes
    opponent_tiles: int
    zero_turns: int
    candidates: bytes
    plies: int
    seed: int
    opponent_leaves: bytes = b""
    leave_weights: bytes = b""


#: Most threads one self-play or play-out call runs on (``native/threads.h``'s ``LX_MAX_THREADS``; as many as
#: :data:`lexigraph.support.workers.MAX_WORKERS` allows processes).
MAX_THREADS = 256


def check_threads(threads: object) -> int:
    """``threads`` for :meth:`Engine.play_games` and :meth:`Engine.simulate_plays`, checked: a whole number from 1
    to :data:`MAX_THREADS` (a :class:`~lexigraph.errors.QueryError` otherwise).

    >>> check_threads(2)
    2
    >>> check_threads(0)
    Traceback (most recent call last):
    ...
    lexigraph.errors.QueryError: threads must be a whole number from 1 to 256, not 0
    """
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise QueryError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {threads!r}")
    return threads


#: Bytes per simulation candidate (:func:`simulation_candidate`) and per play-out result
#: (:func:`simulation_result_dtype`); the most plies a play-out takes after its candidate.
SIMULATION_CANDIDATE_SIZE = 64
SIMULATION_RESULT_SIZE = 16
SIMULATION_MAX_PLIES = 64


def simulation_candidate(kind: int, score: int, squares: Sequence[int], tiles: Sequence[int]) -> bytes:
    """One candidate as the play-outs read it: ``kind`` (:data:`TURN_PLAY`, :data:`TURN_EXCHANGE`,
    :data:`TURN_PASS`), the play's score, its new tiles' squares (``row * size + col``) and tiles (the code,
    :data:`BLANK_FLAG` for a blank); for an exchange, ``tiles`` are the codes put back.

    >>> len(simulation_candidate(TURN_PLAY, 10, [112, 113], [1, 2])) == SIMULATION_CANDIDATE_SIZE
    True
    """
    if len(tiles) > 16 or len(squares) > 16:
        raise ValueError("a candidate places or puts back at most 16 tiles")
    out = bytearray(SIMULATION_CANDIDATE_SIZE)
    struct.pack_into("<BBxxi", out, 0, kind, len(tiles), score)
    struct.pack_into(f"<{len(squares)}H", out, 8, *squares)
    out[40:40 + len(tiles)] = bytes(tiles)
    return bytes(out)


def simulation_result_dtype() -> "np.dtype[np.void]":
    """The NumPy dtype of one play-out's result (little-endian), as both engines write it.

    ``value``: the side to move's points from the candidate on minus the
    opponent's, plus the value of its last leave minus the opponent's last
    leave (0 once the game has ended); ``spread``: the same without the
    leaves; ``left``: the tiles in the bag and on both racks at the end;
    ``ended``: 1 when the game ended in the play-out; ``rack_on_turn``: the
    tiles on the rack of the player on turn at the end (player 0 after an odd
    number of plies), 0 once the game has ended (so ``left - rack_on_turn``
    tiles are unseen to that player).

    >>> simulation_result_dtype().itemsize == SIMULATION_RESULT_SIZE
    True
    """
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    return np.dtype([("value", "<f8"), ("spread", "<i4"), ("left", "<u2"), ("ended", "u1"), ("rack_on_turn", "u1")])


#: Bytes per turn record of self-play (:func:`turn_record_dtype`) and per game record (:func:`game_record_dtype`).
TURN_RECORD_SIZE = 96
GAME_RECORD_SIZE = 64
#: A turn record's kinds.
TURN_PLAY, TURN_EXCHANGE, TURN_PASS = 0, 1, 2


def turn_record_dtype() -> "np.dtype[np.void]":
    """The NumPy dtype of one self-play turn (little-endian), as both game loops write it.

    ``kind`` (:data:`TURN_PLAY`, :data:`TURN_EXCHANGE`, :data:`TURN_PASS`),
    ``player`` (0: A, 1: B), ``rack`` the tiles before the turn (codes
    ascending, ``rack_length`` of them), ``bag_before`` / ``bag_after`` the
    tiles in the bag before the turn and after its draw, ``score`` and
    ``total`` (the player's, after the turn), ``equity`` (the chooser's value
    of the turn), ``leave`` the key of the tiles kept (:func:`leave_key`; 0
    for none), and for a play ``row``, ``col``, ``across`` and the main
    word's squares (as in :func:`move_record_dtype`), for an exchange the
    tiles put back (``length`` of them).

    >>> turn_record_dtype().itemsize == TURN_RECORD_SIZE
    True
    """
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    return np.dtype([("kind", "u1"), ("player", "u1"), ("rack_length", "u1"), ("length", "u1"), ("row", "u1"),
                     ("col", "u1"), ("across", "u1"), ("_pad0", "u1"), ("bag_before", "<u2"), ("bag_after", "<u2"),
                     ("score", "<i4"), ("total", "<i4"), ("_pad1", "<u4"), ("equity", "<f8"), ("leave", "<u8"),
                     ("rack", "u1", (16,)), ("squares", "u1", (MOVE_RECORD_SQUARES,)), ("_pad2", "u1", (8,))])


def game_record_dtype() -> "np.dtype[np.void]":
    """The NumPy dtype of one self-play game's result (little-endian).

    ``index`` (the game's number in its run), ``final`` (A's and B's scores,
    end adjustments included), ``adjust`` (the end's rack points, each
    player's), ``turns``, ``first`` (0: A moved first), ``ending`` (0: a
    player went out, ``out`` says which; 1: six turns without a play),
    ``racks`` (the tiles left on each rack, codes ascending, 255 after the
    last).

    >>> game_record_dtype().itemsize == GAME_RECORD_SIZE
    True
    """
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    return np.dtype([("index", "<i8"), ("final", "<i4", (2,)), ("adjust", "<i4", (2,)), ("turns", "<u2"),
                     ("first", "u1"), ("ending", "u1"), ("out", "u1"), ("_pad", "u1", (3,)),
                     ("racks", "u1", (2, 16))])


def leave_key(codes: bytes) -> int:
    """A leave's key in the engines' leave tables: its tile codes sorted, code ``i`` in bits ``6i .. 6i+5``, its
    length in bits 60-63 (codes below 64, at most :data:`LEAVE_KEY_TILES` of them).

    >>> hex(leave_key(bytes([19, 0])))     # S and a blank
    '0x20000000000004c0'
    """
    key = len(codes) << 60
    for i, code in enumerate(sorted(codes)):
        key |= code << (6 * i)
    return key


def move_record_dtype() -> "np.dtype[np.void]":
    """The NumPy dtype of one move record (little-endian), as both generators write it.

    ``equity`` is the score plus the request's leave value and adjustments;
    ``squares`` holds a byte per square of the main word: 0 for a tile already
    on the board, else the tile code, with :data:`BLANK_FLAG` for a blank.

    >>> move_record_dtype().itemsize == MOVE_RECORD_SIZE
    True
    """
    global _MOVE_RECORD
    if _MOVE_RECORD is None:
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        _MOVE_RECORD = np.dtype([("score", "<i4"), ("row", "u1"), ("col", "u1"), ("across", "u1"), ("length", "u1"),
                                 ("equity", "<f8"), ("squares", "u1", (MOVE_RECORD_SQUARES,))])
    return _MOVE_RECORD


_MOVE_RECORD: "np.dtype[Any] | None" = None


class FillState(Protocol):
    """A grid's candidates and cell domains kept arc consistent as a fill decides, with a trail to undo.

    The fill's hot loop (see :mod:`lexigraph.crossword.fill`). Operations
    return -1 (consistent), -2 (past ``deadline``, a ``time.monotonic()``
    value) or the slot left without candidates; after anything but -1 the
    caller undoes to a mark taken before. Memory: the C state holds a bit per
    row of its bucket for each slot and, per length, the rows holding each tile
    at each position; the Python twin at most one copy of each slot's starting
    candidates. Both keep a trail no longer than the changes they allow.
    """

    #: A taken word or run is struck at once from the slots with at most this many candidates.
    eager_limit: int

    @property
    def filters(self) -> int:
        """Filtering passes run so far."""

    @property
    def trail_length(self) -> int:
        """Changes held for :meth:`undo`."""

    @property
    def owned_bytes(self) -> int:
        """Bytes of candidate rows copied so far."""

    def propagate(self, queue: Mapping[int, Iterable[int] | None], singles: Sequence[int],
                  deadline: float | None) -> int:
        """Filter from the slots in ``queue`` (slot -> positions whose domain shrank; ``None``: all) after
        taking the words of ``singles`` (slots left with one candidate)."""

    def assign(self, slot: int, row: int, deadline: float | None) -> int:
        """The slot takes the word ``row`` (one of its candidates); propagate."""

    def exclude(self, slot: int, row: int, deadline: float | None) -> int:
        """Strike the word ``row`` from the slot's candidates; propagate."""

    def set_tile(self, cell: int, code: int, deadline: float | None) -> int:
        """The cell takes the tile ``code``; propagate."""

    def exclude_tile(self, cell: int, code: int, deadline: float | None) -> int:
        """Strike the tile ``code`` from the cell's domain; propagate."""

    def set_nogoods(self, packed: "np.ndarray") -> None:
        """The branches of interrupted runs that :meth:`apply_nogoods` reads, checked once.

        ``packed`` (int32): branch after branch, its number of decisions, then a
        ``(flags, var, value)`` triple per decision (flags bit 0: taken, else a
        refutation; bit 1: a cell's tile, else a slot's word)."""

    def apply_nogoods(self, blame: int, deadline: float | None) -> int:
        """Strike what the nogood branches prove under the decisions that hold now.

        A branch is read while its taken decisions hold; a refutation met on the
        way whose value is still possible is struck and propagated (then the
        branches are read again), and one that holds ends the call: the result
        is then the slot to blame (the refuted slot; for a cell, ``blame``, or
        when negative the cell's first slot). -1 when nothing is left to strike."""

    def mark(self) -> int:
        """The trail's length, for :meth:`undo`."""

    def undo(self, mark: int) -> None:
        """Unwind every change made since ``mark``."""

    def sizes(self) -> list[int]:
        """Each slot's number of candidates."""

    def singles(self) -> list[int]:
        """Each slot's one candidate row, or -1 when it has more or none."""

    def candidates(self, slot: int) -> "np.ndarray":
        """The slot's candidate rows, ascending (int32)."""

    def best_row(self, slot: int, keys: "np.ndarray", crossings: "np.ndarray", room: "np.ndarray",
                 taken: Sequence[int]) -> int:
        """The slot's candidate (other than the rows in ``taken``, unless those are all it has) with the
        highest ``keys[row]`` plus, for each crossing ``(j, t, k)`` (an int32 triple of ``crossings``)
        whose slot ``t`` has several candidates, ``room[n]``, ``n`` being the candidates of ``t`` with the
        row's tile at position ``k``; the lowest row among equals. ``keys`` holds a float64 per row of the
        slot's bucket; ``room`` a float64 per count, up to the largest bucket's size."""

    def counts(self, slot: int, position: int) -> "np.ndarray":
        """The slot's candidates per tile code at ``position`` (int32, at least 64 entries)."""

    def has(self, slot: int, row: int) -> bool:
        """Whether the row is one of the slot's candidates."""

    def domain(self, cell: int) -> int:
        """The tiles the cell may still hold (bit mask)."""

    def domains(self) -> list[int]:
        """Every cell's domain."""


#: ``eager_limit`` that strikes a taken word from every slot at once (exact propagation, for counting).
EAGER_ALWAYS = 1 << 62


@dataclass(frozen=True)
class PropagationProblem:
    """What a :class:`FillState` is built from: the slots, their cells, their candidate rows and the rules.

    ``rows[s]``: the length bucket of slot ``s`` as a ``(count, length)`` uint8
    array; ``slot_cells[s]``: its cell ids; ``cell_slots[c]``: the ``(slot,
    position)`` pairs through cell ``c``; ``complete[s]``: 1 when slot ``s``
    must become a word; ``fixed[s]``: 1 when the grid gives its whole word;
    ``same_length[s]``: the complete slots of its length (no repeats among
    them unless ``allow_repeats``). ``max_shared``: 0, or N: no two entries
    share a run of N tiles (two given entries excepted), nor an entry and a
    word of ``given_words`` (tile codes of whole words outside the slots).
    A word or run taken by a slot is struck at once from the slots with at
    most ``eager_limit`` candidates, and from the others when they are next
    filtered (a faster search; :data:`EAGER_ALWAYS` strikes it everywhere).
    """

    rows: list["np.ndarray"]
    slot_cells: list[list[int]]
    cell_slots: list[list[tuple[int, int]]]
    complete: bytes
    fixed: bytes
    same_length: list[list[int]]
    allow_repeats: bool
    max_shared: int = 0
    eager_limit: int = EAGER_ALWAYS
    given_words: list[bytes] = field(default_factory=list)


class Engine(Protocol):
    """The hot loops of one open lexicon; :mod:`lexigraph.engine` documents both implementations."""

    #: ``"c"`` or ``"python"``: what ``lexigraph info`` reports.
    kind: Literal["c", "python"]
    #: What the lexicon's C ``Facade`` base answers ``in`` with: the C probe, or None (``in`` in Python).
    facade_probe: object

    @property
    def pattern_walk_pays(self) -> bool:
        """Whether a pattern walk of the graph beats the bucket scan for patterns that open with a tile.

        Never on a graph that does not spell the buckets' words: the scan answers instead.
        """

    # -- the word graph against the buckets ------------------------------------------

    def check_consistent(self) -> None:
        """Raise :class:`~lexigraph.errors.FileFormatError` unless the graph spells exactly the buckets' words.

        Checked once; every walk and every job that reads the graph asks first.
        """

    def graph_spells_the_buckets(self) -> bool:
        """:meth:`check_consistent` as a yes or no: whether queries may walk the graph."""

    # -- exact lookups -----------------------------------------------------------

    def id_of_codes(self, key: bytes) -> int:
        """The word id of the tile codes ``key``, or -1."""

    def id_of_word(self, word: str) -> int:
        """The word id of ``word`` when the engine encodes words itself; -1 absent; :data:`UNDECIDED` otherwise."""

    def check_words(self, words: list[object], contains: Callable[[object], bool]) -> "np.ndarray":
        """One boolean per word; ``contains`` answers a word the batch cannot decide (the facade's ``in``)."""

    # -- walks of the word graph (alphabetical order) ---------------------------------

    def rack_walk_pays(self, blanks: int, mode: RackMode) -> bool:
        """Whether the rack walk beats the column scan for a rack with ``blanks`` blanks."""

    def rack_ids(self, codes: bytes, blanks: int, *, mode: RackMode, through: bytes, min_length: int,
                 max_length: int, deadline: float | None = None) -> "np.ndarray":
        """Ids of the words a rack makes (``through``: tiles every word must also use), alphabetical."""

    def rack_words(self, codes: bytes, blanks: int, *, mode: RackMode, through: bytes, min_length: int,
                   max_length: int, deadline: float | None = None) -> list[str]:
        """The words :meth:`rack_ids` finds, decoded."""

    def pattern_ids(self, cells: Sequence[bytes], min_length: int, max_length: int, limit: int = -1, *,
                    deadline: float | None = None) -> "np.ndarray":
        """Ids of the words of ``min_length .. max_length`` tiles whose first tiles fit ``cells``, alphabetical.

        ``cells[i]`` holds the codes position ``i`` allows; later positions
        allow any tile; ``limit`` stops after that many (-1: all).
        """

    def pattern_words(self, cells: Sequence[bytes], min_length: int, max_length: int, limit: int = -1, *,
                      deadline: float | None = None) -> list[str]:
        """The words :meth:`pattern_ids` finds, decoded."""

    def exact_anagram_ids(self, codes: bytes, blanks: int, *, deadline: float | None = None) -> "np.ndarray":
        """Ids of the words whose tiles are exactly ``codes`` plus ``blanks`` tiles of any kind, ascending.

        The alphagram index is checked on first use (a permutation of the
        bucket's rows, in alphagram order): a forged one is a
        :class:`~lexigraph.errors.FileFormatError`, never an answer that is
        not an anagram of the rack.
        """

    # -- one-call answers (None: the general path answers) ------------------------------

    def quick_exact_anagrams(self, rack: str, deadline: float | None = None) -> list[str] | None:
        """Exact anagrams of a plain rack (``?`` blanks), alphabetical."""

    def quick_rack_words(self, rack: str, min_length: int, mode: RackMode,
                         deadline: float | None = None) -> list[str] | None:
        """Sub- or super-anagrams of a plain rack, alphabetical."""

    def quick_prefix_words(self, prefix: str, min_length: int, max_length: int,
                           deadline: float | None = None) -> list[str] | None:
        """Words starting with ``prefix`` with lengths in range, alphabetical."""

    def quick_pattern_words(self, pattern: str, deadline: float | None = None) -> list[str] | None:
        """Words matching a pattern of the pattern language, alphabetical (unscored lists)."""

    def quick_cross(self, pattern_a: str, pos_a: int, pattern_b: str, pos_b: int,
                    deadline: float | None = None) -> CrossAnswer | None:
        """The crossing of two fixed-length patterns (see :meth:`lexigraph.Lexicon.cross`)."""

    # -- the jobs' kernels ---------------------------------------------------------------

    def game_tables(self, spec: GameSpec) -> GameTables:
        """The game's tables over this lexicon's word graph, checked once (a
        :class:`~lexigraph.errors.FileFormatError` when they do not fit together, or when the graph is not one the
        jobs may walk): the one argument every job's request shares."""

    def generate_moves(self, request: MoveRequest, deadline: float | None = None) -> "tuple[np.ndarray, int]":
        """The plays for the rack as records of :func:`move_record_dtype`, and how many plays there are (-1 with
        ``request.prune``: not counted).

        Every play in no particular order (``request.top`` -1), or the best
        ``request.top`` best first. One-tile plays come once (as the across
        play when they make an across word). ``size`` may be at most
        ``MAX_BOARD_SIZE`` (26). Past ``deadline`` (a :func:`time.monotonic`
        value) it raises :class:`~lexigraph.errors.DeadlineExceeded`.
        """

    def move_generator(self, tables: GameTables) -> MoveGeneratorState:
        """A move generator for ``tables`` (this engine's), kept by the caller across calls
        (:func:`lexigraph.scrabble.movegen.generator_for` keeps one per lexicon, game and leave table)."""

    def play_games(self, request: SelfPlayRequest, first: int, count: int,
                   threads: int = 1) -> "tuple[np.ndarray, np.ndarray]":
        """Games ``first .. first + count - 1`` of the run ``request.seed``, each played to its end: their turns
        (:func:`turn_record_dtype`, game by game, in order) and results (:func:`game_record_dtype`).

        ``threads`` (1 to :data:`MAX_THREADS`): the C engine plays the games
        on that many threads of this process, the GIL released; a game
        depends only on the seed and its number, so the records are the same
        bytes on any number of threads (the Python twin plays them in turn)."""

    def solve_endgame(self, request: EndgameRequest, deadline: float | None = None) -> EndgameAnswer:
        """The exact endgame (see :mod:`lexigraph.scrabble.endgame`): negamax with alpha-beta, iterative deepening
        and a transposition table; past ``deadline`` (a :func:`time.monotonic` value) the best found so far,
        ``complete`` False. Among the best moves the answer names the first by score (descending), then across
        before down, row, column, length and the squares' bytes, the pass last: both engines name the same."""

    def endgame_stuck_tiles(self, request: EndgameRequest) -> tuple[bytes, bytes]:
        """Each rack's stuck tiles (a count per tile code, index 0: blanks): the tiles of the side's rack that no
        play of that rack on the request's board puts down. The endgame's move order weighs them."""

    def simulate_plays(self, request: SimulationRequest, first: int, count: int,
                       deadline: float | None = None, threads: int = 1) -> "np.ndarray":
        """The play-outs of iterations ``first .. first + count - 1`` for every candidate of ``request``: an array
        of :func:`simulation_result_dtype` of shape ``(iterations, candidates)``. Past ``deadline`` it stops
        between iterations and answers the iterations done (fewer rows: always the first ones).

        ``threads`` (1 to :data:`MAX_THREADS`): the C engine plays the
        iterations on that many threads, the GIL released, with the same bytes
        as one thread (an iteration depends only on the seed and its number);
        the Python twin plays them in turn."""

    def rack_leave_values(self, keys: bytes, values: bytes, rack: bytes) -> bytes:
        """What keeping the rest of ``rack`` (a count per tile code) is worth, for each subset a play may use.

        ``keys`` and ``values``: a leave table as sorted uint64 keys and a
        float64 each (:attr:`lexigraph.scrabble.leaves.LeaveTable.packed`).
        Returns little-endian float64s indexed as :attr:`MoveRequest.leave_values`
        (0 for a leave the table does not list).
        """

    def filter_rows(self, rows: "np.ndarray", candidates: "np.ndarray", masks: Sequence[int],
                    check: Sequence[int] | None) -> tuple["np.ndarray", list[int]]:
        """The candidate rows whose tile at each position ``check`` names its mask allows, and the tiles they use."""

    def fill_state(self, problem: PropagationProblem, candidates: Sequence["np.ndarray"],
                   domains: Sequence[int]) -> FillState:
        """The fill state of one grid: each slot's starting candidate rows, each cell's domain."""

    def close(self) -> None:
        """Release what the engine holds of the mapped file."""
