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


# -- layout: what covers what, on the page as drawn ------------------------------------------------------------------

#: Boxes as the browser lays them out, [left, top, right, bottom] in CSS pixels: an element's; its own text's (a Range
#: over its first non-blank text node: the glyphs, not the box around them); its ``::after``'s (from the resolved
#: style of the pseudo-element, which Chromium gives in pixels).
_BOXES_JS = """
const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const textBox = (e) => {
  const t = [...e.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
  if (!t) return null;
  const range = document.createRange(); range.selectNodeContents(t);
  const r = range.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];
};
const afterBox = (e) => {
  const s = getComputedStyle(e, "::after");
  if (s.content === "none" || s.content === "normal") return null;
  const r = e.getBoundingClientRect(), x = r.left + parseFloat(s.left), y = r.top + parseFloat(s.top);
  return [x, y, x + parseFloat(s.width), y + parseFloat(s.height)];
};
const meet = (a, b) => !!a && !!b && Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 0.5 && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 0.5;
const shown = (e) => { const r = e.getBoundingClientRect();   // a screen reader's label (1px, clipped) is not drawn
  return r.width > 1 && r.height > 1 && getComputedStyle(e).visibility !== "hidden"; };
const name = (e) => e.id ? "#" + e.id : e.tagName.toLowerCase() + (e.dataset.r ? `[${e.dataset.r},${e.dataset.c}]` : "");
"""


def covered_letters(pg: Any, cells: str) -> list[str]:
    """Each square of ``cells`` (a selector) whose letter meets its slot number, its premium label or the arrow of
    the typing direction: ``"[row,col] letter under .num"``; [] when nothing covers a letter."""
    return list(pg.evaluate("(cells) => {" + _BOXES_JS + """
      const bad = [];
      for (const d of document.querySelectorAll(cells)) {
        const letter = textBox(d);
        if (!letter) continue;
        for (const part of d.querySelectorAll(".num, .prem")) if (meet(letter, box(part))) bad.push(`${name(d)} letter under .${part.className}`);
        if (meet(letter, afterBox(d))) bad.push(`${name(d)} letter under the direction arrow`);
      }
      return bad; }""", cells))


def labels_astray(pg: Any, view: str) -> list[str]:
    """Each shown ``label[for]`` in ``view`` that is not just left of its control on the control's line, and each
    pair of shown labels and controls that overlap: [] when every label sits by its control and nothing overlaps."""
    return list(pg.evaluate("(view) => {" + _BOXES_JS + """
      const bad = [], root = document.querySelector(view);
      for (const label of root.querySelectorAll("label[for]")) {
        const control = document.getElementById(label.htmlFor);
        if (!shown(label) || !control || !shown(control)) continue;
        const l = textBox(label) || box(label), c = box(control), middle = (l[1] + l[3]) / 2;
        if (middle < c[1] || middle > c[3]) bad.push(`${name(control)}: its label is not on its line`);
        else if (l[2] > c[0] + 0.5 || c[0] - l[2] > 24) bad.push(`${name(control)}: its label is ${Math.round(c[0] - l[2])}px away`);
      }
      const parts = [...root.querySelectorAll("label, input, select, button, .legend li")].filter(shown);
      for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
        if (parts[i].contains(parts[j]) || parts[j].contains(parts[i])) continue;
        if (meet(box(parts[i]), box(parts[j]))) bad.push(`${name(parts[i])} overlaps ${name(parts[j])}`);
      }
      return bad; }""", view))


def overflow(pg: Any) -> int:
    """How far the page is wider than the window, in CSS pixels (0 or less: no sideways scrolling)."""
    return int(pg.evaluate("document.documentElement.scrollWidth - window.innerWidth"))
