"""``analyze``: each turn of a GCG game (or of every game in a folder) against the engine, in win chances
(:mod:`lexigraph.scrabble.analysis`): the play made, the best plays by static equity, the best by simulation
within a per-turn budget (``--budget`` seconds or ``--iterations``), the win chance before and after, the win
chance lost and a mistake class; per player a summary. ``analyze`` stops at ``ctx.deadline`` and says so
(``"truncated": true``). A folder's games are analysed on a process pool (``--workers``), each the same
whatever the workers.

>>> from lexigraph.commands import Context
>>> doc = ANALYZE.run(Context(), {"gcg": "sample", "top": 1})
>>> [(r["play"], r["mistake"]) for r in doc["results"]][:2], [s["player"] for s in doc["summary"]]
([('8D RETAINS', 'none'), ('9E SOX', 'mistake')], ['ann', 'bob'])
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from importlib import resources
from typing import Any, Literal

from ..lexicon import Lexicon
from ..scrabble.analysis import analyze_game, summary
from ..scrabble.game import Game, GameError
from ..scrabble.gcg import read_gcg
from ..scrabble.gcg import named_lexicon as gcg_lexicon
from ..scrabble.inference import DEFAULT_MARGIN, MAX_MARGIN
from ..scrabble.leaves import LeaveTable
from ..scrabble.simulation import MAX_ITERATIONS, MAX_PLIES
from ..scrabble.winpct import WinTable, default_table
from ..scrabble.workers import LexiconRef, opened_lexicon
from ..support.text import quote
from ..support.workers import pool_size
from ._boards import MAX_INPUT, leaves_param, lexicon_and_game, read_text
from ._common import lexicon_name, need_int
from .command import MAX_COUNT, MAX_SEED, MAX_WORKERS, Command, Context, Document, Param

#: Most games one folder holds for ``analyze``.
MAX_GAMES = 10_000


def _gcg_text(ctx: Context, spec: str) -> str:
    if spec == "sample" and not (ctx.options.get("files", True) and os.path.exists("sample")):
        return resources.files("lexigraph").joinpath("games").joinpath("sample.gcg").read_text("utf-8")
    text = read_text(ctx, spec, "GCG")
    if text == spec and "\n" not in text and not text.lstrip().startswith((">", "#")):
        raise GameError(f"no such GCG file: {quote(spec)}")
    if len(text) > MAX_INPUT:
        raise GameError(f"the game record is longer than {MAX_INPUT} characters")
    return text


def _sort(params: Mapping[str, Any]) -> Literal["equity", "score"] | None:
    sort = params.get("sort")
    if sort in (None, ""):
        return None
    if sort not in ("equity", "score"):
        raise GameError(f"--sort must be equity or score, not {quote(sort)}")
    return "equity" if sort == "equity" else "score"


def _budget(ctx: Context, params: Mapping[str, Any]) -> float | None:
    value = params.get("budget")
    if value in (None, ""):
        return None
    try:
        budget = float(value)
    except (TypeError, ValueError):
        raise GameError(f"{ctx.spell('budget')} is a number of seconds, not {quote(value)}") from None
    if not 0 <= budget <= 600:  # NaN too
        raise GameError(f"{ctx.spell('budget')} must be from 0 to 600 seconds, not {quote(value)}")
    return budget


def _win_table(ctx: Context, params: Mapping[str, Any]) -> WinTable:
    spec = params.get("win_table")
    if not spec:
        return default_table()
    if not ctx.options.get("files", True):
        raise GameError("a win table file is not read here: the server analyses with its shipped table")
    return WinTable.read(str(spec))


def _inference_settings(ctx: Context, params: Mapping[str, Any]) -> dict[str, Any]:
    """``infer`` (each simulation deals the opponent's racks from their move before the turn) and its margin."""
    infer = params.get("infer") or False
    if not isinstance(infer, bool):
        raise GameError(f"{ctx.spell('infer')} is true or false, not {quote(infer)}")
    margin = params.get("infer_margin")
    if margin is None:
        return {"infer": infer}
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 <= margin <= MAX_MARGIN:
        raise GameError(f"{ctx.spell('infer_margin')} must be from 0 to {MAX_MARGIN:g} points, not {quote(margin)}")
    return {"infer": infer, "infer_margin": float(margin)}


def _settings(ctx: Context, params: Mapping[str, Any]) -> dict[str, Any]:
    top = need_int(ctx, params, "top", minimum=0, maximum=MAX_COUNT)
    return {"top": 3 if top is None else top, "budget": _budget(ctx, params),
            "iterations": need_int(ctx, params, "iterations", minimum=1, maximum=MAX_ITERATIONS),
            "candidates": need_int(ctx, params, "candidates", minimum=1, maximum=100) or 5,
            "plies": 2 if (p := need_int(ctx, params, "plies", minimum=0, maximum=MAX_PLIES)) is None else p,
            "seed": need_int(ctx, params, "seed", minimum=0, maximum=MAX_SEED) or 0, **_inference_settings(ctx, params)}


def _one_game(lex: Any, game: Game, text: str, leaves: LeaveTable | None, table: WinTable,
              settings: Mapping[str, Any], deadline: float | None) -> dict[str, Any]:
    record = read_gcg(text, game)
    turns = analyze_game(lex, record, leaves=leaves, win_table=table, deadline=deadline, **settings)
    plays = sum(1 for e in record.events if e.kind in ("play", "exchange", "pass"))
    warnings = [f"turn {r['turn']} ({r['player']}, {r['play']}): the record says {r['recorded_score']} points, "
                f"the board gives {r['score']}" for r in turns if r.get("score_differs")]
    doc: dict[str, Any] = {"players": record.players, "game_lexicon": record.lexicon, "results": turns,
                           "count": len(turns), "summary": summary(turns, record.players)}
    if len(turns) < plays:
        doc["truncated"] = True
        warnings.append(f"stopped at the time limit after {len(turns)} of {plays} turns")
    if warnings:
        doc["warnings"] = warnings
    return doc


def _folder_game(ref: LexiconRef, game: Game, path: str, leaves: LeaveTable | None, table: WinTable,
                 settings: Mapping[str, Any]) -> dict[str, Any]:
    """One game of a folder, in a worker (or here): its document, or its error as one line."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            text = f.read(MAX_INPUT + 1)
        if len(text) > MAX_INPUT:
            raise GameError(f"the game record is longer than {MAX_INPUT} characters")
        return {"file": os.path.basename(path), **_one_game(opened_lexicon(ref), game, text, leaves, table,
                                                            settings, None)}
    except (GameError, OSError, UnicodeDecodeError) as e:
        return {"file": os.path.basename(path), "error": str(e), "players": [], "results": [], "count": 0,
                "summary": []}


def _folder(ctx: Context, params: Mapping[str, Any], folder: str) -> Document:
    paths = sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.lower().endswith(".gcg"))
    if not paths:
        raise GameError(f"the folder {quote(folder)} holds no .gcg file")
    if len(paths) > MAX_GAMES:
        raise GameError(f"the folder {quote(folder)} holds more than {MAX_GAMES:,} games")
    lex, game, named = lexicon_and_game(ctx, params)
    leaves = leaves_param(ctx, params, game, lex)
    table = _win_table(ctx, params)
    settings = _settings(ctx, params)
    workers = pool_size(need_int(ctx, params, "workers", minimum=1, maximum=MAX_WORKERS), len(paths))
    ref = LexiconRef.of(lex)
    if workers <= 1:
        games = [_folder_game(ref, game, p, leaves, table, settings) for p in paths]
    else:
        import multiprocessing  # deferred: one game needs no pool
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            games = list(pool.map(_folder_game, [ref] * len(paths), [game] * len(paths), paths,
                                  [leaves] * len(paths), [table] * len(paths), [settings] * len(paths)))
    results = [{"game": g["file"], **turn} for g in games for turn in g["results"]]
    players = sorted({p for g in games for p in g["players"]})
    doc: Document = {"command": "analyze", "lexicon": lexicon_name(lex), "game": game.name, "players": players,
                     "games": games, "results": results, "count": len(results), "win_table": table.name,
                     "workers": workers}
    warnings = named + [f"{g['file']}: {g['error']}" for g in games if "error" in g]
    if warnings:
        doc["warnings"] = warnings
    return doc


def _run_analyze(ctx: Context, params: Mapping[str, Any]) -> Document:
    spec = params.get("gcg")
    if not spec:
        raise GameError("give a GCG file")
    spec = str(spec)
    if ctx.options.get("files", True) and os.path.isdir(spec):
        return _folder(ctx, params, spec)
    text = _gcg_text(ctx, spec)
    lex: Lexicon
    lex, game, named = lexicon_and_game(ctx, params, (("the GCG", gcg_lexicon(text)),))
    leaves = leaves_param(ctx, params, game, lex)
    sort = _sort(params) or "equity"
    table = _win_table(ctx, params)
    one = _one_game(lex, game, text, leaves, table, {**_settings(ctx, params), "sort": sort}, ctx.deadline)
    doc: Document = {"command": "analyze", "lexicon": lexicon_name(lex), "game": game.name, "sort": sort,
                     "win_table": table.name, **one}
    if named:
        doc["warnings"] = named + list(doc.get("warnings", []))
    return doc


def _turn_line(r: Mapping[str, Any]) -> str:
    made = f"{r['play']} {r['score'] if r['legal'] else 'phony'}"
    if r.get("score_differs"):
        made += f" (recorded {r['recorded_score']})"
    if r.get("challenged"):
        made += " (challenged off)"
    if r.get("win_lost") is None:
        verdict = "not judged (no rack)"
    else:
        verdict = (f"win {100 * r['win_before']:5.1f}% -> {100 * r['win_after']:5.1f}%  lost {100 * r['win_lost']:4.1f}"
                   f"  {r['mistake']:<10}")
        if r.get("best_move") and r["win_lost"] > 0:
            verdict += f" best: {r['best_move']} ({100 * r['best_win']:.1f}%)"
    return f"{r['turn']:3d} {r['player']}: {r['rack'] or '-':<8} {made:<24} {verdict}"


def _summary_lines(rows: list[Mapping[str, Any]]) -> Iterator[str]:
    for s in rows:
        m = s["mistakes"]
        yield (f"  {s['player']}: {s['judged']} turns judged, lost {100 * s['lost']:.1f}% in all "
               f"({100 * s['lost_per_turn']:.2f}% a turn); inaccuracies {m['inaccuracy']}, mistakes {m['mistake']},"
               f" blunders {m['blunder']}, phonies {s['phonies']}")


def _text_analyze(doc: Document) -> Iterator[str]:
    games = doc.get("games") or [doc]
    for g in games:
        if "file" in g:
            yield f"{g['file']}: {g['error']}" if "error" in g else f"{g['file']}:"
        for r in g["results"]:
            yield _turn_line(r)
        yield from _summary_lines(g.get("summary", []))


ANALYZE = Command(
    name="analyze",
    summary="each turn of a GCG game (or a folder of them): the play made, the best by equity and by simulation, "
            "the win chance before and after, the win chance lost and a mistake class; per player a summary",
    params=(
        Param("gcg", "a GCG game file, a folder of them, or a game's text ('sample': a short game that ships with "
              "lexigraph)", positional=True, required=True),
        Param("top", "how many best plays by equity to list per turn", kind="int", default=3, minimum=0,
              maximum=MAX_COUNT),
        Param("budget", "seconds of simulation per turn (default: none, moves valued statically by the win table)",
              metavar="SECONDS"),
        Param("iterations", f"play-outs per candidate per turn, at most {MAX_ITERATIONS:,} (a budget that gives the "
              "same answer on any machine)", kind="int", metavar="N", minimum=1, maximum=MAX_COUNT),
        Param("candidates", "the best moves by equity simulated with the move made (default 5)", kind="int",
              metavar="N", minimum=1, maximum=100),
        Param("plies", "turns each play-out plays after the candidate (default 2)", kind="int", metavar="N",
              minimum=0, maximum=MAX_PLIES),
        Param("seed", "the simulations' seed (turn k simulates with seed + k)", kind="int", default=0, metavar="N",
              minimum=0, maximum=MAX_SEED),
        Param("win_table", "a win-percentage table (lexigraph's .lxwin or MAGPIE's winpct.csv; default: the shipped "
              "one)", metavar="FILE", completer="file"),
        Param("workers", f"processes for a folder's games (default: every core; at most {MAX_WORKERS})",
              kind="int", metavar="N", minimum=1, maximum=MAX_WORKERS),
        Param("game", "game preset (scrabble, super, spanish, catalan, french) or game file", default="scrabble"),
        Param("leaves", "the leave table moves are valued with (default: the game's)", metavar="TABLE"),
        Param("sort", "rank the best plays listed by equity (default) or by score; win chances follow equity",
              choices=("equity", "score")),
        Param("infer", "with --budget or --iterations: each turn's simulation deals the opponent's racks from what "
              "their move before it suggests they kept (lexigraph infer)", kind="bool", default=False),
        Param("infer_margin", f"with --infer: equity points a move may fall short of the rack's best (default "
              f"{DEFAULT_MARGIN:g})", kind="float", metavar="POINTS", minimum=0, maximum=MAX_MARGIN),
    ),
    run=_run_analyze,
    text=_text_analyze,
    examples=("lexigraph analyze game.gcg", "lexigraph analyze game.gcg --budget 2 --json",
              "lexigraph analyze games/ --iterations 200 --workers 2",
              "lexigraph analyze sample --iterations 32 --infer --json"),
    http_method="POST",
)

COMMANDS = [ANALYZE]
