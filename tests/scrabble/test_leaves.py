"""Leave tables (scrabble/leaves.py, formats/klv.py): CSV, KLV and KLV2 round trips on generated tables, the real
NWL18 table against its CSV and against wolges's KLV2 byte for byte, hostile files, and the engines' leave lookups
against a dictionary."""

from __future__ import annotations

import base64
import random
import struct
from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexigraph.alphabet import Alphabet
from lexigraph.formats import klv
from lexigraph.scrabble.leaves import LeaveError, LeaveTable
from lexigraph.scrabble.position import Position

ENGLISH = Alphabet.preset("english")


def f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


leave_codes = st.lists(st.integers(0, 26), min_size=1, max_size=6).map(lambda c: bytes(sorted(c)))
tables = st.dictionaries(leave_codes, st.floats(-100, 100, allow_nan=False, width=32), max_size=60)


@settings(max_examples=80)
@given(values=tables)
def test_round_trips_through_csv_klv2_and_klv(values):
    table = LeaveTable(values)
    assert dict(table.items()) == {bytes(sorted(k)): v for k, v in values.items()}
    assert LeaveTable.from_csv(table.to_csv()) == table
    data = table.to_klv2()
    assert klv.kind_of(data) == "klv2"
    assert LeaveTable.from_bytes(data) == table
    # KLV holds 1/256 points: values on that grid come back exactly
    grid = LeaveTable({k: round(v * 256) / 256 for k, v in values.items()})
    klv_data = grid.to_bytes("klv")
    assert klv.kind_of(klv_data) == ("klv" if values else "klv2")  # no values: the two kinds are the same bytes
    assert LeaveTable.from_bytes(klv_data) == grid
    for leave, value in values.items():
        text = table.text(bytes(sorted(leave)))
        assert table.value(text) == value == table.value(leave[::-1])


def test_empty_and_single_tables():
    empty = LeaveTable({})
    assert empty.to_klv2() == b"\x01\x00\x00\x00\x00\x00\x40\x00\x00\x00\x00\x00"  # wolges's empty KLV
    assert LeaveTable.from_bytes(empty.to_klv2()) == empty and len(empty) == 0
    one = LeaveTable.from_csv("leave,value\nq,-7.5\n")
    assert dict(one.items()) == {b"\x11": -7.5} and one.value("Q") == -7.5 and one.value("QQ") == 0.0


def test_multi_letter_tiles_in_csv_and_klv2():
    spanish = Alphabet.preset("spanish")
    table = LeaveTable.from_csv("[CH]A,2.5\n[LL][RR]?,-1.25\nÑ,3.0\n", spanish)
    assert table.value("A[CH]") == 2.5 and table.value("?[RR][LL]") == -1.25 and table.value("ñ") == 3.0
    assert LeaveTable.from_bytes(table.to_klv2(), spanish) == table
    assert LeaveTable.from_csv(table.to_csv(), spanish) == table


@pytest.mark.parametrize("text, message", [
    ("S,1\nT,abc\n", "not a number"),
    ("S,1\nS,2\n", "listed twice"),
    ("S,1\n1,2\n", "not made of tiles"),
    ("S,inf\n", "not a finite number"),
    ("S,1,2\n", "expected 'leave,value'"),
    ("S,1e40\n", "not a finite number"),  # beyond a float32: infinite, as Rust reads it
])
def test_bad_csv_lines(text, message):
    with pytest.raises(LeaveError, match=message):
        LeaveTable.from_csv(text)


def test_hostile_files_fail_cleanly(tmp_path):
    data = LeaveTable.from_csv("S,8\nES,9\n?,25\nQ,-7\n").to_klv2()
    for end in range(len(data)):
        try:
            LeaveTable.from_bytes(data[:end])
        except LeaveError:
            continue
    rng = random.Random(5)
    for _ in range(300):
        forged = bytearray(data)
        for _ in range(rng.randint(1, 6)):
            forged[rng.randrange(len(forged))] = rng.randrange(256)
        try:
            LeaveTable.from_bytes(bytes(forged))
        except LeaveError:
            pass
    with pytest.raises(LeaveError, match="cannot read"):
        LeaveTable.read(tmp_path / "missing.klv2")
    (tmp_path / "binary.klv2").write_bytes(b"\xff\xfe\x00\x01" * 10)
    with pytest.raises(LeaveError):
        LeaveTable.read(tmp_path / "binary.klv2")


@settings(max_examples=60)
@given(data=st.binary(max_size=200))
def test_random_bytes_never_crash(data):
    try:
        LeaveTable.from_bytes(b"\x02\x00\x00\x00" + data)
    except LeaveError:
        pass


# -- the real table -----------------------------------------------------------------------------------


