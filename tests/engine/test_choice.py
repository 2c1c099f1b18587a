"""The engine is chosen once, at open: a lexicon opened with ``pure_python=True`` runs every query and job
without calling the C extension, and the two engines give the same answers to the same battery.

The first test runs the battery in a child process whose ``lexigraph._native`` is a stand-in: every
attribute is a function that raises ``AssertionError("C called: NAME")`` (so it has no usable ``Facade``
type, and the lexicon falls back to the Python facade). The child loads this file by path.
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any, Callable

import pytest

import lexigraph

SPANISH = ["casa", "chico", "chocho", "calle", "llama", "perro", "carro", "niño", "año", "ocho", "hacha", "olla",
           "cacho", "chal", "lo", "la", "al", "ella"]


def battery(open_: Callable[..., lexigraph.Lexicon]) -> dict[str, Any]:
    """Every query and job of a lexicon, on ENABLE and a small Spanish list opened by ``open_``; plain data."""
    from lexigraph.crossword.fill import Rules, fill, suggest
    from lexigraph.crossword.formats import grid_from_text, grid_to_text
    from lexigraph.scrabble.game import Game
    from lexigraph.scrabble.gcg import analyze, read_gcg
    from lexigraph.scrabble.movegen import generate
    from lexigraph.scrabble.position import Position
    from lexigraph.scrabble.scoring import score_play

    en = open_()
    es = open_(SPANISH, alphabet="spanish")
    built = open_(["cat", "dog", "Dogs", "emu", "zyzzyva"])  # compiled from words on this engine's side
    out: dict[str, Any] = {}
    out["kinds"] = sorted({en.engine.kind, es.engine.kind, built.engine.kind})
    out["in"] = [w in en for w in ["dog", "DOG", "dgo", "café", 5]] + [w in es for w in ["chico", "CHICO", "niño", "nino"]]
    out["check"] = [en.check("zyzzyva"), en.check("zyzzyvaz"), es.check("llama"), es.check("lama")]
    out["check_many"] = (en.check_many(["cat", "tca", "c@t", "Cat"]).tolist()
                         + es.check_many(["casa", "año", "x", "chocho"]).tolist())
    out["words"] = [en.words(prefix="zyz"), en.words(prefix="qu", length=4), es.words(prefix="ch"), list(built)]
    out["children"] = [en.children("dude"), en.children("qz"), es.children("c"), es.children("ch")]
    out["anagram"] = [
        en.anagram("top"), en.anagram("aalnst?", mode="exact"), en.anagram("retains", mode="super", max_length=9),
        en.anagram("qi*")[:30], en.anagram("a?", mode="sub"), en.anagram("ab??", through="c"),
        en.anagram("eilv", mode="exact", through="s"), en.anagram("retains", sort="length")[:10],
        [(a.word, a.blank_positions) for a in en.anagram("acer?", mode="exact", blanks=True)],
        es.anagram("ochoc"), es.anagram("llama", mode="exact"),
    ]
    out["anagram_table"] = en.anagram_table("aalnst?")
    out["match"] = [en.match("?uixot??"), en.match("q[^u]*", limit=5), en.match("*zz", offset=3, limit=4),
                    en.match("@#@#@#@#", limit=10), es.match("ch*"), es.match("?a??a")]
    out["count"] = [en.count("?????"), en.count("*ing"), es.count("??")]
    crossing = en.cross("e???y", 2, "d???", 1)
    out["cross"] = [crossing.tiles, crossing.words_a[:20], crossing.words_b[:20], sorted(crossing.counts.items())]
    d = built.diff(en)
    out["diff"] = [d.only_a, d.only_b[:5], d.both, sorted(d.counts.items())[:5]]
    out["hooks"] = [str(en.hooks(w)) for w in ["care", "qi", "aa"]] + [str(es.hooks("hacha"))]
    p = en.probability("zyzzyva")
    out["probability"] = [p.combinations, p.rank, p.points, en.probability("aeinrst", blanks=0).combinations]
    out["search"] = [en.search("length 2 and contains x"),
                     en.search("anagram aeprs or anagram eilv", sort="probability"),
                     en.search("length 7 and probability 1-50 and back-hook s", sort="probability", limit=10),
                     en.search("pattern c?t and front-hook s"),
                     en.search("length 2 and in mine", lists={"mine": ["aa", "zz", "xi"]})]
    game = Game.preset("scrabble")
    empty = Position(game)
    moves = generate(en, empty, "AEINRST", top=5)
    out["moves"] = [(m.notation, m.score, m.leave) for m in moves]
    exchanges = generate(en, empty, "QVW", top=3, exchanges=True, passes=True)
    out["exchanges"] = [(m.kind, m.notation) for m in exchanges]
    after = empty.with_play(moves[0])
    out["moves_later"] = [(m.notation, m.score) for m in generate(en, after, "ZAXQUIE", top=5)]
    out["score_play"] = [score_play(en, empty, "8H ZAX", rack="ZAX").score,
                         score_play(en, empty, "H7 QAT", rack="QAT").score,
                         score_play(en, empty, moves[0].notation, rack="AEINRST").score == moves[0].score]
    record = read_gcg(resources.files("lexigraph").joinpath("games").joinpath("sample.gcg").read_text("utf-8"))
    out["analyze"] = analyze(en, record, top=2)
    grid = grid_from_text("c...\n....\n....")
    result = fill(en, grid, seed=3)
    out["fill"] = [result.status, grid_to_text(result.grid), result.stats]
    out["fill_es"] = fill(es, grid_from_text("..\n.."), rules=Rules(allow_repeats=True)).status
    out["suggest"] = [(s.word, s.score) for s in suggest(en, grid, "1D", limit=10)]
    for lex in (en, es, built):
        lex.close()
    return out


STAND_IN = '''
import sys, types

class NotC(types.ModuleType):
    """lexigraph._native, every attribute a function that fails the run when called."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)

        def called(*args, **kwargs):
            raise AssertionError(f"C called: {name}")

        called.__name__ = name
        return called

