"""The move generator kept across calls (lexigraph.scrabble.movegen.MoveGenerator, native/generator.c and its twin
lexigraph.engine.python.move_generator): its bag and values equal lexigraph.scrabble.equity's, its plays the
engine's generation asked the old way (a MoveRequest with the values computed in Python), on both engines, the
same answers when a board or a rack is asked again (the kept state), the generation runs without the GIL, and
bad arguments are refused with one clear error."""

from __future__ import annotations

import itertools
import random
import sys
import threading
import time

import pytest

import lexigraph
from lexigraph.engine import compiled
from lexigraph.engine.interface import GENERATE_BOTH_DIRECTIONS, GENERATE_BY_EQUITY, GENERATE_PRUNE, GENERATE_VALUES
from lexigraph.errors import FileFormatError, LexiconError
from lexigraph.scrabble import equity as eq
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.leaves import LeaveTable, load_leaves
from lexigraph.scrabble.movegen import MoveGenerator, generate, generator_for, move_request
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.selfplay import Player, autoplay
from lexigraph.scrabble.tiles import parse_rack, rack_text
from helpers.games import ABCD_WORDS, abcd_game

needs_c = pytest.mark.skipif(not compiled.available(), reason="the C engine is not available")


def positions(lex, game: Game, table: LeaveTable | None, seed: int, games: int = 2):
    """Positions of seeded self-play games at every turn (the mover's rack, sometimes the opponent's too), and
    random racks of the unseen tiles, blanks included: bags full, short and empty."""
    rng = random.Random(seed)
    run = autoplay(lex, game, [Player.equity(table, "a"), Player.equity(table, "b")], games=games, seed=seed,
                   workers=1, keep_games=True)
    for g in range(games):
        pos = Position(run.game)
        for turn in run.game_turns(g):
            rack = [int(c) for c in turn["rack"][: turn["rack_length"]]]
            pos.racks = [rack_text(run.game, rack), ""]
            if rng.random() < 0.3:  # the opponent's rack said: the bag counts it
                pos.racks[1] = "?" * rng.randint(1, run.game.rack_size)
            yield _copied(pos)
            unseen = [c for c, n in enumerate(eq.unseen_counts(pos, rack)) for _ in range(n)] + rack
            pos.racks = [rack_text(run.game, rng.sample(unseen, min(len(unseen), run.game.rack_size))), ""]
            yield _copied(pos)
            if turn["kind"] == 0:
                for i, tile in enumerate(int(x) for x in turn["squares"][: turn["length"]]):
                    if tile:
                        r, c = (int(turn["row"]), int(turn["col"]) + i) if turn["across"] else \
                            (int(turn["row"]) + i, int(turn["col"]))
                        pos.place(r, c, tile & 0x7F, bool(tile & 0x80))


def _copied(pos: Position) -> Position:
    out = Position(pos.game, racks=list(pos.racks), scores=list(pos.scores), zero_turns=pos.zero_turns)
    out.codes[:] = pos.codes
    out.blanks[:] = pos.blanks
    return out


def rack_counts(pos: Position, rack_codes: list[int]) -> bytes:
    counts = bytearray(len(pos.game.alphabet) + 1)
    for c in rack_codes:
        counts[c] += 1
    return bytes(counts)


def other_rack(pos: Position) -> int:
    """The opponent's rack size as equity.other_rack_size reads the position (-1: not said, or not a rack)."""
    if not pos.racks[1:] or not pos.racks[1].strip():
        return -1
    try:
        return len(parse_rack(pos.game, pos.racks[1])) or -1
    except GameError:
        return -1


def small_table(alphabet) -> LeaveTable:
    rng = random.Random(34)
    leaves = {bytes(c) for n in (1, 2, 3) for c in itertools.combinations_with_replacement(range(5), n)}
    return LeaveTable({k: round(rng.uniform(-12, 12), 3) for k in sorted(leaves)}, alphabet)


def cases(kind: str):
    """(lexicon, game, table) on the engine `kind`: the abcd game with its table and without, and enable with the
    shipped table."""
    game = abcd_game()
    small = lexigraph.load(ABCD_WORDS, alphabet=game.alphabet, pure_python=kind == "python")
    yield small, game, small_table(game.alphabet)
    yield small, game, None
    enable = lexigraph.open(pure_python=kind == "python")
    scrabble = Game.preset("scrabble")
    yield enable, scrabble, load_leaves(scrabble.leaves, enable.alphabet)


def test_bag_and_values_equal_the_equity_functions(engine_kind):
    checked = {"bag > 0": 0, "bag empty": 0}
    for lex, game, table in cases(engine_kind):
        state = generator_for(lex, game, table).state
        for pos in itertools.islice(positions(lex, game, table, 7, games=1 if engine_kind == "python" else 2), 400):
            rack_codes = parse_rack(pos.game, pos.racks[0])
            if not rack_codes:
                continue
            bag = eq.bag_size(pos, rack_codes)
            answer = state.generate(bytes(pos.codes), bytes(pos.blanks), rack_counts(pos, rack_codes),
                                    other_rack(pos), 1, GENERATE_BY_EQUITY | GENERATE_VALUES)
            assert answer.bag == bag
            assert answer.values == eq.pack(eq.rack_values(pos, rack_codes, table, bag=bag))
            checked["bag > 0" if bag > 0 else "bag empty"] += 1
    assert checked["bag > 0"] > 50 and checked["bag empty"] > 5, checked


