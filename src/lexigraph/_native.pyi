"""Types of ``lexigraph._native``, lexigraph's one C extension module (sources: ``native/``, ``module.c``).

Every path here has a pure-Python twin, and lexigraph loads the module only
through :func:`lexigraph.buildinfo.c_module`, which honours
``LEXIGRAPH_PURE_PYTHON``. Functions take positional arguments only, at most
eight of them (a job's tables and position travel as one request:
``lexigraph.engine.interface``'s request types, over a ``GameTables``). A walk
that stops early answers one of :data:`WALK_ANSWERS` instead of its output
(``-1``: the word graph points outside itself, a forged file; ``-2``: its
``deadline``, a ``time.monotonic()`` value, passed; ``-3``: it read more arcs
than its budget); ``None`` means "not decided here: the Python path answers".
"""

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, Literal, TypedDict, final, overload

from _typeshed import ReadableBuffer, WriteableBuffer

from .engine.interface import (
    BoardLayout,
    EndgameRequest,
    MoveRequest,
    PackedLeaves,
    PropagationProblem,
    SelfPlayRequest,
    SimulationRequest,
    TileSet,
)

#: One length bucket as the probe reads it: (length, slots offset, slot count, slot width,
#: home slots, rows offset, row count, first id, alphagram order offset, its width).
_TableEntry = tuple[int, int, int, int, int, int, int, int, int, int]

#: ``cross_words``: the tiles both patterns allow where they cross (ascending), each pattern's
#: words that put one there, and per tile how many words of each do.
_CrossAnswer = tuple[bytes, list[str], list[str], list[int], list[int]]

class _Limits(TypedDict):
    MAX_WORD_LENGTH: int
    MAX_ALPHABET_TILES: int
    MAX_MULTI_LETTER_TILES: int
    MAX_MULTI_LETTER_KEY: int
    MAX_RACK_BLANKS: int
    MAX_ARCS: int
    ROTATION_KEY_TILES: int
    MAX_BOARD_SIZE: int
    MAX_MOVE_TILE_CODES: int
    MOVE_RECORD_SIZE: int
    BLANK_FLAG: int
    MAX_FILL_SLOT: int
    FILL_MAX_TILE_CODES: int

#: The arc record's layout (``native/arc.h``): tile mask, accepts bit, last bit, target shift, record size.
ARC_LAYOUT: Final[tuple[int, int, int, int, int]]

#: The limits the C code shares with the Python code (``native/limits.h``), by name.
LIMITS: Final[_Limits]

class _WalkAnswers(TypedDict):
    outside: int
    past_deadline: int
    over_budget: int

#: What a walk answers when it stops early (``native/deadline.h``).
WALK_ANSWERS: Final[_WalkAnswers]

#: A deadline: a ``time.monotonic()`` value, or None for none.
_Deadline = float | None

def monotonic() -> float:
    """The clock the C walks read their deadlines on (``time.monotonic``'s)."""

class Probe:
    """Exact lookups, walks and one-call answers over a mapped lexicon (``lexigraph.engine.compiled.CompiledEngine``)."""

    def attach(
        self,
        buffer: ReadableBuffer,
        char_table: ReadableBuffer,
        tables: list[_TableEntry],
        encodes: bool,
        n_tiles: int,
        prepare: ReadableBuffer = ...,
        multi: list[tuple[bytes, int]] = ...,
        /,
    ) -> None: ...
    def release(self) -> None: ...
    def set_deadline_error(self, cls: type[BaseException], /) -> None: ...
    def attach_graph(self, offset: int, n_arcs: int, root: int, n_tiles: int, /) -> None: ...
    def set_graph(self, offset: int, n_arcs: int, root: int, n_tiles: int, /) -> None: ...
    def id_of_codes(self, codes: bytes, /) -> int: ...
    def id_of_word(self, word: str, /) -> int: ...
    def check_words(self, words: Iterable[object], out: WriteableBuffer, /) -> int: ...
    def walk_rack(
        self,
        rack: ReadableBuffer,
        through: ReadableBuffer,
        blanks: int,
        lengths: tuple[int, int],
        mode: int,
        want_ids: bool = True,
        deadline: _Deadline = None,
        /,
    ) -> bytes | int: ...
    def walk_pattern(
        self,
        masks: ReadableBuffer,
        lengths: tuple[int, int],
        want_ids: bool,
        limit: int,
        deadline: _Deadline = None,
        budget: int = -1,
        /,
    ) -> bytes | int: ...
    def exact_anagram_ids(
        self, codes: ReadableBuffer, blanks: int, n_tiles: int, deadline: _Deadline = None, /
    ) -> bytes | int | None: ...
    def exact_anagram_words(self, rack: str, deadline: _Deadline = None, /) -> list[str] | None: ...
    def rack_words(self, rack: str, min_len: int, mode: int, deadline: _Deadline = None, /) -> list[str] | None: ...
    def prefix_words(
        self, prefix: str, min_len: int, max_len: int, deadline: _Deadline = None, /
    ) -> list[str] | None: ...
    def pattern_words(self, pattern: str, deadline: _Deadline = None, /) -> list[str] | None: ...
    def cross_words(
        self, pattern_a: str, pos_a: int, pattern_b: str, pos_b: int, deadline: _Deadline = None, /
    ) -> _CrossAnswer | None: ...

