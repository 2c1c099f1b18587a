"""What a fill returns: the filled words, the fills, the slots' candidate counts and the result with its status."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..grid import Grid

#: ``filled``; ``no_fill`` (the search was exhaustive: no fill exists); ``timeout`` (none found in time).
Status = Literal["filled", "no_fill", "timeout"]
#: How fills are ranked: by mean priority, or by lowest priority first (then mean).
Objective = Literal["mean", "min"]


@dataclass(frozen=True)
class FilledWord:
    """One slot of a fill: its name, word and priority; ``fixed``: the grid (or a theme word placed by the
    fill, ``theme``) gave the whole word, so it does not count in the fill's priorities."""

    slot: str
    word: str
    priority: int
    fixed: bool
    theme: bool = False


def lowest_priority(words: list[FilledWord]) -> int | None:
    """The lowest priority of the words a fill chose (the fixed ones do not count; None when it chose none)."""
    ps = [w.priority for w in words if not w.fixed]
    return min(ps) if ps else None


def mean_priority(words: list[FilledWord]) -> float | None:
    """The mean priority of the words a fill chose (the fixed ones do not count; None when it chose none)."""
    ps = [w.priority for w in words if not w.fixed]
    return sum(ps) / len(ps) if ps else None


@dataclass(frozen=True)
class Fill:
    """One fill of a grid: the filled grid and its words."""

    grid: Grid
    words: list[FilledWord]

    @property
    def min_priority(self) -> int | None:
        """The lowest priority of the words the fill chose (None when it chose none)."""
        return lowest_priority(self.words)

    @property
    def mean_priority(self) -> float | None:
        """The mean priority of the words the fill chose (None when it chose none)."""
        return mean_priority(self.words)

    def rank_key(self, objective: Objective) -> tuple[float, ...]:
        """Larger is better: the mean, or the lowest priority then the mean."""
        mean = self.mean_priority if self.mean_priority is not None else 0.0
        low = self.min_priority if self.min_priority is not None else 0
        return (mean,) if objective == "mean" else (float(low), mean)


@dataclass(frozen=True)
class SlotCount:
    """A slot after propagation: how many words can still fill it (``forced``: exactly one; ``given``:
    the grid gives the whole word)."""

    slot: str
    candidates: int
    forced: bool
    given: bool = False


@dataclass
class FillResult:
    """The answer of :func:`~lexigraph.crossword.fill.fill`.

    ``status``: ``"filled"``; ``"no_fill"`` (the search was exhaustive:
    no fill exists); ``"timeout"`` (none found within the time limit).
    ``grid`` and ``words``: the best fill (``None`` and empty unless
    filled); ``fills``: every fill found, best first (several when asked
    for). ``reason`` and ``culprits`` (slot names) say why there is none,
    or why fewer fills than asked were found, when that is known.
    ``optimal``: the lowest priority of the fill was proved the best
    possible. ``slots``: each slot's candidates after propagation, before
    the search (the hard slots have few). ``stats``: counts of the search.
    """

    status: Status
    grid: Grid | None = None
    words: list[FilledWord] = field(default_factory=list)
    reason: str | None = None
    culprits: list[str] = field(default_factory=list)
    optimal: bool = False
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)
    fills: list[Fill] = field(default_factory=list)
    slots: list[SlotCount] = field(default_factory=list)

    @property
    def min_priority(self) -> int | None:
        """The lowest priority of the best fill's chosen words."""
        return lowest_priority(self.words)

    @property
    def mean_priority(self) -> float | None:
        """The mean priority of the best fill's chosen words."""
        return mean_priority(self.words)


@dataclass(frozen=True)
class Suggestion:
    """A candidate for one slot: ``crossings`` holds, per crossing slot, how many candidates it keeps.

    ``score`` is the product of those counts (the forward-checked ranking).
    """

    word: str
    priority: int
    score: int
    crossings: dict[str, int]
