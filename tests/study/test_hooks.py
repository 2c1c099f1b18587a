"""Hooks against membership of every one-tile-longer and one-tile-shorter string (a set oracle)."""

from __future__ import annotations

import random

import pytest

import lexigraph
from lexigraph.errors import QueryError
from lexigraph.study.hooks import hooks_many


def random_words(seed: int, n: int = 400, letters: str = "abcde", max_len: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = set()
    while len(out) < n:
        length = rng.randint(2, max_len)
        out.add("".join(rng.choice(letters) for _ in range(length)))
    return sorted(out)


def check_hooks_against_membership(lex, words: list[str], probes: list[str]) -> None:
    have = set(words)
    letters = lex.alphabet.labels
    got = hooks_many(lex.store, probes)
    for w, h in zip(probes, got):
        assert h.front == tuple(t for t in letters if t + w in have), w
        assert h.back == tuple(t for t in letters if w + t in have), w
        assert h.inner_front == (len(w) >= 2 and w[1:] in have), w
        assert h.inner_back == (len(w) >= 2 and w[:-1] in have), w


def test_hooks_on_generated_lists():
    for seed in range(5):
        words = random_words(seed, 500, letters="abcd", max_len=6)
        lex = lexigraph.load(words)
        probes = words + random_words(seed + 100, 100, letters="abcd", max_len=7)
        check_hooks_against_membership(lex, words, probes)


def test_hooks_display(enable):
    h = enable.hooks("care")
    assert str(h) == "s ·CARE· drstx"
    assert h.to_dict() == {"front": "s", "back": "drstx", "inner_front": True, "inner_back": True}
    assert str(enable.hooks("qi")) == "QI"          # not in ENABLE: a word outside the list has hooks too
    assert str(enable.hooks("c@t")) == "C@T"        # not tiles: none
    with pytest.raises(QueryError):
        enable.hooks(3)  # type: ignore[arg-type]


def test_hooks_of_every_twl06_word(twl, twl_words):
    """Every word's hooks against membership of every one-tile-longer and -shorter string (set oracle)."""
    have = set(twl_words)
    front: dict[str, set[str]] = {}
    back: dict[str, set[str]] = {}
    for u in twl_words:
        if u[1:] in have:
            front.setdefault(u[1:], set()).add(u[0])
        if u[:-1] in have:
            back.setdefault(u[:-1], set()).add(u[-1])
    got = hooks_many(twl.store, twl_words)
    for w, h in zip(twl_words, got):
        assert set(h.front) == front.get(w, set()) and list(h.front) == sorted(h.front), w
        assert set(h.back) == back.get(w, set()), w
        assert h.inner_front == (w[1:] in have) and h.inner_back == (w[:-1] in have), w
