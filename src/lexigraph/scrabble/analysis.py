"""Game analysis: each turn of a game record against the engine, in win chances a player reads.

:func:`analyze_game` takes the turns :func:`lexigraph.scrabble.gcg.analyze`
lists (plays, exchanges, passes; each with the play made, its score and the
best plays by static equity) and adds, per turn:

* ``win_before``: the mover's chance to win before it moves (the win table,
  :mod:`lexigraph.scrabble.winpct`, at its spread and the tiles it cannot
  see: the bag and the opponent's rack);
* ``win_after``: the chance the move made leaves it, and ``best_win`` the
  chance of the engine's best move, each valued the same way: with a
  simulation budget (``budget`` seconds or ``iterations`` play-outs per
  candidate, :func:`lexigraph.scrabble.simulation.simulate`) the engine's
  best is the simulation's over the best moves by equity and the move made,
  each valued by its win chance over the play-outs; without, the engine's
  best is the best by static equity, and a move is valued by the table after
  it at the spread plus its equity (its score, its leave's value and the
  end-of-game adjustments: MAGPIE's *spread plus leftover*), the tiles the
  opponent then cannot see, or the result itself when the move ends the
  game;
* ``win_lost``: ``best_win - win_after``, never below 0 (a turn whose move is
  the engine's best loses 0), and ``mistake``, its class (:data:`MISTAKES`:
  below 1% ``none``, then ``inaccuracy``, ``mistake`` from 4%, ``blunder``
  from 10%);
* ``win_player1``: the first player's chance after the turn (the chart of the
  game), and ``board_after``, the board's rows after it (the board text).

With ``infer=True`` each turn's simulation deals the opponent's racks from
what their move just before it suggests they kept
(:func:`lexigraph.scrabble.inference.infer`, within ``infer_margin`` points
of equity, on the position before that move and the mover's rack): the
turn's ``inferred`` says from which move and how many leaves. A turn with no
opponent's move just before it (the first, or after a challenge or a
withdrawn phony), or judged statically, is simulated as without.

A play the lexicon does not hold is valued as it stood on the board (its
recorded score), unless the next event withdraws it (a phony challenged
off: ``challenged``), when it counts as a pass. Exchanges and passes are
moves like any other; time penalties and challenge bonuses change the totals
the next turns start from. A turn whose rack the record does not give is
listed without a verdict (``win_lost`` None). Per player, :func:`summary`
counts the mistakes by class and adds up the win chance lost.

>>> import lexigraph
>>> from lexigraph.scrabble.gcg import read_gcg
>>> rec = read_gcg('''#player1 ann Ann
... #player2 bob Bob
... >ann: AEINRST 8D RETAINS +66 66
... >bob: EIOPSXY 9E SOX +39 39
... ''')
>>> turns = analyze_game(lexigraph.open(), rec, top=1)
>>> [(t["play"], t["mistake"]) for t in turns]
[('8D RETAINS', 'none'), ('9E SOX', 'mistake')]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..support.jsontypes import JSONObject
from . import equity as eq
from .game import GameError
from .gcg import GameRecord, analyze
from .inference import DEFAULT_MARGIN, MAX_MARGIN, Inference, infer
from .movegen import LeavesSpec, SortKey, generate, leave_table, play_equity
from .moves import IllegalPlay, Move, Placed
from .position import Position
from .scoring import parse_play, score_play
from .simulation import MAX_CANDIDATES, simulate
from .tiles import parse_rack
from .winpct import WinTable, default_table

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Engines
    from .leaves import LeaveTable

__all__ = ["MISTAKES", "Valuation", "analyze_game", "inference_before", "mistake_class", "summary"]

#: The mistake classes by the win chance lost (a fraction): each class from its threshold up to the next one's.
MISTAKES = (("none", 0.0), ("inaccuracy", 0.01), ("mistake", 0.04), ("blunder", 0.10))


def mistake_class(lost: float) -> str:
    """The class of a turn that lost ``lost`` (a fraction) of win chance (:data:`MISTAKES`).

    >>> [mistake_class(x) for x in (0.0, 0.02, 0.05, 0.3)]
    ['none', 'inaccuracy', 'mistake', 'blunder']
    """
    name = MISTAKES[0][0]
    for label, threshold in MISTAKES:
        if lost >= threshold - 1e-12:
            name = label
    return name


@dataclass(frozen=True)
class Valuation:
    """How moves are valued: the win table, and a simulation per turn when ``budget`` (seconds) or
    ``iterations`` is given (over the best ``candidates`` by equity and the move made)."""

    table: WinTable
    budget: float | None = None
    iterations: int | None = None
    candidates: int = 5
    plies: int = 2
    seed: int = 0
    infer: bool = False
    infer_margin: float = DEFAULT_MARGIN

    @property
    def simulates(self) -> bool:
        return bool(self.budget) or bool(self.iterations)


def _unseen_to_mover(pos: Position, rack_tiles: int) -> int:
    """Tiles the player on turn cannot see: every tile of the game but those on the board and its own rack."""
    total = sum(pos.game.counts_by_code())
    on_board = sum(1 for c in pos.codes if c)
    return max(0, total - on_board - rack_tiles)


def _tiles_placed(move: Move) -> int:
    return len(move.tiles) if move.kind == "play" else 0


def static_win(table: WinTable, pos: Position, move: Move, value: float, rack_tiles: int) -> float:
    """The mover's win chance after ``move`` worth ``value`` (its equity), valued by the table from the
    opponent's side (module docstring); the result itself when the move ends the game."""
    game = pos.game
    spread = pos.scores[0] - pos.scores[1] + value
    unseen = _unseen_to_mover(pos, rack_tiles)
    opponent = min(game.rack_size, unseen)
    bag = unseen - opponent
    kept = rack_tiles - _tiles_placed(move)
    if bag == 0 and kept == 0:  # out: the game is over (the equity holds the end's rack points)
        return 1.0 if spread > 0 else 0.0 if spread < 0 else 0.5
    unseen_after = unseen - opponent + kept if move.kind != "exchange" else unseen - opponent + rack_tiles
    if unseen_after <= 0:
        return 1.0 if spread > 0 else 0.0 if spread < 0 else 0.5
    return table.after_move(spread, unseen_after)


