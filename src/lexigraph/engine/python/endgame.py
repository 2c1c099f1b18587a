"""The exact endgame solver: the Python twin of ``native/endgame.c`` (same rules, values and best move).

The game from the request's position (the bag empty, both racks known):
each turn the side to move makes a play or passes; a play that empties
the rack ends the game and gains twice the points left on the other rack;
six turns in a row without a play (counting the request's ``zero_turns``)
end it with each side losing the points on its own rack. The value is the
spread from here to the end, from the side to move's view.

The search is the C solver's: negamax with alpha-beta, iterative deepening
(a line cut by the depth limit is valued by the racks' points and makes the
iteration inexact; the first iteration no cut touched is exact), a
transposition table (a dict of at most ``table_entries / 16`` entries, the
memory of the C table, emptied when full) and the same move order (the table's move, the plays that go
out, then score). Among the moves of the best value it names the first by
score, across before down, row, column, length and squares, the pass last,
as the C solver does: root moves after the first are searched with the
window ``(best - 1, +inf)``, which tells a tie from a worse move.
"""

from __future__ import annotations

import mmap
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..interface import BLANK_FLAG, EndgameAnswer, EndgameRequest, MoveRequest, move_record_dtype
from ..interface import ENDGAME_ENTRY_BYTES, endgame_table_busy
from .movegen import generate_moves

if TYPE_CHECKING:  # pragma: no cover
    from .tables import PythonGameTables

#: Turns without a play that end a game.
ZERO_TURNS_TO_END = 6
_INF = 1_000_000
_EXACT, _LOWER, _UPPER = 0, 1, 2
#: A dict entry (its key's bytes, a tuple) costs about 16 times the C table's 16 bytes: the twin keeps that many
#: fewer, so that its memory stays within the table's size.
_PYTHON_ENTRY_COST = 16
#: A play as the search keeps it: (score, row, col, across, squares, tiles put down).
_Play = tuple[int, int, int, int, bytes, int]


