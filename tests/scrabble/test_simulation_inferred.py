"""Simulation that deals the opponent's rack from the inferred leave (``simulate(..., infer=...)``): the deal's law
against an oracle (the leave picked by the documented random number, the racks' frequencies against the exact
mixture of the inferred weights and hypergeometric draws), C and Python deals and play-outs identical record for
record, the same on threads and processes, ``infer=None`` unchanged, the last move lifted off the board, forged
distributions refused."""

from __future__ import annotations

import bisect
import itertools
import math
import random
import struct
from collections import Counter

import pytest

import lexigraph
from lexigraph.engine import compiled
from lexigraph.engine.python import simulation as python_simulation
from lexigraph.engine.python.selfplay import Xoshiro
from lexigraph.errors import LexiconError
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.inference import Inference, InferredLeave, ObservedMove, infer, infer_last_move, position_before
from lexigraph.scrabble.leaves import LeaveTable
from lexigraph.scrabble.movegen import generate, generate_placements
from lexigraph.scrabble.moves import move_from_record
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.scoring import score_play
from lexigraph.scrabble.simulation import LEAVE_WEIGHT_TOTAL, prepare, simulate
from lexigraph.scrabble.tiles import parse_rack, rack_text
from helpers.games import ABCD_WORDS, abcd_game

GAME = abcd_game(size=7, count=4, blanks=1, rack_size=4)
needs_c = pytest.mark.skipif(not compiled.available(), reason="the C engine is not available")


def small_table(game: Game) -> LeaveTable:
    """Distinct values for every leave of 1 to 3 tiles (no exchange ties)."""
    rng = random.Random(36)
    leaves = {bytes(c) for n in (1, 2, 3) for c in itertools.combinations_with_replacement(range(5), n)}
    return LeaveTable({k: round(rng.uniform(-9, 9), 3) for k in sorted(leaves)}, game.alphabet)


TABLE = small_table(GAME)


@pytest.fixture(scope="module")
def lex(engine_kind):
    return lexigraph.load(ABCD_WORDS, alphabet=GAME.alphabet, pure_python=engine_kind == "python")


def before_and_after(lex, seed: int, unseen: int) -> tuple[Position, str, Position] | None:
    """A position of random plays with at most ``unseen`` tiles off the board (the opponent on turn, the observer's
    rack second), the opponent's best play from a rack drawn from the rest, and the position after it (the
    observer on turn, its rack first)."""
    rng = random.Random(seed)
    pos = Position(GAME)
    bag = [c for c, n in enumerate(GAME.counts_by_code()) for _ in range(n)]
    rng.shuffle(bag)
    misses = 0
    while len(bag) > unseen:
        rack = [bag.pop() for _ in range(GAME.rack_size)]
        plays = generate_placements(lex, pos, rack_text(GAME, rack))
        if not plays:
            bag[:0] = rack
            misses += 1
            if misses > 5:
                return None
            continue
        raw = rng.choice(plays)
        pos = pos.with_play(move_from_record(pos, rack, raw))
        for b in raw[4]:
            if b:
                rack.remove(0 if b & 0x80 else b)
        bag[:0] = rack
    mine = rng.randint(1, 3)
    pos.racks = ["", rack_text(GAME, bag[:mine])]
    pos.scores = [11, 17]
    true_rack = bag[mine:mine + GAME.rack_size]
    plays = [m for m in generate(lex, pos, rack_text(GAME, true_rack), leaves=TABLE, sort="equity") if m.kind == "play"]
    if not plays:
        return None
    after = pos.with_play(plays[0])
    after.racks = [pos.racks[1], ""]
    after.scores = [pos.scores[1], pos.scores[0] + plays[0].score]
    return pos, plays[0].notation, after


_CASES: dict[int, list[tuple[Position, str, Position, Inference]]] = {}


