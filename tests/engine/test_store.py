"""The store (``engine/store.py``) against plain Python lists: ids, codes and words, buckets, prefix ranges,
sort orders and priorities, on generated scored lists."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

import lexigraph
from lexigraph import QueryError

LETTERS = "abcde"
ALPHA = lexigraph.Alphabet(list(LETTERS))  # codes 1..5 in alphabetical order: tile order is str order

scored_words = st.lists(
    st.tuples(st.text(alphabet=LETTERS, min_size=1, max_size=8), st.integers(0, 255)), min_size=1, max_size=120
)


class Oracle:
    """What the store should say, from the scored words alone: ids by length, then alphabetically."""

    def __init__(self, pairs: list[tuple[str, int]]) -> None:
        best: dict[str, int] = {}
        for w, s in pairs:
            best[w] = max(best.get(w, -1), s)  # a duplicate keeps its best score
        self.words = sorted(best, key=lambda w: (len(w), w))
        self.priority = [best[w] for w in self.words]
        self.id_of = {w: i for i, w in enumerate(self.words)}

    def codes(self, word: str) -> bytes:
        return bytes(LETTERS.index(c) + 1 for c in word)


def open_store(pairs: list[tuple[str, int]]) -> tuple[lexigraph.Lexicon, Oracle]:
    lex = lexigraph.load([f"{w};{s}" for w, s in pairs], alphabet=ALPHA, min_length=1)
    return lex, Oracle(pairs)


@given(scored_words, st.randoms(use_true_random=False))
def test_ids_codes_and_words_agree_with_the_list(pairs, rng):
    lex, oracle = open_store(pairs)
    store = lex.store
    n = len(oracle.words)
    assert store.word_count == n and len(lex) == n
    lengths = sorted({len(w) for w in oracle.words})
    assert store.lengths == lengths
    assert store.count_by_length() == {k: sum(len(w) == k for w in oracle.words) for k in lengths}
    assert store.tile_count == sum(len(w) for w in oracle.words)
    for k in lengths:
        b = store.bucket(k)
        assert b is not None and b.length == k
        assert oracle.words[b.first : b.stop] == [w for w in oracle.words if len(w) == k]
        assert [bytes(r) for r in store.rows(k)] == [oracle.codes(w) for w in oracle.words[b.first : b.stop]]
    assert store.bucket(max(lengths) + 1) is None
    ids = list(range(n))
    rng.shuffle(ids)
    # Both decoding paths: a few ids word by word, many in array passes.
    for chosen in (ids[:5], ids, ids[: max(33, n)]):
        assert store.words_of_ids(chosen) == [oracle.words[i] for i in chosen]
        assert store.lengths_of_ids(chosen).tolist() == [len(oracle.words[i]) for i in chosen]
        width = max(len(oracle.words[i]) for i in chosen)
        expected = [oracle.codes(oracle.words[i]).ljust(width, b"\0") for i in chosen]
        assert [bytes(r) for r in store.codes_of_ids(chosen)] == expected
    for w in oracle.words:
        assert lex.word_id(w) == oracle.id_of[w]
        assert lex.engine.id_of_codes(oracle.codes(w)) == oracle.id_of[w]


@given(scored_words, st.text(alphabet=LETTERS, max_size=4), st.one_of(st.none(), st.integers(1, 9)))
def test_prefix_ranges_agree_with_the_list(pairs, prefix, length):
    lex, oracle = open_store(pairs)
    store = lex.store
    key = oracle.codes(prefix)
    for k in store.lengths:
        b = store.bucket(k)
        assert b is not None
        bucket = oracle.words[b.first : b.stop]
        hits = [i for i, w in enumerate(bucket) if w.startswith(prefix)]
        lo, hi = store.prefix_range(k, key)
        assert list(range(lo, hi)) == hits, (k, prefix)
    expected = [oracle.id_of[w] for w in oracle.words
                if w.startswith(prefix) and (length is None or len(w) == length)]
    assert store.ids_with_prefix(key, length).tolist() == expected
    assert lex.words(prefix=prefix, length=length) == sorted(oracle.words[i] for i in expected)


@given(scored_words, st.randoms(use_true_random=False), st.sampled_from(["alpha", "length", "priority"]))
def test_sort_orders_agree_with_the_list(pairs, rng, by):
    lex, oracle = open_store(pairs)
    store = lex.store
    ids = list(range(len(oracle.words)))
    rng.shuffle(ids)
    keys = {
        "alpha": lambda i: oracle.words[i],
        "length": lambda i: (-len(oracle.words[i]), oracle.words[i]),
        "priority": lambda i: (-oracle.priority[i], oracle.words[i]),
    }[by]
    for chosen in (ids[:1], ids[:7], ids[: max(33, len(ids))], ids):
        assert store.sort_ids(chosen, by).tolist() == sorted(chosen, key=keys), by


@given(scored_words)
def test_priorities_agree_with_the_list(pairs):
    lex, oracle = open_store(pairs)
    store = lex.store
    assert store.has_priorities
    assert store.priorities().tolist() == oracle.priority
    assert [store.priority_of(i) for i in range(len(oracle.words))] == oracle.priority
    assert [lex.priority(w) for w in oracle.words] == oracle.priority


@given(st.lists(st.text(alphabet=LETTERS, min_size=1, max_size=8), min_size=1, max_size=80))
def test_an_unscored_list_gives_every_word_the_default_priority(words):
    lex = lexigraph.load(words, alphabet=ALPHA, min_length=1)
    assert not lex.store.has_priorities
    assert lex.store.priorities().tolist() == [50] * len(set(words))


@given(scored_words)
def test_alphagram_orders_list_each_bucket_by_its_sorted_tiles(pairs):
    lex, oracle = open_store(pairs)
    store = lex.store
    for k in store.lengths:
        b = store.bucket(k)
        assert b is not None
        bucket = oracle.words[b.first : b.stop]
        expected = sorted(range(len(bucket)), key=lambda i: ("".join(sorted(bucket[i])), i))
        assert store.alphagram_order(k).tolist() == expected
        assert [bytes(r) for r in store.alphagrams(k)] == [oracle.codes("".join(sorted(bucket[i]))) for i in expected]


def test_ids_outside_the_lexicon_and_unknown_sorts_are_query_errors():
    lex, _ = open_store([("ab", 1), ("abc", 2)])
    store = lex.store
    with pytest.raises(QueryError, match="outside"):
        store.words_of_ids([2])
    with pytest.raises(QueryError, match="outside"):
        store.priority_of(-1)
    with pytest.raises(QueryError, match="unknown sort"):
        store.sort_ids(np.array([0, 1]), "random")


def test_cached_values_live_with_the_store_and_a_closed_store_refuses():
    lex, _ = open_store([("ab", 1), ("abc", 2)])
    store = lex.store
    made = []
    first = store.cached(("test", "x"), lambda: made.append(1) or [1, 2])
    assert store.cached(("test", "x"), lambda: made.append(1) or [3]) is first and made == [1]
    lex.close()
    with pytest.raises(lexigraph.LexiconError, match="closed"):
        store.cached(("test", "x"), lambda: 0)
