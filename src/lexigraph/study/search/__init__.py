"""Study searches: conditions on words combined with ``and``, ``or``, ``not`` and parentheses.

A search is a typed tree (:mod:`.tree`, one dataclass per condition) that
:func:`parse` (:mod:`.parser`) builds from text such as ``length 7 and
probability 1-1000 and back-hook s`` (grammar and every condition in
``docs/search.md``); programs may build the tree directly.
:func:`search_ids` (:mod:`.evaluator`) evaluates it over NumPy columns,
length bucket by length bucket.

>>> import lexigraph
>>> lex = lexigraph.open()
>>> q = parse("length 7 and anagram aeinrst")
>>> q
And(items=(Length(range=Range(lo=7, hi=7)), Anagram(rack='aeinrst')))
>>> str(q)
'length 7 and anagram aeinrst'
>>> lex.search(q)
['anestri', 'antsier', 'nastier', 'ratines', 'retains', 'retinas', 'retsina', 'stainer', 'stearin']
>>> lex.search("pattern q* and not contains u and length -4")
['qaid', 'qat', 'qats', 'qoph']
"""

from __future__ import annotations

from .evaluator import (
    INDEX_ABOVE,
    MAX_RACK,
    SEARCH_SORTS,
    Found,
    ListSource,
    OpenList,
    OpenListFunction,
    Sort,
    compile_pattern,
    search,
    search_ids,
)
from .parser import MAX_CONDITIONS, MAX_DEPTH, MAX_EXPRESSION, as_query, parse, parse_range
from .tree import (
    ALIASES,
    KEYWORDS,
    And,
    Anagram,
    Anagrams,
    BackHook,
    Condition,
    Contains,
    Distinct,
    FrontHook,
    InList,
    InnerHook,
    Length,
    Not,
    Or,
    Pattern,
    Points,
    Priority,
    Probability,
    Query,
    Range,
    Subanagram,
    TakesPrefix,
    TakesSuffix,
    Vowels,
    is_query,
    uses_condition,
)

__all__ = [
    "ALIASES", "INDEX_ABOVE", "KEYWORDS", "MAX_CONDITIONS", "MAX_DEPTH", "MAX_EXPRESSION", "MAX_RACK", "SEARCH_SORTS",
    "And", "Anagram", "Anagrams", "BackHook", "Condition", "Contains", "Distinct", "Found", "FrontHook", "InList",
    "InnerHook", "Length", "ListSource", "Not", "OpenList", "OpenListFunction", "Or", "Pattern", "Points", "Priority",
    "Probability", "Query", "Range", "Sort", "Subanagram", "TakesPrefix", "TakesSuffix", "Vowels", "as_query",
    "compile_pattern", "is_query", "parse", "parse_range", "search", "search_ids", "uses_condition",
]
