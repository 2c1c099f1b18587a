"""Equity (scrabble/equity.py, the generators' leave tables and ranking) against a brute-force oracle, on both
engines; the C and Python generators record for record; the best N against the full ranking; exchanges; the end
of the game; and the best equity against wolges's with the same leave table."""

from __future__ import annotations

import json
import random
import struct
import subprocess
import time
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lexigraph.alphabet import Alphabet
from lexigraph.engine.interface import MOVE_RECORD_SIZE as RECORD_SIZE
from lexigraph.errors import DeadlineExceeded
from lexigraph.scrabble import moves as moves_module
from lexigraph.scrabble.equity import ENDGAME_PENALTY, OPENING_VOWEL_PENALTY
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.leaves import LeaveTable
from lexigraph.scrabble.movegen import generate, generate_columns, play_equity
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.tiles import parse_rack
from helpers.games import abcd_game
from helpers.moves import every_play, play_records, random_board

SMALL_WORDS = sorted({
    "ab", "ba", "ad", "da", "ca", "ac", "abc", "cab", "bad", "dab", "cad", "add", "dad", "abba", "baba",
    "acad", "bach", "cadd", "dada", "aba", "bab", "dabs", "bacd", "abcd", "aa", "bb",
})


def small_game(size: int, count: int) -> Game:
    """A small board whose bag holds ``count`` of each of a, b, c, d and two blanks (a small count empties it)."""
    return abcd_game(size, count)


@pytest.fixture(scope="module")
def abcd_lex(open_lexicon):
    return open_lexicon(SMALL_WORDS, alphabet=small_game(5, 9).alphabet)


def random_table(rng: random.Random, codes: list[int], alphabet: Alphabet, coarse: bool = False) -> LeaveTable:
    """Leaves of 1 to 3 tiles (blanks included), float32 values; ``coarse``: a few values, so that equities tie."""
    values = {}
    for _ in range(rng.randint(0, 40)):
        leave = bytes(sorted(rng.choice([0] + codes) for _ in range(rng.randint(1, 3))))
        values[leave] = float(rng.choice([-2, 0, 1, 3])) if coarse else struct.unpack(
            "<f", struct.pack("<f", rng.uniform(-30, 30)))[0]
    return LeaveTable(values, alphabet)


# -- the oracle (the plays: tests/helpers/moves.py) ---------------------------------------------------


def oracle_equity(pos: Position, rack: str, placed: frozenset, score: int, table: dict[tuple, float]) -> float:
    """Equity by the rules of docs/games.md, computed from scratch: the bag from the tile counts, the leave looked up
    in a dict, the end of the game and the opening squares."""
    game = pos.game
    rack_codes = parse_rack(game, rack)
    unseen = Counter({c: n for c, n in enumerate(game.counts_by_code()) if n})
    for code, blank in zip(pos.codes, pos.blanks):
        if code:
            unseen[0 if blank else code] -= 1
    unseen.subtract(rack_codes)
    unseen_tiles = sum(max(v, 0) for v in unseen.values())
    bag = unseen_tiles - min(game.rack_size, unseen_tiles)
    kept = Counter(rack_codes)
    kept.subtract(0 if blank else code for _r, _c, code, blank in placed)
    kept_codes = tuple(sorted(kept.elements()))
    points = game.points_by_code()
    if bag > 0:
        value = table.get(kept_codes, 0.0)
    elif not kept_codes:
        value = 2.0 * sum(points[c] * max(v, 0) for c, v in unseen.items())
    else:
        value = -ENDGAME_PENALTY - 2.0 * sum(points[c] for c in kept_codes)
    equity = score + value
    if not any(pos.codes):
        rows = {r for r, _c, _t, _b in placed}
        across = len(rows) == 1
        row0, col0 = game.start
        n = game.size

        def premium(r: int, c: int) -> bool:
            return 0 <= r < n and 0 <= c < n and game.premium(r, c) != "."

        vowels = game.alphabet.vowel_codes
        for r, c, code, _blank in sorted(placed):
            if code in vowels and (premium(row0 - 1, c) or premium(row0 + 1, c) if across else
                                   premium(r, col0 - 1) or premium(r, col0 + 1)):
                equity -= OPENING_VOWEL_PENALTY
    return equity


