"""Leave tables learned from self-play (``lexigraph leaves build``).

Generation by generation, both players play by equity with the table of the
generation before (none at first) and every turn is a sample: the player
kept a leave ``L`` (the tiles it did not play or exchange, while the bag still
held tiles to draw), and on its next turn it made ``score + v(L')``, its
score plus the current table's value of what it kept then (0 once the bag
is empty): what ``L`` led to, one turn on. A leave's raw value is the mean of
its samples less the mean of all samples (so a leave is worth what it adds to
an average turn).

Every multiset of 1 to rack size - 1 tiles the bag allows gets a value,
shrunk toward a prior where samples are few:
``v(L) = (n * raw(L) + k * prior(L)) / (n + k)``, with ``n`` its samples,
``k`` the smoothing strength and ``prior(L)`` a linear model of the raw
values fitted over every leave seen (least squares weighted by samples): a
value per tile, a cost per repeated tile, and a value per count of vowels
and consonants (the balance). A leave never seen takes its prior. The workers sum their samples per leave, so a generation sends
back one small table per batch, not its games.

>>> import lexigraph
>>> from lexigraph.scrabble.game import Game
>>> lex = lexigraph.open()
>>> result = build_leaves(lex, Game.preset("scrabble"), generations=[20], seed=1, workers=1, max_length=2)
>>> len(result.table) > 300, result.samples[0] > 300
(True, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from ..support.workers import MAX_WORKERS
from .game import Game, GameError
from .leaves import LeaveTable
from .players import Player, run_spec
from .runs import BATCH_GAMES, batches
from .workers import LexiconRef, run_batches

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..engine import Engines
    from ..engine.interface import PackedLeaves

#: Samples a leave's own mean weighs as much as its prior at (the smoothing strength).
SMOOTHING = 50.0
#: The largest smoothing strength: samples beyond any run's (a larger one is the prior alone, or a mistake).
MAX_SMOOTHING = 1e12
#: Most games in one generation.
MAX_GENERATION_GAMES = 100_000_000


@dataclass
class LeaveSums:
    """Per leave key (``lexigraph.engine.interface.leave_key``): the sum and count of its samples; and the sum and
    count of every sample (the average turn)."""

    keys: "np.ndarray"
    sums: "np.ndarray"
    counts: "np.ndarray"
    total: float
    samples: int

    @classmethod
    def merged(cls, parts: Sequence["LeaveSums"]) -> "LeaveSums":
        """One table of several (sums added per key)."""
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        keys = np.concatenate([p.keys for p in parts]) if parts else np.zeros(0, np.uint64)
        sums = np.concatenate([p.sums for p in parts]) if parts else np.zeros(0)
        counts = np.concatenate([p.counts for p in parts]) if parts else np.zeros(0, np.int64)
        unique, inverse = np.unique(keys, return_inverse=True)
        return cls(unique, np.bincount(inverse, sums, len(unique)),
                   np.bincount(inverse, counts, len(unique)).astype(np.int64),
                   float(sum(p.total for p in parts)), int(sum(p.samples for p in parts)))


def leave_samples(leaves: "PackedLeaves", turns: "np.ndarray", games: "np.ndarray") -> LeaveSums:
    """The samples of a batch's games, summed per leave (see the module docstring). ``leaves``: the table (player
    A's; both players share it when learning) that values the next leave."""
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    keys_table = np.frombuffer(leaves.keys, "<u8")
    values_table = np.frombuffer(leaves.values, "<f8")
    game_of = np.repeat(np.arange(len(games)), games["turns"].astype(np.int64))
    n = len(turns)
    nxt = np.arange(n) + 2
    ok = nxt < n
    ok[ok] &= game_of[nxt[ok]] == game_of[:n][ok]
    ok &= turns["bag_after"] > 0
    idx = np.nonzero(ok)[0]
    later = turns[idx + 2]
    value = np.zeros(len(idx))
    if len(keys_table):
        at = np.searchsorted(keys_table, later["leave"])
        at_clipped = np.minimum(at, len(keys_table) - 1)
        hit = (at < len(keys_table)) & (keys_table[at_clipped] == later["leave"]) & (later["bag_after"] > 0)
        value[hit] = values_table[at_clipped[hit]]
    target = later["score"].astype(np.float64) + value
    kept = turns["leave"][idx]
    unique, inverse = np.unique(kept, return_inverse=True)
    return LeaveSums(unique, np.bincount(inverse, target, len(unique)),
                     np.bincount(inverse, minlength=len(unique)).astype(np.int64), float(target.sum()), len(idx))


