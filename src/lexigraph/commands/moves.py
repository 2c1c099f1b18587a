"""Board-game commands: ``moves`` (every play for a rack), ``score`` (check and score one play),
``analyze`` (each turn of a GCG game against the best plays).

A POSITION is a CGP string, a plain board (rows separated by newlines or
``/``), a file holding either, or ``empty`` for an empty board. Files are
read only when ``ctx.options.get("files", True)``: a server sets
``options={"files": False}`` so that a request cannot name a file of the host.
``analyze`` stops at ``ctx.deadline`` and says so (``"truncated": true``).

A leave table (``leaves``) is a KLV2, KLV or CSV file; over HTTP, where
no file of the host is read, its content: the CSV text, or a binary table
as ``base64:`` and its Base64. With one (or a game that names one, as the
``scrabble`` preset names ``english-leaves.klv2``) moves are ranked by
equity, else by score (``sort`` chooses). The document's ``leaves`` names
the table that valued the leaves: the one given, else the game's own.

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

import os
from collections.abc import Iterator, Mapping
from typing import Any

from ..compiler.registry import name_of
from ..support.text import quote
from . import MAX_COUNT, Command, Context, Document, Param

_MAX_INPUT = 1 << 20


def _name(lex: Any) -> str:
    from ._common import lexicon_name

    return lexicon_name(lex)


def _read(ctx: Context, spec: str, what: str) -> str:
    """The text of the file ``spec`` names, if it names one (and the context reads files); else ``spec``.

    A FIFO or device is read with a bounded wait and size (``/dev/zero`` is
    refused as what it is, not taken for text).
    """
    from ..scrabble.game import GameError
    from ..support.files import read_limited

    if ctx.options.get("files", True) and "\n" not in spec and len(spec) < 4096 and os.path.lexists(spec):
        data = read_limited(spec, limit=_MAX_INPUT, what=f"a {what} file", error=GameError)
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise GameError(f"cannot read {what} file {spec}: not UTF-8 text (byte {e.start})") from None
    return spec


def _game_file(ctx: Context, params: Mapping[str, Any]) -> Any:
    """The game ``game`` names, in its own alphabet."""
    from ..scrabble.game import PRESETS, Game
    from ._common import preset_or_file

    return Game.load(preset_or_file(ctx, params.get("game") or "scrabble", PRESETS, "game"))


def _aligned(game: Any, lex: Any) -> Any:
    return game.for_lexicon(lex.alphabet)  # the lexicon's tiles must be the game's (else an error naming a game)


def _game(ctx: Context, params: Mapping[str, Any], lex: Any) -> Any:
    return _aligned(_game_file(ctx, params), lex)


def _lexicon_and_game(ctx: Context, params: Mapping[str, Any],
                      named: tuple[tuple[str, str], ...] = ()) -> tuple[Any, Any, list[str]]:
    """The lexicon (``--lexicon``, else the one ``named`` by the input, else the game file's, else the built-in),
    the game in its alphabet, and the warnings of :meth:`Context.lexicon_for`."""
    game = _game_file(ctx, params)
    lex, warnings = ctx.lexicon_for([*named, ("the game file", game.lexicon)])
    return lex, _aligned(game, lex), warnings


def _position_text(ctx: Context, params: Mapping[str, Any]) -> str | None:
    """The text of the position ``position`` gives (read from its file), or None for the empty board."""
    from ..scrabble.game import GameError

    spec = params.get("position")
    if not spec:
        raise GameError("give a position: a CGP string, a board, a file, or 'empty'")
    spec = str(spec)
    if spec.strip().lower() == "empty":
        return None
    text = _read(ctx, spec, "position")
    if text == spec and spec.lower().endswith((".cgp", ".txt", ".board")):
        raise GameError(f"no such position file: {quote(spec)}")
    if len(text) > _MAX_INPUT:
        raise GameError(f"the position is longer than {_MAX_INPUT} characters")
    return text


def _board(text: str | None, game: Any) -> Any:
    from ..scrabble.position import Position, read_position

    return Position(game) if text is None else read_position(text, game)


def _position(ctx: Context, params: Mapping[str, Any], game: Any) -> Any:
    return _board(_position_text(ctx, params), game)


def _lexicon_and_position(ctx: Context, params: Mapping[str, Any]) -> tuple[Any, Any, Any, list[str]]:
    """The lexicon (the one the CGP's ``lex`` names when no ``--lexicon`` is given), the game, the position (its
    CGP naming the lexicon that answers) and the warnings."""
    from ..scrabble.position import named_lexicon

    text = _position_text(ctx, params)
    named = (("the position", named_lexicon(text)),) if text is not None else ()
    lex, game, warnings = _lexicon_and_game(ctx, params, named)
    pos = _board(text, game)
    pos.options["lex"] = name_of(lex)
    return lex, game, pos, warnings


def _lexicon_and_position_with_rack(ctx: Context, params: Mapping[str, Any]) -> tuple[Any, Any, Any, list[str]]:
    """As :func:`_lexicon_and_position`, the side to move holding ``rack`` when it is given."""
    lex, game, pos, warnings = _lexicon_and_position(ctx, params)
    rack = params.get("rack")
    if rack is not None:
        pos.racks[0] = str(rack).upper()
    return lex, game, pos, warnings


def _position_with_rack(ctx: Context, params: Mapping[str, Any], lex: Any) -> tuple[Any, Any]:
    """The game and the position, the side to move holding ``rack`` when it is given (else the position's rack)."""
    game = _game(ctx, params, lex)
    pos = _position(ctx, params, game)
    rack = params.get("rack")
    if rack is not None:
        pos.racks[0] = str(rack).upper()
    return game, pos


def _shipped(path: str) -> bool:
    """Whether ``path`` is a leave table that ships in the package (a preset's default): read even where no file of
    the host is, since no request chooses it."""
    from importlib import resources

    data = os.path.realpath(str(resources.files("lexigraph").joinpath("data")))
    return os.path.dirname(os.path.realpath(path)) == data and path.endswith(".klv2")


def _leaves(ctx: Context, params: Mapping[str, Any], game: Any, lex: Any) -> Any:
    """The leave table a command ranks with: ``leaves`` (a file, or over HTTP its content), else the game's."""
    import base64
    import binascii

    from ..scrabble.game import GameError
    from ..scrabble.leaves import LeaveError, LeaveTable

    spec = params.get("leaves")
    files = ctx.options.get("files", True)
    if not spec:
        if game.leaves and not files and not _shipped(game.leaves):
            raise GameError("the game names a leave table file, which is not read here; send the table itself")
        return None
    spec = str(spec)
    if files and "\n" not in spec and len(spec) < 4096 and os.path.exists(spec):
        return LeaveTable.read(spec, lex.alphabet)  # a FIFO or device too: a bounded read says what it is
    if spec.startswith("base64:"):
        try:
            data = base64.b64decode(spec[7:], validate=True)
        except (binascii.Error, ValueError):
            raise LeaveError("the leave table after 'base64:' is not Base64") from None
        return LeaveTable.from_bytes(data, lex.alphabet, name="leave table")
    if "," in spec:
        if len(spec) > _MAX_INPUT:
            raise LeaveError(f"the leave table is longer than {_MAX_INPUT} characters")
        return LeaveTable.from_csv(spec, lex.alphabet, name="leave table")
    raise LeaveError(f"no such leave table file: {spec}" if files else
                     "give the leave table itself: CSV lines 'leave,value', or 'base64:' and a KLV2 file's Base64")


def _leaves_name(leaves: Any, game: Any) -> str:
    """The name of the leave table that values the leaves: the one given (its file name, or "leave table" for
    content sent over HTTP), else the game's own (its file name); "" when none does."""
    if leaves is not None:
        return str(leaves.name or "leave table")
    return os.path.basename(game.leaves) if game.leaves else ""


def _sort(params: Mapping[str, Any]) -> Any:
    from ..scrabble.game import GameError

    sort = params.get("sort")
    if sort not in (None, "", "equity", "score"):
        raise GameError("--sort must be equity or score")
    return sort or None


def _top(params: Mapping[str, Any], default: int) -> int:
    from ..scrabble.game import GameError

    top = params.get("top")
    if top is None:
        return default
    if isinstance(top, bool) or not isinstance(top, int) or top < 0:
        raise GameError("--top must be a whole number >= 0")
    return top


def _bag_warnings(pos: Any, game: Any) -> list[str]:
    """The warning for a board (and rack) holding more of a tile than the game's bag has."""
    over = pos.overdrawn()
    if not over:
        return []
    return [f"the board and rack hold more tiles than the {game.name} bag: {', '.join(over)}"]


# -- moves ----------------------------------------------------------------------


def _run_moves(ctx: Context, params: Mapping[str, Any]) -> Document:
    from ..scrabble.movegen import board_phonies, generate

    lex, game, pos, named = _lexicon_and_position_with_rack(ctx, params)
    top = _top(params, 20)
    if ctx.max_results is not None:
        top = min(top, ctx.max_results)
    leaves = _leaves(ctx, params, game, lex)
    sort = _sort(params)
    moves = generate(lex, pos, top=top, exchanges=True if params.get("exchanges") else None,
                     passes=bool(params.get("passes")), leaves=leaves, sort=sort, deadline=ctx.deadline)
    total = moves.total
    by_equity = (leaves is not None or bool(game.leaves)) if sort is None else sort == "equity"
    doc: Document = {"command": "moves", "lexicon": _name(lex), "game": game.name, "position": pos.to_cgp(),
                     "rack": pos.racks[0], "sort": "equity" if by_equity else "score"}
    warnings = named + _bag_warnings(pos, game)
    table_name = _leaves_name(leaves, game)
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
    ),
    run=_run_moves,
    text=_text_moves,
    examples=("lexigraph moves empty --rack 'AALNST?' --top 5", "lexigraph moves game.cgp --top 20 --json",
              "lexigraph moves game.cgp --leaves leaves.klv2 --top 10"),
)