def _phony_move(pos: Position, play: str, score: int) -> Move | None:
    """A play the lexicon does not hold, as a :class:`Move` with its recorded score (None if it cannot be
    placed at all)."""
    try:
        placed = parse_play(pos, play)
    except (IllegalPlay, GameError):
        return None
    label = pos.game.alphabet.label
    tiles = tuple(Placed(r, c, label(code).lower(), bool(blank)) for r, c, code, blank in placed)
    return Move("play", score, "", tiles=tiles, notation=play)


def _made_move(lex: "Engines", pos: Position, entry: JSONObject, rack: str, challenged: bool) -> Move | None:
    kind = entry["kind"]
    if kind == "pass" or challenged:
        return Move("pass", 0, "", notation="-")
    if kind == "exchange":
        tiles = str(entry["play"])[1:]
        if tiles.isdigit():  # the count alone: the tiles are not known
            return None
        return Move("exchange", 0, "", notation="-" + tiles, exchanged=tiles)
    play = str(entry["play"])
    try:
        return score_play(lex, pos, play, rack=rack or None)
    except IllegalPlay:
        recorded = entry["recorded_score"]
        return _phony_move(pos, play, recorded if isinstance(recorded, int) else 0)


def inference_before(lex: "Engines", record: GameRecord, turn: int, rack: str, table: "LeaveTable | None",
                     margin: float = DEFAULT_MARGIN) -> Inference | None:
    """The inference of the opponent's move just before event ``turn`` (a play, an exchange or a pass by the
    other player), from the position before it and ``rack``, the mover's tiles; None when there is no such move.

    >>> import lexigraph
    >>> from lexigraph.scrabble.gcg import read_gcg
    >>> rec = read_gcg('''#player1 ann Ann
    ... #player2 bob Bob
    ... >ann: AEINRST 8D RETAINS +66 66
    ... >bob: EIOPSXY 9E SOX +39 39
    ... ''')
    >>> found = inference_before(lexigraph.open(), rec, 1, "EIOPSXY", None)
    >>> found.observed.notation, found.leave_size
    ('8D RETAINS', 0)
    """
    if turn < 1 or turn >= len(record.events):
        return None
    previous, mover = record.events[turn - 1], record.events[turn].player
    if previous.kind not in ("play", "exchange", "pass") or previous.player == mover or not rack:
        return None
    before = record.replay(turn - 1)
    before.racks = ["", rack]
    if previous.kind == "play":
        move = f"{previous.position} {previous.play}".strip()
    elif previous.kind == "exchange":
        move = "-" + (previous.play if previous.play.isdigit() else str(len(parse_rack(before.game, previous.play))))
    else:
        move = "-"
    return infer(lex, before, move, margin=margin, leaves=table)


