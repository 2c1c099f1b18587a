"""What the server offers of the command registry: which commands, which of their parameters, and a request's
values as a command takes them (no file of the server's named, list fields bounded, the lexicon apart).

A command that writes files is not served, nor one that needs a file named by the client; an optional file
parameter (``info FILE``) is simply not offered. No web stack is imported here.

>>> from lexigraph.commands import Command, Param
>>> info = Command("info", "", (Param("file", "a file"), Param("verbose", "", kind="bool")), run=lambda c, p: {},
...                text=lambda d: [])
>>> served(info), [p.name for p in http_params(info)]
(True, ['verbose'])
>>> command_values(info, [("verbose", "yes"), ("lexicon", "twl")], max_values=10)
('twl', {'verbose': True})
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence

from ..commands import Command, Param
from . import params as P
from .answers import ApiError

__all__ = ["check_counts", "command_values", "http_params", "pop_lexicon", "refuse_paths", "served"]

_FILE_NAMES = {"file", "path", "source", "output", "dest", "files", "paths", "out"}


def _names_a_file(p: Param) -> bool:
    """A parameter that names a file on the server's disk (the client names lexicons only by served names)."""
    completer = getattr(p, "completer", None)
    if completer == "lexicon":
        return False
    if completer == "file":
        return True
    return p.name in _FILE_NAMES or (p.metavar is not None and "FILE" in p.metavar.upper())


def http_params(cmd: Command) -> list[Param]:
    """The parameters a command takes over HTTP: not the command line's own, nor file names."""
    return [p for p in P.http_params(cmd.params) if not _names_a_file(p)]


def served(cmd: Command) -> bool:
    """Whether a command is offered over HTTP.

    Commands that write files are not, nor those that need a file named by
    the client; an optional file parameter (``info FILE``) is simply not
    offered, and the command answers for the chosen lexicon. Parameters
    that name lexicons (``diff A B``) take the names the server was started with.
    """
    if cmd.writes_files:
        return False
    return not any(p.required and _names_a_file(p) for p in P.http_params(cmd.params))


def refuse_paths(cmd: Command, values: Mapping[str, object]) -> None:
    """Refuse a text value that names an existing file on the server.

    Some commands read a file when a value names one (a position, a game
    file); over HTTP a client must send the content, not a name on the
    server's disk. Values that name lexicons are checked against the
    server's own names instead.
    """
    for p in http_params(cmd):
        if p.kind != "str" or getattr(p, "completer", None) == "lexicon":
            continue
        value = values.get(p.name)
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, str) and v and len(v) < 4096 and "\n" not in v and os.path.isfile(v):
                raise ApiError(400, "QueryError", f"parameter {p.name!r}: file names on the server are not accepted "
                               "over HTTP; send the content instead")


def check_counts(params: Sequence[Param], values: Mapping[str, object], limit: int) -> None:
    """Refuse a list field of more than ``limit`` values (patterns, racks, words...): each costs a query."""
    for p in params:
        given = values.get(p.name)
        if p.many and isinstance(given, list) and len(given) > limit:
            raise ApiError(400, "QueryError", f"parameter {p.name!r}: at most {limit} values in one request, "
                           f"not {len(given)}")


def pop_lexicon(items: Iterable[tuple[str, object]]) -> tuple[str | None, list[tuple[str, object]]]:
    """The ``lexicon`` field (a served lexicon's name, or None) and the other fields."""
    lexicon = None
    rest = []
    for k, v in items:
        if k == "lexicon":
            if not isinstance(v, str):
                raise ApiError(400, "QueryError", "parameter 'lexicon': expected a lexicon name")
            lexicon = v
        else:
            rest.append((k, v))
    return lexicon, rest


def command_values(cmd: Command, fields: Iterable[tuple[str, str]], *, max_values: int,
                   body: Mapping[str, object] | None = None) -> tuple[str | None, dict[str, object]]:
    """The lexicon named and the command's values, from a query string's ``fields`` (a GET) or a JSON ``body``
    (a POST, whose query string may name only the lexicon); refused as :func:`check_counts` and
    :func:`refuse_paths` say."""
    if body is None:
        lexicon, rest = pop_lexicon(fields)
        values = P.from_query(http_params(cmd), rest)
    else:
        lexicon, given = pop_lexicon(body.items())
        in_query, rest = pop_lexicon(fields)
        if rest:
            raise ApiError(400, "QueryError", "a POST takes its parameters in the JSON body")
        values = P.from_json(http_params(cmd), dict(given))
        lexicon = lexicon or in_query
    check_counts(http_params(cmd), values, max_values)
    refuse_paths(cmd, values)
    return lexicon, values
