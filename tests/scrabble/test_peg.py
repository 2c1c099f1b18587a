"""The pre-endgame against a brute-force enumeration (every bag order of tiles told apart, plain minimax to the
end without the endgame solver), on both engines; its limits and errors."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import lru_cache

import pytest

import lexigraph
from lexigraph.errors import LexiconError
from lexigraph.scrabble.endgame import ZERO_TURNS_TO_END
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.movegen import generate_placements
from lexigraph.scrabble.moves import move_from_record
from lexigraph.scrabble.peg import scenarios, solve_peg
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.tiles import parse_rack, rack_text
from helpers.games import abcd_game, random_plays

WORDS = sorted({"ab", "ba", "ad", "da", "aa", "bad", "dab", "cab", "abc", "acad", "bach", "cadd", "dada", "aba",
                "bab", "bacd", "abcd", "bb", "cc", "dd", "cad", "dac", "caca", "dacb"})
GAME = abcd_game(size=6, count=3, blanks=1, rack_size=2)
#: The games of each bag size in the oracle test: racks one tile longer than the bag (no exchanges), few tiles.
GAMES = {1: GAME, 2: abcd_game(size=5, count=3, blanks=0, rack_size=3)}
#: The Python twin's 2-tile bag: the same racks and tiles on a 4x4 board (its endgames run in Python: on the 5x5
#: board one position costs 15-30 s of them, on this one about a second).
SMALL_BAG_2 = abcd_game(size=4, count=3, blanks=0, rack_size=3)


@pytest.fixture(scope="module")
def lex(open_lexicon):
    return open_lexicon(WORDS, alphabet=GAME.alphabet)


def random_peg(lex, seed: int, bag: int, game: Game = GAME) -> Position | None:
    """Random plays from random racks until the unseen tiles are a rack and ``bag`` more; the mover's rack."""
    rng = random.Random(seed)
    played = random_plays(lex, game, rng, game.rack_size * 2 + bag, exact=True, give_up=20)
    if played is None:
        return None
    pos, tiles = played
    pos.racks = [rack_text(game, tiles[: game.rack_size]), ""]
    pos.scores = [rng.randint(0, 30), rng.randint(0, 30)]
    return pos


def brute_force(lex, pos: Position, bag: int) -> dict[str, tuple[int, int, int, float]]:
    """Per play (notation, or "pass"): draws won, tied and lost, and the mean spread, over every order in which
    ``bag`` of the unseen tiles (each one told apart) may come out, both sides then playing their best knowing it."""
    game = pos.game
    points = game.points_by_code()
    pts = lambda rack: sum(points[c] for c in rack)  # noqa: E731

    @lru_cache(maxsize=None)
    def minimax(codes: tuple, blanks: tuple, mine: tuple, theirs: tuple, left: tuple, zeros: int) -> int:
        board = Position(game, list(codes), list(blanks))
        best = (pts(theirs) - pts(mine)) if zeros + 1 >= ZERO_TURNS_TO_END else \
            -minimax(codes, blanks, theirs, mine, left, zeros + 1)
        for raw in generate_placements(lex, board, rack_text(game, list(mine))):
            best = max(best, play(board, raw, mine, theirs, left))
        return best

    def play(board: Position, raw, mine: tuple, theirs: tuple, left: tuple) -> int:
        used = [0 if b & 0x80 else b for b in raw[4] if b]
        rest = Counter(mine)
        rest.subtract(used)
        new = sorted([*rest.elements(), *left[: len(used)]])
        if not new:
            return raw[0] + 2 * pts(theirs)
        after = board.with_play(move_from_record(board, list(mine), raw))
        return raw[0] - minimax(tuple(after.codes), tuple(after.blanks), theirs, tuple(new), left[len(used):], 0)

    mine = tuple(parse_rack(game, pos.racks[0]))
    unseen = pos.unseen()
    lead = pos.scores[0] - pos.scores[1]
    tally: dict[str, list] = {}
    for order in itertools.permutations(range(len(unseen)), bag):
        left = tuple(unseen[i] for i in order)
        theirs = tuple(sorted(unseen[i] for i in range(len(unseen)) if i not in order))
        results = {"pass": (pts(theirs) - pts(mine)) if pos.zero_turns + 1 >= ZERO_TURNS_TO_END else
                   -minimax(tuple(pos.codes), tuple(pos.blanks), theirs, mine, left, pos.zero_turns + 1)}
        for raw in generate_placements(lex, pos, pos.racks[0]):
            results[move_from_record(pos, list(mine), raw).notation] = play(pos, raw, mine, theirs, left)
        for name, value in results.items():
            row = tally.setdefault(name, [0, 0, 0, 0])
            row[0 if lead + value > 0 else 1 if lead + value == 0 else 2] += 1
            row[3] += value
    return {name: (w, t, lo, s / (w + t + lo)) for name, (w, t, lo, s) in tally.items()}


