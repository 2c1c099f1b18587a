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


# -- no self-overwrite -------------------------------------------------------------------------------


def test_same_file_compares_device_and_inode_through_links(tmp_path):
    from lexigraph.support.files import same_file

    a = tmp_path / "a.txt"
    a.write_text("x")
    (tmp_path / "soft").symlink_to(a)
    os.link(a, tmp_path / "hard")
    (tmp_path / "b.txt").write_text("x")
    assert same_file(a, tmp_path / "soft") and same_file(a, tmp_path / "hard") and same_file(a, tmp_path / "." / "a.txt")
    assert not same_file(a, tmp_path / "b.txt") and not same_file(a, tmp_path / "missing")


@pytest.mark.parametrize("via", ["itself", "symbolic link", "hard link", "dotted path"])
def test_write_atomic_refuses_its_own_input(tmp_path, via):
    src = tmp_path / "words.txt"
    src.write_bytes(b"cat\ndog\n")
    dest = {"itself": src, "symbolic link": tmp_path / "soft", "hard link": tmp_path / "hard",
            "dotted path": tmp_path / "." / "words.txt"}[via]
    if via == "symbolic link":
        dest.symlink_to(src)
    if via == "hard link":
        os.link(src, dest)
    with pytest.raises(LexiconError, match="is the input .*refusing to overwrite"):
        write_atomic(dest, b"lexicon bytes", inputs=["-", ["words"], src])
    assert src.read_bytes() == b"cat\ndog\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("."))  == []  # no temporary left
    # a device output is written through, never replaced: not refused even when it is an input too
    assert write_atomic(os.devnull, b"x", inputs=[os.devnull]) == 1


# -- bounded reads -----------------------------------------------------------------------------------


def test_read_limited_refuses_what_is_too_large_or_not_a_file(tmp_path):
    from lexigraph.support.files import read_limited

    f = tmp_path / "f.txt"
    f.write_bytes(b"12345")
    assert read_limited(f, limit=5, what="a note") == b"12345"
    with pytest.raises(LexiconError, match=r"f.txt is larger than 4 bytes; refusing to read it as a note$"):
        read_limited(f, limit=4, what="a note")
    with pytest.raises(LexiconError, match=r"^/dev/zero \(a character device\) is larger than 1 KiB"):
        read_limited("/dev/zero", limit=1024, what="a note")
    with pytest.raises(LexiconError, match="is a directory, not a note"):
        read_limited(tmp_path, limit=10, what="a note")
    with pytest.raises(LexiconError, match="^gone$"):
        read_limited(tmp_path / "missing", limit=10, what="a note", missing="gone")


def test_a_fifo_with_no_writer_is_refused_after_the_wait(tmp_path):
    from lexigraph.support.files import read_limited

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(LexiconError, match=r"\(a FIFO\): nothing to read for 0.2 s; refusing to wait for a note"):
        read_limited(fifo, limit=100, what="a note", wait=0.2)


def test_a_fifo_with_a_writer_is_read_to_its_end(tmp_path):
    from lexigraph.support.files import read_limited

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen([sys.executable, "-c", f"import time\nf = open({str(fifo)!r}, 'wb')\n"
                               "f.write(b'cat\\n'); f.flush(); time.sleep(0.3); f.write(b'dog\\n')"])
    try:
        assert read_limited(fifo, limit=100, what="a note", wait=20) == b"cat\ndog\n"
    finally:
        writer.kill()
        writer.wait()


def test_the_wait_comes_from_the_environment(monkeypatch):
    from lexigraph.support.files import READ_WAIT_SECONDS, read_wait_seconds

    monkeypatch.setenv("LEXIGRAPH_READ_WAIT", "0.5")
    assert read_wait_seconds() == 0.5
    for bad in ("", "x", "-1", "0", "nan", "1e9"):
        monkeypatch.setenv("LEXIGRAPH_READ_WAIT", bad)
        assert read_wait_seconds() == READ_WAIT_SECONDS
