"""The analyze command over a folder of games (commands/analyze.py): every game's turns, the same on one worker
and two, a game that cannot be read reported beside the others, and the command line's table."""

from __future__ import annotations

from lexigraph.commands import Context
from lexigraph.commands.analyze import ANALYZE

GAME = """#player1 ann Ann
#player2 bob Bob
>ann: AEINRST 8D RETAINS +66 66
>bob: EIOPSXY 9E SOX +39 39
"""


def test_a_folder_of_games_on_one_worker_and_two(tmp_path):
    (tmp_path / "a.gcg").write_text(GAME)
    (tmp_path / "b.gcg").write_text(GAME.replace("9E SOX +39", "9F OX +36").replace("39 39", "36 36"))
    (tmp_path / "c.gcg").write_text(">a: AB 8H AB +x 4\n")
    (tmp_path / "notes.txt").write_text("not a game")
    one = ANALYZE.run(Context(), {"gcg": str(tmp_path), "top": 1, "workers": 1})
    two = ANALYZE.run(Context(), {"gcg": str(tmp_path), "top": 1, "workers": 2})
    assert [g["file"] for g in one["games"]] == ["a.gcg", "b.gcg", "c.gcg"]
    assert one["games"] == two["games"] and one["results"] == two["results"]
    assert [r["game"] for r in one["results"]] == ["a.gcg", "a.gcg", "b.gcg", "b.gcg"]
    assert "error" in one["games"][2] and any("c.gcg" in w for w in one["warnings"])
    # b's second turn is the engine's best by equity: it loses nothing
    assert one["games"][1]["results"][1]["win_lost"] <= one["games"][0]["results"][1]["win_lost"]
    lines = list(ANALYZE.text(one))
    assert lines[0] == "a.gcg:" and any(line.startswith("c.gcg: ") for line in lines)
