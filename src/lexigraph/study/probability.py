"""Tile sets and draw probability: how likely a word's tiles are to come out of a full bag.

A *tile set* is the game's bag: for each tile its count and points, and the
number of blanks (the alphabet files' ``counts``, ``points`` and ``blanks``).

The *combinations* of a word with up to ``b`` blanks is the number of
distinct draws of as many tiles as the word has, from the full bag (blanks
included), that spell the word with at most ``b`` blanks standing in for
tiles. This is the count Zyzzyva's letter bag computes (``b`` from 0 to 2;
here any ``b`` up to the number of blanks in the bag)::

    combinations(w, b) = sum over j = 0..b of  C(B, j) * E_j(w)
    E_j(w) = sum over the multisets S of j tiles taken out of w of
             prod over tiles t of C(n_t, w_t - S_t)

with ``n_t`` the bag's count of tile ``t``, ``w_t`` the word's, ``B`` the
bag's blanks, and ``C(n, k) = 0`` when ``k > n``. ``E_j`` is the coefficient
of ``x**j`` in ``prod over t of (sum over s of C(n_t, w_t - s) x**s)``, which
is how a whole length bucket is computed at once, tile by tile.

The *probability rank* of a word ranks the words of one length by
combinations, highest first; words with equal combinations share a rank
(1, 2, 2, 4: competition ranking).

>>> from lexigraph.alphabet import Alphabet
>>> bag = TileSet.of(Alphabet.preset("english"))
>>> bag.combinations(bag.encode("zyzzyva"), blanks=0)
0
>>> bag.combinations(bag.encode("aeinrst"), blanks=0)   # 9*12*9*6*6*4*6
839808
>>> bag.points_of(bag.encode("quiz"))
22
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np

from ..support.jsontypes import JSONObject
from ..alphabet import Alphabet
from ..engine.deadline import check
from ..errors import AlphabetError, QueryError
from ..support.text import quote
from .columns import first_id

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.interface import Engine
    from ..engine.store import Store

#: int64 holds every count below this; beyond it columns use Python integers.
_INT64_SAFE = 2**62


#: A tile set as a caller names one: a preset name or an alphabet file, an :class:`~lexigraph.alphabet.Alphabet`, or
#: None (the lexicon's own, else English for a list of the letters a-z).
TileSetSpec = str | Alphabet | None

@dataclass(frozen=True)
class TileSet:
    """A bag of tiles: ``counts[code]`` and ``points[code]`` (index 0 unused), and ``blanks``."""

    alphabet: "Alphabet"
    counts: tuple[int, ...]
    points: tuple[int, ...] | None
    blanks: int
    name: str = ""
    #: Where the set came from, as documents say it: the name of the alphabet whose counts it holds (the
    #: lexicon's, ``tiles``', or ``"english"`` for a plain a-z list: see :func:`tile_set`).
    origin: str = ""

    @classmethod
    def of(cls, alphabet: "Alphabet", source: "Alphabet | None" = None) -> "TileSet":
        """The tile set of an alphabet (or of ``source``, tile by label); a ``QueryError`` when it has none.

        >>> from lexigraph.alphabet import Alphabet
        >>> TileSet.of(Alphabet.from_letters("dog"))
        Traceback (most recent call last):
        ...
        lexigraph.errors.QueryError: the alphabet 'letters' has no tile set (tile counts): give one (tiles='english', --tiles english) or build the lexicon with an alphabet that has [counts]
        >>> TileSet.of(Alphabet.from_letters("dog"), Alphabet.preset("english")).counts
        (0, 4, 3, 8)
        """
        src = alphabet if source is None else source
        if not src.counts:
            raise QueryError(
                f"the alphabet {src.name!r} has no tile set (tile counts): give one (tiles='english', "
                "--tiles english) or build the lexicon with an alphabet that has [counts]"
            )
        counts = (0,) + tuple(src.counts.get(label, 0) for label in alphabet.labels)
        points = None
        if src.points:
            points = (0,) + tuple(src.points.get(label, 0) for label in alphabet.labels)
        return cls(alphabet, counts, points, int(src.blanks or 0), src.name, src.name)

    @property
    def total(self) -> int:
        """Tiles in the full bag, blanks included."""
        return sum(self.counts) + self.blanks

    def encode(self, word: str) -> bytes:
        codes = self.alphabet.encode(word)
        if codes is None:
            raise QueryError(f"{quote(word)} does not split into tiles of the alphabet {quote(self.alphabet.name)}")
        return codes

    def draws(self, length: int) -> int:
        """Distinct draws of ``length`` tiles from the full bag: ``C(total, length)``."""
        return comb(self.total, length)

    def check_blanks(self, blanks: int) -> int:
        if not isinstance(blanks, int) or isinstance(blanks, bool) or not 0 <= blanks <= 2:
            raise QueryError(f"blanks for probability must be 0, 1 or 2, not {quote(blanks)}")
        return blanks

    def combinations(self, codes: bytes, blanks: int = 2) -> int:
        """Combinations of one word (its tile codes), exact, with up to ``blanks`` blanks standing in."""
        self.check_blanks(blanks)
        need = Counter(codes)
        # Polynomial in x (blanks used): prod over tiles of sum_s C(n_t, w_t - s) x^s.
        poly = [1] + [0] * blanks
        for code, w in need.items():
            n = self.counts[code]
            factor = [comb(n, w - s) if w - s >= 0 else 0 for s in range(blanks + 1)]
            poly = [sum(poly[i] * factor[j - i] for i in range(j + 1)) for j in range(blanks + 1)]
        return sum(comb(self.blanks, j) * poly[j] for j in range(blanks + 1))

    def points_of(self, codes: bytes) -> int:
        """Point value of tile codes (no blanks)."""
        return sum(self.point_table()[c] for c in codes)

    def point_table(self) -> tuple[int, ...]:
        if self.points is None:
            raise QueryError(f"the alphabet {self.alphabet.name!r} has no tile points: point values need them")
        return self.points

    def combinations_column(self, rows: np.ndarray, blanks: int = 2) -> np.ndarray:
        """:meth:`combinations` of every row of a (count, length) array, a few array passes per tile.

        The rows' tile counts come from one histogram per block of rows; each
        tile then updates the polynomial coefficients of the rows that hold it.
        int64 when every value fits, Python integers (dtype object) for long words.
        """
        self.check_blanks(blanks)
        count, length = rows.shape
        dtype: Any = np.int64 if comb(self.total, length) < _INT64_SAFE else object
        width = len(self.counts)  # codes 0..n
        tables = {}
        for code in range(1, width):
            n = self.counts[code]
            # C(n, k) for k = 0..length, then zeros: index w - s of a negative count lands on a 0.
            tables[code] = np.array([comb(n, k) for k in range(length + 1)] + [0] * (blanks + 2), dtype)
        out = np.zeros(count, dtype)
        block = max(1, 4_000_000 // width)
        for start in range(0, count, block):
            part = np.asarray(rows[start : start + block], np.int64)
            m = len(part)
            hist = np.bincount((part + width * np.arange(m)[:, None]).ravel(), minlength=m * width)
            hist = hist.reshape(m, width).T.copy()  # one contiguous row per tile code
            e = [np.ones(m, dtype)] + [np.zeros(m, dtype) for _ in range(blanks)]
            for code in np.flatnonzero(hist.any(axis=1)).tolist():
                if code == 0:
                    continue
                sel = np.flatnonzero(hist[code])
                w = hist[code][sel]
                table = tables[code]
                f = [table[np.where(w >= s, w - s, length + 1)] for s in range(blanks + 1)]
                old = [x[sel] for x in e]
                for j in range(blanks + 1):
                    acc = old[j] * f[0]
                    for i in range(j):
                        acc = acc + old[i] * f[j - i]
                    e[j][sel] = acc
            total = np.zeros(m, dtype)
            for j in range(blanks + 1):
                total = total + comb(self.blanks, j) * e[j]
            out[start : start + m] = total
        return out

    def points_column(self, rows: np.ndarray) -> np.ndarray:
        """Point value of every row."""
        table = np.array(self.point_table() + (0,) * (256 - len(self.point_table())), np.int64)
        return table[rows].sum(1, dtype=np.int64) if rows.size else np.zeros(len(rows), np.int64)


def competition_ranks(values: np.ndarray) -> np.ndarray:
    """Rank 1 for the highest value; equal values share a rank (1, 2, 2, 4).

    >>> competition_ranks(np.array([5, 9, 5, 1])).tolist()
    [2, 1, 2, 4]
    """
    if not len(values):
        return np.zeros(0, np.int64)
    ordered = np.sort(values)
    greater = len(values) - np.searchsorted(ordered, values, "right")
    return np.asarray(greater, np.int64) + 1


# -- columns of a store's length buckets (cached in the store) ------------------------------


def tile_set(store: "Store", tiles: TileSetSpec = None) -> TileSet:
    """The tile set for ``store``'s words: ``tiles`` (a preset name, an alphabet file or an
    :class:`~lexigraph.alphabet.Alphabet`) matched tile by label; else its alphabet's; else, when every
    tile of the lexicon is one of the letters a-z (a plain English list, as ``lexigraph build twl06.txt``
    makes one), the English tile set: the bag the English games play those tiles from. A ``QueryError``
    when there is none. ``TileSet.origin`` says which answered.

    >>> import lexigraph
    >>> tile_set(lexigraph.load(["cat", "dog"]).store, "english").counts
    (0, 9, 2, 4, 3, 8, 6)
    >>> tile_set(lexigraph.load(["cat", "dog"]).store).origin
    'english'
    """
    if tiles is not None and not isinstance(tiles, (str, Alphabet)):
        raise QueryError(f"tiles is a preset name, an alphabet file or an Alphabet, not {type(tiles).__name__}")

    def build() -> TileSet:
        if tiles is None:
            if not store.alphabet.counts and store.alphabet.english_letters:
                return TileSet.of(store.alphabet, Alphabet.preset("english"))
            return TileSet.of(store.alphabet)
        try:
            source = Alphabet.load(tiles)
        except AlphabetError as e:
            raise QueryError(f"tile set: {e}") from None
        return TileSet.of(store.alphabet, source)

    key = tiles.name if isinstance(tiles, Alphabet) else tiles
    return store.cached(("study", "tileset", key), build)


def combinations(store: "Store", length: int, blanks: int = 2, bag: TileSet | None = None) -> np.ndarray:
    """Draw combinations of every word of ``length`` tiles (see :meth:`TileSet.combinations_column`)."""
    bag = bag or tile_set(store)
    bag.check_blanks(blanks)
    return store.cached(
        ("study", "combos", bag.name, length, blanks), lambda: bag.combinations_column(store.rows(length), blanks)
    )


def probability_ranks(store: "Store", length: int, blanks: int = 2, bag: TileSet | None = None) -> np.ndarray:
    """Probability rank of every word among the words of its length (1: most probable; ties share)."""
    bag = bag or tile_set(store)
    return store.cached(
        ("study", "rank", bag.name, length, blanks), lambda: competition_ranks(combinations(store, length, blanks, bag))
    )


def point_values(store: "Store", length: int, bag: TileSet | None = None) -> np.ndarray:
    """Point value of every word of ``length`` tiles."""
    bag = bag or tile_set(store)
    return store.cached(("study", "points", bag.name, length), lambda: bag.points_column(store.rows(length)))


@dataclass(frozen=True)
class WordProbability:
    """How likely a word's tiles are to be drawn from a full bag.

    ``combinations``: distinct draws that spell it (blanks standing in for
    up to ``blanks`` tiles); ``draws``: all draws of as many tiles;
    ``chance``: their ratio; ``rank``: its probability rank among the words
    of its length (None when it is not a word of the lexicon); ``points``:
    its point value (None without tile points).
    """

    word: str
    alphagram: str
    combinations: int
    draws: int
    blanks: int
    rank: int | None
    points: int | None
    tile_set: str = ""

    @property
    def chance(self) -> float:
        return self.combinations / self.draws if self.draws else 0.0

    def to_dict(self) -> JSONObject:
        return {
            "word": self.word, "alphagram": self.alphagram, "combinations": self.combinations,
            "draws": self.draws, "chance": self.chance, "blanks": self.blanks, "probability_rank": self.rank,
            "points": self.points, "tile_set": self.tile_set,
        }


def word_probability(store: "Store", engine: "Engine", word: str, *, blanks: int = 2,
                     tiles: TileSetSpec = None, deadline: float | None = None) -> WordProbability:
    """Draw combinations, chance and probability rank of ``word`` among the words of ``store``
    (``engine``: its exact lookup); see :meth:`lexigraph.Lexicon.probability`.

    >>> import lexigraph
    >>> lex = lexigraph.open()
    >>> p = word_probability(lex.store, lex.engine, "retinas", blanks=0)
    >>> p.combinations, p.rank
    (839808, 11)
    """
    if not isinstance(word, str):
        raise QueryError(f"probability() needs a str, not {type(word).__name__}")
    bag = tile_set(store, tiles)
    bag.check_blanks(blanks)
    codes = bag.encode(word)  # the store's own tiles: the bag's alphabet is the store's
    if not codes:
        raise QueryError("probability() needs a word of at least one tile")
    rank = None
    i = engine.id_of_codes(codes)
    if i >= 0:
        check(deadline)  # a length's ranks are computed once, a few array passes: checked before
        n = len(codes)
        rank = int(probability_ranks(store, n, blanks, bag)[i - first_id(store, n)])
    return WordProbability(
        word=bag.alphabet.decode(codes),
        alphagram=bag.alphabet.decode(bytes(sorted(codes))),
        combinations=bag.combinations(codes, blanks),
        draws=bag.draws(len(codes)),
        blanks=blanks,
        rank=rank,
        points=None if bag.points is None else bag.points_of(codes),
        tile_set=bag.origin,
    )
