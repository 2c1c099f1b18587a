"""Forged files (valid checksums, lying contents): every query and job gives the same answer on both engines,
or a LexiconError; never another exception, a crash, a hang or a runaway allocation.

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
    from lexigraph.crossword.fill import fill, suggest
    from lexigraph.crossword.grid import Grid

    grids = [Grid.from_text("...\n..."), Grid.from_text("a..\n...\n..."), Grid.from_text("..\n..")]
    filled = [fill(lex, g, seed=1, allow_repeats=True, timeout=5) for g in grids]
    found = [(r.status, None if r.grid is None else r.grid.to_text()) for r in filled]
    return found, [s.word for s in suggest(lex, grids[0], "1A", allow_repeats=True)]


JOBS: list[tuple[str, Any]] = [("moves", _moves), ("placements", _placements), ("fill", _fill)]


def outcomes(data: bytes, checks: list[tuple[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each check's answer (or "LexiconError") per engine; any other exception propagates."""
    out: dict[str, dict[str, Any]] = {}
    for kind in (["c"] if compiled.available() else []) + ["python"]:
        answers: dict[str, Any] = {}
        try:
            lex = lexigraph.Lexicon(fileformat.open_bytes(data), pure_python=kind == "python")
        except LexiconError:
            out[kind] = {"open": "LexiconError"}
            continue
        assert lex.engine.kind == kind
        for name, check in checks:
            try:
                answers[name] = check(lex)
            except LexiconError:
                answers[name] = "LexiconError"
        lex.close()
        out[kind] = answers
    return out


def assert_same_on_both_engines(data: bytes, checks: list[tuple[str, Any]] = QUERIES, *, strict: bool = False) -> None:
    """Each check: the same answer on the C and the Python engine, or a LexiconError (``strict``: on both)."""
    got = outcomes(data, checks)
    if "c" not in got:
        return
    c, py = got["c"], got["python"]
    assert ("open" in c) == ("open" in py)  # opening validates the same fields on both engines
    if strict:
        differ = [(n, c[n], py[n]) for n in c if c[n] != py[n]]
    else:
        differ = [(n, c[n], py[n]) for n in c if "LexiconError" not in (c[n], py[n]) and c[n] != py[n]]
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


def run_forgeries(forge: Any, n: int) -> None:
    """Run every case; print one JSON line per forged graph, then the counts (read by the tests below)."""
    import resource

    def peak_mib() -> int:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024

    good, _ = compile_source(GOOD_WORDS)
    assert_same_on_both_engines(good, QUERIES + JOBS, strict=True)
    good_fill = outcomes(good, [("fill", _fill)])["python"]["fill"]
    for data in forged_files(forge, good, 11, n):
        assert_same_on_both_engines(data)
    print(f"forged files checked: {n}")
    graphs = forged_graphs(forge, good)
    for how, arc, data in graphs:
        before = peak_mib()
        try:
            assert_same_on_both_engines(data, QUERIES)
            jobs = outcomes(data, JOBS)
        except AssertionError as e:
            raise AssertionError(f"{how} at arc {arc}: {e}") from None
        except Exception as e:  # never another exception: the case is named in the failure
            raise AssertionError(f"{how} at arc {arc}: {type(e).__name__}: {e}") from e
        # The fill reads the buckets, not the graph: it answers as on the good file.
        assert all(answer.get("fill") == good_fill for answer in jobs.values()), (how, arc, jobs)
        refused = {kind: answer.get("moves") == answer.get("placements") == "LexiconError"
                   for kind, answer in jobs.items()}
        grew = peak_mib() - before
        print(json.dumps({"how": how, "arc": arc, "refused": refused, "grew_mib": grew}))
    print(f"forged graphs checked: {len(graphs)}")


@pytest.fixture(scope="module")
def forged_report() -> tuple[str, list[dict[str, Any]]]:
    """The child's output and its forged-graph lines (run once for the tests of this file)."""
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
        "load('engine_forged', sys.argv[1] + '/test_forged.py').run_forgeries(forge, int(sys.argv[2]))\n"
    )
    result = subprocess.run([sys.executable, "-c", code, str(here), "300"], capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    cases = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return result.stdout, cases


def test_forged_files_give_the_same_answer_on_both_engines_or_an_error(forged_report):
    out, cases = forged_report
    assert "forged files checked: 300" in out
    assert f"forged graphs checked: {len(cases)}" in out
    assert {c["how"] for c in cases} == set(ARC_FORGERIES)


def test_forged_graphs_are_refused_by_the_move_generators(forged_report):
    _, cases = forged_report
    kinds = ["c", "python"] if compiled.available() else ["python"]
    for case in cases:
        if case["how"] != "back-edge to the root":
            assert case["refused"] == {kind: True for kind in kinds}, case


def test_a_back_edge_to_the_root_is_refused_by_the_move_generators(forged_report):
    _, cases = forged_report
    back = [c for c in cases if c["how"] == "back-edge to the root"]
    assert back and all(all(c["refused"].values()) for c in back), [c for c in back if not all(c["refused"].values())]


def test_a_back_edge_to_the_root_is_refused_in_bounded_memory(forged_report):
    _, cases = forged_report
    assert max(c["grew_mib"] for c in cases) < 256, sorted((c["grew_mib"], c["how"], c["arc"]) for c in cases)[-3:]
