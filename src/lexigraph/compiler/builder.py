"""Compiling words into a lexicon file: length buckets, priorities, word graph, hash index."""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Unpack

import numpy as np

from ..alphabet import Alphabet
from ..buildinfo import __version__
from ..engine import fileformat, wordgraph
from ..errors import BuildError
from ..support.files import refuse_overwrite, write_atomic
from . import hash_tables, scores
from .kernels import BuildKernels
from .normalize import Reject, Report, WordSet, normalize
from .options import BuildKeywords, BuildOptions, build_options, check_build_options
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


def compile_words(words: WordSet, *, name: str, source: str, kind: str, kernels: BuildKernels | None = None) -> bytes:
    """The bytes of a lexicon file holding ``words``, made by the build's ``kernels`` (default: C when it is built)."""
    kernels = BuildKernels.choose() if kernels is None else kernels
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
        data = kernels.bucket_rows(flat, starts, ids, length)  # the section as it is: no copy
        rows = np.frombuffer(data, np.uint8).reshape(hi - lo, length)
        sections[f"words.{length}"] = (data, "u1", (hi - lo, length))
        table, home = kernels.hash_table(rows)
        sections[f"hash.{length}"] = (table.tobytes(), table.dtype.str.replace("|", ""), (len(table),))
        grams = kernels.alphagram_order(rows)
        sections[f"alphagram.{length}"] = (grams.tobytes(), grams.dtype.str, (len(grams),))
        buckets.append({"length": length, "first": lo, "count": hi - lo, "hash_home": home})
    if words.has_priorities:  # an unscored list leaves it out: every word has the default priority
        sections["priority"] = (words.priorities[order].tobytes(), "u1", (n,))

    records, root = kernels.lexicon_graph(flat, starts, lens)
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


def build(source: Source, dest: str | os.PathLike[str] | None, options: BuildOptions | None = None, *,
          progress: Progress | None = None, rejects: "list[Reject] | None" = None,
          **keywords: Unpack[BuildKeywords]) -> BuildResult:
    """Compile a word source into a lexicon file at ``dest``.

    ``source`` is a path, ``"-"`` for standard input, a file object, or an
    iterable of words. Plain lists, scored lists (``WORD;SCORE``), TWL06
    ``dawg32`` tables and Hasbro ``.daw`` files are recognised by content.
    ``options`` (a :class:`~lexigraph.compiler.options.BuildOptions`) and the
    keywords that spell its fields one by one (``min_length=3``, the
    keywords winning) say how: the alphabet, the lengths kept, the case
    policy, scores, layered lists, ``pure_python``. ``progress(stage, done,
    total)`` reports the stages; ``rejects``: a list that receives every line
    skipped or changed.

    The file is written atomically: on any error an existing ``dest`` is
    left as it was, and a ``dest`` that is the source itself (or the
    alphabet file), directly or through links, is refused before any work.
    With ``dest=None`` nothing is written (see :func:`compile_source`).

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
    opts = build_options(options, keywords)
    check_build_options(progress=progress, rejects=rejects)
    inputs = [source, opts.alphabet]  # the paths among them must survive the build
    if dest is not None:
        refuse_overwrite(dest, inputs)  # before the work, not after it
    data, result = compile_source(source, opts, progress=progress, rejects=rejects)
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


def compile_source(source: Source, options: BuildOptions | None = None, *, progress: Progress | None = None,
                   rejects: "list[Reject] | None" = None,
                   **keywords: Unpack[BuildKeywords]) -> tuple[bytes, BuildResult]:
    """Compile ``source`` in memory; returns the file's bytes and the build result (options as :func:`build`).

    The build's kernels are chosen here, once (:class:`~lexigraph.compiler.kernels.BuildKernels`): in C
    unless ``pure_python`` (or ``LEXIGRAPH_PURE_PYTHON``) says Python; their NumPy twins give the same bytes.
    """
    opts = build_options(options, keywords)
    check_build_options(progress=progress, rejects=rejects)
    kernels = BuildKernels.choose(opts.pure_python)
    if progress:
        progress("reading", 0, 1)
    if opts.score_by is not None and opts.score_by not in scores.SCORERS:
        raise BuildError(f"unknown scorer {opts.score_by!r}; choose one of {', '.join(scores.SCORERS)}")
    alpha = Alphabet.load(opts.alphabet) if opts.alphabet is not None else None
    raw = read(source, format=opts.format, encoding=opts.encoding, alphabet=alpha)
    if alpha is None:
        alpha = raw.alphabet  # a source that names its alphabet (a KWG's tile table) keeps its tiles
    if progress:
        lines = _lines_read(raw)
        progress("reading", lines, lines)
    words = normalize(raw, alphabet=alpha, min_length=opts.min_length, max_length=opts.max_length,
                      progress=progress, case=opts.case, rejects=rejects, kernels=kernels)
    if opts.score_by is not None:
        if progress:
            progress("scoring", 0, 1)
        words = scores.score_words(words, opts.score_by, opts.language)
    if opts.overrides or opts.excludes:
        words = _layered(words, opts, kernels)
    if progress:
        progress("compiling", 0, 1)
    src = source_name(source)
    default_name = Path(src).stem if src not in ("<stdin>", "<words>") else "lexicon"
    try:
        data = compile_words(words, name=opts.name or default_name, source=src, kind=raw.kind, kernels=kernels)
    except MemoryError:
        raise BuildError("not enough memory to compile this list") from None
    info = fileformat.open_bytes(data).index
    return data, BuildResult(None, info, words.report)


def _layered(words: WordSet, opts: BuildOptions, kernels: BuildKernels) -> WordSet:
    """``words`` with the ``overrides`` (their scores win, their words added) and ``excludes`` (their words left
    out) layered on, each read with the base list's options."""
    def layer(src: Source) -> tuple[str, WordSet]:
        name = Path(source_name(src)).name
        try:
            got = normalize(read(src, encoding=opts.encoding), alphabet=words.alphabet, min_length=opts.min_length,
                            max_length=opts.max_length, case=opts.case, kernels=kernels)
        except BuildError:
            # The options read the base list: a layer can only fail by leaving no word (empty, or
            # every line outside the alphabet), which layers nothing.
            got = WordSet(words.alphabet, [], np.zeros(0, np.uint8), False, None, Report())
        return name, got

    return scores.apply_layers(words, [layer(s) for s in opts.overrides], [layer(s) for s in opts.excludes],
                               scorer=opts.score_by, language=opts.language)
