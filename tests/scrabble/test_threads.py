"""Self-play and the simulation's play-outs on C threads (native/threads.c, selfplay.c, playouts.c): the records
are the same bytes on 1, 2, 3 and 8 threads, on a process pool and on a Dask cluster, and the Python twin (which
plays in turn) gives them too; past a deadline the iterations answered are the first ones; bad thread counts are
refused with one clear error, on both engines, in the library and on the command line."""

from __future__ import annotations

import itertools
import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.alphabet import Alphabet
from lexigraph.engine import compiled
from lexigraph.engine.interface import MAX_THREADS
from lexigraph.errors import LexiconError, QueryError
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.leaves import LeaveTable, load_leaves
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.selfplay import Player, autoplay, selfplay_request
from lexigraph.scrabble.simulation import prepare, simulate
from helpers.games import ABCD_WORDS as SMALL_WORDS, abcd_game as small_game, harvested

needs_c = pytest.mark.skipif(not compiled.available(), reason="the C engine is not available")
THREAD_COUNTS = (1, 2, 3, 8)


def small_table(alphabet: Alphabet) -> LeaveTable:
    """A value for every leave of up to 3 tiles of the small game, all distinct (no ties to break)."""
    rng = random.Random(34)
    leaves = {bytes(c) for n in (1, 2, 3) for c in itertools.combinations_with_replacement(range(5), n)}
    return LeaveTable({k: round(rng.uniform(-12, 12), 3) for k in sorted(leaves)}, alphabet)


@pytest.fixture(scope="module")
def small():
    game = small_game()
    return game, small_table(game.alphabet)


def small_lexicon(kind: str) -> lexigraph.Lexicon:
    game = small_game()
    lex = lexigraph.load(SMALL_WORDS, alphabet=game.alphabet, pure_python=kind == "python")
    assert lex.engine.kind == kind
    return lex


def as_bytes(records) -> tuple[bytes, ...]:
    return tuple(bytes(r) for r in records)


# -- self-play ------------------------------------------------------------------------------------------------


def test_selfplay_records_are_the_same_on_any_number_of_threads_small_game(engine_kind, small):
    game, table = small
    lex = small_lexicon(engine_kind)
    players = [Player.equity(table, "eq"), Player.score("sc")]
    for seed, first, count in ((0, 0, 7), (5, 3, 12), (2 ** 64 - 1, 11, 1)):
        request = selfplay_request(lex, game, players, seed)
        one = as_bytes(lex.engine.play_games(request, first, count, 1))
        assert len(one[1]) == 64 * count and len(one[0]) > 96 * count
        for threads in THREAD_COUNTS[1:]:
            assert as_bytes(lex.engine.play_games(request, first, count, threads)) == one, threads


@needs_c
def test_threaded_c_games_equal_the_python_twin(small):
    game, table = small
    lex_c, lex_py = small_lexicon("c"), small_lexicon("python")
    players = [Player.equity(table, "a"), Player.equity(table, "b")]
    for seed in (3, 4):
        twin = as_bytes(lex_py.engine.play_games(selfplay_request(lex_py, game, players, seed), 2, 6))
        for threads in (2, 3):
            got = as_bytes(lex_c.engine.play_games(selfplay_request(lex_c, game, players, seed), 2, 6, threads))
            assert got == twin


@needs_c
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2 ** 64 - 1), first=st.integers(0, 2 ** 40), count=st.integers(0, 9),
       threads=st.integers(2, 9))
def test_generated_runs_equal_one_thread(small, seed, first, count, threads):
    """Any seed, first game and count (none included, fewer games than threads included): one thread's bytes."""
    game, table = small
    lex = small_lexicon("c")
    request = selfplay_request(lex, game, [Player.equity(table, "a"), Player.score("b")], seed)
    assert (as_bytes(lex.engine.play_games(request, first, count, threads))
            == as_bytes(lex.engine.play_games(request, first, count, 1)))


