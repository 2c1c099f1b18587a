"""A game between a person and an engine player: a seeded bag, two racks, turns checked and scored, the end, GCG.

:class:`Match` holds the whole state of one game: the board, the bag (a
list shuffled by a seeded :class:`random.Random`, drawn from its end), each
seat's rack and score, the turns made. The person's plays come as text
(``8H WORD``, ``H8 WORD`` down; ``-`` a pass; ``-ABC`` an exchange) and are
never trusted: a play is accepted only when the move generator lists it for
the person's rack on this board (the scorer of
:mod:`lexigraph.scrabble.scoring` names the rule a refused play breaks), and
its score is the generator's. After each of the person's turns the match
says how the engine saw it: the play's rank among every legal move by
equity, its equity and score, and the best five.

The engine player is ``score`` (its highest-scoring play), ``equity`` (its
best play or exchange by equity with the game's leave table) or
``simulation`` (:func:`lexigraph.scrabble.simulation.choose_move`, when that
module is installed). It sees its own rack only. The game ends when a
player plays out with the bag empty (it gains twice the points left on the
other rack) or after six scoreless turns in a row (each player loses the
points left on its rack), as in :mod:`lexigraph.scrabble.selfplay`; the
record is GCG, written as :func:`lexigraph.scrabble.selfplay.game_gcg` writes
self-play games.

The methods take the engines (a :class:`~lexigraph.Lexicon`) at each call,
so that a server may hand a game the lexicon it holds for the request.

>>> import lexigraph
>>> from lexigraph.scrabble.game import Game
>>> lex = lexigraph.open()
>>> m = Match(lex, Game.preset("scrabble"), opponent="score", human_first=True, seed=2)
>>> m.rack(HUMAN), m.bag_count(), m.turn
('AABEITW', 86, 0)
>>> best = m.legal_moves(lex, top=1)[0]
>>> best.notation, best.score
('8D BAWTIE', 28)
>>> done = m.play(lex, "8D BAWTIE")
>>> done["analysis"]["rank"], done["played"]["score"], done["reply"]["player"]
(1, 28, 'lexigraph')
>>> m.play(lex, "8D BAWTIE")
Traceback (most recent call last):
...
lexigraph.scrabble.moves.IllegalPlay: a play puts at least one tile on the board
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..compiler.registry import name_of
from ..errors import DeadlineExceeded, LexiconError
from ..support.jsontypes import JSONObject
from ..support.text import quote
from .game import Game, GameError
from .movegen import aligned, generate, leave_table, play_equity
from .moves import IllegalPlay, Move, Placed
from .position import Position
from .scoring import score_play
from .simulation import choose_move
from .tiles import parse_rack, rack_text, split_tiles

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from ..engine import Engines
    from .leaves import LeaveTable
    from .moves import MoveList

__all__ = ["ENGINE", "HUMAN", "MAX_MOVE_TEXT", "OPPONENTS", "Match", "ZERO_TURNS_TO_END"]

#: The seats: the person, and the engine player.
HUMAN, ENGINE = 0, 1
#: The engine players a match offers.
OPPONENTS = ("score", "equity", "simulation")
#: Scoreless turns in a row that end a game.
ZERO_TURNS_TO_END = 6
#: Longest move text read.
MAX_MOVE_TEXT = 200
#: Turns in the analysis: the best plays shown after each of the person's turns.
BEST_SHOWN = 5
#: Most seconds the simulation player thinks over a move made under a deadline (a server's request).
SIMULATION_SECONDS = 3.0
#: Nicknames in the game record.
NICKS = ("player", "lexigraph")

_EXCHANGE_WORDS = re.compile(r"^(?:exchange|exch|ex)\s+(\S+)$", re.IGNORECASE)


@dataclass
class Turn:
    """One turn made: who, the rack before it, the move, its score and the player's total after it."""

    seat: int
    rack: str
    move: Move
    total: int
    analysis: JSONObject | None = None


