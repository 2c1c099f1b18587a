"""How the board-game commands (``moves``, ``score``, ``analyze``, ``sim``, ``endgame``, ``autoplay``) read what
they are given: the game, the position (and the rack), a leave table, a game record; and which lexicon answers.

A POSITION is a CGP string, a plain board (rows separated by newlines or
``/``), a file holding either, or ``empty`` for an empty board. Files are
read only when ``ctx.options.get("files", True)``: a server sets
``options={"files": False}`` so that a request cannot name a file of the host.

A leave table (``leaves``) is a KLV2, KLV or CSV file; over HTTP, where no
file of the host is read, its content: the CSV text, or a binary table as
``base64:`` and its Base64. The lexicon is the one given (``--lexicon``),
else the one the input names (the CGP's ``lex``, the GCG's ``#lexicon``),
else the game file's, else the built-in one (:meth:`Context.lexicon_for`).
"""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Mapping
from importlib import resources
from typing import Any

from ..compiler.registry import name_of
from ..lexicon import Lexicon
from ..scrabble.game import PRESETS, Game, GameError
from ..scrabble.leaves import LeaveError, LeaveTable
from ..scrabble.position import Position, named_lexicon, read_position
from ..support.files import read_limited
from ..support.text import quote
from ._common import preset_or_file
from .command import Context

#: Longest position, game record or leave table text taken as it is.
MAX_INPUT = 1 << 20
#: One board-game command's inputs: the lexicon, the game in its alphabet, the position, the warnings.
Board = tuple[Lexicon, Game, Position, list[str]]


def read_text(ctx: Context, spec: str, what: str) -> str:
    """The text of the file ``spec`` names, if it names one (and the context reads files); else ``spec``.

    A FIFO or device is read with a bounded wait and size (``/dev/zero`` is
    refused as what it is, not taken for text).
    """
    if ctx.options.get("files", True) and "\n" not in spec and len(spec) < 4096 and os.path.lexists(spec):
        data = read_limited(spec, limit=MAX_INPUT, what=f"a {what} file", error=GameError)
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise GameError(f"cannot read {what} file {spec}: not UTF-8 text (byte {e.start})") from None
    return spec


def game_file(ctx: Context, params: Mapping[str, Any]) -> Game:
    """The game ``game`` names, in its own alphabet."""
    return Game.load(preset_or_file(ctx, params.get("game") or "scrabble", PRESETS, "game"))


def _aligned(game: Game, lex: Lexicon) -> Game:
    return game.for_lexicon(lex.alphabet)  # the lexicon's tiles must be the game's (else an error naming a game)


def game_param(ctx: Context, params: Mapping[str, Any], lex: Lexicon) -> Game:
    """The game ``game`` names, in the lexicon's alphabet."""
    return _aligned(game_file(ctx, params), lex)


def lexicon_and_game(ctx: Context, params: Mapping[str, Any],
                     named: tuple[tuple[str, str], ...] = ()) -> tuple[Lexicon, Game, list[str]]:
    """The lexicon (``--lexicon``, else the one ``named`` by the input, else the game file's, else the built-in),
    the game in its alphabet, and the warnings of :meth:`Context.lexicon_for`."""
    game = game_file(ctx, params)
    lex, warnings = ctx.lexicon_for([*named, ("the game file", game.lexicon)])
    return lex, _aligned(game, lex), warnings


def position_text(ctx: Context, params: Mapping[str, Any]) -> str | None:
    """The text of the position ``position`` gives (read from its file), or None for the empty board."""
    spec = params.get("position")
    if not spec:
        raise GameError("give a position: a CGP string, a board, a file, or 'empty'")
    spec = str(spec)
    if spec.strip().lower() == "empty":
        return None
    text = read_text(ctx, spec, "position")
    if text == spec and spec.lower().endswith((".cgp", ".txt", ".board")):
        raise GameError(f"no such position file: {quote(spec)}")
    if len(text) > MAX_INPUT:
        raise GameError(f"the position is longer than {MAX_INPUT} characters")
    return text


def _board(text: str | None, game: Game) -> Position:
    return Position(game) if text is None else read_position(text, game)


def position_param(ctx: Context, params: Mapping[str, Any], game: Game) -> Position:
    """The position ``position`` gives, on ``game``'s board."""
    return _board(position_text(ctx, params), game)


def lexicon_and_position(ctx: Context, params: Mapping[str, Any]) -> Board:
    """The lexicon (the one the CGP's ``lex`` names when no ``--lexicon`` is given), the game, the position (its
    CGP naming the lexicon that answers) and the warnings."""
    text = position_text(ctx, params)
    named = (("the position", named_lexicon(text)),) if text is not None else ()
    lex, game, warnings = lexicon_and_game(ctx, params, named)
    pos = _board(text, game)
    pos.options["lex"] = name_of(lex)
    return lex, game, pos, warnings


def lexicon_and_position_with_rack(ctx: Context, params: Mapping[str, Any]) -> Board:
    """As :func:`lexicon_and_position`, the side to move holding ``rack`` when it is given."""
    lex, game, pos, warnings = lexicon_and_position(ctx, params)
    rack = params.get("rack")
    if rack is not None:
        pos.racks[0] = str(rack).upper()
    return lex, game, pos, warnings


def position_with_rack(ctx: Context, params: Mapping[str, Any], lex: Lexicon) -> tuple[Game, Position]:
    """The game and the position, the side to move holding ``rack`` when it is given (else the position's rack)."""
    game = game_param(ctx, params, lex)
    pos = position_param(ctx, params, game)
    rack = params.get("rack")
    if rack is not None:
        pos.racks[0] = str(rack).upper()
    return game, pos


def _shipped(path: str) -> bool:
    """Whether ``path`` is a leave table that ships in the package (a preset's default): read even where no file of
    the host is, since no request chooses it."""
    data = os.path.realpath(str(resources.files("lexigraph").joinpath("data")))
    return os.path.dirname(os.path.realpath(path)) == data and path.endswith(".klv2")


def leaves_param(ctx: Context, params: Mapping[str, Any], game: Game, lex: Lexicon) -> LeaveTable | None:
    """The leave table a command ranks with: ``leaves`` (a file, or over HTTP its content), else None (the
    game's own, which the jobs load)."""
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
        if len(spec) > MAX_INPUT:
            raise LeaveError(f"the leave table is longer than {MAX_INPUT} characters")
        return LeaveTable.from_csv(spec, lex.alphabet, name="leave table")
    raise LeaveError(f"no such leave table file: {spec}" if files else
                     "give the leave table itself: CSV lines 'leave,value', or 'base64:' and a KLV2 file's Base64")


def leaves_name(leaves: LeaveTable | None, game: Game) -> str:
    """The name of the leave table that values the leaves: the one given (its file name, or "leave table" for
    content sent over HTTP), else the game's own (its file name); "" when none does."""
    if leaves is not None:
        return str(leaves.name or "leave table")
    return os.path.basename(game.leaves) if game.leaves else ""


def bag_warnings(pos: Position, game: Game) -> list[str]:
    """The warning for a board (and rack) holding more of a tile than the game's bag has."""
    over = pos.overdrawn()
    if not over:
        return []
    return [f"the board and rack hold more tiles than the {game.name} bag: {', '.join(over)}"]
