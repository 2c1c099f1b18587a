"""The Python twin of ``native/generator.c``'s MoveGenerator: the bag and the rack's values worked out from the
position, then the twin generator (:mod:`.movegen`); nothing is kept between calls, the answers are the C type's.

>>> import lexigraph
>>> from lexigraph.engine.interface import GENERATE_BY_EQUITY, GENERATE_VALUES
>>> from lexigraph.scrabble.game import Game
>>> from lexigraph.scrabble.tables import game_tables
>>> lex = lexigraph.load(["qi", "qis"], pure_python=True)
>>> game = Game.preset("scrabble").for_lexicon(lex.alphabet)
>>> rack = bytearray(len(lex.alphabet) + 1)
>>> rack[lex.alphabet.code("q")] = rack[lex.alphabet.code("i")] = 1
>>> empty = bytes(225)
>>> answer = lex.engine.move_generator(game_tables(lex, game)).generate(
...     empty, empty, bytes(rack), -1, 1, GENERATE_BY_EQUITY | GENERATE_VALUES)
>>> answer.records["score"].tolist(), answer.total, answer.bag
([22], 2, 7)
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from ..interface import GENERATE_BOTH_DIRECTIONS, GENERATE_BY_EQUITY, GENERATE_PRUNE, GENERATE_VALUES
from ..interface import GeneratorAnswer, MoveRequest, RankedExtras
from .movegen import MAX_RACK_SUBSETS, generate_moves

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from .tables import PythonGameTables

#: What keeping tiles costs when the bag is empty, on top of twice their points (lexigraph.scrabble.equity).
ENDGAME_PENALTY = 10.0
#: The longest leave a key holds (``native/limits.h``: LX_LEAVE_KEY_TILES).
LEAVE_KEY_TILES = 10


class PythonMoveGenerator:
    """A move generator for one game's tables in the Python engine (see the module docstring). It keeps no
    reference to the engine (the lexicon keeps this object: a cycle would hold its file open until the garbage
    collector runs)."""

    def __init__(self, tables: "PythonGameTables") -> None:
        self.tables = tables

    def unseen(self, board: bytes, blanks: bytes, rack: bytes) -> tuple[int, int]:
        """The tiles neither on the board (a blank there counts as a blank) nor on the rack: how many, and their
        points."""
        tables = self.tables
        unseen = [count - held for count, held in zip(tables.tiles.counts, rack)]
        for code, blank in zip(board, blanks):
            if code:
                unseen[0 if blank else code] -= 1
        return (sum(n for n in unseen if n > 0),
                sum(n * points for n, points in zip(unseen, tables.points) if n > 0))

    def values(self, rack: bytes, bag: int, unseen_points: int) -> bytes:
        """Each subset of the rack valued (mixed radix, the first code turning fastest): the leave table's value
        of what is kept while the bag holds tiles, else the end-of-game adjustment."""
        tables = self.tables
        if bag > 0:
            from .leaves import rack_leave_values  # deferred: NumPy (start-up stays light)

            keys, values = tables.leaves
            return rack_leave_values(keys, values, rack)
        counts = [(code, n) for code, n in enumerate(rack) if n]
        size = 1
        for _code, n in counts:
            size *= n + 1
        if size > MAX_RACK_SUBSETS:
            raise ValueError("MoveGenerator: the leave values do not fit the rack")
        out = []
        used = [0] * len(counts)
        for _index in range(size):
            kept = sum(n - u for (_c, n), u in zip(counts, used))
            kept_points = sum((n - u) * tables.points[c] for (c, n), u in zip(counts, used))
            out.append(2.0 * unseen_points if kept == 0 else -ENDGAME_PENALTY - 2.0 * kept_points)
            for d, (_c, n) in enumerate(counts):
                used[d] += 1
                if used[d] <= n:
                    break
                used[d] = 0
        return struct.pack(f"<{len(out)}d", *out)

    def generate(self, board: "bytes | list[int]", blanks: "bytes | list[bool]", rack: bytes, other_rack: int,
                 top: int, flags: int, deadline: float | None = None, values: bytes = b"") -> GeneratorAnswer:
        tables = self.tables
        try:
            board, blanks = bytes(board), bytes(blanks)
        except (TypeError, ValueError):
            raise ValueError("MoveGenerator.generate: inconsistent arguments") from None
        squares = tables.size * tables.size
        if len(board) != squares or len(blanks) != squares or len(rack) != tables.code_count or other_rack < -1 \
                or len(values) % 8:
            raise ValueError("MoveGenerator.generate: inconsistent arguments")
        unseen, unseen_points = self.unseen(board, blanks, rack)
        bag = unseen - (other_rack if other_rack >= 0 else min(unseen, tables.tiles.rack_size))
        if flags & GENERATE_VALUES:
            values = self.values(rack, bag, unseen_points)
        valued = values if any(struct.unpack(f"<{len(values) // 8}d", values)) else b""
        request = MoveRequest(tables, board, blanks, rack, valued, top, bool(flags & GENERATE_BY_EQUITY),
                              bool(flags & GENERATE_PRUNE), True, bool(flags & GENERATE_BOTH_DIRECTIONS))
        records, count = generate_moves(tables, request, deadline)
        return GeneratorAnswer(records, count, values, bag)

    def rank_extras(self, records: "np.ndarray", values: bytes, order: bytes, passes: bool,
                    by_equity: bool) -> RankedExtras:
        """``native/ranking.c``'s rank_extras: the extras sorted by (equity down, tie order), each placed after the
        plays of at least its equity (or after every play)."""
        return rank_extras(records["equity"].tolist(), values, order, passes, by_equity)

    def best_extra(self, values: bytes, order: bytes, passes: bool) -> tuple[int, float] | None:
        """``native/ranking.c``'s best_extra: the first extra of :func:`rank_extras`."""
        return best_extra(values, order, passes)


