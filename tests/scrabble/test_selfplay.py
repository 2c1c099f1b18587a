"""Self-play (scrabble/selfplay.py, native/selfplay.c and its Python twin): the C and Python game loops turn for
turn; every game legal (each play re-scored by the score path and by a brute-force scorer here, words in the
lexicon, bag and racks accounted tile for tile, the end's rack points); mirrored pairs; the same GCG on 1 worker,
2 workers and a local Dask cluster; the totals against a count of the records; bad arguments."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import lexigraph
from lexigraph.alphabet import Alphabet
from lexigraph.engine.interface import BLANK_FLAG, TURN_EXCHANGE, TURN_PASS, TURN_PLAY, leave_key
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.gcg import read_gcg
from lexigraph.scrabble.leaves import LeaveTable
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.scoring import score_placements
from lexigraph.scrabble.selfplay import Player, autoplay, selfplay_request, totals
from helpers.games import ABCD_WORDS as SMALL_WORDS, abcd_game as small_game


def small_table(alphabet: Alphabet) -> LeaveTable:
    return LeaveTable({b"\x00": 9.0, b"\x01": 1.5, b"\x03": -2.0, b"\x03\x03": -6.0, b"\x01\x02": 2.25,
                       b"\x00\x01": 11.0}, alphabet)


@pytest.fixture(scope="module")
def abcd_pair():
    game = small_game()
    lex_c = lexigraph.load(SMALL_WORDS, alphabet=game.alphabet)
    lex_py = lexigraph.load(SMALL_WORDS, alphabet=game.alphabet, pure_python=True)
    return game, lex_c, lex_py


def test_c_and_python_play_the_same_games_small_board(abcd_pair):
    game, lex_c, lex_py = abcd_pair
    assert lex_c.engine.kind == "c" or lex_c.engine.kind == "python"
    players = [Player.equity(small_table(game.alphabet), "eq"), Player.score("sc")]
    for seed in (0, 1, 2 ** 64 - 1):
        turns_c, games_c = lex_c.engine.play_games(selfplay_request(lex_c, game, players, seed), 3, 6)
        turns_py, games_py = lex_py.engine.play_games(selfplay_request(lex_py, game, players, seed), 3, 6)
        assert bytes(turns_c) == bytes(turns_py)
        assert bytes(games_c) == bytes(games_py)
        assert len(turns_c) > 6


def test_c_and_python_play_the_same_games_enable(enable):
    pure = lexigraph.open(pure_python=True)
    game = Game.preset("scrabble")
    table = LeaveTable.from_csv("?,25\nS,8\nQ,-7\nER,3\nU,-3\nUU,-9\nV,-4\nZ,1.5\nAEIN,4\n", enable.store.alphabet)
    players = [Player.equity(table), Player.score()]
    turns_c, games_c = enable.engine.play_games(selfplay_request(enable, game, players, 11), 0, 2)
    turns_py, games_py = pure.engine.play_games(selfplay_request(pure, game, players, 11), 0, 2)
    assert bytes(turns_c) == bytes(turns_py) and bytes(games_c) == bytes(games_py)


@pytest.mark.parametrize("seed,longest", [(21, 6), (22, 7)])
def test_c_and_python_play_the_same_games_with_a_dense_leave_table(enable, seed, longest):
    """Thousands of leaves of 1 to 6 tiles (blanks, repeated tiles): the C loop reads them by rank
    (native/leave_index.h), the twin from a dictionary; the same games. With leaves of 7 tiles the index would be
    too large for so few leaves: the C loop keeps its binary search, with the same games."""
    pure = lexigraph.open(pure_python=True)
    game = Game.preset("scrabble")
    rng = random.Random(seed)
    values = {}
    for _ in range(3000):
        leave = bytes(sorted(rng.choice(range(27)) for _ in range(rng.choice([1, 2, 2, 3, 3, 4, 5, 6, longest]))))
        values[leave] = rng.uniform(-20, 30)
    table = LeaveTable(values, enable.store.alphabet)
    players = [Player.equity(table), Player.equity(table)]
    turns_c, games_c = enable.engine.play_games(selfplay_request(enable, game, players, seed), 0, 2)
    turns_py, games_py = pure.engine.play_games(selfplay_request(pure, game, players, seed), 0, 2)
    assert bytes(turns_c) == bytes(turns_py) and bytes(games_c) == bytes(games_py)


# -- every game legal ----------------------------------------------------------------------------------------


def brute_score(game: Game, pos: Position, placed: list[tuple[int, int, int, bool]]) -> tuple[int, list[str]]:
    """The score of tiles put on the board and the words they make, counted square by square from scratch."""
    n = game.size
    board = {(i // n, i % n): (c, bool(b)) for i, (c, b) in enumerate(zip(pos.codes, pos.blanks)) if c}
    new = {(r, c): (code, blank) for r, c, code, blank in placed}
    both = {**board, **new}
    points = game.points_by_code()
    total, words = 0, []
    rows = {r for r, _c, _x, _b in placed}
    across = len(rows) == 1 and (len(placed) > 1 or any((r, c + d) in both for r, c, _x, _b in placed
                                                        for d in (-1, 1)))
    directions = [(0, 1), (1, 0)] if across else [(1, 0), (0, 1)]

    def word_at(r: int, c: int, dr: int, dc: int) -> list[tuple[int, int]]:
        while (r - dr, c - dc) in both:
            r, c = r - dr, c - dc
        cells = []
        while (r, c) in both:
            cells.append((r, c))
            r, c = r + dr, c + dc
        return cells

    def value(cells: list[tuple[int, int]]) -> int:
        s, mult = 0, 1
        for r, c in cells:
            code, blank = both[(r, c)]
            p = 0 if blank else points[code]
            if (r, c) in new:
                s += p * game.letter_mult[r * n + c]
                mult *= game.word_mult[r * n + c]
            else:
                s += p
        return s * mult

    main = word_at(placed[0][0], placed[0][1], *directions[0])
    if len(main) > 1:
        total += value(main)
        words.append(main)
    for r, c, _code, _blank in placed:
        cross = word_at(r, c, *directions[1])
        if len(cross) > 1:
            total += value(cross)
            words.append(cross)
    if len(placed) == game.rack_size:
        total += game.bingo_bonus
    text = ["".join(game.alphabet.label(both[cell][0]) for cell in w) for w in words]
    return total, text


def check_games(lex, game: Game, turns, games) -> None:
    """Every play legal and scored right; racks, bag and board accounted tile for tile; the end's points."""
    n = game.size
    full = Counter({code: k for code, k in enumerate(game.counts_by_code()) if k})
    at = 0
    for record in games:
        pos = Position(game)
        scores = [0, 0]
        last_leave: dict[int, Counter] = {}
        last_bag = None
        count = int(record["turns"])
        for t in turns[at:at + count]:
            p = int(t["player"])
            rack = Counter(int(c) for c in t["rack"][: t["rack_length"]])
            assert t["rack_length"] <= game.rack_size
            if last_bag is not None:
                assert t["bag_before"] == last_bag
            if p in last_leave:
                assert not last_leave[p] - rack, "a kept tile left the rack"
                drawn = sum(rack.values()) - sum(last_leave[p].values())
                assert drawn >= 0
            # tile for tile: board + both racks' known tiles + bag = the bag's contents at the start
            on_board = Counter(0 if b else c for c, b in zip(pos.codes, pos.blanks) if c)
            assert not rack - (full - on_board)
            assert sum(on_board.values()) + sum(rack.values()) + t["bag_before"] <= sum(full.values())
            if t["kind"] == TURN_PLAY:
                length = int(t["length"])
                squares = [int(x) for x in t["squares"][:length]]
                placed = []
                for k, b in enumerate(squares):
                    r, c = (int(t["row"]), int(t["col"]) + k) if t["across"] else (int(t["row"]) + k, int(t["col"]))
                    if b == 0:
                        assert pos.codes[r * n + c], "a played-through square is empty"
                        continue
                    assert pos.codes[r * n + c] == 0, "a tile put on a full square"
                    placed.append((r, c, b & ~BLANK_FLAG, bool(b & BLANK_FLAG)))
                used = Counter(0 if blank else code for _r, _c, code, blank in placed)
                assert not used - rack, "a tile played that the rack lacked"
                brute, words = brute_score(game, pos, placed)
                assert brute == t["score"]
                assert all(w in lex for w in words)
                move = score_placements(lex, pos, placed)
                assert move.score == t["score"]
                for r, c, code, blank in placed:
                    pos.place(r, c, code, blank)
                kept = rack - used
            elif t["kind"] == TURN_EXCHANGE:
                back = Counter(int(c) for c in t["squares"][: t["length"]])
                assert not back - rack and t["bag_before"] >= game.rack_size
                assert t["score"] == 0
                kept = rack - back
            else:
                assert t["kind"] == TURN_PASS and t["score"] == 0
                kept = rack
            assert t["leave"] == (leave_key(bytes(sorted(kept.elements()))) if kept else 0)
            scores[p] += int(t["score"])
            assert t["total"] == scores[p]
            # an exchange draws as many as it puts back
            expected_bag = int(t["bag_before"]) if t["kind"] == TURN_EXCHANGE else \
                max(0, int(t["bag_before"]) - (game.rack_size - sum(kept.values())))
            assert t["bag_after"] == expected_bag
            last_leave[p] = kept
            last_bag = int(t["bag_after"])
        at += count
        left = [Counter(int(c) for c in record["racks"][q] if c != 255) for q in (0, 1)]
        on_board = Counter(0 if b else c for c, b in zip(pos.codes, pos.blanks) if c)
        # the game's tiles: the board and both racks, and the bag (empty, or the game ended by zeros)
        assert sum((on_board + left[0] + left[1]).values()) + last_bag == sum(full.values())
        assert not (on_board + left[0] + left[1]) - full
        rack_points = [sum(game.points_by_code()[c] * k for c, k in left[q].items()) for q in (0, 1)]
        if record["ending"] == 0:
            out = int(record["out"])
            assert not left[out] and last_bag == 0
            assert record["adjust"][out] == 2 * rack_points[1 - out] and record["adjust"][1 - out] == 0
        else:
            assert list(record["adjust"]) == [-rack_points[0], -rack_points[1]]
        assert list(record["final"]) == [scores[0] + record["adjust"][0], scores[1] + record["adjust"][1]]