def generated_equities(lex, pos: Position, rack: str, leaves: LeaveTable) -> dict[frozenset, tuple[int, float]]:
    cols = generate_columns(lex, pos, rack, leaves=leaves)
    out = {}
    for k in range(len(cols)):
        row, col, across = int(cols.row[k]), int(cols.col[k]), bool(cols.across[k])
        key = set()
        for j, b in enumerate(cols.tiles[k][: int(cols.length[k])].tolist()):
            if b:
                key.add((row, col + j, b & 0x7F, bool(b & 0x80)) if across else (row + j, col, b & 0x7F,
                                                                                   bool(b & 0x80)))
        key = frozenset(key)
        assert key not in out
        out[key] = (int(cols.score[k]), float(cols.equity[k]))
    return out


@settings(max_examples=30)
@given(seed=st.integers(0, 10**9), size=st.sampled_from([3, 4, 5]), fill=st.sampled_from([0.0, 0.2, 0.5]),
       count=st.sampled_from([2, 9]), rack=st.text("ABCD?", min_size=1, max_size=4))
def test_equity_equals_the_oracle(abcd_lex, seed, size, fill, count, rack):
    game = small_game(size, count)
    assume(all(n <= (2 if t == "?" else count) for t, n in Counter(rack).items()))
    rng = random.Random(seed)
    pos = random_board(game, rng, [1, 2, 3, 4], fill)
    leaves = random_table(rng, [1, 2, 3, 4], game.alphabet)
    table = {tuple(k): v for k, v in leaves.items()}
    plays = every_play(abcd_lex, pos, rack)
    got = generated_equities(abcd_lex, pos, rack, leaves)
    assert {k: s for k, (s, _e) in got.items()} == plays
    for key, (score, equity) in got.items():
        assert equity == pytest.approx(oracle_equity(pos, rack, key, score, table), abs=1e-9), sorted(key)
    full = ranked(generate(abcd_lex, pos, rack, leaves=leaves, exchanges=False))
    for top in (1, 3):  # the best few, with shadow bounds skipping anchors, are the full ranking's first
        assert ranked(generate(abcd_lex, pos, rack, leaves=leaves, exchanges=False, top=top, count_all=False)) == \
            full[:top]


SPANISH = ["chocho", "calle", "cacho", "hacha", "llama", "ocho", "lo", "la", "al", "ch", "olla", "callo", "chal",
           "rra", "carro", "corro", "erre", "ella", "le", "el", "eh", "he", "ah", "ha", "oh", "ho"]


@settings(max_examples=10)
@given(seed=st.integers(0, 10**9), fill=st.sampled_from([0.0, 0.3]),
       rack=st.sampled_from(["[CH]O", "A[LL]?", "[RR]AE", "[CH]A[LL]", "O?L"]))
def test_equity_with_multi_letter_tiles(open_lexicon, seed, fill, rack):
    lex = open_lexicon(SPANISH, alphabet="spanish")
    game = Game.preset("scrabble").with_alphabet(lex.alphabet).resized(4)
    rng = random.Random(seed)
    codes = [lex.alphabet.code(t) for t in ("a", "ch", "ll", "o", "rr", "e")]
    pos = random_board(game, rng, codes, fill)
    csv = "[CH],4.5\n[LL]A,-2.25\n?,12.0\nO,1.5\n[RR],-3.0\nAO,2.0\n"
    leaves = LeaveTable.from_csv(csv, lex.alphabet)
    table = {tuple(k): v for k, v in leaves.items()}
    got = generated_equities(lex, pos, rack, leaves)
    assert {k: s for k, (s, _e) in got.items()} == every_play(lex, pos, rack)
    for key, (score, equity) in got.items():
        assert equity == pytest.approx(oracle_equity(pos, rack, key, score, table), abs=1e-9)


# -- ranking: the best N, the two engines, exchanges ---------------------------------------------------------


def midgame(lex, seed: int, turns: int) -> tuple[Position, list[str]]:
    game = Game.preset("scrabble")
    rng = random.Random(seed)
    bag = [game.alphabet.label(c).upper() if c else "?" for c, n in enumerate(game.counts_by_code())
           for _ in range(n)]
    rng.shuffle(bag)
    pos = Position(game)
    for _ in range(turns):
        rack = "".join(bag.pop() for _ in range(7))
        best = generate(lex, pos, rack, top=1)
        if best:
            pos = pos.with_play(best[0])
    return pos, bag


