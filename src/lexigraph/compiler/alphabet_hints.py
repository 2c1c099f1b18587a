"""Alphabet hints: the preset alphabet that would keep a list's words as tiles, when the build used another.

A Spanish list built without ``--alphabet spanish`` builds: its words are
split into single letters (CH two tiles, ``á`` a tile of its own), and
``anagram 'CH O O ?'`` then finds nothing. The build cannot know the
language, but the words can tell, and a build says so in a note of its
report (:attr:`lexigraph.compiler.normalize.Report.notes`) naming the
alphabet to build with. The rule (``docs/alphabets.md``):

A preset can be named when it splits at least :data:`KEEPS` of the words
and, against an alphabet given (not inferred), keeps more of them intact
(split without folding a character). Then:

1. **A preset's own letters.** The words hold one of its *marks*: a tile
   (or an alias of one) that is not made of the letters a-z, that no other
   preset has, and that holds a character beyond ASCII letters (``ñ`` for
   ``spanish``; ``ç`` and ``l·l``, written ``l.l`` too, for ``catalan``);
   and the alphabet used lacks some of its tiles beyond a-z (``ch``,
   ``ll``, ``rr``, ``ñ``). English and French have no marks: their tiles
   are a-z.
2. **Letters outside the alphabet given.** The alphabet given left out more
   than :data:`OUTSIDE` of the words as outside it (more than a few
   loanwords).

Rule 1 is tried first; among the presets a rule can name, the one that keeps
the most words intact wins, then the one that splits the most (then the order
of :data:`lexigraph.alphabet.PRESETS`). So a build with the alphabet named
names no other: following a note ends it.
The shares are measured on at most :data:`SAMPLE` words spread over the list,
so a hint costs a bounded time whatever the list. Measured on the shared
lists: Spanish splits 99.95% of a Spanish list and 86% of English ones
(TWL06, SCOWL: their K and W words), Catalan 96% of a Spanish list.

>>> from lexigraph.alphabet import Alphabet
>>> words = ["año", "niño", "chocho", "calle", "perro", "ocho"]
>>> hint = alphabet_hint(words, Alphabet.from_letters("".join(words)), outside=0, inferred=True)
>>> hint.alphabet, hint.message
('spanish', '2 words hold Ñ, a tile of the spanish alphabet; the letters alphabet has no CH, LL, RR tiles: --alphabet spanish keeps them as tiles (it splits 100% of the words)')
>>> alphabet_hint(["cat", "dog"], Alphabet.from_letters("catdog"), outside=0, inferred=True) is None
True
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..alphabet import PRESETS, Alphabet

#: The share of a list's words a preset must split to be named.
KEEPS = 0.98
#: The share of the words an alphabet given must leave out as outside it before another is named (rule 2).
OUTSIDE = 0.02
#: Most words a hint looks at (spread evenly over the list).
SAMPLE = 20_000


@dataclass(frozen=True)
class AlphabetHint:
    """A preset alphabet (``alphabet``) that would keep the words, and the note that says why (``message``)."""

    alphabet: str
    message: str


@lru_cache(maxsize=None)
def _preset(name: str) -> Alphabet:
    return Alphabet.preset(name)


@lru_cache(maxsize=None)
def marks(name: str) -> frozenset[str]:
    """The preset's own marks: its tiles and aliases beyond the letters a-z that no other preset has, holding a
    character that is not an ASCII letter.

    >>> sorted(marks("spanish")), sorted(marks("catalan")), sorted(marks("english"))
    (['ñ'], ['l.l', 'l·l', 'l•l', 'ç', 'ŀl'], [])
    """
    alphabet = _preset(name)
    others: set[str] = set()
    for other in PRESETS:
        if other != name:
            others |= set(_preset(other).labels) | set(_preset(other).aliases)
    keys = [*alphabet.labels, *alphabet.aliases]
    return frozenset(k for k in keys if k not in others and not (k.isascii() and k.isalpha()))


def _beyond_az(alphabet: Alphabet) -> list[str]:
    return [label for label in alphabet.labels if not (len(label) == 1 and "a" <= label <= "z")]


def _intact(alphabet: Alphabet, word: str) -> bool:
    """Whether ``alphabet`` splits ``word`` without folding a character of it."""
    return alphabet.encode(word) is not None and not any(ch in alphabet.fold for ch in word)


def _shown(tiles: Sequence[str]) -> str:
    return ", ".join(t.upper() for t in tiles)


def _sample(words: Sequence[str]) -> list[str]:
    step = max(1, len(words) // SAMPLE)
    return [words[i] for i in range(0, len(words), step)][:SAMPLE]


def _counted(words: list[str], used: Alphabet, presets: Sequence[Alphabet]) -> list[str]:
    """The words a share is measured on: letters (and combining marks), or text some alphabet splits."""
    def letters(w: str) -> bool:
        return bool(w) and all(unicodedata.category(ch)[0] in "LM" for ch in w)

    return [w for w in words if letters(w) or used.encode(w) is not None
            or any(p.encode(w) is not None for p in presets)]


def alphabet_hint(words: Sequence[str], used: Alphabet, *, outside: int, inferred: bool = False) -> AlphabetHint | None:
    """The preset to name for ``words`` (lower case, NFC) built with ``used`` (``inferred``: the alphabet the build
    inferred from the words), which left ``outside`` of them out as outside it; None when the rule names none
    (see the module docstring)."""
    chars = set("".join(words))
    candidates = [_preset(name) for name in PRESETS if name != used.name]
    marked = [p for p in candidates if any(set(m) <= chars for m in marks(p.name))]
    total = len(words)
    many_outside = bool(total) and outside > OUTSIDE * total
    if not marked and not many_outside:
        return None  # the usual list: no work
    sample = _counted(_sample(words), used, candidates)
    if not sample:
        return None
    split = {p.name: sum(p.encode(w) is not None for w in sample) / len(sample) for p in candidates}
    intact = {p.name: sum(_intact(p, w) for w in sample) for p in candidates}
    # An alphabet given must be outdone at keeping words as written; an inferred one keeps every letter, but
    # splits CH as C and H, which is what rule 1 is about.
    intact_used = -1 if inferred else sum(_intact(used, w) for w in sample)
    ranked = sorted(candidates, key=lambda p: (-intact[p.name], -split[p.name]))  # ties in the order of PRESETS
    able = [p for p in ranked if split[p.name] >= KEEPS and intact[p.name] > intact_used]

    for p in able:  # rule 1: a preset's own letters
        lacking = [t for t in _beyond_az(p) if t not in used.labels]
        found = sorted(m for m in marks(p.name) if any(m in w for w in words)) if p in marked and lacking else []
        if found:
            count = sum(any(m in w for m in found) for w in words)
            what = "a tile" if len(found) == 1 else "tiles"
            return AlphabetHint(p.name, f"{count:,} word{'s' if count != 1 else ''} hold {_shown(found)}, {what} "
                                        f"of the {p.name} alphabet; the {used.name} alphabet has no "
                                        f"{_shown(lacking)} tiles: --alphabet {p.name} keeps them as tiles (it "
                                        f"splits {split[p.name]:.0%} of the words)")
    if many_outside and able:  # rule 2: letters outside the alphabet given
        p = able[0]
        return AlphabetHint(p.name, f"{outside:,} word{'s' if outside != 1 else ''} ({outside / total:.0%}) have "
                                    f"letters outside the {used.name} alphabet: --alphabet {p.name} keeps them (it "
                                    f"splits {split[p.name]:.0%} of the words)")
    return None


__all__ = ["AlphabetHint", "KEEPS", "OUTSIDE", "SAMPLE", "alphabet_hint", "marks"]
