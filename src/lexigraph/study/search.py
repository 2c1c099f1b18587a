"""Study searches: conditions on words combined with ``and``, ``or``, ``not`` and parentheses.

A search is a typed tree (the dataclasses below) that :func:`parse` builds
from text such as ``length 7 and probability 1-1000 and back-hook s``
(grammar and every condition in ``docs/search.md``); programs may build the
tree directly. :func:`search_ids` evaluates it length bucket by length
bucket over NumPy columns (:mod:`lexigraph.study.columns`): an ``and`` narrows the
candidate rows condition by condition, cheapest first, so later conditions
only see the survivors; an ``or`` tests each branch on the rows not yet
accepted; nothing loops over words in Python. Conditions that fix or bound
the length (``length``, ``anagram``, a pattern without ``*``) restrict the
buckets visited at all.

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

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, Union, runtime_checkable

import numpy as np

from . import columns
from .columns import contains_rows, first_id, keys
from ..errors import LexiconError, QueryError
from ..query.pattern import parse as parse_pattern
from .probability import point_values, probability_ranks, tile_set

if TYPE_CHECKING:  # pragma: no cover
    from .probability import TileSet
    from ..engine.probe import Probe
    from ..engine.store import Store
    from ..engine.wordgraph import WordGraph

MAX_EXPRESSION = 10_000
MAX_CONDITIONS = 200
MAX_DEPTH = 50
#: Above this many candidate rows, a rack is answered by the anagram index / graph walk, not by counting tiles.
INDEX_ABOVE = 256
MAX_RACK = 64
SEARCH_SORTS = ("alpha", "length", "probability", "priority")
Sort = Literal["alpha", "length", "probability", "priority"]

# -- the tree ------------------------------------------------------------------


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

_RANGE_CONDITIONS: dict[str, type] = {
    c.keyword: c for c in (Length, Vowels, Distinct, Points, Anagrams, Probability, Priority)
}
_TEXT_CONDITIONS: dict[str, type] = {
    c.keyword: c
    for c in (Pattern, Anagram, Subanagram, TakesPrefix, TakesSuffix, FrontHook, BackHook, Contains, InList)
}
ALIASES = {
    "p": "pattern", "sub": "subanagram", "len": "length", "prob": "probability", "has": "contains",
    "unique": "distinct", "hook": "back-hook", "prefix": "takes-prefix", "suffix": "takes-suffix",
}
_ARG = {
    Pattern: "text", Anagram: "rack", Subanagram: "rack", TakesPrefix: "text", TakesSuffix: "text", Contains: "tiles",
    FrontHook: "tiles", BackHook: "tiles", InList: "name",
}
KEYWORDS = sorted([*_RANGE_CONDITIONS, *_TEXT_CONDITIONS, InnerHook.keyword])
_WORDS = {"and", "or", "not"}


def _quote(arg: str) -> str:
    if arg and not re.search(r"[\s()'\"]", arg) and arg.lower() not in _WORDS:
        return arg
    return "'" + arg.replace("'", "''") + "'"


def _group(item: "Query", parent: type) -> str:
    """``item`` as text inside ``parent``, in parentheses where the grammar would otherwise regroup it."""
    if isinstance(item, Or) or (isinstance(item, And) and parent is not Or):
        return f"({item})"
    return str(item)


# -- parsing -------------------------------------------------------------------


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
        if w == "(":
            self.nest()
            self.i += 1
            q = self.or_expr()
            self.depth -= 1
            if self.word(self.peek()) != ")":
                raise self.fail("')' to close the '(' at position %d" % tok.pos)  # type: ignore[union-attr]
            self.i += 1
            return q
        return self.condition()

    def condition(self) -> Query:
        tok = self.peek()
        w = self.word(tok)
        w = ALIASES.get(w, w) if w is not None else None
        if w is None or (w not in _RANGE_CONDITIONS and w not in _TEXT_CONDITIONS and w != InnerHook.keyword):
            raise self.fail("a condition (" + ", ".join(KEYWORDS) + ")")
        self.conditions += 1
        if self.conditions > MAX_CONDITIONS:
            raise QueryError(f"search: more than {MAX_CONDITIONS} conditions")
        self.i += 1
        arg = self.peek()
        if arg is None or (not arg.quoted and arg.text in "()"):
            raise self.fail(f"an argument after {tok.text!r}")  # type: ignore[union-attr]
        self.i += 1
        if w in _RANGE_CONDITIONS:
            rng = parse_range(arg.text)
            if rng is None:
                self.i -= 1
                raise self.fail(f"a number or range (7, 3-5, 3-, -5, >=3, <10) after {tok.text!r}")  # type: ignore[union-attr]
            return _RANGE_CONDITIONS[w](rng)  # type: ignore[no-any-return]
        if w == InnerHook.keyword:
            side = arg.text.lower()
            if side not in ("front", "back"):
                self.i -= 1
                raise self.fail("'front' or 'back' after 'inner-hook'")
            return InnerHook(side)  # type: ignore[arg-type]
        if not arg.text:
            self.i -= 1
            raise self.fail(f"a non-empty argument after {tok.text!r}")  # type: ignore[union-attr]
        return _TEXT_CONDITIONS[w](arg.text)  # type: ignore[no-any-return]


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


# -- evaluation ------------------------------------------------------------------

Cells = list[np.ndarray | None]  # None: a star


def compile_pattern(alphabet: Any, text: str) -> Cells:
    """A pattern's cells: allowed tile codes per position, ``None`` for a ``*`` run.

    The pattern language of :meth:`lexigraph.Lexicon.match`, read by its one
    parser (:func:`lexigraph.query.pattern.parse`).
    """
    return list(parse_pattern(alphabet, text).cells)


@dataclass(frozen=True)
class _Rack:
    counts: dict[int, int]
    blanks: int

    @property
    def size(self) -> int:
        return sum(self.counts.values()) + self.blanks


@runtime_checkable
class OpenList(Protocol):
    """A word list already open for ``in NAME``: its engines (a :class:`lexigraph.Lexicon` is one)."""

    @property
    def store(self) -> "Store": ...

    @property
    def probe(self) -> "Probe": ...


ListSource = Union[OpenList, Iterable[str], str]
#: Opens an ``in NAME`` list given as words or a path (``lexigraph.load``).
OpenListFunction = Callable[[Any], OpenList]


def _contains(store: "Store", probe: "Probe") -> Callable[[Any], bool]:
    """Membership of one word in ``store`` through ``probe``: what the C batch leaves undecided."""

    def contains(word: Any) -> bool:
        if not isinstance(word, str):
            return False
        key = store.alphabet.encode(word)
        return key is not None and probe.id_of_codes(key) >= 0

    return contains


class _Evaluator:
    def __init__(self, store: "Store", graph: "WordGraph", probe: "Probe", lists: Mapping[str, Any], blanks: int,
                 tiles: Any, open_list: OpenListFunction | None) -> None:
        self.store = store
        self.graph = graph
        self.probe = probe
        self.open_list = open_list
        self.lists = dict(lists)
        self.blanks = blanks
        self.tiles = tiles
        self.memo: dict[Any, Any] = {}
        self.span = (1, 1 << 30)  # the lengths the search visits
        n = len(store.alphabet)
        self.n_tiles = n

    # -- arguments -----------------------------------------------------------------

    def bag(self) -> "TileSet":
        return tile_set(self.store, self.tiles)

    def codes(self, text: str, what: str) -> bytes:
        codes = self.store.alphabet.encode(text)
        if codes is None or not codes:
            raise QueryError(f"{what} {text!r} is not made of tiles of this lexicon")
        return codes

    def rack(self, text: str) -> _Rack:
        key = ("rack", text)
        if key not in self.memo:
            blanks = text.count("?")
            rest = text.replace("?", "")
            codes = self.codes(rest, "the rack") if rest else b""
            if len(codes) + blanks > MAX_RACK:
                raise QueryError(f"the rack {text!r} holds more than {MAX_RACK} tiles")
            self.memo[key] = _Rack(dict(Counter(codes)), blanks)
        return self.memo[key]  # type: ignore[no-any-return]

    def rack_rows(self, q: "Anagram | Subanagram", n: int) -> np.ndarray:
        """Rows of bucket ``n`` that fit the rack, through the anagram index and graph walk
        (:func:`lexigraph.query.anagram.find_ids`), found once per search for all lengths."""
        key = ("rack ids", type(q), q.rack)
        ids = self.memo.get(key)
        if ids is None:
            from ..query.anagram import find_ids, parse_anagram_rack

            rack = parse_anagram_rack(self.store.alphabet, q.rack)
            mode = "exact" if isinstance(q, Anagram) else "sub"
            lo, hi = self.span
            ids = np.sort(find_ids(self.store, rack, mode=mode, min_length=max(1, lo), max_length=hi,
                                   graph=self.graph, probe=self.probe))
            self.memo[key] = ids
        first = first_id(self.store, n)
        lo, hi = np.searchsorted(ids, [first, first + len(self.store.rows(n))])
        rows: np.ndarray = ids[lo:hi] - first
        return rows

    def pattern(self, text: str) -> Cells:
        key = ("pattern", text)
        if key not in self.memo:
            self.memo[key] = compile_pattern(self.store.alphabet, text)
        return self.memo[key]  # type: ignore[no-any-return]

    def hook_tiles(self, text: str) -> bytes | None:
        """Codes of the tiles named, or None for ``?`` (any tile)."""
        if text == "?":
            return None
        return bytes(sorted(set(self.codes(text, "the hook tiles"))))

    def other(self, name: str) -> OpenList:
        key = ("list", name)
        if key not in self.memo:
            source = self.lists.get(name, name)
            if isinstance(source, OpenList):
                other = source
            elif self.open_list is None:
                raise QueryError(f"in {name}: no way to open lists was given (open_list)")
            else:
                try:
                    other = self.open_list(source)
                except LexiconError as e:
                    raise QueryError(f"in {name}: {e}") from None
                except OSError as e:
                    raise QueryError(f"in {name}: cannot read it ({e.strerror or e})") from None
            self.memo[key] = other
        return self.memo[key]  # type: ignore[no-any-return]

    def validate(self, q: Query, depth: int = 0) -> None:
        """Check every argument of the tree before any bucket is read: errors never depend on the words."""
        if depth > MAX_DEPTH:
            raise QueryError(f"search: the query tree is nested deeper than {MAX_DEPTH} levels")
        if isinstance(q, (And, Or)):
            if not isinstance(q.items, tuple) or len(q.items) > MAX_CONDITIONS:
                raise QueryError(f"search: {type(q).__name__} takes a tuple of at most {MAX_CONDITIONS} items")
            if not q.items:
                raise QueryError(f"search: an empty {type(q).__name__}")
            for item in q.items:
                self.validate(item, depth + 1)
            return
        if isinstance(q, Not):
            self.validate(q.item, depth + 1)
            return
        if type(q) in _ARG:
            if not isinstance(getattr(q, _ARG[type(q)]), str):
                raise QueryError(f"search: the argument of {q.keyword} must be a str")
        elif isinstance(q, (Length, Vowels, Distinct, Anagrams, Priority, Points, Probability)):
            if not isinstance(q.range, Range):
                raise QueryError(f"search: the argument of {q.keyword} must be a Range")
        elif not isinstance(q, InnerHook):
            raise QueryError(f"search: {q!r} is not a condition")
        if isinstance(q, Pattern):
            self.pattern(q.text)
        elif isinstance(q, (Anagram, Subanagram)):
            self.rack(q.rack)
        elif isinstance(q, (TakesPrefix, TakesSuffix)):
            self.codes(q.text, q.keyword)
        elif isinstance(q, Contains):
            self.codes(q.tiles, q.keyword)
        elif isinstance(q, (FrontHook, BackHook)):
            self.hook_tiles(q.tiles)
        elif isinstance(q, InnerHook):
            if q.side not in ("front", "back"):
                raise QueryError(f"inner-hook: the side is 'front' or 'back', not {q.side!r}")
        elif isinstance(q, Points):
            self.bag().point_table()
        elif isinstance(q, Probability):
            self.bag().check_blanks(self.blanks)
        elif isinstance(q, InList):
            self.other(q.name)

    # -- which lengths can match -------------------------------------------------------

    def lengths(self, q: Query, universe: frozenset[int]) -> frozenset[int]:
        if isinstance(q, Length):
            return frozenset(n for n in universe if n in q.range)
        if isinstance(q, Anagram):
            return universe & {self.rack(q.rack).size}
        if isinstance(q, Subanagram):
            return frozenset(n for n in universe if n <= self.rack(q.rack).size)
        if isinstance(q, Pattern):
            cells = self.pattern(q.text)
            fixed = sum(c is not None for c in cells)
            if fixed < len(cells):
                return frozenset(n for n in universe if n >= fixed)
            return universe & {fixed}
        if isinstance(q, Contains):
            need = len(self.codes(q.tiles, "contains"))
            return frozenset(n for n in universe if n >= need)
        if isinstance(q, And):
            out = universe
            for item in q.items:
                out = self.lengths(item, out)
            return out
        if isinstance(q, Or):
            return frozenset().union(*(self.lengths(item, universe) for item in q.items))
        return universe

    # -- cost: cheap conditions first in an 'and' ------------------------------------------------

    def cost(self, q: Query) -> int:
        if isinstance(q, Length):
            return 0
        if isinstance(q, (Priority, Vowels, Distinct, Anagrams, Probability, Points, Anagram, Subanagram)):
            return 1
        if isinstance(q, (Pattern, Contains)):
            return 2
        if isinstance(q, (FrontHook, BackHook, InnerHook, TakesPrefix, TakesSuffix)):
            return 4
        if isinstance(q, InList):
            return 5
        if isinstance(q, Not):
            return self.cost(q.item) + 1
        if isinstance(q, (And, Or)):
            return max(self.cost(i) for i in q.items) + 1
        return 9  # pragma: no cover

    # -- rows of one bucket that satisfy q ---------------------------------------------

    def run(self, q: Query, n: int, idx: np.ndarray) -> np.ndarray:
        """The subset of ``idx`` (ascending rows of bucket ``n``) that satisfies ``q``."""
        if not len(idx):
            return idx
        if isinstance(q, And):
            for item in sorted(q.items, key=self.cost):
                idx = self.run(item, n, idx)
                if not len(idx):
                    break
            return idx
        if isinstance(q, Or):
            # Marks over the bucket's rows: each branch sees only the rows not yet accepted.
            marked = np.zeros(int(idx[-1]) + 1, bool)
            rest = idx
            for item in sorted(q.items, key=self.cost):
                got = self.run(item, n, rest)
                if len(got):
                    marked[got] = True
                    rest = rest[~marked[rest]]
                if not len(rest):
                    break
            accepted: np.ndarray = idx[marked[idx]]
            return accepted
        if isinstance(q, Length):
            return idx if n in q.range else idx[:0]
        if isinstance(q, Pattern):
            return self.pattern_rows(self.pattern(q.text), n, idx)
        if isinstance(q, (Anagram, Subanagram)) and len(idx) > INDEX_ABOVE:
            marks = np.zeros(len(self.store.rows(n)), bool)
            marks[self.rack_rows(q, n)] = True
            found: np.ndarray = idx[marks[idx]]
            return found
        if isinstance(q, Not):
            keep = np.ones(int(idx[-1]) + 1, bool)
            keep[self.run(q.item, n, idx)] = False
            kept: np.ndarray = idx[keep[idx]]
            return kept
        passed: np.ndarray = idx[self.test(q, n, idx)]
        return passed

    def test(self, q: Condition, n: int, idx: np.ndarray) -> np.ndarray:
        """Boolean mask over ``idx`` for one condition."""
        store = self.store
        if isinstance(q, Length):
            return np.full(len(idx), n in q.range)
        if isinstance(q, (Priority, Vowels, Distinct, Anagrams, Points, Probability)):
            column = self.column(q, n)
            # idx holds distinct rows of the bucket: as many as the column means all of them, in order.
            return q.range.mask(column if len(idx) == len(column) else column[idx])
        rows = store.rows(n)
        if isinstance(q, (Anagram, Subanagram)):
            rack = self.rack(q.rack)
            if n > rack.size or (isinstance(q, Anagram) and n != rack.size):
                return np.zeros(len(idx), bool)
            sub = rows[idx]
            used = np.zeros(len(idx), np.int64)
            for code, have in rack.counts.items():
                used += np.minimum(columns.occurrences_per_row(sub, code), have)
            return n - used <= rack.blanks
        if isinstance(q, Contains):
            sub = rows if len(idx) == len(rows) else rows[idx]  # all rows: no gather
            ok = np.ones(len(idx), bool)
            for code, need in Counter(self.codes(q.tiles, "contains")).items():
                ok &= (sub == code).any(1) if need == 1 else columns.occurrences_per_row(sub, code) >= need
            return ok
        if isinstance(q, (TakesPrefix, TakesSuffix)):
            extra = np.frombuffer(self.codes(q.text, q.keyword), np.uint8)
            sub = rows[idx]
            block = np.broadcast_to(extra, (len(idx), len(extra)))
            parts = (block, sub) if isinstance(q, TakesPrefix) else (sub, block)
            return contains_rows(store, np.concatenate(parts, axis=1))
        if isinstance(q, (FrontHook, BackHook)):
            return self.hook_mask(q, n, idx)
        if isinstance(q, InnerHook):
            if n < 2:
                return np.zeros(len(idx), bool)
            sub = rows[idx]
            return contains_rows(store, np.ascontiguousarray(sub[:, 1:] if q.side == "front" else sub[:, :-1]))
        if isinstance(q, InList):
            return self.in_list_mask(self.other(q.name), n, idx)
        raise QueryError(f"search: {q!r} is not a condition")

    def column(self, q: "Priority | Vowels | Distinct | Anagrams | Points | Probability", n: int) -> np.ndarray:
        """The bucket's column that a range condition tests."""
        store = self.store
        if isinstance(q, Priority):
            first = first_id(store, n)
            prio: np.ndarray = store.priorities()[first : first + len(store.rows(n))]
            return prio
        if isinstance(q, Vowels):
            return columns.vowel_counts(store, n)
        if isinstance(q, Distinct):
            return columns.distinct_counts(store, n)
        if isinstance(q, Anagrams):
            return columns.anagram_counts(store, n)
        if isinstance(q, Points):
            return point_values(store, n, self.bag())
        return probability_ranks(store, n, self.blanks, self.bag())

    def hook_mask(self, q: "FrontHook | BackHook", n: int, idx: np.ndarray) -> np.ndarray:
        store = self.store
        if n + 1 not in store.lengths:
            return np.zeros(len(idx), bool)
        sub = np.ascontiguousarray(store.rows(n)[idx])
        tiles = self.hook_tiles(q.tiles)
        if tiles is None:  # any tile: is there a longer word around this one?
            if isinstance(q, BackHook):
                lo, hi = columns.bucket_keys(store, n + 1).ranges(sub)
            else:
                from .hooks import tail_keys

                lo, hi = tail_keys(store, n + 1)[1].ranges(sub)
            return hi > lo
        ok = np.zeros(len(idx), bool)
        cand = np.empty((len(idx), n + 1), np.uint8)
        for code in tiles:
            if isinstance(q, BackHook):
                cand[:, :n] = sub
                cand[:, n] = code
            else:
                cand[:, 1:] = sub
                cand[:, 0] = code
            todo = ~ok
            ok[todo] = contains_rows(store, cand[todo])
        return ok

    def in_list_mask(self, other: OpenList, n: int, idx: np.ndarray) -> np.ndarray:
        from ..query.batch import check_many

        store = self.store
        other_store, other_probe = other.store, other.probe
        if other_store.alphabet.labels == store.alphabet.labels:
            if n not in other_store.lengths:
                return np.zeros(len(idx), bool)
            mine, theirs = columns.bucket_keys(store, n), columns.bucket_keys(other_store, n)
            if mine.bits == theirs.bits:  # the same packing: compare the cached keys directly
                return theirs.contains_keys(mine.keys[idx])
            return contains_rows(other_store, np.ascontiguousarray(store.rows(n)[idx]))
        words = store.words_of_ids(first_id(store, n) + idx)
        return np.asarray(check_many(other_store, other_probe, words, _contains(other_store, other_probe)), bool)

    def pattern_rows(self, cells: Cells, n: int, idx: np.ndarray) -> np.ndarray:
        """The subset of ``idx`` matching the pattern: a run of single tiles at the start narrows
        the sorted bucket by binary search, then each fixed cell is tested on the survivors only
        (fewest allowed tiles first), then an automaton runs over the middle of ``* .. * ..*``."""
        store = self.store
        rows = store.rows(n)
        full = self.n_tiles
        stars = [j for j, c in enumerate(cells) if c is None]
        if not stars:
            if len(cells) != n:
                return idx[:0]
            head, middle, tail = cells, [], []
        else:
            first, last = stars[0], stars[-1]
            head, middle, tail = cells[:first], cells[first : last + 1], cells[last + 1 :]
            if sum(c is not None for c in cells) > n:
                return idx[:0]
        fixed = [(j, c) for j, c in enumerate(head)] + [(n - len(tail) + j, c) for j, c in enumerate(tail)]
        prefix = bytearray()
        for c in head:
            if c is None or len(c) != 1:
                break
            prefix.append(int(c[0]))
        if prefix:
            lo, hi = columns.bucket_keys(store, n).ranges(np.frombuffer(bytes(prefix), np.uint8).reshape(1, -1))
            idx = idx[np.searchsorted(idx, lo[0]) : np.searchsorted(idx, hi[0])]
            fixed = fixed[len(prefix) :]
        whole = len(idx) == len(rows)  # all rows: columns are read as views, not gathered
        for j, cell in sorted(fixed, key=lambda jc: len(jc[1])):  # type: ignore[arg-type]
            if len(cell) == full or not len(idx):  # type: ignore[arg-type]
                continue
            column = rows[:, j] if whole else rows[idx, j]
            idx = idx[columns.lut(cell)[column] if len(cell) > 1 else column == cell[0]]  # type: ignore[index, arg-type]
            whole = False
        inner = list(middle[1:-1]) if middle else []
        if inner and len(idx):  # '*' seg '*' ... : a small automaton run over the middle columns
            idx = idx[_glob_middle(inner, rows[idx, len(head) : n - len(tail)])]
        return idx


