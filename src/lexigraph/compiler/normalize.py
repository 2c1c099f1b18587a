"""Normalisation: raw lines to the lexicon's words as tile codes.

Every word is lower-cased and put in Unicode NFC, then split into tiles.
Lines that are not words are skipped and counted by reason, so a build can
say exactly what it left out and why.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..support.jsontypes import JSONObject
from ..alphabet import MAX_TILES, Alphabet
from ..errors import BuildError
from ..support.text import quote
from .alphabet_hints import alphabet_hint
from .kernels import BuildKernels
from .options import check_build_options
from .scan import CHAR_CAP, MAX_LENGTH, padded_rows
from .sources import RawWords

DEFAULT_PRIORITY = 50
#: What to do with entries written with capitals (``Baltimore``) that have no
#: lower-case twin in the list: ``fold`` them into ordinary lower-case words
#: (the default: every lexicon is case-insensitive), or ``drop-proper``: leave
#: them out as proper nouns. Entries entirely in upper case (``CAT``, as some
#: lists are written) and capitalised twins of lower-case entries are folded
#: under either policy. The report counts the entries each rule touched.
CASES = ("fold", "drop-proper")
DEFAULT_CASE = "fold"
_OPTIONS: ContextVar[dict[str, Any]] = ContextVar("lexigraph_normalize_options", default={})


@dataclass(frozen=True)
class Reject:
    """A line a build skipped or changed: its line number (None for graph sources), why, and the text."""

    line: int | None
    action: str  # "skipped" or "changed"
    reason: str
    text: str
    result: str | None

    def tsv(self) -> str:
        """``LINE<TAB>ACTION<TAB>REASON<TAB>TEXT[<TAB>RESULT]`` with control characters escaped."""
        def esc(t: str) -> str:
            return t.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "\\r").replace("\n", "\\n")

        fields = ["" if self.line is None else str(self.line), self.action, self.reason, esc(self.text)]
        if self.result is not None:
            fields.append(esc(self.result))
        return "\t".join(fields)


@contextmanager
def options(*, case: str | None = None, rejects: "list[Reject] | None" = None) -> Iterator[None]:
    """Set :func:`normalize`'s ``case`` and ``rejects`` for the builds run inside the block.

    >>> import lexigraph
    >>> with options(case="drop-proper"):
    ...     list(lexigraph.load(["Paris", "paris", "Rome", "oslo"]))
    ['oslo', 'paris']
    """
    token = _OPTIONS.set({"case": case, "rejects": rejects})
    try:
        yield
    finally:
        _OPTIONS.reset(token)


@dataclass
class Report:
    """What a build kept and skipped.

    >>> r = Report(kept=3, skipped=Counter({"digits": 1}))
    >>> r.skipped_total
    1
    """

    kept: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    duplicates: int = 0
    per_length: dict[int, int] = field(default_factory=dict)
    lines: int = 0
    #: Lines kept in another form, per reason (a line may count under several reasons).
    changed: Counter[str] = field(default_factory=Counter)
    #: The case policy the build used (see :data:`CASES`).
    case: str = "fold"
    #: What the build noticed and the user may want to act on (the alphabet hint's note, see :attr:`alphabet_hint`).
    notes: list[str] = field(default_factory=list)
    #: The preset alphabet that would keep the words as tiles when the build used another
    #: (:mod:`lexigraph.compiler.alphabet_hints`), or None.
    alphabet_hint: str | None = None

    @property
    def skipped_total(self) -> int:
        return sum(self.skipped.values())

    def to_dict(self) -> JSONObject:
        out: dict[str, Any] = {
            "lines": self.lines,
            "kept": self.kept,
            "duplicates": self.duplicates,
            "skipped": dict(sorted(self.skipped.items())),
            "changed": dict(sorted(self.changed.items())),
            "case": self.case,
            "per_length": {str(k): v for k, v in sorted(self.per_length.items())},
        }
        if self.notes:  # only when there is something to say: reports of other builds stay as they were
            out["notes"] = list(self.notes)
            out["alphabet_hint"] = self.alphabet_hint
        return out


class WordSet:
    """Unique words in increasing code order, with a priority each.

    The words are held as tile-code strings (``keys``) or as one flat array
    of tile codes with a length each (``codes``, ``lengths``); either form is
    made from the other when first read.

    >>> ws = WordSet(Alphabet.from_letters("abc"), None, np.full(2, 50, np.uint8), False, None, Report(kept=2),
    ...              codes=np.array([1, 2, 3, 1], np.uint8), lengths=np.array([3, 1]))
    >>> ws.keys
    [b'\\x01\\x02\\x03', b'\\x01']
    """

    def __init__(self, alphabet: Alphabet, keys: list[bytes] | None, priorities: np.ndarray, has_priorities: bool,
                 score_max: int | None, report: Report, *, codes: np.ndarray | None = None,
                 lengths: np.ndarray | None = None) -> None:
        if keys is None and (codes is None or lengths is None):
            raise ValueError("give the keys, or the codes and their lengths")
        self.alphabet = alphabet
        self._keys = keys
        self.priorities = priorities
        self.has_priorities = has_priorities
        self.score_max = score_max
        self.report = report
        self._codes = None if codes is None else np.ascontiguousarray(codes, np.uint8)
        self._lengths = None if lengths is None else np.ascontiguousarray(lengths, np.int64)

    @property
    def keys(self) -> list[bytes]:
        """Each word's tile codes, as bytes."""
        if self._keys is None:
            data = self.codes.tobytes()
            ends = np.cumsum(self.lengths).tolist()
            self._keys = [data[a:b] for a, b in zip([0, *ends[:-1]], ends)]
        return self._keys

    @property
    def codes(self) -> np.ndarray:
        """The words' tile codes one after another (uint8)."""
        if self._codes is None:
            self._codes = np.frombuffer(b"".join(self.keys), np.uint8)
        return self._codes

    @property
    def lengths(self) -> np.ndarray:
        """Each word's length in tiles (int64)."""
        if self._lengths is None:
            self._lengths = np.fromiter(map(len, self.keys), np.int64, len(self.keys))
        return self._lengths


