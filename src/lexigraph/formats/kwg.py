"""KWG: the word graph of wolges (and of Macondo and MAGPIE's tools), read and written.

A KWG file is an array of little-endian 32-bit nodes (wolges's ``Node22``):
bits 24-31 a tile number, bit 23 "a word ends here", bit 22 "last node of its
sibling list", bits 0-21 the index of the first node of the children's list
(0: none). Node 0 points to the DAWG's root list; in a GADDAWG (what wolges's
``buildlex english-kwg`` writes) node 1 points to the GADDAG's. The GADDAG
holds, for every word, its reversal, and for each way to split it into a
non-empty front and back, the reversed front, the separator (tile 0) and an
arc into the DAWG list that continues with the back. Siblings are in tile
order.

**Alphabets.** The format names no alphabet: tile ``t`` is the ``t``-th tile
of whatever alphabet the reader has in mind, and wolges, Macondo and MAGPIE
choose it from the lexicon's name (``CSW21`` English, ``FILE2017`` Spanish,
``DISC2`` Catalan). lexigraph numbers the tiles of a list of the letters
``a``-``z`` as wolges's English (``A`` = 1 ... ``Z`` = 26, whatever letters the
list uses; French too, whose tiles are the same), and any other alphabet in
its own order (:func:`file_alphabet`; for the Spanish and Catalan presets that
is wolges's order). A file numbered in another alphabet than English
**carries a tile table**: after the graph, nodes that no path reaches (each a
one-node list without a word or an arc, a valid node for any reader) spell
the alphabet, so that the file reads back in its own alphabet
(:func:`tile_table`). An English file carries none and is byte for byte the
file wolges writes. Reading (:func:`read`) takes the alphabet from the tile
table; else from ``alphabet`` (``--alphabet``); else from the file's name as
MAGPIE and Macondo do (:data:`NAMED_ALPHABETS`); else English, and a tile
beyond ``Z`` is an error that asks for ``--alphabet``.

:func:`layout` lays out the nodes as wolges's ``build::build`` does with its
default layout (lists shared by suffix, the DAWG's nodes first, then the most
used first, packed into 16-node blocks), so that a file written here is the
file wolges writes for the same words. It runs in C (``lexigraph._native``'s
``kwg_layout``) when it is built, unless ``pure_python`` or
``LEXIGRAPH_PURE_PYTHON`` is set; both give the same bytes.
:func:`read_words` reads the DAWG part (checked against the GADDAG's reversed
words when there is one).

>>> data = build([b"\\x03\\x01\\x14", b"\\x01\\x14"])      # CAT, AT
>>> sorted(read_codes(data))
[b'\\x01\\x14', b'\\x03\\x01\\x14']
>>> has_gaddag(data), len(data) % 4
(True, 0)
>>> build([b"\\x03\\x01\\x14"], pure_python=True) == build([b"\\x03\\x01\\x14"])
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..alphabet import Alphabet
from ..buildinfo import c_module
from ..dawg import expand_words
from ..errors import AlphabetError, SourceError
from ..support.text import quote

#: The node fields (wolges's Node22).
TILE_SHIFT = 24
ACCEPTS = 1 << 23
IS_END = 1 << 22
ARC_MASK = (1 << 22) - 1
#: Most nodes a file may hold: the arc field has 22 bits.
MAX_NODES = 1 << 22
#: Highest tile number a file written here may use: wolges marks a blank's tile with bit 7 and keeps bit 6 free.
MAX_TILE = 63
#: Longest word a file written here holds, in tiles (a lexicon's longest).
MAX_WORD = 255
#: Nodes per block of the layout (16 nodes: 64 bytes, a common cache line).
BLOCK = 16
_U32_MAX = 0xFFFFFFFF

#: The lexicon names whose alphabet wolges, Macondo and MAGPIE know from the name (its start, any case):
#: a preset of lexigraph's, or the language lexigraph has no preset for (None: reading one needs --alphabet).
NAMED_ALPHABETS: dict[str, tuple[str, str | None]] = {
    "CSW": ("English", "english"), "NWL": ("English", "english"), "TWL": ("English", "english"),
    "OSPD": ("English", "english"), "OSW": ("English", "english"), "CEL": ("English", "english"),
    "ECWL": ("English", "english"), "AMERICA": ("English", "english"),
    "FRA": ("French", "french"), "FILE": ("Spanish", "spanish"), "DISC": ("Catalan", "catalan"),
    "RD": ("German", None), "NSF": ("Norwegian", None), "OSPS": ("Polish", None), "DSW": ("Dutch", None),
}

# The tile table: nodes after the graph that spell the alphabet (see tile_table). Each is a one-node list
# with no word and no arc, its tile a value below 64: a payload nibble (0x20 | 4 bits), or the signature.
_TABLE_SIGNATURE = (0x3C, 0x31, 0x3A, 0x33, 0x3E, 0x35, 0x38, 0x37)
_NIBBLE = 0x20
_LENGTH_NODES = 4  # the payload's byte count, 16 bits, most significant nibble first
_MAX_TABLE_BYTES = (1 << 16) - 1


class KwgError(SourceError):
    """A KWG file is malformed, or words cannot be written as one."""


# -- reading ----------------------------------------------------------------------------------------


def _nodes(data: bytes, what: str) -> "np.ndarray":
    """The file's nodes, the tile table (if any) left out."""
    if len(data) < 4 or len(data) % 4:
        raise KwgError(f"{what}: {len(data)} bytes is not a whole number of 4-byte KWG nodes (at least one)")
    if len(data) // 4 > MAX_NODES:
        raise KwgError(f"{what}: {len(data) // 4:,} nodes is more than 22-bit arcs can address")
    nodes: np.ndarray = np.frombuffer(data, "<u4")
    return nodes[: len(nodes) - _table_span(nodes, what)[0]]


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


