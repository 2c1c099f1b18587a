"""What a fill returns: the filled words, the result with its status, and ranked suggestions for a slot."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..grid import Grid

#: ``filled``; ``no_fill`` (the search was exhaustive: no fill exists); ``timeout`` (none found in time).
Status = Literal["filled", "no_fill", "timeout"]


@dataclass(frozen=True)
class FilledWord:
    """One slot of a fill: its name, word, priority and whether the grid already held the whole word."""

    slot: str
    word: str
    priority: int
    fixed: bool


@dataclass
class FillResult:
    """The answer of :func:`fill`.

    ``status``: ``"filled"``; ``"no_fill"`` (the search was exhaustive:
    no fill exists); ``"timeout"`` (none found within the time limit).
    ``grid``: the filled grid (``None`` unless filled). ``reason`` and
    ``culprits`` (slot names) say why there is none, when that is known.
    ``optimal``: the lowest priority of the fill was proved the best
    possible. ``stats``: counts of the search.
    """

    status: Status
    grid: Grid | None = None
    words: list[FilledWord] = field(default_factory=list)
    reason: str | None = None
    culprits: list[str] = field(default_factory=list)
    optimal: bool = False
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def min_priority(self) -> int | None:
        ps = [w.priority for w in self.words if not w.fixed]
        return min(ps) if ps else None

    @property
    def mean_priority(self) -> float | None:
        ps = [w.priority for w in self.words if not w.fixed]
        return sum(ps) / len(ps) if ps else None


@dataclass(frozen=True)
class Suggestion:
    """A candidate for one slot: ``crossings`` holds, per crossing slot, how many candidates it keeps.

    ``score`` is the product of those counts (the forward-checked ranking).
    """

    word: str
    priority: int
    score: int
    crossings: dict[str, int]