def _turn_value(lex: "Engines", pos: Position, made: Move, rack: str, table: "LeaveTable | None",
                valuation: Valuation, turn: int, inferred: Inference | None = None) -> dict[str, Any]:
    """The win chances of the move made and of the engine's best (module docstring)."""
    rack_tiles = len(parse_rack(pos.game, rack))
    best = list(generate(lex, pos, rack, top=valuation.candidates, exchanges=True, passes=True, leaves=table,
                         sort="equity", count_all=False))
    made_value = play_equity(lex, pos, made, rack, leaves=table)
    out: dict[str, Any] = {"made_equity": round(made_value, 4)}
    if best:
        out["best_equity_move"] = best[0].notation
    if not valuation.simulates or not best or sum(eq.unseen_counts(pos, parse_rack(pos.game, rack))) == 0:
        # the static engine's best is the best by equity; the move made, when it is that move, is valued alike
        by_equity = best[0] if best else made
        value = by_equity.equity if by_equity.equity is not None else float(by_equity.score)
        best_win = static_win(valuation.table, pos, by_equity, value, rack_tiles)
        made_win = best_win if _same(by_equity, made) else static_win(valuation.table, pos, made, made_value,
                                                                        rack_tiles)
        out.update(method="static", win_after=made_win, best_win=max(best_win, made_win),
                   best_move=by_equity.notation)
        return out
    same = next((m for m in best if _same(m, made)), None)
    moves = best if same is not None else (best + [made])[:MAX_CANDIDATES]
    result = simulate(lex, pos, leaves=table, moves=moves, candidates=len(moves), plies=valuation.plies,
                      iterations=valuation.iterations or 100_000, time_limit=valuation.budget,
                      seed=(valuation.seed + turn) % (1 << 64), workers=1, win_table=valuation.table,
                      infer=inferred)
    by_move = {id(p.move): p for p in result.ranked}
    made_play = by_move[id(same if same is not None else made)]
    top = result.ranked[0]
    out.update(method="simulation", win_after=made_play.win_rate, best_win=max(top.win_rate, made_play.win_rate),
               best_move=top.move.notation, iterations=result.iterations,
               alternatives=[{"notation": p.move.notation, "win": round(p.win_rate, 6),
                              "spread": round(p.mean_spread, 4), "playouts": p.iterations, "dropped": p.dropped}
                             for p in result.ranked])
    if top.move is (same if same is not None else made):
        out["best_win"] = made_play.win_rate  # the engine's best was the move made: nothing lost
    if inferred is not None:
        out["inferred"] = {"move": inferred.observed.notation, "consistent": inferred.consistent,
                           "exact": inferred.exact}
    return out


def _same(a: Move, b: Move) -> bool:
    if a.kind != b.kind:
        return False
    if a.kind == "play":
        return {(t.row, t.col, t.tile, t.blank) for t in a.tiles} == {(t.row, t.col, t.tile, t.blank)
                                                                    for t in b.tiles}
    if a.kind == "exchange":
        return sorted(a.exchanged.upper()) == sorted(b.exchanged.upper())
    return True


def analyze_game(lex: "Engines", record: GameRecord, *, top: int = 3, leaves: LeavesSpec | None = None,
                 win_table: WinTable | None = None, budget: float | None = None, iterations: int | None = None,
                 candidates: int = 5, plies: int = 2, seed: int = 0, deadline: float | None = None,
                 sort: SortKey = "equity", infer: bool = False, infer_margin: float = DEFAULT_MARGIN) \
        -> list[JSONObject]:
    """Each decision of the game (module docstring): :func:`~lexigraph.scrabble.gcg.analyze`'s turn (its best
    plays ranked by ``sort``) and the win chances. ``budget`` (seconds) or ``iterations`` per turn simulates;
    neither values moves statically. ``infer``: each simulation deals the opponent's racks from the inference of
    their move before the turn (``infer_margin`` points)."""
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, (int, float))
                               or not 0 <= budget <= 3600):
        raise GameError(f"budget is a number of seconds from 0 to 3,600, not {budget!r}")
    if not isinstance(infer, bool):
        raise GameError(f"infer is True or False, not {infer!r}")
    if isinstance(infer_margin, bool) or not isinstance(infer_margin, (int, float)) or not (
            0 <= infer_margin <= MAX_MARGIN or infer_margin == math.inf):
        raise GameError(f"infer_margin must be a number of points from 0 to {MAX_MARGIN:g}, not {infer_margin!r}")
    valuation = Valuation(win_table or default_table(), budget or None, iterations or None, candidates, plies, seed,
                          infer, infer_margin)
    turns = analyze(lex, record, top=top, deadline=deadline, leaves=leaves, sort=sort)
    withdrawn = {k for k, e in enumerate(record.events) if e.kind == "withdrawn"}
    first_player = record.players[0] if record.players else ""
    for entry in turns:
        k = _int(entry["turn"]) - 1
        _add_win(lex, record, entry, k, k + 1 in withdrawn, leaves, valuation, first_player)
    return turns


