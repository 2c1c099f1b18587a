"""BuildOptions (compiler/options.py): one record of a build's options, spelled as keywords too; the two spellings
build the same file, and bad values are one BuildError."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.compiler.builder import compile_source
from lexigraph.compiler.options import OPTION_NAMES, BuildKeywords, BuildOptions, build_options
from lexigraph.engine import c_engine_available
from lexigraph.engine.fileformat import open_bytes
from lexigraph.errors import BuildError

WORDS = ["Chorro", "año", "ño", "calle", "x1", "Paris", "paris", "cañón"]


def sections(data: bytes) -> dict[str, bytes]:
    """A lexicon file's sections and index, the build time left out (two builds differ only there)."""
    mapped = open_bytes(data)
    out = {name: bytes(mapped.view(name)) for name in mapped.sections}
    out["index"] = repr({k: v for k, v in mapped.index.items() if k != "built"}).encode()
    return out


def test_the_keywords_are_the_fields():
    keys = BuildKeywords.__required_keys__ | BuildKeywords.__optional_keys__
    assert [f.name for f in dataclasses.fields(BuildOptions)] == list(OPTION_NAMES)
    assert set(OPTION_NAMES) == keys
    for f in dataclasses.fields(BuildOptions):
        assert BuildKeywords.__annotations__[f.name].__forward_arg__ == f.type, f.name  # the same type, spelled alike


OPTIONS = st.fixed_dictionaries({}, optional={
    "alphabet": st.sampled_from(["spanish", "english"]),
    "min_length": st.integers(1, 3),
    "max_length": st.integers(5, 6),
    "case": st.sampled_from(["fold", "drop-proper"]),
    "name": st.sampled_from(["mine", "yours"]),
    "pure_python": st.booleans(),
})


@settings(max_examples=30)
@given(OPTIONS)
def test_a_record_and_its_keywords_build_the_same_file(chosen):
    by_keywords, _ = compile_source(WORDS, **chosen)
    by_record, _ = compile_source(WORDS, BuildOptions(**chosen))
    expected = sections(by_keywords)
    assert sections(by_record) == expected
    if {"min_length", "name"} <= set(chosen):  # the keywords win over the record's fields
        mixed, _ = compile_source(WORDS, BuildOptions(min_length=1, name="other"), **chosen)
        assert sections(mixed) == expected
    lex = lexigraph.load(WORDS, BuildOptions(**chosen))
    assert lex.pure_python == (chosen.get("pure_python", False) or not c_engine_available())
    assert sorted(lex) == sorted(lexigraph.load(WORDS, **chosen))


def test_the_engines_choice_reaches_the_build_and_writes_the_same_file():
    c, _ = compile_source(WORDS, alphabet="spanish")
    python, _ = compile_source(WORDS, alphabet="spanish", pure_python=True)
    assert sections(c) == sections(python)


@pytest.mark.parametrize("options, message", [
    ({"min_length": "2"}, "min_length must be a whole number"),
    ({"max_length": 0}, "max_length must be a whole number"),
    ({"alphabet": 3}, "alphabet must be a preset name"),
    ({"case": 1}, "case must be text"),
    ({"score_by": 5}, "score_by must be text"),
    ({"overrides": "mine.txt"}, "overrides is a list of word sources"),
    ({"pure_python": "yes"}, "pure_python is True or False"),
])
def test_a_bad_value_is_one_build_error_whichever_spelling(options, message):
    with pytest.raises(BuildError, match=message):
        BuildOptions(**options)
    with pytest.raises(BuildError, match=message):
        compile_source(WORDS, **options)
    with pytest.raises(BuildError, match=message):
        lexigraph.load(WORDS, **options)


def test_an_unknown_keyword_is_a_type_error_that_names_the_options():
    with pytest.raises(TypeError, match="unknown build option: minimum .*min_length"):
        lexigraph.load(WORDS, minimum=3)
    with pytest.raises(TypeError, match="unknown build option"):
        build_options(None, {"progress": print})  # a run's callback, not an option of the lexicon


def test_options_are_a_frozen_record():
    options = BuildOptions(overrides=["a.txt"])
    assert options.overrides == ("a.txt",)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.min_length = 3  # type: ignore[misc]  # the point: a frozen record refuses it
    with pytest.raises(BuildError, match="options is a BuildOptions"):
        build_options({"min_length": 3})  # type: ignore[arg-type]  # the point: a mapping is not a BuildOptions


def test_a_lexicon_file_opens_without_a_build_unless_options_ask_for_one(tmp_path):
    path = tmp_path / "w.lex"
    lexigraph.build(WORDS, path)
    assert lexigraph.open(path, pure_python=True).engine.kind == "python"
    assert lexigraph.open(path, BuildOptions(pure_python=True)).engine.kind == "python"
    with pytest.raises(lexigraph.SourceError, match="already a compiled lexicon"):
        lexigraph.open(path, min_length=3)
