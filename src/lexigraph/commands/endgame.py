"""The ``endgame`` command: the exact best play when the bag is empty (``lexigraph.scrabble.endgame``).

The POSITION is taken as ``moves`` takes it (a CGP string or a file
holding one); its two racks are the side to move's and the opponent's,
which must be exactly the unseen tiles. The answer: the value (the spread
from here to the end, the side to move's view), the best play, the
principal variation, whether the search finished (``--time-limit`` stops it
and answers the best found so far), the nodes, the depth and the time.

>>> from lexigraph.commands import Context
>>> doc = ENDGAME.run(Context(), {"position": "empty"})
Traceback (most recent call last):
...
lexigraph.scrabble.game.GameError: the side to move has no tiles: the game is over
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..compiler.registry import name_of
from ..errors import ResourceBusy
from ..scrabble.endgame import DEFAULT_TABLE_MB, solve_endgame
from ..scrabble.game import GameError
from ._boards import Board, lexicon_and_position
from .command import MAX_SECONDS, Command, Context, Document, Param


def _position(ctx: Context, params: Mapping[str, Any]) -> Board:
    """The lexicon, the game (``game``, in the lexicon's alphabet), the position (``position``) and the warnings,
    read as ``moves`` reads them (the lexicon the CGP names when no ``--lexicon`` is given)."""
    if not params.get("position"):
        raise GameError("give a position: a CGP string with both racks, or a file holding one")
    return lexicon_and_position(ctx, params)


#: An endgame from self-play with ENDGAME's words: the side to move holds GILN, the opponent ER.
EXAMPLE = ("7T7/7R1AH4/6XU1BOARTS/3bRAINILY3E/2HEED1K1AS3N/1FOG1J3Z2TWO/QAT2O2AE4P/U3WISED5I/O3EN2U3VIA/"
           "I2OBE2N3IF1/N2RED2CIVET2/S1PAR7T2/1GULs7L2/2M6COMEDY/2A10OE GILN/ER 430/362 0")


def _run_endgame(ctx: Context, params: Mapping[str, Any]) -> Document:
    lex, game, pos, named = _position(ctx, params)
    time_limit = params.get("time_limit")
    if isinstance(time_limit, str):
        try:
            time_limit = float(time_limit)
        except ValueError:
            raise GameError(f"--time-limit takes a number of seconds, not {time_limit!r}") from None
    table = DEFAULT_TABLE_MB if params.get("table_mb") is None else params["table_mb"]
    try:
        solution = solve_endgame(lex, pos, time_limit=time_limit, table_megabytes=table, deadline=ctx.deadline,
                                 threads=1 if params.get("threads") is None else params["threads"])
    except ResourceBusy as e:  # say which option sizes the table, as the user spells it
        raise ResourceBusy(f"{e} ({ctx.spell('table_mb')} {table}; the default is {DEFAULT_TABLE_MB})",
                           retry_after=e.retry_after) from None
    name = name_of(lex)
    doc: Document = {"command": "endgame", "lexicon": str(name), "game": game.name, "position": pos.to_cgp()}
    if named:
        doc["warnings"] = named
    doc.update(solution.as_dict())
    doc["results"] = doc["pv"]  # the envelope's list (--jsonl: a move a line)
    doc["count"] = len(doc["pv"])
    return doc


def _text_endgame(doc: Document) -> Iterator[str]:
    for w in doc.get("warnings", []):
        yield f"warning: {w}"
    done = "complete" if doc["complete"] else "complete: false (stopped at the time limit: the best found so far)"
    yield f"value {doc['value']:+d}  ({done})"
    best = doc["best"]
    yield f"best  {best.get('notation', 'pass') if best['kind'] == 'play' else 'pass'}" + (
        f"  {best['score']}" if best["kind"] == "play" else "")
    for k, m in enumerate(doc["pv"], 1):
        side = "mover   " if k % 2 else "opponent"
        play = f"{m['notation']}  {m['score']}" if m["kind"] == "play" else "pass"
        yield f"{k:3d}. {side}  {play}"
    yield f"nodes {doc['nodes']:,}  depth {doc['depth']}  time {doc['seconds']:.2f} s"


ENDGAME = Command(
    name="endgame",
    summary="the exact best play when the bag is empty: its value, the principal variation",
    params=(
        Param("position", "CGP string with both racks (the mover's first), or a file holding one",
              positional=True, required=True),
        Param("time_limit", "stop after this many seconds and answer the best found so far (complete: false)",
              kind="float", metavar="S", minimum=0, maximum=MAX_SECONDS),
        Param("table_mb", "the transposition table's memory in megabytes (1-4096; default 64)", kind="int",
              metavar="MB", minimum=1, maximum=4096),
        Param("threads", "threads the search runs on (1-64; default 1; the answer is the same on any number)",
              kind="int", metavar="N", minimum=1, maximum=64),
        Param("game", "game preset (scrabble, super, spanish, catalan, french) or game file", default="scrabble"),
    ),
    run=_run_endgame,
    text=_text_endgame,
    examples=("lexigraph endgame endgame.cgp", "lexigraph endgame endgame.cgp --time-limit 10 --json",
              "lexigraph endgame endgame.cgp --threads 2",
              f"lexigraph endgame '{EXAMPLE}' --time-limit 30"),
)

COMMANDS = [ENDGAME]
