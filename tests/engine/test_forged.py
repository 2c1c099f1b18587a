"""Forged files (valid checksums, lying contents): every query and job gives the same answer on both engines,
or the same error (a LexiconError of the same class) on both; never another exception, a crash, a hang or
a runaway allocation.

The cases run in a child process with a 2 GiB address-space limit and a time limit, so that an
allocation a forged size provokes, or a walk that never ends, fails the test instead of the machine.
The child loads this file and ``conftest.py`` (the file surgery) by path.
"""

from __future__ import annotations

import json
import random
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import lexigraph
from lexigraph import LexiconError
from lexigraph.compiler.builder import compile_source
from lexigraph.engine import compiled, fileformat, wordgraph

GOOD_WORDS = ["abc", "abd", "bcd", "cde", "ace", "abcde", "bb", "zz", "cab", "bac"]

QUERIES: list[tuple[str, Any]] = [
    ("in", lambda lex: [q in lex for q in ["abc", "abd", "zz", "bb", "q", "abcde", "cab", "é", "xxxxx", 7]]),
    ("check_many", lambda lex: lex.check_many(["abc", "abd", "zz", "nope", "cab", "é"]).tolist()),
    ("word_id", lambda lex: [lex.word_id(q) for q in ["abc", "zz", "cab", "qq"]]),
    ("priority", lambda lex: [lex.priority(q) for q in ["abc", "zz"]]),
    ("children", lambda lex: [lex.children(p) for p in ["", "a", "ab", "abc", "c", "zz", "q"]]),
    ("words", lambda lex: [lex.words(prefix=p) for p in ["", "a", "ab", "c"]]),
    ("iter", lambda lex: list(lex)),
    ("anagram", lambda lex: [lex.anagram(r) for r in ["abcde", "ab?"]]),
    ("exact", lambda lex: [lex.anagram(r, mode="exact") for r in ["cab", "b?", "??"]]),
    ("match", lambda lex: [lex.match(p) for p in ["???", "a*", "[ab]?", "*e", "?b?", "?bc", "??e", "?b?d?"]]),
    ("count", lambda lex: lex.count("??")),
    ("cross", lambda lex: lex.cross("a??", 1, "?b?", 1).tiles),
    ("len", lambda lex: (len(lex), lex.lengths)),
]


def _moves(lex: lexigraph.Lexicon) -> Any:
    from lexigraph.scrabble.game import Game
    from lexigraph.scrabble.movegen import count_placements, generate
    from lexigraph.scrabble.position import Position

    pos = Position(Game.preset("scrabble"))
    first = [(m.notation, m.score) for m in generate(lex, pos, "ABCDE?", top=5)]
    board = Position.from_text("\n".join("." * 15 if r != 7 else "......cab......" for r in range(15)),
                               Game.preset("scrabble"))
    later = [(m.notation, m.score) for m in generate(lex, board, "ABDZ", top=5)]
    return first, later


def _placements(lex: lexigraph.Lexicon) -> int:
    from lexigraph.scrabble.game import Game
    from lexigraph.scrabble.movegen import count_placements
    from lexigraph.scrabble.position import Position

    return count_placements(lex, Position(Game.preset("scrabble")), "ABCDE?")


def _fill(lex: lexigraph.Lexicon) -> Any:
    from lexigraph.crossword.fill import Rules, fill, suggest
    from lexigraph.crossword.formats import grid_from_text, grid_to_text

    grids = [grid_from_text("...\n..."), grid_from_text("a..\n...\n..."), grid_from_text("..\n..")]
    filled = [fill(lex, g, seed=1, rules=Rules(allow_repeats=True), timeout=5) for g in grids]
    found = [(r.status, None if r.grid is None else grid_to_text(r.grid)) for r in filled]
    return found, [s.word for s in suggest(lex, grids[0], "1A", rules=Rules(allow_repeats=True))]


JOBS: list[tuple[str, Any]] = [("moves", _moves), ("placements", _placements), ("fill", _fill)]


def refused(error: LexiconError) -> str:
    """How a check's error is recorded: its class (both engines must raise the same one)."""
    return f"{type(error).__name__}"


def is_refusal(answer: Any) -> bool:
    """Whether a recorded answer is an error (see :func:`refused`)."""
    return isinstance(answer, str) and answer.endswith(("Error", "Exceeded"))