def test_every_game_is_legal_small_board(abcd_pair, open_lexicon):
    game, _lex_c, _lex_py = abcd_pair
    lex = open_lexicon(SMALL_WORDS, alphabet=game.alphabet)
    for players in ([Player.equity(small_table(game.alphabet)), Player.score()],
                    [Player.score(), Player.equity(None)]):
        request = selfplay_request(lex, game, players, 5)
        turns, games = lex.engine.play_games(request, 0, 20 if lex.engine.kind == "c" else 4)
        check_games(lex, game, turns, games)
        assert set(turns["kind"]) >= {TURN_PLAY}


def test_every_game_is_legal_enable(enable):
    game = Game.preset("scrabble")
    table = LeaveTable.from_csv("?,25\nS,8\nQ,-7\nER,3\nU,-3\nUU,-9\nV,-4\nIII,-12\n", enable.store.alphabet)
    request = selfplay_request(enable, game, [Player.equity(table), Player.score()], 17)
    turns, games = enable.engine.play_games(request, 0, 12 if enable.engine.kind == "c" else 2)
    check_games(enable, game, turns, games)


def test_mirrored_pairs_share_the_bag(abcd_pair):
    game, lex, _ = abcd_pair
    request = selfplay_request(lex, game, [Player.score("a"), Player.equity(small_table(game.alphabet), "b")], 3)
    turns, games = lex.engine.play_games(request, 0, 4)
    starts = []
    at = 0
    for g in games:
        starts.append((int(g["first"]), bytes(turns[at]["rack"]), bytes(turns[at + 1]["rack"])))
        at += int(g["turns"])
    assert [s[0] for s in starts] == [0, 1, 0, 1]
    assert starts[0][1:] == starts[1][1:] and starts[2][1:] == starts[3][1:]   # the same draws, seats swapped
    assert starts[0][1:] != starts[2][1:]


