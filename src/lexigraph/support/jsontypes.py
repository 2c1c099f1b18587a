"""JSON documents as types: what ``to_dict()``, ``as_dict()`` and the other writers of JSON-ready data return.

A :data:`JSONValue` is text, a number, a truth value, None, or a list or
object of JSON values, so a writer's result goes to :func:`json.dumps`
unchanged; the commands' documents are these objects (``docs/json.md``,
their schemas in ``docs/schema/``). Lists and objects are read-only in the
type (``Sequence``, ``Mapping``): a ``list[str]`` or a ``dict[str, int]``
is a JSON value as it is.

>>> import json
>>> document: JSONObject = {"word": "cat", "tiles": ["c", "a", "t"], "blanks": [], "priority": 50}
>>> json.dumps(document)
'{"word": "cat", "tiles": ["c", "a", "t"], "blanks": [], "priority": 50}'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias, Union

JSONValue: TypeAlias = Union[str, int, float, bool, None, Sequence["JSONValue"], Mapping[str, "JSONValue"]]
JSONObject: TypeAlias = dict[str, JSONValue]
