"""Benchmark helpers: interleaved timing, medians, a ratio table, and the baselines."""

from __future__ import annotations

import os
import statistics
import struct
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("LEXIGRAPH_SHARED_DATA", ROOT.parent / "shared" / "data"))


def data_file(name: str, required: bool = True) -> Path | None:
    """A real word list from ../shared/data; without it, exit (or None if not ``required``)."""
    path = DATA / name
    if not path.exists():
        if not required:
            return None
        sys.exit(f"benchmarks need {path} (the real word lists in ../shared/data)")
    return path


def twl06_fixture() -> tuple[Path, list[str], bytes, str]:
    """TWL06 as text path, word list and dawg32 table, plus a scratch path for its lexicon."""
    import tempfile

    words_path = data_file("twl06.txt")
    table_bytes = data_file("twl06.dawg32").read_bytes()
    lex_path = os.path.join(tempfile.mkdtemp(), "twl06.lex")
    return words_path, words_path.read_text().split(), table_bytes, lex_path


def measure(cases: dict, rounds: int = 7) -> dict[str, float]:
    """Median seconds per call of each zero-argument function, rounds interleaved.

    Interleaving spreads the noise of a shared machine evenly over the contenders.
    """
    return {k: statistics.median(v) for k, v in timings(cases, rounds).items()}


def timings(cases: dict, rounds: int) -> dict[str, list[float]]:
    """Seconds of each round of each zero-argument function, rounds interleaved."""
    times: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(rounds):
        for name, fn in cases.items():
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
    return times


def table(title: str, rows: list[tuple[str, float, str]], reference: str, target: str = "") -> str:
    """rows: (name, throughput per second, unit). Ratios are against ``reference``."""
    ref = dict((n, v) for n, v, _ in rows)[reference]
    lines = [f"## {title}", "", "| contender | throughput | ratio to " + reference + " |", "|---|---:|---:|"]
    for name, value, unit in rows:
        lines.append(f"| {name} | {value:,.0f} {unit} | {value / ref:.2f}x |")
    if target:
        lines += ["", f"target: {target}"]
    return "\n".join(lines) + "\n"


class TwlTable:
    """A pure-Python walk of the TWL06 module's table, the algorithm that module uses."""

    END, WILD = "$", "?"

    def __init__(self, data: bytes) -> None:
        self.data = data

    def record(self, index: int) -> tuple[bool, str, int]:
        x = struct.unpack("<I", self.data[index * 4 : index * 4 + 4])[0]
        return bool(x & 0x80000000), chr((x >> 24) & 0x7F), x & 0xFFFFFF

    def child(self, index: int, letter: str) -> int | None:
        while True:
            more, other, link = self.record(index)
            if other == letter:
                return link
            if not more:
                return None
            index += 1

    def list_at(self, index: int) -> list[str]:
        out = []
        while True:
            more, letter, _ = self.record(index)
            out.append(letter)
            if not more:
                return out
            index += 1

    def check(self, word: str) -> bool:
        index: int | None = 0
        for letter in word:
            index = self.child(index, letter)  # type: ignore[arg-type]
            if index is None:
                return False
        return self.END in self.list_at(index)  # type: ignore[arg-type]

    def children(self, prefix: str) -> list[str]:
        index: int | None = 0
        for letter in prefix:
            index = self.child(index, letter)  # type: ignore[arg-type]
            if index is None:
                return []
        return self.list_at(index)  # type: ignore[arg-type]

    def anagram(self, letters: str) -> list[str]:
        bag = Counter(letters)
        out: list[str] = []
        self._anagram(bag, 0, [], out)
        return out

    def _anagram(self, bag: Counter, index: int, prefix: list[str], out: list[str]) -> None:
        while True:
            more, letter, link = self.record(index)
            if letter == self.END:
                if prefix:
                    out.append("".join(prefix))
            elif bag[letter] or bag[self.WILD]:
                use = letter if bag[letter] else self.WILD
                bag[use] -= 1
                prefix.append(letter)
                self._anagram(bag, link, prefix, out)
                prefix.pop()
                bag[use] += 1
            if not more:
                return
            index += 1


def rss_kib(field: str = "VmRSS") -> int:
    """Resident memory in KiB; ``RssAnon`` counts private memory only, not shared file pages."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


# -- side-by-side tables with ranges (issues 10 and 11) ------------------------------------------

BAG = "aaaaaaaaabbccddddeeeeeeeeeeeeffggghhiiiiiiiiijkllllmmnnnnnnooooooooppqrrrrrrssssttttttuuuuvvwwxyyz"
"""The 98 lettered tiles of an English Scrabble bag (blanks are added as ``?``)."""

ALPHA = "abcdefghijklmnopqrstuvwxyz"


def rates(cases: dict, work: dict[str, int] | int, rounds: int = 5) -> dict[str, list[float]]:
    """Per-round throughput of each zero-argument function, rounds interleaved.

    ``work``: how many queries one call answers (per contender, or one number for all).
    """
    return {k: [(work if isinstance(work, int) else work[k]) / s for s in v] for k, v in timings(cases, rounds).items()}


def fmt_rate(value: float) -> str:
    for scale, suffix in ((1e6, " M"), (1e3, " k")):
        if value >= scale * 10:
            return f"{value / scale:,.0f}{suffix}"
        if value >= scale:
            return f"{value / scale:,.1f}{suffix}"
    return f"{value:,.3g} " if value < 10 else f"{value:,.0f} "


def fmt_ratio(x: float) -> str:
    return f"{x:.3g}x" if x < 10 else f"{x:,.0f}x"


def ratio_stats(subject: list[float], peer: list[float]) -> tuple[float, float, float]:
    """Ratio of median rates, and the range of the per-round ratios (subject's rate / peer's)."""
    per_round = [a / b for a, b in zip(subject, peer)]
    return statistics.median(subject) / statistics.median(peer), min(per_round), max(per_round)


def peer_table(title: str, got: dict[str, list[float]], unit: str, subjects: list[str], note: str = "") -> str:
    """A Markdown table: each contender's median rate, and each subject's ratio to it (median, range).

    ``subjects`` are the lexigraph contenders (the C path first); ratio = subject's rate / contender's.
    """
    head = "| contender | median " + unit + " | " + " | ".join(f"{s} ÷ it (range)" for s in subjects) + " |"
    lines = [f"#### {title}", "", head, "|---|---:|" + "---:|" * len(subjects)]
    for name, r in got.items():
        cells = []
        for s in subjects:
            if s == name:
                cells.append("")
            else:
                med, lo, hi = ratio_stats(got[s], r)
                cells.append(f"{fmt_ratio(med)} ({fmt_ratio(lo)}-{fmt_ratio(hi)})")
        lines.append(f"| {name} | {fmt_rate(statistics.median(r))} | " + " | ".join(cells) + " |")
    if note:
        lines += ["", note]
    return "\n".join(lines) + "\n"
