"""The ``fill`` command: fill a crossword grid, or rank the candidates of one slot.

Exit status (``exit_status``): 0 filled (or suggestions found), 1 nothing
found within the time limit (or no suggestion), 3 no fill exists (the
search was exhaustive), 2 an error. The document's ``status`` says which.

>>> from lexigraph.commands import Context
>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "g.txt")
>>> _ = open(path, "w").write("ca.\\n...\\n...\\n")
>>> doc = FILL.run(Context(), {"grid": path, "seed": 1})
>>> doc["status"], doc["count"], exit_status(doc)
('filled', 6, 0)
>>> for line in FILL.text(doc): print(line)
CAT
ANA
BID
<BLANKLINE>
1A cat
4A ana
5A bid
1D cab
2D ani
3D tad
<BLANKLINE>
filled 6 slots; lowest priority 50, mean 50.0
>>> doc = FILL.run(Context(), {"grid": path, "suggest": "1D", "limit": 2})
>>> [(r["word"], r["score"]) for r in doc["results"]]
[('cap', 39618), ('cat', 36423)]
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from ..alphabet import Alphabet
from ..crossword.fill import FillCount, FilledWord, Rules, SlotCount, count_fills, fill, read_blocklist, slot_counts, suggest
from ..crossword.fill.constraints import parse_slot_patterns
from ..crossword.formats import MAX_FILE_BYTES, grid_from_text, grid_to_text, ipuz, read_grid, write_grid
from ..crossword.formats import guess_format, read_clues  # --clues
from ..crossword.grid import Grid
from ..errors import QueryError
from ..lexicon import Lexicon
from ..support.files import read_limited, refuse_overwrite
from ._common import input_files
from .command import MAX_COUNT, MAX_PRIORITY, MAX_SECONDS, MAX_SEED, Command, Context, Document, Param

EXIT_FILLED = 0
EXIT_NOT_FOUND = 1
EXIT_NO_FILL = 3


def exit_status(doc: Document) -> int:
    """0 filled or suggestions found, 1 none found (time limit, no suggestion), 3 no fill exists."""
    if doc.get("status") == "no_fill":
        return EXIT_NO_FILL
    return EXIT_FILLED if _found(doc) else EXIT_NOT_FOUND


def _found(doc: Document) -> bool:
    if "suggest" in doc:
        return bool(doc.get("results"))
    return doc.get("status") == "filled"


def lexicon_name(lex: Lexicon) -> str:
    """The name a document gives the lexicon: its registered name, else its file name."""
    info = getattr(lex, "info", None)
    name = info.get("name") if isinstance(info, dict) else None
    return str(name) if name else os.path.basename(str(getattr(lex, "path", "lexicon")))


def _read_grid(params: Mapping[str, Any], alphabet: Alphabet) -> Grid:
    text = params.get("grid_text")
    path = params.get("grid")
    if text is not None and path:
        raise QueryError("give the grid as a file or as text, not both")
    if text is not None:
        if not isinstance(text, str):
            raise QueryError("grid_text must be text (plain grid or ipuz JSON)")
        if text.lstrip().startswith("{"):
            return ipuz.parse(text)
        if "\n" not in text.strip():
            text = text.replace("/", "\n")  # one line: rows separated by '/'
        return grid_from_text(text, alphabet=alphabet)
    if not path:
        raise QueryError("no grid given: a grid file, or --grid-text")
    if path == "-":
        text = sys.stdin.read(MAX_FILE_BYTES + 1)
        if len(text) > MAX_FILE_BYTES:
            raise QueryError(f"the grid on standard input is larger than {MAX_FILE_BYTES >> 20} MiB")
        return grid_from_text(text, alphabet=alphabet)
    return read_grid(path, alphabet=alphabet)


def _clued(grid: Grid, clue_file: object, output: object) -> Grid:
    """The grid with its own clues (an ipuz or ``.puz`` file's) and those of the clue file over them.

    The fill keeps every block, so each clue stays on its entry in the filled grid.
    """
    if not clue_file:
        return grid
    if not output:
        raise QueryError("--clues gives the clues of the file --output writes: give --output too")
    if guess_format(str(output)) == "text":
        raise QueryError("a text grid carries no clues: write the grid with --clues to a .ipuz or .puz file")
    clues = grid.clues
    try:
        named: set[str] = set()
        for name, text in read_clues(str(clue_file)).items():
            slot = grid.slot(name).name
            if slot in named:
                raise QueryError(f"two clues for {slot}")
            named.add(slot)
            clues[slot] = text  # the file's clue replaces the grid's own
        return grid.with_clues(clues)
    except QueryError as e:
        where = str(clue_file)
        raise QueryError(str(e) if str(e).startswith(where) else f"{where}: {e}") from None


#: The command line's time limit for a fill, in seconds, unless ``--timeout`` says otherwise (``none``: no limit).
DEFAULT_TIMEOUT = 60.0


def parse_timeout(value: object) -> float | None:
    """``--timeout``: a positive number of seconds, or ``none`` (no limit).

    >>> parse_timeout("2.5"), parse_timeout("none"), parse_timeout(None)
    (2.5, None, 60.0)
    """
    if value is None:
        return DEFAULT_TIMEOUT
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value)
    elif isinstance(value, str) and value.strip().lower() in ("none", "off", "no"):
        return None
    else:
        try:
            number = float(str(value).strip())
        except ValueError:
            raise QueryError(f"--timeout takes a number of seconds or 'none', not {value!r}") from None
    if not number > 0 or number == float("inf"):
        raise QueryError(f"--timeout takes a positive number of seconds or 'none', not {value!r}")
    return number


def parse_length_minimums(text: object) -> dict[int, int]:
    """``--min-by-length``: ``'4:40,5:45'``, a length and a priority per item.

    >>> parse_length_minimums("3:30, 4:40"), parse_length_minimums(None)
    ({3: 30, 4: 40}, {})
    """
    return {int(key): priority for key, priority in _minimums(text, "min_by_length", "length").items()}


def parse_slot_minimums(text: object) -> dict[str, int]:
    """``--min-by-slot``: ``'1A:60,17D:30'``, a slot and a priority per item.

    >>> parse_slot_minimums("1a:60")
    {'1A': 60}
    """
    return _minimums(text, "min_by_slot", "slot")


def _minimums(text: object, what: str, key_kind: str) -> dict[str, int]:
    """KEY:PRIORITY items (the keys checked as lengths when ``key_kind`` is ``length``), keys as written."""
    if text is None or text == "":
        return {}
    if not isinstance(text, str):
        raise QueryError(f"{what} is written KEY:PRIORITY,... ('4:40,5:45')")
    out: dict[str, int] = {}
    example = "4:40" if key_kind == "length" else "1A:60"
    for item in text.replace(";", ",").replace(" ", ",").split(","):
        if not item:
            continue
        key, sep, value = item.partition(":")
        try:
            priority = int(value)
            parsed = str(int(key)) if key_kind == "length" else key.strip().upper()
        except ValueError:
            raise QueryError(f"{what}: {item!r} is not {key_kind}:priority (e.g. {example})") from None
        if not sep or not parsed:
            raise QueryError(f"{what}: {item!r} is not {key_kind}:priority")
        out[parsed] = priority
    return out


def _theme_words(values: object) -> list[str]:
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise QueryError("theme: a list of words")
    return [w for v in values for w in v.replace(",", " ").split() if w]


def _blocklist(params: Mapping[str, Any]) -> frozenset[str]:
    """The blocklist file's words (``--blocklist FILE``) and the words blocked one by one (``--block WORD``)."""
    words: set[str] = set()
    path = params.get("blocklist")
    if path:
        data = read_limited(path, limit=MAX_BLOCKLIST_BYTES, what="a blocklist", error=QueryError)
        words |= read_blocklist(data.decode("utf-8", errors="replace"))
    words |= {w.lower() for w in _theme_words(params.get("block"))}
    return frozenset(words)


def _rules(params: Mapping[str, Any]) -> Rules:
    return Rules(
        min_priority=params.get("min_priority") or 0,
        min_by_length=parse_length_minimums(params.get("min_by_length")),
        min_by_slot=parse_slot_minimums(params.get("min_by_slot")),
        allow_repeats=bool(params.get("allow_repeats")),
        max_shared=params.get("max_shared") or 0,
        blocklist=_blocklist(params),
        distinct_stems=bool(params.get("distinct_stems")),
        slot_patterns=parse_slot_patterns(params.get("slot")),
    )


def _slot_documents(counts: Iterable[SlotCount]) -> list[dict[str, Any]]:
    return [{"slot": c.slot, "candidates": c.candidates, "forced": c.forced, "given": c.given} for c in counts]


def _words_document(words: Iterable[FilledWord]) -> list[dict[str, Any]]:
    return [{"slot": w.slot, "word": w.word, "priority": w.priority, "fixed": w.fixed, "theme": w.theme} for w in words]


def _run(ctx: Context, params: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    grid = _read_grid(params, lex.alphabet)
    min_priority = params.get("min_priority") or 0
    doc: Document = {"command": "fill", "lexicon": lexicon_name(lex)}
    slot = params.get("suggest")
    if slot:
        limit = params.get("limit")
        limit = 50 if limit is None else limit
        if ctx.max_results is not None:
            limit = min(limit, ctx.max_results)
        target = grid.slot(slot)
        rules = _rules(params)
        got = suggest(lex, grid, slot, rules=Rules(min_priority, allow_repeats=rules.allow_repeats,
                                                   blocklist=rules.blocklist, distinct_stems=rules.distinct_stems,
                                                   slot_patterns=rules.slot_patterns), limit=limit)
        doc["suggest"] = target.name
        doc["pattern"] = "".join("?" if v is None else v for v in grid.word(target))
        doc["results"] = [
            {"word": s.word, "priority": s.priority, "score": s.score, "crossings": s.crossings} for s in got
        ]
        doc["count"] = len(got)
        return doc
    # The command line's own spelling (--timeout S|none, default DEFAULT_TIMEOUT); the server sends a number.
    timeout = parse_timeout(params["cli_timeout"]) if "cli_timeout" in params else params.get("timeout")
    if ctx.deadline is not None:
        left = max(ctx.deadline - time.monotonic(), 1e-3)
        timeout = left if timeout is None else min(timeout, left)
    rules = _rules(params)
    region = params.get("region") or None
    locked = params.get("locked") or None
    if params.get("count_fills"):
        return _count_document(doc, count_fills(lex, grid, rules=rules, region=region, locked=locked,
                                                cap=params.get("cap") or DEFAULT_CAP, timeout=timeout))
    if params.get("counts"):
        result = slot_counts(lex, grid, rules=rules, region=region, timeout=timeout, locked=locked)
        doc["status"] = result.status
        doc["grid"] = grid_to_text(grid).split("\n")
        doc["results"] = _slot_documents(result.slots)
        doc["count"] = len(result.slots)
        doc["counts"] = True
        doc["reason"] = result.reason
        doc["culprits"] = result.culprits
        return doc
    output = params.get("output")
    inputs = input_files(ctx, lex, params.get("grid"))  # the grid, and the word list the lexicon came from
    clued = _clued(grid, params.get("clues"), output)  # checked before the search, not after it
    if output:
        refuse_overwrite(output, [*inputs, *([params["clues"]] if params.get("clues") else [])])
    fills = params.get("fills")
    result = fill(
        lex,
        grid,
        theme=_theme_words(params.get("theme")),
        fills=1 if fills is None else fills,
        differ=params.get("differ"),
        objective=params.get("objective") or "mean",
        seed=params.get("seed") or 0,
        timeout=timeout,
        region=region,
        locked=locked,
        improve=params.get("improve") or 0.0,
        progress=_progress(ctx, timeout is not None),
        rules=rules,
    )
    doc["status"] = result.status
    doc["grid"] = grid_to_text(result.grid or grid).split("\n")
    doc["results"] = _words_document(result.words)
    doc["count"] = len(result.words)
    doc["lowest_priority"] = result.min_priority
    mean = result.mean_priority
    doc["mean_priority"] = None if mean is None else round(mean, 3)
    doc["optimal"] = result.optimal
    doc["reason"] = result.reason
    doc["culprits"] = result.culprits
    doc["fills"] = [
        {"grid": grid_to_text(f.grid).split("\n"), "results": _words_document(f.words), "lowest_priority": f.min_priority,
         "mean_priority": None if f.mean_priority is None else round(f.mean_priority, 3)}
        for f in result.fills
    ]
    doc["slots"] = _slot_documents(result.slots)
    doc["stats"] = dict(result.stats, seconds=round(result.seconds, 4))
    if output and result.grid is not None:
        write_grid(result.grid.with_clues(clued.clues), output, inputs=inputs)
        doc["output"] = os.fspath(output)
    return doc


#: Largest blocklist file read.
MAX_BLOCKLIST_BYTES = 64 << 20
#: The most fills ``--count-fills`` counts unless ``--cap`` says otherwise.
DEFAULT_CAP = 1000


def _count_document(doc: Document, got: FillCount) -> Document:
    doc["count_fills"] = True
    doc["status"] = "timeout" if got.timed_out else "filled" if got.count else "no_fill"
    doc["fills_counted"] = got.count
    doc["cap"] = got.cap
    doc["exact"] = got.exact
    doc["results"] = []  # the fills are counted, not listed
    doc["count"] = 0
    doc["seconds"] = round(got.seconds, 4)
    return doc


def _progress(ctx: Context, timed: bool) -> Callable[[str, int, int], None] | None:
    """The fill's reports as ``ctx.progress`` takes them: one stage, "fill"; its text as the detail.

    With a time limit the fill counts the milliseconds spent of it (the bar
    shows the time spent and left). Without one there is no total; the
    detail (slots decided at best, restarts) says how far the search is.
    """
    report = ctx.progress
    if report is None:
        return None

    def step(stage: str, done: int, total: int) -> None:
        detail = stage.removeprefix("fill: ")
        if timed:
            report("fill", min(done, total), total, unit="ms", detail=detail)
        else:
            report("fill", 0, 0, detail=detail)

    return step


def _hardest(slots: list[dict[str, Any]], n: int = 5) -> str:
    open_slots = sorted((s for s in slots if not s["given"]), key=lambda s: (s["candidates"], s["slot"]))
    return ", ".join(f"{s['slot']} {s['candidates']:,}" for s in open_slots[:n])


def _heat_rows(doc: Document) -> Iterator[str]:
    """The grid with each open cell's fewest candidates (of its slots) as a digit: their number of digits."""
    grid = grid_from_text("\n".join(doc["grid"]))
    count = {r["slot"]: r["candidates"] for r in doc["results"]}
    least: dict[tuple[int, int], int] = {}
    for s in grid.slots():
        if s.name in count:
            for cell in s.cells:
                least[cell] = min(least.get(cell, count[s.name]), count[s.name])
    for r in range(grid.height):
        yield "".join(
            "#" if grid.is_block(r, c) else "." if (r, c) not in least else str(min(9, len(str(least[(r, c)]))) if least[(r, c)] else 0)
            for c in range(grid.width)
        )


def _text(doc: Document) -> Iterator[str]:
    if "suggest" in doc:
        if not doc["results"]:
            yield f"no word fits {doc['suggest']} ({doc['pattern'].upper()}) with its crossings"
        for r in doc["results"]:
            cross = " ".join(f"{k}:{v}" for k, v in r["crossings"].items())
            yield f"{r['word']}\t{r['score']}\t{cross}"
        return
    status = doc.get("status")
    if doc.get("count_fills"):
        n = doc["fills_counted"]
        if doc["exact"]:
            yield f"{n:,} fill{'' if n == 1 else 's'} (every one: the search was exhaustive)"
        elif status == "timeout":
            yield f"at least {n:,} fill{'' if n == 1 else 's'} (counted until the time limit)"
        else:
            yield f"at least {n:,} fills (the cap)"
        return
    if doc.get("counts"):
        yield from _heat_rows(doc)
        yield ""
        for r in sorted(doc["results"], key=lambda r: (r["candidates"], r["slot"])):
            note = " (given)" if r["given"] else " (forced)" if r["forced"] else ""
            yield f"{r['slot']}\t{r['candidates']}{note}"
        yield ""
        if status == "no_fill":
            yield f"no fill exists: {doc['reason']}"
        elif status == "timeout":
            yield "propagation did not finish within the time limit"
        else:
            yield "each cell: the number of digits of its slots' fewest candidates (0: none left)"
        return
    if status == "filled":
        fills = doc.get("fills") or []
        for k, f in enumerate(fills[1:], 2):
            if k == 2:
                yield f"fill 1 of {len(fills)}: mean {doc['mean_priority']:.1f}, lowest {doc['lowest_priority']}"
                yield from doc["grid"]
                yield ""
            yield f"fill {k} of {len(fills)}: mean {f['mean_priority']:.1f}, lowest {f['lowest_priority']}"
            yield from f["grid"]
            yield ""
        if len(fills) <= 1:
            yield from doc["grid"]
            yield ""
        for r in doc["results"]:
            yield f"{r['slot']} {r['word']}" + (" (theme)" if r.get("theme") else " (given)" if r["fixed"] else "")
        yield ""
        free = [r for r in doc["results"] if not r["fixed"]]
        n = len(doc["results"])
        summary = f"filled {n} slot{'' if n == 1 else 's'}"
        if free:
            summary += f"; lowest priority {doc['lowest_priority']}, mean {doc['mean_priority']:.1f}"
        elif not n:
            summary += "; no slot lies wholly in the region, so no word is complete"
        if doc.get("optimal"):
            summary += " (the lowest priority is the best possible)"
        yield summary
        if doc.get("reason"):
            yield doc["reason"]
    elif status == "no_fill":
        yield f"no fill exists: {doc['reason']}"
    else:
        yield "no fill found within the time limit"
    if status == "timeout" and doc.get("slots"):
        yield f"hardest slots (candidates after propagation): {_hardest(doc['slots'])}"


FILL = Command(
    name="fill",
    summary="fill a crossword grid from the lexicon, or rank the candidates of one slot",
    params=(
        Param("grid", "the grid file: plain text ('.' empty, '#' block, letters fixed), .ipuz or .puz; '-' reads text from standard input", positional=True, metavar="GRID", cli_only=True),
        Param("grid_text", "the grid itself instead of a file: text rows (on one line, separated by '/') or ipuz JSON", metavar="ROWS"),
        Param("min_priority", "use only words of at least this priority (0-255), the minimum score of every entry the fill chooses", kind="int", default=0, metavar="N", minimum=0, maximum=MAX_PRIORITY),
        Param("min_by_length", "minimum priorities for some lengths, e.g. '3:30,4:40' (they replace --min-priority there)", metavar="LEN:N,..."),
        Param("min_by_slot", "minimum priorities for some slots, e.g. '1A:60,17A:50' (they replace the others there)", metavar="SLOT:N,..."),
        Param("max_shared", "no two entries may share a run of this many tiles or more (2-10; 0: no limit)", kind="int", default=0, metavar="N", minimum=0, maximum=MAX_COUNT),
        Param("theme", "theme words to place: the fill chooses their slots (by length and crossings) before filling the rest; repeat the option or separate words with commas", many=True, metavar="WORD"),
        Param("fills", "find this many fills (1-100), ranked by the objective", kind="int", default=1, metavar="N", minimum=1, maximum=MAX_COUNT),
        Param("differ", "each fill differs from the others in at least this many entries (default: a fifth of them)", kind="int", metavar="N", minimum=1, maximum=MAX_COUNT),
        Param("objective", "rank fills by their mean priority, or by their lowest priority first", default="mean", choices=("mean", "min")),
        Param("seed", "seed of the tie-breaks: the same seed gives the same fill", kind="int", default=0, metavar="N", minimum=0, maximum=MAX_SEED),
        Param("timeout", "give up after this many seconds", kind="float", metavar="S", http_only=True, minimum=0, maximum=MAX_SECONDS),
        Param("cli_timeout", f"give up after this many seconds ('none': no limit; default: {DEFAULT_TIMEOUT:g})", flags=("--timeout",), metavar="S", cli_only=True),
        Param("allow_repeats", "let a word fill more than one slot", kind="bool", default=False),
        Param("region", "fill only these slots ('1A,3D') or this rectangle ('r1c1:r3c5', rows and columns from 1)", metavar="REGION"),
        Param("improve", "spend up to this many more seconds on the objective: a higher lowest priority (--objective min) or better fills (mean)", kind="float", default=0.0, metavar="S", minimum=0, maximum=MAX_SECONDS),
        Param("locked", "cells the fill must keep: the fill may change every other letter of the region (the whole grid without one); slots ('1A,3D') or a rectangle ('r1c1:r3c5')", metavar="REGION"),
        Param("blocklist", "a file of words no entry the fill chooses may be (one a line; '#' comments)", metavar="FILE", cli_only=True, completer="file"),
        Param("block", "words no entry the fill chooses may be (repeat, or commas)", many=True, metavar="WORD"),
        Param("distinct_stems", "no two entries share a stem (star, stars, starred: docs/autofill.md says how stems are found)", kind="bool", default=False),
        Param("slot", "a slot's pattern, SLOT=PATTERN ('1A=??AR*': '?' one tile, '*' any run), or a word fixed in a slot ('17D=LEXICON'); repeat, or commas", many=True, metavar="SLOT=PATTERN"),
        Param("count_fills", "instead of filling, count the fills of the grid (or of --region) up to --cap", kind="bool", default=False),
        Param("cap", f"count at most this many fills (default {DEFAULT_CAP})", kind="int", metavar="N", minimum=1, maximum=1_000_000),
        Param("counts", "instead of filling, give each slot's candidates after propagation: where the grid will be hard", kind="bool", default=False),
        Param("suggest", "instead of filling, rank the candidates of this slot (e.g. 12A) by what they leave its crossings", metavar="SLOT"),
        Param("limit", "at most this many suggestions (default 50)", kind="int", metavar="N", minimum=0, maximum=MAX_COUNT),
        Param("output", "write the filled grid here (format from the extension: .txt, .ipuz, .puz)", flags=("-o", "--output"), metavar="OUT", cli_only=True),
        Param("clues", "a clue file for the grid written by --output (.ipuz, .puz): a line per entry, its slot, a tab, its clue ('1A<TAB>Feline pet')", metavar="FILE", cli_only=True, completer="file"),
    ),
    run=_run,
    text=_text,
    examples=(
        "lexigraph fill --grid-text '#..../...../...../...../....#' --seed 7",
        "lexigraph fill --grid-text 'c..../.#.#./.....' --suggest 1A --limit 3",
        "lexigraph fill grid.ipuz -L scored.lex --min-priority 40 --max-shared 5 --theme lexicon --fills 5 -o filled.puz",
        "lexigraph fill grid.txt -L scored.lex --min-priority 50 --counts --timeout none",
    ),
    found=_found,
    status=exit_status,
    http_method="POST",
)

COMMANDS = [FILL]
