"""The C extension lexigraph._native against the Python it mirrors: its limits, arc layout, hash and stub.

These read the module itself (not through ``c_module``), so they run with
``LEXIGRAPH_PURE_PYTHON`` set too; without a compiled module they are skipped.
"""

from __future__ import annotations

import ast
import random
import re
import string
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexigraph
from lexigraph.alphabet import MAX_TILES, Alphabet
from lexigraph.compiler.builder import compile_source
from lexigraph.crossword import fill as crossword_fill
from lexigraph.crossword.formats import grid_from_text
from lexigraph.engine import compiled, fileformat, interface, rotation, store, wordgraph
from lexigraph.engine.python import PythonEngine
from lexigraph.engine.python import movegen as python_movegen
from lexigraph.engine.store import little_endian_ints
from lexigraph.scrabble import game

native = pytest.importorskip("lexigraph._native", reason="the C extension lexigraph._native is not built")

PACKAGE = Path(lexigraph.__file__).parent
LIMITS = native.LIMITS


# -- limits: each entry of LIMITS is the number its Python twin holds or acts on ------------------------


def _multi_letter_alphabet(multi: int, key_length: int = 2) -> Alphabet:
    """An alphabet of the 26 letters and ``multi`` multi-letter tiles, the last ``key_length`` letters long."""
    pairs = [a + b for a in "bcd" for b in string.ascii_lowercase][: multi - 1] + ["q" * key_length]
    return Alphabet(list(string.ascii_lowercase) + pairs, name="multi")


def _hands_to_the_python_twin(lex: lexigraph.Lexicon, job: str) -> bool:
    """Whether the C engine hands ``job`` ("moves" or "fill") on ``lex`` to its Python twin (decided when the
    lexicon opens: the engine's methods for the job are then the twin's), and the job answers."""
    engine = lex.engine
    assert engine.kind == "c"
    if job == "moves":
        from lexigraph.scrabble.movegen import count_placements
        from lexigraph.scrabble.position import Position

        count_placements(lex, Position(game.Game.preset("scrabble").with_alphabet(lex.alphabet)), "AB")
        methods = ("game_tables", "generate_moves", "play_games", "solve_endgame", "simulate_plays",
                   "rack_leave_values")
    else:
        crossword_fill.fill(lex, grid_from_text(".."), rules=crossword_fill.Rules(allow_repeats=True))
        methods = ("filter_rows", "fill_state")
    handed = {isinstance(getattr(engine, name).__self__, PythonEngine) for name in methods}
    assert len(handed) == 1  # a job's methods go together
    return handed.pop()


def _wide_lexicon(n_tiles: int) -> lexigraph.Lexicon:
    greek, latin1 = "αβγδεζηθικλμνξοπρστυφχψω", "àáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿ"
    pool = string.ascii_lowercase + greek + latin1  # 81 one-letter tiles
    points = {t: 1 for t in pool[:n_tiles]}
    alphabet = Alphabet(list(pool[:n_tiles]), name="wide", counts={t: 2 for t in pool[:n_tiles]}, points=points)
    return lexigraph.open(["ab", "ba"], alphabet=alphabet)