def old_way(lex, pos: Position, rack_codes: list[int], table, top: int, flags: int):
    """The generation as lexigraph.scrabble.movegen asked it before the kept generator: the bag and the values in
    Python, a MoveRequest, the engine's generate_moves."""
    values = eq.rack_values(pos, rack_codes, table, bag=eq.bag_size(pos, rack_codes))
    request = move_request(lex, pos, rack_codes, values, leaves=table, top=top,
                           by_equity=bool(flags & GENERATE_BY_EQUITY), prune=bool(flags & GENERATE_PRUNE),
                           both_directions=bool(flags & GENERATE_BOTH_DIRECTIONS))
    return lex.engine.generate_moves(request)


def test_plays_equal_the_old_way_and_again_from_the_kept_state(engine_kind):
    rng = random.Random(11)
    compared = 0
    for lex, game, table in cases(engine_kind):
        state = generator_for(lex, game, table).state
        limit = 60 if engine_kind == "python" else 300
        for pos in itertools.islice(positions(lex, game, table, 3, games=1 if engine_kind == "python" else 3), limit):
            rack_codes = parse_rack(pos.game, pos.racks[0])
            if not rack_codes:
                continue
            top = rng.choice([1, 2, 5, 20, -1])
            flags = (rng.choice([0, GENERATE_BY_EQUITY]) | rng.choice([0, GENERATE_PRUNE])
                     | rng.choice([0, GENERATE_BOTH_DIRECTIONS]))
            records, total = old_way(lex, pos, rack_codes, table, top, flags)
            for _again in range(3):  # the same board and rack again: the kept values and board state answer
                answer = state.generate(bytes(pos.codes), bytes(pos.blanks), rack_counts(pos, rack_codes),
                                        other_rack(pos), top, flags | GENERATE_VALUES)
                assert bytes(answer.records) == bytes(records) and answer.total == total
            compared += 1
    assert compared > (30 if engine_kind == "python" else 150)


def test_generate_is_the_same_on_both_engines(enable):
    game = Game.preset("scrabble")
    table = load_leaves(game.leaves, enable.alphabet)
    twin = lexigraph.open(pure_python=True)
    for pos in itertools.islice(positions(enable, game, table, 5, games=1), 0, 40, 3):
        for kwargs in ({"top": 3, "count_all": False}, {"top": 10, "passes": True}, {"top": 1, "sort": "score"}):
            c = generate(enable, pos, **kwargs)
            p = generate(twin, pos, **kwargs)
            assert [(m.notation, m.score, m.equity) for m in c] == [(m.notation, m.score, m.equity) for m in p]
            assert c.total == p.total


def test_a_leave_table_the_engines_cannot_key_is_valued_in_python(open_lexicon):
    """Leaves of 11 tiles do not fit a key: the values come from Python, the plays the old way's."""
    game = abcd_game(rack_size=12, count=12)
    lex = open_lexicon(ABCD_WORDS, alphabet=game.alphabet)
    table = LeaveTable({bytes([1] * 11): 5.0, bytes([2]): 1.5, bytes([1, 2]): -2.0}, game.alphabet)
    assert table.packed is None
    gen = MoveGenerator(lex, game, table)
    assert not gen.values_in_engine
    pos = Position(game)
    rack_codes = parse_rack(game, "aaaaaaaaaaab")
    records, _total = old_way(lex, pos, rack_codes, table, 5, GENERATE_BY_EQUITY)
    moves = gen.generate(pos, "aaaaaaaaaaab", top=5, exchanges=False)
    assert len(records) == 5 and bytes(moves.columns.records) == bytes(records)


def test_generator_for_keeps_one_per_game_and_table_and_closes_with_the_lexicon(tmp_path):
    lex = lexigraph.load(["cat", "act", "at"])
    game = Game.preset("scrabble")
    table = LeaveTable.from_csv("S,8.0")
    assert generator_for(lex, game, table) is generator_for(lex, game, table)
    assert generator_for(lex, game, table) is not generator_for(lex, game, None)
    lex.close()
    with pytest.raises(LexiconError):
        generator_for(lex, game, table)


def test_a_position_of_another_game_is_refused():
    lex = lexigraph.load(["ab", "ba"], alphabet=abcd_game().alphabet)
    gen = generator_for(lex, abcd_game(), None)
    with pytest.raises(GameError):
        gen.generate(Position(abcd_game(size=9)), "ab")
    with pytest.raises(GameError):
        gen.generate(Position(abcd_game()), "ab", top=-1)