# -- score ----------------------------------------------------------------------


def _run_score(ctx: Context, params: Mapping[str, Any]) -> Document:
    from ..scrabble.game import GameError
    from ..scrabble.moves import IllegalPlay
    from ..scrabble.scoring import score_play

    lex, game, pos, named = _lexicon_and_position(ctx, params)
    play = params.get("move")
    if not play:
        raise GameError("give a play such as '8H QUIZ'")
    rack = params.get("rack")
    doc: Document = {"command": "score", "lexicon": _name(lex), "game": game.name, "position": pos.to_cgp(),
                     "play": str(play)}
    warnings = named + _bag_warnings(pos, game)
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


# -- analyze --------------------------------------------------------------------


def _run_analyze(ctx: Context, params: Mapping[str, Any]) -> Document:
    from ..scrabble.game import GameError
    from ..scrabble.gcg import analyze, named_lexicon, read_gcg

    spec = params.get("gcg")
    if not spec:
        raise GameError("give a GCG file")
    if spec == "sample" and not (ctx.options.get("files", True) and os.path.exists("sample")):
        from importlib import resources

        text = resources.files("lexigraph").joinpath("games").joinpath("sample.gcg").read_text("utf-8")
    else:
        text = _read(ctx, str(spec), "GCG")
        if text == spec and "\n" not in text and not text.lstrip().startswith((">", "#")):
            raise GameError(f"no such GCG file: {quote(spec)}")
    if len(text) > _MAX_INPUT:
        raise GameError(f"the game record is longer than {_MAX_INPUT} characters")
    lex, game, named = _lexicon_and_game(ctx, params, (("the GCG", named_lexicon(text)),))
    record = read_gcg(text, game)
    top = _top(params, 3)
    leaves = _leaves(ctx, params, game, lex)
    sort = _sort(params)
    results = analyze(lex, record, top=top, deadline=ctx.deadline, leaves=leaves, sort=sort)
    doc: Document = {"command": "analyze", "lexicon": _name(lex), "game": game.name, "players": record.players,
                     "game_lexicon": record.lexicon}
    by_equity = (leaves is not None or bool(game.leaves)) if sort is None else sort == "equity"
    doc["sort"] = "equity" if by_equity else "score"
    plays = sum(1 for e in record.events if e.kind in ("play", "exchange", "pass"))
    warnings = named + [f"turn {r['turn']} ({r['player']}, {r['play']}): the record says {r['recorded_score']} "
                        f"points, the board gives {r['score']}" for r in results if r.get("score_differs")]
    if len(results) < plays:
        doc["truncated"] = True
        warnings.append(f"stopped at the time limit after {len(results)} of {plays} turns")
    if warnings:
        doc["warnings"] = warnings
    doc["results"] = results
    doc["count"] = len(results)
    return doc


