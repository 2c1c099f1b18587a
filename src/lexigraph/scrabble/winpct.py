"""Win probabilities learned from self-play: P(the player on turn wins | spread, tiles unseen).

A :class:`WinTable` answers, for the player about to move, the chance it
wins the game given its **spread** (its score minus the opponent's) and the
**tiles it cannot see** (the bag and the opponent's rack), as MAGPIE's
``winpct.csv`` does. :meth:`WinTable.after_move` reads the same table from
the side of the player who has just moved (``1 - on_turn(-spread, unseen)``).

**Counting (MAGPIE's shift).** Every turn of a self-play game is a
snapshot: the player on turn, its spread ``s`` before the turn, the tiles
``u`` it cannot see, and the spread ``f`` it ended the game with. What the
rest of the game added is ``d = f - s``. For *every* column ``x`` of the
table (spreads ``-max_spread .. max_spread``), the snapshot counts as a win
at ``x`` when ``x + d > 0`` and as a draw when ``x + d = 0``: row ``u``
holds, per column, the *win score* (2 per win, 1 per draw) and the row's
positions. So a row is the distribution of what the rest of a game adds,
read as a win chance at each spread, and it rises with the spread by
construction. ``wins / (2 * positions)`` is the raw win chance.

**Smoothing.** Rows with few positions (the first turns see 93 tiles and
are played once a game) borrow from their neighbours: row ``u`` pools the
rows ``u - h .. u + h``, ``h`` growing from 0 until the pool holds
:data:`POOL_POSITIONS` positions; the pooled chance is then shrunk toward
simmer's fixed sigmoid (a lead of ``30 + u`` wins 90% of the time) with the
weight of :data:`PRIOR_POSITIONS` positions:

    p(u, x) = (W(u, x) / 2 + k * sigmoid(x, u)) / (N(u) + k)

with ``W`` and ``N`` the pooled win score and positions and ``k`` the prior's
weight. Each pooled row and the sigmoid rise with ``x``, so ``p`` does; an
isotonic regression (pool-adjacent-violators, per row) is applied last all
the same, so that monotony holds whatever rounding does. A table read from
MAGPIE's CSV keeps MAGPIE's raw values (a row of no positions copies the
row before), so that lookups agree with MAGPIE's.

Lookups clamp the spread to the table's range and the unseen tiles to
``1 .. rows``.

>>> table = WinTable.from_counts([4], [[0, 2, 4, 6, 8]], max_spread=2, smooth=False)
>>> table.on_turn(0, 1), table.on_turn(5, 1), table.after_move(-1, 1)
(0.5, 1.0, 0.25)
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

import numpy as np

from ..errors import FileFormatError
from ..support.files import read_limited
from .game import GameError

__all__ = ["WinTable", "WinTableError", "brier_scores", "default_table", "position_samples", "sigmoid_win",
           "win_counts"]

#: MAGPIE's spread range: columns -500 .. 500.
MAX_SPREAD = 500
#: Positions a smoothed row pools from its neighbours at least.
POOL_POSITIONS = 4000
#: The weight of the fixed sigmoid in a smoothed row, in positions.
PRIOR_POSITIONS = 20.0
#: simmer's fixed sigmoid: a lead of SIGMOID_SPREAD + unseen tiles wins SIGMOID_PROB of the time.
SIGMOID_SPREAD = 30.0
SIGMOID_PROB = 0.9
#: The binary file: magic, version, the largest file read.
MAGIC = b"LXWINPCT"
VERSION = 1
HEADER = struct.Struct("<8sIIIIQ")
MAX_FILE_BYTES = 64 << 20
MAX_ROWS = 4096


class WinTableError(FileFormatError):
    """A win-percentage file that cannot be read."""


def sigmoid_win(spread: "np.ndarray | float", unseen: "np.ndarray | float") -> "np.ndarray":
    """simmer's fixed sigmoid: the chance a lead of ``spread`` wins with ``unseen`` tiles unseen.

    >>> [round(float(x), 3) for x in sigmoid_win(np.array([40.0, 0.0]), np.array([10, 10]))]
    [0.9, 0.5]
    """
    width = (SIGMOID_SPREAD + np.asarray(unseen, np.float64)) / math.log(SIGMOID_PROB / (1.0 - SIGMOID_PROB))
    out: np.ndarray = 1.0 / (1.0 + np.exp(-np.asarray(spread, np.float64) / width))
    return out


def isotonic(values: "np.ndarray", weights: "np.ndarray | None" = None) -> "np.ndarray":
    """The non-decreasing sequence nearest ``values`` in weighted least squares (pool-adjacent-violators).

    >>> isotonic(np.array([0.1, 0.3, 0.2, 0.4])).round(2).tolist()
    [0.1, 0.25, 0.25, 0.4]
    """
    w = np.ones(len(values)) if weights is None else np.asarray(weights, np.float64)
    means: list[float] = []
    sizes: list[float] = []
    lengths: list[int] = []
    for v, wi in zip(np.asarray(values, np.float64).tolist(), w.tolist()):
        means.append(v)
        sizes.append(wi)
        lengths.append(1)
        while len(means) > 1 and means[-2] > means[-1]:
            total = sizes[-2] + sizes[-1]
            merged = (means[-2] * sizes[-2] + means[-1] * sizes[-1]) / total if total else (means[-2] + means[-1]) / 2
            means[-2:] = [merged]
            sizes[-2:] = [total]
            lengths[-2:] = [lengths[-2] + lengths[-1]]
    return np.repeat(np.array(means), lengths)


@dataclass
class WinTable:
    """A win-percentage table: ``positions[u - 1]`` and ``wins[u - 1, max_spread + x]`` (win score: 2 per win,
    1 per draw) for ``u`` tiles unseen and spread ``x``, and ``values``, the win chances lookups answer."""

    positions: "np.ndarray"
    wins: "np.ndarray"
    values: "np.ndarray"
    max_spread: int
    name: str = ""

    @property
    def rows(self) -> int:
        """The most tiles unseen the table knows."""
        return len(self.positions)

    @classmethod
    def from_counts(cls, positions: Sequence[int] | "np.ndarray", wins: "Sequence[Sequence[int]] | np.ndarray", *,
                    max_spread: int, smooth: bool = True, name: str = "") -> "WinTable":
        """A table of counts: smoothed (module docstring), or MAGPIE's raw values (``smooth=False``)."""
        pos = np.asarray(positions, np.int64)
        w = np.asarray(wins, np.int64)
        if pos.ndim != 1 or not 1 <= len(pos) <= MAX_ROWS or w.shape != (len(pos), 2 * max_spread + 1):
            raise GameError(f"a win table has 1 to {MAX_ROWS} rows of 2 * max_spread + 1 win scores")
        if (pos < 0).any() or (w < 0).any() or (w > 2 * pos[:, None]).any():
            raise GameError("a win table's counts are not negative and a win score is at most twice the positions")
        if not pos.any():
            raise GameError("a win table needs at least one position")
        values = smoothed(pos, w, max_spread) if smooth else raw_values(pos, w)
        return cls(pos, w, values, max_spread, name)

    def on_turn(self, spread: float, unseen: int) -> float:
        """The chance the player on turn wins with ``spread`` and ``unseen`` tiles it cannot see."""
        return float(self.on_turn_many(np.array([spread]), np.array([unseen]))[0])

    def after_move(self, spread: float, unseen: int) -> float:
        """The chance the player who just moved wins, with ``spread`` (its own) and ``unseen`` tiles its opponent
        cannot see."""
        return 1.0 - self.on_turn(-spread, unseen)

    def on_turn_many(self, spread: "np.ndarray", unseen: "np.ndarray") -> "np.ndarray":
        """:meth:`on_turn` over arrays (spreads rounded half away from zero, as MAGPIE rounds)."""
        s = np.asarray(spread, np.float64)
        x = np.clip(np.sign(s) * np.floor(np.abs(s) + 0.5), -self.max_spread, self.max_spread).astype(np.int64)
        u = np.clip(np.asarray(unseen, np.int64), 1, self.rows)
        out: np.ndarray = self.values[u - 1, x + self.max_spread].astype(np.float64)
        return out

    # -- files ----------------------------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The table in lexigraph's binary format (``docs/format.md``, *Win-percentage tables*)."""
        name = self.name.encode("utf-8")[:255]
        columns = 2 * self.max_spread + 1
        head = HEADER.pack(MAGIC, VERSION, self.rows, self.max_spread, len(name), int(self.positions.sum()))
        body = b"".join([head, name, bytes((-len(name)) % 8), self.positions.astype("<u8").tobytes(),
                         self.wins.astype("<u8").reshape(self.rows, columns).tobytes(),
                         self.values.astype("<f4").tobytes()])
        return body + struct.pack("<I", zlib.crc32(body))

    @classmethod
    def from_bytes(cls, data: bytes, where: str = "the win table") -> "WinTable":
        """A table from :meth:`to_bytes`'s bytes, every field checked (a :class:`WinTableError` otherwise)."""
        if len(data) < HEADER.size + 4 or data[:8] != MAGIC:
            raise WinTableError(f"{where} is not a lexigraph win-percentage file")
        magic, version, rows, max_spread, name_length, total = HEADER.unpack_from(data, 0)
        if version != VERSION:
            raise WinTableError(f"{where} has version {version}; this lexigraph reads version {VERSION}")
        if not 1 <= rows <= MAX_ROWS or not 0 <= max_spread <= 100_000:
            raise WinTableError(f"{where} declares {rows} rows and spreads to {max_spread}: out of range")
        columns = 2 * max_spread + 1
        start = HEADER.size + name_length + (-name_length) % 8
        size = start + 8 * rows + 8 * rows * columns + 4 * rows * columns + 4
        if len(data) != size:
            raise WinTableError(f"{where} holds {len(data):,} bytes; its header says {size:,}")
        (crc,) = struct.unpack_from("<I", data, size - 4)
        if zlib.crc32(data[:size - 4]) != crc:
            raise WinTableError(f"{where} fails its checksum: the file is damaged")
        name = data[HEADER.size:HEADER.size + name_length].decode("utf-8", "replace")
        positions = np.frombuffer(data, "<u8", rows, start).astype(np.int64)
        at = start + 8 * rows
        wins = np.frombuffer(data, "<u8", rows * columns, at).astype(np.int64).reshape(rows, columns)
        values = np.frombuffer(data, "<f4", rows * columns, at + 8 * rows * columns).astype(np.float64)
        values = values.reshape(rows, columns)
        if int(positions.sum()) != total or not np.isfinite(values).all() or (values < 0).any() \
                or (values > 1).any() or (np.diff(values, axis=1) < 0).any():
            raise WinTableError(f"{where} holds counts or values out of range (win chances rise with the spread)")
        return cls(positions, wins, values, max_spread, name)

    def to_csv(self) -> str:
        """MAGPIE's ``winpct.csv``: a line per tiles unseen (1 first), the positions then each column's win score,
        separated by spaces."""
        lines = []
        for u in range(self.rows):
            lines.append(" ".join([str(int(self.positions[u]))] + [str(int(w)) for w in self.wins[u]]))
        return "\n".join(lines) + "\n"

    @classmethod
    def from_csv(cls, text: str, where: str = "the win table", *, smooth: bool = False) -> "WinTable":
        """A table from MAGPIE's ``winpct.csv`` (MAGPIE's raw values unless ``smooth``)."""
        rows: list[list[int]] = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                rows.append([int(x) for x in line.split()])
            except ValueError:
                raise WinTableError(f"{where}, line {number}: counts are whole numbers") from None
            if len(rows) > MAX_ROWS:
                raise WinTableError(f"{where} has more than {MAX_ROWS} lines")
        if not rows or len(rows[0]) < 2 or len(rows[0]) % 2:
            raise WinTableError(f"{where}: each line holds the positions and an odd number of win scores")
        if any(len(r) != len(rows[0]) for r in rows):
            raise WinTableError(f"{where}: every line must hold as many columns as the first")
        counts = np.array(rows, np.int64)
        try:
            return cls.from_counts(counts[:, 0], counts[:, 1:], max_spread=(len(rows[0]) - 2) // 2, smooth=smooth)
        except GameError as e:
            raise WinTableError(f"{where}: {e}") from None

    @classmethod
    def read(cls, path: str) -> "WinTable":
        """A table from a file: lexigraph's binary format, or MAGPIE's CSV (told by the first bytes)."""
        data = read_limited(path, limit=MAX_FILE_BYTES, what="a win-percentage table", error=WinTableError)
        if data[:8] == MAGIC:
            return cls.from_bytes(data, path)
        try:
            text = data.decode("ascii")
        except UnicodeDecodeError:
            raise WinTableError(f"{path} is neither a lexigraph win table nor MAGPIE's winpct.csv") from None
        return cls.from_csv(text, path)


#: The shipped table (the package's data folder), learned on the ``scrabble`` game (docs/games.md says how).
SHIPPED = "english-winpct.lxwin"
_DEFAULT: list[WinTable] = []


def default_table() -> WinTable:
    """The shipped table, read once per process (``docs/games.md``: the command and seed that made it). It was
    learned on the ``scrabble`` game and the built-in lexicon; another game (a larger bag clamps at its 93 rows)
    is better served by a table of its own (``lexigraph winpct build``).

    >>> default_table().rows
    93
    """
    if not _DEFAULT:
        _DEFAULT.append(WinTable.read(str(resources.files("lexigraph").joinpath("data", SHIPPED))))
    return _DEFAULT[0]


def raw_values(positions: "np.ndarray", wins: "np.ndarray") -> "np.ndarray":
    """MAGPIE's values: ``wins / (2 * positions)``, a row of no positions copying the row before (the first rows
    with none copying the first row that has some)."""
    values = np.zeros(wins.shape)
    last = None
    first = int(np.nonzero(positions)[0][0])
    for u in range(len(positions)):
        if positions[u]:
            values[u] = wins[u] / (2.0 * positions[u])
            last = u
        else:
            values[u] = values[last] if last is not None else wins[first] / (2.0 * positions[first])
    return values


def smoothed(positions: "np.ndarray", wins: "np.ndarray", max_spread: int) -> "np.ndarray":
    """Each row pooled with its neighbours to :data:`POOL_POSITIONS` positions, shrunk toward the fixed sigmoid,
    and made non-decreasing (module docstring)."""
    rows = len(positions)
    spreads = np.arange(-max_spread, max_spread + 1, dtype=np.float64)
    total = int(positions.sum())
    values = np.zeros(wins.shape)
    for u in range(rows):
        h = 0
        while True:
            low, high = max(0, u - h), min(rows, u + h + 1)
            n = int(positions[low:high].sum())
            if n >= min(POOL_POSITIONS, total) or (low == 0 and high == rows):
                break
            h += 1
        w = wins[low:high].sum(axis=0) / 2.0
        prior = sigmoid_win(spreads, u + 1)
        values[u] = isotonic((w + PRIOR_POSITIONS * prior) / (n + PRIOR_POSITIONS))
    return np.clip(values, 0.0, 1.0)


# -- samples from self-play -------------------------------------------------------------------------------

def position_samples(turns: "np.ndarray", games: "np.ndarray", rack_size: int) \
        -> "tuple[np.ndarray, np.ndarray, np.ndarray]":
    """Per turn of self-play games (turn and game records): the spread of the player on turn before it moves,
    the tiles it cannot see (the bag and the opponent's rack), and the spread it ends the game with."""
    n = len(turns)
    spread = np.zeros(n, np.int64)
    unseen = np.zeros(n, np.int64)
    final = np.zeros(n, np.int64)
    at = 0
    for g in range(len(games)):
        count = int(games["turns"][g])
        scores = [0, 0]
        record = games[g]
        left = [sum(1 for c in record["racks"][q] if c != 255) for q in (0, 1)]
        # the opponent's rack before a turn: what it holds at its own next turn (or at the end)
        rack_next = [left[0], left[1]]
        racks_before = np.zeros(count, np.int64)
        for k in range(count - 1, -1, -1):
            t = turns[at + k]
            p = int(t["player"])
            racks_before[k] = rack_next[1 - p]
            rack_next[p] = int(t["rack_length"])
        for k in range(count):
            t = turns[at + k]
            p = int(t["player"])
            spread[at + k] = scores[p] - scores[1 - p]
            unseen[at + k] = int(t["bag_before"]) + int(racks_before[k])
            final[at + k] = int(record["final"][p]) - int(record["final"][1 - p])
            scores[p] = int(t["total"])
        at += count
    del rack_size  # the racks are read from the records themselves
    return spread, unseen, final


def win_counts(spread: "np.ndarray", unseen: "np.ndarray", final: "np.ndarray", rows: int,
               max_spread: int = MAX_SPREAD) -> "tuple[np.ndarray, np.ndarray]":
    """The positions per row and the win scores per row and column of snapshots (module docstring: a snapshot
    whose game added ``d`` wins at every spread ``x > -d`` and draws at ``x = -d``)."""
    columns = 2 * max_spread + 1
    ok = (unseen >= 1) & (unseen <= rows)
    row = unseen[ok] - 1
    added = final[ok] - spread[ok]
    # the column where the snapshot draws: x = -added, index max_spread - added; clipped to -1 .. columns
    draw_at = np.clip(max_spread - added, -1, columns)
    positions = np.bincount(row, minlength=rows).astype(np.int64)
    hist = np.zeros((rows, columns + 2), np.int64)  # index draw_at + 1
    np.add.at(hist, (row, draw_at + 1), 1)
    # wins at column c: 2 per snapshot drawing below c, 1 per snapshot drawing at c
    below = np.cumsum(hist, axis=1)[:, :columns]  # snapshots with draw_at < c (index c holds draw_at <= c - 1)
    at_column = hist[:, 1:columns + 1]
    return positions, 2 * below + at_column


def brier_scores(table: WinTable, spread: "np.ndarray", unseen: "np.ndarray", final: "np.ndarray") \
        -> "tuple[float, float]":
    """The Brier scores of the table and of the fixed sigmoid on snapshots (lower is better; a draw counts ½).

    >>> t = WinTable.from_counts([2], [[0, 2, 4]], max_spread=1, smooth=False)
    >>> table_score, sigmoid_score = brier_scores(t, np.array([1, -1]), np.array([1, 1]), np.array([5, -5]))
    >>> table_score, round(sigmoid_score, 3)
    (0.0, 0.233)
    """
    outcome = np.where(final > 0, 1.0, np.where(final < 0, 0.0, 0.5))
    ok = unseen >= 1
    table_p = table.on_turn_many(spread[ok], unseen[ok])
    sigmoid_p = sigmoid_win(spread[ok], unseen[ok])
    return (float(np.mean((table_p - outcome[ok]) ** 2)), float(np.mean((sigmoid_p - outcome[ok]) ** 2)))