@needs_c
def test_selfplay_on_threads_equals_one_thread_and_a_process_pool_built_in_lexicon(enable):
    game = Game.preset("scrabble")
    players = [Player.equity(load_leaves(game.leaves, enable.alphabet), "eq"), Player.score("sc")]
    request = selfplay_request(enable, game, players, 17)
    one = as_bytes(enable.engine.play_games(request, 5, 6, 1))
    for threads in (2, 3):
        assert as_bytes(enable.engine.play_games(request, 5, 6, threads)) == one
    alone = autoplay(enable, game, players, games=6, first=5, seed=17, workers=1, keep_games=True)
    pooled = autoplay(enable, game, players, games=6, first=5, seed=17, workers=2, threads=2, keep_games=True,
                      batch=4)
    assert (bytes(alone.turns), bytes(alone.games)) == one
    assert (bytes(pooled.turns), bytes(pooled.games)) == one
    assert pooled.totals.threads == 2 and alone.totals.threads == 1
    assert [pooled.gcg(k) for k in range(6)] == [alone.gcg(k) for k in range(6)]


def test_selfplay_on_threads_and_a_dask_cluster(small):
    distributed = pytest.importorskip("distributed")
    game, table = small
    lex = lexigraph.load(SMALL_WORDS, alphabet=game.alphabet)
    players = [Player.equity(table, "eq"), Player.score("sc")]
    alone = autoplay(lex, game, players, games=8, seed=41, workers=1, keep_games=True, batch=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster:
        spread = autoplay(lex, game, players, games=8, seed=41, cluster=cluster.scheduler_address, threads=3,
                          keep_games=True, batch=4)
    assert (bytes(spread.turns), bytes(spread.games)) == (bytes(alone.turns), bytes(alone.games))


# -- simulation -----------------------------------------------------------------------------------------------


def small_requests(lex, game: Game, table: LeaveTable):
    """Requests of a few positions of the small game: harvested mid-game, 0 to 4 plies."""
    for seed, at in ((4, 1), (6, 3), (9, 6)):
        pos = harvested(lex, game, table, seed, at)
        if pos.unseen():
            for plies in (0, 2, 4):
                yield prepare(lex, pos, leaves=table, candidates=6, plies=plies, seed=seed)[2]


def test_play_outs_are_the_same_on_any_number_of_threads(engine_kind, small):
    game, table = small
    lex = small_lexicon(engine_kind)
    requests = list(small_requests(lex, game, table))
    assert requests
    for request in requests:
        one = bytes(lex.engine.simulate_plays(request, 7, 9, None, 1))
        assert len(one) > 0
        for threads in THREAD_COUNTS[1:]:
            assert bytes(lex.engine.simulate_plays(request, 7, 9, None, threads)) == one, threads


@needs_c
def test_threaded_play_outs_equal_the_python_twin(small):
    game, table = small
    lex_c, lex_py = small_lexicon("c"), small_lexicon("python")
    for request_c, request_py in zip(small_requests(lex_c, game, table), small_requests(lex_py, game, table)):
        twin = bytes(lex_py.engine.simulate_plays(request_py, 3, 5))
        for threads in (2, 3):
            assert bytes(lex_c.engine.simulate_plays(request_c, 3, 5, None, threads)) == twin


@needs_c
def test_simulation_on_threads_equals_one_thread_and_two_workers_built_in_lexicon(enable):
    game = Game.preset("scrabble")
    table = load_leaves(game.leaves, enable.alphabet)
    pos = harvested(enable, game, table, 21, 5)
    kwargs = dict(leaves=table, candidates=5, iterations=96, seed=7, min_iterations=32)
    one = simulate(enable, pos, workers=1, threads=1, **kwargs)
    for workers, threads in ((1, 2), (1, 3), (2, 2)):
        other = simulate(enable, pos, workers=workers, threads=threads, **kwargs)
        assert [p.as_dict() for p in other.ranked] == [p.as_dict() for p in one.ranked]
        assert other.iterations == one.iterations
    _p, _m, request = prepare(enable, pos, leaves=table, candidates=5, plies=2, seed=3)
    assert (bytes(enable.engine.simulate_plays(request, 0, 24, None, 2))
            == bytes(enable.engine.simulate_plays(request, 0, 24, None, 1)))


@needs_c
def test_past_the_deadline_threads_answer_the_first_iterations(small):
    """Threads stop claiming at the deadline and finish what they hold: the rows answered are always iterations
    first .. first + k - 1, the same as one thread's first k; a deadline already past still answers one."""
    game, table = small
    lex = small_lexicon("c")
    request = next(iter(small_requests(lex, game, table)))
    full = lex.engine.simulate_plays(request, 0, 4000, None, 1)
    past = lex.engine.simulate_plays(request, 0, 4000, time.monotonic() - 1, 3)
    assert len(past) == 1 and bytes(past) == bytes(full[:1])
    for wait in (0.0005, 0.005, 0.05):
        cut = lex.engine.simulate_plays(request, 0, 4000, time.monotonic() + wait, 3)
        assert 1 <= len(cut) <= len(full)
        assert bytes(cut) == bytes(full[:len(cut)])


@needs_c
def test_an_error_on_one_thread_is_the_error_of_one_thread(small):
    """A candidate the position does not allow fails the whole call on any number of threads, with the message
    one thread gives."""
    game, table = small
    lex = small_lexicon("c")
    pos = Position(game, racks=["abcd", ""])
    request = prepare(lex, pos, leaves=table, candidates=2, seed=1)[2]
    bad = request._replace(candidates=request.candidates + bytes([0, 1, 0, 0]) + bytes(60))
    messages = set()
    for threads in (1, 2, 3):
        with pytest.raises(LexiconError) as caught:
            lex.engine.simulate_plays(bad, 0, 40, None, threads)
        messages.add(str(caught.value))
    assert len(messages) == 1 and "does not allow" in messages.pop()


# -- bad thread counts ----------------------------------------------------------------------------------------


BAD_THREADS = (0, -1, MAX_THREADS + 1, True, 2.0, "2", None)


def test_bad_thread_counts_are_refused(engine_kind, small):
    game, table = small
    lex = small_lexicon(engine_kind)
    players = [Player.score("a"), Player.score("b")]
    request = selfplay_request(lex, game, players, 1)
    sim_request = prepare(lex, Position(game, racks=["abcd", ""]), leaves=table, candidates=2, seed=1)[2]
    for threads in BAD_THREADS:
        with pytest.raises(QueryError, match="threads must be a whole number from 1 to 256"):
            lex.engine.play_games(request, 0, 2, threads)  # type: ignore[arg-type]
        with pytest.raises(QueryError, match="threads must be a whole number from 1 to 256"):
            lex.engine.simulate_plays(sim_request, 0, 2, None, threads)  # type: ignore[arg-type]
        with pytest.raises(GameError, match="threads must be a whole number from 1 to 256"):
            autoplay(lex, game, players, games=2, workers=1, threads=threads)  # type: ignore[arg-type]
        with pytest.raises(GameError, match="threads must be a whole number from 1 to 256"):
            simulate(lex, Position(game, racks=["abcd", ""]), leaves=table, candidates=2, iterations=2,
                     threads=threads)  # type: ignore[arg-type]
    # the top of the range is allowed: more threads than games or iterations run what there is
    assert len(lex.engine.play_games(request, 0, 2, MAX_THREADS)[1]) == 2
    assert len(lex.engine.simulate_plays(sim_request, 0, 2, None, MAX_THREADS)) == 2


@needs_c
def test_the_c_entry_points_refuse_bad_thread_counts_themselves(small):
    """Behind the engine's check, the C entry points keep their own (a ValueError, as for any argument)."""
    from lexigraph import _native

    game, table = small
    lex = small_lexicon("c")
    request = selfplay_request(lex, game, [Player.score("a"), Player.score("b")], 1)
    sim_request = prepare(lex, Position(game, racks=["abcd", ""]), leaves=table, candidates=2, seed=1)[2]
    for threads in (0, -3, MAX_THREADS + 1):
        with pytest.raises(ValueError, match="play_games: inconsistent arguments"):
            _native.play_games(request, 0, 1, threads)
        with pytest.raises(ValueError, match="simulate_plays: inconsistent arguments"):
            _native.simulate_plays(sim_request, 0, 1, None, threads)
    assert _native.threads_available() is True


def test_command_line_threads(capsys):
    from lexigraph.cli.main import main

    assert main(["autoplay", "-n", "4", "--workers", "1", "--threads", "2", "--seed", "3", "--json"]) == 0
    two = capsys.readouterr().out
    assert main(["autoplay", "-n", "4", "--workers", "1", "--seed", "3", "--json"]) == 0
    one = capsys.readouterr().out
    assert '"threads": 2' in two and '"threads": 1' in one
    strip = lambda doc: [line for line in doc.splitlines() if "second" not in line and "threads" not in line]
    assert strip(two) == strip(one)
    for command in (["autoplay", "-n", "2", "--threads", "0"], ["sim", "empty", "--rack", "QUIZ", "--threads", "257"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "threads" in err
