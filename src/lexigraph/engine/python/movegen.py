"""Move generation in Python: the twin of the C generator (``native/movegen.c``), held to the same records.

Appel and Jacobson's algorithm (1988), line by line: the board is read
across, then down (the down pass reads the transposed board, so both
passes see rows). For each empty square of a line:

* its *cross-check set*: the tiles that may go there, so that the word it
  makes across the line (with the tiles above and below, in a row's terms)
  is a word; a square with no neighbour across the line allows every tile;
* its *cross score*: the points of those neighbouring tiles, which a tile
  placed there adds (times its multipliers) as a second word;
* whether it is an *anchor*: an empty square next to a tile (or the start
  square of an empty board). Every play covers an anchor.

From each anchor a play grows right through the word graph, one square at
a time (:meth:`_Generator.extend_right`); its *left part* is either the
board tiles already left of the anchor, or tiles from the rack on the
empty squares left of it that are no anchors (:meth:`_Generator.left_parts`).
A play is recorded when it ends on a word, has placed a tile, reaches past
its anchor and is two or more squares long. A one-tile play that makes
words both ways is recorded once, by the across pass.

Each play is valued as it is recorded: its score plus the request's leave
value for the tiles it uses (an index into ``leave_values`` kept up to date
as tiles leave and return to the rack) plus the opening penalty of each
vowel it puts on an empty board, summed in the C generator's order so that
the two agree to the bit. With ``top`` the plays are ranked as the C
generator ranks them and cut.

The C generator's pruning is a speed device only and the twin has none: it
finds every play and cuts the ranking, which gives the same records. That
covers the shadow bounds with the word map's checks (the rack's playable
lengths, the whole rack's word through board tiles), the anchors dropped
once below the heap's worst, and the plays found in the map best window
first.

Arcs are read through :class:`~lexigraph.engine.wordgraph.WordGraph` only.
"""

from __future__ import annotations

import struct
import time
from typing import TYPE_CHECKING

from ...errors import DeadlineExceeded
from ..interface import BLANK_FLAG, MoveRequest, move_record_dtype

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..wordgraph import Arc
    from .tables import PythonGameTables

#: A play found: (score, row, column, across (1/0), a byte per square of the main word, equity).
Play = tuple[int, int, int, int, bytes, float]
#: Extensions between two looks at the clock (as in the C generator).
DEADLINE_STEPS = 4096
#: Most entries of a leave table (``native/limits.h``: LX_MAX_RACK_SUBSETS).
MAX_RACK_SUBSETS = 1 << 16


def place_values(rack: bytes | list[int]) -> tuple[list[int], int]:
    """Each tile code's place value in the used-tile index, and the number of subsets of the rack.

    Mixed radix over the codes on the rack, ascending: a code off the rack has
    place value 0. When the subsets exceed :data:`MAX_RACK_SUBSETS` every place
    value is 0 and the count is -1 (no table fits).

    >>> place_values([1, 0, 2, 1])      # one blank, two of code 2, one of code 3
    ([1, 0, 2, 6], 12)
    """
    places = [0] * len(rack)
    size = 1
    for code, count in enumerate(rack):
        if count:
            places[code] = size
            size *= count + 1
            if size > MAX_RACK_SUBSETS:
                return [0] * len(rack), -1
    return places, size


class _Line:
    """One orientation of the board: squares indexed ``line * size + position`` (transposed for down)."""

    def __init__(self, tables: "PythonGameTables", request: MoveRequest, across: bool) -> None:
        layout = tables.layout
        n = layout.size
        self.size = n
        self.across = across

        def square(line: int, position: int) -> int:
            return line * n + position if across else position * n + line

        order = [square(line, position) for line in range(n) for position in range(n)]
        self.tiles = [request.board[i] for i in order]
        points = tables.points
        #: what the board tile on each square scores (a blank nothing)
        self.tile_points = [0 if not request.board[i] or request.blanks[i] else points[request.board[i]] for i in order]
        self.letter_multipliers = [layout.letter_multipliers[i] for i in order]
        self.word_multipliers = [layout.word_multipliers[i] for i in order]
        start = layout.start_square
        self.start = start if across else (start % n) * n + start // n


