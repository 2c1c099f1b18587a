"""Hooks: the tiles that make a word longer at either end, and its inner hooks.

A *front hook* of a word is a tile that makes a word when put in front
(``s`` + ``care``), a *back hook* one that makes a word when put at the end
(``care`` + ``d``). A word has a *front inner hook* when it is still a word
without its first tile (``scare`` -> ``care``) and a *back inner hook*
without its last (``cares`` -> ``care``). Study tools print them as
``s CARE dsy``, with a dot on the side of an inner hook (``·CARES·``).

For many words at once, back hooks are a range search in the sorted bucket
one tile longer (its rows that start with the word), front hooks the same
search in that bucket sorted by each row's tail; inner hooks are one batch
membership test in the bucket one tile shorter. No word is probed alone.

>>> import lexigraph
>>> lex = lexigraph.load(["care", "scare", "cared", "cares", "carer", "ares", "car"])
>>> h = hooks(lex.store, "care")
>>> h.front, h.back, h.inner_back
(('s',), ('d', 'r', 's'), True)
>>> str(h)
's CARE· drs'
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping
from typing import TYPE_CHECKING, TypedDict

import numpy as np

from ..engine.deadline import check
from ..errors import QueryError
from .columns import SortedKeys, bucket_keys, contains_rows, first_id, keys

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.store import Store

INNER = "·"


class HookFields(TypedDict):
    """A word's hooks in a result document (``search --hooks``, ``hooks``): the tiles before and after it, and
    whether it stays a word without its first or last tile."""

    front: str
    back: str
    inner_front: bool
    inner_back: bool


@dataclass(frozen=True)
class Hooks:
    """The hooks of one word (tile labels, alphabetical by code)."""

    word: str
    front: tuple[str, ...]
    back: tuple[str, ...]
    inner_front: bool
    inner_back: bool

    def display(self) -> str:
        """The word upper case between its inner-hook dots, as study tools print it."""
        return f"{INNER if self.inner_front else ''}{self.word.upper()}{INNER if self.inner_back else ''}"

    def __str__(self) -> str:
        return f"{''.join(self.front)} {self.display()} {''.join(self.back)}".strip()

    def to_dict(self) -> HookFields:
        """The hooks as a result document holds them (:class:`HookFields`)."""
        return {
            "front": "".join(self.front),
            "back": "".join(self.back),
            "inner_front": self.inner_front,
            "inner_back": self.inner_back,
        }


def tail_keys(store: "Store", length: int) -> tuple[np.ndarray, SortedKeys]:
    """The bucket of ``length`` ordered by each row's tiles after the first: (order, keys of the tails)."""

    def build() -> tuple[np.ndarray, SortedKeys]:
        rows = store.rows(length)
        tails = np.ascontiguousarray(rows[:, 1:])
        order = np.argsort(keys(tails), kind="stable")
        return order, SortedKeys.of(np.ascontiguousarray(tails[order]), len(store.alphabet))

    return store.cached(("study", "tails", length), build)


