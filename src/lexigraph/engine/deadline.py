"""Deadlines: how a query or a job that may run long stops on time.

A deadline is a :func:`time.monotonic` value (None: no limit), handed down
explicitly: the server computes one per request, the command hands it to the
:class:`~lexigraph.Lexicon` method (``deadline=``), the method to the query
module, the query to the engine method. Python loops call :func:`check` (or,
in a tight loop, a :class:`Countdown`, which reads the clock every few
thousand steps); the C walks read the same clock themselves
(``native/deadline.h``) and answer a distinct value that the engine turns
into the same error. Past the deadline every one of them raises
:class:`~lexigraph.errors.DeadlineExceeded`, a ``LexiconError``: the query
stops, nothing half-done is returned.

>>> import time
>>> check(None), check(time.monotonic() + 60)
(None, None)
>>> check(time.monotonic() - 1)
Traceback (most recent call last):
...
lexigraph.errors.DeadlineExceeded: the query ran past its deadline
"""

from __future__ import annotations

import math
import time

from ..errors import DeadlineExceeded, QueryError

#: Steps a :class:`Countdown` takes between two readings of the clock.
STEPS = 4096


def exceeded(what: str = "the query") -> DeadlineExceeded:
    """The error of a query or job stopped at its deadline."""
    return DeadlineExceeded(f"{what} ran past its deadline")


def checked(deadline: object) -> float | None:
    """``deadline`` as given, once checked to be None or a finite number (a ``QueryError`` otherwise).

    >>> checked(None), checked(12.5)
    (None, 12.5)
    """
    if deadline is None:
        return None
    if isinstance(deadline, bool) or not isinstance(deadline, (int, float)) or math.isnan(deadline):
        raise QueryError(f"a deadline is a time.monotonic() value or None, not {deadline!r}")
    return float(deadline)


def check(deadline: float | None, what: str = "the query") -> None:
    """Raise :class:`~lexigraph.errors.DeadlineExceeded` when ``deadline`` has passed."""
    if deadline is not None and time.monotonic() > deadline:
        raise exceeded(what)


class Countdown:
    """A deadline checked in a loop: ``tick()`` each step reads the clock at the first step, then every
    :data:`STEPS` steps (as the C walks do).

    >>> c = Countdown(time.monotonic() + 60, steps=2)
    >>> c.tick(); c.deadline = time.monotonic() - 1
    >>> c.tick()
    >>> c.tick()
    Traceback (most recent call last):
    ...
    lexigraph.errors.DeadlineExceeded: the query ran past its deadline
    """

    __slots__ = ("deadline", "left", "steps", "what")

    def __init__(self, deadline: float | None, what: str = "the query", steps: int = STEPS) -> None:
        self.deadline = deadline
        self.steps = steps
        self.left = 1 if deadline is not None else -1  # a deadline already past is seen at the first step
        self.what = what

    def tick(self, steps: int = 1) -> None:
        """Count ``steps`` steps; past the deadline (read every :attr:`steps`), raise."""
        if self.left < 0:
            return
        self.left -= steps
        if self.left <= 0:
            self.left = self.steps
            check(self.deadline, self.what)
