"""Named lexicons chosen by what a command reads: a CGP's ``lex``, a GCG's ``#lexicon`` and a game file's
``lexicon`` choose the lexicon when no ``--lexicon`` is given (moves, score, analyze, endgame, sim, autoplay, leaves
build), on both engines; an unregistered name is an error naming ``lexigraph lexicons add``; ``--lexicon`` with
another name in the input answers from ``--lexicon`` with a warning naming both; what lexigraph writes (the CGP of a
document, autoplay's GCG, a match's GCG) carries the registered name.

The reproduction of issue 32: on ``5QUIZ6`` with ``AEIRSTV``, the built-in ENABLE's best play is ``G6 VA(U)`` and
TWL06's is ``9E VISTA`` (it makes QI and ZA). A tiny registered list that holds QI and ZA shows the same choice
without the real list; TWL06 itself when ``$LEXIGRAPH_SHARED_DATA`` has it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.cli.main import main
from lexigraph.commands import Context
from lexigraph.commands.analyze import ANALYZE
from lexigraph.commands.moves import MOVES, SCORE
from lexigraph.compiler import registry as lexicons
from lexigraph.scrabble.game import Game
from lexigraph.scrabble.gcg import read_gcg
from lexigraph.scrabble.match import Match

pytestmark = pytest.mark.usefixtures("private_cache", "registry_file")

BOARD = "15/15/15/15/15/15/15/5QUIZ6/15/15/15/15/15/15/15"
QUIZ = f"{BOARD} AEIRSTV/ 0/0 0"
#: A list where 9E VISTA is legal (QI, US, IT and ZA are words), and the same without QI and ZA.
WITH_QI_ZA = ["quiz", "vista", "qi", "us", "it", "za"]
PLAIN = ["quiz", "vista", "us", "it", "vau"]
VISTA_WORDS = {"vista", "qi", "us", "it", "za"}
#: The words a tiny list may hold: VISTA's, and others the rack can make.
POOL = ["quiz", "vista", "qi", "us", "it", "za", "vau", "va", "ai", "at", "as", "sat", "tav", "vast", "stair", "ti"]
NOT_REGISTERED = "lexigraph lexicons add TWL06 FILE"


@pytest.fixture
def engine_env(engine_kind, monkeypatch):
    """Commands open their lexicons on the engine of the case (LEXIGRAPH_PURE_PYTHON)."""
    if engine_kind == "python":
        monkeypatch.setenv("LEXIGRAPH_PURE_PYTHON", "1")
    else:
        monkeypatch.delenv("LEXIGRAPH_PURE_PYTHON", raising=False)
    return engine_kind


def register(tmp_path: Path, name: str, words: list[str]) -> Path:
    path = tmp_path / f"{name.lower()}.txt"
    path.write_text("\n".join(words) + "\n")
    lexicons.add(name, path, {"alphabet": "english"})  # every tile of the game, whatever letters the list uses
    return path


@pytest.fixture
def tiny(tmp_path):
    """QIZA (VISTA legal on 5QUIZ6) and PLAIN (it is not) registered."""
    return register(tmp_path, "QIZA", WITH_QI_ZA), register(tmp_path, "PLAIN", PLAIN)


def moves(position: str, **params) -> tuple[dict, Context]:
    ctx = Context(lexicon_spec=params.pop("lexicon", None), options={"alphabet": "english"})
    return MOVES.run(ctx, {"position": position, "top": 1000, **params}), ctx


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error(err: str, *needles: str) -> None:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lexigraph: error: ") and "Traceback" not in err, err
    for needle in needles:
        assert needle in lines[0], (needle, err)


# -- the reproduction, on a tiny registered list ---------------------------------------------------------------


def test_the_lexicon_a_cgp_names_answers(engine_env, tiny):
    doc, ctx = moves(f"{QUIZ} lex QIZA;")
    assert ctx.lexicon().engine.kind == engine_env
    assert doc["lexicon"] == "QIZA" and doc["results"][0]["notation"] == "9E VISTA" and "warnings" not in doc
    assert doc["position"] == f"{QUIZ} lex QIZA;"
    doc, _ = moves(f"{QUIZ} lex plain;")  # any case
    assert doc["lexicon"] == "PLAIN" and "9E VISTA" not in [r["notation"] for r in doc["results"]]
    doc, ctx = moves(QUIZ)  # no name: the built-in ENABLE
    assert ctx.lexicon().engine.kind == engine_env
    assert doc["lexicon"] == "ENABLE" and doc["results"][0]["notation"] == "G6 VA(U)"
    assert doc["position"] == f"{QUIZ} lex ENABLE;"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.sets(st.sampled_from(POOL), min_size=1))
def test_a_generated_list_named_by_the_cgp_is_the_one_that_answers(engine_env, tmp_path_factory, words):
    """Oracle: every word of every move is in the named list, and 9E VISTA is among the moves exactly when the
    list holds VISTA and the four words it makes across."""
    folder = tmp_path_factory.mktemp("gen")
    lexicons.add("GEN", register_path(folder, sorted(words)), {"alphabet": "english"}, replace=True)
    doc, ctx = moves(f"{QUIZ} lex gen;")
    assert ctx.lexicon().engine.kind == engine_env and doc["lexicon"] == "GEN"
    assert all(set(r["words"]) <= words for r in doc["results"] if r["kind"] == "play")
    assert ("9E VISTA" in [r["notation"] for r in doc["results"]]) == (VISTA_WORDS <= words)


def register_path(folder: Path, words: list[str]) -> Path:
    path = folder / "gen.txt"
    path.write_text("\n".join(words) + "\n")
    return path


def test_score_follows_the_named_lexicon(engine_env, tiny):
    legal = SCORE.run(Context(), {"position": f"{QUIZ} lex QIZA;", "move": "9E VISTA"})
    assert legal["legal"] and legal["lexicon"] == "QIZA" and sorted(legal["results"][0]["words"]) == \
        sorted(VISTA_WORDS)
    refused = SCORE.run(Context(), {"position": f"{QUIZ} lex PLAIN;", "move": "9E VISTA"})
    assert not refused["legal"] and set(refused["not_in_lexicon"]) == {"qi", "za"}


def gcg(lexicon: str | None, play: str = "9E VISTA") -> str:
    head = "#player1 ann Ann\n#player2 bob Bob\n" + (f"#lexicon {lexicon}\n" if lexicon else "")
    return head + f">ann: IQUZ 8F QUIZ +44 44\n>bob: AEIRSTV {play} +0 0\n"


def test_analyze_follows_the_gcg_lexicon(engine_env, tiny):
    doc = ANALYZE.run(Context(), {"gcg": gcg("QIZA"), "top": 1})
    assert doc["lexicon"] == "QIZA" and doc["game_lexicon"] == "QIZA"
    assert doc["results"][1]["legal"] and doc["results"][1]["best"][0]["notation"] == "9E VISTA"
    doc = ANALYZE.run(Context(), {"gcg": gcg("plain"), "top": 1})
    assert doc["lexicon"] == "PLAIN" and not doc["results"][1]["legal"]
    doc = ANALYZE.run(Context(), {"gcg": gcg(None), "top": 1})  # none named: ENABLE, which lacks QI and ZA
    assert doc["lexicon"] == "ENABLE" and not doc["results"][1]["legal"]


# -- --lexicon given, and another name in the input -----------------------------------------------------------


def test_lexicon_given_wins_with_a_warning_naming_both(engine_env, tiny, capsys):
    doc, _ = moves(f"{QUIZ} lex QIZA;", lexicon="enable")
    assert doc["lexicon"] == "ENABLE" and doc["results"][0]["notation"] == "G6 VA(U)"
    assert doc["warnings"] == ["the position names the lexicon 'QIZA'; the answer comes from ENABLE, the lexicon "
                               "given with --lexicon"]
    assert doc["position"] == f"{QUIZ} lex ENABLE;"  # the CGP names the lexicon that answered
    code, out, err = cli(capsys, "-L", "PLAIN", "moves", f"{QUIZ} lex QIZA;", "--top", "1")
    assert code == 0 and "VISTA" not in out
    assert out.startswith("warning: the position names the lexicon 'QIZA'; the answer comes from PLAIN")
    assert err == ("lexigraph: warning: the position names the lexicon 'QIZA'; the answer comes from PLAIN, the "
                   "lexicon given with --lexicon\n")
    # the same lexicon, however it is named: no warning
    for given in ("qiza", str(tiny[0])):
        doc, _ = moves(f"{QUIZ} lex QIZA;", lexicon=given)
        assert "warnings" not in doc and doc["results"][0]["notation"] == "9E VISTA", given
    doc = ANALYZE.run(Context(lexicon_spec="PLAIN"), {"gcg": gcg("QIZA"), "top": 1})
    assert not doc["results"][1]["legal"]
    assert doc["warnings"][0] == "the GCG names the lexicon 'QIZA'; the answer comes from PLAIN, the lexicon given " \
                                 "with --lexicon"


# -- not registered: one error naming the registry command --------------------------------------------------------


def test_an_unregistered_name_is_an_error_naming_the_registry_command(capsys, tmp_path):
    game = tmp_path / "twl.toml"
    game.write_text(Path(lexigraph.__file__).with_name("games").joinpath("scrabble.toml").read_text()
                    .replace('leaves = "english-leaves.klv2"', 'lexicon = "TWL06"'))
    record = tmp_path / "g.gcg"
    record.write_text(gcg("TWL06"))
    cases = [
        ("moves", f"{QUIZ} lex TWL06;"),
        ("score", f"{QUIZ} lex TWL06;", "9E VISTA"),
        ("analyze", str(record)),
        ("endgame", f"{BOARD} AEIRSTV/QI 0/0 0 lex TWL06;"),
        ("sim", f"{QUIZ} lex TWL06;", "--iterations", "2", "--workers", "1"),
        ("moves", "empty", "--rack", "QI", "--game", str(game)),
        ("autoplay", "-n", "2", "--workers", "1", "--game", str(game), "--player-a", "score"),
        ("leaves", "build", "-o", str(tmp_path / "l.klv2"), "--generations", "2", "--workers", "1", "--game",
         str(game)),
    ]
    for argv in cases:
        code, _, err = cli(capsys, *argv)
        assert code == 2, (argv, err)
        one_error(err, "names the lexicon 'TWL06', which is not registered", NOT_REGISTERED)
    assert not (tmp_path / "l.klv2").exists()
    code, _, err = cli(capsys, "moves", f"{QUIZ} lex Collins Scrabble Words;")
    one_error(err, "'Collins Scrabble Words', which is not registered", "under a name of letters")


# -- game files ------------------------------------------------------------------------------------------------


def test_a_game_file_names_its_lexicon(tmp_path, tiny, capsys):
    shutil.copy(lexicons.builtin_path(), tmp_path / "mine.lex")
    lexicons.add("MINE", tmp_path / "mine.lex")
    game = tmp_path / "mine.toml"
    game.write_text(Path(lexigraph.__file__).with_name("games").joinpath("scrabble.toml").read_text()
                    .replace('leaves = "english-leaves.klv2"', 'lexicon = "MINE"'))
    assert Game.load(str(game)).lexicon == "MINE"
    code, out, err = cli(capsys, "autoplay", "-n", "2", "--workers", "1", "--game", str(game), "--player-a", "score",
                         "--gcg", str(tmp_path / "games"), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["lexicon"] == "MINE" and "warnings" not in doc and err == ""
    records = sorted((tmp_path / "games").glob("*.gcg"))
    assert len(records) == 2 and all("#lexicon MINE\n" in p.read_text() for p in records)
    # the position's name wins over the game file's, with a warning
    doc = MOVES.run(Context(), {"position": f"{QUIZ} lex QIZA;", "game": str(game), "top": 1})
    assert doc["lexicon"] == "QIZA" and doc["warnings"] == [
        "the game file names the lexicon 'MINE'; the answer comes from QIZA, which the position names"]
    with pytest.raises(lexigraph.LexiconError, match="lexicon 'two words' is not a lexicon name"):
        Game.from_toml(game.read_text().replace('lexicon = "MINE"', 'lexicon = "two words"'))


# -- what lexigraph writes carries the registered name -----------------------------------------------------------


def test_autoplay_gcg_carries_the_registered_name(tmp_path, capsys):
    shutil.copy(lexicons.builtin_path(), tmp_path / "copy.lex")
    lexicons.add("Copy", tmp_path / "copy.lex")
    for spec in ("copy", str(tmp_path / "copy.lex")):  # by name, and by its path: registered either way
        folder = tmp_path / f"games-{len(spec)}"
        code, out, _ = cli(capsys, "-L", spec, "autoplay", "-n", "2", "--workers", "1", "--gcg", str(folder),
                           "--json")
        assert code == 0 and json.loads(out)["lexicon"] == "Copy"
        records = sorted(folder.glob("*.gcg"))
        assert records and all(read_gcg(p.read_text()).lexicon == "Copy" for p in records)
    code, out, _ = cli(capsys, "autoplay", "-n", "2", "--workers", "1", "--gcg", str(tmp_path / "plain"), "--json")
    assert all(read_gcg(p.read_text()).lexicon == "ENABLE" for p in (tmp_path / "plain").glob("*.gcg"))


def test_a_match_gcg_carries_the_registered_name(tmp_path):
    shutil.copy(lexicons.builtin_path(), tmp_path / "copy.lex")
    lexicons.add("COPY", tmp_path / "copy.lex")
    lex = lexigraph.open(tmp_path / "copy.lex")  # opened by its path: its registered name all the same
    match = Match(lex, Game.preset("scrabble"), opponent="score", seed=4)
    assert "#lexicon COPY\n" in match.gcg() and match.state()["cgp"].endswith(" lex COPY;")
    assert "#lexicon ENABLE\n" in Match(lexigraph.open(), Game.preset("scrabble"), opponent="score").gcg()
    assert "#lexicon own\n" in Match(lex, Game.preset("scrabble"), opponent="score", lexicon_name="own").gcg()


def test_endgame_and_sim_follow_and_name_the_lexicon(engine_env, tmp_path):
    from lexigraph.commands.endgame import ENDGAME, EXAMPLE
    from lexigraph.commands.sim import SIM

    shutil.copy(lexicons.builtin_path(), tmp_path / "copy.lex")
    lexicons.add("COPY", tmp_path / "copy.lex")
    doc = ENDGAME.run(Context(), {"position": f"{EXAMPLE} lex copy;", "time_limit": 20})
    assert doc["lexicon"] == "COPY" and doc["position"] == f"{EXAMPLE} lex COPY;"
    enable = ENDGAME.run(Context(), {"position": EXAMPLE, "time_limit": 20})
    assert (doc["value"], doc["best"]) == (enable["value"], enable["best"])
    doc = ENDGAME.run(Context(lexicon_spec="enable"), {"position": f"{EXAMPLE} lex NWL2020;", "time_limit": 20})
    assert doc["warnings"] == ["the position names the lexicon 'NWL2020'; the answer comes from ENABLE, the lexicon "
                               "given with --lexicon"]
    doc = SIM.run(Context(), {"position": f"{QUIZ} lex COPY;", "candidates": 2, "iterations": 2, "workers": 1})
    assert doc["lexicon"] == "COPY" and doc["position"] == f"{QUIZ} lex COPY;" and "warnings" not in doc


# -- search: in NAME -----------------------------------------------------------------------------------------


def test_search_in_a_registered_name_and_in_enable(engine_env, tiny, capsys):
    enable = set(lexigraph.open().words())
    code, out, _ = cli(capsys, "-L", "QIZA", "search", "not in enable")
    assert code == 0 and out.split() == sorted(set(WITH_QI_ZA) - enable)  # the set oracle
    code, out, _ = cli(capsys, "search", "length 2 and in Qiza")
    assert code == 0 and out.split() == sorted(w for w in set(WITH_QI_ZA) & enable if len(w) == 2)
    lex = lexigraph.open(tiny[0], pure_python=engine_env == "python")
    assert lex.search("not in ENABLE and not in plain") == sorted(set(WITH_QI_ZA) - enable - set(PLAIN))


# -- the real lists ----------------------------------------------------------------------------------------------


def test_twl06_named_by_a_cgp_plays_vista(engine_env, twl, capsys):
    code, _, err = cli(capsys, "moves", f"{QUIZ} lex TWL06;")
    one_error(err, NOT_REGISTERED)
    lexicons.add("TWL06", twl.path)
    doc, ctx = moves(f"{QUIZ} lex TWL06;", top=1)
    assert ctx.lexicon().engine.kind == engine_env
    assert doc["lexicon"] == "TWL06" and [r["notation"] for r in doc["results"]] == ["9E VISTA"]
    doc, _ = moves(QUIZ, top=1)
    assert doc["lexicon"] == "ENABLE" and [r["notation"] for r in doc["results"]] == ["G6 VA(U)"]


def test_analyze_of_a_twl06_game_accepts_qi(engine_env, twl, capsys):
    record = ("#player1 ann Ann\n#player2 bob Bob\n#lexicon TWL06\n>ann: AEINRST 8D RETAINS +66 66\n"
              ">bob: QEO H7 Q. +11 11\n")
    lexicons.add("TWL06", twl.path)
    doc = ANALYZE.run(Context(), {"gcg": record, "top": 1})
    assert doc["lexicon"] == "TWL06" and [r["legal"] for r in doc["results"]] == [True, True]
    assert doc["results"][1]["score"] == 11 and "warnings" not in doc
    doc = ANALYZE.run(Context(lexicon_spec="enable"), {"gcg": record, "top": 1})
    assert not doc["results"][1]["legal"] and "'TWL06'; the answer comes from ENABLE" in doc["warnings"][0]
