"""Autofill's rules and outputs against brute force: minimums per length and slot, shared runs, theme words,
several fills, slot counts after propagation; the fill's time and memory bounds; on both engines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexigraph.alphabet import Alphabet
from lexigraph.crossword.fill import MAX_SHARED, RULE_KEYWORDS, Rules, fill, slot_counts, suggest
from lexigraph.crossword.fill import problem as fill_problem
from lexigraph.crossword.formats import grid_from_text, read_grid
from lexigraph.crossword.grid import BLOCK, Grid
from lexigraph.errors import QueryError

WORD = st.text(alphabet="abc", min_size=2, max_size=3)


@st.composite
def scored_case(draw, max_words=16):
    words = draw(st.dictionaries(WORD, st.integers(0, 60), min_size=1, max_size=max_words))
    h = draw(st.integers(2, 3))
    w = draw(st.integers(2, 3))
    cells = [[draw(st.sampled_from([None, None, None, None, None, BLOCK, "a"])) for _ in range(w)] for _ in range(h)]
    return words, cells


@st.composite
def rules(draw, grid: Grid):
    names = [s.name for s in grid.slots()]
    out = {"min_priority": draw(st.sampled_from([0, 0, 20, 40]))}
    if draw(st.booleans()):
        out["min_by_length"] = draw(st.dictionaries(st.integers(2, 3), st.sampled_from([0, 30, 50]), max_size=2))
    if names and draw(st.booleans()):
        out["min_by_slot"] = draw(st.dictionaries(st.sampled_from(names), st.sampled_from([0, 40, 60]), max_size=2))
    out["max_shared"] = draw(st.sampled_from([0, 0, 2]))
    out["allow_repeats"] = draw(st.booleans()) if not out["max_shared"] else False
    return out


def _lexicon(open_, words: dict[str, int]):
    return open_([f"{w};{p}" for w, p in words.items()], format="scored", alphabet=Alphabet.from_letters("abc"))


def _oracle_rules(r: dict) -> dict:
    return {k: v for k, v in r.items()}


# -- every rule, against brute force ------------------------------------------------------------------------


@given(scored_case(), st.data(), st.integers(0, 3))
@settings(max_examples=150)
def test_rules_agree_with_brute_force(open_lexicon, fill_oracle, case, data, seed):
    words, cells = case
    grid = Grid(cells)
    if not grid.slots():
        return
    r = data.draw(rules(grid))
    lex = _lexicon(open_lexicon, words)
    try:
        result = fill(lex, grid, seed=seed, rules=Rules(**r))
    except QueryError as e:
        assert "is not in the lexicon" in str(e)
        return
    exists = fill_oracle.brute_force_exists(words, grid, **_oracle_rules(r))
    assert result.status == ("filled" if exists else "no_fill"), (r, result.reason)
    if exists:
        assert fill_oracle.verify(lex, grid, result.grid, **r) == []


@given(scored_case(max_words=12), st.data())
@settings(max_examples=80)
def test_theme_words_are_placed_or_proved_impossible(open_lexicon, fill_oracle, case, data):
    words, cells = case
    grid = Grid(cells)
    lengths = sorted({len(s) for s in grid.slots()})
    if not lengths:
        return
    # theme words: in the list or not, at any priority, of lengths the grid has
    themes = data.draw(st.lists(st.text(alphabet="abc", min_size=lengths[0], max_size=lengths[-1])
                                .filter(lambda t: len(t) in lengths), min_size=1, max_size=2, unique=True))
    max_shared = data.draw(st.sampled_from([0, 2]))
    lex = _lexicon(open_lexicon, words)
    try:
        result = fill(lex, grid, theme=themes, rules=Rules(min_priority=30, max_shared=max_shared))
    except QueryError as e:
        assert "is not in the lexicon" in str(e)
        return
    exists = fill_oracle.brute_force_exists(words, grid, min_priority=30, theme=themes, max_shared=max_shared)
    assert result.status == ("filled" if exists else "no_fill"), (themes, result.reason)
    if exists:
        assert fill_oracle.verify(lex, grid, result.grid, min_priority=30, theme=themes, max_shared=max_shared) == []
        placed = {w.word for w in result.words if w.theme}
        assert set(themes) <= placed and all(w.fixed for w in result.words if w.theme)


def test_theme_words_outside_the_lexicon(open_lexicon, fill_oracle):
    words = {"ab": 50, "ba": 50, "bb": 50, "aa": 50}
    lex = _lexicon(open_lexicon, words)
    g = grid_from_text("...\n...\n...")
    r = fill(lex, g, theme=["cab"])
    assert r.status == ("filled" if fill_oracle.brute_force_exists(words, g, theme=["cab"]) else "no_fill")
    g = grid_from_text("..\n..")
    r = fill(lex, g, theme=["cc"])  # cc crosses words that would have to hold c: none does
    assert r.status == "no_fill" and not fill_oracle.brute_force_exists(words, g, theme=["cc"])
    with pytest.raises(QueryError, match="no slot of 4 cells"):
        fill(lex, g, theme=["abab"])
    with pytest.raises(QueryError, match="tiles"):
        fill(lex, g, theme=["a1"])


# -- several fills --------------------------------------------------------------------------------------------


def _differences(a: dict[str, str], b: dict[str, str]) -> int:
    return sum(1 for k in a if a[k] != b[k])


def _as_fill(result_fill) -> dict[str, str]:
    return {w.slot: w.word for w in result_fill.words}


@given(scored_case(max_words=14), st.integers(1, 6), st.integers(1, 3), st.sampled_from(["mean", "min"]))
@settings(max_examples=80)
def test_several_fills_differ_as_asked(open_lexicon, fill_oracle, case, wanted, differ, objective):
    words, cells = case
    grid = Grid(cells)
    if not grid.slots() or any(all(v is not None for v in grid.word(s)) for s in grid.slots()):
        return  # every slot open to choice: the entries that differ are all the fill's
    lex = _lexicon(open_lexicon, words)
    result = fill(lex, grid, fills=wanted, differ=differ, objective=objective)
    every = fill_oracle.brute_force_fills(words, grid)
    if not every:
        assert result.status == "no_fill"
        return
    got = [_as_fill(f) for f in result.fills]
    assert result.status == "filled" and 1 <= len(got) <= wanted
    for f, found in zip(result.fills, got):
        assert fill_oracle.verify(lex, grid, f.grid) == []
        assert found in every
    for i in range(len(got)):
        for j in range(i):
            assert _differences(got[i], got[j]) >= differ
    keys = [f.rank_key(objective) for f in result.fills]
    assert keys == sorted(keys, reverse=True)
    if len(got) < wanted:  # exhaustive: no other fill differs from all of these enough
        assert "exhaustive" in (result.reason or "")
        assert not any(all(_differences(f, g) >= differ for g in got) for f in every)


def test_five_fills_on_a_real_grid(enable, fill_oracle):
    g = grid_from_text("#....\n.....\n.....\n.....\n....#")
    r = fill(enable, g, fills=5, differ=3, seed=1)
    assert r.status == "filled" and len(r.fills) == 5 and r.reason is None
    found = [_as_fill(f) for f in r.fills]
    for f in r.fills:
        assert fill_oracle.verify(enable, g, f.grid) == []
    assert all(_differences(a, b) >= 3 for i, a in enumerate(found) for b in found[:i])
    short = fill(enable, grid_from_text("......\n......\n......\n......\n......\n......"), fills=5, timeout=0.5)
    assert short.status in ("filled", "timeout")
    if short.status == "filled" and len(short.fills) < 5:
        assert "time limit" in (short.reason or "")


# -- slot counts after propagation (the heat map) ---------------------------------------------------------


@given(scored_case(), st.data())
@settings(max_examples=120)
def test_slot_counts_are_arc_consistency(open_lexicon, fill_oracle, case, data):
    words, cells = case
    grid = Grid(cells)
    if not grid.slots():
        return
    r = data.draw(rules(grid))
    lex = _lexicon(open_lexicon, words)
    try:
        got = slot_counts(lex, grid, rules=Rules(**r))
    except QueryError as e:
        assert "is not in the lexicon" in str(e)
        return
    want = fill_oracle.brute_force_counts(words, grid, **r)
    if want is None:
        assert got.status == "no_fill" and got.culprits
        return
    assert {s.slot: s.candidates for s in got.slots} == want
    if got.status == "no_fill":  # more slots of a length than words to fill them: a proof without a search
        assert "only" in (got.reason or "") and not fill_oracle.brute_force_exists(words, grid, **r)
    else:
        assert got.status == "filled"
    assert all(s.forced == (s.candidates == 1) for s in got.slots)
    # a fill reports the same counts
    assert fill(lex, grid, rules=Rules(**r)).slots == got.slots


# -- arguments, regions, bounds --------------------------------------------------------------------------


def test_bad_rules_are_query_errors(enable):
    g = grid_from_text("...\n...")
    for kwargs in (
        {"improve": float("nan")}, {"improve": float("inf")}, {"improve": "1"}, {"region": 5}, {"region": [1]},
        {"fills": 0}, {"fills": 101}, {"differ": 0}, {"objective": "best"}, {"max_shared": 1},
        {"max_shared": MAX_SHARED + 1}, {"min_by_length": {1: 30}}, {"min_by_length": {3: 300}},
        {"min_by_slot": {"9A": 30}}, {"min_by_slot": "1A:30"}, {"theme": [3]}, {"theme": ["xq%"]},
        {"allow_repeats": "yes"}, {"timeout": True},
    ):
        rules = {k: v for k, v in kwargs.items() if k in RULE_KEYWORDS}
        others = {k: v for k, v in kwargs.items() if k not in RULE_KEYWORDS}
        with pytest.raises(QueryError):
            fill(enable, g, rules=Rules(**rules), **others)


def test_a_region_that_holds_no_whole_slot_fills_its_cells_and_says_so(enable, fill_oracle):
    from lexigraph.commands import Context
    from lexigraph.commands.fill import FILL

    g = grid_from_text("....\n....\n....\n....")
    r = fill(enable, g, region="r1c1:r1c1")
    assert r.status == "filled" and r.words == [] and r.grid.cell(0, 0) is not None
    assert fill_oracle.verify(enable, g, r.grid, region={(0, 0)}) == []
    doc = FILL.run(Context(), {"grid_text": "..../..../..../....", "region": "r1c1:r1c1"})
    assert list(FILL.text(doc))[-1] == "filled 0 slots; no slot lies wholly in the region, so no word is complete"


def test_too_many_slots_of_a_length_is_a_proof(enable):
    # 1,024 separate 3x3 squares need 6,144 different 3-letter words: ENABLE has about a thousand.
    rows = ["#" * 127 if i % 4 == 3 else ("...#" * 32)[:127] for i in range(127)]
    r = fill(enable, grid_from_text("\n".join(rows)))
    assert r.status == "no_fill" and "only" in (r.reason or "")


def test_the_candidate_lists_have_a_documented_cap(enable, monkeypatch):
    monkeypatch.setattr(fill_problem, "MAX_CANDIDATE_BYTES", 1000)
    with pytest.raises(QueryError, match="MiB"):
        fill(enable, grid_from_text(".....\n.....\n....."))


_BOUNDED = textwrap.dedent("""
    import json, resource, sys, time
    import lexigraph
    from lexigraph.crossword.fill import fill
    from lexigraph.crossword.formats import grid_from_text
    # 441 separate 5x5 squares: a long search, fillable or not, that no time limit of a second sees through
    rows = ["#" * 125 if i % 6 == 5 else "".join("#" if c % 6 == 5 else "." for c in range(125)) for i in range(125)]
    lex = lexigraph.open(pure_python=sys.argv[1] == "python")
    seen = []
    grid = grid_from_text("\\n".join(rows))
    def peak_kb():
        # this process's own peak (VmHWM: ru_maxrss also counts the parent's memory at the fork, kept through exec)
        try:
            return int(next(l for l in open("/proc/self/status") if l.startswith("VmHWM")).split()[1])
        except (OSError, StopIteration):
            return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    before = peak_kb()  # the lexicon opened (maybe compiled) first
    start = time.monotonic()
    r = fill(lex, grid, timeout=float(sys.argv[2]), progress=lambda *a: seen.append(a))
    print(json.dumps({"status": r.status, "late": time.monotonic() - start - float(sys.argv[2]),
                      "search_mb": (peak_kb() - before) / 1024,
                      "reports": len(seen), "moved": len({a[1] for a in seen})}))