def rank_extras(play_equities: list[float], values: bytes, order: bytes, passes: bool,
                by_equity: bool) -> RankedExtras:
    """:meth:`PythonMoveGenerator.rank_extras` on the plays' equities (best first).

    >>> values = struct.pack("<4d", 1.0, 5.0, -2.0, 7.0)                 # the pass, then three exchanges
    >>> order = struct.pack("<3q", 1 << 24 | 1, 1 << 24 | 2, 2 << 24 | 3)
    >>> places, ranked = rank_extras([9.0, 6.0, 5.0], values, order, True, True)
    >>> list(memoryview(places).cast("q")), [struct.unpack_from("<qd", ranked, 16 * k) for k in range(4)]
    ([1, 4, 5, 6], [(3, 7.0), (1, 5.0), (0, 1.0), (2, -2.0)])
    """
    extras = sorted(_extras(values, order, passes, "rank_extras"))
    places: list[int] = []
    before = 0 if by_equity else len(play_equities)
    for k, (negated, _tie, _subset) in enumerate(extras):
        while by_equity and before < len(play_equities) and play_equities[before] >= -negated:
            before += 1  # a play first at equal equity
        places.append(before + k)
    ranked = b"".join(struct.pack("<qd", subset, -negated) for negated, _tie, subset in extras)
    return RankedExtras(struct.pack(f"<{len(places)}q", *places), ranked)


def best_extra(values: bytes, order: bytes, passes: bool) -> tuple[int, float] | None:
    """The extra :func:`rank_extras` ranks first, as (subset, value); None when none is listed.

    >>> values = struct.pack("<4d", 1.0, 5.0, -2.0, 7.0)                 # the pass, then three exchanges
    >>> order = struct.pack("<3q", 1 << 24 | 1, 1 << 24 | 2, 2 << 24 | 3)
    >>> best_extra(values, order, True), best_extra(values, b"", True), best_extra(values, b"", False)
    ((3, 7.0), (0, 1.0), None)
    """
    extras = _extras(values, order, passes, "best_extra")
    if not extras:
        return None
    negated, _tie, subset = min(extras)
    return subset, -negated


def _extras(values: bytes, order: bytes, passes: bool, caller: str) -> list[tuple[float, int, int]]:
    """The extras as (negated value, tie order, subset): every exchange of ``order``, and the pass when ``passes``
    (its tie order 1 << 30: after the exchanges of its value); in this order they sort best first."""
    worth = struct.unpack(f"<{len(values) // 8}d", values)
    ties = struct.unpack(f"<{len(order) // 8}q", order)
    if not worth or (ties and len(ties) != len(worth) - 1):
        raise ValueError(f"{caller}: buffers of inconsistent sizes")
    extras = [(-worth[i + 1], tie, i + 1) for i, tie in enumerate(ties)]
    if passes:
        extras.append((-worth[0], 1 << 30, 0))
    return extras
