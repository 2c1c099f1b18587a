"""Opening what a user names as a lexicon: a lexicon file, any word source (compiled once, then cached), or a
registered name.

:func:`open_source` opens a lexicon file directly and compiles anything
else (a word list, a dawg32 table, a ``.daw`` file, gzip-compressed or not),
keeping the compiled file in the cache (:mod:`lexigraph.compiler.cache`) so
that the next opening maps it as fast as a ``.lex``; an entry that no longer
opens is rebuilt. A spec that is not an existing path may be a registered
name (:mod:`lexigraph.compiler.registry`): ``open_source("TWL06")`` opens
the file registered as TWL06, compiled with the source options it was
registered with, and the lexicon is named TWL06 in what lexigraph writes. A
path that exists wins over a name.

The command line's ``--lexicon``, ``lexigraph.twl`` and the commands'
``Context`` open through here; ``lexigraph.open`` is the plain opener below it.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping

from .compiler.cache import cache_dir, entry_for, keep, touch
from .compiler.options import build_options
from .compiler.registry import Entry, find, is_name, remember
from .compiler.sources import Source, read_bytes
from .engine.fileformat import is_lexicon_file, open_bytes
from .errors import FileFormatError, LexiconError, SourceError
from .lexicon import Lexicon
from .lexicon import open as open_lexicon
from .support.text import quote

#: Names that are files, not lexicon names, in what a missing source is called.
_FILE_SUFFIXES = (".lex", ".txt", ".gz", ".dawg32", ".daw", ".csv", ".tsv", ".dic", ".kwg")
#: The options a word source is compiled with.
SOURCE_OPTIONS = ("format", "alphabet", "encoding", "case", "min_length", "max_length", "name")


def open_source(spec: "str | os.PathLike[str] | None", **options: object) -> Lexicon:
    """Open a lexicon file, or compile a word source with ``options`` (``None``: the built-in lexicon).

    ``options``: ``format``, ``alphabet``, ``encoding``, ``case``,
    ``min_length``, ``max_length``, ``name``. A ``spec`` that names no file
    may be a registered name (:func:`open_registered`).

    >>> open_source(None).info["name"]
    'ENABLE'
    >>> open_source("enable").path == open_source(None).path
    True
    >>> open_source("NoSuchList")
    Traceback (most recent call last):
    ...
    lexigraph.errors.SourceError: no such file or registered lexicon: 'NoSuchList' (lexigraph lexicons add NoSuchList FILE registers a file under that name)
    """
    if spec is not None and not isinstance(spec, (str, os.PathLike)):
        raise SourceError(f"a word source is a path or '-', not {type(spec).__name__}")
    unknown = set(options) - set(SOURCE_OPTIONS)
    if unknown:
        raise TypeError(f"unknown build options: {', '.join(sorted(unknown))}")
    if spec is None:
        return open_lexicon()
    path = os.fspath(spec)
    if path != "-" and not os.path.lexists(path):
        return open_registered(_registered(path), **options)
    if path != "-" and is_lexicon_file(path):
        return open_lexicon(path)
    directory = cache_dir()
    if path == "-" or directory is None:
        data, name = _compile(None, spec, options)
        return Lexicon(open_bytes(data, name=name))
    raw, _ = read_bytes(path)
    assert raw is not None
    entry = entry_for(directory, raw, options)
    if entry.exists():
        try:
            lex = open_lexicon(entry)
        except FileFormatError:
            pass  # corrupt: rebuilt below
        else:
            touch(entry)
            return _shown_as(lex, path)
    data, _ = _compile(raw, path, options)
    if not keep(directory, entry, data):
        return Lexicon(open_bytes(data, name=path))
    return _shown_as(open_lexicon(entry), path)


def open_registered(entry: Entry, **options: object) -> Lexicon:
    """The lexicon registered as ``entry``, opened as :func:`open_source` opens its file (the entry's source
    options, overridden by ``options`` given), and named by the entry's name."""
    if entry.path is None:
        lex = open_source(None)
    else:
        if not os.path.lexists(entry.path):
            raise SourceError(f"lexicon {entry.name} is registered as {entry.path}, which no longer exists (lexigraph"
                              f" lexicons add {entry.name} FILE --replace points it at another file)")
        given = {k: v for k, v in options.items() if v is not None}
        try:
            lex = open_source(entry.path, **{**entry.options, **given})
        except LexiconError as e:
            e.args = (f"lexicon {entry.name} (registered as {entry.path}): {e}",)
            raise
    remember(lex, entry.name)
    return lex


def _compile(data: bytes | None, spec: "str | os.PathLike[str]", options: Mapping[str, object]) -> tuple[bytes, str]:
    """The lexicon file ``spec`` (or its already-read ``data``) compiles into with ``options``, and its source's
    name."""
    # Deferred: the build pulls in NumPy, which a lexicon file or a cached list opens without.
    from .compiler.builder import compile_source

    source: Source = spec
    if data is not None:
        named = io.BytesIO(data)
        named.name = os.fspath(spec)
        source = named
    compiled, result = compile_source(source, build_options(None, {k: v for k, v in options.items() if v is not None}))
    return compiled, str(result.info.get("source", "<memory>"))


def _registered(name: str) -> Entry:
    """The entry registered as ``name``, or the error for a spec that is neither a file nor a registered name."""
    entry = find(name)
    if entry is not None:
        return entry
    if not is_name(name) or name.lower().endswith(_FILE_SUFFIXES):
        raise SourceError(f"no such file: {name}")
    raise SourceError(f"no such file or registered lexicon: {quote(name)} (lexigraph lexicons add {name} FILE "
                      "registers a file under that name)")


def _shown_as(lex: Lexicon, path: str) -> Lexicon:
    """``lex``, showing the source's path, not the cache entry's, in messages and documents."""
    lex.path = path
    return lex
