"""Core lookups: check, words, children, info, stats."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ..buildinfo import extensions
from ..engine.wordmap_layout import lexicon_identity, peek_header, word_map_path
from ..errors import QueryError
from ._common import alphabet_fields, build_summary, check_tiles, envelope, esc, need_int, per_length, table, values
from .command import MAX_COUNT, MAX_TILES, Command, Context, Document, Param, always_found

if TYPE_CHECKING:
    from ..lexicon import Lexicon

# -- check -------------------------------------------------------------------


def _run_check(ctx: Context, params: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    words = values(params, "words")
    if not words:
        raise QueryError(f"give at least one {ctx.spell('words')}")
    if len(words) > 64:
        valid = [bool(v) for v in lex.check_many(words).tolist()]
    else:
        valid = [w in lex for w in words]
    results = [{"word": w.lower(), "valid": ok} for w, ok in zip(words, valid)]
    return envelope("check", lex, results, invalid=valid.count(False))


def _text_check(doc: Document) -> Iterator[str]:
    for r in doc["results"]:
        yield f"{esc(r['word'])}\t{'yes' if r['valid'] else 'no'}"


# -- words -------------------------------------------------------------------


def _run_words(ctx: Context, params: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    prefix = params.get("prefix") or ""
    length = need_int(ctx, params, "length", minimum=1)
    offset = need_int(ctx, params, "offset") or 0
    limit = need_int(ctx, params, "limit")
    if ctx.max_results is not None:
        limit = ctx.max_results if limit is None else min(limit, ctx.max_results)
    check_tiles(ctx, lex, prefix, "the prefix")
    words = lex.words(prefix=prefix, length=length, deadline=ctx.deadline)
    total = len(words)
    page = words[offset : None if limit is None else offset + limit]
    fields: dict[str, Any] = {"prefix": prefix.lower()}
    if length is not None:
        fields["length"] = length
    if offset or limit is not None:
        fields["total"] = total
    return envelope("words", lex, [{"word": w} for w in page], **fields)


def _text_words(doc: Document) -> Iterator[str]:
    for r in doc["results"]:
        yield r["word"]


# -- children ----------------------------------------------------------------


def _run_children(ctx: Context, params: Mapping[str, Any]) -> Document:
    lex = ctx.lexicon()
    prefixes = values(params, "prefixes") or [""]
    results = []
    for prefix in prefixes:
        check_tiles(ctx, lex, prefix, "the prefix")
        kids = lex.children(prefix)
        is_word = bool(kids) and kids[0] == "$"
        tiles = kids[1:] if is_word else kids
        results.append({"prefix": prefix.lower(), "is_word": is_word, "tiles": tiles})
    return envelope("children", lex, results)


def _found_children(doc: Document) -> bool:
    return any(r["tiles"] or r["is_word"] for r in doc["results"])


def _text_children(doc: Document) -> Iterator[str]:
    many = len(doc["results"]) > 1
    for r in doc["results"]:
        line = " ".join((["$"] if r["is_word"] else []) + r["tiles"])
        yield f"{esc(r['prefix'])}\t{line}" if many else line


# -- info --------------------------------------------------------------------


def _run_info(ctx: Context, params: Mapping[str, Any]) -> Document:
    file = params.get("file")
    lex = ctx.open(file) if file else ctx.lexicon()
    info = lex.info
    fields: dict[str, Any] = {
        "name": info.get("name"),
        "path": str(lex.path),
        "source": info.get("source"),
        "source_format": info.get("source_format"),
        "built": info.get("built"),
        "lexigraph": info.get("lexigraph"),
        "word_count": len(lex),
        "min_length": info.get("min_length"),
        "max_length": info.get("max_length"),
        "alphabet": alphabet_fields(info),
        "has_priorities": bool(info.get("has_priorities")),
        "score_max": info.get("score_max"),
        "score_scale": info.get("score_scale"),
        "extensions": extensions(),
        "engine": lex.engine.kind,
    }
    if isinstance(info.get("build"), dict):
        fields["build"] = info["build"]
    fields["word_map"] = _word_map_beside(lex)
    return envelope("info", lex, per_length(lex.count_by_length()), **fields)


def _word_map_beside(lex: "Lexicon") -> dict[str, Any] | None:
    """The word map beside the lexicon's file, if one lies there built for it (its header alone is read)."""
    path = word_map_path(lex.path)
    header = peek_header(path)
    if header is None or (header.lexicon_size, header.lexicon_crc) != lexicon_identity(lex.store.buffer):
        return None
    return {"path": path, "bytes": header.file_size, "blanks": header.max_blanks, "min_length": header.min_length,
            "max_length": header.max_length}


def _word_map_text(word_map: Any) -> str:
    if not word_map:
        return "none beside the file (lexigraph build --word-map writes one)"
    return (f"{word_map['path']} ({word_map['bytes']:,} bytes; lengths {word_map['min_length']} to "
            f"{word_map['max_length']}, up to {word_map['blanks']} blank(s))")


