"""The simulation's play-outs are the bytes they were before the game loop's per-ply costs were cut (issue 34):
hashes pinned from the play-outs of the time, on positions near the end of the bag (where the play-outs reach the
end of the game and the leave values turn into the end's adjustments) and mid-game, on both engines and on one
and two C threads."""

from __future__ import annotations

import hashlib

import pytest

from lexigraph.scrabble.game import Game
from lexigraph.scrabble.leaves import load_leaves
from lexigraph.scrabble.simulation import prepare
from helpers.games import harvested

#: sha256 (first 16 hex digits) of simulate_plays(request, 0, ITERATIONS) on ENABLE self-play positions (seed, turn),
#: the shipped leave table, 5 candidates, 2 plies, seed 3: the bag holds 8, 5 and 41 tiles before the turn. Each
#: pair: the first 24 iterations (the C engine), the first 3 (both engines; an iteration depends on (seed, i) only).
PINNED = {(3, 19): ("52d31153a03ca5a9", "f8229407adb051e5"), (4, 16): ("abbb6a407007029e", "bea4c826429408fb"),
          (5, 10): ("47b2c16aab8b0295", "6dc351d9cd0e445e")}
ITERATIONS = {"c": 24, "python": 3}


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


@pytest.mark.parametrize("seed_turn", sorted(PINNED))
def test_play_outs_are_the_pinned_bytes(engine_kind, enable_on, seed_turn):
    game = Game.preset("scrabble")
    table = load_leaves(game.leaves, enable_on.alphabet)
    pos = harvested(enable_on, game, table, *seed_turn)
    _plays, _moves, request = prepare(enable_on, pos, leaves=table, candidates=5, plies=2, seed=3)
    many, few = PINNED[seed_turn]
    assert digest(enable_on.engine.simulate_plays(request, 0, ITERATIONS["python"], None, 1)) == few
    if engine_kind == "c":
        assert digest(enable_on.engine.simulate_plays(request, 0, ITERATIONS["c"], None, 1)) == many
        assert digest(enable_on.engine.simulate_plays(request, 0, ITERATIONS["c"], None, 2)) == many
