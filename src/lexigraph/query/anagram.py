"""Anagrams: sub-, exact and super-anagrams of a rack, with blanks and board tiles.

A word fits a rack when, after taking out the ``through`` tiles, each tile
it needs beyond the rack's own is paid for with a blank. Every length bucket
up to the longest possible word is tested at once:

1. a 64-bit presence mask per word (bit ``code % 64``) rejects, in one array
   pass, every word with more distinct foreign tiles than there are blanks;
2. the survivors are counted tile by tile (one pass per distinct rack tile)
   and kept when the blanks cover what the rack lacks.

The cost is one pass over the masks plus work on the candidates, whatever
the number of blanks: fifteen blanks cost no more than one scan of the list.

Exact anagrams with few blanks use the file's alphagram index instead: the
bucket's words in the order of their sorted tiles, so a rack without blanks
is one binary search, and one with blanks a binary search per multiset of
tiles the blanks may stand for.

Every function takes a ``deadline`` (:mod:`lexigraph.engine.deadline`),
checked between the passes of the scan and handed to the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

import numpy as np

from ..errors import QueryError
from ..engine.deadline import Countdown, check
from ..support.text import quote
from ..engine.interface import Engine, RackMode
from ..engine.store import SORTS, Store, concat_ids

if TYPE_CHECKING:  # pragma: no cover
    from ..alphabet import Alphabet

BLANK = "?"
MORE = "*"
MODES = ("sub", "exact", "super")


@dataclass(frozen=True)
class AnagramWithBlanks:
    """One result with ``blanks=True``: the word, its tiles, and which came from blanks.

    >>> import lexigraph
    >>> a = lexigraph.open().anagram("aalnst?", mode="exact", blanks=True)[0]
    >>> a.word, a.blank_positions, a.display()
    ('analyst', (4,), 'ANALyST')
    """

    word: str
    tiles: tuple[str, ...]
    blank_positions: tuple[int, ...]

    def display(self) -> str:
        """Upper case, with blank-made tiles in lower case (as players write it)."""
        return "".join(t.lower() if i in self.blank_positions else t.upper() for i, t in enumerate(self.tiles))

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True)
class AnagramRack:
    """A parsed rack: tile codes, number of blanks, and whether ``*`` asks for more."""

    codes: bytes
    blanks: int
    more: bool

    @property
    def size(self) -> int:
        return len(self.codes) + self.blanks


def parse_anagram_rack(alphabet: "Alphabet", rack: str, *, what: str = "rack", allow_wild: bool = True) -> AnagramRack:
    """Split a rack into tiles, blanks (``?``) and the super-anagram marker (``*``)."""
    if not isinstance(rack, str):
        raise QueryError(f"the {what} must be a string")
    text = rack.strip()
    if not text and what == "rack":
        raise QueryError("the rack is empty")
    codes = bytearray()
    blanks = 0
    more = False
    piece: list[str] = []

    def flush() -> None:
        if piece:
            chunk = "".join(piece)
            key = alphabet.encode(chunk)
            if key is None:
                bad = alphabet.first_bad_char(chunk) or chunk
                raise QueryError(f"the {what} {quote(rack)} holds {bad!r}, which is not a tile of this lexicon")
            codes.extend(key)
            piece.clear()

    for ch in text:
        if ch in (BLANK, MORE) or ch.isspace():
            flush()
            if ch.isspace():
                continue
            if not allow_wild:
                raise QueryError(f"the {what} cannot hold {ch!r}")
            if ch == BLANK:
                blanks += 1
            else:
                more = True
        else:
            piece.append(ch)
    flush()
    if what == "rack" and not codes and not blanks:
        raise QueryError("the rack holds no tiles")
    return AnagramRack(bytes(codes), blanks, more)


def _masks(store: Store, lengths: list[int]) -> np.ndarray:
    """Presence mask (bit ``code % 64``) of every word of ``lengths`` (ascending, as the store lists them).

    Built once per bucket, and only for the buckets a query reads: a bucket no
    answer needs is never checked (:meth:`~lexigraph.engine.store.Store.rows`),
    so a forged one elsewhere refuses the queries that read it, on both engines.
    """

    parts = [store.cached(("anagram", "masks", n), partial(_bucket_masks, store, n)) for n in lengths]
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _bucket_masks(store: Store, length: int) -> np.ndarray:
    rows = store.rows(length)
    bits = np.left_shift(np.uint64(1), (rows % 64).astype(np.uint64))
    masks: np.ndarray = np.bitwise_or.reduce(bits, axis=1)
    return masks


def _mask_of(codes: bytes) -> np.uint64:
    m = 0
    for c in codes:
        m |= 1 << (c % 64)
    return np.uint64(m)


_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], np.uint8)


def _popcount(x: np.ndarray) -> np.ndarray:
    """Set bits of each uint64 (NumPy >= 2 counts them in one ufunc)."""
    if hasattr(np, "bitwise_count"):
        counted: np.ndarray = np.bitwise_count(x)
        return counted
    summed: np.ndarray = _BYTE_BITS[x.view(np.uint8).reshape(-1, 8)].sum(axis=1)  # pragma: no cover - NumPy < 2
    return summed


def find_ids(
    store: Store,
    engine: Engine,
    rack: AnagramRack,
    *,
    mode: str,
    through: bytes = b"",
    min_length: int = 2,
    max_length: int | None = None,
    deadline: float | None = None,
) -> np.ndarray:
    """Word ids that fit the rack (ascending, or alphabetical from a walk); see :func:`anagram`.

    The plan: exact anagrams with few blanks by the alphagram index; other
    racks by the engine's graph walk where its cost model says the walk pays
    (:meth:`~lexigraph.engine.interface.Engine.rack_walk_pays`); the rest by
    the column scan of the module docstring.
    """
    return _plan(store, engine, rack, mode=mode, through=through, min_length=min_length, max_length=max_length,
                 deadline=deadline)[0]


def _plan(
    store: Store,
    engine: Engine,
    rack: AnagramRack,
    *,
    mode: str,
    through: bytes,
    min_length: int,
    max_length: int | None,
    deadline: float | None = None,
) -> tuple[np.ndarray, bool]:
    """:func:`find_ids`, and whether its ids are in alphabetical order already (a walk's are)."""
    if mode not in MODES:
        raise QueryError(f"unknown anagram mode {mode!r}; use sub, exact or super")
    if rack.more:
        mode = "super"
    size = rack.size + len(through)
    lo, hi = length_bounds(rack, mode, len(through), min_length, max_length)
    fits = (max_length is None or size <= max_length) and size >= lo
    if mode == "exact" and rack.blanks <= MAX_INDEX_BLANKS and fits:
        return engine.exact_anagram_ids(rack.codes + through, rack.blanks, deadline=deadline), False
    if walk_answers(engine, rack, mode, lo, hi):
        top = min(hi, max(store.lengths, default=0))
        ids = engine.rack_ids(rack.codes, rack.blanks, mode=_rack_mode(mode), through=through, min_length=lo,
                              max_length=top, deadline=deadline)
        return ids, True
    return _scan_ids(store, rack, mode, through, lo, hi, deadline), False


def length_bounds(rack: AnagramRack, mode: str, n_through: int, min_length: int, max_length: int | None) -> tuple[int, int]:
    """The lengths of the words a rack can make in ``mode``, with ``n_through`` board tiles: ``(lo, hi)``."""
    size = rack.size + n_through
    lo = max(min_length, n_through + 1 if n_through else 1)
    if mode == "sub":
        hi = size
    elif mode == "exact":
        lo, hi = max(lo, size), size
    else:
        lo, hi = max(lo, size), 1 << 30
    return lo, hi if max_length is None else min(hi, max_length)


def walk_answers(engine: Engine, rack: AnagramRack, mode: str, lo: int, hi: int) -> bool:
    """Whether the graph walk answers this rack (see :func:`find_ids`)."""
    return lo <= hi and engine.rack_walk_pays(rack.blanks, _rack_mode(mode))


def _rack_mode(mode: str) -> RackMode:
    return "exact" if mode == "exact" else "super" if mode == "super" else "sub"


def _scan_ids(store: Store, rack: AnagramRack, mode: str, through: bytes, lo: int, hi: int,
              deadline: float | None = None) -> np.ndarray:
    """The column scan of the module docstring: ids ascending."""
    check(deadline)
    n_through = len(through)
    buckets = [b for b in store.buckets if lo <= b.length <= hi]
    if not buckets:
        return np.zeros(0, np.int64)
    lengths = [b.length for b in buckets]
    start = buckets[0].first
    masks = _masks(store, lengths)

    rack_counts = np.bincount(np.frombuffer(rack.codes, np.uint8), minlength=256)
    through_counts = np.bincount(np.frombuffer(through, np.uint8), minlength=256)
    rack_mask = _mask_of(rack.codes)
    through_mask = _mask_of(through)
    keep = np.ones(len(masks), bool)
    if n_through:
        keep &= (masks & through_mask) == through_mask
    if mode == "super":
        keep &= (masks & rack_mask) == rack_mask
    else:
        foreign = masks & ~(rack_mask | through_mask)
        if rack.blanks == 0:
            keep &= foreign == 0
        else:
            keep &= _popcount(foreign) <= rack.blanks
    candidates = np.flatnonzero(keep) + start

    if not len(candidates):
        return candidates
    # One zero-padded matrix for all lengths: a pass per distinct tile, not per tile and length.
    lengths_of = store.lengths_of_ids(candidates)
    rows = store.codes_of_ids(candidates, int(lengths_of.max()), lengths_of)
    ok = np.ones(len(candidates), bool)
    covered = np.zeros(len(candidates), np.int64)
    for tile in np.flatnonzero((rack_counts > 0) | (through_counts > 0)).tolist():
        check(deadline)
        count = (rows == tile).sum(axis=1)
        need = int(through_counts[tile])
        if need:
            ok &= count >= need
            count = count - need
        covered += np.minimum(count, int(rack_counts[tile]))
    if mode == "super":
        ok &= covered == len(rack.codes)
    else:
        ok &= lengths_of - n_through - covered <= rack.blanks
    return candidates[ok]


#: Most blanks an exact anagram looks up in the alphagram index (one search per
#: multiset they may stand for); more blanks scan the masks instead.
MAX_INDEX_BLANKS = 3


def exact_ids(store: Store, engine: Engine, codes: bytes, blanks: int, *,
              deadline: float | None = None) -> np.ndarray:
    """Ids of the words whose tiles are exactly ``codes`` plus ``blanks`` tiles of any kind, ascending.

    The engine looks them up in the alphagram index: the C engine walks the
    sorted alphagrams, visiting only the multisets that exist; the Python
    engine makes one binary search per multiset the blanks may stand for.

    >>> import lexigraph
    >>> lex = lexigraph.open()
    >>> lex.store.words_of_ids(exact_ids(lex.store, lex.engine, lex.alphabet.encode("opt"), 0))
    ['opt', 'pot', 'top']
    """
    return engine.exact_anagram_ids(codes, blanks, deadline=deadline)


def anagram(
    store: Store,
    engine: Engine,
    rack: str,
    *,
    mode: str = "sub",
    through: str = "",
    min_length: int = 2,
    max_length: int | None = None,
    sort: str = "alpha",
    blanks: bool = False,
    deadline: float | None = None,
) -> "list[str] | list[AnagramWithBlanks]":
    """See :meth:`lexigraph.Lexicon.anagram`."""
    if sort not in SORTS:
        raise QueryError(f"unknown sort {sort!r}; use alpha, length or priority")
    if type(min_length) is not int or min_length < 1:
        raise QueryError("min_length must be a positive integer")
    if max_length is not None and (type(max_length) is not int or max_length < 0):
        raise QueryError("max_length must be a non-negative integer")
    alphabet = store.alphabet
    parsed = parse_anagram_rack(alphabet, rack)
    board = parse_anagram_rack(alphabet, through or "", what="through tiles", allow_wild=False).codes
    top = parsed.size if max_length is None else min(parsed.size, max_length)
    walks_pay = engine.pattern_walk_pays
    effective = "super" if parsed.more else mode
    lo, hi = length_bounds(parsed, effective, len(board), min_length, max_length) if mode in MODES else (1, 0)
    if mode == "sub" and not parsed.more and not board and parsed.blanks >= top and sort == "alpha" and walks_pay:
        # Blanks enough for any word up to the rack's size: every word of those lengths, listed by a walk.
        words = engine.pattern_words([], max(min_length, 1), top, deadline=deadline)
    elif (sort == "alpha" and walks_pay and effective != "exact" and mode in MODES
          and walk_answers(engine, parsed, effective, lo, hi)):
        # The walk's words are already in alphabetical order: decoded straight from it, no ids.
        words = engine.rack_words(parsed.codes, parsed.blanks, mode=_rack_mode(effective), through=board,
                                  min_length=lo, max_length=min(hi, max(store.lengths, default=0)), deadline=deadline)
    else:
        ids, alphabetical = _plan(store, engine, parsed, mode=mode, through=board, min_length=min_length,
                                  max_length=max_length, deadline=deadline)
        if not (alphabetical and sort == "alpha"):
            check(deadline)
            ids = store.sort_ids(ids, sort)
        check(deadline)
        words = store.words_of_ids(ids)
    if not blanks:
        return words
    countdown = Countdown(deadline, steps=1024)  # a word explained costs a few microseconds
    explained = []
    for w in words:
        countdown.tick()
        explained.append(_explain(alphabet, w, parsed.codes, board))
    return explained


def _explain(alphabet: "Alphabet", word: str, rack: bytes, through: bytes) -> AnagramWithBlanks:
    """Assign board tiles first, then rack tiles, left to right; the rest are blanks."""
    codes = alphabet.encode(word) or b""
    supply: dict[int, int] = {}
    for c in through:
        supply[c] = supply.get(c, 0) + 1
    for c in rack:
        supply[c] = supply.get(c, 0) + 1
    blank_at = []
    for i, c in enumerate(codes):
        if supply.get(c, 0) > 0:
            supply[c] -= 1
        else:
            blank_at.append(i)
    labels = tuple(alphabet.labels[c - 1] for c in codes)
    return AnagramWithBlanks(word, labels, tuple(blank_at))


def anagram_table(store: Store, engine: Engine, rack: str, *,
                  deadline: float | None = None) -> list[tuple[str, list[str]]]:
    """The rack's exact anagrams, then for each tile those of the rack plus that tile.

    The first entry's tile is ``""``.

    >>> import lexigraph
    >>> lex = lexigraph.open()
    >>> table = dict(anagram_table(lex.store, lex.engine, "aalnst?"))
    >>> table["i"][:3]
    ['alations', 'annalist', 'fantails']
    """
    parsed = parse_anagram_rack(store.alphabet, rack)
    out = [("", store.words_of_ids(find_ids(store, engine, parsed, mode="exact", deadline=deadline)))]
    for code, label in enumerate(store.alphabet.labels, start=1):
        ids = find_ids(store, engine, parsed, mode="exact", through=bytes([code]), deadline=deadline)
        out.append((label, store.words_of_ids(ids)))
    return out