def read_words(data: bytes, alphabet: Alphabet | None = None, *, what: str = "KWG file",
               check_gaddag: bool = True) -> list[str]:
    """The words of a KWG file as text: in the alphabet its tile table names, else in ``alphabet``'s numbering
    (:func:`file_alphabet`; default English, tile ``t`` the ``t``-th letter).

    >>> read_words(build([b"\\x03\\x01\\x14"]))
    ['cat']
    """
    numbering = tile_table(data, what=what)
    if numbering is None:
        numbering = file_alphabet(alphabet) if alphabet is not None else Alphabet.preset("english")
    return _decode(read_codes(data, what=what, check_gaddag=check_gaddag), numbering, what, hint=False)


def _decode(words: list[bytes], numbering: Alphabet, what: str, *, hint: bool) -> list[str]:
    size = len(numbering)
    top = max((max(w) for w in words), default=0)
    if top > size:
        advice = ("; the file numbers the tiles of another alphabet: give it (--alphabet, a preset or an "
                  "alphabet file listing its tiles in the file's order)") if hint else ""
        raise KwgError(f"{what}: tile {top} is beyond the {size} tiles of the {numbering.name} alphabet{advice}")
    labels = [""] + list(numbering.labels)
    return ["".join(labels[t] for t in w) for w in words]


def alphabet_of_name(name: str) -> tuple[str, str | None] | None:
    """The language and the preset (None: lexigraph has none) of a lexicon named as wolges, Macondo and MAGPIE
    name them (the start of the file's name); None when the name says nothing.

    >>> alphabet_of_name("lexica/FILE2017.kwg"), alphabet_of_name("RD28.kwg"), alphabet_of_name("words.kwg")
    (('Spanish', 'spanish'), ('German', None), None)
    """
    stem = os.path.basename(name).upper()
    for prefix in sorted(NAMED_ALPHABETS, key=len, reverse=True):
        if stem.startswith(prefix):
            return NAMED_ALPHABETS[prefix]
    return None


