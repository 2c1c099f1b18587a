"""Win-percentage tables (scrabble/winpct.py): the counts against a hand count and a brute force over every column,
the snapshots of self-play against an independent count of the tiles (both engines), monotony of learned and
generated tables, the binary file and MAGPIE's CSV read back as written, damaged files refused, the shipped table,
and a learned table that predicts held-out self-play better than the fixed sigmoid."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.engine.interface import game_record_dtype, turn_record_dtype
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.leaves import load_leaves
from lexigraph.scrabble.selfplay import Player, selfplay_request
from lexigraph.scrabble.wingen import build_win_table, self_play_positions
from lexigraph.scrabble.winpct import (
    WinTable, WinTableError, brier_scores, default_table, isotonic, position_samples, win_counts,
)
from helpers.games import ABCD_WORDS as SMALL_WORDS, abcd_game as small_game


def brute_counts(snapshots, rows, max_spread):
    """Per snapshot (spread, unseen, final): every column x wins 2 when x + (final - spread) > 0, 1 when = 0."""
    positions = np.zeros(rows, np.int64)
    wins = np.zeros((rows, 2 * max_spread + 1), np.int64)
    for s, u, f in snapshots:
        if not 1 <= u <= rows:
            continue
        positions[u - 1] += 1
        for c, x in enumerate(range(-max_spread, max_spread + 1)):
            end = x + (f - s)
            wins[u - 1, c] += 2 if end > 0 else 1 if end == 0 else 0
    return positions, wins


def test_counts_of_a_hand_made_game():
    # One game, A first: A plays for 10 (bag 86 -> 80), B plays for 30 (bag 80 -> 76), A exchanges (bag 76),
    # then the game record: A 25, B 40 at the end (adjustments included).
    turns = np.zeros(3, turn_record_dtype())
    turns["player"] = [0, 1, 0]
    turns["kind"] = [0, 0, 1]
    turns["rack_length"] = [7, 7, 7]
    turns["bag_before"] = [86, 80, 76]
    turns["bag_after"] = [80, 76, 76]
    turns["score"] = [10, 30, 0]
    turns["total"] = [10, 30, 10]
    games = np.zeros(1, game_record_dtype())
    games["turns"] = 3
    games["final"] = [[25, 40]]
    games["racks"] = 255
    games["racks"][0, 0, :4] = [1, 2, 3, 4]
    games["racks"][0, 1, :3] = [5, 6, 7]
    spread, unseen, final = position_samples(turns, games, 7)
    # before turn 0: A 0 - B 0, unseen 86 + B's 7; before turn 1: B 0 - A 10, 80 + A's 7; before turn 2:
    # A 10 - B 30, 76 + B's rack (B never moves again: the 3 tiles it ends with)
    assert spread.tolist() == [0, -10, -20]
    assert unseen.tolist() == [93, 87, 79]
    assert final.tolist() == [-15, 15, -15]
    positions, wins = win_counts(spread, unseen, final, 93, max_spread=30)
    assert positions.sum() == 3 and positions[92] == positions[86] == positions[78] == 1
    # row 93 (turn 0): the rest of the game added -15, so spreads above 15 win, 15 draws
    assert wins[92, 30 + 16] == 2 and wins[92, 30 + 15] == 1 and wins[92, 30 + 14] == 0
    # row 87 (turn 1): B at -10 ended +15: added 25, so spreads above -25 win
    assert wins[86, 30 - 24] == 2 and wins[86, 30 - 25] == 1 and wins[86, 30 - 26] == 0
    expected = brute_counts(zip(spread.tolist(), unseen.tolist(), final.tolist()), 93, 30)
    assert (positions == expected[0]).all() and (wins == expected[1]).all()
    table = WinTable.from_counts(positions, wins, max_spread=30, smooth=False)
    assert table.on_turn(16, 93) == 1.0 and table.on_turn(15, 93) == 0.5 and table.on_turn(14, 93) == 0.0


@given(st.lists(st.tuples(st.integers(-80, 80), st.integers(0, 12), st.integers(-120, 120)), max_size=40),
       st.integers(1, 40))
@settings(max_examples=60, deadline=None)
def test_counts_equal_a_brute_force_over_every_column(snapshots, max_spread):
    rows = 10
    s, u, f = (np.array([x[i] for x in snapshots], np.int64) for i in range(3))
    got = win_counts(s, u, f, rows, max_spread)
    expected = brute_counts(snapshots, rows, max_spread)
    assert (got[0] == expected[0]).all() and (got[1] == expected[1]).all()


def test_snapshots_of_self_play_against_the_tiles_counted(open_lexicon, engine_kind):
    game = small_game()
    lex = open_lexicon(SMALL_WORDS, alphabet=game.alphabet)
    player = Player.equity(None)
    request = selfplay_request(lex, game, [player, player], 3)
    turns, games = lex.engine.play_games(request, 0, 6 if engine_kind == "c" else 2)
    spread, unseen, final = position_samples(turns, games, game.rack_size)
    total_tiles = sum(game.counts_by_code())
    at = 0
    for g in games:
        scores, on_board = [0, 0], 0
        for t in turns[at:at + int(g["turns"])]:
            p = int(t["player"])
            # unseen to the player on turn: every tile but those on the board and on its own rack
            assert unseen[at] == total_tiles - on_board - int(t["rack_length"])
            assert spread[at] == scores[p] - scores[1 - p]
            assert final[at] == int(g["final"][p]) - int(g["final"][1 - p])
            scores[p] += int(t["score"])
            if t["kind"] == 0:
                on_board += int((t["squares"][: t["length"]] != 0).sum())
            at += 1


@given(st.lists(st.tuples(st.integers(-60, 60), st.integers(1, 6), st.integers(-90, 90)), min_size=1, max_size=60))
@settings(max_examples=40, deadline=None)
def test_smoothed_tables_rise_with_the_spread(snapshots):
    s, u, f = (np.array([x[i] for x in snapshots], np.int64) for i in range(3))
    positions, wins = win_counts(s, u, f, 6, 50)
    if not positions.any():
        return
    for smooth in (True, False):
        table = WinTable.from_counts(positions, wins, max_spread=50, smooth=smooth)
        assert (np.diff(table.values, axis=1) >= 0).all()
        assert ((table.values >= 0) & (table.values <= 1)).all()


@given(st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_isotonic_is_the_nearest_non_decreasing_fit(values):
    fit = isotonic(np.array(values))
    assert (np.diff(fit) >= -1e-12).all()
    assert fit.mean() == pytest.approx(np.mean(values))  # PAV keeps the mean
    if all(b >= a for a, b in zip(values, values[1:])):
        assert fit.tolist() == pytest.approx(values)


def small_table(smooth=True) -> WinTable:
    rng = np.random.default_rng(7)
    n = 400
    s, u, f = rng.integers(-100, 100, n), rng.integers(1, 20, n), rng.integers(-150, 150, n)
    return WinTable.from_counts(*win_counts(s, u, f, 20, 60), max_spread=60, smooth=smooth, name="small")


def test_binary_file_round_trip_and_damage(tmp_path):
    table = small_table()
    data = table.to_bytes()
    back = WinTable.from_bytes(data)
    assert back.name == "small" and back.max_spread == 60 and back.rows == 20
    assert (back.positions == table.positions).all() and (back.wins == table.wins).all()
    assert np.allclose(back.values, table.values, atol=1e-6)
    damaged = bytearray(data)
    damaged[100] ^= 1
    with pytest.raises(WinTableError, match="checksum"):
        WinTable.from_bytes(bytes(damaged))
    with pytest.raises(WinTableError, match="bytes"):
        WinTable.from_bytes(data[:-8])
    with pytest.raises(WinTableError, match="not a lexigraph"):
        WinTable.from_bytes(b"garbage" * 10)
    path = tmp_path / "t.lxwin"
    path.write_bytes(data)
    assert (WinTable.read(str(path)).wins == table.wins).all()


def test_magpie_csv_round_trip(tmp_path):
    table = small_table(smooth=False)
    text = table.to_csv()
    back = WinTable.from_csv(text)
    assert back.to_csv() == text
    assert np.allclose(back.values, table.values)
    path = tmp_path / "winpct.csv"
    path.write_text(text)
    assert WinTable.read(str(path)).to_csv() == text
    # MAGPIE reads a row of no positions as the row before
    rows = text.splitlines()
    rows[3] = " ".join(["0"] * len(rows[3].split()))
    zeroed = WinTable.from_csv("\n".join(rows))
    assert (zeroed.values[3] == zeroed.values[2]).all()


@pytest.mark.parametrize("text, match", [
    ("", "odd number"), ("4 1 2\n", "odd number"), ("4 0 2 4\n4 0 2\n", "as many columns"),
    ("4 0 x 4\n", "whole numbers"), ("1 0 2 4\n", "twice the positions"), ("0 0 0 0\n", "at least one"),
])
def test_bad_csv_is_refused(text, match):
    with pytest.raises(WinTableError, match=match):
        WinTable.from_csv(text)


def test_magpie_csv_of_the_peer_when_present():
    import os

    path = os.path.join(os.environ.get("MAGPIE_DIR", "/work/peers/magpie"), "data/strategy/winpct.csv")
    if not os.path.exists(path):
        pytest.skip(f"{path} is not present")
    text = open(path).read()
    table = WinTable.read(path)
    assert table.rows == 93 and table.max_spread == 500
    assert table.to_csv().split() == text.split()
    assert (np.diff(table.values, axis=1) >= 0).all()


def test_a_build_does_not_depend_on_the_workers_and_rises_with_the_spread():
    lex = lexigraph.open()
    game = Game.preset("scrabble")
    one = build_win_table(lex, game, leaves=None, games=8, seed=4, workers=1, batch=4)
    two = build_win_table(lex, game, leaves=None, games=8, seed=4, workers=2, batch=4)
    assert (one.table.wins == two.table.wins).all() and one.positions == two.positions > 100
    assert (np.diff(one.table.values, axis=1) >= 0).all()


def test_bad_build_arguments_are_refused():
    lex = lexigraph.open()
    game = Game.preset("scrabble")
    for bad in ({"games": 1}, {"games": True}, {"workers": 0}, {"max_spread": 0}):
        with pytest.raises(GameError):
            build_win_table(lex, game, leaves=None, **{"games": 4, **bad})


def test_the_shipped_table():
    table = default_table()
    assert table.rows == 93 and table.max_spread == 500
    assert (np.diff(table.values, axis=1) >= 0).all()
    # a lead wins more often with fewer tiles left to turn it around
    assert table.on_turn(30, 10) > table.on_turn(30, 80) > 0.5 > table.on_turn(-30, 80) > table.on_turn(-30, 10)


def test_a_learned_table_predicts_held_out_self_play_better_than_the_sigmoid():
    lex = lexigraph.open()
    game = Game.preset("scrabble")
    leaves = load_leaves(game.leaves, lex.alphabet)
    built = build_win_table(lex, game, leaves=leaves, games=400, seed=11, workers=1)
    s, u, f = self_play_positions(lex, game, leaves=leaves, games=100, seed=12, workers=1)
    table_score, sigmoid_score = brier_scores(built.table, s, u, f)
    assert len(s) > 2000 and table_score < sigmoid_score
