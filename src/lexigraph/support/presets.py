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

from ..errors import LexiconError
from .files import MAX_SETTINGS_BYTES, read_limited
from .text import one_line, quote

#: Deepest nesting of arrays and inline tables a settings file may have (real ones nest 2 deep).
MAX_TOML_DEPTH = 32


def read_preset(name: str, *, kind: str, folder: str, presets: Sequence[str], error: type[Exception]) -> str:
    """The text of the preset ``name``, shipped in the package's ``folder``; ``error`` for an unknown name."""
    if name not in presets:
        raise error(f"no {kind} preset {quote(name)}; presets: {', '.join(presets)}")
    return resources.files("lexigraph").joinpath(folder).joinpath(f"{name}.toml").read_text("utf-8")


def read_spec(spec: str, *, kind: str, folder: str, presets: Sequence[str],
              error: type[Exception]) -> tuple[str, str]:
    """``(text, origin)`` of a preset by name or of a file by path; ``origin`` names it in messages.

    A file is read through :func:`lexigraph.support.files.read_limited`: at
    most :data:`MAX_SETTINGS_BYTES`, a FIFO or device waited for a bounded time.
    """
    if not isinstance(spec, str):
        raise error(f"a {kind} is a preset name or a file path, not {type(spec).__name__}")
    if spec in presets:
        return read_preset(spec, kind=kind, folder=folder, presets=presets, error=error), f"preset {spec}"
    article = "an" if kind[:1] in "aeiou" else "a"
    try:
        data = read_limited(spec, limit=MAX_SETTINGS_BYTES, what=f"{article} {kind} file",
                            missing=f"no {kind} preset or file {quote(spec)}; presets: {', '.join(presets)}")
    except LexiconError as e:
        if isinstance(e, error):
            raise
        raise error(str(e)) from None
    try:
        return data.decode("utf-8-sig"), spec
    except UnicodeDecodeError as e:
        raise error(f"cannot read {kind} file {spec}: not UTF-8 text (byte {e.start})") from None


def toml_depth(text: str) -> int:
    """How deeply the arrays and inline tables of a TOML text nest (strings and comments skipped).

    >>> toml_depth('a = [[1], {b = [2]}]  # ]]]'), toml_depth('s = "[[["'), toml_depth("[t]\\nx = 1")
    (3, 0, 1)
    """
    depth = top = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "[{":
            depth += 1
            top = max(top, depth)
        elif ch in "]}":
            depth = max(0, depth - 1)
        elif ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif ch in "\"'":
            triple = text.startswith(ch * 3, i)
            closer = ch * 3 if triple else ch
            j = i + len(closer)
            while j < n:
                if ch == '"' and text[j] == "\\":
                    j += 2
                    continue
                if text.startswith(closer, j):
                    break
                if not triple and text[j] == "\n":
                    break
                j += 1
            i = j + len(closer)
            continue
        i += 1
    return top


def parse_toml(text: str, *, origin: str, error: type[Exception]) -> dict[str, object]:
    """The table a TOML text holds; ``error`` naming ``origin`` when it is not valid TOML.

    Texts larger than :data:`MAX_SETTINGS_BYTES` or nested deeper than
    :data:`MAX_TOML_DEPTH` are refused before parsing (the parser recurses
    once per level and would run out of stack).

    >>> parse_toml("a = " + "[" * 5000 + "]" * 5000, origin="g.toml", error=ValueError)
    Traceback (most recent call last):
    ...
    ValueError: g.toml: nested 5000 deep; settings files nest at most 32 deep
    """
    if not isinstance(text, str):
        raise error(f"{origin}: TOML is text, not {type(text).__name__}")
    if len(text) > MAX_SETTINGS_BYTES:
        raise error(f"{origin}: larger than {MAX_SETTINGS_BYTES >> 20} MiB; not a settings file")
    depth = toml_depth(text)
    if depth > MAX_TOML_DEPTH:
        raise error(f"{origin}: nested {depth} deep; settings files nest at most {MAX_TOML_DEPTH} deep")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise error(f"{origin}: not valid TOML: {one_line(str(e), 200)}") from None
    except RecursionError:  # pragma: no cover - the depth check above comes first
        raise error(f"{origin}: nested too deeply") from None
