"""Study lists in and out: plain word lists (one word a line) and Zyzzyva's "Anagram Question/Answer" lists.

Zyzzyva saves a word table (*Save list*) as *One Word Per Line* (the word, then any attributes chosen, after
a space) or as *Anagram Question/Answer*: each alphagram on a line ``Q: AEINRST``, then each of its words on a
line ``A: RETAINS`` (attributes after the word; a lexicon symbol such as ``#`` or ``+`` may follow it). Both
are read here; lines starting with ``#`` and empty lines are skipped.

>>> read_list("Q: ACT\\nA: ACT\\nA:  CAT# [n]\\nQ: DGO\\nA: DOG\\n")
StudyList(words=['act', 'cat', 'dog'], questions=['ACT', 'DGO'])
>>> read_list("# mine\\nretains 11\\nNASTIER+\\n").words
['retains', 'nastier']
>>> print(zyzzyva_text([("ACT", ["act", "cat"])]), end="")
Q: ACT
A: ACT
A: CAT
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["FORMATS", "StudyList", "plain_text", "read_list", "zyzzyva_text"]

FORMATS = ("plain", "zyzzyva")
#: Marks Zyzzyva and other tools put after a word (lexicon symbols), not part of it.
_SYMBOLS = "#+*$^&!%"


@dataclass(frozen=True)
class StudyList:
    """A list read: its words (lower case, in order, once each) and, from a question/answer list, its questions
    (upper case, in order)."""

    words: list[str]
    questions: list[str]


def _first_token(text: str) -> str:
    token = text.split(maxsplit=1)[0] if text.split() else ""
    return unicodedata.normalize("NFC", token.rstrip(_SYMBOLS))


def read_list(text: str) -> StudyList:
    """The words (and questions) of a plain list or a Zyzzyva question/answer list."""
    words: dict[str, None] = {}
    questions: dict[str, None] = {}
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        head = stripped[:2].upper()
        if head == "Q:":
            token = _first_token(stripped[2:])
            if token:
                questions[token.upper()] = None
            continue
        token = _first_token(stripped[2:] if head == "A:" else stripped)
        if token:
            words[token.lower()] = None
    return StudyList(list(words), list(questions))


def plain_text(words: Iterable[str]) -> str:
    """One word a line, lower case."""
    return "".join(f"{w.lower()}\n" for w in words)


def zyzzyva_text(questions: Sequence[tuple[str, Sequence[str]]]) -> str:
    """Zyzzyva's Anagram Question/Answer list: each question, then its answers, upper case."""
    return "".join(f"Q: {q.upper()}\n" + "".join(f"A: {a.upper()}\n" for a in answers) for q, answers in questions)
