"""Alphabet hints (compiler/alphabet_hints.py): a build whose words belong to another preset notes the alphabet
that keeps them as tiles, in the report, the build summary and --json; the usual lists get no note; following a
note's advice removes it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.alphabet import PRESETS, Alphabet
from lexigraph.cli.main import main
from lexigraph.compiler import alphabet_hints
from lexigraph.compiler.alphabet_hints import KEEPS, alphabet_hint, marks

SPANISH = ["año", "niño", "chocho", "chacha", "calle", "perro", "ocho", "cacho", "carro", "llama"]
CATALAN = ["plaça", "caça", "força", "peça", "nyap", "quatre", "casa", "gos", "llibre", "col·lecció"]


def hint_of(words, alphabet=None):
    return lexigraph.build(words, None, alphabet=alphabet).report


def test_a_spanish_list_without_its_alphabet_is_noted():
    report = hint_of(SPANISH)
    assert report.alphabet_hint == "spanish"
    assert "--alphabet spanish" in report.notes[0] and "CH, LL, RR" in report.notes[0]
    assert report.to_dict()["notes"] == report.notes and report.to_dict()["alphabet_hint"] == "spanish"
    english = hint_of(SPANISH, "english")  # ñ folded to n by the English alphabet
    assert english.alphabet_hint == "spanish" and "CH, LL, Ñ, RR" in english.notes[0]
    assert not hint_of(SPANISH, "spanish").notes


def test_a_catalan_list_is_noted_catalan_not_spanish():
    report = hint_of(CATALAN)
    assert report.alphabet_hint == "catalan" and "Ç" in report.notes[0]


def test_letters_outside_the_alphabet_given_name_the_alphabet_that_keeps_them():
    english = ["kiwi", "walk", "week", "cat", "dog", "zoo", "quiz", "kayak", "wax", "yak"]
    report = hint_of(english, "spanish")
    assert report.alphabet_hint == "english" and "outside the spanish alphabet" in report.notes[0]
    # The README's list: one loanword in seven is outside, but English would fold the ñ of two: no note.
    assert not hint_of(["año", "niño", "chocho", "chacha", "calle", "perro", "kiwi"], "spanish").notes


def test_usual_lists_get_no_note_and_reports_keep_their_shape():
    report = hint_of(["cat", "dog", "façade", "cañon", "kiwi", "walk", "the", "and", "church", "hall", "carry"])
    assert report.notes == [] and report.alphabet_hint is None  # English with two loanwords: no mark is enough
    assert "notes" not in report.to_dict() and "alphabet_hint" not in report.to_dict()
    assert not hint_of(["cat", "dog"], "english").notes


def test_the_build_summary_and_json_carry_the_note(tmp_path, capsys):
    src = tmp_path / "sin.txt"
    src.write_text("\n".join(SPANISH) + "\n", encoding="utf-8")
    assert main(["build", str(src), "-o", str(tmp_path / "sin.lex")]) == 0
    out = capsys.readouterr().out
    assert any(line.startswith("  note: ") and "--alphabet spanish" in line for line in out.splitlines())
    assert main(["build", str(src), "-o", str(tmp_path / "sin.lex"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["build"]["alphabet_hint"] == "spanish" and "--alphabet spanish" in doc["build"]["notes"][0]
    assert main(["stats", str(tmp_path / "sin.lex")]) == 0
    assert "note: " in capsys.readouterr().out  # the report lives in the file


def test_marks_are_the_presets_own():
    assert marks("spanish") == {"ñ"} and {"ç", "l·l", "l.l"} <= marks("catalan")
    assert marks("english") == marks("french") == frozenset()
    for a in PRESETS:
        for b in PRESETS:
            if a != b:
                assert not marks(a) & (set(Alphabet.preset(b).labels) | set(Alphabet.preset(b).aliases))


def test_a_hint_looks_at_a_bounded_sample(monkeypatch):
    seen = []
    real = alphabet_hints._counted
    monkeypatch.setattr(alphabet_hints, "_counted", lambda words, *a: seen.append(len(words)) or real(words, *a))
    words = [f"{w}{'ab'[i % 2]}" for i, w in enumerate(SPANISH * 5000)]
    assert alphabet_hint(words, Alphabet.from_letters("".join(words)), outside=0, inferred=True) is not None
    assert seen and max(seen) <= alphabet_hints.SAMPLE


# -- generated lists ------------------------------------------------------------------------------------


def tiled_words(name: str, must: str) -> st.SearchStrategy[list[str]]:
    """Words of a preset's tiles, each holding the tile ``must``."""
    tiles = list(Alphabet.preset(name).labels)
    word = st.tuples(st.lists(st.sampled_from(tiles), max_size=4), st.lists(st.sampled_from(tiles), max_size=4)) \
        .map(lambda parts: "".join(parts[0]) + must + "".join(parts[1]))
    return st.lists(word, min_size=3, max_size=40, unique=True)


@settings(max_examples=40, deadline=None)
@given(words=tiled_words("spanish", "ñ"))
def test_generated_spanish_lists_name_spanish_and_following_the_note_removes_it(words):
    report = hint_of(words)
    assert report.alphabet_hint == "spanish"
    assert not hint_of(words, "spanish").notes


@settings(max_examples=40, deadline=None)
@given(words=st.lists(st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8), min_size=1, max_size=40))
def test_generated_plain_lists_get_no_note(words):
    assert not hint_of(words).notes and not hint_of(words, "english").notes


@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.text("abcdefghijklmnopqrstuvwxyzñçé", min_size=2, max_size=8), min_size=1, max_size=40),
       alphabet=st.sampled_from([None, *PRESETS]))
def test_any_note_names_a_preset_that_keeps_the_words_and_has_nothing_to_add(words, alphabet):
    """Whatever the list: a note names another preset, which splits at least 98% of the words, and a build with it
    names nothing more (the advice, followed, is the end of it)."""
    try:
        report = hint_of(words, alphabet)
    except lexigraph.LexiconError:
        return  # no word left in the alphabet: nothing to note
    if report.alphabet_hint is None:
        return
    assert report.alphabet_hint != (alphabet or "letters")
    named = Alphabet.preset(report.alphabet_hint)
    assert sum(named.encode(w) is not None for w in words) >= KEEPS * len(words)
    assert hint_of(words, report.alphabet_hint).alphabet_hint is None


# -- the real lists -------------------------------------------------------------------------------------------


def test_the_shared_lists(shared):
    assert hint_of(shared("es-wspanish.txt")).alphabet_hint == "spanish"
    assert hint_of(shared("es-wspanish.txt"), "english").alphabet_hint == "spanish"
    assert hint_of(shared("es-wspanish.txt"), "spanish").notes == []
    assert hint_of(shared("twl06.txt")).notes == []
    assert hint_of(shared("twl06.txt"), "spanish").alphabet_hint == "english"
    assert hint_of(shared("en-scowl-huge.txt")).notes == []  # cañon and façade, but Spanish keeps only 86%
