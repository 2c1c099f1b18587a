"""Grid design: from a size, a symmetry and theme entries to ranked, filled grids.

:func:`design` places the theme entries symmetrically (a central entry in
the middle row, a revealer last, the others longest first, spread over the
rows, an entry's mirror image being another theme entry of its length or a
slot of that length the fill chooses), generates block patterns around them
(every run of open cells 3 or longer, so that every cell is checked; runs no
longer than ``max_run`` except the theme entries; the grid connected; the
blocks and entries within bounds), fills each pattern, and ranks the
proposals: filled ones first, then by the fill's mean priority plus how
freely the pattern fills (the mean, over its open slots, of log10 of the
candidates each keeps once the grid is arc consistent).

The same arguments and seed give the same proposals, unless a time limit
cuts a fill short (the patterns themselves never depend on time).

>>> import lexigraph
>>> lex = lexigraph.open()
>>> r = design(lex, theme=["pancakes", "waffles", "oatmeal"], proposals=1, seed=2, timeout=60)
>>> r.status, [(p.word, p.slot) for p in r.proposals[0].placements]
('filled', [('pancakes', '49A'), ('waffles', '60A'), ('oatmeal', '16A')])
>>> check_pattern(r.proposals[0].pattern, "rotational", themed=True)
[]
"""

from __future__ import annotations

import math
import random
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from ..errors import QueryError
from ..support.text import quote
from .fill import FillResult, Rules, fill, slot_counts
from .grid import BLOCK, MAX_SIDE, Grid

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Engines

Symmetry = Literal["rotational", "left-right", "none"]
SYMMETRIES: tuple[Symmetry, ...] = ("rotational", "left-right", "none")
#: Most entries of a 15x15 grid: themed puzzles, themeless ones (scaled by area for other sizes).
MAX_ENTRIES_THEMED = 78
MAX_ENTRIES_THEMELESS = 72
#: Seconds a pattern's fill may take when the design has no time limit (and no ``fill_timeout``).
FILL_SECONDS = 20.0
#: Most proposals one call may ask for.
MAX_PROPOSALS = 20
#: Weight of the pattern's freedom (mean log10 candidates per open slot) beside the fill's mean priority.
FREEDOM_WEIGHT = 5.0
#: Tries at placing the theme and making a pattern around it, per proposal.
_PATTERN_TRIES = 30
#: Patterns made and measured per proposal asked for, before the best are filled.
_CANDIDATES_PER_PROPOSAL = 4
#: Batches of patterns tried at most while fewer proposals than asked have filled.
_BATCHES = 100
#: Blocks tried, per pattern, at splitting its long runs.
_SPLIT_TRIES = 400
#: No pattern keeps a square this many cells a side with no block (beside the theme): a corner of stacked long
#: entries fills badly at a high minimum priority.
_OPEN_SQUARE = 4
#: Sides below this are small grids: entries as long as the side, open squares allowed.
_SMALL_SIDE = 13
#: Placements of theme entries one layout search tries at most (a theme that does not fit is refused in bounded time).
_LAYOUT_NODES = 3000
#: Layout searches in a row that place no theme: the theme does not fit.
_UNPLACED = 4
#: Most theme letters an entry crossing the theme may hold: one crossing three theme entries seldom fills.
_THEME_CROSSINGS = 2
#: Blocks a pattern may hold beyond the limit while its long runs are split (pruning takes the needless ones out).
_SPARE_BLOCKS = 12

Progress = Callable[[str, int, int], None]
Cell = tuple[int, int]


@dataclass(frozen=True)
class ThemePlacement:
    """A theme entry where the design put it: its slot (``17A``), first cell and direction."""

    word: str
    slot: str
    row: int
    col: int
    direction: Literal["A", "D"]


@dataclass
class Proposal:
    """One designed grid: the pattern (blocks and theme letters), its fill, and what ranks it."""

    pattern: Grid
    placements: list[ThemePlacement]
    fill: FillResult | None
    blocks: int
    entries: int
    freedom: float
    fewest: int
    score: float
    seed: int
    seconds: float = 0.0

    @property
    def status(self) -> str:
        return "no_fill" if self.fill is None else self.fill.status


