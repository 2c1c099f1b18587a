"""The Python engine: every hot loop of :class:`~lexigraph.engine.interface.Engine` in Python and NumPy.

These are the twins of the C engine (:mod:`lexigraph.engine.compiled`), one
module per concern, held to the same answers by the tests:

=====================  ============================  ===========================
module                 what                          C twin (``native/``)
=====================  ============================  ===========================
:mod:`.probe`          exact lookups (hash index)    ``probe.c``, ``encode.c``
:mod:`.batch`          many lookups at once          ``batch.c``
:mod:`.walks`          rack and pattern walks        ``walks.c``
:mod:`.anagrams`       exact anagrams (alphagrams)   ``alphagram.c``
:mod:`.tables`         a game's tables               ``game_tables.c``
:mod:`.movegen`        move generation               ``movegen.c``
:mod:`.game_loop`      the game loop                 ``game_loop.c``
:mod:`.selfplay`       self-play's whole games       ``selfplay.c``
:mod:`.simulation`     the simulation's play-outs    ``playouts.c``
:mod:`.endgame`        the exact endgame             ``endgame.c``
:mod:`.leaves`         a rack's leave values         ``leaves.c``
:mod:`.propagation`    fill propagation              ``fill.c``
=====================  ============================  ===========================

It imports nothing of the C extension: a lexicon opened with
``pure_python=True`` runs every query and job without it.

>>> import lexigraph
>>> engine = lexigraph.open(pure_python=True).engine
>>> engine.kind, engine.quick_exact_anagrams("opt")
('python', None)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

from ...errors import FileFormatError, QueryError
from ..consistency import GraphCheck
from ..interface import UNDECIDED, CrossAnswer, EndgameAnswer, EndgameRequest, FillState, GameSpec, GameTables
from ..interface import MoveRequest
from ..interface import PropagationProblem, RackMode, SelfPlayRequest, SimulationRequest, check_threads
from . import endgame, movegen, selfplay, simulation
from .move_generator import PythonMoveGenerator
from .probe import PythonProbe
from .tables import PythonGameTables
from .walks import pattern_walk, rack_walk

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..store import Store
    from ..wordgraph import WordGraph


def counts_by_code(codes: bytes) -> list[int]:
    """How many of each tile code ``codes`` holds (256 entries).

    >>> counts_by_code(b"\\x01\\x01\\x03")[:4]
    [0, 2, 0, 1]
    """
    counts = [0] * 256
    for c in codes:
        counts[c] += 1
    return counts


class PythonEngine:
    """The pure-Python engine of one open lexicon (see the module docstring)."""

    kind: Literal["c", "python"] = "python"
    #: In Python a graph walk costs more per arc than NumPy's column scan: patterns are scanned.
    pattern_walk_pays = False
    facade_probe: object = None

    def __init__(self, store: "Store", graph: "WordGraph") -> None:
        self.store = store
        self.graph = graph
        self._probe = PythonProbe(store)
        self.id_of_codes: Callable[[bytes], int] = self._probe.id_of_codes
        self._graph_check = GraphCheck(store.name)

    def check_consistent(self) -> None:
        """Raise FileFormatError unless the graph spells exactly the buckets' words (checked once: :mod:`..consistency`)."""
        self._graph_check.require(self._spells_the_buckets)

    def graph_spells_the_buckets(self) -> bool:
        """Whether queries may walk the graph (the check runs once, here if not yet)."""
        return self._graph_check.holds(self._spells_the_buckets)

    def _spells_the_buckets(self) -> bool:
        store = self.store
        try:
            words = pattern_walk(self.graph, [], 1, max(store.lengths, default=0), store.word_count + 1,
                                 budget=store.tile_count + 1)
        except RecursionError:
            raise FileFormatError(f"{store.name}: the word graph holds paths longer than its words") from None
        return sorted(self.id_of_codes(w) for w in words) == list(range(store.word_count))

    def id_of_word(self, word: str) -> int:
        return UNDECIDED

    def check_words(self, words: list[object], contains: Callable[[object], bool]) -> "np.ndarray":
        from .batch import check_arrays  # deferred: NumPy

        return check_arrays(self.store, words)

    # -- walks ------------------------------------------------------------------------------

    def rack_walk_pays(self, blanks: int, mode: RackMode) -> bool:
        # Measured on a 7-tile TWL06 rack: the walk takes 1.8 ms against the scan's 5 ms without
        # blanks, 16 ms with one; the open tail of a super-anagram favours the scan too. The walk
        # reads the graph, so it pays once the graph is known to spell the buckets (a job checked
        # it): the check itself (0.5 s for ENABLE in Python) costs more than a walk saves.
        return blanks == 0 and mode != "super" and self._graph_check.known_to_hold

    def rack_ids(self, codes: bytes, blanks: int, *, mode: RackMode, through: bytes, min_length: int,
                 max_length: int, deadline: float | None = None) -> "np.ndarray":
        return self._ids_of(self._rack(codes, blanks, mode, through, min_length, max_length, deadline))

    def rack_words(self, codes: bytes, blanks: int, *, mode: RackMode, through: bytes, min_length: int,
                   max_length: int, deadline: float | None = None) -> list[str]:
        decode = self.store.alphabet.decode
        return [decode(w) for w in self._rack(codes, blanks, mode, through, min_length, max_length, deadline)]

    def _rack(self, codes: bytes, blanks: int, mode: RackMode, through: bytes, min_length: int,
              max_length: int, deadline: float | None) -> list[bytes]:
        self.check_consistent()  # as in C: no walk answers from a graph that lies
        return rack_walk(self.graph, counts_by_code(codes), counts_by_code(through), blanks, min_length, max_length,
                         mode, deadline=deadline)

    def pattern_ids(self, cells: Sequence[bytes], min_length: int, max_length: int, limit: int = -1, *,
                    deadline: float | None = None) -> "np.ndarray":
        self.check_consistent()
        return self._ids_of(pattern_walk(self.graph, cells, min_length, max_length, limit, deadline=deadline))

    def pattern_words(self, cells: Sequence[bytes], min_length: int, max_length: int, limit: int = -1, *,
                      deadline: float | None = None) -> list[str]:
        self.check_consistent()
        decode = self.store.alphabet.decode
        return [decode(w) for w in pattern_walk(self.graph, cells, min_length, max_length, limit, deadline=deadline)]

    def _ids_of(self, words: list[bytes]) -> "np.ndarray":
        import numpy as np  # deferred: start-up

        ids = [self.id_of_codes(w) for w in words]
        return np.array([i for i in ids if i >= 0], np.int64)

    def exact_anagram_ids(self, codes: bytes, blanks: int, *, deadline: float | None = None) -> "np.ndarray":
        from .anagrams import exact_anagram_ids  # deferred: NumPy

        return exact_anagram_ids(self.store, codes, blanks, deadline=deadline)

    # -- one-call answers: none in Python (the general paths are the Python answers) ---------------

    def quick_exact_anagrams(self, rack: str, deadline: float | None = None) -> list[str] | None:
        return None

    def quick_rack_words(self, rack: str, min_length: int, mode: RackMode,
                         deadline: float | None = None) -> list[str] | None:
        return None

    def quick_prefix_words(self, prefix: str, min_length: int, max_length: int,
                           deadline: float | None = None) -> list[str] | None:
        return None

    def quick_pattern_words(self, pattern: str, deadline: float | None = None) -> list[str] | None:
        return None

    def quick_cross(self, pattern_a: str, pos_a: int, pattern_b: str, pos_b: int,
                    deadline: float | None = None) -> CrossAnswer | None:
        return None

    # -- jobs --------------------------------------------------------------------------------

    def game_tables(self, spec: GameSpec) -> PythonGameTables:
        self.graph.check_structure()
        self.check_consistent()
        try:
            return PythonGameTables(spec.layout, spec.tiles, spec.leaves, self.graph)
        except ValueError as e:
            raise FileFormatError(f"{self.store.name}: {e}") from None

    def _own(self, tables: object) -> PythonGameTables:
        """The request's tables, once known to be this engine's (another engine's or lexicon's would answer for
        another word graph)."""
        if not isinstance(tables, PythonGameTables) or tables.graph is not self.graph:
            raise QueryError("the game's tables were made for another lexicon or engine "
                             "(lexigraph.scrabble.tables.game_tables makes a lexicon's)")
        return tables

    def generate_moves(self, request: MoveRequest, deadline: float | None = None) -> "tuple[np.ndarray, int]":
        return movegen.generate_moves(self._own(request.tables), request, deadline)

    def move_generator(self, tables: GameTables) -> PythonMoveGenerator:
        return PythonMoveGenerator(self._own(tables))

    def play_games(self, request: SelfPlayRequest, first: int, count: int,
                   threads: int = 1) -> "tuple[np.ndarray, np.ndarray]":
        a, b = (self._own(player.tables) for player in request.players)
        check_threads(threads)  # checked as the C engine checks it; the games are played in turn
        return selfplay.play_games((a, b), request, first, count)

    def solve_endgame(self, request: EndgameRequest, deadline: float | None = None) -> EndgameAnswer:
        return endgame.solve_endgame(self._own(request.tables), request, deadline)  # a memory shortage: ResourceBusy, as in C

    def endgame_stuck_tiles(self, request: EndgameRequest) -> tuple[bytes, bytes]:
        return endgame.stuck_tiles(self._own(request.tables), request)

    def simulate_plays(self, request: SimulationRequest, first: int, count: int,
                       deadline: float | None = None, threads: int = 1) -> "np.ndarray":
        check_threads(threads)  # checked as the C engine checks it; the iterations are played in turn
        return simulation.simulate_plays(self._own(request.tables), request, first, count, deadline)

    def rack_leave_values(self, keys: bytes, values: bytes, rack: bytes) -> bytes:
        from .leaves import rack_leave_values  # deferred: NumPy

        return rack_leave_values(keys, values, rack)

    def filter_rows(self, rows: "np.ndarray", candidates: "np.ndarray", masks: Sequence[int],
                    check: Sequence[int] | None) -> "tuple[np.ndarray, list[int]]":
        from .propagation import filter_rows  # deferred: NumPy

        return filter_rows(rows, candidates, masks, check)

    def fill_state(self, problem: PropagationProblem, candidates: Sequence["np.ndarray"],
                   domains: Sequence[int]) -> FillState:
        from .propagation import PythonFillState  # deferred: NumPy

        return PythonFillState(problem, candidates, domains)

    def close(self) -> None:
        self._probe.close()
