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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .errors import QueryError

if TYPE_CHECKING:  # pragma: no cover
    from .lexicon import Lexicon

BLANK = "?"
MORE = "*"
MODES = ("sub", "exact", "super")
SORTS = ("alpha", "length", "priority")


@dataclass(frozen=True)
class Anagram:
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
class Rack:
    """A parsed rack: tile codes, number of blanks, and whether ``*`` asks for more."""

    codes: bytes
    blanks: int
    more: bool

    @property
    def size(self) -> int:
        return len(self.codes) + self.blanks


def parse_rack(lex: "Lexicon", rack: str, *, what: str = "rack", allow_wild: bool = True) -> Rack:
    """Split a rack into tiles, blanks (``?``) and the super-anagram marker (``*``)."""
    if not isinstance(rack, str):
        raise QueryError(f"the {what} must be a string")
    text = rack.strip()
    if not text and what == "rack":
        raise QueryError("the rack is empty")
    codes = bytearray()
    blanks = 0
    more = False
    piece = []
    alphabet = lex.alphabet

    def flush() -> None:
        if piece:
            chunk = "".join(piece)
            key = alphabet.encode(chunk)
            if key is None:
                bad = alphabet.first_bad_char(chunk) or chunk
                raise QueryError(f"the {what} {rack!r} holds {bad!r}, which is not a tile of this lexicon")
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
    return Rack(bytes(codes), blanks, more)


def _masks(lex: "Lexicon") -> np.ndarray:
    """Presence mask of every word (bit ``code % 64``), built once per lexicon."""
    masks = lex._np_cache.get("masks")
    if masks is None:
        parts = []
        for length in lex.lengths:
            rows = lex._rows(length)
            bits = np.left_shift(np.uint64(1), (rows % 64).astype(np.uint64))
            parts.append(np.bitwise_or.reduce(bits, axis=1) if length else np.zeros(len(rows), np.uint64))
        masks = np.concatenate(parts) if parts else np.zeros(0, np.uint64)
        lex._np_cache["masks"] = masks
    return masks


def _mask_of(codes: bytes) -> np.uint64:
    m = 0
    for c in codes:
        m |= 1 << (c % 64)
    return np.uint64(m)


if hasattr(np, "bitwise_count"):
    _popcount = np.bitwise_count
else:  # pragma: no cover - NumPy < 2
    _BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], np.uint8)

    def _popcount(x: np.ndarray) -> np.ndarray:
        return _BYTE_BITS[x.view(np.uint8).reshape(-1, 8)].sum(axis=1)


def find_ids(
    lex: "Lexicon",
    rack: Rack,
    *,
    mode: str,
    through: bytes = b"",
    min_length: int = 2,
    max_length: int | None = None,
) -> np.ndarray:
    """Word ids (ascending) that fit the rack; see :func:`anagram`."""
    if mode not in MODES:
        raise QueryError(f"unknown anagram mode {mode!r}; use sub, exact or super")
    if rack.more:
        mode = "super"
    n_through = len(through)
    size = rack.size + n_through
    lo = max(min_length, n_through + 1 if n_through else 1)
    if mode == "sub":
        hi = size
    elif mode == "exact":
        lo, hi = max(lo, size), size
    else:
        lo, hi = max(lo, size), 1 << 30
    if max_length is not None:
        hi = min(hi, max_length)
    lengths = [n for n in lex.lengths if lo <= n <= hi]
    if not lengths:
        return np.zeros(0, np.int64)
    start = lex._buckets[lengths[0]][0]
    last_first, last_count = lex._buckets[lengths[-1]][:2]
    stop = last_first + last_count
    masks = _masks(lex)[start:stop]

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
    lengths_of = lex._length_of_ids(candidates)
    rows = lex._codes_of_ids(candidates, int(lengths_of.max()), lengths_of)
    ok = np.ones(len(candidates), bool)
    covered = np.zeros(len(candidates), np.int64)
    for tile in np.flatnonzero((rack_counts > 0) | (through_counts > 0)).tolist():
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


def anagram(
    lex: "Lexicon",
    rack: str,
    *,
    mode: str = "sub",
    through: str = "",
    min_length: int = 2,
    max_length: int | None = None,
    sort: str = "alpha",
    blanks: bool = False,
) -> "list[str] | list[Anagram]":
    """See :meth:`lexigraph.Lexicon.anagram`."""
    if sort not in SORTS:
        raise QueryError(f"unknown sort {sort!r}; use alpha, length or priority")
    if not isinstance(min_length, int) or min_length < 1:
        raise QueryError("min_length must be a positive integer")
    if max_length is not None and (not isinstance(max_length, int) or max_length < 0):
        raise QueryError("max_length must be a non-negative integer")
    parsed = parse_rack(lex, rack)
    board = parse_rack(lex, through or "", what="through tiles", allow_wild=False).codes
    ids = find_ids(lex, parsed, mode=mode, through=board, min_length=min_length, max_length=max_length)
    ids = lex._sort_ids(ids, sort)
    words = lex._words_of_ids(ids)
    if not blanks:
        return words
    return [_explain(lex, w, parsed.codes, board) for w in words]


def _explain(lex: "Lexicon", word: str, rack: bytes, through: bytes) -> Anagram:
    """Assign board tiles first, then rack tiles, left to right; the rest are blanks."""
    codes = lex.alphabet.encode(word) or b""
    supply: dict[int, int] = {}
    for c in through:
        supply[c] = supply.get(c, 0) + 1
    for c in rack:
        supply[c] = supply.get(c, 0) + 1
    blanks = []
    for i, c in enumerate(codes):
        if supply.get(c, 0) > 0:
            supply[c] -= 1
        else:
            blanks.append(i)
    labels = tuple(lex.alphabet.labels[c - 1] for c in codes)
    return Anagram(word, labels, tuple(blanks))


def anagram_table(lex: "Lexicon", rack: str) -> list[tuple[str, list[str]]]:
    """The rack's exact anagrams, then for each tile those of the rack plus that tile.

    The first entry's tile is ``""``.

    >>> import lexigraph
    >>> table = dict(lexigraph.open().anagram_table("aalnst?"))
    >>> table["i"][:3]
    ['alations', 'annalist', 'fantails']
    """
    parsed = parse_rack(lex, rack)
    out = [("", lex._words_of_ids(find_ids(lex, parsed, mode="exact")))]
    for code, label in enumerate(lex.alphabet.labels, start=1):
        ids = find_ids(lex, parsed, mode="exact", through=bytes([code]))
        out.append((label, lex._words_of_ids(ids)))
    return out
