"""KWG: the word graph of wolges (and of Macondo and MAGPIE's tools), read and written.

A KWG file is an array of little-endian 32-bit nodes (wolges's ``Node22``):
bits 24-31 a tile number, bit 23 "a word ends here", bit 22 "last node of its
sibling list", bits 0-21 the index of the first node of the children's list
(0: none). Node 0 points to the DAWG's root list; in a GADDAWG (what wolges's
``buildlex english-kwg`` writes) node 1 points to the GADDAG's. The GADDAG
holds, for every word, its reversal, and for each way to split it into a
non-empty front and back, the reversed front, the separator (tile 0) and an
arc into the DAWG list that continues with the back. Siblings are in tile
order. The file names no alphabet: tile ``t`` is the ``t``-th tile of the
alphabet. For lists of the letters ``a``-``z`` that is wolges's English
alphabet (``A`` = 1 ... ``Z`` = 26, whatever letters the list uses); other
alphabets of single-letter tiles are numbered in their own order
(:func:`file_alphabet`).

:func:`build` lays out the nodes as wolges's ``build::build`` does with its
default layout (lists shared by suffix, the DAWG's nodes first, then the most
used first, packed into 16-node blocks), so that a file written here is the
file wolges writes for the same words. :func:`read_words` reads the DAWG part
(checked against the GADDAG's reversed words when there is one).

>>> data = build([b"\\x03\\x01\\x14", b"\\x01\\x14"])      # CAT, AT
>>> sorted(read_codes(data))
[b'\\x01\\x14', b'\\x03\\x01\\x14']
>>> has_gaddag(data), len(data) % 4
(True, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..errors import SourceError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..alphabet import Alphabet

#: The node fields (wolges's Node22).
TILE_SHIFT = 24
ACCEPTS = 1 << 23
IS_END = 1 << 22
ARC_MASK = (1 << 22) - 1
#: Most nodes a file may hold: the arc field has 22 bits.
MAX_NODES = 1 << 22
#: Highest tile number a file written here may use: wolges marks a blank's tile with bit 7 and keeps bit 6 free.
MAX_TILE = 63
#: Nodes per block of the layout (16 nodes: 64 bytes, a common cache line).
BLOCK = 16
_U32_MAX = 0xFFFFFFFF


class KwgError(SourceError):
    """A KWG file is malformed, or words cannot be written as one."""


# -- reading ----------------------------------------------------------------------------------------


def _nodes(data: bytes, what: str) -> "np.ndarray":
    import numpy as np

    if len(data) < 4 or len(data) % 4:
        raise KwgError(f"{what}: {len(data)} bytes is not a whole number of 4-byte KWG nodes (at least one)")
    if len(data) // 4 > MAX_NODES:
        raise KwgError(f"{what}: {len(data) // 4:,} nodes is more than 22-bit arcs can address")
    nodes: np.ndarray = np.frombuffer(data, "<u4")
    return nodes


def looks_like(data: bytes) -> bool:
    """Node 0 is a root pointer: tile 0, no word, a one-node list, an arc inside the file (DAWG-only files too).

    >>> word = [b"\\x01\\x02"]
    >>> looks_like(build(word)), looks_like(build(word, gaddag=False)), looks_like(b"\\x01\\x00\\x00\\x00")
    (True, True, False)
    """
    if len(data) < 4 or len(data) % 4:
        return False
    node = int.from_bytes(data[:4], "little")
    return node >> 22 == 1 and (node & ARC_MASK) < len(data) // 4


def has_gaddag(data: bytes) -> bool:
    """Whether node 1 is a second root pointer (a GADDAWG), as far as the first nodes tell."""
    if len(data) < 8:
        return False
    node = int.from_bytes(data[4:8], "little")
    # In a DAWG-only file node 1 starts the first real list, whose tiles are never 0.
    return node >> 22 == 1 and (node & ARC_MASK) < len(data) // 4


def _expand_rows(nodes: "np.ndarray", root: int, what: str, *, skip_separator: bool) -> dict[int, "np.ndarray"]:
    """The words of the list at ``root`` (none when 0), one uint8 array of tile numbers per length; with
    ``skip_separator``, paths through tile 0 are left out."""
    import numpy as np

    from ..compiler.graph_builder import expand_words

    if root == 0:
        return {}
    # expand_words skips "letter" 0: shift the tiles by one, so that tile 0 (a blank in a leave) counts
    letter = (nodes >> TILE_SHIFT).astype(np.uint16) + 1
    if skip_separator:
        letter[letter == 1] = 0
    by_length = expand_words(letter, (nodes & ACCEPTS) != 0, (nodes & IS_END) != 0,
                             (nodes & ARC_MASK).astype(np.int64), root, what=what)
    return {length: (rows - 1).astype(np.uint8) for length, rows in by_length.items()}


def _expand(nodes: "np.ndarray", root: int, what: str, *, skip_separator: bool) -> list[bytes]:
    """:func:`_expand_rows` as one bytes object per word."""
    out: list[bytes] = []
    for length, rows in _expand_rows(nodes, root, what, skip_separator=skip_separator).items():
        flat = rows.tobytes()
        out.extend(flat[i : i + length] for i in range(0, len(flat), length))
    return out


def read_code_rows(data: bytes, *, what: str = "KWG file") -> dict[int, "np.ndarray"]:
    """The words of the DAWG part as tile numbers, one 2-D uint8 array per word length (rows unsorted).

    The bulk form of :func:`read_codes` for large graphs (a leave table of
    every leave up to six tiles holds 914,624): no object per word.
    """
    nodes = _nodes(data, what)
    return _expand_rows(nodes, int(nodes[0]) & ARC_MASK, what, skip_separator=False)


def read_codes(data: bytes, *, what: str = "KWG file", check_gaddag: bool = True) -> list[bytes]:
    """The words of the DAWG part, as tile-number strings (unsorted).

    With ``check_gaddag`` and a GADDAG part, its separator-free paths (every
    word reversed) must spell the same words, else :class:`KwgError`.
    """
    nodes = _nodes(data, what)
    words = _expand(nodes, int(nodes[0]) & ARC_MASK, what, skip_separator=False)
    if check_gaddag and has_gaddag(data):
        reversed_words = _expand(nodes, int(nodes[1]) & ARC_MASK, what + " (GADDAG)", skip_separator=True)
        if sorted(w[::-1] for w in reversed_words) != sorted(words):
            raise KwgError(f"{what}: the GADDAG part and the DAWG part hold different words")
    return words


def read_words(data: bytes, alphabet: "Alphabet | None" = None, *, what: str = "KWG file",
               check_gaddag: bool = True) -> list[str]:
    """The words of a KWG file, decoded with ``alphabet`` (default: English, tile ``t`` the ``t``-th letter).

    >>> read_words(build([b"\\x03\\x01\\x14"]))
    ['cat']
    """
    if alphabet is None:
        from ..alphabet import Alphabet

        alphabet = Alphabet.preset("english")
    size = len(alphabet)
    words = read_codes(data, what=what, check_gaddag=check_gaddag)
    labels = [""] + list(alphabet.labels)
    out = []
    for w in words:
        if max(w) > size:
            raise KwgError(f"{what}: tile {max(w)} is beyond the {size} tiles of the {alphabet.name} alphabet")
        out.append("".join(labels[t] for t in w))
    return out


def read(data: bytes, *, what: str = "KWG file") -> list[str]:
    """The words of a KWG file in the English alphabet, as :mod:`lexigraph.compiler.sources` reads word sources."""
    return read_words(data, what=what)


# -- building ---------------------------------------------------------------------------------------


class _States:
    """Nodes of sibling lists shared by suffix: state ``i`` is (tile, accepts, arc, next), state 0 the empty list.

    A list is its first state; ``next`` chains the rest. Two lists that end
    alike share their tail, and a state is made once (looked up by value), so
    states are numbered in the order they were first made: children before
    parents, a list's last sibling before its first.
    """

    def __init__(self) -> None:
        self.tile = [0]
        self.accepts = [0]
        self.arc = [0]
        self.next = [0]
        self.found: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 0}

    def make_list(self, siblings: Sequence[list[int]]) -> int:
        """The state of a list of ``[tile, accepts, arc]`` siblings (in order), made from its last sibling up."""
        head = 0
        found = self.found
        for tile, accepts, arc in reversed(siblings):
            key = (tile, accepts, arc, head)
            state = found.get(key)
            if state is None:
                state = found[key] = len(self.tile)
                self.tile.append(tile)
                self.accepts.append(accepts)
                self.arc.append(arc)
                self.next.append(head)
            head = state
        return head

    def add_words(self, words: Sequence[bytes], dawg_root: int, gaddag: bool) -> int:
        """The root list of a graph of ``words`` (sorted, distinct), built as a trie minimised level by level.

        In the GADDAG phase a word ending with the separator (0) gets no
        children of its own: its separator arc leads into the DAWG (from
        ``dawg_root``), to the list after the word's front.
        """
        pending: list[list[int]] = []  # [tile, accepts, arc] of the open path's lists, flattened
        opened: list[int] = []  # where the children of each open arc start in `pending`
        previous = b""
        for word in words:
            common = 0
            limit = min(len(word), len(opened))
            while common < limit and previous[common] == word[common]:
                common += 1
            for _ in range(len(opened) - common):
                self._close(pending, opened)
            for tile in word[common:]:
                pending.append([tile, 0, 0])
                opened.append(len(pending))
            if gaddag and word[-1] == 0:
                opened.pop()
                pending[-1][2] = self._dawg_list_after(dawg_root, word[-2::-1])
            else:
                pending[-1][1] = 1
            previous = word
        while opened:
            self._close(pending, opened)
        return self.make_list(pending)

    def _close(self, pending: list[list[int]], opened: list[int]) -> None:
        start = opened.pop()
        pending[start - 1][2] = self.make_list(pending[start:])
        del pending[start:]

    def _dawg_list_after(self, root: int, front: bytes) -> int:
        state = root
        for tile in front:
            while self.tile[state] != tile:
                state = self.next[state]
            state = self.arc[state]
        return state


def _gaddag_words(words: Sequence[bytes]) -> list[bytes]:
    """Every GADDAG path of ``words`` (sorted): each word reversed, and each reversed front of two or more
    tiles' prefixes ended by the separator, once for all the words that share it."""
    out: list[bytes] = []
    previous = b""
    for word in words:
        shared = 0
        if previous:
            limit = min(len(word), len(previous) - 1)  # CAR -> CARE still needs RAC@
            while shared < limit and previous[shared] == word[shared]:
                shared += 1
        backwards = word[::-1]
        out.append(backwards)
        fronts = len(word) - shared
        if fronts >= 2:
            marked = backwards + b"\0"
            out.extend(marked[k:] for k in range(1, fronts))
        previous = word
    out.sort()
    return out


