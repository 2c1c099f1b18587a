"""The cardbox's lists in and out, as ``lexigraph cardbox import``/``export`` and the server's
``/api/cardbox/import`` and ``/api/cardbox/export`` both do them: a list read (plain, or Zyzzyva's Anagram
Question/Answer, :mod:`lexigraph.study.lists`) becomes new cards due now; the cardbox's questions of one
type go out with every answer.

>>> import lexigraph
>>> from lexigraph.study.cardbox import CardBox
>>> lex, box = lexigraph.open(), CardBox(":memory:")
>>> doc = import_document(lex.store, box, "me", "ENABLE", "anagram", "care\\nrace\\nc@t\\nQ-less\\n", now=0.0)
>>> doc["results"], doc["warnings"]
([{'type': 'anagram', 'questions': 1, 'added': 1, 'skipped': 2}], ["2 lines are not spelled in ENABLE's tiles and were left out, such as 'c@t'"])
>>> print(export_text(export_rows(lex.store, lex.engine, box, "me", "ENABLE", "anagram"), "zyzzyva"), end="")
Q: ACER
A: ACRE
A: CARE
A: RACE
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine.deadline import Countdown
from ..errors import QueryError
from ..support.text import quote
from .cardbox import CardBox, check_user
from .lists import FORMATS, plain_text, read_list, zyzzyva_text
from .quiz import answers_of, prompt_of

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.interface import Engine
    from ..engine.store import Store

__all__ = ["export_rows", "export_text", "import_document", "prompts_of_list"]


def prompts_of_list(store: "Store", kind: str, text: str, *,
                    deadline: float | None = None) -> tuple[list[str], list[str]]:
    """The questions of a list's text (in order, once each) and the lines left out (not spelled in the
    lexicon's tiles). A question/answer list names its questions; a plain list gives the words to make them
    from. A :class:`~lexigraph.errors.QueryError` when the text holds no word."""
    countdown = Countdown(deadline, "the import")
    found = read_list(text)
    if not found.words and not found.questions:
        raise QueryError("the list holds no word (one word a line, or Zyzzyva's Q: and A: lines)")
    prompts: dict[str, None] = {}
    skipped = []
    for w in found.questions or found.words:
        countdown.tick()
        try:
            prompts[prompt_of(store, kind, w.lower())] = None
        except QueryError:  # not spelled in the lexicon's tiles: said, and left out
            skipped.append(w)
    return list(prompts), skipped


def import_document(store: "Store", box: CardBox, user: str, lexicon: str, kind: str, text: str, *,
                    now: float, deadline: float | None = None) -> dict[str, object]:
    """Import a list's questions as new cards due now (those already in the cardbox stay as they are): the
    document (docs/schema/cardbox.json, action ``import``). The list is read whole before the one transaction
    that adds its cards, so an import stopped at its deadline adds none."""
    prompts, skipped = prompts_of_list(store, kind, text, deadline=deadline)
    added = box.add(check_user(user), lexicon, kind, prompts, now=now)
    doc: dict[str, object] = {
        "command": "cardbox", "action": "import", "user": user, "lexicon": lexicon, "store": box.path,
        "results": [{"type": kind, "questions": len(prompts), "added": added, "skipped": len(skipped)}], "count": 1}
    if skipped:
        doc["warnings"] = [f"{len(skipped)} lines are not spelled in {lexicon}'s tiles and were left out, "
                           f"such as {quote(skipped[0])}"]
    return doc


def export_rows(store: "Store", engine: "Engine", box: CardBox, user: str, lexicon: str, kind: str, *,
                deadline: float | None = None) -> list[tuple[str, list[str]]]:
    """Every question of one type in the cardbox (in the order they were added) with its answers."""
    return [(q, list(answers_of(store, engine, kind, q, deadline))) for q in box.prompts(user, lexicon, kind)]


def export_text(rows: Sequence[tuple[str, Sequence[str]]], fmt: str) -> str:
    """The rows as a list file: ``plain`` (every answer, one a line) or ``zyzzyva`` (Anagram Question/Answer)."""
    if fmt not in FORMATS:
        raise QueryError(f"format: one of {', '.join(FORMATS)}")
    return zyzzyva_text(rows) if fmt == "zyzzyva" else plain_text(w for _, answers in rows for w in answers)
