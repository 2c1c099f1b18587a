"""The endgame on several threads (lazy SMP on one shared table), its move order (stuck tiles, killers, history):
the answer is the one thread's, held to the exhaustive minimax and to the Python twin; stuck tiles against the
brute-force move oracle."""

from __future__ import annotations

import json

import pytest

import lexigraph
from lexigraph.cli.main import main
from lexigraph.scrabble.endgame import check_threads, first_endgame, solve_endgame, stuck_tiles
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.moves import move_from_record
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.tiles import parse_rack, rack_text
from helpers.moves import every_play

from .test_endgame import GAME, WORDS, _minimax_root, _positions


@pytest.fixture(scope="module")
def abcd(open_lexicon):
    return open_lexicon(WORDS, alphabet=GAME.alphabet)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_values_and_moves_on_threads_equal_exhaustive_minimax(abcd, threads):
    for pos in _positions(abcd, 12, first=40):
        racks = [parse_rack(GAME, pos.racks[0]), parse_rack(GAME, pos.racks[1])]
        value, raw = _minimax_root(abcd, pos, racks, pos.zero_turns)
        solution = solve_endgame(abcd, pos, threads=threads)
        assert solution.complete and solution.value == value, pos.to_cgp()
        expected = None if raw is None else move_from_record(pos, racks[0], raw).notation
        assert (solution.best.notation if solution.best else None) == expected, pos.to_cgp()


def test_threads_name_the_twins_value_and_move(abcd, open_python):
    twin = open_python(WORDS, alphabet=GAME.alphabet)
    for pos in _positions(abcd, 8, first=300, unseen=6):
        reference = solve_endgame(twin, pos)
        for threads in (1, 2, 3):
            got = solve_endgame(abcd, pos, threads=threads, table_megabytes=1)
            assert (got.value, got.complete, got.best) == (reference.value, reference.complete, reference.best), (
                pos.to_cgp(), threads)


def _brute_stuck(lex, pos: Position, rack: str) -> str:
    """The rack's tiles that no play of the brute-force oracle puts down (a blank by its flag)."""
    game = pos.game
    used = {0 if blank else code for placement in every_play(lex, pos, rack) for _r, _c, code, blank in placement}
    return rack_text(game, [c for c in parse_rack(game, rack) if c not in used])


def test_stuck_tiles_equal_the_brute_force_oracle(abcd):
    seen_stuck = 0
    for pos in _positions(abcd, 20, first=500, unseen=5):
        mine, theirs = stuck_tiles(abcd, pos)
        assert mine == _brute_stuck(abcd, pos, pos.racks[0]), pos.to_cgp()
        assert theirs == _brute_stuck(abcd, pos, pos.racks[1]), pos.to_cgp()
        seen_stuck += bool(mine or theirs)
    assert seen_stuck > 0  # the positions include stuck tiles: the oracle is put to the test


def test_a_rack_no_play_uses_is_all_stuck(open_lexicon):
    game = Game.from_dict({"name": "tiny", "board": ["....."] * 5, "rack_size": 3, "blanks": 0,
                           "tiles": {"a": [2, 1], "c": [1, 3], "s": [1, 1], "t": [1, 1], "z": [1, 10]}})
    no_za = open_lexicon(["cat", "cats", "scat", "at", "as", "ta", "zzz"], alphabet=game.alphabet)
    assert stuck_tiles(no_za, Position.from_cgp("5/5/1CAT1/5/5 ZA/S 0/0 0", game)) == ("Z", "")
    assert stuck_tiles(no_za, Position.from_cgp("5/5/1CAT1/5/5 S/ZA 0/0 0", game)) == ("", "Z")
    with_za = open_lexicon(["cat", "cats", "scat", "at", "as", "ta", "za", "zas"], alphabet=game.alphabet)
    assert stuck_tiles(with_za, Position.from_cgp("5/5/1CAT1/5/5 ZA/S 0/0 0", game)) == ("", "")


@pytest.mark.parametrize("threads", [0, -1, 65, True, 1.5, "2"])
def test_bad_thread_counts_are_one_clear_error(threads):
    with pytest.raises(GameError, match="threads must be a whole number from 1 to 64"):
        check_threads(threads)


def test_the_command_takes_threads_and_refuses_bad_ones(capsys):
    lex = lexigraph.open()
    from lexigraph.scrabble.selfplay import Player, autoplay

    run = autoplay(lex, Game.preset("scrabble"), [Player.score("a"), Player.score("b")], games=4, workers=1,
                   keep_games=True, seed=3)
    pos = next((p for k in range(4) if (p := first_endgame(run, k, most_tiles=5)) is not None), None)
    if pos is None:
        pytest.skip("no short endgame in these games")
    answers = []
    for threads in ("1", "2"):
        assert main(["endgame", pos.to_cgp(), "--threads", threads, "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        body = doc.get("result", doc)
        answers.append((body["value"], body["best"], body["complete"]))
    assert answers[0] == answers[1]
    assert main(["endgame", pos.to_cgp(), "--threads", "0"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "--threads" in err, err


def test_the_server_takes_threads_and_refuses_bad_ones():
    pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
    from starlette.testclient import TestClient

    from lexigraph.commands.endgame import EXAMPLE
    from lexigraph.server import create_app

    with TestClient(create_app()) as c:
        one = c.post("/api/endgame", json={"position": EXAMPLE, "threads": 1})
        two = c.post("/api/endgame", json={"position": EXAMPLE, "threads": 2})
        assert one.status_code == two.status_code == 200, (one.text, two.text)
        pick = lambda r: (r.json()["value"], r.json()["best"], r.json()["complete"])  # noqa: E731
        assert pick(one) == pick(two)
        bad = c.post("/api/endgame", json={"position": EXAMPLE, "threads": 65})
        assert bad.status_code == 400 and "threads" in bad.text, bad.text
