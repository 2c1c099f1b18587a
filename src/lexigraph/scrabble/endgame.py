"""The exact endgame: the bag empty, both racks known, the best play and its value by search.

Once the bag is empty nothing is hidden: the side to move holds
``position.racks[0]``, the other side ``position.racks[1]``, which must be
exactly the unseen tiles (:meth:`~lexigraph.scrabble.position.Position.unseen`).
The game goes on by the rules of ``docs/games.md`` (those of self-play):
each turn a play or a pass; a play that empties a rack ends the game and
gains twice the points left on the other rack; six turns in a row without a
play (the position's zero-score turns included) end it with each side
losing the points on its own rack.

:func:`solve_endgame` finds the **value** (the spread from here to the end:
the side to move's points from now on minus the other's, end adjustments
included) under best play by both, the best move and the principal
variation, by negamax with alpha-beta pruning, iterative deepening, move
ordering (the transposition table's move, the plays that go out, then
score) and a transposition table of fixed size (``table_megabytes``, at most
:data:`~lexigraph.engine.interface.ENDGAME_MAX_TABLE_MB`). It runs in the
lexicon's engine (:meth:`lexigraph.engine.interface.Engine.solve_endgame`):
C (``native/endgame.c``, move generation by the C generator) or its Python
twin, which name the same value and the same best move (among equal ones,
the first by score, then across before down, row, column, tiles; the pass
last). With ``time_limit`` the answer is the best found so far, and says so
(``complete`` False).

>>> import lexigraph
>>> from lexigraph.scrabble.game import Game
>>> lex = lexigraph.load(["cat", "cats", "scat", "at", "as", "ta", "za", "zas"])
>>> tiny = Game.from_dict({"name": "tiny", "board": ["....."] * 5, "rack_size": 3, "blanks": 0,
...                        "tiles": {"a": [2, 1], "c": [1, 3], "s": [1, 1], "t": [1, 1], "z": [1, 10]}})
>>> solution = solve_endgame(lex, Position.from_cgp("5/5/1CAT1/5/5 ZA/S 0/0 0", tiny))
>>> solution.value, solution.complete, solution.best.notation, solution.best.score   # out: 24 + 2 x 1
(26, True, '2C ZA', 24)
>>> solve_endgame(lex, Position.from_cgp("5/5/1CAT1/5/5 ZA/T 0/0 0", tiny))
Traceback (most recent call last):
...
lexigraph.scrabble.game.GameError: the opponent's rack T is not the unseen tiles S
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine.interface import (
    ENDGAME_ENTRY_BYTES, ENDGAME_MAX_RACK, ENDGAME_MAX_TABLE_MB, ENDGAME_MAX_THREADS, EndgameRequest,
)
from .game import GameError
from .movegen import aligned
from .moves import Move, move_from_record
from .position import Position
from .tables import game_tables
from .tiles import parse_rack, rack_text

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Engines
    from .runs import Run

__all__ = ["DEFAULT_TABLE_MB", "MAX_TIME_LIMIT", "EndgameSolution", "solve_endgame", "stuck_tiles"]

#: The transposition table's size when none is given, in megabytes.
DEFAULT_TABLE_MB = 64
#: The longest time limit taken, in seconds (a day).
MAX_TIME_LIMIT = 86400.0
#: Turns without a play that end a game.
ZERO_TURNS_TO_END = 6


@dataclass
class EndgameSolution:
    """The answer of :func:`solve_endgame`.

    ``value``: the spread from here to the end, from the side to move's view
    (exact when ``complete``); ``best``: the best move (None: pass);
    ``pv``: the principal variation, ``best`` first (each side's moves in
    turn; None for a pass); ``depth``: the plies of the last finished
    iteration; ``nodes``: positions searched; ``seconds``: the solve's time.
    Per thread of the search, the main thread first (what a loaded machine's
    wall time cannot say): ``thread_nodes``, the nodes it searched until the
    answer (the principal variation's walk not counted), and
    ``thread_cpu_seconds``, its CPU time there. Neither is in the JSON
    document.
    """

    value: int
    complete: bool
    best: Move | None
    pv: list[Move | None] = field(default_factory=list)
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    table_megabytes: int = DEFAULT_TABLE_MB
    thread_nodes: tuple[int, ...] = ()
    thread_cpu_seconds: tuple[float, ...] = ()

    def as_dict(self) -> dict[str, object]:
        """The JSON document: moves as the ``moves`` command renders them, a pass as ``{"kind": "pass"}``."""
        return {"value": self.value, "complete": self.complete, "best": _move_dict(self.best),
                "pv": [_move_dict(m) for m in self.pv], "depth": self.depth, "nodes": self.nodes,
                "seconds": round(self.seconds, 4), "table_megabytes": self.table_megabytes}


def _move_dict(move: Move | None) -> dict[str, Any]:
    return {"kind": "pass"} if move is None else move.to_dict()


def check_time_limit(time_limit: object) -> float | None:
    """``time_limit`` as seconds (None: none), or a :class:`GameError` for anything but a number in
    ``(0, MAX_TIME_LIMIT]``."""
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
        raise GameError(f"the time limit must be a number of seconds, not {type(time_limit).__name__}")
    seconds = float(time_limit)
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_TIME_LIMIT):
        raise GameError(f"the time limit must be more than 0 and at most {MAX_TIME_LIMIT:g} seconds, not {time_limit}")
    return seconds


def table_entries(table_megabytes: object) -> int:
    """The transposition table's entries for ``table_megabytes`` (a power of two; a :class:`GameError` outside
    1 .. ENDGAME_MAX_TABLE_MB)."""
    if isinstance(table_megabytes, bool) or not isinstance(table_megabytes, int) or not (
            1 <= table_megabytes <= ENDGAME_MAX_TABLE_MB):
        raise GameError(f"the table size must be a whole number of megabytes from 1 to {ENDGAME_MAX_TABLE_MB}, "
                        f"not {table_megabytes!r}")
    return 1 << ((table_megabytes << 20) // ENDGAME_ENTRY_BYTES).bit_length() - 1


def check_threads(threads: object) -> int:
    """``threads`` as a count, or a :class:`GameError` for anything but a whole number from 1 to
    :data:`~lexigraph.engine.interface.ENDGAME_MAX_THREADS`.

    >>> check_threads(2)
    2
    >>> check_threads(0)
    Traceback (most recent call last):
    ...
    lexigraph.scrabble.game.GameError: the threads must be a whole number from 1 to 64, not 0
    """
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= ENDGAME_MAX_THREADS:
        raise GameError(f"the threads must be a whole number from 1 to {ENDGAME_MAX_THREADS}, not {threads!r}")
    return threads


def endgame_racks(position: Position) -> tuple[list[int], list[int]]:
    """The two racks' tile codes, checked: both hold tiles, the other side's is exactly the unseen tiles (the bag
    is empty), neither is longer than the game's rack; else a :class:`GameError` that says which."""
    game = position.game
    if position.zero_turns >= ZERO_TURNS_TO_END:
        raise GameError(f"the game is over: {position.zero_turns} turns in a row without a play")
    over = position.overdrawn()
    if over:
        raise GameError(f"the board and rack hold more tiles than the {game.name} bag: {', '.join(over)}")
    mine = parse_rack(game, position.racks[0])
    theirs = parse_rack(game, position.racks[1])
    if not mine:
        raise GameError("the side to move has no tiles: the game is over")
    unseen = position.unseen()
    rack_size = min(game.rack_size, ENDGAME_MAX_RACK)
    if len(unseen) > rack_size and len(unseen) > len(theirs):
        raise GameError(_bag_not_empty(len(unseen), len(theirs), rack_size))
    if not theirs:
        raise GameError(f"the opponent's rack is not given: with the bag empty, the unseen tiles are their rack "
                        f"({rack_text(game, unseen)}); give it as the CGP's second rack (after the side to move's "
                        f"and a slash)")
    if Counter(theirs) != Counter(unseen):
        raise GameError(f"the opponent's rack {rack_text(game, theirs)} is not the unseen tiles "
                        f"{rack_text(game, unseen) or '(none)'}")
    for who, rack in (("the side to move's", mine), ("the opponent's", theirs)):
        if len(rack) > min(game.rack_size, ENDGAME_MAX_RACK):
            raise GameError(f"{who} rack holds {len(rack)} tiles, more than the rack size "
                            f"({min(game.rack_size, ENDGAME_MAX_RACK)})")
    return mine, theirs


