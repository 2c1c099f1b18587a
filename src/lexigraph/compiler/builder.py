"""Compiling words into a lexicon file: length buckets, priorities, word graph, hash index."""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..engine import fileformat
from . import graph_builder
from . import hash_tables
from ..engine import wordgraph
from ..alphabet import Alphabet
from ..buildinfo import __version__, c_module
from ..errors import BuildError
from ..support.files import refuse_overwrite, write_atomic
from . import scores
from .normalize import Reject, Report, WordSet, check_build_options, normalize
from .sources import RawWords, Source, read, source_name

Progress = Callable[[str, int, int], None]


@dataclass
class BuildResult:
    """What :func:`build` wrote: the file's path, its index and the build report."""

    path: str | None
    info: dict[str, Any]
    report: Report


def score_scale(score_max: int | None) -> int | None:
    """The usual scale a list's top score suggests: 50 (Spread the Wordlist), 100 (Broda) or 255."""
    if score_max is None:
        return None
    for scale in (50, 100):
        if score_max <= scale:
            return scale
    return 255


def alphagram_order(rows: np.ndarray, *, pure_python: bool = False) -> np.ndarray:
    """Rows of a bucket ordered by their alphagrams (tiles sorted), ties by row, as little-endian row numbers.

    Runs in C (``lexigraph._native``) when it is built, unless ``pure_python``
    or ``LEXIGRAPH_PURE_PYTHON`` is set; both give the same order.

    >>> alphagram_order(np.array([[3, 1], [1, 2], [2, 1]], np.uint8)).tolist()
    [1, 2, 0]
    >>> alphagram_order(np.array([[3, 1], [1, 2], [2, 1]], np.uint8), pure_python=True).tolist()
    [1, 2, 0]
    """
    count, length = rows.shape
    ext = None if pure_python or not count or not length else c_module("_native")
    if ext is not None:
        data = ext.alphagram_order(np.ascontiguousarray(rows, np.uint8), count, length)
        return np.frombuffer(data, "<u4").astype(hash_tables.slot_dtype(count + 1))
    grams = np.ascontiguousarray(np.sort(rows, axis=1)).view(f"S{length}").ravel() if count else np.zeros(0, "S1")
    order = np.argsort(grams, kind="stable")
    return order.astype(hash_tables.slot_dtype(count + 1))


def bucket_rows(flat: np.ndarray, starts: np.ndarray, ids: np.ndarray, length: int, *,
                pure_python: bool = False) -> np.ndarray:
    """The words ``ids`` of one length (word i: ``flat[starts[i]:starts[i] + length]``) as rows of a matrix.

    Runs in C (``lexigraph._native``) when it is built, unless ``pure_python``
    or ``LEXIGRAPH_PURE_PYTHON`` is set; both give the same rows.

    >>> flat = np.array([1, 2, 3, 4, 5], np.uint8); starts = np.array([0, 1, 3])
    >>> bucket_rows(flat, starts, np.array([2, 0]), 2).tolist()
    [[4, 5], [1, 2]]
    >>> bucket_rows(flat, starts, np.array([2, 0]), 2, pure_python=True).tolist()
    [[4, 5], [1, 2]]
    """
    return np.frombuffer(_bucket_bytes(flat, starts, ids, length, pure_python), np.uint8).reshape(len(ids), length)


def _bucket_bytes(flat: np.ndarray, starts: np.ndarray, ids: np.ndarray, length: int, pure_python: bool) -> bytes:
    ext = None if pure_python or length < 1 else c_module("_native")
    if ext is not None:
        data: bytes = ext.bucket_rows(np.ascontiguousarray(flat, np.uint8), np.ascontiguousarray(starts, np.int64),
                                      np.ascontiguousarray(ids, np.int64), length)
        return data
    return np.asarray(flat[starts[ids][:, None] + np.arange(length)], np.uint8).tobytes()


