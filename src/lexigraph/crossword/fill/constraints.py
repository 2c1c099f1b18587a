"""The constructor's constraints beyond priorities: a blocklist, distinct stems, per-slot patterns, locked cells.

These are fields of :class:`~lexigraph.crossword.fill.problem.Rules` (the
blocklist, ``distinct_stems``, ``slot_patterns``) and an argument of the fill
(``locked``). A blocklist and a slot's pattern only narrow each slot's starting
candidates, so the engine's propagation (C or Python) does the rest; the stem
rule is enforced after each decision of the search by striking, from the open
slots, the words that share a stem with a decided entry (:class:`StemRule`),
the same way on both engines.

The stem rule is a deliberately small English stemmer (:func:`stem`): it strips
inflection endings (``-s``, ``-es``, ``-ies`` and ``-ied`` for ``-y``, ``-ed``,
``-ing``, ``-er``, ``-est``) while at least three letters remain, then undoes a doubled
final consonant (``starr`` -> ``star``) and drops a final ``e`` after a
consonant (``bake`` -> ``bak``). Two entries share a stem when their stems are
equal: ``star``, ``stars``, ``starred``, ``starring`` all stem to ``star``.
It errs towards calling words related (``hope`` and ``hop`` share ``hop``).

>>> stem("stars"), stem("starred"), stem("tries"), stem("baking"), stem("bakes"), stem("sing")
('star', 'star', 'try', 'bak', 'bak', 'sing')
>>> parse_slot_pattern("??AR*")
['?', '?', 'a', 'r', '*']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ...errors import QueryError
from ...support.text import quote
from ..grid import Grid, Slot
from .regions import Region, region_cells

if TYPE_CHECKING:  # pragma: no cover
    from ...alphabet import Alphabet
    from ...engine.interface import FillState

#: Inflection endings the stemmer strips, longest first, with what replaces them.
_ENDINGS = (("ies", "y"), ("ied", "y"), ("ing", ""), ("est", ""), ("ed", ""), ("er", ""), ("es", ""), ("s", ""))
#: Letters a stem must keep once an ending is stripped.
_MIN_STEM = 3
_VOWELS = frozenset("aeiouy")
#: Most entries a blocklist may hold (a word each).
MAX_BLOCKLIST = 1_000_000
#: Longest per-slot pattern, in tiles and wildcards.
MAX_PATTERN = 255


def stem(word: str) -> str:
    """The stem two entries may not share under ``distinct_stems`` (see the module's text).

    >>> [stem(w) for w in ("star", "stare", "dresses", "played", "happiest", "call", "bed", "string", "strings")]
    ['star', 'star', 'dress', 'play', 'happy', 'call', 'bed', 'str', 'str']
    """
    base = word.lower()
    changed = True
    while changed:
        changed = False
        for ending, replacement in _ENDINGS:
            if not base.endswith(ending) or len(base) - len(ending) + len(replacement) < _MIN_STEM:
                continue
            rest = base[: -len(ending)]
            if ending == "es" and not rest.endswith(("s", "x", "z", "ch", "sh")):
                continue  # "bakes" is "bake" + s, taken by the next ending
            if ending == "s" and rest.endswith(("s", "u", "i")):
                continue  # "dress", "virus", "iris": not a plural ending
            base = rest + replacement
            changed = True
            break
    if len(base) > _MIN_STEM and base[-1] == base[-2] and base[-1] not in _VOWELS and base[-1] not in "lsz":
        base = base[:-1]  # starr(ed) -> star
    if base.endswith("i") and len(base) > _MIN_STEM:
        base = base[:-1] + "y"  # happi(est) -> happy
    if len(base) > _MIN_STEM and base.endswith("e") and base[-2] not in _VOWELS:
        base = base[:-1]  # bake -> bak, so that baking and bakes meet it
    return base


# -- per-slot patterns --------------------------------------------------------------------------------------


def parse_slot_pattern(text: str) -> list[str]:
    """A slot's pattern as tokens: ``?`` one tile, ``*`` any run of tiles, a tile (``[ch]`` for a multi-letter one).

    >>> parse_slot_pattern("[ch]?*")
    ['ch', '?', '*']
    """
    if not isinstance(text, str) or not text.strip():
        raise QueryError(f"a slot's pattern is text such as '??AR*', not {quote(text)}")
    text = text.strip().lower()
    if len(text) > MAX_PATTERN:
        raise QueryError(f"a slot's pattern has at most {MAX_PATTERN} characters")
    tokens: list[str] = []
    for m in re.finditer(r"\[([^\]]+)\]|(.)", text):
        tile = m.group(1) if m.group(1) is not None else m.group(2)
        if tile in ("[", "]") or not tile.strip() or tile == "#":
            raise QueryError(f"the slot pattern {quote(text)} holds {quote(tile)}: not a tile, '?' or '*'")
        tokens.append(tile)
    return tokens


def parse_slot_patterns(text: object) -> dict[str, str]:
    """``--slot 1A=??AR*,17D=word``: a slot name and a pattern (or a word) per item.

    >>> parse_slot_patterns("1a=??ar*, 17D=lexicon")
    {'1A': '??ar*', '17D': 'lexicon'}
    >>> parse_slot_patterns(["1A=c*"])
    {'1A': 'c*'}
    """
    if text is None or text == "":
        return {}
    items: list[str] = []
    for part in (text if isinstance(text, list) else [text]):
        if not isinstance(part, str):
            raise QueryError("slot patterns are written SLOT=PATTERN,... ('1A=??AR*')")
        items += [x for x in part.replace(";", ",").replace(" ", ",").split(",") if x]
    out: dict[str, str] = {}
    for item in items:
        name, sep, pattern = item.partition("=")
        if not sep or not name.strip() or not pattern.strip():
            raise QueryError(f"slot pattern {quote(item)} is not SLOT=PATTERN (e.g. 1A=??AR*)")
        out[name.strip().upper()] = pattern.strip().lower()
    return out


def _pattern_regex(tokens: Sequence[str], alphabet: "Alphabet", slot: Slot) -> "re.Pattern[bytes]":
    """The pattern over a row's tile codes (one byte a tile), checked against the slot's length."""
    fixed = sum(1 for t in tokens if t != "*")
    stars = "*" in tokens
    if fixed > len(slot) or (not stars and fixed != len(slot)):
        raise QueryError(f"the pattern {quote(''.join(tokens))} for {slot.name} spells {fixed} tiles; {slot.name} has"
                         f" {len(slot)} cells")
    parts: list[bytes] = []
    for t in tokens:
        if t == "*":
            parts.append(b".*")
        elif t == "?":
            parts.append(b".")
        else:
            code = alphabet.code(t)
            if code is None:
                raise QueryError(f"the pattern for {slot.name} holds {quote(t)}, which is not a tile of the lexicon")
            parts.append(re.escape(bytes([code])))
    return re.compile(b"".join(parts), re.DOTALL)


def fixed_word(tokens: Sequence[str]) -> list[str] | None:
    """The tiles of a pattern that names one word (no wildcard), else None."""
    return None if any(t in ("?", "*") for t in tokens) else list(tokens)


def rows_matching(rows: np.ndarray, candidates: np.ndarray, regex: "re.Pattern[bytes]") -> np.ndarray:
    """The candidate rows whose tile codes the pattern matches whole."""
    if not len(candidates):
        return candidates
    width = rows.shape[1]
    data = rows[candidates].tobytes()
    keep = [i for i in range(len(candidates)) if regex.fullmatch(data, i * width, (i + 1) * width)]
    return candidates[np.array(keep, dtype=np.intp)] if keep else candidates[:0]


def slot_regexes(grid: Grid, patterns: Mapping[str, str], alphabet: "Alphabet") -> dict[str, "re.Pattern[bytes]"]:
    """Each slot's pattern (the words fixed in a slot included) as a regex over tile codes, by slot name."""
    return {name: _pattern_regex(parse_slot_pattern(p), alphabet, grid.slot(name)) for name, p in patterns.items()}


def with_fixed_words(grid: Grid, patterns: Mapping[str, str], alphabet: "Alphabet") -> tuple[Grid, list[str]]:
    """The grid with the words fixed in slots written in (they count as given), and those words.

    A fixed word that disagrees with a letter of the grid is an error, not a failed fill: the constructor
    asked for both.
    """
    values: dict[tuple[int, int], str | None] = {}
    words: list[str] = []
    for name, text in patterns.items():
        tokens = parse_slot_pattern(text)
        tiles = fixed_word(tokens)
        if tiles is None:
            continue
        slot = grid.slot(name)
        if len(tiles) != len(slot):
            raise QueryError(f"the word {quote(text)} fixed in {slot.name} has {len(tiles)} tiles; {slot.name} has "
                             f"{len(slot)} cells")
        for t in tiles:
            if alphabet.code(t) is None:
                raise QueryError(f"the word {quote(text)} fixed in {slot.name} holds {quote(t)}, not a tile of the "
                                 f"lexicon")
        for cell, t in zip(slot.cells, tiles):
            have = values.get(cell, grid.cell(*cell))
            if have is not None and have != t:
                raise QueryError(f"the word {quote(text)} fixed in {slot.name} puts {t.upper()} where the grid (or "
                                 f"another fixed word) has {have.upper()} at row {cell[0] + 1}, column {cell[1] + 1}")
            values[cell] = t
        words.append("".join(tiles))
    return (grid.with_cells(values) if values else grid), words


# -- the blocklist ----------------------------------------------------------------------------------------------


def read_blocklist(text: str) -> frozenset[str]:
    """A blocklist file's words: one a line (``WORD`` or ``WORD;SCORE``, the score ignored), ``#`` comments.

    >>> sorted(read_blocklist("# never\\nOrc\\nslur;0\\n\\n"))
    ['orc', 'slur']
    """
    words = set()
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            words.add(line.split(";", 1)[0].strip().lower())
    words.discard("")
    if len(words) > MAX_BLOCKLIST:
        raise QueryError(f"the blocklist holds {len(words):,} words; at most {MAX_BLOCKLIST:,} are accepted")
    return frozenset(words)


def blocked_rows(words: Iterable[str], alphabet: "Alphabet", row_of: Callable[[bytes], int]) -> dict[int, np.ndarray]:
    """The rows (per length) of the blocklist's words the lexicon holds; words it lacks block nothing."""
    by_length: dict[int, list[int]] = {}
    for word in words:
        tiles = alphabet.split(word)
        if not tiles or any(alphabet.code(t) is None for t in tiles):
            continue
        codes = bytes(alphabet.code(t) or 0 for t in tiles)
        row = row_of(codes)
        if row >= 0:
            by_length.setdefault(len(codes), []).append(row)
    return {n: np.unique(np.array(rows, np.int32)) for n, rows in by_length.items()}


# -- locked cells ----------------------------------------------------------------------------------------------------


def unlocked_grid(grid: Grid, target: "set[tuple[int, int]] | None",
                  locked: set[tuple[int, int]]) -> tuple[Grid, set[tuple[int, int]]]:
    """With locked cells: the grid with every letter of the target (the region, else the grid) erased except the
    locked cells', and the cells the fill may write (the target less the locked cells).

    >>> g = Grid([["a", "b"], ["c", None]])
    >>> g2, cells = unlocked_grid(g, None, {(0, 0)})
    >>> g2.cells, sorted(cells)
    ((('a', None), (None, None)), [(0, 1), (1, 0), (1, 1)])
    """
    cells = set(grid.open_cells()) if target is None else set(target)
    free = cells - locked
    erased = {cell: None for cell in free if grid.cell(*cell) is not None}
    return (grid.with_cells(erased) if erased else grid), free


# -- distinct stems ---------------------------------------------------------------------------------------------------


class StemRule:
    """No two entries share a stem (:func:`stem`), two entries the grid gives whole excepted.

    Built once per problem: each row of the lengths the grid uses gets a stem id, and each stem the rows
    (per length) that carry it. :meth:`enforce` runs after each decision has propagated: a decided entry's
    stem is struck from every open slot, and two decided entries of one stem are a failure.
    """

    def __init__(self, words_of_length: Mapping[int, Sequence[str]], outside: Iterable[str] = ()) -> None:
        ids: dict[str, int] = {}
        self.keys: dict[int, np.ndarray] = {}
        family: dict[int, dict[int, list[int]]] = {}
        for length, words in words_of_length.items():
            keys = np.empty(len(words), np.int64)
            for row, word in enumerate(words):
                sid = ids.setdefault(stem(word), len(ids))
                keys[row] = sid
                family.setdefault(sid, {}).setdefault(length, []).append(row)
            self.keys[length] = keys
        #: Per stem id shared by two rows or more: (length, rows) to strike when an entry takes that stem.
        self.family = {sid: [(n, rows) for n, rows in by_length.items()] for sid, by_length in family.items()
                       if sum(len(r) for r in by_length.values()) > 1}
        #: Stem ids of the whole words given outside the slots searched (they hold against every entry).
        self.outside = {ids[s] for s in (stem(w) for w in outside) if s in ids}

    def enforce(self, state: "FillState", lengths: Sequence[int], complete: Sequence[int], given: Sequence[bool],
                blame: int, deadline: float | None) -> int:
        """Strike what the decided entries' stems forbid; -1 consistent, -2 past the deadline, else the slot to blame."""
        by_length: dict[int, list[int]] = {}
        for si in complete:
            by_length.setdefault(lengths[si], []).append(si)
        while True:
            singles = state.singles()
            owner: dict[int, int] = {}  # stem id -> the decided slot holding it (-2: a given word outside)
            for sid in self.outside:
                owner[sid] = -2
            for si in complete:
                row = singles[si]
                if row < 0:
                    continue
                sid = int(self.keys[lengths[si]][row])
                other = owner.get(sid)
                if other is None:
                    owner[sid] = si
                elif not (given[si] and (other == -2 or given[other])):
                    return si if blame < 0 else blame
            struck = False
            for sid, holder in owner.items():
                members = self.family.get(sid)
                if members is None:
                    continue
                for length, rows in members:
                    for t in by_length.get(length, ()):
                        if singles[t] >= 0 or (given[t] and holder != -2 and given[holder]):
                            continue
                        for row in rows:
                            if state.has(t, row):
                                got = state.exclude(t, row, deadline)
                                if got != -1:
                                    return got if got == -2 else (t if blame < 0 else blame)
                                struck = True
                                singles = state.singles()
                                if singles[t] >= 0:
                                    break
            if not struck:
                return -1


# -- the grid a fill starts from -------------------------------------------------------------------------------------


def constrained_grid(grid: Grid, alphabet: "Alphabet", patterns: Mapping[str, str], region: "Region | None",
                     locked: "Region | None") -> tuple[Grid, "set[tuple[int, int]] | None", list[str]]:
    """The grid a fill, a count or a region count starts from: with ``locked`` (a region: slot names, a rectangle,
    cells), every letter of the region (the whole grid without one) is erased but the locked cells', which the
    fill may not change; then the words fixed in slots are written in. Answers the grid, the cells the fill may
    write (None: every empty cell) and the fixed words.

    >>> import lexigraph
    >>> alphabet = lexigraph.load(["cat", "cot"]).alphabet
    >>> g, cells, words = constrained_grid(Grid([["c", "a", "t"]]), alphabet, {"1A": "cot"}, None, None)
    Traceback (most recent call last):
    ...
    lexigraph.errors.QueryError: the word 'cot' fixed in 1A puts O where the grid (or another fixed word) has A at row 1, column 2
    >>> g, cells, words = constrained_grid(Grid([["c", "a", "t"]]), alphabet, {"1A": "cot"}, None, "r1c1:r1c1")
    >>> g.cells, sorted(cells), words
    ((('c', 'o', 't'),), [(0, 1), (0, 2)], ['cot'])
    """
    cells = region_cells(grid, region)
    if locked is not None:
        # Nothing locked (an empty set): every letter of the region may change.
        empty = isinstance(locked, (set, frozenset, list, tuple)) and not locked
        held = set() if empty else region_cells(grid, locked) or set()
        grid, cells = unlocked_grid(grid, cells, held)
    grid, words = with_fixed_words(grid, patterns, alphabet)
    return grid, cells, words
