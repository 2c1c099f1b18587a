"""Helpers shared by the core command modules (not a command module itself)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from ..compiler.registry import name_of
from ..errors import QueryError
from ..lexicon import Lexicon
from ..support.text import quote
from .command import Context, Document

_CONTROL = {i: f"\\x{i:02x}" for i in range(32)} | {9: "\\t", 10: "\\n", 13: "\\r", 127: "\\x7f"}


def esc(text: str) -> str:
    """``text`` with control characters escaped, so a tab or newline never breaks a text line.

    >>> esc("a\\tb")
    'a\\\\tb'
    """
    return text.translate(_CONTROL)


def preset_or_file(ctx: Context, value: Any, presets: Iterable[str], what: str) -> Any:
    """``value`` as given, unless it would name a file where the context reads none (the server).

    Tile sets and games are presets or files of the host; a server offers
    the presets only, so that a request cannot make it read its own files.

    >>> preset_or_file(Context(options={"files": False}), "english", ("english",), "tiles")
    'english'
    >>> preset_or_file(Context(options={"files": False}), "/etc/hosts", ("english",), "tiles")
    Traceback (most recent call last):
    ...
    lexigraph.errors.QueryError: tiles '/etc/hosts': this server takes a preset (english), not a file
    """
    names = tuple(presets)
    if value is None or ctx.options.get("files", True) or value in names:
        return value
    raise QueryError(f"{what} {quote(str(value))}: this server takes a preset ({', '.join(names)}), not a file")


def input_files(ctx: Context, lex: Lexicon | None, *more: Any) -> list[str]:
    """The files a command reads by name: the lexicon's (the lexicon file, or the word list compiled), the
    alphabet file, and ``more`` (a game file, leave tables, a grid...). A command that writes a file
    refuses to write over any of them (:func:`lexigraph.support.files.refuse_overwrite`); names that are
    not files (presets, ``-``, None) are left out.

    >>> input_files(Context(), None, "scrabble", None, "-")
    []
    """
    named = [getattr(lex, "path", None), ctx.lexicon_spec, ctx.options.get("alphabet"), *more]
    return [os.fspath(f) for f in named
            if isinstance(f, (str, os.PathLike)) and os.fspath(f) not in ("", "-") and os.path.isfile(f)]


def lexicon_name(lex: Lexicon) -> str:
    """The name a document gives the lexicon it answered from: its registered name, else its own
    (:func:`lexigraph.compiler.registry.name_of`)."""
    return name_of(lex)


def alphabet_fields(info: Mapping[str, object]) -> dict[str, object]:
    """A lexicon's alphabet as documents show it, from its file's index (``Lexicon.info``): name and tiles.

    >>> import lexigraph
    >>> alphabet_fields(lexigraph.load(["cab"]).info)
    {'name': 'letters', 'tiles': ['a', 'b', 'c']}
    """
    alphabet = info.get("alphabet")
    table: Mapping[str, object] = alphabet if isinstance(alphabet, Mapping) else {}
    tiles = table.get("tiles")
    return {"name": table.get("name"), "tiles": list(tiles) if isinstance(tiles, list) else []}


def envelope(command: str, lex: Lexicon | None, results: list[dict[str, Any]], **fields: Any) -> Document:
    """A document: ``command``, ``lexicon``, the command's fields, ``results`` and ``count``."""
    doc: Document = {"command": command}
    if lex is not None:
        doc["lexicon"] = lexicon_name(lex)
    doc.update(fields)
    doc["results"] = results
    doc["count"] = len(results)
    return doc


def per_length(counts: Mapping[int, int]) -> list[dict[str, int]]:
    """Per-length rows: ``[{"length": 2, "word_count": 96}, ...]``."""
    return [{"length": int(k), "word_count": int(v)} for k, v in sorted(counts.items())]


def table(rows: Iterable[tuple[Any, ...]], header: tuple[str, ...]) -> list[str]:
    """Right-aligned columns."""
    cells = [tuple(str(c) for c in header)] + [tuple(str(c) for c in r) for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    return ["  ".join(c.rjust(w) for c, w in zip(r, widths)).rstrip() for r in cells]


def need_int(ctx: Context, params: Mapping[str, Any], name: str, *, minimum: int | None = 0,
             maximum: int | None = None) -> int | None:
    """``params[name]`` checked against bounds; errors name the option as the user knows it."""
    value = params.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise QueryError(f"{ctx.spell(name)} must be a whole number")
    if minimum is not None and value < minimum:
        raise QueryError(f"{ctx.spell(name)} must be at least {minimum}")
    if maximum is not None and value > maximum:
        raise QueryError(f"{ctx.spell(name)} must be at most {maximum}")
    return value


def values(params: Mapping[str, Any], name: str) -> list[str]:
    """A ``many`` parameter as a list (a single string is one value)."""
    v = params.get(name)
    if v is None:
        return []
    if isinstance(v, str):
        return [v]
    return [str(x) for x in v]


def check_tiles(ctx: Context, lex: Lexicon, text: str, what: str, *, allowed: str = "") -> None:
    """Refuse ``text`` (a prefix) if it holds characters that are not tiles of the lexicon."""
    probe = "".join(ch for ch in text if ch not in allowed)
    if probe and lex.alphabet.encode(probe) is None:
        bad = lex.alphabet.first_bad_char(probe)
        where = f" ({quote(bad)} is not a tile of {lexicon_name(lex)})" if bad else ""
        raise QueryError(f"{what} {quote(text)} cannot be spelled with this lexicon's tiles{where}")


def build_summary(report: Any) -> Iterator[str]:
    """The lines that say what normalisation did: per reason, skipped and changed entries; then its notes."""
    if not isinstance(report, dict):
        return
    if report.get("duplicates"):
        yield f"  duplicates merged: {report['duplicates']:,}"
    for why, n in sorted((report.get("changed") or {}).items(), key=lambda kv: (-kv[1], kv[0])):
        yield f"  changed ({why}): {n:,}"
    for why, n in sorted((report.get("skipped") or {}).items(), key=lambda kv: (-kv[1], kv[0])):
        yield f"  skipped ({why}): {n:,}"
    for note in report.get("notes") or ():  # e.g. the alphabet that would keep the words as tiles
        yield f"  note: {note}"


def games_progress(ctx: Context, stage: str, total: int) -> Callable[[int], None] | None:
    """A self-play run's callback (games just played) as ``ctx.progress`` reports: games done of ``total``
    (None when nothing is reported)."""
    if ctx.progress is None:
        return None
    done = [0]
    report = ctx.progress

    def step(count: int) -> None:
        done[0] += count
        report(stage, done[0], total, unit="games")

    return step
