"""The browser tests' fixtures, shared by ``test_page.py`` and ``test_play_page.py``: a server in a thread, a
Chromium context, a page. ``helpers/browser.py`` does the work and imports Playwright only when a test asks for
a page, so the other server tests run without it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from helpers.browser import browser_context as _browser_context, opened_page, served


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from served()


@pytest.fixture(scope="module")
def browser_context() -> Iterator[Any]:
    yield from _browser_context()


@pytest.fixture()
def page(browser_context: Any, server: str) -> Iterator[Any]:
    yield from opened_page(browser_context, server)