def compile_words(words: WordSet, *, name: str, source: str, kind: str, pure_python: bool = False) -> bytes:
    """The bytes of a lexicon file holding ``words`` (``pure_python``: without the C extension)."""
    lens = words.lengths
    n = len(lens)
    flat = words.codes
    starts = np.cumsum(lens) - lens
    # A graph has at most one arc per tile of the list (plus the null arc):
    # refuse, before any expensive work, a list that could overflow its targets.
    if len(flat) + 1 >= wordgraph.MAX_ARCS:
        raise BuildError(
            f"the list holds {len(flat):,} tiles; the word graph could need more arcs than the "
            f"{wordgraph.MAX_ARCS - 1:,} the format holds"
        )

    # word ids: by length, then in code order (lengths fit 8 bits: NumPy's radix sort, the same order)
    order = np.argsort(lens.astype(np.uint8) if n and int(lens.max()) < 1 << 8 else lens, kind="stable")
    per_length = np.bincount(lens)
    lengths = np.flatnonzero(per_length)
    bounds = np.cumsum(per_length[lengths]) - per_length[lengths]
    sections: dict[str, tuple[bytes, str, tuple[int, ...]]] = {}
    buckets = []
    for length, lo, count in zip(lengths.tolist(), bounds.tolist(), per_length[lengths].tolist()):
        hi = lo + count
        ids = order[lo:hi]
        data = _bucket_bytes(flat, starts, ids, length, pure_python)  # the section as it is: no copy
        rows = np.frombuffer(data, np.uint8).reshape(hi - lo, length)
        sections[f"words.{length}"] = (data, "u1", (hi - lo, length))
        table, home = hash_tables.build_table(rows, pure_python=pure_python)
        sections[f"hash.{length}"] = (table.tobytes(), table.dtype.str.replace("|", ""), (len(table),))
        grams = alphagram_order(rows, pure_python=pure_python)
        sections[f"alphagram.{length}"] = (grams.tobytes(), grams.dtype.str, (len(grams),))
        buckets.append({"length": length, "first": lo, "count": hi - lo, "hash_home": home})
    if words.has_priorities:  # an unscored list leaves it out: every word has the default priority
        sections["priority"] = (words.priorities[order].tobytes(), "u1", (n,))

    records, root = graph_builder.lexicon_graph_bytes(flat, starts, lens, pure_python=pure_python)
    arc_count = len(records) // 8
    sections["graph"] = (records, "<u8", (arc_count,))

    report = words.report
    index = {
        "name": name,
        "source": source,
        "source_format": kind,
        "built": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        "lexigraph": __version__,
        "alphabet": words.alphabet.to_dict(),
        "word_count": n,
        "counts_by_length": {str(k): v for k, v in report.per_length.items()},
        "min_length": int(lengths[0]),
        "max_length": int(lengths[-1]),
        "has_priorities": words.has_priorities,
        "score_max": words.score_max,
        "score_scale": score_scale(words.score_max),
        "buckets": buckets,
        "graph": {"root": root, "arcs": arc_count, "layout": wordgraph.LAYOUT},
        "hash": {"function": "crc32", "load": hash_tables.LOAD},
        "build": report.to_dict(),
    }
    return fileformat.pack(index, sections)


def build(
    source: Source,
    dest: str | os.PathLike[str] | None,
    *,
    format: str | None = None,
    name: str | None = None,
    alphabet: "str | Alphabet | None" = None,
    min_length: int = 2,
    max_length: int | None = None,
    encoding: str | None = None,
    progress: Progress | None = None,
    case: str | None = None,
    rejects: "list[Reject] | None" = None,
    score_by: str | None = None,
    language: str | None = None,
    overrides: Sequence[Source] = (),
    excludes: Sequence[Source] = (),
) -> BuildResult:
    """Compile a word source into a lexicon file at ``dest``.

    ``source`` is a path, ``"-"`` for standard input, a file object, or an
    iterable of words. Plain lists, scored lists (``WORD;SCORE``), TWL06
    ``dawg32`` tables and Hasbro ``.daw`` files are recognised by content.
    The file is written atomically: on any error an existing ``dest`` is
    left as it was, and a ``dest`` that is the source itself (or the
    alphabet file), directly or through links, is refused before any work.
    With ``dest=None`` nothing is written (see
    :func:`compile_source`). ``case``: what to do with entries that are
    capitalised only (``"fold"``, the default, or ``"drop-proper"``);
    ``rejects``: a list that receives every line skipped or changed.
    ``score_by="wordfreq"`` gives every word a priority from its frequency in
    ``language`` (default: the alphabet's; see :mod:`lexigraph.compiler.scores`);
    ``overrides`` (word sources whose scores win and whose words are added)
    and ``excludes`` (word sources whose words are left out) layer other
    lists on the source.

    >>> import tempfile, os, lexigraph
    >>> path = os.path.join(tempfile.mkdtemp(), "pets.lex")
    >>> result = lexigraph.build(["cat", "dog", "Dogs", "x1"], path)
    >>> result.report.kept, dict(result.report.skipped)
    (3, {'digits': 1})
    >>> with lexigraph.open(path) as lex:
    ...     "dogs" in lex
    True
    """
    if dest is not None and not isinstance(dest, (str, os.PathLike)):
        raise BuildError(f"the lexicon is written to a path, not {type(dest).__name__}")
    check_build_options(format=format, name=name, alphabet=alphabet, min_length=min_length, max_length=max_length,
                        encoding=encoding, progress=progress, case=case, rejects=rejects)
    inputs = [source, alphabet]  # the paths among them must survive the build
    if dest is not None:
        refuse_overwrite(dest, inputs)  # before the work, not after it
    data, result = compile_source(
        source, format=format, name=name, alphabet=alphabet, min_length=min_length,
        max_length=max_length, encoding=encoding, progress=progress, case=case, rejects=rejects,
        score_by=score_by, language=language, overrides=overrides, excludes=excludes,
    )
    if dest is not None:
        if progress:
            progress("writing", 0, 1)
        write_atomic(dest, data, inputs=inputs)
        result.path = os.fspath(dest)
    return result


