"""The grid files' routes (server/grid_routes.py): text, ipuz and ``.puz`` uploaded and read into a grid document;
a grid with clues written as a file to download (content type, file name), read back by puzpy and the ipuz package;
conversions between the three; bounded sizes and JSON errors."""

from __future__ import annotations

import base64
import json
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
pytest.importorskip("httpx", reason="the API tests need httpx")
puz = pytest.importorskip("puz", reason="puzpy is not installed (pip install 'lexigraph[puz]')")

with warnings.catch_warnings():  # Starlette >= 1.x suggests httpx2; httpx still drives its test client
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from lexigraph.crossword.formats import acrosslite, grid_bytes, grid_from_text, ipuz  # noqa: E402
from lexigraph.crossword.formats.document import to_document  # noqa: E402
from lexigraph.crossword.grid import BLOCK, Grid  # noqa: E402
from lexigraph.server import create_app  # noqa: E402
from lexigraph.server.app import Limits  # noqa: E402

GRID = grid_from_text("cat#\n..[qu].\n#...").with_clues({"1A": "Pet", "2D": "Article", "6A": "Exit"})
GRID = Grid(GRID.cells, title="Tiny", clues=GRID.clues)


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(limits=Limits(max_body=8000))) as c:
        yield c


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def read(client, **body):
    return client.post("/api/grid/read", json=body)


