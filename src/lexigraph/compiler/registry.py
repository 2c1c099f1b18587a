"""Named lexicons: the registry that maps a name (``TWL06``, ``CSW21``) to a lexicon file or word source.

CGP positions (``lex TWL06;``), GCG records (``#lexicon TWL06``) and game
files (``lexicon = "TWL06"``) name the lexicon they are played with; the
registry says which file that is. It is one TOML file, written by
``lexigraph lexicons add NAME FILE`` and ``lexigraph lexicons remove NAME``:
``$LEXIGRAPH_LEXICONS`` when that is set, else
``$XDG_CONFIG_HOME/lexigraph/lexicons.toml`` (by default
``~/.config/lexigraph/lexicons.toml``)::

    [lexicons."TWL06"]
    path = "/home/me/lists/twl06.lex"

    [lexicons."FISE2"]
    path = "/home/me/lists/fise2.txt"
    alphabet = "spanish"          # the source options a word source is compiled with

``ENABLE``, the built-in list, is always there and can be neither replaced
nor removed. Names are letters, digits, ``.``, ``_``, ``+`` and ``-`` (at
most 64, starting with a letter or digit) and compare case-insensitively:
``TWL06`` and ``twl06`` are one name, shown as it was registered. A missing
file is an empty registry; a file that cannot be read or is not a registry
is one :class:`RegistryError` naming it. Writes are atomic.

Every GCG and CGP lexigraph writes names its lexicon by :func:`name_of`: the
registered name of the lexicon's file when it has one, else the lexicon's
own name (its ``info["name"]``).

>>> import os, tempfile
>>> os.environ[ENVIRONMENT] = os.path.join(tempfile.mkdtemp(), "lexicons.toml")
>>> [e.name for e in entries()]
['ENABLE']
>>> words = os.path.join(tempfile.mkdtemp(), "tiny.txt")
>>> _ = open(words, "w").write("qi\\nza\\n")
>>> add("Tiny", words).name, find("TINY").path == words, find("tiny").options
('Tiny', True, {})
>>> remove("tiny").name, find("Tiny")
('Tiny', None)
>>> add("no/slash", words)
Traceback (most recent call last):
...
lexigraph.compiler.registry.RegistryError: 'no/slash' is not a lexicon name: use letters, digits, '.', '_', '+' and '-' (at most 64, the first a letter or digit)
>>> del os.environ[ENVIRONMENT]
"""

from __future__ import annotations

import os
import re
import weakref
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..support.jsontypes import JSONObject
from ..errors import LexiconError
from ..support.files import read_limited, same_file, write_atomic
from ..support.presets import parse_toml
from ..support.text import quote

__all__ = [
    "BUILTIN", "ENVIRONMENT", "OPTION_NAMES", "Entry", "RegistryError", "add", "answers_to", "builtin_path",
    "check_name", "entries", "find", "is_name", "name_of", "registry_path", "remember", "remove",
]

#: The built-in lexicon's name: always registered.
BUILTIN = "ENABLE"
#: The environment variable naming the registry file.
ENVIRONMENT = "LEXIGRAPH_LEXICONS"
#: The source options an entry keeps for a word source (as ``--alphabet`` and the rest give them).
OPTION_NAMES = ("alphabet", "encoding", "format", "case")
#: The values the ``format`` and ``case`` options take.
_CHOICES = {"format": ("text", "scored", "dawg32", "daw"), "case": ("fold", "drop-proper")}
#: Largest registry file read, in bytes, and most entries it holds.
MAX_REGISTRY_BYTES = 1 << 20
MAX_ENTRIES = 1000
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}")
_HEADER = ("# lexigraph's named lexicons: `lexigraph lexicons add NAME FILE`, `list`, `remove NAME`.\n"
           "# Names compare case-insensitively; ENABLE (the built-in list) is always there.\n")


class RegistryError(LexiconError):
    """The registry file cannot be read or written, or a name is refused or not registered."""


