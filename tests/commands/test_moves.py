"""The moves, score and analyze commands (commands/moves.py): documents, hostile input, the command line."""

from __future__ import annotations

import pytest

import lexigraph
from lexigraph.commands import Context, all_commands
from lexigraph.commands.analyze import ANALYZE
from lexigraph.commands.moves import MOVES, SCORE
from lexigraph.scrabble.game import Game, GameError
from lexigraph.scrabble.gcg import read_gcg
from lexigraph.scrabble.movegen import generate
from lexigraph.scrabble.scoring import score_play
from lexigraph.scrabble.position import Position

def test_registry_has_the_commands():
    names = {c.name for c in all_commands()}
    assert {"moves", "score", "analyze"} <= names


def test_moves_command_matches_api(enable):
    doc = MOVES.run(Context(), {"position": "empty", "rack": "AALNST?", "top": 5})
    assert doc["command"] == "moves" and doc["count"] == 5 and doc["total"] > 1000
    best = generate(enable, Position(Game.preset("scrabble")), "AALNST?", top=5)
    assert [r["notation"] for r in doc["results"]] == [m.notation for m in best]
    assert all(r["word"] == r["word"].lower() for r in doc["results"])
    lines = list(MOVES.text(doc))
    assert lines[0].split()[0] == str(best[0].score)
    ex = MOVES.run(Context(), {"position": "empty", "rack": "AB", "top": 0, "exchanges": True, "passes": True,
                               "sort": "score"})  # by score, exchanges come beside the plays, not among them
    assert sorted(r["kind"] for r in ex["results"]) == ["exchange"] * 3 + ["pass"]   # valued by the default table


def test_moves_on_an_empty_board_list_the_down_plays_on_request(enable):
    """Across plays only on an empty board (the down ones are their transposes), both with both_directions."""
    across = MOVES.run(Context(), {"position": "empty", "rack": "AEINRST", "top": 3000})
    both = MOVES.run(Context(), {"position": "empty", "rack": "AEINRST", "top": 3000, "both_directions": True})
    plays = [r for r in both["results"] if r["kind"] == "play"]
    assert both["total"] == 2 * across["total"] == len(plays)
    assert [r for r in both["results"] if not r["notation"][0].isalpha()] == across["results"]


def test_score_command_reasons():
    ok = SCORE.run(Context(), {"position": "empty", "move": "8H ZAX"})
    assert ok["legal"] and ok["score"] == 2 * (10 + 1 + 8) and SCORE.found(ok)
    off = SCORE.run(Context(), {"position": "empty", "move": "8A AX"})
    assert not off["legal"] and off["reason"] == "first move off the centre" and not SCORE.found(off)
    bad = SCORE.run(Context(), {"position": "empty", "move": "8H ZZX"})
    assert bad["reason"] in ("not in lexicon", "not on rack")
    with pytest.raises(GameError):
        SCORE.run(Context(), {"position": "15/15", "move": "8H ZAX"})
    assert SCORE.run(Context(), {"position": "empty", "move": "Z99 ZAX"})["reason"] == "malformed"


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from lexigraph.errors import LexiconError  # noqa: E402

JUNK = st.lists(st.sampled_from(list("ABCQZaz?[]().-/ 0123456789#>:+;\n\tÑ·") + ["[CH]", "15/", "8H ", ">a: "]),
                max_size=30).map("".join)


@settings(max_examples=150)
@given(cgp=JUNK, rack=JUNK, play=JUNK, gcg=JUNK)
def test_hostile_input_is_one_clear_error(enable, cgp, rack, play, gcg):
    game = Game.preset("scrabble")
    from lexigraph.scrabble.position import parse_rack, read_position

    for fn in (lambda: Position.from_cgp(cgp, game), lambda: read_position(cgp, game), lambda: parse_rack(game, rack),
               lambda: read_gcg(gcg).replay(), lambda: score_play(enable, Position(game), play, rack=rack or None),
               lambda: generate(enable, Position(game), rack, top=3),
               lambda: MOVES.run(Context(), {"position": cgp or "empty", "rack": rack, "top": 2}),
               lambda: SCORE.run(Context(), {"position": "empty", "move": play}),
               lambda: ANALYZE.run(Context(), {"gcg": gcg or ">"})):
        try:
            fn()
        except LexiconError as e:
            assert str(e) and "\n" not in str(e)


