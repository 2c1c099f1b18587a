"""Comparing two lexicons: per-length counts, and the words only one of them has."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..support.jsontypes import JSONObject
from ..engine.store import Store, concat_ids


@dataclass(frozen=True)
class Diff:
    """The comparison of lexicon A with lexicon B.

    ``counts`` maps each length to ``(count in A, count in B)``.
    """

    only_a: list[str]
    only_b: list[str]
    both: int
    counts: dict[int, tuple[int, int]]

    @property
    def same(self) -> bool:
        return not self.only_a and not self.only_b

    def to_dict(self) -> JSONObject:
        return {
            "counts_by_length": {str(k): {"a": a, "b": b, "difference": b - a} for k, (a, b) in self.counts.items()},
            "total_a": sum(a for a, _ in self.counts.values()),
            "total_b": sum(b for _, b in self.counts.values()),
            "only_a": len(self.only_a),
            "only_b": len(self.only_b),
            "both": self.both,
        }


def diff(a: Store, b: Store) -> Diff:
    """See :meth:`lexigraph.Lexicon.diff`."""
    counts_a, counts_b = a.count_by_length(), b.count_by_length()
    lengths = sorted(set(counts_a) | set(counts_b))
    counts = {n: (counts_a.get(n, 0), counts_b.get(n, 0)) for n in lengths}
    if a.alphabet == b.alphabet:
        only_a, only_b, both = _diff_codes(a, b, lengths)
    else:
        # Different alphabets: compare spellings, which is what a reader sees.
        words_a, words_b = set(a.words_of_ids(np.arange(a.word_count))), set(b.words_of_ids(np.arange(b.word_count)))
        both = len(words_a & words_b)
        only_a = sorted(words_a - words_b)
        only_b = sorted(words_b - words_a)
    return Diff(only_a, only_b, both, counts)


def _diff_codes(a: Store, b: Store, lengths: list[int]) -> tuple[list[str], list[str], int]:
    ids_a, ids_b = [], []
    both = 0
    for n in lengths:
        ba, bb = a.bucket(n), b.bucket(n)
        if ba is not None and bb is not None:
            ra = a.rows(n).view(f"V{n}").ravel()
            rb = b.rows(n).view(f"V{n}").ravel()
            mask_a = np.isin(ra, rb)
            mask_b = np.isin(rb, ra)
            both += int(mask_a.sum())
            ids_a.append(np.flatnonzero(~mask_a) + ba.first)
            ids_b.append(np.flatnonzero(~mask_b) + bb.first)
        elif ba is not None:
            ids_a.append(np.arange(ba.first, ba.stop))
        elif bb is not None:
            ids_b.append(np.arange(bb.first, bb.stop))
    only_a = a.words_of_ids(a.sort_ids(concat_ids(ids_a)))
    only_b = b.words_of_ids(b.sort_ids(concat_ids(ids_b)))
    return only_a, only_b, both
