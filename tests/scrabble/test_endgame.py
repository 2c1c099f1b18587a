"""The endgame solver against an exhaustive minimax, on both engines; its rules, limits and errors; wolges."""

from __future__ import annotations

import os
import random
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

import lexigraph
from lexigraph.cli.main import main
from lexigraph.scrabble.endgame import (
    ZERO_TURNS_TO_END, EndgameSolution, first_endgame, solve_endgame, table_entries,
)
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.movegen import generate_placements
from lexigraph.scrabble.moves import move_from_record
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.tiles import parse_rack, rack_text
from helpers.games import abcd_game, random_plays

WORDS = ["ab", "ba", "ad", "da", "aa", "bad", "dab", "cab", "abc", "acad", "bach", "cadd", "dada", "aba", "bab",
         "bacd", "abcd", "bb", "cc", "dd", "abcab", "cad", "dac", "caca", "dacb"]
WORDS = sorted({w for w in WORDS if set(w) <= set("abcd")})
PEERS = Path(os.environ.get("LEXIGRAPH_PEERS", Path.home() / ".cache" / "lexigraph-peers"))
WOLGES = PEERS / "wolges" / "target" / "release" / "endgame"
WOLGES_KWG = PEERS / "data" / "TWL06.kwg"


def small_game(size: int = 7, count: int = 3, blanks: int = 1, rack_size: int = 3) -> Game:
    return abcd_game(size, count, blanks, rack_size)


GAME = small_game()


def random_endgame(lex: lexigraph.Lexicon, seed: int, game: Game = GAME, unseen: int = 4) -> Position | None:
    """A seeded endgame: random plays from random racks until at most ``unseen`` tiles are unseen, those split
    between the two racks (each 1..rack_size tiles)."""
    rng = random.Random(seed)
    played = random_plays(lex, game, rng, unseen)
    if played is None:
        return None
    pos, bag = played
    if len(bag) < 2:
        return None
    k = rng.randint(max(1, len(bag) - game.rack_size), min(game.rack_size, len(bag) - 1))
    pos.racks = [rack_text(game, bag[:k]), rack_text(game, bag[k:])]
    pos.zero_turns = rng.choice([0, 0, 0, 3, 5])
    return pos


# -- the oracle: plain minimax over every sequence of plays and passes ------------------------------------------


def _order(raw: tuple | None) -> tuple:
    """The solvers' tie-break: score descending, across first, row, column, length, squares; the pass last."""
    if raw is None:
        return (1,)
    score, row, col, across, squares = raw
    return (0, -score, -across, row, col, len(squares), squares)


def minimax(lex: lexigraph.Lexicon, pos: Position, racks: list[list[int]], zeros: int) -> int:
    """The value for the side to move (racks[0]): no pruning, no table."""
    return _minimax_root(lex, pos, racks, zeros)[0]


def _minimax_root(lex, pos, racks, zeros):
    game = pos.game
    mine, theirs = racks
    points = game.points_by_code()
    pts = lambda rack: sum(points[c] for c in rack if c)  # noqa: E731
    if zeros + 1 >= ZERO_TURNS_TO_END:
        best = (pts(theirs) - pts(mine), None)
    else:
        best = (-_minimax_root(lex, pos, [theirs, mine], zeros + 1)[0], None)
    for raw in _placements(lex, pos, tuple(mine)):
        score, _row, _col, _across, squares = raw
        left = Counter(mine)
        left.subtract(0 if b & 0x80 else b for b in squares if b)
        rest = sorted(left.elements())
        if not rest:
            value = score + 2 * pts(theirs)
        else:
            after = pos.with_play(move_from_record(pos, mine, raw))
            value = score - _minimax_root(lex, after, [theirs, rest], 0)[0]
        if value > best[0] or (value == best[0] and _order(raw) < _order(best[1])):
            best = (value, raw)
    return best


_PLACEMENTS: dict = {}


def _placements(lex, pos, rack):
    """generate_placements, remembered per lexicon, board and rack: the oracle's positions repeat (passes)."""
    key = (id(lex), tuple(pos.codes), tuple(pos.blanks), rack)
    if key not in _PLACEMENTS:
        if len(_PLACEMENTS) > 200_000:
            _PLACEMENTS.clear()
        _PLACEMENTS[key] = generate_placements(lex, pos, rack_text(pos.game, list(rack)))
    return _PLACEMENTS[key]


@pytest.fixture(scope="module")
def abcd(open_lexicon):
    return open_lexicon(WORDS, alphabet=GAME.alphabet)


def _positions(lex, count, first=0, unseen=4):
    out = []
    seed = first
    while len(out) < count:
        pos = random_endgame(lex, seed, unseen=unseen)
        seed += 1
        if pos is not None:
            out.append(pos)
    return out