def test_server_contexts_read_no_files_and_analysis_stops_at_the_deadline(tmp_path, gcg_text):
    import time

    path = tmp_path / "g.gcg"
    path.write_text(gcg_text)
    with pytest.raises(GameError):
        ANALYZE.run(Context(options={"files": False}, opener=lambda spec: lexigraph.open()), {"gcg": str(path)})
    doc = ANALYZE.run(Context(deadline=time.monotonic() - 1), {"gcg": str(path)})
    assert doc["truncated"] and doc["count"] == 0


def test_command_line(capsys, tmp_path):
    import json

    from lexigraph.cli.main import main

    assert main(["moves", "empty", "--rack", "QUIZ", "--top", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["notation"] for r in doc["results"]] == ["8E QUIZ", "8F QUIZ"] and doc["total"] > 2
    assert main(["moves", "empty", "--rack", "QUIZ", "--top", "1"]) == 0
    assert capsys.readouterr().out.split() == ["44", "43.30", "8E", "QUIZ", "leave", "-"]
    assert main(["score", "empty", "8A QUIZ"]) == 1
    assert "first move off the centre" in capsys.readouterr().out
    cgp = tmp_path / "p.cgp"
    cgp.write_text("15/15/15/15/15/15/15/5QUIz6/15/15/15/15/15/15/15 AEINRST/ 44/0 0 lex ENABLE;\n")
    assert main(["moves", str(cgp), "--top", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["results"][0]["score"] == 77
    for argv in (["moves", "15/15", "--rack", "A"], ["moves", "empty", "--rack", "QQ"],
                 ["analyze", str(tmp_path / "missing.gcg")], ["moves", "empty", "--rack", "A", "--game", "nope"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, (argv, err)


def test_exchanges_need_a_full_rack_in_the_bag(enable):
    game = Game.preset("scrabble")
    pos = Position(game)
    assert sum(m.kind == "exchange" for m in generate(enable, pos, "AB", top=0, exchanges=True, sort="score")) == 3
    # Fill the board so that fewer than 7 tiles stay in the bag after both racks.
    full = Position(game)
    counts = game.counts_by_code()
    bag = [c for c, k in enumerate(counts) if c for _ in range(k)]
    for i, c in enumerate(bag[:90]):
        full.codes[i] = c
    assert len(full.unseen("??")) - 7 < 7
    assert not [m for m in generate(enable, full, "??", top=0, exchanges=True, sort="score") if m.kind == "exchange"]


def test_analyze_command(tmp_path, gcg_text):
    path = tmp_path / "g.gcg"
    path.write_text(gcg_text)
    doc = ANALYZE.run(Context(), {"gcg": str(path), "top": 1})
    assert doc["count"] == 5 and len(list(ANALYZE.text(doc))) == 5 + 2  # a line per turn, one per player
    doc = ANALYZE.run(Context(), {"gcg": "sample", "top": 1, "sort": "score"})
    assert doc["players"] == ["ann", "bob"] and doc["count"] == 4 and doc["results"][0]["equals_best"]


def test_moves_and_analyze_with_a_leave_table(tmp_path, gcg_text, capsys):
    """--leaves (a CSV or a KLV2 file) ranks by equity, --sort chooses; the documents validate against their
    schemas; a game file's own table is the default (a server takes no game file, so it reads no table)."""
    import json
    from pathlib import Path

    jsonschema = pytest.importorskip("jsonschema")
    import referencing

    from lexigraph.cli.main import main
    from lexigraph.scrabble.leaves import LeaveTable

    table = LeaveTable.from_csv("S,8.0\nQ,-7.0\nI,-2.0\n")
    (tmp_path / "t.csv").write_text(table.to_csv())
    (tmp_path / "t.klv2").write_bytes(table.to_klv2())
    schemas = Path(__file__).resolve().parents[2] / "docs" / "schema"
    registry = referencing.Registry().with_resources(
        (s["$id"], referencing.Resource.from_contents(s)) for s in
        (json.loads(p.read_text()) for p in schemas.glob("*.json")))

    def valid(doc, name):
        jsonschema.Draft202012Validator(json.loads((schemas / f"{name}.json").read_text()),
                                        registry=registry).validate(doc)
        return doc

    for name in ("t.csv", "t.klv2"):
        doc = valid(MOVES.run(Context(), {"position": "empty", "rack": "QUIZS", "top": 3,
                                          "leaves": str(tmp_path / name)}), "moves")
        assert doc["sort"] == "equity" and doc["leaves"] == name
        assert [r["equity"] for r in doc["results"]] == sorted((r["equity"] for r in doc["results"]), reverse=True)
        assert doc["results"][0]["leave"] == "S" and doc["results"][0]["leave_value"] == pytest.approx(8.0 - 0.7)
    by_score = MOVES.run(Context(), {"position": "empty", "rack": "QUIZS", "top": 3, "leaves": str(tmp_path / "t.csv"),
                                     "sort": "score"})
    scores = [r["score"] for r in by_score["results"]]
    assert by_score["sort"] == "score" and scores == sorted(scores, reverse=True) and scores[0] == 44
    game = tmp_path / "game.toml"
    base = "\n".join(line for line in (Path(lexigraph.__file__).parent / "games" / "scrabble.toml").read_text()
                     .splitlines() if not line.startswith("leaves"))
    game.write_text(base.replace('name = "scrabble"', 'name = "house"\nleaves = "t.csv"'))
    doc = MOVES.run(Context(), {"position": "empty", "rack": "QUIZS", "top": 1, "game": str(game)})
    assert doc["sort"] == "equity" and doc["results"][0]["equity"] == pytest.approx(44 - 0.7 + 8.0)
    with pytest.raises(lexigraph.LexiconError):  # a server takes game presets only: no table file read there
        MOVES.run(Context(options={"files": False}), {"position": "empty", "rack": "QUIZS",
                                                      "game": game.read_text()})
    (tmp_path / "g.gcg").write_text(gcg_text)
    doc = valid(ANALYZE.run(Context(), {"gcg": str(tmp_path / "g.gcg"), "top": 2,
                                        "leaves": str(tmp_path / "t.klv2")}), "analyze")
    assert doc["sort"] == "equity"
    for turn in doc["results"]:
        if turn["best"]:
            assert turn["best_equity"] == pytest.approx(turn["best"][0]["equity"], abs=1e-4)
            if turn["equity"] is not None:
                assert turn["equals_best"] == (turn["equity"] >= turn["best_equity"] - 1e-4)
    assert main(["moves", "empty", "--rack", "QUIZS", "--leaves", str(tmp_path / "t.csv"), "--top", "1"]) == 0
    assert capsys.readouterr().out.split() == ["44", "51.30", "8E", "QUIZ", "leave", "S"]
    assert main(["moves", "empty", "--rack", "QUIZS", "--leaves", str(tmp_path / "missing.klv2")]) == 2
    assert "no such leave table" in capsys.readouterr().err


def test_the_document_names_the_leave_table_that_ranked(tmp_path):
    """``leaves`` names the table that valued the leaves: the game's own when none is given (the page says so),
    the one given otherwise, none when neither; the equities are those of the table named."""
    import base64
    from importlib import resources
    from pathlib import Path

    from lexigraph.scrabble.leaves import LeaveTable

    shipped = Path(str(resources.files("lexigraph").joinpath("data"))) / "english-leaves.klv2"
    own = LeaveTable.read(str(shipped))
    for ctx in (Context(), Context(options={"files": False})):   # the command line and the server alike
        doc = MOVES.run(ctx, {"position": "empty", "rack": "QUIZS", "top": 3})
        assert doc["sort"] == "equity" and doc["leaves"] == "english-leaves.klv2"
        named = MOVES.run(ctx, {"position": "empty", "rack": "QUIZS", "top": 3,
                                "leaves": "base64:" + base64.b64encode(own.to_klv2()).decode()})
        assert named["leaves"] == "leave table"
        assert [r["equity"] for r in doc["results"]] == [r["equity"] for r in named["results"]]
    by_score = MOVES.run(Context(), {"position": "empty", "rack": "QUIZS", "top": 3, "sort": "score"})
    assert by_score["sort"] == "score" and by_score["leaves"] == "english-leaves.klv2"   # equity still valued by it
    game = tmp_path / "plain.toml"
    game.write_text("\n".join(line for line in (Path(lexigraph.__file__).parent / "games" / "scrabble.toml")
                              .read_text().splitlines() if not line.startswith("leaves")))
    bare = MOVES.run(Context(), {"position": "empty", "rack": "QUIZS", "top": 3, "game": str(game)})
    assert "leaves" not in bare and bare["sort"] == "score"
