"""How a word source is compiled: :class:`BuildOptions`, one record of a build's options, and the keywords that
spell the same options one by one.

:func:`lexigraph.build`, :func:`~lexigraph.compiler.builder.compile_source`,
:func:`lexigraph.open` and :func:`lexigraph.load` take either, and both at
once (the keywords win):

>>> import lexigraph
>>> spanish = BuildOptions(alphabet="spanish", min_length=3)
>>> lexigraph.load(["chorro", "año", "ño"], spanish).words()
['año', 'chorro']
>>> lexigraph.load(["chorro", "año", "ño"], spanish, min_length=2).words()
['año', 'chorro', 'ño']

``progress`` (a callback) and ``rejects`` (a list that receives every
line skipped or changed) are not options of the lexicon made but of one
build's run: they stay keywords of :func:`lexigraph.build` and
:func:`~lexigraph.compiler.builder.compile_source`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import TypedDict

from ..alphabet import Alphabet
from ..errors import BuildError
from ..support.text import quote
from .sources import Source

AlphabetSpec = str | os.PathLike[str] | Alphabet


def check_build_options(*, format: object = None, name: object = None, alphabet: object = None,  # noqa: A002
                        min_length: object = 2, max_length: object = None, encoding: object = None,
                        progress: object = None, case: object = None, rejects: object = None) -> None:
    """Refuse build options of the wrong type with a :class:`BuildError` (values are checked where used).

    >>> check_build_options(min_length="2")
    Traceback (most recent call last):
    ...
    lexigraph.errors.BuildError: min_length must be a whole number from 1 to 255, not '2'
    """
    for key, value in (("format", format), ("name", name), ("encoding", encoding), ("case", case)):
        if value is not None and not isinstance(value, str):
            raise BuildError(f"{key} must be text, not {type(value).__name__}")
    if alphabet is not None and not isinstance(alphabet, (str, os.PathLike, Alphabet)):
        raise BuildError(f"alphabet must be a preset name, a file path or an Alphabet, not {type(alphabet).__name__}")
    for key, value, optional in (("min_length", min_length, False), ("max_length", max_length, True)):
        if value is None and optional:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 255:
            raise BuildError(f"{key} must be a whole number from 1 to 255, not {quote(value)}")
    if progress is not None and not callable(progress):
        raise BuildError("progress must be a function (stage, done, total)")
    if rejects is not None and not isinstance(rejects, list):
        raise BuildError(f"rejects must be a list that receives the rejected lines, not {type(rejects).__name__}")


@dataclass(frozen=True)
class BuildOptions:
    """What a build makes of a word source; every field optional, the defaults those of ``lexigraph build``.

    ``format``: read the source as ``text``, ``scored``, ``dawg32``, ``daw`` or ``kwg`` (default: told by its
    content). ``name``: the lexicon's name (default: the source file's). ``alphabet``: a preset name, an alphabet
    file or an :class:`~lexigraph.alphabet.Alphabet` (default: the list's own letters). ``min_length`` and
    ``max_length``: the words kept, in tiles. ``encoding``: the source's text encoding (default UTF-8, or
    UTF-16 with a byte-order mark). ``case``: ``fold`` (the default) or ``drop-proper`` for entries written
    with capitals only. ``score_by="wordfreq"`` and ``language``: priorities from word frequency
    (:mod:`lexigraph.compiler.scores`). ``overrides`` and ``excludes``: word sources layered on the source.
    ``pure_python``: build without the C extension (its NumPy twins write the same file).

    >>> BuildOptions(min_length="2")
    Traceback (most recent call last):
    ...
    lexigraph.errors.BuildError: min_length must be a whole number from 1 to 255, not '2'
    """

    format: str | None = None
    name: str | None = None
    alphabet: AlphabetSpec | None = None
    min_length: int = 2
    max_length: int | None = None
    encoding: str | None = None
    case: str | None = None
    score_by: str | None = None
    language: str | None = None
    overrides: Sequence[Source] = ()
    excludes: Sequence[Source] = ()
    pure_python: bool = False

    def __post_init__(self) -> None:
        check_build_options(format=self.format, name=self.name, alphabet=self.alphabet, min_length=self.min_length,
                            max_length=self.max_length, encoding=self.encoding, case=self.case)
        for key in ("score_by", "language"):
            value = getattr(self, key)
            if value is not None and not isinstance(value, str):
                raise BuildError(f"{key} must be text, not {type(value).__name__}")
        for key in ("overrides", "excludes"):
            value = getattr(self, key)
            if isinstance(value, (str, bytes, os.PathLike)) or not isinstance(value, Sequence):
                raise BuildError(f"{key} is a list of word sources, not {type(value).__name__}")
            object.__setattr__(self, key, tuple(value))
        if not isinstance(self.pure_python, bool):
            raise BuildError(f"pure_python is True or False, not {type(self.pure_python).__name__}")


class BuildKeywords(TypedDict, total=False):
    """:class:`BuildOptions`'s fields as keywords (``lexigraph.build(src, dest, min_length=3)``); the two are held
    to the same names by ``tests/compiler/test_builder.py``."""

    format: str | None
    name: str | None
    alphabet: AlphabetSpec | None
    min_length: int
    max_length: int | None
    encoding: str | None
    case: str | None
    score_by: str | None
    language: str | None
    overrides: Sequence[Source]
    excludes: Sequence[Source]
    pure_python: bool


#: The names :class:`BuildOptions` has, in order.
OPTION_NAMES = tuple(f.name for f in fields(BuildOptions))


def build_options(options: BuildOptions | None = None, keywords: Mapping[str, object] | None = None) -> BuildOptions:
    """``options`` (default: every default) with the ``keywords`` given on top, each checked (a
    :class:`~lexigraph.errors.BuildError` for a value of the wrong type).

    >>> build_options(BuildOptions(min_length=3), {"name": "mine"})
    BuildOptions(format=None, name='mine', alphabet=None, min_length=3, max_length=None, encoding=None, case=None, score_by=None, language=None, overrides=(), excludes=(), pure_python=False)
    >>> build_options(None, {"minimum": 3})
    Traceback (most recent call last):
    ...
    TypeError: unknown build option: minimum (the options are format, name, alphabet, min_length, max_length, encoding, case, score_by, language, overrides, excludes, pure_python)
    """
    if options is not None and not isinstance(options, BuildOptions):
        raise BuildError(f"options is a BuildOptions, not {type(options).__name__}")
    keywords = keywords or {}
    unknown = sorted(set(keywords) - set(OPTION_NAMES))
    if unknown:
        raise TypeError(f"unknown build option{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)} "
                        f"(the options are {', '.join(OPTION_NAMES)})")
    base = BuildOptions() if options is None else options
    # Keywords are values of any type here (a registry's text, a user's mistake): replace() runs __post_init__,
    # which checks each at run time, so it is called untyped.
    rebuild: Callable[..., BuildOptions] = replace
    return rebuild(base, **keywords) if keywords else base
