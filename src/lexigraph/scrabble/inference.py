"""Rack inference: from the opponent's last move, the distribution over the tiles they kept.

The opponent's rack was a draw from the tiles the observer cannot see (the
*unseen* tiles: neither on the board nor on the observer's rack). Their
move tells something about it: a play shows the tiles played, an exchange
how many went back. :func:`infer` keeps every rack that holds the tiles
shown and for which the move was within ``margin`` points of equity of the
best move that rack had (plays, exchanges and the pass, valued as
:func:`lexigraph.scrabble.movegen.generate` values them with the leave
table), and weights each by the chance of drawing it: the opponent's rack
is a uniform draw of ``r`` tiles from the ``u`` unseen ones, so a rack
holding ``m_c`` of each tile ``c`` (of ``u_c`` unseen) has probability
``prod_c C(u_c, m_c) / C(u, r)`` (the multivariate hypergeometric law). The
answer is over the **leave**: the rack less the tiles played (for an
exchange of ``n`` tiles, the rack less its best exchange of ``n`` tiles,
which must itself be within the margin). ``margin=math.inf`` keeps every
rack: the distribution with no inference, the draw probabilities alone.

**Cost.** Each distinct leave costs one move generation (the best move of
its rack). When the leaves possible (the multisets of the right size from
the unseen tiles less those played) number at most ``max_leaves`` they are
all enumerated and the answer is exact; beyond, ``samples`` racks are drawn
(seeded by ``seed``) and each distinct leave drawn is weighted by its
probability over the chance of drawing it (importance sampling), so the cost
is at most ``max(max_leaves, samples)`` generations whatever the position.

The position is the one **before** the opponent's move, the opponent on
turn: its first rack is left empty (it is what is inferred) and its second
is the observer's (when empty, the observer's tiles count as unseen).

>>> import lexigraph, math
>>> from lexigraph.scrabble.game import Game
>>> from lexigraph.scrabble.position import Position
>>> lex = lexigraph.load(["za", "zas", "at", "ta", "as", "cat", "cats", "scat"])
>>> tiny = Game.from_dict({"name": "tiny", "board": ["....."] * 5, "rack_size": 3, "blanks": 0,
...                        "tiles": {"a": [3, 1], "c": [1, 3], "s": [2, 1], "t": [2, 1], "z": [1, 10]}})
>>> pos = Position.from_cgp("5/5/1CAT1/5/5 / 0/0 0", tiny)
>>> found = infer(lex, pos, "2C ZA", margin=0.0)   # ZAA: 1 way to draw, ZAT: 2, ZAS: 4 but ZAS scores more
>>> [(leave.leave, round(leave.probability, 3)) for leave in found.leaves]
[('T', 0.667), ('A', 0.333)]
>>> found.exact, found.consistent, found.evaluated
(True, 2, 3)
>>> [(leave.leave, round(leave.probability, 3)) for leave in infer(lex, pos, "2C ZA", margin=math.inf).leaves]
[('S', 0.571), ('T', 0.286), ('A', 0.143)]
"""

from __future__ import annotations

import math
import random
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import product
from typing import TYPE_CHECKING, Any

from . import equity as eq
from .game import GameError
from .movegen import LeavesSpec, aligned, generate, leave_table
from .moves import Move
from .position import Position
from .game import parse_square
from .scoring import MAX_PLAY_TEXT, play_tokens, score_play
from .tiles import parse_rack, rack_text

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Engines
    from .leaves import LeaveTable

__all__ = ["DEFAULT_MARGIN", "DEFAULT_MAX_LEAVES", "DEFAULT_SAMPLES", "InferredLeave", "Inference",
           "ObservedMove", "infer", "infer_last_move", "parse_observed", "position_before"]

