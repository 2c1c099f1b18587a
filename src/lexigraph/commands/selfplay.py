"""Self-play commands: ``autoplay`` (two players play whole games; totals, GCG) and ``leaves build`` (a leave
table learned from self-play). Both run on a local process pool (``--workers``, default every core) or on a Dask
cluster (``--cluster tcp://HOST:PORT``), and give the same games for a seed whatever runs them. The server
offers neither (they run long and ``leaves build`` writes a file).

A player is ``score`` (its highest-scoring play), ``equity`` (its best play
by equity with the game's default leave table), ``equity:none`` (equity with
no leave values), a leave table's file (KLV2, KLV or CSV: equity with it) or
``sim`` (``sim:CANDIDATES:ITERATIONS``: it simulates its best moves by equity,
:mod:`lexigraph.scrabble.simulation`, and plays the winner).

>>> from lexigraph.commands import Context
>>> doc = AUTOPLAY.run(Context(), {"games": 2, "seed": 3, "workers": 1, "player_a": "equity:none"})
>>> doc["totals"]["games"], [p["kind"] for p in doc["players"]]
(2, ['equity', 'score'])
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

from ..engine.interface import MAX_THREADS
from ..errors import QueryError
from ..lexicon import Lexicon
from ..scrabble.game import Game
from ..scrabble.leavegen import BuildResult, build_leaves
from ..scrabble.leaves import load_leaves
from ..scrabble.selfplay import Player, autoplay, check_gcg_folder
from ..support.files import refuse_overwrite, write_atomic
from ._boards import lexicon_and_game
from ._common import envelope, games_progress, input_files, need_int
from .command import (
    MAX_COUNT, MAX_INT64, MAX_SEED, MAX_TILES, MAX_WORKERS, Command, Context, Document, Param, always_found,
)

_PLAYER = ("a player: score, equity (the game's leave table), equity:none, a leave table file (KLV2, KLV, CSV) "
           "played by equity, or sim (sim:CANDIDATES:ITERATIONS, default sim:5:64: simulates its best moves by "
           "equity with the game's leave table)")


def _player(ctx: Context, spec: object, game: Game, lex: Lexicon, default_name: str) -> Player:
    text = str(spec or "").strip()
    if text == "sim" or text.startswith("sim:"):
        return _simulation_player(ctx, text, game, lex, default_name)
    if text == "score":
        return Player.score(f"{default_name}-score")
    if text == "equity:none":
        return Player.equity(None, f"{default_name}-equity")
    if text == "equity":
        if not game.leaves:
            raise QueryError(f"the {game.name} game names no leave table: give a player a leave table file")
        return Player.equity(load_leaves(game.leaves, lex.alphabet), f"{default_name}-equity")
    if not ctx.options.get("files", True) or not os.path.exists(text):
        raise QueryError(f"{ctx.spell('player')} {text!r} is not score, equity, equity:none or a leave table file")
    name = os.path.splitext(os.path.basename(text))[0]
    return Player.equity(load_leaves(text, lex.alphabet), f"{default_name}-{name}")


def _simulation_player(ctx: Context, text: str, game: Game, lex: Lexicon, default_name: str) -> Player:
    parts = text.split(":")[1:]
    objective = "win"
    if parts and parts[-1] in ("win", "simmer"):  # sim:5:64:simmer, today's objective before the win table
        objective = parts.pop()
    try:
        numbers = [int(x) for x in parts]
    except ValueError:
        numbers = []
    if len(parts) > 2 or len(numbers) != len(parts):
        raise QueryError(f"{ctx.spell('player')} {text!r}: a simulation player is sim or "
                         "sim:CANDIDATES:ITERATIONS[:win|simmer]")
    if not game.leaves:
        raise QueryError(f"the {game.name} game names no leave table for a simulation player")
    candidates, iterations = (numbers + [5, 64][len(numbers):])[:2]
    return Player.simulation(load_leaves(game.leaves, lex.alphabet), candidates=candidates, iterations=iterations,
                             name=f"{default_name}-sim", objective=objective)


def _kind(player: Player) -> str:
    return "simulation" if player.simulating is not None else "equity" if player.by_equity else "score"


def _workers(ctx: Context, params: Mapping[str, Any]) -> int | None:
    return need_int(ctx, params, "workers", minimum=1, maximum=MAX_WORKERS)


def _run_autoplay(ctx: Context, params: Mapping[str, Any]) -> Document:
    lex, game, named = lexicon_and_game(ctx, params)
    games = need_int(ctx, params, "games", minimum=1, maximum=100_000_000)
    seed = need_int(ctx, params, "seed", minimum=0, maximum=2 ** 64 - 1)
    first = need_int(ctx, params, "first", minimum=0)
    players = [_player(ctx, params.get("player_a") or "equity", game, lex, "a"),
               _player(ctx, params.get("player_b") or "score", game, lex, "b")]
    folder = params.get("gcg")
    if folder:
        check_gcg_folder(str(folder))  # before the games, not after them
    games = 100 if games is None else games
    run = autoplay(lex, game, players, games=games, seed=seed or 0, first=first or 0,
                   workers=_workers(ctx, params), cluster=params.get("cluster") or None, keep_games=bool(folder),
                   progress=games_progress(ctx, "autoplay", games),
                   threads=need_int(ctx, params, "threads", minimum=1, maximum=MAX_THREADS) or 1)
    inputs = input_files(ctx, lex, params.get("game"), game.leaves, params.get("player_a"), params.get("player_b"))
    written = run.write_gcg(str(folder), inputs=inputs) if folder else []
    t = run.totals.as_dict()
    for key in ("win_rate", "standard_error", "mean_spread", "bingos_per_game", "turns_per_game", "seconds",
                "games_per_second"):
        t[key] = round(cast(float, t[key]), 4)  # Totals.as_dict: these are floats
    return envelope("autoplay", lex, [], game=game.name, seed=seed or 0, first=first or 0,
                    players=[{"name": p.name, "kind": _kind(p),
                              "leaves": (p.leaves.name or None) if p.leaves is not None else None}
                             for p in players],
                    totals=t, gcg=str(folder) if folder else None, gcg_files=len(written),
                    **({"warnings": named} if named else {}))


def _text_autoplay(doc: Document) -> Iterator[str]:
    t = doc["totals"]
    a, b = doc["players"]
    yield (f"{t['games']:,} games ({doc['game']}, seed {doc['seed']}): {a['name']} against {b['name']}")
    yield (f"{a['name']} wins {t['wins']:,}, loses {t['losses']:,}, draws {t['draws']:,}: "
           f"{100 * t['win_rate']:.2f}% ± {100 * t['standard_error']:.2f}%")
    yield (f"mean spread {t['mean_spread']:+.2f}, bingos per game {t['bingos_per_game']:.3f}, "
           f"turns per game {t['turns_per_game']:.2f}")
    yield (f"{t['games_per_second']:,.1f} games per second on {t['workers']} worker(s) of {t['threads']} "
           f"thread(s), {t['seconds']:.2f} s")
    if doc.get("gcg"):
        yield f"{doc['gcg_files']:,} GCG files in {doc['gcg']}"


def _run_leaves(ctx: Context, params: Mapping[str, Any]) -> Document:
    if params.get("action") != "build":
        raise QueryError(f"{ctx.spell('action')} must be build")
    output = params.get("output")
    if not output or output == "-":
        raise QueryError(f"{ctx.spell('output')} must name a file: a KLV2 table is binary")
    text = str(params.get("generations") or "")
    try:
        generations = [int(g.replace("_", "")) for g in text.split(",") if g.strip()]
    except ValueError:
        raise QueryError(f"{ctx.spell('generations')} is a list of game counts such as 40000,80000, "
                         f"not {text!r}") from None
    if not generations or len(generations) > 100:
        raise QueryError(f"{ctx.spell('generations')} names 1 to 100 generations, each its games (40000,80000)")
    lex, game, named = lexicon_and_game(ctx, params)
    seed = need_int(ctx, params, "seed", minimum=0, maximum=2 ** 64 - 100)
    max_length = need_int(ctx, params, "max_length", minimum=1, maximum=game.rack_size - 1)
    keep_length = need_int(ctx, params, "keep_length", minimum=1, maximum=game.rack_size - 1)
    start_spec = params.get("start")
    inputs = input_files(ctx, lex, params.get("game"), game.leaves, start_spec)
    refuse_overwrite(output, inputs)  # before the games, not after them
    start = load_leaves(str(start_spec), lex.alphabet) if start_spec else None
    smoothing = params.get("smoothing")
    try:
        smoothing_value = 50.0 if smoothing is None else float(smoothing)
    except ValueError:
        raise QueryError(f"{ctx.spell('smoothing')} is a number, not {smoothing!r}") from None
    report = ctx.progress

    def progress(k: int, games: int, of: int) -> Callable[[int], None] | None:
        return games_progress(ctx, f"generation {k + 1} of {of}", games)

    def finished(k: int, so_far: BuildResult) -> None:
        # The generation's line now, on the command line, not when the whole run ends.
        if report is not None:
            games = so_far.games[k]
            report(f"generation {k + 1} of {len(generations)}", games, games, unit="games",
                   note=_generation_line(_generation(k, so_far)))

    result = build_leaves(lex, game, generations=generations, seed=seed or 0, workers=_workers(ctx, params),
                          cluster=params.get("cluster") or None, max_length=max_length, smoothing=smoothing_value,
                          start=start, progress=progress, name=os.path.splitext(os.path.basename(str(output)))[0],
                          keep_length=keep_length, finished=finished)
    data = result.table.to_klv2()
    write_atomic(output, data, inputs=inputs)
    return envelope("leaves", lex, [_generation(k, result) for k in range(len(result.games))],
                    game=game.name, seed=seed or 0, output=str(output), leaves=len(result.table), bytes=len(data),
                    **({"warnings": named} if named else {}))


def _generation(k: int, result: BuildResult) -> dict[str, Any]:
    """Generation ``k``'s result in the document."""
    return {"generation": k + 1, "games": result.games[k], "samples": result.samples[k],
            "seconds": round(result.seconds[k], 2)}


