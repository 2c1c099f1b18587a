"""``lexicons``: the registry of named lexicons (``lexicons add NAME FILE``, ``lexicons list``, ``lexicons remove
NAME``; :mod:`lexigraph.compiler.registry`).

A registered name is what CGP positions (``lex TWL06;``), GCG records
(``#lexicon TWL06``) and game files (``lexicon = "TWL06"``) choose a
lexicon by, and what ``--lexicon`` and ``search ... in NAME`` accept. The
server offers none of it (the registry is the user's own file).

>>> import os, tempfile
>>> from lexigraph.commands import Context
>>> os.environ["LEXIGRAPH_LEXICONS"] = os.path.join(tempfile.mkdtemp(), "lexicons.toml")
>>> [r["name"] for r in LEXICONS.run(Context(), {"action": "list"})["results"]]
['ENABLE']
>>> del os.environ["LEXIGRAPH_LEXICONS"]
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Mapping
from typing import Any

from ..compiler import registry
from ..engine.fileformat import is_lexicon_file
from ..errors import QueryError
from ..opener import open_source
from ._common import esc
from .command import SOURCE_OPTION_NAMES, Command, Context, Document, Param, always_found


def _file(ctx: Context, path: str) -> str:
    """``path`` if it names a regular file (a registered file is read again and again: no FIFO, no device)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise QueryError(f"no such file: {path}") from None
    except OSError as e:
        raise QueryError(f"cannot read {path}: {e.strerror or e}") from None
    if not stat.S_ISREG(mode):
        raise QueryError(f"{ctx.spell('path')} {path} is not a regular file: register a lexicon file or word list")
    return path


def _add(ctx: Context, params: Mapping[str, Any]) -> Document:
    name, path = params.get("name"), params.get("path")
    if not name or not path:
        raise QueryError(f"give a {ctx.spell('name')} and a {ctx.spell('path')}: "
                         "lexigraph lexicons add TWL06 twl06.lex")
    registry.check_name(str(name))
    path = _file(ctx, str(path))
    options = {} if is_lexicon_file(path) else \
        {k: str(v) for k, v in ctx.options.items() if k in SOURCE_OPTION_NAMES and v is not None}
    replaced = registry.find(str(name))
    with open_source(path, **options) as lex:  # it must open before it is registered (a word list is compiled)
        words = len(lex)
    entry = registry.add(str(name), path, options, replace=bool(params.get("replace")))
    result = entry.as_dict() | {"word_count": words}
    return {"command": "lexicons", "action": "add", "registry": str(registry.registry_path()),
            "replaced": replaced is not None, "results": [result], "count": 1}


def _list(ctx: Context, params: Mapping[str, Any]) -> Document:
    if params.get("name") or params.get("path"):
        raise QueryError("lexicons list takes no name or file")
    results = [e.as_dict() for e in registry.entries()]
    return {"command": "lexicons", "action": "list", "registry": str(registry.registry_path()), "results": results,
            "count": len(results)}


def _remove(ctx: Context, params: Mapping[str, Any]) -> Document:
    name = params.get("name")
    if not name or params.get("path"):
        raise QueryError(f"give the {ctx.spell('name')} to remove, and nothing else: lexigraph lexicons remove TWL06")
    entry = registry.remove(str(name))
    return {"command": "lexicons", "action": "remove", "registry": str(registry.registry_path()),
            "results": [entry.as_dict()], "count": 1}


_ACTIONS = {"add": _add, "list": _list, "remove": _remove}


def _run(ctx: Context, params: Mapping[str, Any]) -> Document:
    action = params.get("action")
    if action not in _ACTIONS:
        raise QueryError(f"{ctx.spell('action')} must be add, list or remove")
    return _ACTIONS[action](ctx, params)


def _options_text(options: Mapping[str, str]) -> str:
    return " ".join(f"--{k} {esc(v)}" for k, v in options.items())


def _text(doc: Document) -> Iterator[str]:
    if doc["action"] == "list":
        width = max(len(r["name"]) for r in doc["results"])
        for r in doc["results"]:
            where = "(built-in)" if r["builtin"] else esc(r["path"])
            yield f"{esc(r['name']).ljust(width)}  {where} {_options_text(r['options'])}".rstrip()
        return
    r = doc["results"][0]
    if doc["action"] == "add":
        verb = "replaced" if doc["replaced"] else "registered"
        yield f"{verb} {esc(r['name'])}: {esc(r['path'])} ({r['word_count']:,} words) {_options_text(r['options'])}".rstrip()
    else:
        yield f"removed {esc(r['name'])} ({esc(r['path'])})"


LEXICONS = Command(
    name="lexicons",
    summary="the named lexicons that CGP, GCG and game files (and --lexicon) choose by name: add, list, remove",
    params=(
        Param("action", "add NAME FILE, list, or remove NAME", positional=True, required=True,
              choices=("add", "list", "remove"), metavar="add|list|remove"),
        Param("name", "the lexicon's name: letters, digits, '.', '_', '+', '-' (compared without case)",
              positional=True, metavar="NAME"),
        Param("path", "the lexicon file or word list (with --alphabet and the other source options it needs)",
              positional=True, metavar="FILE", completer="file"),
        Param("replace", "add: replace a lexicon registered under the same name", kind="bool", default=False),
    ),
    run=_run,
    text=_text,
    uses_lexicon=False,
    reads_sources=True,
    writes_files=True,
    found=always_found,
    http_method="POST",
    examples=("lexigraph lexicons add TWL06 twl06.lex", "lexigraph lexicons add FISE2 fise2.txt --alphabet spanish",
              "lexigraph lexicons list --json", "lexigraph lexicons remove TWL06"),
)

COMMANDS = [LEXICONS]