def test_a_game_depends_only_on_seed_and_index(abcd_pair):
    game, lex, _ = abcd_pair
    request = selfplay_request(lex, game, [Player.score(), Player.equity(small_table(game.alphabet))], 42)
    _t, whole = lex.engine.play_games(request, 0, 10)
    _t, part = lex.engine.play_games(request, 6, 3)
    assert bytes(whole[6:9]) == bytes(part)


# -- totals, GCG, determinism across workers and a cluster ----------------------------------------------------


def test_totals_against_the_records(abcd_pair):
    game, lex, _ = abcd_pair
    run = autoplay(lex, game, [Player.equity(small_table(game.alphabet), "eq"), Player.score("sc")], games=40,
                   seed=8, workers=1, keep_games=True, batch=8)
    finals = run.games["final"]
    wins = sum(1 for a, b in finals if a > b)
    assert run.totals.wins == wins and run.totals.games == 40
    assert run.totals.win_rate == pytest.approx((wins + 0.5 * sum(1 for a, b in finals if a == b)) / 40)
    assert run.totals.mean_spread == pytest.approx(sum(int(a) - int(b) for a, b in finals) / 40)
    plays = [t for t in run.turns if t["kind"] == TURN_PLAY and sum(1 for x in t["squares"] if x) == 4]
    assert run.totals.bingos_per_game == pytest.approx(len(plays) / 40)
    pairs = [((a > b) + 0.5 * (a == b) + (c > d) + 0.5 * (c == d)) / 2 for (a, b), (c, d) in
             zip(finals[0::2], finals[1::2])]
    mean = sum(pairs) / len(pairs)
    se = (sum((x - mean) ** 2 for x in pairs) / (len(pairs) - 1) / len(pairs)) ** 0.5
    assert run.totals.standard_error == pytest.approx(se)
    quick = autoplay(lex, game, [Player.equity(small_table(game.alphabet), "eq"), Player.score("sc")], games=40,
                     seed=8, workers=1, batch=8)
    assert (quick.totals.wins, quick.totals.bingos_per_game, quick.totals.turns_per_game) == \
        (run.totals.wins, run.totals.bingos_per_game, run.totals.turns_per_game)
    assert totals(run.games[:0], 0, 0).games == 0


