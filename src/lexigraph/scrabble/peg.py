"""The pre-endgame: one to four tiles in the bag, every play judged against every way the bag may be drawn.

With a few tiles in the bag the side to move cannot see the opponent's
rack, but it can see the unseen tiles: the opponent's rack and the bag
together. A **scenario** is one order in which the bag's tiles may come
out (the rest of the unseen tiles being the opponent's rack); each is
counted by the number of ways the unseen tiles give it (the tiles of a
letter are told apart), so that with one tile in the bag and eight unseen
there are eight draws. :func:`solve_peg` plays each candidate (every play,
and the pass; exchanges are refused while the bag holds fewer tiles than a
rack, so there are none) against each scenario and follows the game to its
end by exact search: whoever moves next knows the scenario (the tiles left
in the bag and in which order) and plays their best, the opponent first,
and once the bag is empty the endgame is solved exactly
(:func:`lexigraph.scrabble.endgame.solve_endgame`, on the lexicon's
engine). A play draws as many tiles as it put down, from the front of the
bag; six turns without a play end the game, each side losing its rack's
points. No pessimistic mode is offered: the opponent knows the bag only
after the candidate is played, as the side to move would at its own later
turns.

Per candidate the answer counts the draws **won**, **drawn** (tied) and
**lost** (the final spread: the scores' difference now plus the value) and
the **mean spread** over the draws, and the candidates are ranked by wins
(a tie half a win), then mean spread. With one or two tiles in the bag every
scenario of every candidate is solved (``exact``); with three or four the
search is anytime: scenarios are taken in an order shuffled by ``seed``,
every candidate meets the same scenarios, and at ``time_limit`` the answer
covers the scenarios done (``exact`` False, ``scenarios_done`` says how many);
without a ``time_limit`` that search stops after :data:`DEFAULT_ANYTIME_SECONDS`.

>>> import lexigraph
>>> from lexigraph.scrabble.game import Game
>>> lex = lexigraph.load(["za", "zas", "at", "ta", "as", "cat", "cats", "scat", "tat", "tats"])
>>> tiny = Game.from_dict({"name": "tiny", "board": ["....."] * 5, "rack_size": 2, "blanks": 0,
...                        "tiles": {"a": [2, 1], "c": [1, 3], "s": [2, 1], "t": [2, 1], "z": [1, 10]}})
>>> solution = solve_peg(lex, Position.from_cgp("5/5/1CAT1/5/5 ZA/ 0/0 0", tiny))
>>> solution.bag, solution.scenarios, solution.draws, solution.exact   # the bag holds S (2 ways) or T
(1, 2, 3, True)
>>> [(p.notation, p.wins, p.draws, p.losses, round(p.mean_spread, 2)) for p in solution.plays[:3]]
[('C2 Z(A)', 3, 0, 0, 43.0), ('2C ZA', 3, 0, 0, 34.33), ('pass', 1, 0, 2, 15.0)]
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine.interface import ENDGAME_MAX_RACK
from .endgame import ZERO_TURNS_TO_END, EndgameSolution, check_time_limit, solve_endgame
from .game import GameError
from .movegen import aligned, generate, generate_placements
from .moves import Move, RawPlay, move_from_record
from .position import Position
from .tiles import parse_rack, rack_text

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Engines
    from .runs import Run

__all__ = ["MAX_BAG", "PegPlay", "PegSolution", "first_pre_endgame", "solve_peg"]

#: The most tiles in the bag a pre-endgame takes; up to EXACT_BAG it is solved exactly (without a time limit), and
#: beyond, when no time limit is given, the anytime search stops after DEFAULT_ANYTIME_SECONDS.
MAX_BAG = 4
EXACT_BAG = 2
DEFAULT_ANYTIME_SECONDS = 60.0
#: The endgame solver's table for each leaf, in megabytes (many small solves: a small table each).
LEAF_TABLE_MB = 4


class _OutOfTime(Exception):
    """The time limit came inside a scenario: that scenario is dropped."""


@dataclass(frozen=True)
class PegPlay:
    """One candidate's record: the move (None: the pass) and, over the draws done, the wins, ties and losses
    and the mean final spread."""

    move: Move | None
    wins: int
    draws: int
    losses: int
    mean_spread: float
    equity: float

    @property
    def notation(self) -> str:
        return "pass" if self.move is None else self.move.notation

    @property
    def total(self) -> int:
        return self.wins + self.draws + self.losses

    def as_dict(self) -> dict[str, Any]:
        move = {"kind": "pass"} if self.move is None else self.move.to_dict()
        return {"move": move, "notation": self.notation, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "total": self.total,
                "win_rate": round((self.wins + self.draws / 2) / self.total, 6) if self.total else 0.0,
                "mean_spread": round(self.mean_spread, 4), "equity": round(self.equity, 4)}


@dataclass
class PegSolution:
    """The answer of :func:`solve_peg`: the candidates ranked, the bag's size, the scenarios (distinct draw
    orders) and the draws they count, how many were done, and whether the answer is exact."""

    plays: list[PegPlay]
    bag: int
    scenarios: int
    draws: int
    scenarios_done: int
    exact: bool
    endgames: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def best(self) -> PegPlay:
        return self.plays[0]

    def as_dict(self) -> dict[str, Any]:
        return {"bag": self.bag, "scenarios": self.scenarios, "draws": self.draws,
                "scenarios_done": self.scenarios_done, "exact": self.exact, "endgames": self.endgames,
                "seconds": round(self.seconds, 4), "best": self.best.as_dict() if self.plays else None,
                "plays": [p.as_dict() for p in self.plays], "notes": list(self.notes)}


def scenarios(unseen: list[int], bag: int) -> list[tuple[tuple[int, ...], int]]:
    """Every order in which ``bag`` tiles may come out of the ``unseen`` ones (codes, with repeats), each with
    the number of ways the tiles (told apart) give it.

    >>> scenarios([1, 1, 2], 1)
    [((1,), 2), ((2,), 1)]
    >>> sum(w for _s, w in scenarios([1, 1, 2, 3], 2))    # 4 x 3 ordered pairs of tiles
    12
    """
    counts = Counter(unseen)

    def rest(left: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if left == 0:
            yield (), 1
            return
        for code in sorted(counts):
            n = counts[code]
            if n == 0:
                continue
            counts[code] -= 1
            for tail, ways in rest(left - 1):
                yield (code, *tail), n * ways
            counts[code] += 1

    return list(rest(bag))


class _Search:
    """Full-information minimax from the candidate on: plays and passes while the bag holds tiles, the exact
    endgame once it is empty; each position's value remembered."""

    def __init__(self, engines: "Engines", stop: float | None) -> None:
        self.engines, self.stop = engines, stop
        self.memo: dict[tuple[Any, ...], int] = {}
        self.endgames = 0

    def value(self, pos: Position, mine: list[int], theirs: list[int], bag: tuple[int, ...], zeros: int) -> int:
        """The spread from here to the end for the side holding ``mine``, to move."""
        key = (bytes(pos.codes), bytes(pos.blanks), tuple(mine), tuple(theirs), bag, zeros)
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = self._endgame(pos, mine, theirs, zeros) if not bag else \
                self._search(pos, mine, theirs, bag, zeros)
        return known

    def _search(self, pos: Position, mine: list[int], theirs: list[int], bag: tuple[int, ...], zeros: int) -> int:
        best = self.after_pass(pos, mine, theirs, bag, zeros)
        for raw in generate_placements(self.engines, pos, rack_text(pos.game, mine)):
            best = max(best, self.after_play(pos, mine, theirs, bag, raw))
        return best

    def after_pass(self, pos: Position, mine: list[int], theirs: list[int], bag: tuple[int, ...], zeros: int) -> int:
        if zeros + 1 >= ZERO_TURNS_TO_END:
            points = pos.game.points_by_code()
            return sum(points[c] for c in theirs) - sum(points[c] for c in mine)
        return -self.value(pos, theirs, mine, bag, zeros + 1)

    def after_play(self, pos: Position, mine: list[int], theirs: list[int], bag: tuple[int, ...],
                   raw: RawPlay) -> int:
        used = [0 if b & 0x80 else b for b in raw[4] if b]
        return self.after_move(pos.with_play(move_from_record(pos, mine, raw)), raw[0], used, mine, theirs, bag)

    def after_move(self, after: Position, score: int, used: list[int], mine: list[int], theirs: list[int],
                   bag: tuple[int, ...]) -> int:
        """The value of a play of ``score`` that put ``used`` down (``after``: the board it leaves)."""
        left = Counter(mine)
        left.subtract(used)
        drawn = min(len(used), len(bag))
        rest = sorted([*left.elements(), *bag[:drawn]])
        if not rest:  # out with the bag empty: the game ends
            points = after.game.points_by_code()
            return score + 2 * sum(points[c] for c in theirs)
        return score - self.value(after, theirs, rest, bag[drawn:], 0)

    def _endgame(self, pos: Position, mine: list[int], theirs: list[int], zeros: int) -> int:
        if self.stop is not None and time.monotonic() >= self.stop:
            raise _OutOfTime
        leaf = pos.copy()
        leaf.racks = [rack_text(pos.game, mine), rack_text(pos.game, theirs)]
        leaf.zero_turns = zeros
        self.endgames += 1
        solution: EndgameSolution = solve_endgame(self.engines, leaf, table_megabytes=LEAF_TABLE_MB,
                                                  deadline=self.stop)
        if not solution.complete:
            raise _OutOfTime
        return solution.value


