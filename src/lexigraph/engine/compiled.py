"""The C engine: every hot loop of :class:`~lexigraph.engine.interface.Engine` in the ``lexigraph._native`` extension.

This module is the only one that calls the extension's lookup, walk and job
functions (the builder calls its build functions, :mod:`lexigraph.compiler`).
It turns the extension's raw answers (bytes of ids; the walks' answers of
``native/deadline.h``: ``-1`` for "the graph points outside itself", ``-2``
for "past the deadline", ``-3`` for "more paths than words"; ``ValueError``
for a malformed graph) into the interface's types,
:class:`~lexigraph.errors.FileFormatError` and
:class:`~lexigraph.errors.DeadlineExceeded`.

Walks list only the arcs a prefix lookup can reach (tiles rising along a
list, as in every valid file). Before a walk answers its first query, the
graph is checked once against the length buckets (:meth:`CompiledEngine.check_consistent`):
the same words, each found by the hash index, so that a walk and a scan of
the buckets answer alike. On a forged file whose graph and buckets disagree
the cost model says no walk pays (:meth:`CompiledEngine.graph_spells_the_buckets`):
the queries answer from the buckets, as on the Python engine, and a walk
asked for anyway (or a job) gets a :class:`FileFormatError`. That walk has the Python check's
limits: paths no longer than the longest word, no more words than the
buckets hold, no more arcs read than the words have tiles (a cycle of arcs
that spell nothing stops there). Every later walk goes no deeper than the
longest word either, so it reads a part of what the check read. The
one-call answers (``quick_*``) run only after that check. Each walk and
one-call answer takes a ``deadline`` (``time.monotonic()`` value) that the C
code reads on the same clock; the one-call answers, bound to the C methods
(no Python frame between a query and C), take it as their last positional
argument and raise the :class:`~lexigraph.errors.DeadlineExceeded` the engine
hands their probe.

Where a lexicon lies beyond what the C code handles (an alphabet of 64 tiles
or more: a game's tile codes, the blank's included, and a fill's tile sets
are 64-bit masks), the engine hands those jobs to its Python twin
(:mod:`lexigraph.engine.python`), once, when the lexicon opens
(:data:`TWIN_JOBS`): the engine's methods for them are then the twin's.

NumPy is imported where it is first used (the engine opens for ``lexigraph
check`` too, which needs none).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, partial
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

from ..buildinfo import c_module
from ..errors import DeadlineExceeded, FileFormatError, QueryError
from .consistency import GraphCheck
from .deadline import exceeded
from .interface import SIMULATION_CANDIDATE_SIZE, CrossAnswer, EndgameAnswer, EndgameRequest, FillState, GameSpec
from .interface import GameTables, MoveRequest, PropagationProblem, RackMode, SelfPlayRequest, SimulationRequest
from .interface import check_threads, endgame_table_busy, game_record_dtype, move_record_dtype, simulation_result_dtype
from .interface import GeneratorAnswer, RankedExtras, turn_record_dtype
from .python import PythonEngine

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from .store import Store
    from .wordgraph import WordGraph

_MODE_CODES = {"sub": 0, "exact": 1, "super": 2}
#: What a C walk answers when it stops early (``native/deadline.h``, exported as ``WALK_ANSWERS``):
#: the graph points outside itself, the deadline passed, the walk read more arcs than its budget.
OUTSIDE, PAST_DEADLINE, OVER_BUDGET = -1, -2, -3
#: Most blanks a rack may hold for the C walk; more favour the column scan
#: (measured on TWL06: with three blanks the walk still wins, 12 ms against 33 ms).
MAX_RACK_BLANKS = 3
#: The jobs the C code runs for alphabets up to a limit of ``LIMITS``, by that limit and how an alphabet of ``n``
#: tiles counts against it; beyond it the Python twin runs them (its methods become the engine's at open).
TWIN_JOBS: tuple[tuple[str, Callable[[int], int], tuple[str, ...]], ...] = (
    ("MAX_MOVE_TILE_CODES", lambda tiles: tiles + 1,  # the tile codes, the blank's 0 included
     ("game_tables", "generate_moves", "play_games", "solve_endgame", "simulate_plays", "rack_leave_values",
      "endgame_stuck_tiles")),
    ("FILL_MAX_TILE_CODES", lambda tiles: tiles, ("filter_rows", "fill_state")),
)


def native() -> "ModuleType | None":
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
                self.probe.attach(store.buffer, codes, tables, True, len(alphabet), prepare, multi)
            else:
                table = alphabet.latin1_table
                self.probe.attach(store.buffer, table or bytes(256), tables, table is not None, len(alphabet))
            # The walks read the graph where it lies in the file; the check below walks it before it is trusted.
            self.probe.set_graph(graph.offset, graph.size, graph.root, len(alphabet))
        except ValueError as e:
            raise FileFormatError(f"{store.name}: {e}") from None
        # The C methods themselves, bound: no Python frame between a lookup and the probe.
        self.id_of_codes: Callable[[bytes], int] = self.probe.id_of_codes
        self.id_of_word: Callable[[str], int] = self.probe.id_of_word
        self.facade_probe: object = self.probe
        # The one-call answers whose arguments the C code takes as they are: bound, no Python frame. Past
        # their deadline they raise the DeadlineExceeded handed to the probe here (walks answer -2 instead).
        self.probe.set_deadline_error(DeadlineExceeded)
        self.quick_exact_anagrams: Callable[..., list[str] | None] = self.probe.exact_anagram_words
        self.quick_prefix_words: Callable[..., list[str] | None] = self.probe.prefix_words
        self.quick_pattern_words: Callable[..., list[str] | None] = self.probe.pattern_words
        self.quick_cross: Callable[..., CrossAnswer | None] = self.probe.cross_words
        self._graph_check = GraphCheck(store.name)
        self._python: PythonEngine | None = None
        self._hand_jobs_to_the_twin()

    def python_twin(self) -> PythonEngine:
        """The Python engine over the same store and graph: the jobs beyond the C code's limits, and the exact
        anagrams of a forged alphagram index."""
        if self._python is None:
            self._python = PythonEngine(self.store, self.graph)
        return self._python

    def _hand_jobs_to_the_twin(self) -> None:
        """The jobs beyond the C code's limits for this lexicon's alphabet, handed to the Python twin once: its
        bound methods become this engine's (:data:`TWIN_JOBS`)."""
        tiles = self._alphabet_size
        for limit, counted, jobs in TWIN_JOBS:
            if counted(tiles) > self._native.LIMITS[limit]:
                twin = self.python_twin()
                for job in jobs:
                    setattr(self, job, getattr(twin, job))

    # -- lookups ------------------------------------------------------------------------------

    def check_words(self, words: list[object], contains: Callable[[object], bool]) -> "np.ndarray":
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
        """Raise FileFormatError unless the graph spells exactly the buckets' words (checked once: :mod:`.consistency`)."""
        self._graph_check.require(self._spells_the_buckets)

    def graph_spells_the_buckets(self) -> bool:
        """Whether queries may walk the graph (the check runs once, here if not yet): a forged graph is never walked,
        the planners answer from the buckets as the Python engine does, and the jobs that need the graph refuse it."""
        return self._graph_check.holds(self._spells_the_buckets)

    @property
    def pattern_walk_pays(self) -> bool:
        """In C a walk beats the bucket scan, on a graph that spells the buckets (checked on first use)."""
        return self.graph_spells_the_buckets()

    def _spells_the_buckets(self) -> bool:
        """The walk of :mod:`.consistency`'s check, in C."""
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        store, graph = self.store, self.graph
        # Paths no longer than the longest word, no more words than the buckets hold, no more arcs
        # read than the words have tiles: the limits of the Python check (engine.python), counted alike.
        found = self._call(self.probe.walk_pattern, b"", (1, max(store.lengths, default=0)), True,
                           store.word_count + 1, None, store.tile_count + 1)
        ids = np.frombuffer(found, "<i8")
        same = len(ids) == store.word_count and bool((np.sort(ids) == np.arange(store.word_count)).all())
        if same:  # checked: the probe may now answer listings in one call
            self.probe.attach_graph(graph.offset, graph.size, graph.root, self._alphabet_size)
        return same

    def _call(self, function: Callable[..., Any], *args: Any) -> Any:
        """A C walk's answer; its early stops (``native/deadline.h``) raise :class:`FileFormatError` or
        :class:`~lexigraph.errors.DeadlineExceeded`; running out of memory on a forged file is a
        :class:`FileFormatError`."""
        try:
            found = function(*args)
        except ValueError as e:
            raise FileFormatError(f"{self.store.name}: {e}") from None
        except MemoryError:
            raise FileFormatError(f"{self.store.name}: the word graph needs more memory than it should") from None
        if isinstance(found, int):
            raise self._stopped(found)
        return found

    def _stopped(self, answer: int) -> Exception:
        """The error of a C walk that stopped early with ``answer``."""
        if answer == PAST_DEADLINE:
            return exceeded()
        if answer == OVER_BUDGET:
            return FileFormatError(f"{self.store.name}: the word graph holds more paths than its words")
        return self.graph.outside()

    # -- walks ------------------------------------------------------------------------------

    def rack_walk_pays(self, blanks: int, mode: RackMode) -> bool:
        return blanks <= MAX_RACK_BLANKS and self.graph_spells_the_buckets()

    def _rack(self, codes: bytes, blanks: int, mode: RackMode, through: bytes, min_length: int, max_length: int,
              want_ids: bool, deadline: float | None) -> bytes:
        self.check_consistent()
        found: bytes = self._call(self.probe.walk_rack, tile_count_bytes(codes), tile_count_bytes(through), blanks,
                                  (min_length, max_length), _MODE_CODES[mode], want_ids, deadline)
        return found

    def rack_ids(self, codes: bytes, blanks: int, *, mode: RackMode, through: bytes, min_length: int,
                 max_length: int, deadline: float | None = None) -> "np.ndarray":
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        found = self._rack(codes, blanks, mode, through, min_length, max_length, True, deadline)
        return np.frombuffer(found, "<i8").astype(np.int64)

    def rack_words(self, codes: bytes, blanks: int, *, mode: RackMode, through: bytes, min_length: int,
                   max_length: int, deadline: float | None = None) -> list[str]:
        return self._decode(self._rack(codes, blanks, mode, through, min_length, max_length, False, deadline))

    def _pattern(self, cells: Sequence[bytes], min_length: int, max_length: int, limit: int, want_ids: bool,
                 deadline: float | None) -> bytes:
        self.check_consistent()
        found: bytes = self._call(self.probe.walk_pattern, masks_of(cells), (min_length, max_length), want_ids, limit,
                                  deadline)
        return found

    def pattern_ids(self, cells: Sequence[bytes], min_length: int, max_length: int, limit: int = -1, *,
                    deadline: float | None = None) -> "np.ndarray":
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        found = self._pattern(cells, min_length, max_length, limit, True, deadline)
        ids = np.frombuffer(found, "<i8").astype(np.int64)
        return ids[ids >= 0]

    def pattern_words(self, cells: Sequence[bytes], min_length: int, max_length: int, limit: int = -1, *,
                      deadline: float | None = None) -> list[str]:
        if not cells and limit < 0:
            # Every word of a range of lengths (a rack of blanks, a listing): decoded once, then copied.
            key = ("engine", "all", min_length, max_length)
            every = self.store.cached(key, lambda: tuple(self._decode(self._pattern(cells, min_length, max_length,
                                                                                    -1, False, deadline))))
            return list(every)
        return self._decode(self._pattern(cells, min_length, max_length, limit, False, deadline))

    def _decode(self, found: bytes) -> list[str]:
        """Words from a walk's output: each word's tile codes followed by a 0 byte."""
        if not found:
            return []
        labels = self.store.alphabet.labels
        table = self.store.cached(("engine", "decode"), lambda: {
            0: "\n", **{i + 1: label for i, label in enumerate(labels)}
        })
        return found.decode("latin-1").translate(table).split("\n")[:-1]

    def exact_anagram_ids(self, codes: bytes, blanks: int, *, deadline: float | None = None) -> "np.ndarray":
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        found = self._call(self.probe.exact_anagram_ids, codes, blanks, self._alphabet_size, deadline)
        if found is not None:
            return np.frombuffer(found, "<i8").astype(np.int64)
        # A forged alphagram order (or no memory): the twin reads the same index, checks it and says why.
        fallback: np.ndarray = self.python_twin().exact_anagram_ids(codes, blanks, deadline=deadline)
        return fallback

    # -- one-call answers ----------------------------------------------------------------------

    def quick_rack_words(self, rack: str, min_length: int, mode: RackMode,
                         deadline: float | None = None) -> list[str] | None:
        words: list[str] | None = self.probe.rack_words(rack, min_length, _MODE_CODES[mode], deadline)
        return words

    # -- jobs --------------------------------------------------------------------------------

    def game_tables(self, spec: GameSpec) -> GameTables:
        graph = self.graph
        graph.check_structure()
        self.check_consistent()
        try:
            tables: GameTables = self._native.GameTables(spec.layout, spec.tiles, spec.leaves,
                                                         (graph.buffer, graph.tile_masks(), graph.root))
        except ValueError as e:
            raise FileFormatError(f"{self.store.name}: {e}") from None
        return tables

    def _own(self, tables: Any) -> None:
        """Refuse tables another engine or lexicon made (they would answer for another word graph)."""
        if not isinstance(tables, self._native.GameTables) or tables.graph[0] is not self.graph.buffer:
            raise QueryError("the game's tables were made for another lexicon or engine "
                             "(lexigraph.scrabble.tables.game_tables makes a lexicon's)")

    def generate_moves(self, request: MoveRequest, deadline: float | None = None) -> "tuple[np.ndarray, int]":
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        self._own(request.tables)
        try:
            data, count = self._native.generate_moves(request, deadline)
        except ValueError as e:
            raise FileFormatError(f"{self.store.name}: {e}") from None
        except TimeoutError:
            raise DeadlineExceeded("move generation ran past its deadline") from None
        return np.frombuffer(data, move_record_dtype()), count

    def move_generator(self, tables: GameTables) -> "CompiledMoveGenerator":
        self._own(tables)
        return CompiledMoveGenerator(self._native.MoveGenerator(tables), self.store.name, self._native.rank_extras,
                                     self._native.best_extra)

    def play_games(self, request: SelfPlayRequest, first: int, count: int,
                   threads: int = 1) -> "tuple[np.ndarray, np.ndarray]":
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        for player in request.players:
            self._own(player.tables)
        threads = self._threads(threads)
        try:
            turns, games = self._native.play_games(request, first, count, threads)
        except ValueError as e:
            raise FileFormatError(f"{self.store.name}: {e}") from None
        return np.frombuffer(turns, turn_record_dtype()), np.frombuffer(games, game_record_dtype())

    def _threads(self, threads: int) -> int:
        """``threads`` checked, and more than one refused where this build runs no C threads (``threads.h``)."""
        threads = check_threads(threads)
        if threads > 1 and not self._native.threads_available():
            raise QueryError("this build of lexigraph runs no C threads: use threads=1 (workers for processes)")
        return threads

    def solve_endgame(self, request: EndgameRequest, deadline: float | None = None) -> EndgameAnswer:
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        self._own(request.tables)
        try:
            value, complete, depth, nodes, pv, thread_nodes, thread_cpu = self._native.solve_endgame(request, deadline)
        except ValueError as e:
            raise FileFormatError(f"{self.store.name}: {e}") from None
        except MemoryError:  # the table's calloc: the machine's memory is short now, not the lexicon at fault
            raise endgame_table_busy(request.table_entries) from None
        return EndgameAnswer(value, bool(complete), depth, nodes, np.frombuffer(pv, move_record_dtype()), thread_nodes,
                             thread_cpu)

    def endgame_stuck_tiles(self, request: EndgameRequest) -> tuple[bytes, bytes]:
        self._own(request.tables)
        try:
            stuck: tuple[bytes, bytes] = self._native.endgame_stuck_tiles(request)
        except ValueError as e:
            raise FileFormatError(f"{self.store.name}: {e}") from None
        except MemoryError:
            raise endgame_table_busy(request.table_entries) from None
        return stuck

    def simulate_plays(self, request: SimulationRequest, first: int, count: int,
                       deadline: float | None = None, threads: int = 1) -> "np.ndarray":
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        self._own(request.tables)
        threads = self._threads(threads)
        try:
            raw = self._native.simulate_plays(request, first, count, deadline, threads)
        except ValueError as e:
            raise FileFormatError(f"{self.store.name}: {e}") from None
        n = len(request.candidates) // SIMULATION_CANDIDATE_SIZE
        return np.frombuffer(raw, simulation_result_dtype()).reshape(-1, n)

    def rack_leave_values(self, keys: bytes, values: bytes, rack: bytes) -> bytes:
        try:
            table: bytes = self._native.rack_leave_values(keys, values, rack)
        except ValueError as e:
            raise FileFormatError(f"leave table: {e}") from None
        return table

    def filter_rows(self, rows: "np.ndarray", candidates: "np.ndarray", masks: Sequence[int],
                    check: Sequence[int] | None) -> "tuple[np.ndarray, list[int]]":
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        width = rows.shape[1]
        positions = bytes(range(width)) if check is None else bytes(check)
        kept, used = self._native.filter_rows(rows, width, candidates, masks, positions)
        return (candidates if kept is None else np.frombuffer(kept, np.int32)), list(used)

    def fill_state(self, problem: PropagationProblem, candidates: Sequence["np.ndarray"],
                   domains: Sequence[int]) -> FillState:
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        masks = np.asarray(domains, np.uint64)
        state: FillState = self._native.FillState(problem, list(candidates), masks,
                                                  partial(np.frombuffer, dtype=np.int32))
        return state

    def close(self) -> None:
        self.probe.release()


