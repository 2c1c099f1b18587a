"""Tile sets and draw probability against enumeration of draws and Zyzzyva's own loops."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from math import comb

import numpy as np
import pytest
from hypothesis import given, strategies as st

import lexigraph
from lexigraph.alphabet import Alphabet
from lexigraph.errors import QueryError
from lexigraph.study.probability import TileSet, competition_ranks

# A small game: five tiles, a bag of 14 and two blanks.
SMALL = Alphabet(
    ["a", "b", "c", "d", "e"],
    name="small",
    vowels=["a", "e"],
    counts={"a": 4, "b": 2, "c": 1, "d": 3, "e": 4},
    points={"a": 1, "b": 3, "c": 4, "d": 2, "e": 1},
    blanks=2,
)


# -- brute-force oracles ---------------------------------------------------------------


def zyzzyva_combinations(word: str, counts: dict[str, int], bag_blanks: int, blanks: int) -> int:
    """Zyzzyva's loops, written out: no blank, each tile once replaced, each unordered pair replaced."""
    need = Counter(word)
    letters = list(need)

    def product(c: Counter) -> int:
        p = 1
        for t in letters:
            p *= comb(counts.get(t, 0), c[t]) if c[t] >= 0 else 0
        return p

    total = product(need)
    if blanks >= 1:
        for t in letters:
            c = need.copy()
            c[t] -= 1
            total += comb(bag_blanks, 1) * product(c)
    if blanks >= 2:
        for i, t in enumerate(letters):
            for u in letters[i:]:
                c = need.copy()
                c[t] -= 1
                if c[u] == 0:
                    continue
                c[u] -= 1
                total += comb(bag_blanks, 2) * product(c)
    return total


def enumerate_draws(word: str, counts: dict[str, int], bag_blanks: int, blanks: int) -> int:
    """Every draw of len(word) physical tiles from the bag that spells the word with at most ``blanks`` blanks."""
    bag = [t for t, c in counts.items() for _ in range(c)] + ["?"] * bag_blanks
    need = Counter(word)
    found = 0
    for draw in itertools.combinations(range(len(bag)), len(word)):
        tiles = Counter(bag[i] for i in draw)
        used = tiles.pop("?", 0)
        if used <= blanks and all(tiles[t] <= need[t] for t in tiles):
            found += 1
    return found


# -- probability ---------------------------------------------------------------------------


@given(st.lists(st.sampled_from("abcde"), min_size=1, max_size=5), st.integers(0, 2))
def test_combinations_against_enumeration_of_draws(tiles, blanks):
    word = "".join(tiles)
    bag = TileSet.of(SMALL)
    counts = dict(SMALL.counts or {})
    expected = enumerate_draws(word, counts, 2, blanks)
    assert bag.combinations(SMALL.encode(word), blanks) == expected
    assert zyzzyva_combinations(word, counts, 2, blanks) == expected
    rows = np.frombuffer(SMALL.encode(word), np.uint8).reshape(1, -1)
    assert bag.combinations_column(rows, blanks).tolist() == [expected]


def test_combinations_with_one_blank_in_the_bag():
    one = Alphabet(["a", "b"], counts={"a": 2, "b": 1}, blanks=1)
    bag = TileSet.of(one)
    for word in ["a", "ab", "aab", "bb", "aaa", "abb"]:
        for b in range(3):
            assert bag.combinations(one.encode(word), b) == enumerate_draws(word, {"a": 2, "b": 1}, 1, b)


def test_column_matches_single_words_and_long_words_stay_exact():
    bag = TileSet.of(Alphabet.preset("english"))
    en = Alphabet.preset("english")
    rng = random.Random(4)
    for length in (2, 7, 15, 20, 30):
        words = ["".join(rng.choice("aeioustrnlqzxj") for _ in range(length)) for _ in range(50)]
        rows = np.frombuffer(b"".join(en.encode(w) for w in words), np.uint8).reshape(len(words), length)
        for b in range(3):
            col = bag.combinations_column(rows, b)
            assert [int(x) for x in col] == [bag.combinations(en.encode(w), b) for w in words]
            assert [int(x) for x in col] == [zyzzyva_combinations(w, en.counts, 2, b) for w in words]


def test_competition_ranks():
    assert competition_ranks(np.array([3, 9, 9, 1, 3])).tolist() == [3, 1, 1, 5, 3]


def test_probability_api(enable):
    p = enable.probability("zyzzyva")
    assert (p.word, p.alphagram, p.combinations, p.blanks) == ("zyzzyva", "avyyzzz", 18, 2)
    assert p.points == 43 and p.rank is not None
    assert p.draws == comb(100, 7) and p.chance == 18 / comb(100, 7)
    assert enable.probability("aeinrst", blanks=0).combinations == 9 * 12 * 9 * 6 * 6 * 4 * 6
    assert enable.probability("aeinrst").rank is None  # not a word
    with pytest.raises(QueryError, match="0, 1 or 2"):
        enable.probability("cat", blanks=3)
    with pytest.raises(QueryError, match="does not split"):
        enable.probability("c@t")


def test_no_tile_set_is_a_clear_error_unless_one_is_given():
    lex = lexigraph.load(["cat", "act", "dog", "cañ"])  # ñ is not a letter a-z: no default tile set
    with pytest.raises(QueryError, match="no tile set"):
        lex.probability("cat")
    with pytest.raises(QueryError, match="no tile set"):
        lex.search("probability 1-5")
    assert lex.probability("cat", tiles="spanish").combinations == zyzzyva_combinations("cat", Alphabet.preset("spanish").counts, 2, 2)
    assert lex.search("points 5", tiles="spanish") == ["act", "cat", "dog"]
    with pytest.raises(QueryError, match="tile set"):
        lex.search("points 5", tiles="klingon")


def test_a_to_z_lexicons_default_to_the_english_tile_set():
    lex = lexigraph.load(["cat", "act", "dog"])
    english = Alphabet.preset("english")
    got = lex.probability("cat")
    assert got.combinations == zyzzyva_combinations("cat", english.counts, 2, 2) and got.points == 5
    assert got.tile_set == "english"
    assert lex.search("points 5") == ["act", "cat", "dog"] == lex.search("points 5", tiles="english")


def test_twl06_built_as_documented_answers_from_the_english_tile_set_without_a_warning(twl):
    """lexigraph build twl06.txt (the letters alphabet): probability answers from the English tile set, and its
    documents (plain and --json alike) carry no warning."""
    from lexigraph.commands import Context
    from lexigraph.commands.study import PROBABILITY

    assert twl.alphabet.name == "letters" and not twl.alphabet.counts
    doc = PROBABILITY.run(Context(opener=lambda spec: twl), {"words": ["retains", "qi"]})
    assert "warnings" not in doc and doc["tile_set"] == "english"
    english = Alphabet.preset("english")
    for r in doc["results"]:
        assert r["combinations"] == zyzzyva_combinations(r["word"], english.counts, 2, 2)
    assert list(PROBABILITY.text(doc))[0].startswith("retains\tAEINRST\trank ")


def test_word_probability_over_the_engines_matches_the_facade(open_lexicon):
    from lexigraph.study.probability import word_probability

    words = ["casa", "perro", "niño", "chico", "año", "ñu", "llama", "chocolate"]
    lex = open_lexicon(words, alphabet="spanish")
    for w in words + ["NIÑO", "xyz"]:
        p = word_probability(lex.store, lex.engine, w, blanks=1)
        assert p == lex.probability(w, blanks=1), w
        assert (p.rank is not None) == (w.lower() in words), w
