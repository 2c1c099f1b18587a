"""Word-study commands: ``search`` (conditions with and / or / not), ``hooks`` and ``probability``.

>>> from lexigraph.commands import Context
>>> doc = SEARCH.run(Context(), {"expression": "length 7 and anagram aeinrst", "sort": "probability", "limit": 2})
>>> doc["count"], doc["total"], doc["results"][0]["word"]
(2, 9, 'anestri')
>>> list(HOOKS.text(HOOKS.run(Context(), {"words": ["care", "cares"]})))
['s ·CARE· drstx', 's ·CARES· s']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

import numpy as np

from ..alphabet import PRESETS, Alphabet
from ..errors import QueryError
from ..lexicon import Lexicon
from ..study import columns, probability
from ..study.hooks import hook_line, hooks_many, hooks_of_ids
from ..study.search import SEARCH_SORTS, Sort, as_query, search_ids
from ..support.text import quote
from ._common import preset_or_file
from .command import MAX_COUNT, Command, Context, Document, Param

_BLANKS = Param("blanks", "blanks that may stand in for tiles when counting draws (0, 1 or 2)", kind="int", default=2,
                minimum=0, maximum=2)
_TILES = Param(
    "tiles", "tile set for probability and points when the lexicon's alphabet has none (a preset such as "
    "english, or an alphabet file)", metavar="ALPHABET",
)


def _name(lex: Lexicon) -> str:
    return str(lex.info.get("name", ""))


def _lists(specs: Iterable[str] | None) -> dict[str, str]:
    out = {}
    for spec in specs or ():
        name, sep, source = str(spec).partition("=")
        if not sep or not name or not source:
            raise QueryError(f"--list {quote(spec)}: give NAME=FILE")
        out[name] = source
    return out


def _list_opener(ctx: Context) -> Callable[[str | Iterable[str]], Lexicon]:
    """How the search opens an ``in NAME`` list: as the context opens a lexicon (the command names lists by
    ``NAME=FILE``, so each is a path or a name)."""
    def open_list(source: str | Iterable[str]) -> Lexicon:
        if not isinstance(source, str):
            raise QueryError("a list is named by a file or a registered name")
        return ctx.open(source)

    return open_list


def details(lex: Lexicon, ids: np.ndarray, lengths: np.ndarray, *, blanks: int = 2,
            tiles: str | Alphabet | None = None, hooks: bool = False) -> list[dict[str, object]]:
    """One result object per word id: word, length, alphagram, anagrams, priority, and where the
    lexicon has a tile set, probability rank, combinations and points; hooks on request."""
    store = lex.store
    words = store.words_of_ids(ids)
    try:
        bag = probability.tile_set(store, tiles)
    except QueryError:
        bag = None
    out: list[dict[str, object]] = []
    prio = store.priorities()[ids].tolist() if len(ids) else []
    decode = store.alphabet.decode
    fields: dict[str, list[Any]] = {"anagrams": [], "alphagram": []}
    if bag is not None:
        fields.update({"probability_rank": [], "combinations": []})
        if bag.points is not None:
            fields["points"] = []
    order = np.argsort(lengths, kind="stable")
    values: dict[str, list[Any]] = {k: [None] * len(words) for k in fields}
    for n in np.unique(lengths).tolist():
        at = order[np.searchsorted(lengths[order], n) : np.searchsorted(lengths[order], n, "right")]
        rows = ids[at] - columns.first_id(store, n)
        alpha = columns.alphagram_rows(store, n)[rows]
        per = {
            "anagrams": columns.anagram_counts(store, n)[rows].tolist(),
            "alphagram": [decode(r) for r in map(bytes, alpha)],
        }
        if bag is not None:
            per["probability_rank"] = probability.probability_ranks(store, n, blanks, bag)[rows].tolist()
            per["combinations"] = [int(c) for c in probability.combinations(store, n, blanks, bag)[rows]]
            if bag.points is not None:
                per["points"] = probability.point_values(store, n, bag)[rows].tolist()
        for k, vs in per.items():
            for i, v in zip(at.tolist(), vs):
                values[k][i] = v
    hooked = hooks_of_ids(store, ids, lengths, words) if hooks else None
    for i, w in enumerate(words):
        doc: dict[str, object] = {"word": w, "length": int(lengths[i]), "priority": int(prio[i])}
        for k in values:
            doc[k] = values[k][i]
        if hooked is not None:
            doc["hooks"] = hooked[i].to_dict()
        out.append(doc)
    return out


def _run_search(ctx: Context, p: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    query = as_query(p["expression"])
    limit = p.get("limit")
    if ctx.max_results is not None:
        limit = ctx.max_results if limit is None else min(limit, ctx.max_results)
    sort = p.get("sort") or "alpha"
    if sort not in SEARCH_SORTS:
        raise QueryError(f"unknown sort {quote(sort)}; use {', '.join(SEARCH_SORTS)}")
    blanks = p.get("blanks", 2)
    blanks = 2 if blanks is None else blanks
    tiles = preset_or_file(ctx, p.get("tiles"), PRESETS, "tiles")
    found = search_ids(
        lex.store, lex.engine, query, sort=cast("Sort", sort), group=bool(p.get("group")),
        offset=p.get("offset") or 0, limit=limit, lists=_lists(p.get("lists")), blanks=blanks, tiles=tiles,
        open_list=_list_opener(ctx),  # 'in NAME': on the server, only the lexicons it serves
        deadline=ctx.deadline,
    )
    try:
        results = details(lex, found.ids, found.lengths, blanks=blanks, tiles=tiles, hooks=bool(p.get("hooks")))
    except QueryError:  # pragma: no cover - tile-set problems were reported by the search
        raise
    if found.groups is not None:
        for r, g in zip(results, found.groups.tolist()):
            r["group"] = g
    try:
        bag = probability.tile_set(lex.store, tiles)
    except QueryError:
        bag = None  # no tile set: no probability or points, and the query used none
    doc: Document = {
        "command": "search", "lexicon": _name(lex), "query": str(query), "sort": sort,
        "tile_set": None if bag is None else bag.origin,
    }
    doc.update(results=results, count=len(results), total=found.total)
    return doc


def _hook_line(h: Mapping[str, Any], word: str, width: int) -> str:
    return hook_line(dict(h), word, width)


def _text_search(doc: Document) -> Iterable[str]:
    results = doc["results"]
    width = max((len(r["hooks"]["front"]) for r in results if "hooks" in r), default=0)
    last = None
    for r in results:
        if "group" in r and last is not None and r["group"] != last:
            yield ""
        last = r.get("group")
        yield _hook_line(r["hooks"], r["word"], width) if "hooks" in r else r["word"]


SEARCH = Command(
    name="search",
    summary="words meeting study conditions combined with and, or, not (docs/search.md)",
    params=(
        Param("expression", "the search, e.g. \"length 7 and probability 1-1000 and back-hook s\"", positional=True,
              required=True),
        Param("group", "group anagrams together (results carry their group number)", kind="bool", default=False),
        Param("hooks", "add each word's front and back hooks", kind="bool", default=False),
        Param("sort", "result order", choices=("alpha", "length", "probability", "priority"), default="alpha"),
        Param("limit", "at most this many results", kind="int", minimum=0, maximum=MAX_COUNT),
        Param("offset", "skip this many results first", kind="int", default=0, minimum=0, maximum=MAX_COUNT),
        _BLANKS,
        _TILES,
        Param("lists", "a word list or lexicon named for 'in NAME' conditions", many=True, flags=("--list",),
              metavar="NAME=FILE"),
    ),
    run=_run_search,
    text=_text_search,
    examples=(
        "lexigraph search 'length 7 and probability 1-1000 and back-hook s' --sort probability",
        "lexigraph search 'length 8 and vowels 3 and contains j' --hooks",
        "lexigraph search 'not in enable' --list enable=enable.txt -L twl06.txt",
    ),
)


def _run_hooks(ctx: Context, p: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    words = list(p.get("words") or [])
    if not words:
        raise QueryError("hooks: give at least one word")
    valid = lex.check_many(words).tolist()
    results = []
    for h, ok in zip(hooks_many(lex.store, words, deadline=ctx.deadline), valid):
        results.append({"word": h.word, "valid": bool(ok), **h.to_dict()})
    return {"command": "hooks", "lexicon": _name(lex), "results": results, "count": len(results)}


def _text_hooks(doc: Document) -> Iterable[str]:
    width = max((len(r["front"]) for r in doc["results"]), default=0)
    for r in doc["results"]:
        yield _hook_line(r, r["word"], width) + ("" if r["valid"] else "  (not a word)")


HOOKS = Command(
    name="hooks",
    summary="front and back hooks of words, and whether they stay words without the first or last tile",
    params=(Param("words", "words to look at", positional=True, many=True, required=True, stdin=True, metavar="WORD"),),
    run=_run_hooks,
    text=_text_hooks,
    examples=("lexigraph hooks care", "lexigraph hooks -L twl06.txt qi za"),
    found=lambda doc: any(r["valid"] for r in doc.get("results", [])),
)


def _run_probability(ctx: Context, p: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    words = list(p.get("words") or [])
    if not words:
        raise QueryError("probability: give at least one word")
    blanks = p.get("blanks", 2)
    blanks = 2 if blanks is None else blanks
    tiles = preset_or_file(ctx, p.get("tiles"), PRESETS, "tiles")
    bag = probability.tile_set(lex.store, tiles)
    results = [lex.probability(w, blanks=blanks, tiles=tiles, deadline=ctx.deadline).to_dict() for w in words]
    doc: Document = {"command": "probability", "lexicon": _name(lex), "tile_set": bag.origin}
    doc.update(results=results, count=len(results))
    return doc


def _text_probability(doc: Document) -> Iterable[str]:
    for r in doc["results"]:
        rank = "not a word" if r["probability_rank"] is None else f"rank {r['probability_rank']:,}"
        odds = f"1 in {r['draws'] / r['combinations']:,.0f}" if r["combinations"] else "never"
        yield f"{r['word']}\t{r['alphagram'].upper()}\t{rank}\t{r['combinations']:,} of {r['draws']:,} draws ({odds})"


PROBABILITY = Command(
    name="probability",
    summary="how likely a word's tiles are to be drawn from a full bag, and its probability rank",
    params=(
        Param("words", "words (or racks) to look at", positional=True, many=True, required=True, stdin=True,
              metavar="WORD"),
        _BLANKS,
        _TILES,
    ),
    run=_run_probability,
    text=_text_probability,
    examples=("lexigraph probability retains", "lexigraph probability --blanks 0 zyzzyva"),
    found=lambda doc: any(r["probability_rank"] is not None for r in doc.get("results", [])),
)

COMMANDS = [SEARCH, HOOKS, PROBABILITY]
