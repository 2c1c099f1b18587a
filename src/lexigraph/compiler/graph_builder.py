"""Word graphs: a trie built level by level with NumPy, minimised into a DAWG.

The builder never creates a Python object per word or per node: the sorted
word list is a ragged array of tile codes, the trie is a handful of parallel
arrays in breadth-first order, and minimisation groups nodes of equal height
by a 64-bit signature that is then verified exactly.

Two kinds of minimal graph come out of one trie:

* ``accept_on_edge=True`` (the lexicon file, Hasbro ``.daw``): a node is its
  list of outgoing arcs, and "a word ends here" is a flag on the arc.
* ``accept_on_edge=False`` (the TWL06 ``dawg32`` table): a node carries its
  own end-of-word flag, written as a ``$`` record in front of its arcs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..buildinfo import c_module
from ..errors import BuildError
from ..engine.wordgraph import MAX_ARCS, pack_records

_MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)


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


# -- the lexicon's own graph: 64-bit arc records (layout in wordgraph.py) ----


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


def lexicon_graph(flat: np.ndarray, starts: np.ndarray, lens: np.ndarray, *,
                  pure_python: bool = False) -> tuple[np.ndarray, int]:
    """The lexicon's word graph of words in strictly increasing code order: ``(records, root)``.

    Runs the C twin (``lexigraph._native``) when it is built, unless
    ``pure_python`` or ``LEXIGRAPH_PURE_PYTHON`` is set; both give the same
    records as :func:`build_trie`, :func:`minimize` and :func:`layout_arcs`.

    >>> flat = np.frombuffer(bytes([1, 2, 1, 2, 3, 2, 3]), np.uint8)
    >>> lens = np.array([2, 3, 2]); starts = np.cumsum(lens) - lens
    >>> records, root = lexicon_graph(flat, starts, lens)
    >>> root, len(records)
    (1, 5)
    >>> pure, pure_root = lexicon_graph(flat, starts, lens, pure_python=True)
    >>> records.tolist() == pure.tolist() and root == pure_root
    True
    """
    data, root = lexicon_graph_bytes(flat, starts, lens, pure_python=pure_python)
    return np.frombuffer(data, "<u8").astype(np.uint64), root


def lexicon_graph_bytes(flat: np.ndarray, starts: np.ndarray, lens: np.ndarray, *,
                        pure_python: bool = False) -> tuple[bytes, int]:
    """:func:`lexicon_graph` with the records as little-endian bytes, as a file stores them (no copy from C).

    >>> flat = np.frombuffer(bytes([1, 2, 1, 3]), np.uint8)
    >>> data, root = lexicon_graph_bytes(flat, np.array([0, 2]), np.array([2, 2]))
    >>> len(data) // 8, root, data == lexicon_graph_bytes(flat, np.array([0, 2]), np.array([2, 2]), pure_python=True)[0]
    (4, 1, True)
    """
    ext = None if pure_python else c_module("_native")
    if ext is not None:
        out = ext.build_graph(np.ascontiguousarray(flat, np.uint8), np.ascontiguousarray(starts, np.int64),
                              np.ascontiguousarray(lens, np.int64), MAX_ARCS)
        if out is not None:  # None: a signature collision, which the NumPy code settles
            data, root = out
            if data is None:
                raise BuildError(f"word graph needs {root:,} arcs; the format holds at most {MAX_ARCS - 1:,}")
            return data, int(root)
    trie = build_trie(flat, starts, lens)
    records, root = layout_arcs(minimize(trie, accept_on_edge=True))
    return records.astype("<u8").tobytes(), root


# -- reading foreign graphs --------------------------------------------------

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
    from ..errors import SourceError

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
