"""scrabble.match: games between a person and an engine player, held to independent oracles.

Every play a match accepts is scored again by the independent scorer (``scoring.score_play``, which does not use
the move generator the match checks plays with); the bag, the racks and the board account for every tile of the
game after every turn; illegal moves (phonies, tiles not on the rack, plays that touch nothing, a first play off
the centre, exchanges from a small bag) are refused and change nothing; the record read back by ``gcg.read_gcg``
replays to the match's board and its points sum to the final scores.
"""

from __future__ import annotations

import importlib.util
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.gcg import read_gcg
from lexigraph.scrabble.match import ENGINE, HUMAN, Match
from lexigraph.scrabble.moves import IllegalPlay
from lexigraph.scrabble.scoring import score_play
from lexigraph.scrabble.tiles import parse_rack

SCRABBLE = Game.preset("scrabble")


def every_tile(m: Match) -> Counter:
    """The bag, both racks and the board's tiles (a blank counted as a blank), by code."""
    tiles = Counter(m.bag)
    tiles.update(m.racks[HUMAN])
    tiles.update(m.racks[ENGINE])
    tiles.update(0 if blank else code for code, blank in zip(m.board.codes, m.board.blanks) if code)
    return tiles


def full_bag(game: Game) -> Counter:
    return Counter({code: n for code, n in enumerate(game.counts_by_code()) if n})


def snapshot(m: Match) -> tuple:
    return (list(m.board.codes), list(m.board.blanks), [list(r) for r in m.racks], list(m.bag), list(m.scores),
            len(m.turns), m.turn, m.zero_turns)


def check_turns(lex, m: Match, seen: int) -> None:
    """Every turn made since ``seen``: plays re-scored from the position before them (replayed from the GCG)."""
    record = read_gcg(m.gcg())
    plays = [k for k, e in enumerate(record.events) if e.kind in ("play", "exchange", "pass")]
    for k in plays[seen:]:
        turn = m.turns[plays.index(k)]
        if turn.move.kind != "play":
            continue
        before = record.replay(k)
        again = score_play(lex, before, turn.move.notation, rack=turn.rack)
        assert again.score == turn.move.score, turn.move.notation
        assert sorted(again.tiles) == sorted(turn.move.tiles)


def play_out(lex, m: Match, rng: random.Random, *, max_turns: int = 200) -> None:
    """The person plays a random move among the ten best (plays, exchanges, the pass) until the game ends."""
    full = full_bag(m.game)
    for _ in range(max_turns):
        assert every_tile(m) == full
        if m.over:
            break
        seen = len(m.turns)
        moves = m.legal_moves(lex, top=10)
        chosen = moves[rng.randrange(len(moves))]
        done = m.play(lex, chosen.notation)
        assert done["played"]["notation"] == chosen.notation
        assert done["analysis"]["rank"] >= 1 and len(done["analysis"]["best"]) <= 5
        check_turns(lex, m, seen)
    assert m.over
    assert every_tile(m) == full


def check_end(m: Match) -> None:
    record = read_gcg(m.gcg())
    assert record.replay().codes == m.board.codes
    totals: dict[str, int] = {}
    for e in record.events:
        totals[e.player] = totals.get(e.player, 0) + e.score
        assert totals[e.player] == e.total
    assert totals == {"player": m.scores[HUMAN], "lexigraph": m.scores[ENGINE]}
    points = SCRABBLE.points_by_code()
    left = [sum(points[c] for c in parse_rack(SCRABBLE, r)) for r in m.left]
    if m.ending == "out":
        out = m.turns[-1].seat
        assert m.left[out] == "" and m.adjustments[out] == 2 * left[1 - out] and m.adjustments[1 - out] == 0
    else:
        assert m.ending == "zeros" and m.adjustments == [-left[0], -left[1]]


@pytest.mark.parametrize("opponent", ["score", "equity"])
def test_a_whole_game_on_each_engine(open_lexicon, opponent):
    lex = open_lexicon()
    m = Match(lex, SCRABBLE, opponent=opponent, human_first=opponent == "score", seed=11)
    play_out(lex, m, random.Random(11))
    check_end(m)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**64 - 1), human_first=st.booleans(), opponent=st.sampled_from(["score", "equity"]))
def test_random_games_keep_every_tile_and_every_score(enable, seed, human_first, opponent):
    m = Match(enable, SCRABBLE, opponent=opponent, human_first=human_first, seed=seed)
    play_out(enable, m, random.Random(seed))
    check_end(m)


def test_the_same_seed_deals_the_same_game(enable):
    a = Match(enable, SCRABBLE, opponent="equity", human_first=False, seed=7)
    b = Match(enable, SCRABBLE, opponent="equity", human_first=False, seed=7)
    assert a.gcg() == b.gcg() and a.rack(HUMAN) == b.rack(HUMAN)
    assert len(a.turns) == 1 and a.turns[0].seat == ENGINE and a.turn == HUMAN


