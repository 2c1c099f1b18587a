"""Game analysis (scrabble/analysis.py): every figure of a turn recomputed by brute force from the board and the
table on self-play games of a small game (both engines), a turn whose move is the engine's best loses nothing,
simulated turns equal a simulation run by hand, and records with phonies (challenged or not), exchanges, passes,
time penalties, challenge bonuses and missing racks analysed turn by turn."""

from __future__ import annotations

import numpy as np
import pytest

import lexigraph
from lexigraph.scrabble.analysis import MISTAKES, analyze_game, mistake_class, summary
from lexigraph.scrabble.gcg import read_gcg
from lexigraph.scrabble.movegen import generate
from lexigraph.scrabble.selfplay import Player, autoplay
from lexigraph.scrabble.simulation import simulate
from lexigraph.scrabble.tiles import parse_rack
from lexigraph.scrabble.winpct import WinTable, win_counts
from helpers.games import ABCD_WORDS as SMALL_WORDS, abcd_game as small_game


def small_table(game) -> WinTable:
    """A table over the small game's rows from random snapshots (any monotone table will do for recomputation)."""
    rng = np.random.default_rng(3)
    rows = sum(game.counts_by_code()) - game.rack_size
    n = 3000
    s, u, f = rng.integers(-60, 60, n), rng.integers(1, rows + 1, n), rng.integers(-80, 80, n)
    return WinTable.from_counts(*win_counts(s, u, f, rows, 100), max_spread=100)


def self_play_gcgs(lex, game, games=2):
    run = autoplay(lex, game, [Player.equity(None, "a"), Player.score("b")], games=games, seed=9, workers=1,
                   keep_games=True)
    return [run.gcg(k) for k in range(games)]


def brute_win_after(table, pos, move_tiles, value, rack_tiles, exchange=False):
    """The mover's chance after a move worth ``value`` placing ``move_tiles`` tiles, from first principles: the
    tiles counted on the board, the opponent's rack filled first, the result once the mover is out."""
    game = pos.game
    total = sum(game.counts_by_code())
    board = int(np.count_nonzero(np.frombuffer(bytes(pos.codes), np.uint8)))
    unseen = total - board - rack_tiles
    opponent = min(game.rack_size, unseen)
    bag = unseen - opponent
    spread = pos.scores[0] - pos.scores[1] + value
    kept = rack_tiles - move_tiles
    if bag == 0 and kept == 0:
        return 1.0 if spread > 0 else 0.0 if spread < 0 else 0.5
    after = bag + (rack_tiles if exchange else kept)
    # the opponent on turn at -spread, then read from our side
    return 1.0 - table.on_turn(-spread, after) if after > 0 else (1.0 if spread > 0 else 0.0 if spread < 0 else .5)


def test_static_figures_equal_a_brute_force_recomputation(open_lexicon, engine_kind):
    game = small_game()
    lex = open_lexicon(SMALL_WORDS, alphabet=game.alphabet)
    table = small_table(game)
    total = sum(game.counts_by_code())
    checked = 0
    for text in self_play_gcgs(lex, game):
        record = read_gcg(text, game)
        turns = analyze_game(lex, record, top=2, win_table=table, leaves=None)
        decisions = [k for k, e in enumerate(record.events) if e.kind in ("play", "exchange", "pass")]
        assert [t["turn"] - 1 for t in turns] == decisions  # every turn completes
        for t in turns:
            pos = record.replay(t["turn"] - 1)
            rack_tiles = len(parse_rack(game, t["rack"]))
            board = sum(1 for c in pos.codes if c)
            spread = pos.scores[0] - pos.scores[1]
            assert t["win_before"] == pytest.approx(table.on_turn(spread, total - board - rack_tiles), abs=1e-6)
            every = list(generate(lex, pos, t["rack"], top=None, exchanges=True, passes=True, leaves=None,
                                  sort="equity"))
            wins = [brute_win_after(table, pos, len(m.tiles) if m.kind == "play" else 0, m.equity, rack_tiles,
                                    m.kind == "exchange") for m in every[:5]]
            made = next(m for m in every if m.notation == t["play"] or (m.kind != "play" and m.notation == t["play"]))
            made_win = brute_win_after(table, pos, len(made.tiles) if made.kind == "play" else 0, made.equity,
                                       rack_tiles, made.kind == "exchange")
            assert t["win_after"] == pytest.approx(made_win, abs=1e-6)
            # the static engine's best is the best by equity
            best = max(wins[0], made_win)
            assert t["best_win"] == pytest.approx(best, abs=1e-6)
            assert t["win_lost"] == pytest.approx(best - made_win, abs=1e-6)
            assert t["best_move"] == every[0].notation
            assert t["mistake"] == mistake_class(t["win_lost"])
            if made.notation == every[0].notation:  # the engine's best (by equity): nothing lost
                assert t["win_lost"] == 0
            checked += 1
    assert checked > 10