def reason_for(word: str) -> str:
    """Why ``word`` is not a word (for the build summary)."""
    cats = {unicodedata.category(ch)[0] for ch in word}
    if any(ch.isspace() for ch in word):
        return "space inside"
    if "N" in cats:
        return "digits"
    if "P" in cats:
        return "punctuation"
    if "C" in cats:
        return "control characters"
    if "S" in cats:
        return "symbols"
    return "outside the alphabet"


def _is_letters(word: str) -> bool:
    """Letters and combining marks only (NFC leaves marks that have no precomposed form)."""
    if word.isalpha():
        return True
    return all(unicodedata.category(ch)[0] in "LM" for ch in word) and unicodedata.category(word[0])[0] == "L"


def normalize(
    raw: RawWords,
    *,
    alphabet: Alphabet | None = None,
    min_length: int = 2,
    max_length: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    case: str | None = None,
    rejects: "list[Reject] | None" = None,
    kernels: BuildKernels | None = None,
) -> WordSet:
    """Turn raw words into a :class:`WordSet`; see the module docstring.

    ``case`` (default ``"fold"``, or the value set with :func:`options`):
    what to do with entries that are capitalised only (see :data:`CASES`).
    ``rejects``: a list that receives a :class:`Reject` for every line
    skipped or changed. ``kernels``: the build's C or Python kernels
    (:class:`~lexigraph.compiler.kernels.BuildKernels`; default: C when it is built).

    A plain ASCII list takes the one-scan path (:func:`_normalize_ascii_letters`);
    any other goes through the general loop (:class:`_Normalisation`), step by
    step: each line screened, capitalised entries settled, the alphabet chosen,
    the words encoded and their duplicates merged, the rejects listed, the report
    written. Both write the same words and report.

    >>> from lexigraph.compiler.sources import parse_lines
    >>> raw = parse_lines(["Apple", "apple", "Baltimore", " pear", "x1"], "<words>")
    >>> out = []
    >>> ws = normalize(raw, case="drop-proper", rejects=out)
    >>> ws.report.kept, sorted(ws.report.skipped.items()), sorted(ws.report.changed.items())
    (2, [('capitalised only', 1), ('digits', 1)], [('spaces trimmed', 1), ('upper case folded', 1)])
    >>> for r in out: print(r.tsv())
    1	changed	upper case folded	Apple	apple
    2	skipped	duplicate of line 1	apple
    3	skipped	capitalised only	Baltimore
    4	changed	spaces trimmed	 pear	pear
    5	skipped	digits	x1
    """
    limits, rejects = _settled(raw, alphabet, min_length, max_length, progress, case, rejects)
    if rejects is None and raw.scores is None and raw.kind == "text":
        fast = _normalize_ascii_letters(raw, alphabet, limits.min_length, limits.max_length, limits.case, progress,
                                        BuildKernels.choose() if kernels is None else kernels)
        if fast is not None:
            return fast
    return _Normalisation(raw, limits, rejects).run(alphabet, progress)