class Facade:
    """Base of ``lexigraph.Lexicon``: ``in`` and ``check()`` through the lexicon's probe."""

    def __contains__(self, word: object, /) -> bool: ...
    def check(self, word: str, /) -> bool: ...
    def _set_probe(self, probe: object, /) -> None: ...

@final
class GameTables:
    """A game's tables checked once for the C jobs (``native/game_tables.c``): the four arguments, kept."""

    def __init__(
        self, layout: BoardLayout, tiles: TileSet, leaves: PackedLeaves, graph: tuple[ReadableBuffer, bytes, int], /
    ) -> None: ...
    @property
    def layout(self) -> BoardLayout: ...
    @property
    def tiles(self) -> TileSet: ...
    @property
    def leaves(self) -> PackedLeaves: ...
    @property
    def graph(self) -> tuple[ReadableBuffer, bytes, int]: ...
    @property
    def word_map(self) -> WordMap | None: ...
    def use_word_map(self, word_map: WordMap, /) -> bool: ...

@final
class MoveGenerator:
    """A move generator's state kept across calls for one game's tables (``native/generator.c``)."""

    def __init__(self, tables: GameTables) -> None: ...
    @property
    def tables(self) -> GameTables | None: ...
    def generate(
        self,
        board: ReadableBuffer | list[int],
        blanks: ReadableBuffer | list[bool],
        rack: ReadableBuffer,
        other_rack: int,
        top: int,
        flags: int,
        deadline: _Deadline = None,
        values: ReadableBuffer = b"",
        /,
    ) -> tuple[bytes, int, bytes, int]: ...

#: A board's state for the tests (``native/board_state.c``): board_empty, then tiles, points, letter and word
#: multipliers, cross-sets, cross sums, cross-word flags, anchor flags, each 2 * size * size entries.
_BoardState = tuple[int, bytes, bytes, bytes, bytes, bytes, bytes, bytes, bytes]

def board_state(tables: GameTables, board: ReadableBuffer, blanks: ReadableBuffer, /) -> _BoardState: ...
def board_state_after(
    tables: GameTables, board: ReadableBuffer, blanks: ReadableBuffer, plays: Sequence[tuple[Sequence[int], bytes]], /
) -> list[_BoardState]: ...

@final
class WordMap:
    """A word map file's lookups (``native/wordmap.c``; the twin is ``lexigraph.engine.python.wordmap``)."""

    def __init__(self, buffer: ReadableBuffer, /) -> None: ...
    def has_word(self, length: int, codes: bytes, blanks: int, /) -> bool: ...
    def lookup(self, length: int, codes: bytes, blanks: int, /) -> list[tuple[int, int, bytes]]: ...
    def lookup_many(self, length: int, codes: bytes, blanks: int, /) -> int: ...
    def playable_lengths(self, codes: bytes, blanks: int, /) -> int: ...

class FillState:
    """A crossword grid's candidates and domains kept arc consistent, with a trail (``lexigraph.crossword.fill``)."""

    def __init__(
        self,
        problem: PropagationProblem,
        candidates: list[ReadableBuffer],
        domains: ReadableBuffer,
        wrap: Callable[[bytes], Any],
        /,
    ) -> None: ...
    def propagate(self, queue: dict[int, Iterable[int] | None], singles: Iterable[int], deadline: float | None, /) -> int: ...
    def assign(self, slot: int, row: int, deadline: float | None, /) -> int: ...
    def exclude(self, slot: int, row: int, deadline: float | None, /) -> int: ...
    def set_tile(self, cell: int, code: int, deadline: float | None, /) -> int: ...
    def exclude_tile(self, cell: int, code: int, deadline: float | None, /) -> int: ...
    def set_nogoods(self, packed: ReadableBuffer, /) -> None: ...
    def apply_nogoods(self, blame: int, deadline: float | None, /) -> int: ...
    def mark(self) -> int: ...
    def undo(self, mark: int, /) -> None: ...
    def sizes(self) -> list[int]: ...
    def singles(self) -> list[int]: ...
    def candidates(self, slot: int, /) -> Any: ...
    def best_row(self, slot: int, keys: ReadableBuffer, crossings: ReadableBuffer, room: ReadableBuffer,
                 taken: Sequence[int], /) -> int: ...
    def counts(self, slot: int, position: int, /) -> Any: ...
    def has(self, slot: int, row: int, /) -> bool: ...
    def domain(self, cell: int, /) -> int: ...
    def domains(self) -> list[int]: ...
    @property
    def filters(self) -> int: ...
    @property
    def trail_length(self) -> int: ...
    @property
    def owned_bytes(self) -> int: ...
    eager_limit: int

