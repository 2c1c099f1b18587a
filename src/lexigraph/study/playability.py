"""Playability: how often lexigraph's own self-play plays each word, as a table (docs/study.md, *Playability*;
the file's format in docs/format.md).

A table counts, for each word, the plays whose main word it was in a self-play run (``lexigraph playability
build``, :mod:`lexigraph.scrabble.playability`), with the run that made it: the lexicon (its name and word
count), the games, the seed and the players. A word's *playability rank* is its competition rank by plays (1:
played most; words played as often share a rank); a word never played ranks after every word played.

The table for the built-in lexicon ships with lexigraph (``data/enable.playability.tsv.gz``); tables built for
other lexicons are kept in the user's data folder (``$XDG_DATA_HOME/lexigraph/playability/NAME.tsv.gz``) and
found by the lexicon's name; a table whose word count is not the lexicon's is not used.

>>> table = PlayabilityTable("MINE", 5, 10, 1, "equity equity", {"qi": 7, "za": 7, "ox": 2})
>>> [table.entry(w) for w in ("qi", "ox", "cat")]
[{'rank': 1, 'plays': 7, 'of': 3, 'games': 10, 'source': 'lexigraph self-play, 10 games, seed 1'}, {'rank': 3, 'plays': 2, 'of': 3, 'games': 10, 'source': 'lexigraph self-play, 10 games, seed 1'}, {'rank': 4, 'plays': 0, 'of': 3, 'games': 10, 'source': 'lexigraph self-play, 10 games, seed 1'}]
>>> parse_table(table.text()) == table
True
>>> round(spearman({"a": 3, "b": 2, "c": 1}, {"a": 30, "b": 20, "c": 10}), 6)
1.0
"""

from __future__ import annotations

import gzip
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from ..errors import LexiconError
from ..support.files import read_limited, write_atomic

__all__ = ["FORMAT_LINE", "PlayabilityError", "PlayabilityTable", "parse_table", "playability_of", "read_table",
           "spearman", "table_for", "user_table_path", "write_table"]

#: The first line of every table file.
FORMAT_LINE = "# lexigraph playability 1"
#: The largest table file read (a table lists at most a lexicon's words).
MAX_TABLE_BYTES = 256 << 20
#: The shipped tables, by lexicon name (package data).
SHIPPED = {"ENABLE": "enable.playability.tsv.gz"}
_HEADER = re.compile(r"# (lexicon|words|games|seed|players) (.+)")


class PlayabilityError(LexiconError):
    """A playability table file that is not one (its header, a line, a count)."""


@dataclass
class PlayabilityTable:
    """A self-play run's plays per word: the lexicon's name and word count, the games and seed, the players."""

    lexicon: str
    words: int
    games: int
    seed: int
    players: str
    plays: dict[str, int]
    _ranks: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    @property
    def source(self) -> str:
        return f"lexigraph self-play, {self.games:,} games, seed {self.seed}"

    def ranked(self) -> list[tuple[str, int]]:
        """The words played, most played first (then alphabetical)."""
        return sorted(self.plays.items(), key=lambda kv: (-kv[1], kv[0]))

    def rank(self, word: str) -> int:
        """The word's competition rank by plays (never played: after every word played)."""
        if not self._ranks:
            last, rank = None, 0
            for i, (w, n) in enumerate(self.ranked(), start=1):
                if n != last:
                    rank, last = i, n
                self._ranks[w] = rank
        return self._ranks.get(word, len(self.plays) + 1)

    def entry(self, word: str) -> dict[str, object]:
        """The word's playability as ``why`` shows it: rank, plays, of (words played), games, source."""
        return {"rank": self.rank(word), "plays": self.plays.get(word, 0), "of": len(self.plays),
                "games": self.games, "source": self.source}

    def text(self) -> str:
        """The table as its file holds it (docs/format.md, *Playability tables*)."""
        head = [FORMAT_LINE, f"# lexicon {self.lexicon}", f"# words {self.words}", f"# games {self.games}",
                f"# seed {self.seed}", f"# players {self.players}"]
        return "\n".join(head + [f"{w}\t{n}" for w, n in self.ranked()]) + "\n"