@pytest.mark.parametrize("engine_kind", ["c"], indirect=True)
def test_every_limit_equals_its_python_twin(engine_kind: str) -> None:
    constants = {
        "MAX_WORD_LENGTH": store.MAX_LENGTH,
        "MAX_ALPHABET_TILES": MAX_TILES,
        "MAX_RACK_BLANKS": compiled.MAX_RACK_BLANKS,
        "MAX_ARCS": wordgraph.MAX_ARCS,
        "ROTATION_KEY_TILES": rotation.KEY_TILES,
        "MAX_BOARD_SIZE": game.MAX_SIZE,
        "MOVE_RECORD_SIZE": interface.MOVE_RECORD_SIZE,
        "MAX_RACK_SUBSETS": python_movegen.MAX_RACK_SUBSETS,
        "LEAVE_KEY_TILES": interface.LEAVE_KEY_TILES,
        "BLANK_FLAG": interface.BLANK_FLAG,
        "MAX_FILL_SLOT": crossword_fill.MAX_SLOT,
        "FILL_MAX_SHARED": crossword_fill.MAX_SHARED,
        "ENDGAME_MAX_RACK": interface.ENDGAME_MAX_RACK,
        "ENDGAME_MAX_TABLE_MB": interface.ENDGAME_MAX_TABLE_MB,
    }
    for name, value in constants.items():
        assert LIMITS[name] == value, name
    # Limits the Python side writes as a condition rather than a named constant: held by what it does.
    n = LIMITS["MAX_MOVE_TILE_CODES"]  # tile codes with the blank's 0: alphabets of n - 1 tiles
    assert not _hands_to_the_python_twin(_wide_lexicon(n - 1), "moves")
    assert _hands_to_the_python_twin(_wide_lexicon(n), "moves")
    n = LIMITS["FILL_MAX_TILE_CODES"]
    assert not _hands_to_the_python_twin(_wide_lexicon(n), "fill")
    assert _hands_to_the_python_twin(_wide_lexicon(n + 1), "fill")
    n = LIMITS["MAX_MULTI_LETTER_TILES"]
    assert _multi_letter_alphabet(n).latin1_program is not None
    assert _multi_letter_alphabet(n + 1).latin1_program is None
    n = LIMITS["MAX_MULTI_LETTER_KEY"]
    assert _multi_letter_alphabet(1, n).latin1_program is not None
    assert _multi_letter_alphabet(1, n + 1).latin1_program is None
    checked = set(constants) | {"MAX_MOVE_TILE_CODES", "FILL_MAX_TILE_CODES", "MAX_MULTI_LETTER_TILES",
                                "MAX_MULTI_LETTER_KEY"}
    assert checked == set(LIMITS)  # a new limit needs its twin named here


def test_limits_h_defines_exactly_the_exported_limits() -> None:
    header = (PACKAGE / "native" / "limits.h").read_text()
    defined = set(re.findall(r"^#define LX_(\w+) ", header, re.M)) - {"LIMITS"}
    assert defined == set(LIMITS)
    listed = set(re.findall(r"X\((\w+)\)", header))
    assert listed == set(LIMITS)


def test_the_c_paths_refuse_what_their_limits_exclude() -> None:
    width = LIMITS["MAX_FILL_SLOT"]
    with pytest.raises(ValueError):
        native.filter_rows(bytes(width + 1), width + 1, b"", [0] * (width + 1), b"")
    assert native.filter_rows(bytes(width), width, b"", [0] * width, b"")[0] is None
    longest = LIMITS["MAX_WORD_LENGTH"]
    with pytest.raises(ValueError):
        native.scan_ascii(b"cat\n", None, 1, longest + 1, 8 * longest)
    assert native.scan_ascii(b"cat\n", None, 1, longest, 8 * longest) is not None


# -- the fill's kernels check their arguments ------------------------------------------------------------


def test_filter_rows_checks_its_arguments() -> None:
    rows = np.ones((3, 2), np.uint8)
    f = native.filter_rows
    with pytest.raises(IndexError):
        f(rows, 2, np.array([5], np.int32), [2, 2], b"\0")
    with pytest.raises(ValueError):
        f(rows, 4, np.array([0], np.int32), [2, 2, 2, 2], b"")
    with pytest.raises(ValueError):
        f(rows, 2, np.array([0], np.int32), [2], b"")
    with pytest.raises(ValueError):
        f(rows, 2, np.array([0], np.int32), [2, 2], b"\x07")
    with pytest.raises(TypeError):
        f(rows, 2, [0], [2, 2], b"")
    with pytest.raises(OverflowError):
        f(rows, 2, np.array([0], np.int32), [2, -1], b"")
    assert f(rows, 2, np.array([0, 2], np.int32), [2, 2], b"\0\1") == (None, (2, 2))
    kept, used = f(rows, 2, np.array([0, 2], np.int32), [4, 2], b"\0")
    assert kept == b"" and used == (0, 0)


