"""The ``design`` command: propose filled grids around theme entries (:mod:`lexigraph.crossword.design`).

Exit status (``exit_status``): 0 when a proposal filled, 1 when grids were
made but none filled within the time limit, 3 when no grid meets the rules
(the theme does not fit), 2 an error. The document's ``status`` says which.

>>> from lexigraph.commands import Context
>>> doc = DESIGN.run(Context(), {"theme": ["pancakes", "waffles", "oatmeal"], "proposals": 1, "seed": 2})
>>> doc["status"], doc["count"], [t["slot"] for t in doc["results"][0]["theme"]], exit_status(doc)
('filled', 1, ['49A', '60A', '16A'], 0)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..crossword.design import SYMMETRIES, DesignResult, Proposal, Symmetry, design
from ..crossword.fill import Rules
from ..crossword.formats import grid_to_text
from ..errors import QueryError
from .command import MAX_PRIORITY, MAX_SECONDS, MAX_SEED, Command, Context, Document, Param
from .fill import DEFAULT_TIMEOUT, lexicon_name, parse_timeout

EXIT_FILLED = 0
EXIT_UNFILLED = 1
EXIT_NO_GRID = 3


def exit_status(doc: Document) -> int:
    """0 a proposal filled, 1 grids but none filled in time, 3 no grid meets the rules."""
    return {"filled": EXIT_FILLED, "no_grid": EXIT_NO_GRID}.get(str(doc.get("status")), EXIT_UNFILLED)


def _words(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise QueryError("theme: a list of words")
    return [w for v in value for w in v.replace(",", " ").split() if w]


def _size(value: object) -> tuple[int, int]:
    """``--size 15`` or ``15x15`` (height x width).

    >>> _size("15"), _size("21x19"), _size(None)
    ((15, 15), (21, 19), (15, 15))
    """
    if value is None or value == "":
        return 15, 15
    if isinstance(value, int) and not isinstance(value, bool):
        return value, value
    text = str(value).strip().lower()
    try:
        parts = [int(p) for p in text.split("x")]
    except ValueError:
        raise QueryError(f"size is a number of cells or HEIGHTxWIDTH ('15', '21x21'), not {text!r}") from None
    if len(parts) == 1:
        return parts[0], parts[0]
    if len(parts) != 2:
        raise QueryError(f"size is a number of cells or HEIGHTxWIDTH ('15', '21x21'), not {text!r}")
    return parts[0], parts[1]


def proposal_document(p: Proposal, rank: int) -> dict[str, Any]:
    """One proposal as JSON: the pattern (blocks and theme letters), the filled grid, the theme's slots, the counts."""
    filled = p.fill is not None and p.fill.status == "filled" and p.fill.grid is not None
    return {
        "rank": rank,
        "status": p.status,
        "pattern": grid_to_text(p.pattern).split("\n"),
        "grid": grid_to_text(p.fill.grid).split("\n") if filled and p.fill and p.fill.grid else None,
        "theme": [{"word": t.word, "slot": t.slot, "row": t.row + 1, "col": t.col + 1, "direction": t.direction}
                  for t in p.placements],
        "blocks": p.blocks,
        "entries": p.entries,
        "freedom": round(p.freedom, 3),
        "fewest_candidates": p.fewest,
        "score": round(p.score, 3),
        "lowest_priority": p.fill.min_priority if filled and p.fill else None,
        "mean_priority": round(p.fill.mean_priority, 3) if filled and p.fill and p.fill.mean_priority is not None
        else None,
        "words": [{"slot": w.slot, "word": w.word, "priority": w.priority, "fixed": w.fixed, "theme": w.theme}
                  for w in (p.fill.words if filled and p.fill else [])],
        "seed": p.seed,
    }


def _document(result: DesignResult, lexicon: str, size: tuple[int, int], symmetry: str, theme: list[str],
              seed: int) -> Document:
    results = [proposal_document(p, k) for k, p in enumerate(result.proposals, 1)]
    return {"command": "design", "lexicon": lexicon, "status": result.status, "size": list(size),
            "symmetry": symmetry, "theme": theme, "seed": seed, "reason": result.reason, "results": results,
            "count": len(results), "stats": {"patterns_tried": result.patterns_tried,
                                              "seconds": round(result.seconds, 3)}}


