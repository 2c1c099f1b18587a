"""The simulation player at the end of the game: the exact endgame's move with the bag empty (against an exhaustive
minimax), the pre-endgame's play with one or two tiles in the bag, its settings, and the CPU log the benchmark
reads; on both engines."""

from __future__ import annotations

import dataclasses
import importlib.util
import math
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

import lexigraph
from lexigraph.scrabble.endgame import ZERO_TURNS_TO_END, solve_endgame
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.movegen import aligned, generate, generate_placements
from lexigraph.scrabble.moves import Move, move_from_record
from lexigraph.scrabble.peg import solve_peg
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.selfplay import Player, autoplay
from lexigraph.scrabble.simulation import choose_move
from lexigraph.scrabble.simulation_player import (
    _choose, _turn_seed, end_of_game_move, log_turn_cpu, read_turn_cpu,
)
from lexigraph.scrabble.tiles import parse_rack, rack_text
from helpers.games import abcd_game, random_plays

WORDS = sorted({"ab", "ba", "ad", "da", "aa", "bad", "dab", "cab", "abc", "acad", "bach", "cadd", "dada", "aba",
                "bab", "bacd", "abcd", "bb", "cc", "dd", "cad", "dac", "caca", "dacb"})
#: Endgames: racks of 3, few tiles (the minimax stays small).
GAME = abcd_game(size=7, count=3, blanks=1, rack_size=3)
#: Pre-endgames with one tile in the bag: racks of 2 (no exchange with one tile in the bag).
PEG_GAME = abcd_game(size=6, count=3, blanks=1, rack_size=2)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lex(open_lexicon):
    return open_lexicon(WORDS, alphabet=GAME.alphabet)


def endgame_player(**options) -> Player:
    """A small simulation player with the endgame on; its search's budget (wall time) is long enough that the
    small game's endgames always finish, so that its moves do not depend on the machine's load."""
    options.setdefault("endgame_seconds", 60.0)
    options.setdefault("endgame", True)
    return Player.simulation(None, candidates=3, iterations=8, **options)


# -- the oracle: every line of play to the end --------------------------------------------------------------------


def minimax(lex, pos: Position, mine: list[int], theirs: list[int], zeros: int) -> int:
    """The spread from here to the end for the side holding ``mine`` (to move), both sides playing their best:
    a play that empties a rack gains twice the other's points; six turns without a play cost each side its own."""
    points = pos.game.points_by_code()
    pts = lambda rack: sum(points[c] for c in rack if c)  # noqa: E731
    best = (pts(theirs) - pts(mine) if zeros + 1 >= ZERO_TURNS_TO_END
            else -minimax(lex, pos, theirs, mine, zeros + 1))
    for raw in placements(lex, pos, tuple(mine)):
        best = max(best, play_value(lex, pos, mine, theirs, raw))
    return best


_PLACEMENTS: dict = {}


def placements(lex, pos: Position, rack: tuple[int, ...]) -> list:
    """``generate_placements``, remembered per lexicon, board and rack: the oracle's positions repeat (passes)."""
    key = (id(lex), tuple(pos.codes), tuple(pos.blanks), rack)
    if key not in _PLACEMENTS:
        _PLACEMENTS[key] = list(generate_placements(lex, pos, rack_text(pos.game, list(rack))))
    return _PLACEMENTS[key]


def play_value(lex, pos: Position, mine: list[int], theirs: list[int], raw) -> int:
    """The minimax value of one placement (``generate_placements``' record) for the side to move."""
    score, _row, _col, _across, squares = raw
    left = Counter(mine)
    left.subtract(0 if b & 0x80 else b for b in squares if b)
    rest = sorted(left.elements())
    points = pos.game.points_by_code()
    if not rest:
        return score + 2 * sum(points[c] for c in theirs if c)
    return score - minimax(lex, pos.with_play(move_from_record(pos, mine, raw)), theirs, rest, 0)


def move_value(lex, pos: Position, move: Move | None) -> int:
    """The minimax value of ``move`` (None: pass) from ``pos`` (the side to move's rack first, the other's second)."""
    mine, theirs = parse_rack(pos.game, pos.racks[0]), parse_rack(pos.game, pos.racks[1])
    if move is None:
        return -minimax(lex, pos, theirs, mine, pos.zero_turns + 1) if pos.zero_turns + 1 < ZERO_TURNS_TO_END \
            else sum(pos.game.points_by_code()[c] for c in theirs if c) - sum(
                pos.game.points_by_code()[c] for c in mine if c)
    for raw in generate_placements(lex, pos, pos.racks[0]):
        if move_from_record(pos, mine, raw).notation == move.notation:
            return play_value(lex, pos, mine, theirs, raw)
    raise AssertionError(f"{move.notation} is not a play of {pos.racks[0]}")


