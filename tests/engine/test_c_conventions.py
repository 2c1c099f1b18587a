"""The conventions of the C files (``src/lexigraph/native``): one style, held by ``clang-format``.

These read the sources, not the built module: they run with or without the
C extension.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import lexigraph

ROOT = Path(__file__).resolve().parents[2]
NATIVE = Path(lexigraph.__file__).parent / "native"
C_FILES = sorted(NATIVE.glob("*.[ch]"))


def test_there_are_c_files() -> None:
    assert len(C_FILES) > 20 and (ROOT / ".clang-format").is_file()


@pytest.mark.skipif(shutil.which("clang-format") is None, reason="clang-format is not installed (apt-get install "
                                                                "clang-format)")
def test_every_c_file_is_formatted() -> None:
    """Each file is what ``clang-format`` makes of it with the repository's ``.clang-format``."""
    unformatted = []
    for path in C_FILES:
        formatted = subprocess.run(["clang-format", f"--style=file:{ROOT / '.clang-format'}", str(path)],
                                   capture_output=True, check=True, text=True).stdout
        if formatted != path.read_text():
            unformatted.append(path.name)
    assert not unformatted, f"run clang-format -i on {', '.join(unformatted)}"
