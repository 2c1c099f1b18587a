"""Which module describes which command: the command line imports only the module of the command it runs.

:data:`COMMAND_MODULES` names, for each command, the module of this package
whose ``COMMANDS`` list describes it; ``tests/commands/test_registry.py``
holds the two to each other. :func:`command` imports that one module (so
``lexigraph check dog`` loads the lookups and none of the jobs, and starts
without NumPy); :func:`all_commands` imports them all (the server, the
help, the manual page). Adding a command is adding it to a module's
``COMMANDS`` and its name here.

>>> command("check").name, command("check").run.__module__
('check', 'lexigraph.commands.lookup')
>>> names = {c.name for c in all_commands()}
>>> "check" in names and "search" in names and "fill" in names
True
"""

from __future__ import annotations

import importlib

from .command import Command

#: Each command's name and the module of ``lexigraph.commands`` that describes it, modules in name order.
COMMAND_MODULES = {
    "design": "design",
    "endgame": "endgame",
    "build": "files", "export": "files", "diff": "files",
    "fill": "fill",
    "judge": "judge", "why": "judge",
    "infer": "infer",
    "lexicons": "lexicons",
    "check": "lookup", "words": "lookup", "children": "lookup", "info": "lookup", "stats": "lookup",
    "playability": "playability",
    "quiz": "quiz", "cardbox": "quiz",
    "peg": "peg",
    "analyze": "analyze",
    "moves": "moves", "score": "moves",
    "anagram": "query", "match": "query", "cross": "query",
    "autoplay": "selfplay", "leaves": "selfplay",
    "winpct": "winpct",
    "sim": "sim",
    "search": "study", "hooks": "study", "probability": "study",
}


def command_names() -> list[str]:
    """Every command's name, without importing any command module."""
    return list(COMMAND_MODULES)


def module_commands(module: str) -> list[Command]:
    """The ``COMMANDS`` of ``lexigraph.commands.<module>``, in their own order."""
    found: list[Command] = list(importlib.import_module(f"{__package__}.{module}").COMMANDS)
    return found


def command(name: str) -> Command:
    """The command called ``name``, importing its module alone (``KeyError`` if there is none)."""
    module = COMMAND_MODULES[name]
    for cmd in module_commands(module):
        if cmd.name == name:
            return cmd
    raise KeyError(name)  # pragma: no cover - the registry names a command its module does not describe


def all_commands() -> list[Command]:
    """Every command, module by module in name order, each module's in its own order."""
    out: list[Command] = []
    for module in sorted(set(COMMAND_MODULES.values())):
        out.extend(module_commands(module))
    return out


def find(name: str) -> Command:
    """The command called ``name`` (``KeyError`` if none): :func:`command`."""
    return command(name)