def _bag_not_empty(unseen: int, theirs: int, rack_size: int) -> str:
    """Why a position with more unseen tiles than a rack holds is no endgame: the tiles the board and the
    side to move's rack leave unseen are the opponent's rack and the bag.

    >>> _bag_not_empty(89, 0, 7)
    "the bag is not empty: the board and the side to move's rack leave 89 tiles unseen, more than the opponent's rack holds (7), so at least 82 are in the bag; an endgame starts once the bag is empty (the unseen tiles are then the opponent's rack)"
    """
    if theirs:
        where = f"{unseen} tiles are unseen, the opponent's {theirs} and {unseen - theirs} in the bag"
    else:
        where = (f"the board and the side to move's rack leave {unseen} tiles unseen, more than the opponent's rack "
                 f"holds ({rack_size}), so at least {unseen - rack_size} are in the bag")
    return (f"the bag is not empty: {where}; an endgame starts once the bag is empty (the unseen tiles are then "
            f"the opponent's rack)")


def solve_endgame(engines: "Engines", position: Position, *, time_limit: float | None = None,
                  table_megabytes: int = DEFAULT_TABLE_MB, deadline: float | None = None,
                  threads: int = 1) -> EndgameSolution:
    """The best play of an endgame and its value, by exact search (see the module docstring).

    ``position``: a :class:`Position` whose second rack is the opponent's,
    the bag empty. ``time_limit`` (seconds) or ``deadline`` (a
    :func:`time.monotonic` value, the server's): stop there and answer the
    best found so far, ``complete`` False. ``table_megabytes``: the
    transposition table's memory (at most
    :data:`~lexigraph.engine.interface.ENDGAME_MAX_TABLE_MB`). ``threads``:
    the C solver searches on that many threads sharing its table (ABDADA:
    a thread puts off a move whose child another thread is searching; an
    iteration that only the helpers' depth-limited bounds cut is searched
    again at the same depth without them, so the main thread ends at one
    thread's depth; the value and the best move are those of one thread;
    the Python twin searches on one). Bad input is a :class:`GameError`.

    >>> import lexigraph
    >>> from lexigraph.scrabble.game import Game
    >>> lex = lexigraph.load(["cat", "cats", "scat", "at", "as", "ta", "za", "zas"])
    >>> tiny = Game.from_dict({"name": "tiny", "board": ["....."] * 5, "rack_size": 3, "blanks": 0,
    ...                        "tiles": {"a": [2, 1], "c": [1, 3], "s": [1, 1], "t": [1, 1], "z": [1, 10]}})
    >>> doc = solve_endgame(lex, Position.from_cgp("5/5/1CAT1/5/5 S/ZA 0/0 0", tiny), time_limit=5).as_dict()
    >>> doc["value"], doc["complete"], [m.get("notation", "pass") for m in doc["pv"]]
    (28, True, ['3A S(CAT)'])
    """
    if not isinstance(position, Position):
        raise GameError(f"a position must be a Position, not {type(position).__name__}")
    seconds = check_time_limit(time_limit)
    entries = table_entries(table_megabytes)
    threads = check_threads(threads)
    pos = aligned(engines, position)
    mine, theirs = endgame_racks(pos)
    game = pos.game
    started = time.monotonic()
    stop = None if seconds is None else started + seconds
    if deadline is not None:
        stop = deadline if stop is None else min(stop, deadline)
    request = _request(engines, pos, mine, theirs, entries, threads)
    answer = engines.engine.solve_endgame(request, stop)
    elapsed = time.monotonic() - started
    pv = _moves_of(position if position.game is game else pos, [mine, theirs], answer.pv)
    return EndgameSolution(answer.value, answer.complete, pv[0] if pv else None, pv, answer.depth, answer.nodes,
                           elapsed, table_megabytes, tuple(answer.thread_nodes), tuple(answer.thread_cpu_seconds))


