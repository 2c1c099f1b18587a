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
