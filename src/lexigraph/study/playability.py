"""Playability: how often lexigraph's own self-play plays each word (docs/study.md, *Playability*)."""

from __future__ import annotations

from typing import Any

__all__ = ["playability_of"]


def playability_of(lexicon: Any, word: str) -> dict[str, Any] | None:
    """The word's playability (``rank``, ``plays``, ``of``, ``games``, ``source``), or None without a table."""
    return None