@pytest.mark.parametrize("bag", [1, 2])
def test_every_plays_counts_equal_the_brute_force(lex, engine_kind, bag):
    # The Python twin solves each of a 2-tile bag's endgames in Python: one position on the smaller board is its
    # share, from the second seed (the first one's position needs 15 s of endgames, the next ones a second).
    python_bag_2 = engine_kind == "python" and bag == 2
    wanted = 5 if bag == 1 else 1 if python_bag_2 else 2
    game = SMALL_BAG_2 if python_bag_2 else GAMES[bag]
    checked = 0
    seed = 1 if python_bag_2 else 0
    while checked < wanted and seed < 300:
        seed += 1
        pos = random_peg(lex, seed * 7 + bag, bag, game)
        if pos is None:
            continue
        solution = solve_peg(lex, pos)
        assert solution.exact and solution.bag == bag
        expected = brute_force(lex, pos, bag)
        got = {p.notation: (p.wins, p.draws, p.losses, p.mean_spread) for p in solution.plays}
        assert got.keys() == expected.keys(), pos.to_cgp()
        for name, (w, t, lo, mean) in expected.items():
            assert got[name][:3] == (w, t, lo), (pos.to_cgp(), name)
            assert got[name][3] == pytest.approx(mean), (pos.to_cgp(), name)
        assert solution.draws == len(list(itertools.permutations(range(len(pos.unseen())), bag)))
        best = solution.plays[0]
        assert all((best.wins + best.draws / 2, best.mean_spread) >= (p.wins + p.draws / 2, p.mean_spread)
                   for p in solution.plays)
        checked += 1
    assert checked == wanted


def test_scenarios_count_every_order_of_tiles_told_apart():
    rng = random.Random(3)
    for _ in range(30):
        unseen = sorted(rng.choice([1, 1, 2, 3, 0]) for _ in range(rng.randint(2, 7)))
        bag = rng.randint(1, min(3, len(unseen)))
        expected = Counter(tuple(unseen[i] for i in p) for p in itertools.permutations(range(len(unseen)), bag))
        assert dict(scenarios(unseen, bag)) == dict(expected)


def test_a_time_limit_answers_the_scenarios_done(lex):
    pos = next(p for s in range(1, 50) if (p := random_peg(lex, s, 2, GAMES[2])) is not None)
    cut = solve_peg(lex, pos, time_limit=1e-9)
    assert cut.scenarios == len(scenarios(pos.unseen(), 2))
    assert not cut.exact and cut.scenarios_done < cut.scenarios and cut.notes
    assert all(p.total == 0 for p in cut.plays) or cut.scenarios_done > 0


def test_positions_that_are_no_pre_endgame_are_refused(lex):
    pos = next(p for s in range(1, 50) if (p := random_peg(lex, s, 1)) is not None)
    empty = pos.copy()
    empty.racks = ["", ""]
    with pytest.raises(LexiconError, match="no tiles"):
        solve_peg(lex, empty)
    ended = pos.copy()
    tile = ended.unseen()[0]  # one more tile on the board: the unseen tiles are the opponent's rack alone
    ended.place(*divmod(ended.codes.index(0), GAME.size), tile or 1, tile == 0)
    with pytest.raises(LexiconError, match="endgame"):
        solve_peg(lex, ended)
    over = pos.copy()
    over.zero_turns = 6
    with pytest.raises(LexiconError, match="game is over"):
        solve_peg(lex, over)


def test_a_full_bag_is_refused():
    lex = lexigraph.load(WORDS, alphabet=GAME.alphabet)
    with pytest.raises(LexiconError, match="bag holds"):
        solve_peg(lex, Position(GAME, racks=["AB", ""]))
    with pytest.raises(LexiconError, match="candidates"):
        solve_peg(lex, Position(GAME, racks=["AB", ""]), candidates=0)


def test_a_tiny_game_by_hand():
    """Bag of one from S, S, T; the mover holds ZA: ZA scores 11 + 11 + 2 and 50 for the whole rack, and wins."""
    lex = lexigraph.load(["za", "zas", "at", "ta", "as", "cat", "cats", "scat", "tat", "tats"])
    tiny = Game.from_dict({"name": "tiny", "board": ["....."] * 5, "rack_size": 2, "blanks": 0,
                           "tiles": {"a": [2, 1], "c": [1, 3], "s": [2, 1], "t": [2, 1], "z": [1, 10]}})
    solution = solve_peg(lex, Position.from_cgp("5/5/1CAT1/5/5 ZA/ 0/0 0", tiny))
    assert (solution.bag, solution.draws) == (1, 3)
    za = next(p for p in solution.plays if p.notation == "2C ZA")
    assert (za.wins, za.draws, za.losses) == (3, 0, 0) and za.move is not None and za.move.score == 74


def test_three_tiles_in_the_bag_are_an_anytime_search(lex, monkeypatch):
    import lexigraph.scrabble.peg as peg

    game = abcd_game(size=6, count=4, blanks=0, rack_size=4)
    pos = next(p for s in range(1, 80) if (p := random_peg(lex, s, 3, game)) is not None)
    monkeypatch.setattr(peg, "DEFAULT_ANYTIME_SECONDS", 1e-9)  # no time limit given: the default budget applies
    cut = solve_peg(lex, pos)
    assert cut.bag == 3 and not cut.exact and cut.scenarios == len(scenarios(pos.unseen(), 3))
