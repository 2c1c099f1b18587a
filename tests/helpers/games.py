"""A small Scrabble-like game on the tiles a, b, c, d and its word list: the scrabble tests' shared fixture data.

Small enough that the oracles (every placement, every sequence of plays, every leave) run in a test.
"""

from __future__ import annotations

from lexigraph.alphabet import Alphabet
from lexigraph.scrabble.game import Game

#: The words of the abcd game.
ABCD_WORDS = sorted({
    "ab", "ba", "ad", "da", "ca", "ac", "abc", "cab", "bad", "dab", "cad", "add", "dad", "abba", "baba",
    "acad", "bach", "cadd", "dada", "aba", "bab", "dabs", "bacd", "abcd", "aa", "bb", "cc", "dd", "abcab",
})


def abcd_game(size: int = 7, count: int = 6, blanks: int = 2, rack_size: int = 4) -> Game:
    """Scrabble's board cut to ``size``, a bag of ``count`` of each of a, b, c, d (1, 3, 4 and 2 points) and
    ``blanks`` blanks, racks of ``rack_size`` (a small count empties the bag soon)."""
    base = Game.preset("scrabble").resized(size)
    alpha = Alphabet(["a", "b", "c", "d"], name="abcd", counts={t: count for t in "abcd"},
                     points={"a": 1, "b": 3, "c": 4, "d": 2}, blanks=blanks, vowels=["a"])
    return Game(name="abcd", alphabet=alpha, board=base.board, start=base.start,
                tiles={t: (count, p) for t, p in zip("abcd", (1, 3, 4, 2))}, blanks=blanks, rack_size=rack_size,
                bingo_bonus=20)