def _glob_middle(cells: Cells, rows: np.ndarray) -> np.ndarray:
    """Rows matching ``* cells *`` (cells may hold further stars): a vectorised NFA over the columns."""
    k = len(cells)
    tests = [None if c is None else columns.lut(c) for c in cells]
    state = np.zeros((len(rows), k + 1), bool)
    state[:, 0] = True

    def close(s: np.ndarray) -> None:
        for i in range(k):
            if tests[i] is None:
                s[:, i + 1] |= s[:, i]

    close(state)
    for j in range(rows.shape[1]):
        col = rows[:, j]
        new = np.zeros_like(state)
        new[:, 0] = state[:, 0]  # the leading '*'
        for i in range(k):
            t = tests[i]
            if t is None:
                new[:, i] |= state[:, i]
            else:
                new[:, i + 1] |= state[:, i] & t[col]
        new[:, k] |= state[:, k]  # the trailing '*'
        close(new)
        state = new
    return state[:, k]


# -- the query as a whole -------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """Word ids that matched, in result order, and how many matched before paging."""

    ids: np.ndarray
    lengths: np.ndarray
    total: int
    groups: np.ndarray | None = None


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
    if not isinstance(query, (And, Or, Not, *_RANGE_CONDITIONS.values(), *_TEXT_CONDITIONS.values(), InnerHook)):
        raise QueryError(f"a search is an expression or a query tree, not {type(query).__name__}")
    return query


