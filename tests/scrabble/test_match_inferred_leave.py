"""The game document's ``engine_move_seen``: the position before the engine's last play or exchange as the person
saw it, from which the page infers what the engine kept."""

from __future__ import annotations

import random
import pytest

from lexigraph.scrabble.game import Game
from lexigraph.scrabble.inference import infer
from lexigraph.scrabble.match import ENGINE, HUMAN, Match
from lexigraph.scrabble.movegen import generate
from lexigraph.scrabble.position import Position

SCRABBLE = Game.preset("scrabble")


@pytest.fixture(scope="module")
def enable(open_lexicon):
    return open_lexicon()


def _human_moves(lex, m: Match, rng: random.Random, turns: int) -> None:
    for _ in range(turns):
        if m.over or m.turn != HUMAN:
            return
        plays = generate(lex, m.position(HUMAN), m.rack(HUMAN), top=5, sort="score", exchanges=False)
        m.play(lex, rng.choice(list(plays)).notation if len(plays) else "-")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_position_before_the_engines_move_is_what_the_person_saw(enable, seed):
    m = Match(enable, SCRABBLE, opponent="equity", seed=seed)
    assert m.state()["engine_move_seen"] is None  # no engine move yet
    rng = random.Random(seed)
    for _ in range(4):
        scores_before = list(m.scores)
        _human_moves(enable, m, rng, 1)
        if m.over:
            break
        last = m.turns[-1]
        seen = m.state()["engine_move_seen"]
        if last.seat != ENGINE or last.move.kind == "pass":
            assert seen is None
            continue
        pos = Position.from_cgp(seen["cgp"])
        assert pos.racks == ["", m.rack(HUMAN)]
        assert pos.scores == [scores_before[ENGINE], m.scores[HUMAN]]
        # the board before the engine's move: the person's move on board_before, the engine's tiles not yet down
        engine_squares = {(t.row, t.col) for t in last.move.tiles}
        rows = pos.board_text().split("\n")
        now = m.board.board_text().split("\n")
        for r, row in enumerate(now):
            for c, ch in enumerate(row):
                assert rows[r][c] == ("." if (r, c) in engine_squares else ch)
        move = seen["move"]
        assert move == (last.move.notation if last.move.kind == "play" else f"-{len(last.move.exchanged)}")
        # what infer reads: the move parses on that position, its tiles are the engine's
        inference = infer(enable, pos, move, max_leaves=0, samples=20, seed=seed)
        assert inference.observed.notation == move
    assert m.state(ENGINE)["engine_move_seen"] is None  # only the person is shown it


def test_a_game_over_shows_no_inference(enable):
    m = Match(enable, SCRABBLE, opponent="score", seed=4)
    rng = random.Random(4)
    for _ in range(60):
        if m.over:
            break
        _human_moves(enable, m, rng, 1)
    if not m.over:
        pytest.skip("the game did not end in 60 turns")
    assert m.state()["engine_move_seen"] is None


def test_a_restored_match_shows_the_same(enable):
    m = Match(enable, SCRABBLE, opponent="equity", seed=7)
    _human_moves(enable, m, random.Random(7), 2)
    again = Match.restore(enable, SCRABBLE, opponent="equity", seed=7,
                          turns=[m.turn_record(i) for i in range(len(m.turns))])
    assert again.state()["engine_move_seen"] == m.state()["engine_move_seen"] is not None