def _run(ctx: Context, params: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    height, width = _size(params.get("size"))
    symmetry = params.get("symmetry") or "rotational"
    if symmetry not in SYMMETRIES:
        raise QueryError(f"symmetry must be one of {', '.join(SYMMETRIES)}")
    sym: Symmetry = symmetry
    timeout = parse_timeout(params["cli_timeout"]) if "cli_timeout" in params else params.get("timeout")
    if timeout is None and "cli_timeout" not in params:
        timeout = DEFAULT_TIMEOUT
    if ctx.deadline is not None:  # the server's limit: a margin for the pattern in hand and the answer
        left = max(0.8 * (ctx.deadline - time.monotonic()), 1e-3)
        timeout = left if timeout is None else min(timeout, left)
    theme = _words(params.get("theme"))
    seed = params.get("seed") or 0
    rules = Rules(min_priority=params.get("min_priority") or 0)
    result = design(lex, height=height, width=width, symmetry=sym, theme=theme, revealer=params.get("revealer"),
                    central=params.get("central"), proposals=params.get("proposals") or 3, seed=seed,
                    timeout=timeout, rules=rules, max_run=params.get("max_run"), fill_timeout=params.get("fill_timeout"),
                    progress=_progress(ctx))
    return _document(result, lexicon_name(lex), (height, width), symmetry, theme, seed)


def _progress(ctx: Context) -> Callable[[str, int, int], None] | None:
    report = ctx.progress
    if report is None:
        return None

    def step(stage: str, done: int, total: int) -> None:
        report("design", min(done, total), total, unit="ms", detail=stage.removeprefix("design: "))

    return step


def _text(doc: Document) -> Iterator[str]:
    for r in doc["results"]:
        mean = "" if r["mean_priority"] is None else f", mean priority {r['mean_priority']:.1f}"
        yield (f"proposal {r['rank']}: {r['status']}, {r['blocks']} blocks, {r['entries']} entries, freedom "
               f"{r['freedom']:.2f}{mean}")
        yield from (r["grid"] or r["pattern"])
        yield "theme: " + ", ".join(f"{t['word']} {t['slot']}" for t in r["theme"]) if r["theme"] else "themeless"
        yield ""
    if doc["status"] == "no_grid":
        yield f"no grid: {doc['reason']}"
    elif doc["status"] == "unfilled":
        yield "no proposal filled within the time limit"
    stats = doc["stats"]
    yield f"{doc['count']} proposal{'' if doc['count'] == 1 else 's'} from {stats['patterns_tried']} patterns tried in " \
          f"{stats['seconds']:.1f} s"


DESIGN = Command(
    name="design",
    summary="propose crossword grids around theme entries: symmetric block patterns, each filled, best first",
    params=(
        Param("theme", "theme entries to place symmetrically (repeat the option or separate words with commas)", many=True, metavar="WORD"),
        Param("size", "the grid's size: a side ('15') or HEIGHTxWIDTH ('21x21')", default="15", metavar="SIZE"),
        Param("symmetry", "the block pattern's symmetry", default="rotational", choices=SYMMETRIES),
        Param("revealer", "the revealer: a theme entry placed last, in the lowest theme row", metavar="WORD"),
        Param("central", "a theme entry placed in the middle row, centred", metavar="WORD"),
        Param("proposals", "how many grids to propose (1-20)", kind="int", default=3, metavar="N", minimum=1, maximum=20),
        Param("min_priority", "fill with words of at least this priority (0-255)", kind="int", default=0, metavar="N", minimum=0, maximum=MAX_PRIORITY),
        Param("max_run", "the longest entry besides the theme (default: 8 at 15x15)", kind="int", metavar="N", minimum=3, maximum=255),
        Param("fill_timeout", "give each pattern's fill at most this many seconds (default: the time left, shared among the proposals to fill; 20 without a time limit)", kind="float", metavar="S", minimum=0, maximum=MAX_SECONDS),
        Param("seed", "the same seed gives the same proposals", kind="int", default=0, metavar="N", minimum=0, maximum=MAX_SEED),
        Param("timeout", "give up after this many seconds", kind="float", metavar="S", http_only=True, minimum=0, maximum=MAX_SECONDS),
        Param("cli_timeout", f"give up after this many seconds ('none': no limit; default: {DEFAULT_TIMEOUT:g})", flags=("--timeout",), metavar="S", cli_only=True),
    ),
    run=_run,
    text=_text,
    examples=(
        "lexigraph design --theme pancakes,waffles,oatmeal --proposals 1 --seed 2",
        "lexigraph design --theme coffeecup,teapot --symmetry left-right --proposals 1 -L scored.lex --min-priority 40",
    ),
    found=lambda doc: doc.get("status") == "filled",
    status=exit_status,
    http_method="POST",
)

COMMANDS = [DESIGN]
