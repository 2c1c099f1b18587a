"""Scoring and legality of a play (scrabble/scoring.py), and its agreement with the generator, on both engines."""

from __future__ import annotations

import pytest

from lexigraph.scrabble.game import Game
from lexigraph.scrabble.movegen import generate
from lexigraph.scrabble.moves import IllegalPlay
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.scoring import score_placements, score_play


def test_scoring_and_reasons(open_lexicon):
    lex = open_lexicon(["cat", "cats", "at", "as", "ta", "act", "scat", "tact"], alphabet="english")
    pos = Position(Game.preset("scrabble"), racks=["CATS", ""])
    m = score_play(lex, pos, "8H CAT")
    assert m.score == 10 and m.leave == "S"  # (3 + 1 + 1) * 2 on the star
    with pytest.raises(IllegalPlay) as e:
        score_play(lex, pos, "8A CAT")
    assert e.value.reason == "first move off the centre"
    pos2 = pos.with_play(m)
    m2 = score_play(lex, pos2, "8H CATS")
    assert m2.words == ("cats",) and m2.score == 6
    m3 = score_play(lex, pos2, "H8 (C)AT", rack="AT")
    assert m3.score == 5 and m3.words == ("cat",)
    for play, rack, reason in [("8A CAT", "T", "not connected"), ("1A TA", "T", "not connected"),
                               ("8K TA", "T", "not on rack"), ("H9 A", "T", "not on rack"),
                               ("8K TA", "TA", "not in lexicon")]:
        with pytest.raises(IllegalPlay) as e:
            score_play(lex, pos2, play, rack=rack)
        assert e.value.reason == reason, (play, e.value)
    with pytest.raises(IllegalPlay) as e:
        score_placements(lex, pos2, [(9, 7, 1, False), (10, 8, 20, False)], "AT")
    assert e.value.reason == "not in line"
    with pytest.raises(IllegalPlay) as e:
        score_placements(lex, pos2, [(7, 11, 1, False), (7, 13, 20, False)], "AT")
    assert e.value.reason == "gap"
    # the S hooks CAT from a rack with a blank to spare; ST at 8L touches nothing
    hooked = score_play(lex, pos2, "8H CATS", rack="S?")
    assert hooked.score == 6 and hooked.leave == "?" and hooked.notation == "8H (CAT)S"
    with pytest.raises(IllegalPlay) as e:
        score_play(lex, pos2, "8L ST", rack="ST")
    assert e.value.reason == "not connected"
    with pytest.raises(IllegalPlay) as e:
        score_play(lex, pos2, "9H AA", rack="AA")
    assert e.value.reason == "not in lexicon" and set(e.value.words) >= {"aa"}


def test_bingo_and_blank_scores(open_lexicon):
    lex = open_lexicon(["abcdefg", "ab"], alphabet="english")
    pos = Position(Game.preset("scrabble"))
    moves = generate(lex, pos, "ABCDEF?")
    # 8G ABCDEFg: 1+3+3+2+1+4 with F on the double letter at 8L, the blank 0, doubled on the star, plus 50
    assert (moves[0].word, moves[0].notation, moves[0].score) == ("abcdefg", "8G ABCDEFg", 50 + 2 * (14 + 4))
    for m in moves:
        if m.word == "abcdefg":
            assert m.score == score_play(lex, pos, m.notation, rack="ABCDEF?").score
