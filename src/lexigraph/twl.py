"""The classic TWL06 module's interface, backed by a lexigraph lexicon.

Code written for that module switches by changing one import::

    from lexigraph import twl
    twl.check("dog")            # True
    twl.children("dude")        # ['$', 'd', 'e', 's']
    twl.anagram("top")          # ['op', 'opt', 'pot', 'to', 'top'] on TWL06

lexigraph ships ENABLE, not TWL06. Point this module at a TWL06 lexicon
(``lexigraph build twl06.txt -o twl06.lex``) with :func:`use`, or with the
``LEXIGRAPH_TWL`` environment variable; otherwise it answers from the
built-in lexicon.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from .lexicon import Lexicon, open as _open

_lexicon: Lexicon | None = None


def use(lexicon: "Lexicon | str | os.PathLike[str] | None") -> Lexicon:
    """Answer from ``lexicon`` (an open Lexicon or a path; None: the default)."""
    global _lexicon
    _lexicon = lexicon if isinstance(lexicon, Lexicon) else _open(lexicon)
    return _lexicon


def _lex() -> Lexicon:
    if _lexicon is None:
        return use(os.environ.get("LEXIGRAPH_TWL") or None)
    return _lexicon


def check(word: str) -> bool:
    """Whether ``word`` is a word.

    >>> check("dog"), check("dgo")
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
    return _lex().anagram(letters, min_length=1)  # type: ignore[return-value]
