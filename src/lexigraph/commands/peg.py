"""The ``peg`` command: the pre-endgame, every play against every draw of a bag of 1 to 4 tiles
(``lexigraph.scrabble.peg``).

The POSITION is read as ``endgame`` reads it (a CGP string or a file
holding one), the side to move's rack first; the opponent's rack is among
the unseen tiles. The answer: per play the draws won, tied and lost and the
mean final spread, best first; whether every scenario was solved (``exact``:
always with 1 or 2 tiles in the bag and no time limit).

>>> from lexigraph.commands import Context
>>> doc = PEG.run(Context(), {"position": "empty", "rack": "QUIZ"})
Traceback (most recent call last):
...
lexigraph.scrabble.game.GameError: the bag holds 89 tiles; a pre-endgame takes 1 to 4
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..scrabble.game import GameError
from ..scrabble.peg import solve_peg
from ._boards import lexicon_and_position_with_rack
from ._common import envelope, need_int
from .command import MAX_COUNT, MAX_SECONDS, MAX_SEED, Command, Context, Document, Param


#: A pre-endgame from self-play with ENABLE's words: one tile in the bag, the side to move holds EIIIIIZ.
EXAMPLE = ("7D1DECANT/7U1O2BO1/2JOCK1p1G1EAR1/3FA2LINED3/4V2E1AY4/3REF1X1PEG3/1T2A1HEHS1UM2/RELETTER3MUNI/"
           "1N1LOOPs4G2/1OW1R10/1NA1SAU8/WET2B9/ORT2L9/AS3Y9/D14 EIIIIIZ/ 267/473 0")


def _run_peg(ctx: Context, params: Mapping[str, Any]) -> Document:
    if not params.get("position"):
        raise GameError("give a position: a CGP string with the side to move's rack, or a file holding one")
    lex, game, pos, named = lexicon_and_position_with_rack(ctx, params)
    time_limit = params.get("time_limit")
    if isinstance(time_limit, str):
        try:
            time_limit = float(time_limit)
        except ValueError:
            raise GameError(f"--time-limit takes a number of seconds, not {time_limit!r}") from None
    solution = solve_peg(lex, pos, candidates=need_int(ctx, params, "candidates", minimum=1, maximum=MAX_COUNT),
                         time_limit=time_limit, seed=need_int(ctx, params, "seed", minimum=0, maximum=MAX_SEED) or 0,
                         deadline=ctx.deadline)
    body = solution.as_dict()
    plays = body.pop("plays")
    doc = envelope("peg", lex, plays, game=game.name, position=pos.to_cgp(), **body)
    if named:
        doc["warnings"] = named
    return doc


def _text_peg(doc: Document) -> Iterator[str]:
    for w in doc.get("warnings", []):
        yield f"warning: {w}"
    how = "exact" if doc["exact"] else f"{doc['scenarios_done']} of {doc['scenarios']} scenarios"
    yield (f"bag {doc['bag']}: {doc['draws']} draws ({doc['scenarios']} orders), {how}, {doc['endgames']:,} "
           f"endgames, {doc['seconds']:.2f} s")
    for note in doc.get("notes", []):
        yield f"note: {note}"
    yield "  wins  ties  losses   spread   equity  play"
    for r in doc["results"]:
        yield (f"{r['wins']:6} {r['draws']:5} {r['losses']:7} {r['mean_spread']:+8.2f} {r['equity']:8.2f}  "
               f"{r['notation']}")


PEG = Command(
    name="peg",
    summary="the pre-endgame (1-4 tiles in the bag): each play's draws won, tied and lost and mean spread, by "
            "exact search to the end",
    params=(
        Param("position", "CGP string (the side to move's rack first), board or file", positional=True,
              required=True),
        Param("rack", "the side to move's tiles, '?' for a blank (default: the CGP's rack)"),
        Param("candidates", "judge only the best N plays by equity, and the pass (default: every play)", kind="int",
              metavar="N", minimum=1, maximum=MAX_COUNT),
        Param("time_limit", "answer with the scenarios done after this many seconds (exact: false)", kind="float",
              metavar="S", minimum=0, maximum=MAX_SECONDS),
        Param("seed", "the order the scenarios are taken in (what an answer cut short covers)", kind="int",
              default=0, minimum=0, maximum=MAX_SEED),
        Param("game", "game preset (scrabble, super, spanish, catalan, french) or game file", default="scrabble"),
    ),
    run=_run_peg,
    text=_text_peg,
    examples=("lexigraph peg peg.cgp --candidates 10 --time-limit 60",
              f"lexigraph peg '{EXAMPLE}' --candidates 2 --time-limit 3 --json"),
)

COMMANDS = [PEG]
