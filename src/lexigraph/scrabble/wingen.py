"""Win-percentage tables learned from self-play (``lexigraph winpct build``): the equity player against itself,
on this process, a local pool or a Dask cluster, each batch's snapshots counted in its worker
(:func:`lexigraph.scrabble.winpct.win_counts`), the counts added and smoothed
(:meth:`lexigraph.scrabble.winpct.WinTable.from_counts`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from ..support.workers import MAX_WORKERS
from .game import Game, GameError
from .players import Player, run_spec
from .runs import BATCH_GAMES, batches
from .winpct import MAX_SPREAD, WinTable, position_samples, win_counts
from .workers import LexiconRef, run_batches

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Engines
    from .leaves import LeaveTable

__all__ = ["MAX_GAMES", "WinBuild", "build_win_table", "self_play_positions", "table_rows"]

#: Most games one build plays.
MAX_GAMES = 100_000_000


@dataclass
class WinCounts:
    """A batch's counts (they add)."""

    positions: "np.ndarray"
    wins: "np.ndarray"

    @classmethod
    def merged(cls, parts: Iterable["WinCounts"]) -> "WinCounts":
        items = list(parts)
        return cls(sum((p.positions for p in items), np.zeros_like(items[0].positions)),
                   sum((p.wins for p in items), np.zeros_like(items[0].wins)))


def _batch_counts(rows: int, max_spread: int, rack_size: int, turns: "np.ndarray", games: "np.ndarray") \
        -> WinCounts:
    s, u, f = position_samples(turns, games, rack_size)
    return WinCounts(*win_counts(s, u, f, rows, max_spread))


def _batch_samples(rack_size: int, turns: "np.ndarray", games: "np.ndarray") \
        -> "tuple[np.ndarray, np.ndarray, np.ndarray]":
    return position_samples(turns, games, rack_size)


@dataclass
class WinBuild:
    """A table learned, with its games, positions and seconds."""

    table: WinTable
    games: int
    positions: int
    seconds: float
    notes: list[str] = field(default_factory=list)


def table_rows(game: Game) -> int:
    """The most tiles a player can fail to see: every tile but its own rack."""
    return max(1, sum(game.counts_by_code()) - game.rack_size)


def build_win_table(lex: "Engines", game: Game, *, leaves: "LeaveTable | None", games: int, seed: int = 0,
                    workers: int | None = None, cluster: str | None = None, max_spread: int = MAX_SPREAD,
                    batch: int = BATCH_GAMES * 5, name: str = "",
                    progress: Callable[[int], None] | None = None) -> WinBuild:
    """Learn a table from ``games`` self-play games of the equity player with ``leaves`` against itself (the
    run ``seed``), on this process, a local pool (``workers``) or a Dask cluster; ``progress(games)`` per
    batch.

    >>> import lexigraph
    >>> built = build_win_table(lexigraph.open(), Game.preset("scrabble"), leaves=None, games=4, seed=1, workers=1)
    >>> built.table.rows, built.positions > 40
    (93, True)
    """
    if isinstance(games, bool) or not isinstance(games, int) or not 2 <= games <= MAX_GAMES:
        raise GameError(f"games must be a whole number from 2 to {MAX_GAMES:,}, not {games!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or not 1 <= workers <= MAX_WORKERS):
        raise GameError(f"workers must be a whole number from 1 to {MAX_WORKERS}, not {workers!r}")
    if isinstance(max_spread, bool) or not isinstance(max_spread, int) or not 1 <= max_spread <= 2000:
        raise GameError(f"max_spread must be a whole number from 1 to 2,000, not {max_spread!r}")
    game = game.for_lexicon(lex.store.alphabet)
    rows = table_rows(game)
    player = Player.equity(leaves, "winpct")
    spec = run_spec(game, [player, player], seed)
    began = time.monotonic()
    parts = list(run_batches(LexiconRef.of(lex), spec, batches(0, games, batch), workers=workers, cluster=cluster,
                             reducer=partial(_batch_counts, rows, max_spread, game.rack_size), progress=progress))
    counts = WinCounts.merged(parts)
    table = WinTable.from_counts(counts.positions, counts.wins, max_spread=max_spread, name=name)
    return WinBuild(table, games, int(counts.positions.sum()), time.monotonic() - began)


def self_play_positions(lex: "Engines", game: Game, *, leaves: "LeaveTable | None", games: int, seed: int,
                        workers: int | None = None) -> "tuple[np.ndarray, np.ndarray, np.ndarray]":
    """The snapshots of ``games`` self-play games (held out from a build when the seed differs): spread, unseen
    tiles, final spread of the player on turn."""
    game = game.for_lexicon(lex.store.alphabet)
    player = Player.equity(leaves, "winpct")
    spec = run_spec(game, [player, player], seed)
    parts = list(run_batches(LexiconRef.of(lex), spec, batches(0, games, BATCH_GAMES * 5), workers=workers,
                             cluster=None, reducer=partial(_batch_samples, game.rack_size)))
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]))
