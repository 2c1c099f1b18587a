"""Move generation against a brute-force oracle; C and Python generators agree; scoring and legality."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.scrabble import movegen
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.movegen import IllegalPlay, generate, generate_placements, score_placements, score_play
from lexigraph.scrabble.position import Position, parse_rack

HAS_C = movegen._c is not None


def placements_key(raw: tuple[int, int, int, int, bytes]) -> frozenset[tuple[int, int, int, bool]]:
    score, row, col, across, squares = raw
    out = set()
    for k, b in enumerate(squares):
        if b:
            r, c = (row, col + k) if across else (row + k, col)
            out.add((r, c, b & 0x7F, bool(b & 0x80)))
    return frozenset(out)


def generated(lex, pos, rack, pure):
    raw = generate_placements(lex, pos, rack, pure_python=pure)
    got = {}
    for m in raw:
        key = placements_key(m)
        assert key not in got, f"placement generated twice: {sorted(key)}"
        got[key] = m[0]
    return got


def oracle(lex, pos: Position, rack: str) -> dict[frozenset, int]:
    """Every line segment, every arrangement of rack tiles (blanks as every tile), checked and scored
    by the independent scorer."""
    game = pos.game
    n = game.size
    codes = parse_rack(game, rack)
    tiles = range(1, len(game.alphabet) + 1)
    out: dict[frozenset, int] = {}
    for across in (True, False):
        for line in range(n):
            for s in range(n):
                for e in range(s, n):
                    sq = [(line, k) if across else (k, line) for k in range(s, e + 1)]
                    empty = [(r, c) for r, c in sq if not pos.codes[r * n + c]]
                    if not empty or empty[0] != sq[0] or empty[-1] != sq[-1] or len(empty) > len(codes):
                        continue
                    for perm in set(permutations(codes, len(empty))):
                        choices = [[(t, True) for t in tiles] if c == 0 else [(c, False)] for c in perm]
                        stack = [[]]
                        for ch in choices:
                            stack = [a + [x] for a in stack for x in ch]
                        for assign in stack:
                            placed = [(r, c, t, b) for (r, c), (t, b) in zip(empty, assign)]
                            key = frozenset(placed)
                            if key in out:
                                continue
                            try:
                                m = score_placements(lex, pos, placed, rack)
                            except IllegalPlay:
                                continue
                            out[key] = m.score
    return out


SMALL_WORDS = sorted({
    "ab", "ba", "ad", "da", "ca", "ac", "abc", "cab", "bad", "dab", "cad", "add", "dad", "abba", "baba",
    "acad", "bach", "cadd", "dada", "aba", "bab", "dabs", "bacd", "abcd", "ca", "aa", "bb",
})


@pytest.fixture(scope="module")
def small_lex():
    return lexigraph.load([w for w in SMALL_WORDS if set(w) <= set("abcd")], alphabet="english")


def small_game(size: int) -> Game:
    return Game.preset("scrabble").resized(size)


def random_board(game: Game, rng: random.Random, alphabet_codes: list[int], fill: float) -> Position:
    pos = Position(game)
    n = game.size
    for i in range(n * n):
        if rng.random() < fill:
            pos.codes[i] = rng.choice(alphabet_codes)
            pos.blanks[i] = rng.random() < 0.2
    return pos


def small_alpha_game(size: int) -> Game:
    """A small board whose tile set is a, b, c, d (so blanks stand for four tiles only)."""
    base = Game.preset("scrabble").resized(size)
    from lexigraph.alphabet import Alphabet

    alpha = Alphabet(["a", "b", "c", "d"], name="abcd", counts={"a": 9, "b": 9, "c": 9, "d": 9},
                     points={"a": 1, "b": 3, "c": 4, "d": 2}, blanks=2)
    return Game(name="abcd", alphabet=alpha, board=base.board, start=base.start,
                tiles={"a": (9, 1), "b": (9, 3), "c": (9, 4), "d": (9, 2)}, blanks=2, rack_size=4, bingo_bonus=20)


@pytest.fixture(scope="module")
def abcd_lex():
    return lexigraph.load(SMALL_WORDS, alphabet=small_alpha_game(5).alphabet)


@settings(max_examples=25)
@given(seed=st.integers(0, 10**9), size=st.sampled_from([3, 4, 5]), fill=st.sampled_from([0.0, 0.2, 0.4, 0.7]),
       rack=st.text("ABCD?", min_size=1, max_size=4))
def test_generator_equals_oracle_small_boards(abcd_lex, seed, size, fill, rack):
    if rack.count("?") > 2:
        rack = rack.replace("?", "A")
    game = small_alpha_game(size)
    rng = random.Random(seed)
    pos = random_board(game, rng, [1, 2, 3, 4], fill)
    expected = oracle(abcd_lex, pos, rack)
    assert generated(abcd_lex, pos, rack, pure=True) == expected
    if HAS_C:
        assert generated(abcd_lex, pos, rack, pure=False) == expected


def test_first_move_and_full_board(abcd_lex):
    game = small_alpha_game(5)
    pos = Position(game)
    exp = oracle(abcd_lex, pos, "AB?D")
    assert exp and all((2, 2) in {(r, c) for r, c, _, _ in k} for k in exp)
    assert generated(abcd_lex, pos, "AB?D", pure=True) == exp
    full = Position(game, codes=[1] * 25, blanks=[False] * 25)
    assert generated(abcd_lex, full, "ABCD", pure=True) == {} == oracle(abcd_lex, full, "ABCD")
    assert generate(abcd_lex, pos, "") == []
    assert generated(abcd_lex, pos, "??", pure=True) == oracle(abcd_lex, pos, "??")


SPANISH = ["chocho", "calle", "cacho", "hacha", "llama", "ocho", "lo", "la", "al", "ch", "olla", "callo", "chal",
           "rra", "carro", "corro", "erre", "ella", "le", "el", "eh", "he", "ah", "ha", "oh", "ho", "año"]


@settings(max_examples=10)
@given(seed=st.integers(0, 10**9), fill=st.sampled_from([0.0, 0.3]), rack=st.sampled_from(
    ["[CH]O", "A[LL]?", "[RR]AE", "[CH]A[LL]", "O?L"]))
def test_multi_letter_tiles_spanish(seed, fill, rack):
    lex = lexigraph.load(SPANISH, alphabet="spanish")
    game = Game.preset("scrabble").with_alphabet(lex.alphabet).resized(4)
    rng = random.Random(seed)
    codes = [lex.alphabet.code(t) for t in ("a", "ch", "ll", "o", "rr", "e")]
    pos = random_board(game, rng, codes, fill)
    expected = oracle(lex, pos, rack)
    assert generated(lex, pos, rack, pure=True) == expected
    if HAS_C:
        assert generated(lex, pos, rack, pure=False) == expected


def test_scoring_and_reasons():
    lex = lexigraph.load(["cat", "cats", "at", "as", "ta", "act", "scat", "tact"], alphabet="english")
    pos = Position(Game.preset("scrabble"), racks=["CATS", ""])
    m = score_play(lex, pos, "8H CAT")
    assert m.score == 10 and m.leave == "S"  # (3 + 1 + 1) * 2 on the star
    with pytest.raises(IllegalPlay) as e:
        score_play(lex, pos, "8A CAT")
    assert e.value.reason == "first move off the centre"
    pos2 = pos.with_play(m)
    m2 = score_play(lex, pos2, "8H CATS")
    assert m2.words == ("cats",) and m2.score == 6
    m3 = score_play(lex, pos2, "H8 (C)AT", rack="AT")
    assert m3.score == 5 and m3.words == ("cat",)
    for play, reason in [("8A CAT", "not connected"), ("1A TA", "not connected"), ("8K TA", "not in lexicon"),
                         ("H9 A", "not on rack")]:
        with pytest.raises(IllegalPlay) as e:
            score_play(lex, pos2, play, rack="T")
        assert e.value.reason in (reason, "not on rack" if reason != "not on rack" else reason), (play, e.value)
    with pytest.raises(IllegalPlay) as e:
        score_placements(lex, pos2, [(9, 7, 1, False), (10, 8, 20, False)], "AT")
    assert e.value.reason == "not in line"
    with pytest.raises(IllegalPlay) as e:
        score_placements(lex, pos2, [(7, 11, 1, False), (7, 13, 20, False)], "AT")
    assert e.value.reason == "gap"
    with pytest.raises(IllegalPlay) as e:
        score_play(lex, pos2, "8H CATS", rack="S?")
        score_play(lex, pos2, "8L ST", rack="ST")
    with pytest.raises(IllegalPlay) as e:
        score_play(lex, pos2, "9H AA", rack="AA")
    assert e.value.reason == "not in lexicon" and set(e.value.words) >= {"aa"}


def test_bingo_and_blank_scores():
    lex = lexigraph.load(["abcdefg", "ab"], alphabet="english")
    pos = Position(Game.preset("scrabble"))
    moves = generate(lex, pos, "ABCDEF?")
    assert moves[0].score == 50 + 2 * (1 + 3 + 3 + 2 + 1 + 4) or moves[0].score > 50
    for m in moves:
        if m.word == "abcdefg":
            assert m.score == score_play(lex, pos, m.notation, rack="ABCDEF?").score


def test_bad_input(abcd_lex):
    game = Game.preset("scrabble")
    with pytest.raises(GameError):
        parse_rack(game, "ABCDEFGH")
    with pytest.raises(GameError):
        parse_rack(game, "QQ")
    with pytest.raises(GameError):
        parse_rack(game, "A1")
    with pytest.raises(GameError):
        parse_rack(game, "???")
    for bad in ["", "15/15", "x y z w", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/16 A/ 0/0 0",
                "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ x/0 0", "1#13/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0"]:
        with pytest.raises(GameError):
            Position.from_cgp(bad, game)
    with pytest.raises(GameError):
        Position.from_text("...\n...", game)


def test_cgp_round_trip_and_plain_board():
    game = Game.preset("scrabble")
    cgp = "15/15/15/15/15/15/15/5QUIz6/15/15/15/15/15/15/15 AB?/CDE 40/10 2 lex TWL06; tmr 10000/9000;"
    p = Position.from_cgp(cgp, game)
    assert p.to_cgp() == cgp
    assert Position.from_text(p.board_text(), game).to_cgp().split()[0] == cgp.split()[0]
    es = Game.preset("scrabble").with_alphabet(lexigraph.Alphabet.preset("spanish"))
    p2 = Position.from_cgp("15/15/15/15/15/15/15/5[CH]O[CH]O6/15/15/15/15/15/15/15 [LL]A?/ 0/0 0", es)
    assert p2.tile_at(7, 5) == "CH" and p2.to_cgp().startswith("15/15/15/15/15/15/15/5[CH]O[CH]O6")


def test_phonies_still_generate(abcd_lex):
    game = small_alpha_game(5)
    pos = Position.from_text(".....\n.ccc.\n.....\n.....\n.....", game)
    assert movegen.board_phonies(abcd_lex, pos) == ["ccc"]
    assert generated(abcd_lex, pos, "AB", pure=True) == oracle(abcd_lex, pos, "AB")


@pytest.mark.skipif(not HAS_C, reason="the C extension is not built")
def test_c_and_python_agree_on_enable_midgame(enable):
    game = Game.preset("scrabble")
    rng = random.Random(7)
    pos = Position(game)
    bag = Counter({c: n for c, n in enumerate(game.counts_by_code()) if n and c})
    letters = list(bag.elements())
    for turn in range(6):
        rng.shuffle(letters)
        rack = "".join(game.alphabet.label(c).upper() for c in letters[:7])
        py = sorted(generate_placements(enable, pos, rack, pure_python=True))
        c = sorted(generate_placements(enable, pos, rack, pure_python=False))
        assert py == c
        top_c = [(m.notation, m.score, m.leave) for m in generate(enable, pos, rack, top=15)]
        assert top_c == [(m.notation, m.score, m.leave) for m in generate(enable, pos, rack, top=15, pure_python=True)]
        moves = generate(enable, pos, rack, top=1)
        if not moves:
            continue
        best = moves[0]
        assert score_play(enable, pos, best.notation, rack=rack).score == best.score
        pos = pos.with_play(best)


def test_oracle_on_twl06_midgame_positions(twl):
    """Sampled 15x15 mid-game boards (reached by playing the best move from a seeded bag) against the oracle,
    with racks small enough for exhaustive enumeration."""
    game = Game.preset("scrabble")
    for seed in (5, 6):
        rng = random.Random(seed)
        bag = [game.alphabet.label(c).upper() for c, n in enumerate(game.counts_by_code()) if c for _ in range(n)]
        rng.shuffle(bag)
        pos = Position(game)
        for _ in range(5):
            rack = "".join(bag.pop() for _ in range(7))
            best = generate(twl, pos, rack, top=1)
            if best:
                pos = pos.with_play(best[0])
        for rack in ("".join(bag[-3:]), bag[-4] + "?"):
            expected = oracle(twl, pos, rack)
            assert expected
            assert generated(twl, pos, rack, pure=True) == expected
            if HAS_C:
                assert generated(twl, pos, rack, pure=False) == expected


def test_pure_python_switch_in_a_subprocess():
    import os
    import subprocess
    import sys

    code = ("import lexigraph; from lexigraph.scrabble import movegen; from lexigraph.scrabble.game import Game; "
            "from lexigraph.scrabble.position import Position; "
            "print(movegen._c is None, movegen.count_placements(lexigraph.open(), Position(Game.preset('scrabble')), "
            "'AEINRST'))")
    env = dict(os.environ, LEXIGRAPH_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    pure, count = out.split()
    assert pure == "True"
    assert int(count) == movegen.count_placements(lexigraph.open(), Position(Game.preset("scrabble")), "AEINRST")


@pytest.mark.skipif(not HAS_C, reason="the C extension is not built")
@settings(max_examples=200)
@given(records=st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=40), root=st.integers(0, 50),
       cells=st.lists(st.integers(0, 6), min_size=25, max_size=25), rack=st.lists(st.integers(0, 3), min_size=5,
                                                                                   max_size=5))
def test_c_generator_survives_forged_graphs(records, root, cells, rack):
    """Arcs pointing anywhere, tiles outside the alphabet: an answer or ValueError, never a crash."""
    import struct

    graph = struct.pack(f"<{len(records)}Q", *records)
    kids = struct.pack(f"<{len(records)}Q", *[r ^ (r >> 7) for r in records])
    try:
        buf, count = movegen._c.generate_moves(graph, kids, root, 5, bytes(cells), bytes(25), bytes([1] * 25),
                                               bytes([1] * 25), bytes([1, 2, 3, 4, 5]), bytes(rack), 12, 4, 20)
        assert len(buf) == count * movegen.REC_SIZE
    except ValueError:
        pass
