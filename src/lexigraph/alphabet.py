"""Alphabets: the tiles of a lexicon, how text is split into them, and back.

A word is a sequence of *tiles*. Each tile has a label of one or more
characters (``"a"``, ``"ñ"``, ``"ch"``, ``"l·l"``) and a small integer code
(1..255, in alphabet order; 0 never names a tile). Everything inside
lexigraph works on codes; labels appear only at the edges.

Text becomes tiles in three steps: lower case and Unicode NFC; *folding*
(``"á" -> "a"``, ``"œ" -> "oe"``), character by character; then greedy
longest-match splitting over the tile labels and their *aliases*
(``"l.l"`` for ``"l·l"``). Greedy matching never backtracks, as Scrabble
engines do: with tiles ``c``, ``h`` and ``ch``, ``"chocho"`` is always
``ch o ch o``.

Alphabet files are TOML (see ``docs/alphabets.md``)::

    name = "spanish"
    tiles = ["a", "b", "c", "ch", ...]
    vowels = ["a", "e", "i", "o", "u"]
    [aliases]
    [fold]
    "á" = "a"
    [counts]
    a = 12
    [points]
    a = 1
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, cast

from .errors import AlphabetError
from .support.jsontypes import JSONObject
from .support.presets import parse_toml, read_preset, read_spec
from .support.text import cut, quote

MAX_TILES = 255
#: Largest tile count, tile points or blank count an alphabet's tile set may give (points are bytes in the move generators).
MAX_TILE_VALUE = 255
#: Characters with a meaning in racks and patterns; never part of a tile label.
RESERVED = frozenset("?*[]^!@#$;.,/\\'\"`")
PRESETS = ("english", "spanish", "catalan", "french")
_BASE_VOWELS = frozenset("aeiouæøœ")


def nfc_lower(text: str) -> str:
    """Lower-case ``text`` and put it in Unicode NFC.

    >>> nfc_lower("A\\u0301BACO")
    'ábaco'
    """
    text = text.lower()
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", text)


_LATIN1 = "".join(map(chr, range(256)))


class _ZeroForUnknown(dict[int, int]):
    """A ``str.translate`` table that maps every character it lacks to NUL."""

    def __missing__(self, key: int) -> int:
        return 0


class Alphabet:
    """The tiles of a lexicon and the rules that turn text into tiles.

    >>> es = Alphabet.preset("spanish")
    >>> es.split("Chocho")
    ['ch', 'o', 'ch', 'o']
    >>> es.split("calle"), es.split("año")
    (['c', 'a', 'll', 'e'], ['a', 'ñ', 'o'])
    >>> es.split("kilo") is None      # K is not a Spanish Scrabble tile
    True
    """

    def __init__(
        self,
        tiles: Sequence[str],
        *,
        name: str = "custom",
        aliases: Mapping[str, str] | None = None,
        fold: Mapping[str, str] | None = None,
        vowels: Iterable[str] | None = None,
        counts: Mapping[str, int] | None = None,
        points: Mapping[str, int] | None = None,
        blanks: int | None = None,
    ) -> None:
        if isinstance(tiles, (bytes, bytearray)) or not isinstance(tiles, Sequence):
            raise AlphabetError(f"an alphabet's tiles are a list of str, not {type(tiles).__name__}")
        if not tiles:
            raise AlphabetError("an alphabet needs at least one tile")
        if len(tiles) > MAX_TILES:
            raise AlphabetError(f"an alphabet holds at most {MAX_TILES} tiles, not {len(tiles)}")
        labels: list[str] = []
        seen: set[str] = set()
        for raw in tiles:
            label = _clean_label(raw, "tile")
            if label in seen:
                raise AlphabetError(f"duplicate tile {quote(label)}")
            seen.add(label)
            labels.append(label)
        self.name = str(name)
        self.labels: tuple[str, ...] = tuple(labels)
        self._size = len(labels)
        self._code = {label: i + 1 for i, label in enumerate(labels)}

        self.aliases: dict[str, str] = {}
        for raw_alias, raw_tile in (aliases or {}).items():
            alias = _clean_label(raw_alias, "alias", allow_reserved=True)
            tile = nfc_lower(str(raw_tile))
            if tile not in self._code:
                raise AlphabetError(f"alias {quote(alias)} names {quote(tile)}, which is not a tile")
            if alias in self._code or alias in self.aliases:
                raise AlphabetError(f"alias {quote(alias)} is already a tile or an alias")
            self.aliases[alias] = tile

        self.fold: dict[str, str] = {}
        for raw_char, raw_to in (fold or {}).items():
            char = nfc_lower(str(raw_char))
            to = nfc_lower(str(raw_to))
            if len(char) != 1:
                raise AlphabetError(f"fold key {quote(raw_char)} must be one character")
            if char in self._code:
                raise AlphabetError(f"fold key {quote(char)} is also a tile")
            self.fold[char] = to

        if vowels is None:
            vowel_set = {t for t in labels if unicodedata.normalize("NFD", t)[0] in _BASE_VOWELS}
        else:
            vowel_set = set()
            for v in vowels:
                v = nfc_lower(str(v))
                if v not in self._code:
                    raise AlphabetError(f"vowel {quote(v)} is not a tile")
                vowel_set.add(v)
        self.vowels: frozenset[str] = frozenset(vowel_set)
        self.counts = self._per_tile(counts, "count")
        self.points = self._per_tile(points, "points")
        if blanks is not None and (not isinstance(blanks, int) or isinstance(blanks, bool)
                                   or not 0 <= blanks <= MAX_TILE_VALUE):
            raise AlphabetError(f"blanks must be a whole number from 0 to {MAX_TILE_VALUE}")
        self.blanks = blanks

        keys = list(self._code) + list(self.aliases)
        self._key_code = {k: self._code[self.aliases.get(k, k)] for k in keys}
        self.single_char = all(len(k) == 1 for k in keys) and not any(len(v) != 1 for v in self.fold.values())
        self._fold_table = str.maketrans(self.fold) if self.fold else None
        # Longest first: Python's alternation takes the first branch that matches.
        alternation = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
        self._splitter = re.compile(alternation)
        # The same greedy split in one findall: a character no tile starts
        # with comes out alone, finds no code, and fails the encoding.
        self._tokenizer = re.compile(alternation + "|.", re.DOTALL)
        table = _ZeroForUnknown({ord(k): c for k, c in self._key_code.items() if len(k) == 1})
        for k, c in list(self._key_code.items()):
            if len(k) == 1 and k.upper() != k and len(k.upper()) == 1:
                table[ord(k.upper())] = c
        self._char_table = table
        # ASCII input never meets a fold (fold keys are rare ASCII) when every
        # key is one ASCII character: then bytes.translate does all the work.
        if all(len(k) == 1 and k.isascii() for k in keys) and not any(c.isascii() for c in self.fold):
            tr = bytearray(256)
            for k, c in self._key_code.items():
                tr[ord(k)] = c
                tr[ord(k.upper())] = c
            self.byte_table: bytes | None = bytes(tr)
        else:
            self.byte_table = None
        self._label_table = {i + 1: label for i, label in enumerate(labels)}
        self.latin1_table = self._latin1_codes()
        self._latin1 = _latin1_pipeline(self._key_code, self.fold)

    def _latin1_codes(self) -> bytes | None:
        """Latin-1 character -> tile code, then a byte per character that Python must handle; or None.

        Latin-1 text is already NFC, and lower-casing and folding act on one
        character at a time, so when every tile and alias is one character, a
        word in Latin-1 encodes character by character through the first 256
        bytes (0: no word holds it); the C probe does so, with no Unicode
        work, and gets :meth:`encode`'s answer. A character that lower-cases
        or folds into several (``æ`` to ``ae``) is marked in the last 256
        bytes: a word holding one is left to Python.
        """
        if any(len(k) != 1 for k in self._key_code):
            return None
        lower = _LATIN1.lower()  # one character each: Latin-1 has no character whose lower case is longer
        # Characters straight to codes in one translate; folded characters are few, and fixed after.
        table = bytearray(lower.translate(self._char_table).encode("latin-1") + bytes(256))
        for i, ch in enumerate(lower):
            if ch in self.fold:
                to = self.fold[ch]
                if len(to) == 1:
                    table[i] = self._key_code.get(to, 0)
                else:
                    table[i], table[256 + i] = 0, 1
        return bytes(table)

    @cached_property
    def latin1_program(self) -> tuple[bytes, bytes, list[tuple[bytes, int]]] | None:
        """How the C probe encodes Latin-1 words of an alphabet with multi-letter tiles, or None.

        ``(prepare, codes, multi)``: ``prepare`` maps a Latin-1 character to
        the one character lower-casing and folding make of it (0: none that
        any tile uses); ``codes`` maps a prepared character to its one-letter
        tile; ``multi`` lists the longer tiles and aliases, prepared, longest
        first, with their codes. Greedy longest match over them gives the
        same split as :meth:`encode`. None when a fold makes several
        characters or a key lies outside Latin-1.
        """
        if self.single_char or any(len(v) != 1 for v in self.fold.values()):
            return None
        keys = list(self._key_code)
        if any(max(map(ord, k)) > 255 for k in keys) or sum(len(k) > 1 for k in keys) > 32:
            return None
        used = set("".join(keys))
        prepare = bytearray(256)
        codes = bytearray(256)
        for ch in map(chr, range(1, 256)):
            lower = ch.lower()
            if len(lower) != 1:
                continue
            prepared = self.fold.get(lower, lower)
            if prepared in used and ord(prepared) < 256:
                prepare[ord(ch)] = ord(prepared)
        for k, code in self._key_code.items():
            if len(k) == 1:
                codes[ord(k)] = code
        multi = sorted(((k.encode("latin-1"), c) for k, c in self._key_code.items() if len(k) > 1),
                       key=lambda kc: -len(kc[0]))
        if any(len(k) > 8 for k, _ in multi):
            return None
        return bytes(prepare), bytes(codes), multi

    # -- construction -----------------------------------------------------

    def _per_tile(self, values: Mapping[str, int] | None, what: str) -> dict[str, int] | None:
        if not values:
            return None
        out = {}
        for k, v in values.items():
            k = nfc_lower(str(k))
            if k not in self._code:
                raise AlphabetError(f"{what} given for {quote(k)}, which is not a tile")
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_TILE_VALUE:
                raise AlphabetError(f"{what} of {quote(k)} must be a whole number from 0 to {MAX_TILE_VALUE}")
            out[k] = v
        return out

    @classmethod
    def from_letters(cls, letters: Iterable[str], *, name: str = "letters") -> "Alphabet":
        """The alphabet of single characters, in code-point order.

        >>> Alphabet.from_letters("dog").labels
        ('d', 'g', 'o')
        """
        if isinstance(letters, (bytes, bytearray)) or not isinstance(letters, Iterable):
            raise AlphabetError(f"from_letters takes text or strings, not {type(letters).__name__}")
        if not all(isinstance(c, str) for c in letters):
            raise AlphabetError("from_letters takes text or strings")
        chars = sorted({nfc_lower(c) for c in letters})
        return cls(chars, name=name)

    @classmethod
    def preset(cls, name: str) -> "Alphabet":
        """One of the built-in alphabets: ``english``, ``spanish``, ``catalan``, ``french``.

        >>> Alphabet.preset("catalan").split("col.lecció")
        ['c', 'o', 'l·l', 'e', 'c', 'c', 'i', 'o']
        """
        text = read_preset(name, kind="alphabet", folder="alphabets", presets=PRESETS, error=AlphabetError)
        return cls.from_toml(text, origin=f"preset {name}")

    @classmethod
    def load(cls, spec: "str | os.PathLike[str] | Alphabet") -> "Alphabet":
        """A preset by name, or an alphabet file (TOML) by path."""
        if isinstance(spec, Alphabet):
            return spec
        if not isinstance(spec, (str, os.PathLike)):
            raise AlphabetError(f"an alphabet is a preset name, a file path or an Alphabet, not {type(spec).__name__}")
        text, origin = read_spec(os.fspath(spec), kind="alphabet", folder="alphabets", presets=PRESETS, error=AlphabetError)
        return cls.from_toml(text, origin=origin)

    @classmethod
    def from_toml(cls, text: str, *, origin: str = "alphabet") -> "Alphabet":
        return cls.from_dict(parse_toml(text, origin=origin, error=AlphabetError), origin=origin)

    @classmethod
    def from_dict(cls, data: Mapping[str, object], *, origin: str = "alphabet", strict: bool = False) -> "Alphabet":
        """Rebuild an alphabet from :meth:`to_dict` output or a parsed TOML file.

        ``strict`` (for alphabets read from a lexicon file): every tile,
        alias, fold key and vowel must already be in the form lexigraph
        writes (lower case, NFC), so that no path of the reader could
        normalise it differently from another.
        """
        if not isinstance(data, Mapping):
            raise AlphabetError(f"{origin}: an alphabet is a table of fields")
        known = {"name", "tiles", "aliases", "fold", "vowels", "counts", "points", "blanks"}
        extra = set(data) - known
        if extra:
            raise AlphabetError(f"{origin}: unknown field(s) {cut(', '.join(sorted(map(str, extra))), 200)}")
        tiles = data.get("tiles")
        if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
            raise AlphabetError(f"{origin}: 'tiles' must be a list of strings")
        tables = {key: _table(data, key, origin) for key in ("aliases", "fold", "counts", "points")}
        vowels = data.get("vowels")
        if vowels is not None and (not isinstance(vowels, list) or not all(isinstance(v, str) for v in vowels)):
            raise AlphabetError(f"{origin}: 'vowels' must be a list of strings")
        aliases, fold = (_text_table(tables[key], key, origin) for key in ("aliases", "fold"))
        if strict:
            names = [*tiles, *aliases, *aliases.values(), *fold, *fold.values(), *(vowels or [])]
            for text in names:
                if nfc_lower(text) != text or text != text.strip():
                    raise AlphabetError(f"{origin}: {quote(text)} is not in lower-case NFC form")
        try:
            # The counts, points and blanks are checked by the constructor, value by value.
            return cls(
                tiles,
                name=str(data.get("name", "custom")),
                aliases=aliases if "aliases" in data else None,
                fold=fold if "fold" in data else None,
                vowels=vowels,
                counts=cast("Mapping[str, int] | None", tables["counts"]),
                points=cast("Mapping[str, int] | None", tables["points"]),
                blanks=cast("int | None", data.get("blanks")),
            )
        except AlphabetError as e:
            raise AlphabetError(f"{origin}: {e}") from None

    def to_dict(self) -> JSONObject:
        """A JSON-ready description; ``Alphabet.from_dict`` reverses it."""
        out: JSONObject = {"name": self.name, "tiles": list(self.labels)}
        if self.aliases:
            out["aliases"] = dict(self.aliases)
        if self.fold:
            out["fold"] = dict(self.fold)
        out["vowels"] = [t for t in self.labels if t in self.vowels]
        if self.counts:
            out["counts"] = dict(self.counts)
        if self.points:
            out["points"] = dict(self.points)
        if self.blanks is not None:
            out["blanks"] = self.blanks
        return out

    # -- text <-> codes ------------------------------------------------------

    def __len__(self) -> int:
        return len(self.labels)

    def __repr__(self) -> str:
        return f"Alphabet({self.name!r}, {len(self.labels)} tiles)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Alphabet) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(self.labels)

    def code(self, tile: str) -> int | None:
        """The code of a tile label or alias (any case), or ``None``."""
        try:
            return self._key_code.get(nfc_lower(tile))
        except (AttributeError, TypeError):  # not text (caught, not tested first: moves are written tile by tile)
            raise AlphabetError(f"a tile is named by text, not {type(tile).__name__}") from None

    def label(self, code: int) -> str:
        """The label of a tile code (1 to the number of tiles; NumPy integers too)."""
        try:
            if 0 < code <= self._size:  # one comparison on the hot path (moves are written tile by tile)
                return self.labels[code - 1]
        except TypeError:
            pass
        raise AlphabetError(f"{quote(code)} is not a tile code of the alphabet {self.name} (1 to {len(self.labels)})")

    def tile_at(self, text: str, pos: int) -> tuple[int, int] | None:
        """The tile (or alias) that starts at ``text[pos]`` in prepared text: ``(code, end)``, or None.

        Longest match first, as in :meth:`encode`.

        >>> Alphabet.preset("spanish").tile_at("chico", 0)
        (4, 2)
        """
        m = self._splitter.match(text, pos)
        return None if m is None else (self._key_code[m.group()], m.end())

    def prepare(self, text: str) -> str:
        """Lower case, NFC and folding: the text that is split into tiles."""
        if not isinstance(text, str):
            raise AlphabetError(f"tiles are read from text, not {type(text).__name__}")
        text = nfc_lower(text)
        if self._fold_table is not None:
            text = text.translate(self._fold_table)
        return text

    def encode(self, text: str) -> bytes | None:
        """The tile codes of ``text`` as bytes, or ``None`` if it does not split.

        >>> Alphabet.preset("spanish").encode("ch")
        b'\\x04'
        """
        if not isinstance(text, str):
            raise AlphabetError(f"tiles are read from text, not {type(text).__name__}")
        if self.byte_table is not None:
            try:
                key = text.encode("ascii").translate(self.byte_table)
            except UnicodeEncodeError:
                if not self.fold:
                    return None
            else:
                return None if 0 in key else key
        if self._latin1 is not None:
            try:
                raw = text.lower().encode("latin-1")
            except UnicodeEncodeError:
                pass  # beyond Latin-1: the general path below
            else:
                return self._latin1(raw)
        text = self.prepare(text)
        if self.single_char:
            translated = text.translate(self._char_table)
            try:
                raw = translated.encode("latin-1")
            except UnicodeEncodeError:  # pragma: no cover - table maps everything
                return None
            return None if 0 in raw else raw
        try:
            return bytes(map(self._key_code.__getitem__, self._tokenizer.findall(text)))
        except KeyError:  # some character starts no tile
            return None

    def split(self, text: str) -> list[str] | None:
        """``text`` as a list of tile labels, or ``None`` if it does not split."""
        codes = self.encode(text)
        return None if codes is None else [self.labels[c - 1] for c in codes]

    def first_bad_char(self, text: str) -> str | None:
        """The first character where greedy splitting fails (for error messages)."""
        text = self.prepare(text)
        pos = 0
        while pos < len(text):
            m = self._splitter.match(text, pos)
            if m is None:
                return text[pos]
            pos = m.end()
        return None

    def decode(self, codes: bytes) -> str:
        """Tile codes back to text (the tiles' labels, joined).

        >>> es = Alphabet.preset("spanish"); es.decode(es.encode("CHOCHO"))
        'chocho'
        """
        if not isinstance(codes, (bytes, bytearray)):
            raise AlphabetError(f"decode takes tile codes as bytes, not {type(codes).__name__}")
        return codes.decode("latin-1").translate(self._label_table)

    def decode_rows(self, rows: bytes, length: int) -> list[str]:
        """Split ``rows`` (back-to-back words of ``length`` tiles) into words."""
        if not length:
            return []
        text = rows.decode("latin-1")
        if self.single_char:
            text = text.translate(self._label_table)
            return [text[i : i + length] for i in range(0, len(text), length)]
        table = self._label_table
        return [text[i : i + length].translate(table) for i in range(0, len(text), length)]

    @cached_property
    def vowel_codes(self) -> frozenset[int]:
        return frozenset(self._code[v] for v in self.vowels)

    @cached_property
    def english_letters(self) -> bool:
        """Whether every tile is one of the letters a-z: the English tiles (as a plain English list's are).

        >>> Alphabet.from_letters("quiz").english_letters, Alphabet.preset("spanish").english_letters
        (True, False)
        """
        return all(len(label) == 1 and "a" <= label <= "z" for label in self.labels)


def _latin1_pipeline(key_code: Mapping[str, int], fold: Mapping[str, str]) -> "Callable[[bytes], bytes | None] | None":
    """Encoding of lower-case Latin-1 text by byte operations only, or None.

    Latin-1 text is already NFC, so the general path (NFC, fold, greedy
    split) reduces to: fold by ``bytes.translate``; each multi-character
    tile replaced by a placeholder control byte, longest first; every byte
    to its code by ``bytes.translate``. Replacing tile by tile splits like
    the greedy scan as long as no two different tiles can overlap in a text
    (no tile inside another, no tile's end beginning another); alphabets
    where they can (and folds onto several characters) keep the general path.
    """
    fold_table = bytearray(range(256))
    for char, to in fold.items():
        if ord(char) < 256:
            if len(to) != 1 or ord(to) >= 256:
                return None
            fold_table[ord(char)] = ord(to)
    multi = sorted((k for k in key_code if len(k) > 1 and max(map(ord, k)) < 256), key=len, reverse=True)
    if len(multi) > 31:
        return None
    for a in multi:
        for b in multi:
            if a != b and (b in a or any(a.endswith(b[:i]) for i in range(1, len(b)))):
                return None
    codes = bytearray(256)
    for k, c in key_code.items():
        if len(k) == 1 and ord(k) < 256:
            codes[ord(k)] = c
    placeholders = bytes(range(1, len(multi) + 1))
    replacements = []
    for ph, k in zip(placeholders, multi, strict=True):
        replacements.append((k.encode("latin-1"), bytes([ph])))
        codes[ph] = key_code[k]
    fold_bytes = bytes(fold_table) if any(fold_table[i] != i for i in range(256)) else None
    code_bytes = bytes(codes)

    def encode(raw: bytes) -> bytes | None:
        if fold_bytes is not None:
            raw = raw.translate(fold_bytes)
        if replacements:
            if len(raw.translate(None, placeholders)) != len(raw):
                return None  # a control character: never part of a tile
            for k, ph in replacements:
                raw = raw.replace(k, ph)
        key = raw.translate(code_bytes)
        return None if 0 in key else key

    return encode


def _clean_label(raw: object, what: str, *, allow_reserved: bool = False) -> str:
    if not isinstance(raw, str):
        raise AlphabetError(f"{what} {quote(raw)} is not a string")
    label = nfc_lower(raw.strip())
    if not label:
        raise AlphabetError(f"empty {what}")
    if any(ch.isspace() for ch in label):
        raise AlphabetError(f"{what} {quote(label)} contains a space")
    bad = RESERVED.intersection(label) - ({"."} if allow_reserved else set())
    if bad:
        raise AlphabetError(f"{what} {quote(label)} uses reserved character(s) {''.join(sorted(bad))}")
    if any(unicodedata.category(ch)[0] in "NC" for ch in label):
        raise AlphabetError(f"{what} {quote(label)} contains a digit or control character")
    return label


def _table(data: Mapping[str, object], key: str, origin: str) -> Mapping[str, object] | None:
    """The table ``data[key]`` of an alphabet's fields (None when absent); an error when it is not a table."""
    value = data.get(key)
    if value is None and key not in data:
        return None
    if not isinstance(value, Mapping):
        raise AlphabetError(f"{origin}: {quote(key)} must be a table")
    return value


def _text_table(table: Mapping[str, object] | None, key: str, origin: str) -> dict[str, str]:
    """A table of text to text (``aliases``, ``fold``); an error when any key or value is not text."""
    out: dict[str, str] = {}
    for k, v in (table or {}).items():
        if not isinstance(k, str) or not isinstance(v, str):
            raise AlphabetError(f"{origin}: {quote(key)} must map strings to strings")
        out[k] = v
    return out

