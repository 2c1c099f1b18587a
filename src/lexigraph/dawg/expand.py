"""Foreign word graphs walked back into their words: breadth-first with NumPy, within bounds of depth and memory.

The graph comes as parallel per-record arrays (a letter, "a word ends
here", "last of its sibling list", where the children start), as the
``dawg32`` table, the ``.daw`` file and the KWG store it. A cycle, a list
that runs past the end or a graph whose paths multiply beyond
:data:`MAX_EXPANDED_ARCS` is refused with a :class:`~lexigraph.errors.SourceError`
before its level is allocated, never walked forever.
"""

from __future__ import annotations

import numpy as np

from ..errors import SourceError

#: Arcs a foreign graph (dawg32 table, ``.daw``) may expand into before reading
#: is refused, set by the memory the whole read would take: reading and
#: compiling costs about 220 bytes per expanded arc (measured on TWL06, 395,184
#: arcs, and SCOWL, 766,408: the walk's arrays, the words as text, the build),
#: so a budget of 2 GiB allows 9.7 million arcs, 25 times TWL06. The check runs
#: before each level of the walk is allocated, so a "word bomb" (196 bytes
#: whose graph expands to 33 million arcs) stops after a fraction of that.
MAX_EXPANSION_BYTES = 2 << 30
BYTES_PER_EXPANDED_ARC = 220
MAX_EXPANDED_ARCS = MAX_EXPANSION_BYTES // BYTES_PER_EXPANDED_ARC


def expand_words(
    letter: np.ndarray,
    accept: np.ndarray,
    last: np.ndarray,
    child: np.ndarray,
    root: int,
    *,
    what: str,
    max_depth: int = 255,
    limit: int = MAX_EXPANDED_ARCS,
) -> dict[int, np.ndarray]:
    """Enumerate the words of a graph given as parallel per-record arrays.

    ``letter[i]`` is record ``i``'s letter (0: a record to skip), ``accept[i]``
    says a word ends after it, ``last[i]`` that it ends its sibling list and
    ``child[i]`` where its children's list starts (0: none). Returns, per word
    length, a 2-D array of letters. Walks breadth-first with NumPy, so a cycle
    or an exponential number of paths is caught by the depth and size limits
    instead of running forever.
    """
    n = len(letter)
    ends = np.flatnonzero(last)
    if not 0 <= root < n:
        raise SourceError(f"{what}: the root index {root} is outside the file")
    bad_child = np.flatnonzero(child >= n)
    if len(bad_child):
        i = int(bad_child[0])
        raise SourceError(f"{what}: record {i} points to index {int(child[i])}, past the end ({n} records)")
    # Record and owner indexes fit in 32 bits (files hold at most 2**24 records,
    # levels at most `limit` arcs): half the memory of int64 temporaries.
    ends = ends.astype(np.int32)
    child32 = child.astype(np.int32)
    starts = np.array([root], np.int32)
    owners = np.array([-1], np.int32)
    parents: list[np.ndarray] = [np.zeros(0, np.int32)]
    letters: list[np.ndarray] = [np.zeros(0, letter.dtype)]
    enders: list[np.ndarray] = [np.zeros(0, np.int64)]
    total = 0
    depth = 0
    while len(starts):
        depth += 1
        if depth > max_depth:
            raise SourceError(f"{what}: the graph has a cycle or words longer than {max_depth} letters")
        pos = np.searchsorted(ends, starts)
        if (pos >= len(ends)).any():
            raise SourceError(f"{what}: a sibling list runs past the end of the file without ending")
        count = ends[pos] - starts + 1
        total += int(count.sum())
        if total > limit:
            raise SourceError(
                f"{what}: the graph expands to more than {limit:,} arcs (over "
                f"{limit * BYTES_PER_EXPANDED_ARC >> 20:,} MiB to read); refusing to expand it"
            )
        del pos
        rec = np.repeat(starts - (np.cumsum(count, dtype=np.int32) - count), count)
        rec += np.arange(len(rec), dtype=np.int32)
        owner = np.repeat(owners, count)
        del count, starts, owners
        keep = letter[rec] != 0
        if not keep.all():
            rec, owner = rec[keep], owner[keep]
        del keep
        parents.append(owner)
        letters.append(letter[rec])
        enders.append(np.flatnonzero(accept[rec]))
        nxt = child32[rec]
        del rec
        go = nxt != 0
        starts = nxt[go]
        owners = np.flatnonzero(go).astype(np.int32)
        del nxt, go
    out: dict[int, np.ndarray] = {}
    for length in range(1, len(enders)):
        ids = enders[length]
        if not len(ids):
            continue
        rows = np.empty((len(ids), length), letter.dtype)
        for d in range(length, 0, -1):
            rows[:, d - 1] = letters[d][ids]
            ids = parents[d][ids]
        out[length] = rows
    return out