def search_ids(
    store: "Store",
    graph: "WordGraph",
    probe: "Probe",
    query: "Query | str",
    *,
    sort: Sort = "alpha",
    group: bool = False,
    offset: int = 0,
    limit: int | None = None,
    lists: Mapping[str, ListSource] | None = None,
    blanks: int = 2,
    tiles: Any = None,
    open_list: OpenListFunction | None = None,
) -> Found:
    """Evaluate a search over the engines of one lexicon: matching word ids, sorted (and grouped by
    alphagram), paged. ``open_list`` opens an ``in NAME`` list given as words or a path (pass
    ``lexigraph.load``); a list given already open (with ``store`` and ``probe``) is used as it is.

    >>> import lexigraph
    >>> lex = lexigraph.open()
    >>> found = search_ids(lex.store, lex.graph, lex.probe, "length 2 and contains x", limit=2)
    >>> lex.store.words_of_ids(found.ids), found.total
    (['ax', 'ex'], 5)
    """
    q = as_query(query)
    if sort not in SEARCH_SORTS:
        raise QueryError(f"unknown sort {sort!r}; use {', '.join(SEARCH_SORTS)}")
    for name, v in (("offset", offset), ("limit", limit)):
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            raise QueryError(f"{name} must be a non-negative integer")
    ev = _Evaluator(store, graph, probe, lists or {}, blanks, tiles, open_list)
    if sort == "probability":
        ev.bag().check_blanks(blanks)
    ev.validate(q)
    lengths = sorted(ev.lengths(q, frozenset(store.lengths)))
    ev.span = (lengths[0], lengths[-1]) if lengths else (1, 0)
    id_parts, len_parts, rank_parts, group_parts = [], [], [], []
    for n in lengths:
        count = len(store.rows(n))
        rows = ev.run(q, n, np.arange(count, dtype=np.int64))
        if not len(rows):
            continue
        id_parts.append(first_id(store, n) + rows)
        len_parts.append(np.full(len(rows), n, np.int64))
        if sort == "probability":
            rank_parts.append(probability_ranks(store, n, blanks, ev.bag())[rows])
        if group:
            group_parts.append(columns.alphagram_groups(store, n)[0][rows])
    if not id_parts:
        empty = np.zeros(0, np.int64)
        return Found(empty, empty, 0, empty if group else None)
    ids = np.concatenate(id_parts)
    lens = np.concatenate(len_parts)
    order = _order(store, ids, lens, sort, np.concatenate(rank_parts) if rank_parts else None)
    groups = None
    if group:
        g = np.concatenate(group_parts)[order]
        key = lens[order] * (int(g.max()) + 1) + g  # one key per alphagram across lengths
        _, first_at, inverse = np.unique(key, return_index=True, return_inverse=True)
        # Groups in the order of their first member; members keep their order.
        regroup = np.argsort(first_at[inverse.ravel()], kind="stable")
        order = order[regroup]
        key = key[regroup]
        groups = np.concatenate([[0], np.cumsum(key[1:] != key[:-1])]).astype(np.int64)  # 0, 1, ... in order
    end = None if limit is None else offset + limit
    sel = order[offset:end]
    return Found(ids[sel], lens[sel], len(ids), None if groups is None else groups[offset:end])


