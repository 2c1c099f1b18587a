"""The registry of command names (commands/registry.py) against the modules' own COMMANDS lists, and the command
line importing only the module of the command it runs."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

import lexigraph.commands as commands_package
from lexigraph.commands import COMMAND_MODULES, all_commands, command, command_names

#: Modules of lexigraph.commands that describe no command: the description types, the registry, shared helpers.
NOT_COMMAND_MODULES = {"command", "registry", "_common", "_boards"}


def described() -> dict[str, str]:
    """Every command name a module of the package describes in its COMMANDS, and that module (found by walking
    the package, not by the registry)."""
    found: dict[str, str] = {}
    for info in pkgutil.iter_modules(commands_package.__path__):
        if info.name in NOT_COMMAND_MODULES:
            continue
        module = importlib.import_module(f"lexigraph.commands.{info.name}")
        for cmd in module.COMMANDS:
            assert cmd.name not in found, f"{cmd.name} is described twice"
            found[cmd.name] = info.name
    return found


def test_the_registry_names_each_command_by_the_module_that_describes_it():
    assert COMMAND_MODULES == described()


def test_every_module_of_the_package_is_a_command_module_or_named_as_not_one():
    names = {info.name for info in pkgutil.iter_modules(commands_package.__path__)}
    assert NOT_COMMAND_MODULES <= names
    for name in names - NOT_COMMAND_MODULES:
        assert hasattr(importlib.import_module(f"lexigraph.commands.{name}"), "COMMANDS"), name


def test_all_commands_keeps_module_order_then_each_modules_order():
    modules = sorted(set(COMMAND_MODULES.values()))
    expected = [c.name for m in modules for c in importlib.import_module(f"lexigraph.commands.{m}").COMMANDS]
    assert [c.name for c in all_commands()] == expected
    assert sorted(command_names()) == sorted(expected)


def test_command_finds_each_command_and_refuses_an_unknown_name():
    for name in command_names():
        assert command(name).name == name
    with pytest.raises(KeyError):
        command("no-such-command")


@pytest.mark.parametrize("name", ["check", "match", "moves", "fill"])
def test_looking_up_a_command_imports_its_module_alone(name):
    code = ("import sys\nfrom lexigraph.commands import command\n"
            f"command({name!r})\n"
            "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('lexigraph.commands.')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(eval(proc.stdout)) - NOT_COMMAND_MODULES
    assert loaded == {COMMAND_MODULES[name]}, proc.stdout


def test_a_planted_mismatch_is_seen(monkeypatch):
    """The check above fails when the registry and the modules disagree."""
    monkeypatch.setitem(COMMAND_MODULES, "check", "query")
    assert COMMAND_MODULES != described()