def _checked_bag(pos: Position, rack: list[int]) -> tuple[list[int], int]:
    """The unseen tiles and the bag's size, or a :class:`GameError` when this is no pre-endgame."""
    game = pos.game
    over = pos.overdrawn()
    if over:
        raise GameError(f"the board and rack hold more tiles than the {game.name} bag: {', '.join(over)}")
    if not rack:
        raise GameError("the side to move has no tiles: there is nothing to play")
    if len(rack) > min(game.rack_size, ENDGAME_MAX_RACK):
        raise GameError(f"the rack holds {len(rack)} tiles, more than the rack size ({game.rack_size})")
    if pos.zero_turns >= ZERO_TURNS_TO_END:
        raise GameError(f"the game is over: {pos.zero_turns} turns in a row without a play")
    unseen = pos.unseen()
    bag = len(unseen) - min(game.rack_size, ENDGAME_MAX_RACK)
    if bag < 1:
        raise GameError(f"the bag is empty ({len(unseen)} tiles unseen: the opponent's rack): this is an endgame, "
                        f"solve it with lexigraph endgame")
    if bag > MAX_BAG:
        raise GameError(f"the bag holds {bag} tiles; a pre-endgame takes 1 to {MAX_BAG}")
    if bag >= game.rack_size:
        raise GameError(f"the bag holds {bag} tiles, enough to exchange with racks of {game.rack_size}: "
                        f"a pre-endgame needs fewer")
    return unseen, bag


