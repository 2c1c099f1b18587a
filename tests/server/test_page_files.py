"""The page's files: its ES modules (no build step) all served, as JavaScript, all shipped with the package.

The page loads one module (``index.html``'s ``<script type="module">``), which imports the others by relative
paths; a module missing from the package, or served with a type a browser refuses for a module, leaves the page
blank. These tests follow the imports from ``index.html`` as the browser does.
"""

from __future__ import annotations

import mimetypes
import re
import tomllib
import warnings
from collections.abc import Callable
from importlib import resources
from pathlib import Path, PurePosixPath

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
pytest.importorskip("httpx", reason="the API tests need httpx")

with warnings.catch_warnings():  # Starlette >= 1.x suggests httpx2; httpx still drives its test client
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from lexigraph.server import create_app  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parents[2]
#: The installed package's page folder: what the server serves under /static.
STATIC = resources.files("lexigraph.server").joinpath("static")
#: ``<script type="module" src="/static/NAME">`` in the page.
MODULE_SCRIPT = re.compile(r'<script\s+type="module"\s+src="/static/([^"]+)"')
#: A static import (``import {a} from "./x.js"``, ``import * as t from "./x.js"``, ``import "./x.js"``) or a
#: dynamic one (``import("./x.js")``).
IMPORT = re.compile(r'''^\s*import\s*(?:[^"'();]*?\bfrom\s*)?["']\./([^"']+)["']|\bimport\(\s*["']\./([^"']+)["']''',
                    re.M)


def imports_of(source: str) -> list[str]:
    """The page modules a module imports (by their names in the page's folder)."""
    return [a or b for a, b in IMPORT.findall(source)]


def module_graph(page: str, read: Callable[[str], str]) -> dict[str, list[str]]:
    """Every module the page loads and what each imports, from ``index.html``'s module scripts on; ``read(name)``
    gives a module's text."""
    graph: dict[str, list[str]] = {}
    todo = MODULE_SCRIPT.findall(page)
    assert todo, "the page loads no module script"
    while todo:
        name = todo.pop()
        if name not in graph:
            graph[name] = imports_of(read(name))
            todo.extend(graph[name])
    return graph


def cycle_in(graph: dict[str, list[str]]) -> list[str]:
    """One import cycle of the graph (its modules in order), or []."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(name: str) -> list[str]:
        state[name] = 1
        path.append(name)
        for dep in graph.get(name, []):
            if state.get(dep) == 1:
                return path[path.index(dep):] + [dep]
            if dep not in state and (found := walk(dep)):
                return found
        path.pop()
        state[name] = 2
        return []

    for name in graph:
        if name not in state and (found := walk(name)):
            return found
    return []


def test_the_import_reader_sees_every_form():
    source = ('import { a, b } from "./api.js";\nimport * as tab from \'./tab-x.js\';\nimport "./side.js";\n'
              'const later = () => import("./lazy.js");\n// import nothing from "./comment.js" mid-line\n'
              'import {\n  c,\n} from "./multi.js";\n')
    assert sorted(imports_of(source)) == ["api.js", "lazy.js", "multi.js", "side.js", "tab-x.js"]
    assert cycle_in({"a": ["b"], "b": ["c"], "c": ["a"]}) == ["a", "b", "c", "a"]
    assert cycle_in({"main": ["a", "b"], "a": ["b"], "b": []}) == []


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def test_every_module_the_page_imports_is_served_as_javascript(client):
    """Each module the page loads, followed from index.html over HTTP: 200, ``text/javascript``; every
    ``.js`` file in the folder is one of them (none left over), and the modules import no cycle."""
    types = {}

    def fetch(name: str) -> str:
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
        types[name] = r.headers["content-type"]
        return r.text

    graph = module_graph(client.get("/").text, fetch)
    assert {n: t.split(";")[0] for n, t in types.items()} == {n: "text/javascript" for n in graph}
    assert set(graph) == {p.name for p in STATIC.iterdir() if p.name.endswith(".js")}
    assert "main.js" in graph and len(graph) > 2
    assert cycle_in(graph) == []


def test_modules_are_javascript_whatever_the_platform_says(client):
    """A platform whose table of types calls ``.js`` ``text/plain`` (some Windows registries do): a browser would
    run no module of the page; the server says ``text/javascript`` still."""
    before = mimetypes.guess_type("x.js")[0]
    mimetypes.add_type("text/plain", ".js")
    try:
        assert mimetypes.guess_type("x.js")[0] == "text/plain"
        r = client.get("/static/main.js")
        assert r.status_code == 200 and r.headers["content-type"] == "text/javascript; charset=utf-8"
        assert client.get("/static/app.css").headers["content-type"].startswith("text/css")
    finally:
        mimetypes.add_type(before or "text/javascript", ".js")


def test_the_package_ships_every_module_the_page_imports():
    """The installed package's page folder holds index.html and every module it imports, and the package data
    pyproject.toml declares (what a wheel ships) names each one."""
    graph = module_graph(STATIC.joinpath("index.html").read_text("utf-8"),
                         lambda name: STATIC.joinpath(name).read_text("utf-8"))
    needed = {"index.html", "app.css", *graph}
    assert all(STATIC.joinpath(name).is_file() for name in needed)
    pyproject = ROOT / "pyproject.toml"
    if not pyproject.exists():
        pytest.skip("no pyproject.toml: the tests run from an installed package, not a checkout")
    patterns = tomllib.loads(pyproject.read_text("utf-8"))["tool"]["setuptools"]["package-data"]["lexigraph"]
    # Path.match as setuptools globs: a * stays within one folder.
    shipped = {name for name in needed if any(PurePosixPath(f"server/static/{name}").match(p) for p in patterns)}
    assert shipped == needed
