"""The ``lexigraph`` command: a thin layer over the public API.

Every subcommand prints plain text by default and JSON with ``--json``.
Errors are one line on stderr and exit status 2; ``check`` exits 1 when a
word is not in the lexicon.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from . import __version__
from .errors import LexiconError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> "None":  # type: ignore[override]
        # One line, like every other error of the tool.
        self.exit(2, f"lexigraph: error: {message} (see {self.prog} --help)\n")


def _common() -> argparse.ArgumentParser:
    # SUPPRESS lets the options stand before or after the subcommand.
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--lexicon", "-L", metavar="FILE", default=argparse.SUPPRESS,
                   help="lexicon file, or any word source to compile on the fly (default: built-in ENABLE)")
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output")
    return p


def build_parser() -> argparse.ArgumentParser:
    common = _common()
    parser = _Parser(
        prog="lexigraph",
        description="Compile word lists into one memory-mapped lexicon and query it: words, prefixes, "
        "anagrams, crossword patterns.",
        epilog="Examples: lexigraph check quixotic | lexigraph anagram AALNST? --exact | "
        "lexigraph match '??MO??T' | lexigraph build words.txt -o words.lex",
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"lexigraph {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def add(name: str, help: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help, description=help, parents=[common])

    p = add("check", "Say whether each word is in the lexicon (exit 1 if any is not).")
    p.add_argument("words", nargs="+", metavar="WORD", help="words to check; '-' reads one per line from stdin")

    p = add("words", "List words, alphabetically.")
    p.add_argument("--prefix", default="", help="only words starting with this")
    p.add_argument("--length", type=int, help="only words of this many tiles")

    p = add("children", "Tiles that may follow a prefix ('$': the prefix is a word).")
    p.add_argument("prefix", nargs="?", default="")

    p = add("build", "Compile a word list (plain, scored, dawg32 table, .daw) into a lexicon file.")
    p.add_argument("source", help="word source; '-' reads stdin")
    p.add_argument("-o", "--output", required=True, metavar="DEST", help="lexicon file to write")
    p.add_argument("--format", choices=("text", "scored", "dawg32", "daw"), help="force the source format")
    p.add_argument("--name", help="name recorded in the lexicon")
    p.add_argument("--alphabet", help="english, spanish, catalan, french, or an alphabet file (TOML)")
    p.add_argument("--min-length", type=int, default=2, help="shortest word kept, in tiles (default 2)")
    p.add_argument("--max-length", type=int, help="longest word kept, in tiles")
    p.add_argument("--encoding", help="source text encoding (default UTF-8)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress or summary")

    p = add("info", "Show a lexicon's metadata.")
    p.add_argument("file", nargs="?", help="lexicon file (default: --lexicon or the built-in one)")

    p = add("anagram", "Words from a rack: '?' is a blank, a trailing '*' asks for longer words.")
    p.add_argument("rack")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--exact", action="store_true", help="use every tile")
    mode.add_argument("--super", action="store_true", help="use every tile and more")
    p.add_argument("--through", default="", metavar="TILES", help="board tiles every word must also use")
    p.add_argument("--min-length", type=int, default=2)
    p.add_argument("--max-length", type=int)
    p.add_argument("--sort", choices=("alpha", "length", "priority"), default="alpha")
    p.add_argument("--show-blanks", action="store_true", help="show tiles made from blanks in lower case")
    p.add_argument("--table", action="store_true", help="exact anagrams of the rack, then of the rack plus each tile")

    p = add("match", "Words matching a crossword pattern: ? any tile, [abc] set, [^abc], @ vowel, # consonant, * run.")
    p.add_argument("pattern")
    p.add_argument("--min-priority", type=int, default=0)
    p.add_argument("--offset", type=int, default=0)
    p.add_argument("--limit", type=int)
    p.add_argument("--count", action="store_true", help="print only the number of matches")
    p.add_argument("--scores", action="store_true", help="print each word's priority")

    p = add("cross", "Tiles that fit where two entries cross (positions count from 0).")
    p.add_argument("pattern_a")
    p.add_argument("pos_a", type=int)
    p.add_argument("pattern_b")
    p.add_argument("pos_b", type=int)
    p.add_argument("--min-priority", type=int, default=0)
    p.add_argument("--limit", type=int, default=10, help="words listed per entry (default 10; 0 for all)")

    p = add("export", "Write a lexicon as a plain or scored list, a .daw file or a dawg32 table.")
    p.add_argument("source", metavar="LEX", help="lexicon file or any word source")
    p.add_argument("--format", "-f", required=True, choices=("text", "scored", "daw", "dawg32"))
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="file to write ('-' for stdout)")

    p = add("stats", "Words per length of any source (lexicon, list, dawg32 table, .daw).")
    p.add_argument("source", nargs="?", help="default: --lexicon or the built-in one")

    p = add("diff", "Compare two word sources: counts per length, words only in one.")
    p.add_argument("a")
    p.add_argument("b")
    only = p.add_mutually_exclusive_group()
    only.add_argument("--only-a", action="store_true", help="list the words only A has")
    only.add_argument("--only-b", action="store_true", help="list the words only B has")
    return parser


# -- helpers ---------------------------------------------------------------


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


def _json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _load(spec: str | None):
    from .lexicon import load, open as open_lexicon

    if spec is None:
        return open_lexicon()
    return load(spec)


class _Progress:
    """Progress on stderr, only when it is a terminal."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.last = 0.0
        self.stage = ""

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if stage == self.stage and now - self.last < 0.1:
            return
        self.stage, self.last = stage, now
        pct = f" {100 * done // total:3d}%" if total > 1 else ""
        sys.stderr.write(f"\r\033[K{stage}…{pct}")
        sys.stderr.flush()

    def done(self) -> None:
        if self.enabled:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _table(rows: list[tuple], header: tuple) -> str:
    cells = [tuple(str(c) for c in header)] + [tuple(str(c) for c in r) for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(r, widths)).rstrip() for r in cells)


