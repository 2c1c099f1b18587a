"""What the installation runs with (buildinfo.py): its version and its C extension, and the switch that turns it off."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import lexigraph
from lexigraph import buildinfo

ROOT = Path(__file__).resolve().parents[1]


def test_the_version_is_the_one_pyproject_declares():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    assert lexigraph.__version__ == declared
    assert buildinfo.__version__ == declared


def test_the_environment_switch_turns_the_extension_off_in_a_subprocess():
    code = ("from lexigraph import buildinfo; from lexigraph.engine import c_engine_available; "
            "print(buildinfo.c_module('_native') is None, c_engine_available(), buildinfo.extensions())")
    env = dict(os.environ, LEXIGRAPH_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split(" ", 2)[:2] == ["True", "False"]
    assert "True" not in out.split(" ", 2)[2]  # every extension reported as not in use