""")


def test_a_long_search_keeps_its_deadline_and_bounded_memory(engine_kind):
    # The search holds no copy of the grid per decision: its memory is the problem's, however long it runs.
    # (Before, a 197x197 grid of 5x5 squares grew to 20 GB in two minutes.)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", _BOUNDED, engine_kind, "2.5"], capture_output=True, text=True,
                         timeout=120, env=env)
    doc = json.loads(out.stdout)
    assert doc["status"] == "timeout", doc
    assert doc["search_mb"] < 300, doc  # the problem's candidate lists and trail: about 80-100 MB here
    assert doc["reports"] >= 2 and doc["moved"] >= 2, doc  # progress reported, and it moves


@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
def test_c_and_python_agree_under_every_rule(enable_on, open_python, fill_oracle):
    g = grid_from_text("....#....\n....#....\n.........\n###...###\n.........\n....#....\n....#....")
    py = open_python()
    for kwargs in ({"max_shared": 3, "seed": 1}, {"fills": 3, "differ": 4}, {"theme": ["oboe"], "seed": 2},
                   {"min_by_length": {4: 50}, "min_by_slot": {"1A": 50}}):
        rules = Rules(**{k: v for k, v in kwargs.items() if k in RULE_KEYWORDS})
        others = {k: v for k, v in kwargs.items() if k not in RULE_KEYWORDS}
        c, p = fill(enable_on, g, rules=rules, **others), fill(py, g, rules=rules, **others)
        assert c.status == p.status == "filled", kwargs
        assert [f.grid for f in c.fills] == [f.grid for f in p.fills]
        assert c.stats == p.stats, kwargs
        assert c.slots == p.slots
        rules = {k: v for k, v in kwargs.items() if k not in ("seed", "fills", "differ")}
        assert fill_oracle.verify(enable_on, g, c.grid, **rules) == []


def test_real_grid_with_scored_twl(fill_oracle, twl_wordfreq, shared):
    g = read_grid(shared("grids") / "grid15.txt")
    r = fill(twl_wordfreq, g, rules=Rules(min_priority=40, max_shared=5), theme=["lexicon"], fills=2, seed=1,
             timeout=60)
    assert r.status == "filled"
    for f in r.fills:
        assert fill_oracle.verify(twl_wordfreq, g, f.grid, min_priority=40, max_shared=5, theme=["lexicon"]) == []
    counts = {s.slot: s.candidates for s in slot_counts(twl_wordfreq, g, rules=Rules(min_priority=50)).slots}
    assert len(counts) == len(g.slots()) and all(n > 0 for n in counts.values())


@pytest.fixture(scope="session")
def twl_wordfreq(tmp_path_factory, shared):
    pytest.importorskip("wordfreq")
    import lexigraph

    path = tmp_path_factory.mktemp("twl-wf") / "twl06-wordfreq.lex"
    lexigraph.build(shared("twl06.txt"), path, score_by="wordfreq")
    return lexigraph.open(path)


def test_the_rule_keywords_build_the_same_rules(enable):
    """The former spelling (the rules' fields as keywords of fill, slot_counts, suggest) gives the same answers as
    rules=Rules(...); both at once, or a keyword that is no rule, is refused."""
    g = grid_from_text("....#....\n....#....\n.........\n###...###\n.........\n....#....\n....#....")
    rules = {"min_by_length": {4: 40}, "min_by_slot": {"1a": 45}, "max_shared": 4}
    by_record = fill(enable, g, rules=Rules(**rules), seed=3)
    by_keywords = fill(enable, g, seed=3, **rules)
    assert by_record.status == "filled" and by_record.grid == by_keywords.grid and by_record.stats == by_keywords.stats
    assert slot_counts(enable, g, **rules).slots == slot_counts(enable, g, rules=Rules(**rules)).slots
    assert suggest(enable, g, "1A", min_priority=50, limit=5) == suggest(enable, g, "1A", rules=Rules(50), limit=5)
    with pytest.raises(QueryError, match="not both"):
        fill(enable, g, rules=Rules(), min_priority=30)
    with pytest.raises(TypeError, match="unknown fill argument: minimum"):
        fill(enable, g, minimum=30)
    with pytest.raises(QueryError, match="rules is a Rules"):
        fill(enable, g, rules={"min_priority": 30})
