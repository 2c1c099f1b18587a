"""``playability``: how often lexigraph's own self-play plays each word (docs/study.md, *Playability*).

``playability build`` plays a self-play run (two equity players with the game's leave table, on the local
pool or a Dask cluster) and writes the table of plays per word, atomically (by default into the user's data
folder, where ``why`` finds it); ``playability top`` lists the lexicon's most played words; ``playability
compare A B`` gives the Spearman rank correlation of two tables.

>>> import os, tempfile
>>> from lexigraph.commands import Context
>>> path = os.path.join(tempfile.mkdtemp(), "mine.tsv")
>>> _ = write_table(path, PlayabilityTable("ENABLE", 172820, 10, 1, "", {"qat": 9, "xi": 4, "ox": 4}))
>>> [(r["rank"], r["word"]) for r in PLAYABILITY.run(Context(), {"action": "top", "file": path})["results"]]
[(1, 'qat'), (2, 'ox'), (2, 'xi')]
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

from ..compiler.registry import name_of
from ..errors import QueryError
from ..scrabble.leaves import load_leaves
from ..scrabble.playability import count_plays
from ..scrabble.selfplay import Player
from ..study.playability import PlayabilityTable, read_table, spearman, table_for, user_table_path, write_table
from ..support.files import refuse_overwrite
from ._boards import lexicon_and_game
from ._common import games_progress, input_files, need_int
from .command import MAX_SEED, MAX_WORKERS, Command, Context, Document, Param, always_found


def _build(ctx: Context, p: Mapping[str, Any]) -> Document:
    lex, game, named = lexicon_and_game(ctx, p)
    if not game.leaves:
        raise QueryError(f"the {game.name} game names no leave table for its equity players")
    games = need_int(ctx, p, "games", minimum=1, maximum=100_000_000) or 10_000
    seed = need_int(ctx, p, "seed", minimum=0, maximum=MAX_SEED) or 0
    workers = need_int(ctx, p, "workers", minimum=1, maximum=MAX_WORKERS)
    lexicon = name_of(lex)
    output = str(p.get("output") or user_table_path(lexicon))
    refuse_overwrite(output, input_files(ctx, lex, p.get("game"), game.leaves))
    leaves = load_leaves(game.leaves, lex.alphabet)
    players = [Player.equity(leaves, "a-equity"), Player.equity(leaves, "b-equity")]
    counts = count_plays(lex, game, players, games=games, seed=seed, workers=workers,
                         cluster=p.get("cluster") or None, progress=games_progress(ctx, "playability", games))
    table = PlayabilityTable(lexicon, len(lex), games, seed, "equity equity", dict(counts))
    size = write_table(output, table)
    top = [{"rank": table.rank(w), "word": w, "plays": n} for w, n in table.ranked()[: int(p.get("limit") or 20)]]
    doc: Document = {"command": "playability", "action": "build", "lexicon": lexicon, "output": output,
                     "bytes": size, "games": games, "seed": seed, "words_played": len(table.plays),
                     "plays": sum(table.plays.values()), "results": top, "count": len(top)}
    if named:
        doc["warnings"] = named
    return doc


def _top(ctx: Context, p: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    lexicon = name_of(lex)
    table = read_table(str(p["file"])) if p.get("file") else table_for(lexicon, len(lex))
    if table is None:
        raise QueryError(f"{lexicon} has no playability table: lexigraph playability build makes one")
    limit = int(p.get("limit") or 20)
    top = [{"rank": table.rank(w), "word": w, "plays": n} for w, n in table.ranked()[:limit]]
    return {"command": "playability", "action": "top", "lexicon": table.lexicon, "games": table.games,
            "seed": table.seed, "words_played": len(table.plays), "plays": sum(table.plays.values()),
            "results": top, "count": len(top)}


def _compare(ctx: Context, p: Mapping[str, Any]) -> Document:
    if not p.get("file") or not p.get("other"):
        raise QueryError("playability compare: give two table files, A and B")
    a, b = read_table(str(p["file"])), read_table(str(p["other"]))
    thresholds = []
    for least in (1, 10, 100):
        # The words either run played at least `least` times: the rare words' ranks are mostly the draw's luck.
        words = {w for w, n in a.plays.items() if n >= least} | {w for w, n in b.plays.items() if n >= least}
        if len(words) >= 2:
            rho = spearman({w: a.plays.get(w, 0) for w in words}, {w: b.plays.get(w, 0) for w in words})
            thresholds.append({"min_plays": least, "words": len(words), "spearman": round(rho, 6)})
    if not thresholds:
        raise QueryError("playability compare: the two tables hold fewer than two words played")
    return {"command": "playability", "action": "compare", "lexicon": a.lexicon,
            "spearman": thresholds[0]["spearman"], "thresholds": thresholds,
            "results": [{"file": str(p["file"]), "games": a.games, "seed": a.seed, "words_played": len(a.plays)},
                        {"file": str(p["other"]), "games": b.games, "seed": b.seed, "words_played": len(b.plays)}],
            "count": 2}


_ACTIONS = {"build": _build, "top": _top, "compare": _compare}


def _run(ctx: Context, p: Mapping[str, Any]) -> Document:
    action = p.get("action")
    if action not in _ACTIONS:
        raise QueryError(f"{ctx.spell('action')} must be build, top or compare")
    if action == "build" and (p.get("file") or p.get("other")):
        raise QueryError("playability build takes no table file (-o names the one it writes)")
    return _ACTIONS[action](ctx, p)


def _text(doc: Document) -> Iterator[str]:
    if doc["action"] == "compare":
        for t in doc["thresholds"]:
            yield f"Spearman rank correlation {t['spearman']:.4f} over the {t['words']:,} words played at least " \
                  f"{t['min_plays']} times in either run"
        return
    if doc["action"] == "build":
        yield f"wrote {doc['output']}: {doc['words_played']:,} words played {doc['plays']:,} times in " \
              f"{doc['games']:,} games (seed {doc['seed']})"
    for r in doc["results"]:
        yield f"{r['rank']:>6}  {r['word']}\t{r['plays']:,}"


PLAYABILITY = Command(
    name="playability",
    summary="how often lexigraph's self-play plays each word: build a table, list the top, compare two runs",
    params=(
        Param("action", "build, top, or compare A B", positional=True, required=True, choices=tuple(_ACTIONS),
              metavar="build|top|compare"),
        Param("file", "top: a table file (default: the lexicon's); compare: the first table", positional=True,
              metavar="FILE", completer="file"),
        Param("other", "compare: the second table", positional=True, metavar="FILE", completer="file"),
        Param("output", "build: the table to write (default: the user's data folder, where why finds it; a name "
              "ending in .gz is compressed)", flags=("-o", "--output"), metavar="FILE", completer="file"),
        Param("games", "build: self-play games (default 10000)", kind="int", metavar="N", minimum=1,
              maximum=100_000_000),
        Param("seed", "build: the run's seed (default 0)", kind="int", minimum=0, maximum=MAX_SEED),
        Param("game", "build: the game (a preset or a game file; default scrabble)", metavar="GAME"),
        Param("workers", f"build: processes of the local pool (default: every core; at most {MAX_WORKERS})",
              kind="int", metavar="N", minimum=1, maximum=MAX_WORKERS),
        Param("cluster", "build: a Dask scheduler's address (tcp://HOST:PORT) instead of the local pool"),
        Param("limit", "the most played words to list (default 20)", kind="int", minimum=0, maximum=1_000_000),
    ),
    run=_run,
    text=_text,
    writes_files=True,
    found=always_found,
    examples=("lexigraph playability top --limit 10", "lexigraph playability build --games 20000 --seed 1",
              "lexigraph playability compare run1.tsv.gz run2.tsv.gz"),
)

COMMANDS = [PLAYABILITY]
