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


# -- the game as data: turn records made again into the same match (a server's games file) --------------------

def records(m: Match) -> list[dict]:
    import json

    return json.loads(json.dumps([m.turn_record(i) for i in range(len(m.turns))]))  # as the file holds them


def restored(lex, m: Match, turns: list[dict]) -> Match:
    return Match.restore(lex, m.game, opponent=m.opponent, human_first=m.first == HUMAN, seed=m.seed,
                         lexicon_name=m.lexicon_name, turns=turns)


def same_game(a: Match, b: Match) -> None:
    assert snapshot(a) == snapshot(b)
    assert a.state() == b.state() and a.gcg() == b.gcg()
    assert (a.over, a.ending, a.adjustments, a.left) == (b.over, b.ending, b.adjustments, b.left)


@pytest.mark.parametrize("opponent", ["score", "equity"])
def test_a_restored_game_is_the_game_on_each_engine(open_lexicon, opponent):
    """After every turn of a whole game: the records made again give the same match, which goes on alike."""
    lex = open_lexicon()
    m = Match(lex, SCRABBLE, opponent=opponent, human_first=opponent == "equity", seed=23, lexicon_name="enable")
    rng = random.Random(23)
    while not m.over:
        again = restored(lex, m, records(m))
        same_game(again, m)
        moves = m.legal_moves(lex, top=10)
        chosen = moves[rng.randrange(len(moves))].notation
        assert again.play(lex, chosen) == m.play(lex, chosen)  # the replayed match plays on as the original
        same_game(again, m)
    same_game(restored(lex, m, records(m)), m)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**64 - 1), human_first=st.booleans(), turns=st.integers(0, 30))
def test_random_games_restore_at_any_turn(enable, seed, human_first, turns):
    m = Match(enable, SCRABBLE, opponent="equity", human_first=human_first, seed=seed)
    rng = random.Random(seed)
    for _ in range(turns):
        if m.over:
            break
        moves = m.legal_moves(enable, top=10)
        m.play(enable, moves[rng.randrange(len(moves))].notation)  # exchanges too: the bag reshuffled by the seed
    same_game(restored(enable, m, records(m)), m)


def forged(turns: list[dict], path: tuple, value: object) -> list[dict]:
    import copy

    out = copy.deepcopy(turns)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


def test_forged_records_are_refused_naming_the_turn(enable):
    m = Match(enable, SCRABBLE, opponent="score", human_first=True, seed=2)
    m.play(enable, "8D BAWTIE")
    m.play(enable, m.legal_moves(enable, top=1)[0].notation)
    good = records(m)
    assert good[0]["move"]["kind"] == "play" and good[2]["move"]["kind"] == "play"
    taken = good[0]["move"]["tiles"][0][:2]
    cases = [
        ((0, "rack"), "AABEITZ"),                                       # a rack the deal did not give
        ((0, "seat"), "lexigraph"),                                     # the seat not on turn
        ((0, "total"), 99),                                             # a total the score does not make
        ((0, "move", "score"), -1),
        ((0, "move", "score"), True),
        ((0, "move", "kind"), "steal"),
        ((0, "move", "tiles"), []),                                     # a play of no tiles
        ((0, "move", "tiles", 0), [7, 3, "q", False]),                  # a tile not on the rack
        ((0, "move", "tiles", 0), [99, 3, "b", False]),                 # off the board
        ((0, "move", "tiles", 0), [7, 3, "b"]),
        ((0, "move", "tiles", 0, 2), "é"),                              # a tile the game lacks
        ((0, "move", "equity"), "high"),
        ((0, "move", "words"), "BAWTIE"),
        ((0, "move", "notation"), "x" * 5000),
        ((0, "analysis"), [1, 2]),
        ((2, "move", "tiles", 0), [*taken, "a", False]),                # a tile on a taken square
        ((1, "move", "kind"), "exchange"),                              # an exchange of nothing
        ((0,), "8D BAWTIE"),
    ]
    for path, value in cases:
        with pytest.raises(GameError, match=r"^turn \d+ of the record: ") as e:
            restored(enable, m, forged(good, path, value))
        assert "Traceback" not in str(e.value), (path, value)
    with pytest.raises(GameError, match="was over before it"):
        over = Match(enable, SCRABBLE, opponent="score", seed=5)
        play_out(enable, over, random.Random(5))
        restored(enable, over, records(over) + records(over)[-1:])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_change_to_a_record_is_refused_or_replayed_as_written(enable, data):
    """A record changed anywhere (a value replaced by any JSON value) restores to a match that records exactly
    what it was given, or is refused with a GameError: never another exception, never a silent repair."""
    m = Match(enable, SCRABBLE, opponent="equity", human_first=True, seed=31)
    rng = random.Random(31)
    for _ in range(4):
        moves = m.legal_moves(enable, top=5)
        m.play(enable, moves[rng.randrange(len(moves))].notation)
    good = records(m)
    paths = []

    def walk(node, path):
        paths.append(path)
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in children:
            walk(v, path + (k,))

    walk(good, ())
    path = data.draw(st.sampled_from([p for p in paths if p]))
    json_values = st.recursive(st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False)
                               | st.text(max_size=8), lambda inner: st.lists(inner, max_size=4)
                               | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=8)
    turns = forged(good, path, data.draw(json_values))
    try:
        again = restored(enable, m, turns)
    except GameError:
        return
    assert records(again) == turns  # accepted: what it holds is what it was given
