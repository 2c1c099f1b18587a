"""Rack inference against an exhaustive oracle (every rack as tiles drawn, every move listed), on both engines."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable
from functools import cache

import pytest

import lexigraph
from lexigraph.errors import LexiconError
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.inference import count_multisets, infer, multisets
from lexigraph.scrabble.leaves import LeaveTable
from lexigraph.scrabble.movegen import generate
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.tiles import parse_rack, rack_text
from helpers.games import ABCD_WORDS, abcd_game, random_plays

GAME = abcd_game(size=7, count=3, blanks=1, rack_size=3)


def small_table(game: Game) -> LeaveTable:
    """Distinct values for every leave of 1 and 2 tiles: exchanges of the same size never tie."""
    rng = random.Random(36)
    leaves = {bytes(c) for n in (1, 2) for c in itertools.combinations_with_replacement(range(5), n)}
    return LeaveTable({k: round(rng.uniform(-9, 9), 3) for k in sorted(leaves)}, game.alphabet)


TABLE = small_table(GAME)


@pytest.fixture(scope="module")
def lex(engine_kind):
    return lexigraph.load(ABCD_WORDS, alphabet=GAME.alphabet, pure_python=engine_kind == "python")


def harvested(lex, seed: int, unseen: int) -> tuple[Position, list[int]] | None:
    """A position of random plays with at most ``unseen`` tiles left off the board, the observer's rack (0..3 of
    them) as the second rack, the first empty; and the opponent's true rack drawn from the rest."""
    rng = random.Random(seed)
    played = random_plays(lex, GAME, rng, unseen)
    if played is None:
        return None
    pos, bag = played
    mine = rng.randint(0, min(3, len(bag) - GAME.rack_size))
    pos.racks = ["", rack_text(GAME, bag[:mine])]
    return pos, bag[mine:mine + GAME.rack_size]


def observed_moves(lex, pos: Position, rack: list[int], rng: random.Random) -> list[str]:
    """A few of the moves the true rack had: plays by notation, exchanges as ``-N``, the pass."""
    moves = list(generate(lex, pos, rack_text(GAME, rack), exchanges=True, passes=True, leaves=TABLE, sort="equity"))
    plays = [m.notation for m in moves if m.kind == "play"]
    out = rng.sample(plays, min(3, len(plays)))
    if plays:
        out.append(plays[0])
    out.extend(f"-{len(parse_rack(GAME, m.exchanged))}" for m in moves[:8] if m.kind == "exchange")
    return out + ["-"]


def every_move(lex, pos: Position) -> Callable[[tuple[int, ...]], list]:
    """``moves(rack)``: every move of ``rack`` (its tiles' codes, sorted) in ``pos``, listed by ``generate`` once per
    rack, however many draws, observed moves and margins ask for it."""

    @cache
    def moves(rack: tuple[int, ...]) -> list:
        return list(generate(lex, pos, rack_text(GAME, list(rack)), exchanges=True, passes=True, leaves=TABLE,
                             sort="equity"))

    return moves


def oracle(lex, pos: Position, observed: str, margin: float,
           moves_of: Callable[[tuple[int, ...]], list] | None = None) -> dict[tuple[int, ...], float]:
    """Every rack as a draw of distinct tiles (each draw equally likely), its every move listed by ``generate``:
    the leave the observed move keeps when it is within ``margin`` of the best, counted per draw."""
    moves_of = moves_of or every_move(lex, pos)
    unseen = pos.unseen(pos.racks[1])
    size = min(GAME.rack_size, len(unseen))
    counts: Counter[tuple[int, ...]] = Counter()
    for chosen in itertools.combinations(range(len(unseen)), size):
        moves = moves_of(tuple(sorted(unseen[i] for i in chosen)))
        best = max(m.equity for m in moves)
        if observed == "-":
            made = [m for m in moves if m.kind == "pass"]
        elif observed.startswith("-"):
            n = int(observed[1:])
            made = [m for m in moves if m.kind == "exchange" and len(parse_rack(GAME, m.exchanged)) == n][:1]
        else:
            made = [m for m in moves if m.kind == "play" and m.notation == observed]
        if made and (math.isinf(margin) or made[0].equity >= best - margin - 1e-9):
            counts[tuple(sorted(parse_rack(GAME, made[0].leave)))] += 1
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}


@pytest.mark.parametrize("seed", range(12))
def test_inference_equals_the_exhaustive_oracle(lex, seed):
    found = harvested(lex, seed, unseen=9 if seed % 2 else 11)
    if found is None:
        pytest.skip("the random game stalled")
    pos, rack = found
    rng = random.Random(seed)
    checked = 0
    moves_of = every_move(lex, pos)
    for observed in observed_moves(lex, pos, rack, rng):
        for margin in (0.0, 3.0, math.inf):
            answer = infer(lex, pos, observed, margin=margin, leaves=TABLE)
            assert answer.exact
            expected = oracle(lex, pos, observed, margin, moves_of)
            got = {leave.codes: leave.probability for leave in answer.leaves}
            assert got.keys() == expected.keys(), (pos.to_cgp(), observed, margin)
            for k, p in expected.items():
                assert got[k] == pytest.approx(p, abs=1e-9), (pos.to_cgp(), observed, margin, k)
            assert answer.consistent == len(expected)
            checked += bool(expected)
    assert checked  # the true rack's own moves are consistent at an infinite margin


