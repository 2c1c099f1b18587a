"""Definitions from a free dictionary installed from a package registry, never fetched at run time
(docs/study.md, *Definitions*)."""

from __future__ import annotations

__all__ = ["definitions_of"]


def definitions_of(word: str) -> list[dict[str, str]]:
    """The word's definitions (``part_of_speech``, ``text``, ``source``); empty when no dictionary is installed."""
    return []