def ranked(moves) -> list[tuple]:
    return [(m.kind, m.notation, m.score, m.equity) for m in moves]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_best_n_are_the_first_n_of_the_full_ranking(enable_on, engine_kind, seed):
    """Coarse leave values tie many equities: the bounded heap must break ties as the full sort does; with shadow
    bounds (count_all=False) the same moves come."""
    lex = enable_on
    pos, bag = midgame(lex, seed, 3)
    rng = random.Random(seed)
    leaves = random_table(rng, list(range(1, 27)), lex.alphabet, coarse=True)
    racks = ["".join(bag[-7:]), "".join(bag[-9:-4]), "AE?"]
    if engine_kind == "c":  # tens of thousands of moves: the Python twin is held to the C records below
        racks.append("AEINR??")
    for rack in racks:
        for sort in ("equity", "score"):
            # compared by their records (the same bytes: the same plays in the same order); Moves built for the first 20
            every = generate(lex, pos, rack, leaves=leaves, sort=sort, exchanges=False)
            full, first = play_records(every), ranked(every[:20])
            for top in (0, 1, 5, 20, len(every) + 3):
                best = generate(lex, pos, rack, leaves=leaves, sort=sort, exchanges=False, top=top)
                assert play_records(best) == full[:top * RECORD_SIZE] and ranked(best[:20]) == first[:top]
                # shadow bounds skip anchors that cannot make the list: the same list, the total not counted
                pruned = generate(lex, pos, rack, leaves=leaves, sort=sort, exchanges=False, top=top, count_all=False)
                assert play_records(pruned) == full[:top * RECORD_SIZE] and ranked(pruned[:20]) == first[:top]
                assert pruned.total == (-1 if top else len(every))
            assert every.columns is not None
            keys = list(every.columns.equity if sort == "equity" else every.columns.score)
            assert keys == sorted(keys, reverse=True)


def documented_order(records, by_equity: bool) -> list[bytes]:
    """Records ranked by the documented order, by a plain sort: the key descending, across before down, then row,
    column, length and the squares' bytes ascending."""
    def key(r):
        k = float(r["equity"]) if by_equity else float(r["score"])
        return (-k, 1 - int(r["across"]), int(r["row"]), int(r["col"]), int(r["length"]), bytes(r["squares"]))
    return [r.tobytes() for r in sorted(records, key=key)]


@pytest.mark.parametrize("seed", [5, 6])
def test_every_play_ranked_by_the_engine_equals_a_plain_sort(enable_on, engine_kind, seed):
    """Ranking every play (a large ``top``: the C engine keeps them all and radix-sorts them) gives the order of a
    plain sort of the unranked plays; coarse leave values make many equities tie, blanks make plays that tie on
    key and square."""
    from lexigraph.scrabble import equity as eq
    from lexigraph.scrabble.movegen import MAX_TOP, move_request

    lex = enable_on
    pos, bag = midgame(lex, seed, 0 if seed == 5 else 3)
    leaves = random_table(random.Random(seed), list(range(1, 27)), lex.alphabet, coarse=True)
    racks = ["".join(bag[-7:]), "AE?"] + (["AEINR??"] if engine_kind == "c" else [])
    for rack in racks:
        codes = parse_rack(pos.game, rack)
        values = eq.rack_values(pos, codes, leaves, bag=eq.bag_size(pos, codes), engine=lex.engine)
        for by_equity in (True, False):
            every, count = lex.engine.generate_moves(move_request(lex, pos, codes, values, top=None,
                                                                  by_equity=by_equity))
            for top in (MAX_TOP, 5000):
                kept, total = lex.engine.generate_moves(move_request(lex, pos, codes, values, top=top,
                                                                     by_equity=by_equity))
                assert total == count == len(every)
                assert [r.tobytes() for r in kept] == documented_order(every, by_equity)[:top]


@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
def test_c_and_python_give_the_same_records(enable_on, open_python):
    """Every record, equity to the bit, and the best 15 in the same order."""
    pure = open_python()
    from lexigraph.scrabble.movegen import move_request
    from lexigraph.scrabble import equity as eq

    for seed in (3, 4):
        pos, bag = midgame(enable_on, seed, 4 if seed == 3 else 0)
        rng = random.Random(seed)
        leaves = random_table(rng, list(range(1, 27)), enable_on.alphabet)
        for rack in ("".join(bag[-7:]), "".join(bag[-6:-1]) + "?"):
            codes = parse_rack(pos.game, rack)
            values = eq.rack_values(pos, codes, leaves, bag=eq.bag_size(pos, codes))
            for top, prune in ((-1, False), (15, False), (15, True)):
                options = dict(leaves=leaves, top=None if top < 0 else top, prune=prune)
                c_records, c_total = enable_on.engine.generate_moves(move_request(enable_on, pos, codes, values,
                                                                                  **options))
                p_records, p_total = pure.engine.generate_moves(move_request(pure, pos, codes, values, **options))
                assert c_total == p_total
                if top < 0:
                    c_records, p_records = (sorted(r.tobytes() for r in recs) for recs in (c_records, p_records))
                    assert c_records == p_records
                else:
                    assert c_records.tobytes() == p_records.tobytes()