class _Generator:
    """The search for one request; the plays found are collected in :attr:`plays`."""

    def __init__(self, tables: "PythonGameTables", request: MoveRequest, deadline: float | None) -> None:
        self.tables = tables
        self.graph = tables.graph
        self.request = request
        self.points = tables.points
        self.rack = list(request.rack)
        self.plays: list[Play] = []
        n_codes = len(tables.points)
        self.every_tile = ((1 << n_codes) - 1) & ~1  # bit t for each tile code 1..n
        self.board_empty = not any(request.board)
        self.place, subsets = place_values(request.rack)
        self.used = 0
        self.leave_values: tuple[float, ...] | None = None
        if request.leave_values:
            if subsets < 0 or len(request.leave_values) != 8 * subsets:
                raise ValueError("generate_moves: the leave table does not fit the rack")
            self.leave_values = struct.unpack(f"<{subsets}d", request.leave_values)
        self.opening = tables.opening if request.opening and self.board_empty else None
        self.vowels = tables.vowels
        self.deadline = deadline
        self.steps = 0

    # -- the word graph ----------------------------------------------------------------

    def arcs(self, node: int) -> "tuple[Arc, ...]":
        return self.graph.arc_list(node)

    def step(self, node: int, tile: int) -> "Arc | None":
        return self.graph.arc_of(node, tile)

    def follow(self, tiles: list[int], node: int) -> "Arc | None":
        """The arc reached from ``node`` by ``tiles`` (at least one), or None."""
        arc = None
        for tile in tiles:
            arc = self.step(node, tile)
            if arc is None:
                return None
            node = arc.target
        return arc

    # -- one orientation ---------------------------------------------------------------

    def run(self) -> list[Play]:
        # an empty board of a symmetric layout: the down plays are the across plays transposed (MoveRequest)
        across_only = self.board_empty and self.tables.symmetric and not self.request.both_directions
        for across in (True,) if across_only else (True, False):
            self.line = _Line(self.tables, self.request, across)
            self.prepare()
            for line in range(self.line.size):
                for position in range(self.line.size):
                    if self.anchor[line * self.line.size + position]:
                        self.from_anchor(line, position)
        return self.plays

    def prepare(self) -> None:
        """Cross-check sets, cross scores and anchors of every square of this orientation."""
        board = self.line
        n = board.size
        tiles = board.tiles
        count = n * n
        self.allowed = [self.every_tile] * count
        self.cross_score = [0] * count
        self.has_cross = [False] * count
        self.anchor = [False] * count
        for i in range(count):
            if tiles[i]:
                continue
            line, position = divmod(i, n)
            above = line
            while above > 0 and tiles[(above - 1) * n + position]:
                above -= 1
            below = line
            while below + 1 < n and tiles[(below + 1) * n + position]:
                below += 1
            if (position > 0 and tiles[i - 1]) or (position + 1 < n and tiles[i + 1]):
                self.anchor[i] = True
            if above == line and below == line:
                continue
            self.anchor[i] = True
            self.has_cross[i] = True
            self.cross_score[i] = sum(board.tile_points[k * n + position] for k in range(above, below + 1) if k != line)
            prefix = [tiles[k * n + position] for k in range(above, line)]
            suffix = [tiles[k * n + position] for k in range(line + 1, below + 1)]
            node = self.graph.root
            if prefix:
                arc = self.follow(prefix, node)
                node = arc.target if arc is not None else 0
            allowed = 0
            for arc in self.arcs(node):
                if suffix:
                    end = self.follow(suffix, arc.target)
                    fits = end is not None and end.accepts
                else:
                    fits = arc.accepts
                if fits:
                    allowed |= 1 << arc.tile
            self.allowed[i] = allowed
        if self.board_empty:
            self.anchor[board.start] = True

    def from_anchor(self, line: int, anchor: int) -> None:
        """Every play through the anchor at ``(line, anchor)``."""
        board = self.line
        base = line * board.size
        tiles = board.tiles
        if anchor > 0 and tiles[base + anchor - 1]:
            # The left part is the board tiles already there.
            start = anchor - 1
            while start > 0 and tiles[base + start - 1]:
                start -= 1
            left = [tiles[base + k] for k in range(start, anchor)]
            arc = self.follow(left, self.graph.root)
            if arc is None:
                return
            main_points = sum(board.tile_points[base + k] for k in range(start, anchor))
            self.word = [0] * len(left)
            self.extend_right(arc.target, anchor, line, anchor, start, arc.accepts, 0, main_points, 1, 0, -1)
            return
        # The left part comes from the rack, on the free squares left of the anchor that are no anchors.
        room = 0
        k = anchor - 1
        while k >= 0 and not tiles[base + k] and not self.anchor[base + k]:
            room += 1
            k -= 1
        limit = min(room, self.tables.tiles.rack_size - 1, sum(self.rack) - 1)
        self.word = []
        self.left_parts(self.graph.root, limit, line, anchor, [])

    def left_parts(self, node: int, limit: int, line: int, anchor: int, left: list[int]) -> None:
        """Try the left part ``left`` (points of its tiles) at ``anchor``, then every longer one from the rack."""
        board = self.line
        base = line * board.size
        main_points, word_multiplier = 0, 1
        start = anchor - len(left)
        for j, tile_points in enumerate(left):
            square = base + start + j
            main_points += tile_points * board.letter_multipliers[square]
            word_multiplier *= board.word_multipliers[square]
        self.extend_right(node, anchor, line, anchor, start, False, len(left), main_points, word_multiplier, 0, -1)
        if limit <= 0 or not node:
            return
        for arc in self.arcs(node):
            for slot, code in ((arc.tile, arc.tile), (0, arc.tile | BLANK_FLAG)):
                if not self.rack[slot]:
                    continue
                self.rack[slot] -= 1
                self.used += self.place[slot]
                left.append(self.points[arc.tile] if slot else 0)
                self.word.append(code)
                self.left_parts(arc.target, limit - 1, line, anchor, left)
                self.word.pop()
                left.pop()
                self.used -= self.place[slot]
                self.rack[slot] += 1

    def extend_right(self, node: int, position: int, line: int, anchor: int, start: int, accepts: bool, placed: int,
                     main_points: int, word_multiplier: int, cross_points: int, last_square: int) -> None:
        """Grow the play rightwards from ``position``; ``node`` is the list of tiles that may come next."""
        board = self.line
        n = board.size
        square = line * n + position
        if self.deadline is not None:
            self.steps += 1
            if self.steps % DEADLINE_STEPS == 0 and time.monotonic() > self.deadline:
                raise DeadlineExceeded("move generation ran past its deadline")
        if position < n and board.tiles[square]:
            arc = self.step(node, board.tiles[square])
            if arc is None:
                return
            self.word.append(0)
            self.extend_right(arc.target, position + 1, line, anchor, start, arc.accepts, placed,
                              main_points + board.tile_points[square], word_multiplier, cross_points, last_square)
            self.word.pop()
            return
        if accepts and placed and position > anchor and position - start >= 2:
            self.record(line, start, placed, last_square,
                        main_points * word_multiplier + cross_points
                        + (self.tables.tiles.bingo_bonus if placed == self.tables.tiles.rack_size else 0))
        if position >= n or not node:
            return
        allowed = self.allowed[square]
        letter, word = board.letter_multipliers[square], board.word_multipliers[square]
        for arc in self.arcs(node):
            if not (allowed >> arc.tile) & 1:
                continue
            for slot, code in ((arc.tile, arc.tile), (0, arc.tile | BLANK_FLAG)):
                if not self.rack[slot]:
                    continue
                self.rack[slot] -= 1
                self.used += self.place[slot]
                points = self.points[arc.tile] if slot else 0
                cross = (self.cross_score[square] + points * letter) * word if self.has_cross[square] else 0
                self.word.append(code)
                self.extend_right(arc.target, position + 1, line, anchor, start, arc.accepts, placed + 1,
                                  main_points + points * letter, word_multiplier * word, cross_points + cross, square)
                self.word.pop()
                self.used -= self.place[slot]
                self.rack[slot] += 1

    def record(self, line: int, start: int, placed: int, last_square: int, score: int) -> None:
        across = self.line.across
        if not across and placed == 1 and self.has_cross[last_square]:
            return  # a one-tile play making an across word too: the across pass has it
        # The C generator's sum, in its order: the doubles agree bit for bit.
        equity = float(score)
        if self.leave_values is not None:
            equity += self.leave_values[self.used]
        if self.opening is not None:
            n = self.line.size
            base = (0 if across else n * n) + line * n + start
            for k, b in enumerate(self.word):
                if b and (b & ~BLANK_FLAG) in self.vowels:
                    equity += self.opening[base + k]
        if across:
            self.plays.append((score, line, start, 1, bytes(self.word), equity))
        else:
            self.plays.append((score, start, line, 0, bytes(self.word), equity))


