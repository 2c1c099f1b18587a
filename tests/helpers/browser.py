"""The page's browser tests' one set-up: Debian's Chromium driven by Playwright, a server in a thread, a page
that fails its test when it asks anything of another origin or a script fails.

``tests/server/conftest.py`` makes fixtures of them (``server``, ``browser_context``, ``page``); a test module
does its own ``importorskip`` of Playwright and the server extra, and calls :func:`skip_without_chromium` at
import time.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("LEXIGRAPH_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = Path(os.environ.get("LEXIGRAPH_SCREENSHOTS", ROOT / "build" / "screenshots"))
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def skip_without_chromium() -> None:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


def served() -> Iterator[str]:
    """A server of the default app in a thread: its base URL."""
    from lexigraph.server import create_app
    from lexigraph.server.background import serve_in_thread

    with serve_in_thread(create_app()) as url:
        yield url


def browser_context() -> Iterator[Any]:
    """A persistent Chromium context with a throwaway profile (the test skips when Chromium cannot start)."""
    from playwright import sync_api

    profile = tempfile.mkdtemp(prefix="lexigraph-chromium-")
    with sync_api.sync_playwright() as p:
        try:
            ctx = p.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=FLAGS, headless=True, viewport={"width": 1100, "height": 820})
        except Exception as e:  # the browser is there but cannot start here
            pytest.skip(f"Chromium did not start: {str(e).splitlines()[0]}")
        yield ctx
        ctx.close()
    shutil.rmtree(profile, ignore_errors=True)


def opened_page(context: Any, server: str) -> Iterator[Any]:
    """The page, loaded and ready; afterwards, nothing but the server was asked for anything and no script failed."""
    pg = context.new_page()
    requests: list[str] = []
    errors: list[str] = []
    pg.on("request", lambda r: requests.append(r.url))
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/")
    pg.wait_for_selector("body[data-ready='1']")
    yield pg
    origin = urlsplit(server).netloc
    assert [u for u in requests if not u.startswith("data:") and urlsplit(u).netloc != origin] == []
    assert errors == []
    pg.close()
