"""``sim``: the best moves by equity, each played out a few turns ahead against many draws, ranked by mean
spread and win chance (:mod:`lexigraph.scrabble.simulation`).

The position is read as ``moves`` reads it (a CGP string, a board, a file;
the side to move's rack from the CGP or ``--rack``; the scores from the
CGP); the opponent's rack and the bag are drawn from the unseen tiles.
``--infer MOVE`` names the opponent's last move, already on the board: each
play-out then deals their rack from the leave that move suggests
(:func:`lexigraph.scrabble.inference.infer_last_move`, within
``--infer-margin`` points of equity).
``--workers`` runs the play-outs on a process pool (default: every core;
over HTTP, one), ``--threads`` on C threads inside each process (default 1;
over HTTP, one); a seed gives the same ranking whatever the workers and
threads.
``--time-limit`` answers with the iterations done by then and says so.

>>> from lexigraph.commands import Context
>>> doc = SIM.run(Context(), {"position": "empty", "rack": "QUIZ", "candidates": 2, "iterations": 4,
...                           "workers": 1})
>>> doc["count"], doc["iterations"], doc["results"][0]["move"]["notation"]
(2, 4, '8E QUIZ')
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

from ..engine.interface import MAX_THREADS
from ..errors import QueryError
from ..scrabble.inference import DEFAULT_MARGIN, MAX_MARGIN, Inference, infer_last_move
from ..scrabble.position import Position
from ..scrabble.simulation import (
    DEFAULT_ITERATIONS, MAX_CANDIDATES, MAX_ITERATIONS, MAX_PLIES, OBJECTIVES, simulate,
)
from ..scrabble.winpct import WinTable
from ._boards import leaves_param, lexicon_and_position_with_rack
from ._common import envelope, need_int
from .command import MAX_COUNT, MAX_SECONDS, MAX_SEED, MAX_WORKERS, Command, Context, Document, Param


def _run_sim(ctx: Context, params: Mapping[str, Any]) -> Document:
    lex, game, pos, named = lexicon_and_position_with_rack(ctx, params)
    candidates = need_int(ctx, params, "candidates", minimum=1, maximum=MAX_CANDIDATES)
    plies = need_int(ctx, params, "plies", minimum=0, maximum=MAX_PLIES)
    iterations = need_int(ctx, params, "iterations", minimum=1, maximum=MAX_ITERATIONS)
    seed = need_int(ctx, params, "seed", minimum=0, maximum=2 ** 64 - 1)
    workers = need_int(ctx, params, "workers", minimum=1, maximum=MAX_WORKERS)
    threads = need_int(ctx, params, "threads", minimum=1, maximum=MAX_THREADS) or 1
    if not ctx.options.get("files", True):
        workers = threads = 1  # a server answers each request in its own lane: no process pool, one thread
    limit = params.get("time_limit")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, float))
                              or not 0 < limit <= 86400):
        raise QueryError(f"{ctx.spell('time_limit')} must be a number of seconds above 0 and at most 86400")
    if ctx.deadline is not None:
        left = max(ctx.deadline - time.monotonic(), 0.001)
        limit = left if limit is None else min(float(limit), left)
    leaves = leaves_param(ctx, params, game, lex)
    objective = str(params.get("objective") or "win")
    if objective not in OBJECTIVES:
        raise QueryError(f"{ctx.spell('objective')} must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    table = None
    if params.get("win_table"):
        if not ctx.options.get("files", True):
            raise QueryError("a win table file is not read here: the server simulates with its shipped table")
        table = WinTable.read(str(params["win_table"]))
    max_playouts = need_int(ctx, params, "max_playouts", minimum=1, maximum=MAX_CANDIDATES * MAX_ITERATIONS)
    inferred = _inference(ctx, params, lex, pos, leaves)
    result = simulate(lex, pos, leaves=leaves, candidates=10 if candidates is None else candidates,
                      plies=2 if plies is None else plies,
                      iterations=DEFAULT_ITERATIONS if iterations is None else iterations,
                      seed=seed or 0, workers=workers, time_limit=limit, objective=objective, win_table=table,
                      max_playouts=max_playouts, progress=_progress(ctx), threads=threads, infer=inferred,
                      cluster=(params.get("cluster") or None) if ctx.options.get("files", True) else None)
    body = result.as_dict()
    ranked = cast("list[Document]", body.pop("ranked"))  # SimulationResult.as_dict: a document per play
    doc = envelope("sim", lex, ranked, game=game.name, position=pos.to_cgp(), rack=pos.racks[0],
                   leaves=(leaves.name or "leave table") if leaves is not None else (game.leaves or None), **body)
    if named:
        doc["warnings"] = named
    return doc


def _inference(ctx: Context, params: Mapping[str, Any], lex: Any, pos: Position, leaves: Any) -> Inference | None:
    """The inference the opponent's racks are dealt from, when ``infer`` names their last move."""
    move = params.get("infer")
    if move is None:
        return None
    if not isinstance(move, str) or not move.strip():
        raise QueryError(f"{ctx.spell('infer')} is the opponent's last move: '8H WO(R)D', '-N' or '-'")
    margin = params.get("infer_margin")
    if margin is not None and (isinstance(margin, bool) or not isinstance(margin, (int, float))):
        raise QueryError(f"{ctx.spell('infer_margin')} must be a number of points")
    return infer_last_move(lex, pos, move, margin=DEFAULT_MARGIN if margin is None else float(margin), leaves=leaves,
                           deadline=ctx.deadline)


