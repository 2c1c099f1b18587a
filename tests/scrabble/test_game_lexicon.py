"""Where a game meets a lexicon (Game.for_lexicon, the one rule): a lexicon plays a game whose tiles are its own;
every job (moves, score, analyze, autoplay, sim, endgame, leaves build, the server's games) refuses another with one
error naming the game to use; the shipped Spanish, Catalan and French games play their lexicons, scored with their
own points; English lists in the inferred alphabet play the English games as before."""

from __future__ import annotations

import pytest

import lexigraph
from lexigraph.alphabet import Alphabet
from lexigraph.cli.main import main
from lexigraph.scrabble.game import PRESETS, Game, GameError, games_for
from lexigraph.scrabble.movegen import generate
from lexigraph.scrabble.position import Position
from lexigraph.scrabble.scoring import score_play

from ..conftest import open_on

SPANISH_WORDS = ["año", "niño", "chocho", "calle", "perro", "cacho", "ocho"]


def letters(text: str) -> Alphabet:
    return Alphabet.from_letters(text)


@pytest.mark.parametrize("alphabet, game, refused", [
    (letters("abcdefghijklmnopqrstuvwxyz"), "scrabble", None),  # TWL06 built as documented
    (letters("abcdefghijklmnopqrstuvwxyz"), "super", None),
    (letters("act"), "scrabble", None),
    (Alphabet.preset("english"), "super", None),  # the same tile set by name, another bag
    (Alphabet.preset("spanish"), "scrabble", "play the game spanish (--game spanish)"),
    (Alphabet.preset("catalan"), "super", "play the game catalan (--game catalan)"),
    (Alphabet.preset("french"), "scrabble", "play the game french (--game french)"),
    (Alphabet.preset("english"), "french", "play the game scrabble (--game scrabble)"),
    (letters("acdeñ"), "scrabble", "build the lexicon with --alphabet spanish and play the game spanish"),
    (letters("abcñá"), "scrabble", "build the lexicon with --alphabet spanish and play the game spanish"),
    (letters("abcß"), "scrabble", "give a game file whose tiles are the lexicon's"),
    (Alphabet.preset("spanish"), "spanish", None),
    (Alphabet.preset("catalan"), "catalan", None),
    (Alphabet.preset("french"), "french", None),
    (letters("kwxyz"), "french", None),
])
def test_the_rule(alphabet, game, refused):
    g = Game.preset(game)
    if refused is None:
        played = g.for_lexicon(alphabet)
        assert played.alphabet.labels == alphabet.labels and played.board == g.board
        assert all(played.tiles[label] == g.tiles[label] for label in alphabet.labels)  # the game's own bag
        assert (played is g) == (alphabet.labels == g.alphabet.labels)
        assert game in games_for(alphabet)
    else:
        with pytest.raises(GameError) as caught:
            g.for_lexicon(alphabet)
        assert refused in str(caught.value) and "\n" not in str(caught.value)
        assert game not in games_for(alphabet)


def test_every_preset_game_plays_the_alphabet_it_names():
    for name in PRESETS:
        game = Game.preset(name)
        assert game.for_lexicon(game.alphabet) is game
        assert game.for_lexicon(Alphabet.load(game.alphabet.name)) is game  # a lexicon's copy of the preset


# -- every job refuses, with one error naming the game -------------------------------------------------------


@pytest.fixture(scope="module")
def spanish_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("es")
    (folder / "es.txt").write_text("\n".join(SPANISH_WORDS) + "\n", encoding="utf-8")
    lexigraph.build(folder / "es.txt", folder / "es.lex", alphabet="spanish")
    lexigraph.build(folder / "es.txt", folder / "letters.lex")  # no --alphabet: ñ is a letter, CH two
    (folder / "game.gcg").write_text("#player1 a A\n#player2 b B\n>a: ACHOOPR 8H OCHO +14 14\n", encoding="utf-8")
    return folder


JOBS = [
    ["moves", "empty", "--rack", "AOCHO"],
    ["score", "empty", "8H OCHO", "--rack", "AOCHO"],
    ["analyze", "{gcg}"],
    ["autoplay", "-n", "2", "--workers", "1"],
    ["sim", "empty", "--rack", "AOCHO", "--iterations", "4", "--workers", "1"],
    ["endgame", "empty"],
    ["leaves", "build", "-o", "{out}", "--generations", "2", "--workers", "1"],
]


