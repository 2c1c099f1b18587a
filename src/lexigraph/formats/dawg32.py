"""The 32-bit DAWG table of the classic TWL06 Python module.

Little-endian u32 records: bit 31 "more siblings follow", bits 30-24 a 7-bit
ASCII letter or ``$`` (the prefix so far is a word), bits 23-0 the index of
the first record of the children's list. The walk starts at record 0.
"""

from __future__ import annotations

import numpy as np

from ..errors import LexiconError, SourceError
from ..dawg import MinimalGraph, expand_words
from ..support.text import quote

MORE = 1 << 31
LINK_MASK = 0xFFFFFF
DOLLAR = ord("$")


def looks_like(data: bytes) -> bool:
    """Cheap content sniffing: record 0 holds a letter and a link inside the file."""
    if len(data) < 4 or len(data) % 4:
        return False
    head = np.frombuffer(data[: min(len(data), 4096)], "<u4")
    letters = (head >> 24) & 0x7F
    ok = ((letters >= ord("a")) & (letters <= ord("z"))) | ((letters >= ord("A")) & (letters <= ord("Z")))
    ok |= letters == DOLLAR
    return bool(ok.all() and ((head & LINK_MASK) < len(data) // 4).all())


def read(data: bytes, *, what: str = "dawg32 table") -> list[str]:
    """All words of a table, as lowercase strings (unsorted)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise SourceError(f"{what}: read() takes the file's bytes, not {type(data).__name__}")
    if not data:
        raise SourceError(f"{what}: the file is empty")
    if len(data) % 4:
        raise SourceError(f"{what}: {len(data)} bytes is not a whole number of 4-byte records (truncated?)")
    rec = np.frombuffer(data, "<u4")
    n = len(rec)
    if n > LINK_MASK + 1:
        raise SourceError(f"{what}: {n:,} records is more than 24-bit links can address")
    letter = ((rec >> 24) & 0x7F).astype(np.uint8)
    is_dollar = letter == DOLLAR
    is_letter = ((letter | 0x20) >= ord("a")) & ((letter | 0x20) <= ord("z"))
    bad = np.flatnonzero(~(is_letter | is_dollar))
    if len(bad):
        i = int(bad[0])
        raise SourceError(f"{what}: record {i} holds {chr(letter[i])!r}, which is neither a letter nor '$'")
    last = (rec & MORE) == 0
    link = (rec & LINK_MASK).astype(np.int64)
    # A letter's word ends when its child list holds a '$' record. Link 0
    # would lead back to the root: in a DAWG that is no child at all.
    ends = np.flatnonzero(last)
    link = np.where(is_letter, link, 0)
    pos = np.searchsorted(ends, link)
    if (pos >= len(ends)).any():
        raise SourceError(f"{what}: a sibling list runs past the end of the file without ending")
    dollars_before = np.concatenate([[0], np.cumsum(is_dollar)])
    list_end = ends[np.minimum(pos, len(ends) - 1)]
    accept = is_letter & (link != 0) & (dollars_before[list_end + 1] - dollars_before[link] > 0)
    # '$' records carry no letter of their own; a letter whose list holds
    # nothing but '$' has no children to walk.
    only_dollar = accept & (list_end == link) & is_dollar[link]
    child = np.where(only_dollar, 0, link)
    words = expand_words(np.where(is_letter, letter | 0x20, 0).astype(np.uint8), accept, last, child, 0, what=what)
    out: list[str] = []
    for length, rows in words.items():
        text = rows.tobytes().decode("ascii")
        out.extend(text[i : i + length] for i in range(0, len(text), length))
    return out


def write(graph: MinimalGraph, labels: list[str]) -> bytes:
    """Lay out a node-mode minimal graph as a table (root list at record 0)."""
    if not isinstance(graph, MinimalGraph):
        raise LexiconError(f"write() takes a MinimalGraph (lexigraph.dawg.minimize), not {type(graph).__name__}")
    if not isinstance(labels, (list, tuple)) or not all(isinstance(label, str) for label in labels):
        raise LexiconError("write() takes the tile labels as a list of str")
    if graph.accept_on_edge:
        raise ValueError("dawg32 needs a graph minimised with accept_on_edge=False")
    for label in labels:
        if len(label) != 1 or not ("a" <= label <= "z"):
            raise LexiconError(f"the dawg32 table holds only the letters a-z; this lexicon has the tile {quote(label)}")
    trie = graph.trie
    reps = graph.representative
    term = trie.terminal[reps]
    deg = trie.n_children[reps]
    size = deg + term
    root_class = int(graph.node_class[0])
    order = np.concatenate([[root_class], np.setdiff1d(np.arange(len(reps)), [root_class])])
    order = order[size[order] > 0]
    start = np.zeros(len(reps), np.int64)
    start[order] = np.cumsum(size[order]) - size[order]
    total = int(size[order].sum())
    if total > LINK_MASK + 1:
        raise LexiconError(f"the word graph needs {total:,} records; the dawg32 table holds at most {LINK_MASK + 1:,}")
    out = np.zeros(total, np.uint32)
    letter_of_code = np.array([0] + [ord(lab) for lab in labels], np.uint32)
    for k in order.tolist():
        pos = int(start[k])
        v = int(reps[k])
        recs = []
        if term[k]:
            recs.append(DOLLAR << 24)
        f, d = int(trie.first_child[v]), int(deg[k])
        if d:
            kids = np.arange(f, f + d)
            recs.extend(
                ((letter_of_code[trie.label[kids]] << 24) | start[graph.node_class[kids]].astype(np.uint32)).tolist()
            )
        block = np.array(recs, np.uint32)
        block[:-1] |= np.uint32(MORE)
        out[pos : pos + len(block)] = block
    return out.astype("<u4").tobytes()
