"""The ``lexigraph`` command: a thin layer over the registered commands.

The parser is built from the commands' descriptions: the one about to run
(:func:`lexigraph.commands.command`, which imports its module alone, so that
``lexigraph check dog`` loads no job and no NumPy) and the names of the
others; the help, the manual page and completion build it from every
command (:func:`lexigraph.commands.all_commands`). Each command's document is printed as text, as one JSON document (``--json``)
or as one JSON object per result line (``--jsonl``). Exit status as grep:
0 something found (or the job done), 1 nothing found (``check`` with a
non-word, ``diff`` with differences), 2 an error, reported in one line on
standard error.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Iterable, Sequence
from typing import IO, Any, NoReturn, Protocol, cast

from ..buildinfo import version_text
from ..commands import Command, Context, Document, Param, all_commands, command, command_names
from ..errors import LexiconError
from ..support.text import one_line
from .completion import autocomplete, script
from .manpage import render
from .progress import TerminalProgress

PROG = "lexigraph"


class ServerModule(Protocol):
    """What the command line asks of :mod:`lexigraph.server` (imported only for ``lexigraph serve``)."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add ``serve``'s own options to its parser."""

    def main(self, args: argparse.Namespace) -> int:
        """Run the server with the parsed options; the exit status."""


class UsageError(LexiconError):
    """A command line that does not make sense (reported like every other error)."""

EXAMPLES = (
    "lexigraph check quixotic qxz",
    "lexigraph anagram 'AALNST?' --exact --show-blanks",
    "lexigraph match '??mo??t'",
    "lexigraph build words.txt -o words.lex && lexigraph -L words.lex match 'ch?ch?' --json",
)
#: The core commands in the order the help lists them; other commands follow in registry order.
HELP_ORDER = ("check", "words", "children", "anagram", "match", "cross", "info", "stats", "diff", "build", "export")
#: Options that say how a word source is read, wherever one is read.
SOURCE_OPTIONS = (
    Param("alphabet", "alphabet of a word source that is compiled (english, spanish, catalan, french, or a "
          "TOML file)", metavar="ALPHABET", completer="alphabet"),
    Param("encoding", "text encoding of a word source (default: UTF-8, or UTF-16 with a byte-order mark)",
          metavar="ENCODING"),
    Param("format", "read word sources as this format instead of guessing", choices=("text", "scored", "dawg32",
                                                                                       "daw")),
    Param("case", "entries of a word source written with capitals and no lower-case twin: fold them into words "
          "(default) or drop them as proper nouns", choices=("fold", "drop-proper")),
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, like every other error of the tool (and a JSON error document with --json).
        raise UsageError(f"{one_line(message, 300)} (see {self.prog} --help)")


class _Formatter(argparse.RawDescriptionHelpFormatter):
    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=30)


class _Version(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: Any = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        sys.stdout.write(version_text() + "\n")
        parser.exit(0)


def _dest(name: str) -> str:
    return f"p_{name}"


def _add_param(parser: argparse.ArgumentParser | Any, p: Param, *, dest: str | None = None,
               suppress: bool = False) -> argparse.Action:
    kwargs: dict[str, Any] = {"help": p.help}
    dest = dest or _dest(p.name)
    default = argparse.SUPPRESS if suppress else p.default
    if p.kind == "bool" and not p.positional:
        kwargs.update(action="store_true", default=argparse.SUPPRESS if suppress else bool(p.default))
    else:
        if p.kind == "int":
            kwargs["type"] = int
        elif p.kind == "float":
            kwargs["type"] = float
        if p.choices:
            kwargs["choices"] = p.choices
        kwargs["metavar"] = p.metavar or (None if p.choices else p.name.upper())
        if p.many:
            if p.positional:
                kwargs["nargs"] = "+" if p.required else "*"
            else:
                kwargs["action"] = "append"
        elif p.positional and not p.required:
            kwargs["nargs"] = "?"
        kwargs["default"] = default
        if p.default not in (None, "", False) and not p.many:
            kwargs["help"] += f" (default: {p.default})"
    if p.positional:
        kwargs["help"] = kwargs["help"]
        action = parser.add_argument(dest, **kwargs)
        action.metavar = kwargs.get("metavar")
    else:
        flags = p.flags or ("--" + p.name.replace("_", "-"),)
        if p.required:
            kwargs["required"] = True
        action = parser.add_argument(*flags, dest=dest, **kwargs)
    if p.completer:
        setattr(action, "completer", _completer(p.completer))
    return action


def _completer(kind: str) -> Any:
    def complete(prefix: str, **_: Any) -> list[str]:
        if kind == "alphabet":
            names = ["english", "spanish", "catalan", "french"]
            return [n for n in names if n.startswith(prefix)] + _paths(prefix, (".toml",))
        return _paths(prefix, None)

    return complete


def _paths(prefix: str, suffixes: tuple[str, ...] | None) -> list[str]:
    directory, _, stem = prefix.rpartition("/")
    try:
        names = os.listdir(directory or ".")
    except OSError:
        return []
    out = []
    for name in names:
        if not name.startswith(stem) or (name.startswith(".") and not stem.startswith(".")):
            continue
        path = f"{directory}/{name}" if directory else name
        if os.path.isdir(path):
            out.append(path + "/")
        elif suffixes is None or name.endswith(suffixes):
            out.append(path)
    return out


def _output_options(suppress: bool) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    d = argparse.SUPPRESS if suppress else False
    g = p.add_argument_group("output")
    g.add_argument("--json", action="store_true", default=d, help="print one JSON document (docs/json.md)")
    g.add_argument("--jsonl", action="store_true", default=d,
                   help="print one JSON object per result, one per line (for streaming large results)")
    return p


def _quiet_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quiet", "-q", action="store_true", default=False, dest="quiet",
                        help="draw no progress on standard error (it is drawn only on a terminal, and never with "
                        "--json or --jsonl)")


