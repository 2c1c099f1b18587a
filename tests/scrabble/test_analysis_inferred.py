"""Game analysis with ``infer=True`` (``analyze --infer``): each simulated turn equals a simulation run by hand that
deals the opponent's racks from the inference of their move before it (both engines); turns with no opponent's
move just before them are simulated as without; ``infer=False`` changes nothing; bad settings refused."""

from __future__ import annotations

import json

import numpy as np
import pytest

import lexigraph
from lexigraph.cli.main import main
from lexigraph.scrabble.analysis import analyze_game
from lexigraph.scrabble.game import GameError
from lexigraph.scrabble.gcg import read_gcg
from lexigraph.scrabble.inference import infer
from lexigraph.scrabble.movegen import generate
from lexigraph.scrabble.selfplay import Player, autoplay
from lexigraph.scrabble.simulation import simulate
from lexigraph.scrabble.tiles import parse_rack
from lexigraph.scrabble.winpct import WinTable, win_counts
from helpers.games import ABCD_WORDS as SMALL_WORDS, abcd_game as small_game


def small_table(game) -> WinTable:
    rng = np.random.default_rng(3)
    rows = sum(game.counts_by_code()) - game.rack_size
    n = 3000
    s, u, f = rng.integers(-60, 60, n), rng.integers(1, rows + 1, n), rng.integers(-80, 80, n)
    return WinTable.from_counts(*win_counts(s, u, f, rows, 100), max_spread=100)


def opponent_move_text(event, game) -> str:
    """The move of a GCG event as inference reads it: a play's notation, ``-N`` for an exchange, ``-`` a pass."""
    if event.kind == "play":
        return f"{event.position} {event.play}"
    if event.kind == "exchange":
        return "-" + (event.play if event.play.isdigit() else str(len(parse_rack(game, event.play))))
    return "-"


def test_inferred_turns_equal_a_simulation_by_hand(open_lexicon):
    game = small_game()
    lex = open_lexicon(SMALL_WORDS, alphabet=game.alphabet)
    table = small_table(game)
    run = autoplay(lex, game, [Player.equity(None, "a"), Player.score("b")], games=1, seed=9, workers=1,
                   keep_games=True)
    record = read_gcg(run.gcg(0), game)
    turns = analyze_game(lex, record, top=1, win_table=table, leaves=None, iterations=16, candidates=3, seed=5,
                         infer=True, infer_margin=4.0)
    simulated = [t for t in turns if t["method"] == "simulation"]
    checked = 0
    for t in simulated:
        k = t["turn"] - 1
        previous = record.events[k - 1] if k >= 1 else None
        if previous is None or previous.player == record.events[k].player:
            assert "inferred" not in t
            continue
        before = record.replay(k - 1)
        before.racks = ["", t["rack"]]
        inference = infer(lex, before, opponent_move_text(previous, game), margin=4.0, leaves=None)
        assert t["inferred"] == {"move": inference.observed.notation, "consistent": inference.consistent,
                                 "exact": inference.exact}
        pos = record.replay(k)
        best = list(generate(lex, pos, t["rack"], top=3, exchanges=True, passes=True, leaves=None, sort="equity",
                             count_all=False))
        made = [m for m in best if m.notation == t["play"]]
        moves = best if made else best + [m for m in generate(lex, pos, t["rack"], top=None, exchanges=True,
                                                               passes=True, leaves=None, sort="equity")
                                          if m.notation == t["play"]][:1]
        result = simulate(lex, pos, leaves=None, moves=moves, candidates=len(moves), iterations=16, seed=5 + k,
                          win_table=table, infer=inference)
        by_notation = {p.move.notation: p for p in result.ranked}
        assert t["win_after"] == pytest.approx(by_notation[t["play"]].win_rate, abs=1e-6)
        assert t["best_move"] == result.ranked[0].move.notation
        assert [a["win"] for a in t["alternatives"]] == [round(p.win_rate, 6) for p in result.ranked]
        checked += 1
    assert checked >= 3


def test_without_infer_nothing_changes():
    game = small_game()
    lex = lexigraph.load(SMALL_WORDS, alphabet=game.alphabet)
    table = small_table(game)
    run = autoplay(lex, game, [Player.equity(None, "a"), Player.score("b")], games=1, seed=4, workers=1,
                   keep_games=True)
    record = read_gcg(run.gcg(0), game)
    kwargs = dict(top=1, win_table=table, leaves=None, iterations=16, candidates=3, seed=2)
    plain = analyze_game(lex, record, **kwargs)
    assert analyze_game(lex, record, infer=False, **kwargs) == plain
    assert not any("inferred" in t for t in plain)
    inferred = analyze_game(lex, record, infer=True, **kwargs)
    assert any("inferred" in t for t in inferred)
    # a static analysis has no simulation to deal racks in: inference changes nothing
    static = analyze_game(lex, record, top=1, win_table=table, leaves=None)
    assert analyze_game(lex, record, top=1, win_table=table, leaves=None, infer=True) == static