# -- fills against brute force on small generated lexicons -----------------------------------------


def test_fill_state_checks_its_arguments() -> None:
    F = native.FillState
    rows = np.ones((2, 2), np.uint8)
    wrap = lambda b: np.frombuffer(b, np.int32)  # noqa: E731
    start = [np.array([0, 1], np.int32)]

    def args(**change):
        base = dict(rows=[rows], cells=[[0, 1]], refs=[[(0, 0)], [(0, 1)]], complete=b"\x01", fixed=b"\x00",
                    groups=[[0]], repeats=False, shared=0, eager=8, given=[], cand=start, dom=array_q([2, 2]))
        base.update(change)
        problem = interface.PropagationProblem(base["rows"], base["cells"], base["refs"], base["complete"],
                                               base["fixed"], base["groups"], base["repeats"], base["shared"],
                                               base["eager"], base["given"])
        return problem, base["cand"], base["dom"], wrap

    state = F(*args())
    assert state.propagate({0: None}, [], None) == -1
    assert state.candidates(0).tolist() == [0, 1] and state.domains() == [2, 2]
    mark = state.mark()
    assert state.exclude(0, 1, None) == -1 and state.sizes() == [1] and state.singles() == [0]
    state.undo(mark)
    assert state.sizes() == [2] and state.trail_length == mark
    assert state.set_tile(0, 2, None) == 0  # tile 2 is not in the row: wiped out, slot 0
    for bad in (
        args(cells=[[0, 5]]),  # cell out of range
        args(complete=b""),  # one flag per slot
        args(cells=[[0, 1, 1]]),  # width
        args(refs=[[(3, 0)], [(0, 1)]]),  # slot out of range
        args(shared=1),  # a run of one tile
        args(shared=11),  # longer than a 64-bit key holds
        args(eager=-1),
        args(dom=array_q([2])),  # one domain per cell
        args(rows=(rows,)),  # a field of the wrong type
        (object(), start, array_q([2, 2]), wrap),  # not a problem
    ):
        with pytest.raises((ValueError, TypeError)):
            F(*bad)
    with pytest.raises(IndexError):
        F(*args(cand=[np.array([7], np.int32)]))
    with pytest.raises(ValueError):
        state.propagate({0: {9}}, [], None)
    with pytest.raises(ValueError):
        state.assign(0, 5, None)  # not a candidate
    with pytest.raises(ValueError):
        state.undo(state.mark() + 1)


def array_q(values):
    from array import array

    return array("Q", values)


# -- the arc layout ------------------------------------------------------------------------------------


def test_arc_layout_is_the_python_one() -> None:
    assert native.ARC_LAYOUT == (
        wordgraph.TILE_MASK, wordgraph.ACCEPTS_BIT, wordgraph.LAST_BIT, wordgraph.TARGET_SHIFT, wordgraph.RECORD_SIZE
    )
    header = (PACKAGE / "native" / "arc.h").read_text()
    assert "LX_TARGET_SHIFT 32" in header and "LX_RECORD_SIZE 8" in header


# -- the hash: one formula for the probe and the builder -------------------------------------------------


def test_home_slot_is_zlibs_crc32_scaled() -> None:
    rng = random.Random(20240611)
    homes = [0, 1, 2, 3, 1000, (1 << 31) + 7, (1 << 32) - 1]
    for length in range(0, 41):  # every tail the four-bytes-a-step loop leaves
        for _ in range(6):
            codes = bytes(rng.randrange(256) for _ in range(length))
            for home in homes + [rng.randrange(1, 1 << 32)]:
                assert native.home_slot(codes, home) == (zlib.crc32(codes) * home) >> 32
    assert native.home_slot(bytearray(b"abc"), 7) == native.home_slot(memoryview(b"abc"), 7)
    with pytest.raises(ValueError):
        native.home_slot(b"abc", 1 << 32)
    with pytest.raises(ValueError):
        native.home_slot(b"abc", -1)