@overload
def walk_codes(arcs: ReadableBuffer, root: int, key: ReadableBuffer, /) -> tuple[int, bool] | None | Literal[-1]: ...
@overload
def walk_codes(
    arcs: ReadableBuffer, root: int, key: ReadableBuffer, list_limit: int, /
) -> tuple[int, bool] | tuple[int, bool, bytes] | None | Literal[-1]: ...
def home_slot(codes: ReadableBuffer, home: int, /) -> int: ...
def build_graph(
    flat: ReadableBuffer, starts: ReadableBuffer, lens: ReadableBuffer, max_arcs: int, /
) -> tuple[bytes, int] | tuple[None, int] | None: ...
def hash_table(rows: ReadableBuffer, count: int, length: int, size: int, /) -> bytes: ...
def alphagram_order(rows: ReadableBuffer, count: int, length: int, /) -> bytes: ...
def bucket_rows(flat: ReadableBuffer, starts: ReadableBuffer, ids: ReadableBuffer, length: int, /) -> bytes: ...
def word_map_tables(
    rows: ReadableBuffer, count: int, length: int, highest_code: int, max_blanks: int, /
) -> list[tuple[bytes, bytes, int]]: ...
def kwg_layout(flat: ReadableBuffer, lens: ReadableBuffer, gaddag: bool, max_nodes: int, /) -> bytes | int: ...
def scan_ascii(
    data: ReadableBuffer, table: bytes | None, min_len: int, max_len: int, char_cap: int, /
) -> tuple[bytes, bytes, bytes, int, int, int, int, bool] | None: ...
def generate_moves(request: MoveRequest, deadline: _Deadline = None, /) -> tuple[bytes, int]: ...
def word_map_path(mode: int, /) -> int: ...
def rack_leave_values(keys: ReadableBuffer, values: ReadableBuffer, rack: bytes, /) -> bytes: ...
def rank_extras(
    records: ReadableBuffer, record_size: int, equity_offset: int, values: ReadableBuffer, order: ReadableBuffer,
    passes: bool, by_equity: bool, /
) -> tuple[bytes, bytes]: ...
def best_extra(values: ReadableBuffer, order: ReadableBuffer, passes: bool, /) -> tuple[int, float] | None: ...
def play_games(request: SelfPlayRequest, first: int, count: int, threads: int = 1, /) -> tuple[bytes, bytes]: ...
def threads_available() -> bool: ...
def solve_endgame(
    request: EndgameRequest, deadline: _Deadline = None, /
) -> tuple[int, int, int, int, bytes, tuple[int, ...], tuple[float, ...]]: ...
def endgame_root_order(
    request: EndgameRequest, depth: int, busy: list[int], /
) -> tuple[tuple[int, ...], int, int, bytes]: ...
def endgame_stuck_tiles(request: EndgameRequest, /) -> tuple[bytes, bytes]: ...
def endgame_borrowed_bounds(
    request: EndgameRequest, planted: list[tuple[int, int, int]], /
) -> tuple[int, int, int, int, int]: ...
def endgame_iterations(
    request: EndgameRequest, last_depth: int, deadline: _Deadline = None, /
) -> tuple[list[tuple[int, int, float]], int]: ...
def simulate_plays(
    request: SimulationRequest, first: int, count: int, deadline: _Deadline = None, threads: int = 1, /
) -> bytes: ...
def simulation_deals(request: SimulationRequest, first: int, count: int, /) -> bytes: ...
def filter_rows(
    rows: ReadableBuffer, width: int, idx: ReadableBuffer, masks: Iterable[int], check: ReadableBuffer, /
) -> tuple[bytes | None, tuple[int, ...]]: ...