@dataclass
class DesignResult:
    """``status``: ``filled`` (at least one proposal filled), ``unfilled`` (grids, none filled in time), or
    ``no_grid`` (no pattern met the rules; ``reason`` says why)."""

    status: str
    proposals: list[Proposal] = field(default_factory=list)
    reason: str | None = None
    patterns_tried: int = 0
    seconds: float = 0.0


# -- symmetry ---------------------------------------------------------------------------------------------------


def mirror(cell: Cell, height: int, width: int, symmetry: Symmetry) -> Cell:
    """The cell's image under the symmetry (itself when there is none).

    >>> mirror((0, 1), 15, 15, "rotational"), mirror((0, 1), 15, 15, "left-right"), mirror((0, 1), 15, 15, "none")
    ((14, 13), (0, 13), (0, 1))
    """
    r, c = cell
    if symmetry == "rotational":
        return height - 1 - r, width - 1 - c
    if symmetry == "left-right":
        return r, width - 1 - c
    return r, c


def max_entries(height: int, width: int, themed: bool) -> int:
    """The entry count rule: 78 at 15x15 for a themed puzzle, 72 themeless, scaled by area for other sizes.

    >>> max_entries(15, 15, True), max_entries(15, 15, False), max_entries(21, 21, True)
    (78, 72, 153)
    """
    base = MAX_ENTRIES_THEMED if themed else MAX_ENTRIES_THEMELESS
    return max(2, round(base * height * width / 225))


def default_max_run(height: int, width: int) -> int:
    """The longest entry a pattern holds besides the theme: half the longer side plus one from 13 cells up (8 at
    15x15), the whole side below (a small grid is all short entries).

    >>> default_max_run(15, 15), default_max_run(21, 21), default_max_run(7, 7)
    (8, 11, 7)
    """
    side = max(height, width)
    return side // 2 + 1 if side >= _SMALL_SIDE else side


def max_blocks(height: int, width: int) -> int:
    """A sensible block count: at most 18% of the cells (40 at 15x15; published 15x15 grids hold 30 to 42).

    >>> max_blocks(15, 15), max_blocks(21, 21)
    (40, 79)
    """
    return round(0.18 * height * width)


# -- the checks any proposal passes -----------------------------------------------------------------------------------


def _runs(rows: Sequence[Sequence[bool]]) -> list[list[Cell]]:
    """Every maximal across or down run of open cells (``rows[r][c]``: open), single cells included."""
    h, w = len(rows), len(rows[0])
    out: list[list[Cell]] = []
    for lines in ([[(r, c) for c in range(w)] for r in range(h)], [[(r, c) for r in range(h)] for c in range(w)]):
        for line in lines:
            cur: list[Cell] = []
            for r, c in line:
                if rows[r][c]:
                    cur.append((r, c))
                elif cur:
                    out.append(cur)
                    cur = []
            if cur:
                out.append(cur)
    return out


def check_pattern(grid: Grid, symmetry: Symmetry, *, themed: bool) -> list[str]:
    """What keeps a grid from being a proposal (empty: none): symmetric, connected, every cell checked, entries
    of 3 or more, at most :func:`max_entries` entries and :func:`max_blocks` blocks."""
    h, w = grid.height, grid.width
    open_ = [[not grid.is_block(r, c) for c in range(w)] for r in range(h)]
    problems = []
    for r in range(h):
        for c in range(w):
            y, x = mirror((r, c), h, w, symmetry)
            if open_[r][c] != open_[y][x]:
                problems.append(f"not {symmetry}: ({r + 1}, {c + 1}) and ({y + 1}, {x + 1}) differ")
                break
        if problems:
            break
    short = [run for run in _runs(open_) if len(run) < 3]
    if short:
        problems.append(f"a run of {len(short[0])} at row {short[0][0][0] + 1}, column {short[0][0][1] + 1}")
    cells = [(r, c) for r in range(h) for c in range(w) if open_[r][c]]
    if not cells or len(_reach(open_, cells[0])) != len(cells):
        problems.append("the open cells are not connected")
    entries = len(grid.slots())
    if entries > max_entries(h, w, themed):
        problems.append(f"{entries} entries; at most {max_entries(h, w, themed)}")
    blocks = h * w - len(cells)
    if blocks > max_blocks(h, w):
        problems.append(f"{blocks} blocks; at most {max_blocks(h, w)}")
    return problems


