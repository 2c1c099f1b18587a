"""The build's one-scan path for plain lists: the words of an ASCII list as tile codes, without a loop per word.

Most word lists are plain ASCII letters, one word a line. :func:`scan_ascii_numpy`
reads such a list in a few NumPy passes (its C twin, ``native/build_scan.c``,
in one); either answers None for anything else, and the general loop of
:func:`lexigraph.compiler.normalize.normalize` takes over. Which one runs is
the build's choice (:class:`lexigraph.compiler.kernels.BuildKernels`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..alphabet import MAX_TILES

#: Longest word a lexicon holds, in tiles (lengths are stored in a byte).
MAX_LENGTH = MAX_TILES
#: Words longer than this many characters are "too long" before anything else is looked at: they
#: cannot fit in MAX_LENGTH tiles of any alphabet that folds at most 4 characters into one.
CHAR_CAP = 8 * MAX_LENGTH

class Scan(NamedTuple):
    """What :func:`scan_ascii` finds in a plain ASCII list."""

    codes: np.ndarray  #: uint8: the kept words' tile codes one after another, in input order
    lengths: np.ndarray  #: int64: each kept word's length
    upper: np.ndarray  #: bool: each kept word was written in upper case
    lines: int  #: lines, as ``str.splitlines`` counts them
    letters: str  #: the letters of the words no longer than CHAR_CAP, lower case, sorted
    short: int  #: words left out as shorter than min_length
    long: int  #: words left out as longer than max_length
    ordered: bool  #: the kept words are in strictly increasing code order


def scan_ascii_numpy(data: bytes, table: bytes | None, min_length: int, max_length: int) -> Scan | None:
    """The words of a plain ASCII list (``data``: its bytes) as tile codes, in a few NumPy passes over the whole
    text, no loop per word: the twin of the C scan (``native/build_scan.c``), which
    :meth:`~lexigraph.compiler.kernels.BuildKernels.scan_ascii` runs when the build runs in C.

    Lines end with LF, CRLF or a lone CR (as ``str.splitlines``); blank
    lines are skipped. None unless every other byte is an ASCII letter and no
    word mixes upper- and lower-case letters: then the general loop of
    :func:`lexigraph.compiler.normalize.normalize` decides. ``table`` (256 bytes,
    as :attr:`Alphabet.byte_table`) gives the tile codes; None codes each letter
    by its rank among the letters present, as :meth:`Alphabet.from_letters`
    would; a letter it does not code gives None.

    >>> s = scan_ascii_numpy(b"CAT\\r\\ndog\\n\\nx\\n", None, 2, 15)
    >>> s.codes.tolist(), s.lengths.tolist(), s.upper.tolist(), s.lines, s.letters, s.short, s.ordered
    ([2, 1, 6, 3, 5, 4], [3, 3], [True, False], 4, 'acdgotx', 1, True)
    >>> scan_ascii_numpy(b"Cat\\n", None, 2, 15) is None  # capitalised: the case policy decides
    True
    """
    if not data.isascii():
        return None
    arr = np.frombuffer(data, np.uint8)
    low = arr | 0x20
    letter = (low >= 97) & (low <= 122)
    is_n, is_r = arr == 10, arr == 13
    if not (letter | is_n | is_r).all():
        return None  # digits, punctuation, spaces: the loop says which
    lone_r = is_r.copy()
    lone_r[:-1] &= ~is_n[1:]
    lines = int(is_n.sum()) + int(lone_r.sum()) + int(bool(len(arr)) and bool(letter[-1]))
    edges = np.diff(np.concatenate(([0], letter.view(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    if not len(starts):
        return None
    lengths = ends - starts
    upper_count = np.cumsum(np.concatenate(([0], (letter & (arr < 97)).view(np.int8))))  # letters below 'a': upper case
    upper = upper_count[ends] - upper_count[starts]
    if ((upper > 0) & (upper < lengths)).any():
        return None  # capitalised entries: the case policy decides, in the loop
    capped = lengths <= CHAR_CAP
    lowered = low[letter]
    present = np.unique(lowered[np.repeat(capped, lengths)])
    if not len(present):
        return None
    codes_of = np.zeros(32, np.uint8)
    if table is None:
        codes_of[present & 31] = np.arange(1, len(present) + 1)
    else:
        tab = np.frombuffer(table, np.uint8)
        codes_of[present & 31] = tab[present]
        if not tab[present].all() or not (tab[present - 32] == tab[present]).all():
            return None  # a letter outside the alphabet: the loop reports it
    short = capped & (lengths < min_length)
    long = ~capped | (lengths > max_length)
    keep = ~short & ~long
    codes = codes_of[lowered[np.repeat(keep, lengths)] & 31]
    kept_lengths = lengths[keep].astype(np.int64)
    strings = padded_rows(codes, kept_lengths)[1]
    ordered = len(strings) < 2 or bool((strings[1:] > strings[:-1]).all())
    letters = "".join(map(chr, present.tolist()))
    return Scan(codes, kept_lengths, upper[keep] > 0, lines, letters, int(short.sum()), int(long.sum()), ordered)


def padded_rows(codes: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The words as rows of a zero-padded matrix, and the rows as fixed-width strings (which compare like them)."""
    n = len(lengths)
    width = int(lengths.max()) if n else 1
    starts = np.cumsum(lengths) - lengths
    mat = np.zeros((n, width), np.uint8)
    mat.ravel()[np.repeat(np.arange(n) * width - starts, lengths) + np.arange(len(codes))] = codes
    return mat, mat.view(f"S{width}").ravel()
