"""The search language's parser: text to a tree (grammar in ``docs/search.md``).

Precedence: ``not`` binds tightest, then ``and`` (also implied between two
conditions), then ``or``; parentheses group. Arguments with spaces or
parentheses are quoted (``'...'`` or ``"..."``, a doubled quote escapes).

>>> parse("length 7 and (contains q or contains z)")
And(items=(Length(range=Range(lo=7, hi=7)), Or(items=(Contains(tiles='q'), Contains(tiles='z')))))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...errors import QueryError
from .tree import (
    ALIASES,
    KEYWORDS,
    RANGE_CONDITIONS,
    RESERVED_WORDS,
    TEXT_CONDITIONS,
    And,
    InnerHook,
    Not,
    Or,
    Query,
    Range,
    is_query,
)

MAX_EXPRESSION = 10_000
MAX_CONDITIONS = 200
MAX_DEPTH = 50

@dataclass(frozen=True)
class _Token:
    text: str
    pos: int
    quoted: bool = False


_TOKEN = re.compile(r"""\s*(?:(?P<paren>[()])|'(?P<sq>(?:[^']|'')*)'|"(?P<dq>(?:[^"]|"")*)"|(?P<bare>[^\s()'"]+)|(?P<bad>['"]))""")


def _tokens(text: str) -> list[_Token]:
    out = []
    pos = 0
    while True:
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            break
        start = m.start(m.lastgroup) if m.lastgroup else m.start()
        if m.group("bad") is not None:
            raise QueryError(f"search: position {start}: a quote that is never closed")
        if m.group("paren") is not None:
            out.append(_Token(m.group("paren"), start))
        elif m.group("sq") is not None:
            out.append(_Token(m.group("sq").replace("''", "'"), start - 1, True))
        elif m.group("dq") is not None:
            out.append(_Token(m.group("dq").replace('""', '"'), start - 1, True))
        else:
            out.append(_Token(m.group("bare"), start))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.conditions = 0
        self.depth = 0

    def peek(self) -> _Token | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def fail(self, expected: str) -> QueryError:
        tok = self.peek()
        if tok is None:
            return QueryError(f"search: position {len(self.text)}: expected {expected}, found the end")
        return QueryError(f"search: position {tok.pos}: expected {expected}, found {tok.text!r}")

    def word(self, tok: _Token | None) -> str | None:
        return None if tok is None or tok.quoted else tok.text.lower()

    def parse(self) -> Query:
        if not self.toks:
            raise QueryError("search: the expression is empty")
        q = self.or_expr()
        if self.peek() is not None:
            raise self.fail("'and', 'or' or the end" if self.word(self.peek()) != ")" else "the end ('(' missing)")
        return q

    def or_expr(self) -> Query:
        items = [self.and_expr()]
        while self.word(self.peek()) == "or":
            self.i += 1
            items.append(self.and_expr())
        return items[0] if len(items) == 1 else Or(tuple(items))

    def and_expr(self) -> Query:
        items = [self.not_expr()]
        while True:
            w = self.word(self.peek())
            if w == "and":
                self.i += 1
            elif w is None or w in ("or", ")"):
                break
            items.append(self.not_expr())
        return items[0] if len(items) == 1 else And(tuple(items))

    def nest(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            tok = self.peek()
            raise QueryError(f"search: position {tok.pos if tok else len(self.text)}: nested deeper than {MAX_DEPTH} levels")

    def not_expr(self) -> Query:
        tok = self.peek()
        w = self.word(tok)
        if w == "not":
            self.nest()
            self.i += 1
            negated = Not(self.not_expr())
            self.depth -= 1
            return negated
        if tok is not None and w == "(":
            self.nest()
            self.i += 1
            q = self.or_expr()
            self.depth -= 1
            if self.word(self.peek()) != ")":
                raise self.fail("')' to close the '(' at position %d" % tok.pos)
            self.i += 1
            return q
        return self.condition()

    def condition(self) -> Query:
        tok = self.peek()
        w = self.word(tok)
        w = ALIASES.get(w, w) if w is not None else None
        if tok is None or w is None or (w not in RANGE_CONDITIONS and w not in TEXT_CONDITIONS
                                        and w != InnerHook.keyword):
            raise self.fail("a condition (" + ", ".join(KEYWORDS) + ")")
        self.conditions += 1
        if self.conditions > MAX_CONDITIONS:
            raise QueryError(f"search: more than {MAX_CONDITIONS} conditions")
        self.i += 1
        arg = self.peek()
        if arg is None or (not arg.quoted and arg.text in "()"):
            raise self.fail(f"an argument after {tok.text!r}")
        self.i += 1
        if w in RANGE_CONDITIONS:
            rng = parse_range(arg.text)
            if rng is None:
                self.i -= 1
                raise self.fail(f"a number or range (7, 3-5, 3-, -5, >=3, <10) after {tok.text!r}")
            return RANGE_CONDITIONS[w](rng)
        if w == InnerHook.keyword:
            side = arg.text.lower()
            if side not in ("front", "back"):
                self.i -= 1
                raise self.fail("'front' or 'back' after 'inner-hook'")
            return InnerHook("front" if side == "front" else "back")
        if not arg.text:
            self.i -= 1
            raise self.fail(f"a non-empty argument after {tok.text!r}")
        return TEXT_CONDITIONS[w](arg.text)


_RANGE = re.compile(r"^(?:(?P<one>\d+)|(?P<lo>\d+)?-(?P<hi>\d+)?|(?P<op>[<>]=?)(?P<n>\d+))$")


def parse_range(text: str) -> Range | None:
    """``7``, ``3-5``, ``3-``, ``-5``, ``>=3``, ``<10`` as a :class:`Range`, or None.

    >>> parse_range(">=3"), parse_range("<10")
    (Range(lo=3, hi=None), Range(lo=None, hi=9))
    """
    m = _RANGE.match(text.strip())
    if m is None or text.strip() == "-":
        return None
    if len(re.sub(r"\D", "", text)) > 12:
        return None
    if m.group("one") is not None:
        return Range(int(m.group("one")), int(m.group("one")))
    if m.group("op") is not None:
        n, op = int(m.group("n")), m.group("op")
        if op == ">=":
            return Range(n, None)
        if op == ">":
            return Range(n + 1, None)
        if op == "<=":
            return Range(None, n)
        return Range(None, n - 1) if n > 0 else Range(1, 0)
    lo, hi = m.group("lo"), m.group("hi")
    return Range(None if lo is None else int(lo), None if hi is None else int(hi))


def parse(text: str) -> Query:
    """Parse a search expression into its tree; a ``QueryError`` names the position and what was expected.

    >>> parse("(vowels 3 or contains j) and not in other.txt")
    And(items=(Or(items=(Vowels(range=Range(lo=3, hi=3)), Contains(tiles='j'))), Not(item=InList(name='other.txt'))))
    >>> parse("length 7 and")
    Traceback (most recent call last):
    ...
    lexigraph.errors.QueryError: search: position 12: expected a condition (anagram, anagrams, back-hook, contains, distinct, front-hook, in, inner-hook, length, pattern, points, priority, probability, subanagram, takes-prefix, takes-suffix, vowels), found the end
    """
    if not isinstance(text, str):
        raise QueryError(f"a search expression must be a str, not {type(text).__name__}")
    if len(text) > MAX_EXPRESSION:
        raise QueryError(f"search: the expression is longer than {MAX_EXPRESSION:,} characters")
    return _Parser(text).parse()


_PARSED: dict[str, Query] = {}


def as_query(query: "Query | str") -> Query:
    """A tree as given, or the tree of a search expression (the last few hundred parsed are kept)."""
    if isinstance(query, str):
        tree = _PARSED.get(query)
        if tree is None:
            tree = parse(query)
            if len(_PARSED) >= 256:
                _PARSED.clear()
            _PARSED[query] = tree
        return tree
    if not is_query(query):
        raise QueryError(f"a search is an expression or a query tree, not {type(query).__name__}")
    return query
