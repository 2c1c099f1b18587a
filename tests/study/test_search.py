"""The search language: parsing, and every condition and tree against a brute-force oracle."""

from __future__ import annotations

import bisect
import random
import re
from collections import Counter

import pytest
from hypothesis import given, strategies as st

import lexigraph
from lexigraph.alphabet import Alphabet
from lexigraph.errors import QueryError
from lexigraph.study.probability import TileSet
from lexigraph.study import search as S

# A small game: five tiles, a bag of 14 and two blanks.
SMALL = Alphabet(
    ["a", "b", "c", "d", "e"],
    name="small",
    vowels=["a", "e"],
    counts={"a": 4, "b": 2, "c": 1, "d": 3, "e": 4},
    points={"a": 1, "b": 3, "c": 4, "d": 2, "e": 1},
    blanks=2,
)


def random_words(seed: int, n: int = 400, letters: str = "abcde", max_len: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = set()
    while len(out) < n:
        length = rng.randint(2, max_len)
        out.add("".join(rng.choice(letters) for _ in range(length)))
    return sorted(out)


# -- brute-force oracles ---------------------------------------------------------------


def glob_regex(pattern: str) -> re.Pattern[str]:
    out = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch in "?.":
            out.append(".")
        elif ch == "@":
            out.append("[aeiou]")
        elif ch == "#":
            out.append("[^aeiou]")
        elif ch == "*":
            out.append(".*")
        elif ch == "[":
            end = pattern.index("]", i)
            body = pattern[i + 1 : end]
            out.append("[^" + body[1:] + "]" if body.startswith("^") else "[" + body + "]")
            i = end
        else:
            out.append(re.escape(ch))
        i += 1
    return re.compile("".join(out) + r"\Z")


class Oracle:
    """A Python predicate per word for every condition."""

    def __init__(self, words: list[str], vowels: str = "aeiou", bag: Alphabet | None = None,
                 priorities: dict[str, int] | None = None, others: dict[str, set[str]] | None = None,
                 blanks: int = 2) -> None:
        self.words = words
        self.set = set(words)
        self.vowels = set(vowels)
        self.priorities = priorities or {}
        self.others = others or {}
        self.alpha = Counter("".join(sorted(w)) for w in words)
        self.rank: dict[str, int] = {}
        self.points: dict[str, int] = {}
        self.bag = bag
        self.blanks = blanks
        self.ranked: set[int] = set()
        if bag is not None:
            pts = bag.points or {}
            self.points = {w: sum(pts[t] for t in w) for w in words}

    def rank_of(self, w: str) -> int:
        """Probability rank, computed for a whole length on first use: each word's combinations one
        by one (``TileSet.combinations``, itself checked against enumeration of draws), then counted."""
        if len(w) not in self.ranked:
            assert self.bag is not None
            bag = TileSet.of(self.bag)
            group = [(bag.combinations(self.bag.encode(u), self.blanks), u) for u in self.words if len(u) == len(w)]
            values = sorted(c for c, _ in group)
            for c, u in group:  # 1 + how many are strictly more probable
                self.rank[u] = 1 + len(values) - bisect.bisect_right(values, c)
            self.ranked.add(len(w))
        return self.rank[w]

    def __call__(self, q: S.Query, w: str) -> bool:
        if isinstance(q, S.And):
            return all(self(i, w) for i in q.items)
        if isinstance(q, S.Or):
            return any(self(i, w) for i in q.items)
        if isinstance(q, S.Not):
            return not self(q.item, w)
        if isinstance(q, S.Length):
            return len(w) in q.range
        if isinstance(q, S.Pattern):
            return glob_regex(q.text).match(w) is not None
        if isinstance(q, (S.Anagram, S.Subanagram)):
            rack = Counter(q.rack.replace("?", ""))
            blanks = q.rack.count("?")
            if isinstance(q, S.Anagram) and len(w) != sum(rack.values()) + blanks:
                return False
            lack = sum(max(0, c - rack[t]) for t, c in Counter(w).items())
            return lack <= blanks
        if isinstance(q, S.TakesPrefix):
            return q.text + w in self.set
        if isinstance(q, S.TakesSuffix):
            return w + q.text in self.set
        if isinstance(q, S.FrontHook):
            tiles = "abcdefghijklmnopqrstuvwxyz" if q.tiles == "?" else q.tiles
            return any(t + w in self.set for t in tiles)
        if isinstance(q, S.BackHook):
            tiles = "abcdefghijklmnopqrstuvwxyz" if q.tiles == "?" else q.tiles
            return any(w + t in self.set for t in tiles)
        if isinstance(q, S.InnerHook):
            return (w[1:] if q.side == "front" else w[:-1]) in self.set
        if isinstance(q, S.Contains):
            have = Counter(w)
            return all(have[t] >= c for t, c in Counter(q.tiles).items())
        if isinstance(q, S.Vowels):
            return sum(ch in self.vowels for ch in w) in q.range
        if isinstance(q, S.Distinct):
            return len(set(w)) in q.range
        if isinstance(q, S.Anagrams):
            return self.alpha["".join(sorted(w))] in q.range
        if isinstance(q, S.Points):
            return self.points[w] in q.range
        if isinstance(q, S.Probability):
            return self.rank_of(w) in q.range
        if isinstance(q, S.Priority):
            return self.priorities.get(w, 50) in q.range
        if isinstance(q, S.InList):
            return w in self.others[q.name]
        raise AssertionError(q)

    def select(self, q: S.Query, words: list[str] | None = None) -> list[str]:
        return [w for w in (self.words if words is None else words) if self(q, w)]


def random_condition(rng: random.Random, words: list[str], letters: str = "abcde", lists: tuple[str, ...] = ()) -> S.Query:
    def rng_range(top: int) -> S.Range:
        a, b = sorted(rng.randint(0, top) for _ in range(2))
        return rng.choice([S.Range(a, b), S.Range(a, None), S.Range(None, b), S.Range(a, a)])

    def tiles(k: int) -> str:
        return "".join(rng.choice(letters) for _ in range(k))

    kind = rng.randrange(17 if lists else 16)
    if kind == 0:
        w = rng.choice(words)
        cells = [c if rng.random() < 0.5 else rng.choice(["?", "@", "#", f"[{tiles(2)}]", f"[^{tiles(1)}]"]) for c in w]
        if rng.random() < 0.5:
            at = rng.randrange(len(cells) + 1)
            cells[at:at + rng.randint(0, 2)] = ["*"]
            if rng.random() < 0.3:
                cells.insert(rng.randrange(len(cells) + 1), "*")
        return S.Pattern("".join(cells))
    if kind == 1:
        w = rng.choice(words)
        return S.Anagram("".join(c if rng.random() < 0.8 else "?" for c in w))
    if kind == 2:
        return S.Subanagram(tiles(rng.randint(2, 7)) + "?" * rng.randint(0, 2))
    if kind == 3:
        return S.Length(rng_range(8))
    if kind == 4:
        return S.TakesPrefix(tiles(rng.randint(1, 2)))
    if kind == 5:
        return S.TakesSuffix(tiles(rng.randint(1, 2)))
    if kind == 6:
        return S.FrontHook(rng.choice(["?", tiles(1), tiles(2)]))
    if kind == 7:
        return S.BackHook(rng.choice(["?", tiles(1), tiles(2)]))
    if kind == 8:
        return S.InnerHook(rng.choice(["front", "back"]))
    if kind == 9:
        return S.Contains(tiles(rng.randint(1, 3)))
    if kind == 10:
        return S.Vowels(rng_range(5))
    if kind == 11:
        return S.Distinct(rng_range(6))
    if kind == 12:
        return S.Anagrams(rng_range(4))
    if kind == 13:
        return S.Points(rng_range(20))
    if kind == 14:
        return S.Probability(rng_range(200))
    if kind == 15:
        return S.Priority(rng_range(100))
    return S.InList(rng.choice(lists))


def random_tree(rng: random.Random, words: list[str], size: int, **kw) -> S.Query:
    if size == 1:
        q = random_condition(rng, words, **kw)
        return S.Not(q) if rng.random() < 0.25 else q
    left = rng.randint(1, size - 1)
    a, b = random_tree(rng, words, left, **kw), random_tree(rng, words, size - left, **kw)
    node: S.Query = (S.And if rng.random() < 0.5 else S.Or)((a, b))
    return S.Not(node) if rng.random() < 0.15 else node


# -- generated lists ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def small():
    words = random_words(1, 600)
    rng = random.Random(2)
    prio = {w: rng.randint(0, 100) for w in words}
    lex = lexigraph.load([f"{w};{prio[w]}" for w in words], alphabet=SMALL)
    other = random_words(3, 500)
    oracle = Oracle(words, vowels="ae", bag=SMALL, priorities=prio, others={"other": set(other)})
    return lex, oracle, {"other": other}


def test_every_condition_kind_against_the_oracle(small):
    lex, oracle, lists = small
    rng = random.Random(5)
    for _ in range(300):
        q = random_condition(rng, oracle.words, lists=("other",))
        assert lex.search(q, lists=lists) == oracle.select(q), q


@pytest.mark.parametrize("index_above", [0, 1 << 40])
def test_random_trees_of_up_to_five_conditions(small, index_above, monkeypatch):
    """Racks answered through the anagram index (0) and by counting tiles (never the index)."""
    monkeypatch.setattr(S, "INDEX_ABOVE", index_above)
    lex, oracle, lists = small
    rng = random.Random(7 + bool(index_above))
    for _ in range(250):
        q = random_tree(rng, oracle.words, rng.randint(1, 5), lists=("other",))
        assert lex.search(q, lists=lists) == oracle.select(q), str(q)
        # The text form parses back to the same tree.
        assert S.parse(str(q)) == q


@given(st.integers(0, 10**6))
def test_random_trees_on_fresh_lists(seed):
    words = random_words(seed, 120, letters="abc", max_len=5)
    lex = lexigraph.load(words)
    oracle = Oracle(words, vowels="a")
    rng = random.Random(seed)
    for _ in range(5):
        q = random_tree(rng, words, rng.randint(1, 5), letters="abc")
        if S.uses_condition(q, S.Points) or S.uses_condition(q, S.Probability):
            # no tile set of its own: the English tile set answers (the tiles are letters a-z)
            assert lex.search(q) == lex.search(q, tiles="english"), str(q)
            continue
        assert lex.search(q) == oracle.select(q), str(q)


def test_sorting_grouping_paging(small):
    lex, oracle, _ = small
    q = S.parse("length 3-5 and vowels 1-")
    words = oracle.select(q)
    assert lex.search(q, sort="alpha") == words
    assert lex.search(q, sort="length") == sorted(words, key=len)
    assert lex.search(q, sort="priority") == sorted(words, key=lambda w: -oracle.priorities[w])
    assert lex.search(q, sort="probability") == sorted(words, key=lambda w: (oracle.rank_of(w), len(w)))
    assert lex.search(q, sort="probability", offset=3, limit=4) == lex.search(q, sort="probability")[3:7]
    found = S.search_ids(lex.store, lex.engine, q, sort="probability", group=True)
    got = lex.store.words_of_ids(found.ids)
    assert sorted(got) == sorted(words) and found.total == len(words)
    # Members of a group are adjacent and share an alphagram; groups come in order of their best member.
    assert found.groups is not None
    keys = ["".join(sorted(w)) for w in got]
    for a, b, ga, gb in zip(keys, keys[1:], found.groups, found.groups[1:]):
        assert (a == b) == (ga == gb)
    assert len(set(found.groups.tolist())) == len(set(keys))


# -- TWL06 -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def twl_en(shared, tmp_path_factory):
    path = tmp_path_factory.mktemp("twl_en") / "twl06-en.lex"
    lexigraph.build(shared("twl06.txt"), path, alphabet="english")
    words = shared("twl06.txt").read_text().split()
    return lexigraph.open(path), Oracle(sorted(words), bag=Alphabet.preset("english"))


def test_conditions_on_twl06(twl_en, enable):
    """Random conditions evaluated on the whole of TWL06, checked on a sample of its words."""
    lex, oracle = twl_en
    oracle.others["enable"] = set(enable)
    sample = oracle.words[::23]
    oracle.others["sample"] = set(sample)
    rng = random.Random(11)
    letters = "aeioustrnlcdpmbghjkqxz"
    lists = {"enable": enable, "sample": lexigraph.load(sample, alphabet="english")}
    for i in range(50):
        q = random_condition(rng, sample, letters=letters, lists=("enable",))
        if isinstance(q, S.Probability):
            q = S.And((S.Length(S.Range(7, 7)), S.Probability(S.Range(1, rng.randint(1, 3000)))))
        got = lex.search(S.And((q, S.InList("sample"))), lists=lists)
        assert got == oracle.select(q, sample), q


def test_study_queries_on_twl06(twl_en, enable):
    lex, oracle = twl_en
    oracle.others["enable"] = set(enable)
    for text in [
        "length 7 and probability 1-1000 and back-hook s",
        "length 8 and vowels 3 and contains j",
        "not in enable",
        "length 7-8 and pattern *ing and takes-prefix re",
        "(anagram retains? or subanagram qi??) and not inner-hook back",
        "distinct 2 and length 5- and anagrams 2-",
    ]:
        q = S.parse(text)
        assert lex.search(q, lists={"enable": enable}) == oracle.select(q), text


def test_pattern_agrees_with_match(twl_en):
    lex, _ = twl_en
    for p in ["?uixot??", "q[^u]*", "*ing", "re*ed", "a*b*c", "@#@#@#@", "*[xz]*[xz]*", "??", "*"]:
        assert sorted(lex.search(S.Pattern(p))) == sorted(lex.match(p)), p


# -- the language ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("length", "position 6: expected an argument after 'length'"),
        ("length seven", "position 7: expected a number or range"),
        ("length 7 and", "position 12: expected a condition"),
        ("(length 7", "position 9: expected ')' to close the '(' at position 0"),
        ("length 7)", "position 8: expected the end"),
        ("lenght 7", "position 0: expected a condition"),
        ("inner-hook middle", "position 11: expected 'front' or 'back'"),
        ("pattern 'abc", "position 8: a quote that is never closed"),
        ("not", "position 3: expected a condition"),
        ("length 7 or or length 8", "position 12: expected a condition"),
        ("length 3--5", "position 7: expected a number or range"),
    ],
)
def test_parse_errors_name_the_position(text, message):
    with pytest.raises(QueryError) as e:
        S.parse(text)
    assert message in str(e.value)


