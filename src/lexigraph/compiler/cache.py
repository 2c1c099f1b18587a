"""Opening any word source as a lexicon; compiled word lists are cached.

:func:`open_source` opens a lexicon file directly and compiles anything
else (a word list, a dawg32 table, a ``.daw`` file, gzip-compressed or not).
A compiled source is kept in the user's cache directory
(``$XDG_CACHE_HOME/lexigraph``, by default ``~/.cache/lexigraph``; or
``$LEXIGRAPH_CACHE``), keyed by a hash of the source's bytes, the build
options and the lexigraph version, so the second ``lexigraph -L words.txt
check dog`` opens the cached file as fast as a ``.lex``. Entries are
written atomically; a corrupt or unreadable entry is rebuilt; the cache
keeps the :data:`KEEP` most recently used entries. ``LEXIGRAPH_CACHE=off``
(or an unwritable directory) compiles in memory every time.

A spec that is not an existing path may be a registered name
(:mod:`lexigraph.compiler.registry`): ``open_source("TWL06")`` opens the file
registered as TWL06, compiled with the source options it was registered
with, and the lexicon is named TWL06 in what lexigraph writes. A path that
exists wins over a name.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..buildinfo import __version__
from ..errors import FileFormatError, LexiconError, SourceError
from ..engine.fileformat import is_lexicon_file
from ..support.text import quote
from .registry import Entry, find, is_name, remember

if TYPE_CHECKING:  # pragma: no cover
    from ..lexicon import Lexicon

#: Names that are files, not lexicon names, in what a missing source is called.
_FILE_SUFFIXES = (".lex", ".txt", ".gz", ".dawg32", ".daw", ".csv", ".tsv", ".dic", ".kwg")
#: Cache entries kept (least recently used removed first).
KEEP = 16
_BUILD_OPTIONS = ("format", "alphabet", "encoding", "case", "min_length", "max_length", "name")


def cache_dir() -> Path | None:
    """The cache directory, or None when caching is off (``LEXIGRAPH_CACHE=off``)."""
    explicit = os.environ.get("LEXIGRAPH_CACHE")
    if explicit:
        return None if explicit.lower() in ("off", "0", "no", "none") else Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "lexigraph"


#: The revision of how sources are read, raised whenever a reader takes the same bytes differently (2: a KWG's
#: tile table and its file name choose its alphabet), so that no entry an older reader compiled is reused.
READER_REVISION = 2


def cache_key(data: bytes, options: dict[str, Any]) -> str:
    """The hex key of a source's bytes compiled with ``options``.

    >>> cache_key(b"cat\\n", {}) == cache_key(b"cat\\n", {"case": None})
    True
    >>> cache_key(b"cat\\n", {}) == cache_key(b"cat\\n", {"case": "drop-proper"})
    False
    """
    h = hashlib.sha256()
    h.update(data)
    opts = {k: options[k] for k in sorted(options) if options[k] is not None}
    alphabet = opts.get("alphabet")
    if alphabet is not None and os.path.isfile(str(alphabet)):
        opts["alphabet"] = {"file": hashlib.sha256(Path(str(alphabet)).read_bytes()).hexdigest()}
    from ..engine.fileformat import MAJOR

    h.update(json.dumps({"options": opts, "lexigraph": __version__, "format": MAJOR, "readers": READER_REVISION}, sort_keys=True,
                        default=str).encode())
    return h.hexdigest()[:40]


def _compile(data: bytes | None, spec: Any, options: dict[str, Any]) -> tuple[bytes, Any]:
    """Compile ``spec`` (or its already-read ``data``) with the build options."""
    import io

    from .builder import compile_source
    from .normalize import options as normalize_options

    build = {k: v for k, v in options.items() if k not in ("case",) and v is not None}
    source: Any = spec
    if data is not None:
        source = io.BytesIO(data)
        source.name = os.fspath(spec)
    with normalize_options(case=options.get("case")):
        return compile_source(source, **build)


def open_source(spec: "str | os.PathLike[str] | None", **options: Any) -> "Lexicon":
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
    from ..engine.fileformat import open_bytes
    from ..lexicon import Lexicon
    from ..lexicon import open as open_lexicon

    if spec is not None and not isinstance(spec, (str, os.PathLike)):
        raise SourceError(f"a word source is a path or '-', not {type(spec).__name__}")
    unknown = set(options) - set(_BUILD_OPTIONS)
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
        data, result = _compile(None, spec, options)
        return Lexicon(open_bytes(data, name=str(result.info.get("source", "<memory>"))))
    from .sources import read_bytes

    raw, _ = read_bytes(path)
    assert raw is not None
    entry = directory / f"{cache_key(raw, options)}.lex"
    if entry.exists():
        try:
            lex = open_lexicon(entry)
        except FileFormatError:
            pass  # corrupt: rebuilt below
        else:
            try:
                os.utime(entry)
            except OSError:
                pass
            _rename(lex, path)
            return lex
    data, result = _compile(raw, path, options)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        from ..support.files import write_atomic

        write_atomic(entry, data)
        _prune(directory)
    except Exception:  # an unwritable cache only costs speed
        return Lexicon(open_bytes(data, name=path))
    lex = open_lexicon(entry)
    _rename(lex, path)
    return lex


def _registered(name: str) -> Entry:
    """The entry registered as ``name``, or the error for a spec that is neither a file nor a registered name."""
    entry = find(name)
    if entry is not None:
        return entry
    if not is_name(name) or name.lower().endswith(_FILE_SUFFIXES):
        raise SourceError(f"no such file: {name}")
    raise SourceError(f"no such file or registered lexicon: {quote(name)} (lexigraph lexicons add {name} FILE "
                      "registers a file under that name)")


def open_registered(entry: Entry, **options: Any) -> "Lexicon":
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


def _rename(lex: "Lexicon", path: str) -> None:
    """Show the source's path, not the cache entry's, in messages and documents."""
    try:
        lex.path = path
    except AttributeError:  # pragma: no cover - a read-only path
        pass


def _prune(directory: Path) -> None:
    entries = []
    for p in directory.glob("*.lex"):
        try:
            entries.append((p.stat().st_mtime, p))
        except OSError:
            continue
    entries.sort(reverse=True)
    for _, p in entries[KEEP:]:
        try:
            p.unlink()
        except OSError:
            pass
