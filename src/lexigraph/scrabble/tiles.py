"""Tiles as players write them: racks, boards and plays (upper case, blanks lower case, ``?``, ``[CH]``).

A tile is written upper case, a blank lower case, a blank on a rack as
``?``, a multi-letter tile in brackets (``[CH]``) or, where the alphabet
allows no doubt, plainly (``CH``).

>>> from lexigraph.scrabble.game import Game
>>> g = Game.preset("scrabble")
>>> parse_rack(g, "AALNST?"), rack_text(g, [0, 1, 19])
([1, 1, 12, 14, 19, 20, 0], 'AS?')
"""

from __future__ import annotations

import re
from collections import Counter

from ..errors import LexiconError
from ..support.text import quote
from .game import Game, GameError

#: Longest text read as tiles (a rack, a play, a board row): far above any board's side.
MAX_TILES_TEXT = 1000

#: One written tile: a bracketed multi-letter tile or a single character.
TILE_TOKEN = re.compile(r"\[[^\]]*\]|.", re.DOTALL)


def split_tiles(game: Game, text: str, *, what: str = "tiles", allow_blank: bool = False) -> list[tuple[int, bool]]:
    """``"QU[CH]a?"`` -> [(code, is_blank), ...]. Lower case is a blank; ``?`` an undesignated blank (code 0).

    Runs of letters that are not a tile on their own are split greedily by
    the alphabet (so ``CH`` works for Spanish without brackets).

    >>> g = Game.preset("scrabble")
    >>> split_tiles(g, "Ab?", allow_blank=True)
    [(1, False), (2, True), (0, True)]
    """
    _check(game, text, what)
    alpha = game.alphabet
    out: list[tuple[int, bool]] = []
    for tok in TILE_TOKEN.findall(text):
        if tok == "?" and allow_blank:
            out.append((0, True))
            continue
        label = tok[1:-1] if tok.startswith("[") else tok
        if not label or label.isspace():
            raise GameError(f"bad {what} {quote(text)}: empty tile")
        blank = label == label.lower() and label != label.upper()
        code = alpha.code(label.lower())
        if code is None:
            raise GameError(f"bad {what} {quote(text)}: {quote(tok)} is not a tile of the {game.name} game")
        out.append((code, blank))
    # Greedy regrouping of single characters into multi-letter tiles.
    if not alpha.single_char and any(len(lab) > 1 for lab in alpha.labels) and "[" not in text:
        parts = alpha.split(text.replace("?", "").lower()) if "?" not in text else None
        if parts is not None and len(parts) != len(out):
            merged: list[tuple[int, bool]] = []
            i = 0
            for lab in parts:
                chunk = text[i : i + len(lab)]
                i += len(lab)
                code = alpha.code(lab)
                assert code is not None
                merged.append((code, chunk == chunk.lower() and chunk != chunk.upper()))
            out = merged
    return out


def _check(game: object, text: object, what: str) -> None:
    """Refuse arguments of the wrong type, and texts far longer than any rack or board line."""
    if not isinstance(game, Game):
        raise GameError(f"tiles are read for a Game, not {type(game).__name__}")
    if not isinstance(text, str):
        raise GameError(f"a {what} is text such as 'AEINRST', not {type(text).__name__}")
    if len(text) > MAX_TILES_TEXT:
        raise GameError(f"bad {what} {quote(text)}: longer than {MAX_TILES_TEXT} characters")


def tile_text(game: Game, code: int, blank: bool) -> str:
    """The written form of a tile: upper case, lower case if a blank, bracketed if multi-letter."""
    if code == 0:
        return "?"
    try:
        label = game.alphabet.label(code)  # checks the code
    except LexiconError:
        raise GameError(f"{quote(code)} is not a tile code of the {game.name} game") from None
    s = label.lower() if blank else label.upper()
    return f"[{s}]" if len(label) > 1 else s


def parse_rack(game: Game, text: str) -> list[int]:
    """A rack as tile codes, 0 for a blank (``?``). Raises on tiles the game lacks or more than the bag holds.

    >>> parse_rack(Game.preset("scrabble"), "AALNST?")
    [1, 1, 12, 14, 19, 20, 0]
    """
    _check(game, text, "rack")
    text = text.strip()
    if text in ("", "-"):
        return []
    counts, fast = _counts(game)
    try:
        codes = [fast[ch] for ch in text]
    except KeyError:
        codes = [c for c, _ in split_tiles(game, text.upper(), what="rack", allow_blank=True)]
    for code, n in Counter(codes).items():
        if n > counts[code]:
            label = "?" if code == 0 else game.alphabet.label(code).upper()
            raise GameError(f"rack {quote(text)} holds {n} of {label}; the {game.name} bag has {counts[code]}")
    if len(codes) > game.rack_size:
        raise GameError(f"rack {quote(text)} holds {len(codes)} tiles; a rack holds at most {game.rack_size}")
    return codes


_COUNTS: dict[int, tuple[Game, list[int], dict[str, int]]] = {}


def _counts(game: Game) -> tuple[list[int], dict[str, int]]:
    """The bag's counts by code, and the codes of one-character rack tiles (``?`` -> 0)."""
    got = _COUNTS.get(id(game))
    if got is None or got[0] is not game:
        if len(_COUNTS) > 64:
            _COUNTS.clear()
        fast = {"?": 0}
        for label in game.alphabet.labels:
            if len(label) == 1 and label.upper() != label and len(label.upper()) == 1:
                code = game.alphabet.code(label)
                assert code is not None
                fast[label.upper()] = code
        got = _COUNTS[id(game)] = (game, game.counts_by_code(), fast)
    return got[1], got[2]


def rack_text(game: Game, codes: list[int]) -> str:
    """A rack written from its codes, blanks (0) last as ``?``."""
    try:  # each code is checked by tile_text; tried, not tested first: every move's leave is written here
        return "".join(tile_text(game, c, False) for c in sorted(codes, key=lambda c: (c == 0, c)))
    except TypeError:
        raise GameError(f"rack_text takes tile codes of the {game.name} game") from None
