"""A small Scrabble-like game on the tiles a, b, c, d and its word list: the scrabble tests' shared fixture data.

Small enough that the oracles (every placement, every sequence of plays, every leave) run in a test.
"""

from __future__ import annotations

import random

from lexigraph.alphabet import Alphabet
from lexigraph.lexicon import Lexicon
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.leaves import LeaveTable
from lexigraph.scrabble.movegen import generate_placements
from lexigraph.scrabble.moves import move_from_record
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.selfplay import Player, autoplay
from lexigraph.scrabble.tiles import rack_text

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


def random_plays(lex: Lexicon, game: Game, rng: random.Random, left: int, *, exact: bool = False,
                 give_up: int = 5) -> tuple[Position, list[int]] | None:
    """From a shuffled full bag, random plays from random racks until at most ``left`` tiles are unseen (none on
    the board); the position (racks empty) and those tiles. ``exact``: no play takes more tiles than would land
    below ``left``, and anything but exactly ``left`` is None. None as well after ``give_up`` racks in a row
    that play nothing."""
    pos = Position(game)
    tiles = [c for c, n in enumerate(game.counts_by_code()) for _ in range(n)]
    rng.shuffle(tiles)
    misses = 0
    while len(tiles) > left:
        rack = [tiles.pop() for _ in range(game.rack_size)]
        excess = len(tiles) + len(rack) - left
        plays = [raw for raw in generate_placements(lex, pos, rack_text(game, rack))
                 if not exact or sum(1 for b in raw[4] if b) <= excess]
        if not plays:
            tiles[:0] = rack
            misses += 1
            if misses > give_up:
                return None
            continue
        raw = rng.choice(plays)
        pos = pos.with_play(move_from_record(pos, rack, raw))
        for b in raw[4]:
            if b:
                rack.remove(0 if b & 0x80 else b)
        tiles[:0] = rack
    if exact and len(tiles) != left:
        return None
    return pos, tiles


def harvested(lex: Lexicon, game: Game, table: LeaveTable, seed: int, at: int) -> Position:
    """The position before turn ``at`` (or the last turn) of a seeded self-play game, equity against equity: the
    mover's rack first, the other's empty, both scores kept."""
    run = autoplay(lex, game, [Player.equity(table, "a"), Player.equity(table, "b")], games=1, seed=seed,
                   workers=1, keep_games=True)
    at = min(at, len(run.game_turns(0)) - 1)
    for i, (turn, pos, totals, _) in enumerate(run.replay(0)):
        if i == at:
            mover = int(turn["player"])
            pos.racks = [rack_text(run.game, [int(c) for c in turn["rack"][: turn["rack_length"]]]), ""]
            pos.scores = [totals[mover], totals[1 - mover]]
            return pos
    raise AssertionError("a kept game has a turn")