def solve_peg(engines: "Engines", position: Position, *, candidates: int | None = None,
              time_limit: float | None = None, seed: int = 0, deadline: float | None = None) -> PegSolution:
    """Every candidate of a pre-endgame against every draw (see the module docstring).

    ``position``: the side to move's rack first (the second rack, if
    given, is ignored: the opponent's tiles are among the unseen).
    ``candidates``: judge only the best N by equity (and the pass); None: every play. ``time_limit``
    (seconds) or ``deadline`` (a :func:`time.monotonic` value): answer with the scenarios done by then.
    ``seed`` orders the scenarios (what an answer cut short covers). Bad input is a :class:`GameError`.
    """
    started = time.monotonic()
    if not isinstance(position, Position):
        raise GameError(f"a position must be a Position, not {type(position).__name__}")
    seconds = check_time_limit(time_limit)
    if candidates is not None and (isinstance(candidates, bool) or not isinstance(candidates, int)
                                   or candidates < 1):
        raise GameError(f"candidates must be a whole number of at least 1, not {candidates!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise GameError(f"the seed must be a whole number from 0 to 2**64 - 1, not {seed!r}")
    pos = aligned(engines, position).copy()
    game = pos.game
    rack = parse_rack(game, pos.racks[0])
    unseen, bag = _checked_bag(pos, rack)
    pos.racks = [pos.racks[0], ""]
    if bag > EXACT_BAG and seconds is None:
        seconds = DEFAULT_ANYTIME_SECONDS
    stop = None if seconds is None else started + seconds
    if deadline is not None:
        stop = deadline if stop is None else min(stop, deadline)
    moves = [m for m in generate(engines, pos, top=candidates, exchanges=False, passes=False, sort="equity")]
    pass_equity = generate(engines, pos, top=None, exchanges=False, passes=True, sort="equity")
    pass_value = next((m.equity or 0.0 for m in pass_equity if m.kind == "pass"), 0.0)
    order = scenarios(unseen, bag)
    random.Random(seed).shuffle(order)
    search = _Search(engines, stop)
    plays: list[Move | None] = [*moves, None]
    totals: list[list[float]] = [[0, 0, 0, 0.0] for _ in plays]  # wins, ties, losses, weighted spread
    lead = pos.scores[0] - pos.scores[1]
    done = 0
    for drawn, ways in order:
        try:
            values = [_candidate_value(search, pos, rack, unseen, drawn, move) for move in plays]
        except _OutOfTime:
            break
        for total, value in zip(totals, values):
            final = lead + value
            total[0 if final > 0 else 1 if final == 0 else 2] += ways
            total[3] += ways * value
        done += 1
    records = []
    for move, (wins, ties, losses, spread) in zip(plays, totals):
        weight = wins + ties + losses
        records.append(PegPlay(move, int(wins), int(ties), int(losses), spread / weight if weight else 0.0,
                               pass_value if move is None else float(move.equity or 0.0)))
    ranked = sorted(range(len(records)), key=lambda i: (-(records[i].wins + records[i].draws / 2),
                                                        -records[i].mean_spread, i))
    notes = []
    if done < len(order):
        notes.append(f"the time limit stopped the search after {done} of {len(order)} scenarios")
    return PegSolution([records[i] for i in ranked], bag, len(order), sum(w for _s, w in order), done,
                       done == len(order), search.endgames, time.monotonic() - started, notes)


def _candidate_value(search: _Search, pos: Position, rack: list[int], unseen: list[int], drawn: tuple[int, ...],
                     move: Move | None) -> int:
    """The spread from here to the end after ``move`` (None: the pass) when the bag comes out as ``drawn``."""
    theirs = Counter(unseen)
    theirs.subtract(drawn)
    opponent = sorted(theirs.elements())
    if move is None:
        return search.after_pass(pos, rack, opponent, drawn, pos.zero_turns)
    game = pos.game
    used = [0 if t.blank else game.alphabet.code(t.tile) or 0 for t in move.tiles]
    return search.after_move(pos.with_play(move), move.score, used, rack, opponent, drawn)


def first_pre_endgame(run: "Run", k: int, bag: int = 1) -> Position | None:
    """The position of the ``k``-th game of a self-play run (:func:`lexigraph.scrabble.selfplay.autoplay` with
    ``keep_games=True``) at its first turn with ``bag`` tiles (or fewer, down to 1) in the bag: the board, the
    mover's rack (the second left empty: the opponent's tiles are unseen), the scores and the turns without a
    play; None when the game never had such a turn.

    >>> import lexigraph
    >>> from lexigraph.scrabble.game import Game
    >>> from lexigraph.scrabble.selfplay import Player, autoplay
    >>> run = autoplay(lexigraph.open(), Game.preset("scrabble"), [Player.score("a"), Player.score("b")], games=1,
    ...                workers=1, keep_games=True)
    >>> pos = first_pre_endgame(run, 0, 2)
    >>> pos is None or 1 <= len(pos.unseen()) - 7 <= 2
    True
    """
    game = run.game
    for t, pos, totals, zeros in run.replay(k):
        who = int(t["player"])
        if 1 <= int(t["bag_before"]) <= bag:
            pos.racks = [rack_text(game, [int(c) for c in t["rack"][: t["rack_length"]]]), ""]
            pos.scores = [totals[who], totals[1 - who]]
            pos.zero_turns = zeros
            return pos
    return None