@dataclass(frozen=True)
class _Limits:
    """What a normalisation keeps: the case policy (see :data:`CASES`) and the lengths, in tiles."""

    case: str
    min_length: int
    max_length: int


def _settled(raw: object, alphabet: Alphabet | None, min_length: int, max_length: int | None,
             progress: object, case: str | None, rejects: "list[Reject] | None") -> "tuple[_Limits, list[Reject] | None]":
    """The arguments of :func:`normalize` checked, and the case policy and rejects list :func:`options` set filled
    in where none is given."""
    if not isinstance(raw, RawWords):
        raise BuildError(f"normalize takes the RawWords of sources.read, not {type(raw).__name__}")
    check_build_options(alphabet=alphabet, min_length=min_length, max_length=max_length, progress=progress,
                        case=case, rejects=rejects)
    opts = _OPTIONS.get()
    case = case or opts.get("case") or DEFAULT_CASE
    if rejects is None:
        rejects = opts.get("rejects")
    if case not in CASES:
        raise BuildError(f"unknown case policy {quote(case)}; choose one of {', '.join(CASES)}")
    if min_length < 1:
        raise BuildError("min_length must be at least 1")
    max_len = MAX_LENGTH if max_length is None else max_length
    if max_len > MAX_LENGTH:
        raise BuildError(f"max_length is at most {MAX_LENGTH}")
    if max_len < min_length:
        raise BuildError(f"max_length ({max_len}) is below min_length ({min_length})")
    return _Limits(case, min_length, max_len), rejects


