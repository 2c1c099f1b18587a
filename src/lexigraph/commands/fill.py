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
PES
<BLANKLINE>
1A cat
4A ana
5A pes
1D cap
2D ane
3D tas
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
from collections.abc import Iterator, Mapping
from typing import Any

from . import Command, Context, Document, Param

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


def _lexicon_name(lex: Any) -> str:
    info = getattr(lex, "info", None)
    name = info.get("name") if isinstance(info, dict) else None
    return str(name) if name else os.path.basename(str(getattr(lex, "path", "lexicon")))


def _read_grid(params: Mapping[str, Any], alphabet: Any) -> Any:
    from ..errors import QueryError
    from ..crossword.grid import Grid

    text = params.get("grid_text")
    path = params.get("grid")
    if text is not None and path:
        raise QueryError("give the grid as a file or as text, not both")
    if text is not None:
        if not isinstance(text, str):
            raise QueryError("grid_text must be text (plain grid or ipuz JSON)")
        if text.lstrip().startswith("{"):
            return Grid.from_ipuz(text)
        if "\n" not in text.strip():
            text = text.replace("/", "\n")  # one line: rows separated by '/'
        return Grid.from_text(text, alphabet=alphabet)
    if not path:
        raise QueryError("no grid given: a grid file, or --grid-text")
    if path == "-":
        from ..crossword.grid import MAX_FILE_BYTES

        text = sys.stdin.read(MAX_FILE_BYTES + 1)
        if len(text) > MAX_FILE_BYTES:
            raise QueryError(f"the grid on standard input is larger than {MAX_FILE_BYTES >> 20} MiB")
        return Grid.from_text(text, alphabet=alphabet)
    return Grid.read(path, alphabet=alphabet)


def _run(ctx: Context, params: Mapping[str, Any]) -> Document:
    from ..crossword.fill import fill, suggest
    from ..errors import QueryError

    lex = ctx.lexicon()
    grid = _read_grid(params, lex.alphabet)
    min_priority = params.get("min_priority") or 0
    doc: Document = {"command": "fill", "lexicon": _lexicon_name(lex)}
    slot = params.get("suggest")
    if slot:
        limit = params.get("limit")
        limit = 50 if limit is None else limit
        if ctx.max_results is not None:
            limit = min(limit, ctx.max_results)
        target = grid.slot(slot)
        got = suggest(lex, grid, slot, min_priority=min_priority, allow_repeats=bool(params.get("allow_repeats")), limit=limit)
        doc["suggest"] = target.name
        doc["pattern"] = "".join("?" if v is None else v for v in grid.word(target))
        doc["results"] = [
            {"word": s.word, "priority": s.priority, "score": s.score, "crossings": s.crossings} for s in got
        ]
        doc["count"] = len(got)
        return doc
    timeout = params.get("timeout")
    if ctx.deadline is not None:
        left = max(ctx.deadline - time.monotonic(), 1e-3)
        timeout = left if timeout is None else min(timeout, left)
    output = params.get("output")
    inputs = [params["grid"]] if params.get("grid") not in (None, "-") else []
    if output:
        from ..support.files import refuse_overwrite

        refuse_overwrite(output, inputs)  # before the search, not after it
    result = fill(
        lex,
        grid,
        min_priority=min_priority,
        seed=params.get("seed") or 0,
        timeout=timeout,
        allow_repeats=bool(params.get("allow_repeats")),
        region=params.get("region") or None,
        improve=params.get("improve") or 0.0,
        progress=ctx.progress,
    )
    doc["status"] = result.status
    doc["grid"] = (result.grid or grid).to_text().split("\n")
    doc["results"] = [{"slot": w.slot, "word": w.word, "priority": w.priority, "fixed": w.fixed} for w in result.words]
    doc["count"] = len(result.words)
    doc["lowest_priority"] = result.min_priority
    mean = result.mean_priority
    doc["mean_priority"] = None if mean is None else round(mean, 3)
    doc["optimal"] = result.optimal
    doc["reason"] = result.reason
    doc["culprits"] = result.culprits
    doc["stats"] = dict(result.stats, seconds=round(result.seconds, 4))
    if output and result.grid is not None:
        result.grid.write(output, inputs=inputs)
        doc["output"] = os.fspath(output)
    return doc


def _text(doc: Document) -> Iterator[str]:
    if "suggest" in doc:
        if not doc["results"]:
            yield f"no word fits {doc['suggest']} ({doc['pattern'].upper()}) with its crossings"
        for r in doc["results"]:
            cross = " ".join(f"{k}:{v}" for k, v in r["crossings"].items())
            yield f"{r['word']}\t{r['score']}\t{cross}"
        return
    status = doc.get("status")
    if status == "filled":
        yield from doc["grid"]
        yield ""
        for r in doc["results"]:
            yield f"{r['slot']} {r['word']}" + (" (given)" if r["fixed"] else "")
        yield ""
        free = [r for r in doc["results"] if not r["fixed"]]
        n = len(doc["results"])
        summary = f"filled {n} slot{'' if n == 1 else 's'}"
        if free:
            summary += f"; lowest priority {doc['lowest_priority']}, mean {doc['mean_priority']:.1f}"
        if doc.get("optimal"):
            summary += " (the lowest priority is the best possible)"
        yield summary
    elif status == "no_fill":
        yield f"no fill exists: {doc['reason']}"
    else:
        yield "no fill found within the time limit"


FILL = Command(
    name="fill",
    summary="fill a crossword grid from the lexicon, or rank the candidates of one slot",
    params=(
        Param("grid", "the grid file: plain text ('.' empty, '#' block, letters fixed), .ipuz or .puz; '-' reads text from standard input", positional=True, metavar="GRID", cli_only=True),
        Param("grid_text", "the grid itself instead of a file: text rows (on one line, separated by '/') or ipuz JSON", metavar="ROWS"),
        Param("min_priority", "use only words of at least this priority (0-255)", kind="int", default=0, metavar="N"),
        Param("seed", "seed of the tie-breaks: the same seed gives the same fill", kind="int", default=0, metavar="N"),
        Param("timeout", "give up after this many seconds", kind="float", metavar="S"),
        Param("allow_repeats", "let a word fill more than one slot", kind="bool", default=False),
        Param("region", "fill only these slots ('1A,3D') or this rectangle ('r1c1:r3c5', rows and columns from 1)", metavar="REGION"),
        Param("improve", "spend up to this many more seconds raising the fill's lowest priority", kind="float", default=0.0, metavar="S"),
        Param("suggest", "instead of filling, rank the candidates of this slot (e.g. 12A) by what they leave its crossings", metavar="SLOT"),
        Param("limit", "at most this many suggestions (default 50)", kind="int", metavar="N"),
        Param("output", "write the filled grid here (format from the extension: .txt, .ipuz, .puz)", flags=("-o", "--output"), metavar="OUT", cli_only=True),
    ),
    run=_run,
    text=_text,
    examples=(
        "lexigraph fill --grid-text '#..../...../...../...../....#' --seed 7",
        "lexigraph fill --grid-text 'c..../.#.#./.....' --suggest 1A --limit 3",
        "lexigraph fill grid.ipuz --min-priority 30 --timeout 10 -o filled.puz",
        "lexigraph fill grid.txt --region r1c1:r3c5 --improve 5",
    ),
    found=_found,
    status=exit_status,
    http_method="POST",
)

COMMANDS = [FILL]