def _batch_samples(leaves: "PackedLeaves", turns: "np.ndarray", games: "np.ndarray") -> LeaveSums:
    return leave_samples(leaves, turns, games)


def multisets(counts: Sequence[int], max_length: int) -> list[bytes]:
    """Every multiset of 1 to ``max_length`` tile codes the bag (``counts`` per code) allows, codes ascending,
    shortest first.

    >>> multisets([1, 2], 2)
    [b'\\x00', b'\\x01', b'\\x00\\x01', b'\\x01\\x01']
    """
    by_length: list[list[bytes]] = [[b""]]
    for length in range(1, max_length + 1):
        grown = []
        for m in by_length[-1]:
            low = m[-1] if m else 0
            for code in range(low, len(counts)):
                if m.count(code) < counts[code]:
                    grown.append(m + bytes([code]))
        by_length.append(grown)
    return [m for level in by_length[1:] for m in level]


def _features(leave: bytes, n_codes: int, vowels: frozenset[int]) -> list[tuple[int, float]]:
    """A leave's features for the prior: each tile's count, each tile's repeats (count - 1 when above 1), and
    its vowel and consonant counts together (the balance of the rack), as (column, value) pairs."""
    out: list[tuple[int, float]] = []
    for code in set(leave):
        n = leave.count(code)
        out.append((code, float(n)))
        if n > 1:
            out.append((n_codes + code, float(n - 1)))
    v = sum(1 for c in leave if c in vowels)
    c = sum(1 for c in leave if c and c not in vowels)
    out.append((2 * n_codes + v * 16 + c, 1.0))
    return out


def _fit_prior(seen: dict[bytes, tuple[float, int]], n_codes: int, vowels: frozenset[int]) -> list[float]:
    """Least squares, weighted by samples, of the leaves' raw values on their features (see :func:`_features`)."""
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    width = 2 * n_codes + 16 * 16
    if not seen:
        return [0.0] * width
    rows = np.zeros((len(seen), width))
    target = np.zeros(len(seen))
    weight = np.zeros(len(seen))
    for i, (leave, (raw, count)) in enumerate(seen.items()):
        for column, value in _features(leave, n_codes, vowels):
            rows[i, column] = value
        target[i] = raw
        weight[i] = count
    root = np.sqrt(weight)
    # a small ridge keeps features no leave shows at 0
    ridge = np.sqrt(1.0) * np.eye(width)
    a = np.vstack([rows * root[:, None], ridge])
    b = np.concatenate([target * root, np.zeros(width)])
    coefficients, *_rest = np.linalg.lstsq(a, b, rcond=None)
    return [float(x) for x in coefficients]


def smoothed_values(sums: LeaveSums, counts: Sequence[int], max_length: int, smoothing: float = SMOOTHING,
                    vowels: frozenset[int] = frozenset()) -> dict[bytes, float]:
    """Every leave's value: its samples' mean less the average, shrunk toward its prior (module docstring)."""
    mean = sums.total / sums.samples if sums.samples else 0.0
    seen: dict[bytes, tuple[float, int]] = {}
    for key, s, c in zip(sums.keys.tolist(), sums.sums.tolist(), sums.counts.tolist()):
        length = key >> 60
        if not 0 < length <= max_length:
            continue
        codes = bytes((key >> (6 * i)) & 63 for i in range(length))
        seen[codes] = (s / c - mean, c)
    n_codes = len(counts)
    model = _fit_prior(seen, n_codes, vowels)
    values: dict[bytes, float] = {}
    for leave in multisets(counts, max_length):
        prior = sum(model[column] * value for column, value in _features(leave, n_codes, vowels))
        raw = seen.get(leave)
        if raw is None:
            values[leave] = prior
        else:
            values[leave] = (raw[1] * raw[0] + smoothing * prior) / (raw[1] + smoothing)
    return values


