"""Core file commands: build, export, diff."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..compiler.builder import build
from ..compiler.normalize import Reject
from ..compiler.word_map import WordMapInfo, build_word_map
from ..engine.fileformat import open_path
from ..engine.wordmap_layout import word_map_path
from ..errors import QueryError
from ..formats.export import export, to_bytes
from ..lexicon import Lexicon
from ..scrabble.leaves import LEAVE_FORMATS, export_leaves, leaves_to_bytes
from ..support.files import refuse_overwrite, write_atomic
from ._common import alphabet_fields, build_summary, envelope, esc, input_files, lexicon_name, need_int, per_length, table
from .command import MAX_TILES, Command, Context, Document, Param, always_found

# -- build -------------------------------------------------------------------


def _run_build(ctx: Context, params: Mapping[str, Any]) -> Document:
    source = params.get("source")
    output = params.get("output")
    if not source or not output:
        raise QueryError(f"give a {ctx.spell('source')} and an {ctx.spell('output')}")
    if output == "-":
        raise QueryError(f"{ctx.spell('output')} must name a file: a lexicon is binary (use /dev/stdout to pipe it)")
    min_length = need_int(ctx, params, "min_length", minimum=1)
    max_length = need_int(ctx, params, "max_length", minimum=1, maximum=255)
    rejects_path = params.get("rejects")
    rejects: list[Reject] | None = [] if rejects_path else None
    if params.get("word_map"):  # before the build, not after it
        _check_word_map_output(ctx, params, str(output))
    if rejects_path:
        if os.path.realpath(str(rejects_path)) == os.path.realpath(str(output)):
            raise QueryError(f"{ctx.spell('rejects')} and {ctx.spell('output')} name the same file")
        refuse_overwrite(rejects_path, [source, params.get("alphabet")])  # before the build, not after it
    start = time.perf_counter()
    result = build(
        source, output, format=params.get("format"), name=params.get("name"), alphabet=params.get("alphabet"),
        min_length=2 if min_length is None else min_length, max_length=max_length, encoding=params.get("encoding"),
        case=params.get("case"), score_by=params.get("score_by"), language=params.get("language"),
        overrides=params.get("override") or (), excludes=params.get("exclude") or (),
        progress=_stages(ctx, "build"), rejects=rejects,
    )
    seconds = time.perf_counter() - start
    if rejects_path and rejects is not None:
        header = "# line\taction\treason\ttext\tresult\n"
        write_atomic(rejects_path, (header + "".join(r.tsv() + "\n" for r in rejects)).encode("utf-8"),
                     inputs=[source, output, params.get("alphabet")])
    report = result.report
    try:
        size = os.path.getsize(output)
    except OSError:
        size = None
    word_map = _build_word_map(ctx, params, str(output)) if params.get("word_map") else None
    return envelope(
        "build", None, per_length(report.per_length),
        lexicon=result.info.get("name"), path=str(output), bytes=size, seconds=round(seconds, 3),
        word_count=int(result.info.get("word_count", report.kept)), build=report.to_dict(),
        quiet=bool(params.get("quiet")), rejects=str(rejects_path) if rejects_path else None,
        word_map=None if word_map is None else {"path": word_map.path, "bytes": word_map.bytes,
                                                "records": word_map.records, "blanks": word_map.max_blanks,
                                                "seconds": round(word_map.seconds, 3)},
    )


def _word_map_inputs(params: Mapping[str, Any]) -> list[object]:
    """The files a build reads, which its word map must not be written over."""
    return [params.get("source"), params.get("alphabet"), params.get("rejects"), *(params.get("override") or ()),
            *(params.get("exclude") or ())]


def _check_word_map_output(ctx: Context, params: Mapping[str, Any], output: str) -> None:
    if os.path.exists(output) and not os.path.isfile(output):
        raise QueryError(f"{ctx.spell('word_map')} needs an {ctx.spell('output')} that is a regular file")
    refuse_overwrite(word_map_path(output), [output, *_word_map_inputs(params)])


def _build_word_map(ctx: Context, params: Mapping[str, Any], output: str) -> WordMapInfo:
    """The word map of the lexicon just written, beside it (``NAME.lxw``)."""
    blanks = need_int(ctx, params, "word_map_blanks", minimum=0, maximum=2)
    with Lexicon(open_path(output)) as lex:
        return build_word_map(lex.store, word_map_path(output), max_blanks=2 if blanks is None else blanks,
                              progress=_stages(ctx, "build"), inputs=_word_map_inputs(params))


#: What the builder's stages count.
_UNITS = {"reading": "lines", "normalising": "words", "word map": "lengths"}


def _stages(ctx: Context, job: str) -> Callable[[str, int, int], None] | None:
    """A build's or an export's reports as ``ctx.progress`` takes them: ``"build: reading"``, lines read, ...

    The builder and the exporter announce a stage that counts nothing with ``(stage, 0, 1)``: here, a stage of
    unknown total.
    """
    report = ctx.progress
    if report is None:
        return None

    def step(stage: str, done: int, total: int) -> None:
        counted = not (done == 0 and total == 1)
        report(f"{job}: {stage}", done if counted else 0, total if counted else 0,
               unit=_UNITS.get(stage, "") if counted else "")

    return step


def _text_build(doc: Document) -> Iterator[str]:
    if doc.get("quiet"):
        return
    size = f"{doc['bytes']:,} bytes" if doc.get("bytes") is not None else "size unknown"
    yield f"wrote {doc['path']}: {doc['word_count']:,} words, {size}, in {doc['seconds']:.2f} s"
    yield from build_summary(doc["build"])
    yield "  per length: " + " ".join(f"{r['length']}:{r['word_count']}" for r in doc["results"])
    if doc.get("rejects"):
        yield f"  skipped and changed lines listed in {doc['rejects']}"
    if doc.get("word_map"):
        wm = doc["word_map"]
        yield (f"wrote {wm['path']}: the word map, {wm['records']:,} records with up to {wm['blanks']} blank(s), "
               f"{wm['bytes']:,} bytes, in {wm['seconds']:.2f} s")


# -- export ------------------------------------------------------------------


def _run_export(ctx: Context, params: Mapping[str, Any]) -> Document:
    source, fmt, output = params.get("source"), params.get("format"), params.get("output")
    if not source or not fmt or not output:
        raise QueryError(f"give a {ctx.spell('source')}, a {ctx.spell('format')} and an {ctx.spell('output')}")
    if fmt in LEAVE_FORMATS:  # the source is a leave table, not a word list
        if output == "-":
            data, leaves = leaves_to_bytes(str(source), fmt, ctx.options.get("alphabet"))
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
            size = len(data)
        else:  # never over the table itself
            size, leaves = export_leaves(str(source), str(output), fmt, ctx.options.get("alphabet"))
        return envelope("export", None, [], lexicon=os.path.basename(str(source)), path=str(output), format=fmt,
                        bytes=size, word_count=leaves)
    lex = ctx.open(str(source))
    if output != "-":  # the list and the alphabet file it was read with survive the export
        refuse_overwrite(str(output), [source, *input_files(ctx, lex)])
    if output == "-":
        data = to_bytes(lex, fmt, progress=_stages(ctx, "export"))
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        size = len(data)
    else:
        size = export(lex, output, fmt, progress=_stages(ctx, "export"))
    return envelope("export", lex, [], path=str(output), format=fmt, bytes=size, word_count=len(lex))


def _text_export(doc: Document) -> Iterator[str]:
    if doc["path"] == "-":
        return
    unit = "leaves" if doc["format"] in ("klv2", "klv", "leaves-csv") else "words"
    yield f"wrote {doc['path']}: {doc['word_count']:,} {unit} as {doc['format']}, {doc['bytes']:,} bytes"


# -- diff --------------------------------------------------------------------


def _side(lex: Lexicon) -> dict[str, Any]:
    info = lex.info
    side: dict[str, Any] = {"name": lexicon_name(lex), "source": str(lex.path), "word_count": len(lex),
                            "alphabet": alphabet_fields(info)}
    if isinstance(info.get("build"), dict):
        side["build"] = info["build"]
    return side


def _run_diff(ctx: Context, params: Mapping[str, Any]) -> Document:
    if params.get("only_a") and params.get("only_b"):
        raise QueryError(f"{ctx.spell('only_a')} and {ctx.spell('only_b')} exclude each other")
    a_spec, b_spec = params.get("a"), params.get("b")
    if not a_spec or not b_spec:
        raise QueryError("give two word sources, A and B")
    a, b = ctx.open(str(a_spec)), ctx.open(str(b_spec))
    d = a.diff(b)
    side_a, side_b = _side(a), _side(b)
    warnings = []
    auto = side_a["alphabet"]["name"] == side_b["alphabet"]["name"] == "letters"  # each list's own characters
    if side_a["alphabet"]["tiles"] != side_b["alphabet"]["tiles"] and not auto:
        only_a = sorted(set(side_a["alphabet"]["tiles"]) - set(side_b["alphabet"]["tiles"]))
        only_b = sorted(set(side_b["alphabet"]["tiles"]) - set(side_a["alphabet"]["tiles"]))
        warnings.append(
            f"the two sides use different alphabets ({side_a['alphabet']['name']} vs {side_b['alphabet']['name']};"
            f" tiles only in A: {' '.join(only_a) or 'none'}; only in B: {' '.join(only_b) or 'none'});"
            " words spelled with those tiles differ for that reason alone"
        )
    results: list[dict[str, Any]] = []
    if params.get("only_a"):
        results = [{"word": w, "side": "a"} for w in d.only_a]
    elif params.get("only_b"):
        results = [{"word": w, "side": "b"} for w in d.only_b]
    lengths = [{"length": n, "a": ca, "b": cb, "difference": cb - ca} for n, (ca, cb) in d.counts.items()]
    return envelope(
        "diff", None, results, a=side_a, b=side_b, lengths=lengths,
        only_a=len(d.only_a), only_b=len(d.only_b), both=d.both, same=d.same, warnings=warnings,
        listing="a" if params.get("only_a") else "b" if params.get("only_b") else None,
    )


def _text_diff(doc: Document) -> Iterator[str]:
    if doc.get("listing"):
        for r in doc["results"]:
            yield r["word"]
        return
    rows = [(r["length"], r["a"], r["b"], f"{r['difference']:+d}") for r in doc["lengths"]]
    ta, tb = doc["a"]["word_count"], doc["b"]["word_count"]
    rows.append(("total", ta, tb, f"{tb - ta:+d}"))
    yield from table(rows, ("length", "A", "B", "B-A"))
    yield f"only in A: {doc['only_a']:,}   only in B: {doc['only_b']:,}   in both: {doc['both']:,}"
    for side in ("a", "b"):
        summary = list(build_summary(doc[side].get("build")))
        if summary:
            yield f"{side.upper()} ({esc(doc[side]['source'])}):"
            yield from summary


_SOURCE = "word source: lexicon, plain or scored list, dawg32 table, .daw ('-': standard input)"

COMMANDS = [
    Command(
        name="build",
        summary="Compile a word list (plain, scored, dawg32 table, .daw) into a lexicon file.",
        params=(
            Param("source", _SOURCE, positional=True, required=True, metavar="SOURCE", completer="file"),
            Param("output", "lexicon file to write", required=True, flags=("-o", "--output"), metavar="DEST",
                  completer="file"),
            Param("format", "read the source as this format instead of guessing from its content",
                  choices=("text", "scored", "dawg32", "daw")),
            Param("name", "name recorded in the lexicon (default: the source's file name)", metavar="NAME"),
            Param("alphabet", "english, spanish, catalan, french, or an alphabet file (TOML)", metavar="ALPHABET",
                  completer="alphabet"),
            Param("min_length", "shortest word kept, in tiles", kind="int", default=2, metavar="N", minimum=1,
                  maximum=MAX_TILES),
            Param("max_length", "longest word kept, in tiles", kind="int", metavar="N", minimum=1,
                  maximum=MAX_TILES),
            Param("encoding", "source text encoding (default: UTF-8, or UTF-16 with a byte-order mark)",
                  metavar="ENCODING"),
            Param("case", "entries written with capitals and no lower-case twin (Baltimore): fold them into "
                  "words, or drop them as proper nouns", default="fold", choices=("fold", "drop-proper")),
            Param("rejects", "write every skipped or changed line to this file (line, action, reason, text, "
                  "result; tab-separated)", metavar="FILE", completer="file"),
            Param("score_by", "give every word a priority from its frequency in the language (wordfreq: 20 + 10 x "
                  "Zipf frequency; pip install 'lexigraph[wordfreq]')", choices=("wordfreq",)),
            Param("language", "the language of --score-by (en, es, fr, ...; default: the alphabet's, else English)",
                  metavar="CODE"),
            Param("override", "a personal word list layered on the source: its scores win and its words are added "
                  "(repeat for more lists)", many=True, metavar="FILE", completer="file"),
            Param("exclude", "a word list whose words are left out (repeat for more lists)", many=True,
                  metavar="FILE", completer="file"),
            Param("word_map", "also write the lexicon's word map beside it (NAME.lxw: for each length, the words "
                  "each multiset of tiles makes; move generation looks plays up in it)", kind="bool",
                  default=False),
            Param("word_map_blanks", "blanks the word map answers for (0-2; 2 for TWL06 is 59 MB, 1 is 20 MB)",
                  kind="int", default=2, metavar="N", minimum=0, maximum=2),
            Param("quiet", "print nothing but errors", kind="bool", default=False, flags=("-q", "--quiet"),
                  cli_only=True),
        ),
        run=_run_build,
        text=_text_build,
        found=always_found,
        uses_lexicon=False,
        writes_files=True,
        http_method="POST",
        examples=("lexigraph build words.txt -o words.lex --word-map",
                  "lexigraph build lista.txt -o es.lex --alphabet spanish --encoding latin-1",
                  "zcat big.txt.gz | lexigraph build - -o big.lex --json",
                  "lexigraph build twl06.txt --score-by wordfreq --override mine.txt --exclude no.txt -o scored.lex"),
    ),
    Command(
        name="export",
        summary="Write a lexicon as a plain or scored list, a .daw file, a dawg32 table or a KWG; or a leave table "
                "(CSV, KLV, KLV2) as KLV2, KLV or CSV.",
        params=(
            Param("source", "lexicon file or any " + _SOURCE + " (a leave table for klv2, klv, leaves-csv)",
                  positional=True, required=True, metavar="LEX", completer="lexicon"),
            Param("format", "what to write", required=True,
                  choices=("text", "scored", "daw", "dawg32", "kwg", "klv2", "klv", "leaves-csv"),
                  flags=("-f", "--format")),
            Param("output", "file to write ('-': standard output)", required=True, flags=("-o", "--output"),
                  metavar="OUT", completer="file"),
        ),
        run=_run_export,
        text=_text_export,
        found=always_found,
        uses_lexicon=False,
        reads_sources=True,
        writes_files=True,
        http_method="POST",
        examples=("lexigraph export words.lex --format daw -o WORDLIST.DAW",
                  "lexigraph export words.lex --format scored -o - | head",
                  "lexigraph export twl06.lex --format kwg -o TWL06.kwg",
                  "lexigraph export leaves.csv --format klv2 -o leaves.klv2"),
    ),
    Command(
        name="diff",
        summary="Compare two word sources: counts per length, words only in one (exit status 1 if they differ).",
        params=(
            Param("a", "first " + _SOURCE, positional=True, required=True, metavar="A", completer="lexicon"),
            Param("b", "second " + _SOURCE, positional=True, required=True, metavar="B", completer="lexicon"),
            Param("only_a", "list the words only A has", kind="bool", default=False),
            Param("only_b", "list the words only B has", kind="bool", default=False),
        ),
        run=_run_diff,
        text=_text_diff,
        found=lambda doc: bool(doc["same"]),
        uses_lexicon=False,
        reads_sources=True,
        examples=("lexigraph diff twl06.txt enable.txt", "lexigraph diff twl06.txt enable.txt --only-a",
                  "lexigraph diff a.lex b.lex --json"),
    ),
]
