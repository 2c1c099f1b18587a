"""HTTP fields to command parameters: one conversion for query strings and JSON bodies.

A command's :class:`~lexigraph.commands.Param` list says each field's type,
whether it repeats (``many``), its choices and default. A query string
gives every value as text (``?word=cat&word=dog`` for a ``many`` field);
a JSON body gives typed values (a list for ``many``; one value is taken as
a list of one). Unknown fields are refused, so a misspelt option is an
error, not silently ignored.

>>> from lexigraph.commands import Param
>>> ps = (Param("words", "", many=True, positional=True, required=True), Param("length", "", kind="int"))
>>> from_query(ps, [("words", "cat"), ("words", "dog"), ("length", "3")])
{'words': ['cat', 'dog'], 'length': 3}
>>> from_json(ps, {"words": "cat"})
{'words': ['cat'], 'length': None}
>>> from_query(ps, [("words", "cat"), ("length", "x")])
Traceback (most recent call last):
...
lexigraph.errors.QueryError: parameter 'length': invalid int value: 'x'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..commands import Param
from ..errors import QueryError

#: Query and body fields the server itself reads; no command parameter may use these names.
RESERVED = ("lexicon",)

_TRUE = {"1", "true", "yes", "on", ""}
_FALSE = {"0", "false", "no", "off"}


def http_params(params: Iterable[Param]) -> list[Param]:
    """The parameters a command takes over HTTP (not the command line's own)."""
    return [p for p in params if not p.cli_only]


def _convert(p: Param, value: Any, from_text: bool) -> Any:
    kind = p.kind
    bad = QueryError(f"parameter {p.name!r}: invalid {kind} value: {value!r}")
    if kind == "str":
        if not isinstance(value, str):
            raise bad
        out: Any = value
    elif kind == "bool":
        if isinstance(value, bool):
            out = value
        elif from_text and isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            out = value.strip().lower() in _TRUE
        else:
            raise bad
    elif kind == "int":
        if isinstance(value, bool):
            raise bad
        if isinstance(value, int):
            out = value
        elif from_text and isinstance(value, str):
            try:
                out = int(value.strip())
            except ValueError:
                raise bad from None
        else:
            raise bad
    elif kind == "float":
        if isinstance(value, bool):
            raise bad
        if isinstance(value, (int, float)):
            out = float(value)
        elif from_text and isinstance(value, str):
            try:
                out = float(value.strip())
            except ValueError:
                raise bad from None
        else:
            raise bad
        if not math.isfinite(out):
            raise bad
    else:  # pragma: no cover - Param.kind is a closed set
        raise bad
    if p.choices is not None and out not in p.choices:
        raise QueryError(
            f"parameter {p.name!r}: invalid choice: {out!r} (choose from {', '.join(map(repr, p.choices))})"
        )
    return out


def _finish(params: Sequence[Param], got: Mapping[str, list[object]], from_text: bool) -> dict[str, object]:
    by_name = {p.name: p for p in http_params(params)}
    unknown = [k for k in got if k not in by_name]
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise QueryError(f"unknown parameter {unknown[0]!r} (this command takes: {known})")
    out: dict[str, object] = {}
    for name, p in by_name.items():
        values = got.get(name)
        if values is None:
            if p.required:
                raise QueryError(f"parameter {name!r} is required")
            # As the command line hands it: the default, None for a list nobody gave (a command may tell
            # "not given" from "given empty", as children does).
            out[name] = list(p.default) if isinstance(p.default, (list, tuple)) else p.default
            continue
        converted = [_convert(p, v, from_text) for v in values]
        if p.many:
            if p.required and not converted:
                raise QueryError(f"parameter {name!r} is required")
            out[name] = converted
        else:
            if len(converted) != 1:
                raise QueryError(f"parameter {name!r} given {len(converted)} times; it takes one value")
            out[name] = converted[0]
    return out


def from_query(params: Sequence[Param], items: Iterable[tuple[str, object]]) -> dict[str, object]:
    """Parameters from query-string pairs (reserved names already removed)."""
    got: dict[str, list[object]] = {}
    for key, value in items:
        got.setdefault(key, []).append(value)
    return _finish(params, got, from_text=True)


def from_json(params: Sequence[Param], body: Mapping[str, object]) -> dict[str, object]:
    """Parameters from a JSON object (reserved names already removed)."""
    got: dict[str, list[object]] = {}
    for key, value in body.items():
        if value is None:
            continue
        got[key] = list(value) if isinstance(value, list) else [value]
    return _finish(params, got, from_text=False)


def json_schema(p: Param) -> dict[str, object]:
    """The JSON Schema of one parameter's value, for the OpenAPI description."""
    base: dict[str, object] = {"type": {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}[p.kind]}
    if p.choices is not None:
        base["enum"] = list(p.choices)
    if p.default is not None and not p.many:
        base["default"] = p.default
    if p.kind in ("int", "float"):  # the declared range, which the command checks before it runs
        base.update({k: v for k, v in (("minimum", p.minimum), ("maximum", p.maximum)) if v is not None})
    if p.many:
        return {"type": "array", "items": base}
    return base
