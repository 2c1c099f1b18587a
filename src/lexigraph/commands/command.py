"""A command's description: :class:`Command`, its parameters (:class:`Param`), what it runs with (:class:`Context`)
and how a long one reports (:class:`Progress`); the bounds numeric parameters declare.

A :class:`Command` names its parameters once, runs on a :class:`Context`
and the parsed parameters, and returns a *document*: a JSON-ready ``dict``.
The command line builds its parser from the same description and prints the
document as text (``Command.text``) or JSON; the server turns the
parameters into query or body fields and answers with the document. Both
therefore speak one JSON shape (``docs/json.md``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from ..compiler.registry import RegistryError, answers_to, is_name, name_of
from ..compiler.registry import find as find_registered
from ..errors import LexiconError, QueryError
from ..lexicon import Lexicon
from ..opener import open_registered, open_source
from ..support.text import quote
from ..support.workers import MAX_WORKERS as MAX_WORKERS  # the most processes a pool may be asked for

Document = dict[str, Any]
#: The keys of ``Context.options`` that say how a word source is compiled; other keys are the commands' own.
SOURCE_OPTION_NAMES = ("alphabet", "encoding", "format", "case")
ParamKind = Literal["str", "int", "float", "bool"]

# The ranges numeric parameters declare (Param.minimum, Param.maximum): the outer bounds of what a command
# can take, checked before it runs; each command checks what depends on its input (a game's rack size...).
#: Results to list, skip or rank: far above any answer, within what the C code counts in.
MAX_COUNT = 2**31 - 1
#: Seeds of the games' and draws' 64-bit generators.
MAX_SEED = 2**64 - 1
#: Numbers the C code takes as signed 64-bit (a game's number in a self-play run).
MAX_INT64 = 2**63 - 1
#: Longest time a command takes as a limit, in seconds: a day.
MAX_SECONDS = 86400.0
#: Longest word, leave or prefix length, in tiles (``native/limits.h``: LX_MAX_WORD_LENGTH).
MAX_TILES = 255
#: Highest word priority.
MAX_PRIORITY = 255


@dataclass(frozen=True)
class Param:
    """One parameter of a command.

    ``name`` is the Python identifier, the JSON field and the HTTP query or
    body field; the command line spells it ``--min-priority`` for
    ``min_priority`` unless ``flags`` says otherwise. ``positional`` ones
    come in order on the command line. ``many`` makes a list (``nargs='+'``
    for a required positional, ``'*'`` otherwise; a repeatable option).
    ``stdin``: on the command line ``-`` reads the values one per line.
    ``cli_only`` / ``http_only`` hide a parameter from the other side.
    """

    name: str
    help: str
    kind: ParamKind = "str"
    positional: bool = False
    many: bool = False
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] | None = None
    flags: tuple[str, ...] = ()
    metavar: str | None = None
    stdin: bool = False
    cli_only: bool = False
    http_only: bool = False
    #: What the value names, for shell completion: ``"file"`` (a path),
    #: ``"lexicon"`` (a lexicon file or word source), ``"alphabet"``.
    completer: str | None = None
    #: An ``int`` or ``float`` parameter's smallest and largest values (both included; every numeric
    #: parameter declares them). A value outside, NaN or an infinity is refused before the command runs,
    #: whether it came from the command line, the server or Python (:meth:`Command.__post_init__`).
    minimum: float | None = None
    maximum: float | None = None

    def check_range(self, value: object, spelled: str) -> None:
        """Raise :class:`~lexigraph.errors.QueryError` if the number ``value`` lies outside the declared range.

        ``spelled``: the parameter as the user named it (``--top``, or ``top`` over HTTP). Values that are
        not numbers are left to the command, which says what it takes.

        >>> Param("top", "", kind="int", minimum=0, maximum=100).check_range(2**70, "--top")
        Traceback (most recent call last):
        ...
        lexigraph.errors.QueryError: --top must be from 0 to 100, not 1180591620717411303424
        >>> Param("limit", "", kind="float", minimum=0, maximum=60).check_range(float("nan"), "--limit")
        Traceback (most recent call last):
        ...
        lexigraph.errors.QueryError: --limit must be from 0 to 60, not nan
        """
        if self.kind not in ("int", "float") or isinstance(value, bool) or not isinstance(value, (int, float)):
            return
        low = -math.inf if self.minimum is None else self.minimum
        high = math.inf if self.maximum is None else self.maximum
        if not low <= value <= high:  # NaN is neither above nor below: refused too
            shown = "nan" if value != value else _number(value)
            raise QueryError(f"{spelled} must be from {_number(low)} to {_number(high)}, not {shown}")

    @property
    def flag(self) -> str:
        """The option as the command line spells it (``--min-priority``), or the positional's name."""
        if self.positional:
            return self.metavar or self.name.upper()
        long = [f for f in self.flags if f.startswith("--")]
        return long[0] if long else self.flags[0] if self.flags else "--" + self.name.replace("_", "-")