def grid_schema():
    """docs/schema/grid.json, checked as a schema."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).resolve().parents[2] / "docs" / "schema" / "grid.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_each_format_read_into_the_document(client):
    want = {"format": None, **to_document(GRID)}
    schema = grid_schema()
    for fmt, body in (("puz", {"data": b64(acrosslite.render(GRID)), "name": "tiny.PUZ"}),
                      ("ipuz", {"text": grid_bytes(GRID, "ipuz").decode(), "format": "ipuz"}),
                      ("ipuz", {"data": b64(grid_bytes(GRID, "ipuz")), "name": "t.ipuz"})):
        r = read(client, **body)
        assert r.status_code == 200, r.text
        assert r.json() == {**want, "format": fmt}
        schema.validate(r.json())
    r = read(client, text="CAT#\n..[QU].\n#...\n")
    assert r.json() == {"format": "text", "title": "", "height": 3, "width": 4, "rows": ["CAT#", "..[QU].", "#..."],
                        "clues": {}}


def test_written_files_read_back_elsewhere(client):
    doc = to_document(GRID)
    r = client.post("/api/grid/write", json={**doc, "format": "puz", "name": "my puzzle!.puz"})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/x-crossword"
    assert r.headers["content-disposition"] == 'attachment; filename="my-puzzle.puz"'
    p = puz.load(r.content)
    n = p.clue_numbering()
    assert [(e["num"], e["clue"]) for e in n.across] == [(1, "Pet"), (4, ""), (6, "Exit")]
    assert [(e["num"], e["clue"]) for e in n.down] == [(1, ""), (2, "Article"), (3, ""), (5, "")]
    assert p.title == "Tiny" and p.rebus().get_rebus_solution(6) == "QU"
    r = client.post("/api/grid/write", json={**doc, "name": "x.ipuz"})
    assert r.headers["content-type"].startswith("application/json")
    assert r.headers["content-disposition"] == 'attachment; filename="x.ipuz"'
    ipuz_pkg = pytest.importorskip("ipuz", reason="the ipuz package is not installed")
    ipuz_pkg.read(r.text)
    assert ipuz.parse(r.text).clues == GRID.clues
    r = client.post("/api/grid/write", json={**doc, "format": "text"})
    assert r.headers["content-type"].startswith("text/plain")
    assert r.headers["content-disposition"] == 'attachment; filename="grid.txt"'
    assert r.text == "CAT#\n..[QU].\n#...\n"


SCHEMA = grid_schema()


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 6), st.integers(2, 6), st.data())
def test_conversions_keep_the_grid_and_its_clues(client, h, w, data):
    """Every format to every other, through the two routes: the cells, the title and the clues are kept (text
    carries no clues)."""
    cells = [[data.draw(st.sampled_from([None, BLOCK, "a", "th"])) for _ in range(w)] for _ in range(h)]
    g = Grid(cells, title="T")
    g = g.with_clues({s.name: f"clue {s.name}" for s in g.slots() if data.draw(st.booleans())})
    for src in ("puz", "ipuz", "text"):
        up = read(client, data=b64(grid_bytes(g, src)), format=src).json()
        SCHEMA.validate(up)
        for dst in ("puz", "ipuz"):
            r = client.post("/api/grid/write", json={**{k: v for k, v in up.items() if k != "format"}, "format": dst})
            back = acrosslite.parse(r.content) if dst == "puz" else ipuz.parse(r.text)
            assert back == g and back.clues == (g.clues if src != "text" else {}), (src, dst)


@pytest.mark.parametrize("route, body, words", [
    ("read", {"text": "ab\ncd", "data": "YQ=="}, "one of them"),
    ("read", {}, "one of them"),
    ("read", {"data": "***"}, "not Base64"),
    ("read", {"data": b64(b"\xff\xfe"), "format": "text"}, "not UTF-8"),
    ("read", {"text": "..", "format": "puz"}, "binary"),
    ("read", {"text": "..", "format": "docx"}, "field 'format'"),
    ("read", {"text": "..", "name": 3}, "field 'name'"),
    ("read", {"text": "..", "file": "x"}, "unknown field 'file'"),
    ("read", {"data": b64(b"not a puzzle at all"), "format": "puz"}, "not a valid .puz file"),
    ("read", {"text": "{\"kind\": []}", "format": "ipuz"}, "not valid ipuz"),
    ("read", {"text": "a1b"}, "grid row 1"),
    ("write", {"rows": ["..", ".."], "clues": {"9A": "x"}}, "no slot '9A'"),
    ("write", {"rows": ["..", ".."], "clues": ["x"]}, "'clues'"),
    ("write", {"rows": ["..", "..."]}, "differ in length"),
    ("write", {"rows": 3}, "'rows'"),
    ("write", {"rows": [".."], "title": "a\nb"}, "'title'"),
    ("write", {"rows": ["..", ".."], "height": 3}, "height is 3"),
    ("write", {"rows": ["..", ".."], "clues": {"1A": "x\x00"}}, "control character"),
])
def test_bad_requests_are_json_errors(client, route, body, words):
    r = client.post(f"/api/grid/{route}", json=body)
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["type"] == "QueryError" and words in err["message"], err


def test_sizes_are_bounded(client):
    big = grid_from_text("\n".join(["." * 60] * 60))
    r = client.post("/api/grid/write", json={**to_document(big), "format": "puz"})
    assert r.status_code == 200  # 3,600 cells fit the 8,000-byte body
    r = read(client, data=b64(acrosslite.render(big.with_clues({s.name: "x" * 40 for s in big.slots()}))))
    assert r.status_code == 413 and r.json()["error"]["type"] == "TooLarge"
    r = client.post("/api/grid/read", content=b"{" * 5000, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["type"] == "QueryError"
    r = client.get("/api/grid/read")
    assert r.status_code == 405 and r.json()["error"]["type"] == "MethodNotAllowed"


def test_the_routes_are_described(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert set(paths["/api/grid/read"]["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"]) \
        == {"format", "name", "text", "data"}
    assert "application/x-crossword" in paths["/api/grid/write"]["post"]["responses"]["200"]["content"]
    assert json.dumps(paths)  # plain JSON


def test_the_schema_refuses_a_wrong_shape():
    good = to_document(GRID)
    SCHEMA.validate(good)
    jsonschema = pytest.importorskip("jsonschema")
    for bad in ({**good, "rows": ["ab", "c1"]}, {**good, "clues": {"1X": "x"}}, {**good, "clues": {"1A": ""}},
                {**good, "format": "docx"}, {k: v for k, v in good.items() if k != "rows"}, {**good, "extra": 1}):
        with pytest.raises(jsonschema.ValidationError):
            SCHEMA.validate(bad)
