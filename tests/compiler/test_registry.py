"""The registry of named lexicons (compiler/registry.py, ``lexigraph lexicons``): add, list, remove, names without
case, ENABLE always there, the file written atomically and read back as written, a corrupt file one clear error,
the environment variable, and ``--lexicon NAME`` (a path that exists wins over a name)."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.cli.main import main
from lexigraph.compiler import registry as lexicons
from lexigraph.opener import open_source
from lexigraph.compiler.registry import RegistryError

pytestmark = pytest.mark.usefixtures("private_cache", "registry_file")

NAMES = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,20}", fullmatch=True)


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error(err: str, *needles: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lexigraph: error: ") and "Traceback" not in err, err
    for needle in needles:
        assert needle in lines[0], (needle, err)
    return lines[0]


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.txt"
    path.write_text("qi\nza\ncat\n")
    return path


def test_add_list_remove_round_trip_on_the_command_line(capsys, tiny, registry_file):
    code, out, _ = cli(capsys, "lexicons", "list", "--json")
    doc = json.loads(out)
    assert code == 0 and [r["name"] for r in doc["results"]] == ["ENABLE"] and doc["results"][0]["builtin"]
    assert doc["registry"] == str(registry_file) and not registry_file.exists()  # listing writes nothing
    code, out, _ = cli(capsys, "lexicons", "add", "Tiny", str(tiny))
    assert code == 0 and out == f"registered Tiny: {tiny} (3 words)\n"
    code, out, _ = cli(capsys, "lexicons", "list")
    assert out.splitlines() == ["ENABLE  (built-in)", f"Tiny    {tiny}"]
    assert registry_file.read_text().count("[lexicons.") == 1
    # names compare without case: TINY is Tiny, and -L takes it
    code, out, _ = cli(capsys, "-L", "TINY", "check", "qi", "dog")
    assert code == 1 and out == "qi\tyes\ndog\tno\n"
    code, _, err = cli(capsys, "lexicons", "add", "tINY", str(tiny))
    one_error(err, "Tiny is registered already", "--replace")
    code, out, _ = cli(capsys, "lexicons", "add", "tINY", str(tiny), "--replace")
    assert code == 0 and out.startswith("replaced tINY:")
    assert [e.name for e in lexicons.entries()] == ["ENABLE", "tINY"]
    code, out, _ = cli(capsys, "lexicons", "remove", "tiny")
    assert code == 0 and out == f"removed tINY ({tiny})\n"
    assert [e.name for e in lexicons.entries()] == ["ENABLE"]
    code, _, err = cli(capsys, "lexicons", "remove", "tiny")
    one_error(err, "no lexicon is registered as tiny")


def test_enable_is_always_there_and_cannot_be_replaced_or_removed(capsys, tiny):
    for argv in (("lexicons", "add", "ENABLE", str(tiny)), ("lexicons", "add", "enable", str(tiny), "--replace")):
        code, _, err = cli(capsys, *argv)
        assert code == 2
        one_error(err, "ENABLE is the built-in lexicon")
    code, _, err = cli(capsys, "lexicons", "remove", "Enable")
    one_error(err, "cannot be removed")
    assert lexicons.find("enable") == lexicons.Entry("ENABLE", None)
    assert open_source("Enable").path == lexigraph.open().path


def test_add_refuses_what_cannot_be_registered(capsys, tmp_path, tiny):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cases = [
        (("lexicons", "add", "x", str(tmp_path / "missing.txt")), "no such file"),
        (("lexicons", "add", "x", str(tmp_path)), "not a regular file"),
        (("lexicons", "add", "x", str(fifo)), "not a regular file"),
        (("lexicons", "add", "a/b", str(tiny)), "is not a lexicon name"),
        (("lexicons", "add", "two words", str(tiny)), "is not a lexicon name"),
        (("lexicons", "add", "x" * 65, str(tiny)), "is not a lexicon name"),
        (("lexicons", "add", "x"), "give a NAME and a FILE"),
        (("lexicons", "remove"), "give the NAME to remove"),
        (("lexicons", "list", "x"), "takes no name"),
    ]
    for argv, needle in cases:
        code, _, err = cli(capsys, *argv)
        assert code == 2, argv
        one_error(err, needle)
    assert [e.name for e in lexicons.entries()] == ["ENABLE"]


def test_a_word_list_keeps_its_source_options(capsys, tmp_path):
    words = tmp_path / "es.txt"
    words.write_text("chocho\nchacha\nkiwi\n")
    code, out, _ = cli(capsys, "lexicons", "add", "ES", str(words), "--alphabet", "spanish")
    assert code == 0 and out.endswith("(2 words) --alphabet spanish\n")
    assert lexicons.find("es").options == {"alphabet": "spanish"}
    code, out, _ = cli(capsys, "-L", "es", "anagram", "CH O O ?", "--exact")
    assert code == 0 and out == "chocho\n"


def test_a_path_that_exists_wins_over_a_name(capsys, tmp_path, tiny, monkeypatch):
    lexicons.add("words", tiny)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words").write_text("dog\nemu\n")
    code, out, _ = cli(capsys, "-L", "words", "check", "dog", "qi")
    assert code == 1 and out == "dog\tyes\nqi\tno\n"  # the file ./words, not the registered list
    (tmp_path / "words").unlink()
    code, out, _ = cli(capsys, "-L", "words", "check", "dog", "qi")
    assert code == 1 and out == "dog\tno\nqi\tyes\n"  # now the name


def test_a_name_neither_a_path_nor_registered_says_how_to_register_it(capsys, tmp_path):
    code, _, err = cli(capsys, "-L", "TWL06", "check", "qi")
    assert code == 2
    one_error(err, "no such file or registered lexicon: 'TWL06'", "lexigraph lexicons add TWL06 FILE")
    code, _, err = cli(capsys, "-L", str(tmp_path / "missing.lex"), "check", "qi")
    one_error(err, "no such file")
    code, _, err = cli(capsys, "search", "length 2 and in TWL06")
    one_error(err, "in TWL06", "lexigraph lexicons add TWL06 FILE")


def test_a_registered_file_that_is_gone_is_an_error_naming_it(capsys, tmp_path, tiny):
    lexicons.add("gone", tiny)
    tiny.unlink()
    code, _, err = cli(capsys, "-L", "gone", "check", "qi")
    assert code == 2
    one_error(err, "lexicon gone is registered as", "no longer exists", "--replace")


def test_the_environment_variable_and_the_configuration_folder(tmp_path, monkeypatch, tiny):
    monkeypatch.setenv("LEXIGRAPH_LEXICONS", str(tmp_path / "elsewhere.toml"))
    lexicons.add("Tiny", tiny)
    assert lexicons.registry_path() == tmp_path / "elsewhere.toml" and (tmp_path / "elsewhere.toml").exists()
    monkeypatch.delenv("LEXIGRAPH_LEXICONS")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert lexicons.registry_path() == tmp_path / "config" / "lexigraph" / "lexicons.toml"
    assert lexicons.find("tiny") is None  # another file: another registry
    lexicons.add("Other", tiny)
    assert (tmp_path / "config" / "lexigraph" / "lexicons.toml").exists()
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert lexicons.registry_path() == tmp_path / "home" / ".config" / "lexigraph" / "lexicons.toml"


@settings(max_examples=40)
@given(st.lists(st.tuples(NAMES, st.text(min_size=1, max_size=40).filter(lambda t: "\x00" not in t),
                          st.sampled_from([{}, {"alphabet": "spanish"}, {"encoding": "latin-1", "case": "fold"},
                                           {"format": "scored"}])),
                max_size=6, unique_by=lambda e: e[0].casefold()))
def test_entries_read_back_as_written(tmp_path_factory, entries):
    """Any name, any path (quotes, backslashes, accents, control characters) and options survive the TOML file."""
    os.environ["LEXIGRAPH_LEXICONS"] = str(tmp_path_factory.mktemp("reg") / "lexicons.toml")
    wanted = {}
    for name, path, options in entries:
        if name.casefold() == "enable":
            continue
        if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in path) or any(0xD800 <= ord(ch) < 0xE000 for ch in path):
            with pytest.raises(RegistryError):
                lexicons.add(name, path, options)
            continue
        entry = lexicons.add(name, path, options)
        wanted[name] = (os.path.abspath(path), options)
        assert entry.path == os.path.abspath(path)
    got = {e.name: (e.path, e.options) for e in lexicons.entries() if not e.builtin}
    assert got == wanted


def test_the_file_is_replaced_atomically(tiny, registry_file, monkeypatch):
    import lexigraph.support.files as files

    lexicons.add("First", tiny)
    before = registry_file.read_bytes()

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", fail)
    with pytest.raises(RegistryError, match="No space left on device"):
        lexicons.add("Second", tiny)
    monkeypatch.undo()
    assert registry_file.read_bytes() == before  # the old file whole, no half-written one
    assert [p.name for p in registry_file.parent.iterdir()] == ["lexicons.toml"]  # no temporary left behind


CORRUPT = {
    "not TOML": (b"[lexicons\n", "not valid TOML"),
    "not UTF-8": (b"\xff\xfe\x00garbage", "not UTF-8"),
    "unknown field": (b"version = 2\n", "unknown field 'version'"),
    "lexicons not a table": (b"lexicons = 3\n", "'lexicons' must be a table"),
    "entry not a table": (b"[lexicons]\nTWL = 'x'\n", "is not a table with a path"),
    "no path": (b"[lexicons.TWL]\nalphabet = 'english'\n", "needs a path"),
    "path not text": (b"[lexicons.TWL]\npath = 3\n", "needs a path"),
    "bad option": (b"[lexicons.TWL]\npath = 'x'\nformat = 'pdf'\n", "format 'pdf' is not one of its values"),
    "unknown option": (b"[lexicons.TWL]\npath = 'x'\ncolour = 'red'\n", "unknown field 'colour'"),
    "bad name": (b"[lexicons.'two words']\npath = 'x'\n", "'two words' is not a lexicon name"),
    "ENABLE": (b"[lexicons.enable]\npath = 'x'\n", "ENABLE is the built-in lexicon"),
    "same name twice": (b"[lexicons.TWL]\npath = 'x'\n[lexicons.twl]\npath = 'y'\n", "names compare without case"),
    "too deep": (b"a = " + b"[" * 100 + b"]" * 100 + b"\n", "nest at most"),
}


@pytest.mark.parametrize("case", sorted(CORRUPT))
def test_a_corrupt_registry_is_one_clear_error(case, capsys, registry_file, tiny):
    data, needle = CORRUPT[case]
    registry_file.parent.mkdir(parents=True, exist_ok=True)
    registry_file.write_bytes(data)
    for argv in (("lexicons", "list"), ("-L", "TWL", "check", "qi"), ("lexicons", "add", "new", str(tiny)),
                 ("moves", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 QI/ 0/0 0 lex TWL;")):
        code, _, err = cli(capsys, *argv)
        assert code == 2, (argv, err)
        one_error(err, str(registry_file), needle)
    assert registry_file.read_bytes() == data  # never overwritten by a command that could not read it
    # a lexicon opened by its path still answers, named by its own name
    code, out, _ = cli(capsys, "check", "qi", "--json")
    assert code == 1 and json.loads(out)["lexicon"] == "ENABLE"


def test_a_registry_that_is_a_directory_or_a_fifo(capsys, registry_file, monkeypatch):
    registry_file.mkdir(parents=True)
    code, _, err = cli(capsys, "lexicons", "list")
    one_error(err, "is a directory")
    registry_file.rmdir()
    os.mkfifo(registry_file)
    monkeypatch.setenv("LEXIGRAPH_READ_WAIT", "0.2")
    code, _, err = cli(capsys, "lexicons", "list")
    assert code == 2
    one_error(err, str(registry_file))


@settings(max_examples=60)
@given(st.data())
def test_mutated_registries_give_entries_or_a_registry_error(tmp_path_factory, mutated, data):
    text = data.draw(mutated(['[lexicons."TWL06"]\npath = "/x/twl06.lex"\n',
                              '[lexicons.FISE]\npath = "/x/fise.txt"\nalphabet = "spanish"\ncase = "fold"\n',
                              '# c\n[lexicons.a]\npath = "a"\n[lexicons.b]\npath = "b\\"q"\n'],
                             '[]"=.\\\n #abcdefTWLpath'))
    path = tmp_path_factory.mktemp("reg") / "lexicons.toml"
    path.write_text(text)
    os.environ["LEXIGRAPH_LEXICONS"] = str(path)
    try:
        entries = lexicons.entries()
    except RegistryError:
        return
    assert entries[0].name == "ENABLE" and all(lexicons.is_name(e.name) for e in entries)