@pytest.mark.parametrize("builder", ["C", "NumPy"])
def test_built_tables_place_every_word_from_its_home_slot(builder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The builder asks c_module at every build: the C builder runs even when the session is pure Python.
    if builder == "NumPy":
        monkeypatch.setenv("LEXIGRAPH_PURE_PYTHON", "1")
    else:
        monkeypatch.delenv("LEXIGRAPH_PURE_PYTHON", raising=False)
    rng = random.Random(7)
    words = sorted({"".join(rng.choice("abcdefgh") for _ in range(rng.randrange(2, 12))) for _ in range(3000)})
    data, _ = compile_source(words)
    lex = lexigraph.Lexicon(fileformat.open_bytes(data))
    buf = memoryview(lex.store.buffer)
    for bucket in lex.store.buckets:
        t = bucket.hash
        slots = little_endian_ints(buf[t.offset : t.offset + t.slots * t.width], "H" if t.width == 2 else "I")
        rows = bytes(buf[bucket.offset : bucket.offset + bucket.count * bucket.length])
        where = {int(v) - 1: s for s, v in enumerate(slots) if v}
        assert sorted(where) == list(range(bucket.count))
        for row, slot in where.items():
            key = rows[row * bucket.length : (row + 1) * bucket.length]
            home = native.home_slot(key, t.home)
            assert home <= slot and all(slots[s] for s in range(home, slot))  # probed forward from home
            assert lex.engine.id_of_codes(key) == bucket.first + row
    buf.release()
    lex.close()


# -- the stub: exactly the names the module exports ------------------------------------------------------


def _stub() -> ast.Module:
    return ast.parse((PACKAGE / "_native.pyi").read_text())


def _defined(body: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def test_the_stub_lists_exactly_what_the_module_exports() -> None:
    stub = _stub()
    public = {name for name in dir(native) if not name.startswith("_")}
    assert {name for name in _defined(stub.body) if not name.startswith("_")} == public
    classes = {node.name: node for node in stub.body if isinstance(node, ast.ClassDef)}
    for name in ("Probe", "Facade", "FillState", "GameTables"):
        own = {m for m in vars(getattr(native, name)) if not (m.startswith("__") and m.endswith("__"))}
        typed = {m for m in _defined(classes[name].body) if not (m.startswith("__") and m.endswith("__"))}
        assert typed == own, name


def test_the_types_are_named_in_the_module() -> None:
    for name in ("Probe", "Facade", "FillState", "GameTables"):
        assert getattr(native, name).__module__ == "lexigraph._native"
        assert getattr(native, name).__qualname__ == name


# -- the move generator on forged graphs --------------------------------------------------------------


@settings(max_examples=200)
@given(records=st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=40), root=st.integers(0, 50),
       cells=st.lists(st.integers(0, 6), min_size=25, max_size=25), rack=st.lists(st.integers(0, 3), min_size=5,
                                                                                   max_size=5))
def test_the_c_generator_survives_forged_graphs(records, root, cells, rack):
    """Arcs pointing anywhere, tiles outside the alphabet: whole records, or ValueError; never a crash."""
    import struct

    from lexigraph.engine.interface import MOVE_RECORD_SIZE

    graph = struct.pack(f"<{len(records)}Q", *records)
    masks = struct.pack(f"<{len(records)}Q", *[r ^ (r >> 7) for r in records])
    tables = native.GameTables(interface.BoardLayout(5, 12, bytes([1] * 25), bytes([1] * 25)),
                               interface.TileSet(bytes([1, 2, 3, 4, 5]), bytes([2] * 5), b"", 4, 20),
                               interface.PackedLeaves(), (graph, masks, root))
    try:
        buf, count = native.generate_moves(interface.MoveRequest(tables, bytes(cells), bytes(25), bytes(rack)))
    except ValueError:
        return
    assert len(buf) == count * MOVE_RECORD_SIZE
