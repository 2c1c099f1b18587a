"""The cardbox's lists in and out (lexigraph.study.exchange, what ``lexigraph cardbox import/export`` and
``/api/cardbox/import``/``export`` do): the questions imported and the answers exported, held to oracles built from
the word list alone (sorted letters, a Counter, a regex), on generated lists and on both engines."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexigraph.errors import QueryError
from lexigraph.study.cardbox import CardBox
from lexigraph.study.exchange import export_rows, export_text, import_document, prompts_of_list
from lexigraph.study.lists import read_list

pytest.importorskip("fsrs", reason="the cardbox needs the study extra: pip install 'lexigraph[study]'")

LETTERS = "aeilnrst"


def random_words(seed: int, n: int = 200) -> list[str]:
    rng = random.Random(seed)
    out: set[str] = set()
    while len(out) < n:
        out.add("".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 6))))
    return sorted(out)


def oracle_anagrams(words: list[str], prompt: str) -> list[str]:
    return sorted(w for w in words if sorted(w) == sorted(prompt.lower()))


def oracle_hooks(words: list[str], prompt: str) -> list[str]:
    base = prompt.lower()
    return sorted(w for w in words if len(w) == len(base) + 1 and (w[1:] == base or w[:-1] == base))


@pytest.mark.parametrize("seed", range(3))
def test_import_and_export_equal_the_oracle(open_lexicon, seed):
    words = random_words(seed)
    lex = open_lexicon(words)
    rng = random.Random(seed)
    listed = rng.sample(words, 40) + ["q@z", "xyzzy"]  # two lines not spelled in these tiles
    rng.shuffle(listed)
    with CardBox(":memory:") as box:
        doc = import_document(lex.store, box, "me", "L", "anagram", "\n".join(listed) + "\n", now=0.0)
        expected = list(dict.fromkeys("".join(sorted(w)).upper() for w in listed if set(w) <= set(LETTERS)))
        assert doc["results"] == [{"type": "anagram", "questions": len(expected), "added": len(expected),
                                   "skipped": 2}]
        assert box.prompts("me", "L", "anagram") == expected
        rows = export_rows(lex.store, lex.engine, box, "me", "L", "anagram")
        assert rows == [(q, oracle_anagrams(words, q)) for q in expected]
        plain = export_text(rows, "plain")
        assert plain.split() == [w for q in expected for w in oracle_anagrams(words, q)]
        zyzzyva = export_text(rows, "zyzzyva")
        assert read_list(zyzzyva).questions == expected  # Zyzzyva's list reads back as its questions
        again = import_document(lex.store, box, "me", "L", "anagram", zyzzyva, now=1.0)
        assert again["results"][0]["added"] == 0 and "warnings" not in again
        hooks = import_document(lex.store, box, "you", "L", "hooks", plain, now=0.0)
        assert hooks["results"][0]["added"] == len(set(plain.split()))
        for q, answers in export_rows(lex.store, lex.engine, box, "you", "L", "hooks"):
            assert answers == oracle_hooks(words, q)
        assert box.prompts("me", "L", "hooks") == []  # one user's import is that user's alone


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(LETTERS, min_size=2, max_size=6), min_size=1, max_size=40))
def test_a_plain_export_imports_back_to_the_same_questions(listed):
    import lexigraph

    lex = lexigraph.load(sorted(set(listed)), alphabet="english", pure_python=True)
    with CardBox(":memory:") as box:
        import_document(lex.store, box, "me", "L", "anagram", "\n".join(listed), now=0.0)
        first = box.prompts("me", "L", "anagram")
        text = export_text(export_rows(lex.store, lex.engine, box, "me", "L", "anagram"), "plain")
    with CardBox(":memory:") as other:
        import_document(lex.store, other, "me", "L", "anagram", text, now=0.0)
        assert other.prompts("me", "L", "anagram") == first


def test_lists_with_no_word_and_bad_formats(enable):
    for text in ("", "\n# a comment\n\n", "Q:\nA:\n"):
        with pytest.raises(QueryError, match="holds no word"):
            prompts_of_list(enable.store, "anagram", text)
    with pytest.raises(QueryError):
        export_text([], "csv")
    assert export_text([], "plain") == "" and export_text([], "zyzzyva") == ""
    prompts, skipped = prompts_of_list(enable.store, "pattern", "quixotic\nQUIXOTIC\nc@t\n")
    assert prompts == [re.sub("[aeiou]", "?", "quixotic").upper()] and skipped == ["c@t"]


def test_an_import_past_its_deadline_adds_nothing(enable):
    import time

    from lexigraph.errors import DeadlineExceeded

    with CardBox(":memory:") as box:
        with pytest.raises(DeadlineExceeded):
            import_document(enable.store, box, "me", "ENABLE", "anagram", "care\ndog\n", now=0.0,
                            deadline=time.monotonic() - 1)
        assert box.prompts("me", "ENABLE", "anagram") == []


def test_a_zyzzyva_list_of_twl06_sevens(twl_words, engine_kind):
    """TWL06 (skipped when the shared data is not there): a Zyzzyva list of sevens' alphagrams, as Zyzzyva saves
    it (questions and answers, lexicon symbols after some words), imported and exported on each engine."""
    from conftest import open_on

    words = sorted(set(w.lower() for w in twl_words))
    lex = open_on(engine_kind, words)
    groups: dict[str, list[str]] = {}
    for w in words:
        if len(w) == 7:
            groups.setdefault("".join(sorted(w)).upper(), []).append(w)
    questions = random.Random(7).sample(sorted(groups), 150)
    text = "".join(f"Q: {q}\n" + "".join(f"A: {w.upper()}# [n]\n" for w in groups[q]) for q in questions)
    with CardBox(":memory:") as box:
        doc = import_document(lex.store, box, "me", "TWL06", "anagram", text, now=0.0)
        assert doc["results"][0]["added"] == 150 and "warnings" not in doc
        rows = export_rows(lex.store, lex.engine, box, "me", "TWL06", "anagram")
        assert rows == [(q, sorted(groups[q])) for q in questions]