def _spread(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every index of the ranges lo[i]..hi[i]-1, concatenated, and where each range starts in it."""
    counts = hi - lo
    ends = np.cumsum(counts)
    starts = ends - counts
    flat = np.repeat(lo - starts, counts) + np.arange(int(ends[-1]) if len(ends) else 0)
    return flat, np.concatenate([starts, ends[-1:]]) if len(ends) else np.zeros(1, np.int64)


def hook_codes(store: "Store", rows: np.ndarray) -> tuple[list[bytes], list[bytes], np.ndarray, np.ndarray]:
    """Hooks of every row of ``rows`` (m, n) uint8 tile codes (words or not).

    Returns (front hook codes per row, back hook codes per row, front inner
    hook per row, back inner hook per row).
    """
    rows = np.ascontiguousarray(rows, np.uint8)
    m, n = rows.shape
    front: list[bytes] = [b""] * m
    back: list[bytes] = [b""] * m
    if m and n + 1 in store.lengths:
        longer = store.rows(n + 1)
        lo, hi = bucket_keys(store, n + 1).ranges(rows)
        flat, at = _spread(lo, hi)
        blob = longer[flat, n].tobytes()
        back = [blob[a:b] for a, b in zip(at[:-1].tolist(), at[1:].tolist())]
        order, tails = tail_keys(store, n + 1)
        lo, hi = tails.ranges(rows)
        flat, at = _spread(lo, hi)
        blob = longer[order[flat], 0].tobytes()
        front = [blob[a:b] for a, b in zip(at[:-1].tolist(), at[1:].tolist())]
    if n >= 2:
        inner_front = contains_rows(store, rows[:, 1:])
        inner_back = contains_rows(store, rows[:, :-1])
    else:
        inner_front = inner_back = np.zeros(m, bool)
    return front, back, inner_front, inner_back


def hooks_of_rows(store: "Store", words: list[str], rows: np.ndarray) -> list[Hooks]:
    """:class:`Hooks` of words of one length given with their tile codes."""
    front, back, inner_front, inner_back = hook_codes(store, rows)
    labels = store.alphabet.labels
    out = []
    for word, f, b, i_f, i_b in zip(words, front, back, inner_front.tolist(), inner_back.tolist()):
        out.append(Hooks(word, tuple(labels[c - 1] for c in f), tuple(labels[c - 1] for c in b), i_f, i_b))
    return out


def hooks_of_ids(store: "Store", ids: np.ndarray, lengths: np.ndarray, words: list[str]) -> list[Hooks]:
    """:class:`Hooks` of word ids (with their lengths and words), in the order given."""
    ids = np.asarray(ids, np.int64)
    found: dict[int, Hooks] = {}
    for n in np.unique(lengths).tolist():
        at = np.flatnonzero(lengths == n)
        rows = store.rows(n)[ids[at] - first_id(store, n)]
        found.update(zip(at.tolist(), hooks_of_rows(store, [words[i] for i in at.tolist()], rows)))
    return [found[i] for i in range(len(ids))]


def hooks_many(store: "Store", words: list[str], *, deadline: float | None = None) -> list[Hooks]:
    """:class:`Hooks` of many words (in the store or not), a few array passes per length.

    A word that does not split into the store's tiles has no hooks. Past
    ``deadline`` (checked between lengths): :class:`~lexigraph.errors.DeadlineExceeded`.

    >>> import lexigraph
    >>> [str(h) for h in hooks_many(lexigraph.open().store, ["care", "xu", "qi"])]
    ['s ·CARE· drstx', 'XU', 'QI']
    """
    found: dict[int, Hooks] = {}
    by_length: dict[int, list[tuple[int, bytes]]] = {}  # length -> (position, tile codes) of the words that split
    for i, w in enumerate(words):
        codes = store.alphabet.encode(w) if isinstance(w, str) else None
        if codes is None:
            found[i] = Hooks(str(w).lower(), (), (), False, False)
        else:
            by_length.setdefault(len(codes), []).append((i, codes))
    for n, entries in by_length.items():
        check(deadline)
        rows = np.frombuffer(b"".join(codes for _, codes in entries), np.uint8).reshape(len(entries), n)
        names = [store.alphabet.decode(codes) for _, codes in entries]
        found.update(zip((i for i, _ in entries), hooks_of_rows(store, names, rows)))
    return [found[i] for i in range(len(words))]


def hooks(store: "Store", word: str, *, deadline: float | None = None) -> Hooks:
    """:class:`Hooks` of one word (see :meth:`lexigraph.Lexicon.hooks`)."""
    if not isinstance(word, str):
        raise QueryError(f"hooks() needs a str, not {type(word).__name__}")
    return hooks_many(store, [word], deadline=deadline)[0]


def hook_fields(store: "Store", words: list[str], *, deadline: float | None = None) -> list[HookFields]:
    """The ``hooks`` field of result documents for ``words``, computed together.

    For commands that show hooks as a column (``search --hooks``; ``match`` and
    ``anagram`` can add the same): ``r["hooks"] = field`` for each result.

    >>> import lexigraph
    >>> hook_fields(lexigraph.open().store, ["care"])
    [{'front': 's', 'back': 'drstx', 'inner_front': True, 'inner_back': True}]
    """
    return [h.to_dict() for h in hooks_many(store, words, deadline=deadline)]


def hook_line(fields: Mapping[str, object], word: str, width: int = 0) -> str:
    """One text line from a ``hooks`` field: front hooks right-aligned in ``width``, the word, back hooks.

    >>> hook_line({"front": "s", "back": "drstx", "inner_front": True, "inner_back": True}, "care", 3)
    '  s ·CARE· drstx'
    """
    shown = f"{INNER if fields['inner_front'] else ''}{word.upper()}{INNER if fields['inner_back'] else ''}"
    if width:
        return f"{fields['front']:>{width}} {shown} {fields['back']}".rstrip()
    return f"{fields['front']} {shown} {fields['back']}".strip()
