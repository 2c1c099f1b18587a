"""Every move ranked (``generate`` without ``top``): the plays ranked by the engine, every exchange and the pass
ranked with them in a few array operations, each move built only when looked at. Held, on both engines, to an
oracle that enumerates the exchanges itself (every distinct sub-multiset of the rack, valued by ``play_equity``)
and merges in plain Python, and to the eager path of a ``top`` larger than the list."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.leaves import LeaveTable
from lexigraph.scrabble.movegen import generate, play_equity
from lexigraph.scrabble.moves import Move, MoveList
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.tiles import parse_rack, rack_text

WORDS = ["aa", "ab", "ad", "ae", "ba", "be", "bed", "bead", "cab", "dab", "bad", "ace", "aced", "dace", "bee",
         "deb", "ebb", "abbe", "cade", "decab", "ed", "de", "da", "ea", "bade", "abed", "dee", "cee", "ceded"]
LEAVES = "A,1.5\nB,-2.25\nE,2.0\n?,20.5\nAE,3.0\nBB,-6.0\nDE,1.0\n??,30.0"
TILES = "AABBCDEE??"


@pytest.fixture(scope="module")
def small(engine_kind):
    return lexigraph.load(WORDS, pure_python=engine_kind == "python")


def played_position(lex, seed: int) -> Position:
    """The empty board, then a few best plays of seeded racks (a board with words the lexicon knows)."""
    game = Game.preset("scrabble")
    rng = random.Random(seed)
    pos = Position(game)
    for _ in range(rng.randrange(3)):
        best = generate(lex, pos, "".join(rng.sample(TILES, 7)), top=1, exchanges=False)
        if best:
            pos = pos.with_play(best[0])
    return pos


def subset_order(game: Game, rack: str, exchanged: tuple[str, ...]) -> tuple[int, int]:
    """(tiles exchanged, the subset's index: mixed radix over the rack's codes ascending, a digit per code)."""
    codes = parse_rack(game, rack)
    out = parse_rack(game, "".join(exchanged))
    index, radix = 0, 1
    for code in sorted(set(codes)):
        index += out.count(code) * radix
        radix *= codes.count(code) + 1
    return len(out), index


def oracle(lex, pos: Position, rack: str, table: LeaveTable, *, passes: bool, by_equity: bool) -> list[tuple]:
    """The ranking written out: the plays as the engine ranks them, every exchange (brute force) and the pass
    valued by ``play_equity``, merged by equity (a play first at equal equity, then exchanges by fewer tiles and
    index, then the pass), or after the plays when ranked by score."""
    game = pos.game
    sort = "equity" if by_equity else "score"
    plays = [(m.kind, m.notation, m.score, m.leave, m.equity)
             for m in generate(lex, pos, rack, leaves=table, exchanges=False, sort=sort)]
    extras = []
    letters = sorted(rack)
    for size in range(1, len(letters) + 1):
        for chosen in sorted(set(combinations(letters, size))):
            kept = list(letters)
            for t in chosen:
                kept.remove(t)
            exchanged = rack_text(game, parse_rack(game, "".join(chosen)))
            move = Move("exchange", 0, rack_text(game, parse_rack(game, "".join(kept))), notation="-" + exchanged,
                        exchanged=exchanged)
            value = play_equity(lex, pos, move, rack, leaves=table)
            extras.append(((-value, 1, *subset_order(game, rack, chosen)),
                           ("exchange", move.notation, 0, move.leave, value)))
    if passes:
        value = play_equity(lex, pos, Move("pass", 0, rack, notation="-"), rack, leaves=table)
        extras.append(((-value, 2, 0, 0), ("pass", "-", 0, rack_text(game, parse_rack(game, rack)), value)))
    extras.sort(key=lambda e: e[0])
    if not by_equity:
        return plays + [e[1] for e in extras]
    keyed = [((-p[4], 0, k, 0), p) for k, p in enumerate(plays)] + extras
    return [entry for _key, entry in sorted(keyed, key=lambda e: e[0])]


def described(moves) -> list[tuple]:
    return [(m.kind, m.notation, m.score, m.leave, m.equity) for m in moves]


def same(got: list[tuple], expected: list[tuple]) -> None:
    assert [g[:4] for g in got] == [e[:4] for e in expected]
    assert [g[4] for g in got] == pytest.approx([e[4] for e in expected], abs=1e-9)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), size=st.integers(1, 7), passes=st.booleans(), by_equity=st.booleans())
def test_every_move_ranked_equals_the_oracle(small, seed, size, passes, by_equity):
    rng = random.Random(seed)
    rack = "".join(rng.sample(TILES, size))
    pos = played_position(small, seed)
    table = LeaveTable.from_csv(LEAVES)
    sort = "equity" if by_equity else "score"
    got = generate(small, pos, rack, leaves=table, passes=passes, exchanges=True, sort=sort)
    same(described(got), oracle(small, pos, rack, table, passes=passes, by_equity=by_equity))
    # the lazy list equals the eager one (a top larger than the list takes the path that builds every extra)
    eager = generate(small, pos, rack, leaves=table, passes=passes, exchanges=True, sort=sort, top=10**6)
    assert got == eager and len(got) == len(eager) and got.total == eager.total


def test_the_lazy_list_behaves_as_a_list(small):
    table = LeaveTable.from_csv(LEAVES)
    pos = played_position(small, 3)
    got = generate(small, pos, "ABDEE?", leaves=table, passes=True)
    moves = list(got)
    assert isinstance(got, MoveList)
    assert {m.kind for m in moves} == {"play", "exchange", "pass"}
    assert got[-1] == moves[-1] and got[0] == moves[0] and got[2:9] == moves[2:9]
    assert got == moves and got[len(moves) // 2] is got[len(moves) // 2]  # built once, then kept
    with pytest.raises(IndexError):
        got[len(moves)]
    assert [m.to_dict() for m in got] == [m.to_dict() for m in moves]
    assert len(got.columns) == sum(m.kind == "play" for m in moves)
    equities = [m.equity for m in moves]
    assert equities == sorted(equities, reverse=True)


def test_a_moves_list_given_moves_keeps_them(small):
    moves = [Move("pass", 0, "AB", notation="-", equity=1.0), Move("exchange", 0, "A", notation="-B", exchanged="B")]
    listed = MoveList(moves)
    assert list(listed) == moves and listed[1] is moves[1] and listed[-2:] == moves and listed.total == 2


# -- the engines' rank_extras: C (native/ranking.c) and the Python twin, against a plain oracle ----------------

def ranked_oracle(plays: list[float], values: list[float], ties: list[int], passes: bool, by_equity: bool):
    extras = [(values[i], ties[i - 1], i) for i in range(1, len(ties) + 1)]
    if passes:
        extras.append((values[0], 1 << 30, 0))
    extras.sort(key=lambda e: (-e[0], e[1]))
    places = [(sum(p >= value for p in plays) if by_equity else len(plays)) + k
              for k, (value, _tie, _subset) in enumerate(extras)]
    return places, [(subset, value) for value, _tie, subset in extras]


@settings(max_examples=60, deadline=None)
@given(plays=st.lists(st.sampled_from([-3.5, 0.0, -0.0, 1.25, 7.0, 12.5, 40.0]), max_size=12),
       values=st.lists(st.sampled_from([-3.5, 0.0, -0.0, 1.25, 7.0, 12.5, 41.0]), min_size=1, max_size=9),
       exchanges=st.booleans(), passes=st.booleans(), by_equity=st.booleans(), seed=st.integers(0, 99))
def test_rank_extras_on_both_engines_equals_the_oracle(small, plays, values, exchanges, passes, by_equity, seed):
    import struct

    import numpy as np

    from lexigraph.engine.interface import move_record_dtype
    from lexigraph.scrabble.movegen import generator_for

    plays = sorted(plays, reverse=True)
    records = np.zeros(len(plays), move_record_dtype())
    records["equity"] = plays
    ties = random.Random(seed).sample(range(1, 1000), len(values) - 1) if exchanges else []
    packed, order = struct.pack(f"<{len(values)}d", *values), struct.pack(f"<{len(ties)}q", *ties)
    state = generator_for(small, Game.preset("scrabble")).state
    places, ranked = state.rank_extras(records, packed, order, passes, by_equity)
    got = [struct.unpack_from("<qd", ranked, 16 * k) for k in range(len(ranked) // 16)]
    assert (list(memoryview(places).cast("q")), got) == ranked_oracle(plays, values, ties, passes, by_equity)


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.sampled_from([-3.5, 0.0, -0.0, 1.25, 7.0, 12.5, 41.0]), min_size=1, max_size=9),
       exchanges=st.booleans(), passes=st.booleans(), seed=st.integers(0, 99))
def test_best_extra_on_both_engines_is_the_first_ranked(small, values, exchanges, passes, seed):
    """best_extra (the best move's question) answers the first extra of the ranking, ties broken alike."""
    import struct

    from lexigraph.scrabble.movegen import generator_for

    ties = random.Random(seed).sample(range(1, 1000), len(values) - 1) if exchanges else []
    packed, order = struct.pack(f"<{len(values)}d", *values), struct.pack(f"<{len(ties)}q", *ties)
    state = generator_for(small, Game.preset("scrabble")).state
    ranked = ranked_oracle([], values, ties, passes, True)[1]
    assert state.best_extra(packed, order, passes) == (ranked[0] if ranked else None)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), size=st.integers(1, 7), passes=st.booleans())
def test_the_best_move_is_the_first_of_the_oracle(small, seed, size, passes):
    """``top=1`` by equity (plays, exchanges, the pass: the game jobs' question) is the oracle's first move."""
    pos = played_position(small, seed)
    rack = "".join(random.Random(seed + 1).sample(TILES, size))
    table = LeaveTable.from_csv(LEAVES)
    expected = oracle(small, pos, rack, table, passes=passes, by_equity=True)
    for count_all in (True, False):
        got = described(generate(small, pos, rack, top=1, leaves=table, passes=passes, count_all=count_all))
        same(got, expected[:1])
