"""Hasbro's ``WORDLIST.DAW`` (the Scrabble CD-ROM games' word graph).

Big-endian u32 entries: bits 0-7 a letter (0: none), bit 8 "a word ends with
this letter", bit 9 "last entry of its sibling list", bits 10-31 the index of
the first child entry (0: no children). Entry 0 is unused; the root list is
the last sibling list of the file.
"""

from __future__ import annotations

import numpy as np

from ..errors import LexiconError, SourceError
from ..dawg import MinimalGraph, expand_words
from ..support.text import quote

# The .daw entry: bits 0-7 letter, bit 8 a word ends here, bit 9 last of its list, bits 10-31 child index.
ACCEPT_BIT = 1 << 8
LAST_BIT = 1 << 9
ARC_SHIFT = 10
MAX_ARCS = 1 << (32 - ARC_SHIFT)


def looks_like(data: bytes) -> bool:
    """Entry 0 is zero and the entries that follow carry letters."""
    if len(data) < 8 or len(data) % 4 or data[:4] != b"\0\0\0\0":
        return False
    head = np.frombuffer(data[4 : min(len(data), 4096)], ">u4")
    letters = head & 0xFF
    ok = ((letters | 0x20) >= ord("a")) & ((letters | 0x20) <= ord("z")) | (letters >= 0xC0)
    return bool(ok.all() and ((head >> ARC_SHIFT) < len(data) // 4).all())


def root_start(entry: np.ndarray, what: str) -> int:
    """First entry of the last sibling list."""
    last = (entry & LAST_BIT) != 0
    n = len(entry)
    if n < 2 or not last[-1]:
        raise SourceError(f"{what}: the final entry does not end a sibling list, so there is no root list")
    before = np.flatnonzero(last[1:-1])
    return int(before[-1]) + 2 if len(before) else 1


def read(data: bytes, *, what: str = ".daw file") -> list[str]:
    """All words of a ``.daw`` file, as lowercase strings (unsorted)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise SourceError(f"{what}: read() takes the file's bytes, not {type(data).__name__}")
    if not data:
        raise SourceError(f"{what}: the file is empty")
    if len(data) % 4:
        raise SourceError(f"{what}: {len(data)} bytes is not a whole number of 4-byte entries (truncated?)")
    entry = np.frombuffer(data, ">u4").astype(np.uint32)
    if len(entry) > MAX_ARCS:
        raise SourceError(f"{what}: {len(entry):,} entries is more than 22-bit indexes can address")
    letter = (entry & 0xFF).astype(np.uint8)
    alpha = np.array([chr(b).isalpha() for b in range(256)])
    bad = np.flatnonzero(~alpha[letter])
    bad = bad[bad != 0]
    if len(bad):
        i = int(bad[0])
        raise SourceError(f"{what}: entry {i} holds byte 0x{int(letter[i]):02x}, which is not a letter")
    root = root_start(entry, what)
    accept = (entry & ACCEPT_BIT) != 0
    last = (entry & LAST_BIT) != 0
    child = (entry >> ARC_SHIFT).astype(np.int64)
    words = expand_words(letter, accept, last, child, root, what=what)
    out: list[str] = []
    for length, rows in words.items():
        text = rows.tobytes().decode("latin-1").lower()
        out.extend(text[i : i + length] for i in range(0, len(text), length))
    return out


def write(graph: MinimalGraph, labels: list[str]) -> bytes:
    """Lay out an accept-on-edge graph as a ``.daw`` file, root list last.

    Entries hold lower-case ASCII letters, as Hasbro's files do; a lexicon
    with any other tile (``ñ``, ``ch``) is refused.
    """
    if not isinstance(graph, MinimalGraph):
        raise LexiconError(f"write() takes a MinimalGraph (lexigraph.dawg.minimize), not {type(graph).__name__}")
    if not isinstance(labels, (list, tuple)) or not all(isinstance(label, str) for label in labels):
        raise LexiconError("write() takes the tile labels as a list of str")
    if not graph.accept_on_edge:
        raise ValueError(".daw needs a graph minimised with accept_on_edge=True")
    letters = []
    for label in labels:
        if len(label) != 1 or not ("a" <= label <= "z"):
            raise LexiconError(
                f"a .daw file holds only the letters a-z; this lexicon has the tile {quote(label)} "
                "(export it as text or scored instead)"
            )
        letters.append(ord(label))
    trie = graph.trie
    reps = graph.representative
    deg = trie.n_children[reps]
    root_class = int(graph.node_class[0])
    others = np.flatnonzero((deg > 0) & (np.arange(len(reps)) != root_class))
    order = np.concatenate([others, [root_class]])
    start = np.zeros(len(reps), np.int64)
    start[order] = 1 + np.cumsum(deg[order]) - deg[order]
    total = 1 + int(deg[order].sum())
    if total > MAX_ARCS:
        raise LexiconError(f"the word graph needs {total:,} entries; a .daw file holds at most {MAX_ARCS:,}")
    firsts = trie.first_child[reps[order]]
    d = deg[order]
    arcs = np.repeat(firsts - (np.cumsum(d) - d), d) + np.arange(int(d.sum()))
    last = np.zeros(len(arcs), bool)
    last[np.cumsum(d) - 1] = True
    letter_of_code = np.array([0] + letters, np.uint32)
    out = np.zeros(total, np.uint32)
    target = start[graph.node_class[arcs]]
    target = np.where(trie.n_children[arcs] > 0, target, 0)
    out[1:] = (
        letter_of_code[trie.label[arcs]]
        | (trie.terminal[arcs].astype(np.uint32) << 8)
        | (last.astype(np.uint32) << 9)
        | (target.astype(np.uint32) << ARC_SHIFT)
    )
    return out.astype(">u4").tobytes()