def test_value_and_best_move_equal_exhaustive_minimax(abcd):
    for pos in _positions(abcd, 25):
        racks = [parse_rack(GAME, pos.racks[0]), parse_rack(GAME, pos.racks[1])]
        value, raw = _minimax_root(abcd, pos, racks, pos.zero_turns)
        solution = solve_endgame(abcd, pos)
        assert solution.complete, pos.to_cgp()
        assert solution.value == value, pos.to_cgp()
        if raw is None:
            assert solution.best is None, pos.to_cgp()
        else:
            assert solution.best is not None and solution.best.notation == move_from_record(
                pos, racks[0], raw).notation, pos.to_cgp()


def _played_out(pos: Position, pv: list) -> int:
    """The spread the PV makes from the side to move's view, the end's rack points included."""
    game = pos.game
    points = game.points_by_code()
    racks = [Counter(parse_rack(game, pos.racks[0])), Counter(parse_rack(game, pos.racks[1]))]
    pts = lambda rack: sum(points[c] * n for c, n in rack.items() if c)  # noqa: E731
    spread, side, zeros = 0, 0, pos.zero_turns
    for move in pv:
        sign = 1 if side == 0 else -1
        if move is None:
            zeros += 1
            if zeros >= ZERO_TURNS_TO_END:
                return spread - sign * pts(racks[side]) + sign * pts(racks[1 - side])
        else:
            zeros = 0
            spread += sign * move.score
            racks[side].subtract(0 if t.blank else game.alphabet.code(t.tile) for t in move.tiles)
            if not +racks[side]:
                return spread + sign * 2 * pts(racks[1 - side])
        side = 1 - side
    raise AssertionError("the principal variation does not reach the end of the game")


def test_the_principal_variation_plays_out_to_the_value(abcd):
    for pos in _positions(abcd, 10, first=100, unseen=6):
        solution = solve_endgame(abcd, pos)
        assert solution.pv and solution.pv[0] == solution.best
        assert _played_out(pos, solution.pv) == solution.value, pos.to_cgp()


@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
def test_c_and_python_name_the_same_value_and_move(engine_kind, abcd, open_python):
    twin = open_python(WORDS, alphabet=GAME.alphabet)
    for pos in _positions(abcd, 10, first=200, unseen=6):
        a, b = solve_endgame(abcd, pos), solve_endgame(twin, pos)
        assert (a.value, a.complete, a.best) == (b.value, b.complete, b.best), pos.to_cgp()


@pytest.mark.parametrize("zero_turns", [0, 2, 5])
def test_six_turns_without_a_play_end_the_game(open_lexicon, zero_turns):
    # Neither C nor D makes a word: the sides pass until the sixth turn without a play, each losing its rack.
    game = small_game(count=1, blanks=0)
    lex = open_lexicon(["ab"], alphabet=game.alphabet)
    pos = Position.from_text(".......\n.......\n.......\n...AB..\n.......\n.......\n.......", game)
    pos.racks, pos.zero_turns = ["C", "D"], zero_turns
    solution = solve_endgame(lex, pos)
    assert solution.complete and solution.value == 2 - 4
    assert solution.pv == [None] * (ZERO_TURNS_TO_END - zero_turns) and solution.best is None


def test_passes_count_toward_the_end(abcd):
    # From five turns without a play, a pass ends the game: the value of passing is known exactly.
    for pos in _positions(abcd, 8, first=300):
        pos.zero_turns = 5
        racks = [parse_rack(GAME, pos.racks[0]), parse_rack(GAME, pos.racks[1])]
        assert solve_endgame(abcd, pos).value == minimax(abcd, pos, racks, 5)


def test_a_time_limit_answers_the_best_so_far_and_says_so(abcd):
    import time as time_module

    for pos in _positions(abcd, 6, first=400, unseen=6):
        exact = solve_endgame(abcd, pos)
        # A deadline already past: the first iteration still finishes (a move to answer), nothing more.
        solution = solve_endgame(abcd, pos, deadline=time_module.monotonic() - 1)
        assert solution.depth == 1 and solution.pv == [solution.best]
        assert solution.complete == (exact.depth == 1)
        if not solution.complete:
            assert solution.as_dict()["complete"] is False


def test_as_dict_is_the_documented_document(abcd):
    pos = _positions(abcd, 1, first=500)[0]
    doc = solve_endgame(abcd, pos, table_megabytes=1).as_dict()
    assert set(doc) == {"value", "complete", "best", "pv", "depth", "nodes", "seconds", "table_megabytes"}
    assert doc["table_megabytes"] == 1 and doc["pv"][0] == doc["best"]
    for move in doc["pv"]:
        assert move == {"kind": "pass"} or move["kind"] == "play" and "notation" in move