def _text_info(doc: Document) -> Iterator[str]:
    ext = doc["extensions"]
    lines = [
        ("name", doc.get("name")),
        ("path", doc.get("path")),
        ("source", f"{doc.get('source')} ({doc.get('source_format')})"),
        ("built", f"{doc.get('built')} by lexigraph {doc.get('lexigraph')}"),
        ("words", f"{doc['word_count']:,}"),
        ("lengths", f"{doc.get('min_length')} to {doc.get('max_length')} tiles"),
        ("alphabet", f"{doc['alphabet']['name']}: {' '.join(doc['alphabet']['tiles'])}"),
        ("priorities", f"yes (top score {doc.get('score_max')}, scale 0-{doc.get('score_scale')})"
         if doc.get("has_priorities") else "no (every word 50)"),
        ("per length", " ".join(f"{r['length']}:{r['word_count']}" for r in doc["results"])),
        ("C extension", ", ".join(f"{k} {'in use' if v else 'not in use'}" for k, v in ext.items()) or "none built"),
        ("engine", "C (lexigraph._native)" if doc.get("engine") == "c" else "Python (pure-Python twins)"),
        ("word map", _word_map_text(doc.get("word_map"))),
    ]
    width = max(len(k) for k, _ in lines)
    for k, v in lines:
        yield f"{k.ljust(width)}  {v}"


# -- stats -------------------------------------------------------------------


def _run_stats(ctx: Context, params: Mapping[str, Any]) -> Document:
    source = params.get("source")
    lex = ctx.open(source) if source else ctx.lexicon()
    fields: dict[str, Any] = {"source": str(lex.path), "word_count": len(lex)}
    build = lex.info.get("build")
    if isinstance(build, dict):
        fields["build"] = build
    return envelope("stats", lex, per_length(lex.count_by_length()), **fields)


def _text_stats(doc: Document) -> Iterator[str]:
    rows = [(r["length"], r["word_count"]) for r in doc["results"]]
    yield from table([*rows, ("total", doc["word_count"])], ("length", "words"))
    yield from build_summary(doc.get("build"))


_SOURCE_HELP = "'-' reads standard input"

COMMANDS = [
    Command(
        name="check",
        summary="Say whether each word is in the lexicon (exit status 1 if any is not).",
        params=(
            Param("words", "words to check; '-' reads one per line from standard input", positional=True,
                  many=True, required=True, metavar="WORD", stdin=True),
        ),
        run=_run_check,
        text=_text_check,
        found=lambda doc: doc["invalid"] == 0,
        examples=("lexigraph check quixotic qxz", "printf 'cat\\ntac\\n' | lexigraph check -",
                  "lexigraph check QI --json"),
    ),
    Command(
        name="words",
        summary="List words alphabetically, optionally by prefix and length.",
        params=(
            Param("prefix", "only words starting with this", default="", metavar="PREFIX"),
            Param("length", "only words of this many tiles", kind="int", metavar="N", minimum=1,
                  maximum=MAX_TILES),
            Param("offset", "skip this many words first", kind="int", default=0, metavar="N", minimum=0,
                  maximum=MAX_COUNT),
            Param("limit", "list at most this many words", kind="int", metavar="N", minimum=0, maximum=MAX_COUNT),
        ),
        run=_run_words,
        text=_text_words,
        examples=("lexigraph words --prefix zyz", "lexigraph words --length 2 --limit 5",
                  "lexigraph words --prefix qu --jsonl"),
    ),
    Command(
        name="children",
        summary="Tiles that may follow a prefix ('$' first when the prefix is itself a word).",
        params=(
            Param("prefixes", "prefixes to extend (none: the empty prefix); '-' reads one per line from "
                  "standard input", positional=True, many=True, metavar="PREFIX", stdin=True),
        ),
        run=_run_children,
        text=_text_children,
        found=_found_children,
        examples=("lexigraph children dude", "lexigraph children qu --json", "lexigraph children"),
    ),
    Command(
        name="info",
        summary="Show a lexicon's metadata, and which engine (C or Python) answers its queries.",
        params=(
            Param("file", "lexicon file or word source (default: --lexicon or the built-in one)",
                  positional=True, metavar="FILE", completer="lexicon"),
        ),
        run=_run_info,
        text=_text_info,
        found=always_found,
        examples=("lexigraph info", "lexigraph info words.lex --json"),
    ),
    Command(
        name="stats",
        summary="Words per length of any source (lexicon, list, dawg32 table, .daw), and what clean-up did.",
        params=(
            Param("source", "lexicon or word source (default: --lexicon or the built-in one); " + _SOURCE_HELP,
                  positional=True, metavar="SOURCE", completer="lexicon"),
        ),
        run=_run_stats,
        text=_text_stats,
        found=always_found,
        examples=("lexigraph stats", "lexigraph stats words.txt --case drop-proper", "lexigraph stats twl06.dawg32"),
    ),
]