def read(data: bytes, *, what: str = "KWG file", alphabet: Alphabet | None = None) -> tuple[list[str], Alphabet | None]:
    """The words of a KWG file as text, and the alphabet they are in when the file says (else None): the
    alphabet of its tile table; else, with ``alphabet`` (``--alphabet``), the words in its numbering; else the
    alphabet its name (``what``) gives (:func:`alphabet_of_name`); else English.

    A name of a language lexigraph has no preset for, or an English read that meets a tile beyond ``Z``,
    is a :class:`KwgError` that asks for ``--alphabet``.

    >>> es = Alphabet.preset("spanish")
    >>> words, alpha = read(build_words(["chocho", "año"], es))
    >>> sorted(words), alpha.name
    (['año', 'chocho'], 'spanish')
    """
    carried = tile_table(data, what=what)
    if carried is not None:
        return _decode(read_codes(data, what=what), carried, what, hint=False), carried
    if alphabet is not None:
        return _decode(read_codes(data, what=what), file_alphabet(alphabet), what, hint=False), None
    named = alphabet_of_name(what)
    if named is not None and named[1] is None:
        raise KwgError(f"{what} names a {named[0]} lexicon, whose tiles lexigraph has no preset for: give an alphabet "
                       "file listing them in the file's order (--alphabet FILE)")
    preset = Alphabet.preset(named[1]) if named is not None and named[1] is not None else None
    if preset is None or english_numbered(preset):  # English numbers, and the list's own letters as tiles
        return _decode(read_codes(data, what=what), Alphabet.preset("english"), what, hint=True), None
    return _decode(read_codes(data, what=what), preset, what, hint=True), preset


# -- the tile table ---------------------------------------------------------------------------------


def _table_span(nodes: "np.ndarray", what: str) -> tuple[int, int]:
    """(nodes the tile table takes at the end of ``nodes``, its payload bytes); (0, 0) when there is none."""
    tail = len(_TABLE_SIGNATURE) + _LENGTH_NODES
    if len(nodes) < tail + 1:
        return 0, 0
    signature = np.array([(v << TILE_SHIFT) | IS_END for v in _TABLE_SIGNATURE], np.uint32)
    if not np.array_equal(nodes[-len(_TABLE_SIGNATURE):], signature):
        return 0, 0
    length = 0
    for node in nodes[-tail : -len(_TABLE_SIGNATURE)].tolist():
        length = length << 4 | _nibble(node, what)
    span = tail + 2 * length
    if span >= len(nodes):
        raise KwgError(f"{what}: the tile table says it holds {length:,} bytes, more than the file has")
    return span, length


def _nibble(node: int, what: str) -> int:
    value = node >> TILE_SHIFT
    if node & ((1 << TILE_SHIFT) - 1) != IS_END or value & ~0xF != _NIBBLE:
        raise KwgError(f"{what}: the tile table holds a node that is not one of its own (0x{node:08x})")
    return int(value & 0xF)


def tile_table(data: bytes, *, what: str = "KWG file") -> Alphabet | None:
    """The alphabet a file's tile table names, or None when the file has none (an English-numbered file).

    The table is the last nodes of the file, after the graph: the alphabet as
    compact JSON (:meth:`Alphabet.to_dict`, UTF-8), two nodes a byte (4 bits
    each, tile ``0x20 | bits``), then the byte count in four such nodes, then
    eight signature nodes (tiles ``0x3C 0x31 0x3A 0x33 0x3E 0x35 0x38 0x37``).
    Every one is a node with no word and no arc that ends its list, which no
    path reaches: wolges and MAGPIE read the graph as if it were not there.

    >>> tile_table(build_words(["año"], Alphabet.from_letters("año"))).labels
    ('a', 'o', 'ñ')
    >>> tile_table(build_words(["cat"], Alphabet.preset("english"))) is None
    True
    """
    if len(data) < 4 or len(data) % 4:
        return None
    nodes = np.frombuffer(data, "<u4")
    span, length = _table_span(nodes, what)
    if not span:
        return None
    payload = nodes[len(nodes) - span : len(nodes) - span + 2 * length].tolist()
    nibbles = [_nibble(node, what) for node in payload]
    text = bytes(hi << 4 | lo for hi, lo in zip(nibbles[::2], nibbles[1::2]))
    try:
        fields = json.loads(text.decode("utf-8"))
        table = Alphabet.from_dict(fields, origin=f"{what}: its tile table", strict=True)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise KwgError(f"{what}: the tile table is not an alphabet ({type(e).__name__})") from None
    except AlphabetError as e:
        raise KwgError(str(e)) from None
    if len(table) > MAX_TILE:
        raise KwgError(f"{what}: the tile table names {len(table)} tiles; a KWG file holds at most {MAX_TILE}")
    return table


