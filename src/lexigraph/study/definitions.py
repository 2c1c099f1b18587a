"""Definitions from WordNet 3.0 when it is installed from a package registry (Debian's ``wordnet-base``: its
database files in ``/usr/share/wordnet``), never fetched at run time (docs/study.md, *Definitions*).

WordNet's database is documented (``wndb(5)``): ``index.POS`` lists each lemma (lower case, ``_`` for a space)
sorted, with the byte offsets of its senses in ``data.POS``, whose line at an offset ends with the gloss after
``|``. The index is searched by bisection over the mapped file (nothing is loaded whole), and an inflected
word is taken back to its lemma as WordNet's own ``morphy`` does: the exception lists (``noun.exc``...), then
the detachment rules (``-ies`` to ``-y``, ``-es``, ``-s``, ``-ed``, ``-ing``, ``-er``, ``-est``). The folder is
``$LEXIGRAPH_WORDNET``, else ``$WNSEARCHDIR``, else ``/usr/share/wordnet``; without it every word has no
definition.

>>> wordnet = WordNet.find()
>>> wordnet is None or wordnet.define("cats")[0]["lemma"] == "cat"
True
"""

from __future__ import annotations

import mmap
import os
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAX_SENSES", "SOURCE", "WordNet", "definitions_of", "wordnet_folder"]

SOURCE = "WordNet 3.0"
#: Senses shown per part of speech (the most frequent first, as WordNet orders them).
MAX_SENSES = 3
_POS = (("noun", "noun"), ("verb", "verb"), ("adj", "adjective"), ("adv", "adverb"))
#: WordNet's detachment rules, per part of speech: (ending, replacement).
_RULES = {
    "noun": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
             ("ies", "y")),
    "verb": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "adj": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "adv": (),
}


def wordnet_folder() -> str:
    """Where WordNet's database is looked for."""
    return os.environ.get("LEXIGRAPH_WORDNET") or os.environ.get("WNSEARCHDIR") or "/usr/share/wordnet"


@dataclass
class WordNet:
    """WordNet's database in ``folder``: its index and data files mapped on first use."""

    folder: str
    _maps: dict[str, mmap.mmap] = field(default_factory=dict, repr=False)
    _exceptions: dict[str, dict[str, list[str]]] = field(default_factory=dict, repr=False)

    @classmethod
    def find(cls) -> "WordNet | None":
        """The installed database, or None."""
        folder = wordnet_folder()
        if all(os.path.isfile(os.path.join(folder, f"{k}.{pos}")) for pos, _ in _POS for k in ("index", "data")):
            return cls(folder)
        return None

    def _map(self, name: str) -> mmap.mmap:
        found = self._maps.get(name)
        if found is None:
            with open(os.path.join(self.folder, name), "rb") as f:
                found = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            self._maps[name] = found
        return found

    def _index_line(self, pos: str, lemma: str) -> bytes | None:
        """The index line of ``lemma`` (bisection over the sorted file), or None."""
        data, key = self._map(f"index.{pos}"), lemma.encode("utf-8") + b" "
        lo, hi = 0, len(data)
        while lo < hi:
            mid = (lo + hi) // 2
            start = data.rfind(b"\n", 0, mid) + 1
            end = data.find(b"\n", start)
            end = len(data) if end < 0 else end
            line = data[start:end]
            if line.startswith(key):
                return bytes(line)
            if line < key:
                lo = end + 1
            else:
                hi = start
        return None

    def _exception_bases(self, pos: str, word: str) -> list[str]:
        table = self._exceptions.get(pos)
        if table is None:
            table = {}
            path = os.path.join(self.folder, f"{pos}.exc")
            if os.path.isfile(path):
                with open(path, encoding="utf-8", errors="replace") as f:
                    for line in f:
                        parts = line.split()
                        if len(parts) >= 2:
                            table.setdefault(parts[0], []).extend(parts[1:])
            self._exceptions[pos] = table
        return table.get(word, [])

    def lemmas(self, pos: str, word: str) -> list[str]:
        """The lemmas of ``word`` in part of speech ``pos``: itself, its exceptions' bases, its detached forms."""
        candidates = [word, *self._exception_bases(pos, word)]
        candidates += [word[: -len(end)] + new for end, new in _RULES[pos] if word.endswith(end) and len(word) > len(end)]
        seen: dict[str, None] = {}
        for c in candidates:
            if c and c not in seen and self._index_line(pos, c) is not None:
                seen[c] = None
        return list(seen)

    def _gloss(self, pos: str, offset: int) -> str:
        data = self._map(f"data.{pos}")
        end = data.find(b"\n", offset)
        line = bytes(data[offset: len(data) if end < 0 else end]).decode("utf-8", errors="replace")
        return line.partition(" | ")[2].strip()

    def define(self, word: str, senses: int = MAX_SENSES) -> list[dict[str, object]]:
        """The word's senses, at most ``senses`` per part of speech: ``part_of_speech``, ``lemma``, ``text``,
        ``source``."""
        key = word.strip().lower().replace(" ", "_")
        out: list[dict[str, Any]] = []
        if not key or not key.isprintable():
            return out
        for pos, name in _POS:
            for lemma in self.lemmas(pos, key):
                line = self._index_line(pos, lemma)
                fields = line.decode("utf-8", errors="replace").split() if line else []
                if len(fields) < 4 or not fields[2].isdigit() or not fields[3].isdigit():
                    continue
                count = int(fields[2])
                offsets = fields[len(fields) - count:]
                for offset in offsets[:senses]:
                    if offset.isdigit():
                        out.append({"part_of_speech": name, "lemma": lemma.replace("_", " "),
                                    "text": self._gloss(pos, int(offset)), "source": SOURCE})
        return out


_WORDNET: list[WordNet | None] = []


def definitions_of(word: str) -> list[dict[str, object]]:
    """The word's definitions from the installed WordNet (``part_of_speech``, ``lemma``, ``text``, ``source``);
    empty when it is not installed or knows no such word."""
    if not _WORDNET:
        _WORDNET.append(WordNet.find())
    wordnet = _WORDNET[0]
    return [] if wordnet is None else wordnet.define(word)
