"""Best-arm identification: which arms (a simulation's candidate plays) are still in contention.

The rule is **successive elimination** (Even-Dar, Mannor and Mansour, 2006)
on paired samples. Every arm still in has had the same rounds (a
simulation's common random numbers: iteration ``i`` deals the same tiles to
every candidate), so an arm is compared with the leader (the best mean) round
by round: with ``d`` the differences ``arm - leader``, ``n`` their number and
``s`` their standard deviation, the arm is **dropped** when

    mean(d) + radius(n) < 0,   radius(n) = s * sqrt(2 * log(pi^2 * K * n^2 / (3 * delta)) / n)

with ``K`` the arms at the start and ``delta`` the error allowed
(:data:`DELTA`, 0.05). The radius is an anytime bound: the sum over every
``n`` and arm of ``3 delta / (pi^2 K n^2)`` is ``delta / 2``, so with
sub-Gaussian differences (a win chance is bounded) the best arm is dropped
with a chance of at most about ``delta``, whenever the rule is read. An arm
with no spread in its differences (``s = 0``) is dropped only when its mean
is below the leader's. The identification is **done** when one arm is
left; a budget (play-outs or time) may stop it before, and then the leader
is the answer.

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> deal = rng.normal(0, 0.3, (400, 1))           # what every arm meets in a round (common random numbers)
>>> samples = np.array([0.60, 0.50, 0.58]) + deal + rng.normal(0, 0.1, (400, 3))
>>> still_in([0, 1, 2], samples)
[0, 2]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["DELTA", "radius", "still_in"]

#: The chance of dropping the best arm the rule allows.
DELTA = 0.05


def radius(n: int, spread: float, arms: int, delta: float = DELTA) -> float:
    """The anytime confidence radius of a mean of ``n`` paired differences with standard deviation ``spread``
    among ``arms`` arms (module docstring).

    >>> round(radius(100, 1.0, 5), 4)
    0.5478
    """
    if n < 2:
        return math.inf
    return spread * math.sqrt(2.0 * math.log(math.pi ** 2 * arms * n * n / (3.0 * delta)) / n)


def still_in(active: Sequence[int], samples: "np.ndarray", *, arms: int | None = None,
             delta: float = DELTA) -> list[int]:
    """The arms of ``active`` the rule keeps, given ``samples[round, arm]`` (every active arm's column over the
    same rounds). The leader (the best mean; the lowest index among equals) is always kept."""
    if not 0 < delta < 1:
        raise ValueError(f"delta must lie between 0 and 1, not {delta!r}")
    if len(active) <= 1 or len(samples) < 2:
        return list(active)
    k = arms if arms is not None else len(active)
    means = {a: float(samples[:, a].mean()) for a in active}
    leader = max(active, key=lambda a: (means[a], -a))
    kept = []
    for a in active:
        if a == leader:
            kept.append(a)
            continue
        d = samples[:, a] - samples[:, leader]
        sd = float(d.std(ddof=1))
        bound = float(d.mean()) + radius(len(d), sd, k, delta)
        if not (bound < 0 if sd > 0 else float(d.mean()) < 0):
            kept.append(a)
    return kept
