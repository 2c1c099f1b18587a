"""The pattern language: one parser for ``match``, ``count``, ``cross``, ``search``, fill grids and the server.

A pattern is a sequence of *cells*, each the set of tile codes it allows,
and *stars*:

===========  ==============================================
``a``        the tile itself (a multi-letter tile or an alias of the
             alphabet, such as Spanish ``ch`` or Catalan ``l.l``, wins
             over the wildcards)
``?`` ``.``  any tile
``@``        a vowel of the alphabet
``#``        a consonant
``[abc]``    one of the tiles listed (wildcards allowed inside)
``[^abc]``   any tile but those (also ``[!abc]``)
``*``        any run of tiles, empty included
===========  ==============================================

Every consumer reads patterns through :func:`parse`, so one text gets one
answer and one error message everywhere. Crossword grids written as text
use a dialect of their own (``#`` is a block there, not a consonant), and
read their cells with :func:`read_tile` and report bad characters with
:func:`not_a_tile`, the same words a pattern uses.

>>> import lexigraph
>>> p = parse(lexigraph.open().alphabet, "?[^aeiou]@#*")
>>> len(p.cells), p.has_star, p.fixed
(5, True, 4)
>>> parse(lexigraph.open().alphabet, "c t")
Traceback (most recent call last):
...
lexigraph.errors.QueryError: pattern 'c t': ' ' at position 1 is not a tile of this lexicon nor a wildcard
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import QueryError
from ..support.text import quote as quote  # the one way errors quote input (re-exported)

if TYPE_CHECKING:  # pragma: no cover
    from ..alphabet import Alphabet

#: A star cell: any run of tiles.
STAR = None
#: Longest pattern text accepted, in characters.
MAX_PATTERN = 100_000


def not_a_tile(where: str, character: str, position: int) -> QueryError:
    """The error for a character that is neither a tile nor a wildcard, ``where`` naming the text.

    >>> str(not_a_tile("pattern 'c1t'", "1", 1))
    "pattern 'c1t': '1' at position 1 is not a tile of this lexicon nor a wildcard"
    """
    return QueryError(f"{where}: {character!r} at position {position} is not a tile of this lexicon nor a wildcard")


def read_tile(alphabet: "Alphabet", text: str, i: int) -> tuple[int, int] | None:
    """``(code, end)`` of the tile (or alias) that starts at ``text[i]``, longest first; None if none does."""
    return alphabet.tile_at(text, i)


@dataclass(frozen=True)
class ParsedPattern:
    """A parsed pattern: ``cells`` holds an array of allowed tile codes per cell, :data:`STAR` for a ``*``."""

    text: str
    cells: tuple["np.ndarray | None", ...]
    #: How many tiles the alphabet has (a cell allowing them all is a wildcard).
    any_code: int

    @property
    def has_star(self) -> bool:
        """Whether the pattern holds a ``*``."""
        return any(c is STAR for c in self.cells)

    @property
    def fixed(self) -> int:
        """How many cells are not stars: the shortest word the pattern matches."""
        return sum(1 for c in self.cells if c is not STAR)

    def tile_cells(self) -> list[np.ndarray]:
        """The cells that are not stars, in order (all of them for a pattern without ``*``)."""
        return [c for c in self.cells if c is not STAR]

    def segments(self) -> list[list[np.ndarray]]:
        """The runs of cells between stars (``a*b*c`` -> three runs; the first and last may be empty)."""
        out: list[list[np.ndarray]] = [[]]
        for c in self.cells:
            if c is STAR:
                out.append([])
            else:
                out[-1].append(c)
        return out


class _Sets:
    """The code sets of one alphabet that wildcards stand for."""

    def __init__(self, alphabet: "Alphabet") -> None:
        n = len(alphabet)
        self.size = n
        self.everything = np.arange(1, n + 1, dtype=np.uint8)
        vowel_codes = alphabet.vowel_codes
        self.vowels = np.array(sorted(vowel_codes), np.uint8)
        self.consonants = np.array([c for c in range(1, n + 1) if c not in vowel_codes], np.uint8)

    def wildcard(self, ch: str) -> np.ndarray | None:
        if ch in "?.":
            return self.everything
        if ch == "@":
            return self.vowels
        if ch == "#":
            return self.consonants
        return None


def parse(alphabet: "Alphabet", pattern: str) -> ParsedPattern:
    """Parse ``pattern`` against ``alphabet``; :class:`~lexigraph.errors.QueryError` says what is wrong.

    >>> import lexigraph
    >>> alphabet = lexigraph.open().alphabet
    >>> [c.tolist() if c is not None else "*" for c in parse(alphabet, "q[ui]*").cells]
    [[17], [9, 21], '*']
    >>> parse(alphabet, "q[u")
    Traceback (most recent call last):
    ...
    lexigraph.errors.QueryError: pattern 'q[u': '[' at position 1 has no closing ']'
    """
    if not isinstance(pattern, str):
        raise QueryError(f"a pattern must be a string, not {type(pattern).__name__}")
    if len(pattern) > MAX_PATTERN:
        raise QueryError(f"the pattern is longer than {MAX_PATTERN:,} characters")
    text = alphabet.prepare(pattern.strip())
    if not text:
        raise QueryError("the pattern is empty")
    where = f"pattern {quote(pattern)}"
    sets = _Sets(alphabet)
    cells: list[np.ndarray | None] = []
    i = 0
    while i < len(text):
        tile = read_tile(alphabet, text, i)
        if tile is not None:
            cells.append(np.array([tile[0]], np.uint8))
            i = tile[1]
            continue
        ch = text[i]
        wild = sets.wildcard(ch)
        if wild is not None:
            cells.append(wild)
        elif ch == "*":
            if not cells or cells[-1] is not STAR:
                cells.append(STAR)
        elif ch == "[":
            end = text.find("]", i + 1)
            if end < 0:
                raise QueryError(f"{where}: '[' at position {i} has no closing ']'")
            cells.append(_parse_set(alphabet, where, text[i + 1 : end], i + 1, sets))
            i = end
        elif ch == "]":
            raise QueryError(f"{where}: ']' at position {i} closes nothing")
        else:
            raise not_a_tile(where, ch, i)
        i += 1
    return ParsedPattern(pattern, tuple(cells), sets.size)


def _parse_set(alphabet: "Alphabet", where: str, body: str, offset: int, sets: _Sets) -> np.ndarray:
    """The codes ``[body]`` allows; ``offset`` is where ``body`` starts in the pattern (for messages)."""
    negate = body[:1] in ("^", "!")
    i = 1 if negate else 0
    chosen: set[int] = set()
    while i < len(body):
        tile = read_tile(alphabet, body, i)
        if tile is not None:
            chosen.add(tile[0])
            i = tile[1]
            continue
        ch = body[i]
        wild = sets.wildcard(ch)
        if wild is not None:
            chosen.update(wild.tolist())
        elif not ch.isspace() and ch != ",":
            raise not_a_tile(where, ch, offset + i)
        i += 1
    if not chosen and not negate:
        raise QueryError(f"{where}: the set [] allows no tile")
    if negate:
        chosen = set(range(1, sets.size + 1)) - chosen
    return np.array(sorted(chosen), np.uint8)
