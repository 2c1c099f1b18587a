"""The classic TWL06 module's interface (twl.py): where it answers from."""

from __future__ import annotations

import warnings

import pytest

pytestmark = pytest.mark.usefixtures("private_cache")


def test_twl_module_says_where_it_answers_from(shared, monkeypatch):
    from lexigraph import twl

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        twl.use(None)
    assert "built-in ENABLE" in str(caught[0].message) and not twl.check("qi")
    try:
        twl.use(shared("twl06.dawg32"))
        assert twl.check("qi") and twl.children("dude") == ["$", "d", "e", "s"]
        twl.use(shared("twl06.txt"))
        assert twl.check("qi")
    finally:
        twl._lexicon = None