def cases(lex, count: int = 3) -> list[tuple[Position, str, Position, Inference]]:
    """The first ``count`` positions (seeds 0, 1, ...) whose inference holds two leaves or more, with tiles left
    in the bag after the opponent's rack."""
    key = id(lex)
    if len(_CASES.get(key, [])) >= count:
        return _CASES[key][:count]
    found = []
    for seed in range(80):
        case = before_and_after(lex, seed, unseen=14)
        if case is None:
            continue
        before, move, after = case
        inference = infer(lex, before, move, margin=3.0, leaves=TABLE)
        if len(inference.leaves) >= 2 and sum(after.unseen(after.racks[0])) > GAME.rack_size:
            found.append((before, move, after, inference))
        if len(found) == count:
            break
    assert len(found) == count
    _CASES[key] = found
    return found


def counts_of(codes, n_codes: int) -> list[int]:
    out = [0] * n_codes
    for c in codes:
        out[c] += 1
    return out


def mixture(inference: Inference, unseen: list[int], rack_size: int) -> dict[tuple[int, ...], float]:
    """The exact law of the opponent's dealt rack: a leave by its probability, the rest a uniform draw (without
    replacement) from the unseen tiles less the leave."""
    law: Counter[tuple[int, ...]] = Counter()
    n = len(unseen)
    for leave in inference.leaves:
        kept = counts_of(leave.codes, n)
        rest = [u - k for u, k in zip(unseen, kept)]
        size = min(rack_size, sum(unseen)) - len(leave.codes)
        ways = math.comb(sum(rest), size)
        for drawn in itertools.product(*[range(min(r, size) + 1) for r in rest]):
            if sum(drawn) != size:
                continue
            p = math.prod(math.comb(r, d) for r, d in zip(rest, drawn)) / ways
            law[tuple(k + d for k, d in zip(kept, drawn))] += leave.probability * p
    return dict(law)


def deals(lex, request, first: int, count: int) -> list[tuple[int, ...]]:
    """The opponent's racks the engine of ``lex`` deals (a count per code each)."""
    n = len(request.unseen)
    if isinstance(lex.engine, compiled.CompiledEngine):
        raw = compiled.native().simulation_deals(request, first, count)
    else:
        raw = python_simulation.simulation_deals(request.tables, request, first, count)
    return [tuple(raw[i * n:(i + 1) * n]) for i in range(count)]


# -- the deal's law ---------------------------------------------------------------------------------------------


def test_each_deal_starts_from_the_leave_its_random_number_picks(lex):
    """The exact check, deal by deal: iteration i's first random number below the total weight picks the leave
    whose cumulative weight first exceeds it (the weights being the probabilities in units of 2**-52), and the
    dealt rack holds that leave and is filled from the unseen tiles to the rack's size."""
    for _before, _move, after, inference in cases(lex):
        _p, _m, request = prepare(lex, after, leaves=TABLE, candidates=2, seed=5, infer=inference)
        n = len(request.unseen)
        cumulative = struct.unpack(f"<{len(request.leave_weights) // 8}Q", request.leave_weights)
        weights = [b - a for a, b in zip((0,) + cumulative, cumulative)]
        assert weights == [round(leave.probability * LEAVE_WEIGHT_TOTAL) for leave in inference.leaves]
        assert abs(cumulative[-1] - LEAVE_WEIGHT_TOTAL) <= len(weights)
        leaves = [tuple(request.opponent_leaves[k * n:(k + 1) * n]) for k in range(len(weights))]
        assert leaves == [tuple(counts_of(leave.codes, n)) for leave in inference.leaves]
        for i, rack in enumerate(deals(lex, request, 0, 300)):
            picked = bisect.bisect_right(cumulative, Xoshiro(5, i).below(cumulative[-1]))
            assert all(r >= k for r, k in zip(rack, leaves[picked])), (i, rack, leaves[picked])
            assert all(r <= u for r, u in zip(rack, request.unseen))
            assert sum(rack) == request.opponent_tiles