def _request(engines: "Engines", pos: Position, mine: list[int], theirs: list[int], entries: int,
             threads: int) -> EndgameRequest:
    """The engine's request for the (aligned) position: the racks as counts per tile code."""
    n_codes = len(pos.game.alphabet) + 1
    counts = []
    for rack in (mine, theirs):
        row = bytearray(n_codes)
        for c in rack:
            row[c] += 1
        counts.append(bytes(row))
    return EndgameRequest(game_tables(engines, pos.game), bytes(pos.codes), bytes(pos.blanks),
                          (counts[0], counts[1]), pos.zero_turns, entries, threads)


def stuck_tiles(engines: "Engines", position: Position) -> tuple[str, str]:
    """Each rack's stuck tiles (the side to move's, the opponent's): the tiles that no play of that rack on the
    position's board puts down. The endgame solver's move order weighs them: a side whose tiles are stuck cannot
    go out while the board stays as it is. Racks as :func:`~lexigraph.scrabble.tiles.rack_text` writes them.

    >>> import lexigraph
    >>> from lexigraph.scrabble.game import Game
    >>> lex = lexigraph.load(["cat", "cats", "scat", "at", "as", "ta", "zzz"])   # no word takes one Z
    >>> tiny = Game.from_dict({"name": "tiny", "board": ["....."] * 5, "rack_size": 3, "blanks": 0,
    ...                        "tiles": {"a": [2, 1], "c": [1, 3], "s": [1, 1], "t": [1, 1], "z": [1, 10]}})
    >>> stuck_tiles(lex, Position.from_cgp("5/5/1CAT1/5/5 ZA/S 0/0 0", tiny))
    ('Z', '')
    """
    if not isinstance(position, Position):
        raise GameError(f"a position must be a Position, not {type(position).__name__}")
    pos = aligned(engines, position)
    mine, theirs = endgame_racks(pos)
    request = _request(engines, pos, mine, theirs, 1, 1)
    out = engines.engine.endgame_stuck_tiles(request)
    mine_stuck, theirs_stuck = ([c for c, n in enumerate(row) for _ in range(n)] for row in out)
    return rack_text(pos.game, mine_stuck), rack_text(pos.game, theirs_stuck)