def _progress(ctx: Context) -> Callable[[int, int], None] | None:
    """The simulation's play-outs (done, at most) as ``ctx.progress`` reports them."""
    report = ctx.progress
    if report is None:
        return None

    def step(done: int, total: int) -> None:
        report("sim", done, total, unit="play-outs")

    return step


def _text_sim(doc: Document) -> Iterator[str]:
    for w in doc.get("warnings", []):
        yield f"warning: {w}"
    state = "complete" if doc["complete"] else "cut short by the time limit"
    if doc.get("stopped_early"):
        state += ", one play confidently best"
    yield (f"{doc['iterations']:,} iterations of {doc['plies']} plies, seed {doc['seed']}, {doc['workers']} "
           f"worker(s), {doc['seconds']:.2f} s: {state}")
    for note in doc.get("notes", []):
        yield f"note: {note}"
    inferred = doc.get("inferred")
    if inferred:
        likely = ", ".join(f"{leave['leave'] or '-'} {100 * leave['probability']:.1f}%" for leave in inferred["leaves"])
        yield (f"the opponent's racks dealt from what {inferred['move']} suggests they kept "
               f"({inferred['consistent']:,} leaves{'' if inferred['exact'] else ', sampled'}): {likely}")
    yield "  equity   spread (se)      win% (se) play-outs  move"
    for r in doc["results"]:
        mark = " dropped" if r["dropped"] else ""
        yield (f"{r['equity']:8.2f} {r['mean_spread']:+8.2f} ({r['spread_stderr']:.2f}) "
               f"{100 * r['win_rate']:6.2f} ({100 * r['win_stderr']:.2f}) {r['iterations']:7,}  "
               f"{r['move']['notation']}{mark}")


SIM = Command(
    name="sim",
    summary="simulate the best moves by equity a few turns ahead against random draws; rank by win chance "
            "(a win-percentage table, spread as a tie-breaker) and stop once one play is confidently best",
    params=(
        Param("position", "CGP string, board (rows by newline or '/'), a file, or 'empty'", positional=True,
              required=True),
        Param("rack", "the side to move's tiles, '?' for a blank (default: the CGP's rack)"),
        Param("candidates", "how many of the best moves by equity to simulate", kind="int", default=10, minimum=1,
              maximum=MAX_COUNT),
        Param("plies", "turns played out after each candidate (the opponent's first)", kind="int", default=2,
              minimum=0, maximum=MAX_COUNT),
        Param("iterations", "play-outs per candidate at most (fewer for a candidate the stopping rule drops)",
              kind="int", default=1000, minimum=1, maximum=MAX_COUNT),
        Param("seed", "the draws' seed: the same seed, the same ranking", kind="int", default=0, minimum=0,
              maximum=MAX_SEED),
        Param("workers", f"processes (default: every core; at most {MAX_WORKERS}, and no more than the play-outs "
              "between two checkpoints can use)", kind="int", metavar="N", minimum=1, maximum=MAX_WORKERS),
        Param("threads", f"C threads each process plays its play-outs on (default 1; at most {MAX_THREADS}; over "
              "HTTP, one): the same ranking on any number", kind="int", default=1, metavar="N", minimum=1,
              maximum=MAX_THREADS),
        Param("time_limit", "seconds: answer with the iterations done by then", kind="float", metavar="SECONDS",
              minimum=0, maximum=MAX_SECONDS),
        Param("objective", "win: rank by the win table's chance (spread as a tie-breaker), drop plays by best-arm "
              "identification (default); simmer: mean spread + weight x a sigmoid's win chance, the paired z rule",
              choices=OBJECTIVES),
        Param("win_table", "the win-percentage table play-outs end in (.lxwin or MAGPIE's winpct.csv; default: "
              "the shipped one)", metavar="FILE", completer="file"),
        Param("max_playouts", "a budget: stop once this many play-outs are done", kind="int", metavar="N",
              minimum=1, maximum=MAX_CANDIDATES * MAX_ITERATIONS),
        Param("cluster", "a Dask scheduler's address (tcp://HOST:PORT) to run the play-outs on instead of --workers "
              "(the same answer for a seed); pip install 'lexigraph[cluster]'", metavar="ADDRESS", cli_only=True),
        Param("infer", "the opponent's last move, already on the board ('8H WO(R)D': tiles played through in "
              "parentheses; '-N' an exchange of N tiles; '-' a pass): each play-out deals their rack from the leave "
              "it suggests (as lexigraph infer finds it)", metavar="MOVE"),
        Param("infer_margin", f"with --infer: equity points the move may fall short of the rack's best (default "
              f"{DEFAULT_MARGIN:g})", kind="float", metavar="POINTS", minimum=0, maximum=MAX_MARGIN),
        Param("game", "game preset (scrabble, super, spanish, catalan, french) or game file", default="scrabble"),
        Param("leaves", "the leave table both sides play by: a KLV2, KLV or CSV file (default: the game's)",
              metavar="TABLE"),
    ),
    run=_run_sim,
    text=_text_sim,
    examples=("lexigraph sim game.cgp --candidates 5 --iterations 2000",
              "lexigraph sim empty --rack QUIZ --candidates 2 --iterations 16 --workers 1 --json",
              "lexigraph sim empty --rack QUIZ --candidates 2 --iterations 16 --workers 2 --time-limit 600",
              "lexigraph sim '15/15/15/15/15/15/15/5QUIZ6/15/15/15/15/15/15/15 AEIRSTV/ 0/44 0' --infer '8F QUIZ' "
              "--candidates 3 --iterations 64 --workers 1"),
)

COMMANDS = [SIM]
