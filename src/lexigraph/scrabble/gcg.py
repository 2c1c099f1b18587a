"""GCG game records: read them, replay them to any turn, and analyse every play.

A GCG file (the annotated game format of Quackle, Macondo and Woogles)
has pragmata such as ``#player1 nick Full Name`` and ``#lexicon TWL06``,
and one event per line::

    >nick: RACK POSITION PLAY +SCORE TOTAL      a play (8H across, H8 down)
    >nick: RACK -TILES +0 TOTAL                 an exchange (``-`` alone: a pass)
    >nick: RACK -- -SCORE TOTAL                 the previous play withdrawn (a phony challenged off)
    >nick: RACK (challenge) +5 TOTAL            a challenge bonus
    >nick: RACK (time) -10 TOTAL                a time penalty
    >nick: (RACK) +SCORE TOTAL                  tiles left on the opponent's rack at the end

Board tiles a play goes through are written as themselves or as ``.``.

>>> rec = read_gcg('''#player1 a Alice
... #player2 b Bob
... >a: CATRSXY 8G CAT +10 10
... >b: AEIOU?? H7 A. +2 2
... >b: AEIOU?? -- -2 0
... ''')
>>> [e.kind for e in rec.events], rec.players
(['play', 'play', 'withdrawn'], ['a', 'b'])
>>> [rec.replay(t).board_text().splitlines()[6][7] for t in (1, 2, 3)]
['.', 'A', '.']
>>> rec.replay(3).board_text().splitlines()[7].strip(".")
'CAT'
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..support.jsontypes import JSONObject
from ..support.text import quote
from .game import Game, GameError, parse_square
from .movegen import LeavesSpec, SortKey, generate, leave_table, play_equity
from .moves import IllegalPlay, Move
from .position import Position
from .scoring import parse_play, score_play
from .tiles import split_tiles

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Engines

_EVENT = re.compile(r"^>([^:]+):\s*(.*)$")
#: A score or total: ASCII digits, at most 9 of them (no game scores a billion; int() of 4,300 digits raises).
_NUM = re.compile(r"^[+-]?[0-9]{1,9}$")
MAX_EVENTS = 10_000
#: Longest game record read, in characters.
MAX_GCG_TEXT = 1 << 20


@dataclass
class Event:
    """One line of the game: who, their rack, what they did, the points and their new total."""

    player: str
    rack: str
    kind: str  # play, exchange, pass, withdrawn, challenge, time, end, other
    position: str = ""
    play: str = ""
    score: int = 0
    total: int = 0
    line: int = 0
    text: str = ""


@dataclass
class GameRecord:
    """A parsed GCG file."""

    game: Game
    players: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    lexicon: str = ""
    events: list[Event] = field(default_factory=list)

    def replay(self, turn: int | None = None) -> Position:
        """The position after the first ``turn`` events (all of them by default).

        The rack on turn is the rack of the next event's player, when the file gives it.
        """
        if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
            raise GameError(f"replay takes a turn number, not {quote(turn)}")
        events = self.events if turn is None else self.events[: max(0, turn)]
        pos = Position(self.game)
        placed_by: list[list[tuple[int, int]]] = []
        scores = {p: 0 for p in self.players}
        for e in events:
            if e.kind == "play":
                placed_by.append(_apply_play(pos, e))
            elif e.kind == "withdrawn":
                if not placed_by:
                    raise GameError(f"GCG line {e.line}: a withdrawn play with no play before it")
                for r, c in placed_by.pop():
                    pos.place(r, c, 0, False)
            scores[e.player] = e.total
        nxt = self.events[len(events)] if turn is not None and turn < len(self.events) else None
        if nxt is not None and nxt.player in self.players:
            order = [nxt.player] + [p for p in self.players if p != nxt.player]
            pos.racks = [nxt.rack if nxt.rack and not nxt.rack.startswith("(") else "", ""]
        else:
            order = list(self.players)
        pos.scores = [scores.get(p, 0) for p in order][:2] + [0] * (2 - len(order[:2]))
        if self.lexicon:
            pos.options["lex"] = self.lexicon
        return pos


def named_lexicon(text: object) -> str:
    """The lexicon a GCG record names (its ``#lexicon`` pragma, the last one as :func:`read_gcg` takes it), or
    ``""``: read before the record is, since the lexicon chooses the tiles it is read with.

    >>> named_lexicon("#player1 a A\\n#lexicon CSW21\\n>a: AB 8H AB +4 4"), named_lexicon(">a: AB 8H AB +4 4")
    ('CSW21', '')
    """
    if not isinstance(text, str) or len(text) > MAX_GCG_TEXT:
        return ""
    name = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#lexicon ") or line == "#lexicon":
            name = line[len("#lexicon"):].strip()
    return name


def _apply_play(pos: Position, e: Event) -> list[tuple[int, int]]:
    try:
        placed = parse_play(pos, f"{e.position} {e.play}")
    except IllegalPlay as err:
        raise GameError(f"GCG line {e.line}: {err}") from None
    for r, c, code, blank in placed:
        pos.place(r, c, code, blank)
    return [(r, c) for r, c, _, _ in placed]


def read_gcg(text: str, game: Game | None = None) -> GameRecord:
    """Parse a GCG file's text. Raises :class:`GameError` naming the line of any malformed event.

    >>> read_gcg(b">a: AB 8H AB +4 4")
    Traceback (most recent call last):
    ...
    lexigraph.scrabble.game.GameError: a GCG record is text (str), not bytes: decode it first
    """
    if not isinstance(text, str):
        hint = ": decode it first" if isinstance(text, (bytes, bytearray)) else ""
        raise GameError(f"a GCG record is text (str), not {type(text).__name__}{hint}")
    if game is not None and not isinstance(game, Game):
        raise GameError(f"read_gcg takes a Game, not {type(game).__name__}")
    if len(text) > MAX_GCG_TEXT:
        raise GameError(f"the game record is longer than {MAX_GCG_TEXT:,} characters")
    game = game or Game.preset("scrabble")
    rec = GameRecord(game)
    in_note = False
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if in_note and not line.startswith(("#", ">")):
            continue  # a #note may run over several lines
        in_note = False
        if line.startswith("#"):
            key, _, value = line[1:].partition(" ")
            in_note = key == "note"
            if key in ("player1", "player2"):
                nick, _, name = value.strip().partition(" ")
                if not nick:
                    raise GameError(f"GCG line {no}: #{key} needs a nickname")
                rec.players.append(nick)
                rec.names[nick] = name.strip()
            elif key == "lexicon":
                rec.lexicon = value.strip()
            continue
        m = _EVENT.match(line)
        if not m:
            raise GameError(f"GCG line {no}: expected '>player: RACK PLAY +SCORE TOTAL' or a '#' pragma")
        if len(rec.events) >= MAX_EVENTS:
            raise GameError(f"GCG line {no}: more than {MAX_EVENTS} events")
        player = m.group(1).strip()
        if player not in rec.players:
            if len(rec.players) >= 2:
                raise GameError(f"GCG line {no}: unknown player {quote(player)}")
            rec.players.append(player)
        rec.events.append(_event(game, player, m.group(2).split(), no, line))
    return rec


def _event(game: Game, player: str, parts: list[str], no: int, line: str) -> Event:
    def number(s: str, what: str) -> int:
        if not _NUM.match(s):
            raise GameError(f"GCG line {no}: {what} {quote(s)} is not a number (ASCII digits, at most 9)")
        return int(s)

    if len(parts) < 3:
        raise GameError(f"GCG line {no}: too few fields")
    score, total = number(parts[-2], "score"), number(parts[-1], "total")
    body = parts[:-2]
    ev = Event(player, "", "other", score=score, total=total, line=no, text=line)
    if len(body) == 1 and body[0].startswith("(") and body[0].endswith(")"):
        ev.kind = "end"
        ev.rack = body[0]
        return ev
    if len(body) >= 1:
        ev.rack = body[0]
    rest = body[1:]
    if len(body) == 1 and body[0] in ("--", "-"):
        ev.rack, rest = "", body
    if not rest:
        raise GameError(f"GCG line {no}: no play")
    head = rest[0]
    if head == "--":
        ev.kind = "withdrawn"
    elif head == "-":
        ev.kind = "pass"
    elif head.startswith("-"):
        ev.kind = "exchange"
        ev.play = head[1:]
        _check_exchange(game, ev, no)
    elif head == "(challenge)":
        ev.kind = "challenge"
    elif head == "(time)":
        ev.kind = "time"
    elif head.startswith("(") and head.endswith(")"):
        ev.kind = "end"
    elif len(rest) == 2 and parse_square(rest[0], game.size) is not None:
        ev.kind = "play"
        ev.position, ev.play = rest
    else:
        raise GameError(f"GCG line {no}: cannot read the play {quote(' '.join(rest))}")
    return ev


def _check_exchange(game: Game, ev: Event, no: int) -> None:
    """Refuse an exchange of tiles the rack does not hold, or of more tiles than a rack holds."""
    if ev.play.isdigit():  # "-7": the count alone, as some programs write a hidden exchange
        count = int(ev.play) if len(ev.play) <= 3 else game.rack_size + 1
        if not 1 <= count <= game.rack_size:
            raise GameError(f"GCG line {no}: an exchange of {quote(ev.play)} tiles; a rack holds {game.rack_size}")
        return
    try:
        tiles = [0 if blank and code == 0 else code for code, blank in
                 split_tiles(game, ev.play.upper(), what="exchange", allow_blank=True)]
    except GameError as e:
        raise GameError(f"GCG line {no}: {e}") from None
    if len(tiles) > game.rack_size:
        raise GameError(f"GCG line {no}: an exchange of {len(tiles)} tiles; a rack holds {game.rack_size}")
    if ev.rack and not ev.rack.startswith("("):
        try:
            rack = Counter(c for c, _ in split_tiles(game, ev.rack.upper(), what="rack", allow_blank=True))
        except GameError as e:
            raise GameError(f"GCG line {no}: {e}") from None
        missing = Counter(tiles) - rack
        if missing:
            shown = "".join("?" if c == 0 else game.alphabet.label(c).upper() for c in sorted(missing.elements()))
            raise GameError(f"GCG line {no}: the exchange {quote('-' + ev.play)} gives back {shown}, which the rack"
                            f" {quote(ev.rack)} does not hold")


def analyze(lex: "Engines", record: GameRecord, *, top: int = 3, deadline: float | None = None,
            leaves: LeavesSpec | None = None, sort: SortKey | None = None) -> list[JSONObject]:
    """For each play of the game: the play made, its score (recomputed), and the best plays.

    A play that the rules reject (a phony, say) comes with its reason instead
    of a score. ``score_differs`` marks a turn whose recorded score is not
    what the board gives (``recorded_score`` keeps the record's). With
    ``deadline`` (a ``time.monotonic()`` value) the turns analysed before it
    are returned. ``leaves`` and ``sort`` rank the best plays as
    :func:`~lexigraph.scrabble.movegen.generate` does; ranked by equity, each
    turn also gives the equity of the move made.
    """
    if not isinstance(record, GameRecord):
        raise GameError(f"analyze takes a GameRecord (read_gcg), not {type(record).__name__}")
    if isinstance(top, bool) or not isinstance(top, int) or top < 0:
        raise GameError(f"top must be a whole number >= 0, not {quote(top)}")
    out: list[JSONObject] = []
    for k, e in enumerate(record.events):
        if e.kind not in ("play", "exchange", "pass"):
            continue
        if deadline is not None and time.monotonic() > deadline:
            break
        pos = record.replay(k)
        rack = e.rack if e.rack and not e.rack.startswith("(") else ""
        entry: JSONObject = {"turn": k + 1, "player": e.player, "rack": rack, "kind": e.kind,
                                 "play": f"{e.position} {e.play}".strip() if e.kind == "play" else
                                 ("-" + e.play if e.kind == "exchange" else "-"),
                                 "recorded_score": e.score}
        made: Move | None = None
        if e.kind == "play":
            try:
                made = score_play(lex, pos, f"{e.position} {e.play}", rack=rack or None)
                entry["score"] = made.score
                entry["legal"] = True
            except IllegalPlay as err:
                entry["score"] = None
                entry["legal"] = False
                entry["reason"] = str(err)
        else:
            entry["score"] = 0
            entry["legal"] = True
        # the record's score is kept as written; a board that gives another is said, never silently replaced
        entry["score_differs"] = entry["score"] is not None and entry["score"] != e.score
        table = leave_table(lex, pos, leaves)
        by_equity = (table is not None) if sort is None else sort == "equity"
        best = generate(lex, pos, rack, top=top, leaves=table, sort=sort) if rack else []
        entry["best"] = [m.to_dict() for m in best]
        entry["best_score"] = best[0].score if best else None
        if by_equity and rack:
            made_move = made if e.kind == "play" else Move(e.kind, 0, "", notation="-" + e.play,
                                                           exchanged=e.play if e.kind == "exchange" else "")
            value = None if made_move is None else play_equity(lex, pos, made_move, rack, leaves=table)
            entry["equity"] = None if value is None else round(value, 4)
            entry["best_equity"] = round(best[0].equity or 0.0, 4) if best else None
            entry["equals_best"] = bool(best and value is not None and value >= (best[0].equity or 0.0) - 1e-9)
        else:
            entry["equals_best"] = bool(made is not None and best and made.score >= best[0].score)
        out.append(entry)
    return out
