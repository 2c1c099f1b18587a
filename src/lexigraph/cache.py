"""Opening any word source as a lexicon; compiled word lists are cached.

:func:`open_source` opens a lexicon file directly and compiles anything
else (a word list, a dawg32 table, a ``.daw`` file).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .lexicon import Lexicon


def open_source(spec: "str | os.PathLike[str] | None", **options: Any) -> "Lexicon":
    """Open a lexicon file, or compile a word source with ``options`` (``None``: the built-in lexicon).

    >>> open_source(None).info["name"]
    'ENABLE'
    """
    from .lexicon import load, open as open_lexicon

    if spec is None:
        return open_lexicon()
    return load(spec, **options)