def test_nwl18_klv2_equals_its_csv_and_wolges_bytes(shared):
    csv_path, klv2_path = shared("nwl18-leaves.csv"), shared("nwl18-leaves.klv2")
    from_csv = LeaveTable.read(csv_path)
    from_klv2 = LeaveTable.read(klv2_path)
    assert len(from_csv) == len(from_klv2) == 3909
    for line in csv_path.read_text().splitlines():
        leave, value = line.split(",")
        assert from_klv2.value(leave) == f32(float(value)) == from_csv.value(leave), leave
    assert from_csv.to_klv2() == klv2_path.read_bytes()  # byte for byte what wolges's buildlex wrote


def test_nwl18_equals_the_peers_copy(shared, peer):
    assert LeaveTable.read(peer("data/nwl18.klv2")).to_klv2() == shared("nwl18-leaves.klv2").read_bytes()


# -- the engines' leave lookups --------------------------------------------------------------------------


def subsets_oracle(table: dict[bytes, float], rack: list[int]) -> list[float]:
    """Every subset of the rack used, in mixed-radix index order (codes ascending, the first turning fastest):
    the kept leave looked up in a dictionary."""
    counts = sorted(Counter(rack).items())
    out = []
    for used in product(*[range(n + 1) for _c, n in reversed(counts)]):
        kept = []
        for (code, n), u in zip(counts, reversed(used)):
            kept += [code] * (n - u)
        out.append(table.get(bytes(sorted(kept)), 0.0))
    return out


@settings(max_examples=60)
@given(values=tables, rack=st.lists(st.integers(0, 26), min_size=1, max_size=8))
def test_rack_leave_values_equal_a_dictionary(open_lexicon, values, rack):
    engine = open_lexicon().engine
    table = LeaveTable(values)
    keys, packed = table.packed
    counts = bytearray(27)
    for c in rack:
        counts[c] += 1
    got = engine.rack_leave_values(keys, packed, bytes(counts))
    size = len(got) // 8
    assert list(struct.unpack(f"<{size}d", got)) == subsets_oracle(dict(table.items()), rack)


def test_rack_values_use_the_engine_or_not_alike(enable):
    from lexigraph.scrabble import equity
    from lexigraph.scrabble.game import Game

    table = LeaveTable.from_csv("S,8\nES,9\n?,25\nQ,-7\nEE,-3\nEES,1\n")
    pos = Position(Game.preset("scrabble"))
    for rack in ("EES?QT", "SSSS", "Q", "EEEEEEE"):
        codes = [0 if t == "?" else ENGLISH.code(t) for t in rack]
        assert equity.rack_values(pos, codes, table, engine=enable.engine) == \
            equity.rack_values(pos, codes, table) == subsets_oracle(dict(table.items()), codes)


def test_a_leave_table_over_http_is_its_content():
    from lexigraph.commands import Context
    from lexigraph.commands.moves import MOVES

    table = LeaveTable.from_csv("S,8.5\n")
    ctx = Context(options={"files": False})
    for spec in ("S,8.5", "base64:" + base64.b64encode(table.to_klv2()).decode()):
        doc = MOVES.run(ctx, {"position": "empty", "rack": "QUIZS", "top": 1, "leaves": spec})
        assert doc["results"][0]["equity"] == 44 - 0.7 + 8.5
    with pytest.raises(LeaveError):
        MOVES.run(ctx, {"position": "empty", "rack": "QUIZS", "leaves": "base64:%%%"})
    with pytest.raises(LeaveError, match="give the leave table itself"):
        MOVES.run(ctx, {"position": "empty", "rack": "QUIZS", "leaves": "leaves.klv2"})


@settings(max_examples=60)
@given(values=tables, probes=st.lists(leave_codes, max_size=10))
def test_a_table_read_in_bulk_equals_the_one_read_leave_by_leave(values, probes):
    """klv.read_arrays (what LeaveTable.from_bytes uses: no object per leave) against the table written (each
    value the float32 nearest it), and the table's lookups from the arrays (a binary search) against a dict."""
    data = LeaveTable(values).to_klv2()
    rows, lengths, got = klv.read_arrays(data)
    expected = {bytes(sorted(k)): f32(v) for k, v in values.items()}
    assert {bytes(r[:n]): v for r, n, v in zip(rows.tolist(), lengths.tolist(), got.tolist())} == expected
    assert klv.read(data) == expected
    assert [bytes(r[:n]) for r, n in zip(rows.tolist(), lengths.tolist())] == sorted(expected)  # the file's order
    bulk = LeaveTable.from_bytes(data)
    for leave in list(values) + probes:
        assert bulk.value(leave) == expected.get(bytes(sorted(leave)), 0.0)
    assert len(bulk) == len(expected) and bulk == LeaveTable(expected)
    spanish = Alphabet.preset("spanish")  # another alphabet's codes: remapped in bulk as leave by leave
    assert bulk.for_alphabet(spanish) == LeaveTable(expected).for_alphabet(spanish)
