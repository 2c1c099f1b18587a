"""Simulation (scrabble/simulation.py, simulate_plays in native/selfplay.c and its Python twin): the C play-outs
equal the Python twin's; every play-out's value equals an independent replay of its draws with the ``moves`` API
(the oracle below); the same seed gives the same ranking and statistics on 1 and 2 workers; one candidate is the
equity player's move; the win chance; the stopping rule; the time limit; the simulation player in autoplay;
bad arguments refused with one clear error."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

import lexigraph
from lexigraph.alphabet import Alphabet
from lexigraph.engine import compiled
from lexigraph.engine.python.selfplay import Xoshiro
from lexigraph.errors import LexiconError
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.leaves import LeaveTable
from lexigraph.scrabble.movegen import generate
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.selfplay import Player, autoplay
from lexigraph.scrabble.bai import radius
from lexigraph.scrabble.simulation import SPREAD_TIEBREAK, choose_move, prepare, simulate, win_chance
from lexigraph.scrabble.winpct import WinTable, win_counts
from lexigraph.scrabble.tiles import parse_rack, rack_text
from helpers.games import ABCD_WORDS as SMALL_WORDS, abcd_game as small_game, harvested

SHIPPED = "src/lexigraph/data/english-leaves.klv2"

needs_c = pytest.mark.skipif(not compiled.available(), reason="the C engine is not available")


def small_table(alphabet: Alphabet) -> LeaveTable:
    """A value for every leave of up to 3 tiles, all distinct: no two exchanges (or a play and an exchange) tie,
    so the oracle's choice by ``generate`` and the engine's cannot differ by a tie-break."""
    rng = random.Random(24)
    leaves = {bytes(c) for n in (1, 2, 3) for c in itertools.combinations_with_replacement(range(5), n)}
    return LeaveTable({k: round(rng.uniform(-12, 12), 3) for k in sorted(leaves)}, alphabet)


@pytest.fixture(scope="module")
def abcd():
    game = small_game()
    lex = lexigraph.load(SMALL_WORDS, alphabet=game.alphabet)
    lex_py = lexigraph.load(SMALL_WORDS, alphabet=game.alphabet, pure_python=True)
    return game, lex, lex_py, small_table(game.alphabet)


# -- the oracle: a play-out replayed with the moves API --------------------------------------------------------


def oracle_value(lex, pos: Position, move, table: LeaveTable, plies: int, seed: int, iteration: int) -> float:
    """The documented value of one play-out, recomputed from the documented draws: the unseen tiles (codes
    ascending) shuffled by xoshiro256** seeded as pair ``iteration`` of ``seed`` (Fisher-Yates from the end), the
    opponent's rack drawn from the end; then the candidate and ``plies`` turns of the equity player (the best of
    ``generate`` with exchanges), spread plus our last leave's value minus the opponent's."""
    game = pos.game
    rng = Xoshiro(seed, iteration)
    bag = sorted(pos.unseen())
    for k in range(len(bag) - 1, 0, -1):
        j = rng.below(k + 1)
        bag[k], bag[j] = bag[j], bag[k]
    racks = [parse_rack(game, pos.racks[0]), []]
    while len(racks[1]) < min(game.rack_size, len(pos.unseen())):
        racks[1].append(bag.pop())
    cur = pos.copy()
    scores = [0, 0]
    leaves = [0.0, 0.0]
    zeros = pos.zero_turns
    points = game.points_by_code()

    def rack_points(codes):
        return sum(points[c] for c in codes if c)

    def make(p: int, m) -> bool:
        nonlocal cur, zeros
        rack = racks[p]
        if m is None:  # a pass
            leaves[p] = table.value(bytes(sorted(rack))) if 0 < len(rack) <= 10 else 0.0
            zeros += 1
            return False
        if m.kind == "play":
            cur = cur.with_play(m)
            for t in m.tiles:
                rack.remove(0 if t.blank else game.alphabet.code(t.tile))
            scores[p] += m.score
            zeros = 0
        elif m.kind == "exchange":
            back = sorted(parse_rack(game, m.exchanged))
            for c in back:
                rack.remove(c)
            zeros += 1
        else:
            back = []
            zeros += 1
        leaves[p] = table.value(bytes(sorted(rack))) if 0 < len(rack) <= 10 else 0.0
        while len(rack) < game.rack_size and bag:
            rack.append(bag.pop())
        if m.kind == "exchange":
            for c in back:
                bag.append(c)
                at = rng.below(len(bag))
                bag[-1], bag[at] = bag[at], c
        return not rack and not bag

    ended = make(0, move if move.kind != "pass" else None)
    out = 0 if ended else -1
    for ply in range(1, plies + 1):
        if ended or zeros >= 6:
            break
        p = ply & 1
        view = Position(game, list(cur.codes), list(cur.blanks), [rack_text(game, racks[p]),
                                                                     rack_text(game, racks[1 - p])])
        best = generate(lex, view, top=1, exchanges=True, leaves=table, sort="equity")
        ended = make(p, best[0] if len(best) else None)
        if ended:
            out = p
    if out >= 0:
        scores[out] += 2 * rack_points(racks[1 - out])
        return float(scores[0] - scores[1])
    if zeros >= 6:
        return float(scores[0] - rack_points(racks[0]) - scores[1] + rack_points(racks[1]))
    return scores[0] - scores[1] + leaves[0] - leaves[1]


@pytest.mark.parametrize("kind", ["c", "python"])
def test_values_equal_the_oracle_small_game(abcd, kind):
    game, lex_c, lex_py, table = abcd
    if kind == "c" and not compiled.available():
        pytest.skip("the C engine is not available")
    lex = lex_c if kind == "c" else lex_py
    checked = 0
    for seed, at in ((1, 0), (2, 2), (3, 4), (5, 6), (8, 9)):
        pos = harvested(lex_py, game, table, seed, at)
        if not pos.unseen():
            continue
        for plies in (1, 2, 3):
            _pos, moves, request = prepare(lex, pos, leaves=table, candidates=6, plies=plies, seed=seed)
            got = lex.engine.simulate_plays(request, 0, 3)
            assert got.shape == (3, len(moves))
            for i in range(3):
                for c, move in enumerate(moves):
                    assert got["value"][i, c] == pytest.approx(oracle_value(lex_py, pos, move, table, plies, seed, i),
                                                               abs=1e-9), (seed, at, plies, i, move.notation)
                    checked += 1
    assert checked > 100


@needs_c
def test_values_equal_the_oracle_scrabble():
    lex = lexigraph.open()
    table = LeaveTable.read(SHIPPED, lex.store.alphabet)
    for seed, at in ((11, 3), (12, 8)):
        pos = harvested(lex, Game.preset("scrabble"), table, seed, at)
        _pos, moves, request = prepare(lex, pos, leaves=table, candidates=4, plies=2, seed=seed)
        got = lex.engine.simulate_plays(request, 5, 2)
        for i in range(2):
            for c, move in enumerate(moves):
                assert got["value"][i, c] == pytest.approx(oracle_value(lex, pos, move, table, 2, seed, 5 + i),
                                                           abs=1e-9)


@needs_c
def test_c_play_outs_equal_the_python_twin(abcd):
    game, lex_c, lex_py, table = abcd
    for seed, at in ((4, 1), (6, 3), (7, 7), (9, 11)):
        pos = harvested(lex_c, game, table, seed, at)
        if not pos.unseen():
            continue
        for plies in (0, 2, 4):
            _p, moves_c, request_c = prepare(lex_c, pos, leaves=table, candidates=8, plies=plies, seed=seed)
            _p, moves_py, request_py = prepare(lex_py, pos, leaves=table, candidates=8, plies=plies, seed=seed)
            assert request_c._replace(tables=None) == request_py._replace(tables=None)
            got_c = lex_c.engine.simulate_plays(request_c, 10, 6)
            got_py = lex_py.engine.simulate_plays(request_py, 10, 6)
            assert bytes(got_c) == bytes(got_py)


@needs_c
def test_c_and_python_rank_the_same_on_the_real_game():
    lex_c, lex_py = lexigraph.open(), lexigraph.open(pure_python=True)
    pos = Position(Game.preset("scrabble"), racks=["AEIQRST", ""])
    a = simulate(lex_c, pos, leaves=SHIPPED, candidates=3, iterations=3, seed=1)
    b = simulate(lex_py, pos, leaves=SHIPPED, candidates=3, iterations=3, seed=1)
    assert [p.as_dict() for p in a.ranked] == [p.as_dict() for p in b.ranked]


# -- reproducibility, the stopping rule ------------------------------------------------------------------------


@needs_c
def test_same_seed_same_ranking_on_one_and_two_workers():
    lex = lexigraph.open()
    table = LeaveTable.read(SHIPPED, lex.store.alphabet)
    pos = harvested(lex, Game.preset("scrabble"), table, 21, 5)
    kwargs = dict(leaves=table, candidates=6, iterations=160, seed=99, min_iterations=32)
    one = simulate(lex, pos, workers=1, **kwargs)
    two = simulate(lex, pos, workers=2, **kwargs)
    assert [p.as_dict() for p in one.ranked] == [p.as_dict() for p in two.ranked]
    assert one.iterations == two.iterations
    other = simulate(lex, pos, workers=1, **{**kwargs, "seed": 100})
    assert [p.as_dict() for p in other.ranked] != [p.as_dict() for p in one.ranked]


def test_stopping_rule_drops_only_what_cannot_win(abcd):
    game, lex, _lex_py, table = abcd
    pos = harvested(lex, game, table, 3, 2)
    result = simulate(lex, pos, leaves=table, candidates=8, iterations=320, seed=4, min_iterations=32,
                      objective="simmer")
    full = simulate(lex, pos, leaves=table, candidates=8, iterations=320, seed=4, stopping=False, objective="simmer")
    assert not any(p.dropped for p in full.ranked) and all(p.iterations == 320 for p in full.ranked)
    kept = [p for p in result.ranked if not p.dropped]
    dropped = [p for p in result.ranked if p.dropped]
    assert dropped and kept and result.ranked[: len(kept)] == kept  # those still in come first
    # the rule, recomputed from the raw play-outs: at the checkpoint where a candidate went, the mean of its
    # objective minus the leader's (the best mean among those still in), plus 2 se of that difference, was below 0
    _p, moves, request = prepare(lex, pos, leaves=table, candidates=8, seed=4)
    raw = lex.engine.simulate_plays(request, 0, 320)
    diff = pos.scores[0] - pos.scores[1]
    objective = raw["value"] + result.win_weight * win_chance(diff + raw["value"], raw["left"], raw["ended"])
    got = {p.move.notation: p for p in result.ranked}
    n_of = [got[m.notation].iterations for m in moves]
    for c, move in enumerate(moves):
        n = n_of[c]
        assert n == 32 or n % 32 == 0
        assert got[move.notation].mean_spread == pytest.approx(float(raw["value"][:n, c].mean()))
        if not got[move.notation].dropped:
            continue
        live = [k for k in range(len(moves)) if n_of[k] >= n]
        leader = max(live, key=lambda k: float(objective[:n, k].mean()))
        difference = objective[:n, c] - objective[:n, leader]
        assert float(difference.mean()) + 2 * float(difference.std(ddof=1)) / math.sqrt(n) < 0


def test_win_chance_and_statistics(abcd):
    game, lex, _lex_py, table = abcd
    pos = harvested(lex, game, table, 5, 3)
    pos.scores = [pos.scores[0] + 17, pos.scores[1]]
    _p, moves, request = prepare(lex, pos, leaves=table, candidates=3, plies=2, seed=7)
    raw = lex.engine.simulate_plays(request, 0, 40)
    result = simulate(lex, pos, leaves=table, candidates=3, iterations=40, seed=7, stopping=False,
                      objective="simmer")
    for c, move in enumerate(moves):
        values = raw["value"][:, c]
        final = 17 + (pos.scores[0] - 17 - pos.scores[1]) + values
        win = []
        for v, left, ended in zip(final, raw["left"][:, c], raw["ended"][:, c]):
            if ended:
                win.append(1.0 if v > 0 else 0.5 if v == 0 else 0.0)
            else:
                win.append(1 / (1 + math.exp(-v * math.log(9) / (30 + int(left)))))
        p = next(x for x in result.ranked if x.move == move)
        assert p.mean_spread == pytest.approx(float(np.mean(values)))
        assert p.spread_stderr == pytest.approx(float(np.std(values, ddof=1) / math.sqrt(40)))
        assert p.win_rate == pytest.approx(float(np.mean(win)))
        assert p.win_stderr == pytest.approx(float(np.std(win, ddof=1) / math.sqrt(40)))
    assert list(win_chance(np.array([0.0]), np.array([0]), np.array([0]))) == [0.5]


def small_win_table(game) -> WinTable:
    rng = np.random.default_rng(5)
    rows = sum(game.counts_by_code()) - game.rack_size
    s, u, f = rng.integers(-50, 50, 4000), rng.integers(1, rows + 1, 4000), rng.integers(-70, 70, 4000)
    return WinTable.from_counts(*win_counts(s, u, f, rows, 80), max_spread=80)


def brute_table_win(table, final, record, plies):
    """Player 0's chance at the end of one play-out, from its record: the result once the game ended, else the
    table for the player on turn (player 0 after an odd number of plies), its unseen tiles the bag and the other
    rack."""
    if record["ended"]:
        return 1.0 if final > 0 else 0.5 if final == 0 else 0.0
    unseen = int(record["left"]) - int(record["rack_on_turn"])
    if plies % 2 == 1:
        return table.on_turn(final, unseen)
    return 1.0 - table.on_turn(-final, unseen)


@pytest.mark.parametrize("plies", [1, 2, 3, 6])
@pytest.mark.parametrize("kind", ["c", "python"])
def test_win_objective_equals_the_table_read_play_out_by_play_out(abcd, kind, plies):
    game, lex, lex_py, table = abcd
    engines = lex if kind == "c" else lex_py
    if kind == "c" and not compiled.available():
        pytest.skip("the C engine is not available")
    wins = small_win_table(game)
    pos = harvested(lex, game, table, 5, 3)
    pos.scores = [pos.scores[0] + 9, pos.scores[1]]
    iterations = 24 if kind == "c" else 6
    _p, moves, request = prepare(engines, pos, leaves=table, candidates=3, plies=plies, seed=7)
    raw = engines.engine.simulate_plays(request, 0, iterations)
    result = simulate(engines, pos, leaves=table, candidates=3, plies=plies, iterations=iterations, seed=7,
                      stopping=False, win_table=wins)
    diff = pos.scores[0] - pos.scores[1]
    for c, move in enumerate(moves):
        win = [brute_table_win(wins, diff + float(raw["value"][i, c]), raw[i, c], plies) for i in range(iterations)]
        utility = [w + SPREAD_TIEBREAK * float(raw["value"][i, c]) for i, w in enumerate(win)]
        p = next(x for x in result.ranked if x.move == move)
        assert p.win_rate == pytest.approx(float(np.mean(win)))
        assert p.objective == pytest.approx(float(np.mean(utility)))
        # unended play-outs played every ply: the rack of the player on turn is a rack's worth or what is left
        unended = raw[:, c][raw["ended"][:, c] == 0]
        assert ((unended["rack_on_turn"] >= 1) & (unended["rack_on_turn"] <= game.rack_size)).all()
    assert result.objective == "win"


def test_best_arm_identification_drops_only_what_its_bound_says(abcd):
    game, lex, _lex_py, table = abcd
    wins = small_win_table(game)
    pos = harvested(lex, game, table, 3, 2)
    result = simulate(lex, pos, leaves=table, candidates=8, iterations=640, seed=4, min_iterations=32,
                      win_table=wins)
    dropped = [p for p in result.ranked if p.dropped]
    assert dropped and result.ranked[0].iterations >= max(p.iterations for p in dropped)
    _p, moves, request = prepare(lex, pos, leaves=table, candidates=8, seed=4)
    raw = lex.engine.simulate_plays(request, 0, 640)
    diff = pos.scores[0] - pos.scores[1]
    utility = np.zeros(raw.shape)
    for i in range(raw.shape[0]):
        for c in range(raw.shape[1]):
            value = float(raw["value"][i, c])
            utility[i, c] = brute_table_win(wins, diff + value, raw[i, c], 2) + SPREAD_TIEBREAK * value
    got = {p.move.notation: p for p in result.ranked}
    n_of = [got[m.notation].iterations for m in moves]
    checkpoints = sorted(set(n_of))
    for n in checkpoints:
        live = [k for k in range(len(moves)) if n_of[k] >= n]
        leader = max(live, key=lambda k: (float(utility[:n, k].mean()), -k))
        for c in live:
            if c == leader:
                continue
            d = utility[:n, c] - utility[:n, leader]
            out_here = n_of[c] == n and n < max(n_of)  # dropped at this checkpoint
            if got[moves[c].notation].dropped and out_here:
                assert float(d.mean()) + radius(n, float(d.std(ddof=1)), len(moves)) < 0
            elif n < n_of[c]:  # kept past this checkpoint: its bound held it in
                assert float(d.mean()) + radius(n, float(d.std(ddof=1)), len(moves)) >= 0


def test_a_play_out_budget_stops_the_simulation(abcd):
    game, lex, _lex_py, table = abcd
    pos = harvested(lex, game, table, 3, 2)
    result = simulate(lex, pos, leaves=table, candidates=4, iterations=10_000, seed=4, max_playouts=200,
                      stopping=False)
    assert sum(p.iterations for p in result.ranked) <= 200 + 4 and result.iterations == 50


def test_one_candidate_is_the_equity_move(abcd):
    game, lex, _lex_py, table = abcd
    for seed, at in ((1, 1), (2, 3), (3, 5)):
        pos = harvested(lex, game, table, seed, at)
        if not pos.unseen():
            continue
        best = generate(lex, pos, top=1, exchanges=True, passes=True, leaves=table, sort="equity")[0]
        result = simulate(lex, pos, leaves=table, candidates=1, iterations=8, seed=seed)
        assert result.best == best and len(result.ranked) == 1
        chosen = choose_move(lex, pos, leaves=table, seed=seed, candidates=1)
        assert chosen == (None if best.kind == "pass" else best)


def test_time_limit_answers_what_it_has(abcd):
    game, lex, _lex_py, table = abcd
    pos = harvested(lex, game, table, 2, 1)
    result = simulate(lex, pos, leaves=table, candidates=3, iterations=1_000_000, seed=1, time_limit=1e-9)
    assert not result.complete and 1 <= result.iterations < 1_000_000
    assert "time limit" in result.notes[0]
    assert result.as_dict()["complete"] is False


# -- the simulation player -----------------------------------------------------------------------------------


def test_simulation_player_in_autoplay(abcd):
    game, lex, _lex_py, table = abcd
    # the endgame's search is cut by wall time: a budget this small game's endgames never reach keeps the games
    # the same on any number of workers under any load
    players = [Player.simulation(table, candidates=3, iterations=6, name="sim", endgame_seconds=60),
               Player.equity(table, "eq")]
    run = autoplay(lex, game, players, games=4, seed=11, workers=1, keep_games=True)
    assert run.totals.games == 4
    again = autoplay(lex, game, players, games=4, seed=11, workers=2, keep_games=True)
    assert [run.gcg(k) for k in range(4)] == [again.gcg(k) for k in range(4)]
    for k in range(4):
        turns = run.game_turns(k)
        record = run.games[k]
        # mirrored pairs: the same first racks, the seats swapped
        assert int(record["first"]) == k % 2
        final = [0, 0]
        for t in turns:
            final[int(t["player"])] = int(t["total"])
        assert [final[q] + int(record["adjust"][q]) for q in (0, 1)] == [int(x) for x in record["final"]]
    assert bytes(run.game_turns(0)[0]["rack"]) == bytes(run.game_turns(1)[0]["rack"])


def test_simulation_player_refuses_absurd_settings():
    for kwargs in ({"candidates": 0}, {"iterations": 0}, {"plies": 99}, {"candidates": True}):
        with pytest.raises(GameError):
            Player.simulation(None, **kwargs)


# -- bad arguments -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, words", [
    ({"candidates": 0}, "candidates"), ({"candidates": 10 ** 9}, "candidates"), ({"plies": -1}, "plies"),
    ({"plies": 1000}, "plies"), ({"iterations": 0}, "iterations"), ({"iterations": 10 ** 12}, "iterations"),
    ({"workers": 0}, "workers"), ({"seed": -1}, "seed"), ({"time_limit": -1.0}, "time_limit"),
    ({"time_limit": float("nan")}, "time_limit"), ({"candidates": "5"}, "candidates"),
])
def test_absurd_parameters_refused(abcd, kwargs, words):
    game, lex, _lex_py, table = abcd
    pos = Position(game, racks=["abcd", ""])
    with pytest.raises(GameError, match=words):
        simulate(lex, pos, leaves=table, **kwargs)


def test_positions_that_cannot_be_simulated(abcd):
    game, lex, _lex_py, table = abcd
    # every tile on the board or the rack: nothing unseen
    pos = Position(game, racks=["ab", ""])
    tiles = [c for c, n in enumerate(game.counts_by_code()) for _ in range(n)]
    tiles.remove(1)
    tiles.remove(2)
    for square, code in enumerate(tiles):
        pos.place(square // game.size, square % game.size, code if code else 1, code == 0)
    with pytest.raises(GameError, match="unseen"):
        simulate(lex, pos, leaves=table)
    for rack, words in (("", "no tiles"), ("aaaaaaa", "more|holds"), ("abcda", "holds")):
        with pytest.raises(LexiconError, match=words):
            simulate(lex, Position(game, racks=[rack, ""]), leaves=table)
    with pytest.raises(LexiconError):
        simulate(lex, Position(game, racks=["zz", ""]), leaves=table)


@needs_c
def test_engine_refuses_forged_requests(abcd):
    game, lex, _lex_py, table = abcd
    pos = Position(game, racks=["abcd", ""])
    _p, _m, request = prepare(lex, pos, leaves=table, candidates=2, seed=1)
    forged = [
        request._replace(rack=bytes([0, 9, 0, 0, 0])),                      # more tiles than a rack holds
        request._replace(unseen=bytes([255] * 5)),                          # more unseen tiles than a bag
        request._replace(candidates=request.candidates[:-1]),               # a torn candidate
        request._replace(candidates=bytes([0, 1, 0, 0]) + bytes(60)),       # a tile on square 0 from nowhere
        request._replace(candidates=bytes([1, 2, 0, 0]) + bytes(36) + bytes([4, 4]) + bytes(22)),  # one d, not 2
        request._replace(board=bytes([77]) + request.board[1:]),            # a tile outside the alphabet
        request._replace(plies=10 ** 4),
    ]
    pure = lexigraph.load(SMALL_WORDS, alphabet=game.alphabet, pure_python=True)
    _p, _m, pure_request = prepare(pure, pos, leaves=table, candidates=2, seed=1)
    for bad in forged:
        with pytest.raises(LexiconError):
            lex.engine.simulate_plays(bad, 0, 2)
        with pytest.raises(ValueError):
            pure.engine.simulate_plays(bad._replace(tables=pure_request.tables), 0, 2)
    for other in (pure_request, request._replace(tables=pure_request.tables)):  # another engine's tables
        with pytest.raises(LexiconError, match="another lexicon"):
            lex.engine.simulate_plays(other, 0, 2)


def test_same_seed_same_ranking_on_a_dask_cluster(abcd):
    distributed = pytest.importorskip("distributed")
    game, lex, _lex_py, table = abcd
    pos = harvested(lex, game, table, 3, 2)
    kwargs = dict(leaves=table, candidates=6, iterations=96, seed=12, min_iterations=32, win_table=small_win_table(game))
    one = simulate(lex, pos, workers=1, **kwargs)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster:
        on_cluster = simulate(lex, pos, cluster=cluster.scheduler_address, **kwargs)
    assert [p.as_dict() for p in on_cluster.ranked] == [p.as_dict() for p in one.ranked]
    assert on_cluster.iterations == one.iterations and on_cluster.workers == 2
