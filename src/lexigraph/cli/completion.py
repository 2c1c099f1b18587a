"""Shell completion for bash, zsh and fish, through the ``argcomplete`` package.

``lexigraph completion bash`` prints the script to source; the shell then
calls ``lexigraph`` with ``_ARGCOMPLETE`` set, and :func:`autocomplete`
answers from the same parser the command line uses. ``argcomplete`` is
imported only then, so ordinary runs do not pay for it.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import LexiconError

SHELLS = ("bash", "zsh", "fish")


def _argcomplete() -> Any:
    try:
        # Deferred: argcomplete is optional, and needed only when the shell asks for completions.
        import argcomplete
    except ModuleNotFoundError:
        raise LexiconError(
            "shell completion needs the argcomplete package: pip install 'lexigraph[completion]'"
        ) from None
    return argcomplete


def script(shell: str) -> str:
    """The completion script for ``shell`` (``bash``, ``zsh`` or ``fish``)."""
    if shell not in SHELLS:
        raise LexiconError(f"no completion for {shell!r}; choose one of {', '.join(SHELLS)}")
    code: str = _argcomplete().shellcode(["lexigraph"], shell=shell)
    return code


def autocomplete(parser: argparse.ArgumentParser) -> None:  # pragma: no cover - driven by the shell
    """Answer a completion request (exits) when the shell asks for one."""
    _argcomplete().autocomplete(parser)
