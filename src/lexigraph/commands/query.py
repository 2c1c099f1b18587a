"""Core queries: anagram, match, cross."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal, cast

from ..engine.deadline import Countdown
from ..errors import QueryError
from ..lexicon import Lexicon
from ..query.anagram import AnagramWithBlanks
from ..study.columns import first_id
from ..study.hooks import hook_fields, hook_line
from ..study.probability import probability_ranks, tile_set
from ._common import envelope, esc, need_int, values
from .command import MAX_COUNT, MAX_PRIORITY, MAX_TILES, Command, Context, Document, Param


def _add_hooks(lex: Lexicon, results: list[dict[str, Any]], deadline: float | None = None) -> None:
    """Give each result a ``hooks`` field (its word's hooks, all computed together)."""
    for r, fields in zip(results, hook_fields(lex.store, [r["word"] for r in results], deadline=deadline)):
        r["hooks"] = fields


def _hook_width(results: list[dict[str, Any]]) -> int:
    """The width of the front-hook column: the most front hooks of any result."""
    return max((len(r["hooks"]["front"]) for r in results if "hooks" in r), default=0)


def _hooked(r: Mapping[str, Any], width: int, shown: str | None = None) -> str:
    """``r``'s word between its hooks, as study tools print it; ``shown`` replaces the word's capitals
    (``--show-blanks`` keeps the tiles blanks make in lower case)."""
    line = hook_line(dict(r["hooks"]), r["word"], width)
    if shown is None:
        return line
    start = (width + 1 if width else 0) + (1 if r["hooks"]["inner_front"] else 0)
    return line[:start] + shown + line[start + len(r["word"].upper()):]


# -- anagram -----------------------------------------------------------------

#: The anagram command's orders: the lexicon's three, and probability as ``search --sort probability`` orders words.
ANAGRAM_SORTS = ("alpha", "length", "priority", "probability")


def _by_probability(lex: Lexicon, found: list[AnagramWithBlanks],
                    deadline: float | None) -> list[tuple[AnagramWithBlanks, int]]:
    """``found`` (in tile order) in probability order, each with its probability rank: rank first (most probable
    first, among the words of its length, two blanks; docs/search.md), then shorter first, then tile order."""
    bag = tile_set(lex.store)
    countdown = Countdown(deadline)   # a length's ranks are computed once, a few array passes: checked between
    id_of = lex.engine.id_of_codes
    ranks = []
    for a in found:  # every result is a word of the lexicon: its id is found
        countdown.tick()
        n = len(a.tiles)
        ranks.append(int(probability_ranks(lex.store, n, 2, bag)[id_of(bag.encode(a.word)) - first_id(lex.store, n)]))
    order = sorted(range(len(found)), key=lambda i: (ranks[i], len(found[i].tiles), i))
    return [(found[i], ranks[i]) for i in order]


def _anagram_result(rack: str, a: AnagramWithBlanks, rank: int | None) -> dict[str, Any]:
    result: dict[str, Any] = {"rack": rack.lower(), "word": a.word, "tiles": list(a.tiles),
                              "blanks": list(a.blank_positions), "display": a.display()}
    if rank is not None:
        result["probability_rank"] = rank
    return result


def _table_results(lex: Lexicon, racks: list[str], fields: dict[str, Any],
                   deadline: float | None) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    for rack in racks:
        table = lex.anagram_table(rack, deadline=deadline)
        fields["added"] = [tile for tile, _ in table if tile]
        for tile, words in table:
            results += [{"rack": rack.lower(), "added": tile or None, "word": w} for w in words]
    return results


def _run_anagram(ctx: Context, params: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    racks = values(params, "racks")
    if not racks:
        raise QueryError(f"give at least one {ctx.spell('racks')}")
    mode: Literal["sub", "exact", "super"] = "sub"
    if params.get("exact"):
        mode = "exact"
    if params.get("super"):
        if params.get("exact"):
            raise QueryError(f"{ctx.spell('exact')} and {ctx.spell('super')} exclude each other")
        mode = "super"
    min_length = need_int(ctx, params, "min_length", minimum=1)
    max_length = need_int(ctx, params, "max_length", minimum=1)
    through = params.get("through") or ""
    sort = params.get("sort") or "alpha"
    if sort not in ANAGRAM_SORTS:
        raise QueryError(f"{ctx.spell('sort')} must be alpha, length, priority or probability")
    offset = need_int(ctx, params, "offset") or 0
    limit = need_int(ctx, params, "limit")
    paged = bool(offset) or limit is not None
    fields: dict[str, Any] = {"mode": "table" if params.get("table") else mode}
    if params.get("show_blanks"):
        fields["show_blanks"] = True
    if params.get("hooks") and params.get("table"):
        raise QueryError(f"{ctx.spell('hooks')} and {ctx.spell('table')} exclude each other")
    entries: list[Any]   # the table's results, or (rack, anagram, rank): made into results after paging
    if params.get("table"):
        entries = _table_results(lex, racks, fields, ctx.deadline)
    else:
        entries = []
        for rack in racks:
            found = lex.anagram(
                rack, mode=mode, through=through, min_length=2 if min_length is None else min_length,
                max_length=max_length, sort=cast(Literal["alpha", "length", "priority"],
                                                 "alpha" if sort == "probability" else sort),
                blanks=True, deadline=ctx.deadline,
            )
            ranked = _by_probability(lex, found, ctx.deadline) if sort == "probability" else [(a, None) for a in found]
            entries += [(rack, a, rank) for a, rank in ranked]
    if sort == "probability":
        fields["tile_set"] = tile_set(lex.store).origin
    if ctx.max_results is not None:
        limit = ctx.max_results if limit is None else min(limit, ctx.max_results)
    if paged or (limit is not None and len(entries) > limit):
        fields["total"] = len(entries)
        entries = entries[offset: None if limit is None else offset + limit]
    results = entries if params.get("table") else [_anagram_result(*entry) for entry in entries]
    if params.get("hooks"):
        _add_hooks(lex, results, ctx.deadline)
    return envelope("anagram", lex, results, **fields)


def _text_anagram(doc: Document) -> Iterator[str]:
    results = doc["results"]
    many = len({r["rack"] for r in results}) > 1
    if doc.get("mode") == "table":
        groups: dict[tuple[str, str | None], list[str]] = {}
        racks = list(dict.fromkeys(r["rack"] for r in results)) or [""]
        for rack in racks:
            for tile in [None, *doc.get("added", [])]:
                groups[(rack, tile)] = []
        for r in results:
            groups.setdefault((r["rack"], r["added"]), []).append(r["word"])
        labels = {key: key[0] + (f"+{key[1]}" if key[1] else "") for key in groups}
        width = max((len(v) for v in labels.values()), default=0)
        for key, words in groups.items():
            yield f"{esc(labels[key]).ljust(width)} : {' '.join(words)}".rstrip()
        return
    show = "display" if doc.get("show_blanks") else "word"
    width = _hook_width(results)
    for r in results:
        line = r[show] if "hooks" not in r else _hooked(r, width, r[show] if show == "display" else None)
        yield f"{esc(r['rack'])}\t{line}" if many else line


# -- match -------------------------------------------------------------------


def _run_match(ctx: Context, params: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    patterns = values(params, "patterns")
    if not patterns:
        raise QueryError(f"give at least one {ctx.spell('patterns')}")
    min_priority = need_int(ctx, params, "min_priority", maximum=255) or 0
    offset = need_int(ctx, params, "offset") or 0
    limit = need_int(ctx, params, "limit")
    if ctx.max_results is not None:
        limit = ctx.max_results if limit is None else min(limit, ctx.max_results)
    count_only = bool(params.get("count"))
    results: list[dict[str, Any]] = []
    total = 0
    for pattern in patterns:
        if count_only or offset or limit is not None:
            total += lex.count(pattern, min_priority=min_priority, deadline=ctx.deadline)
        if count_only:
            continue
        words = lex.match(pattern, min_priority=min_priority, offset=offset, limit=limit, deadline=ctx.deadline)
        priority = lex.priority
        results += [{"pattern": pattern.lower(), "word": w, "priority": priority(w)} for w in words]
    fields: dict[str, Any] = {}
    if min_priority:
        fields["min_priority"] = min_priority
    if count_only or offset or limit is not None:
        fields["total"] = total
    if count_only:
        fields["count_only"] = True
    if params.get("scores"):
        fields["scores"] = True
    if params.get("hooks"):
        _add_hooks(lex, results, ctx.deadline)
    return envelope("match", lex, results, **fields)


def _found_match(doc: Document) -> bool:
    return bool(doc["results"]) or bool(doc.get("total"))


def _text_match(doc: Document) -> Iterator[str]:
    if doc.get("count_only"):
        yield str(doc["total"])
        return
    results = doc["results"]
    many = len({r["pattern"] for r in results}) > 1
    scores = doc.get("scores")
    width = _hook_width(results)
    for r in results:
        if "hooks" in r:
            line = _hooked(r, width) + (f"\t{r['priority']}" if scores else "")
        else:
            line = f"{r['word']};{r['priority']}" if scores else r["word"]
        yield f"{esc(r['pattern'])}\t{line}" if many else line


# -- cross -------------------------------------------------------------------


def _run_cross(ctx: Context, params: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    a, b = str(params.get("pattern_a") or ""), str(params.get("pattern_b") or "")
    pos_a = need_int(ctx, params, "pos_a")
    pos_b = need_int(ctx, params, "pos_b")
    if pos_a is None or pos_b is None:
        raise QueryError(f"give {ctx.spell('pos_a')} and {ctx.spell('pos_b')}")
    min_priority = need_int(ctx, params, "min_priority", maximum=255) or 0
    limit = need_int(ctx, params, "limit")
    limit = 10 if limit is None else limit
    c = lex.cross(a, pos_a, b, pos_b, min_priority=min_priority, deadline=ctx.deadline)
    cut = limit or None
    results = [{"tile": t, "count_a": na, "count_b": nb} for t, (na, nb) in c.counts.items() if t in c.tiles]
    return envelope(
        "cross", lex, results,
        pattern_a=a.lower(), pos_a=pos_a, pattern_b=b.lower(), pos_b=pos_b,
        words_a=[{"word": w} for w in c.words_a[:cut]], total_a=len(c.words_a),
        words_b=[{"word": w} for w in c.words_b[:cut]], total_b=len(c.words_b),
    )


def _text_cross(doc: Document) -> Iterator[str]:
    a, b = doc["pattern_a"], doc["pattern_b"]
    if not doc["results"]:
        yield f"no tile fits both {esc(a)} (position {doc['pos_a']}) and {esc(b)} (position {doc['pos_b']})"
        return
    yield f"tiles that fit the shared cell: {' '.join(r['tile'] for r in doc['results'])}"
    yield "words of each entry putting that tile there:"
    width = max(len(a), len(b), 4)
    yield f"  tile  {a.rjust(width)}  {b.rjust(width)}"
    for r in doc["results"]:
        yield f"  {r['tile'].rjust(4)}  {str(r['count_a']).rjust(width)}  {str(r['count_b']).rjust(width)}"
    for side, pattern in (("a", a), ("b", b)):
        words = [w["word"] for w in doc[f"words_{side}"]]
        more = doc[f"total_{side}"] - len(words)
        yield f"{esc(pattern)}: {' '.join(words)}" + (f" … ({more:,} more)" if more > 0 else "")


COMMANDS = [
    Command(
        name="anagram",
        summary="Words from a rack: '?' is a blank, a trailing '*' asks for longer words.",
        params=(
            Param("racks", "rack of tiles ('?' a blank, trailing '*' longer words); '-' reads one per line "
                  "from standard input", positional=True, many=True, required=True, metavar="RACK", stdin=True),
            Param("exact", "use every tile of the rack", kind="bool", default=False),
            Param("super", "use every tile of the rack and more", kind="bool", default=False),
            Param("through", "board tiles every word must also use", default="", metavar="TILES"),
            Param("min_length", "shortest word listed, in tiles", kind="int", default=2, metavar="N", minimum=1,
                  maximum=MAX_TILES),
            Param("max_length", "longest word listed, in tiles", kind="int", metavar="N", minimum=1,
                  maximum=MAX_TILES),
            Param("sort", "order of the results (length: longest first; priority: best first; probability: most "
                  "probable to draw first, by probability rank within each length, then shorter first)",
                  default="alpha", choices=ANAGRAM_SORTS),
            Param("offset", "skip this many results first (in the order chosen)", kind="int", default=0,
                  metavar="N", minimum=0, maximum=MAX_COUNT),
            Param("limit", "list at most this many results", kind="int", metavar="N", minimum=0, maximum=MAX_COUNT),
            Param("show_blanks", "print words in upper case with the tiles that blanks make in lower case",
                  kind="bool", default=False, cli_only=True),
            Param("table", "exact anagrams of the rack, then of the rack plus each tile", kind="bool",
                  default=False),
            Param("hooks", "add each word's front and back hooks (not with --table)", kind="bool", default=False),
        ),
        run=_run_anagram,
        text=_text_anagram,
        examples=("lexigraph anagram 'AALNST?' --exact --show-blanks", "lexigraph anagram 'retains*' --sort length",
                  "lexigraph anagram 'AALNST?' --table", "lexigraph anagram acer --exact --hooks"),
    ),
    Command(
        name="match",
        summary="Words matching a crossword pattern: ? any tile, [abc] set, [^abc], @ vowel, # consonant, * run.",
        params=(
            Param("patterns", "crossword pattern; '-' reads one per line from standard input", positional=True,
                  many=True, required=True, metavar="PATTERN", stdin=True),
            Param("min_priority", "only words of at least this priority (0-255)", kind="int", default=0,
                  metavar="N", minimum=0, maximum=MAX_PRIORITY),
            Param("offset", "skip this many matches first (results come best priority first)", kind="int",
                  default=0, metavar="N", minimum=0, maximum=MAX_COUNT),
            Param("limit", "list at most this many matches per pattern", kind="int", metavar="N", minimum=0,
                  maximum=MAX_COUNT),
            Param("count", "print only the number of matches", kind="bool", default=False),
            Param("scores", "print each word's priority as WORD;PRIORITY (with --hooks: after a tab)", kind="bool",
                  default=False, cli_only=True),
            Param("hooks", "add each word's front and back hooks", kind="bool", default=False),
        ),
        run=_run_match,
        text=_text_match,
        found=_found_match,
        examples=("lexigraph match '??mo??t'", "lexigraph match 'q[^u]*' --limit 5",
                  "lexigraph match '?????' --count", "lexigraph match 'c?re' --hooks"),
    ),
    Command(
        name="cross",
        summary="Tiles that fit where two entries cross (positions count from 0), and the words that agree.",
        params=(
            Param("pattern_a", "pattern of the first entry", positional=True, required=True, metavar="PATTERN_A"),
            Param("pos_a", "position of the shared cell in the first entry, from 0", kind="int", positional=True,
                  required=True, metavar="POS_A", minimum=0, maximum=MAX_TILES - 1),
            Param("pattern_b", "pattern of the second entry", positional=True, required=True, metavar="PATTERN_B"),
            Param("pos_b", "position of the shared cell in the second entry, from 0", kind="int", positional=True,
                  required=True, metavar="POS_B", minimum=0, maximum=MAX_TILES - 1),
            Param("min_priority", "only words of at least this priority (0-255)", kind="int", default=0,
                  metavar="N", minimum=0, maximum=MAX_PRIORITY),
            Param("limit", "words listed per entry (0: all)", kind="int", default=10, metavar="N", minimum=0,
                  maximum=MAX_COUNT),
        ),
        run=_run_cross,
        text=_text_cross,
        examples=("lexigraph cross 'e???y' 2 'd???' 1", "lexigraph cross 'e???y' 2 'd???' 1 --limit 0 --json"),
    ),
]
