"""The C engine: every hot loop of :class:`~lexigraph.engine.interface.Engine` in the ``lexigraph._native`` extension.

This module is the only one that calls the extension's lookup, walk and job
functions (the builder calls its build functions, :mod:`lexigraph.compiler`).
It turns the extension's raw answers (bytes of ids, ``-1`` for "the graph
points outside itself", ``ValueError`` for a malformed graph) into the
interface's types and :class:`~lexigraph.errors.FileFormatError`.

Walks list only the arcs a prefix lookup can reach (tiles rising along a
list, as in every valid file). Before a walk answers its first query, the
graph is checked once against the length buckets (:meth:`CompiledEngine.check_consistent`):
the same words, each found by the hash index, so that a walk and a scan of
the buckets answer alike; a forged file whose graph and buckets disagree
gets a :class:`FileFormatError` instead. The one-call answers (``quick_*``)
run only after that check.

Where a problem lies beyond what the C code handles (a game with more than
63 tile codes or tile points over 255, a fill over an alphabet of more than
63 tiles) the engine hands it to its Python twin (:mod:`lexigraph.engine.python`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from ..buildinfo import c_module
from ..errors import FileFormatError
from .interface import CrossAnswer, FillState, MoveRequest, PropagationProblem, RackMode

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from .python import PythonEngine
    from .store import Store
    from .wordgraph import WordGraph

_MODE_CODES = {"sub": 0, "exact": 1, "super": 2}
#: Most blanks a rack may hold for the C walk; more favour the column scan
#: (measured on TWL06: with three blanks the walk still wins, 12 ms against 33 ms).
MAX_RACK_BLANKS = 3


def native() -> Any:
    """The C extension module (typed by ``lexigraph/_native.pyi``), or None: not built, or switched off."""
    return c_module("_native")


def available() -> bool:
    """Whether the C engine can be used."""
    return native() is not None


def masks_of(cells: Sequence[bytes]) -> bytes:
    """Per-position 256-bit sets of tile codes, as the C pattern walk takes them."""
    out = bytearray(32 * len(cells))
    for i, cell in enumerate(cells):
        for code in cell:
            out[32 * i + (code >> 3)] |= 1 << (code & 7)
    return bytes(out)


def tile_count_bytes(codes: bytes) -> bytes:
    """How many of each tile code ``codes`` holds, as 256 bytes (capped at 255), as the C rack walk takes them.

    >>> tile_count_bytes(b"\\x01\\x01\\x03")[:4]
    b'\\x00\\x02\\x00\\x01'
    """
    counts = bytearray(256)
    for c in codes:
        if counts[c] < 255:
            counts[c] += 1
    return bytes(counts)


class CompiledEngine:
    """The C engine of one open lexicon (see the module docstring)."""

    kind: Literal["c", "python"] = "c"
    pattern_walk_pays = True

    def __init__(self, store: "Store", graph: "WordGraph") -> None:
        module = native()
        if module is None:
            raise FileFormatError("the C engine is not available (lexigraph._native is not built or switched off)")
        self._native: Any = module
        self.store = store
        self.graph = graph
        self._alphabet_size = len(store.alphabet)
        self.probe: Any = module.Probe()
        tables = [
            (b.length, b.hash.offset, b.hash.slots, b.hash.width, b.hash.home, b.offset, b.count, b.first,
             b.alphagram_offset, b.alphagram_width)
            for b in store.buckets
        ]
        alphabet = store.alphabet
        try:
            program = alphabet.latin1_program
            if program is not None:  # multi-letter tiles: split greedily in C
                prepare, codes, multi = program
                self.probe.attach(store.buffer, codes, tables, True, prepare, multi)
            else:
                table = alphabet.latin1_table
                self.probe.attach(store.buffer, table or bytes(256), tables, table is not None)
        except ValueError as e:
            raise FileFormatError(f"{store.name}: {e}") from None
        # The C methods themselves, bound: no Python frame between a lookup and the probe.
        self.id_of_codes: Callable[[bytes], int] = self.probe.id_of_codes
        self.id_of_word: Callable[[str], int] = self.probe.id_of_word
        self.facade_probe: object = self.probe
        # The one-call answers whose arguments the C code takes as they are: bound, no Python frame.
        self.quick_exact_anagrams: Callable[[str], list[str] | None] = self.probe.exact_anagram_words
        self.quick_prefix_words: Callable[[str, int, int], list[str] | None] = self.probe.prefix_words
        self.quick_pattern_words: Callable[[str], list[str] | None] = self.probe.pattern_words
        self.quick_cross: Callable[[str, int, str, int], CrossAnswer | None] = self.probe.cross_words
        self._consistent: bool | None = None
        self._check_lock = threading.Lock()
        self._python: PythonEngine | None = None

    def python_twin(self) -> "PythonEngine":
        """The Python engine over the same store and graph, for problems beyond the C code's limits."""
        if self._python is None:
            from .python import PythonEngine

            self._python = PythonEngine(self.store, self.graph)
        return self._python

    # -- lookups ------------------------------------------------------------------------------

    def check_words(self, words: list[Any], contains: Callable[[Any], bool]) -> "np.ndarray":
        import numpy as np

        # The C batch answers what it can encode itself; 2 marks what it leaves to `contains` (it returns how many).
        verdict = np.empty(len(words), np.uint8)
        if words and self.probe.check_words(words, verdict):
            rest = np.flatnonzero(verdict == 2)
            verdict[rest] = [contains(words[i]) for i in rest.tolist()]
        answer: np.ndarray = verdict.view(np.bool_)
        return answer

    # -- the graph check ------------------------------------------------------------------------

    def check_consistent(self) -> None:
        """Raise :class:`FileFormatError` unless the graph spells exactly the buckets' words (checked once, in C)."""
        with self._check_lock:  # queries run in threads (the server): one check, seen by all
            if self._consistent is None:
                self._consistent = False  # a check that raises has failed, for good
                self._consistent = self._spells_the_buckets()
        if not self._consistent:
            raise FileFormatError(f"{self.store.name}: the word graph and the length buckets hold different words")

    def _spells_the_buckets(self) -> bool:
        import numpy as np

        store, graph = self.store, self.graph
        # Paths no longer than the longest word, no more words than the buckets hold.
        found = self._call(self.probe.walk_pattern, graph.buffer, graph.root, self._alphabet_size, b"", 1,
                           max(store.lengths, default=0), True, store.word_count + 1)
        ids = np.frombuffer(found, "<i8")
        same = len(ids) == store.word_count and bool((np.sort(ids) == np.arange(store.word_count)).all())
        if same:  # checked: the probe may now answer listings in one call
            self.probe.attach_graph(graph.offset, graph.size, graph.root, self._alphabet_size)
        return same

    def _call(self, function: Callable[..., Any], *args: Any) -> Any:
        """A C walk's answer; ``-1`` (the graph points outside itself) raises :class:`FileFormatError`."""
        try:
            found = function(*args)
        except ValueError as e:
            raise FileFormatError(f"{self.store.name}: {e}") from None
        except MemoryError:
            raise FileFormatError(f"{self.store.name}: the word graph needs more memory than it should") from None
        if isinstance(found, int) and found == -1:
            raise self.graph.outside()
        return found

    # -- walks ------------------------------------------------------------------------------

    def rack_walk_pays(self, blanks: int, mode: RackMode) -> bool:
        return blanks <= MAX_RACK_BLANKS

    def _rack(self, codes: bytes, blanks: int, mode: RackMode, through: bytes, min_length: int, max_length: int,
              want_ids: bool) -> bytes:
        self.check_consistent()
        graph = self.graph
        found: bytes = self._call(self.probe.walk_rack, graph.buffer, graph.root, self._alphabet_size,
                                  tile_count_bytes(codes), tile_count_bytes(through), blanks, min_length, max_length,
                                  _MODE_CODES[mode], want_ids)
        return found

    def rack_ids(self, codes: bytes, blanks: int, *, mode: RackMode, through: bytes, min_length: int,
                 max_length: int) -> "np.ndarray":
        import numpy as np

        found = self._rack(codes, blanks, mode, through, min_length, max_length, True)
        return np.frombuffer(found, "<i8").astype(np.int64)

    def rack_words(self, codes: bytes, blanks: int, *, mode: RackMode, through: bytes, min_length: int,
                   max_length: int) -> list[str]:
        return self._decode(self._rack(codes, blanks, mode, through, min_length, max_length, False))

    def _pattern(self, cells: Sequence[bytes], min_length: int, max_length: int, limit: int, want_ids: bool) -> bytes:
        self.check_consistent()
        graph = self.graph
        found: bytes = self._call(self.probe.walk_pattern, graph.buffer, graph.root, self._alphabet_size,
                                  masks_of(cells), min_length, max_length, want_ids, limit)
        return found

    def pattern_ids(self, cells: Sequence[bytes], min_length: int, max_length: int, limit: int = -1) -> "np.ndarray":
        import numpy as np

        ids = np.frombuffer(self._pattern(cells, min_length, max_length, limit, True), "<i8").astype(np.int64)
        return ids[ids >= 0]

    def pattern_words(self, cells: Sequence[bytes], min_length: int, max_length: int, limit: int = -1) -> list[str]:
        if not cells and limit < 0:
            # Every word of a range of lengths (a rack of blanks, a listing): decoded once, then copied.
            every = self.store.cached(("engine", "all", min_length, max_length),
                                      lambda: tuple(self._decode(self._pattern(cells, min_length, max_length, -1,
                                                                               False))))
            return list(every)
        return self._decode(self._pattern(cells, min_length, max_length, limit, False))

    def _decode(self, found: bytes) -> list[str]:
        """Words from a walk's output: each word's tile codes followed by a 0 byte."""
        if not found:
            return []
        labels = self.store.alphabet.labels
        table = self.store.cached(("engine", "decode"), lambda: {
            0: "\n", **{i + 1: label for i, label in enumerate(labels)}
        })
        return found.decode("latin-1").translate(table).split("\n")[:-1]

    def exact_anagram_ids(self, codes: bytes, blanks: int) -> "np.ndarray":
        import numpy as np

        found = self.probe.exact_anagram_ids(codes, blanks, self._alphabet_size)
        if found is not None:
            return np.frombuffer(found, "<i8").astype(np.int64)
        fallback: np.ndarray = self.python_twin().exact_anagram_ids(codes, blanks)
        return fallback

    # -- one-call answers ----------------------------------------------------------------------

    def quick_rack_words(self, rack: str, min_length: int, mode: RackMode) -> list[str] | None:
        words: list[str] | None = self.probe.rack_words(rack, min_length, _MODE_CODES[mode])
        return words

    # -- jobs --------------------------------------------------------------------------------

    def generate_moves(self, request: MoveRequest) -> "np.ndarray":
        import numpy as np

        from .interface import move_record_dtype

        limits = self._native.LIMITS
        if len(request.points) > limits["MAX_MOVE_TILE_CODES"] or max(request.points, default=0) > 255:
            records: np.ndarray = self.python_twin().generate_moves(request)
            return records
        graph = self.graph
        graph.check_structure()
        self.check_consistent()
        try:
            data, count = self._native.generate_moves(
                graph.buffer, graph.tile_masks(), graph.root, request.size, request.board, request.blanks,
                request.letter_multipliers, request.word_multipliers, request.points, request.rack,
                request.start_square, request.rack_size, request.bingo_bonus)
        except ValueError as e:
            raise FileFormatError(f"{self.store.name}: {e}") from None
        return np.frombuffer(data, move_record_dtype(), count=count)

    def filter_rows(self, rows: "np.ndarray", candidates: "np.ndarray", masks: Sequence[int],
                    check: Sequence[int] | None) -> "tuple[np.ndarray, list[int]]":
        import numpy as np

        if self._alphabet_size > self._native.LIMITS["FILL_MAX_TILE_CODES"]:
            filtered: tuple[np.ndarray, list[int]] = self.python_twin().filter_rows(rows, candidates, masks, check)
            return filtered
        width = rows.shape[1]
        positions = bytes(range(width)) if check is None else bytes(check)
        kept, used = self._native.filter_rows(rows, width, candidates, masks, positions)
        return (candidates if kept is None else np.frombuffer(kept, np.int32)), list(used)

    def fill_state(self, problem: PropagationProblem, candidates: Sequence["np.ndarray"],
                   domains: Sequence[int]) -> FillState:
        import numpy as np

        if self._alphabet_size > self._native.LIMITS["FILL_MAX_TILE_CODES"]:
            twin: FillState = self.python_twin().fill_state(problem, candidates, domains)
            return twin
        masks = np.asarray(domains, np.uint64)
        state: FillState = self._native.FillState(
            problem.rows, problem.slot_cells, problem.cell_slots, problem.complete, problem.fixed,
            problem.same_length, problem.allow_repeats, problem.max_shared, problem.eager_limit,
            problem.given_words, list(candidates), masks, partial(np.frombuffer, dtype=np.int32))
        return state

    def close(self) -> None:
        self.probe.release()
