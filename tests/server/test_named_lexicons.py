"""Named lexicons on the server: a slot is found by the server's name or the lexicon's registered name, ``serve
--lexicon TWL06`` serves a registered lexicon, a position naming a lexicon the server serves is answered from it
(``lexicon`` given: from that one, with a warning), and the page's games write the registered name in their GCG and
CGP, never the server's alias."""

from __future__ import annotations

import shutil
import warnings

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
pytest.importorskip("httpx", reason="the API tests need httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.compiler import registry as lexicons  # noqa: E402
from lexigraph.errors import LexiconError  # noqa: E402
from lexigraph.scrabble.gcg import read_gcg  # noqa: E402
from lexigraph.server import create_app  # noqa: E402
from lexigraph.server.lexicons import LexiconPool, UnknownLexicon  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.usefixtures("private_cache", "registry_file")]

QUIZ = "15/15/15/15/15/15/15/5QUIZ6/15/15/15/15/15/15/15 AEIRSTV/ 0/0 0"


@pytest.fixture
def qiza(tmp_path):
    """A tiny list registered as QIZA (9E VISTA legal on 5QUIZ6), built as a lexicon file."""
    path = tmp_path / "qiza.lex"
    lexigraph.build(["quiz", "vista", "qi", "us", "it", "za"], path, alphabet="english")
    lexicons.add("QIZA", path)
    return path


@pytest.fixture
def mine(tmp_path):
    """A copy of ENABLE registered as MINE."""
    path = tmp_path / "mine.lex"
    shutil.copy(lexicons.builtin_path(), path)
    lexicons.add("MINE", path)
    return path


def test_slots_are_found_by_alias_or_registered_name(qiza):
    pool = LexiconPool([("small", str(qiza)), ("enable", None), ("QIZA", "QIZA")])
    try:
        assert [pool.served(n).name for n in ("small", "SMALL", "qiza", "Enable", "ENABLE", None)] == \
            ["small", "small", "QIZA", "enable", "enable", "small"]
        assert [s.lexicon_name for s in pool.status()] == ["QIZA", "ENABLE", "QIZA"]
        with pytest.raises(UnknownLexicon, match="no lexicon named 'TWL06'"):
            pool.served("TWL06")
    finally:
        pool.close()
    with pytest.raises(LexiconError, match="lexigraph lexicons add TWL06 FILE"):
        LexiconPool([("TWL06", "TWL06")])


def test_serve_a_registered_lexicon_by_name(qiza):
    with TestClient(create_app(["QIZA"])) as c:
        status = c.get("/api/lexicons").json()["results"]
        assert [(s["name"], s["lexicon_name"], s["words"]) for s in status] == [("QIZA", "QIZA", 6)]
        doc = c.post("/api/moves", json={"position": QUIZ, "top": 1}).json()
        assert doc["lexicon"] == "QIZA" and doc["results"][0]["notation"] == "9E VISTA"
        assert doc["position"].endswith(" lex QIZA;")


def test_a_position_naming_a_served_lexicon_is_answered_from_it(qiza):
    with TestClient(create_app([("small", str(qiza)), ("enable", None)])) as c:
        doc = c.post("/api/moves", json={"position": f"{QUIZ} lex enable;", "top": 1}).json()
        assert doc["lexicon"] == "ENABLE" and doc["results"][0]["notation"] == "G6 VA(U)" and "warnings" not in doc
        doc = c.post("/api/moves", json={"position": f"{QUIZ} lex QIZA;", "top": 1}).json()  # its registered name
        assert doc["lexicon"] == "QIZA" and doc["results"][0]["notation"] == "9E VISTA"
        doc = c.post("/api/moves", json={"position": QUIZ, "top": 1}).json()  # none named: the default
        assert doc["lexicon"] == "QIZA"
        doc = c.post("/api/moves", json={"position": f"{QUIZ} lex QIZA;", "top": 1, "lexicon": "enable"}).json()
        assert doc["results"][0]["notation"] == "G6 VA(U)" and doc["warnings"] == [
            "the position names the lexicon 'QIZA'; the answer comes from ENABLE, the lexicon the request names"]
        r = c.post("/api/moves", json={"position": f"{QUIZ} lex TWL06;", "top": 1})
        assert r.status_code == 404 and r.json()["error"]["type"] == "UnknownLexicon"
        assert r.json()["error"]["message"] == ("the position names the lexicon 'TWL06': no lexicon named 'TWL06' "
                                                "(this server has: small, enable)")
        r = c.post("/api/search", json={"expression": "length 2 and not in ENABLE", "lexicon": "small"})
        assert sorted(x["word"] for x in r.json()["results"]) == ["qi", "za"]


def test_a_page_game_writes_the_registered_name_not_the_alias(mine):
    with TestClient(create_app([("big", str(mine))])) as c:
        r = c.post("/api/games", json={"opponent": "score", "first": "lexigraph", "seed": 3, "lexicon": "big"})
        assert r.status_code == 201, r.text
        doc = r.json()
        assert doc["lexicon"] == "MINE" and doc["cgp"].endswith(" lex MINE;")
        record = c.get(f"/api/games/{doc['id']}/gcg").text
        assert "#lexicon MINE\n" in record and "big" not in record and read_gcg(record).lexicon == "MINE"
        # the game's CGP goes back to the server and is answered from the game's lexicon, without a warning
        moves = c.post("/api/moves", json={"position": doc["cgp"], "top": 1, "lexicon": "big"}).json()
        assert moves["lexicon"] == "MINE" and "warnings" not in moves
