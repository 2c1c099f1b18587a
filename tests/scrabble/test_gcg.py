"""GCG game records (scrabble/gcg.py): reading, replay and analysis, and a game written from generated moves read back
to the same board."""

from __future__ import annotations

import re

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.gcg import analyze, read_gcg
from lexigraph.scrabble.movegen import generate
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.scoring import score_play


def test_gcg_replay_and_analyze(open_lexicon, gcg_text):
    enable = open_lexicon()
    rec = read_gcg(gcg_text)
    assert rec.players == ["alice", "bob"] and rec.lexicon == "ENABLE"
    kinds = [e.kind for e in rec.events]
    assert kinds == ["play", "play", "withdrawn", "play", "exchange", "pass", "challenge", "end"]
    after_phony = rec.replay(2)
    assert after_phony.tile_at(3, 7) == "Q"
    withdrawn = rec.replay(3)
    assert withdrawn.tile_at(3, 7) is None and withdrawn.racks[0] == "OOPSXYZ"
    assert rec.replay().scores == [113, 5]
    report = analyze(enable, rec, top=2, sort="score")
    assert [r["turn"] for r in report] == [1, 2, 4, 5, 6]
    first = report[0]
    assert first["legal"] and first["score"] == 66 and first["equals_best"]
    assert report[1]["legal"] is False and "QUIZI" in report[1]["reason"]
    assert report[2]["score"] == score_play(enable, rec.replay(3), "9E SOX", rack="OOPSXYZ").score


@pytest.mark.parametrize("bad", [
    ">alice RETAINS 8D +66 66",
    ">alice: AEINRST 8D RETAINS +x 66",
    ">alice: AEINRST 99Z RETAINS +66 66",
    ">alice: AEINRST 8M RETAINS +66 66",
    "hello",
])
def test_malformed_gcg(bad):
    with pytest.raises(GameError):
        rec = read_gcg("#player1 alice A\n#player2 bob B\n" + bad + "\n")
        rec.replay()


def test_gcg_notes_may_run_over_lines():
    rec = read_gcg("#player1 a A\n#player2 b B\n#note a long note\nthat goes on\n>a: AEINRST 8D RETAINS +66 66\n")
    assert [e.kind for e in rec.events] == ["play"]
    with pytest.raises(GameError):
        read_gcg("#player1 a A\nstray line\n")


def test_a_game_of_generated_moves_replays_to_the_same_board(open_lexicon):
    """Best moves played from a fixed bag, written as GCG by hand, read back: the replay is the board played."""
    lex = open_lexicon()
    game = Game.preset("scrabble")
    bag = list("AEINRSTOLUDGCMPBHFWYKVJXQZ" * 3)
    pos = Position(game)
    lines = ["#player1 ann Ann", "#player2 bob Bob"]
    totals = [0, 0]
    for turn in range(6):
        rack = "".join(bag[turn * 7:turn * 7 + 7])
        best = generate(lex, pos, rack, top=1)
        if not best:
            break
        move = best[0]
        player = turn % 2
        totals[player] += move.score
        square, word = move.notation.split()
        # GCG marks each tile already on the board with a dot
        word = re.sub(r"\(([^)]*)\)", lambda m: "." * len(m.group(1)), word)
        lines.append(f">{['ann', 'bob'][player]}: {rack} {square} {word} +{move.score} {totals[player]}")
        pos = pos.with_play(move)
    record = read_gcg("\n".join(lines) + "\n")
    replayed = record.replay()
    assert replayed.codes == pos.codes and replayed.blanks == pos.blanks
    assert replayed.scores == totals
    assert all(r["legal"] and r["equals_best"] for r in analyze(lex, record, top=1))


# -- hostile records: generated and mutated, in a child with a memory cap ------------------------------

_GCG_SEEDS = [
    "#player1 ann Ann\n#player2 bob Bob\n>ann: AEINRST 8D RETAINS +66 66\n>bob: EIOPSXY 9E SOX +39 39\n"
    ">ann: ABDEGLO E5 BOD(E) +16 82\n>bob: EIPYAGT -AGT +0 39\n",
    "#player1 a A\n#player2 b B\n>a: CATRSXY 8G CAT +10 10\n>b: AEIOU?? H7 A. +2 2\n>b: AEIOU?? -- -2 0\n"
    ">a: XY (challenge) +5 15\n>b: AEIOU?? (time) -10 -10\n>a: (AE) +2 17\n",
    "#note a\nnote over lines\n>a: ZZ - +0 0\n",
]
_GCG_CHARS = ">#:+-() ?.\nAEIOUSTXZaz0123456789١٢8HG"


NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


@settings(max_examples=4, deadline=None, phases=NO_SHRINK)  # a child per example: no slow shrinking
@given(data=st.data())
def test_mutated_records_give_a_game_or_a_lexicon_error(data, capped, mutated):
    import time

    import lexigraph

    lex = lexigraph.load(["cat", "retains", "sox", "six", "bod", "bode", "deb", "aa", "ax"])
    inputs = [data.draw(mutated(_GCG_SEEDS, _GCG_CHARS)) for _ in range(25)]

    def check(text: str) -> None:
        rec = read_gcg(text)
        for turn in range(len(rec.events) + 1):
            rec.replay(turn)
        analyze(lex, rec, top=1, deadline=time.monotonic() + 5)

    capped(check, inputs)
