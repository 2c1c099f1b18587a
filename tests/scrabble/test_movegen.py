"""Move generation (scrabble/movegen.py) against a brute-force oracle, on both engines; the C generator play for play
with its Python twin."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.scrabble import movegen
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.movegen import generate, generate_placements
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.scoring import score_play
from lexigraph.scrabble.tables import WORD_MAP_VARIABLE, game_tables
from helpers.moves import every_play, random_board


def placements_key(raw: tuple[int, int, int, int, bytes]) -> frozenset[tuple[int, int, int, bool]]:
    score, row, col, across, squares = raw
    out = set()
    for k, b in enumerate(squares):
        if b:
            r, c = (row, col + k) if across else (row + k, col)
            out.add((r, c, b & 0x7F, bool(b & 0x80)))
    return frozenset(out)


def generated(lex, pos, rack):
    raw = generate_placements(lex, pos, rack)
    got = {}
    for m in raw:
        key = placements_key(m)
        assert key not in got, f"placement generated twice: {sorted(key)}"
        got[key] = m[0]
    return got


SMALL_WORDS = sorted({
    "ab", "ba", "ad", "da", "ca", "ac", "abc", "cab", "bad", "dab", "cad", "add", "dad", "abba", "baba",
    "acad", "bach", "cadd", "dada", "aba", "bab", "dabs", "bacd", "abcd", "ca", "aa", "bb",
})




def small_game(size: int) -> Game:
    return Game.preset("scrabble").resized(size)


def small_alpha_game(size: int) -> Game:
    """A small board whose tile set is a, b, c, d (so blanks stand for four tiles only)."""
    base = Game.preset("scrabble").resized(size)
    from lexigraph.alphabet import Alphabet

    alpha = Alphabet(["a", "b", "c", "d"], name="abcd", counts={"a": 9, "b": 9, "c": 9, "d": 9},
                     points={"a": 1, "b": 3, "c": 4, "d": 2}, blanks=2)
    return Game(name="abcd", alphabet=alpha, board=base.board, start=base.start,
                tiles={"a": (9, 1), "b": (9, 3), "c": (9, 4), "d": (9, 2)}, blanks=2, rack_size=4, bingo_bonus=20)


@pytest.fixture(scope="module")
def abcd_lex(open_lexicon):
    return open_lexicon(SMALL_WORDS, alphabet=small_alpha_game(5).alphabet)


@settings(max_examples=25)
@given(seed=st.integers(0, 10**9), size=st.sampled_from([3, 4, 5]), fill=st.sampled_from([0.0, 0.2, 0.4, 0.7]),
       rack=st.text("ABCD?", min_size=1, max_size=4))
def test_generator_equals_oracle_small_boards(abcd_lex, seed, size, fill, rack):
    if rack.count("?") > 2:
        rack = rack.replace("?", "A")
    game = small_alpha_game(size)
    rng = random.Random(seed)
    pos = random_board(game, rng, [1, 2, 3, 4], fill)
    expected = every_play(abcd_lex, pos, rack)
    assert generated(abcd_lex, pos, rack) == expected


def test_first_move_and_full_board(abcd_lex):
    game = small_alpha_game(5)
    pos = Position(game)
    exp = every_play(abcd_lex, pos, "AB?D")
    assert exp and all((2, 2) in {(r, c) for r, c, _, _ in k} for k in exp)
    assert generated(abcd_lex, pos, "AB?D") == exp
    full = Position(game, codes=[1] * 25, blanks=[False] * 25)
    assert generated(abcd_lex, full, "ABCD") == {} == every_play(abcd_lex, full, "ABCD")
    assert generate(abcd_lex, pos, "") == []
    assert generated(abcd_lex, pos, "??") == every_play(abcd_lex, pos, "??")


SPANISH = ["chocho", "calle", "cacho", "hacha", "llama", "ocho", "lo", "la", "al", "ch", "olla", "callo", "chal",
           "rra", "carro", "corro", "erre", "ella", "le", "el", "eh", "he", "ah", "ha", "oh", "ho", "año"]


@settings(max_examples=10)
@given(seed=st.integers(0, 10**9), fill=st.sampled_from([0.0, 0.3]), rack=st.sampled_from(
    ["[CH]O", "A[LL]?", "[RR]AE", "[CH]A[LL]", "O?L"]))
def test_multi_letter_tiles_spanish(open_lexicon, seed, fill, rack):
    lex = open_lexicon(SPANISH, alphabet="spanish")
    game = Game.preset("scrabble").with_alphabet(lex.alphabet).resized(4)
    rng = random.Random(seed)
    codes = [lex.alphabet.code(t) for t in ("a", "ch", "ll", "o", "rr", "e")]
    pos = random_board(game, rng, codes, fill)
    expected = every_play(lex, pos, rack)
    assert generated(lex, pos, rack) == expected


def with_start(game: Game, start: tuple[int, int]) -> Game:
    return Game(name=game.name, alphabet=game.alphabet, board=game.board, start=start,
                tiles=game.tiles, blanks=game.blanks, rack_size=game.rack_size, bingo_bonus=game.bingo_bonus,
                leaves=game.leaves)


def move_keys(moves) -> list[tuple]:
    return [(m.kind, m.notation, m.score, m.equity) for m in moves]


@pytest.mark.parametrize("rack", ["CATS", "ACT?", "EEIIOUU", "AEINRST"])
def test_symmetric_openings_list_the_across_plays_of_the_full_ranking(open_lexicon, rack):
    """On an empty board of a symmetric layout the ranking is the full one (both directions) less its down plays,
    for every play and for the best N (with and without shadow bounds); the total counts the across plays."""
    lex = open_lexicon(["cat", "cats", "act", "acts", "scat", "at", "ta", "as", "tae", "eta", "tea", "ate", "eat",
                        "tine", "tines", "retain", "retains", "nastier", "stainer", "oe", "io", "eau"])
    pos = Position(Game.preset("scrabble"))
    both = generate(lex, pos, rack, both_directions=True)
    across = [m for m in both if not (m.kind == "play" and not m.across)]
    assert 0 < sum(1 for m in both if m.kind == "play" and not m.across) == both.total // 2
    listed = generate(lex, pos, rack)
    assert move_keys(listed) == move_keys(across) and listed.total == both.total // 2
    for top in (1, 3, 10):
        assert move_keys(generate(lex, pos, rack, top=top)) == move_keys(across)[:top]
        assert move_keys(generate(lex, pos, rack, top=top, count_all=False)) == move_keys(across)[:top]
    # every play, as placements or columns, still comes in both directions
    assert len(generate_placements(lex, pos, rack)) == both.total


def test_an_asymmetric_layout_lists_both_directions_on_an_empty_board(open_lexicon):
    """A start square off the diagonal makes the down plays other plays: they are listed."""
    lex = open_lexicon(["cat", "cats", "act", "at", "ta", "as"])
    game = with_start(Game.preset("scrabble"), (7, 6))
    moves = generate(lex, Position(game), "CATS")
    assert any(m.kind == "play" and not m.across for m in moves)
    assert moves.total == generate(lex, Position(game), "CATS", both_directions=True).total == \
        len(generate_placements(lex, Position(game), "CATS"))


def test_phonies_still_generate(abcd_lex):
    game = small_alpha_game(5)
    pos = Position.from_text(".....\n.ccc.\n.....\n.....\n.....", game)
    assert movegen.board_phonies(abcd_lex, pos) == ["ccc"]
    assert generated(abcd_lex, pos, "AB") == every_play(abcd_lex, pos, "AB")


@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
def test_c_and_python_agree_on_enable_midgame(enable_on, open_python):
    enable, pure = enable_on, open_python()
    game = Game.preset("scrabble")
    rng = random.Random(7)
    pos = Position(game)
    bag = Counter({c: n for c, n in enumerate(game.counts_by_code()) if n and c})
    letters = list(bag.elements())
    for turn in range(6):
        rng.shuffle(letters)
        rack = "".join(game.alphabet.label(c).upper() for c in letters[:7])
        py = sorted(generate_placements(pure, pos, rack))
        c = sorted(generate_placements(enable, pos, rack))
        assert py == c
        top_c = [(m.notation, m.score, m.leave) for m in generate(enable, pos, rack, top=15)]
        assert top_c == [(m.notation, m.score, m.leave) for m in generate(pure, pos, rack, top=15)]
        moves = generate(enable, pos, rack, top=1)
        if not moves:
            continue
        best = moves[0]
        assert score_play(enable, pos, best.notation, rack=rack).score == best.score
        pos = pos.with_play(best)


def test_oracle_on_twl06_midgame_positions(twl, open_lexicon):
    """Sampled 15x15 mid-game boards (reached by playing the best move from a seeded bag) against the oracle,
    with racks small enough for exhaustive enumeration."""
    twl = open_lexicon(twl.path)
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
            expected = every_play(twl, pos, rack)
            assert expected
            assert generated(twl, pos, rack) == expected


def test_pure_python_switch_in_a_subprocess():
    import os
    import subprocess
    import sys

    code = ("import lexigraph; from lexigraph.scrabble import movegen; from lexigraph.scrabble.game import Game; "
            "from lexigraph.scrabble.position import Position; lex = lexigraph.open(); "
            "print(lex.engine.kind == 'python', movegen.count_placements(lex, Position(Game.preset('scrabble')), "
            "'AEINRST'))")
    env = dict(os.environ, LEXIGRAPH_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    pure, count = out.split()
    assert pure == "True"
    assert int(count) == movegen.count_placements(lexigraph.open(), Position(Game.preset("scrabble")), "AEINRST")


# -- best-first pruning on real positions: the best N are the full ranking's first N -------------------------

#: Boards of MAGPIE's test positions and scrabble-solver's (bench/bench_magpie.py), racks with 0 to 2 blanks.
REAL_BOARDS = [
    "15/15/15/15/5COZY6/5L9/5I9/5PLANET4/8I6/8G6/8H6/6WATER4/10A4/10V4/10E4",
    "15/15/15/15/15/5QI3D1AVA/4W1LABRETS2/3ZONER2BY3/4VOX3OE3/4E5NE3/4N5I4/4S5N4/10g4/15/15",
    "15/15/15/15/15/15/2R3I8/GRIM1SNAFUED3/2C3D8/2O2ZANIER4/2T3G8/2TERRAPIN5/2A2AT1FOWLS2/5WE8/15",
    "15/15/15/15/15/6V8/6O8/5EGO7/6I8/5WE8/5U9/5R5FAVE/2QATS3SWIM2/5T2LOONIE1/5SHOO6",
]


@pytest.mark.parametrize("with_word_map", [False, True])
def test_pruned_best_n_equal_the_full_ranking_on_twl06_positions(twl, with_word_map, private_cache, monkeypatch):
    """With the shipped leave table (914,624 leaves), shadow bounds per anchor and per left part length skip
    what cannot make the list: the best 1, 2, 5 and 20 (plays and exchanges) are the full ranking's first, on
    real mid-game boards and on boards reached by playing the best move from a seeded bag; without the word map
    and with it (its lookups drop the extents no word fills). (The C engine's: the twin has no bounds, it ranks
    every play.)"""
    if twl.engine.kind != "c":
        pytest.skip("shadow bounds are the C generator's; the twin ranks every play")
    game = Game.preset("scrabble")
    if not with_word_map:
        monkeypatch.setenv(WORD_MAP_VARIABLE, "0")
    twl = lexigraph.open(twl.path)
    if with_word_map:
        assert twl.word_map() is not None
    assert (game_tables(twl, game).word_map is not None) == with_word_map
    positions = [Position.from_cgp(f"{board} {rack}/ 0/0 0", game) for board in REAL_BOARDS
                 for rack in ("AEINRST", "AALNST?", "EIOQRTU", "AEINR??")]
    rng = random.Random(34)
    bag = [game.alphabet.label(c).upper() if c else "?" for c, n in enumerate(game.counts_by_code()) for _ in range(n)]
    rng.shuffle(bag)
    pos = Position(game)
    for _ in range(8):
        rack = "".join(bag.pop() for _ in range(7))
        positions.append(Position.from_cgp(pos.to_cgp().split()[0] + f" {rack}/ 0/0 0", game))
        best = generate(twl, pos, rack, top=1)
        if best and best[0].kind == "play":
            pos = pos.with_play(best[0])
    for p in positions:
        full = [(m.kind, m.notation, m.equity) for m in generate(twl, p)[:20]]  # the full ranking's first 20
        for top in (1, 2, 5, 20):
            pruned = generate(twl, p, top=top, count_all=False)
            assert [(m.kind, m.notation, m.equity) for m in pruned] == full[:top], (p.to_cgp(), top)
