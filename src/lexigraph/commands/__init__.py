"""Commands: one description of each operation, shared by the command line and the server.

* :mod:`.command`: :class:`Command`, :class:`Param`, :class:`Context`, :class:`Progress`, the bounds of numbers;
* :mod:`.registry`: which module describes which command (:func:`command` imports only that one module,
  :func:`all_commands` every one);
* one module per family of commands, each with a ``COMMANDS`` list: :mod:`.lookup` (``check``, ``words``,
  ``children``, ``info``, ``stats``), :mod:`.query` (``anagram``, ``match``, ``cross``), :mod:`.files`
  (``build``, ``export``, ``diff``), :mod:`.study` (``search``, ``hooks``, ``probability``), :mod:`.moves`
  (``moves``, ``score``, ``analyze``), :mod:`.endgame`, :mod:`.sim`, :mod:`.selfplay` (``autoplay``,
  ``leaves``), :mod:`.fill`, :mod:`.lexicons`; :mod:`._common` and :mod:`._boards` hold what they share.

A command module imports the jobs it runs at module level; ``lexigraph
check dog`` stays fast because the command line imports only the module of
the command it runs (``tests/cli/test_main.py`` holds that it imports no
NumPy).

>>> cmds = {c.name: c for c in all_commands()}
>>> "check" in cmds and "search" in cmds and "fill" in cmds
True
"""

from .command import (
    MAX_COUNT,
    MAX_INT64,
    MAX_PRIORITY,
    MAX_SECONDS,
    MAX_SEED,
    MAX_TILES,
    MAX_WORKERS,
    SOURCE_OPTION_NAMES,
    Command,
    Context,
    Document,
    Param,
    ParamKind,
    Progress,
    always_found,
)
from .registry import COMMAND_MODULES, all_commands, command, command_names, find

__all__ = [
    "COMMAND_MODULES", "MAX_COUNT", "MAX_INT64", "MAX_PRIORITY", "MAX_SECONDS", "MAX_SEED", "MAX_TILES",
    "MAX_WORKERS", "SOURCE_OPTION_NAMES", "Command", "Context", "Document", "Param", "ParamKind", "Progress",
    "all_commands", "always_found", "command", "command_names", "find",
]
