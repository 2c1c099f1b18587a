"""Writing outputs: devices and FIFOs written through, symbolic links followed, stale temporaries removed."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading

import pytest

import lexigraph
from lexigraph.cli.main import main
from lexigraph.errors import LexiconError
from lexigraph.support.files import stale_temporaries, write_atomic


def test_regular_file_replaced_atomically_keeping_its_mode(tmp_path):
    dest = tmp_path / "out.txt"
    dest.write_bytes(b"old")
    os.chmod(dest, 0o640)
    assert write_atomic(dest, b"new") == 3
    assert dest.read_bytes() == b"new" and stat.S_IMODE(dest.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_dev_null_is_written_through_not_replaced(tmp_path, capsys):
    before = os.stat(os.devnull)
    src = tmp_path / "w.txt"
    src.write_text("cat\ndog\n")
    assert main(["build", str(src), "-o", os.devnull]) == 0
    assert main(["export", str(src), "--format", "daw", "-o", os.devnull]) == 0
    after = os.stat(os.devnull)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino


def test_fifo_is_written_through(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = {}

    def reader():
        with open(fifo, "rb") as f:
            got["data"] = f.read()

    t = threading.Thread(target=reader)
    t.start()
    write_atomic(fifo, b"through the pipe")
    t.join(10)
    assert got["data"] == b"through the pipe" and stat.S_ISFIFO(fifo.stat().st_mode)


def test_symbolic_links_are_followed(tmp_path):
    target = tmp_path / "real.lex"
    target.write_bytes(b"old")
    link = tmp_path / "link.lex"
    link.symlink_to(target)
    lexigraph.build(["cat", "dog"], link)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert list(lexigraph.open(target)) == ["cat", "dog"]
    dangling = tmp_path / "dangling.lex"
    dangling.symlink_to(tmp_path / "new.lex")
    write_atomic(dangling, b"x")
    assert dangling.is_symlink() and (tmp_path / "new.lex").read_bytes() == b"x"


def test_directories_and_sockets_are_refused(tmp_path):
    with pytest.raises(LexiconError, match="directory"):
        write_atomic(tmp_path, b"x")
    import socket

    path = tmp_path / "sock"
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(str(path))
        with pytest.raises(LexiconError, match="not a regular file"):
            write_atomic(path, b"x")
    finally:
        s.close()


def test_stale_temporaries_of_a_killed_build_are_removed(tmp_path):
    dest = tmp_path / "words.lex"
    # A build killed mid-write: its temporary file stays behind, named after its (now dead) process.
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(proc.stdout)
    stale = tmp_path / f".words.lex.{dead}.abcd1234.tmp"
    stale.write_bytes(b"half a lexicon")
    live = tmp_path / f".words.lex.{os.getppid()}.abcd1234.tmp"  # a live process's: left alone
    live.write_bytes(b"in progress")
    other = tmp_path / ".other.lex.1.abcd1234.tmp"
    other.write_bytes(b"not ours")
    assert stale_temporaries(dest) == [stale]
    lexigraph.build(["cat"], dest)
    assert not stale.exists() and live.exists() and other.exists()


def test_a_killed_build_leaves_nothing_behind_after_the_next(tmp_path):
    src = tmp_path / "w.txt"
    src.write_text("\n".join(f"w{'a' * (i % 20)}{chr(97 + i % 26)}" for i in range(2000)))
    dest = tmp_path / "w.lex"
    code = ("import os, signal, lexigraph.support.files as o\n"
            "real = os.replace\n"
            "def kill(*a):\n    os.kill(os.getpid(), signal.SIGKILL)\n"
            "o.os.replace = kill\n"
            f"import lexigraph; lexigraph.build({str(src)!r}, {str(dest)!r})\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert proc.returncode == -9
    assert any(p.name.endswith(".tmp") for p in tmp_path.iterdir())  # the killed build's leftover
    lexigraph.build(src, dest)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.lex", "w.txt"]


def test_dev_stdout_through_a_pipe():
    code = "from lexigraph.support.files import write_atomic; write_atomic('/dev/stdout', b'through a pipe')"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert proc.returncode == 0 and proc.stdout == b"through a pipe"
