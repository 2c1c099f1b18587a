"""Pattern cells and scored lists for the pattern tests, each cell with the regular expression it means (the oracle)."""

from __future__ import annotations

import re

from hypothesis import strategies as st

import lexigraph

LETTERS = "abcdeio"
ALPHA = lexigraph.Alphabet(list(LETTERS))

cell = st.one_of(
    st.sampled_from(list(LETTERS)).map(lambda c: (c, c)),
    st.sampled_from(["?", "."]).map(lambda c: (c, ".")),
    st.just(("@", "[aeio]")),
    st.just(("#", "[bcd]")),
    st.sets(st.sampled_from(LETTERS), min_size=1, max_size=4).map(
        lambda s: ("[" + "".join(sorted(s)) + "]", "[" + "".join(sorted(s)) + "]")
    ),
    st.sets(st.sampled_from(LETTERS), min_size=1, max_size=4).map(
        lambda s: ("[^" + "".join(sorted(s)) + "]", "[" + "".join(sorted(set(LETTERS) - s)) + "]")
    ),
    st.just(("*", ".*")),
)


def render(cells):
    pattern = "".join(p for p, _ in cells)
    regex = "".join(r for _, r in cells)
    return pattern, re.compile(regex)


scored = st.lists(
    st.tuples(st.text(alphabet=LETTERS, min_size=2, max_size=7), st.integers(0, 100)), min_size=1, max_size=150
)


def load_scored(pairs):
    lex = lexigraph.load([f"{w};{s}" for w, s in pairs], alphabet=ALPHA)
    best: dict[str, int] = {}
    for w, s in pairs:
        best[w] = max(best.get(w, -1), s)
    return lex, best


def ranked(best, words):
    return sorted(words, key=lambda w: (-best[w], w))