def outcomes(data: bytes, checks: list[tuple[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each check's answer (or its error's class, :func:`refused`) per engine; any other exception propagates."""
    out: dict[str, dict[str, Any]] = {}
    for kind in (["c"] if compiled.available() else []) + ["python"]:
        answers: dict[str, Any] = {}
        try:
            lex = lexigraph.Lexicon(fileformat.open_bytes(data), pure_python=kind == "python")
        except LexiconError as e:
            out[kind] = {"open": refused(e)}
            continue
        assert lex.engine.kind == kind
        for name, check in checks:
            try:
                answers[name] = check(lex)
            except LexiconError as e:
                answers[name] = refused(e)
        lex.close()
        out[kind] = answers
    return out


def differences(got: dict[str, dict[str, Any]]) -> list[tuple[str, Any, Any]]:
    """(check, C, Python) for each check whose answers differ: an answer against an error, another
    answer or another error all count (the same answer or the same one error, nothing else)."""
    if "c" not in got:
        return []
    c, py = got["c"], got["python"]
    return [(n, c.get(n), py.get(n)) for n in sorted(set(c) | set(py)) if c.get(n) != py.get(n)]


def assert_same_on_both_engines(data: bytes, checks: list[tuple[str, Any]] = QUERIES) -> None:
    """Each check: the same answer on the C and the Python engine, or the same error on both."""
    differ = differences(outcomes(data, checks))
    assert not differ, differ


def forged_files(forge: Any, good: bytes, seed: int, n: int) -> list[bytes]:
    """Files whose index fields or section bytes are perturbed, with valid checksums."""
    rng = random.Random(seed)
    index = forge.index_of(good)
    sections = fileformat.open_bytes(good).sections
    weird = [None, True, -1, 0, 1, 2, 3, 10**8, 10**30, 1.5, float("inf"), float("nan"), "3", [], {}]
    out = []
    for _ in range(n):
        idx = json.loads(json.dumps(index))
        kind = rng.randrange(9)
        if kind == 0:  # a scalar field of the index
            key = rng.choice(["word_count", "min_length", "max_length", "name", "alphabet", "buckets", "graph"])
            idx[key] = rng.choice(weird)
        elif kind == 1:  # a bucket field
            b = rng.choice(idx["buckets"])
            b[rng.choice(["length", "first", "count", "hash_home"])] = rng.choice(weird)
        elif kind == 2:  # bucket order
            rng.shuffle(idx["buckets"])
        elif kind == 3:  # a section's offset, length, dtype or shape
            sec = idx["sections"][rng.choice(list(idx["sections"]))]
            field = rng.choice(["offset", "length", "dtype", "shape"])
            sec[field] = rng.choice(weird + ["<u8", "u1", "<u2", [1], [10**8, 3], [2, 2, 2]])
        elif kind == 4:  # the graph's root
            idx["graph"]["root"] = rng.choice(weird)
        elif kind == 5:  # the alphabet
            alpha = idx["alphabet"]
            choice = rng.randrange(5)
            if choice == 0:
                alpha["tiles"] = rng.choice([["A", "b"], [1, 2], ["a", "a"], ["a"] * 300, "abc", []])
            elif choice == 1:
                alpha["fold"] = rng.choice([{"A": "a"}, {"é": 5}, {"ab": "c"}, {"É": "e"}, []])
            elif choice == 2:
                alpha["vowels"] = rng.choice([["x"], [1], "a"])
            elif choice == 3:
                alpha["aliases"] = rng.choice([{"X": "a"}, {"q": "nope"}, {"a": "b"}])
            else:
                alpha["tiles"] = alpha["tiles"][: rng.randrange(len(alpha["tiles"]))]
        if kind <= 5:
            out.append(forge.with_index(good, idx))
            continue
        name = rng.choice(list(sections))
        sec = sections[name]
        data = bytearray(good)
        if kind == 6:  # random bytes inside a section
            for _ in range(rng.randint(1, 6)):
                data[sec.offset + rng.randrange(sec.length)] = rng.randrange(256)
        elif kind == 7:  # arcs out of range, tiles outside the alphabet
            g = sections["graph"]
            i = rng.randrange(g.shape[0])
            rec = rng.choice([1 | (0xFFFFFFF << 32), 200 | wordgraph.LAST_BIT, 0, (1 << 64) - 1, 3 | (i << 32)])
            struct.pack_into("<Q", data, g.offset + 8 * i, rec)
        else:  # hash slots and alphagram rows past their bucket, codes 0 or past the alphabet
            target = rng.choice([n for n in sections if n.startswith(("hash.", "alphagram.", "words."))])
            s = sections[target]
            pos = s.offset + rng.randrange(max(1, s.length))
            data[pos] = rng.choice([0, 0xFF, 27, 60, 1, 2])
        out.append(forge.reseal(data))
    return out


#: The perturbations of one arc record that a graph check must catch.
ARC_FORGERIES = ["tile out of range", "target past the end", "is_last cleared at the end", "back-edge to the root",
                 "non-rising tiles"]


def forged_graphs(forge: Any, good: bytes) -> list[tuple[str, int, bytes]]:
    """(perturbation, arc, file) for each perturbation of :data:`ARC_FORGERIES` at every arc it applies to."""
    mapped = fileformat.open_bytes(good)
    n, root = mapped.sections["graph"].shape[0], mapped.index["graph"]["root"]
    records = list(struct.unpack(f"<{n}Q", bytes(mapped.view("graph"))))
    last = wordgraph.LAST_BIT
    out = []
    for how in ARC_FORGERIES:
        arcs = [n - 1] if how == "is_last cleared at the end" else range(1, n)
        for i in arcs:
            recs = list(records)
            if how == "tile out of range":
                recs[i] = (recs[i] & ~0xFF) | 200
            elif how == "target past the end":
                recs[i] = (recs[i] & 0xFFFFFFFF) | (n + 7) << 32
            elif how == "is_last cleared at the end":
                recs[i] &= ~last
            elif how == "back-edge to the root":
                recs[i] = (recs[i] & 0xFFFFFFFF) | root << 32
            else:  # the tile of the next record in the same list, or a smaller one at its list's end
                if recs[i] & last:
                    continue
                recs[i] = (recs[i] & ~0xFF) | (recs[i + 1] & 0xFF)
            data = forge.rewrite(good, "graph", lambda _b, r=recs: struct.pack(f"<{n}Q", *r))
            out.append((how, i, data))
    return out


#: Forgeries of every arc record at once: each bit of the layout (``Arc``) cleared or set throughout.
WHOLE_GRAPH_FORGERIES: dict[str, Any] = {
    "arc_last_bits_cleared_all": lambda r: r & ~wordgraph.LAST_BIT,
    "arc_last_bits_set_all": lambda r: r | wordgraph.LAST_BIT,
    "arc_accepts_bits_cleared_all": lambda r: r & ~wordgraph.ACCEPTS_BIT,
    "arc_accepts_bits_set_all": lambda r: r | wordgraph.ACCEPTS_BIT,
    "arc_targets_zeroed_all": lambda r: r & 0xFFFFFFFF,
    "arc_tiles_zeroed_all": lambda r: r & ~0xFF,
}


def forged_whole_graphs(forge: Any, good: bytes) -> list[tuple[str, bytes]]:
    """(name, file) for each forgery of :data:`WHOLE_GRAPH_FORGERIES`, applied to every arc record."""
    mapped = fileformat.open_bytes(good)
    n = mapped.sections["graph"].shape[0]
    records = struct.unpack(f"<{n}Q", bytes(mapped.view("graph")))
    return [(name, forge.rewrite(good, "graph", lambda _b, f=change: struct.pack(f"<{n}Q", *map(f, records))))
            for name, change in WHOLE_GRAPH_FORGERIES.items()]


def run_forgeries(forge: Any, n: int | str) -> None:
    """Run every case; print one JSON line per forged file (read by the tests below).

    Each line names the case and lists the checks whose answers differ between the engines
    (:func:`differences`: every query and, for forged graphs, every job).
    """
    peak_mib = own_peak_mib

    def report(case: dict[str, Any], data: bytes, checks: list[tuple[str, Any]]) -> dict[str, Any]:
        before = peak_mib()
        try:
            got = outcomes(data, checks)
        except Exception as e:  # never another exception: the case is named in the failure
            raise AssertionError(f"{case}: {type(e).__name__}: {e}") from e
        case |= {"differ": [list(map(repr, d)) for d in differences(got)], "grew_mib": peak_mib() - before}
        if "jobs" in case:
            case["fill_as_good"] = all(answers.get("fill") == good_fill for answers in got.values())
            case["refused"] = {kind: is_refusal(answers.get("moves")) and is_refusal(answers.get("placements"))
                               for kind, answers in got.items()}
        print(json.dumps(case), flush=True)
        return case

    n = int(n)
    good, _ = compile_source(GOOD_WORDS)
    assert_same_on_both_engines(good, QUERIES + JOBS)
    good_fill = outcomes(good, [("fill", _fill)])["python"]["fill"]
    for i, data in enumerate(forged_files(forge, good, 11, n)):
        report({"file": i}, data, QUERIES)
    for how, arc, data in forged_graphs(forge, good):
        report({"how": how, "arc": arc, "jobs": True}, data, QUERIES + JOBS)
    for name, data in forged_whole_graphs(forge, good):
        report({"whole": name, "jobs": True}, data, QUERIES + JOBS)


# -- forged files of a bigger list: graphs that explode a walk, indexes that lie -------------------------------

#: Every 25th ENABLE word of up to 10 letters: long enough words for a cycle to explode a walk.
PREFIXES = ["", "d", "do", "ca", "qu", "zz"]
EXACT_RACKS = ["dgo", "aeinrst", "ca?", "c??", "????", "???????", "aer????"]
SUB_RACKS = ["retains", "dog?", "??????"]
PATTERNS = ["d*", "?o?", "*e*", "c?t", "??????", "s*ing", "[aeiou]#@#"]


def _fits(word: str, rack: str, exact: bool) -> bool:
    """Whether ``word`` is an anagram of ``rack`` (``?`` blanks; ``exact``: all of it, else some of it)."""
    from collections import Counter

    blanks = rack.count("?")
    missing = sum((Counter(word) - Counter(rack.replace("?", ""))).values())
    return missing <= blanks and (len(word) == len(rack) if exact else len(word) <= len(rack))


def _glob(pattern: str) -> Any:
    import re

    regex = pattern.replace("?", ".").replace("@", "[aeiou]").replace("#", "[^aeiou]").replace("*", ".*")
    return re.compile(regex + r"\Z")


def _twice(groups: list[list[str]]) -> list[str]:
    """The words an answer lists more than once (a word is one answer)."""
    from collections import Counter

    return [w for ws in groups for w, n in sorted(Counter(ws).items()) if n > 1]


#: (name, query, the answers that do not satisfy their own query or come twice): a lie is never an answer.
BIG_QUERIES: list[tuple[str, Any, Any]] = [
    ("words", lambda lex: [lex.words(prefix=p) for p in PREFIXES],
     lambda got: [w for p, ws in zip(PREFIXES, got) for w in ws if not w.startswith(p)] + _twice(got)),
    ("exact", lambda lex: [lex.anagram(r, mode="exact") for r in EXACT_RACKS],
     lambda got: [w for r, ws in zip(EXACT_RACKS, got) for w in ws if not _fits(w, r, True)] + _twice(got)),
    ("exact-general", lambda lex: [lex.anagram(r, mode="exact", min_length=3) for r in EXACT_RACKS],
     lambda got: [w for r, ws in zip(EXACT_RACKS, got) for w in ws if not _fits(w, r, True)] + _twice(got)),
    ("sub", lambda lex: [lex.anagram(r) for r in SUB_RACKS],
     lambda got: [w for r, ws in zip(SUB_RACKS, got) for w in ws if not _fits(w, r, False)] + _twice(got)),
    ("match", lambda lex: [lex.match(p) for p in PATTERNS],
     lambda got: [w for p, ws in zip(PATTERNS, got) for w in ws if not _glob(p).match(w)] + _twice(got)),
    ("count", lambda lex: [lex.count(p) for p in PATTERNS], lambda got: []),
    ("cross", lambda lex: lex.cross("d??", 1, "?o??", 1).words_a,
     lambda got: [w for w in got if not _glob("d??").match(w)] + _twice([got])),
    ("check", lambda lex: [w in lex for w in ["dog", "cat", "zyzzyva", "aerugos"]], lambda got: []),
]


def big_good() -> tuple[bytes, list[str]]:
    """The bigger list's lexicon file, and its words."""
    words = [w for w in lexigraph.open().words() if len(w) <= 10][::25] + ["act", "cat", "dog", "god", "opt", "pot"]
    data, _ = compile_source(words)
    return data, words


def forged_big(forge: Any, good: bytes) -> list[tuple[str, bytes]]:
    """(what, file): cycles, endless lists, targets into lists, stray tiles; lying alphagram orders and buckets."""
    mapped = fileformat.open_bytes(good)
    n, root = mapped.sections["graph"].shape[0], mapped.index["graph"]["root"]
    records = list(struct.unpack(f"<{n}Q", bytes(mapped.view("graph"))))
    last, accepts = wordgraph.LAST_BIT, wordgraph.ACCEPTS_BIT
    starts = sorted({root} | {r >> 32 for r in records if r >> 32})
    rng = random.Random(5)
    out: list[tuple[str, bytes]] = []

    def graph(recs: list[int]) -> bytes:
        return forge.rewrite(good, "graph", lambda _b: struct.pack(f"<{n}Q", *recs))

    def width(start: int) -> int:
        i = start
        while not records[i] & last:
            i += 1
        return i - start + 1

    wide = sorted(starts[1:], key=width, reverse=True)  # a wide list looping on itself: an exponential walk
    for start in wide[:4] + rng.sample(wide[4:], 2):
        recs = list(records)  # every arc of one list leads back to the list, spelling nothing
        i = start
        while True:
            recs[i] = (recs[i] & (0xFF | last)) | start << 32
            if recs[i] & last:
                break
            i += 1
        out.append((f"a list that loops on itself at {start}", graph(recs)))
    deep = [i for i in range(1, n) if not records[i] & accepts and records[i] >> 32]
    for i in rng.sample(deep, 6):
        recs = list(records)
        recs[i] = (recs[i] & (0xFF | last)) | root << 32
        out.append((f"a back-edge to the root at {i}", graph(recs)))
        recs = list(records)
        earlier = rng.choice([s for s in starts if s <= i] or [root])
        recs[i] = (recs[i] & (0xFF | last)) | earlier << 32
        out.append((f"a back-edge to the earlier list {earlier} at {i}", graph(recs)))
        recs = list(records)
        recs[i] = (recs[i] & (0xFF | accepts | last)) | (rng.randrange(1, n)) << 32
        out.append((f"a target into the middle of a list at {i}", graph(recs)))
    ends = [i for i in range(1, n - 1) if records[i] & last]
    for i in rng.sample(ends, 6):
        recs = list(records)
        recs[i] &= ~last
        out.append((f"a list that never ends at {i}", graph(recs)))
    recs = list(records)
    for i in rng.sample(ends, 40):
        recs[i] &= ~last
    out.append(("forty lists that never end", graph(recs)))
    for i in rng.sample(deep, 3):
        recs = list(records)
        recs[i] = (recs[i] & ~0xFF) | 200  # a tile outside the alphabet
        out.append((f"a tile outside the alphabet at {i}", graph(recs)))

    def order(length: int, change: Any) -> bytes:
        sec = mapped.sections[f"alphagram.{length}"]
        dtype = "<u2" if sec.dtype == "<u2" else "<u4"
        import numpy as np

        def rewrite(raw: bytes) -> bytes:
            entries = np.frombuffer(raw, dtype).copy()
            change(entries)
            return entries.tobytes()

        return forge.rewrite(good, f"alphagram.{length}", rewrite)

    def twice(e: Any) -> None:
        e[1] = e[0]

    def zeros(e: Any) -> None:
        e[:] = 0

    def shuffled(e: Any) -> None:
        random.Random(3).shuffle(e)

    def swapped(e: Any) -> None:  # two entries of different alphagrams trade places: one pair out of order
        e[[0, len(e) - 1]] = e[[len(e) - 1, 0]]

    def lying(e: Any) -> None:
        # The order shuffled until a binary search for dgo takes in a word that is not its anagram: the
        # forgery that made both engines answer anagrams that are not (an impossible answer).
        import numpy as np

        rows = np.frombuffer(bytes(mapped.view("words.3")), np.uint8).reshape(-1, 3)
        codes = lexigraph.Lexicon(fileformat.open_bytes(good), pure_python=True).alphabet.encode("dgo")
        target = np.sort(np.frombuffer(codes or b"", np.uint8)).tobytes()
        rng = random.Random(7)
        for _ in range(20000):
            trial = e.copy()
            rng.shuffle(trial)
            k = np.sort(rows[trial], axis=1).view("S3").ravel()
            lo, hi = np.searchsorted(k, np.bytes_(target), "left"), np.searchsorted(k, np.bytes_(target), "right")
            if any(k[i] != target for i in range(lo, hi)):
                e[:] = trial
                return
        raise AssertionError("no lying order found near dgo")

    for length in (3, 7):
        for how, change in (("a row named twice", twice), ("every entry zero", zeros), ("shuffled", shuffled),
                            ("two entries swapped", swapped)):
            out.append((f"alphagram.{length}: {how}", order(length, change)))
    out.append(("alphagram.3: reordered to answer dgo with other words", order(3, lying)))
    sec = mapped.sections["words.5"]

    def rows_swapped(raw: bytes) -> bytes:
        rows = bytearray(raw)
        rows[0:5], rows[5 * 7 : 5 * 8] = rows[5 * 7 : 5 * 8], rows[0:5]
        return bytes(rows)

    out.append(("words.5: two rows out of order", forge.rewrite(good, "words.5", rows_swapped)))
    assert sec.length >= 40
    return out


def own_peak_mib() -> int:
    """This process's own peak resident memory in MiB: VmHWM, where ru_maxrss also counts the parent's memory at
    the fork (kept through exec), so that a child of a large test process would seem large itself."""
    try:
        with open("/proc/self/status") as status:
            return int(next(line for line in status if line.startswith("VmHWM")).split()[1]) // 1024
    except (OSError, StopIteration, ValueError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def run_big_forgeries(forge: Any) -> None:
    """Each forged file of :func:`forged_big` in turn: one JSON line per case.

    A case gets 10 s: the alarm's default action ends the process, even inside a C loop that never
    returns to Python, and the line naming the case last started says which one took too long.
    """
    import signal
    import time

    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    queries = [(name, query) for name, query, _ in BIG_QUERIES]
    lies = {name: lie for name, _, lie in BIG_QUERIES}
    good, words = big_good()
    honest = outcomes(good, queries)
    assert honest["python"] == honest.get("c", honest["python"]), "the good file answers alike"
    assert not any(lies[name](answer) for name, answer in honest["python"].items()), "the oracles hold"
    for what, data in forged_big(forge, good):
        print(json.dumps({"start": what}), flush=True)
        started = time.monotonic()
        signal.alarm(10)
        try:
            got = outcomes(data, queries)
        except Exception as e:  # never another exception: the case is named in the report
            got = {"raised": {"error": f"{type(e).__name__}: {e}"}}
        finally:
            signal.alarm(0)
        seconds = round(time.monotonic() - started, 3)
        impossible = {kind: {name: lies[name](answer)[:5] for name, answer in answers.items()
                             if name in lies and not is_refusal(answer) and lies[name](answer)}
                      for kind, answers in got.items()}
        print(json.dumps({"what": what, "got": got, "impossible": impossible, "seconds": seconds,
                          "peak_mib": own_peak_mib()}), flush=True)


def _child(function: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``function(forge, *args)`` of this file in a child process capped at 2 GiB of address space."""
    here = Path(__file__).parent
    code = (
        "import resource, sys, importlib.util\n"
        "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n"
        "def load(name, path):\n"
        "    spec = importlib.util.spec_from_file_location(name, path)\n"
        "    module = importlib.util.module_from_spec(spec)\n"
        "    spec.loader.exec_module(module)\n"
        "    return module\n"
        "forge = load('engine_forge', sys.argv[1] + '/conftest.py')\n"
        f"load('engine_forged', sys.argv[1] + '/test_forged.py').{function}(forge, *sys.argv[2:])\n"
    )
    return subprocess.run([sys.executable, "-c", code, str(here), *args], capture_output=True, text=True,
                          timeout=600)


@pytest.fixture(scope="module")
def big_report() -> list[dict[str, Any]]:
    """One line per forged file of the bigger list (run once, in a child, for the tests below)."""
    result = _child("run_big_forgeries")
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    started = [line["start"] for line in lines if "start" in line]
    assert result.returncode == 0, (f"the child ended ({result.returncode}) during {started[-1:]}: more than 10 s "
                                    f"or 2 GiB", result.stderr[-3000:])
    return [line for line in lines if "what" in line]


def test_forged_big_files_answer_alike_on_both_engines_or_with_one_error(big_report):
    """Cycles, endless lists, targets into lists: C and Python give the same answer or the same error, in time."""
    assert len(big_report) >= 40
    for case in big_report:
        got = case["got"]
        assert "raised" not in got, case
        if "c" not in got:
            continue
        differ = differences(got)
        assert not differ, (case["what"], [(n, str(c)[:200], str(p)[:200]) for n, c, p in differ])


def test_no_forged_file_gets_an_answer_that_does_not_satisfy_its_query(big_report):
    """An unsorted alphagram order, a row named twice, rows out of order: refused, never answered with a lie."""
    for case in big_report:
        assert not any(case["impossible"].values()), (case["what"], case["impossible"])


def test_lying_alphagram_orders_are_refused_on_both_engines(big_report):
    """Every forged alphagram order is found out the first time an exact anagram reads it, on both engines."""
    orders = [case for case in big_report if case["what"].startswith("alphagram.")]
    assert len(orders) == 9
    for case in orders:
        for kind, answers in case["got"].items():
            assert answers["exact"] == answers["exact-general"] == "FileFormatError", (case["what"], kind, answers)


def test_forged_big_files_stay_in_bounded_memory(big_report):
    assert max(case["peak_mib"] for case in big_report) < 1024, max(big_report, key=lambda c: c["peak_mib"])


@pytest.fixture(scope="module")
def forged_report() -> list[dict[str, Any]]:
    """The child's lines, one per forged file (run once for the tests of this file)."""
    result = _child("run_forgeries", "300")
    assert result.returncode == 0, result.stderr[-3000:]
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def test_forged_files_give_the_same_answer_or_the_same_error_on_both_engines(forged_report):
    """300 forged indexes and sections, every query: the same answer on C and Python, or the same error."""
    files = [c for c in forged_report if "file" in c]
    assert len(files) == 300
    assert [c for c in files if c["differ"]] == []


def test_forged_graphs_give_the_same_answer_or_the_same_error_on_both_engines(forged_report):
    """Every arc forgery, every query and job: one answer for both engines, or one error for both."""
    graphs = [c for c in forged_report if "how" in c]
    assert {c["how"] for c in graphs} == set(ARC_FORGERIES)
    assert [c for c in graphs if c["differ"]] == []


def test_whole_graph_forgeries_give_the_same_answer_or_the_same_error_on_both_engines(forged_report):
    """A bit of every arc cleared or set (arc_last_bits_cleared_all...): the same on both engines, every check.

    The queries that the buckets answer (listings, patterns, anagrams) answer from them on both
    engines when the graph does not spell the buckets; the jobs that need the graph refuse it.
    """
    whole = {c["whole"]: c for c in forged_report if "whole" in c}
    assert set(whole) == set(WHOLE_GRAPH_FORGERIES)
    assert {name: c["differ"] for name, c in whole.items() if c["differ"]} == {}
    kinds = ["c", "python"] if compiled.available() else ["python"]
    for name, case in whole.items():
        assert case["fill_as_good"], case
        assert case["refused"] == {kind: True for kind in kinds}, case


def test_forged_graphs_are_refused_by_the_move_generators(forged_report):
    kinds = ["c", "python"] if compiled.available() else ["python"]
    for case in forged_report:
        if "how" in case:
            assert case["refused"] == {kind: True for kind in kinds}, case


def test_the_fill_answers_forged_graphs_as_the_good_file(forged_report):
    """The fill reads the buckets, not the graph: it answers as on the good file."""
    assert [c for c in forged_report if "how" in c and not c["fill_as_good"]] == []


def test_a_back_edge_to_the_root_is_refused_in_bounded_memory(forged_report):
    graphs = [c for c in forged_report if "jobs" in c]
    assert max(c["grew_mib"] for c in graphs) < 256, sorted((c["grew_mib"], c.get("how"), c.get("arc"))
                                                           for c in graphs)[-3:]
