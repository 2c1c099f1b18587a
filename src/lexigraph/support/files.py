"""Reading and writing files safely: bounded reads, no self-overwrite, atomic replacement.

:func:`read_limited` is what every file lexigraph reads by name goes through
(word lists, games, alphabets, tile sets, grids, positions, game records):

- At most ``limit`` bytes are read; a larger file (``/dev/zero``, a FIFO
  that never ends) is refused with a :class:`~lexigraph.errors.LexiconError`
  naming what it is, before memory runs out.
- A FIFO, a terminal or another device is read with a bounded wait: if no
  byte comes for :data:`READ_WAIT_SECONDS` (``LEXIGRAPH_READ_WAIT`` in the
  environment changes it), the read is refused (a FIFO with
  no writer would otherwise block forever). A directory, a block device or a
  socket is refused at once. Standard input (``-``) waits as long as it takes.

:func:`refuse_overwrite` refuses an output that is one of the command's
inputs, directly or through links (same device and inode), so that a write
never destroys what it was made from.

:func:`write_atomic` is what every file lexigraph writes goes through
(lexicons, exports, rejects lists, grids):

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
>>> read_limited(os.path.join(d, "a.txt"), limit=100, what="a note")
b'hello'
>>> write_atomic(os.path.join(d, "a.txt"), b"bye", inputs=[os.path.join(d, "a.txt")])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lexigraph.errors.LexiconError: the output .../a.txt is the input .../a.txt: refusing to overwrite it; write to another file
>>> write_atomic(os.devnull, b"nothing")
7
>>> os.path.exists(os.devnull) and not os.path.isfile(os.devnull)
True
"""

from __future__ import annotations

import errno
import os
import select
import secrets
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

from ..errors import LexiconError
from .text import cut

_SUFFIX = ".tmp"
#: Longest wait, in seconds, for the next bytes of a FIFO, terminal or other device named as a file.
READ_WAIT_SECONDS = 10.0
#: Largest settings file (game, alphabet, tile set) read, in bytes: far above any real one.
MAX_SETTINGS_BYTES = 1 << 20


def kind_of(mode: int) -> str:
    """What a file of this ``st_mode`` is, as messages say it.

    >>> kind_of(os.stat(os.devnull).st_mode), kind_of(os.stat("/").st_mode)
    ('a character device', 'a directory')
    """
    for test, name in ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return name
    return "not a regular file"


def read_wait_seconds() -> float:
    """The wait for a FIFO or device: ``LEXIGRAPH_READ_WAIT`` (seconds) when set to a positive number, else
    :data:`READ_WAIT_SECONDS`."""
    try:
        value = float(os.environ.get("LEXIGRAPH_READ_WAIT", ""))
    except ValueError:
        return READ_WAIT_SECONDS
    return value if 0 < value < 1e6 else READ_WAIT_SECONDS


def _size_text(limit: int) -> str:
    if limit >= 1 << 20 and limit % (1 << 20) == 0:
        return f"{limit >> 20} MiB"
    if limit >= 1 << 10 and limit % (1 << 10) == 0:
        return f"{limit >> 10} KiB"
    return f"{limit:,} bytes"


