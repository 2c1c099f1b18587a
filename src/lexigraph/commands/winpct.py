"""``winpct build``: a win-percentage table learned from self-play (:mod:`lexigraph.scrabble.winpct`), on a local
process pool (``--workers``) or a Dask cluster (``--cluster``), written atomically in lexigraph's binary format
or, for a name ending in ``.csv``, MAGPIE's ``winpct.csv``. The server does not offer it (it runs long and
writes a file).

>>> import os, tempfile
>>> from lexigraph.commands import Context
>>> out = os.path.join(tempfile.mkdtemp(), "t.csv")
>>> doc = WINPCT.run(Context(), {"action": "build", "output": out, "games": 4, "seed": 1, "workers": 1})
>>> doc["rows"], doc["format"], open(out).read().count("\\n")
(93, 'csv', 93)
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import QueryError
from ..scrabble.leaves import load_leaves
from ..scrabble.wingen import MAX_GAMES, build_win_table
from ..support.files import refuse_overwrite, write_atomic
from ._boards import lexicon_and_game
from ._common import envelope, games_progress, input_files, need_int
from .command import MAX_COUNT, MAX_SEED, MAX_WORKERS, Command, Context, Document, Param, always_found


def _run_winpct(ctx: Context, params: Mapping[str, Any]) -> Document:
    if params.get("action") != "build":
        raise QueryError(f"{ctx.spell('action')} must be build")
    output = params.get("output")
    if not output or output == "-":
        raise QueryError(f"{ctx.spell('output')} must name a file")
    lex, game, named = lexicon_and_game(ctx, params)
    games = need_int(ctx, params, "games", minimum=2, maximum=MAX_GAMES) or 20_000
    seed = need_int(ctx, params, "seed", minimum=0, maximum=MAX_SEED) or 0
    workers = need_int(ctx, params, "workers", minimum=1, maximum=MAX_WORKERS)
    leaves_spec = params.get("leaves") or game.leaves
    inputs = input_files(ctx, lex, params.get("game"), leaves_spec)
    refuse_overwrite(str(output), inputs)  # before the games, not after them
    leaves = load_leaves(leaves_spec, lex.alphabet) if leaves_spec else None
    name = os.path.splitext(os.path.basename(str(output)))[0]
    built = build_win_table(lex, game, leaves=leaves, games=games, seed=seed, workers=workers,
                            cluster=params.get("cluster") or None, name=name,
                            progress=games_progress(ctx, "winpct build", games))
    as_csv = str(output).lower().endswith(".csv")
    data = built.table.to_csv().encode("ascii") if as_csv else built.table.to_bytes()
    write_atomic(str(output), data, inputs=inputs)
    return envelope("winpct", lex, [], game=game.name, seed=seed, games=games, positions=built.positions,
                    rows=built.table.rows, max_spread=built.table.max_spread, output=str(output),
                    format="csv" if as_csv else "lexigraph", bytes=len(data), seconds=round(built.seconds, 2),
                    **({"warnings": named} if named else {}))


def _text_winpct(doc: Document) -> Iterator[str]:
    yield (f"{doc['games']:,} games ({doc['game']}, seed {doc['seed']}), {doc['positions']:,} positions, "
           f"{doc['seconds']:.1f} s")
    yield (f"{doc['rows']} rows of spreads -{doc['max_spread']}..{doc['max_spread']}, {doc['bytes']:,} bytes "
           f"({doc['format']}) -> {doc['output']}")


WINPCT = Command(
    name="winpct",
    summary="Learn a win-percentage table (P(win | spread, tiles unseen)) from self-play (winpct build) and write "
            "it in lexigraph's format, or as MAGPIE's winpct.csv for a name ending in .csv.",
    params=(
        Param("action", "what to do", positional=True, required=True, choices=("build",), metavar="build"),
        Param("output", "the file to write (.csv: MAGPIE's winpct.csv; else lexigraph's binary table)",
              required=True, flags=("-o", "--output"), metavar="FILE", completer="file"),
        Param("games", "self-play games to learn from (default 20,000)", kind="int", flags=("-n", "--games"),
              metavar="N", minimum=2, maximum=MAX_COUNT),
        Param("leaves", "the leave table both equity players play by (default: the game's)", metavar="FILE",
              completer="file"),
        Param("game", "scrabble, super, spanish, catalan, french, or a game file (TOML)", metavar="GAME",
              completer="game"),
        Param("seed", "the run's seed: the same seed gives the same games", kind="int", default=0, metavar="N",
              minimum=0, maximum=MAX_SEED),
        Param("workers", f"processes of the local pool (default: every core; at most {MAX_WORKERS})", kind="int",
              metavar="N", minimum=1, maximum=MAX_WORKERS),
        Param("cluster", "a Dask scheduler's address (tcp://HOST:PORT) to run on instead of the local pool",
              metavar="ADDRESS"),
    ),
    run=_run_winpct,
    text=_text_winpct,
    found=always_found,
    writes_files=True,
    http_method="POST",
    examples=("lexigraph winpct build -o mine.lxwin -n 40000 --seed 35",
              "lexigraph winpct build -o winpct.csv -n 100000 --cluster tcp://scheduler:8786"),
)

COMMANDS = [WINPCT]
