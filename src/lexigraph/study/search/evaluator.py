"""Evaluating a search tree over the length buckets, in NumPy columns.

The tree is evaluated length bucket by length bucket over NumPy columns
(:mod:`lexigraph.study.columns`): an ``and`` narrows the candidate rows
condition by condition, cheapest first, so later conditions only see the
survivors; an ``or`` tests each branch on the rows not yet accepted;
nothing loops over words in Python. Conditions that fix or bound the
length (``length``, ``anagram``, a pattern without ``*``) restrict the
buckets visited at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, Union, runtime_checkable

import numpy as np

from ...engine.deadline import check
from ...errors import LexiconError, QueryError
from ...query.anagram import find_ids, parse_anagram_rack
from ...query.batch import check_many
from ...query.pattern import parse as parse_pattern
from ...support.text import quote
from .. import columns
from ..columns import contains_rows, first_id, keys
from ..hooks import tail_keys
from ..probability import TileSetSpec, point_values, probability_ranks, tile_set
from .parser import MAX_CONDITIONS, MAX_DEPTH, as_query
from .tree import (
    uses_condition,
    ARGUMENT_FIELD,
    Anagram,
    Anagrams,
    And,
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
)

if TYPE_CHECKING:  # pragma: no cover
    from ...alphabet import Alphabet
    from ...engine.interface import Engine
    from ...engine.store import Store
    from ..probability import TileSet

#: Above this many candidate rows, a rack is answered by the anagram index / graph walk, not by counting tiles.
INDEX_ABOVE = 256
MAX_RACK = 64
SEARCH_SORTS = ("alpha", "length", "probability", "priority")
Sort = Literal["alpha", "length", "probability", "priority"]

Cells = list[np.ndarray | None]  # None: a star


def compile_pattern(alphabet: "Alphabet", text: str) -> Cells:
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
    def engine(self) -> "Engine": ...


ListSource = Union[OpenList, Iterable[str], str]
#: Opens an ``in NAME`` list given as words or a path (``lexigraph.load``).
OpenListFunction = Callable[[str | Iterable[str]], OpenList]


def _contains(store: "Store", engine: "Engine") -> Callable[[object], bool]:
    """Membership of one word in ``store`` through ``engine``: what the C batch leaves undecided."""

    def contains(word: object) -> bool:
        if not isinstance(word, str):
            return False
        key = store.alphabet.encode(word)
        return key is not None and engine.id_of_codes(key) >= 0

    return contains


class _Evaluator:
    def __init__(self, store: "Store", engine: "Engine", lists: Mapping[str, ListSource], blanks: int,
                 tiles: TileSetSpec, open_list: OpenListFunction | None, deadline: float | None = None) -> None:
        self.store = store
        self.engine = engine
        self.deadline = deadline
        self.open_list = open_list
        self.lists = dict(lists)
        self.blanks = blanks
        self.tiles = tiles
        # What a search computes once for all lengths: racks, their word ids, patterns, the lists named.
        self._racks: dict[str, _Rack] = {}
        self._rack_ids: dict[tuple[type, str], np.ndarray] = {}
        self._patterns: dict[str, Cells] = {}
        self._others: dict[str, OpenList] = {}
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
        if text not in self._racks:
            blanks = text.count("?")
            rest = text.replace("?", "")
            codes = self.codes(rest, "the rack") if rest else b""
            if len(codes) + blanks > MAX_RACK:
                raise QueryError(f"the rack {quote(text)} holds more than {MAX_RACK} tiles")
            self._racks[text] = _Rack(dict(Counter(codes)), blanks)
        return self._racks[text]

    def rack_rows(self, q: "Anagram | Subanagram", n: int) -> np.ndarray:
        """Rows of bucket ``n`` that fit the rack, through the anagram index and graph walk
        (:func:`lexigraph.query.anagram.find_ids`), found once per search for all lengths."""
        key = (type(q), q.rack)
        ids = self._rack_ids.get(key)
        if ids is None:
            rack = parse_anagram_rack(self.store.alphabet, q.rack)
            mode = "exact" if isinstance(q, Anagram) else "sub"
            lo, hi = self.span
            ids = np.sort(find_ids(self.store, self.engine, rack, mode=mode, min_length=max(1, lo), max_length=hi,
                                   deadline=self.deadline))
            self._rack_ids[key] = ids
        first = first_id(self.store, n)
        lo, hi = np.searchsorted(ids, [first, first + len(self.store.rows(n))])
        rows: np.ndarray = ids[lo:hi] - first
        return rows

    def pattern(self, text: str) -> Cells:
        if text not in self._patterns:
            self._patterns[text] = compile_pattern(self.store.alphabet, text)
        return self._patterns[text]

    def hook_tiles(self, text: str) -> bytes | None:
        """Codes of the tiles named, or None for ``?`` (any tile)."""
        if text == "?":
            return None
        return bytes(sorted(set(self.codes(text, "the hook tiles"))))

    def other(self, name: str) -> OpenList:
        if name not in self._others:
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
            self._others[name] = other
        return self._others[name]

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
        if type(q) in ARGUMENT_FIELD:
            if not isinstance(getattr(q, ARGUMENT_FIELD[type(q)]), str):
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
        check(self.deadline)  # each condition is a few array passes over the bucket
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
        store = self.store
        other_store, other_engine = other.store, other.engine
        if other_store.alphabet.labels == store.alphabet.labels:
            if n not in other_store.lengths:
                return np.zeros(len(idx), bool)
            mine, theirs = columns.bucket_keys(store, n), columns.bucket_keys(other_store, n)
            if mine.bits == theirs.bits:  # the same packing: compare the cached keys directly
                return theirs.contains_keys(mine.keys[idx])
            return contains_rows(other_store, np.ascontiguousarray(store.rows(n)[idx]))
        words = store.words_of_ids(first_id(store, n) + idx)
        return np.asarray(check_many(other_engine, words, _contains(other_store, other_engine)), bool)

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
        # The cells outside the stars, each a tile set (head and tail hold no star).
        fixed = [(j, c) for j, c in enumerate(head) if c is not None] + \
            [(n - len(tail) + j, c) for j, c in enumerate(tail) if c is not None]
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
        for j, cell in sorted(fixed, key=lambda jc: len(jc[1])):
            if len(cell) == full or not len(idx):
                continue
            column = rows[:, j] if whole else rows[idx, j]
            idx = idx[columns.lut(cell)[column] if len(cell) > 1 else column == cell[0]]
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


def search_ids(
    store: "Store",
    engine: "Engine",
    query: "Query | str",
    *,
    sort: Sort = "alpha",
    group: bool = False,
    offset: int = 0,
    limit: int | None = None,
    lists: Mapping[str, ListSource] | None = None,
    blanks: int = 2,
    tiles: TileSetSpec = None,
    open_list: OpenListFunction | None = None,
    deadline: float | None = None,
) -> Found:
    """Evaluate a search over the engines of one lexicon: matching word ids, sorted (and grouped by
    alphagram), paged. ``open_list`` opens an ``in NAME`` list given as words or a path (pass
    ``lexigraph.load``); a list given already open (with ``store`` and ``engine``) is used as it is.
    Past ``deadline`` (checked before each condition on each bucket):
    :class:`~lexigraph.errors.DeadlineExceeded`.

    >>> import lexigraph
    >>> lex = lexigraph.open()
    >>> found = search_ids(lex.store, lex.engine, "length 2 and contains x", limit=2)
    >>> lex.store.words_of_ids(found.ids), found.total
    (['ax', 'ex'], 5)
    """
    q = as_query(query)
    if sort not in SEARCH_SORTS:
        raise QueryError(f"unknown sort {sort!r}; use {', '.join(SEARCH_SORTS)}")
    for name, v in (("offset", offset), ("limit", limit)):
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            raise QueryError(f"{name} must be a non-negative integer")
    ev = _Evaluator(store, engine, lists or {}, blanks, tiles, open_list, deadline)
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
    check(deadline)
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
    engine: "Engine",
    query: "Query | str",
    *,
    sort: Sort = "alpha",
    offset: int = 0,
    limit: int | None = None,
    lists: Mapping[str, ListSource] | None = None,
    blanks: int = 2,
    tiles: TileSetSpec = None,
    open_list: OpenListFunction | None = None,
    deadline: float | None = None,
) -> list[str]:
    """Words matching a search (see :meth:`lexigraph.Lexicon.search` and :func:`search_ids`)."""
    found = search_ids(store, engine, query, sort=sort, offset=offset, limit=limit, lists=lists,
                       blanks=blanks, tiles=tiles, open_list=open_list, deadline=deadline)
    return store.words_of_ids(found.ids)


Evaluate = Callable[[Query, int, np.ndarray], np.ndarray]
