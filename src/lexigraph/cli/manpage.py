"""A manual page (troff ``man`` macros) generated from the command line's parser.

>>> from lexigraph.cli.main import build_parser
>>> page = render(build_parser())
>>> page.startswith(".TH LEXIGRAPH 1"), ".SH COMMANDS" in page
(True, True)
"""

from __future__ import annotations

import argparse
import datetime as _dt

from ..buildinfo import __version__


def _esc(text: str) -> str:
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.splitlines() or [""]:
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def _subparsers(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser, str]]:
    out = []
    for action in parser._actions:  # argparse keeps its actions here; it has no public accessor
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                out.append((name, sub, helps.get(name, "")))
    return out


def _options(parser: argparse.ArgumentParser) -> list[str]:
    lines: list[str] = []
    for action in parser._actions:
        if isinstance(action, (argparse._SubParsersAction, argparse._HelpAction)) or action.help == argparse.SUPPRESS:
            continue
        if action.option_strings:
            label = ", ".join(action.option_strings)
            if action.nargs != 0:
                meta = action.metavar or (("{" + ",".join(map(str, action.choices)) + "}") if action.choices
                                          else action.dest.upper())
                label += f" {meta}"
        else:
            label = str(action.metavar or action.dest)
        lines += [".TP", f"\\fB{_esc(label)}\\fR", _esc(action.help or "")]
    return lines


def render(parser: argparse.ArgumentParser, *, date: str | None = None) -> str:
    """The manual page of ``parser`` and its subcommands."""
    when = date or _dt.date.today().isoformat()
    out: list[str] = [
        f'.TH LEXIGRAPH 1 "{when}" "lexigraph {__version__}" "User Commands"',
        ".SH NAME",
        "lexigraph \\- compile word lists into memory\\-mapped lexicons and query them",
        ".SH SYNOPSIS",
        "\\fBlexigraph\\fR [\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]",
        ".SH DESCRIPTION",
        _esc(parser.description or ""),
        ".SH OPTIONS",
        *_options(parser),
        ".SH COMMANDS",
    ]
    for name, sub, summary in _subparsers(parser):
        usage = sub.format_usage().replace("usage: ", "").strip()
        out += [".SS " + _esc(name), _esc(summary), ".PP", "Usage:", ".nf", _esc(usage), ".fi"]
        out += _options(sub)
        if sub.epilog:
            out += [".PP", ".nf", _esc(sub.epilog), ".fi"]
    out += [".SH EXIT STATUS", "0: something was found, or the job was done; 1: nothing was found (a non\\-word, "
            "no match, a difference); 2: an error.",
            ".SH ENVIRONMENT", ".TP", "\\fBLEXIGRAPH_PURE_PYTHON\\fR",
            "Set to any value: switch every C path off.", ".TP", "\\fBXDG_CACHE_HOME\\fR",
            "Compiled word lists are cached under $XDG_CACHE_HOME/lexigraph (default ~/.cache/lexigraph).",
            ".SH SEE ALSO", "docs/json.md (the JSON documents), docs/formats.md, docs/alphabets.md"]
    return "\n".join(out) + "\n"