def _text_analyze(doc: Document) -> Iterator[str]:
    by_equity = doc.get("sort") == "equity"
    for r in doc["results"]:
        made = f"{r['play']} {r['score'] if r['legal'] else 'illegal: ' + r.get('reason', '')}"
        if r.get("score_differs"):
            made += f" (recorded {r['recorded_score']})"
        if by_equity and r.get("equity") is not None:
            made += f" ({r['equity']:.2f})"
        best = ", ".join(f"{b['notation']} {b['score']}" + (f" ({b['equity']:.2f})" if by_equity else "")
                         for b in r["best"]) or "-"
        mark = "=" if r["equals_best"] else " "
        yield f"{r['turn']:3d} {r['player']}: {r['rack'] or '-'}  {made} {mark} best: {best}"


ANALYZE = Command(
    name="analyze",
    summary="each turn of a GCG game: the play made, its score, and the best plays",
    params=(
        Param("gcg", "a GCG game file (or its text; 'sample': a short game that ships with lexigraph)",
              positional=True, required=True),
        Param("top", "how many best plays to list per turn", kind="int", default=3, minimum=0,
              maximum=MAX_COUNT),
        Param("game", "game preset (scrabble, super, spanish, catalan, french) or game file", default="scrabble"),
        Param("leaves", _LEAVES_HELP, metavar="TABLE"),
        Param("sort", "rank by equity or by score (default: equity with a leave table)", choices=("equity", "score")),
    ),
    run=_run_analyze,
    text=_text_analyze,
    examples=("lexigraph analyze game.gcg", "lexigraph analyze game.gcg --top 5 --json",
              "lexigraph analyze sample --top 1", "lexigraph analyze game.gcg --leaves leaves.klv2"),
    http_method="POST",
)

COMMANDS = [MOVES, SCORE, ANALYZE]

# How the other board-game commands (sim, endgame, autoplay) read a game, a position (with the rack given) and a
# leave table: as these commands do.
game_param, position_param, position_with_rack_param, leaves_param = _game, _position, _position_with_rack, _leaves
# ... and choose the lexicon as they do: --lexicon, else the one the position (or game file) names.
lexicon_and_game, lexicon_and_position = _lexicon_and_game, _lexicon_and_position
lexicon_and_position_with_rack = _lexicon_and_position_with_rack