def test_gcg_replays_to_the_same_board_and_totals(enable):
    game = Game.preset("scrabble")
    run = autoplay(enable, game, [Player.score("ann"), Player.equity(None, "bob")], games=4, seed=2, workers=1,
                   keep_games=True)
    for k in range(4):
        text = run.gcg(k)
        record = read_gcg(text, game)
        assert [e.kind for e in record.events].count("play") == int((run.game_turns(k)["kind"] == TURN_PLAY).sum())
        final = {}
        for e in record.events:
            final[e.player] = e.total
        g = run.games[k]
        nick = {0: "ann", 1: "bob"}
        assert final == {nick[0]: int(g["final"][0]), nick[1]: int(g["final"][1])}
        pos = record.replay()
        assert sum(1 for c in pos.codes if c) == sum(int((t["squares"] != 0).sum()) for t in run.game_turns(k)
                                                     if t["kind"] == TURN_PLAY)


def gcg_files(run, folder) -> dict[str, bytes]:
    run.write_gcg(folder)
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_the_same_seed_gives_the_same_gcg_on_1_and_2_workers_and_a_cluster(tmp_path, abcd_pair):
    enable = lexigraph.open()
    cases = [(abcd_pair[0], abcd_pair[1 if abcd_pair[1].engine.kind == "c" else 2], 8)]
    if enable.engine.kind == "c":  # the Python loop plays a full-size game in about a second: the small game only
        cases.append((Game.preset("scrabble"), enable, 6))
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster:
        for k, (game, lex, games) in enumerate(cases):
            table = LeaveTable({b"\x00": 25.0, b"\x01": 2.0, b"\x02": -3.0}, lex.store.alphabet)
            players = [Player.equity(table, "eq"), Player.score("sc")]
            one = autoplay(lex, game, players, games=games, seed=99, workers=1, keep_games=True, batch=2)
            two = autoplay(lex, game, players, games=games, seed=99, workers=2, keep_games=True, batch=2)
            three = autoplay(lex, game, players, games=games, seed=99, cluster=cluster.scheduler_address,
                             keep_games=True, batch=2)
            files_one = gcg_files(one, tmp_path / f"one{k}")
            assert len(files_one) == games
            assert gcg_files(two, tmp_path / f"two{k}") == files_one
            assert gcg_files(three, tmp_path / f"three{k}") == files_one