@pytest.mark.parametrize("job", JOBS, ids=lambda j: " ".join(j[:2]))
@pytest.mark.parametrize("lexicon, advice", [("es.lex", "--game spanish"), ("letters.lex", "--alphabet spanish")])
def test_every_job_refuses_a_lexicon_whose_tiles_are_not_the_games(spanish_files, job, lexicon, advice, capsys,
                                                                     monkeypatch, engine_kind):
    if engine_kind == "python":
        monkeypatch.setenv("LEXIGRAPH_PURE_PYTHON", "1")
    args = [a.format(gcg=spanish_files / "game.gcg", out=spanish_files / "out.klv2") for a in job]
    assert main(["-L", str(spanish_files / lexicon), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and advice in err and "game scrabble" in err, err
    assert not (spanish_files / "out.klv2").exists()


def test_the_python_api_refuses_alike(spanish_files, engine_kind):
    from lexigraph.scrabble.leavegen import build_leaves
    from lexigraph.scrabble.match import Match
    from lexigraph.scrabble.selfplay import Player, autoplay

    lex = open_on(engine_kind, str(spanish_files / "es.lex"))
    game = Game.preset("scrabble")
    for job in (lambda: generate(lex, Position(game), "AOCHO"),
                lambda: score_play(lex, Position(game), "8H OCHO", rack="AOCHO"),
                lambda: Match(lex, game, opponent="score", seed=1),
                lambda: autoplay(lex, game, [Player.score("a"), Player.score("b")], games=2, workers=1),
                lambda: build_leaves(lex, game, generations=[2], workers=1)):
        with pytest.raises(GameError, match="play the game spanish"):
            job()


def test_the_servers_games_refuse_and_play_the_spanish_game(spanish_files):
    pytest.importorskip("starlette", reason="the server needs the serve extra")
    pytest.importorskip("httpx", reason="the API tests need httpx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from lexigraph.server import create_app

    with TestClient(create_app([("es", str(spanish_files / "es.lex"))])) as client:
        refused = client.post("/api/games", json={"lexicon": "es", "seed": 3})
        assert 400 <= refused.status_code < 500
        assert "play the game spanish" in refused.json()["error"]["message"]
        played = client.post("/api/games", json={"lexicon": "es", "game": "spanish", "seed": 3})
        assert played.status_code == 201, played.text


# -- the shipped games play their lexicons, with their own points --------------------------------------------


def by_hand(game: Game, row: int, col: int, tiles: list[str]) -> int:
    """The score of one across word on an empty board: each tile's points times its letter premium, times the
    word premiums (the oracle: the premium table and the points, nothing of the scorer); "?" a blank (0)."""
    total, word_mult = 0, 1
    for k, tile in enumerate(tiles):
        letter, word = {".": (1, 1), "d": (2, 1), "t": (3, 1), "D": (1, 2), "T": (1, 3)}[game.board[row][col + k]]
        total += game.points_of(tile) * letter
        word_mult *= word
    bingo = game.bingo_bonus if len(tiles) == game.rack_size else 0
    return total * word_mult + bingo


@pytest.mark.parametrize("name, words, play, tiles", [
    ("spanish", SPANISH_WORDS, "8H AÑO", ["a", "ñ", "o"]),
    ("spanish", SPANISH_WORDS, "8H [CH]O[ch]O", ["ch", "o", "?", "o"]),  # the bag's one CH, and a blank
    ("catalan", ["plaça", "col·lecció", "nyap"], "8H PLAÇA", ["p", "l", "a", "ç", "a"]),
    ("french", ["kiwi", "zoo"], "8H KIWI", ["k", "i", "w", "i"]),
])
def test_the_shipped_games_score_with_their_own_points(engine_kind, name, words, play, tiles):
    lex = open_on(engine_kind, words, alphabet=name)
    game = Game.preset(name)
    rack = "".join(f"[{t.upper()}]" if len(t) > 1 else t.upper() for t in tiles)  # ? a blank
    move = score_play(lex, Position(game), play, rack=rack)
    assert move.score == by_hand(game, 7, 7, tiles)
    best = generate(lex, Position(game), rack, sort="score", top=1)
    assert best[0].score >= move.score
    with pytest.raises(GameError, match=f"play the game {name}"):
        generate(lex, Position(Game.preset("scrabble")), rack)


def test_english_lists_in_the_inferred_alphabet_play_the_english_games_as_before(engine_kind):
    lex = open_on(engine_kind, ["cat", "act", "at", "ta", "scat", "cats"])
    assert lex.alphabet.name == "letters"
    for name in ("scrabble", "super"):
        game = Game.preset(name)
        move = score_play(lex, Position(game), f"{game.square_name(*game.start)} CAT", rack="CATS")
        assert move.score == by_hand(game, *game.start, ["c", "a", "t"])
        assert generate(lex, Position(game), "CATS", sort="score")[0].score >= move.score


def test_a_list_built_without_its_alphabet_is_refused_by_the_game_of_its_language():
    with pytest.raises(GameError, match="spells letter by letter \\(CH LL RR\\).*--alphabet spanish"):
        Game.preset("spanish").for_lexicon(letters("acehlnoprñ"))
