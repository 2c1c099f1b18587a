"""The lexicon file's word graph: a trie minimised into a DAWG (:mod:`lexigraph.dawg`), laid out as 64-bit arc
records (the layout is :mod:`lexigraph.engine.wordgraph`'s), in C when the build runs with it.

A list of arcs that is a suffix of another list is stored once, inside it
(:func:`layout_arcs`); hosts are laid out in breadth-first order of their
nodes, so that the top of the graph, which every walk reads, stays together.
This is the NumPy twin of ``native/build_graph.c``; the build chooses which
runs (:class:`lexigraph.compiler.kernels.BuildKernels`).
"""

from __future__ import annotations

import numpy as np

from ..dawg import MinimalGraph, build_trie, minimize
from ..errors import BuildError
from ..engine.wordgraph import MAX_ARCS, pack_records


def layout_arcs(graph: MinimalGraph) -> tuple[np.ndarray, int]:
    """Lay out an accept-on-edge graph as arc records (see :mod:`lexigraph.engine.wordgraph`).

    Record 0 is a null sentinel. A list of arcs that is a suffix of another
    list is stored once, inside it. Returns ``(records, root_index)``.
    """
    assert graph.accept_on_edge
    trie = graph.trie
    reps = graph.representative
    deg = trie.n_children[reps]
    node_class = graph.node_class
    first = trie.first_child
    arc_keys = (trie.label.astype(np.int64) << 33) | (trie.terminal.astype(np.int64) << 32) | node_class
    lists = np.flatnonzero(deg > 0)
    hosts, host_of, shift = _suffix_hosts(arc_keys, first[reps[lists]], deg[lists])
    # Hosts in breadth-first order of their nodes: the top of the graph, which every walk reads, stays together.
    hosts = hosts[np.argsort(reps[lists[hosts]], kind="stable")]
    host_deg = deg[lists[hosts]]
    host_start = np.zeros(len(lists), np.int64)
    host_start[hosts] = 1 + np.cumsum(host_deg) - host_deg
    start_of_class = np.zeros(len(reps), np.int64)
    start_of_class[lists] = host_start[host_of] + shift
    total = 1 + int(host_deg.sum())
    base = np.repeat(first[reps[lists[hosts]]] - (np.cumsum(host_deg) - host_deg), host_deg)
    arcs = base + np.arange(total - 1)
    if total > MAX_ARCS:
        raise BuildError(f"word graph needs {total:,} arcs; the format holds at most {MAX_ARCS - 1:,}")
    records = np.zeros(total, np.uint64)
    if len(arcs):
        # an arc is last when it is the last child of its parent in the trie
        parent_end = np.zeros(trie.size + 1, bool)
        parent_end[(trie.first_child + trie.n_children - 1)[trie.n_children > 0]] = True
        records[1:] = pack_records(trie.label[arcs], trie.terminal[arcs], parent_end[arcs],
                                   start_of_class[node_class[arcs]])
    root = int(start_of_class[node_class[0]]) if trie.n_children[0] else 0
    return records, root


def _suffix_hosts(keys: np.ndarray, starts: np.ndarray, degs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which lists are stored inside which: ``(hosts, host_of, shift)``.

    List ``i`` is ``keys[starts[i] : starts[i] + degs[i]]``. A list that is a
    suffix of another is a prefix of it read backwards; sorted backwards, a
    list is a prefix of some other exactly when it is one of the list right
    after it, so following "is a prefix of the next" to the end of each
    chain finds a host that holds it. ``host_of[i]`` is that host and
    ``shift[i]`` where list ``i`` starts inside it.

    >>> keys = np.array([1, 2, 3, 2, 3, 9, 3])
    >>> _suffix_hosts(keys, np.array([0, 3, 5, 6]), np.array([3, 2, 1, 1]))
    (array([0, 2]), array([0, 0, 2, 0]), array([0, 1, 0, 2]))
    """
    n = len(starts)
    if not n:
        empty = np.zeros(0, np.int64)
        return empty, empty, empty
    width = int(degs.max())
    backwards = np.full((n, width), -1, np.int64)
    pos = np.arange(width)
    inside = pos[None, :] < degs[:, None]
    backwards[inside] = keys[(starts + degs - 1)[:, None] - pos[None, :]][inside]
    order = np.lexsort(backwards.T[::-1])
    ranked = backwards[order]
    d = degs[order]
    # a list is a prefix of the next one when every one of its own columns agrees
    agree = (ranked[:-1] == ranked[1:]) | ~inside[order][:-1]
    prefix_of_next = np.append(agree.all(axis=1) & (d[:-1] < d[1:]), False)
    # the host of a run of "prefix of the next" is the first list after it that is not
    not_prefix = np.flatnonzero(~prefix_of_next)
    host_rank = not_prefix[np.searchsorted(not_prefix, np.arange(n))]
    host_of = np.empty(n, np.int64)
    host_of[order] = order[host_rank]
    shift = degs[host_of] - degs
    return np.flatnonzero(host_of == np.arange(n)), host_of, shift


def lexicon_graph_numpy(flat: np.ndarray, starts: np.ndarray, lens: np.ndarray) -> tuple[bytes, int]:
    """The lexicon's word graph of words in strictly increasing code order, in NumPy: its arc records as a file
    stores them (little-endian bytes), and the root. (The C twin is ``native/build_graph.c``; the build chooses,
    :mod:`.kernels`.)

    >>> flat = np.frombuffer(bytes([1, 2, 1, 2, 3, 2, 3]), np.uint8)
    >>> lens = np.array([2, 3, 2]); starts = np.cumsum(lens) - lens
    >>> data, root = lexicon_graph_numpy(flat, starts, lens)
    >>> root, len(data) // 8
    (1, 5)
    """
    records, root = layout_arcs(minimize(build_trie(flat, starts, lens), accept_on_edge=True))
    return records.astype("<u8").tobytes(), root