def _generation_line(r: Mapping[str, Any]) -> str:
    return f"generation {r['generation']}: {r['games']:,} games, {r['samples']:,} samples, {r['seconds']:.1f} s"


def _text_leaves(doc: Document) -> Iterator[str]:
    for r in doc["results"]:
        yield _generation_line(r)
    yield f"{doc['leaves']:,} leaves, {doc['bytes']:,} bytes -> {doc['output']}"


_COMMON = (
    Param("game", "scrabble, super, spanish, catalan, french, or a game file (TOML)", metavar="GAME", completer="game"),
    Param("seed", "the run's seed: the same seed gives the same games", kind="int", default=0, metavar="N",
          minimum=0, maximum=MAX_SEED),
    Param("workers", f"processes of the local pool (default: every core; at most {MAX_WORKERS}, and no more than "
          "the batches of games)", kind="int", metavar="N", minimum=1, maximum=MAX_WORKERS),
    Param("cluster", "a Dask scheduler's address (tcp://HOST:PORT) to run on instead of the local pool; "
          "pip install 'lexigraph[cluster]'", metavar="ADDRESS"),
)

AUTOPLAY = Command(
    name="autoplay",
    summary="Self-play: two players (by score, by equity with a leave table) play whole games in mirrored pairs; "
            "wins with their standard error, spread, bingos, speed; GCG on request.",
    params=(
        Param("games", "games to play (an even number plays whole mirrored pairs)", kind="int", default=100,
              flags=("-n", "--games"), metavar="N", minimum=1, maximum=MAX_COUNT),
        Param("player_a", "player A: " + _PLAYER + " (default: equity)", metavar="PLAYER"),
        Param("player_b", "player B: " + _PLAYER + " (default: score)", metavar="PLAYER"),
        *_COMMON,
        Param("first", "the first game's number (a slice of a longer run)", kind="int", default=0, metavar="N",
              minimum=0, maximum=MAX_INT64),
        Param("threads", f"C threads each worker plays its games on (default 1; at most {MAX_THREADS}): the same "
              "games on any number", kind="int", default=1, metavar="N", minimum=1, maximum=MAX_THREADS),
        Param("gcg", "write each game as GCG (game-NNNNNN.gcg) into this folder, made if need be; checked "
              "before the games are played (a file or /dev/null is refused)", metavar="FOLDER", completer="file"),
    ),
    run=_run_autoplay,
    text=_text_autoplay,
    found=always_found,
    writes_files=True,
    http_method="POST",
    examples=("lexigraph autoplay -n 10000 --workers 1 --threads 2",
              "lexigraph autoplay -n 10000 --player-a mine.klv2 --player-b equity --seed 7",
              "lexigraph autoplay -n 20 --gcg games/ --workers 1",
              "lexigraph autoplay -n 1000000 --cluster tcp://scheduler:8786"),
)

