"""The ``infer`` command: what the opponent kept after their last move (``lexigraph.scrabble.inference``).

The POSITION is the one before the opponent's move, the opponent on turn:
its first rack empty (it is what is inferred), the second the observer's
(or empty). MOVE is the play's notation (``8H WORD``), ``-N`` for an
exchange of N tiles, or ``-`` for a pass. The answer: the leaves the
opponent may have kept, most probable first, each with its probability,
the expected count of each tile, and how the answer was found (exact, or
sampled beyond ``--max-leaves``).

>>> from lexigraph.commands import Context
>>> doc = INFER.run(Context(), {"position": "empty", "move": ""})
Traceback (most recent call last):
...
lexigraph.scrabble.game.GameError: give the opponent's move: '8H WORD', '-N' (an exchange of N tiles) or '-' (a pass)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..scrabble.game import GameError
from ..scrabble.inference import DEFAULT_MARGIN, DEFAULT_MAX_LEAVES, DEFAULT_SAMPLES, MAX_LEAVES, MAX_MARGIN, infer
from ._boards import leaves_param, lexicon_and_position
from ._common import envelope, need_int
from .command import MAX_COUNT, MAX_SEED, Command, Context, Document, Param

#: Leaves listed by default.
DEFAULT_TOP = 20


def _run_infer(ctx: Context, params: Mapping[str, Any]) -> Document:
    if not params.get("position"):
        raise GameError("give the position before the opponent's move: a CGP string, a board or a file")
    lex, game, pos, named = lexicon_and_position(ctx, params)
    move = params.get("move")
    if not isinstance(move, str) or not move.strip():
        raise GameError("give the opponent's move: '8H WORD', '-N' (an exchange of N tiles) or '-' (a pass)")
    margin = params.get("margin")
    top = need_int(ctx, params, "top", minimum=0, maximum=MAX_COUNT)
    max_leaves = need_int(ctx, params, "max_leaves", minimum=0, maximum=MAX_LEAVES)
    samples = need_int(ctx, params, "samples", minimum=1, maximum=MAX_LEAVES)
    answer = infer(lex, pos, move, margin=DEFAULT_MARGIN if margin is None else margin,
                   leaves=leaves_param(ctx, params, game, lex),
                   max_leaves=DEFAULT_MAX_LEAVES if max_leaves is None else max_leaves,
                   samples=DEFAULT_SAMPLES if samples is None else samples,
                   seed=need_int(ctx, params, "seed", minimum=0, maximum=MAX_SEED) or 0, deadline=ctx.deadline)
    body = answer.as_dict(game, DEFAULT_TOP if top is None else top)
    listed = body.pop("leaves")
    doc = envelope("infer", lex, listed, game=game.name, position=pos.to_cgp(), **body)
    if named:
        doc["warnings"] = named
    return doc


def _text_infer(doc: Document) -> Iterator[str]:
    for w in doc.get("warnings", []):
        yield f"warning: {w}"
    how = "exact" if doc["exact"] else f"sampled ({doc['samples']:,} racks, seed {doc['seed']})"
    margin = "none" if doc["margin"] is None else f"{doc['margin']:g}"
    yield (f"{doc['move']}: {doc['consistent']:,} leaves of {doc['leave_size']} consistent of {doc['evaluated']:,} "
           f"valued ({doc['possible']:,} possible), margin {margin}, {how}, {doc['seconds']:.2f} s")
    for note in doc.get("notes", []):
        yield f"note: {note}"
    for r in doc["results"]:
        yield f"{100 * r['probability']:7.3f}%  {r['leave'] or '-'}"
    if doc["tile_means"]:
        yield "tiles: " + " ".join(f"{t}:{v:.2f}" for t, v in doc["tile_means"].items())


INFER = Command(
    name="infer",
    summary="what the opponent kept after their last move: each leave's probability, from the racks for which "
            "the move was within a margin of their best",
    params=(
        Param("position", "the position before the opponent's move: CGP (their rack empty, yours second), board "
              "or file", positional=True, required=True),
        Param("move", "the opponent's move: '8H WORD', '-N' (an exchange of N tiles) or '-' (a pass)",
              positional=True, required=True),
        Param("margin", f"equity points the move may fall short of the rack's best (default {DEFAULT_MARGIN:g}; "
              f"{MAX_MARGIN:g}: no inference)", kind="float", minimum=0, maximum=MAX_MARGIN),
        Param("top", f"leaves listed, most probable first (default {DEFAULT_TOP})", kind="int", minimum=0,
              maximum=MAX_COUNT),
        Param("max_leaves", f"enumerate every leave up to this many; beyond, sample (default {DEFAULT_MAX_LEAVES})",
              kind="int", minimum=0, maximum=MAX_LEAVES),
        Param("samples", f"racks drawn when sampling (default {DEFAULT_SAMPLES})", kind="int", minimum=1,
              maximum=MAX_LEAVES),
        Param("seed", "the samples' seed", kind="int", default=0, minimum=0, maximum=MAX_SEED),
        Param("game", "game preset (scrabble, super, spanish, catalan, french) or game file", default="scrabble"),
        Param("leaves", "the leave table the equities use: a KLV2, KLV or CSV file (default: the game's)",
              metavar="TABLE"),
    ),
    run=_run_infer,
    text=_text_infer,
    examples=("lexigraph infer '15/15/15/15/15/15/15/5QUIZ6/15/15/15/15/15/15/15 /AEIRSTV 0/44 0' 'G5 GRO(U)T'",
              "lexigraph infer '15/15/15/15/15/15/15/5QUIZ6/15/15/15/15/15/15/15 /AEIRSTV 0/44 0' -3 --top 5 "
              "--json"),
)

COMMANDS = [INFER]
