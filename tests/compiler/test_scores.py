"""Scores for any list (compiler/scores.py): word frequency on its documented scale, and layered lists, against
independent oracles (wordfreq's own zipf_frequency, and dictionaries)."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.alphabet import Alphabet
from lexigraph.compiler import scores
from lexigraph.errors import BuildError

WORD = st.text(alphabet="abcde", min_size=2, max_size=4)


def test_the_scale():
    assert [scores.zipf_priority(z) for z in (0.0, 1.0, 2.0, 3.0, 4.44, 7.73, 30.0)] == [20, 30, 40, 50, 64, 97, 255]
    assert scores.language_for("spanish") == "es" and scores.language_for("letters") == "en"
    assert scores.language_for("english", "FR") == "fr"
    with pytest.raises(BuildError):
        scores.language_for("english", " ")


def test_wordfreq_priorities_follow_zipf_frequency(tmp_path):
    wordfreq = pytest.importorskip("wordfreq")
    words = ["the", "cat", "aloe", "stane", "snarlier", "zyzzyva", "qwxz", "house", "erne"]
    got = scores.wordfreq_priorities(words, "en").tolist()
    want = [20 + round(10 * wordfreq.zipf_frequency(w, "en")) for w in words]
    assert got == want
    path = tmp_path / "w.lex"
    lexigraph.build(words, path, score_by="wordfreq")
    lex = lexigraph.open(path)
    assert {w: lex.priority(w) for w in words} == dict(zip(words, want))
    with pytest.raises(BuildError, match="no language"):
        scores.wordfreq_priorities(words, "tlh")


def test_real_list_scored(shared, tmp_path):
    wordfreq = pytest.importorskip("wordfreq")
    words = shared("twl06.txt").read_text().split()[::97]
    path = tmp_path / "twl.lex"
    lexigraph.build(words, path, score_by="wordfreq")
    lex = lexigraph.open(path)
    for w in words:
        w = w.lower()
        assert lex.priority(w) == 20 + round(10 * wordfreq.zipf_frequency(w, "en")), w


def test_without_wordfreq_the_build_says_how_to_get_it(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "wordfreq", None)  # import wordfreq raises ImportError
    with pytest.raises(BuildError, match=r"lexigraph\[wordfreq\]"):
        lexigraph.build(["cat", "dog"], tmp_path / "x.lex", score_by="wordfreq")
    assert not (tmp_path / "x.lex").exists()
    with pytest.raises(BuildError, match="unknown scorer"):
        lexigraph.build(["cat"], tmp_path / "x.lex", score_by="vibes")


@given(
    st.dictionaries(WORD, st.integers(0, 255), min_size=1, max_size=25),
    st.lists(st.dictionaries(WORD, st.one_of(st.none(), st.integers(0, 255)), max_size=10), max_size=2),
    st.lists(st.lists(WORD, max_size=8), max_size=2),
)
@settings(max_examples=60)
def test_layers_against_a_dictionary(tmp_path_factory, base, overrides, excludes):
    tmp = tmp_path_factory.mktemp("layers")
    want = dict(base)
    override_paths = []
    for i, layer in enumerate(overrides):
        scored = any(p is not None for p in layer.values())
        for w, p in layer.items():
            if w in want:
                if scored:
                    want[w] = 50 if p is None else p
            else:
                want[w] = 50 if p is None else p
        path = tmp / f"mine{i}.txt"
        path.write_text("".join(f"{w};{p}\n" if p is not None else f"{w}\n" for w, p in layer.items()))
        override_paths.append(path)
    exclude_paths = []
    for i, layer in enumerate(excludes):
        for w in layer:
            want.pop(w, None)
        path = tmp / f"no{i}.txt"
        path.write_text("".join(f"{w}\n" for w in layer))
        exclude_paths.append(path)
    source = tmp / "base.txt"
    source.write_text("".join(f"{w};{p}\n" for w, p in base.items()))
    alphabet = Alphabet.from_letters("abcde")
    if not want:
        with pytest.raises(BuildError):
            lexigraph.build(source, tmp / "x.lex", alphabet=alphabet, overrides=override_paths, excludes=exclude_paths)
        return
    lexigraph.build(source, tmp / "x.lex", alphabet=alphabet, overrides=override_paths, excludes=exclude_paths)
    lex = lexigraph.open(tmp / "x.lex")
    assert {w: lex.priority(w) for w in lex} == want


def test_layers_on_the_command_line(tmp_path, capsys):
    from lexigraph.cli.main import main

    (tmp_path / "base.txt").write_text("cat;30\ndog;40\nrat;20\n")
    (tmp_path / "mine.txt").write_text("rat;60\ntoad\nbee\n")  # bee: b and e are not letters of the base
    (tmp_path / "no.txt").write_text("dog\n")
    out = tmp_path / "x.lex"
    code = main(["build", str(tmp_path / "base.txt"), "--override", str(tmp_path / "mine.txt"), "--exclude",
                 str(tmp_path / "no.txt"), "-o", str(out)])
    text = capsys.readouterr().out
    assert code == 0 and "rescored from mine.txt): 1" in text and "excluded by no.txt): 1" in text
    lex = lexigraph.open(out)
    assert {w: lex.priority(w) for w in lex} == {"cat": 30, "rat": 60, "toad": 50}
    code = main(["build", str(tmp_path / "base.txt"), "--exclude", str(tmp_path / "missing.txt"), "-o", str(out)])
    assert code == 2 and "missing.txt" in capsys.readouterr().err


def test_layer_words_read_with_the_base_alphabet(tmp_path):
    (tmp_path / "mine.txt").write_text("ñu;60\n")
    # English folds ñ into n: the word is added as nu
    lexigraph.build(["cat", "dog"], tmp_path / "x.lex", alphabet="english", overrides=[tmp_path / "mine.txt"])
    assert sorted(lexigraph.open(tmp_path / "x.lex")) == ["cat", "dog", "nu"]
    # the base's own letters (c, a, t, d, o, g) lack n and u: the word is skipped, as any such line
    lexigraph.build(["cat", "dog"], tmp_path / "x.lex", overrides=[tmp_path / "mine.txt"])
    assert sorted(lexigraph.open(tmp_path / "x.lex")) == ["cat", "dog"]