class Progress(Protocol):
    """How a long job reports: ``progress(stage, done, total, unit=, detail=, note=)``, a plain callable.

    ``stage`` names the work under way ("autoplay", "generation 2 of 5");
    ``done`` of ``total`` counts it in ``unit`` ("games", "play-outs"; ""
    when nothing is counted); ``total`` 0: unknown. ``done`` never goes
    down within a stage; ``unit`` "ms" is a time budget (the fill's time
    limit: milliseconds spent of it). ``detail`` is a short text that may change with
    each report ("41/76 slots at best, 3 restarts"). ``note`` is a line of
    the command's text output that is ready before the end (``leaves
    build``'s line for a generation just finished): the command line prints
    it at once, and not again with the rest of the text. Calls come a few
    times a second at most; the server passes no progress and jobs then
    report nothing.

    >>> seen = []
    >>> def record(stage: str, done: int, total: int, **extras: str) -> None:
    ...     seen.append((stage, done, total, extras.get("unit", "")))
    >>> ctx = Context(progress=record)
    >>> if ctx.progress is not None:
    ...     ctx.progress("autoplay", 200, 1000, unit="games")
    >>> seen
    [('autoplay', 200, 1000, 'games')]
    """

    def __call__(self, stage: str, done: int, total: int, *, unit: str = "", detail: str = "",
                 note: str = "") -> None:
        """Report ``done`` of ``total`` (see the class)."""


@dataclass
class Context:
    """What a command runs with: the lexicon (opened on first use), progress, limits.

    The command line and the server each make one per call. ``lexicon``
    opens ``lexicon_spec`` (a file or any word source; ``None``: the
    built-in lexicon) unless ``opener`` is given (the server hands out its
    already-open lexicons). ``deadline`` is a ``time.monotonic()`` value
    that long jobs (fills, move analysis) stop at; ``max_results`` caps
    result lists (the server sets it); ``progress`` (a :class:`Progress`:
    ``progress(stage, done, total, unit=..., detail=..., note=...)``)
    reports long work (the command line draws it on a terminal). ``lexicon_given``: whether the user chose the
    lexicon (``--lexicon``, a request's ``lexicon``), so that it wins over
    the one a position names (None: when ``lexicon_spec`` is given; the
    server hands its default lexicon as ``lexicon_spec`` and says False).
    """

    lexicon_spec: str | None = None
    lexicon_given: bool | None = None
    opener: Callable[[str | None], Lexicon] | None = None
    deadline: float | None = None
    max_results: int | None = None
    progress: Progress | None = None
    options: dict[str, Any] = field(default_factory=dict)
    #: How a parameter is named in messages: the command line's flag
    #: (``--min-length``), the server's field name (the default).
    spell: Callable[[str], str] = str
    _lexicon: Lexicon | None = None

    def lexicon(self) -> Lexicon:
        """The lexicon the command runs on (``--lexicon``), opened once."""
        if self._lexicon is None:
            self._lexicon = self.open(self.lexicon_spec)
        return self._lexicon

    def open(self, spec: str | None) -> Lexicon:
        """Open a lexicon file, a registered name or compile a word source (``None``: the built-in lexicon).

        Sources other than lexicon files are compiled with ``options``
        (``alphabet``, ``encoding``, ``format``, ``case``) and cached
        (:mod:`lexigraph.opener`); a path that exists wins over a
        registered name (:mod:`lexigraph.compiler.registry`).
        """
        if self.opener is not None:
            return self.opener(spec)
        return open_source(spec, **self._source_options())

    def _source_options(self) -> dict[str, Any]:
        return {k: v for k, v in self.options.items() if k in SOURCE_OPTION_NAMES and v is not None}

    def lexicon_for(self, named: Iterable[tuple[str, str]]) -> tuple[Lexicon, list[str]]:
        """The lexicon for a command whose input names one, and the warnings to show.

        ``named``: ``(what, name)`` pairs, the most specific first (``("the
        position", "TWL06")``, then ``("the game file", ...)``); empty names
        are skipped. The lexicon given (``--lexicon``, the request's) wins,
        with a warning for each name that is not its; else the first name
        chooses (a registered name; on the server, a lexicon it serves), else
        the built-in lexicon.

        >>> lex, warnings = Context(lexicon_spec="enable").lexicon_for([("the position", "TWL06")])
        >>> warnings
        ["the position names the lexicon 'TWL06'; the answer comes from ENABLE, the lexicon given with --lexicon"]
        >>> Context().lexicon_for([("the position", "TWL06")])
        Traceback (most recent call last):
        ...
        lexigraph.compiler.registry.RegistryError: the position names the lexicon 'TWL06', which is not registered: lexigraph lexicons add TWL06 FILE registers it (or give --lexicon)
        """
        names = [(what, name.strip()) for what, name in named if name and name.strip()]
        chosen_by = ""
        given = self.lexicon_spec is not None if self.lexicon_given is None else self.lexicon_given
        if self._lexicon is None and not given and names:
            chosen_by, name = names[0]
            self._lexicon = self._open_named(name, chosen_by)
        lex = self.lexicon()
        source = (f"which {chosen_by} names" if chosen_by else
                  "the lexicon given with --lexicon" if self.opener is None else "the lexicon the request names")
        warnings = []
        for what, name in names:
            if what != chosen_by and not answers_to(lex, name):
                warnings.append(f"{what} names the lexicon {quote(name)}; the answer comes from {name_of(lex)}, "
                                f"{source}")
        return lex, warnings

    def _open_named(self, name: str, what: str) -> Lexicon:
        """The lexicon ``what`` names: a registered name (on the server, a lexicon it serves)."""
        if self.opener is not None:
            try:
                return self.opener(name)
            except LexiconError as e:
                e.args = (f"{what} names the lexicon {quote(name)}: {e}",)
                raise
        entry = find_registered(name)
        if entry is None:
            how = (f"lexigraph lexicons add {name} FILE registers it" if is_name(name) else
                   "register the list under a name of letters, digits, '.', '_', '+' and '-'")
            raise RegistryError(f"{what} names the lexicon {quote(name)}, which is not registered: {how} "
                                "(or give --lexicon)")
        return open_registered(entry, **self._source_options())