def _reach(open_: Sequence[Sequence[bool]], start: Cell) -> set[Cell]:
    h, w = len(open_), len(open_[0])
    seen = {start}
    todo = deque([start])
    while todo:
        r, c = todo.popleft()
        for y, x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= y < h and 0 <= x < w and open_[y][x] and (y, x) not in seen:
                seen.add((y, x))
                todo.append((y, x))
    return seen


# -- placing the theme --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Entry:
    """A theme entry to place: its tiles, and whether it is the central entry or the revealer."""

    word: str
    tiles: tuple[str, ...]
    central: bool = False
    revealer: bool = False


@dataclass(frozen=True)
class _Spot:
    row: int
    col: int
    direction: Literal["A", "D"]
    length: int

    def cells(self) -> list[Cell]:
        if self.direction == "A":
            return [(self.row, self.col + i) for i in range(self.length)]
        return [(self.row + i, self.col) for i in range(self.length)]

    def caps(self, height: int, width: int) -> list[Cell]:
        """The cells just before and after the entry, inside the grid: blocks."""
        if self.direction == "A":
            ends = [(self.row, self.col - 1), (self.row, self.col + self.length)]
        else:
            ends = [(self.row - 1, self.col), (self.row + self.length, self.col)]
        return [(r, c) for r, c in ends if 0 <= r < height and 0 <= c < width]

    def mirrored(self, height: int, width: int, symmetry: Symmetry) -> "_Spot":
        cells = sorted(mirror(cell, height, width, symmetry) for cell in self.cells())
        return _Spot(cells[0][0], cells[0][1], self.direction, self.length)


class _Layout:
    """Theme entries placed so far: open cells (theme letters, or their mirror slots'), forced blocks."""

    def __init__(self, height: int, width: int, symmetry: Symmetry) -> None:
        self.height, self.width, self.symmetry = height, width, symmetry
        self.letters: dict[Cell, str] = {}
        self.open: set[Cell] = set()
        self.blocks: set[Cell] = set()
        self.spots: dict[_Spot, str | None] = {}  # every theme slot and mirror slot: its word, or None
        self.placed: list[tuple[_Entry, _Spot]] = []

    def fits(self, spot: _Spot, tiles: Sequence[str]) -> bool:
        image = spot.mirrored(self.height, self.width, self.symmetry)
        if spot in self.spots:  # a mirror slot left for the fill: the entry may take it
            return self.spots[spot] is None
        for s in (spot, image):
            cells = set(s.cells())
            if cells & (self.open | self.blocks):
                return False
            if set(s.caps(self.height, self.width)) & self.open:
                return False
            if self._touches(s):
                return False
        if spot != image and set(spot.cells()) & set(image.cells()):
            return False  # an entry crossing its own image
        return True

    def _touches(self, spot: _Spot) -> bool:
        """Whether the entry runs alongside another theme or mirror slot (stacked entries fill badly)."""
        for r, c in spot.cells():
            sides = ((r - 1, c), (r + 1, c)) if spot.direction == "A" else ((r, c - 1), (r, c + 1))
            if any(cell in self.open for cell in sides):
                return True
        return False

    def place(self, entry: _Entry, spot: _Spot) -> None:
        image = spot.mirrored(self.height, self.width, self.symmetry)
        for s in (spot, image):
            self.open.update(s.cells())
            self.blocks.update(s.caps(self.height, self.width))
            self.spots.setdefault(s, None)
        self.spots[spot] = entry.word
        self.letters.update(zip(spot.cells(), entry.tiles))
        self.placed.append((entry, spot))


def _target_rows(count: int, size: int) -> list[int]:
    """``count`` rows (or columns) spread evenly and symmetrically over ``size``."""
    return sorted({round((i + 1) * (size + 1) / (count + 1)) - 1 for i in range(count)})


