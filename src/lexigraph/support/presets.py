"""Settings files: the TOML presets lexigraph ships (alphabets, games), or a user's own file by path.

>>> text, origin = read_spec("english", kind="alphabet", folder="alphabets", presets=("english",), error=ValueError)
>>> origin, "tiles" in parse_toml(text, origin=origin, error=ValueError)
('preset english', True)
>>> read_spec("/nowhere.toml", kind="game", folder="games", presets=("scrabble",), error=ValueError)
Traceback (most recent call last):
...
ValueError: no game preset or file '/nowhere.toml'; presets: scrabble
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any


def read_preset(name: str, *, kind: str, folder: str, presets: Sequence[str], error: type[Exception]) -> str:
    """The text of the preset ``name``, shipped in the package's ``folder``; ``error`` for an unknown name."""
    if name not in presets:
        raise error(f"no {kind} preset {name!r}; presets: {', '.join(presets)}")
    return resources.files("lexigraph").joinpath(folder).joinpath(f"{name}.toml").read_text("utf-8")


def read_spec(spec: str, *, kind: str, folder: str, presets: Sequence[str],
              error: type[Exception]) -> tuple[str, str]:
    """``(text, origin)`` of a preset by name or of a file by path; ``origin`` names it in messages."""
    if spec in presets:
        return read_preset(spec, kind=kind, folder=folder, presets=presets, error=error), f"preset {spec}"
    try:
        return Path(spec).read_text("utf-8"), spec
    except FileNotFoundError:
        raise error(f"no {kind} preset or file {spec!r}; presets: {', '.join(presets)}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise error(f"cannot read {kind} file {spec}: {e}") from None


def parse_toml(text: str, *, origin: str, error: type[Exception]) -> dict[str, Any]:
    """The table a TOML text holds; ``error`` naming ``origin`` when it is not valid TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise error(f"{origin}: not valid TOML: {e}") from None
