"""The command line: ``lexigraph COMMAND ...``, built from the shared command descriptions."""

from .main import build_parser, main

__all__ = ["build_parser", "main"]
