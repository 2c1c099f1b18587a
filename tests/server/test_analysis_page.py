"""The Analysis tab in a real headless Chromium: a GCG file loaded and analysed, the game stepped through by keyboard
(the board follows the turn), the win-chance chart with the mistakes marked, the mistake list and the engine's
alternatives found. Same set-up as ``test_page.py`` (Debian's Chromium through Playwright; skips cleanly when
either is missing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (pip install -e '.[browser]')")

from lexigraph.server import create_app  # noqa: E402
from lexigraph.server.app import Limits  # noqa: E402
from lexigraph.server.background import serve_in_thread  # noqa: E402

from helpers.browser import opened_page, skip_without_chromium  # noqa: E402

skip_without_chromium()

GCG = """#player1 ann Ann
#player2 bob Bob
>ann: AEINRST 8D RETAINS +66 66
>bob: EIOPSXY 9E SOX +39 39
>ann: ABDEGLO 10F GOLBD +30 96
>ann: ABDEGLO -- -30 66
>bob: EIPYAGT -AGT +0 39
>ann: ABDEGLO E5 BOD(E) +16 82
"""


@pytest.fixture(scope="module")
def slow_server() -> Iterator[str]:
    # the analysis runs in the heavy lane's worker, which opens the lexicon and the tables first: a loaded machine
    # may take more than the default 10 s
    with serve_in_thread(create_app(limits=Limits(timeout=300.0))) as url:
        yield url


@pytest.fixture()
def analysis_page(browser_context: Any, slow_server: str) -> Iterator[Any]:
    yield from opened_page(browser_context, slow_server)


def test_a_gcg_loaded_stepped_through_by_keyboard_with_its_chart_and_mistakes(analysis_page, tmp_path):
    pg = analysis_page
    pg.click("#tab-analysis")
    assert pg.is_visible("#view-analysis")
    game = tmp_path / "game.gcg"
    game.write_text(GCG)
    pg.set_input_files("#analysis-file", str(game))
    pg.wait_for_function("document.getElementById('analysis-gcg').value.includes('RETAINS')")
    pg.click("#analysis-go")
    pg.wait_for_selector("#analysis-game:not([hidden])", timeout=300_000)
    steps = pg.locator("#analysis-steps li")
    assert steps.count() == 5  # RETAINS, SOX, the phony challenged off, the exchange, BOD(E)
    assert pg.evaluate("document.activeElement.id") == "analysis-steps"
    # step by keyboard: the board follows
    assert pg.get_attribute("#view-analysis", "data-turn") == "0"
    assert pg.locator("#analysis-board .cell.filled").count() == 0
    pg.keyboard.press("ArrowRight")
    assert pg.get_attribute("#view-analysis", "data-turn") == "1"
    assert pg.locator("#analysis-board .cell.filled").count() == 7  # RETAINS
    pg.keyboard.press("ArrowRight")
    assert pg.locator("#analysis-board .cell.filled").count() == 10  # and SOX
    assert pg.get_attribute("#analysis-turn-1", "aria-selected") == "true"
    pg.keyboard.press("End")
    assert pg.get_attribute("#view-analysis", "data-turn") == str(steps.count())
    pg.keyboard.press("Home")
    assert pg.get_attribute("#view-analysis", "data-turn") == "0"
    # the chart: a line over every turn, mistakes marked
    assert pg.locator("#analysis-chart polyline.win").count() == 1
    points = pg.evaluate("document.querySelector('#analysis-chart polyline').points.length")
    assert points == steps.count() + 1
    marked = pg.locator("#analysis-chart circle").count()
    mistakes = pg.locator("#analysis-mistakes li button").count()
    assert marked == mistakes >= 1
    # the engine's alternatives at a turn
    pg.locator("#analysis-mistakes li button").first.click()
    assert pg.locator("#analysis-alternatives li").count() >= 1
    assert "Turn" in pg.text_content("#analysis-now")