@dataclass(frozen=True)
class Entry:
    """One named lexicon: its name as registered, its file (None: the built-in) and its source options."""

    name: str
    path: str | None
    options: dict[str, str] = field(default_factory=dict)

    @property
    def builtin(self) -> bool:
        return self.path is None

    def as_dict(self) -> JSONObject:
        """The entry as ``lexicons list --json`` shows it."""
        return {"name": self.name, "path": self.path if self.path is not None else builtin_path(),
                "builtin": self.builtin, "options": dict(self.options)}


def registry_path() -> Path:
    """The registry file: ``$LEXIGRAPH_LEXICONS``, else ``lexicons.toml`` in the user's configuration folder."""
    explicit = os.environ.get(ENVIRONMENT)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "lexigraph" / "lexicons.toml"


def builtin_path() -> str:
    """The file of the built-in ENABLE lexicon, shipped in the package."""
    return str(resources.files("lexigraph").joinpath("data").joinpath("enable.lex"))


def is_name(text: object) -> bool:
    """Whether ``text`` is spelled as a lexicon name (it may still be unregistered).

    >>> is_name("TWL06"), is_name("csw21.1"), is_name("my words"), is_name("../x")
    (True, True, False, False)
    """
    return isinstance(text, str) and _NAME.fullmatch(text) is not None


def check_name(name: object) -> str:
    """``name`` if it is spelled as a lexicon name, else a :class:`RegistryError` that says how to spell one."""
    if not is_name(name):
        raise RegistryError(f"{quote(name)} is not a lexicon name: use letters, digits, '.', '_', '+' and '-' (at "
                            "most 64, the first a letter or digit)")
    assert isinstance(name, str)
    return name


# -- reading -------------------------------------------------------------------------------------------------


def _entry(path: Path, name: object, value: object) -> Entry:
    where = f"the lexicon registry {path}"
    if not is_name(name):
        raise RegistryError(f"{where}: {quote(name)} is not a lexicon name (fix it, or remove the file)")
    assert isinstance(name, str)
    if name.casefold() == BUILTIN.casefold():
        raise RegistryError(f"{where}: {BUILTIN} is the built-in lexicon and cannot be registered (fix the file)")
    if not isinstance(value, dict):
        raise RegistryError(f"{where}: lexicon {name} is not a table with a path (fix it, or remove the file)")
    unknown = sorted(set(value) - {"path", *OPTION_NAMES})
    if unknown:
        raise RegistryError(f"{where}: lexicon {name} has an unknown field {quote(unknown[0])} (it takes path, "
                            f"{', '.join(OPTION_NAMES)})")
    lexicon_path = value.get("path")
    if not isinstance(lexicon_path, str) or not lexicon_path:
        raise RegistryError(f"{where}: lexicon {name} needs a path (text)")
    options: dict[str, str] = {}
    for key in OPTION_NAMES:
        option = value.get(key)
        if option is None:
            continue
        if not isinstance(option, str) or (key in _CHOICES and option not in _CHOICES[key]):
            raise RegistryError(f"{where}: lexicon {name}: {key} {quote(option)} is not one of its values")
        options[key] = option
    return Entry(name, lexicon_path, options)


def _read(path: Path) -> list[Entry]:
    """The entries the file ``path`` holds (none when it does not exist), ENABLE aside."""
    if not os.path.lexists(path):
        return []
    data = read_limited(path, limit=MAX_REGISTRY_BYTES, what="a lexicon registry", error=RegistryError)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RegistryError(f"the lexicon registry {path} is not UTF-8 text (byte {e.start}); fix it, or remove "
                            "the file") from None
    try:
        table = parse_toml(text, origin=f"the lexicon registry {path}", error=RegistryError)
    except RegistryError as e:
        e.args = (f"{e} (fix it, or remove the file)",)
        raise
    unknown = sorted(set(table) - {"lexicons"})
    if unknown:
        raise RegistryError(f"the lexicon registry {path}: unknown field {quote(unknown[0])} (it holds [lexicons])")
    named = table.get("lexicons", {})
    if not isinstance(named, dict):
        raise RegistryError(f"the lexicon registry {path}: 'lexicons' must be a table of names")
    if len(named) > MAX_ENTRIES:
        raise RegistryError(f"the lexicon registry {path} holds more than {MAX_ENTRIES} lexicons")
    out: list[Entry] = []
    seen: dict[str, str] = {}
    for name, value in named.items():
        entry = _entry(path, name, value)
        folded = entry.name.casefold()
        if folded in seen:
            raise RegistryError(f"the lexicon registry {path} names {seen[folded]} and {entry.name}: names compare "
                                "without case (fix the file)")
        seen[folded] = entry.name
        out.append(entry)
    return sorted(out, key=lambda e: e.name.casefold())


