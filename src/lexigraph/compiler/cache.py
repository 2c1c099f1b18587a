"""The cache of compiled word sources: a source compiled once is opened from the cache after.

A compiled source is kept in the user's cache directory
(``$XDG_CACHE_HOME/lexigraph``, by default ``~/.cache/lexigraph``; or
``$LEXIGRAPH_CACHE``), keyed by a hash of the source's bytes, the build
options and the lexigraph version (:func:`cache_key`), so the second
``lexigraph -L words.txt check dog`` opens the cached file as fast as a
``.lex``. Entries are written atomically (:func:`keep`); the cache keeps
the :data:`KEEP` most recently used entries. ``LEXIGRAPH_CACHE=off`` (or an
unwritable directory) compiles in memory every time.

Opening a source through the cache (and rebuilding an entry that no longer
opens) is :func:`lexigraph.opener.open_source`'s: the cache knows files and
bytes, not lexicons.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..buildinfo import __version__
from ..engine.fileformat import MAJOR
from ..support.files import write_atomic

#: Cache entries kept (least recently used removed first).
KEEP = 16


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


def cache_key(data: bytes, options: Mapping[str, object]) -> str:
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
    h.update(json.dumps({"options": opts, "lexigraph": __version__, "format": MAJOR, "readers": READER_REVISION}, sort_keys=True,
                        default=str).encode())
    return h.hexdigest()[:40]


def entry_for(directory: Path, data: bytes, options: Mapping[str, object]) -> Path:
    """Where the cache keeps the lexicon compiled from a source's bytes ``data`` with ``options``."""
    return directory / f"{cache_key(data, options)}.lex"


def touch(entry: Path) -> None:
    """Mark a cache entry used now (the least recently used are removed first)."""
    try:
        os.utime(entry)
    except OSError:
        pass


def keep(directory: Path, entry: Path, data: bytes) -> bool:
    """Write a compiled lexicon to its cache entry atomically and prune the cache; False when it cannot be written
    (an unwritable cache only costs speed)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        write_atomic(entry, data)
        _prune(directory)
    except Exception:
        return False
    return True


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