def test_table_entries_are_a_power_of_two_within_the_size():
    for mb in (1, 3, 64, 4096):
        entries = table_entries(mb)
        assert entries & (entries - 1) == 0 and entries * 16 <= mb << 20 < entries * 32


@pytest.mark.parametrize("racks, needle", [
    (("AB", "A"), "is not the unseen tiles"),
    (("", "AB"), "no tiles"),
    (("ZZ", "A"), "not in"),
])
def test_racks_that_do_not_match_the_unseen_tiles_are_refused(abcd, racks, needle):
    pos = _positions(abcd, 1, first=600)[0]
    pos.racks = list(racks)
    with pytest.raises(GameError):
        solve_endgame(abcd, pos)


def test_a_full_bag_and_bad_limits_are_one_clear_error(abcd):
    full = Position(GAME, racks=["AB", "CD"])
    with pytest.raises(GameError, match="the bag is not empty"):
        solve_endgame(abcd, full)
    pos = _positions(abcd, 1, first=700)[0]
    for limit in (0, -1, float("nan"), float("inf"), 1e12, "10", True):
        with pytest.raises(GameError, match="time limit"):
            solve_endgame(abcd, pos, time_limit=limit)  # type: ignore[arg-type]
    for mb in (0, -3, 4097, 1.5, None):
        with pytest.raises(GameError, match="table size"):
            solve_endgame(abcd, pos, table_megabytes=mb)  # type: ignore[arg-type]
    over = pos.copy()
    over.zero_turns = 6
    with pytest.raises(GameError, match="the game is over"):
        solve_endgame(abcd, over)
    with pytest.raises(GameError, match="a Position"):
        solve_endgame(abcd, pos.to_cgp())  # type: ignore[arg-type]


# -- the command ------------------------------------------------------------------------------------------------


@pytest.fixture
def enable_endgame():
    """An endgame of the standard game on ENDGAME's board: a real board from self-play."""
    from lexigraph.scrabble.selfplay import Player, autoplay

    lex = lexigraph.open()
    run = autoplay(lex, Game.preset("scrabble"), [Player.score("a"), Player.score("b")], games=4, workers=1,
                   keep_games=True, seed=3)
    for k in range(4):
        pos = first_endgame(run, k, most_tiles=5)
        if pos is not None:
            return pos
    pytest.skip("no short endgame in these games")


def test_the_command_answers_json_and_text(enable_endgame, capsys):
    cgp = enable_endgame.to_cgp()
    assert main(["endgame", cgp, "--json"]) == 0
    import json

    doc = json.loads(capsys.readouterr().out)
    body = doc.get("result", doc)
    assert body["command"] == "endgame" and body["complete"] is True
    assert isinstance(body["value"], int) and body["pv"][0] == body["best"]
    assert main(["endgame", cgp]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"value {body['value']:+d}  (complete)")
    assert "nodes" in text and "depth" in text


@pytest.mark.parametrize("argv, needle", [
    (["endgame", "empty"], "no tiles"),
    (["endgame", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB/CD 0/0 0"], "the bag is not empty"),
    (["endgame", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB/CD 0/0 0", "--time-limit", "-1"],
     "--time-limit must be from 0 to 86400, not -1"),
    (["endgame", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB/CD 0/0 0", "--time-limit", "0"], "time limit"),
    (["endgame", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB/CD 0/0 0", "--table-mb", "100000"],
     "--table-mb must be from 1 to 4096"),
])
def test_the_command_gives_one_clear_error(capsys, argv, needle):
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1 and needle in err, err


# -- wolges -----------------------------------------------------------------------------------------------------


def test_values_agree_with_wolges_on_self_play_endgames(twl):
    if not (WOLGES.exists() and WOLGES_KWG.exists()):
        pytest.skip(f"wolges's endgame is not built ({WOLGES})")
    from lexigraph.scrabble.selfplay import Player, autoplay

    run = autoplay(twl, Game.preset("scrabble"), [Player.equity(None, "a"), Player.equity(None, "b")], games=8,
                   workers=1, keep_games=True, seed=11)
    seen = set()
    compared = 0
    for k in range(len(run.games)):
        pos = first_endgame(run, k, most_tiles=7)
        if pos is None or pos.to_cgp() in seen:
            continue
        seen.add(pos.to_cgp())
        board, racks = pos.to_cgp().split()[:2]
        out = subprocess.run([str(WOLGES), "english", str(WOLGES_KWG), board, racks.split("/")[0]],
                             capture_output=True, text=True, timeout=120).stdout
        found = re.search(r"future (-?[0-9.]+)\)", out)
        assert found, out
        assert solve_endgame(twl, pos).value == round(float(found.group(1))), pos.to_cgp()
        compared += 1
        if compared == 3:
            break
    assert compared > 0