def test_dealt_racks_follow_the_inferred_weights(lex):
    """Over many iterations the dealt racks' frequencies are the exact mixture (every rack within 4.5 standard
    errors; the seed is fixed, so the check is deterministic) and every rack dealt is one the mixture allows."""
    _before, _move, after, inference = cases(lex, 1)[0]
    _p, _m, request = prepare(lex, after, leaves=TABLE, candidates=1, seed=2, infer=inference)
    law = mixture(inference, list(request.unseen), request.opponent_tiles)
    assert sum(law.values()) == pytest.approx(1.0)
    n = 4000
    seen = Counter(deals(lex, request, 0, n))
    assert set(seen) <= {k for k, p in law.items() if p > 0}
    for rack, p in law.items():
        assert abs(seen[rack] / n - p) <= 4.5 * math.sqrt(p * (1 - p) / n) + 1e-12, (rack, seen[rack], p)
    # the leaves alone: each leave's share of the deals (a rack may hold several leaves: counted by the pick)
    cumulative = struct.unpack(f"<{len(request.leave_weights) // 8}Q", request.leave_weights)
    picks = Counter(bisect.bisect_right(cumulative, Xoshiro(2, i).below(cumulative[-1])) for i in range(n))
    for k, leave in enumerate(inference.leaves):
        p = leave.probability
        assert abs(picks[k] / n - p) <= 4.5 * math.sqrt(p * (1 - p) / n) + 1e-12


def test_one_leave_is_in_every_deal(lex):
    _before, _move, after, inference = cases(lex, 1)[0]
    only = inference.leaves[-1]
    one = Inference(inference.observed, inference.margin, [InferredLeave(only.leave, only.codes, 1.0)], True, 1, 1, 1,
                    inference.unseen, inference.leave_size)
    _p, _m, request = prepare(lex, after, leaves=TABLE, candidates=2, seed=9, infer=one)
    kept = Counter(only.codes)
    for rack in deals(lex, request, 0, 200):
        assert all(rack[c] >= k for c, k in kept.items())
    result = simulate(lex, after, leaves=TABLE, candidates=2, iterations=16, seed=9, infer=one)
    assert result.inferred is one and result.as_dict()["inferred"]["leaves"] == [{"leave": only.leave,
                                                                                  "probability": 1.0}]


def test_without_inference_the_deal_is_unchanged(lex):
    """``infer=None``: the request carries no leaves, the engine reads a request of the ten fields it read before
    alike, and the simulation answers what it answered without the argument."""
    _before, _move, after, inference = cases(lex, 1)[0]
    _p, _m, request = prepare(lex, after, leaves=TABLE, candidates=3, seed=4)
    assert request.opponent_leaves == b"" and request.leave_weights == b""
    old = tuple(request)[:10]
    if isinstance(lex.engine, compiled.CompiledEngine):
        assert compiled.native().simulate_plays(old, 0, 12) == compiled.native().simulate_plays(request, 0, 12)
    plain = simulate(lex, after, leaves=TABLE, candidates=3, iterations=40, seed=4, stopping=False)
    none = simulate(lex, after, leaves=TABLE, candidates=3, iterations=40, seed=4, stopping=False, infer=None)
    assert [p.as_dict() for p in plain.ranked] == [p.as_dict() for p in none.ranked]
    assert "inferred" not in none.as_dict()
    inferred = simulate(lex, after, leaves=TABLE, candidates=3, iterations=40, seed=4, stopping=False, infer=inference)
    assert bytes(lex.engine.simulate_plays(request, 0, 40)) != bytes(lex.engine.simulate_plays(
        prepare(lex, after, leaves=TABLE, candidates=3, seed=4, infer=inference)[2], 0, 40))
    assert inferred.as_dict()["inferred"]["move"] == inference.observed.notation


# -- both engines, threads, processes ----------------------------------------------------------------------------


@needs_c
@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
def test_c_deals_and_play_outs_equal_the_python_twin(lex, open_python):
    pure = lexigraph.load(ABCD_WORDS, alphabet=GAME.alphabet, pure_python=True)
    for _before, _move, after, inference in cases(lex):
        for plies in (1, 2):
            _p, _m, request_c = prepare(lex, after, leaves=TABLE, candidates=4, plies=plies, seed=3, infer=inference)
            _p, _m, request_py = prepare(pure, after, leaves=TABLE, candidates=4, plies=plies, seed=3,
                                         infer=inference)
            assert request_c._replace(tables=None) == request_py._replace(tables=None)
            assert deals(lex, request_c, 7, 50) == deals(pure, request_py, 7, 50)
            one = bytes(lex.engine.simulate_plays(request_c, 7, 24))
            assert one == bytes(pure.engine.simulate_plays(request_py, 7, 24))
            assert one == bytes(lex.engine.simulate_plays(request_c, 7, 24, None, 3))  # three C threads


