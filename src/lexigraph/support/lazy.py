"""Names that type hints use, loaded on first use.

lexigraph keeps NumPy and the query modules out of its import so that a
one-shot ``lexigraph check`` starts fast; their names appear in type hints
only. ``typing.get_type_hints`` evaluates those hints at run time, so each
module binds such a name to a :class:`Lazy` stand-in, which imports the real
module the first time anything asks it for an attribute.

>>> np = Lazy("numpy")
>>> np.uint8 is __import__("numpy").uint8
True
"""

from __future__ import annotations

import importlib
from typing import Any


class Lazy:
    """A module (or one of its attributes) imported on first attribute access."""

    def __init__(self, module: str, attribute: str | None = None) -> None:
        self._module = module
        self._attribute = attribute

    def _resolve(self) -> Any:
        value = importlib.import_module(self._module)
        return getattr(value, self._attribute) if self._attribute else value

    def __getattr__(self, name: str) -> Any:
        return getattr(self._resolve(), name)

    def __getitem__(self, item: Any) -> Any:
        return self._resolve()[item]

    def __or__(self, other: Any) -> Any:  # ``Lazy | None`` in a hint
        return self._resolve() | other

    def __ror__(self, other: Any) -> Any:
        return other | self._resolve()

    def __repr__(self) -> str:
        return f"<lazy {self._module}{'.' + self._attribute if self._attribute else ''}>"