def _has_results(doc: Document) -> bool:
    results = doc.get("results")
    return bool(results) if results is not None else True


@dataclass(frozen=True)
class Command:
    """An operation of lexigraph, described once for the command line and the server.

    ``run(ctx, params)`` returns the document. ``text(doc)`` yields the
    plain-text lines the command line prints without ``--json``.
    ``found(doc)`` decides the exit status (0 found, 1 nothing found);
    ``status(doc)``, when given, decides it instead, for commands that need
    more than two outcomes (e.g. 3: a search proved that no answer exists).
    ``writes_files``: the server never offers it (``build``, ``export``).
    ``uses_lexicon``: whether ``--lexicon`` applies.
    ``reads_sources``: the command reads word sources named by its own
    parameters (``diff A B``), so the source options (``--alphabet``,
    ``--encoding``, ``--format``, ``--case``) apply; they apply to every
    command that ``uses_lexicon`` too (``--lexicon`` may name a word list).
    """

    name: str
    summary: str
    params: tuple[Param, ...]
    run: Callable[[Context, Mapping[str, Any]], Document]
    text: Callable[[Document], Iterable[str]]
    examples: tuple[str, ...] = ()
    uses_lexicon: bool = True
    writes_files: bool = False
    found: Callable[[Document], bool] = _has_results
    http_method: Literal["GET", "POST"] = "GET"
    reads_sources: bool = False
    status: Callable[[Document], int] | None = None

    def __post_init__(self) -> None:
        # The declared ranges are checked wherever the command runs (the command line, the server, Python):
        # one place, before the command reads a number, so that no value reaches C or a loop unchecked.
        numeric = tuple(p for p in self.params if p.kind in ("int", "float"))
        if numeric:
            object.__setattr__(self, "run", _range_checked(self.run, numeric))

    def exit_status(self, doc: Document) -> int:
        """The command line's exit status for ``doc`` (errors, 2, never get here)."""
        if self.status is not None:
            return self.status(doc)
        return 0 if self.found(doc) else 1

    def param(self, name: str) -> Param:
        """The parameter called ``name``."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)


def _number(value: float) -> str:
    """A bound or a value as messages show it: whole numbers without a decimal point.

    >>> _number(86400.0), _number(0.5), _number(2**70)
    ('86400', '0.5', '1180591620717411303424')
    """
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def _range_checked(run: Callable[[Context, Mapping[str, Any]], Document],
                   numeric: tuple[Param, ...]) -> Callable[[Context, Mapping[str, Any]], Document]:
    """``run``, checking first each numeric parameter given against its declared range."""

    @functools.wraps(run)
    def checked(ctx: Context, params: Mapping[str, Any]) -> Document:
        for p in numeric:
            value = params.get(p.name)
            if value is not None:
                p.check_range(value, ctx.spell(p.name))
        return run(ctx, params)

    return checked


def always_found(doc: Document) -> bool:
    """``found`` for commands that report rather than search (``info``, ``build``): exit 0."""
    return True
