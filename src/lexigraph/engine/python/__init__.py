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
:mod:`.movegen`        move generation               ``movegen.c``
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

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from ...errors import FileFormatError
from ..interface import UNDECIDED, CrossAnswer, FillState, MoveRequest, PropagationProblem, RackMode, SelfPlayRequest
from ..interface import EndgameAnswer, EndgameRequest, SimulationRequest
from .probe import PythonProbe

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
        self._consistent: bool | None = None
        self._check_lock = threading.Lock()

    def check_consistent(self) -> None:
        """Raise :class:`FileFormatError` unless the graph spells exactly the buckets' words (checked once).

        The jobs that read the graph as a whole (move generation) rely on it:
        every word the graph spells is a word of the lexicon. The walk is
        bounded: no longer than the longest word, no more arcs than the words
        have tiles, no more words than the buckets hold.
        """
        if self._consistent is True:
            return
        with self._check_lock:  # queries run in threads (the server): one check, seen by all
            if self._consistent is None:
                self._consistent = False  # a check that raises has failed, for good
                self._consistent = self._spells_the_buckets()
        if not self._consistent:
            raise FileFormatError(f"{self.store.name}: the word graph and the length buckets hold different words")

    def graph_spells_the_buckets(self) -> bool:
        """Whether the graph spells exactly the buckets' words (the check runs once, here if not yet)."""
        if self._consistent is None:
            try:
                self.check_consistent()
            except FileFormatError:
                pass
        return bool(self._consistent)

    def id_of_word(self, word: str) -> int:
        return UNDECIDED

    def check_words(self, words: list[Any], contains: Callable[[Any], bool]) -> "np.ndarray":
        from .batch import check_arrays

        return check_arrays(self.store, words)

    # -- walks ------------------------------------------------------------------------------

    def rack_walk_pays(self, blanks: int, mode: RackMode) -> bool:
        # Measured on a 7-tile TWL06 rack: the walk takes 1.8 ms against the scan's 5 ms without
        # blanks, 16 ms with one; the open tail of a super-anagram favours the scan too. The walk
        # reads the graph, so it pays once the graph is known to spell the buckets (a job checked
        # it): the check itself (0.5 s for ENABLE in Python) costs more than a walk saves.
        return blanks == 0 and mode != "super" and self._consistent is True

    def rack_ids(self, codes: bytes, blanks: int, *, mode: RackMode, through: bytes, min_length: int,
                 max_length: int, deadline: float | None = None) -> "np.ndarray":
        return self._ids_of(self._rack(codes, blanks, mode, through, min_length, max_length, deadline))

    def rack_words(self, codes: bytes, blanks: int, *, mode: RackMode, through: bytes, min_length: int,
                   max_length: int, deadline: float | None = None) -> list[str]:
        decode = self.store.alphabet.decode
        return [decode(w) for w in self._rack(codes, blanks, mode, through, min_length, max_length, deadline)]

    def _rack(self, codes: bytes, blanks: int, mode: RackMode, through: bytes, min_length: int,
              max_length: int, deadline: float | None) -> list[bytes]:
        from .walks import rack_walk

        self.check_consistent()  # as in C: no walk answers from a graph that lies
        return rack_walk(self.graph, counts_by_code(codes), counts_by_code(through), blanks, min_length, max_length,
                         mode, deadline=deadline)

    def pattern_ids(self, cells: Sequence[bytes], min_length: int, max_length: int, limit: int = -1, *,
                    deadline: float | None = None) -> "np.ndarray":
        from .walks import pattern_walk

        self.check_consistent()
        return self._ids_of(pattern_walk(self.graph, cells, min_length, max_length, limit, deadline=deadline))

    def pattern_words(self, cells: Sequence[bytes], min_length: int, max_length: int, limit: int = -1, *,
                      deadline: float | None = None) -> list[str]:
        from .walks import pattern_walk

        self.check_consistent()
        decode = self.store.alphabet.decode
        return [decode(w) for w in pattern_walk(self.graph, cells, min_length, max_length, limit, deadline=deadline)]

    def _ids_of(self, words: list[bytes]) -> "np.ndarray":
        import numpy as np

        ids = [self.id_of_codes(w) for w in words]
        return np.array([i for i in ids if i >= 0], np.int64)

    def exact_anagram_ids(self, codes: bytes, blanks: int, *, deadline: float | None = None) -> "np.ndarray":
        from .anagrams import exact_anagram_ids

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

    def _spells_the_buckets(self) -> bool:
        from .walks import pattern_walk

        store = self.store
        try:
            words = pattern_walk(self.graph, [], 1, max(store.lengths, default=0), store.word_count + 1,
                                 budget=store.tile_count + 1)
        except RecursionError:
            raise FileFormatError(f"{store.name}: the word graph holds paths longer than its words") from None
        return sorted(self.id_of_codes(w) for w in words) == list(range(store.word_count))

    def generate_moves(self, request: MoveRequest, deadline: float | None = None) -> "tuple[np.ndarray, int]":
        from .movegen import generate_moves

        self.graph.check_structure()
        self.check_consistent()
        return generate_moves(self.graph, request, deadline)

    def play_games(self, request: SelfPlayRequest, first: int, count: int) -> "tuple[np.ndarray, np.ndarray]":
        from .selfplay import play_games

        self.graph.check_structure()
        self.check_consistent()
        return play_games(self, request, first, count)

    def solve_endgame(self, request: EndgameRequest, deadline: float | None = None) -> EndgameAnswer:
        from .endgame import solve_endgame

        self.graph.check_structure()
        self.check_consistent()
        return solve_endgame(self.graph, request, deadline)  # a memory shortage: ResourceBusy, as in C

    def simulate_plays(self, request: SimulationRequest, first: int, count: int,
                       deadline: float | None = None) -> "np.ndarray":
        from .simulation import simulate_plays

        self.graph.check_structure()
        self.check_consistent()
        return simulate_plays(self, request, first, count, deadline)

    def rack_leave_values(self, keys: bytes, values: bytes, rack: bytes) -> bytes:
        from .leaves import rack_leave_values

        return rack_leave_values(keys, values, rack)

    def filter_rows(self, rows: "np.ndarray", candidates: "np.ndarray", masks: Sequence[int],
                    check: Sequence[int] | None) -> "tuple[np.ndarray, list[int]]":
        from .propagation import filter_rows

        return filter_rows(rows, candidates, masks, check)

    def fill_state(self, problem: PropagationProblem, candidates: Sequence["np.ndarray"],
                   domains: Sequence[int]) -> FillState:
        from .propagation import PythonFillState

        return PythonFillState(problem, candidates, domains)

    def close(self) -> None:
        self._probe.close()
