"""The server tests' fixtures: no games file in the user's folder; for the browser tests (``test_page.py``,
``test_play_page.py``) a server in a thread, a Chromium context, a page. ``helpers/browser.py`` does the work
and imports Playwright only when a test asks for a page, so the other server tests run without it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from helpers.browser import browser_context as _browser_context, opened_page, served


@pytest.fixture(autouse=True)
def no_games_in_the_users_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server a test starts without ``--games-db`` keeps its games under a temporary folder, never the user's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from served()


@pytest.fixture(scope="module")
def browser_context() -> Iterator[Any]:
    yield from _browser_context()


@pytest.fixture()
def page(browser_context: Any, server: str) -> Iterator[Any]:
    yield from opened_page(browser_context, server)
