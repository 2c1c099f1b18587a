"""Writing output files safely: atomic replacement of regular files, write-through to devices.

:func:`write_atomic` is what every file lexigraph writes goes through
(lexicons, exports, rejects lists):

- A regular file (or a new path) is replaced atomically: the data goes to a
  temporary file in the same directory, is flushed to disk, and is renamed
  over the destination. Readers that have the old file mapped keep seeing
  it; a failure leaves it untouched. The file keeps the old file's mode (a
  new one gets ``0o666`` minus the umask).
- A symbolic link is followed: the file it points to is replaced and the
  link stays a link. A dangling link creates its target.
- A character device (``/dev/null``, a terminal) or a FIFO is written
  through, never replaced by a regular file. A directory, socket or block
  device is refused with a :class:`~lexigraph.errors.LexiconError`.
- Temporary files are named ``.NAME.PID.RANDOM.tmp``. A build killed
  mid-write leaves one behind; the next write to the same destination
  removes those whose process is gone.

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> write_atomic(os.path.join(d, "a.txt"), b"hello")
5
>>> write_atomic(os.devnull, b"nothing")
7
>>> os.path.exists(os.devnull) and not os.path.isfile(os.devnull)
True
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path

from ..errors import LexiconError

_SUFFIX = ".tmp"


def _fail(dest: object, e: OSError) -> LexiconError:
    return LexiconError(f"cannot write {dest}: {e.strerror or e}")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. EPERM: someone else's live process
        return True
    return True


def stale_temporaries(dest: str | os.PathLike[str]) -> list[Path]:
    """Temporary files of earlier writes to ``dest`` whose writing process is gone."""
    dest = Path(dest)
    directory = dest.parent
    prefix = f".{dest.name}."
    out = []
    try:
        names = os.listdir(directory if str(directory) else ".")
    except OSError:
        return []
    for name in names:
        if not (name.startswith(prefix) and name.endswith(_SUFFIX)):
            continue
        middle = name[len(prefix) : -len(_SUFFIX)].split(".")
        if len(middle) != 2 or not middle[0].isdigit():
            continue
        if not _alive(int(middle[0])):
            out.append(directory / name)
    return out


def _write_through(path: str, data: bytes, dest: object) -> int:
    try:
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise _fail(dest, e) from None
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
    except OSError as e:
        if e.errno != errno.EPIPE:
            raise _fail(dest, e) from None
    finally:
        os.close(fd)
    return len(data)


def write_atomic(dest: str | os.PathLike[str], data: bytes) -> int:
    """Write ``data`` to ``dest`` as the module docstring says; returns the number of bytes written."""
    shown = os.fspath(dest)
    try:
        st = os.stat(shown)  # follows symbolic links, the kernel's magic ones too (/dev/stdout)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise _fail(shown, e) from None
    mode = None
    if st is not None:
        if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            return _write_through(shown, data, shown)
        if stat.S_ISDIR(st.st_mode):
            raise LexiconError(f"cannot write {shown}: it is a directory")
        if not stat.S_ISREG(st.st_mode):
            raise LexiconError(f"cannot write {shown}: it is not a regular file, a character device or a FIFO")
        mode = stat.S_IMODE(st.st_mode)
    path = os.path.realpath(shown)  # a link's target is replaced, the link stays (dangling: created)
    target = Path(path)
    for old in stale_temporaries(target):
        try:
            old.unlink()
        except OSError:
            pass
    tmp = target.parent / f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}{_SUFFIX}"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as e:
        raise _fail(shown, e) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise _fail(shown, e) from None
        raise
    return len(data)