def _place_theme(entries: Sequence[_Entry], height: int, width: int, symmetry: Symmetry,
                 rng: random.Random) -> _Layout | None:
    """A symmetric layout of the theme entries, or None when none fits."""
    layout = _Layout(height, width, symmetry)
    if not entries:
        return layout
    lengths = [len(e.tiles) for e in entries if not e.central]
    if symmetry == "none":
        positions = len(entries)
    else:  # the rows the entries and their images take: a pair two, an entry alone in the middle one, else two
        pairs = sum(lengths.count(n) // 2 for n in set(lengths))
        alone = [n for n in set(lengths) if lengths.count(n) % 2]
        middle = 1 if any(e.central for e in entries) or any((width - n) % 2 == 0 for n in alone) else 0
        positions = 2 * pairs + middle + 2 * (len(alone) - (middle and not any(e.central for e in entries)))
    targets = _target_rows(max(1, positions), height)
    columns = _target_rows(max(1, positions), width)

    def unpaired(entry: _Entry) -> bool:
        return lengths.count(len(entry.tiles)) % 2 == 1

    def options(entry: _Entry) -> list[_Spot]:
        n = len(entry.tiles)
        spots: list[tuple[float, _Spot]] = []
        for direction in ("A", "D"):
            if direction == "D" and symmetry != "left-right":
                continue  # across entries, as themes sit, except where the symmetry wants downs
            lines, along = (height, width) if direction == "A" else (width, height)
            for line in range(lines):
                for start in range(along - n + 1):
                    spot = _Spot(line, start, "A", n) if direction == "A" else _Spot(start, line, "D", n)
                    image = spot.mirrored(height, width, symmetry)
                    if entry.central and not (direction == "A" and line == height // 2 and start == (width - n) // 2
                                              and image == spot):
                        continue
                    if symmetry == "left-right" and direction == "A" and image != spot:
                        continue  # an across entry is its own image under left-right symmetry: centred
                    distance = min(abs(line - t) for t in (targets if direction == "A" else columns))
                    taken = 0.0 if layout.spots.get(spot, "x") is None else 1.0  # a mirror slot of its length
                    # An entry with no partner of its length is best its own image (the middle row): no mirror
                    # slot of its length for the fill to find.
                    alone = image == spot and unpaired(entry) and symmetry != "none"
                    spots.append((2.0 * distance + 2.0 * taken - 3.0 * alone + rng.random() * 1.5, spot))
        return [s for _, s in sorted(spots, key=lambda x: (x[0], x[1].row, x[1].col))]

    budget = [_LAYOUT_NODES]

    def go(i: int) -> bool:
        if i == len(entries):
            return True
        for spot in options(entries[i])[:40]:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            if layout.fits(spot, entries[i].tiles):
                saved = (dict(layout.letters), set(layout.open), set(layout.blocks), dict(layout.spots),
                         list(layout.placed))
                layout.place(entries[i], spot)
                if go(i + 1):
                    return True
                layout.letters, layout.open, layout.blocks, layout.spots, layout.placed = saved
        return False

    return layout if go(0) else None


# -- the block pattern -------------------------------------------------------------------------------------------------


class _Pattern:
    """A block pattern grown around the theme: blocks (each with its mirror) put where they split a run longer
    than ``max_run`` (the theme entries and their mirror slots excepted), each keeping every run 3 or longer and
    the open cells connected, at most ``limit`` blocks in all."""

    def __init__(self, layout: _Layout, max_run: int, limit: int, rng: random.Random) -> None:
        self.h, self.w, self.symmetry = layout.height, layout.width, layout.symmetry
        self.forced_open = set(layout.open)
        self.blocks: set[Cell] = set()
        self.max_run = max_run
        self.limit = limit
        self.rng = rng
        #: Runs that may be longer than max_run: the theme slots and their images.
        self.long_ok = {tuple(spot.cells()) for spot in layout.spots}
        self.letters = set(layout.letters)
        self.ok = self._add(set(layout.blocks)) and self._close_short_runs()
        self.caps = {mirror(cell, self.h, self.w, self.symmetry) for cell in layout.blocks} | set(layout.blocks)

    def _open(self) -> list[list[bool]]:
        return [[(r, c) not in self.blocks for c in range(self.w)] for r in range(self.h)]

    def _add(self, cells: Iterable[Cell]) -> bool:
        for cell in list(cells):
            for r, c in {cell, mirror(cell, self.h, self.w, self.symmetry)}:
                if (r, c) in self.forced_open:
                    return False
                self.blocks.add((r, c))
        return True

    def _close_short_runs(self) -> bool:
        """Block the runs of one or two cells the caps leave at the edges (none may hold a theme cell)."""
        while True:
            short = [run for run in _runs(self._open()) if len(run) < 3]
            if not short:
                return True
            if not self._add(short[0]):
                return False

    def _valid(self) -> bool:
        open_ = self._open()
        rows = ["".join("." if v else "#" for v in row) for row in open_]
        columns = ["".join(col) for col in zip(*rows)]
        if any(0 < len(part) < 3 for line in rows + columns for part in line.split("#")):
            return False
        cells = [(r, c) for r in range(self.h) for c in range(self.w) if open_[r][c]]
        return bool(cells) and len(_reach(open_, cells[0])) == len(cells)

    def search(self, deadline: float | None = None) -> bool:
        """Split every long run with single blocks (and their mirrors); False when the tries run out first (or
        the deadline passes)."""
        if not self.ok or not self._valid():
            return False
        square: list[Cell] | None = None
        for _ in range(_SPLIT_TRIES):
            if deadline is not None and time.monotonic() > deadline:
                return False
            runs = _runs(self._open())
            long = [run for run in runs if tuple(run) not in self.long_ok and (
                len(run) > self.max_run or sum(1 for cell in run if cell in self.letters) > _THEME_CROSSINGS)]
            if not long:
                square = self._open_square()
                if square is None:
                    self._prune()
                    return len(self.blocks) <= self.limit
                long = [square]  # a corner too open to fill well: a block somewhere inside it
            if len(self.blocks) >= self.limit + _SPARE_BLOCKS:
                return False
            if long[0] is square:
                if not self._block_inside(square):
                    return False
                continue
            run = self.rng.choice(long)
            # Where the block may go: both sides left empty or 3 long, not a theme cell; best where it also
            # splits a long run across it (fewer blocks for the same runs).
            spots = [i for i in range(len(run)) if (i == 0 or i >= 3) and (len(run) - 1 - i == 0 or len(run) - 1 - i >= 3)
                     and run[i] not in self.forced_open]
            if not spots:
                return False
            # Best a block that leaves both sides short enough, and splits a long run across it too.
            done = [i for i in spots if i <= self.max_run and len(run) - 1 - i <= self.max_run]
            crossing = {cell for r in long if r is not run for cell in r}
            self.rng.shuffle(spots)
            done_set = set(done)
            spots.sort(key=lambda i: (i not in done_set, run[i] not in crossing or self.rng.random() < 0.3))
            if not self._split(run, spots):
                return False
        return False

    def _split(self, run: list[Cell], spots: list[int]) -> bool:
        """A block on the first spot that keeps the rules; else on the first where blocking the cell or two it
        leaves at an edge does (a row next to the edge is split so); False when no spot does."""
        for cascade in (False, True):
            for i in spots:
                saved = set(self.blocks)
                if self._add([run[i]]) and (not cascade or self._close_short_runs()) and self._valid():
                    return True
                self.blocks = saved
        return False

    def _open_square(self) -> list[Cell] | None:
        """The first square of :data:`_OPEN_SQUARE` cells a side with no block and a cell the theme leaves free."""
        k = _OPEN_SQUARE
        if min(self.h, self.w) < _SMALL_SIDE:
            return None  # a small grid is all corner
        open_ = self._open()
        for r in range(self.h - k + 1):
            for c in range(self.w - k + 1):
                cells = [(y, x) for y in range(r, r + k) for x in range(c, c + k)]
                if all(open_[y][x] for y, x in cells) and any(cell not in self.forced_open for cell in cells):
                    return cells
        return None

    def _block_inside(self, square: list[Cell]) -> bool:
        """A block (and its mirror) on a free cell of the square, where the runs stay 3 or longer, connected."""
        free = [cell for cell in square if cell not in self.forced_open]
        self.rng.shuffle(free)
        for cell in free:
            saved = set(self.blocks)
            if self._add([cell]) and self._valid():
                return True
            self.blocks = saved
        return False

    def _prune(self) -> None:
        """Open again the blocks (with their mirrors) no rule needs: no run too long or too short, connected."""
        for cell in sorted(self.blocks - self.caps, key=lambda _: self.rng.random()):
            if cell not in self.blocks:
                continue
            pair = {cell, mirror(cell, self.h, self.w, self.symmetry)}
            self.blocks -= pair
            runs = _runs(self._open())
            if not self._valid() or any(len(run) > self.max_run and tuple(run) not in self.long_ok for run in runs) \
                    or self._open_square() is not None:
                self.blocks |= pair

    def grid(self, letters: dict[Cell, str]) -> Grid:
        return Grid([[BLOCK if (r, c) in self.blocks else letters.get((r, c)) for c in range(self.w)]
                     for r in range(self.h)])


# -- the whole design ----------------------------------------------------------------------------------------------------


def _entries(lex: "Engines", theme: Iterable[str], revealer: str | None, central: str | None, height: int,
             width: int, symmetry: Symmetry) -> list[_Entry]:
    alphabet = lex.store.alphabet
    out: list[_Entry] = []
    seen: set[str] = set()

    def entry(word: object, **kind: bool) -> _Entry:
        if not isinstance(word, str):
            raise QueryError(f"a theme entry is text, not {type(word).__name__} {quote(word)}")
        tiles = alphabet.split(word.strip())
        if not tiles:
            raise QueryError(f"the theme entry {quote(word)} is not spelled with the lexicon's tiles")
        spelled = "".join(tiles)
        if spelled in seen:
            raise QueryError(f"the theme entry {quote(word)} is given twice")
        seen.add(spelled)
        longest = max(height, width) if symmetry == "left-right" else width
        if not 3 <= len(tiles) <= longest:
            raise QueryError(f"the theme entry {quote(word)} has {len(tiles)} tiles; entries of this grid have 3 to "
                             f"{longest}")
        return _Entry(spelled, tuple(tiles), **kind)

    if isinstance(theme, str):
        theme = [w for w in theme.replace(",", " ").split() if w]
    if central is not None:
        e = entry(central, central=True)
        if symmetry == "rotational" and height % 2 == 0 or (width - len(e.tiles)) % 2:
            raise QueryError(f"the central entry {quote(central)} cannot sit in the middle of a {height}x{width} "
                             f"grid: its length and the width must both be odd or both even, the height odd")
        out.append(e)
    try:
        others = [entry(w) for w in theme]
    except TypeError:
        raise QueryError("theme must be a list of words") from None
    out += sorted(others, key=lambda e: -len(e.tiles))
    if revealer is not None:
        out.append(entry(revealer, revealer=True))
    return out


def design(
    lex: "Engines",
    *,
    height: int = 15,
    width: int | None = None,
    symmetry: Symmetry = "rotational",
    theme: Iterable[str] = (),
    revealer: str | None = None,
    central: str | None = None,
    proposals: int = 3,
    seed: int = 0,
    timeout: float | None = 60.0,
    rules: Rules | None = None,
    max_run: int | None = None,
    fill_timeout: float | None = None,
    progress: Progress | None = None,
) -> DesignResult:
    """Propose ``proposals`` grids of ``height`` x ``width`` (square by default) around the theme entries, each
    filled under ``rules``, best first (see the module's text).

    ``revealer`` is placed last (the lowest theme row), ``central`` in the middle row, centred. ``max_run``: the
    longest entry the pattern may hold besides the theme entries (default: :func:`default_max_run`, 8 at 15x15). The whole
    call takes at most ``timeout`` seconds; each pattern's fill at most ``fill_timeout`` (default: the time left
    shared among the proposals still to fill, and :data:`FILL_SECONDS` without a ``timeout``), so that a pattern
    hard to fill leaves time to the next. ``progress(stage, done, total)`` counts its milliseconds.
    """
    width = height if width is None else width
    for value, what in ((height, "height"), (width, "width")):
        if not isinstance(value, int) or isinstance(value, bool) or not 3 <= value <= MAX_SIDE:
            raise QueryError(f"the {what} must be an integer from 3 to {MAX_SIDE}")
    if symmetry not in SYMMETRIES:
        raise QueryError(f"symmetry must be one of {', '.join(SYMMETRIES)}, not {quote(symmetry)}")
    if not isinstance(proposals, int) or isinstance(proposals, bool) or not 1 <= proposals <= MAX_PROPOSALS:
        raise QueryError(f"proposals must be an integer from 1 to {MAX_PROPOSALS}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise QueryError("seed must be a non-negative integer")
    if timeout is not None and (not isinstance(timeout, (int, float)) or isinstance(timeout, bool)
                                or not timeout > 0 or math.isinf(timeout)):
        raise QueryError("timeout must be a positive number of seconds")
    longest = max_run if max_run is not None else default_max_run(height, width)
    if not isinstance(longest, int) or isinstance(longest, bool) or not 3 <= longest <= max(height, width):
        raise QueryError(f"max_run must be an integer from 3 to {max(height, width)}")
    if fill_timeout is not None and (not isinstance(fill_timeout, (int, float)) or isinstance(fill_timeout, bool)
                                     or not fill_timeout > 0 or math.isinf(fill_timeout)):
        raise QueryError("fill_timeout must be a positive number of seconds")
    entries = _entries(lex, theme, revealer, central, height, width, symmetry)
    rules = Rules() if rules is None else rules
    start = time.monotonic()
    deadline = None if timeout is None else start + float(timeout)
    themed = bool(entries)
    made: list[Proposal] = []
    tried = 0
    reason = None
    batch = proposals * _CANDIDATES_PER_PROPOSAL
    for first in range(0, batch * _BATCHES, batch):
        if deadline is not None and time.monotonic() >= deadline:
            break
        candidates, tries, why = _candidates(lex, entries, height, width, symmetry, longest, rules, seed, first,
                                             batch, deadline, start, progress)
        tried += tries
        reason = reason or why
        if not tries:
            break  # the theme does not fit: no other batch will do better
        for k, candidate in enumerate(candidates):
            now = time.monotonic()
            wanted_left = proposals - sum(1 for p in made if p.status == "filled")
            if wanted_left == 0 or (deadline is not None and now >= deadline):
                made.append(candidate)  # left unfilled for lack of time: still a proposal
                continue
            if progress is not None and deadline is not None:
                progress(f"design: filling pattern {first + k + 1}", int(1000 * (now - start)),
                         int(1000 * (deadline - start)))
            budget = FILL_SECONDS if deadline is None else max(0.05, (deadline - now) / wanted_left)
            if fill_timeout is not None:
                budget = min(budget, fill_timeout)
            made.append(_filled(lex, candidate, rules, budget))
        if sum(1 for p in made if p.status == "filled") >= proposals:
            break
    made.sort(key=lambda p: (p.status != "filled", -p.score))
    filled = [p for p in made if p.status == "filled"]
    chosen = made[:proposals]
    status = "filled" if filled else "unfilled" if chosen else "no_grid"
    if status == "no_grid" and reason is None:
        reason = "no pattern was found within the time limit"
    return DesignResult(status, chosen, reason if status == "no_grid" else None, tried, time.monotonic() - start)


def _candidates(lex: "Engines", entries: Sequence[_Entry], height: int, width: int, symmetry: Symmetry,
                max_run: int, rules: Rules, seed: int, first: int, count: int, deadline: float | None,
                start: float, progress: Progress | None) -> tuple[list[Proposal], int, str | None]:
    """Patterns ``first`` to ``first + count`` (each from the seed and its number alone), best first by how freely
    they fill: those arc consistency proves unfillable last."""
    made: list[Proposal] = []
    tried = 0
    reason = None
    unplaced = 0
    for attempt in range(first, first + count):
        now = time.monotonic()
        if deadline is not None and now >= deadline:
            break
        if progress is not None and deadline is not None:
            progress(f"design: pattern {attempt + 1}", int(1000 * (now - start)),
                     int(1000 * (deadline - start)))
        found, why, tries = _pattern(entries, height, width, symmetry, max_run, bool(entries), seed, attempt,
                                     deadline)
        tried += tries
        if found is None:
            reason = why
            unplaced = unplaced + 1 if not tries else 0
            if unplaced >= _UNPLACED:
                break  # the theme does not fit: each layout search ran out
            continue
        unplaced = 0
        made.append(_measured(lex, *found, rules, seed + attempt, deadline))
    made.sort(key=lambda p: (p.fewest == 0, -p.freedom))
    return made, tried, reason


def _pattern(entries: Sequence[_Entry], height: int, width: int, symmetry: Symmetry, max_run: int, themed: bool,
             seed: int, attempt: int, deadline: float | None = None) -> tuple[tuple[_Layout, Grid] | None, str, int]:
    """A theme layout and a valid block pattern around it, from the seed and the attempt alone (the clock only
    stops the tries past ``deadline``)."""
    rng = random.Random(f"{seed}/{attempt}")
    limit = max_blocks(height, width)
    why = "the theme entries do not fit the grid symmetrically (each apart from the others, none alongside another)"
    tries = 0
    for _ in range(_PATTERN_TRIES):
        if deadline is not None and time.monotonic() >= deadline:
            return None, "no pattern was found within the time limit", max(tries, 1)
        tries += 1
        layout = _place_theme(entries, height, width, symmetry, rng)
        if layout is None:
            return None, why, 0  # the layout search is whole: another try would fail alike
        pattern = _Pattern(layout, max_run, limit, rng)
        if not pattern.search(deadline):
            why = f"no block pattern around the theme keeps every run from 3 to {max_run} with at most {limit} blocks"
            continue
        grid = pattern.grid(layout.letters)
        problems = check_pattern(grid, symmetry, themed=themed)
        if problems:
            why = f"no pattern met the rules ({problems[0]})"
            continue
        return (layout, grid), "", tries
    return None, why, tries


def _measured(lex: "Engines", layout: _Layout, pattern: Grid, rules: Rules, seed: int,
              deadline: float | None = None) -> Proposal:
    """A pattern as a proposal, not yet filled: its theme's slots, blocks, entries and freedom."""
    numbers = pattern.numbers()
    placements = [ThemePlacement(entry.word, f"{numbers[(spot.row, spot.col)]}{spot.direction}", spot.row, spot.col,
                                 spot.direction) for entry, spot in layout.placed]
    theme = frozenset(p.word for p in placements)
    left = None if deadline is None else max(0.01, deadline - time.monotonic())
    counts = slot_counts(lex, pattern, rules=replace(rules, given_ok=rules.given_ok | theme), timeout=left)
    open_counts = [c.candidates for c in counts.slots if not c.given]
    if counts.status == "no_fill":
        open_counts = [0]
    freedom = sum(math.log10(1 + n) for n in open_counts) / max(1, len(open_counts))
    blocks = sum(1 for row in pattern.cells for v in row if v == BLOCK)
    return Proposal(pattern, placements, None, blocks, len(pattern.slots()), freedom, min(open_counts, default=0),
                    FREEDOM_WEIGHT * freedom, seed)


def _filled(lex: "Engines", proposal: Proposal, rules: Rules, budget: float | None) -> Proposal:
    """The proposal with its fill (none tried when arc consistency already proves there is none)."""
    if proposal.fewest == 0:
        return proposal
    started = time.monotonic()
    theme = [p.word for p in proposal.placements]
    result = fill(lex, proposal.pattern, rules=rules, theme=theme, seed=proposal.seed, timeout=budget)
    mean = result.mean_priority if result.status == "filled" else None
    return replace(proposal, fill=result, score=(mean or 0.0) + FREEDOM_WEIGHT * proposal.freedom,
                   seconds=time.monotonic() - started)
