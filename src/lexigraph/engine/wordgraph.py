"""The word graph: a minimal DAWG of 64-bit arc records, and the walks over it.

A node is a contiguous list of arcs sorted by tile; record ``i`` is
little-endian and holds (the one place in Python this layout is written;
``arc.h`` is its twin in C, and a test holds the two together):

====== ==========================================================
bits   field
====== ==========================================================
0-7    ``tile``: the tile code (1-255)
8      ``accepts``: the path up to and including this arc is a word
9      ``is_last``: this arc ends its node's list
10-31  zero
32-63  ``target``: index of the target node's first arc (0: no arcs)
====== ==========================================================

Record 0 is a null sentinel; a graph's *root* is the index of the root
list's first arc (0 for an empty graph). Walks that follow a forged graph
never leave it: an index past the end, a tile outside the alphabet or a
path longer than the longest word is a :class:`FileFormatError`.

>>> import lexigraph
>>> g = lexigraph.open().graph
>>> arc = g.walk(g.encode("dude"))
>>> arc.accepts, [g.label(a.tile) for a in g.arcs(arc.target)]
(True, ['d', 'e', 's'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import FileFormatError
from .fileformat import MappedFile
from .store import little_endian_ints

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..alphabet import Alphabet
else:  # for run-time type hints, loaded on first use (start-up stays light)
    from ..support.lazy import Lazy

    np = Lazy("numpy")
    Alphabet = Lazy("lexigraph.alphabet", "Alphabet")

TILE_MASK = 0xFF
ACCEPTS_BIT = 1 << 8
LAST_BIT = 1 << 9
TARGET_SHIFT = 32
RECORD_SIZE = 8
#: Bits that must be zero in every record.
RESERVED_MASK = ((1 << TARGET_SHIFT) - 1) & ~(TILE_MASK | ACCEPTS_BIT | LAST_BIT)
#: The layout's name, recorded in the file's index.
LAYOUT = "tile8-accepts1-last1-zero22-target32"
#: Most arcs a graph may hold: targets are 32 bits.
MAX_ARCS = 1 << 32


@dataclass(frozen=True, slots=True)
class Arc:
    """One arc record, unpacked.

    >>> Arc.unpack(Arc(tile=3, accepts=True, is_last=False, target=7).pack())
    Arc(tile=3, accepts=True, is_last=False, target=7)
    """

    tile: int
    accepts: bool
    is_last: bool
    target: int

    @staticmethod
    def unpack(record: int) -> "Arc":
        return Arc(record & TILE_MASK, bool(record & ACCEPTS_BIT), bool(record & LAST_BIT), record >> TARGET_SHIFT)

    def pack(self) -> int:
        return self.tile | (ACCEPTS_BIT if self.accepts else 0) | (LAST_BIT if self.is_last else 0) | (
            self.target << TARGET_SHIFT
        )


def pack_records(tile: "np.ndarray", accepts: "np.ndarray", is_last: "np.ndarray", target: "np.ndarray") -> "np.ndarray":
    """Arc records from parallel arrays (the builder's side of the layout)."""
    import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

    rec = tile.astype(np.uint64)
    rec |= accepts.astype(np.uint64) << np.uint64(8)
    rec |= is_last.astype(np.uint64) << np.uint64(9)
    rec |= target.astype(np.uint64) << np.uint64(TARGET_SHIFT)
    return rec


#: A C walk: ``walk(buffer, root, key, list_limit) -> (next list, accepts[, tiles]) | None | -1``.
CWalk = Callable[[memoryview, int, bytes, int], "Followed | None | int"]
#: Where a key leads: ``(next list, the key is a word)``, with the next list's tile codes when asked.
Followed = tuple[int, bool] | tuple[int, bool, bytes]


class WordGraph:
    """The graph section of a lexicon file; see the module docstring.

    ``walker`` is the C prefix walk when the extension is in use (None: the
    Python twin below answers).
    """

    def __init__(self, mapped: MappedFile, alphabet: "Alphabet", max_length: int, walker: CWalk | None = None) -> None:
        name = mapped.name
        sec = mapped.sections.get("graph")
        if sec is None or sec.dtype != "<u8" or len(sec.shape) != 1 or not sec.shape[0]:
            raise FileFormatError(f"{name}: the 'graph' section is missing or malformed")
        info = mapped.index.get("graph")
        root = info.get("root") if isinstance(info, dict) else None
        if type(root) is not int or not 0 <= root < sec.shape[0]:
            raise FileFormatError(f"{name}: the graph's root is missing or lies outside the graph")
        self.name = name
        self.alphabet = alphabet
        self.root = root
        self.max_length = max_length
        self.size = sec.shape[0]
        self.buffer: memoryview = mapped.view("graph")
        #: Where the records lie in the file (the C probe reads them there).
        self.offset = sec.offset
        self._records = little_endian_ints(self.buffer, "Q")
        self._walker = walker
        self._top: dict[int, dict[int, int]] | None = None
        self._arc_lists: dict[int, tuple[Arc, ...]] = {}
        self._steps: dict[int, dict[int, Arc]] = {}
        self._structure_checked = False
        self._tile_masks: bytes | None = None

    def close(self) -> None:
        self._top = None
        self._arc_lists = {}
        self._steps = {}
        if isinstance(self._records, memoryview):
            self._records.release()
        try:
            self.buffer.release()
        except BufferError:
            # A game's tables still hold the graph (a request kept past the lexicon's close): the mapping stays
            # until they are dropped, and the engine, closed, refuses them.
            pass

    @property
    def records(self) -> "np.ndarray":
        """Every arc record as a read-only ``uint64`` array."""
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        return np.frombuffer(self.buffer, "<u8")

    def outside(self) -> FileFormatError:
        return FileFormatError(f"{self.name}: the word graph points outside itself")

    def encode(self, text: str) -> bytes:
        """Tile codes of ``text`` (an empty key when it does not split into tiles)."""
        return self.alphabet.encode(text) or b""

    def label(self, tile: int) -> str:
        """The label of a tile code met in the graph."""
        if not 1 <= tile <= len(self.alphabet):
            raise self.outside()
        return self.alphabet.labels[tile - 1]

    # -- records ------------------------------------------------------------

    def record(self, i: int) -> int:
        """Record ``i`` as an integer (bounds-checked)."""
        if not 0 <= i < self.size:
            raise self.outside()
        return int(self._records[i])

    def arc_records(self, node: int) -> list[int]:
        """The records of the list starting at ``node`` (at most one per tile); [] for node 0."""
        if not node:
            return []
        records = self._records
        out = []
        if not 0 < node < self.size:
            raise self.outside()
        for i in range(node, min(node + len(self.alphabet), self.size)):
            rec = records[i]
            out.append(rec)
            if rec & LAST_BIT:
                return out
        if len(out) == len(self.alphabet):
            return out
        raise self.outside()

    def arcs(self, node: int) -> list[Arc]:
        """The arcs of the list starting at ``node``."""
        return [Arc.unpack(r) for r in self.arc_records(node)]

    def reachable_records(self, node: int) -> list[int]:
        """The records of the list at ``node`` that a prefix walk can reach: tiles rising along the list.

        In a valid file that is the whole list; walks that enumerate words
        use this, so that they agree with :meth:`follow` on any file.
        """
        out = []
        previous = 0
        for rec in self.arc_records(node):
            tile = rec & TILE_MASK
            if tile > previous:
                out.append(rec)
                previous = tile
        return out

    def arc_list(self, node: int) -> tuple[Arc, ...]:
        """The arcs a walk can take from the list at ``node`` (:meth:`reachable_records`), kept once read.

        The move generator's Python twin walks the same lists many times; it
        reads them here, never the records themselves.
        """
        found = self._arc_lists.get(node)
        if found is None:
            found = self._arc_lists[node] = tuple(Arc.unpack(r) for r in self.reachable_records(node))
        return found

    def arc_of(self, node: int, tile: int) -> Arc | None:
        """The arc of ``tile`` in the list at ``node`` (as :meth:`step` finds it), kept once read."""
        table = self._steps.get(node)
        if table is None:
            table = self._steps[node] = {arc.tile: arc for arc in self.arc_list(node)}
        return table.get(tile)

    def check_structure(self) -> None:
        """Raise :class:`FileFormatError` unless every record is a well-formed arc (checked once, in NumPy).

        Well formed: record 0 is null; every other record has a tile of the
        alphabet and its reserved bits zero; lists end (the last record
        ends one); tiles rise strictly along each list; the root and every
        target lie inside the graph (a target may start a list or point into
        one: lists share their suffixes). A graph that passes is
        walked alike by every reader (C or Python, stepping or listing),
        which the jobs (move generation) rely on. Paths may still be longer
        than any word; readers bound their depth themselves.
        """
        if self._structure_checked:
            return
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        records = self.records
        bad = self.outside()
        if records[0] != 0:
            raise bad
        arcs = records[1:]
        if len(arcs):
            tiles = (arcs & np.uint64(TILE_MASK)).astype(np.int64)
            last = (arcs & np.uint64(LAST_BIT)) != 0
            targets = arcs >> np.uint64(TARGET_SHIFT)
            if (arcs & np.uint64(RESERVED_MASK)).any() or (tiles < 1).any() or (tiles > len(self.alphabet)).any():
                raise bad
            if not last[-1]:
                raise bad
            # Tiles rise within a list: each record but a list's first has a greater tile than the one before.
            if (np.diff(tiles)[~last[:-1]] <= 0).any():
                raise bad
            if (targets >= np.uint64(self.size)).any():
                raise bad
        self._structure_checked = True

    def tile_masks(self) -> bytes:
        """For each record, the tiles (bit ``t``) of its list from there to the list's end, as little-endian uint64.

        The C move generator's dead-end test: an empty square is only worth
        trying when the list it would continue holds a tile the square
        allows. Tiles above 63 get no bit. Built once, in NumPy, on a graph
        that passed :meth:`check_structure`.
        """
        if self._tile_masks is None:
            import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

            records = self.records
            tiles = (records & np.uint64(TILE_MASK)).astype(np.uint64)
            bits = np.where(tiles < 64, np.left_shift(np.uint64(1), np.minimum(tiles, np.uint64(63))), np.uint64(0))
            last = (records & np.uint64(LAST_BIT)) != 0
            masks = bits.copy()
            # OR each record's bit into the masks of the records before it in its list: back to front,
            # a list at a time in one pass (a reversed segmented OR-scan, as lists hold at most
            # one arc per tile).
            list_of = np.concatenate(([0], np.cumsum(last[:-1])))
            for _ in range(min(len(self.alphabet), 255)):
                shifted = np.zeros_like(masks)
                shifted[:-1] = masks[1:]
                same_list = np.zeros(len(masks), bool)
                same_list[:-1] = list_of[:-1] == list_of[1:]
                grown = masks | np.where(same_list, shifted, np.uint64(0))
                if (grown == masks).all():
                    break
                masks = grown
            self._tile_masks = masks.astype("<u8").tobytes()
        return self._tile_masks

    def _lookup(self, node: int) -> dict[int, int] | None:
        """The list at ``node`` as a dict by tile, answering exactly as the scan in :meth:`step_record`
        does (the first arc of a tile before any greater tile), or None when the list never ends."""
        records = self._records
        table: dict[int, int] = {}
        top = 0
        for i in range(node, self.size):
            rec = records[i]
            tile = rec & TILE_MASK
            if tile > top:
                table[tile] = int(rec)
                top = tile
            if rec & LAST_BIT:
                return table
        return None

    def _top_lists(self) -> dict[int, dict[int, int]]:
        """The root's and its children's lists by tile: the widest lists, where a scan costs most."""
        if self._top is None:
            top: dict[int, dict[int, int]] = {}
            root = self._lookup(self.root) if self.root else None
            if root is not None:
                top[self.root] = root
                for rec in root.values():
                    target = rec >> TARGET_SHIFT
                    child = self._lookup(target) if 0 < target < self.size else None
                    if child is not None:
                        top[target] = child
            self._top = top
        return self._top

    def step_record(self, node: int, tile: int) -> int | None:
        """The record of ``tile`` in the list at ``node``, or None."""
        lookup = self._top_lists().get(node)
        if lookup is not None:
            return lookup.get(tile)
        if not node:
            return None
        records = self._records
        i = node
        try:
            while True:
                rec = records[i]
                t = rec & TILE_MASK
                if t == tile:
                    return int(rec)
                if rec & LAST_BIT or t > tile:
                    return None
                i += 1
        except IndexError:
            raise self.outside() from None

    def step(self, node: int, tile: int) -> Arc | None:
        """The arc of ``tile`` leaving the node whose list starts at ``node``, or None."""
        rec = self.step_record(node, tile)
        return None if rec is None else Arc.unpack(rec)

    # -- walks -------------------------------------------------------------------

    def follow(self, key: bytes, list_next: bool = False) -> Followed | None:
        """Follow the tile codes ``key`` from the root.

        Returns ``(next list, key is a word)``, or None when no word starts
        with ``key``; with ``list_next`` a third item, the tile codes of
        the next list as bytes.
        """
        if self._walker is not None:
            found = self._walker(self.buffer, self.root, key, len(self.alphabet) if list_next else 0)
            if isinstance(found, int):  # -1: the walk left the graph
                raise self.outside()
            return found
        # step_record inlined: a call per tile would cost a third of the walk
        top = self._top_lists()
        records = self._records
        node = self.root
        rec = 0
        for c in key:
            table = top.get(node)
            if table is not None:
                found_rec = table.get(c)
                if found_rec is None:
                    return None
                rec = found_rec
            elif not node:
                return None
            else:
                i = node
                try:
                    while True:
                        rec = records[i]
                        t = rec & TILE_MASK
                        if t == c:
                            break
                        if rec & LAST_BIT or t > c:
                            return None
                        i += 1
                except IndexError:
                    raise self.outside() from None
            node = rec >> TARGET_SHIFT
        accepts = bool(rec & ACCEPTS_BIT) if key else False
        if list_next:
            return node, accepts, bytes([r & TILE_MASK for r in self.arc_records(node)])
        return node, accepts

    def walk(self, key: bytes) -> Arc | None:
        """The arc reached by the tile codes ``key``, or None when no word starts with them.

        The empty key reaches a pseudo-arc whose ``target`` is the root.
        """
        found = self.follow(key)
        if found is None:
            return None
        node, accepts = found[0], found[1]
        return Arc(key[-1] if key else 0, bool(accepts), True, node)

    def children(self, key: bytes) -> tuple[bool, bytes] | None:
        """Whether ``key`` is a word, and the tile codes that may follow it; None when nothing starts with it."""
        found = self.follow(key, list_next=True)
        if found is None:
            return None
        tiles = found[2] if len(found) == 3 else b""
        if self._walker is None and any(not 1 <= t <= len(self.alphabet) for t in tiles):
            raise self.outside()  # (the C walk checks the tiles itself)
        return bool(found[1]), tiles

    def walk_depth_first(self, visit: Callable[[bytes, Arc], bool], start: bytes = b"") -> None:
        """Call ``visit(path, arc)`` for every arc below ``start``, depth first, in tile order.

        ``path`` holds the tile codes up to and including the arc. Return
        False from ``visit`` to skip the arc's subtree. Paths longer than
        the lexicon's longest word stop with a :class:`FileFormatError`
        (only a forged graph has them).
        """
        first = self.walk(start)
        if first is None:
            return
        stack: list[tuple[bytes, list[int], int]] = [(start, self.reachable_records(first.target), 0)]
        while stack:
            path, recs, i = stack[-1]
            if i == len(recs):
                stack.pop()
                continue
            stack[-1] = (path, recs, i + 1)
            arc = Arc.unpack(recs[i])
            here = path + bytes([arc.tile])
            if len(here) > self.max_length:
                raise FileFormatError(f"{self.name}: the word graph holds paths longer than its longest word")
            if visit(here, arc) and arc.target:
                stack.append((here, self.reachable_records(arc.target), 0))

    def iter_words(self, start: bytes = b"") -> Iterator[bytes]:
        """Tile codes of every word starting with ``start``, in tile order (Python walk)."""
        found: list[bytes] = []
        arc = self.walk(start)
        if start and arc is not None and arc.accepts:
            found.append(start)

        def visit(path: bytes, arc: Arc) -> bool:
            if arc.accepts:
                found.append(path)
            return True

        self.walk_depth_first(visit, start)
        yield from found