class _Layout:
    """Where each state's list goes in the file: wolges's default layout.

    States are placed most-used first (the DAWG's before the GADDAG's); a list
    goes whole into a free run of a 16-node block when it fits (the fullest
    block that has room), else into new blocks (lists over 16 nodes start on
    an even block). A list that is the tail of a longer list is placed with
    that list.
    """

    def __init__(self, states: _States, roots: Sequence[int], dawg_root: int) -> None:
        self.states = states
        count = len(states.tile)
        nxt = states.next
        arc = states.arc
        # The first state of the list each state ends: follow the smallest predecessor, again and again.
        head = list(range(count))
        for p in range(count - 1, 0, -1):
            head[nxt[p]] = p
        for p in range(count - 1, 0, -1):
            head[p] = head[head[p]]
        self.head = head
        to_end = [1] * count
        for p in range(1, count):
            if nxt[p]:
                to_end[p] += to_end[nxt[p]]
        self.to_end = to_end
        ways = [0] * count
        for r in roots:
            ways[r] = 1
        for p in range(count - 1, 0, -1):
            w = ways[p]
            if w:
                for q in (nxt[p], arc[p]):
                    ways[q] = min(ways[q] + w, _U32_MAX)
        order = list(range(1, count))
        if len(roots) > 1:
            in_dawg = [False] * count
            for p in range(1, dawg_root + 1):
                in_dawg[p] = True
            for p in range(dawg_root + 1, count):
                if in_dawg[nxt[p]]:
                    in_dawg[p] = True
            order.sort(key=lambda p: (not in_dawg[p], -ways[p], -to_end[p], p))
        else:
            order.sort(key=lambda p: (-ways[p], -to_end[p], p))
        self.destination = [0] * count
        self.destination[0] = _U32_MAX
        self.block_fill = [len(roots)]  # nodes used in each block; the root pointers open block 0
        self.blocks_by_fill: list[list[int]] = [[] for _ in range(BLOCK)]
        self.blocks_by_fill[len(roots)].append(0)
        for p in order:
            self._place(p)
        self.destination[0] = 0
        self.size = ((len(self.block_fill) - 1) * BLOCK) + self.block_fill[-1]

    def _place(self, p: int) -> None:
        # Iterative twin of a depth-first placement: a list, then the lists its arcs lead to, then its slots.
        stack: list[tuple[int, int, int, int]] = []  # (list state, chain cursor, first slot, length)
        start = self._reserve(p)
        if start is None:
            return
        stack.append(start)
        arc, nxt, dest = self.states.arc, self.states.next, self.destination
        while stack:
            first, cursor, slot, length = stack[-1]
            if cursor:
                target = arc[cursor]
                stack[-1] = (first, nxt[cursor], slot, length)
                if target:
                    child = self._reserve(target)
                    if child is not None:
                        stack.append(child)
                continue
            stack.pop()
            write = first
            dest[write] = 0
            for offset in range(length):
                if dest[write] != 0:
                    break
                dest[write] = slot + offset
                write = nxt[write]

    def _reserve(self, p: int) -> tuple[int, int, int, int] | None:
        p = self.head[p]
        if self.destination[p] != 0:
            return None
        self.destination[p] = _U32_MAX  # in progress
        length = self.to_end[p]
        fill, by_fill = self.block_fill, self.blocks_by_fill
        blocks = len(fill)
        if length > BLOCK:
            if blocks & 1:  # start long lists on an even block
                by_fill[0].append(blocks)
                fill.append(0)
                blocks += 1
            slot = blocks * BLOCK
            rest = length
            while rest > BLOCK:
                fill.append(BLOCK)
                rest -= BLOCK
            if rest < BLOCK:
                by_fill[rest].append(len(fill))
            fill.append(rest)
        else:
            used = BLOCK - length  # the fullest block the list fits in first
            while True:
                if by_fill[used]:
                    block = by_fill[used].pop()
                    slot = block * BLOCK + used
                    used += length
                    if used < BLOCK:
                        by_fill[used].append(block)
                    fill[block] = used
                    break
                if used == 0:
                    slot = blocks * BLOCK
                    if length < BLOCK:
                        by_fill[length].append(blocks)
                    fill.append(length)
                    break
                used -= 1
        return (p, p, slot, length)