def test_parse_shapes():
    assert S.parse("length 7 vowels 2") == S.And((S.Length(S.Range(7, 7)), S.Vowels(S.Range(2, 2))))
    assert S.parse("len 2 or len 3 and prob 1-5") == S.Or(
        (S.Length(S.Range(2, 2)), S.And((S.Length(S.Range(3, 3)), S.Probability(S.Range(1, 5)))))
    )
    assert S.parse("not not hook s") == S.Not(S.Not(S.BackHook("s")))
    assert S.parse("pattern and") == S.Pattern("and")
    assert S.parse("in 'my list.txt'") == S.InList("my list.txt")
    assert str(S.InList("my list.txt")) == "in 'my list.txt'"
    assert S.parse("points >=10 and priority <50") == S.And((S.Points(S.Range(10, None)), S.Priority(S.Range(None, 49))))


def test_bad_arguments_are_query_errors(enable):
    for text in ["pattern [ab", "pattern x!y", "anagram c@t", "contains 9", "hook ?!", "in /no/such/list.txt",
                 "subanagram " + "a" * 100]:
        with pytest.raises(QueryError):
            enable.search(text)
    with pytest.raises(QueryError):
        enable.search(42)  # type: ignore[arg-type]
    with pytest.raises(QueryError):
        enable.search("length 2", sort="random")  # type: ignore[arg-type]
    with pytest.raises(QueryError):
        enable.search("length 2", limit=-1)