@cache
def _equity_offset() -> int:
    """Where a move record's equity lies (:func:`~lexigraph.engine.interface.move_record_dtype`)."""
    fields = move_record_dtype().fields
    assert fields is not None
    return int(fields["equity"][1])


class CompiledMoveGenerator:
    """The C engine's move generator state (``native/generator.c``: the rack's values and the board's state kept
    between calls, the generation without the GIL), its errors turned into the engine's."""

    def __init__(self, native: Any, name: str, rank: Callable[..., tuple[bytes, bytes]],
                 best_extra: Callable[[bytes, bytes, bool], tuple[int, float] | None]) -> None:
        self._native = native
        self._name = name
        self._rank = rank  # the module's rank_extras (native/ranking.c)
        self.best_extra = best_extra  # :meth:`MoveGeneratorState.best_extra` (native/ranking.c), called directly

    def generate(self, board: "bytes | list[int]", blanks: "bytes | list[bool]", rack: bytes, other_rack: int,
                 top: int, flags: int, deadline: float | None = None, values: bytes = b"") -> GeneratorAnswer:
        import numpy as np  # deferred: NumPy loads on first use (start-up stays light)

        try:
            records, count, valued, bag = self._native.generate(board, blanks, rack, other_rack, top, flags,
                                                                deadline, values)
        except ValueError as e:
            raise FileFormatError(f"{self._name}: {e}") from None
        except TimeoutError:
            raise DeadlineExceeded("move generation ran past its deadline") from None
        return GeneratorAnswer(np.frombuffer(records, move_record_dtype()), count, valued, bag)

    def rank_extras(self, records: "np.ndarray", values: bytes, order: bytes, passes: bool,
                    by_equity: bool) -> RankedExtras:
        """:meth:`MoveGeneratorState.rank_extras` in C (``native/ranking.c``)."""
        places, ranked = self._rank(records, records.itemsize, _equity_offset(), values, order, passes, by_equity)
        return RankedExtras(places, ranked)