def entries() -> list[Entry]:
    """Every named lexicon: ENABLE first, then the registry's by name (case aside)."""
    return [Entry(BUILTIN, None), *_read(registry_path())]


def find(name: str) -> Entry | None:
    """The entry registered as ``name`` (any case), or None; ``ENABLE`` is always found.

    A name that is not spelled as one (a path, say) is None without reading the registry.
    """
    if not is_name(name):
        return None
    folded = name.casefold()
    if folded == BUILTIN.casefold():
        return Entry(BUILTIN, None)
    return next((e for e in _read(registry_path()) if e.name.casefold() == folded), None)


# -- writing -------------------------------------------------------------------------------------------------


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string.

    >>> _toml_string('a "b" \\\\ c\\tdé\\x7f')
    '"a \\\\"b\\\\" \\\\\\\\ c\\\\tdé\\\\u007f"'
    """
    out = ['"']
    for ch in text:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _text(registered: list[Entry]) -> str:
    parts = [_HEADER]
    for e in registered:
        assert e.path is not None
        lines = [f"[lexicons.{_toml_string(e.name)}]", f"path = {_toml_string(e.path)}"]
        lines += [f"{k} = {_toml_string(v)}" for k, v in e.options.items()]
        parts.append("\n" + "\n".join(lines) + "\n")
    return "".join(parts)


def _write(registered: list[Entry]) -> None:
    path = registry_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise RegistryError(f"cannot make the folder of the lexicon registry {path}: {e.strerror or e}") from None
    try:
        write_atomic(path, _text(registered).encode("utf-8"))
    except LexiconError as e:
        raise RegistryError(f"the lexicon registry: {e}") from None


def _text_of(value: str, what: str) -> str:
    """``value`` if it can be written in the registry (UTF-8 text on one line)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise RegistryError(f"{what} {quote(value)} is not valid text (undecodable bytes)") from None
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in value):
        raise RegistryError(f"{what} {quote(value)} holds a control character")
    return value


def add(name: str, path: "str | os.PathLike[str]", options: dict[str, str] | None = None, *,
        replace: bool = False) -> Entry:
    """Register ``path`` (made absolute) as ``name`` with the source ``options``; the new entry.

    A name already registered (any case) is refused unless ``replace``;
    ``ENABLE`` always is. The caller checks that the file opens.
    """
    check_name(name)
    if name.casefold() == BUILTIN.casefold():
        raise RegistryError(f"{BUILTIN} is the built-in lexicon: register yours under another name")
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise RegistryError("a lexicon is registered with the path of its file")
    absolute = _text_of(os.path.abspath(os.fspath(path)), "the path")
    kept: dict[str, str] = {}
    for key, value in (options or {}).items():
        if key not in OPTION_NAMES:
            raise RegistryError(f"{quote(key)} is not a source option ({', '.join(OPTION_NAMES)})")
        if value is None:
            continue
        value = _text_of(str(value), key)
        if key == "alphabet" and os.path.isfile(value):
            value = os.path.abspath(value)  # an alphabet file, wherever the registry is used from
        kept[key] = value
    registered = _read(registry_path())
    old = next((e for e in registered if e.name.casefold() == name.casefold()), None)
    if old is not None and not replace:
        raise RegistryError(f"{old.name} is registered already (as {old.path}): remove it first "
                            f"(lexigraph lexicons remove {old.name}) or add it with --replace")
    if old is None and len(registered) >= MAX_ENTRIES:
        raise RegistryError(f"the lexicon registry holds {MAX_ENTRIES} lexicons already")
    entry = Entry(name, absolute, kept)
    _write(sorted([e for e in registered if e is not old] + [entry], key=lambda e: e.name.casefold()))
    return entry