def test_exchanges_are_valued_by_what_they_keep(enable):
    game = Game.preset("scrabble")
    pos = Position(game)
    leaves = LeaveTable.from_csv("S,8.0\nQ,-7.0\nES,9.0\n?,20.0\n")
    moves = generate(enable, pos, "QES?", leaves=leaves)
    exchanges = [m for m in moves if m.kind == "exchange"]
    kept_value = {"": 0.0, "S": 8.0, "Q": -7.0, "ES": 9.0, "?": 20.0}
    expected = set()
    for k in range(1, 5):
        for combo in {tuple(sorted(c)) for c in permutations("QES?", k)}:
            expected.add("".join(sorted(combo, key=lambda t: (t == "?", t))))
    assert sorted(m.exchanged for m in exchanges) == sorted(expected)  # each distinct exchange once
    for m in exchanges:
        assert m.equity == kept_value.get(m.leave, 0.0), m.notation
    equities = [m.equity for m in moves]
    assert equities == sorted(equities, reverse=True)  # ranked with the plays
    assert not [m for m in generate(enable, pos, "QES?", sort="score") if m.kind == "exchange"]  # asked for only


def board_with(game: Game, rack: str, unseen: str, squares: list[int]) -> Position:
    """A position whose board holds every tile of the bag but ``rack`` and ``unseen``, on ``squares``."""
    counts = Counter({c: n for c, n in enumerate(game.counts_by_code()) if n})
    counts.subtract(parse_rack(game, rack))
    counts.subtract(0 if t == "?" else game.alphabet.code(t.lower()) for t in unseen)
    pos = Position(game)
    tiles = list(counts.elements())
    assert len(squares) >= len(tiles)
    for square, code in zip(squares, tiles):
        pos.codes[square] = code or 1
        pos.blanks[square] = code == 0
    pos.racks = [rack, ""]
    return pos


def test_no_exchange_when_the_bag_holds_less_than_a_rack(abcd_lex):
    game = small_game(5, 2)  # 10 tiles, racks of 4
    leaves = LeaveTable.from_csv("A,1.0\n", game.alphabet)
    pos = Position(game)  # 8 unseen: 4 in the bag
    assert [m for m in generate(abcd_lex, pos, "AB", leaves=leaves) if m.kind == "exchange"]
    pos = board_with(game, "AB", "BCD?", [0, 1, 2, 3])  # 4 unseen: the bag is empty
    assert not [m for m in generate(abcd_lex, pos, "AB", leaves=leaves) if m.kind == "exchange"]
    pos = board_with(game, "AB", "ABCDD", [0, 4, 20])  # 5 unseen: a tile in the bag, fewer than a rack
    assert not [m for m in generate(abcd_lex, pos, "AB", leaves=leaves) if m.kind == "exchange"]


def test_the_end_of_the_game(abcd_lex):
    """Bag empty: going out gains twice the opponent's points; keeping tiles loses 10 and twice their points; the
    leave table does not count."""
    from lexigraph.scrabble.equity import bag_size

    game = small_game(5, 2)
    pos = board_with(game, "AB", "B??", [11, 12, 13, 0, 4])  # row 2: three tiles to play through
    assert bag_size(pos, "AB") == 0
    moves = generate(abcd_lex, pos, "AB", leaves=LeaveTable.from_csv("A,50.0\nB,50.0\n", game.alphabet))
    assert moves
    opponent = 2 * game.points_of("b")
    outs = 0
    for m in moves:
        kept = sum(game.points_of(t.lower()) for t in m.leave)
        assert m.equity == m.score + (opponent if not m.leave else -ENDGAME_PENALTY - 2 * kept), m.notation
        outs += not m.leave
    assert outs and outs < len(moves)


def test_a_past_deadline_stops_the_generator(open_lexicon):
    lex = open_lexicon()
    with pytest.raises(DeadlineExceeded):
        generate(lex, Position(Game.preset("scrabble")), "AEINRST", deadline=time.monotonic() - 1)
    assert generate(lex, Position(Game.preset("scrabble")), "AEINRST", deadline=time.monotonic() + 60, top=1)


def test_moves_are_built_when_looked_at(enable, monkeypatch):
    built = []
    real = moves_module.MoveBuilder.build

    def counting(self, raw, equity=None):
        built.append(raw)
        return real(self, raw, equity)

    monkeypatch.setattr(moves_module.MoveBuilder, "build", counting)
    moves = generate(enable, Position(Game.preset("scrabble")), "AEINRST?"[:7], sort="score")
    assert len(moves) == moves.total > 1000 and not built
    first = moves[0]
    assert len(built) == 1 and moves[0] is first and moves[-1].score <= first.score
    cols = moves.columns
    assert cols is not None and len(cols) == len(moves)
    assert int(cols.score[0]) == first.score and float(cols.equity[0]) == first.equity