# -- commands --------------------------------------------------------------


def cmd_check(args, lex) -> int:
    words = args.words
    if words == ["-"]:
        words = [line.strip() for line in sys.stdin if line.strip()]
    results = lex.check_many(words).tolist() if len(words) > 64 else [w in lex for w in words]
    if args.json:
        _json([{"word": w, "valid": ok} for w, ok in zip(words, results)])
    else:
        sys.stdout.write("".join(f"{w}\t{'yes' if ok else 'no'}\n" for w, ok in zip(words, results)))
    return 0 if all(results) else 1


def cmd_words(args, lex) -> int:
    if args.length is not None and args.length < 0:
        raise LexiconError("--length must not be negative")
    words = lex.words(prefix=args.prefix, length=args.length)
    if args.json:
        _json(words)
    elif words:
        sys.stdout.write("\n".join(words) + "\n")
    return 0


def cmd_children(args, lex) -> int:
    kids = lex.children(args.prefix)
    if args.json:
        _json(kids)
    else:
        _out(" ".join(kids))
    return 0


def cmd_build(args) -> int:
    from .builder import build

    progress = _Progress(not args.quiet and not args.json)
    start = time.perf_counter()
    try:
        result = build(
            args.source, args.output, format=args.format, name=args.name, alphabet=args.alphabet,
            min_length=args.min_length, max_length=args.max_length, encoding=args.encoding, progress=progress,
        )
    finally:
        progress.done()
    seconds = time.perf_counter() - start
    report = result.report
    if args.json:
        _json({"path": result.path, "seconds": round(seconds, 3), **report.to_dict()})
    elif not args.quiet:
        size = os.path.getsize(args.output)
        _out(f"wrote {args.output}: {report.kept:,} words, {size:,} bytes, in {seconds:.2f} s")
        if report.duplicates:
            _out(f"  duplicates merged: {report.duplicates:,}")
        for why, n in report.skipped.most_common():
            _out(f"  skipped ({why}): {n:,}")
        _out("  per length: " + " ".join(f"{k}:{v}" for k, v in report.per_length.items()))
    return 0


def cmd_info(args, lex) -> int:
    info = lex.info
    if args.json:
        _json(info)
        return 0
    alphabet = info.get("alphabet", {})
    lines = [
        ("name", info.get("name")),
        ("path", lex.path),
        ("source", f"{info.get('source')} ({info.get('source_format')})"),
        ("built", f"{info.get('built')} by lexigraph {info.get('lexigraph')}"),
        ("words", f"{info.get('word_count'):,}"),
        ("lengths", f"{info.get('min_length')} to {info.get('max_length')} tiles"),
        ("alphabet", f"{alphabet.get('name')}: {' '.join(alphabet.get('tiles', []))}"),
        ("priorities", f"yes (top score {info.get('score_max')}, scale 0-{info.get('score_scale')})"
         if info.get("has_priorities") else "no (every word 50)"),
        ("per length", " ".join(f"{k}:{v}" for k, v in info.get("counts_by_length", {}).items())),
    ]
    width = max(len(k) for k, _ in lines)
    for k, v in lines:
        _out(f"{k.ljust(width)}  {v}")
    return 0


def cmd_anagram(args, lex) -> int:
    if args.table:
        table = lex.anagram_table(args.rack)
        rack = args.rack.upper()
        if args.json:
            _json([{"rack": rack + (f"+{t.upper()}" if t else ""), "words": [w.upper() for w in ws]} for t, ws in table])
            return 0
        width = len(rack) + 1 + max(len(t) for t, _ in table)
        for tile, words in table:
            label = rack + (f"+{tile.upper()}" if tile else "")
            _out(f"{label.ljust(width)} : {' '.join(w.upper() for w in words)}".rstrip())
        return 0
    mode = "exact" if args.exact else "super" if args.super else "sub"
    results = lex.anagram(
        args.rack, mode=mode, through=args.through, min_length=args.min_length,
        max_length=args.max_length, sort=args.sort, blanks=True,
    )
    if args.json:
        _json([{"word": a.word, "tiles": list(a.tiles), "blanks": list(a.blank_positions)} for a in results])
    elif results:
        show = (lambda a: a.display()) if args.show_blanks else (lambda a: a.word.upper())
        sys.stdout.write("\n".join(show(a) for a in results) + "\n")
    return 0