def read_limited(path: "str | os.PathLike[str]", *, limit: int, what: str,
                 error: type[LexiconError] = LexiconError, missing: str | None = None,
                 wait: float | None = None) -> bytes:
    """The bytes of the file ``path`` names (``-``: standard input), refusing more than ``limit`` of them.

    ``what`` says what the file should be, with its article (``"a game file"``);
    errors are ``error``, and ``missing`` replaces the message for a path that
    does not exist. A FIFO or a device waits at most ``wait`` seconds (default
    :data:`READ_WAIT_SECONDS`) for each next chunk; a directory, block device or
    socket is refused.

    >>> read_limited("/", limit=10, what="a game file")
    Traceback (most recent call last):
    ...
    lexigraph.errors.LexiconError: / is a directory, not a game file
    >>> read_limited("/dev/zero", limit=1000, what="a game file")
    Traceback (most recent call last):
    ...
    lexigraph.errors.LexiconError: /dev/zero (a character device) is larger than 1,000 bytes; refusing to read it as a game file
    """
    if not isinstance(path, (str, os.PathLike)):
        raise error(f"{what} is named by a path, not {type(path).__name__}")
    if os.fspath(path) == "-":
        try:
            return _read_fd(sys.stdin.buffer.fileno(), limit, None, "-", what, error, "standard input")
        except (OSError, ValueError) as e:  # no descriptor (a test's stand-in): read the stream
            if isinstance(e, OSError) and not hasattr(sys.stdin.buffer, "read"):
                raise error(f"cannot read standard input: {e.strerror or e}") from None
            data = sys.stdin.buffer.read(limit + 1)
            if len(data) > limit:
                raise error(f"standard input is larger than {_size_text(limit)}; refusing to read it as {what}")
            return bytes(data)
    shown = cut(os.fspath(path), 300)  # as messages show it
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(os.fspath(path), flags)  # non-blocking: opening a FIFO with no writer returns at once
    except FileNotFoundError:
        raise error(missing or f"no such file: {shown}") from None
    except OSError as e:
        raise error(f"cannot read {shown}: {e.strerror or e}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
            raise error(f"{shown} is {kind_of(mode)}, not {what}")
        if stat.S_ISREG(mode):
            return _read_fd(fd, limit, None, shown, what, error, "")
        return _read_fd(fd, limit, read_wait_seconds() if wait is None else wait, shown, what, error, kind_of(mode))
    except OSError as e:
        raise error(f"cannot read {shown}: {e.strerror or e}") from None
    finally:
        os.close(fd)


def _read_fd(fd: int, limit: int, wait: float | None, shown: str, what: str, error: type[LexiconError],
             kind: str) -> bytes:
    """At most ``limit`` bytes of ``fd`` to its end; with ``wait``, each chunk waited for at most that long."""
    label = f"{shown} ({kind})" if kind and kind != "standard input" else ("standard input" if kind else shown)
    poller = None
    if wait is not None:
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLPRI)
    chunks: list[bytes] = []
    size = 0
    while True:
        if poller is not None and not poller.poll(max(0, int(wait * 1000)) if wait is not None else None):
            # A FIFO with no writer reads as empty: only poll tells "nothing yet" from "the end".
            raise error(f"{label}: nothing to read for {wait:g} s; refusing to wait for {what}")
        try:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
        except BlockingIOError:
            continue
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise error(f"{label} is larger than {_size_text(limit)}; refusing to read it as {what}")


def same_file(a: "str | os.PathLike[str]", b: "str | os.PathLike[str]") -> bool:
    """Whether two paths name one file, through links too (same device and inode); False if either is missing.

    >>> same_file("/", "/.."), same_file("/", "/nowhere")
    (True, False)
    """
    try:
        sa, sb = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def refuse_overwrite(dest: "str | os.PathLike[str]", inputs: Iterable[object]) -> None:
    """Raise a :class:`~lexigraph.errors.LexiconError` if the regular file ``dest`` is one of ``inputs``.

    Inputs that are not paths (word iterables, open files, ``-``) are
    skipped; so is a ``dest`` that is a device or FIFO (written through,
    never replaced: ``/dev/stdout`` may be the terminal the input came from).
    """
    shown = os.fspath(dest)
    try:
        st = os.stat(shown)
    except (OSError, ValueError):
        return  # a new file cannot be an input
    if not stat.S_ISREG(st.st_mode):
        return
    for source in inputs:
        if not isinstance(source, (str, os.PathLike)) or os.fspath(source) in ("", "-"):
            continue
        if same_file(shown, source):
            raise LexiconError(f"the output {shown} is the input {os.fspath(source)}: refusing to overwrite it;"
                               " write to another file")


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


def write_atomic(dest: str | os.PathLike[str], data: bytes, *, inputs: Iterable[object] = ()) -> int:
    """Write ``data`` to ``dest`` as the module docstring says; returns the number of bytes written.

    ``inputs``: the files the data was made from; a ``dest`` that is one of
    them is refused (:func:`refuse_overwrite`).
    """
    shown = os.fspath(dest)
    refuse_overwrite(shown, inputs)
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