@dataclass
class BuildResult:
    """The table learned, and per generation its games, samples and the equity player's seconds."""

    table: LeaveTable
    games: list[int] = field(default_factory=list)
    samples: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)


def build_leaves(lex: "Engines", game: Game, *, generations: Sequence[int], seed: int = 0, workers: int | None = None,
                 cluster: str | None = None, max_length: int | None = None, smoothing: float = SMOOTHING,
                 start: LeaveTable | None = None, batch: int = BATCH_GAMES * 5,
                 progress: Callable[[int, int, int], Callable[[int], None] | None] | None = None,
                 name: str = "", keep_length: int | None = None,
                 finished: Callable[[int, BuildResult], None] | None = None) -> BuildResult:
    """Learn a leave table from self-play: one generation per entry of ``generations`` (its games), each played
    with the table of the one before (``start``, default none, for the first), the seeds ``seed``,
    ``seed + 1``, ... (``progress(generation, games, of)`` may give a progress callback per generation;
    ``finished(generation, result)`` is called as each generation ends, before the next one starts, with the
    result so far: its games, samples and seconds).
    ``keep_length``: the table returned keeps the leaves of at most that many tiles (:func:`shortened`); the
    generations value and play with every leave up to ``max_length``."""
    if not generations or any(not isinstance(g, int) or not 2 <= g <= MAX_GENERATION_GAMES for g in generations):
        raise GameError(f"each generation plays from 2 to {MAX_GENERATION_GAMES:,} games")
    game = game.for_lexicon(lex.store.alphabet)  # the lexicon's tiles must be the game's
    longest = game.rack_size - 1 if max_length is None else max_length
    if not 1 <= longest < game.rack_size:
        raise GameError(f"leaves hold 1 to {game.rack_size - 1} tiles (the rack size less one), not {longest}")
    if not 0 <= smoothing <= MAX_SMOOTHING:  # NaN too
        raise GameError(f"the smoothing strength is a number from 0 to {MAX_SMOOTHING:g}, not {smoothing}")
    if workers is not None and (not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS):
        raise GameError(f"workers must be a whole number from 1 to {MAX_WORKERS}, not {workers!r}")
    counts = game.counts_by_code()
    table = start
    ref = LexiconRef.of(lex)
    result = BuildResult(LeaveTable({}, lex.store.alphabet))
    for k, games in enumerate(generations):
        player = Player.equity(table, f"generation {k}")
        spec = run_spec(game, [player, player], seed + k)
        began = time.monotonic()
        callback = progress(k, games, len(generations)) if progress else None
        parts = list(run_batches(ref, spec, batches(0, games, batch), workers=workers, cluster=cluster,
                                 reducer=partial(_batch_samples, spec.specs[0].leaves), progress=callback))
        sums = LeaveSums.merged(parts)
        values = smoothed_values(sums, counts, longest, smoothing, frozenset(game.alphabet.vowel_codes))
        table = LeaveTable(values, lex.store.alphabet, name=name)
        result.games.append(games)
        result.samples.append(sums.samples)
        result.seconds.append(time.monotonic() - began)
        if finished is not None:
            finished(k, result)
    assert table is not None
    result.table = table if keep_length is None else shortened(table, keep_length)
    return result


def shortened(table: LeaveTable, length: int) -> LeaveTable:
    """The table without its leaves of more than ``length`` tiles (a smaller file that loads faster; an equity
    player values the leaves it lacks at 0).

    >>> shortened(LeaveTable({b"\\x01": 1.0, b"\\x01\\x02": 2.0}), 1).by_key
    {b'\\x01': 1.0}
    """
    return LeaveTable({k: v for k, v in table.by_key.items() if len(k) <= length}, table.alphabet, name=table.name)
