"""Counting the words self-play plays: a self-play run whose batches send back, instead of their games, how
often each word was the main word of a play (the numbers behind :mod:`lexigraph.study.playability`).

Each batch replays its games' turns on a board of its own in the worker (a play's record holds the tiles it
laid and, as 0, the squares it played through), reads each play's main word off the board, and counts it; only
the counts travel back. Game ``i`` depends only on the seed and ``i``, so the counts of a run are the same
whatever the workers, here or on a Dask cluster.

Self-play deals its games in mirrored pairs (game ``2k + 1`` is game ``2k``'s bag with the seats swapped): with
two players alike (the same rule, the same leave table) the second is the first played again, move for move.
Such a run plays game ``2k`` alone for its ``k``-th game (:class:`FirstOfEachPair`), so that every game counted
is a game of its own.

>>> import lexigraph
>>> from lexigraph.scrabble.game import Game
>>> from lexigraph.scrabble.players import Player
>>> counts = count_plays(lexigraph.open(), Game.preset("scrabble"), [Player.score("a"), Player.score("b")],
...                      games=2, seed=5, workers=1)
>>> sum(counts.values()) > 10, all(w == w.lower() for w in counts)
(True, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from ..engine.interface import TURN_PLAY
from .game import Game, GameError
from .players import Player, run_spec
from .runs import BATCH_GAMES, MAX_GAMES, batches
from .workers import LexiconRef, run_batches

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..engine import Engines

__all__ = ["FirstOfEachPair", "count_plays", "played_words"]


@dataclass(frozen=True)
class FirstOfEachPair:
    """A run's batches over the first game of each mirrored pair: its game ``k`` is the run's game ``2k``."""

    job: Callable[["Engines", int, int], "tuple[np.ndarray, np.ndarray]"]

    def __call__(self, engines: "Engines", first: int, count: int) -> "tuple[np.ndarray, np.ndarray]":
        import numpy as np  # deferred: NumPy loads in the workers, with the games

        played = [self.job(engines, 2 * k, 1) for k in range(first, first + count)]
        return np.concatenate([p[0] for p in played]), np.concatenate([p[1] for p in played])


def played_words(labels: Sequence[str], turns: "np.ndarray", games: "np.ndarray") -> Counter[str]:
    """How often each word was a play's main word in a batch's games (``labels``: each tile code's label)."""
    counts: Counter[str] = Counter()
    start = 0
    for record in games:
        board: dict[tuple[int, int], int] = {}
        end = start + int(record["turns"])
        for t in turns[start:end]:
            if t["kind"] != TURN_PLAY:
                continue
            row, col, across = int(t["row"]), int(t["col"]), bool(t["across"])
            word = []
            for i in range(int(t["length"])):
                square = (row, col + i) if across else (row + i, col)
                code = int(t["squares"][i]) & 0x7F
                if code:
                    board[square] = code
                word.append(labels[board.get(square, 0)])
            counts["".join(word)] += 1
        start = end
    return counts


def count_plays(lex: "Engines", game: Game, players: Sequence[Player], *, games: int, seed: int = 0,
                workers: int | None = None, cluster: str | None = None,
                progress: Callable[[int], None] | None = None) -> Counter[str]:
    """Play games ``0 .. games - 1`` of the run ``seed`` between ``players`` (A, B) and count each play's main
    word (lower case), on a local process pool (``workers``) or a Dask cluster (``cluster``)."""
    if not isinstance(games, int) or not 0 < games <= MAX_GAMES:
        raise GameError(f"games must be a whole number from 1 to {MAX_GAMES:,}, not {games!r}")
    if any(p.simulating is not None for p in players):
        raise GameError("playability counts the plays of equity or score players (a simulation player is slow)")
    game = game.for_lexicon(lex.store.alphabet)
    labels = ["?"] + [game.alphabet.label(c).lower() for c in range(1, len(game.alphabet.labels) + 1)]
    a, b = players[0], players[1]
    alike = a.by_equity == b.by_equity and (a.leaves is b.leaves or a.leaves == b.leaves)
    job: Callable[["Engines", int, int], Any] = run_spec(game, players, seed)
    if alike:
        job = FirstOfEachPair(job)
    reducer = partial(played_words, tuple(labels))
    total: Counter[str] = Counter()
    results: Any = run_batches(LexiconRef.of(lex), job, batches(0, games, BATCH_GAMES), workers=workers,
                               cluster=cluster, reducer=reducer, progress=progress)
    for counts in results:
        total.update(counts)
    return total