def _lines_read(raw: RawWords) -> int:
    """The lines of the source (the words of a ``dawg32`` or ``.daw`` file), counted without splitting a plain
    list still held as bytes.

    >>> _lines_read(RawWords.from_ascii(b"cat\\n\\ndog", "<w>"))
    3
    """
    data = raw.ascii_data
    if data is not None:
        return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    return raw.lines or len(raw.words)


def compile_source(
    source: Source,
    *,
    format: str | None = None,
    name: str | None = None,
    alphabet: "str | Alphabet | None" = None,
    min_length: int = 2,
    max_length: int | None = None,
    encoding: str | None = None,
    progress: Progress | None = None,
    case: str | None = None,
    rejects: "list[Reject] | None" = None,
    pure_python: bool = False,
    score_by: str | None = None,
    language: str | None = None,
    overrides: Sequence[Source] = (),
    excludes: Sequence[Source] = (),
) -> tuple[bytes, BuildResult]:
    """Compile ``source`` in memory; returns the file's bytes and the build result (options as :func:`build`).

    ``pure_python=True`` compiles without the C extension (its NumPy twins give the same bytes).
    """
    check_build_options(format=format, name=name, alphabet=alphabet, min_length=min_length, max_length=max_length,
                        encoding=encoding, progress=progress, case=case, rejects=rejects)
    if progress:
        progress("reading", 0, 1)
    if score_by is not None and score_by not in scores.SCORERS:
        raise BuildError(f"unknown scorer {score_by!r}; choose one of {', '.join(scores.SCORERS)}")
    alpha = Alphabet.load(alphabet) if alphabet is not None else None
    raw = read(source, format=format, encoding=encoding, alphabet=alpha)
    if alpha is None:
        alpha = raw.alphabet  # a source that names its alphabet (a KWG's tile table) keeps its tiles
    if progress:
        lines = _lines_read(raw)
        progress("reading", lines, lines)
    words = normalize(raw, alphabet=alpha, min_length=min_length, max_length=max_length, progress=progress,
                      case=case, rejects=rejects, pure_python=pure_python)
    if score_by is not None:
        if progress:
            progress("scoring", 0, 1)
        words = scores.score_words(words, score_by, language)
    if overrides or excludes:
        def layer(src: Source) -> tuple[str, WordSet]:
            name = Path(source_name(src)).name
            try:
                got = normalize(read(src, encoding=encoding), alphabet=words.alphabet, min_length=min_length,
                                max_length=max_length, case=case, pure_python=pure_python)
            except BuildError:
                # The options read the base list: a layer can only fail by leaving no word (empty, or
                # every line outside the alphabet), which layers nothing.
                got = WordSet(words.alphabet, [], np.zeros(0, np.uint8), False, None, Report())
            return name, got

        words = scores.apply_layers(words, [layer(s) for s in overrides], [layer(s) for s in excludes],
                                    scorer=score_by, language=language)
    if progress:
        progress("compiling", 0, 1)
    src = source_name(source)
    default_name = Path(src).stem if src not in ("<stdin>", "<words>") else "lexicon"
    try:
        data = compile_words(words, name=name or default_name, source=src, kind=raw.kind, pure_python=pure_python)
    except MemoryError:
        raise BuildError("not enough memory to compile this list") from None
    info = fileformat.open_bytes(data).index
    return data, BuildResult(None, info, words.report)
