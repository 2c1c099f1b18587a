"""Text as messages show it: quoted input cut to a readable length, and messages on one line.

Errors name the input they refuse; a 100 KB rack must not make a 100 KB
message. :func:`quote` is the one way an error quotes user input, and
:func:`one_line` the one way the command line prints a message.

>>> quote("QQ"), len(quote("A" * 100_000))
("'QQ'", 65)
>>> one_line("bad file:\\n  struct.error: unpack requires\\n  a buffer of 4 bytes")
'bad file: struct.error: unpack requires a buffer of 4 bytes'
"""

from __future__ import annotations

import re

#: How much of a rejected text an error message quotes, in characters.
QUOTED = 60
#: Longest message the command line prints on one line, in characters.
MAX_MESSAGE = 1000

_BREAKS = re.compile(r"\s*[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]+\s*")


def quote(text: object) -> str:
    """``text`` as an error message quotes it: ``repr``, cut to a readable length.

    >>> quote("ab"), quote("x" * 100)[-6:], len(quote("x" * 100)), quote(5)
    ("'ab'", "xx'...", 65, '5')
    """
    if not isinstance(text, str):
        return cut(repr(text), QUOTED)
    if len(text) <= QUOTED:
        return repr(text)
    return repr(text[:QUOTED]) + "..."


def cut(text: str, limit: int = QUOTED) -> str:
    """``text``, cut to ``limit`` characters with ``...`` when longer.

    >>> cut("abcdef", 4), cut("abc", 4)
    ('a...', 'abc')
    """
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 3)] + "..."


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """``message`` on one line (line breaks and the spaces around them become one space), cut to ``limit``.

    >>> one_line("a\\n\\n b"), one_line("x" * 20, 10)
    ('a b', 'xxxxxxx...')
    """
    return cut(_BREAKS.sub(" ", message.strip()), limit)