def _lexicon_option(suppress: bool) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    a = p.add_argument("--lexicon", "-L", metavar="FILE", dest="lexicon",
                       default=argparse.SUPPRESS if suppress else None,
                       help="lexicon file, any word source to compile (cached) and use, or a registered name "
                       "(lexigraph lexicons; a file wins over a name) (default: the built-in ENABLE)")
    setattr(a, "completer", _completer("lexicon"))
    return p


def _examples(lines: Iterable[str]) -> str:
    lines = list(lines)
    return ("examples:\n" + "\n".join(f"  {line}" for line in lines)) if lines else ""


def build_parser(commands: Sequence[Command] | None = None, *, serve: ServerModule | None = None,
                 only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of every registered command (and ``serve``, ``man``, ``completion``).

    ``serve``: the server module, when ``serve`` is being run (it adds its own arguments).
    ``only``: the command about to run; only its module is imported, and the
    others get a bare parser (their name), which keeps start-up fast.
    """
    if commands is None:
        commands = [command(only)] if only is not None else all_commands()
    described = {c.name: c for c in commands}
    names = [c.name for c in commands] if only is None else \
        [name for name in command_names() if name == only or name not in described]
    first = {name: i for i, name in enumerate(HELP_ORDER)}
    names = sorted(names, key=lambda n: first.get(n, len(first)))  # stable: others keep their order
    parser = _Parser(
        prog=PROG,
        description="Compile word lists into one memory-mapped lexicon and query it: words, prefixes, "
        "anagrams, crossword patterns.\n\nExit status: 0 found, 1 nothing found (or a non-word, or a "
        "difference), 2 error.",
        epilog=_examples(EXAMPLES),
        parents=[_output_options(True), _lexicon_option(True)],
        formatter_class=_Formatter,
    )
    top = parser.add_argument_group("word sources (also after the command)")
    for prm in SOURCE_OPTIONS:
        _add_param(top, prm, dest=f"source_{prm.name}", suppress=True)
    parser.add_argument("--version", action=_Version, help="print the version and whether the C extension is in use")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in names:
        cmd = described.get(name)
        if cmd is None or (only is not None and cmd.name != only):
            sub.add_parser(name, add_help=False)  # named, not described: its module is not imported
            continue
        parents: list[Any] = [_output_options(True)]
        if cmd.uses_lexicon:
            parents.append(_lexicon_option(True))
        p = sub.add_parser(cmd.name, help=cmd.summary, description=cmd.summary, epilog=_examples(cmd.examples),
                           parents=parents, formatter_class=_Formatter)
        own = {f for prm in cmd.params for f in (prm.flags or ("--" + prm.name.replace("_", "-"),))}
        for prm in cmd.params:
            if not prm.http_only:
                _add_param(p, prm)
        if "--quiet" not in own:  # build's own --quiet prints nothing but errors, progress included
            _quiet_option(p)
        if cmd.uses_lexicon or cmd.reads_sources:
            g = p.add_argument_group("word sources")
            for prm in SOURCE_OPTIONS:
                if "--" + prm.name not in own:
                    _add_param(g, prm, dest=f"source_{prm.name}", suppress=True)
    p = sub.add_parser("serve", help="Run the HTTP API and web page (needs: pip install 'lexigraph[serve]').",
                       description="Run the HTTP API and web page (needs: pip install 'lexigraph[serve]').",
                       epilog=_examples(["lexigraph serve", "lexigraph serve --port 8080 --lexicon twl=twl06.lex"]),
                       formatter_class=_Formatter, add_help=serve is not None)
    if serve is not None:
        serve.add_arguments(p)
    else:
        p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p = sub.add_parser("man", help="Print the manual page (troff) generated from this parser.",
                       description="Print the manual page (troff) generated from this parser.",
                       epilog=_examples(["lexigraph man > lexigraph.1", "lexigraph man | man -l -"]),
                       formatter_class=_Formatter)
    p = sub.add_parser("completion", help="Print a shell completion script (bash, zsh or fish).",
                       description="Print a shell completion script (needs the argcomplete package).",
                       epilog=_examples(["eval \"$(lexigraph completion bash)\"",
                                         "lexigraph completion fish > ~/.config/fish/completions/lexigraph.fish",
                                         "lexigraph completion zsh > ~/.zfunc/_lexigraph"]),
                       formatter_class=_Formatter)
    p.add_argument("shell", choices=("bash", "zsh", "fish"), help="the shell to complete in")
    return parser


# -- running -------------------------------------------------------------------


def read_stdin_lines(stream: IO[str] | None = None) -> list[str]:
    """Values from standard input, one per line: surrounding blanks stripped, empty lines skipped."""
    stream = sys.stdin if stream is None else stream
    return [s for s in (line.strip() for line in stream) if s]


class _EmptyInput(Exception):
    """'-' read no value from standard input: nothing to look up."""


def _params(cmd: Command, args: argparse.Namespace) -> dict[str, Any]:
    params: dict[str, Any] = {}
    used_stdin = False
    for p in cmd.params:
        if p.http_only:
            continue
        value = getattr(args, _dest(p.name), p.default)
        if p.many and p.positional and value == []:
            value = None  # not given
        if p.stdin and value is not None:
            items = [value] if isinstance(value, str) else list(value)
            if "-" in items:
                if used_stdin or items.count("-") > 1:
                    raise UsageError("standard input ('-') can be read only once")
                used_stdin = True
                expanded: list[str] = []
                for item in items:
                    expanded.extend(read_stdin_lines() if item == "-" else [item])
                if not expanded:
                    raise _EmptyInput()
                value = expanded if p.many else (expanded[0] if expanded else "")
        params[p.name] = value
    return params


def _spell(cmd: Command, argv: Sequence[str]) -> Any:
    """Name a parameter as the user typed it (``-o`` or ``--output``), else by its long flag."""
    typed: dict[str, str] = {}
    for p in cmd.params:
        flags = p.flags or ("--" + p.name.replace("_", "-"),)
        for token in argv:
            option = token.split("=", 1)[0]
            if option in flags:
                typed[p.name] = option
                break
        else:
            typed[p.name] = p.flag

    def spell(name: str) -> str:
        return typed.get(name, name)

    return spell


def _write_text(lines: Iterable[str], out: IO[str]) -> None:
    chunk: list[str] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) >= 4096:
            out.write("\n".join(chunk) + "\n")
            chunk = []
    if chunk:
        out.write("\n".join(chunk) + "\n")


def print_document(cmd: Command, doc: Document, mode: str, out: IO[str] | None = None,
                   progress: TerminalProgress | None = None) -> None:
    """Print ``doc`` as ``text``, ``json`` or ``jsonl`` (see docs/json.md).

    ``progress``: the command's progress, whose notes were printed already (the text leaves them out).
    """
    out = sys.stdout if out is None else out
    if mode == "json":
        out.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    elif mode == "jsonl":
        if cmd.writes_files:
            out.write(json.dumps(doc, ensure_ascii=False) + "\n")
        else:
            dumps = json.JSONEncoder(ensure_ascii=False).encode
            _write_text((dumps(r) for r in doc["results"]), out)
    else:
        _write_text(cmd.text(doc) if progress is None else progress.unshown(cmd.text(doc)), out)


def _error_document(e: BaseException) -> Document:
    return {"error": {"type": type(e).__name__, "message": one_line(str(e))}}


def _subcommand(argv: Sequence[str]) -> str | None:
    """The subcommand's name in ``argv`` (skipping the top-level options and their values)."""
    skip = False
    for token in argv:
        if skip:
            skip = False
            continue
        if token in ("-L", "--lexicon", *(f"--{p.name}" for p in SOURCE_OPTIONS)):
            skip = True
            continue
        if token == "--":
            return None
        if not token.startswith("-"):
            return token
    return None


def _asks_for_help_before(name: str | None, argv: Sequence[str]) -> bool:
    """Whether ``--help`` comes before the command's name (the whole tool's help, which lists every command)."""
    before = argv[: argv.index(name)] if name in argv else argv
    return any(token in ("-h", "--help") for token in before)


def _server_module() -> ServerModule:
    try:
        # import_module reads sys.modules first (a test may put a stand-in there); `import a.b as c`
        # would take the package attribute of an already imported real module instead.
        server = importlib.import_module("lexigraph.server")
    except ModuleNotFoundError as e:
        if e.name in ("lexigraph.server",):
            raise UsageError("this installation of lexigraph has no server (lexigraph.server is missing)") from None
        raise UsageError(f"the server needs packages that are not installed ({e.name}): "
                         "pip install 'lexigraph[serve]'") from None
    return cast(ServerModule, server)


def _run_special(name: str, args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if name == "man":
        sys.stdout.write(render(parser))
        return 0
    if name == "completion":
        sys.stdout.write(script(args.shell))
        return 0
    raise AssertionError(name)  # pragma: no cover


def run(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv``, run the command, print its document; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    name = _subcommand(argv)
    serve = _server_module() if name == "serve" else None
    if "_ARGCOMPLETE" in os.environ:  # pragma: no cover - driven by the shell
        autocomplete(build_parser())
    narrow = name in command_names() and not _asks_for_help_before(name, argv)
    parser = build_parser(serve=serve, only=name if narrow else None)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    if args.command == "serve":
        if serve is None:  # pragma: no cover - "serve" after other tokens
            serve = _server_module()
        return serve.main(args)
    if args.command in ("man", "completion"):
        return _run_special(args.command, args, build_parser())
    cmd = command(args.command)
    as_json, as_jsonl = getattr(args, "json", False), getattr(args, "jsonl", False)
    mode = "jsonl" if as_jsonl else "json" if as_json else "text"
    if as_json and as_jsonl:
        raise UsageError("--json and --jsonl exclude each other")
    lexicon = getattr(args, "lexicon", None)
    if lexicon is not None and not cmd.uses_lexicon:
        raise UsageError(f"--lexicon does not apply to {cmd.name}")
    for prm in SOURCE_OPTIONS:
        if getattr(args, f"source_{prm.name}", None) is not None and not (cmd.uses_lexicon or cmd.reads_sources):
            raise UsageError(f"--{prm.name} before the command does not apply to {cmd.name}; give it after {cmd.name}")
    try:
        params = _params(cmd, args)
    except _EmptyInput:
        return 1  # like grep on empty input: nothing found, nothing printed
    if lexicon == "-" and "-" in argv[argv.index(cmd.name) + 1 :]:
        raise UsageError("standard input ('-') can be read only once: give --lexicon a file")
    if cmd.name == "export" and params.get("output") == "-" and mode != "text":
        raise UsageError(f"--{mode} cannot go with -o - (the exported file goes to standard output)")
    options = {k: getattr(args, f"source_{k}", None) for k in ("alphabet", "encoding", "format", "case")}
    quiet = bool(getattr(args, "quiet", False) or params.get("quiet"))
    progress = TerminalProgress(draw=mode == "text" and not quiet, notes=sys.stdout if mode == "text" else None)
    ctx = Context(lexicon_spec=lexicon, options=options, spell=_spell(cmd, argv), progress=progress)
    try:
        doc = cmd.run(ctx, params)
    finally:
        progress.close()
    for warning in doc.get("warnings", ()):
        sys.stderr.write(f"{PROG}: warning: {one_line(str(warning))}\n")
    print_document(cmd, doc, mode, progress=progress)
    return cmd.exit_status(doc)


def _wants_json(argv: Sequence[str] | None) -> bool:
    tokens = sys.argv[1:] if argv is None else argv
    return any(t in ("--json", "--jsonl") for t in tokens)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``lexigraph`` command; returns the exit status."""
    try:
        code = run(argv)
        sys.stdout.flush()
        return code
    except LexiconError as e:
        if _wants_json(argv):
            sys.stdout.write(json.dumps(_error_document(e), ensure_ascii=False) + "\n")
        sys.stderr.write(f"{PROG}: error: {one_line(str(e))}\n")  # one line, however the message was made
        return 2
    except SystemExit as e:  # --help, --version, usage errors
        sys.stdout.flush()
        return e.code if isinstance(e.code, int) else 0 if e.code is None else 2
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader (e.g. `head`) went away: not an error worth a word.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except MemoryError:
        sys.stderr.write(f"{PROG}: error: out of memory\n")
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