def test_weights_by_hand():
    """The tiny game of the docstring: ZA played from the unseen AASSTZ (C, A, T on the board)."""
    lex = lexigraph.load(["za", "zas", "at", "ta", "as", "cat", "cats", "scat"])
    tiny = Game.from_dict({"name": "tiny", "board": ["....."] * 5, "rack_size": 3, "blanks": 0,
                           "tiles": {"a": [3, 1], "c": [1, 3], "s": [2, 1], "t": [2, 1], "z": [1, 10]}})
    pos = Position.from_cgp("5/5/1CAT1/5/5 / 0/0 0", tiny)
    # ZA + A: C(2,2) = 1 draw; ZA + S: C(2,1) C(2,1) = 4; ZA + T: C(2,1) C(1,1) = 2
    prior = {leave.leave: leave.probability for leave in infer(lex, pos, "2C ZA", margin=math.inf).leaves}
    assert prior == pytest.approx({"A": 1 / 7, "S": 4 / 7, "T": 2 / 7})
    # with S, 2C ZAS (a better play by score: no leave table) is there, so at margin 0 the S racks drop out
    exact = {leave.leave: leave.probability for leave in infer(lex, pos, "2C ZA", margin=0).leaves}
    assert exact == pytest.approx({"A": 1 / 3, "T": 2 / 3})


def test_sampling_approaches_the_exact_answer(lex):
    found = harvested(lex, 3, unseen=11)
    assert found is not None
    pos, rack = found
    move = generate(lex, pos, rack_text(GAME, rack), top=1, leaves=TABLE, exchanges=False)[0].notation
    exact = infer(lex, pos, move, margin=math.inf, leaves=TABLE)
    sampled = infer(lex, pos, move, margin=math.inf, leaves=TABLE, max_leaves=0, samples=4000, seed=5)
    assert not sampled.exact and sampled.samples == 4000
    got = {leave.codes: leave.probability for leave in sampled.leaves}
    distance = sum(abs(got.get(leave.codes, 0.0) - leave.probability) for leave in exact.leaves) / 2
    assert distance < 0.06
    again = infer(lex, pos, move, margin=math.inf, leaves=TABLE, max_leaves=0, samples=4000, seed=5)
    assert [(x.codes, x.probability) for x in again.leaves] == [(x.codes, x.probability) for x in sampled.leaves]


def test_multisets_agree_with_their_count():
    rng = random.Random(1)
    for _ in range(50):
        available = [rng.randint(0, 3) for _ in range(rng.randint(1, 5))]
        size = rng.randint(0, sum(available))
        listed = list(multisets(available, size))
        assert len(listed) == len(set(listed)) == count_multisets(available, size)
        tiles = [c for c, n in enumerate(available) for _ in range(n)]
        brute = {tuple(Counter(x)[c] for c in range(len(available))) for x in itertools.combinations(tiles, size)}
        assert set(listed) == brute


@pytest.mark.parametrize("args, message", [
    (("AS", "2C ZA"), "leave their rack"),
    (("", "-9"), "exchange gives back 1 to 3"),
    (("", "2C ZA", {"margin": -1}), "margin"),
    (("", "2C ZA", {"margin": float("nan")}), "margin"),
    (("", "2C ZA", {"samples": 0}), "samples"),
    (("", 3.5), "must be text"),
    (("", "2C QQ"), "Q"),
])
def test_bad_input_is_one_clear_error(args, message):
    lex = lexigraph.load(["za", "zas", "at", "ta", "as", "cat", "cats", "scat"])
    tiny = Game.from_dict({"name": "tiny", "board": ["....."] * 5, "rack_size": 3, "blanks": 0,
                           "tiles": {"a": [3, 1], "c": [1, 3], "s": [2, 1], "t": [2, 1], "z": [1, 10]}})
    pos = Position.from_cgp(f"5/5/1CAT1/5/5 {args[0]}/ 0/0 0", tiny)
    options = args[2] if len(args) > 2 else {}
    with pytest.raises(LexiconError, match=message):
        infer(lex, pos, args[1], **options)


def test_no_consistent_rack_is_an_empty_answer_that_says_so():
    lex = lexigraph.load(["za", "zas", "at", "ta", "as", "cat", "cats", "scat"])
    tiny = Game.from_dict({"name": "tiny", "board": ["....."] * 5, "rack_size": 3, "blanks": 0,
                           "tiles": {"a": [3, 1], "c": [1, 3], "s": [2, 1], "t": [2, 1], "z": [1, 10]}})
    pos = Position.from_cgp("5/5/1CAT1/5/5 /Z 0/0 0", tiny)  # the Z is ours: AT for 2 is never their best
    answer = infer(lex, pos, "2D AT", margin=0)
    assert answer.leaves == [] and answer.notes
    with pytest.raises(GameError):
        answer.draw(random.Random(0))