#: The equity margin (points) within which a move counts as one the opponent would make, by default.
DEFAULT_MARGIN = 5.0
#: The most distinct leaves enumerated exactly; beyond, racks are sampled.
DEFAULT_MAX_LEAVES = 5000
#: Racks drawn when the leaves are too many to enumerate.
DEFAULT_SAMPLES = 2000
#: The largest margin, samples and leaves taken (beyond: an error, not hours of work).
MAX_MARGIN = 1000.0
MAX_LEAVES = 1_000_000

_EXCHANGE = re.compile(r"^\s*(?:-|exchange\s+|x\s*)(\d+)\s*$", re.IGNORECASE)
_PASS = re.compile(r"^\s*(?:-|pass)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class ObservedMove:
    """What the opponent was seen to do: ``kind`` "play" (``move``: the play, scored on the board), "exchange"
    (``exchanged``: how many tiles went back) or "pass"."""

    kind: str
    move: Move | None = None
    exchanged: int = 0

    @property
    def notation(self) -> str:
        if self.kind == "play" and self.move is not None:
            return self.move.notation
        return f"-{self.exchanged}" if self.kind == "exchange" else "-"


@dataclass(frozen=True)
class InferredLeave:
    """One leave the opponent may have kept (its tiles as text and codes) and its probability."""

    leave: str
    codes: tuple[int, ...]
    probability: float

    def as_dict(self) -> dict[str, Any]:
        return {"leave": self.leave, "probability": round(self.probability, 6)}


@dataclass
class Inference:
    """The answer of :func:`infer`: the leaves, most probable first (ties by their text), and how they were found.

    ``exact``: every leave enumerated (else ``samples`` racks drawn);
    ``evaluated``: the distinct leaves whose rack was valued; ``consistent``:
    those kept (the move within the margin); ``possible``: the leaves there
    are (the multisets of that size from the unseen tiles). With no leave
    consistent (the move was far from any rack's best) ``leaves`` is empty
    and ``notes`` says so.
    """

    observed: ObservedMove
    margin: float
    leaves: list[InferredLeave]
    exact: bool
    possible: int
    evaluated: int
    consistent: int
    unseen: int
    leave_size: int
    seed: int = 0
    samples: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def tile_means(self, game: Any) -> dict[str, float]:
        """The expected count of each tile in the leave, by tile text (``?`` a blank)."""
        means: dict[int, float] = {}
        for leave in self.leaves:
            for c in leave.codes:
                means[c] = means.get(c, 0.0) + leave.probability
        return {rack_text(game, [c]): round(v, 6) for c, v in sorted(means.items())}

    def mean_value(self, table: "LeaveTable | None") -> float:
        """The leave's value (``table``'s; 0 without one) averaged over the distribution (0 when it is empty)."""
        if table is None:
            return 0.0
        return sum(leave.probability * table.value(leave.codes) for leave in self.leaves)

    def draw(self, rng: random.Random) -> tuple[int, ...]:
        """One leave drawn from the distribution (a :class:`GameError` when it is empty)."""
        if not self.leaves:
            raise GameError("the inference found no rack consistent with the move: nothing to draw from")
        return rng.choices([leave.codes for leave in self.leaves], [leave.probability for leave in self.leaves])[0]

    def as_dict(self, game: Any, top: int | None = None) -> dict[str, Any]:
        """The JSON document (``top``: the most probable leaves listed; all by default)."""
        shown = self.leaves if top is None else self.leaves[:top]
        return {"move": self.observed.notation, "kind": self.observed.kind,
                "margin": None if math.isinf(self.margin) else self.margin, "exact": self.exact,
                "possible": self.possible, "evaluated": self.evaluated, "consistent": self.consistent,
                "unseen": self.unseen, "leave_size": self.leave_size, "samples": self.samples, "seed": self.seed,
                "seconds": round(self.seconds, 4), "tile_means": self.tile_means(game),
                "leaves": [leave.as_dict() for leave in shown], "notes": list(self.notes)}


def parse_observed(engines: "Engines", position: Position, move: "str | int | Move") -> ObservedMove:
    """The opponent's move: a play's notation (``8H WORD``, scored on ``position``'s board) or :class:`Move`, an
    exchange (``-3``, ``exchange 3``, or the number of tiles as an int) or a pass (``-`` or ``pass``)."""
    if isinstance(move, bool):
        raise GameError(f"the opponent's move must be a play, an exchange or a pass, not {move!r}")
    if isinstance(move, int):
        return ObservedMove("exchange", exchanged=_exchange_count(position, move))
    if isinstance(move, Move):
        if move.kind == "exchange":
            return ObservedMove("exchange", exchanged=_exchange_count(position, len(parse_rack(
                position.game, move.exchanged))))
        if move.kind == "pass":
            return ObservedMove("pass")
        return ObservedMove("play", move=score_play(engines, position, move.notation, _played_text(position, move)))
    if not isinstance(move, str):
        raise GameError(f"the opponent's move must be text such as '8H WORD', '-3' or '-', not {type(move).__name__}")
    exchange = _EXCHANGE.match(move)
    if exchange:
        return ObservedMove("exchange", exchanged=_exchange_count(position, int(exchange.group(1)[:6])))
    if _PASS.match(move):
        return ObservedMove("pass")
    rackless = position.copy()
    rackless.racks = ["", position.racks[1]]
    play = score_play(engines, rackless, move)
    return ObservedMove("play", move=play)


def _played_text(position: Position, move: Move) -> str:
    return rack_text(position.game, [0 if t.blank else position.game.alphabet.code(t.tile) or 0 for t in move.tiles])


def _exchange_count(position: Position, n: int) -> int:
    if not 1 <= n <= position.game.rack_size:
        raise GameError(f"an exchange gives back 1 to {position.game.rack_size} tiles, not {n}")
    return n


def _check_margin(margin: object) -> float:
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or math.isnan(margin) or not (
            0 <= margin <= MAX_MARGIN or margin == math.inf):
        raise GameError(f"the margin must be a number of points from 0 to {MAX_MARGIN:g} (or inf: no inference), "
                        f"not {margin!r}")
    return float(margin)


def _whole(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise GameError(f"{name} must be a whole number from {low:,} to {high:,}, not {value!r}")
    return value


def count_multisets(available: list[int], size: int) -> int:
    """How many multisets of ``size`` tiles ``available`` (a count per code) holds.

    >>> count_multisets([2, 1, 1], 2)          # AA AB AC BC
    4
    """
    ways = [1] + [0] * size
    for n in available:
        new = [0] * (size + 1)
        for total, w in enumerate(ways):
            if w:
                for k in range(min(n, size - total) + 1):
                    new[total + k] += w
        ways = new
    return ways[size]


def multisets(available: list[int], size: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` tiles from ``available`` (a count per code), as a count per code, in order.

    >>> list(multisets([2, 1], 2))
    [(1, 1), (2, 0)]
    """
    def rest(code: int, left: int) -> Iterator[tuple[int, ...]]:
        if code == len(available):
            if left == 0:
                yield ()
            return
        remaining = sum(available[code + 1:])
        for k in range(max(0, left - remaining), min(available[code], left) + 1):
            for tail in rest(code + 1, left - k):
                yield (k, *tail)

    return rest(0, size)


def draw_weight(unseen: list[int], rack: list[int]) -> int:
    """The number of ways to draw ``rack`` (a count per code) from ``unseen`` (a count per code): its
    probability times ``C(sum(unseen), sum(rack))``.

    >>> draw_weight([4, 2], [2, 1])            # C(4, 2) * C(2, 1)
    12
    """
    out = 1
    for u, m in zip(unseen, rack):
        out *= math.comb(u, m)
    return out


class _RackJudge:
    """Whether a rack would make the observed move: its best equity against the move's (one generation)."""

    def __init__(self, engines: "Engines", position: Position, observed: ObservedMove, table: "LeaveTable | None",
                 margin: float) -> None:
        self.engines, self.position, self.observed, self.table, self.margin = engines, position, observed, table, margin
        self.game = position.game

    def leave_of(self, rack: list[int], deadline: float | None) -> list[int] | None:
        """The leave the move keeps from ``rack`` (codes) when the move is within the margin, else None."""
        if math.isinf(self.margin) and self.observed.kind != "exchange":
            return self._kept(rack)
        pos = self.position
        values = eq.rack_values(pos, rack, self.table, bag=eq.bag_size(pos, rack), engine=self.engines.engine)
        kept, value = self._observed_value(rack, values)
        if kept is None:
            return None
        if math.isinf(self.margin):
            return kept
        text = rack_text(self.game, rack)
        best = generate(self.engines, pos, text, top=1, exchanges=True, passes=True, leaves=self.table,
                        sort="equity", deadline=deadline, count_all=False)
        best_equity = best[0].equity if len(best) and best[0].equity is not None else value
        return kept if value >= best_equity - self.margin - 1e-9 else None

    def _kept(self, rack: list[int]) -> list[int]:
        left = Counter(rack)
        if self.observed.move is not None:
            left.subtract(_played_codes(self.game, self.observed.move))
        return sorted(left.elements())

    def _observed_value(self, rack: list[int], values: list[float]) -> tuple[list[int] | None, float]:
        """The leave and equity of the observed move made from ``rack``; for an exchange of n tiles, its best."""
        observed = self.observed
        if observed.kind == "play" and observed.move is not None:
            return self._kept(rack), eq.move_equity(self.position, observed.move, rack, values)
        if observed.kind == "pass":
            return list(rack), values[0]
        if eq.bag_size(self.position, rack) < self.game.rack_size:
            return None, 0.0  # no exchange is allowed: no rack made it
        counts = sorted(Counter(rack).items())
        places, _size = eq.place_values(rack, len(self.game.alphabet) + 1)
        best: tuple[float, int, list[int]] | None = None  # ties: the lowest index, as generate lists them
        for used in product(*[range(n + 1) for _c, n in counts]):
            if sum(used) != observed.exchanged:
                continue
            index = sum(u * places[c] for (c, _n), u in zip(counts, used))
            if best is None or (values[index], -index) > (best[0], -best[1]):
                best = (values[index], index, [c for (c, n), u in zip(counts, used) for _ in range(n - u)])
        return (None, 0.0) if best is None else (best[2], best[0])


def _played_codes(game: Any, move: Move) -> list[int]:
    return [0 if t.blank else game.alphabet.code(t.tile) or 0 for t in move.tiles]


def infer(engines: "Engines", position: Position, move: "str | int | Move", *, margin: float = DEFAULT_MARGIN,
          leaves: "LeavesSpec | None" = None, max_leaves: int = DEFAULT_MAX_LEAVES, samples: int = DEFAULT_SAMPLES,
          seed: int = 0, deadline: float | None = None) -> Inference:
    """The distribution over the tiles the opponent kept after ``move`` (see the module docstring).

    ``position``: before the move, the opponent on turn (first rack empty,
    the second the observer's). ``move``: the play's notation or
    :class:`Move`, ``-N`` (an exchange of N tiles) or ``-`` (a pass).
    ``margin``: the equity (points) the move may fall short of the rack's
    best (``math.inf``: no inference). ``leaves``: the leave table the
    equities use (default: the game's). ``max_leaves``: enumerate exactly up
    to that many leaves; else draw ``samples`` racks with ``seed``. Past
    ``deadline`` (a :func:`time.monotonic` value) a
    :class:`~lexigraph.errors.DeadlineExceeded`. Bad input is a :class:`GameError`.
    """
    started = time.monotonic()
    margin = _check_margin(margin)
    max_leaves = _whole("max_leaves", max_leaves, 0, MAX_LEAVES)
    samples = _whole("samples", samples, 1, MAX_LEAVES)
    seed = _whole("seed", seed, 0, (1 << 64) - 1)
    if not isinstance(position, Position):
        raise GameError(f"a position must be a Position, not {type(position).__name__}")
    pos = aligned(engines, position)
    if pos.racks[0].strip():
        raise GameError("the position is the one before the opponent's move, the opponent on turn: leave their rack "
                        "(the first) empty, it is what is inferred; the observer's rack is the second")
    game = pos.game
    observed = parse_observed(engines, pos, move)
    unseen = eq.unseen_counts(pos, parse_rack(game, pos.racks[1]))
    n_unseen = sum(unseen)
    played = Counter(_played_codes(game, observed.move) if observed.move is not None else [])
    available = list(unseen)
    for c, n in played.items():
        if n > available[c]:
            raise GameError(f"the move plays {n} of {rack_text(game, [c])} but only {available[c]} are unseen")
        available[c] -= n
    rack_size = min(game.rack_size, n_unseen)
    leave_size = rack_size - sum(played.values()) - observed.exchanged
    drawn = rack_size - sum(played.values())
    if leave_size < 0:
        raise GameError(f"the move uses {rack_size - leave_size} tiles; the opponent held at most {rack_size}")
    pos = pos.copy()
    pos.racks = ["", pos.racks[1]]
    judge = _RackJudge(engines, pos, observed, leave_table(engines, pos, leaves), margin)
    possible = count_multisets(available, drawn)
    exact = possible <= max_leaves
    if exact:
        weights, evaluated = _enumerate(judge, unseen, available, played, drawn, deadline)
    else:
        weights, evaluated = _sample(judge, unseen, available, played, drawn, samples, seed, deadline)
    total = sum(weights.values())
    found = [InferredLeave(rack_text(game, list(codes)), codes, float(w / total)) for codes, w in weights.items()]
    found.sort(key=lambda leave: (-leave.probability, leave.leave))
    notes = [] if found else [f"no rack the opponent may have held made {observed.notation} within {margin:g} "
                              f"points of its best move: nothing is inferred"]
    return Inference(observed, margin, found, exact, possible, evaluated, len(found), n_unseen, leave_size, seed,
                     0 if exact else samples, time.monotonic() - started, notes)


def _rack_of(played: Counter[int], counts: tuple[int, ...]) -> list[int]:
    rack = list(played.elements())
    for c, n in enumerate(counts):
        rack.extend([c] * n)
    return sorted(rack)


def _enumerate(judge: _RackJudge, unseen: list[int], available: list[int], played: Counter[int], drawn: int,
               deadline: float | None) -> tuple[dict[tuple[int, ...], float], int]:
    """Every rack (the played tiles and ``drawn`` more): each consistent one's leave weighted by its draw."""
    weights: dict[tuple[int, ...], float] = {}
    evaluated = 0
    for counts in multisets(available, drawn):
        rack = _rack_of(played, counts)
        evaluated += 1
        kept = judge.leave_of(rack, deadline)
        if kept is not None:
            rack_counts = Counter(rack)
            key = tuple(kept)
            weights[key] = weights.get(key, 0.0) + draw_weight(unseen, [rack_counts[c] for c in range(len(unseen))])
    return weights, evaluated


def _sample(judge: _RackJudge, unseen: list[int], available: list[int], played: Counter[int], drawn: int,
            samples: int, seed: int, deadline: float | None) -> tuple[dict[tuple[int, ...], float], int]:
    """``samples`` racks drawn tile by tile from the unseen tiles less those played, each consistent one's leave
    weighted by its draw over the chance the sampler drew it (importance sampling)."""
    rng = random.Random(seed)
    bag = [c for c, n in enumerate(available) for _ in range(n)]
    verdicts: dict[tuple[int, ...], tuple[int, ...] | None] = {}
    weights: dict[tuple[int, ...], float] = {}
    for _ in range(samples):
        counts_list = [0] * len(available)
        for c in rng.sample(bag, drawn):
            counts_list[c] += 1
        counts = tuple(counts_list)
        if counts not in verdicts:
            kept = judge.leave_of(_rack_of(played, counts), deadline)
            verdicts[counts] = None if kept is None else tuple(kept)
        kept_key = verdicts[counts]
        if kept_key is None:
            continue
        rack = [n + played[c] for c, n in enumerate(counts)]
        ratio = draw_weight(unseen, rack) / draw_weight(available, list(counts))
        weights[kept_key] = weights.get(kept_key, 0.0) + ratio
    return weights, len(verdicts)


def position_before(position: Position, move: "str | int | Move") -> Position:
    """The position before the opponent's ``move`` as :func:`infer` takes it, from ``position`` after the move
    (the observer on turn, its rack first): the move's new tiles lifted off the board (a play's tiles written
    outside parentheses and dots: ``8H QU(I)Z`` lifts Q, U and Z), the opponent on turn with an empty rack, the
    observer's rack second. An exchange (``-N``) or a pass leaves the board as it is.

    >>> from lexigraph.scrabble.game import Game
    >>> after = Position.from_cgp("5/5/1CAT1/1A3/5 S/ 0/4 0", Game.from_dict({"name": "tiny",
    ...     "board": ["....."] * 5, "rack_size": 3, "blanks": 0, "tiles": {"a": [3, 1], "c": [1, 3], "s": [2, 1],
    ...     "t": [2, 1], "z": [1, 10]}}))
    >>> before = position_before(after, "B3 (C)A")
    >>> before.board_text().splitlines()[3], before.racks
    ('.....', ['', 'S'])
    """
    if not isinstance(position, Position):
        raise GameError(f"a position must be a Position, not {type(position).__name__}")
    before = position.copy()
    before.racks = ["", position.racks[0]]
    before.scores = [position.scores[1], position.scores[0]]
    squares: list[tuple[int, int, int | None, bool]]
    if isinstance(move, Move) and move.kind == "play":
        squares = [(t.row, t.col, position.game.alphabet.code(t.tile), t.blank) for t in move.tiles]
    elif isinstance(move, str) and not (_EXCHANGE.match(move) or _PASS.match(move)):
        squares = list(_new_tiles(position, move))
    else:
        before.zero_turns = max(0, position.zero_turns - 1)
        return before
    n = position.game.size
    for row, col, code, blank in squares:
        if code is None or position.codes[row * n + col] != code or bool(position.blanks[row * n + col]) != blank:
            raise GameError(f"{position.game.square_name(row, col)} does not hold the tile the opponent's move "
                            f"put there: the position is the one after their move, the move on its board")
        before.place(row, col, 0, False)
    before.zero_turns = 0
    return before


def _new_tiles(position: Position, play: str) -> list[tuple[int, int, int, bool]]:
    """The squares and tiles a play's notation says it put down (those outside parentheses and dots)."""
    parts = play.strip().split() if len(play) <= MAX_PLAY_TEXT else []
    square = parse_square(parts[0], position.game.size) if len(parts) == 2 else None
    if square is None:
        raise GameError(f"the opponent's move must be a play such as '8H WORD', '-3' or '-', not {play!r}")
    row, col, across = square
    tokens = play_tokens(position.game, parts[1], play)
    placed = []
    for k, (code, blank, through) in enumerate(tokens):
        r, c = (row, col + k) if across else (row + k, col)
        if r >= position.game.size or c >= position.game.size:
            raise GameError(f"the play {play!r} runs off the board")
        if not through:
            placed.append((r, c, code, blank))
    if not placed:
        raise GameError(f"the play {play!r} puts no tile down")
    return placed


def infer_last_move(engines: "Engines", position: Position, move: "str | int | Move", *,
                    margin: float = DEFAULT_MARGIN, leaves: "LeavesSpec | None" = None,
                    max_leaves: int = DEFAULT_MAX_LEAVES, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                    deadline: float | None = None) -> Inference:
    """:func:`infer` from the position **after** the opponent's ``move`` (the observer on turn): the move lifted
    off the board first (:func:`position_before`)."""
    return infer(engines, position_before(aligned(engines, position), move), move, margin=margin, leaves=leaves,
                 max_leaves=max_leaves, samples=samples, seed=seed, deadline=deadline)