def rank_key(play: Play, by_equity: bool) -> tuple[float, int, int, int, int, bytes]:
    """The ranking order of the C generator: key descending, across first, then row, column, length, squares."""
    score, row, col, across, squares, equity = play
    return (-(equity if by_equity else float(score)), -across, row, col, len(squares), squares)


def check_request(tables: "PythonGameTables", request: MoveRequest) -> None:
    """Refuse a request that does not fit its tables (``movegen.c``'s checks, the same messages)."""
    squares = tables.size * tables.size
    if (len(request.board) != squares or len(request.blanks) != squares or len(request.rack) != tables.code_count
            or len(request.leave_values) % 8):
        raise ValueError("generate_moves: inconsistent arguments")
    if max(request.board, default=0) >= tables.code_count:
        raise ValueError("generate_moves: a board tile is outside the alphabet")


def generate_moves(tables: "PythonGameTables", request: MoveRequest,
                   deadline: float | None = None) -> "tuple[np.ndarray, int]":
    """The plays for the request's rack (``tables``: the request's, the engine checked they are its own) as move
    records (see :func:`lexigraph.engine.interface.move_record_dtype`) and how many there are: every play, or the
    best ``request.top`` best first."""
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    check_request(tables, request)
    if deadline is not None and time.monotonic() > deadline:
        raise DeadlineExceeded("move generation ran past its deadline")
    if not any(request.rack):
        return np.zeros(0, move_record_dtype()), 0
    plays = _Generator(tables, request, deadline).run()
    # The twin finds every play (it has no shadow bounds); with prune it reports the count as the C generator does.
    total = -1 if request.prune and request.top > 0 and tables.shadow_bounds_hold else len(plays)
    if request.top >= 0:
        plays = sorted(plays, key=lambda p: rank_key(p, request.by_equity))[: request.top]
    records = np.zeros(len(plays), move_record_dtype())
    for k, (score, row, col, across, squares, equity) in enumerate(plays):
        record = records[k]
        record["score"], record["row"], record["col"], record["across"] = score, row, col, across
        record["length"] = len(squares)
        record["equity"] = equity
        record["squares"][: len(squares)] = np.frombuffer(squares, np.uint8)
    return records, total