def test_simulated_turns_equal_a_simulation_by_hand(open_lexicon):
    game = small_game()
    lex = open_lexicon(SMALL_WORDS, alphabet=game.alphabet)
    table = small_table(game)
    record = read_gcg(self_play_gcgs(lex, game, 1)[0], game)
    turns = analyze_game(lex, record, top=1, win_table=table, leaves=None, iterations=16, candidates=3, seed=5)
    simulated = [t for t in turns if t["method"] == "simulation"]
    assert simulated
    for t in simulated[:4]:
        pos = record.replay(t["turn"] - 1)
        best = list(generate(lex, pos, t["rack"], top=3, exchanges=True, passes=True, leaves=None, sort="equity",
                             count_all=False))
        made = [m for m in best if m.notation == t["play"]]
        moves = best if made else best + [m for m in generate(lex, pos, t["rack"], top=None, exchanges=True,
                                                               passes=True, leaves=None, sort="equity")
                                          if m.notation == t["play"]][:1]
        result = simulate(lex, pos, leaves=None, moves=moves, candidates=len(moves), iterations=16,
                          seed=5 + t["turn"] - 1, win_table=table)
        by_notation = {p.move.notation: p for p in result.ranked}
        assert t["win_after"] == pytest.approx(by_notation[t["play"]].win_rate, abs=1e-6)
        assert t["best_move"] == result.ranked[0].move.notation
        if result.ranked[0].move.notation == t["play"]:
            assert t["win_lost"] == 0


GCG = """#player1 ann Ann
#player2 bob Bob
>ann: AEINRST 8D RETAINS +66 66
>bob: EIOPSXY 9E SOX +39 39
>ann: ABDEGLO 10F GOLBD +30 96
>ann: ABDEGLO -- -30 66
>bob: EIPYAGT -AGT +0 39
>ann: ABDEGLO E5 BOD(E) +16 82
>ann: ABDEGLO (time) -10 72
>bob: EIPYAGU 10F YAUP +20 59
>bob: EIPYAGU (challenge) +5 64
>ann: AEGLOQU - +0 72
>bob: DEIJLMV 11D JIVE +30 94
>ann: AEGLOQU -7 +0 72
"""


def test_a_record_with_every_kind_of_event():
    lex = lexigraph.open()
    record = read_gcg(GCG)
    turns = analyze_game(lex, record, top=1)
    by_turn = {t["turn"]: t for t in turns}
    assert sorted(by_turn) == [1, 2, 3, 5, 6, 8, 10, 11, 12]
    assert by_turn[3]["challenged"] and by_turn[3]["phony"] and by_turn[3]["win_lost"] is not None
    assert by_turn[8]["phony"] and not by_turn[8]["challenged"] and not by_turn[8]["legal"]
    assert by_turn[5]["kind"] == "exchange" and by_turn[10]["kind"] == "pass"
    # the time penalty and the challenge bonus move the spreads the next turns start from
    assert by_turn[10]["spread_before"] == 72 - 64
    assert by_turn[8]["spread_before"] == 39 - 72
    # an exchange of hidden tiles (the count alone): listed, not judged
    assert by_turn[12]["win_lost"] is None and by_turn[12]["mistake"] is None and by_turn[12]["method"] == "none"
    for t in turns:
        assert 0 <= t["win_before"] <= 1 and 0 <= t["win_after"] <= 1 and 0 <= t["win_player1"] <= 1
        assert t["win_lost"] is None or t["win_lost"] >= 0
    rows = summary(turns, record.players)
    assert [r["player"] for r in rows] == ["ann", "bob"]
    ann = rows[0]
    judged = [t for t in turns if t["player"] == "ann" and t["win_lost"] is not None]
    assert ann["judged"] == len(judged) and ann["lost"] == pytest.approx(sum(t["win_lost"] for t in judged), abs=1e-5)
    assert sum(ann["mistakes"].values()) == ann["judged"] and ann["phonies"] == 1


def test_the_mistake_classes_follow_their_thresholds():
    for name, threshold in MISTAKES:
        assert mistake_class(threshold) == name
    assert mistake_class(0.0099) == "none" and mistake_class(0.0399) == "inaccuracy"
    assert mistake_class(0.0999) == "mistake" and mistake_class(1.0) == "blunder"


def test_bad_budget_is_refused():
    from lexigraph.scrabble.game import GameError

    with pytest.raises(GameError, match="budget"):
        analyze_game(lexigraph.open(), read_gcg(GCG), budget=-1)


def test_an_equity_players_game_loses_nothing_by_static_equity():
    """The equity player plays the engine's best move by equity each turn: analysed statically with the same leave
    table, every turn of its self-play games completes and loses no win chance."""
    from lexigraph.scrabble.game import Game
    from lexigraph.scrabble.leaves import load_leaves

    lex = lexigraph.open()
    game = Game.preset("scrabble")
    table = load_leaves(game.leaves, lex.alphabet)
    run = autoplay(lex, game, [Player.equity(table, "a"), Player.equity(table, "b")], games=2, seed=35, workers=1,
                   keep_games=True)
    for k in range(2):
        record = read_gcg(run.gcg(k), game)
        turns = analyze_game(lex, record, top=1)
        decisions = [e for e in record.events if e.kind in ("play", "exchange", "pass")]
        assert len(turns) == len(decisions) > 10
        judged = [t for t in turns if t["win_lost"] is not None]
        assert len(judged) == len(turns)
        assert all(t["win_lost"] == 0 and t["mistake"] == "none" for t in judged), \
            [(t["turn"], t["play"], t["best_equity_move"], t["win_lost"]) for t in judged if t["win_lost"]]