def test_in_another_lexicon_with_another_alphabet(enable):
    spanish = lexigraph.load(["casa", "perro", "niño", "chico"], alphabet="spanish")
    got = enable.search("length 4-5 and in es", lists={"es": spanish})
    assert got == ["casa", "chico"]
    assert spanish.search("in en", lists={"en": enable}) == ["casa", "chico"]
    assert enable.search("length 2 and in words", lists={"words": ["aa", "zz", "qi"]}) == ["aa"]


def test_in_list_with_another_alphabet(open_lexicon):
    """A list with another alphabet is checked through its own store and engine (C batch or NumPy twin)."""
    words = ["casa", "perro", "niño", "chico", "año", "ñu"]
    spanish = open_lexicon(words, alphabet="spanish")
    english = open_lexicon(["casa", "nino", "chico", "perros", "ano"])
    assert english.search("in es", lists={"es": spanish}) == ["casa", "chico"]
    assert spanish.search("in en", lists={"en": english}) == ["casa", "chico"]
    assert spanish.search("not in en", lists={"en": english}) == sorted({"perro", "niño", "año", "ñu"},
                                                                       key=spanish.alphabet.encode)


def test_search_over_the_engines_opens_lists_only_through_open_list(enable):
    opened = []

    def open_list(source):
        opened.append(source)
        return lexigraph.load(source)

    engines = (enable.store, enable.engine)
    assert S.search(*engines, "length 2 and contains x") == enable.search("length 2 and contains x")
    got = S.search(*engines, "length 2 and in mine", lists={"mine": ["aa", "zz", "xi"]}, open_list=open_list)
    assert got == ["aa", "xi"] and opened == [["aa", "zz", "xi"]]
    # An open list (anything with a store and a probe) is used as it is.
    assert S.search(*engines, "length 2 and in me", lists={"me": enable}, open_list=open_list) == enable.search(
        "length 2")
    assert len(opened) == 1
    with pytest.raises(QueryError, match="in mine: no way to open lists"):
        S.search(*engines, "in mine", lists={"mine": ["aa"]})
    with pytest.raises(QueryError) as facade:
        enable.search("in nowhere.txt")
    with pytest.raises(QueryError, match="^in nowhere.txt: ") as engines_error:
        S.search(*engines, "in nowhere.txt", open_list=lexigraph.load)
    assert str(engines_error.value) == str(facade.value)


