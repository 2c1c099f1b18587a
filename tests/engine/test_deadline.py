"""Deadlines: every engine walk and every query that grows with the lexicon stops with DeadlineExceeded once its
deadline has passed, on both engines, and answers as without one before it."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, strategies as st

import lexigraph
from lexigraph.engine import compiled
from lexigraph.engine.deadline import Countdown, check, checked
from lexigraph.errors import DeadlineExceeded, LexiconError, QueryError

#: Queries of the Lexicon that take a deadline, each on a plan of its own (walks, scans, one-call answers).
QUERIES = [
    ("words", lambda lex, d: lex.words(deadline=d)),
    ("words prefix", lambda lex, d: lex.words(prefix="qu", deadline=d)),
    ("words length", lambda lex, d: lex.words(prefix="q", length=4, deadline=d)),
    ("exact", lambda lex, d: lex.anagram("aeinrst", mode="exact", deadline=d)),
    ("exact blanks", lambda lex, d: lex.anagram("aeinr??", mode="exact", deadline=d)),
    ("exact many blanks", lambda lex, d: lex.anagram("??????", mode="exact", deadline=d)),
    ("sub", lambda lex, d: lex.anagram("retains", deadline=d)),
    ("sub blank", lambda lex, d: lex.anagram("retain?", deadline=d)),
    ("fifteen blanks", lambda lex, d: lex.anagram("?" * 15, min_length=13, deadline=d, blanks=True)),
    ("super", lambda lex, d: lex.anagram("quiz*", deadline=d)),
    ("through", lambda lex, d: lex.anagram("cat", through="s", sort="length", deadline=d)),
    ("table", lambda lex, d: lex.anagram_table("aet", deadline=d)),
    ("match fixed", lambda lex, d: lex.match("?uixot??", deadline=d)),
    ("match prefix", lambda lex, d: lex.match("qu*", deadline=d)),
    ("match glob", lambda lex, d: lex.match("*e*", limit=5, deadline=d)),
    ("match set", lambda lex, d: lex.match("[aeiou]#@#", deadline=d)),
    ("match ids", lambda lex, d: lex.match_ids("c*t", deadline=d).tolist()),
    ("count", lambda lex, d: lex.count("*ing", deadline=d)),
    ("cross", lambda lex, d: lex.cross("e???y", 2, "d???", 1, deadline=d).words_a),
    ("cross sets", lambda lex, d: lex.cross("[ae]???y", 2, "d???", 1, deadline=d).words_a),
    ("hooks", lambda lex, d: str(lex.hooks("care", deadline=d))),
    ("probability", lambda lex, d: lex.probability("retains", deadline=d).rank),
    ("search", lambda lex, d: lex.search("length 7 and anagram aeinrst", deadline=d)),
]


@pytest.fixture(scope="module")
def lexicons():
    kinds = ["c", "python"] if compiled.available() else ["python"]
    return {kind: lexigraph.open(pure_python=kind == "python") for kind in kinds}


@pytest.mark.parametrize("name,query", QUERIES, ids=[q[0] for q in QUERIES])
def test_every_query_stops_past_its_deadline_on_both_engines(lexicons, name, query):
    answers = {}
    for kind, lex in lexicons.items():
        with pytest.raises(DeadlineExceeded, match="deadline"):
            query(lex, time.monotonic() - 1)
        answers[kind] = query(lex, time.monotonic() + 3600)
        assert answers[kind] == query(lex, None), (kind, name)
    assert len({repr(a) for a in answers.values()}) == 1, answers


def test_a_deadline_is_a_lexicon_error_and_a_bad_one_a_query_error(lexicons):
    assert issubclass(DeadlineExceeded, LexiconError)
    for lex in lexicons.values():
        for bad in ("soon", float("nan"), True, [1.0]):
            with pytest.raises(QueryError, match="deadline"):
                lex.match("c?t", deadline=bad)  # type: ignore[arg-type]


def test_walks_stop_at_their_deadline_on_both_engines(lexicons):
    for kind, lex in lexicons.items():
        engine, code = lex.engine, lex.alphabet.encode
        late = time.monotonic() - 1
        calls = [
            lambda d: engine.rack_ids(code("retains"), 1, mode="sub", through=b"", min_length=2, max_length=8, deadline=d),
            lambda d: engine.rack_words(code("quiz"), 0, mode="super", through=b"", min_length=4, max_length=6,
                                        deadline=d),
            lambda d: engine.pattern_ids([code("q")], 1, 15, deadline=d),
            lambda d: engine.pattern_words([], 2, 15, 10, deadline=d),
            lambda d: engine.exact_anagram_ids(code("aeinr"), 2, deadline=d),
        ]
        for call in calls:
            with pytest.raises(DeadlineExceeded):
                call(late)
            assert repr(call(time.monotonic() + 3600)) == repr(call(None)), kind


@pytest.mark.skipif(not compiled.available(), reason="the C engine is not available")
def test_the_c_one_call_answers_stop_at_their_deadline(lexicons):
    engine = lexicons["c"].engine
    lexicons["c"].words(prefix="q")  # the graph checked: the one-call answers may answer
    late = time.monotonic() - 1
    calls = [
        lambda d: engine.quick_prefix_words("", 1, 255, d),
        lambda d: engine.quick_pattern_words("?????", d),
        lambda d: engine.quick_exact_anagrams("aeinr??", d),
        lambda d: engine.quick_rack_words("retain?", 2, "sub", d),
        lambda d: engine.quick_cross("e???y", 2, "d???", 1, d),
    ]
    for call in calls:
        assert call(None) is not None
        with pytest.raises(DeadlineExceeded):
            call(late)
        # A deadline that passes as the walk begins is seen at its first step, not thousands later.
        with pytest.raises(DeadlineExceeded):
            call(time.monotonic())
        assert call(time.monotonic() + 3600) == call(None)


@pytest.mark.skipif(not compiled.available(), reason="the C engine is not available")
def test_the_c_clock_is_time_monotonic_and_the_walk_answers_are_the_engines():
    native = compiled.native()
    before = time.monotonic()
    now = native.monotonic()
    after = time.monotonic()
    assert before <= now <= after
    assert native.WALK_ANSWERS == {"outside": compiled.OUTSIDE, "past_deadline": compiled.PAST_DEADLINE,
                                   "over_budget": compiled.OVER_BUDGET}
    probe = lexigraph.open().engine.probe
    for bad in ("soon", float("nan")):
        with pytest.raises(TypeError, match="deadline"):
            probe.pattern_words("c?t", bad)


def _fill_problem(lex):
    """A 2 x 2 open grid over the lexicon's two-letter words: rows 0-1 and columns 2-3, every cell open."""
    import numpy as np

    from lexigraph.engine.interface import PropagationProblem

    rows = np.frombuffer(b"".join(lex.alphabet.encode(w) for w in lex.words(length=2)), np.uint8).reshape(-1, 2)
    slots = [[0, 1], [2, 3], [0, 2], [1, 3]]
    cell_slots = [[(0, 0), (2, 0)], [(0, 1), (3, 0)], [(1, 0), (2, 1)], [(1, 1), (3, 1)]]
    problem = PropagationProblem([rows] * 4, slots, cell_slots, b"\1" * 4, b"\0" * 4, [[0, 1, 2, 3]] * 4, False)
    candidates = [np.arange(len(rows), dtype=np.int32)] * 4
    return problem, candidates, [(1 << (len(lex.alphabet) + 1)) - 2] * 4