@needs_c
@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
def test_same_answer_on_one_and_two_processes(lex):
    _before, move, after, inference = cases(lex, 1)[0]
    kwargs = dict(leaves=TABLE, candidates=4, iterations=96, seed=8, min_iterations=32, infer=inference)
    one = simulate(lex, after, workers=1, **kwargs)
    two = simulate(lex, after, workers=2, **kwargs)
    assert [p.as_dict() for p in one.ranked] == [p.as_dict() for p in two.ranked]


def test_same_answer_on_a_dask_cluster(lex):
    distributed = pytest.importorskip("distributed")
    _before, _move, after, inference = cases(lex, 1)[0]
    kwargs = dict(leaves=TABLE, candidates=3, iterations=64, seed=8, min_iterations=32, infer=inference)
    one = simulate(lex, after, workers=1, **kwargs)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster:
        on_cluster = simulate(lex, after, cluster=cluster.scheduler_address, **kwargs)
    assert [p.as_dict() for p in on_cluster.ranked] == [p.as_dict() for p in one.ranked]


# -- the last move ----------------------------------------------------------------------------------------------


def test_the_last_move_is_lifted_off_the_board(lex):
    for before, move, after, inference in cases(lex):
        lifted = position_before(after, move)
        assert lifted.codes == before.codes and lifted.blanks == before.blanks
        assert lifted.racks == before.racks
        as_move = position_before(after, score_play(lex, before, move))  # the Move itself, not its notation
        assert as_move.codes == before.codes and as_move.blanks == before.blanks
        again = infer_last_move(lex, after, move, margin=3.0, leaves=TABLE)
        assert again.leaves == inference.leaves
        kwargs = dict(leaves=TABLE, candidates=3, iterations=32, seed=1, stopping=False)
        by_move = simulate(lex, after, infer=move, **kwargs)
        by_inference = simulate(lex, after, infer=infer_last_move(lex, after, move, leaves=TABLE), **kwargs)
        assert [p.as_dict() for p in by_move.ranked] == [p.as_dict() for p in by_inference.ranked]


def test_an_exchange_or_a_pass_leaves_the_board(lex):
    _before, _move, after, _inference = cases(lex, 1)[0]
    for move in ("-1", "-", "pass"):
        lifted = position_before(after, move)
        assert lifted.codes == after.codes and lifted.racks == ["", after.racks[0]]
    result = simulate(lex, after, leaves=TABLE, candidates=2, iterations=8, seed=1, infer="-")
    assert result.inferred is not None and result.inferred.observed.kind == "pass"


# -- hostile input ----------------------------------------------------------------------------------------------


def forged(inference: Inference, *leaves: tuple[str, tuple[int, ...], float]) -> Inference:
    return Inference(ObservedMove("pass"), 0.0, [InferredLeave(*leave) for leave in leaves], True, len(leaves),
                     len(leaves), len(leaves), inference.unseen, inference.leave_size)


def test_forged_distributions_refused(lex):
    _before, _move, after, inference = cases(lex, 1)[0]
    unseen = Counter(after.unseen(after.racks[0]))
    seen = next(c for c in range(1, 5) if unseen[c] < GAME.counts_by_code()[c])  # a tile the observer can see
    too_many = next(c for c in range(5) if unseen[c] >= 1)
    bad = [
        (forged(inference, ("x", (seen,) * (unseen[seen] + 1), 1.0)), "can see"),
        (forged(inference, ("x", (too_many,) * (GAME.rack_size + 1), 1.0)), "rack holds"),
        (forged(inference, ("x", (99,), 1.0)), "tile code"),
        (forged(inference, ("x", (too_many,), float("nan"))), "probability"),
        (forged(inference, ("x", (too_many,), -0.5)), "probability"),
        (forged(inference, ("x", (too_many,), 2.0)), "probability"),
        (forged(inference, ("x", (too_many,), 0.0)), "no leave"),
    ]
    for inference_bad, words in bad:
        with pytest.raises(GameError, match=words):
            simulate(lex, after, leaves=TABLE, candidates=2, iterations=4, infer=inference_bad)
    for move, words in ((3.5, "infer must"), ("7A ZZZ", "tile|play"), ("9Z AB", "move must"), (object(), "infer")):
        with pytest.raises(LexiconError, match=words):
            simulate(lex, after, leaves=TABLE, candidates=2, iterations=4, infer=move)