GCG = """#player1 ann Ann
#player2 bob Bob
>ann: AEINRST 8D RETAINS +66 66
>bob: EIOPSXY 9E SOX +39 39
>ann: ABDEGLO 10F GOLBD +30 96
>ann: ABDEGLO -- -30 66
>bob: EIPYAGT -AGT +0 39
>ann: ABDEGLO E5 BOD(E) +16 82
>ann: ABDEGLO (time) -10 72
>bob: EIPYAGU 10F YAUP +20 59
>ann: AEGLOQU - +0 72
>bob: DEIJLMV 11D JIVE +30 94
"""


def test_every_kind_of_event_before_a_turn():
    """After a play, an exchange and a pass, the turn infers from them; after a withdrawn phony or a time penalty,
    nothing; after a phony that stood (not a word of the lexicon), a note and no inference."""
    lex = lexigraph.open()
    turns = analyze_game(lex, read_gcg(GCG), top=1, iterations=4, candidates=2, infer=True)
    by_turn = {t["turn"]: t for t in turns}
    assert by_turn[2]["inferred"]["move"] == "8D RETAINS"
    assert by_turn[3]["inferred"]["move"] == "9E SOX"            # ann's GOLBD, challenged off later
    assert "inferred" not in by_turn[5]                         # after ann's withdrawn phony
    assert by_turn[6]["inferred"]["move"] == "-3"               # after bob's exchange of three
    assert "inferred" not in by_turn[8]                         # after ann's time penalty
    assert "inferred" not in by_turn[9] and "not in the lexicon" in by_turn[9]["inference_note"]  # bob's phony
    assert by_turn[10]["inferred"]["move"] == "-"               # after ann's pass
    for t in turns:
        assert t["method"] == "simulation" and t["win_lost"] is not None


@pytest.mark.parametrize("kwargs, words", [({"infer_margin": -1.0}, "infer_margin"),
                                           ({"infer_margin": float("nan")}, "infer_margin"),
                                           ({"infer": "yes"}, "infer")])
def test_bad_settings_refused(kwargs, words):
    with pytest.raises(GameError, match=words):
        analyze_game(lexigraph.open(), read_gcg(GCG), top=1, iterations=4, **{"infer": True, **kwargs})


def test_on_the_command_line(capsys):
    code = main(["analyze", "sample", "--iterations", "4", "--candidates", "2", "--infer", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["results"][1]["inferred"]["move"] == "8D RETAINS"
    for argv, words in ((["--infer-margin", "-2"], "--infer-margin"), (["--infer-margin", "x"], "--infer-margin")):
        code = main(["analyze", "sample", "--iterations", "4", "--infer", *argv])
        err = capsys.readouterr().err
        assert code == 2 and len(err.strip().splitlines()) == 1 and words in err, err


def test_over_http():
    pytest.importorskip("starlette", reason="the server needs the serve extra")
    pytest.importorskip("httpx", reason="the API tests need httpx")
    import warnings

    with warnings.catch_warnings():  # Starlette >= 1.x suggests httpx2; httpx still drives its test client
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from lexigraph.server import create_app
    from lexigraph.server.app import Limits

    two_turns = "#player1 ann Ann\n#player2 bob Bob\n>ann: AEINRST 8D RETAINS +66 66\n>bob: EIOPSXY 9E SOX +39 39\n"
    with TestClient(create_app([("enable", None)], limits=Limits(timeout=300))) as c:  # the Python engine is slow
        body = {"gcg": two_turns, "iterations": 4, "candidates": 2, "infer": True}
        ok = c.post("/api/analyze", json=body)
        assert ok.status_code == 200 and ok.json()["results"][1]["inferred"]["move"] == "8D RETAINS"
        for bad in ({"infer": "yes"}, {"infer_margin": -1}, {"infer_margin": "x"}):
            refused = c.post("/api/analyze", json={**body, **bad})
            assert refused.status_code == 400, (bad, refused.text)
            assert refused.json()["error"]["message"].count("\n") == 0
