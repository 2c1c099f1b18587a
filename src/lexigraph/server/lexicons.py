"""Named lexicons that follow their files: a rebuilt file is served without a restart.

A :class:`LexiconPool` holds one :class:`ServedLexicon` per name. Each request
*acquires* the slot's current lexicon and *releases* it when done. Before
handing one out, the slot compares the file's identity (device, inode, size,
modification time: one ``os.stat``, no read) with the one it opened; when
``lexigraph build ... -o same.lex`` has renamed a new file into place, the
slot opens the new file and serves it from then on. The old lexicon stays
open until the last request that holds it releases it, so requests in
flight finish on the file they started with and none fails because of the
swap. A file that cannot be opened (half-written by a non-atomic copy,
corrupt) is not swapped in: the slot keeps serving the last good lexicon
and tries again on a later request.

Each slot has the server's name for it (``twl`` in ``--lexicon
twl=twl06.lex``) and the lexicon's own name (:attr:`ServedLexicon.lexicon_name`:
its registered name, :mod:`lexigraph.compiler.registry`, else the name it was
built with), which the GCG and CGP the server writes carry. A request may
name a slot by either, in any case; a position that names a lexicon the
server serves (``lex TWL06;``) is answered from it. ``--lexicon TWL06``, where
no file is called TWL06, serves the lexicon registered as TWL06.

>>> import lexigraph, tempfile, os
>>> d = tempfile.mkdtemp()
>>> path = os.path.join(d, "w.lex")
>>> _ = lexigraph.build(["cat", "dog"], path)
>>> pool = LexiconPool([("small", path)])
>>> with pool.use("small") as lex:
...     lex.check("cat"), lex.check("cow")
(True, False)
>>> _ = lexigraph.build(["cat", "cow"], path)   # rebuilt in place (an atomic rename)
>>> with pool.use("small") as lex:
...     lex.check("cow")
True
>>> pool.close()
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from ..compiler.registry import find, is_name, name_of, remember
from ..engine.fileformat import is_lexicon_file
from ..errors import LexiconError
from ..lexicon import Lexicon, load, open as open_lexicon

#: Name of the built-in lexicon when no ``--lexicon`` is given.
BUILTIN = "enable"


class UnknownLexicon(LexiconError):
    """A request named a lexicon the server does not serve."""


def _identity(path: str) -> tuple[int, int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _close(lexicon: Lexicon) -> None:
    """Close a lexicon no request holds; if something still exports its buffer, leave it to the collector."""
    try:
        lexicon.close()
    except (BufferError, OSError):  # pragma: no cover - a cache outliving its requests
        pass


class _Held:
    """One open lexicon and the number of requests using it."""

    __slots__ = ("lexicon", "identity", "users", "retired")

    def __init__(self, lexicon: Lexicon, identity: tuple[int, int, int, int] | None) -> None:
        self.lexicon = lexicon
        self.identity = identity
        self.users = 0
        self.retired = False


@dataclass
class ServedLexiconStatus:
    """What ``/api/lexicons`` shows of a slot: ``lexicon_name`` is the name its GCG and CGP carry."""

    name: str
    path: str | None
    words: int
    generation: int
    error: str | None
    lexicon_name: str


class ServedLexicon:
    """One named lexicon: a file path (or ``None`` for the built-in) and the lexicon open on it."""

    def __init__(self, name: str, path: str | None) -> None:
        self.name = name
        #: The source options a registered word list is compiled with.
        self.options: dict[str, str] = {}
        registered = ""
        if path is not None and not os.path.lexists(path):
            entry = find(path)  # not a file: a registered name
            if entry is not None:
                registered, path, self.options = entry.name, entry.path, dict(entry.options)
            elif is_name(path):
                raise LexiconError(f"no such file or registered lexicon: {path!r} (lexigraph lexicons add {path} FILE"
                                   " registers a file under that name)")
        self.path = path
        self._lock = threading.Lock()
        self.generation = 0
        self.last_error: str | None = None
        #: Only lexicon files are followed; a word list is compiled once, at start (a compile takes seconds).
        self.follows = path is not None and is_lexicon_file(path)
        self.lexicon_name = registered
        self._current = self._open()
        #: The name the lexicon's GCG and CGP carry: its registered name, else its own.
        self.lexicon_name = registered or name_of(self._current.lexicon)
        remember(self._current.lexicon, self.lexicon_name, self.name)

    def _open(self) -> _Held:
        if self.path is None:
            held = _Held(open_lexicon(), None)
        else:
            ident = _identity(self.path)
            options = {} if self.follows else self.options
            held = _Held(load(self.path, **options), ident)
        if self.lexicon_name:
            remember(held.lexicon, self.lexicon_name, self.name)
        return held

    def _refresh(self) -> None:
        """Swap in the file now at ``path`` if it is not the one open (called with the lock held)."""
        if self.path is None or not self.follows:
            return
        ident = _identity(self.path)
        if ident is None or ident == self._current.identity:
            return
        try:
            fresh = self._open()
        except (LexiconError, OSError) as e:
            # Keep serving the last good file; remember its identity so a bad file is tried once, not per request.
            self.last_error = f"{self.path}: {e}"
            self._current.identity = ident
            return
        fresh.identity = ident  # the identity seen before opening: a later change is seen at the next request
        old = self._current
        self._current = fresh
        self.generation += 1
        self.last_error = None
        old.retired = True
        if old.users == 0:
            _close(old.lexicon)

    def acquire(self) -> _Held:
        with self._lock:
            self._refresh()
            held = self._current
            held.users += 1
            return held

    def release(self, held: _Held) -> None:
        with self._lock:
            held.users -= 1
            if held.retired and held.users == 0:
                _close(held.lexicon)

    def status(self) -> ServedLexiconStatus:
        with self._lock:
            self._refresh()
            return ServedLexiconStatus(self.name, self.path, len(self._current.lexicon), self.generation,
                                       self.last_error, self.lexicon_name)

    def close(self) -> None:
        with self._lock:
            self._current.retired = True
            if self._current.users == 0:
                _close(self._current.lexicon)


class LexiconPool:
    """The lexicons a server answers from, by name; the first is the default.

    ``specs`` are ``(name, path)`` pairs; a path of ``None`` is the built-in
    lexicon. With no specs the pool serves the built-in lexicon as ``enable``.
    """

    def __init__(self, specs: Sequence[tuple[str, str | None]] = ()) -> None:
        if not specs:
            specs = [(BUILTIN, None)]
        self._slots: dict[str, ServedLexicon] = {}
        for name, path in specs:
            if name in self._slots:
                raise LexiconError(f"lexicon name given twice: {name}")
            self._slots[name] = ServedLexicon(name, path)
        self.default = next(iter(self._slots))

    @property
    def names(self) -> list[str]:
        return list(self._slots)

    def served(self, name: str | None) -> ServedLexicon:
        """The slot called ``name`` (None or "": the default): by the server's name for it, else by the lexicon's
        own name (its registered name), in any case."""
        key = self.default if name is None or name == "" else name
        slot = self._slots.get(key)
        if slot is None and isinstance(key, str):
            folded = key.casefold()
            slot = next((s for s in self._slots.values() if s.name.casefold() == folded), None) or \
                next((s for s in self._slots.values() if s.lexicon_name.casefold() == folded), None)
        if slot is None:
            raise UnknownLexicon(f"no lexicon named {key!r} (this server has: {', '.join(self._slots)})")
        return slot

    @contextmanager
    def use(self, name: str | None = None) -> Iterator[Lexicon]:
        """The current lexicon of ``name`` (default: the first), held open for the ``with`` block."""
        slot = self.served(name)
        held = slot.acquire()
        try:
            yield held.lexicon
        finally:
            slot.release(held)

    def status(self) -> list[ServedLexiconStatus]:
        return [s.status() for s in self._slots.values()]

    def close(self) -> None:
        for s in self._slots.values():
            s.close()


def parse_spec(text: str) -> tuple[str, str | None]:
    """``NAME=FILE`` (or just ``FILE``, named after its stem) as a ``(name, path)`` pair; FILE may be a registered
    name (``TWL06``: the file registered as TWL06, served as TWL06).

    >>> parse_spec("twl=/data/twl06.lex")
    ('twl', '/data/twl06.lex')
    >>> parse_spec("/data/collins.lex")
    ('collins', '/data/collins.lex')
    >>> parse_spec("ENABLE")
    ('ENABLE', 'ENABLE')
    """
    name, sep, path = text.partition("=")
    if not sep:
        path = text
        name = os.path.splitext(os.path.basename(text))[0]
    if not name or not path:
        raise LexiconError(f"expected NAME=FILE, got {text!r}")
    return name, path