def test_the_fill_state_keeps_its_deadline_on_both_engines(lexicons):
    """Every operation of either engine's fill state refuses a NaN deadline (a TypeError, as the walks do; the C
    state once took NaN for no deadline), stops at one already past (-2) and answers without one."""
    results = {}
    for kind, lex in lexicons.items():
        problem, candidates, domains = _fill_problem(lex)
        state = lex.engine.fill_state(problem, candidates, domains)
        operations = [
            lambda d: state.propagate({0: None, 1: None, 2: None, 3: None}, [], d),
            lambda d: state.exclude(0, int(state.candidates(0)[0]), d),
            lambda d: state.exclude_tile(0, lex.alphabet.code("q"), d),
            lambda d: state.apply_nogoods(-1, d),
        ]
        for operation in operations:
            mark = state.mark()
            for bad in (float("nan"), "soon"):
                with pytest.raises(TypeError, match="deadline"):
                    operation(bad)
            assert operation(time.monotonic() - 1) in (-1, -2)  # -1: the operation needed no step
            state.undo(mark)
        assert state.propagate({0: None, 1: None, 2: None, 3: None}, [], time.monotonic() - 1) == -2
        results[kind] = (state.propagate({0: None, 1: None, 2: None, 3: None}, [], None), state.sizes())
        assert results[kind][0] == -1
    assert len({repr(r) for r in results.values()}) == 1, results


@given(st.integers(1, 50), st.integers(0, 200))
def test_a_countdown_reads_the_clock_every_few_steps(steps, ticks):
    reads = []
    countdown = Countdown(time.monotonic() + 3600, steps=steps)
    import lexigraph.engine.deadline as deadline_module

    original = deadline_module.check
    deadline_module.check = lambda d, what="": reads.append(d)  # type: ignore[assignment]
    try:
        for _ in range(ticks):
            countdown.tick()
    finally:
        deadline_module.check = original
    assert len(reads) == (0 if not ticks else 1 + (ticks - 1) // steps)  # at the first step, then every `steps`
    assert Countdown(None).left == -1 and check(None) is None and checked(None) is None