LEAVES = Command(
    name="leaves",
    summary="Learn a leave table from self-play (leaves build), generation by generation, and write it as KLV2.",
    params=(
        Param("action", "what to do", positional=True, required=True, choices=("build",), metavar="build"),
        Param("output", "the KLV2 file to write", required=True, flags=("-o", "--output"), metavar="FILE",
              completer="file"),
        Param("generations", "games of each generation, comma-separated (each plays with the table the one "
              "before learned)", default="40000,80000,120000,200000,300000", metavar="N,N,..."),
        *_COMMON,
        Param("max_length", "longest leave valued, in tiles (default: the rack size less one)", kind="int",
              metavar="N", minimum=1, maximum=MAX_TILES),
        Param("keep_length", "longest leave written, in tiles (default: every leave valued); a smaller file loads "
              "faster, and a leave it lacks is worth 0", kind="int", metavar="N", minimum=1, maximum=MAX_TILES),
        Param("smoothing", "samples a leave's own mean weighs as much as its prior at (default 50)",
              metavar="K"),
        Param("start", "a leave table the first generation plays with (default: none)", metavar="FILE",
              completer="file"),
    ),
    run=_run_leaves,
    text=_text_leaves,
    found=always_found,
    writes_files=True,
    http_method="POST",
    examples=("lexigraph leaves build -o mine.klv2 --generations 2000,4000 --seed 1",
              "lexigraph leaves build -o english.klv2 --seed 2026",
              "lexigraph leaves build -o fr.klv2 --lexicon ods.lex --game french.toml --cluster tcp://host:8786"),
)

COMMANDS = [AUTOPLAY, LEAVES]