def _add_win(lex: "Engines", record: GameRecord, entry: JSONObject, k: int, challenged: bool,
             leaves: LeavesSpec | None, valuation: Valuation, first_player: str) -> None:
    pos = record.replay(k)
    rack = str(entry["rack"])
    entry["challenged"] = challenged
    entry["phony"] = challenged or not entry["legal"]
    rack_tiles = len(parse_rack(pos.game, rack)) if rack else min(pos.game.rack_size, _unseen_to_mover(pos, 0))
    spread = pos.scores[0] - pos.scores[1]
    entry["spread_before"] = spread
    entry["win_before"] = round(valuation.table.on_turn(spread, max(1, _unseen_to_mover(pos, rack_tiles))), 6)
    made = _made_move(lex, pos, entry, rack, challenged) if rack else None
    if made is None:
        # no rack (or a hidden exchange): the move is not judged; the chart follows the recorded score
        score = 0 if challenged else _int(entry["recorded_score"])
        after = static_win(valuation.table, pos, Move("pass", score, ""), float(score), rack_tiles)
        entry.update(method="none", win_after=round(after, 6), best_win=None, win_lost=None, mistake=None,
                     best_move=None)
    else:
        table = leave_table(lex, pos, leaves)
        inferred = None
        if valuation.infer and valuation.simulates:
            try:
                inferred = inference_before(lex, record, k, rack, table, valuation.infer_margin)
            except GameError as e:  # the move before cannot be read on its board (a phony, say): simulate without
                entry["inference_note"] = str(e)
        try:
            value = _turn_value(lex, pos, made, rack, table, valuation, k, inferred)
        except GameError as e:  # a record the engine cannot follow here (a rack the bag cannot hold, say)
            entry.update(method="none", win_after=entry["win_before"], best_win=None, win_lost=None, mistake=None,
                         best_move=None, note=str(e))
            value = {}
        if value:
            lost = max(0.0, value["best_win"] - value["win_after"])
            value["win_after"] = round(value["win_after"], 6)
            value["best_win"] = round(value["best_win"], 6)
            entry.update(value, win_lost=round(lost, 6), mistake=mistake_class(lost))
    after_mover = _float(entry["win_after"])
    entry["win_player1"] = round(after_mover if entry["player"] == first_player else 1.0 - after_mover, 6)
    # the board as the record left it (a challenged phony is lifted by the next event): what a viewer draws
    entry["board_after"] = list(record.replay(k + 2 if challenged else k + 1).board_text().splitlines())


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


def _float(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) else 0.0


def summary(turns: Sequence[JSONObject], players: Sequence[str]) -> list[JSONObject]:
    """Per player: turns judged, mistakes by class, phonies, the win chance lost in all and per turn judged.

    >>> summary([{"player": "a", "win_lost": 0.05, "mistake": "mistake", "phony": False}], ["a", "b"])[0]["lost"]
    0.05
    """
    out: list[JSONObject] = []
    for p in players:
        mine = [t for t in turns if t["player"] == p]
        judged = [t for t in mine if t.get("win_lost") is not None]
        lost = sum(_float(t["win_lost"]) for t in judged)
        classes: dict[str, int] = {name: 0 for name, _ in MISTAKES}
        for t in judged:
            classes[str(t["mistake"])] += 1
        out.append({"player": p, "turns": len(mine), "judged": len(judged), "mistakes": dict(classes),
                    "phonies": sum(1 for t in mine if t.get("phony")), "lost": round(lost, 6),
                    "lost_per_turn": round(lost / len(judged), 6) if judged else 0.0})
    return out