def random_endgames(lex, count: int) -> list[Position]:
    """Seeded endgames of the small game: random plays until at most 4 tiles are unseen, split between the racks."""
    out: list[Position] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        seed += 1
        played = random_plays(lex, GAME, rng, 4)
        if played is None or len(played[1]) < 2:
            continue
        pos, tiles = played
        k = rng.randint(max(1, len(tiles) - GAME.rack_size), min(GAME.rack_size, len(tiles) - 1))
        pos.racks = [rack_text(GAME, tiles[:k]), rack_text(GAME, tiles[k:])]
        pos.scores = [rng.randint(0, 40), rng.randint(0, 40)]
        out.append(pos)
    return out


# -- the bag empty: the exact endgame's move -----------------------------------------------------------------------


def test_with_the_bag_empty_the_player_plays_the_endgame_solvers_best_move(lex):
    player = endgame_player()
    for pos in random_endgames(lex, 12):
        solution = solve_endgame(lex, pos)
        assert solution.complete
        chosen = _choose(lex, player, pos, seed=1, bag=0)
        assert (chosen is None) == (solution.best is None), pos.to_cgp()
        if chosen is not None:
            assert solution.best is not None and chosen.notation == solution.best.notation, pos.to_cgp()
        # the oracle: no move is worth more than the one played
        mine, theirs = parse_rack(GAME, pos.racks[0]), parse_rack(GAME, pos.racks[1])
        assert move_value(lex, pos, chosen) == minimax(lex, pos, mine, theirs, pos.zero_turns), pos.to_cgp()


def test_a_hand_made_endgame_goes_out_with_the_solvers_move():
    # the endgame module's own example: ZA at 2C goes out (24 + twice the S's point); Z(A) at C2 scores more
    # points now... the minimax says which is best, and the player plays it
    small = lexigraph.load(["cat", "cats", "scat", "at", "as", "ta", "za", "zas"])
    tiny = Game.from_dict({"name": "tiny", "board": ["....."] * 5, "rack_size": 3, "blanks": 0,
                           "tiles": {"a": [2, 1], "c": [1, 3], "s": [1, 1], "t": [1, 1], "z": [1, 10]}})
    pos = aligned(small, Position.from_cgp("5/5/1CAT1/5/5 ZA/S 0/0 0", tiny))  # the lexicon's tile codes
    chosen = _choose(small, endgame_player(), pos, seed=3, bag=0)
    assert chosen is not None and chosen.notation == "2C ZA"
    mine, theirs = parse_rack(pos.game, pos.racks[0]), parse_rack(pos.game, pos.racks[1])
    best = minimax(small, pos, mine, theirs, 0)
    assert best == 26 and move_value(small, pos, chosen) == best
    plays = generate(small, pos, top=None, exchanges=False, passes=True, sort="score")
    assert any(move_value(small, pos, None if m.kind == "pass" else m) < best for m in plays)


def test_without_the_endgame_the_player_simulates_the_last_turns(lex):
    pos = random_endgames(lex, 1)[0]
    for player in (endgame_player(endgame=False), Player.simulation(None, objective="simmer")):
        assert player.simulating is not None and not player.simulating.endgame
        assert end_of_game_move(lex, pos, player.simulating, 0) == (False, None)


def test_tiles_in_the_bag_are_not_searched_without_the_pre_endgame(lex):
    player = endgame_player()
    assert player.simulating is not None
    pos = Position(GAME, racks=["abc", ""])
    assert end_of_game_move(lex, pos, player.simulating, 1) == (False, None)
    assert end_of_game_move(lex, pos, player.simulating, 30) == (False, None)


def test_a_tiny_budget_still_answers_a_legal_move(lex):
    player = endgame_player(endgame_seconds=1e-9)
    for pos in random_endgames(lex, 4):
        chosen = _choose(lex, player, pos, seed=2, bag=0)
        legal = {m.notation for m in generate(lex, pos, top=None, exchanges=False, passes=False, sort="score")}
        assert chosen is None or chosen.notation in legal


def test_a_search_cut_short_leaves_the_choice_to_the_simulation(lex, monkeypatch):
    import lexigraph.scrabble.simulation_player as simulation_player

    pos = random_endgames(lex, 1)[0]
    exact = solve_endgame(lex, pos)
    assert exact.complete
    cut = dataclasses.replace(exact, complete=False)
    monkeypatch.setattr(simulation_player, "solve_endgame", lambda *args, **kwargs: cut)
    player = endgame_player()
    assert player.simulating is not None
    assert end_of_game_move(lex, pos, player.simulating, 0) == (False, None)
    # the choice is then the simulation's
    simulated = choose_move(lex, pos, leaves=None, seed=_turn_seed(5, 0, 0), candidates=3, iterations=8, plies=2,
                            workers=1, objective="win")
    assert _choose(lex, player, pos, seed=_turn_seed(5, 0, 0), bag=0) == simulated
    monkeypatch.setattr(simulation_player, "solve_endgame", lambda *args, **kwargs: exact)
    assert end_of_game_move(lex, pos, player.simulating, 0) == (True, exact.best)


# -- one tile in the bag: the pre-endgame's play -------------------------------------------------------------------


