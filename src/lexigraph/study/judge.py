"""Word Judge: one verdict for a set of words, as tournaments use it (VALID only when every word is a word).

The verdict says nothing else: not which word failed, nor how many, so that a judge shows no hint.

>>> verdict([True, True]), verdict([True, False])
('VALID', 'NOT VALID')
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["MAX_JUDGED", "NOT_VALID", "VALID", "verdict"]

VALID = "VALID"
NOT_VALID = "NOT VALID"
#: The most words judged at once: a play makes at most a main word and one cross word per tile of a rack,
#: and a judge's screen holds a few more; far beyond, it is no play.
MAX_JUDGED = 64


def verdict(valid: Iterable[bool]) -> str:
    """``VALID`` when every one of ``valid`` is true, else ``NOT VALID`` (an empty set is no play: the caller
    refuses it before asking)."""
    return VALID if all(valid) else NOT_VALID