def _node_words(states: _States, destination: list[int], p: int) -> Iterable[int]:
    tile, accepts, arc, nxt = states.tile, states.accepts, states.arc, states.next
    while True:
        q = nxt[p]
        yield destination[arc[p]] | (IS_END if q == 0 else 0) | (ACCEPTS if accepts[p] else 0) | (tile[p] << TILE_SHIFT)
        if q == 0:
            return
        p = q


def build(words: Iterable[bytes], *, gaddag: bool = True) -> bytes:
    """A KWG file of ``words`` (tile-number strings, tiles 1 to 63), with a GADDAG part unless ``gaddag=False``.

    The nodes come out as wolges lays them out (see :class:`_Layout`).
    """
    distinct = sorted(set(words))
    for w in distinct:
        if not w:
            raise KwgError("a KWG file cannot hold the empty word")
        if min(w) < 1 or max(w) > MAX_TILE:
            bad = min(w) if min(w) < 1 else max(w)
            raise KwgError(f"a KWG file holds tiles 1 to {MAX_TILE}; a word uses tile {bad}")
    return layout(distinct, gaddag=gaddag)


def layout(words: Sequence[bytes], *, gaddag: bool) -> bytes:
    """The nodes of the graph of ``words`` (sorted, distinct, non-empty; any tile numbers below 64), as bytes."""
    import numpy as np

    states = _States()
    dawg_root = states.add_words(words, 0, False)
    roots = [dawg_root]
    if gaddag:
        roots.append(states.add_words(_gaddag_words(words), dawg_root, True))
    placed = _Layout(states, roots, dawg_root)
    if placed.size > MAX_NODES:
        raise KwgError(f"the word graph needs {placed.size:,} nodes; a KWG file holds at most {MAX_NODES:,}")
    out = np.zeros(placed.size, np.uint32)
    dest = placed.destination
    for k, root in enumerate(roots):
        out[k] = dest[root] | IS_END
    written = bytearray(placed.size)
    for p in range(1, len(states.tile)):
        at = dest[p]
        if at == 0 or written[at]:
            continue  # a list's tail is written with the list (the same nodes either way)
        chain = list(_node_words(states, dest, p))
        out[at : at + len(chain)] = chain
        written[at : at + len(chain)] = b"\1" * len(chain)
    return out.astype("<u4").tobytes()