@dataclass
class _Search:
    tables: "PythonGameTables"
    request: EndgameRequest
    deadline: float | None
    board: bytearray
    blanks: bytearray
    racks: list[list[int]]
    table: dict[tuple[bytes, bytes, bytes, int, int], tuple[int, int, int, bool, int | None]] = field(
        default_factory=dict)
    nodes: int = 0
    cut: bool = False
    stop: bool = False

    def points_on(self, side: int) -> int:
        points = self.tables.points
        return sum(n * points[t] for t, n in enumerate(self.racks[side]) if t)

    def tiles_on(self, side: int) -> int:
        return sum(self.racks[side])

    def key(self, side: int, zeros: int) -> tuple[bytes, bytes, bytes, int, int]:
        return (bytes(self.board), bytes(self.blanks), bytes(self.racks[side] + [255] + self.racks[1 - side]),
                side, zeros)

    def plays(self, side: int) -> list[_Play]:
        request = MoveRequest(self.tables, bytes(self.board), bytes(self.blanks), bytes(self.racks[side]), top=-1,
                              by_equity=False, opening=False)
        records, _count = generate_moves(self.tables, request)
        out: list[_Play] = []
        for rec in records.tolist():  # (score, row, col, across, length, equity, squares)
            squares = bytes(rec[6][: rec[4]])
            out.append((rec[0], rec[1], rec[2], rec[3], squares, sum(1 for b in squares if b)))
        return out

    def apply(self, side: int, play: _Play, undo: bool) -> None:
        _score, row, col, across, squares, _tiles = play
        n = self.tables.size
        for k, b in enumerate(squares):
            if not b:
                continue
            sq = row * n + col + k if across else (row + k) * n + col
            code = 0 if b & BLANK_FLAG else b
            self.racks[side][code] += 1 if undo else -1
            self.board[sq] = 0 if undo else b & ~BLANK_FLAG
            self.blanks[sq] = 0 if undo else int(bool(b & BLANK_FLAG))

    def check_clock(self) -> None:
        self.nodes += 1
        if self.deadline is not None and self.nodes % 64 == 0 and time.monotonic() >= self.deadline:
            self.stop = True

    def ordered(self, side: int, plays: list[_Play], first: int | None) -> list[int]:
        """Indices into ``plays`` (``len(plays)``: the pass), best first."""
        left = self.tiles_on(side)
        keys = [(p[0] + (1 << 32 if p[5] == left else 0), -i) for i, p in enumerate(plays)]
        keys.append((-(1 << 40), -len(plays)))
        if first is not None and first <= len(plays):
            keys[first] = (1 << 40, -first)
        return [-k[1] for k in sorted(keys, reverse=True)]

    def child(self, side: int, plays: list[_Play], i: int, depth: int, alpha: int, beta: int, zeros: int) -> int:
        """The value for ``side`` of move ``i`` (``len(plays)``: the pass)."""
        if i == len(plays):
            if zeros + 1 >= ZERO_TURNS_TO_END:
                return self.points_on(1 - side) - self.points_on(side)
            return -self.negamax(1 - side, depth - 1, -beta, -alpha, zeros + 1)
        play = plays[i]
        score = play[0]
        if play[5] == self.tiles_on(side):
            self.apply(side, play, False)
            value = score + 2 * self.points_on(1 - side)
            self.apply(side, play, True)
            return value
        self.apply(side, play, False)
        value = score - self.negamax(1 - side, depth - 1, score - beta, score - alpha, 0)
        self.apply(side, play, True)
        return value

    def negamax(self, side: int, depth: int, alpha: int, beta: int, zeros: int) -> int:
        if self.stop:
            return 0
        self.check_clock()
        key = self.key(side, zeros)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            value, kind, stored_depth, solved, first = entry
            if solved or stored_depth >= depth:
                if kind == _EXACT or (kind == _LOWER and value >= beta) or (kind == _UPPER and value <= alpha):
                    if not solved:
                        self.cut = True
                    return value
        if depth <= 0:
            self.cut = True
            return self.points_on(1 - side) - self.points_on(side)
        plays = self.plays(side)
        cut_before, self.cut = self.cut, False
        best, best_move, original_alpha = -_INF, None, alpha
        for i in self.ordered(side, plays, first):
            value = self.child(side, plays, i, depth, alpha, beta, zeros)
            if self.stop:
                return 0
            if value > best:
                best, best_move = value, i
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
        cut = self.cut
        self.cut = cut or cut_before
        if len(self.table) >= self.request.table_entries // _PYTHON_ENTRY_COST:
            self.table.clear()
        kind = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
        self.table[key] = (best, kind, depth, not cut, best_move)
        return best

    def root(self, plays: list[_Play], depth: int, zeros: int, first: int | None) -> tuple[int, int] | None:
        """One iteration: the best value and move index (the tie-break of the module's comment), or None when
        stopped before any move was valued."""
        best: tuple[int, int] | None = None
        for i in self.ordered(0, plays, first):
            alpha = -_INF if best is None else best[0] - 1
            value = self.child(0, plays, i, depth, alpha, _INF, zeros)
            if self.stop:
                break
            if best is None or value > best[0] or (value == best[0] and _before(plays, i, best[1])):
                best = (value, i)
        return best


def _before(plays: list[_Play], i: int, j: int) -> bool:
    """Whether move ``i`` comes before move ``j`` in the fixed order of the tie-break (the pass last)."""
    return _order(plays, i) < _order(plays, j)


def _order(plays: list[_Play], i: int) -> tuple[int, int, int, int, int, int, bytes]:
    if i == len(plays):
        return (1, 0, 0, 0, 0, 0, b"")
    score, row, col, across, squares, _tiles = plays[i]
    return (0, -score, -across, row, col, len(squares), squares.ljust(32, b"\0"))


def stuck_tiles(tables: "PythonGameTables", request: EndgameRequest) -> tuple[bytes, bytes]:
    """Each rack's tiles that no play of that rack on the board puts down (a count per code; a blank is code 0):
    the C solver's stuck tiles, which order its moves (the twin, the single-thread reference, orders by score)."""
    s = _Search(tables, request, None, bytearray(request.board), bytearray(request.blanks),
                [list(request.racks[0]), list(request.racks[1])])
    out: list[bytes] = []
    for side in (0, 1):
        used = {0 if b & BLANK_FLAG else b for play in s.plays(side) for b in play[4] if b}
        out.append(bytes(0 if code in used else n for code, n in enumerate(s.racks[side])))
    return out[0], out[1]


