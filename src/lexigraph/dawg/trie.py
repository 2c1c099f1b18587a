"""A trie of words in strictly increasing code order, built level by level with NumPy.

The builder never creates a Python object per word or per node: the sorted
word list is a ragged array of tile codes (``flat``, each word's ``starts``
and ``lens``), and the trie is a handful of parallel arrays in breadth-first
order. Each level is one pass: the words at least that long, grouped into
runs that share the prefix so far (a run starts where the common prefix
with the word before is shorter than the level).

>>> flat = np.frombuffer(bytes([1, 2, 1, 2, 3, 2, 3]), np.uint8)
>>> lens = np.array([2, 3, 2]); trie = build_trie(flat, np.cumsum(lens) - lens, lens)
>>> trie.size, trie.label.tolist(), trie.terminal.tolist()
(6, [0, 1, 2, 2, 3, 3], [False, False, False, True, True, True])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

@dataclass(frozen=True)
class Trie:
    """A trie in breadth-first order; node 0 is the root (the empty prefix).

    ``first_child[v]`` .. ``first_child[v] + n_children[v]`` are the children
    of ``v``, sorted by label.
    """

    label: np.ndarray  # uint8 tile code of the arc into the node (0 for root)
    terminal: np.ndarray  # bool: the node's prefix is a word
    height: np.ndarray  # int32: longest path below the node
    first_child: np.ndarray  # int64
    n_children: np.ndarray  # int64

    @property
    def size(self) -> int:
        return len(self.label)


def common_prefix_lengths(flat: np.ndarray, starts: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """``lcp[i]`` = length of the common prefix of word ``i-1`` and word ``i``.

    Works on the ragged layout; cost is proportional to the total of the
    common prefixes, not to the longest word times the word count.
    """
    n = len(lens)
    lcp = np.zeros(n, dtype=np.int64)
    if n < 2:
        return lcp
    idx = np.arange(1, n)
    limit = np.minimum(lens[1:], lens[:-1])
    depth = 0
    while len(idx):
        live = limit[idx - 1] > depth
        idx = idx[live]
        if not len(idx):
            break
        same = flat[starts[idx] + depth] == flat[starts[idx - 1] + depth]
        idx = idx[same]
        depth += 1
        lcp[idx] = depth
    return lcp


def build_trie(flat: np.ndarray, starts: np.ndarray, lens: np.ndarray) -> Trie:
    """Build the trie of words given in strictly increasing code order."""
    n = len(lens)
    lcp = common_prefix_lengths(flat, starts, lens)
    labels = [np.zeros(1, np.uint8)]
    terminals = [np.zeros(1, bool)]
    heights = [np.array([lens.max() if n else 0], np.int32)]
    parents = [np.zeros(1, np.int64)]
    active = np.arange(n)  # words at least ``depth`` tiles long
    node_of_word = np.zeros(n, np.int64)  # global node id at the previous depth
    offset = 1
    depth = 1
    while True:
        active = active[lens[active] >= depth]
        if not len(active):
            break
        new_run = lcp[active] < depth
        local = np.cumsum(new_run) - 1
        run_first = active[new_run]
        run_starts = np.flatnonzero(new_run)
        labels.append(flat[starts[run_first] + depth - 1])
        terminals.append(lens[run_first] == depth)
        heights.append((np.maximum.reduceat(lens[active], run_starts) - depth).astype(np.int32))
        parents.append(node_of_word[run_first])
        node_of_word = node_of_word.copy()
        node_of_word[active] = local + offset
        offset += len(run_first)
        depth += 1
    label = np.concatenate(labels)
    parent = np.concatenate(parents)
    count = len(label)
    n_children = np.bincount(parent[1:], minlength=count).astype(np.int64)
    first_child = np.searchsorted(parent[1:], np.arange(count), side="left").astype(np.int64) + 1
    return Trie(
        label=label,
        terminal=np.concatenate(terminals),
        height=np.concatenate(heights),
        first_child=first_child,
        n_children=n_children,
    )

