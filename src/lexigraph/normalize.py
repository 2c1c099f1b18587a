"""Normalisation: raw lines to the lexicon's words as tile codes.

Every word is lower-cased and put in Unicode NFC, then split into tiles.
Lines that are not words are skipped and counted by reason, so a build can
say exactly what it left out and why.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .alphabet import MAX_TILES, Alphabet, nfc_lower
from .errors import BuildError
from .sources import RawWords

DEFAULT_PRIORITY = 50
#: Longest word a lexicon holds, in tiles (lengths are stored in a byte).
MAX_LENGTH = MAX_TILES


@dataclass
class Report:
    """What a build kept and skipped.

    >>> r = Report(kept=3, skipped=Counter({"digits": 1}))
    >>> r.skipped_total
    1
    """

    kept: int = 0
    skipped: Counter = field(default_factory=Counter)
    duplicates: int = 0
    per_length: dict[int, int] = field(default_factory=dict)
    lines: int = 0

    @property
    def skipped_total(self) -> int:
        return sum(self.skipped.values())

    def to_dict(self) -> dict:
        return {
            "lines": self.lines,
            "kept": self.kept,
            "duplicates": self.duplicates,
            "skipped": dict(sorted(self.skipped.items())),
            "per_length": {str(k): v for k, v in sorted(self.per_length.items())},
        }


@dataclass
class WordSet:
    """Unique words as sorted tile-code strings, with a priority each."""

    alphabet: Alphabet
    keys: list[bytes]
    priorities: np.ndarray
    has_priorities: bool
    score_max: int | None
    report: Report


def reason_for(word: str) -> str:
    """Why ``word`` is not a word (for the build summary)."""
    cats = {unicodedata.category(ch)[0] for ch in word}
    if any(ch.isspace() for ch in word):
        return "space inside"
    if "N" in cats:
        return "digits"
    if "P" in cats:
        return "punctuation"
    if "C" in cats:
        return "control characters"
    if "S" in cats:
        return "symbols"
    return "outside the alphabet"


def _is_letters(word: str) -> bool:
    """Letters and combining marks only (NFC leaves marks that have no precomposed form)."""
    if word.isalpha():
        return True
    return all(unicodedata.category(ch)[0] in "LM" for ch in word) and unicodedata.category(word[0])[0] == "L"


def normalize(
    raw: RawWords,
    *,
    alphabet: Alphabet | None = None,
    min_length: int = 2,
    max_length: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> WordSet:
    """Turn raw words into a :class:`WordSet`; see the module docstring."""
    if min_length < 1:
        raise BuildError("min_length must be at least 1")
    max_len = MAX_LENGTH if max_length is None else max_length
    if max_len > MAX_LENGTH:
        raise BuildError(f"max_length is at most {MAX_LENGTH}")
    if max_len < min_length:
        raise BuildError(f"max_length ({max_len}) is below min_length ({min_length})")
    report = Report(lines=raw.lines)
    report.skipped.update(raw.skipped)
    skipped = report.skipped
    # Anything longer than this many characters cannot fit in MAX_LENGTH tiles
    # of any alphabet that folds at most 4 characters into one.
    char_cap = 8 * MAX_LENGTH
    words = raw.words
    scores = raw.scores
    total = len(words)
    kept: dict[bytes, int] = {}
    duplicates = 0
    if alphabet is None and raw.kind in ("dawg32", "daw"):
        # Graph readers yield lower-case letters only (they refuse anything else).
        chars = set("".join(words))
        if not chars:
            raise BuildError(f"{raw.name}: no words found")
        alphabet = Alphabet.from_letters(chars)
    elif alphabet is None:
        clean: list[str] = []
        clean_scores: list[int | None] = []
        for i, w in enumerate(words):
            if not w:
                skipped["empty"] += 1
                continue
            if len(w) > char_cap:
                skipped["too long"] += 1
                continue
            if w.isascii():
                if not w.isalpha():
                    skipped[reason_for(w)] += 1
                    continue
                w = w.lower()
            else:
                w = nfc_lower(w)
                if not _is_letters(w):
                    skipped[reason_for(w)] += 1
                    continue
            clean.append(w)
            if scores is not None:
                clean_scores.append(scores[i])
        chars = set("".join(clean))
        if len(chars) > MAX_TILES:
            raise BuildError(
                f"the list uses {len(chars)} different letters; a lexicon holds at most {MAX_TILES} tiles "
                "(pass an alphabet to fold or limit them)"
            )
        if not chars:
            raise BuildError(f"{raw.name}: no words found ({_skip_summary(skipped)})")
        alphabet = Alphabet.from_letters(chars)
        words = clean
        scores = clean_scores if scores is not None else None
    encode = alphabet.encode
    default = DEFAULT_PRIORITY
    step = max(1, total // 50)
    for i, w in enumerate(words):
        if progress is not None and i % step == 0:
            progress("normalising", i, len(words))
        if len(w) > char_cap:
            skipped["too long"] += 1
            continue
        key = encode(w)
        if key is None:
            skipped[reason_for(alphabet.prepare(w)) if w else "empty"] += 1
            continue
        n = len(key)
        if n < min_length:
            skipped["too short"] += 1
            continue
        if n > max_len:
            skipped["too long"] += 1
            continue
        score = default if scores is None or scores[i] is None else scores[i]
        old = kept.get(key)
        if old is None:
            kept[key] = score
        else:
            duplicates += 1
            if score > old:
                kept[key] = score
    if not kept:
        raise BuildError(f"{raw.name}: no words left to build a lexicon from ({_skip_summary(skipped)})")
    keys = sorted(kept)
    priorities = np.fromiter((kept[k] for k in keys), np.uint8, len(keys))
    report.kept = len(keys)
    report.duplicates = duplicates
    lengths = Counter(map(len, keys))
    report.per_length = dict(sorted(lengths.items()))
    return WordSet(alphabet, keys, priorities, raw.scores is not None, raw.score_max, report)


def _skip_summary(skipped: Counter) -> str:
    if not skipped:
        return "the source is empty"
    return "skipped: " + ", ".join(f"{n:,} {why}" for why, n in skipped.most_common())
