"""Alphabets: presets, multi-character tiles, random alphabets against a tiled brute-force oracle."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph import Alphabet, AlphabetError


def test_spanish_acceptance(shared, tmp_path):
    src = shared("es-wspanish.txt")
    plain = lexigraph.load(src)
    assert "año" in plain and "ábaco" in plain and "abaco" not in plain
    path = tmp_path / "es.lex"
    result = lexigraph.build(src, path, alphabet="spanish")
    es = lexigraph.open(path)
    assert result.report.skipped["outside the alphabet"] > 0  # K and W are not Spanish tiles
    assert "chocho" in es.match("ch?ch?") and "chocho" in es.match("CH?CH?")
    assert "calle" in es.match("????")
    assert es.anagram("CH O O ?", mode="exact").count("chocho") == 1
    assert "chocho" not in es.anagram("CHOO", mode="exact")
    assert "chocho" not in es.anagram("CHOO")
    assert "o" in es.children("choch") and "$" in es.children("chocho")
    assert "o" in es.children("ch")
    assert "ll" in es.children("ca") and "l" in es.children("ca")
    assert es.words(prefix="ch", length=2) and all(len(es.alphabet.split(w)) == 2 for w in es.words(prefix="ch", length=2))
    assert "año" in es and "AÑO" in es and "ábaco" in es and "abaco" in es


def test_presets_split_as_documented():
    es, ca, fr = Alphabet.preset("spanish"), Alphabet.preset("catalan"), Alphabet.preset("french")
    assert es.split("CHOCHO") == ["ch", "o", "ch", "o"]
    assert es.split("perro") == ["p", "e", "rr", "o"]
    assert ca.split("col·lecció") == ca.split("COL.LECCIO") == ["c", "o", "l·l", "e", "c", "c", "i", "o"]
    assert ca.split("plaça") == ["p", "l", "a", "ç", "a"] and ca.split("quatre")[0] == "qu"
    assert fr.split("Œuvre") == ["o", "e", "u", "v", "r", "e"] and fr.split("été") == ["e", "t", "e"]
    assert len(Alphabet.preset("english")) == 26


@pytest.mark.parametrize(
    "text, message",
    [
        ('tiles = ["a", "a"]', "duplicate"),
        ('tiles = ["a", ""]', "empty"),
        ('tiles = ["a", "b?"]', "reserved"),
        ('tiles = "abc"', "list"),
        ('tiles = ["a"]\nvowels = ["e"]', "not a tile"),
        ('tiles = ["a"]\n[aliases]\n"x" = "q"', "not a tile"),
        ('tiles = ["a"]\ncolour = 1', "unknown field"),
        ("tiles = [", "TOML"),
    ],
)
def test_bad_alphabet_files(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(AlphabetError, match=message):
        Alphabet.load(path)


def test_prefix_tiles_split_greedily_and_failures_are_counted():
    alpha = Alphabet(["a", "ab", "bc", "c"])
    assert alpha.split("abc") == ["ab", "c"]  # longest match first, never "a" + "bc"
    alpha2 = Alphabet(["a", "ab", "b", "bc"])
    assert alpha2.split("abc") is None  # "ab" then "c" which is not a tile
    assert alpha2.split("abbc") == ["ab", "bc"]
    result = lexigraph.load(["abbc", "abc", "xyz"], alphabet=alpha2)
    assert list(result) == ["abbc"]


def test_word_in_another_script_is_skipped(tmp_path):
    result = lexigraph.build(["perro", "собака", "gato"], tmp_path / "s.lex", alphabet="spanish")
    assert result.report.kept == 2 and result.report.skipped["outside the alphabet"] == 1


# -- random alphabets with multi-character tiles ----------------------------------

labels_st = st.lists(
    st.text(alphabet="abcxy", min_size=1, max_size=2), min_size=2, max_size=6, unique=True
).filter(lambda ls: any(len(x) == 1 for x in ls))


@st.composite
def tiled_lists(draw):
    labels = draw(labels_st)
    alpha = Alphabet(labels)
    words = draw(st.lists(st.lists(st.sampled_from(labels), min_size=1, max_size=6), min_size=1, max_size=60))
    # keep only words whose greedy split gives back the tiles they were built from
    tiled = {}
    for tiles in words:
        text = "".join(tiles)
        split = alpha.split(text)
        if split is not None and len(split) >= 2:
            tiled[text] = tuple(split)
    return alpha, tiled


@given(tiled_lists(), st.data())
def test_random_alphabets_against_tiled_oracle(case, data):
    alpha, tiled = case
    if not tiled:
        return
    lex = lexigraph.load(list(tiled), alphabet=alpha)
    labels = list(alpha.labels)
    code = {t: i for i, t in enumerate(labels)}
    order = lambda w: [code[t] for t in tiled[w]]  # noqa: E731
    assert list(lex) == sorted(tiled, key=order)
    for w, tiles in tiled.items():
        assert w in lex and w.upper() in lex
        assert lex.words(length=len(tiles)).count(w) == 1
    # children, in tiles
    prefixes = {tiles[:k] for tiles in tiled.values() for k in range(len(tiles))}
    for p in prefixes:
        text = "".join(p)
        if alpha.split(text) != list(p):
            continue
        nxt = sorted({t[len(p)] for t in tiled.values() if t[: len(p)] == p and len(t) > len(p)}, key=code.get)
        here = ["$"] if p and p in tiled.values() else []
        assert lex.children(text) == here + nxt
    # match: one random fixed tile and wildcards, checked on tiles
    tiles = data.draw(st.sampled_from(sorted(tiled.values())))
    pos = data.draw(st.integers(0, len(tiles) - 1))
    pattern = "".join(tiles[k] if k == pos else "?" for k in range(len(tiles)))
    expected = sorted((w for w, t in tiled.items() if len(t) == len(tiles) and t[pos] == tiles[pos]), key=order)
    if alpha.split(tiles[pos]) == [tiles[pos]] and "?" not in tiles[pos]:
        assert lex.match(pattern) == expected
    # cross on tiles
    other = data.draw(st.sampled_from(sorted(tiled.values())))
    j = data.draw(st.integers(0, len(other) - 1))
    pb = "?" * len(other)
    pa = "?" * len(tiles)
    wa = [t for t in tiled.values() if len(t) == len(tiles)]
    wb = [t for t in tiled.values() if len(t) == len(other)]
    common = sorted({t[pos] for t in wa} & {t[j] for t in wb}, key=code.get)
    assert lex.cross(pa, pos, pb, j).tiles == common
    # anagram of the word's own tiles, with a blank, counted in tiles
    rack = data.draw(st.lists(st.sampled_from(labels), min_size=1, max_size=5))
    blanks = data.draw(st.integers(0, 2))
    rc = Counter(rack)
    want = sorted(
        (w for w, t in tiled.items() if len(t) <= len(rack) + blanks and sum((Counter(t) - rc).values()) <= blanks),
        key=order,
    )
    assert lex.anagram(" ".join(rack) + " " + "?" * blanks) == want


def test_catalan_and_french_build(tmp_path):
    ca = lexigraph.load(["col·lecció", "COL.LECCIO", "anys", "plaça", "quatre"], alphabet="catalan")
    assert len(ca) == 4 and ca.match("??l·l*") == ["col·leccio"]
    assert ca.children("co") == ["l·l"]
    assert ca.anagram("a ny s", mode="exact") == ["anys"]
    fr = lexigraph.load(["Œuvre", "été", "ÉTÉ", "garçon"], alphabet="french")
    assert list(fr) == ["ete", "garcon", "oeuvre"] and fr.count("??????") == 2


def greedy_oracle(alpha: Alphabet, text: str) -> bytes | None:
    """Lower case, NFC, fold, then at each position the longest tile or alias: brute force."""
    import unicodedata

    text = unicodedata.normalize("NFC", text.lower())
    text = "".join(alpha.fold.get(ch, ch) for ch in text)
    keys = {label: i + 1 for i, label in enumerate(alpha.labels)}
    keys.update({alias: keys[tile] for alias, tile in alpha.aliases.items()})
    out, pos = [], 0
    while pos < len(text):
        best = max((k for k in keys if text.startswith(k, pos)), key=len, default=None)
        if best is None:
            return None
        out.append(keys[best])
        pos += len(best)
    return bytes(out)


latin_chars = "abcñçl·éE"


@st.composite
def alphabets_and_texts(draw):
    # few letters, so that multi-letter tiles often overlap (ab, bc) or nest (l·l, ·l)
    labels = draw(st.lists(st.text(alphabet="abñl·", min_size=1, max_size=3), min_size=2, max_size=7, unique=True))
    labels = [x for x in labels if x != "·"] or ["a", "b"]
    if not any(len(x) == 1 for x in labels):
        labels.append("e")
    fold = {"é": draw(st.sampled_from(["e", "a", "ee"]))} if draw(st.booleans()) else {}
    if fold and fold["é"] in labels:
        fold = {}
    aliases = {}
    if draw(st.booleans()):
        alias = draw(st.text(alphabet="çñx", min_size=1, max_size=2))
        if alias not in labels and alias not in fold:
            aliases[alias] = labels[0]
    try:
        alpha = Alphabet(labels, aliases=aliases, fold=fold)
    except AlphabetError:
        alpha = Alphabet(labels)
    pieces = st.one_of(
        st.sampled_from(labels), st.sampled_from(labels), st.text(alphabet=latin_chars + "\x01\x02ŒΩ\u0301", max_size=2)
    )
    texts = draw(st.lists(st.lists(pieces, max_size=6).map("".join), min_size=1, max_size=20))
    return alpha, texts + [t.upper() for t in texts]


@settings(max_examples=300)
@given(alphabets_and_texts())
def test_encoding_matches_the_greedy_oracle(case):
    # The Latin-1 byte pipeline, the general path and the oracle must agree on any text.
    alpha, texts = case
    for text in texts:
        assert alpha.encode(text) == greedy_oracle(alpha, text), (alpha.labels, alpha.fold, alpha.aliases, text)


def test_latin1_is_already_nfc():
    # The byte pipeline skips normalisation for Latin-1 text; it relies on this.
    import unicodedata

    chars = [chr(i) for i in range(256)]
    assert all(unicodedata.is_normalized("NFC", a + b) for a in chars for b in chars)
