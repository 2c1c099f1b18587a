"""Board-game commands: ``moves`` (every play for a rack), ``score`` (check and score one play); ``analyze`` is
:mod:`lexigraph.commands.analyze`'s.

The position, the rack, the game and a leave table are read as every
board-game command reads them (:mod:`lexigraph.commands._boards`): a CGP
string, a board, a file or ``empty``; files only where the context reads
files.
With a leave table (or a game that names one, as the ``scrabble`` preset
names ``english-leaves.klv2``) moves are ranked by equity, else by score
(``sort`` chooses). The document's ``leaves`` names the table that valued
the leaves: the one given, else the game's own.

>>> from lexigraph.commands import Context
>>> doc = MOVES.run(Context(), {"position": "empty", "rack": "QUIZ", "top": 2})
>>> [(r["notation"], r["score"], r["equity"]) for r in doc["results"]]    # a vowel beside a premium: -0.7
[('8E QUIZ', 44, 43.3), ('8F QUIZ', 44, 43.3)]
>>> doc["sort"], doc["leaves"]
('equity', 'english-leaves.klv2')
>>> list(MOVES.text(doc))[0]
' 44   43.30  8E QUIZ  leave -'
>>> doc = MOVES.run(Context(), {"position": "empty", "rack": "QUIZS", "top": 1, "leaves": "S,8.5"})
>>> doc["sort"], [(r["notation"], r["score"], r["equity"], r["leave"]) for r in doc["results"]]
('equity', [('8E QUIZ', 44, 51.8, 'S')])
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal

from ..scrabble.game import GameError
from ..scrabble.movegen import board_phonies, generate
from ..scrabble.moves import IllegalPlay
from ..scrabble.scoring import score_play
from ._boards import (
    bag_warnings,
    leaves_name,
    leaves_param,
    lexicon_and_position,
    lexicon_and_position_with_rack,
)
from ._common import lexicon_name
from .command import MAX_COUNT, Command, Context, Document, Param


def _sort(params: Mapping[str, Any]) -> Literal["equity", "score"] | None:
    sort = params.get("sort")
    if sort == "equity":
        return "equity"
    if sort == "score":
        return "score"
    if sort not in (None, ""):
        raise GameError("--sort must be equity or score")
    return None


def _top(params: Mapping[str, Any], default: int) -> int:
    top = params.get("top")
    if top is None:
        return default
    if isinstance(top, bool) or not isinstance(top, int) or top < 0:
        raise GameError("--top must be a whole number >= 0")
    return top


# -- moves ----------------------------------------------------------------------


def _run_moves(ctx: Context, params: Mapping[str, Any]) -> Document:
    lex, game, pos, named = lexicon_and_position_with_rack(ctx, params)
    top = _top(params, 20)
    if ctx.max_results is not None:
        top = min(top, ctx.max_results)
    leaves = leaves_param(ctx, params, game, lex)
    sort = _sort(params)
    moves = generate(lex, pos, top=top, exchanges=True if params.get("exchanges") else None,
                     passes=bool(params.get("passes")), leaves=leaves, sort=sort, deadline=ctx.deadline,
                     both_directions=bool(params.get("both_directions")))
    total = moves.total
    by_equity = (leaves is not None or bool(game.leaves)) if sort is None else sort == "equity"
    doc: Document = {"command": "moves", "lexicon": lexicon_name(lex), "game": game.name, "position": pos.to_cgp(),
                     "rack": pos.racks[0], "sort": "equity" if by_equity else "score"}
    warnings = named + bag_warnings(pos, game)
    table_name = leaves_name(leaves, game)
    if table_name:
        doc["leaves"] = table_name
    phonies = board_phonies(lex, pos)
    if phonies:
        warnings.append(f"not in the lexicon but on the board: {', '.join(w.upper() for w in phonies)}")
    if warnings:
        doc["warnings"] = warnings
    doc["results"] = [m.to_dict() for m in moves]
    doc["count"] = len(moves)
    doc["total"] = total
    return doc


def _text_moves(doc: Document) -> Iterator[str]:
    for w in doc.get("warnings", []):
        yield f"warning: {w}"
    for r in doc["results"]:
        equity = f"{r['equity']:7.2f}" if r.get("equity") is not None else "      -"
        yield f"{r['score']:3d} {equity}  {r['notation']}  leave {r['leave'] or '-'}"


_LEAVES_HELP = ("a leave table to value leaves by: a KLV2, KLV or CSV (leave,value) file; ranks by equity "
                "(default: the game's table, if any)")

MOVES = Command(
    name="moves",
    summary="every legal play on a board for a rack, best equity (or score) first",
    params=(
        Param("position", "CGP string, board (rows by newline or '/'), a file, or 'empty'", positional=True,
              required=True),
        Param("rack", "the tiles to play, '?' for a blank, [CH] for a multi-letter tile (default: the CGP's rack)"),
        Param("top", "how many moves to list (0: none, only the total)", kind="int", default=20, minimum=0,
              maximum=MAX_COUNT),
        Param("game", "game preset (scrabble, super, spanish, catalan, french) or game file", default="scrabble"),
        Param("leaves", _LEAVES_HELP, metavar="TABLE"),
        Param("sort", "rank by equity (score + leave value) or by score (default: equity with a leave table)",
              choices=("equity", "score")),
        Param("exchanges", "also list every exchange (listed anyway when ranking by equity)", kind="bool",
              default=False),
        Param("passes", "also list the pass", kind="bool", default=False),
        Param("both_directions", "on an empty board, list the down plays too (by default only the across ones: the "
              "down ones are their transposes)", kind="bool", default=False),
    ),
    run=_run_moves,
    text=_text_moves,
    examples=("lexigraph moves empty --rack 'AALNST?' --top 5", "lexigraph moves game.cgp --top 20 --json",
              "lexigraph moves game.cgp --leaves leaves.klv2 --top 10"),
)


# -- score ----------------------------------------------------------------------


def _run_score(ctx: Context, params: Mapping[str, Any]) -> Document:
    lex, game, pos, named = lexicon_and_position(ctx, params)
    play = params.get("move")
    if not play:
        raise GameError("give a play such as '8H QUIZ'")
    rack = params.get("rack")
    doc: Document = {"command": "score", "lexicon": lexicon_name(lex), "game": game.name, "position": pos.to_cgp(),
                     "play": str(play)}
    warnings = named + bag_warnings(pos, game)
    if warnings:
        doc["warnings"] = warnings
    try:
        move = score_play(lex, pos, str(play), rack=str(rack).upper() if rack else None)
    except IllegalPlay as e:
        doc.update(legal=False, reason=e.reason, message=str(e), not_in_lexicon=list(e.words), results=[], count=0)
        return doc
    doc.update(legal=True, score=move.score, results=[move.to_dict()], count=1)
    return doc


def _text_score(doc: Document) -> Iterator[str]:
    if not doc.get("legal"):
        yield f"illegal ({doc['reason']}): {doc['message']}"
        return
    r = doc["results"][0]
    yield f"{r['score']}  {r['notation']}  words {' '.join(w.upper() for w in r['words'])}"


SCORE = Command(
    name="score",
    summary="check a play on a board and score it, or say why it is illegal",
    params=(
        Param("position", "CGP string, board, a file, or 'empty'", positional=True, required=True),
        Param("move", "the play: '8H WORD' across, 'H8 WORD' down; board tiles as themselves, '.' or (X)",
              positional=True, required=True),
        Param("rack", "the rack the tiles come from (default: the CGP's rack; none: the tiles played)"),
        Param("game", "game preset (scrabble, super, spanish, catalan, french) or game file", default="scrabble"),
    ),
    run=_run_score,
    text=_text_score,
    examples=("lexigraph score empty '8E QUIZ'", "lexigraph score empty '8A QUIZ'",
              "lexigraph score game.cgp 'H8 (C)AT' --rack AT --json"),
    found=lambda doc: bool(doc.get("legal")),
)


COMMANDS = [MOVES, SCORE]
