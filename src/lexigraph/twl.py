"""The classic TWL06 module's interface, backed by a lexigraph lexicon.

Code written for that module switches by changing one import::

    from lexigraph import twl
    twl.check("dog")            # True
    twl.children("dude")        # ['$', 'd', 'e', 's']
    twl.anagram("top")          # ['op', 'opt', 'pot', 'to', 'top'] on TWL06

lexigraph ships ENABLE, not TWL06, and the two differ (``qi`` is a TWL06
word, not an ENABLE one). Point this module at TWL06 with :func:`use`
(``twl.use("twl06.txt")``: a lexicon file or any word source, such as the
classic module's ``twl06.dawg32`` table or a plain list; sources are
compiled once and cached) or with the ``LEXIGRAPH_TWL`` environment
variable. Otherwise it answers from the built-in ENABLE and says so once,
with a :class:`UserWarning`:

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     _ = use(None)
>>> "built-in ENABLE" in str(caught[0].message), check("qi")
(True, False)
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator

from .lexicon import Lexicon
from .opener import open_source

_lexicon: Lexicon | None = None
_warned = False

BUILT_IN_WARNING = (
    "lexigraph.twl is answering from the built-in ENABLE list, not TWL06 (e.g. 'qi' is not a word there); "
    "point it at TWL06 with twl.use('twl06.txt') or LEXIGRAPH_TWL=/path/to/twl06"
)


def use(lexicon: "Lexicon | str | os.PathLike[str] | None", *, stacklevel: int = 3, explicit: bool = True) -> Lexicon:
    """Answer from ``lexicon``: an open Lexicon, a lexicon file or any word source (None: the built-in list)."""
    global _lexicon
    if isinstance(lexicon, Lexicon):
        _lexicon = lexicon
    else:
        if lexicon is None:
            _warn_built_in(stacklevel, always=explicit)
        _lexicon = open_source(lexicon)
    return _lexicon


def _warn_built_in(stacklevel: int, *, always: bool) -> None:
    global _warned
    if always or not _warned:
        _warned = True
        warnings.warn(BUILT_IN_WARNING, UserWarning, stacklevel=stacklevel)


def _lex() -> Lexicon:
    if _lexicon is None:
        return use(os.environ.get("LEXIGRAPH_TWL") or None, stacklevel=5, explicit=False)
    return _lexicon


def source() -> str:
    """Where the answers come from: the path of the lexicon or source in use."""
    return str(_lex().path)


def check(word: str) -> bool:
    """Whether ``word`` is a word.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     check("dog"), check("dgo")
    (True, False)
    """
    return word in _lex()


def iterator() -> Iterator[str]:
    """Every word, in alphabetical order."""
    return iter(_lex())


def children(prefix: str) -> list[str]:
    """Letters that may follow ``prefix``; ``'$'`` first if ``prefix`` is a word.

    >>> children("dude")
    ['$', 'd', 'e', 's']
    """
    return _lex().children(prefix)


def anagram(letters: str) -> list[str]:
    """Words made from some or all of ``letters`` (``?`` a wildcard), alphabetically.

    >>> anagram("top")[:3]
    ['op', 'opt', 'pot']
    """
    return _lex().anagram(letters, min_length=1)