def test_a_move_not_on_the_board_is_refused(lex):
    _before, move, after, _inference = cases(lex, 1)[0]
    with pytest.raises(GameError, match="does not hold"):
        simulate(lex, Position(GAME, racks=[after.racks[0], ""]), leaves=TABLE, candidates=2, iterations=4,
                 infer=move)


def test_no_consistent_leave_falls_back_with_a_note(lex):
    _before, _move, after, inference = cases(lex, 1)[0]
    empty = Inference(inference.observed, 0.0, [], True, 5, 5, 0, inference.unseen, inference.leave_size)
    result = simulate(lex, after, leaves=TABLE, candidates=2, iterations=8, seed=3, stopping=False, infer=empty)
    plain = simulate(lex, after, leaves=TABLE, candidates=2, iterations=8, seed=3, stopping=False)
    assert [p.as_dict() for p in result.ranked] == [p.as_dict() for p in plain.ranked]
    assert any("without inference" in note for note in result.notes)


@needs_c
@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
def test_engines_refuse_forged_requests(lex):
    pure = lexigraph.load(ABCD_WORDS, alphabet=GAME.alphabet, pure_python=True)
    _before, _move, after, inference = cases(lex, 1)[0]
    _p, _m, request = prepare(lex, after, leaves=TABLE, candidates=2, seed=1, infer=inference)
    _p, _m, pure_request = prepare(pure, after, leaves=TABLE, candidates=2, seed=1, infer=inference)
    n = len(request.unseen)
    weights = request.leave_weights
    first = struct.unpack_from("<Q", weights)[0]
    bad = [
        request._replace(leave_weights=weights[:-8]),                                   # a weight short
        request._replace(opponent_leaves=request.opponent_leaves[:-1]),                  # a torn leave
        request._replace(leave_weights=struct.pack("<Q", 0) + weights[8:]),              # a weight of 0
        request._replace(leave_weights=weights[:8] + struct.pack("<Q", first) + weights[16:]),  # not increasing
        request._replace(opponent_leaves=bytes([200]) + request.opponent_leaves[1:]),    # tiles not unseen
        request._replace(opponent_leaves=bytes([3] * n) + request.opponent_leaves[n:]),  # more than a rack
    ]
    for forged_request in bad:
        with pytest.raises(LexiconError):
            lex.engine.simulate_plays(forged_request, 0, 2)
        with pytest.raises(ValueError):
            compiled.native().simulation_deals(forged_request, 0, 2)
        with pytest.raises(ValueError):
            pure.engine.simulate_plays(forged_request._replace(tables=pure_request.tables), 0, 2)


# -- the real game ----------------------------------------------------------------------------------------------


@needs_c
def test_real_game_c_and_python_deal_alike():
    """The built-in lexicon and the Scrabble game: an opening play, its leave inferred by sampling, the deals and
    the ranking the same on both engines."""
    lex_c, lex_py = lexigraph.open(), lexigraph.open(pure_python=True)
    game = Game.preset("scrabble")
    before = Position(game, racks=["", "AEINRST"])
    inference = infer(lex_c, before, "8H OX", margin=10.0, max_leaves=0, samples=60, seed=1)
    assert inference.leaves and not inference.exact
    after = before.with_play(score_play(lex_c, before, "8H OX"))
    after.racks = ["AEINRST", ""]
    _p, _m, request_c = prepare(lex_c, after, leaves=None, candidates=3, seed=6, infer=inference)
    _p, _m, request_py = prepare(lex_py, after, leaves=None, candidates=3, seed=6, infer=inference)
    assert deals(lex_c, request_c, 0, 40) == deals(lex_py, request_py, 0, 40)
    a = simulate(lex_c, after, candidates=3, iterations=3, seed=1, leaves=None, infer=inference)
    b = simulate(lex_py, after, candidates=3, iterations=3, seed=1, leaves=None, infer=inference)
    assert [p.as_dict() for p in a.ranked] == [p.as_dict() for p in b.ranked]