def test_word_study_modules_never_import_the_facade():
    """Queries take the engines: columns, hooks, probability and search import nothing of lexicon.py."""
    import ast
    from pathlib import Path

    src = Path(S.__file__).parent.parent
    for path in sorted(src.rglob("*.py")):
        name = str(path.relative_to(src))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module not in ("lexicon", "lexigraph.lexicon"), (name, node.module)
                assert not (node.level and node.module is None and any(a.name == "lexicon" for a in node.names)), name
                assert not (node.module == "lexigraph" or (node.level and node.module is None)) or not any(
                    a.name in ("Lexicon", "load", "open") for a in node.names), name
            elif isinstance(node, ast.Import):
                assert all(a.name != "lexigraph.lexicon" for a in node.names), name


@given(st.lists(st.sampled_from(list("abc ()'\"-<>=?*[]^@#0123456789") + ["and ", "or ", "not ", "length ", "pattern ",
                                                                       "hook ", "in ", "inner-hook ", "front"]),
                max_size=40).map("".join))
def test_any_text_parses_or_is_a_query_error(text):
    lex = lexigraph.open(["abc", "cab", "ab", "ba", "abca"])
    try:
        q = S.parse(text)
    except QueryError:
        return
    assert S.parse(str(q)) == q
    try:
        lex.search(q)
    except QueryError:
        pass


def test_deep_nesting_and_bad_trees_are_query_errors(enable):
    with pytest.raises(QueryError, match="nested deeper"):
        S.parse("(" * 3000 + "length 2" + ")" * 3000)
    with pytest.raises(QueryError, match="nested deeper"):
        S.parse("not " * 2000 + "length 2")
    tree: S.Query = S.Length(S.Range(2, 2))
    for _ in range(100):
        tree = S.Not(tree)
    with pytest.raises(QueryError, match="nested deeper"):
        enable.search(tree)
    for bad in [S.And(()), S.Or([S.Length(S.Range(2, 2))]), S.Pattern(3), S.Length(7), S.InnerHook("middle")]:  # type: ignore[arg-type]
        with pytest.raises(QueryError):
            enable.search(bad)
    assert enable.search(S.Not(S.Not(S.And((S.Length(S.Range(2, 2)), S.Contains("x")))))) == ["ax", "ex", "ox", "xi", "xu"]