class _Normalisation:
    """The general loop of :func:`normalize`, one step a method: :meth:`screen` each line (empty, too long, not
    letters, NFC, upper case, trimmed), :meth:`settle_capitalised` entries (folded, or dropped as proper nouns),
    :meth:`choose_alphabet` (the list's own letters when none is given), :meth:`encode` into tiles (lengths,
    scores, duplicates merged), list what was :meth:`rejected`, and make the :meth:`word_set` with its report."""

    def __init__(self, raw: RawWords, limits: _Limits, rejects: "list[Reject] | None") -> None:
        self.raw = raw
        self.limits = limits
        self.rejects = rejects
        self.collect = rejects is not None
        self.report = Report(lines=raw.lines, case=limits.case)
        self.report.skipped.update(raw.skipped)
        #: (index, reason, stored form): skipped ("" form) and changed ("" reason); only for rejects
        self.skipped_at: list[tuple[int, str, str]] = []
        #: What changed in an entry, by index.
        self.notes: dict[int, list[str]] = {}
        #: The entries screened in, by index, and their lower-case NFC forms.
        self.idx: list[int] = []
        self.lowered: list[str] = []
        #: Capitalised entries left out (``drop-proper``).
        self.dropped: set[int] = set()

    def run(self, alphabet: Alphabet | None, progress: Callable[[str, int, int], None] | None) -> WordSet:
        check_letters = alphabet is None and self.raw.kind not in ("dawg32", "daw")
        self.settle_capitalised(self.screen(check_letters))
        inferred = alphabet is None
        if alphabet is None:
            alphabet = self.choose_alphabet()
        kept, duplicates = self.encode(alphabet, progress)
        if self.rejects is not None:
            self.rejects.extend(self.rejected())
        return self.word_set(alphabet, kept, duplicates, inferred)

    def skip(self, i: int, reason: str) -> None:
        self.report.skipped[reason] += 1
        if self.collect:
            self.skipped_at.append((i, reason, ""))

    def line_of(self, i: int) -> int | None:
        numbers = self.raw.line_numbers
        return numbers[i] if numbers is not None else None

    def original(self, i: int) -> str:
        numbers, originals = self.raw.line_numbers, self.raw.raw_lines
        return originals[numbers[i] - 1] if numbers is not None and originals is not None else self.raw.words[i]

    def _trimmed(self) -> set[int]:
        """The entries whose line had spaces around the word."""
        raw = self.raw
        numbers, originals, words = raw.line_numbers, raw.raw_lines, raw.words
        if originals is None or numbers is None or raw.kind != "text":
            return set()
        # Lines and stripped words of the same total length: nothing was trimmed (checked at C speed).
        if sum(map(len, originals)) == sum(map(len, words)):
            return set()
        return {i for i, (n, w) in enumerate(zip(numbers, words)) if len(originals[n - 1]) != len(w)}

    def screen(self, check_letters: bool) -> list[int]:
        """Keep each entry that may be a word, lower case and NFC, noting what changed; the capitalised ones."""
        notes, idx, lowered, skip = self.notes, self.idx, self.lowered, self.skip
        trimmed = self._trimmed()
        proper: list[int] = []
        for i, w in enumerate(self.raw.words):
            if not w:
                skip(i, "empty")
                continue
            if len(w) > CHAR_CAP:  # cannot fit MAX_LENGTH tiles of an alphabet that folds at most 4 characters
                skip(i, "too long")
                continue
            lw = w.lower()
            if w.isascii():
                if check_letters and not w.isalpha():
                    skip(i, reason_for(w))
                    continue
                low = lw
            else:
                low = unicodedata.normalize("NFC", lw)
                if check_letters and not _is_letters(low):
                    skip(i, reason_for(low))
                    continue
                if low != lw:
                    notes.setdefault(i, []).append("Unicode normalised (NFC)")
            if lw != w:
                if w.isupper():
                    notes.setdefault(i, []).append("upper case folded")
                else:
                    proper.append(i)
            if trimmed and i in trimmed:
                notes.setdefault(i, []).append("spaces trimmed")
            idx.append(i)
            lowered.append(low)
        return proper

    def settle_capitalised(self, proper: list[int]) -> None:
        """A capitalised entry with a lower-case twin is folded; else the case policy folds or drops it."""
        if not proper:
            return
        words, idx, lowered, notes = self.raw.words, self.idx, self.lowered, self.notes
        lower_set = {low for i, low in zip(idx, lowered) if words[i] == low}
        position = {i: k for k, i in enumerate(idx)} if len(proper) > 64 else None
        for i in proper:
            low = lowered[position[i]] if position is not None else lowered[idx.index(i)]
            if low in lower_set:
                notes.setdefault(i, []).append("upper case folded")
            elif self.limits.case == "drop-proper":
                self.dropped.add(i)
                self.skip(i, "capitalised only")
            else:
                notes.setdefault(i, []).append("capitalised only, folded")

    def kept_lowered(self) -> list[str]:
        """The lower-case forms of the entries screened in and not dropped."""
        if not self.dropped:
            return self.lowered
        return [low for i, low in zip(self.idx, self.lowered) if i not in self.dropped]

    def choose_alphabet(self) -> Alphabet:
        """The alphabet of the list's own letters, one tile each."""
        chars = set("".join(self.kept_lowered()))
        if len(chars) > MAX_TILES:
            raise BuildError(
                f"the list uses {len(chars)} different letters; a lexicon holds at most {MAX_TILES} tiles "
                "(pass an alphabet to fold or limit them)"
            )
        if not chars:
            raise BuildError(f"{self.raw.name}: no words found ({_skip_summary(self.report.skipped)})")
        return Alphabet.from_letters(chars)

    def encode(self, alphabet: Alphabet, progress: Callable[[str, int, int], None] | None
               ) -> tuple[dict[bytes, int], int]:
        """Each entry as tiles, kept when its length fits, with its score (the highest of its duplicates); the
        words kept and how many duplicates were merged."""
        encode, folds, scores = alphabet.encode, bool(alphabet.fold), self.raw.scores
        min_length, max_length = self.limits.min_length, self.limits.max_length
        notes, dropped, collect, skip, changed = self.notes, self.dropped, self.collect, self.skip, self.report.changed
        step = max(1, len(self.raw.words) // 50)
        kept: dict[bytes, int] = {}
        first: dict[bytes, int] = {}
        duplicates = 0
        for k, (i, w) in enumerate(zip(self.idx, self.lowered)):
            if progress is not None and k % step == 0:
                progress("normalising", k, len(self.idx))
            if dropped and i in dropped:
                continue
            key = encode(w)
            if key is None:
                skip(i, reason_for(alphabet.prepare(w)))
                continue
            if len(key) < min_length:
                skip(i, "too short")
                continue
            if len(key) > max_length:
                skip(i, "too long")
                continue
            score = None if scores is None else scores[i]
            if score is None:
                score = DEFAULT_PRIORITY
            old = kept.get(key)
            if old is None:
                kept[key] = score
                if collect:
                    first[key] = i
                why = notes.get(i) if notes else None
                if folds and alphabet.prepare(w) != w:
                    why = [*(why or []), "folded by the alphabet"]
                if why:
                    for reason in why:
                        changed[reason] += 1
                    if collect:
                        notes[i] = why
                        self.skipped_at.append((i, "", alphabet.decode(key)))
            else:
                duplicates += 1
                if score > old:
                    kept[key] = score
                if collect:
                    line = self.line_of(first[key])
                    self.skipped_at.append((i, "duplicate" if line is None else f"duplicate of line {line}", ""))
        if not kept:
            raise BuildError(f"{self.raw.name}: no words left to build a lexicon from "
                             f"({_skip_summary(self.report.skipped)})")
        return kept, duplicates

    def rejected(self) -> list[Reject]:
        """Every line skipped or changed, by line number (graph sources' entries, which have none, last)."""
        out = [Reject(line, "skipped", reason, text, None) for line, reason, text in self.raw.rejected]
        for i, reason, stored in self.skipped_at:
            if reason:
                out.append(Reject(self.line_of(i), "skipped", reason, self.original(i), None))
            else:
                out.append(Reject(self.line_of(i), "changed", "; ".join(self.notes[i]), self.original(i), stored))
        out.sort(key=lambda r: (r.line is None, r.line or 0))
        return out

    def word_set(self, alphabet: Alphabet, kept: dict[bytes, int], duplicates: int, inferred: bool) -> WordSet:
        """The words in code order with their priorities, and the report (with the alphabet hint, if any)."""
        report = self.report
        hint = alphabet_hint(self.kept_lowered(), alphabet, outside=report.skipped["outside the alphabet"],
                             inferred=inferred)
        if hint is not None:
            report.notes.append(hint.message)
            report.alphabet_hint = hint.alphabet
        keys = sorted(kept)
        priorities = np.fromiter((kept[k] for k in keys), np.uint8, len(keys))
        report.kept = len(keys)
        report.duplicates = duplicates
        report.per_length = dict(sorted(Counter(map(len, keys)).items()))
        return WordSet(alphabet, keys, priorities, self.raw.scores is not None, self.raw.score_max, report)


def _normalize_ascii_letters(
    raw: RawWords,
    alphabet: Alphabet | None,
    min_length: int,
    max_len: int,
    case: str,
    progress: Callable[[str, int, int], None] | None,
    kernels: BuildKernels,
) -> WordSet | None:
    """:func:`normalize` for the common list, by the kernels' one scan (:mod:`.scan`): no loop per word.

    It applies when every word is ASCII letters, all lower or all upper
    case, with no spaces trimmed, and the alphabet (if given) encodes ASCII
    byte by byte; otherwise it returns None and the general loop answers.
    The report is the one the loop writes: upper-case words folded, words
    too short or too long, duplicates.

    >>> from lexigraph.compiler.sources import parse_lines
    >>> words = parse_lines(["CAT", "dog", "DOG", "x"], "<w>")
    >>> ws = _normalize_ascii_letters(words, None, 2, 255, "fold", None, BuildKernels.choose())
    >>> [ws.alphabet.decode(k) for k in ws.keys], ws.report.duplicates, dict(ws.report.skipped)
    (['cat', 'dog'], 1, {'too short': 1})
    >>> dict(ws.report.changed)  # DOG is a duplicate of dog: only CAT's spelling was kept folded
    {'upper case folded': 1}
    """
    if alphabet is not None and alphabet.byte_table is None:
        return None
    data = raw.ascii_data
    lines = 0
    if data is None:
        words = raw.words
        if not words:
            return None
        raw_lines = raw.raw_lines
        if raw_lines is not None and (
            raw_lines != words if len(raw_lines) == len(words)  # each word its line (identical when not stripped)
            else sum(map(len, raw_lines)) != sum(map(len, words))
        ):
            return None  # spaces were trimmed somewhere: the loop notes where
        text = "\n".join(words)
        if not text.isascii():
            return None
        data = text.encode("ascii")
        if b"\r" in data or data.count(b"\n") != len(words) - 1:
            return None  # a word holding a line end: the loop says so
        lines = raw.lines
    if progress is not None:
        progress("normalising", 0, 1)
    scan = kernels.scan_ascii(data, None if alphabet is None else alphabet.byte_table, min_length, max_len)
    if scan is None:
        return None
    if alphabet is None:
        alphabet = Alphabet.from_letters(scan.letters)
    report = Report(lines=lines if raw.ascii_data is None else scan.lines, case=case)
    report.skipped.update(raw.skipped)
    if scan.short:
        report.skipped["too short"] += scan.short
    if scan.long:
        report.skipped["too long"] += scan.long
    codes, lengths, upper = scan.codes, scan.lengths, scan.upper
    if not scan.ordered:
        mat, strings = padded_rows(codes, lengths)
        order = np.argsort(strings, kind="stable")  # equal words keep their input order: the first one is kept
        ordered = strings[order]
        first = order[np.append(True, ordered[1:] != ordered[:-1])]
        rows = mat[first]
        codes, lengths, upper = rows[rows != 0], lengths[first], upper[first]
    n = len(lengths)
    if not n:
        if scan.short and scan.long and not _short_first(data, min_length, max_len):
            report.skipped = Counter({"too long": scan.long, "too short": scan.short})  # as the loop met them
        raise BuildError(f"{raw.name}: no words left to build a lexicon from ({_skip_summary(report.skipped)})")
    folded = int(upper.sum())  # as the loop counts: the kept spelling was folded
    if folded:
        report.changed["upper case folded"] = folded
    report.kept = n
    report.duplicates = len(scan.lengths) - n
    per_length = np.bincount(lengths)
    report.per_length = {int(k): int(c) for k, c in enumerate(per_length.tolist()) if c}
    priorities = np.full(n, DEFAULT_PRIORITY, np.uint8)
    return WordSet(alphabet, None, priorities, False, raw.score_max, report, codes=codes, lengths=lengths)


def _short_first(data: bytes, min_length: int, max_length: int) -> bool:
    """Whether the loop meets a word too short before one too long (the order its error message names them in).

    The loop counts words longer than CHAR_CAP before all others.
    """
    words = [w for w in data.splitlines() if w]
    if any(len(w) > CHAR_CAP for w in words):
        return False
    return next(len(w) < min_length for w in words if not min_length <= len(w) <= max_length)


def _skip_summary(skipped: Counter[str]) -> str:
    if not skipped:
        return "the source is empty"
    return "skipped: " + ", ".join(f"{n:,} {why}" for why, n in skipped.most_common())