sys.modules["lexigraph._native"] = NotC("lexigraph._native")
'''


def test_a_pure_lexicon_never_calls_the_c_extension():
    here = Path(__file__)
    code = STAND_IN + (
        "import importlib.util, lexigraph\n"
        "from lexigraph.lexicon import _facade_base, _PythonFacade\n"
        "assert _facade_base() is _PythonFacade\n"
        "spec = importlib.util.spec_from_file_location('engine_choice', sys.argv[1])\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "answers = module.battery(lambda source=None, **o: lexigraph.open(source, pure_python=True, **o))\n"
        "assert answers['kinds'] == ['python'], answers['kinds']\n"
        "print('OK')\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "LEXIGRAPH_PURE_PYTHON"}
    result = subprocess.run([sys.executable, "-c", code, str(here)], capture_output=True, text=True, env=env,
                            timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "OK"


def test_the_engine_is_the_one_asked_for(engine_kind, open_lexicon):
    lex = open_lexicon()
    assert lex.engine.kind == engine_kind and lex.probe is lex.engine
    assert lex.pure_python == (engine_kind == "python") and lex.uses_c == (engine_kind == "c")
    if engine_kind == "c":
        assert lexigraph.open().engine.kind == "c"  # the default, when the extension is in use
    assert lexigraph.open(pure_python=True).engine.kind == "python"


@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
def test_both_engines_give_the_same_answers_to_the_battery(open_lexicon, open_python):
    c, python = battery(open_lexicon), battery(open_python)
    assert c.pop("kinds") == ["c"] and python.pop("kinds") == ["python"]
    assert c.keys() == python.keys()
    for name in c:
        assert c[name] == python[name], name


def test_the_environment_switch_chooses_the_python_engine():
    env = dict(os.environ, LEXIGRAPH_PURE_PYTHON="1")
    code = (
        "import lexigraph; from lexigraph.engine import c_engine_available; lex = lexigraph.open(); "
        "assert not c_engine_available() and lex.pure_python and lex.engine.kind == 'python'; "
        "assert type(lex) is lexigraph.Lexicon; "
        "print(lex.check('dog'), lex.check_many(['cat', 'tca']).tolist(), lex.children('dude'))"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True [True, False] ['$', 'd', 'e', 's']"


def test_a_dropped_lexicon_frees_its_engine_and_its_game_tables_at_once(engine_kind, open_lexicon):
    """No reference cycle keeps an engine (and so its mapped file) alive until the garbage collector runs: a
    lexicon dropped after a query, a walk, the graph's check and a job with the game's tables is freed at once."""
    import gc
    import weakref

    from lexigraph.scrabble.game import Game
    from lexigraph.scrabble.movegen import generate
    from lexigraph.scrabble.position import Position
    from lexigraph.scrabble.tables import game_tables

    lex = open_lexicon(["cat", "cats", "act", "at", "ta", "scat"])
    lex.words(prefix="c")
    assert lex.engine.graph_spells_the_buckets()
    moves = generate(lex, Position(Game.preset("scrabble"), racks=["CATS", ""]), top=3)
    assert len(moves) == 3
    refs = [weakref.ref(x) for x in (lex, lex.engine, lex.store, lex.graph,
                                     game_tables(lex, Game.preset("scrabble").for_lexicon(lex.alphabet)))]
    was = gc.isenabled()
    gc.disable()
    try:
        del lex, moves
        assert [r() is None for r in refs] == [True] * len(refs)
    finally:
        if was:
            gc.enable()
