"""A game's tables in a lexicon's engine, made once per (lexicon, game, leave table): the one argument every job's
request shares.

A game's tables (its board layout and premiums, its tiles' points, counts
and vowels, its rack size and bingo bonus, a leave table) travel to the
engine as one object, which the engine checks and parses once
(:meth:`lexigraph.engine.interface.Engine.game_tables`: ``native/game_tables.c``
in C, :class:`lexigraph.engine.python.tables.PythonGameTables` in Python) and
which move generation, self-play, the simulation and the endgame read from
every request. This module is where they are made and kept:

* :func:`game_spec`: the game and the leave table as plain bytes
  (:class:`~lexigraph.engine.interface.GameSpec`, the same for every
  lexicon; it pickles, so a run hands it to its workers), kept per game and
  leave table object;
* :func:`game_tables` (from a game) and :func:`tables_for` (from a spec, as a
  worker has it): the engine's tables, kept with the open lexicon
  (:meth:`lexigraph.engine.store.Store.cached`) by the spec's value, so that
  they live and die with the lexicon (closing it drops them) and a worker
  that receives the same spec batch after batch makes them once. A changed
  game or leave table is another spec, hence other tables.

The C engine's tables also carry the lexicon's word map when it has one
beside its file or in the cache (:func:`lexicon_word_map`; never built
here): the move generator then bounds its plays more tightly
(``native/movegen.c``), with the same answers. ``LEXIGRAPH_WORD_MAP=0``
leaves it out.

>>> import lexigraph
>>> from lexigraph.scrabble.game import Game
>>> lex = lexigraph.open()
>>> game = Game.preset("scrabble")
>>> game_tables(lex, game) is game_tables(lex, game)
True
>>> game_spec(game).layout.size, len(game_spec(game).tiles.points)
(15, 27)
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ..compiler.word_map import word_map_for
from ..engine.interface import BoardLayout, GameSpec, GameTables, PackedLeaves, TileSet
from . import equity as eq
from .game import Game
from .leaves import LeaveTable

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Engines
    from ..engine.wordmap import WordMap

#: Set to "0", the environment variable that keeps the word map out of the game's tables.
WORD_MAP_VARIABLE = "LEXIGRAPH_WORD_MAP"

#: Specs kept per (game, leave table) object, and tables per open lexicon: at most this many of each.
MAX_KEPT = 32

#: (id(game), id(leaves)) -> the game, the leave table (kept so that their ids stay theirs) and their spec.
_SPECS: dict[tuple[int, int], tuple[Game, LeaveTable | None, GameSpec]] = {}


def packed_leaves(leaves: LeaveTable | None) -> PackedLeaves:
    """A leave table as the engines look leaves up; empty for none, or for a table whose leaves do not fit a key
    (more than 10 tiles, codes past 63: :attr:`LeaveTable.packed` is None, and only the Python paths read it)."""
    packed = leaves.packed if leaves is not None and len(leaves) else None
    return PackedLeaves() if packed is None else PackedLeaves(packed[0], packed[1])


def _layout(game: Game) -> BoardLayout:
    return BoardLayout(game.size, game.start[0] * game.size + game.start[1], bytes(game.letter_mult),
                       bytes(game.word_mult), eq.opening_penalties(game))


def _tiles(game: Game) -> TileSet:
    return TileSet(bytes(game.points_by_code()), bytes(game.counts_by_code()), eq.vowel_flags(game), game.rack_size,
                   game.bingo_bonus)


def game_spec(game: Game, leaves: LeaveTable | None = None) -> GameSpec:
    """The game and the leave table as the engines take them (see the module docstring), made once per pair of
    objects. The game's tiles must be the lexicon's it will be used with (:meth:`Game.for_lexicon`)."""
    key = (id(game), id(leaves))
    known = _SPECS.get(key)
    if known is None or known[0] is not game or known[1] is not leaves:
        if len(_SPECS) >= MAX_KEPT:
            _SPECS.clear()
        known = _SPECS[key] = (game, leaves, GameSpec(_layout(game), _tiles(game), packed_leaves(leaves)))
    return known[2]


def tables_for(engines: "Engines", spec: GameSpec) -> GameTables:
    """The engine's tables of ``spec``, made once per open lexicon and spec value (a
    :class:`~lexigraph.errors.FileFormatError` when they do not fit the lexicon's graph; a
    :class:`~lexigraph.errors.LexiconError` once the lexicon is closed)."""
    kept: dict[GameSpec, GameTables] = engines.store.cached(("scrabble", "game tables"), dict)
    tables = kept.get(spec)
    if tables is None:
        tables = engines.engine.game_tables(spec)
        _use_word_map(engines, tables)
        if len(kept) >= MAX_KEPT:
            kept.clear()
        kept[spec] = tables
    return tables


def game_tables(engines: "Engines", game: Game, leaves: LeaveTable | None = None) -> GameTables:
    """The engine's tables of ``game`` (in the lexicon's alphabet) with the leave table ``leaves`` (None: none)."""
    return tables_for(engines, game_spec(game, leaves))


def lexicon_word_map(engines: "Engines") -> "WordMap | None":
    """The lexicon's word map if one is beside its file or in the cache (the one
    :meth:`lexigraph.Lexicon.word_map` gives, kept with the open lexicon), else None: never built here, since a
    build costs about half a second for TWL06 and move generation is exact without it."""

    def find() -> "WordMap":
        found = word_map_for(engines.store, engines.store.name, engines.engine.kind, build=False)
        if found is None:
            raise LookupError("no word map")  # not kept: a later build may make one
        return found

    try:
        return engines.store.cached(("word_map",), find)
    except LookupError:
        return None


def _use_word_map(engines: "Engines", tables: GameTables) -> None:
    """Hand the lexicon's word map to the C engine's tables, which bound move generation with it (the Python
    twin finds every play and needs no bounds)."""
    if engines.engine.kind != "c" or os.environ.get(WORD_MAP_VARIABLE) == "0":
        return
    found = lexicon_word_map(engines)
    use: Any = getattr(tables, "use_word_map", None)
    if found is not None and found.lookups is not None and use is not None:
        use(found.lookups)
