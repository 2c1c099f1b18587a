"""The one pattern parser (query/pattern.py): match, search's ``pattern`` condition and the grid reader of fill
say the same thing about the same bad pattern, on the command line, after their location prefix."""

from __future__ import annotations

import pytest

from lexigraph.cli.main import main

PREFIXES = {"match": "pattern {text!r}: ", "search": "pattern {text!r}: ", "fill": "grid row 1 {text!r}: "}


def error_of(capsys, command: str, text: str) -> str:
    argv = {"match": ["match", text], "search": ["search", f"pattern '{text}'"],
            "fill": ["fill", "--grid-text", text]}[command]
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (command, code, out, err)
    assert err.count("\n") == 1 and err.startswith("lexigraph: error: "), (command, err)
    message = err[len("lexigraph: error: "):].rstrip("\n")
    prefix = PREFIXES[command].format(text=text)
    assert message.startswith(prefix), (command, message)
    return message[len(prefix):]


@pytest.mark.parametrize("text, expected", [
    ("c1t", "'1' at position 1 is not a tile of this lexicon nor a wildcard"),
    ("c t", "' ' at position 1 is not a tile of this lexicon nor a wildcard"),
    ("cøt", "'ø' at position 1 is not a tile of this lexicon nor a wildcard"),
])
def test_match_search_and_fill_give_one_error_text(capsys, text, expected):
    errors = {command: error_of(capsys, command, text) for command in PREFIXES}
    assert errors == {command: expected for command in PREFIXES}