def _uses(q: Query, kind: type) -> bool:
    if isinstance(q, (And, Or)):
        return any(_uses(i, kind) for i in q.items)
    if isinstance(q, Not):
        return _uses(q.item, kind)
    return isinstance(q, kind)


def _order(store: "Store", ids: np.ndarray, lens: np.ndarray, sort: str, ranks: np.ndarray | None) -> np.ndarray:
    """Positions of ``ids`` in result order."""
    if int(lens.min()) == int(lens.max()):
        order = np.arange(len(ids))  # one length: ids ascending are in tile order already
    else:
        width = int(lens.max())
        padded = np.zeros((len(ids), width), np.uint8)
        for n in np.unique(lens).tolist():
            at = np.flatnonzero(lens == n)
            padded[at, :n] = store.rows(n)[ids[at] - first_id(store, n)]
        order = np.argsort(keys(padded), kind="stable")
    if sort == "length":
        order = order[np.argsort(lens[order], kind="stable")]
    elif sort == "priority":
        order = order[np.argsort(-store.priorities()[ids[order]].astype(np.int64), kind="stable")]
    elif sort == "probability":
        assert ranks is not None
        order = order[np.lexsort((lens[order], ranks[order]))]
    return order


def search(
    store: "Store",
    graph: "WordGraph",
    probe: "Probe",
    query: "Query | str",
    *,
    sort: Sort = "alpha",
    offset: int = 0,
    limit: int | None = None,
    lists: Mapping[str, ListSource] | None = None,
    blanks: int = 2,
    tiles: Any = None,
    open_list: OpenListFunction | None = None,
) -> list[str]:
    """Words matching a search (see :meth:`lexigraph.Lexicon.search` and :func:`search_ids`)."""
    found = search_ids(store, graph, probe, query, sort=sort, offset=offset, limit=limit, lists=lists,
                       blanks=blanks, tiles=tiles, open_list=open_list)
    return store.words_of_ids(found.ids)


Evaluate = Callable[[Query, int, np.ndarray], np.ndarray]
