"""The examples of the pages test_doc_examples.py leaves to this file (its SPLIT_OFF), run as it runs them: a
file of their own, so that the test workers (--dist loadfile) run the two halves at once."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
try:
    from test_doc_examples import PAGES, SPLIT_OFF, check_page
finally:
    sys.path.pop(0)

SPLIT_PAGES = [p for p in PAGES if p.name in SPLIT_OFF]


def test_the_split_pages_exist():
    assert sorted(p.name for p in SPLIT_PAGES) == sorted(SPLIT_OFF)


@pytest.mark.parametrize("page", SPLIT_PAGES, ids=[p.name for p in SPLIT_PAGES])
def test_page_examples(page, tmp_path, monkeypatch):
    check_page(page, tmp_path, monkeypatch)
