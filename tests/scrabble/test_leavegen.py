"""Leave learning (scrabble/leavegen.py): every multiset against itertools, the samples against a loop over the turn
records, the smoothing's two ends, a build that does not depend on the workers, the shipped table and the game
that names it (moves rank by equity out of the box)."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexigraph.engine.interface import leave_key
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.leavegen import LeaveSums, build_leaves, leave_samples, multisets, shortened, smoothed_values
from lexigraph.scrabble.leaves import LeaveTable
from lexigraph.scrabble.movegen import generate
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.selfplay import Player, selfplay_request
from helpers.games import ABCD_WORDS as SMALL_WORDS, abcd_game as small_game


@given(st.lists(st.integers(0, 3), min_size=1, max_size=5), st.integers(1, 4))
@settings(max_examples=60, deadline=None)
def test_multisets_are_every_multiset_the_bag_allows(counts, longest):
    expected = set()
    for length in range(1, longest + 1):
        for combo in combinations_with_replacement(range(len(counts)), length):
            if all(combo.count(c) <= counts[c] for c in set(combo)):
                expected.add(bytes(combo))
    got = multisets(counts, longest)
    assert len(got) == len(set(got)) and set(got) == expected
    assert [len(m) for m in got] == sorted(len(m) for m in got)


def test_samples_against_a_loop_over_the_turns(open_lexicon):
    game = small_game()
    lex = open_lexicon(SMALL_WORDS, alphabet=game.alphabet)
    table = LeaveTable({b"\x00": 9.0, b"\x01": 1.5, b"\x03": -2.0, b"\x01\x02": 2.25}, game.alphabet)
    request = selfplay_request(lex, game, [Player.equity(table), Player.equity(table)], 3)
    turns, games = lex.engine.play_games(request, 0, 10 if lex.engine.kind == "c" else 3)
    got = leave_samples(request.players[0].tables.leaves, turns, games)
    values = {leave_key(k): v for k, v in table.by_key.items()}
    sums: dict[int, float] = defaultdict(float)
    counts: Counter[int] = Counter()
    at = 0
    total, samples = 0.0, 0
    for g in games:
        mine = turns[at:at + int(g["turns"])]
        at += int(g["turns"])
        for i in range(len(mine) - 2):
            t, later = mine[i], mine[i + 2]
            if t["bag_after"] == 0:
                continue
            value = values.get(int(later["leave"]), 0.0) if later["bag_after"] > 0 else 0.0
            target = float(later["score"]) + value
            sums[int(t["leave"])] += target
            counts[int(t["leave"])] += 1
            total += target
            samples += 1
    assert got.samples == samples and got.total == pytest.approx(total)
    assert sorted(got.keys.tolist()) == sorted(counts)
    for k, s, c in zip(got.keys.tolist(), got.sums.tolist(), got.counts.tolist()):
        assert c == counts[k] and s == pytest.approx(sums[k])
    merged = LeaveSums.merged([got, got])
    assert merged.samples == 2 * samples and list(merged.counts) == [2 * c for c in got.counts]


def sums_of(rows: dict[bytes, tuple[float, int]]) -> LeaveSums:
    import numpy as np

    keys = sorted(rows, key=leave_key)
    return LeaveSums(np.array([leave_key(k) for k in keys], np.uint64), np.array([rows[k][0] for k in keys]),
                     np.array([rows[k][1] for k in keys], np.int64), sum(r[0] for r in rows.values()),
                     sum(r[1] for r in rows.values()))


def test_smoothing_zero_keeps_the_means_and_a_large_one_the_prior():
    rng = random.Random(2)
    counts = [2, 3, 3, 1]
    rows = {m: (rng.uniform(-50, 50) * n, n) for m in multisets(counts, 3) if rng.random() < 0.7
            for n in [rng.randint(1, 40)]}
    sums = sums_of(rows)
    mean = sums.total / sums.samples
    raw = smoothed_values(sums, counts, 3, smoothing=0.0, vowels=frozenset({1}))
    assert set(raw) == set(multisets(counts, 3))
    for leave, (s, n) in rows.items():
        assert raw[leave] == pytest.approx(s / n - mean)
    prior = smoothed_values(sums, counts, 3, smoothing=1e12, vowels=frozenset({1}))
    for leave in multisets(counts, 3):
        if leave not in rows:
            assert raw[leave] == pytest.approx(prior[leave])   # unseen: the prior whatever the smoothing
    some = smoothed_values(sums, counts, 3, smoothing=10.0, vowels=frozenset({1}))
    for leave, (s, n) in rows.items():
        low, high = sorted((raw[leave], prior[leave]))
        assert low - 1e-6 <= some[leave] <= high + 1e-6


def test_the_prior_recovers_an_additive_table():
    counts = [2, 4, 4, 4, 4]
    tile = [20.0, 3.0, -2.0, 1.0, -4.0]
    rows = {}
    for m in multisets(counts, 3):
        value = sum(tile[c] for c in m)
        rows[m] = (value * 1000, 1000)
    sums = sums_of(rows)
    prior = smoothed_values(sums, counts, 3, smoothing=1e12, vowels=frozenset())
    mean = sums.total / sums.samples
    for m in multisets(counts, 3):
        assert prior[m] == pytest.approx(sum(tile[c] for c in m) - mean, abs=0.5)


def test_a_build_does_not_depend_on_the_workers(open_lexicon):
    game = small_game()
    lex = open_lexicon(SMALL_WORDS, alphabet=game.alphabet)
    one = build_leaves(lex, game, generations=[8, 8], seed=4, workers=1, batch=4)
    two = build_leaves(lex, game, generations=[8, 8], seed=4, workers=2, batch=4)
    assert one.table.to_klv2() == two.table.to_klv2()
    assert len(one.table) == len(multisets(game.counts_by_code(), 3)) and one.samples[0] > 0
    short = build_leaves(lex, game, generations=[8, 8], seed=4, workers=1, batch=4, keep_length=2)
    assert short.table.by_key == shortened(one.table, 2).by_key and short.table.max_length == 2
    for bad in ({"generations": []}, {"generations": [1]}, {"generations": [4], "max_length": 4},
                {"generations": [4], "smoothing": -1.0}):
        with pytest.raises(GameError):
            build_leaves(lex, game, **bad)


def test_the_scrabble_game_names_the_shipped_table_and_moves_rank_by_equity(enable):
    game = Game.preset("scrabble")
    assert game.leaves.endswith("english-leaves.klv2")
    table = LeaveTable.read(game.leaves, enable.store.alphabet)
    assert 1_000 < len(table) and table.max_length <= game.rack_size - 1
    assert table.value("?") > table.value("S") > 0 > table.value("Q")
    assert table.value("V") < 0 and table.value("ER") > 0 and table.value("UU") < table.value("U")
    moves = generate(enable, Position(game), "AEQRSTU", top=3)
    assert all(m.equity is not None and m.equity != m.score for m in moves if m.leave)
    assert moves[0].equity == max(m.equity for m in generate(enable, Position(game), "AEQRSTU"))
