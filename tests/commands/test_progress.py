"""Long jobs report progress (commands.Progress): every report a fake progress callable receives, job by job.

Within a stage the counts never go down and stay within the total; the totals are the job's own (games asked
for, play-outs played, the fill's time limit, the source's lines); ``leaves build`` hands over each generation's
line before the next generation reports anything. Self-play, leave learning and the simulation on both engines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

import lexigraph
from lexigraph.commands import Context
from lexigraph.commands.files import COMMANDS as FILE_COMMANDS
from lexigraph.commands.fill import FILL
from lexigraph.commands.selfplay import AUTOPLAY, LEAVES
from lexigraph.commands.sim import SIM
from lexigraph.scrabble.leavegen import build_leaves
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.selfplay import Player, autoplay
from lexigraph.scrabble.simulation import simulate
from helpers.games import ABCD_WORDS, abcd_game

BUILD = next(c for c in FILE_COMMANDS if c.name == "build")
EXPORT = next(c for c in FILE_COMMANDS if c.name == "export")


@dataclass(frozen=True)
class Report:
    stage: str
    done: int
    total: int
    unit: str = ""
    detail: str = ""
    note: str = ""


class Recorder:
    """A progress callable that keeps every report."""

    def __init__(self) -> None:
        self.reports: list[Report] = []

    def __call__(self, stage: str, done: int, total: int, **extras: str) -> None:
        self.reports.append(Report(stage, done, total, **extras))

    def stages(self) -> list[str]:
        """The stages in the order they first reported."""
        return list(dict.fromkeys(r.stage for r in self.reports))

    def of(self, stage: str) -> list[Report]:
        return [r for r in self.reports if r.stage == stage]

    def check_counts(self) -> None:
        """Within each stage: counts never go down, and stay within a known total."""
        for stage in self.stages():
            counts = [r.done for r in self.of(stage)]
            assert counts == sorted(counts), (stage, counts)
            assert all(r.done >= 0 and (r.total == 0 or r.done <= r.total) for r in self.of(stage)), stage


def context(recorder: Recorder, lex: Any = None) -> Context:
    if lex is None:
        return Context(progress=recorder)
    return Context(progress=recorder, opener=lambda spec: lex)


# -- self-play ----------------------------------------------------------------------------------------


def test_autoplay_reports_games_up_to_the_games_asked_for(open_lexicon):
    game = abcd_game()
    lex = open_lexicon(ABCD_WORDS, alphabet=game.alphabet)
    players = [Player.equity(None, "a"), Player.score("b")]
    for games, batch, workers in ((12, 4, 1), (10, 4, 2), (7, 200, 1)):
        seen: list[int] = []
        autoplay(lex, game, players, games=games, seed=1, workers=workers, batch=batch, progress=seen.append)
        # each batch once, in order: their sizes add up to the games asked for
        assert sum(seen) == games and all(0 < n <= max(batch, 2) for n in seen), (games, seen)


def test_the_autoplay_command_reports_games_done_of_the_games_asked_for(enable_on):
    recorder = Recorder()
    doc = AUTOPLAY.run(context(recorder, enable_on), {"games": 2, "seed": 3, "workers": 1,
                                                      "player_a": "equity:none"})
    recorder.check_counts()
    assert doc["totals"]["games"] == 2
    assert recorder.stages() == ["autoplay"]
    assert {(r.total, r.unit) for r in recorder.reports} == {(2, "games")}
    assert recorder.reports[-1].done == 2


# -- leave learning -----------------------------------------------------------------------------------


def test_build_leaves_ends_each_generation_before_the_next_reports(open_lexicon):
    game = abcd_game()
    lex = open_lexicon(ABCD_WORDS, alphabet=game.alphabet)
    events: list[tuple[str, int, int]] = []

    def progress(k: int, games: int, of: int) -> Any:
        assert of == 3
        return lambda count: events.append(("games", k, count))

    def finished(k: int, so_far: Any) -> None:
        assert len(so_far.games) == len(so_far.samples) == len(so_far.seconds) == k + 1
        events.append(("finished", k, so_far.games[k]))

    result = build_leaves(lex, game, generations=[6, 4, 8], seed=2, workers=1, batch=2, progress=progress,
                          finished=finished)
    ends = [i for i, e in enumerate(events) if e[0] == "finished"]
    assert [events[i][1] for i in ends] == [0, 1, 2]
    for k, end in enumerate(ends):
        before = [e for e in events[:end] if e[0] == "games" and e[1] == k]
        after = [e for e in events[end:] if e[0] == "games" and e[1] == k]
        assert sum(e[2] for e in before) == result.games[k] and not after  # every game of k reported, before
    assert [e[1] for e in events if e[0] == "games"] == sorted(e[1] for e in events if e[0] == "games")


def test_the_leaves_command_hands_over_each_generation_line_before_the_next_generation(tmp_path):
    recorder = Recorder()
    out = tmp_path / "t.klv2"
    doc = LEAVES.run(context(recorder), {"action": "build", "output": str(out), "generations": "2,4,2", "seed": 1,
                                          "workers": 1, "max_length": 2})
    recorder.check_counts()
    stages = [f"generation {k} of 3" for k in (1, 2, 3)]
    assert recorder.stages() == stages
    notes = [(i, r) for i, r in enumerate(recorder.reports) if r.note]
    assert [r.stage for _, r in notes] == stages
    for (i, note), games, nxt in zip(notes, (2, 4, 2), stages[1:] + [None]):
        assert note.done == note.total == games and note.unit == "games"
        assert {(r.total, r.unit) for r in recorder.of(note.stage)} == {(games, "games")}
        # the stage's last report, and nothing of the next generation before it
        assert all(r.stage != nxt for r in recorder.reports[:i]) and recorder.of(note.stage)[-1] == note
    assert [r.note for _, r in notes] == list(LEAVES.text(doc))[:3]


# -- simulation ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rack, workers", [("abcd", 1), ("abbd", 1), ("abbd", 2)])
def test_simulate_reports_play_outs_and_ends_at_the_play_outs_played(open_lexicon, rack, workers):
    game = abcd_game()
    lex = open_lexicon(ABCD_WORDS, alphabet=game.alphabet)
    seen: list[tuple[int, int]] = []
    # the simmer rule drops candidates within these iterations (best-arm identification is more careful)
    result = simulate(lex, Position(game, racks=[rack, ""]), leaves=None, candidates=6, iterations=300, seed=1,
                      workers=workers, progress=lambda done, total: seen.append((done, total)), objective="simmer")
    played = sum(p.iterations for p in result.ranked)  # each candidate's play-outs
    done, totals = [d for d, _ in seen], [t for _, t in seen]
    assert done == sorted(done) and all(d <= t for d, t in seen)
    assert totals[0] == 300 * len(result.ranked) and seen[-1] == (played, played)
    assert totals == sorted(totals, reverse=True)  # the most still to do only falls, as candidates drop
    assert any(p.dropped for p in result.ranked) and totals[-1] < totals[0]


def test_the_sim_command_reports_play_outs(enable):
    recorder = Recorder()
    doc = SIM.run(context(recorder, enable), {"position": "empty", "rack": "QUIZ", "candidates": 2,
                                               "iterations": 16, "workers": 1, "seed": 2})
    recorder.check_counts()
    assert recorder.stages() == ["sim"] and {r.unit for r in recorder.reports} == {"play-outs"}
    assert recorder.reports[0].total == 16 * 2
    played = sum(r["iterations"] for r in doc["results"])
    assert recorder.reports[-1].done == recorder.reports[-1].total == played


def test_sim_cut_short_by_its_time_limit_ends_at_the_play_outs_played(enable):
    recorder = Recorder()
    doc = SIM.run(context(recorder, enable), {"position": "empty", "rack": "AEINRST", "candidates": 2,
                                               "iterations": 1_000_000, "workers": 1, "time_limit": 0.3})
    recorder.check_counts()
    assert not doc["complete"]
    assert recorder.reports[-1].done == recorder.reports[-1].total == sum(r["iterations"] for r in doc["results"])


# -- fill -----------------------------------------------------------------------------------------------


def test_fill_reports_the_time_limit_spent(tmp_path):
    grid = tmp_path / "g.txt"
    grid.write_text("....\n....\n....\n")
    recorder = Recorder()
    doc = FILL.run(context(recorder), {"grid": str(grid), "seed": 1, "timeout": 30.0})
    recorder.check_counts()
    assert doc["status"] == "filled"
    assert recorder.stages() == ["fill"] and {r.unit for r in recorder.reports} == {"ms"}
    assert all(29_000 < r.total <= 30_000 for r in recorder.reports)  # the limit, less the set-up before the search
    assert any("reading the grid" in r.detail for r in recorder.reports)


def test_fill_without_a_time_limit_has_no_total(tmp_path):
    grid = tmp_path / "g.txt"
    grid.write_text("....\n....\n....\n")
    recorder = Recorder()
    FILL.run(context(recorder), {"grid": str(grid), "seed": 1, "cli_timeout": "none"})
    assert recorder.reports and {(r.stage, r.done, r.total, r.unit) for r in recorder.reports} == {("fill", 0, 0, "")}
    assert [r.detail for r in recorder.reports][:2] == ["reading the grid", "propagating over 7 slots"]


# -- build and export -------------------------------------------------------------------------------------


def test_build_reports_its_stages_and_the_lines_read(tmp_path):
    source = tmp_path / "w.txt"
    words = ["cat", "dog", "Emu", "x1", "", "gnu"]
    source.write_text("\n".join(words) + "\n")
    recorder = Recorder()
    BUILD.run(context(recorder), {"source": str(source), "output": str(tmp_path / "w.lex")})
    recorder.check_counts()
    assert recorder.stages() == ["build: reading", "build: normalising", "build: compiling", "build: writing"]
    assert recorder.of("build: reading")[-1] == Report("build: reading", len(words), len(words), "lines")
    for stage in ("build: compiling", "build: writing"):  # stages that count nothing: no total
        assert {(r.done, r.total, r.unit) for r in recorder.of(stage)} == {(0, 0, "")}


def test_a_slow_build_counts_the_words_it_normalises(tmp_path):
    source = tmp_path / "w.txt"
    words = [f"w{'ab'[i % 2]}ord" if i % 3 else f"Wörd{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}"
             for i in range(300)]
    source.write_text("\n".join(words) + "\n")
    recorder = Recorder()
    BUILD.run(context(recorder), {"source": str(source), "output": str(tmp_path / "w.lex"), "rejects":
                                  str(tmp_path / "r.tsv")})  # the rejects list takes the loop, which counts
    recorder.check_counts()
    counted = [r for r in recorder.of("build: normalising") if r.total]
    assert counted and {(r.total, r.unit) for r in counted} == {(len(words), "words")}


@pytest.mark.parametrize("fmt, stages", [
    ("kwg", ["ordering the words", "building the DAWG and the GADDAG", "writing"]),
    ("daw", ["ordering the words", "building the word graph", "writing"]),
    ("text", ["ordering the words", "writing"]),
])
def test_export_reports_its_stages(tmp_path, fmt, stages):
    lex = tmp_path / "w.lex"
    lexigraph.build(["cat", "dog", "emu"], str(lex))
    recorder = Recorder()
    EXPORT.run(context(recorder), {"source": str(lex), "format": fmt, "output": str(tmp_path / f"w.{fmt}")})
    assert recorder.stages() == [f"export: {s}" for s in stages]
    assert {(r.done, r.total, r.unit) for r in recorder.reports} == {(0, 0, "")}


def test_no_progress_no_reports(tmp_path, enable):
    # The server passes no progress: every job runs as before.
    source = tmp_path / "w.txt"
    source.write_text("cat\ndog\n")
    assert BUILD.run(Context(), {"source": str(source), "output": str(tmp_path / "w.lex")})["word_count"] == 2
    assert SIM.run(Context(opener=lambda spec: enable), {"position": "empty", "rack": "QUIZ", "candidates": 2,
                                                         "iterations": 8, "workers": 1})["complete"]