def remove(name: str) -> Entry:
    """Forget the lexicon registered as ``name`` (any case); the entry removed."""
    if isinstance(name, str) and name.casefold() == BUILTIN.casefold():
        raise RegistryError(f"{BUILTIN} is the built-in lexicon: it cannot be removed")
    check_name(name)
    registered = _read(registry_path())
    old = next((e for e in registered if e.name.casefold() == name.casefold()), None)
    if old is None:
        raise RegistryError(f"no lexicon is registered as {name} (lexigraph lexicons list shows them)")
    _write([e for e in registered if e is not old])
    return old


# -- the names of open lexicons ------------------------------------------------------------------------------

#: Names an open lexicon was opened by (its name first): a lexicon opened as TWL06 is TWL06 in what it writes.
_NAMES: "weakref.WeakKeyDictionary[Any, tuple[str, ...]]" = weakref.WeakKeyDictionary()


def remember(lexicon: object, name: str, *aliases: str) -> None:
    """Say that ``lexicon`` (an open lexicon) is called ``name``, and answers to ``aliases`` too (a server's)."""
    try:
        _NAMES[lexicon] = (name, *aliases)
    except TypeError:  # pragma: no cover - an object that takes no weak reference: named by its file
        pass


def _own_name(lexicon: object) -> str:
    info = getattr(lexicon, "info", None)
    name = info.get("name") if isinstance(info, dict) else None
    if name:
        return str(name)
    path = getattr(lexicon, "path", None)
    return Path(str(path)).stem if path else "lexicon"


def _registered_names(path: object) -> list[str]:
    """The names the registry gives the file ``path`` (ENABLE for the built-in's); unreadable registry: none."""
    if not isinstance(path, str) or not path:
        return []
    if same_file(path, builtin_path()):
        return [BUILTIN]
    try:
        registered = _read(registry_path())
    except LexiconError:
        return []  # naming never fails: a broken registry is reported where a name is looked up
    return [e.name for e in registered if e.path is not None and same_file(path, e.path)]


def name_of(lexicon: object) -> str:
    """The name GCG and CGP give ``lexicon``: the name it was opened by, else its file's registered name, else
    its own (``info["name"]``).

    >>> import lexigraph
    >>> name_of(lexigraph.open()), name_of(lexigraph.open(["cat"]))
    ('ENABLE', 'lexicon')
    """
    names = _NAMES.get(lexicon) if _weak(lexicon) else None
    if names:
        return names[0]
    registered = _registered_names(getattr(lexicon, "path", None))
    name = registered[0] if registered else _own_name(lexicon)
    remember(lexicon, name)
    return name


def answers_to(lexicon: object, name: str) -> bool:
    """Whether ``name`` (any case) names ``lexicon``: the name it was opened by or an alias, a registered name of
    its file, or its own name.

    >>> import lexigraph
    >>> lex = lexigraph.open()
    >>> answers_to(lex, "enable"), answers_to(lex, "TWL06")
    (True, False)
    """
    folded = name.strip().casefold()
    known = [*(_NAMES.get(lexicon, ()) if _weak(lexicon) else ()), _own_name(lexicon)]
    if any(n.casefold() == folded for n in known):
        return True
    return any(n.casefold() == folded for n in _registered_names(getattr(lexicon, "path", None)))


def _weak(lexicon: object) -> bool:
    try:
        weakref.ref(lexicon)
    except TypeError:
        return False
    return True