def cmd_match(args, lex) -> int:
    if args.count:
        n = lex.count(args.pattern, min_priority=args.min_priority)
        _json({"pattern": args.pattern, "count": n}) if args.json else _out(str(n))
        return 0
    words = lex.match(args.pattern, min_priority=args.min_priority, offset=args.offset, limit=args.limit)
    if args.json:
        _json([{"word": w, "priority": lex.priority(w)} for w in words] if args.scores else words)
    elif words:
        if args.scores:
            sys.stdout.write("".join(f"{w};{lex.priority(w)}\n" for w in words))
        else:
            sys.stdout.write("\n".join(words) + "\n")
    return 0


def cmd_cross(args, lex) -> int:
    c = lex.cross(args.pattern_a, args.pos_a, args.pattern_b, args.pos_b, min_priority=args.min_priority)
    limit = args.limit or None
    if args.json:
        _json({"tiles": c.tiles, "counts": {t: {"a": a, "b": b} for t, (a, b) in c.counts.items()},
               "words_a": c.words_a[:limit], "words_b": c.words_b[:limit]})
        return 0
    _out("tiles: " + (" ".join(t.upper() for t in c.tiles) or "(none)"))
    for t, (a, b) in c.counts.items():
        _out(f"  {t.upper()}: {a} x {b}")
    _out(f"{args.pattern_a}: " + " ".join(c.words_a[:limit]) + (" …" if limit and len(c.words_a) > limit else ""))
    _out(f"{args.pattern_b}: " + " ".join(c.words_b[:limit]) + (" …" if limit and len(c.words_b) > limit else ""))
    return 0


def cmd_export(args) -> int:
    from .export import export, to_bytes

    lex = _load(args.source)
    if args.output == "-":
        sys.stdout.buffer.write(to_bytes(lex, args.format))
        return 0
    size = export(lex, args.output, args.format)
    if args.json:
        _json({"path": args.output, "format": args.format, "bytes": size, "words": len(lex)})
    else:
        _out(f"wrote {args.output}: {len(lex):,} words as {args.format}, {size:,} bytes")
    return 0


def cmd_stats(args, lex) -> int:
    counts = lex.count_by_length()
    if args.json:
        _json({"source": lex.path, "counts_by_length": {str(k): v for k, v in counts.items()}, "total": len(lex)})
        return 0
    _out(_table([*counts.items(), ("total", len(lex))], ("length", "words")))
    return 0


def cmd_diff(args) -> int:
    a, b = _load(args.a), _load(args.b)
    d = a.diff(b)
    if args.only_a or args.only_b:
        words = d.only_a if args.only_a else d.only_b
        if args.json:
            _json(words)
        elif words:
            sys.stdout.write("\n".join(words) + "\n")
        return 0
    if args.json:
        _json({"a": a.path, "b": b.path, **d.to_dict()})
        return 0
    rows = [(n, ca, cb, f"{cb - ca:+d}") for n, (ca, cb) in d.counts.items()]
    total_a, total_b = len(a), len(b)
    rows.append(("total", total_a, total_b, f"{total_b - total_a:+d}"))
    _out(_table(rows, ("length", "A", "B", "B-A")))
    _out(f"only in A: {len(d.only_a):,}   only in B: {len(d.only_b):,}   in both: {d.both:,}")
    return 0


_NEEDS_LEXICON = {
    "check": cmd_check, "words": cmd_words, "children": cmd_children, "info": cmd_info,
    "anagram": cmd_anagram, "match": cmd_match, "cross": cmd_cross, "stats": cmd_stats,
}


def run(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.json = getattr(args, "json", False)
    if args.command is None:
        parser.print_help()
        return 2
    if args.command == "build":
        return cmd_build(args)
    if args.command == "export":
        return cmd_export(args)
    if args.command == "diff":
        return cmd_diff(args)
    spec = getattr(args, "lexicon", None)
    if args.command == "info" and args.file:
        spec = args.file
    if args.command == "stats" and args.source:
        spec = args.source
    lex = _load(spec)
    return _NEEDS_LEXICON[args.command](args, lex)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        code = run(argv)
        sys.stdout.flush()
        return code
    except LexiconError as e:
        sys.stderr.write(f"lexigraph: error: {e}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("lexigraph: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader (e.g. `head`) went away: not an error worth a word.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except MemoryError:
        sys.stderr.write("lexigraph: error: out of memory\n")
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