def solve_endgame(tables: "PythonGameTables", request: EndgameRequest, deadline: float | None = None) -> EndgameAnswer:
    """The exact endgame of ``request`` (see the module docstring).

    Where the C solver allocates its table, the twin first makes sure the table's memory could be had
    (:func:`reserve_table`): a shortage is the same :class:`~lexigraph.errors.ResourceBusy` on both engines,
    and so is one met during the search.
    """
    reserve_table(request.table_entries)
    try:
        return _solve(tables, request, deadline)
    except MemoryError:
        raise endgame_table_busy(request.table_entries) from None


def reserve_table(table_entries: int) -> None:
    """Raise :func:`~lexigraph.engine.interface.endgame_table_busy` unless the C table's memory can be mapped now.

    The C solver's ``calloc`` of the table maps memory without touching it; this maps as much (anonymous
    memory, never touched) and gives it back at once, so that the two engines meet the same limits (the
    address-space limit, the kernel's overcommit rule) and answer the same error.
    """
    try:
        mmap.mmap(-1, table_entries * ENDGAME_ENTRY_BYTES).close()
    except (OSError, MemoryError, OverflowError, ValueError):
        raise endgame_table_busy(table_entries) from None


def _solve(tables: "PythonGameTables", request: EndgameRequest, deadline: float | None) -> EndgameAnswer:
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    cpu_started = time.thread_time()
    s = _Search(tables, request, deadline, bytearray(request.board), bytearray(request.blanks),
                [list(request.racks[0]), list(request.racks[1])])
    plays = s.plays(0)
    last: tuple[int, int] | None = None
    done, complete, first = 0, False, None
    max_ply = (2 * sum(request.racks[0]) + 2 * sum(request.racks[1]) + 1) * ZERO_TURNS_TO_END + 2
    for depth in range(1, max_ply + 1):
        s.cut = False
        s.deadline = None if depth == 1 else deadline  # the first iteration always finishes: a move to answer
        if depth > 1 and deadline is not None and time.monotonic() >= deadline:
            break
        answer = s.root(plays, depth, request.zero_turns, first)
        if s.stop:
            break
        last, done, first = answer, depth, answer[1] if answer else None
        if not s.cut:
            complete = True
            break
    search_nodes, search_cpu = s.nodes, time.thread_time() - cpu_started
    pv: list[_Play | None] = []
    if last is not None:
        pv.append(None if last[1] == len(plays) else plays[last[1]])
        if complete:
            pv.extend(_rest_of_pv(s, last[0], pv[0], request.zero_turns))
    records = np.zeros(len(pv), move_record_dtype())
    for k, play in enumerate(pv):
        if play is not None:
            score, row, col, across, squares, _tiles = play
            records[k]["score"], records[k]["row"], records[k]["col"] = score, row, col
            records[k]["across"], records[k]["length"] = across, len(squares)
            records[k]["equity"] = float(score)
            records[k]["squares"][: len(squares)] = list(squares)
    return EndgameAnswer(last[0] if last else 0, complete, done, s.nodes, records, (search_nodes,), (search_cpu,))


def _rest_of_pv(s: _Search, value: int, best: _Play | None, zeros: int) -> list[_Play | None]:
    """The moves after the best one: at each position the first move (in search order) whose value reaches the
    position's value, by null-window searches to the end."""
    s.stop, s.deadline = False, None
    out: list[_Play | None] = []
    side, move = 0, best
    depth = 1 << 20
    while True:
        if move is None:
            zeros += 1
            if zeros >= ZERO_TURNS_TO_END:
                return out
            value = -value
        else:
            out_now = move[5] == s.tiles_on(side)
            s.apply(side, move, False)
            if out_now:
                return out
            zeros, value = 0, -(value - move[0])
        side = 1 - side
        plays = s.plays(side)
        entry = s.table.get(s.key(side, zeros))
        found = None
        for i in s.ordered(side, plays, entry[4] if entry else None):
            if s.child(side, plays, i, depth, value - 1, value, zeros) >= value:
                found = i
                break
        if found is None:  # cannot happen when the search was exact
            return out
        move = None if found == len(plays) else plays[found]
        out.append(move)
