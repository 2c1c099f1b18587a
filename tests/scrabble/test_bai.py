"""Best-arm identification (scrabble/bai.py) against its definition on synthetic arms: an arm is dropped exactly when
its paired bound says so, the leader and equal arms are never dropped, a known best arm is found, and the best arm
is dropped no more often than the error allowed."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexigraph.scrabble.bai import DELTA, radius, still_in


def bound(samples, arm, leader, arms, delta=DELTA):
    d = samples[:, arm] - samples[:, leader]
    n = len(d)
    sd = float(np.std(d, ddof=1))
    return float(np.mean(d)) + sd * math.sqrt(2 * math.log(math.pi ** 2 * arms * n * n / (3 * delta)) / n), sd


@given(st.integers(2, 6), st.integers(2, 80), st.integers(0, 2**32 - 1), st.floats(0.0, 0.5))
@settings(max_examples=80, deadline=None)
def test_arms_are_dropped_exactly_when_their_bound_says_so(arms, rounds, seed, gap):
    rng = np.random.default_rng(seed)
    means = rng.uniform(0, gap, arms)
    samples = rng.normal(means, 0.2, (rounds, arms))
    kept = still_in(list(range(arms)), samples)
    averages = samples.mean(axis=0)
    leader = max(range(arms), key=lambda a: (averages[a], -a))
    assert leader in kept
    for a in range(arms):
        if a == leader:
            continue
        b, sd = bound(samples, a, leader, arms)
        dropped = (b < 0) if sd > 0 else (averages[a] - averages[leader] < 0)
        assert (a not in kept) == dropped


def test_equal_arms_are_never_dropped_and_one_round_drops_nothing():
    samples = np.tile(np.array([[0.3, 0.3, 0.3]]), (50, 1))
    assert still_in([0, 1, 2], samples) == [0, 1, 2]
    assert still_in([0, 1], np.array([[1.0, 0.0]])) == [0, 1]
    assert radius(1, 1.0, 3) == math.inf
    with pytest.raises(ValueError):
        still_in([0, 1], samples, delta=0)


def identify(means, sd, seed, batch=32, budget=20_000):
    """Successive elimination on common rounds: the arms left when one is, or at the budget."""
    rng = np.random.default_rng(seed)
    active = list(range(len(means)))
    columns = np.zeros((0, len(means)))
    while len(active) > 1 and len(columns) * len(active) < budget:
        shared = rng.normal(0, sd, (batch, 1))  # a common draw, as the play-outs share their deal
        columns = np.vstack([columns, np.asarray(means) + shared + rng.normal(0, sd / 2, (batch, len(means)))])
        active = still_in(active, columns, arms=len(means))
    return active


def test_a_known_best_arm_is_found():
    means = [0.50, 0.55, 0.62, 0.45, 0.60]
    for seed in range(20):
        left = identify(means, 0.3, seed)
        assert left == [2]


def test_the_best_arm_is_dropped_no_more_often_than_delta():
    means = [0.50, 0.52, 0.51]
    lost = 0
    runs = 200
    for seed in range(runs):
        left = identify(means, 0.3, 1000 + seed, budget=6000)
        lost += 1 not in left
    assert lost / runs <= DELTA