@pytest.mark.parametrize("kind", ["c", "python"])
def test_bad_arguments_are_one_clear_error(kind):
    if kind == "c" and not compiled.available():
        pytest.skip("the C engine is not available")
    game = abcd_game()
    lex = lexigraph.load(ABCD_WORDS, alphabet=game.alphabet, pure_python=kind == "python")
    state = generator_for(lex, game, None).state
    empty, rack = bytes(49), bytes([0, 1, 1, 0, 0])
    for args in ((empty[:-1], empty, rack, -1), (empty, empty, rack[:-1], -1), (empty, empty, rack, -2)):
        with pytest.raises(FileFormatError if kind == "c" else ValueError):
            state.generate(*args, 1, GENERATE_VALUES)
    with pytest.raises(FileFormatError if kind == "c" else ValueError):
        state.generate(empty, empty, rack, -1, 1, 0, None, b"\x00" * 7)


@needs_c
def test_the_generation_runs_without_the_gil():
    """Another Python thread counts while long generations run (the switch interval made so long that it could
    run only when the generating thread lets the GIL go): it counts."""
    game = abcd_game(size=15, count=20, rack_size=7)
    rng = random.Random(5)
    words = sorted({"".join(rng.choice("abcd") for _ in range(rng.randint(2, 8))) for _ in range(4000)})
    lex = lexigraph.load(words, alphabet=game.alphabet)
    state = generator_for(lex, game, None).state
    pos = Position(game)
    for r, c, t in ((7, 4, 1), (7, 5, 2), (7, 6, 3), (7, 7, 4), (7, 8, 1), (6, 6, 2), (8, 6, 1)):
        pos.place(r, c, t, False)
    rack = bytes([2, 2, 1, 1, 1])  # two blanks: every play, a long generation
    count = [0]
    stop = threading.Event()

    def counter() -> None:
        while not stop.is_set():
            count[0] += 1
            time.sleep(0)  # lets the GIL go at once, so the generating thread gets it back (Event.wait(0) does not)

    old = sys.getswitchinterval()
    worker = threading.Thread(target=counter)
    worker.start()
    sys.setswitchinterval(100.0)
    try:
        counted = 0
        for _ in range(20):
            before = count[0]
            state.generate(bytes(pos.codes), bytes(pos.blanks), rack, -1, -1, GENERATE_VALUES)
            counted += count[0] - before
            if counted:
                break
    finally:
        sys.setswitchinterval(old)
        stop.set()
        worker.join()
    assert counted > 0


@needs_c
def test_threads_sharing_one_generator_get_the_answers_of_one(enable):
    """Two threads ask one generator at once (one uses the kept state, the other generates without it): each
    answer is the one a single thread gets."""
    game = Game.preset("scrabble")
    table = load_leaves(game.leaves, enable.alphabet)
    state = generator_for(enable, game, table).state
    asks = []
    for pos in itertools.islice(positions(enable, game, table, 9, games=1), 60):
        rack_codes = parse_rack(pos.game, pos.racks[0])
        if rack_codes:
            asks.append((bytes(pos.codes), bytes(pos.blanks), rack_counts(pos, rack_codes), other_rack(pos)))
    flags = GENERATE_BY_EQUITY | GENERATE_VALUES | GENERATE_PRUNE

    def answers(order: list[int]) -> dict[int, tuple[bytes, int, bytes, int]]:
        out = {}
        for i in order:
            for again in range(2):  # each board twice: the second from the kept state when free
                got = state.generate(*asks[i], 5, flags)
                out[i] = (bytes(got.records), got.total, got.values, got.bag)
        return out

    alone = answers(list(range(len(asks))))
    results: list[dict[int, tuple[bytes, int, bytes, int]]] = [{}, {}]
    orders = [list(range(len(asks))), list(reversed(range(len(asks))))]
    threads = [threading.Thread(target=lambda k=k: results[k].update(answers(orders[k]))) for k in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results[0] == alone and results[1] == alone


def test_the_best_moves_with_exchanges_and_the_pass_are_the_first_of_the_full_ranking(engine_kind):
    """The best 1, 2 and 5 moves, exchanges and the pass included, pruned or not, are the first moves of every
    move ranked (plays, exchanges and the pass together): the generator's shortcuts for a short list hold to it."""
    checked, exchange_first = 0, 0
    for lex, game, table in cases(engine_kind):
        if table is None:
            continue
        limit = 25 if engine_kind == "python" else 120
        for n, pos in enumerate(itertools.islice(positions(lex, game, table, 13, games=1), limit)):
            if not parse_rack(pos.game, pos.racks[0]) or (engine_kind == "python" and n % 3):
                continue
            passes = n % 2 == 0
            full = [(m.kind, m.notation, m.equity) for m in generate(lex, pos, leaves=table, passes=passes)[:5]]
            for top in (1, 2, 5):
                for count_all in (True, False):
                    got = generate(lex, pos, leaves=table, passes=passes, top=top, count_all=count_all)
                    assert [(m.kind, m.notation, m.equity) for m in got] == full[:top], (pos.racks, top)
            checked += 1
            exchange_first += full[0][0] == "exchange"
    assert checked > (5 if engine_kind == "python" else 60)
    assert exchange_first > (0 if engine_kind == "python" else 3)