def test_play_equity_matches_the_generator(enable):
    pos, bag = midgame(enable, 9, 3)
    leaves = random_table(random.Random(9), list(range(1, 27)), enable.alphabet)
    rack = "".join(bag[-7:])
    for m in generate(enable, pos, rack, leaves=leaves, top=30, passes=True):
        assert play_equity(enable, pos, m, rack, leaves=leaves) == m.equity, m.notation


def test_bad_arguments(enable):
    pos = Position(Game.preset("scrabble"))
    with pytest.raises(GameError):
        generate(enable, pos, "AB", sort="best")  # type: ignore[arg-type]
    with pytest.raises(GameError):
        generate(enable, pos, "AB", leaves=3)  # type: ignore[arg-type]
    with pytest.raises(GameError):
        generate(enable, pos, "AB", leaves="/no/such/table.klv2")


# -- against wolges ---------------------------------------------------------------------------------------


def self_play_positions(lex, leaves: LeaveTable, seeds: list[int]) -> list[str]:
    """CGP positions of games played by lexigraph's best move by equity (exchanges too), to the end."""
    game = Game.preset("scrabble")
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        bag = [game.alphabet.label(c).upper() if c else "?" for c, n in enumerate(game.counts_by_code())
               for _ in range(n)]
        rng.shuffle(bag)
        pos = Position(game)
        racks: list[list[str]] = [[], []]
        exchanges = 0
        for turn in range(60):
            rack = racks[turn % 2]
            while len(rack) < 7 and bag:
                rack.append(bag.pop())
            if not rack:
                break
            pos.racks = ["".join(rack), ""]
            out.append(pos.to_cgp().split(" lex")[0] + f" lex TWL06; gid s{seed}t{turn};")
            best = generate(lex, pos, top=1, leaves=leaves, exchanges=True)
            if not best:
                break
            m = best[0]
            if m.kind == "exchange":
                exchanges += 1
                if exchanges > 4:
                    break
                for t in m.exchanged:
                    rack.remove(t)
                bag.extend(m.exchanged)
                rng.shuffle(bag)
                continue
            exchanges = 0
            pos = pos.with_play(m)
            for t in m.tiles:
                rack.remove("?" if t.blank else t.tile.upper())
            if not rack and not bag:
                break
    return out


def wolges_best(peer, cgp_lines: list[str], klv: str, tmp_path) -> list[dict]:
    bench = peer("wolges/target/release/movegen-bench")
    kwg = peer("data/TWL06.kwg")
    path = tmp_path / "positions.cgp"
    path.write_text("\n".join(cgp_lines) + "\n")
    out = subprocess.run([str(bench), str(kwg), str(path), "1", "0", "--mode", "ranked", "--klv", klv, "--exchanges"],
                         capture_output=True, text=True, check=True, timeout=600).stdout
    return [json.loads(line) for line in out.splitlines() if '"name"' in line]


def test_best_equity_equals_wolges(twl, shared, peer, tmp_path):
    """Every position of the shared positions file, and positions of games played to the end (leaves, exchanges,
    the end-of-game adjustments): lexigraph's best equity is wolges's with the same KLV2 (wolges keeps
    millipoints: equal to 0.001)."""
    klv = shared("nwl18-leaves.klv2")
    leaves = LeaveTable.read(klv)
    positions_file = shared("../peers/scrabble-solver/positions.json")
    game = Game.preset("scrabble")
    lines = []
    for p in json.loads(positions_file.read_text()):
        pos = Position.from_text("\n".join(p["board"]), game)
        pos.racks = [p["rack"], ""]
        lines.append(pos.to_cgp().split(" lex")[0] + f" lex TWL06; gid {p['name']};")
    shared_count = len(lines)
    lines += self_play_positions(twl, leaves, [1, 2])
    theirs = wolges_best(peer, lines, str(klv), tmp_path)
    assert len(theirs) == len(lines)
    endgame = 0
    for line, wolges in zip(lines, theirs):
        pos = Position.from_cgp(line, game)
        best = generate(twl, pos, top=1, leaves=leaves, exchanges=True)[0]
        assert best.equity == pytest.approx(wolges["best_equity"], abs=1e-3), (line, best.notation, wolges)
        endgame += len(pos.unseen()) <= 7
    assert shared_count >= 7 and endgame >= 2
