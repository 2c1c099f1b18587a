"""The search tree: one frozen dataclass per condition, and ``And``, ``Or``, ``Not``.

Programs may build a tree directly; :func:`lexigraph.study.search.parse`
builds one from text. ``str(tree)`` writes it back as an expression that
parses to the same tree.

>>> str(And((Length(Range(7, 7)), Not(Contains("e")))))
'length 7 and not contains e'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Literal, Union

import numpy as np

from ...errors import QueryError

@dataclass(frozen=True)
class Range:
    """An inclusive integer range; ``None`` leaves a side open.

    >>> str(Range(3, 5)), str(Range(7, 7)), str(Range(None, 4)), str(Range(2, None))
    ('3-5', '7', '-4', '2-')
    """

    lo: int | None = None
    hi: int | None = None

    def __post_init__(self) -> None:
        for v in (self.lo, self.hi):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                raise QueryError(f"a range bound must be a non-negative integer, not {v!r}")

    def __str__(self) -> str:
        if self.lo is not None and self.lo == self.hi:
            return str(self.lo)
        return f"{'' if self.lo is None else self.lo}-{'' if self.hi is None else self.hi}"

    def __contains__(self, value: int) -> bool:
        return (self.lo is None or value >= self.lo) and (self.hi is None or value <= self.hi)

    def mask(self, values: np.ndarray) -> np.ndarray:
        ok = np.ones(len(values), bool)
        if self.lo is not None:
            ok &= values >= self.lo
        if self.hi is not None:
            ok &= values <= self.hi
        return ok


class _Text:
    keyword: ClassVar[str]

    def __str__(self) -> str:
        arg = getattr(self, "text", None) or getattr(self, "rack", None) or getattr(self, "tiles", None)
        if arg is None:
            arg = getattr(self, "range", None) or getattr(self, "side", None) or getattr(self, "name")
        return f"{self.keyword} {_quote(str(arg))}"


@dataclass(frozen=True)
class Pattern(_Text):
    """Words matching a crossword pattern (``?`` any tile, ``@`` vowel, ``#`` consonant, ``[..]`` sets, ``*`` runs)."""

    text: str
    keyword: ClassVar[str] = "pattern"


@dataclass(frozen=True)
class Anagram(_Text):
    """Words using exactly the rack's tiles (``?`` a blank)."""

    rack: str
    keyword: ClassVar[str] = "anagram"


@dataclass(frozen=True)
class Subanagram(_Text):
    """Words made from some of the rack's tiles (``?`` a blank)."""

    rack: str
    keyword: ClassVar[str] = "subanagram"


@dataclass(frozen=True)
class Length(_Text):
    """Words whose number of tiles is in the range."""

    range: Range
    keyword: ClassVar[str] = "length"


@dataclass(frozen=True)
class TakesPrefix(_Text):
    """Words that are still words with these tiles put in front (``takes-prefix re``: ``re`` + word)."""

    text: str
    keyword: ClassVar[str] = "takes-prefix"


@dataclass(frozen=True)
class TakesSuffix(_Text):
    """Words that are still words with these tiles put at the end."""

    text: str
    keyword: ClassVar[str] = "takes-suffix"


@dataclass(frozen=True)
class FrontHook(_Text):
    """Words taking at least one of these tiles as a front hook (``?``: any tile)."""

    tiles: str
    keyword: ClassVar[str] = "front-hook"


@dataclass(frozen=True)
class BackHook(_Text):
    """Words taking at least one of these tiles as a back hook (``?``: any tile)."""

    tiles: str
    keyword: ClassVar[str] = "back-hook"


@dataclass(frozen=True)
class InnerHook(_Text):
    """Words that stay words without their first (``front``) or last (``back``) tile."""

    side: Literal["front", "back"]
    keyword: ClassVar[str] = "inner-hook"


@dataclass(frozen=True)
class Contains(_Text):
    """Words holding these tiles, each as many times as given (``contains ss`` needs two ``s``)."""

    tiles: str
    keyword: ClassVar[str] = "contains"


@dataclass(frozen=True)
class Vowels(_Text):
    """Words whose number of vowel tiles is in the range."""

    range: Range
    keyword: ClassVar[str] = "vowels"


@dataclass(frozen=True)
class Distinct(_Text):
    """Words whose number of different tiles is in the range."""

    range: Range
    keyword: ClassVar[str] = "distinct"


@dataclass(frozen=True)
class Points(_Text):
    """Words whose point value (the tile set's points) is in the range."""

    range: Range
    keyword: ClassVar[str] = "points"


@dataclass(frozen=True)
class Anagrams(_Text):
    """Words whose number of anagrams (itself included) is in the range."""

    range: Range
    keyword: ClassVar[str] = "anagrams"


@dataclass(frozen=True)
class Probability(_Text):
    """Words whose probability rank within their length is in the range (1: most probable)."""

    range: Range
    keyword: ClassVar[str] = "probability"


@dataclass(frozen=True)
class Priority(_Text):
    """Words whose priority (0-255) is in the range."""

    range: Range
    keyword: ClassVar[str] = "priority"


@dataclass(frozen=True)
class InList(_Text):
    """Words also in another lexicon or word list (a name given to the search, or a path)."""

    name: str
    keyword: ClassVar[str] = "in"


@dataclass(frozen=True)
class Not:
    item: "Query"

    def __str__(self) -> str:
        return f"not {_group(self.item, Not)}"


@dataclass(frozen=True)
class And:
    items: tuple["Query", ...]

    def __str__(self) -> str:
        return " and ".join(_group(i, And) for i in self.items)


@dataclass(frozen=True)
class Or:
    items: tuple["Query", ...]

    def __str__(self) -> str:
        return " or ".join(_group(i, Or) for i in self.items)


Condition = Union[
    Pattern, Anagram, Subanagram, Length, TakesPrefix, TakesSuffix, FrontHook, BackHook, InnerHook,
    Contains, Vowels, Distinct, Points, Anagrams, Probability, Priority, InList,
]
Query = Union[Condition, And, Or, Not]

#: The conditions that take a range of numbers, and those that take text, by keyword: each made from its argument.
RANGE_CONDITIONS: dict[str, Callable[[Range], Condition]] = {
    c.keyword: c for c in (Length, Vowels, Distinct, Points, Anagrams, Probability, Priority)
}
TEXT_CONDITIONS: dict[str, Callable[[str], Condition]] = {
    c.keyword: c
    for c in (Pattern, Anagram, Subanagram, TakesPrefix, TakesSuffix, FrontHook, BackHook, Contains, InList)
}
#: Every kind of node a query tree holds.
NODE_TYPES: tuple[type, ...] = (And, Or, Not, Length, Vowels, Distinct, Points, Anagrams, Probability, Priority,
                                 Pattern, Anagram, Subanagram, TakesPrefix, TakesSuffix, FrontHook, BackHook, Contains,
                                 InList, InnerHook)
ALIASES = {
    "p": "pattern", "sub": "subanagram", "len": "length", "prob": "probability", "has": "contains",
    "unique": "distinct", "hook": "back-hook", "prefix": "takes-prefix", "suffix": "takes-suffix",
}
ARGUMENT_FIELD = {
    Pattern: "text", Anagram: "rack", Subanagram: "rack", TakesPrefix: "text", TakesSuffix: "text", Contains: "tiles",
    FrontHook: "tiles", BackHook: "tiles", InList: "name",
}
KEYWORDS = sorted([*RANGE_CONDITIONS, *TEXT_CONDITIONS, InnerHook.keyword])
RESERVED_WORDS = {"and", "or", "not"}


def _quote(arg: str) -> str:
    if arg and not re.search(r"[\s()'\"]", arg) and arg.lower() not in RESERVED_WORDS:
        return arg
    return "'" + arg.replace("'", "''") + "'"


def _group(item: "Query", parent: type) -> str:
    """``item`` as text inside ``parent``, in parentheses where the grammar would otherwise regroup it."""
    if isinstance(item, Or) or (isinstance(item, And) and parent is not Or):
        return f"({item})"
    return str(item)


def is_query(value: object) -> bool:
    """Whether ``value`` is a node of a search tree."""
    return isinstance(value, NODE_TYPES)


def uses_condition(query: "Query", kind: type) -> bool:
    """Whether the tree holds a condition of type ``kind`` anywhere (under ``not`` too).

    >>> uses_condition(And((Length(Range(7, 7)), Not(Probability(Range(1, 9))))), Probability)
    True
    """
    if isinstance(query, (And, Or)):
        return any(uses_condition(i, kind) for i in query.items)
    if isinstance(query, Not):
        return uses_condition(query.item, kind)
    return isinstance(query, kind)