def test_illegal_moves_are_refused_and_change_nothing(enable):
    m = Match(enable, SCRABBLE, opponent="score", human_first=True, seed=2)
    rack = m.rack(HUMAN)                                  # AABEITW
    before = snapshot(m)
    refused = {
        "8H BAWTE": "not in lexicon",                     # a phony
        "8H ZAX": "not on rack",                          # tiles the rack lacks
        "1A BAIT": "first move off the centre",
        "8H B?T": "malformed",
        "-ZZ": "not on rack",
        "8H": "malformed",
    }
    for text, reason in refused.items():
        with pytest.raises(IllegalPlay) as err:
            m.play(enable, text)
        assert err.value.reason == reason, (text, str(err.value))
        assert snapshot(m) == before
    m.play(enable, "8D BAWTIE")
    assert m.rack(HUMAN) != rack
    before = snapshot(m)
    # A word of the new rack put in a corner touches nothing on the board.
    from lexigraph.scrabble.movegen import generate
    from lexigraph.scrabble.position import Position

    alone = generate(enable, Position(SCRABBLE, racks=[m.rack(HUMAN), ""]), m.rack(HUMAN), top=1)[0]
    corner = f"1A {alone.notation.split(' ')[1]}"
    with pytest.raises(IllegalPlay) as err:
        m.play(enable, corner)
    assert err.value.reason == "not connected"
    assert snapshot(m) == before


def test_an_exchange_needs_a_full_bag_and_tiles_on_the_rack(enable):
    m = Match(enable, SCRABBLE, opponent="score", human_first=True, seed=4)
    rack = m.rack(HUMAN)
    bag = m.bag_count()
    done = m.play(enable, f"exchange {rack[:3]}")
    assert done["played"]["kind"] == "exchange" and done["played"]["exchanged"] == "".join(sorted(rack[:3]))
    assert m.turns[0].move.score == 0 and every_tile(m) == full_bag(SCRABBLE)
    assert m.bag_count() <= bag
    m.bag[:] = m.bag[:3]                                  # a bag of three: no exchange
    m.turn = HUMAN
    with pytest.raises(IllegalPlay) as err:
        m.play(enable, "-" + m.rack(HUMAN)[0])
    assert err.value.reason == "bag too small"


def test_six_scoreless_turns_end_the_game():
    lex = lexigraph.load(["abcdefghijklm", "nopqrstuvwxyz"])  # no rack spells a word: passes and exchanges only
    m = Match(lex, SCRABBLE, opponent="score", human_first=True, seed=3)
    while not m.over:
        m.play(lex, "-")
    assert m.ending == "zeros" and len(m.turns) == 6 and all(t.move.score == 0 for t in m.turns)
    assert [t.move.kind for t in m.turns[1::2]] == ["exchange"] * 3   # the score player gives its rack back
    check_end(m)
    assert every_tile(m) == full_bag(SCRABBLE)
    with pytest.raises(GameError):
        m.play(lex, "-")


def test_moves_out_of_turn_and_bad_arguments_are_refused(enable):
    with pytest.raises(GameError):
        Match(enable, SCRABBLE, opponent="random")
    with pytest.raises(GameError):
        Match(enable, SCRABBLE, seed=-1)
    m = Match(enable, SCRABBLE, opponent="score", seed=1)
    with pytest.raises(GameError):
        m.engine_turn(enable)
    with pytest.raises(GameError):
        m.play(enable, 7)  # type: ignore[arg-type]
    with pytest.raises(IllegalPlay):
        m.play(enable, "8H " + "A" * 500)


def test_the_state_hides_the_engines_rack_until_the_end(enable):
    m = Match(enable, SCRABBLE, opponent="equity", human_first=True, seed=5)
    doc = m.state()
    assert doc["rack"] == m.rack(HUMAN) and m.rack(ENGINE) not in str(doc)
    unseen = Counter()
    for label, n in doc["unseen"].items():
        unseen.update({label: n})
    assert sum(unseen.values()) == m.bag_count() + len(m.racks[ENGINE])
    assert doc["endgame_cgp"] is None


def test_the_simulation_opponent(enable):
    if importlib.util.find_spec("lexigraph.scrabble.simulation") is None:
        with pytest.raises(GameError, match="simulation"):
            Match(enable, SCRABBLE, opponent="simulation")
        return
    m = Match(enable, SCRABBLE, opponent="simulation", human_first=False, seed=3)
    assert len(m.turns) == 1 and every_tile(m) == full_bag(SCRABBLE)