def test_a_cluster_run_sends_the_leave_table_to_the_workers_once(enable):
    """The English table (14 MiB of keys and values) goes to the workers once: no task carries it, so Dask
    never warns of a large graph, and the games are those of one worker."""
    import warnings

    from lexigraph.scrabble.leaves import load_leaves

    distributed = pytest.importorskip("distributed")
    game = Game.preset("scrabble")
    players = [Player.equity(load_leaves(game.leaves, enable.alphabet), "eq"), Player.score("sc")]
    assert len(players[0].leaves) > 900_000
    alone = autoplay(enable, game, players, games=4, seed=3, workers=1, keep_games=True, batch=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            spread = autoplay(enable, game, players, games=4, seed=3, cluster=cluster.scheduler_address,
                              keep_games=True, batch=2)
    assert [str(w.message) for w in caught if "large graph" in str(w.message)] == []
    assert [spread.gcg(k) for k in range(4)] == [alone.gcg(k) for k in range(4)]


def test_bad_arguments_raise_one_clear_error(abcd_pair):
    game, lex, _ = abcd_pair
    players = [Player.score(), Player.score()]
    for kwargs in ({"games": 0}, {"games": -3}, {"games": 2, "seed": -1}, {"games": 2, "seed": 2 ** 64},
                   {"games": 2, "workers": 0}, {"games": 2, "first": -1}):
        with pytest.raises(GameError):
            autoplay(lex, game, players, **kwargs)
    with pytest.raises(GameError):
        autoplay(lex, game, players[:1], games=2)
    for address in ("tcp://127.0.0.1:9", "tcp://nowhere", "http://127.0.0.1:80", "::::"):
        with pytest.raises(GameError, match="Dask"):
            autoplay(lex, game, players, games=2, cluster=address)
    tiny = Game(name="tiny", alphabet=game.alphabet, board=game.board, start=game.start,
                tiles={t: (1, 1) for t in "abcd"}, blanks=0, rack_size=4, bingo_bonus=0)
    with pytest.raises(GameError, match="too few tiles"):
        autoplay(lex, tiny, players, games=2)


def test_random_leave_tables_still_play_legal_games(abcd_pair):
    game, lex, pure = abcd_pair
    rng = random.Random(4)
    for _ in range(3):
        values = {}
        for _k in range(12):
            leave = bytes(sorted(rng.choice(range(5)) for _ in range(rng.randint(1, 3))))
            values[leave] = rng.uniform(-20, 20)
        table = LeaveTable(values, game.alphabet)
        players, seed = [Player.equity(table), Player.equity(table)], rng.randrange(1 << 64)
        turns, games = lex.engine.play_games(selfplay_request(lex, game, players, seed), 0, 4)
        check_games(lex, game, turns, games)
        t2, g2 = pure.engine.play_games(selfplay_request(pure, game, players, seed), 0, 2)
        assert bytes(g2) == bytes(games[:2])
