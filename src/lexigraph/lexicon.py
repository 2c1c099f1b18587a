"""The open lexicon: a thin facade over the store, the word graph and the engine.

The query modules and the build import NumPy, which ``lexigraph check dog``
starts without: the facade imports each where it hands work to it (the
imports marked "deferred" below; ``tests/test_layout.py`` lists them).

Opening maps the file and validates its index; nothing per word is
created. The :class:`Lexicon` composes the engines (``docs/architecture.md``):
the :class:`~lexigraph.engine.store.Store` (length buckets and what they index), the
:class:`~lexigraph.engine.wordgraph.WordGraph` and an :class:`~lexigraph.engine.interface.Engine`
(C or Python, chosen here once), and hands each query to the module that answers it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any, Literal, overload

from .compiler.options import BuildOptions, build_options
from .compiler.registry import find as find_registered
from .engine import open_engines
from .engine.compiled import native
from .engine.deadline import check as check_deadline, checked
from .engine.fileformat import MappedFile, is_lexicon_file, open_bytes, open_path
from .engine.interface import Engine
from .errors import LexiconError, QueryError
from .support.jsontypes import JSONObject

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from .alphabet import Alphabet
    from .compiler.sources import Source
    from .engine.wordmap import WordMap
    from .query.anagram import AnagramWithBlanks
    from .query.crossings import Crossing
    from .query.diff import Diff
    from .study.hooks import Hooks
    from .study.probability import TileSetSpec, WordProbability
    from .study.search import ListSource, Query, Sort
else:  # the same names for run-time type hints, loaded on first use (start-up stays light)
    from .support.lazy import Lazy

    np = Lazy("numpy")
    Alphabet = Lazy("lexigraph.alphabet", "Alphabet")
    AnagramWithBlanks = Lazy("lexigraph.query.anagram", "AnagramWithBlanks")
    Crossing = Lazy("lexigraph.query.crossings", "Crossing")
    Diff = Lazy("lexigraph.query.diff", "Diff")
    Hooks = Lazy("lexigraph.study.hooks", "Hooks")
    WordProbability = Lazy("lexigraph.study.probability", "WordProbability")
    TileSetSpec = Lazy("lexigraph.study.probability", "TileSetSpec")
    Query = Lazy("lexigraph.study.search", "Query")
    Sort = Lazy("lexigraph.study.search", "Sort")
    ListSource = Lazy("lexigraph.study.search", "ListSource")
    WordMap = Lazy("lexigraph.engine.wordmap", "WordMap")

DEFAULT_LEXICON = "enable.lex"
AnagramMode = Literal["sub", "exact", "super"]
SortOrder = Literal["alpha", "length", "priority"]


def default_path() -> str:
    """Path of the built-in ENABLE lexicon shipped inside the package."""
    return str(resources.files("lexigraph").joinpath("data").joinpath(DEFAULT_LEXICON))


def open(source: "Source | None" = None, options: "BuildOptions | None" = None, /,  # noqa: A001
         **keywords: object) -> "Lexicon":
    """Open a lexicon file, or compile any other word source in memory; no argument: the built-in ENABLE.

    ``source`` is a lexicon file, a word list (plain or scored), a TWL06
    ``dawg32`` table, a Hasbro ``.daw`` file, or an iterable of words;
    ``options`` (a :class:`~lexigraph.compiler.options.BuildOptions`) and the
    keywords that spell its fields (``alphabet="spanish"``; checked when the
    source is compiled) are those of :func:`lexigraph.build`. A path ending in ``.lex``, or a file that starts with
    the lexicon magic number, is opened as a lexicon file; anything else is
    compiled. ``pure_python=True`` keeps the C extension out: the build, if
    any, and every query and job of the lexicon run in Python.

    >>> import lexigraph
    >>> with lexigraph.open() as lex:
    ...     len(lex), lex.check("zyzzyva")
    (172820, True)
    >>> lexigraph.open(["Apple", "pear", "pearl"]).words(prefix="pea")
    ['pear', 'pearl']
    """
    opts = build_options(options, keywords)
    if source is None:
        return Lexicon(open_path(default_path()), pure_python=opts.pure_python)
    builds_nothing = opts == BuildOptions(pure_python=opts.pure_python)
    if isinstance(source, (str, os.PathLike)) and os.fspath(source) != "-" and builds_nothing:
        if os.fspath(source).endswith(".lex") or is_lexicon_file(source):
            return Lexicon(open_path(source), pure_python=opts.pure_python)
    from .compiler.builder import compile_source  # deferred: NumPy, which opening a .lex file needs not

    data, result = compile_source(source, opts)
    return Lexicon(open_bytes(data, name=str(result.info.get("source", "<memory>"))), pure_python=opts.pure_python)


def load(source: "Source", options: "BuildOptions | None" = None, /, **keywords: object) -> "Lexicon":
    """Open a lexicon file, or compile any other source in memory (the same as :func:`open`).

    >>> import lexigraph
    >>> lexigraph.load(["Apple", "pear", "pearl"]).words(prefix="pea")
    ['pear', 'pearl']
    """
    return open(source, options, **keywords)


def _reopen(path: str | None, data: bytes | None, pure_python: bool) -> "Lexicon":
    if data is not None:
        return Lexicon(open_bytes(data, name=path or "<memory>"), pure_python=pure_python)
    return Lexicon(open_path(path or default_path()), pure_python=pure_python)


class _PythonFacade:
    """The pure-Python twin of the C ``Facade`` base: ``in`` and :meth:`check` through the probe."""

    def _contains_slow(self, word: object) -> bool:  # pragma: no cover - overridden by Lexicon
        raise NotImplementedError

    def __contains__(self, word: object) -> bool:
        return self._contains_slow(word)

    def check(self, word: str) -> bool:
        """Whether ``word`` is in the lexicon (any case; unknown letters: False).

        >>> import lexigraph
        >>> lex = lexigraph.open()
        >>> lex.check("Dog"), lex.check("dgo"), lex.check("døg")
        (True, False, False)
        """
        if not isinstance(word, str):
            raise TypeError(f"check() needs a str, not {type(word).__name__}")
        return self._contains_slow(word)

    def _set_probe(self, probe: object) -> None:
        pass


def _facade_base() -> type:
    """The C ``Facade`` when the extension is in use (``in`` answered without a Python frame), else the twin."""
    module = native()
    facade = getattr(module, "Facade", None) if module is not None else None
    return facade if isinstance(facade, type) else _PythonFacade


if TYPE_CHECKING:
    _Base = _PythonFacade
else:
    _Base = _facade_base()


class Lexicon(_Base):
    """A compiled word list, memory-mapped and read-only.

    Open one with :func:`lexigraph.open`. Words are lower-case; queries
    accept any case. ``store``, ``graph`` and ``engine`` are what the
    queries and jobs run on; ``pure_python=True`` chooses the Python engine,
    which keeps every query and job off the C extension.

    Every query whose work grows with the lexicon (``words``, ``anagram``,
    ``match``, ``count``, ``cross``, ``hooks``, ``probability``, ``search``)
    takes ``deadline``: a :func:`time.monotonic` value past which it stops
    with :class:`~lexigraph.errors.DeadlineExceeded` (None: no limit).

    >>> import lexigraph
    >>> lex = lexigraph.open(["dude", "dudes", "duded", "dudeen", "dud"])
    >>> "DUDE" in lex, len(lex), list(lex)[:2]
    (True, 5, ['dud', 'dude'])
    >>> lex.children("dude")
    ['$', 'd', 'e', 's']
    """

    def __init__(self, mapped: MappedFile, *, pure_python: bool = False) -> None:
        self._file = mapped
        self._closed = False
        self.path: str = mapped.name
        # The engine is chosen here, once; every query and job of this lexicon runs on it.
        self.store, self.graph, self.engine = open_engines(mapped, pure_python=pure_python)
        self.pure_python = self.engine.kind == "python"
        self.alphabet: Alphabet = self.store.alphabet
        # The C facade answers `in` through the C probe itself, when the engine has one; without one (the Python
        # engine) the facade hands every word to _contains_slow, and nothing of C is set up.
        if self.engine.facade_probe is not None:
            self._set_probe(self.engine.facade_probe)

    @property
    def probe(self) -> Engine:
        """The engine's exact lookups (``id_of_codes``, ``id_of_word``): the engine itself."""
        return self.engine

    # -- basics ----------------------------------------------------------

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"{len(self):,} words"
        return f"<Lexicon {self.info.get('name', '?')!r} ({state}) from {self.path}>"

    def __len__(self) -> int:
        return self.store.word_count

    def __enter__(self) -> "Lexicon":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __reduce__(self) -> tuple[Any, ...]:
        # By path (or, for a lexicon compiled in memory, by its file's bytes): never the objects.
        data = self._file.buffer if isinstance(self._file.buffer, bytes) else None
        return (_reopen, (self.path, data, self.pure_python))

    def close(self) -> None:
        """Release the mapping. Arrays already handed out stay valid until dropped."""
        if self._closed:
            return
        self._closed = True
        self.engine.close()
        self.store.close()
        self.graph.close()
        self._file.close()

    def _check_open(self) -> None:
        if self._closed:
            raise LexiconError("the lexicon is closed")

    @property
    def uses_c(self) -> bool:
        """Whether the lexicon's engine is the C one (``engine.kind == "c"``)."""
        return self.engine.kind == "c"

    @property
    def info(self) -> JSONObject:
        """The lexicon's metadata: name, source, build time, alphabet, counts per length...

        >>> import lexigraph
        >>> lexigraph.open().info["counts_by_length"]["2"]
        96
        """
        return {k: v for k, v in self._file.index.items() if k != "sections"}

    @property
    def lengths(self) -> list[int]:
        """Word lengths present, in tiles, ascending."""
        return list(self.store.lengths)

    def count_by_length(self) -> dict[int, int]:
        """Words per length in tiles.

        >>> import lexigraph
        >>> lexigraph.open(["ab", "cd", "efg"]).count_by_length()
        {2: 2, 3: 1}
        """
        return self.store.count_by_length()

    # -- exact lookups -----------------------------------------------------

    def encode(self, text: str) -> bytes | None:
        """Tile codes of ``text`` in this lexicon's alphabet, or None."""
        return self.alphabet.encode(text)

    def _contains_slow(self, word: object) -> bool:
        # The C facade hands over what its probe cannot decide: non-ASCII
        # words, other alphabets, a closed lexicon, and the pure-Python path.
        if not isinstance(word, str):
            return False
        self._check_open()
        key = self.alphabet.encode(word)
        return key is not None and self.engine.id_of_codes(key) >= 0

    def id_of_codes(self, key: bytes) -> int:
        """The word id of the tile codes ``key``, or -1."""
        self._check_open()
        return self.engine.id_of_codes(key)

    def word_id(self, word: str) -> int | None:
        """The word's id (its position by length, then alphabetically), or None.

        >>> import lexigraph
        >>> lexigraph.open().word_id("aa"), lexigraph.open().word_id("qq")
        (0, None)
        """
        self._check_open()
        if not isinstance(word, str):
            return None
        i = self.engine.id_of_word(word)
        if i < -1:
            key = self.alphabet.encode(word)
            i = -1 if key is None else self.engine.id_of_codes(key)
        return None if i < 0 else i

    def priority(self, word: str) -> int | None:
        """The word's priority 0-255 (its score in a scored list; 50 otherwise), or None.

        >>> import lexigraph
        >>> lex = lexigraph.open(["ENJOY;60", "enjoin;25", "ennui"])
        >>> lex.priority("enjoy"), lex.priority("ennui"), lex.priority("nope")
        (60, 50, None)
        """
        i = self.word_id(word)
        return None if i is None else self.store.priority_of(i)

    def check_many(self, words: Iterable[str]) -> "np.ndarray":
        """Vectorised :meth:`check`: a boolean array, one entry per word.

        >>> import lexigraph
        >>> lexigraph.open().check_many(["cat", "tac", "act", "CAT", "c@t"]).tolist()
        [True, False, True, True, False]
        """
        self._check_open()
        from .query.batch import check_many  # deferred: NumPy

        return check_many(self.engine, words, self.__contains__)

    # -- listing ------------------------------------------------------------

    def words(self, prefix: str = "", length: int | None = None, *, deadline: float | None = None) -> list[str]:
        """Words starting with ``prefix`` (and of ``length`` tiles), in alphabetical order.

        >>> import lexigraph
        >>> lexigraph.open().words(prefix="zyz")
        ['zyzzyva', 'zyzzyvas']
        >>> lexigraph.open().words(prefix="q", length=2)
        []
        """
        if deadline is not None:
            check_deadline(checked(deadline))
        if length is None and type(prefix) is str:
            # A plain prefix in one C call, once the graph has been checked (see lexigraph.engine.compiled).
            fast = self.engine.quick_prefix_words(prefix, max(len(prefix), 1), 255, deadline)
            if fast is not None:
                return fast
        self._check_open()
        if length is not None and (type(length) is not int or length < 0):
            raise QueryError(f"length must be a non-negative integer, not {length!r}")
        if not isinstance(prefix, str):
            raise QueryError("the prefix must be a string")
        from .query.listing import words_with_prefix  # deferred: NumPy

        return words_with_prefix(self.store, self.graph, self.engine, prefix, length, deadline=deadline)

    def __iter__(self) -> Iterator[str]:
        """All words in alphabetical (tile) order, a first tile at a time."""
        self._check_open()
        from .query.listing import iter_words  # deferred: NumPy

        return iter_words(self.store, self.engine)

    def children(self, prefix: str = "") -> list[str]:
        """Tiles that can follow ``prefix``, sorted; ``"$"`` first when ``prefix`` is a word.

        >>> import lexigraph
        >>> lexigraph.open().children("dude")
        ['$', 'd', 'e', 's']
        >>> lexigraph.open().children("qz")
        []
        """
        self._check_open()
        key = self.alphabet.encode(prefix) if isinstance(prefix, str) else None
        if key is None:
            return []
        self.engine.check_consistent()  # the answer is the graph's: one that lies is refused, never read
        found = self.graph.children(key)
        if found is None:
            return []
        is_word, tiles = found
        labels = self.alphabet.labels
        return (["$"] if is_word and key else []) + [labels[t - 1] for t in tiles]

    # -- richer queries (own modules) -----------------------------------------

    @overload
    def anagram(self, rack: str, *, mode: AnagramMode = ..., through: str = ..., min_length: int = ...,
                max_length: int | None = ..., sort: SortOrder = ..., blanks: Literal[False] = ...,
                deadline: float | None = ...) -> list[str]: ...

    @overload
    def anagram(self, rack: str, *, mode: AnagramMode = ..., through: str = ..., min_length: int = ...,
                max_length: int | None = ..., sort: SortOrder = ..., blanks: Literal[True],
                deadline: float | None = ...) -> "list[AnagramWithBlanks]": ...

    def anagram(
        self,
        rack: str,
        *,
        mode: AnagramMode = "sub",
        through: str = "",
        min_length: int = 2,
        max_length: int | None = None,
        sort: SortOrder = "alpha",
        blanks: bool = False,
        deadline: float | None = None,
    ) -> "list[str] | list[AnagramWithBlanks]":
        """Words made from ``rack`` (``?`` a blank, trailing ``*`` for super-anagrams).

        ``mode``: ``"sub"`` (some tiles), ``"exact"`` (all), ``"super"`` (all
        and more). ``through``: board tiles every word must also use.
        ``sort``: ``"alpha"``, ``"length"`` (longest first) or ``"priority"``.
        With ``blanks=True`` the results are :class:`~lexigraph.query.anagram.AnagramWithBlanks`
        objects that say which positions blanks fill.

        >>> import lexigraph
        >>> lexigraph.open().anagram("top")
        ['op', 'opt', 'pot', 'to', 'top']
        >>> lexigraph.open().anagram("aalnst?", mode="exact")
        ['analyst', 'platans', 'saltant', 'saltpan', 'sealant', 'sultana']
        """
        if deadline is not None:
            check_deadline(checked(deadline))
        if not blanks and sort == "alpha" and not through and max_length is None:
            # The common cases in one C call: a plain rack, looked up in the alphagram index (exact) or
            # walked through the checked graph (sub and super); None leaves it to the general path.
            if mode == "exact" and min_length <= 2:
                fast = self.engine.quick_exact_anagrams(rack, deadline)
            elif mode in ("sub", "super") and type(min_length) is int and 0 < min_length < 256:
                fast = self.engine.quick_rack_words(rack, min_length, mode, deadline)
            else:
                fast = None
            if fast is not None:
                return fast
        self._check_open()
        from .query.anagram import anagram  # deferred: NumPy

        return anagram(
            self.store, self.engine, rack, mode=mode, through=through, min_length=min_length,
            max_length=max_length, sort=sort, blanks=blanks, deadline=deadline,
        )

    def anagram_table(self, rack: str, *, deadline: float | None = None) -> list[tuple[str, list[str]]]:
        """Exact anagrams of ``rack``, then of ``rack`` plus each tile of the alphabet.

        The first entry is ``("", words)``; then ``(tile, words)`` for each tile.

        >>> import lexigraph
        >>> table = lexigraph.open().anagram_table("aalnst?")
        >>> table[0]
        ('', ['analyst', 'platans', 'saltant', 'saltpan', 'sealant', 'sultana'])
        >>> dict(table)["a"]
        ['cantalas', 'lantanas']
        """
        self._check_open()
        if deadline is not None:
            check_deadline(checked(deadline))
        from .query.anagram import anagram_table  # deferred: NumPy

        return anagram_table(self.store, self.engine, rack, deadline=deadline)

    def word_map(self, *, build: bool = True) -> "WordMap | None":
        """The lexicon's word map (``docs/format.md``): for each length, the words each multiset of tiles makes.

        The file beside the lexicon's (``NAME.lxw``, written by ``lexigraph build --word-map``), else the one in
        the cache, else (``build``) one built now and cached (about 0.5 s for TWL06 in C); None when there is
        none and ``build`` is false. Its lookups run on the lexicon's engine, C or Python.

        >>> import lexigraph
        >>> lexigraph.open(["ant", "tan", "nat", "tanto"]).word_map().words("ont?a", 5)
        [('tanto', 't')]
        """
        self._check_open()
        from .compiler.word_map import word_map_for  # deferred: NumPy

        def make() -> "WordMap":
            found = word_map_for(self.store, self.path, self.engine.kind, build=build)
            if found is None:
                raise LookupError("no word map")  # not kept: a later call may find or build one
            return found

        try:
            return self.store.cached(("word_map",), make)  # the first map found is kept while the lexicon is open
        except LookupError:
            return None

    def match(self, pattern: str, *, min_priority: int = 0, offset: int = 0, limit: int | None = None,
              deadline: float | None = None) -> list[str]:
        """Words matching a crossword pattern, best priority first, then alphabetical.

        ``?`` or ``.`` is any tile, ``[abc]`` a set, ``[^abc]`` its complement,
        ``@`` a vowel, ``#`` a consonant, ``*`` any run of tiles.

        >>> import lexigraph
        >>> lexigraph.open().match("?uixot??")
        ['quixotes', 'quixotic', 'quixotry']
        >>> lexigraph.open().match("q[^u]*", limit=3)
        ['qaid', 'qaids', 'qanat']
        """
        if deadline is not None:
            check_deadline(checked(deadline))
        if type(pattern) is str and not offset and limit is None and not min_priority and not self.store.has_priorities:
            # Every word has one priority, so the result order is alphabetical: "abc*" is a prefix listing,
            # and letters with "?" a fixed-length pattern, each in one C call when it can answer.
            if pattern[-1:] == "*":
                fast = self.engine.quick_prefix_words(pattern[:-1], max(len(pattern) - 1, 1), 255, deadline)
            else:
                fast = self.engine.quick_pattern_words(pattern, deadline)
            if fast is not None:
                return fast
        self._check_open()
        from .query.matching import match  # deferred: NumPy

        return match(self.store, self.engine, pattern, min_priority=min_priority, offset=offset, limit=limit,
                     deadline=deadline)

    def match_ids(self, pattern: str, *, min_priority: int = 0, offset: int = 0,
                  limit: int | None = None, deadline: float | None = None) -> "np.ndarray":
        """The word ids :meth:`match` would return, in the same order."""
        self._check_open()
        from .query.matching import match_ids  # deferred: NumPy

        return match_ids(self.store, self.engine, pattern, min_priority=min_priority, offset=offset, limit=limit,
                         deadline=checked(deadline))

    def count(self, pattern: str, *, min_priority: int = 0, deadline: float | None = None) -> int:
        """How many words :meth:`match` would return, without building the list.

        >>> import lexigraph
        >>> lexigraph.open().count("?????")
        8636
        """
        self._check_open()
        from .query.matching import count  # deferred: NumPy

        return count(self.store, self.engine, pattern, min_priority=min_priority, deadline=checked(deadline))

    def cross(self, pattern_a: str, pos_a: int, pattern_b: str, pos_b: int, *, min_priority: int = 0,
              deadline: float | None = None) -> "Crossing":
        """Tiles that fit where two entries cross, and each entry's words that agree.

        >>> import lexigraph
        >>> c = lexigraph.open().cross("e???y", 2, "d???", 1)
        >>> "j" in c.tiles, "v" in c.tiles, "enjoy" in c.words_a
        (True, False, True)
        """
        if (not min_priority and not self.store.has_priorities and type(pos_a) is int and type(pos_b) is int
                and 0 <= pos_a < 256 and 0 <= pos_b < 256 and type(pattern_a) is str and type(pattern_b) is str):
            # Plain patterns in one C call once the graph is checked (alphabetical is the result order here).
            fast = self.engine.quick_cross(pattern_a, pos_a, pattern_b, pos_b, checked(deadline))
            if fast is not None:
                from .query.crossings import Crossing  # deferred: NumPy

                codes, words_a, words_b, counts_a, counts_b = fast
                labels = self.alphabet.labels
                tiles = [labels[c - 1] for c in codes]
                return Crossing(tiles, words_a, words_b, dict(zip(tiles, zip(counts_a, counts_b))))
        self._check_open()
        from .query.crossings import cross  # deferred: NumPy

        return cross(self.store, self.engine, pattern_a, pos_a, pattern_b, pos_b, min_priority=min_priority,
                     deadline=deadline)

    def diff(self, other: "Lexicon") -> "Diff":
        """Compare with another lexicon: words only here, only there, per-length counts.

        >>> import lexigraph
        >>> d = lexigraph.open(["cat", "dog"]).diff(lexigraph.open(["dog", "emu"]))
        >>> d.only_a, d.only_b, d.both
        (['cat'], ['emu'], 1)
        """
        self._check_open()
        other._check_open()
        from .query.diff import diff  # deferred: NumPy

        return diff(self.store, other.store)


    # -- word study (issue 15: lexigraph.study.hooks, lexigraph.study.probability, lexigraph.study.search) ----------

    def hooks(self, word: str, *, deadline: float | None = None) -> "Hooks":
        """Front and back hook tiles of ``word``, and whether it stays a word without its first / last tile.

        >>> import lexigraph
        >>> str(lexigraph.open().hooks("care"))
        's ·CARE· drstx'
        """
        self._check_open()
        from .study.hooks import hooks  # deferred: NumPy

        return hooks(self.store, word, deadline=checked(deadline))

    def probability(self, word: str, *, blanks: int = 2, tiles: "TileSetSpec" = None,
                    deadline: float | None = None) -> "WordProbability":
        """Draw combinations, chance and probability rank of ``word`` with the tile set's bag.

        ``tiles``: a tile set (preset name or alphabet file) when the lexicon's alphabet has none.

        >>> import lexigraph
        >>> p = lexigraph.open().probability("aeinrst", blanks=0)
        >>> p.combinations, p.rank
        (839808, None)
        """
        self._check_open()
        from .study.probability import word_probability  # deferred: NumPy

        if deadline is not None:
            check_deadline(checked(deadline))
        return word_probability(self.store, self.engine, word, blanks=blanks, tiles=tiles, deadline=deadline)

    def search(self, query: "Query | str", *, sort: "Sort" = "alpha", offset: int = 0, limit: int | None = None,
               lists: "Mapping[str, ListSource] | None" = None, blanks: int = 2, tiles: "TileSetSpec" = None,
               deadline: float | None = None) -> list[str]:
        """Words matching a study search: conditions with ``and``, ``or``, ``not`` (``docs/search.md``).

        ``query``: an expression or a tree of :mod:`lexigraph.study.search`. ``sort``: ``alpha``, ``length``,
        ``probability`` or ``priority``. ``lists``: names for ``in NAME`` (a lexicon, words or a path); a name
        not in ``lists`` is a path, else a registered name (``in ENABLE``, ``lexigraph lexicons``).
        ``blanks`` (0-2) and ``tiles`` (a tile set) for probability.

        >>> import lexigraph
        >>> lexigraph.open().search("length 2 and contains x and back-hook ?")
        ['ax', 'ox', 'xi']
        """
        self._check_open()
        from .study.search import search  # deferred: NumPy

        def open_list(source: "str | Iterable[str]") -> "Lexicon":  # on this lexicon's engine; or a registered name
            entry = find_registered(source) if isinstance(source, str) and not os.path.lexists(source) else None
            if entry is not None:
                words = entry.path is not None and not is_lexicon_file(entry.path)
                return open(entry.path, pure_python=self.pure_python, **(entry.options if words else {}))
            return open(source, pure_python=self.pure_python)

        return search(self.store, self.engine, query, sort=sort, offset=offset, limit=limit, lists=lists,
                      blanks=blanks, tiles=tiles, open_list=open_list, deadline=checked(deadline))