def build_words(words: Iterable[str], alphabet: "Alphabet", *, gaddag: bool = True) -> bytes:
    """A KWG file of ``words`` (text, split into the alphabet's tiles). Multi-letter tiles are refused.

    >>> from lexigraph.alphabet import Alphabet
    >>> read_words(build_words(["zoo", "zoa"], Alphabet.preset("english")))
    ['zoa', 'zoo']
    """
    check_alphabet(alphabet)
    numbering = file_alphabet(alphabet)
    codes = []
    for w in words:
        encoded = numbering.encode(w)
        if encoded is None:
            raise KwgError(f"{w!r} does not fit the {alphabet.name} alphabet")
        codes.append(encoded)
    return build(codes, gaddag=gaddag)


def file_alphabet(alphabet: "Alphabet") -> "Alphabet":
    """The alphabet whose tile numbers a KWG (or KLV) file uses for words of ``alphabet``: English when every tile
    is one of the letters a-z (as wolges and the engines around it number them), else ``alphabet`` itself.

    >>> from lexigraph.alphabet import Alphabet
    >>> file_alphabet(Alphabet.from_letters("zoa")).name, len(file_alphabet(Alphabet.from_letters("zoa")))
    ('english', 26)
    """
    from ..alphabet import Alphabet

    if all(len(label) == 1 and "a" <= label <= "z" for label in alphabet.labels):
        return Alphabet.preset("english")
    return alphabet


def check_alphabet(alphabet: "Alphabet") -> None:
    """Refuse alphabets a KWG file cannot carry unambiguously: multi-letter tiles, more than 63 tiles."""
    multi = [label for label in alphabet.labels if len(label) != 1]
    if multi:
        raise KwgError(f"a KWG file holds tile numbers, which other programs read as the single letters of their "
                       f"own alphabet; this lexicon has multi-letter tiles ({', '.join(t.upper() for t in multi[:5])})")
    if len(alphabet) > MAX_TILE:
        raise KwgError(f"a KWG file holds at most {MAX_TILE} tiles; the {alphabet.name} alphabet has {len(alphabet)}")


__all__ = ["KwgError", "build", "build_words", "check_alphabet", "file_alphabet", "has_gaddag", "looks_like", "read",
           "read_codes", "read_words"]
