"""The brute-force move oracle the move generator is held to: every play on a board for a rack, found by trying
every line segment and every arrangement of the rack's tiles, each checked and scored by the independent scorer
(:func:`lexigraph.scrabble.scoring.score_placements`), and random boards to try it on."""

from __future__ import annotations

import random
from itertools import permutations

from lexigraph.scrabble.game import Game
from lexigraph.scrabble.moves import IllegalPlay
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.scoring import score_placements
from lexigraph.scrabble.tiles import parse_rack

#: A play as the oracle and the tests key it: the squares it fills, each (row, column, tile code, blank).
Placement = frozenset[tuple[int, int, int, bool]]


def every_play(lex, pos: Position, rack: str) -> dict[Placement, int]:
    """Every legal play of ``rack`` on ``pos``: placement -> score. Blanks are tried as every tile."""
    game = pos.game
    codes = parse_rack(game, rack)
    tiles = range(1, len(game.alphabet) + 1)
    out: dict[Placement, int] = {}
    for empty in _segments(pos, len(codes)):
        for perm in set(permutations(codes, len(empty))):
            for assign in _assignments(perm, tiles):
                placed = [(r, c, t, b) for (r, c), (t, b) in zip(empty, assign)]
                key = frozenset(placed)
                if key in out:
                    continue
                try:
                    out[key] = score_placements(lex, pos, placed, rack).score
                except IllegalPlay:
                    continue
    return out


def _segments(pos: Position, most: int) -> list[list[tuple[int, int]]]:
    """The empty squares of every line segment that starts and ends on an empty square, at most ``most`` of them."""
    n = pos.game.size
    out = []
    for across in (True, False):
        for line in range(n):
            for s in range(n):
                for e in range(s, n):
                    squares = [(line, k) if across else (k, line) for k in range(s, e + 1)]
                    empty = [(r, c) for r, c in squares if not pos.codes[r * n + c]]
                    if empty and empty[0] == squares[0] and empty[-1] == squares[-1] and len(empty) <= most:
                        out.append(empty)
    return out


def _assignments(perm: tuple[int, ...], tiles: range) -> list[list[tuple[int, bool]]]:
    """Each way to play the tiles ``perm`` in order: a blank (code 0) as every tile, marked blank."""
    stack: list[list[tuple[int, bool]]] = [[]]
    for code in perm:
        choices = [(t, True) for t in tiles] if code == 0 else [(code, False)]
        stack = [a + [x] for a in stack for x in choices]
    return stack


def random_board(game: Game, rng: random.Random, codes: list[int], fill: float) -> Position:
    """A board with each square, with chance ``fill``, holding a random tile of ``codes`` (a fifth of them blanks)."""
    pos = Position(game)
    for i in range(game.size * game.size):
        if rng.random() < fill:
            pos.codes[i] = rng.choice(codes)
            pos.blanks[i] = rng.random() < 0.2
    return pos


def play_records(moves) -> bytes:
    """A list of plays only (no exchange, no pass) as its records' bytes, in rank order.

    Each record holds a play's square, direction, tiles, score and equity, so two lists are the same ranking exactly
    when these bytes are equal; comparing them builds no :class:`~lexigraph.scrabble.moves.Move` (a full ranking with
    blanks in the rack holds tens of thousands of plays, and building each one costs far more than generating it)."""
    columns = moves.columns
    assert columns is not None and len(columns) == len(moves), "plays only"
    return bytes(columns.records.tobytes())