def with_tile_table(nodes: bytes, alphabet: Alphabet) -> bytes:
    """``nodes`` (a graph) followed by the tile table of ``alphabet`` (see :func:`tile_table`)."""
    text = json.dumps(alphabet.to_dict(), ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
    if len(text) > _MAX_TABLE_BYTES:
        raise KwgError(f"the {alphabet.name} alphabet takes {len(text):,} bytes; a KWG tile table holds at most "
                       f"{_MAX_TABLE_BYTES:,}")
    values = [_NIBBLE | b >> 4 if half == 0 else _NIBBLE | b & 0xF for b in text for half in (0, 1)]
    values += [_NIBBLE | (len(text) >> shift) & 0xF for shift in (12, 8, 4, 0)]
    values += _TABLE_SIGNATURE
    if len(nodes) // 4 + len(values) > MAX_NODES:
        raise KwgError(f"the word graph and its tile table need more than {MAX_NODES:,} nodes")
    return nodes + b"".join(((v << TILE_SHIFT) | IS_END).to_bytes(4, "little") for v in values)


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
        self.after: dict[bytes, int] = {}

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
        self.after = {b"": dawg_root}
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
                pending[-1][2] = self._dawg_list_after(word[-2::-1])
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

    def _dawg_list_after(self, front: bytes) -> int:
        """The DAWG list after ``front``, remembered per front: the fronts of one word share their starts."""
        after = self.after
        state = after.get(front)
        if state is not None:
            return state
        known = len(front) - 1
        while front[:known] not in after:
            known -= 1
        state = after[front[:known]]
        for k in range(known, len(front)):
            tile = front[k]
            while self.tile[state] != tile:
                state = self.next[state]
            state = self.arc[state]
            after[front[: k + 1]] = state
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
        # Placed in the order (outside the DAWG, fewer ways, shorter list, state): one stable NumPy sort.
        states_ = np.arange(1, count, dtype=np.int64)
        keys = [states_, -np.array(to_end[1:], np.int64), -np.array(ways[1:], np.int64)]
        if len(roots) > 1:
            in_dawg = [False] * count
            for p in range(1, dawg_root + 1):
                in_dawg[p] = True
            for p in range(dawg_root + 1, count):
                if in_dawg[nxt[p]]:
                    in_dawg[p] = True
            keys.append(~np.array(in_dawg[1:], bool))
        order = states_[np.lexsort(keys)].tolist() if count > 1 else []
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


def _write_nodes(states: _States, placed: _Layout, roots: Sequence[int]) -> bytes:
    """The file's nodes: the root pointers, then every list written whole at its place.

    A list whose tail was placed with another list is written with its tail
    again (the same nodes). Writing every state's chain from its own place
    gives exactly those nodes: a slot is either a state's own, written with
    that state by every chain through it, or a copy of a tail, which only the
    chains of its list reach. One NumPy pass per step along the chains.
    """
    tile = np.array(states.tile, np.uint32)
    nxt = np.array(states.next, np.int64)
    dest = np.array(placed.destination, np.int64)
    word = (dest[np.array(states.arc, np.int64)].astype(np.uint32) | np.where(nxt == 0, IS_END, 0).astype(np.uint32)
            | np.where(np.array(states.accepts) != 0, ACCEPTS, 0).astype(np.uint32) | tile << TILE_SHIFT)
    out = np.zeros(placed.size, np.uint32)
    live = np.arange(1, len(tile), dtype=np.int64)
    live = live[dest[live] != 0]
    at = dest[live]
    while len(live):
        out[at] = word[live]
        more = nxt[live] != 0
        live, at = nxt[live[more]], at[more] + 1
    for k, root in enumerate(roots):
        out[k] = placed.destination[root] | IS_END
    return out.astype("<u4").tobytes()


def _too_many_nodes() -> KwgError:
    return KwgError(f"the word graph needs more nodes than a KWG file holds ({MAX_NODES:,})")


def _layout_python(words: Sequence[bytes], gaddag: bool) -> bytes:
    states = _States()
    dawg_root = states.add_words(words, 0, False)
    roots = [dawg_root]
    if gaddag:
        roots.append(states.add_words(_gaddag_words(words), dawg_root, True))
    if len(states.tile) - 1 > MAX_NODES:  # every state takes a node of its own
        raise _too_many_nodes()
    placed = _Layout(states, roots, dawg_root)
    if placed.size > MAX_NODES:
        raise _too_many_nodes()
    return _write_nodes(states, placed, roots)


def _check_words(words: Sequence[bytes], gaddag: bool) -> None:
    low = 1 if gaddag else 0
    for w in words:
        if not w:
            raise KwgError("a KWG file cannot hold the empty word")
        if len(w) > MAX_WORD:
            raise KwgError(f"a KWG file written here holds words of at most {MAX_WORD} tiles, not {len(w)}")
        if min(w) < low or max(w) > MAX_TILE:
            bad = min(w) if min(w) < low else max(w)
            raise KwgError(f"a KWG file holds tiles {low} to {MAX_TILE}; a word uses tile {bad}")


def build(words: Iterable[bytes], *, gaddag: bool = True, pure_python: bool = False) -> bytes:
    """A KWG file of ``words`` (tile-number strings, tiles 1 to 63), with a GADDAG part unless ``gaddag=False``.

    The nodes come out as wolges lays them out (see :class:`_Layout`).
    """
    distinct = sorted(set(words))
    _check_words(distinct, True)
    return layout(distinct, gaddag=gaddag, pure_python=pure_python)


def layout(words: Sequence[bytes], *, gaddag: bool, pure_python: bool = False) -> bytes:
    """The nodes of the graph of ``words`` (sorted, distinct, non-empty, at most :data:`MAX_WORD` tiles; tile
    numbers below 64, from 1 with a GADDAG), as bytes: in C unless ``pure_python`` (the same bytes)."""
    _check_words(words, gaddag)
    ext = None if pure_python else c_module("_native")
    if ext is None:
        return _layout_python(words, gaddag)
    lens = np.fromiter(map(len, words), np.int64, len(words))
    return _layout_c(ext, b"".join(words), lens, gaddag)


def _layout_c(ext: Any, flat: bytes, lens: "np.ndarray", gaddag: bool) -> bytes:
    try:
        out = ext.kwg_layout(flat, lens.astype("<i8").tobytes(), gaddag, MAX_NODES)
    except ValueError as e:
        raise KwgError(str(e)) from None
    if isinstance(out, int):
        raise _too_many_nodes()
    data: bytes = out
    return data


def layout_rows(flat: "np.ndarray", lens: "np.ndarray", *, gaddag: bool = True, pure_python: bool = False) -> bytes:
    """:func:`layout` of words given in bulk: word ``i`` the next ``lens[i]`` tiles of ``flat`` (uint8), the
    words sorted and distinct; no object per word on the C path."""
    flat = np.ascontiguousarray(flat, np.uint8)
    lens = np.ascontiguousarray(lens, np.int64)
    if int(lens.sum()) != len(flat):
        raise KwgError("the words' lengths do not add up to the tiles given")
    ext = None if pure_python else c_module("_native")
    if ext is None:
        data = flat.tobytes()
        ends = np.cumsum(lens).tolist()
        words = [data[a:b] for a, b in zip([0, *ends[:-1]], ends)]
        _check_words(words, gaddag)
        return _layout_python(words, gaddag)
    if len(lens) and (int(lens.min()) < 1 or int(lens.max()) > MAX_WORD):
        raise KwgError(f"a KWG file written here holds words of 1 to {MAX_WORD} tiles")
    if len(flat) and (int(flat.max()) > MAX_TILE or (gaddag and int(flat.min()) < 1)):
        raise KwgError(f"a KWG file holds tiles {1 if gaddag else 0} to {MAX_TILE}")
    return _layout_c(ext, flat.tobytes(), lens, gaddag)


def build_words(words: Iterable[str], alphabet: Alphabet, *, gaddag: bool = True, pure_python: bool = False) -> bytes:
    """A KWG file of ``words`` (text, split into the alphabet's tiles), numbered by :func:`file_alphabet`, with
    the tile table when that is not English.

    >>> read_words(build_words(["zoo", "zoa"], Alphabet.preset("english")))
    ['zoa', 'zoo']
    """
    check_alphabet(alphabet)
    numbering = file_alphabet(alphabet)
    codes = []
    for w in words:
        encoded = numbering.encode(w)
        if encoded is None:
            raise KwgError(f"{quote(w)} does not fit the {alphabet.name} alphabet")
        codes.append(encoded)
    nodes = build(codes, gaddag=gaddag, pure_python=pure_python)
    return nodes if english_numbered(alphabet) else with_tile_table(nodes, alphabet)


def english_numbered(alphabet: Alphabet) -> bool:
    """Whether every tile of ``alphabet`` is one of the letters a-z: a file numbers them as wolges's English.

    >>> english_numbered(Alphabet.from_letters("zoa")), english_numbered(Alphabet.preset("spanish"))
    (True, False)
    """
    return alphabet.english_letters


def file_alphabet(alphabet: Alphabet) -> Alphabet:
    """The alphabet whose tile numbers a KWG (or KLV) file uses for words of ``alphabet``: English when every tile
    is one of the letters a-z (as wolges and the engines around it number them), else ``alphabet`` itself.

    >>> file_alphabet(Alphabet.from_letters("zoa")).name, len(file_alphabet(Alphabet.from_letters("zoa")))
    ('english', 26)
    """
    return Alphabet.preset("english") if english_numbered(alphabet) else alphabet


def check_alphabet(alphabet: Alphabet) -> None:
    """Refuse alphabets a KWG file cannot number: more than 63 tiles (the tile field keeps two bits for wolges)."""
    if len(alphabet) > MAX_TILE:
        raise KwgError(f"a KWG file holds at most {MAX_TILE} tiles; the {alphabet.name} alphabet has {len(alphabet)}")


def from_codes(flat: "np.ndarray", lens: "np.ndarray", alphabet: Alphabet, *, pure_python: bool = False) -> bytes:
    """The KWG file (DAWG and GADDAG) of words in ``alphabet``'s codes, given in bulk and in code order (word
    ``i`` the next ``lens[i]`` codes of ``flat``): numbered as :func:`file_alphabet` says, with the tile table
    when that is not English. What ``lexigraph export --format kwg`` writes."""
    check_alphabet(alphabet)
    numbering = file_alphabet(alphabet)
    table = np.zeros(256, np.uint8)
    table[1 : len(alphabet) + 1] = [numbering.code(label) or 0 for label in alphabet.labels]
    # The letters' English numbers rise with their codes (both in letter order): the words stay in order.
    nodes = layout_rows(table[np.asarray(flat, np.uint8)], lens, gaddag=True, pure_python=pure_python)
    return nodes if english_numbered(alphabet) else with_tile_table(nodes, alphabet)


__all__ = ["KwgError", "NAMED_ALPHABETS", "alphabet_of_name", "build", "build_words", "check_alphabet",
           "english_numbered", "file_alphabet", "from_codes", "has_gaddag", "layout", "layout_rows", "looks_like",
           "read", "read_code_rows", "read_codes", "read_words", "tile_table", "with_tile_table"]
