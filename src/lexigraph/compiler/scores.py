"""Scores for any list: word frequency, and layers (a base list, personal lists that override it, exclusions).

Constructors keep scored lists in layers: a big base list, their own list
whose scores win (and which adds words), and a list of words they never
want. :func:`apply_layers` combines them on the normalised words; a build
does it with ``lexigraph build BASE --override MINE.txt --exclude NO.txt``.

``--score-by wordfreq`` gives every word of the base a priority from its
frequency in the language of the alphabet, read from the ``wordfreq``
package (an optional extra: ``pip install 'lexigraph[wordfreq]'``), on this
scale (:func:`zipf_priority`)::

    priority = 20 + 10 x Zipf frequency, rounded (at most 100 in practice)

The Zipf frequency is log10 of a word's frequency per billion words: 3 is
once per million words (priority 50), 2 once per hundred million (40);
words wordfreq does not know get 20. So a minimum of 50 keeps the words of
everyday text, 40 adds the rarer words most solvers know, 30 most of a
Scrabble list.

>>> zipf_priority(3.0), zipf_priority(2.04), zipf_priority(0.0), zipf_priority(7.73)
(50, 40, 20, 97)
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import BuildError
from .normalize import DEFAULT_PRIORITY, WordSet

#: The alphabets that name a language, and its code for wordfreq; other alphabets read as English.
LANGUAGES = {"english": "en", "spanish": "es", "french": "fr", "catalan": "ca"}
#: How scores are made (``--score-by``).
SCORERS = ("wordfreq",)
#: Priority of a word wordfreq does not know, and priority points per unit of Zipf frequency.
ZIPF_BASE, ZIPF_STEP = 20, 10


def zipf_priority(zipf: float) -> int:
    """The priority of a word of this Zipf frequency: 20 + 10 x Zipf, rounded, from 0 to 255."""
    return max(0, min(255, ZIPF_BASE + round(ZIPF_STEP * zipf)))


def language_for(alphabet_name: str, language: str | None = None) -> str:
    """The wordfreq language code: ``language`` if given, else the alphabet's (English for one that names none).

    >>> language_for("spanish"), language_for("letters"), language_for("letters", "fr")
    ('es', 'en', 'fr')
    """
    if language is not None:
        if not isinstance(language, str) or not language.strip():
            raise BuildError("the language is a code such as en, es, fr")
        return language.strip().lower()
    return LANGUAGES.get(alphabet_name, "en")


def wordfreq_priorities(words: Sequence[str], language: str) -> np.ndarray:
    """Each word's priority from its frequency in ``language`` (see the module's scale), as uint8.

    Raises :class:`BuildError` when the ``wordfreq`` package is missing or
    does not know the language.
    """
    try:
        # Deferred: wordfreq is optional and heavy (its tables). Imported by name: it ships no types, and mypy must
        # pass whether or not it is installed.
        wordfreq: Any = importlib.import_module("wordfreq")
    except ImportError:
        raise BuildError(
            "scoring by word frequency needs the wordfreq package: pip install 'lexigraph[wordfreq]'"
        ) from None
    if language not in wordfreq.available_languages():
        known = ", ".join(sorted(wordfreq.available_languages()))
        raise BuildError(f"wordfreq knows no language {language!r}; it knows {known}")
    freq = wordfreq.get_frequency_dict(language)
    out = np.empty(len(words), np.uint8)
    for i, w in enumerate(words):
        f = freq.get(w)
        # zipf_frequency's own rounding: to two decimals of log10 of the frequency per billion words
        out[i] = zipf_priority(round(math.log10(f) + 9, 2)) if f else ZIPF_BASE
    return out


def score_words(words: WordSet, scorer: str, language: str | None = None) -> WordSet:
    """``words`` with every priority replaced by the scorer's (``"wordfreq"``); the report says so."""
    if scorer not in SCORERS:
        raise BuildError(f"unknown scorer {scorer!r}; choose one of {', '.join(SCORERS)}")
    lang = language_for(words.alphabet.name, language)
    decode = words.alphabet.decode
    priorities = wordfreq_priorities([decode(k) for k in words.keys], lang)
    words.report.changed[f"scored by wordfreq ({lang})"] += len(priorities)
    return WordSet(words.alphabet, words.keys, priorities, True, int(priorities.max()) if len(priorities) else None,
                   words.report)


def apply_layers(base: WordSet, overrides: Sequence[tuple[str, WordSet]], excludes: Sequence[tuple[str, WordSet]],
                 *, scorer: str | None = None, language: str | None = None) -> WordSet:
    """The base's words, then each override list's in turn (its scores win; its new words are added),
    less every word of the exclusion lists.

    A list without scores changes no score: its new words get the scorer's
    priority (or the default, 50). In a scored list, a line without a score
    counts as 50, as everywhere. Names label the counts in the build report.

    >>> from lexigraph.compiler.normalize import normalize
    >>> from lexigraph.compiler.sources import parse_lines
    >>> from lexigraph.alphabet import Alphabet
    >>> abc = Alphabet.from_letters("abcdegort")
    >>> base = normalize(parse_lines(["cat;30", "dog;40", "rat;20"], "base"), alphabet=abc)
    >>> mine = normalize(parse_lines(["rat;60", "bee"], "mine"), alphabet=abc)
    >>> no = normalize(parse_lines(["dog"], "no"), alphabet=abc)
    >>> ws = apply_layers(base, [("mine", mine)], [("no", no)])
    >>> [(abc.decode(k), int(p)) for k, p in zip(ws.keys, ws.priorities)]
    [('bee', 50), ('cat', 30), ('rat', 60)]
    >>> dict(ws.report.changed), dict(ws.report.skipped)
    ({'added from mine': 1, 'rescored from mine': 1}, {'excluded by no': 1})
    """
    report = base.report
    prio: dict[bytes, int] = dict(zip(base.keys, base.priorities.tolist()))
    for name, layer in overrides:
        new_keys = [k for k in layer.keys if k not in prio]
        fresh: dict[bytes, int] = {}
        if new_keys and not layer.has_priorities:
            if scorer is not None:
                decode = base.alphabet.decode
                got = wordfreq_priorities([decode(k) for k in new_keys], language_for(base.alphabet.name, language))
                fresh = dict(zip(new_keys, got.tolist()))
        added = rescored = 0
        for key, p in zip(layer.keys, layer.priorities.tolist()):
            if key in prio:
                if layer.has_priorities and prio[key] != p:
                    prio[key] = p
                    rescored += 1
            else:
                prio[key] = p if layer.has_priorities else fresh.get(key, DEFAULT_PRIORITY)
                added += 1
        if added:
            report.changed[f"added from {name}"] += added
        if rescored:
            report.changed[f"rescored from {name}"] += rescored
    for name, layer in excludes:
        gone = sum(1 for k in layer.keys if prio.pop(k, None) is not None)
        if gone:
            report.skipped[f"excluded by {name}"] += gone
    if not prio:
        raise BuildError("no word is left once the exclusion lists are applied")
    keys = sorted(prio)
    priorities = np.fromiter((prio[k] for k in keys), np.uint8, len(keys))
    lengths = np.fromiter(map(len, keys), np.int64, len(keys))
    report.kept = len(keys)
    report.per_length = {int(n): int(c) for n, c in zip(*np.unique(lengths, return_counts=True))}
    return WordSet(base.alphabet, keys, priorities, True, int(priorities.max()), report)
