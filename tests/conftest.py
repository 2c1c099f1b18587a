"""Shared fixtures: generated lexicons, and the real lists in ../shared/data when present."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import lexigraph

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("LEXIGRAPH_SHARED_DATA", ROOT.parent / "shared" / "data"))

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile("default")


def shared_file(name: str) -> Path:
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} is not present (real word lists live in ../shared/data)")
    return path


@pytest.fixture(scope="session")
def twl_words() -> list[str]:
    return shared_file("twl06.txt").read_text().split()


@pytest.fixture(scope="session")
def twl(tmp_path_factory, twl_words) -> lexigraph.Lexicon:
    path = tmp_path_factory.mktemp("twl") / "twl06.lex"
    lexigraph.build(shared_file("twl06.txt"), path)
    return lexigraph.open(path)


@pytest.fixture(scope="session")
def enable() -> lexigraph.Lexicon:
    return lexigraph.open()


@pytest.fixture(scope="session")
def shared():
    """A function: the path of a file in ../shared/data, or skip the test."""
    return shared_file


def _shell_commands(example: str) -> list[list[str]]:
    """The simple commands of a shell line, split at |, &&, ;, and with redirections dropped."""
    import shlex

    lexer = shlex.shlex(example, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    out: list[list[str]] = []
    current: list[str] = []
    skip = False
    for token in lexer:
        if skip:
            skip = False
            continue
        if token in ("|", "&&", ";", "||"):
            out.append(current)
            current = []
        elif token in (">", ">>", "<", "2>"):
            skip = True
        else:
            current.append(token)
    out.append(current)
    return [c for c in out if c]


def _example_argvs(cmd: object, skip_substitutions: bool = False) -> list[list[str]]:
    argvs = []
    for example in getattr(cmd, "examples"):
        if skip_substitutions and "$(" in example:
            continue
        argvs += [argv[1:] for argv in _shell_commands(example) if argv[0] == "lexigraph"]
    return argvs


@pytest.fixture(scope="session")
def example_argvs():
    """``example_argvs(cmd)``: the arguments of each ``lexigraph`` command line in a command's examples
    (shell pipes and redirections aside; ``skip_substitutions`` leaves out lines with ``$(...)``)."""
    return _example_argvs


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    """A cache folder of the test's own, so compiled word lists never leak between tests."""
    monkeypatch.delenv("LEXIGRAPH_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
