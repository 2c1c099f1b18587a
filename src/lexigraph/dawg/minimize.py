"""Minimisation: trie nodes grouped by their right languages into a minimal graph (a DAWG).

Nodes of equal height are grouped bottom-up by a 64-bit signature of their
arcs (each arc's label, target class and, in ``accept_on_edge`` mode, its
end-of-word flag, mixed by splitmix64), and every group is then verified
exactly against its representative; a signature collision falls back to
exact grouping.

Two kinds of minimal graph come out of one trie:

* ``accept_on_edge=True`` (the lexicon file, Hasbro ``.daw``, KWG): a node is its
  list of outgoing arcs, and "a word ends here" is a flag on the arc.
* ``accept_on_edge=False`` (the TWL06 ``dawg32`` table): a node carries its
  own end-of-word flag, written as a ``$`` record in front of its arcs.

>>> from .trie import build_trie
>>> flat = np.frombuffer(bytes([1, 3, 2, 3]), np.uint8)   # two words: "ac" and "bc"
>>> lens = np.array([2, 2]); graph = minimize(build_trie(flat, np.array([0, 2]), lens), accept_on_edge=True)
>>> graph.n_classes, graph.arc_count()    # the two "c" arcs share one list
(3, 3)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .trie import Trie


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser: spreads structured keys over 64 bits."""
    x = x.astype(np.uint64, copy=True)
    with np.errstate(over="ignore"):
        x ^= x >> np.uint64(30)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(27)
        x *= np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(31)
    return x


@dataclass(frozen=True)
class MinimalGraph:
    """Equivalence classes of trie nodes.

    ``node_class[v]`` is the class of trie node ``v``; ``representative[k]``
    a trie node of class ``k``. Class 0 is the empty arc list in
    ``accept_on_edge`` mode (a node with no children).
    """

    trie: Trie
    node_class: np.ndarray
    representative: np.ndarray
    accept_on_edge: bool

    @property
    def n_classes(self) -> int:
        return len(self.representative)

    def arc_count(self) -> int:
        """Arcs over all distinct nodes (without list sharing)."""
        return int(self.trie.n_children[self.representative].sum())


def minimize(trie: Trie, *, accept_on_edge: bool) -> MinimalGraph:
    """Group trie nodes with equal right languages (bottom-up by height)."""
    size = trie.size
    node_class = np.full(size, -1, np.int64)
    # Children always sit after their parent in BFS order, so every node's
    # child arcs are the slice first_child..first_child+n_children.
    leaves = trie.n_children == 0
    representatives: list[np.ndarray] = []
    if accept_on_edge:
        node_class[leaves] = 0
        representatives.append(np.flatnonzero(leaves)[:1])
        if not leaves.any():
            representatives[-1] = np.zeros(1, np.int64)
    else:
        # a leaf always ends a word: one class
        node_class[leaves] = 0
        representatives.append(np.flatnonzero(leaves)[:1] if leaves.any() else np.zeros(1, np.int64))
    n_classes = 1
    order = np.argsort(trie.height, kind="stable")
    heights_sorted = trie.height[order]
    bounds = np.searchsorted(heights_sorted, np.arange(heights_sorted.max() + 2 if size else 1))
    child_term = trie.terminal.astype(np.int64)
    for h in range(1, len(bounds) - 1):
        nodes = order[bounds[h] : bounds[h + 1]]
        if not len(nodes):
            continue
        deg = trie.n_children[nodes]
        first = trie.first_child[nodes]
        # arcs of this height level, grouped by node
        arc_owner = np.repeat(np.arange(len(nodes)), deg)
        arc_pos = np.arange(deg.sum()) - np.repeat(np.cumsum(deg) - deg, deg)
        arcs = np.repeat(first, deg) + arc_pos
        key = trie.label[arcs].astype(np.int64) << np.int64(40)
        key |= node_class[arcs] << np.int64(1)
        if accept_on_edge:
            key |= child_term[arcs]
        mixed = _mix(key.view(np.uint64) ^ (arc_pos.astype(np.uint64) << np.uint64(58)))
        sig = np.zeros(len(nodes), np.uint64)
        with np.errstate(over="ignore"):
            np.add.at(sig, arc_owner, mixed)
            sig += _mix(deg.astype(np.uint64))
            if not accept_on_edge:
                sig ^= trie.terminal[nodes].astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        uniq, first_idx, inverse = np.unique(sig, return_index=True, return_inverse=True)
        rep_local = first_idx[inverse]  # representative (local index) of each node
        if not _signatures_exact(trie, nodes, rep_local, deg, arc_owner, arcs, key, accept_on_edge):
            rep_local = _exact_groups(trie, nodes, key, deg, accept_on_edge)
            uniq_reps = np.unique(rep_local)
            remap = np.full(len(nodes), -1, np.int64)
            remap[uniq_reps] = np.arange(len(uniq_reps))
            inverse = remap[rep_local]
            first_idx = uniq_reps
        node_class[nodes] = n_classes + inverse
        representatives.append(nodes[first_idx])
        n_classes += len(first_idx)
    return MinimalGraph(trie, node_class, np.concatenate(representatives), accept_on_edge)


def _signatures_exact(trie: Trie, nodes: np.ndarray, rep_local: np.ndarray, deg: np.ndarray, arc_owner: np.ndarray,
                      arcs: np.ndarray, key: np.ndarray, accept_on_edge: bool) -> bool:
    """Check that every node equals its group's representative arc by arc."""
    if not np.array_equal(deg, deg[rep_local]):
        return False
    if not accept_on_edge and not np.array_equal(trie.terminal[nodes], trie.terminal[nodes[rep_local]]):
        return False
    starts = np.cumsum(deg) - deg
    rep_arc = starts[rep_local][arc_owner] + (np.arange(len(arcs)) - starts[arc_owner])
    return bool(np.array_equal(key, key[rep_arc]))


def _exact_groups(trie: Trie, nodes: np.ndarray, key: np.ndarray, deg: np.ndarray,
                  accept_on_edge: bool) -> np.ndarray:  # pragma: no cover - 64-bit collision
    seen: dict[tuple[object, ...], int] = {}
    out = np.empty(len(nodes), np.int64)
    pos = 0
    for i, d in enumerate(deg.tolist()):
        sig = (bool(trie.terminal[nodes[i]]) if not accept_on_edge else None, tuple(key[pos : pos + d].tolist()))
        pos += d
        out[i] = seen.setdefault(sig, i)
    return out

