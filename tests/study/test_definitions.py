"""Definitions from WordNet's database files: a forged database of a few lines (found by bisection, lemmas by
exceptions and detachment rules, glosses at their offsets), and the installed WordNet when present."""

from __future__ import annotations

import pytest

from lexigraph.study import definitions
from lexigraph.study.definitions import WordNet

POS = ("noun", "verb", "adj", "adv")


def forge(folder, entries):
    """entries: pos -> {lemma: [gloss, ...]}; writes index.POS (sorted, after WordNet's licence lines) and data.POS."""
    for pos in POS:
        data = ["  1 This is a forged header line of the data file"]
        offsets: dict[str, list[int]] = {}
        size = len(data[0]) + 1
        for lemma, glosses in sorted(entries.get(pos, {}).items()):
            for gloss in glosses:
                line = f"{size:08d} 05 n 01 {lemma} 0 000 | {gloss}"
                offsets.setdefault(lemma, []).append(size)
                data.append(line)
                size += len(line.encode()) + 1
        (folder / f"data.{pos}").write_text("\n".join(data) + "\n")
        index = ["  1 This software and database is being provided", "  2 to you, the LICENSEE"]
        for lemma in sorted(offsets):
            offs = " ".join(f"{o:08d}" for o in offsets[lemma])
            index.append(f"{lemma} {pos[0]} {len(offsets[lemma])} 1 @ {len(offsets[lemma])} 0 {offs}  ")
        (folder / f"index.{pos}").write_text("\n".join(index) + "\n")
    (folder / "noun.exc").write_text("geese goose\nmice mouse\n")
    (folder / "verb.exc").write_text("running run\n")


@pytest.fixture
def forged(tmp_path, monkeypatch):
    words = {f"w{i:03d}": [f"gloss of w{i:03d}"] for i in range(200)}
    words.update({"cat": ["a feline", "a man", "a gossip", "a fourth sense"], "goose": ["a bird"], "mouse": ["a rodent"],
                  "fly": ["an insect"], "box": ["a container"], "ice_cream": ["a frozen dessert"]})
    forge(tmp_path, {"noun": words, "verb": {"run": ["move fast"], "fly": ["travel through the air"]},
                     "adj": {"large": ["big"]}})
    monkeypatch.setenv("LEXIGRAPH_WORDNET", str(tmp_path))
    monkeypatch.setattr(definitions, "_WORDNET", [])
    return WordNet.find()


def test_a_forged_database(forged):
    assert forged is not None
    assert [d["text"] for d in forged.define("cat")] == ["a feline", "a man", "a gossip"]  # three senses at most
    assert [(d["lemma"], d["text"]) for d in forged.define("geese")] == [("goose", "a bird")]
    assert [(d["part_of_speech"], d["lemma"]) for d in forged.define("flies")] == [("noun", "fly"), ("verb", "fly")]
    assert [d["lemma"] for d in forged.define("boxes")] == ["box"]
    assert [d["lemma"] for d in forged.define("running")] == ["run"]
    assert [d["lemma"] for d in forged.define("larger")] == ["large"]
    assert [d["text"] for d in forged.define("ice cream")] == ["a frozen dessert"]
    for i in range(200):  # bisection finds every lemma of the file
        assert forged.define(f"w{i:03d}")[0]["text"] == f"gloss of w{i:03d}"
    for missing in ("zzz", "", "w2000", "ca", "cats\n", "\x00"):
        assert not any(d["lemma"] == missing for d in forged.define(missing))
    assert definitions.definitions_of("mice")[0]["source"] == "WordNet 3.0"


def test_no_database_no_definitions(tmp_path, monkeypatch):
    monkeypatch.setenv("LEXIGRAPH_WORDNET", str(tmp_path / "none"))
    monkeypatch.setattr(definitions, "_WORDNET", [])
    assert WordNet.find() is None and definitions.definitions_of("cat") == []


def test_the_installed_wordnet(monkeypatch):
    monkeypatch.delenv("LEXIGRAPH_WORDNET", raising=False)
    monkeypatch.delenv("WNSEARCHDIR", raising=False)
    wordnet = WordNet.find()
    if wordnet is None:
        pytest.skip("WordNet is not installed (Debian: apt-get install wordnet-base)")
    senses = wordnet.define("aardvark")
    assert senses and senses[0]["part_of_speech"] == "noun" and "termites" in senses[0]["text"]
    assert {d["lemma"] for d in wordnet.define("geese")} == {"goose"}