class Match:
    """One game between the person (seat :data:`HUMAN`) and an engine player (seat :data:`ENGINE`).

    ``racks`` hold tile codes (0: a blank), ``bag`` the tiles left (drawn from
    its end), ``turn`` the seat on turn; ``ending`` is ``"out"`` (a player
    played out) or ``"zeros"`` (six scoreless turns) once ``over``, with each
    seat's end ``adjustments`` and the racks ``left``. ``lexicon_name`` is the
    name its GCG and CGP carry (default: the lexicon's registered name,
    :func:`lexigraph.compiler.registry.name_of`).
    """

    game: Game
    opponent: str
    first: int
    seed: int
    lexicon_name: str
    board: Position
    bag: list[int]
    racks: list[list[int]]
    scores: list[int]
    turn: int
    zero_turns: int
    turns: list[Turn]
    over: bool
    ending: str
    adjustments: list[int]
    left: list[str]
    #: Before the engine's last play or exchange, as the person saw it: the position (the engine on turn, its rack
    #: unknown, the person's second) and the move as :func:`lexigraph.scrabble.inference.infer` reads it.
    before_engine_move: tuple[Position, str] | None

    def __init__(self, lex: "Engines", game: Game, *, opponent: str = "equity", human_first: bool = True,
                 seed: int = 0, lexicon_name: str = "", deadline: float | None = None) -> None:
        self._deal(lex, game, opponent, human_first, seed, lexicon_name)
        if self.turn == ENGINE:
            self.engine_turn(lex, deadline=deadline)

    def _deal(self, lex: "Engines", game: Game, opponent: str, human_first: bool, seed: int,
              lexicon_name: str) -> None:
        """The game before its first turn: the board, the bag shuffled by ``seed``, both racks drawn."""
        if not isinstance(game, Game):
            raise GameError(f"a match is played on a Game, not {type(game).__name__}")
        if opponent not in OPPONENTS:
            raise GameError(f"the opponent is one of {', '.join(OPPONENTS)}, not {quote(opponent)}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
            raise GameError(f"a seed is a whole number from 0 to 2**64 - 1, not {quote(seed)}")
        self.board = aligned(lex, Position(game))
        self.game = self.board.game
        if sum(self.game.counts_by_code()) < 2 * self.game.rack_size:
            raise GameError(f"the {self.game.name} game's bag holds too few tiles for two racks")
        self.opponent = opponent
        self.first = HUMAN if human_first else ENGINE
        self.seed = seed
        self.lexicon_name = lexicon_name or name_of(lex)  # the name its GCG and CGP carry
        self._rng = random.Random(seed)
        self.bag = [code for code, n in enumerate(self.game.counts_by_code()) for _ in range(n)]
        self._rng.shuffle(self.bag)
        self.racks = [[], []]
        self.scores = [0, 0]
        self.zero_turns = 0
        self.turns = []
        self.over = False
        self.ending = ""
        self.adjustments = [0, 0]
        self.left = ["", ""]
        self.before_engine_move = None
        self.turn = self.first
        self._draw(self.first)
        self._draw(1 - self.first)

    # -- what each side sees ------------------------------------------------------------------------------

    def rack(self, seat: int) -> str:
        """A seat's rack as text (blanks ``?``, last)."""
        return rack_text(self.game, self.racks[seat])

    def bag_count(self) -> int:
        return len(self.bag)

    def position(self, seat: int) -> Position:
        """The position as ``seat`` sees it: its rack first (the other rack unknown), its score first."""
        p = self.board.copy()
        p.racks = [self.rack(seat), ""]
        p.scores = [self.scores[seat], self.scores[1 - seat]]
        p.zero_turns = self.zero_turns
        if self.lexicon_name:
            p.options["lex"] = self.lexicon_name
        return p

    def endgame_position(self) -> Position | None:
        """With the bag empty and the game on: the position with both racks (the player on turn's first)."""
        if self.over or self.bag:
            return None
        p = self.position(self.turn)
        p.racks = [self.rack(self.turn), self.rack(1 - self.turn)]
        return p

    def unseen(self, seat: int) -> dict[str, int]:
        """Tiles ``seat`` has not seen (the bag and the other rack), by label (``?`` for blanks)."""
        counts = Counter(self.bag + self.racks[1 - seat])
        return {rack_text(self.game, [code]): counts[code] for code in sorted(counts, key=lambda c: (c == 0, c))}

    def leaves(self, lex: "Engines") -> "LeaveTable | None":
        """The game's leave table (the equity player's and the analysis's), in the lexicon's alphabet."""
        return leave_table(lex, self.board, None)

    def legal_moves(self, lex: "Engines", seat: int | None = None, *, top: int | None = None,
                    deadline: float | None = None) -> "MoveList":
        """Every legal move of ``seat`` (default: the one on turn) ranked by equity: plays, exchanges (when the
        bag holds a rack's worth), the pass; on an empty board the down plays too (a player may open down)."""
        seat = self.turn if seat is None else seat
        pos = self.position(seat)
        return generate(lex, pos, pos.racks[0], top=top, leaves=self.leaves(lex), sort="equity", passes=True,
                        deadline=deadline, both_directions=True)

    # -- turns -----------------------------------------------------------------------------------------------

    def play(self, lex: "Engines", text: str, *, deadline: float | None = None) -> JSONObject:
        """The person's move from its text, checked, made and analysed; then the engine's reply.

        ``text`` is a play (``8H WORD``: upper case tiles, lower case blanks,
        board tiles as themselves, ``.`` or in parentheses), ``-`` or ``pass``,
        ``-TILES`` or ``exchange TILES``. Raises :class:`IllegalPlay` (a
        :class:`GameError`) for a move the rules refuse and :class:`GameError`
        when it is not the person's turn or the game is over. Answers
        ``{"played", "analysis", "reply"}`` (the reply None when the game ended).
        """
        if self.over:
            raise GameError("the game is over")
        if self.turn != HUMAN:
            raise GameError("it is not your turn")
        move, moves = self._checked(lex, text, deadline)
        if moves is None:
            moves = self.legal_moves(lex, HUMAN, deadline=deadline)
        analysis = _analysis(moves, move)
        self._make(HUMAN, move, analysis)
        reply = None
        if not self.over:
            reply = self.engine_turn(lex, deadline=deadline)
        return {"played": _move_doc(move), "analysis": analysis, "reply": reply}

    def parse_move(self, lex: "Engines", text: str, *, deadline: float | None = None) -> Move:
        """The person's move text as a legal :class:`Move` of the person's rack (its equity as the generator
        values it); :class:`IllegalPlay` naming the rule it breaks."""
        return self._checked(lex, text, deadline)[0]

    def _checked(self, lex: "Engines", text: str, deadline: float | None) -> "tuple[Move, MoveList | None]":
        """The move of :meth:`parse_move`, and for a play every legal move (generated to find it), else None."""
        if not isinstance(text, str):
            raise GameError(f"a move is text such as '8H WORD', '-' or '-ABC', not {type(text).__name__}")
        if len(text) > MAX_MOVE_TEXT:
            raise IllegalPlay(f"a move text is at most {MAX_MOVE_TEXT} characters", "malformed")
        t = " ".join(text.split())
        pos = self.position(HUMAN)
        rack = pos.racks[0]
        table = self.leaves(lex)
        if t.lower() in ("-", "pass"):
            move = Move("pass", 0, rack, notation="-")
            return _valued(move, play_equity(lex, pos, move, rack, leaves=table)), None
        words = _EXCHANGE_WORDS.match(t)
        if words or (t.startswith("-") and " " not in t):
            tiles = words.group(1) if words else t[1:]
            return _valued(self._exchange(tiles), 0.0, lex, pos, table), None
        try:
            move = score_play(lex, pos, t, rack=rack)  # the rule a play breaks, in the scorer's words
        except IllegalPlay:
            raise
        except GameError as e:  # a tile the game lacks, a blank written '?' on the board...
            raise IllegalPlay(str(e), "malformed") from None
        # ... and the generator must list it: the play and its score are the generator's.
        moves = self.legal_moves(lex, HUMAN, deadline=deadline)
        found = _find_play(moves, move)
        if found is None:
            raise IllegalPlay(f"{t} is not among the legal plays for the rack {rack}", "not generated")
        return found, moves

    def _exchange(self, tiles: str) -> Move:
        if len(self.bag) < self.game.rack_size:
            raise IllegalPlay(f"an exchange needs at least {self.game.rack_size} tiles in the bag; it holds "
                              f"{len(self.bag)}", "bag too small")
        try:
            codes = [0 if blank or code == 0 else code
                     for code, blank in split_tiles(self.game, tiles.upper(), what="exchange", allow_blank=True)]
        except GameError as e:
            raise IllegalPlay(str(e), "malformed") from None
        if not codes:
            raise IllegalPlay("an exchange gives back at least one tile", "malformed")
        missing = Counter(codes) - Counter(self.racks[HUMAN])
        if missing:
            raise IllegalPlay(f"{rack_text(self.game, list(missing.elements()))} is not on the rack "
                              f"{self.rack(HUMAN)}", "not on rack")
        kept = Counter(self.racks[HUMAN])
        kept.subtract(codes)
        back = rack_text(self.game, codes)
        return Move("exchange", 0, rack_text(self.game, list(kept.elements())), notation="-" + back, exchanged=back)

    def engine_turn(self, lex: "Engines", *, deadline: float | None = None) -> JSONObject:
        """The engine player's move on its turn, made; its document."""
        if self.over:
            raise GameError("the game is over")
        if self.turn != ENGINE:
            raise GameError("it is not the engine's turn")
        move = self.choose(lex, deadline=deadline)
        self._make(ENGINE, move, None)
        return _move_doc(move) | {"player": NICKS[ENGINE]}

    def choose(self, lex: "Engines", *, deadline: float | None = None) -> Move:
        """The engine player's choice for its rack.

        The simulation player that fails (or finds nothing in its time) falls back on the equity player's
        choice; a player whose time ran out before it found a move passes.
        """
        pos = self.position(ENGINE)
        rack = pos.racks[0]
        passed = Move("pass", 0, rack, notation="-", equity=0.0)
        if self.opponent == "simulation":
            limit = None if deadline is None else \
                max(0.05, min(SIMULATION_SECONDS, 0.8 * (deadline - time.monotonic())))
            try:
                chosen = choose_move(lex, pos, leaves=self.leaves(lex), seed=(self.seed + len(self.turns)) % (1 << 64),
                                     time_limit=limit)
                return passed if chosen is None else chosen
            except LexiconError:
                deadline = None  # the equity choice instead: one generation, bounded by the board
        try:
            if self.opponent != "score":
                best = generate(lex, pos, rack, top=1, leaves=self.leaves(lex), sort="equity", deadline=deadline)
                return best[0] if len(best) else passed
            best = generate(lex, pos, rack, top=1, sort="score", exchanges=False, deadline=deadline)
        except DeadlineExceeded:
            return passed
        if len(best):
            return best[0]
        if len(self.bag) >= self.game.rack_size:  # no play: the score player gives back its whole rack
            return Move("exchange", 0, "", notation="-" + rack, exchanged=rack, equity=0.0)
        return passed

    def _make(self, seat: int, move: Move, analysis: JSONObject | None) -> None:
        """Put a checked move on the board and the racks, draw, record it; end the game if it ends."""
        rack_before = self.rack(seat)
        rack = Counter(self.racks[seat])
        self.before_engine_move = self._seen_before(move) if seat == ENGINE else None
        if move.kind == "play":
            for t in move.tiles:
                code = self.game.alphabet.code(t.tile)
                if code is None:
                    raise GameError(f"tile {quote(t.tile)} is not in the {self.game.name} game")
                self.board.place(t.row, t.col, code, t.blank)
                rack[0 if t.blank else code] -= 1
            self.scores[seat] += move.score
            self.racks[seat] = list(rack.elements())
            self._draw(seat)
        elif move.kind == "exchange":
            back = parse_rack(self.game, move.exchanged)
            rack.subtract(back)
            if min(rack.values(), default=0) < 0 or len(self.bag) < self.game.rack_size:
                raise GameError(f"the exchange {move.notation} does not fit the rack {rack_before} and the bag")
            self.racks[seat] = list(rack.elements())
            self._draw(seat)
            self.bag.extend(back)
            self._rng.shuffle(self.bag)
        self.zero_turns = 0 if move.score > 0 else self.zero_turns + 1
        self.turns.append(Turn(seat, rack_before, move, self.scores[seat], analysis))
        if not self.racks[seat] and not self.bag:
            self._end("out", seat)
        elif self.zero_turns >= ZERO_TURNS_TO_END:
            self._end("zeros", seat)
        else:
            self.turn = 1 - seat

    def _seen_before(self, move: Move) -> tuple[Position, str] | None:
        """The engine's move about to be made, as the person sees it (what the inference starts from): the
        position with the engine on turn and its rack blank, the person's rack second; None for a pass."""
        if move.kind not in ("play", "exchange"):
            return None
        pos = self.position(ENGINE)
        pos.racks = ["", self.rack(HUMAN)]
        return pos, move.notation if move.kind == "play" else f"-{len(move.exchanged)}"

    def _draw(self, seat: int) -> None:
        while len(self.racks[seat]) < self.game.rack_size and self.bag:
            self.racks[seat].append(self.bag.pop())
        self.racks[seat].sort(key=lambda c: (c == 0, c))

    def _rack_points(self, seat: int) -> int:
        points = self.game.points_by_code()
        return sum(points[c] for c in self.racks[seat])

    def _end(self, how: str, seat: int) -> None:
        self.over = True
        self.ending = how
        self.left = [self.rack(HUMAN), self.rack(ENGINE)]
        if how == "out":
            self.adjustments[seat] = 2 * self._rack_points(1 - seat)
        else:
            self.adjustments = [-self._rack_points(HUMAN), -self._rack_points(ENGINE)]
        self.scores = [self.scores[s] + self.adjustments[s] for s in (HUMAN, ENGINE)]
        self.turn = seat

    # -- records ---------------------------------------------------------------------------------------------

    def gcg(self) -> str:
        """The game as GCG: the first mover is ``#player1``; plays, exchanges, passes and the end's rack points."""
        lines = ["#character-encoding UTF-8"]
        order = [self.first, 1 - self.first]
        names = {HUMAN: "You", ENGINE: f"lexigraph ({self.opponent})"}
        for k, seat in enumerate(order):
            lines.append(f"#player{k + 1} {NICKS[seat]} {names[seat]}")
        if self.lexicon_name:
            lines.append(f"#lexicon {self.lexicon_name}")
        lines.append(f"#title lexigraph match seed {self.seed} against {self.opponent}")
        for t in self.turns:
            head = f">{NICKS[t.seat]}: {t.rack}"
            m = t.move
            if m.kind == "play":
                word = re.sub(r"\(([^)]*)\)", lambda g: "." * len(split_tiles(self.game, g.group(1).upper(),
                                                                              what="play")), m.notation.split(" ")[1])
                lines.append(f"{head} {m.position} {word} +{m.score} {t.total}")
            elif m.kind == "exchange":
                lines.append(f"{head} -{m.exchanged} +0 {t.total}")
            else:
                lines.append(f"{head} - +0 {t.total}")
        if self.over:
            last = self.turns[-1].seat if self.turns else self.turn
            if self.ending == "out":
                lines.append(f">{NICKS[last]}: ({self.left[1 - last]}) +{self.adjustments[last]} {self.scores[last]}")
            else:
                for seat in order:
                    if self.left[seat]:
                        lines.append(f">{NICKS[seat]}: ({self.left[seat]}) {self.adjustments[seat]} "
                                     f"{self.scores[seat]}")
        return "\n".join(lines) + "\n"

    def state(self, seat: int = HUMAN) -> JSONObject:
        """The game as ``seat`` sees it (the other rack hidden until the end): the page's document."""
        n = self.game.size
        last = next((t for t in reversed(self.turns) if t.move.kind == "play"), None)
        endgame = self.endgame_position() if self.turn == seat else None
        doc: JSONObject = {
            "opponent": self.opponent,
            "lexicon": self.lexicon_name,
            "size": n,
            "premiums": list(self.game.board),
            "board": self.board.board_text().split("\n"),
            "cgp": self.position(seat).to_cgp(),
            "rack": self.rack(seat),
            "scores": {"you": self.scores[seat], "lexigraph": self.scores[1 - seat]},
            "bag": len(self.bag),
            "unseen": self.unseen(seat),
            "opponent_rack_size": len(self.racks[1 - seat]),
            "turn": None if self.over else ("you" if self.turn == seat else "lexigraph"),
            "zero_turns": self.zero_turns,
            "first": "you" if self.first == seat else "lexigraph",
            "last_play": [] if last is None else [{"row": p.row + 1, "col": p.col + 1} for p in last.move.tiles],
            "turns": [_turn_doc(t, seat) for t in self.turns],
            "over": self.over,
            "endgame_cgp": endgame.to_cgp() if endgame is not None else None,
            "engine_move_seen": self._engine_move_seen(seat),
        }
        if self.over:
            doc["result"] = {
                "ending": self.ending,
                "scores": {"you": self.scores[seat], "lexigraph": self.scores[1 - seat]},
                "adjustments": {"you": self.adjustments[seat], "lexigraph": self.adjustments[1 - seat]},
                "racks_left": {"you": self.left[seat], "lexigraph": self.left[1 - seat]},
                "winner": ("you" if self.scores[seat] > self.scores[1 - seat] else
                           "lexigraph" if self.scores[seat] < self.scores[1 - seat] else None),
            }
        return doc

    def _engine_move_seen(self, seat: int) -> JSONObject | None:
        """For the person, when the engine's play or exchange was the last turn and the game is on: the position
        before it as the person saw it (``cgp``) and the move (``move``), which ``infer`` takes as they are."""
        if seat != HUMAN or self.over or self.before_engine_move is None or self.turns[-1].seat != ENGINE:
            return None
        pos, move = self.before_engine_move
        return {"cgp": pos.to_cgp(), "move": move}

    # -- the game as data: the turns a server keeps, replayed into the same match --------------------------------

    def turn_record(self, index: int) -> JSONObject:
        """Turn ``index`` as JSON-ready data: the seat (``player`` or ``lexigraph``), the rack before it, the
        move, the seat's total after it and the analysis; :meth:`restore` replays a list of them.

        >>> import lexigraph
        >>> from lexigraph.scrabble.game import Game
        >>> lex = lexigraph.open()
        >>> m = Match(lex, Game.preset("scrabble"), opponent="score", seed=2)
        >>> _ = m.play(lex, "8D BAWTIE")
        >>> record = m.turn_record(0)
        >>> record["seat"], record["rack"], record["move"]["notation"], record["total"]
        ('player', 'AABEITW', '8D BAWTIE', 28)
        >>> again = Match.restore(lex, Game.preset("scrabble"), opponent="score", seed=2,
        ...                       turns=[m.turn_record(i) for i in range(len(m.turns))])
        >>> again.state() == m.state(), again.gcg() == m.gcg()
        (True, True)
        """
        t = self.turns[index]
        m = t.move
        move: JSONObject = {"kind": m.kind, "score": m.score, "leave": m.leave, "row": m.row, "col": m.col, "across": m.across,
                "tiles": [[p.row, p.col, p.tile, p.blank] for p in m.tiles], "word": m.word, "words": list(m.words),
                "notation": m.notation, "exchanged": m.exchanged, "equity": m.equity}
        return {"seat": NICKS[t.seat], "rack": t.rack, "move": move, "total": t.total, "analysis": t.analysis}

    @classmethod
    def restore(cls, lex: "Engines", game: Game, *, opponent: str = "equity", human_first: bool = True,
                seed: int = 0, lexicon_name: str = "", turns: "Sequence[object]" = ()) -> "Match":
        """The match dealt from ``seed`` with ``turns`` (:meth:`turn_record`'s data) made again, in order.

        Nothing is generated or chosen again: each turn is checked against the replayed game (the seat on turn,
        its rack, its tiles on empty squares, its total) and made as recorded. A record that does not fit is a
        :class:`GameError` naming the turn.
        """
        match = cls.__new__(cls)
        match._deal(lex, game, opponent, human_first, seed, lexicon_name)
        for i, record in enumerate(turns):
            try:
                match._replay(record)
            except GameError as e:
                raise GameError(f"turn {i + 1} of the record: {e}") from None
        return match

    def _replay(self, record: object) -> None:
        """Make one recorded turn, checked against the game as it stands."""
        if not isinstance(record, dict):
            raise GameError("a turn is an object")
        if self.over:
            raise GameError("the game was over before it")
        seat = self.turn
        if record.get("seat") != NICKS[seat]:
            raise GameError(f"{NICKS[seat]} was on turn, not {quote(record.get('seat'))}")
        if record.get("rack") != self.rack(seat):
            raise GameError(f"the rack was {self.rack(seat)}, not {quote(record.get('rack'))}")
        analysis = record.get("analysis")
        if analysis is not None and not isinstance(analysis, dict):
            raise GameError("a turn's analysis is an object or null")
        move = _move_of_record(self.game, record.get("move"))
        self._check_fits(seat, move)
        self._make(seat, move, analysis)
        if record.get("total") != self.turns[-1].total:
            raise GameError(f"the total after it was {self.turns[-1].total}, not {quote(record.get('total'))}")

    def _check_fits(self, seat: int, move: Move) -> None:
        """A recorded move's tiles are on the seat's rack and go on empty squares."""
        rack = Counter(self.racks[seat])
        if move.kind == "exchange":
            rack.subtract(parse_rack(self.game, move.exchanged))
        n = self.game.size
        squares = set()
        for t in move.tiles:
            code = self.game.alphabet.code(t.tile)
            if code is None or (t.row, t.col) in squares or self.board.codes[t.row * n + t.col]:
                raise GameError(f"the play {quote(move.notation)} puts a tile on a taken square or a tile the game "
                                "lacks")
            squares.add((t.row, t.col))
            rack[0 if t.blank else code] -= 1
        if min(rack.values(), default=0) < 0:
            raise GameError(f"the move {quote(move.notation)} is not on the rack {self.rack(seat)}")


def _valued(move: Move, equity: float, lex: "Engines | None" = None, pos: Position | None = None,
            table: "LeaveTable | None" = None) -> Move:
    """``move`` with its equity (computed from ``pos`` when the engines are given)."""
    if lex is not None and pos is not None:
        equity = play_equity(lex, pos, move, pos.racks[0], leaves=table)
    return replace(move, equity=equity)


def _placed(move: Move) -> frozenset[tuple[int, int, str, bool]]:
    return frozenset((t.row, t.col, t.tile, t.blank) for t in move.tiles)


def _find_play(moves: "MoveList", move: Move) -> Move | None:
    """The generator's play that puts down the same tiles as ``move``, or None."""
    columns = moves.columns
    if columns is None:
        candidates: Iterator[Move] = (m for m in moves if m.kind == "play")
    else:
        same_score = np.flatnonzero(columns.score == move.score).tolist()
        candidates = (columns.move(int(i)) for i in same_score)
    want = _placed(move)
    return next((m for m in candidates if _placed(m) == want), None)


def _analysis(moves: "MoveList", move: Move) -> JSONObject:
    """How the engine sees a move among every legal one (ranked by equity): its rank, equity, score, the best."""
    mine = move.equity if move.equity is not None else 0.0
    lo, hi = 0, len(moves)
    while lo < hi:  # the moves are sorted by equity, best first: count those strictly better
        mid = (lo + hi) // 2
        if (moves[mid].equity or 0.0) > mine + 1e-9:
            lo = mid + 1
        else:
            hi = mid
    return {
        "rank": lo + 1,
        "of": len(moves),
        "equity": round(mine, 4),
        "score": move.score,
        "best": [_move_doc(m) for m in moves[:BEST_SHOWN]],
    }


def _move_doc(move: Move) -> JSONObject:
    return move.to_dict()


def _turn_doc(t: Turn, seat: int) -> JSONObject:
    mine = t.seat == seat
    doc: JSONObject = {"player": "you" if mine else "lexigraph", "kind": t.move.kind,
                       "notation": t.move.notation, "score": t.move.score, "total": t.total}
    if mine:
        doc["rack"] = t.rack
    if t.analysis is not None and mine:
        doc["analysis"] = t.analysis
    return doc


#: The longest text field of a recorded move read back (a notation, a word, a leave).
_RECORD_TEXT = 4 * MAX_MOVE_TEXT


def _move_of_record(game: Game, data: object) -> Move:
    """The :class:`Move` of :meth:`Match.turn_record`'s ``move``, every field's type and range checked."""
    if not isinstance(data, dict):
        raise GameError("a turn's move is an object")
    kind = data.get("kind")
    if kind not in ("play", "exchange", "pass"):
        raise GameError(f"a move's kind is play, exchange or pass, not {quote(kind)}")
    score = data.get("score")
    if isinstance(score, bool) or not isinstance(score, int) or not 0 <= score <= 1_000_000 or (
            kind != "play" and score):
        raise GameError(f"a move's score of {quote(score)} is out of range")
    texts = {}
    for name in ("leave", "word", "notation", "exchanged"):
        value = data.get(name, "")
        if not isinstance(value, str) or len(value) > _RECORD_TEXT:
            raise GameError(f"a move's {name} is text")
        texts[name] = value
    words = data.get("words", [])
    if not isinstance(words, list) or len(words) > game.size * 2 or not all(
            isinstance(w, str) and len(w) <= _RECORD_TEXT for w in words):
        raise GameError("a move's words are a list of text")
    equity = data.get("equity")
    if equity is not None and (isinstance(equity, bool) or not isinstance(equity, (int, float))
                               or not abs(equity) < 1e9):
        raise GameError("a move's equity is a number or null")
    row, col, across = data.get("row", 0), data.get("col", 0), data.get("across", True)
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < game.size for v in (row, col)) or \
            not isinstance(across, bool):
        raise GameError("a move's square is a row and a column on the board")
    tiles = data.get("tiles", [])
    if not isinstance(tiles, list) or len(tiles) > (game.rack_size if kind == "play" else 0) or \
            (kind == "play" and not tiles):
        raise GameError(f"a {kind}'s tiles do not fit the rack")
    placed = []
    for t in tiles:
        if not (isinstance(t, list) and len(t) == 4 and all(isinstance(v, int) and not isinstance(v, bool)
                                                            and 0 <= v < game.size for v in t[:2])
                and isinstance(t[2], str) and len(t[2]) <= _RECORD_TEXT and isinstance(t[3], bool)):
            raise GameError("a placed tile is [row, column, tile, blank]")
        placed.append(Placed(t[0], t[1], t[2], t[3]))
    if kind == "exchange" and not texts["exchanged"]:
        raise GameError("an exchange gives back at least one tile")
    return Move(kind, score, texts["leave"], row=row, col=col, across=across, tiles=tuple(placed), word=texts["word"],
                words=tuple(words), notation=texts["notation"], exchanged=texts["exchanged"],
                equity=None if equity is None else float(equity))
