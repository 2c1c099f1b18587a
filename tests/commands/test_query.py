"""The anagram command's orders and paging (commands/query.py): the page's Search tab asks for anagrams this way."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexigraph.commands import Context
from lexigraph.commands.query import ANAGRAM_SORTS
from lexigraph.commands import all_commands
from lexigraph.errors import QueryError

ANAGRAM = next(c for c in all_commands() if c.name == "anagram")
SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schema"


def run(lex, max_results=None, **params):
    doc = ANAGRAM.run(Context(opener=lambda spec: lex, max_results=max_results), params)
    json.dumps(doc)
    assert doc["count"] == len(doc["results"])
    return doc


def fits(word: str, rack: str, mode: str) -> bool:
    """Whether ``word`` is made of ``rack``'s tiles (``?`` any tile) as ``mode`` asks: a Counter oracle."""
    have = Counter(rack.replace("?", ""))
    short = sum((Counter(word) - have).values())
    blanks = rack.count("?")
    if mode == "super":
        return not (have - Counter(word))
    if short > blanks:
        return False
    return mode == "sub" or len(word) == len(rack)


def in_order(lex, rack: str, mode: str, lo: int, hi: int | None, sort: str) -> list[str]:
    """The words asked for, from ``lexicon.anagram`` and ordered as the command says it orders them: probability
    by each word's own rank (``lexicon.probability``), then shorter first, then tile order."""
    if sort != "probability":
        return lex.anagram(rack, mode=mode, min_length=lo, max_length=hi, sort=sort)
    words = lex.anagram(rack, mode=mode, min_length=lo, max_length=hi)
    at = {w: i for i, w in enumerate(words)}
    return sorted(words, key=lambda w: (lex.probability(w).rank, len(w), at[w]))


@settings(max_examples=40)
@given(rack=st.text(alphabet=st.sampled_from(list("aeinrstqz?")), min_size=1, max_size=6),
       mode=st.sampled_from(["sub", "exact", "super"]), lo=st.integers(1, 6), span=st.none() | st.integers(0, 4),
       sort=st.sampled_from(ANAGRAM_SORTS), offset=st.integers(0, 30), limit=st.none() | st.integers(0, 40))
def test_anagram_orders_and_pages_as_asked(enable_on, rack, mode, lo, span, sort, offset, limit):
    hi = None if span is None else lo + span
    if mode == "super":   # no blanks, and a Q and a U: a few hundred words, not every word holding an A
        rack = rack.replace("?", "") + "qu"
    flags = {"exact": mode == "exact", "super": mode == "super"}
    doc = run(enable_on, racks=[rack], min_length=lo, max_length=hi, sort=sort, offset=offset, limit=limit, **flags)
    full = in_order(enable_on, rack, mode, lo, hi, sort)
    end = None if limit is None else offset + limit
    assert [r["word"] for r in doc["results"]] == full[offset:end]
    assert doc.get("total", doc["count"]) == len(full) and ("total" in doc) == (offset > 0 or limit is not None)
    for r in doc["results"]:
        n = len(r["tiles"])
        assert fits(r["word"], rack, mode) and lo <= n and (hi is None or n <= hi)
        assert ("probability_rank" in r) == (sort == "probability")
        if sort == "probability":
            assert r["probability_rank"] == enable_on.probability(r["word"]).rank


def test_probability_order_is_the_study_searchs(enable_on):
    """For exact and sub-anagrams the search language says the same thing another way: the same words, in the
    same order, as ``search --sort probability``."""
    for mode, condition in (("exact", "anagram"), ("sub", "subanagram")):
        doc = run(enable_on, racks=["aeinrst?"], sort="probability", exact=mode == "exact")
        assert [r["word"] for r in doc["results"]] == enable_on.search(f"{condition} aeinrst? and length 2-",
                                                                        sort="probability")
        assert doc["tile_set"] == "english"


def test_the_servers_cap_pages_instead_of_losing_words(enable):
    """Under a server's --max-results every page is full: the words past the cap are reached by offset, not cut
    (the page asked for page 11 of 34 and got nothing)."""
    everything = enable.anagram("aeinrst?", sort="length")
    pages = [run(enable, max_results=1000, racks=["aeinrst?"], sort="length", offset=k, limit=1000)
             for k in range(0, len(everything), 1000)]
    assert [r["word"] for p in pages for r in p["results"]] == everything
    assert {p["total"] for p in pages} == {len(everything)}
    capped = run(enable, max_results=10, racks=["aeinrst?"], limit=50)
    assert capped["count"] == 10 and capped["total"] == len(everything)


def test_documents_validate_and_bad_values_are_one_clear_error(enable):
    jsonschema = pytest.importorskip("jsonschema")
    import referencing

    registry = referencing.Registry().with_resources(
        (s["$id"], referencing.Resource.from_contents(s)) for s in
        (json.loads(p.read_text()) for p in SCHEMAS.glob("*.json")))
    schema = json.loads((SCHEMAS / "anagram.json").read_text())
    for params in ({"sort": "probability", "limit": 3}, {"sort": "length", "offset": 5, "limit": 2}, {}):
        jsonschema.Draft202012Validator(schema, registry=registry).validate(run(enable, racks=["retains"], **params))
    for params in ({"sort": "chance"}, {"offset": -1}, {"limit": "ten"}, {"limit": True}):
        with pytest.raises(QueryError):
            run(enable, racks=["retains"], **params)
    with pytest.raises(QueryError, match="offset must be from 0 to"):  # numbers are range-checked where read
        run(enable, racks=["retains"], offset=2**70, limit=2**70)
    far = run(enable, racks=["retains"], offset=2**31 - 1, limit=2**31 - 1)
    assert far["results"] == [] and far["total"] == len(enable.anagram("retains"))


def test_probability_needs_a_tile_set():
    import lexigraph

    lex = lexigraph.open(["cañon", "canon"])
    with pytest.raises(QueryError, match="tile set"):
        run(lex, racks=["cañon"], sort="probability")