def parse_table(text: str) -> PlayabilityTable:
    """A table from its text; a :class:`PlayabilityError` naming the first line that is wrong."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != FORMAT_LINE:
        raise PlayabilityError(f"not a playability table (its first line is not {FORMAT_LINE!r})")
    head: dict[str, str] = {}
    plays: dict[str, int] = {}
    for number, line in enumerate(lines[1:], start=2):
        if line.startswith("#"):
            m = _HEADER.fullmatch(line.strip())
            if m:
                head[m.group(1)] = m.group(2).strip()
            continue
        word, sep, count = line.partition("\t")
        if not sep or not word or not count.isdigit() or word in plays:
            raise PlayabilityError(f"line {number} of the playability table is not WORD<TAB>PLAYS (once per word)")
        plays[word] = int(count)
    missing = [k for k in ("lexicon", "words", "games", "seed") if k not in head]
    if missing or not all(head[k].isdigit() for k in ("words", "games", "seed")):
        raise PlayabilityError(f"the playability table's header lacks {', '.join(missing) or 'whole numbers'}")
    return PlayabilityTable(head["lexicon"], int(head["words"]), int(head["games"]), int(head["seed"]),
                            head.get("players", ""), plays)


def read_table(path: str | os.PathLike[str]) -> PlayabilityTable:
    """A table file (gzip-compressed when its name ends in ``.gz``)."""
    data = read_limited(path, limit=MAX_TABLE_BYTES, what="a playability table", error=PlayabilityError)
    if os.fspath(path).endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as e:
            raise PlayabilityError(f"{os.fspath(path)} is not gzip-compressed: {e}") from None
    try:
        return parse_table(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise PlayabilityError(f"{os.fspath(path)} is not UTF-8 text") from None


def write_table(path: str | os.PathLike[str], table: PlayabilityTable) -> int:
    """Write a table atomically (gzip-compressed when the name ends in ``.gz``, reproducibly: no time stamp)."""
    data = table.text().encode("utf-8")
    folder = os.path.dirname(os.path.abspath(os.fspath(path)))
    try:
        os.makedirs(folder, exist_ok=True)  # the user's data folder, the first time
    except OSError as e:
        raise PlayabilityError(f"cannot make the folder {folder}: {e.strerror or e}") from None
    if os.fspath(path).endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    return write_atomic(path, data)


def user_table_path(lexicon: str) -> str:
    """Where ``playability build`` keeps a lexicon's table by default: the user's data folder."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    safe = re.sub(r"[^A-Za-z0-9._+-]", "_", lexicon) or "lexicon"
    return os.path.join(base, "lexigraph", "playability", f"{safe}.tsv.gz")


_TABLES: dict[tuple[str, int], PlayabilityTable | None] = {}


def table_for(lexicon: str, words: int) -> PlayabilityTable | None:
    """The table of the lexicon called ``lexicon`` with ``words`` words: the user's, else the shipped one; None
    when there is none (or it was made on a lexicon of another size). Read once per process."""
    key = (lexicon.upper(), words)
    if key not in _TABLES:
        _TABLES[key] = _find_table(lexicon, words)
    return _TABLES[key]


def _find_table(lexicon: str, words: int) -> PlayabilityTable | None:
    candidates: list[Any] = [user_table_path(lexicon)]
    shipped = SHIPPED.get(lexicon.upper())
    if shipped:
        candidates.append(resources.files("lexigraph").joinpath("data", shipped))
    for path in candidates:
        if not os.path.isfile(str(path)):
            continue
        table = read_table(str(path))
        if table.words == words and table.lexicon.upper() == lexicon.upper():
            return table
    return None


def playability_of(lexicon: str, words: int, word: str) -> dict[str, object] | None:
    """The word's playability in the lexicon's table (``rank``, ``plays``, ``of``, ``games``, ``source``), or
    None when the lexicon has no table."""
    table = table_for(lexicon, words)
    return None if table is None else table.entry(word)


def _average_ranks(values: list[float]) -> list[float]:
    """Ranks 1..n of ``values`` (largest first), ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(a: Mapping[str, int], b: Mapping[str, int]) -> float:
    """Spearman's rank correlation of two runs' plays over the words either played (a word one run never played
    counts 0 there): Pearson's correlation of the average ranks."""
    words = sorted(set(a) | set(b))
    if len(words) < 2:
        raise PlayabilityError("a rank correlation needs at least two words played")
    ra = _average_ranks([float(a.get(w, 0)) for w in words])
    rb = _average_ranks([float(b.get(w, 0)) for w in words])
    n = len(words)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5 if va and vb else 0.0