def random_pre_endgames(lex, count: int) -> list[Position]:
    """Seeded positions of the small game with a rack and one tile more than a rack unseen (the bag holds one)."""
    out: list[Position] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        seed += 1
        played = random_plays(lex, PEG_GAME, rng, PEG_GAME.rack_size * 2 + 1, exact=True, give_up=20)
        if played is None:
            continue
        pos, tiles = played
        # the other rack as the game knows it: the player must not look at it
        pos.racks = [rack_text(PEG_GAME, tiles[:2]), rack_text(PEG_GAME, tiles[2:4])]
        pos.scores = [rng.randint(0, 30), rng.randint(0, 30)]
        out.append(pos)
    return out


def test_with_one_tile_in_the_bag_the_player_plays_the_pre_endgames_best(lex):
    player = endgame_player(pre_endgame=True, endgame_seconds=30)
    searched = 0
    for pos in random_pre_endgames(lex, 8):
        hidden = pos.copy()
        hidden.racks = [pos.racks[0], ""]
        solution = solve_peg(lex, hidden)
        assert solution.exact and solution.bag == 1
        chosen = _choose(lex, player, pos, seed=4, bag=1)
        assert (chosen.notation if chosen is not None else "pass") == solution.best.notation, pos.to_cgp()
        searched += 1
    assert searched == 8


def test_the_pre_endgame_does_not_read_the_other_rack(lex):
    player = endgame_player(pre_endgame=True, endgame_seconds=30)
    assert player.simulating is not None
    pos = random_pre_endgames(lex, 1)[0]
    other = pos.copy()
    other.racks = [pos.racks[0], ""]
    assert end_of_game_move(lex, pos, player.simulating, 1) == end_of_game_move(lex, other, player.simulating, 1)


# -- settings ------------------------------------------------------------------------------------------------------


def test_the_endgame_is_off_unless_asked_for():
    win = Player.simulation(None).simulating
    simmer = Player.simulation(None, objective="simmer").simulating
    forced = Player.simulation(None, objective="simmer", endgame=True).simulating
    assert win is not None and not win.endgame and not win.pre_endgame
    assert simmer is not None and not simmer.endgame and not simmer.pre_endgame
    assert forced is not None and forced.endgame


@pytest.mark.parametrize("options, words", [
    ({"endgame": 1}, "endgame is True or False"), ({"pre_endgame": "yes"}, "pre_endgame is True or False"),
    ({"endgame_seconds": 0}, "endgame budget"), ({"endgame_seconds": -1.0}, "endgame budget"),
    ({"endgame_seconds": math.nan}, "endgame budget"), ({"endgame_seconds": math.inf}, "endgame budget"),
    ({"endgame_seconds": True}, "endgame budget"), ({"endgame_seconds": "1"}, "endgame budget"),
    ({"endgame_seconds": 61}, "endgame budget"),
])
def test_bad_end_of_game_settings_are_refused(options, words):
    with pytest.raises(GameError, match=words):
        Player.simulation(None, **options)


# -- whole games, and the CPU log ----------------------------------------------------------------------------------


def test_games_with_the_endgame_player_log_each_choice(lex, tmp_path):
    players = [endgame_player(name="eg"), Player.simulation(None, candidates=3, iterations=8, objective="simmer",
                                                            name="old")]
    log_turn_cpu(str(tmp_path / "turns"))
    try:
        run = autoplay(lex, GAME, players, games=4, seed=21, workers=1, keep_games=True)
    finally:
        log_turn_cpu(None)
    logged = read_turn_cpu(str(tmp_path / "turns"))
    expected = []
    for k in range(4):
        for t in run.game_turns(k):
            expected.append((("eg", "old")[int(t["player"])], int(t["bag_before"])))
    assert sorted((who, bag) for who, bag, _s in logged) == sorted(expected)
    assert all(seconds >= 0 for _w, _b, seconds in logged)
    assert any(bag == 0 for _w, bag, _s in logged), "no game reached an empty bag"
    again = autoplay(lex, GAME, players, games=4, seed=21, workers=1, keep_games=True)
    assert [run.gcg(k) for k in range(4)] == [again.gcg(k) for k in range(4)]


def test_the_benchmark_summarises_cpu_per_turn(tmp_path):
    spec = importlib.util.spec_from_file_location("bench_winsim", ROOT / "bench" / "bench_winsim.py")
    assert spec is not None and spec.loader is not None
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        bench = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench)
    finally:
        sys.path.remove(str(ROOT / "bench"))
    logged = [("win", 0, 0.4), ("win", 12, 0.1), ("win", 3, 0.2), ("simmer", 0, 0.05), ("simmer", 50, 0.25)]
    summary = bench.cpu_per_turn(logged)
    assert set(summary) == {"win", "simmer"}
    assert summary["win"]["turns"] == 3 and summary["win"]["mean"] == pytest.approx(0.7 / 3)
    assert summary["win"]["median"] == pytest.approx(0.2)
    assert summary["win"]["end"] == pytest.approx(0.4) and summary["win"]["before"] == pytest.approx(0.15)
    assert summary["simmer"]["end"] == pytest.approx(0.05) and summary["simmer"]["before"] == pytest.approx(0.25)
    line = bench.cpu_line(summary)
    assert "win CPU/turn mean 233.3 ms median 200.0 ms" in line and "simmer" in line