def _moves_of(position: Position, racks: list[list[int]], records: Any) -> list[Move | None]:
    """The PV's records as moves, each made from its side's rack on the board the moves before it left."""
    pos = position.copy()
    racks = [list(racks[0]), list(racks[1])]
    out: list[Move | None] = []
    side = 0
    for r in records:
        length = int(r["length"])
        if length == 0:
            out.append(None)
        else:
            squares = bytes(r["squares"][:length])
            raw = (int(r["score"]), int(r["row"]), int(r["col"]), int(r["across"]), squares)
            move = move_from_record(pos, racks[side], raw)
            out.append(move)
            pos = pos.with_play(move)
            left = Counter(racks[side])
            left.subtract(0 if b & 0x80 else b for b in squares if b)
            racks[side] = sorted(left.elements())
        side = 1 - side
    return out


def first_endgame(run: "Run", k: int, *, most_tiles: int | None = None) -> Position | None:
    """The position of the ``k``-th game of a self-play run (:func:`lexigraph.scrabble.selfplay.autoplay` with
    ``keep_games=True``) at its first turn with the bag empty (and, with ``most_tiles``, at most that many tiles
    on the two racks together): the board, the mover's rack first and the other's, the scores and the turns
    without a play; None when the game ended before.

    >>> import lexigraph
    >>> from lexigraph.scrabble.game import Game
    >>> from lexigraph.scrabble.selfplay import Player, autoplay
    >>> lex = lexigraph.open()
    >>> run = autoplay(lex, Game.preset("scrabble"), [Player.score("a"), Player.score("b")], games=2, workers=1,
    ...                keep_games=True)
    >>> pos = first_endgame(run, 0)
    >>> pos is None or sorted(pos.unseen()) == sorted(parse_rack(pos.game, pos.racks[1]))
    True
    """
    game = run.game
    for t, pos, totals, zeros in run.replay(k):
        who = int(t["player"])
        mover = [int(c) for c in t["rack"][: t["rack_length"]]]
        if int(t["bag_before"]) == 0 and (most_tiles is None or len(pos.unseen("")) <= most_tiles):
            pos.racks = [rack_text(game, mover), ""]
            pos.racks[1] = rack_text(game, pos.unseen())
            pos.scores = [totals[who], totals[1 - who]]
            pos.zero_turns = zeros
            return pos
    return None
