"""Move generation side by side with wolges (Rust, KWG) and scrabble-solver (Node, GADDAG), TWL06, in one run.

Positions: the peers' shared positions file (empty boards and a mid-game
board) and mid-game boards made here by playing the best move from a seeded
bag, with racks of 0, 1 and 2 blanks. Leave table: NWL18
(``$LEXIGRAPH_SHARED_DATA/nwl18-leaves.klv2``; wolges reads the same file).

Each round runs every contender on every position (rounds interleave, so a
busy machine slows all alike): wolges's ``movegen-bench`` (``--mode raw``:
every legal move, no values; ``--mode ranked --klv --exchanges``: every
move and exchange valued by equity and sorted), scrabble-solver (every move
as objects), then lexigraph:

* ``count``: the C generator's work for every move (``count_placements``);
* ``top 20``: the best 20 moves and exchanges by equity (``generate(top=20,
  leaves=..., count_all=False)``): the generator keeps them in a bounded heap
  and skips the anchors whose shadow bound cannot beat the heap's worst;
  ``counted`` is the same with every play counted (``count_all=True``, the
  default: no anchor skipped);
* ``columns``: every move as NumPy columns with its equity (``generate_columns``);
* ``all``: every move ranked by equity as a ``MoveList`` (``generate()``;
  each ``Move`` is built when looked at);
* ``built``: the same with every ``Move`` built (one call a round: it is slow).

Times are thread CPU time (wolges: CLOCK_THREAD_CPUTIME_ID; lexigraph:
``time.thread_time``; scrabble-solver: its process CPU time), the median of
``--runs`` calls per round, then the median over rounds (the range in
brackets). Ratios are the peer's time over lexigraph's: above 1, lexigraph is
faster. The targets of issue 22: top 20 by equity at or below wolges's
ranking of every move (>= 1x), columns within 3x of wolges's raw generation
(>= 0.33x), every move as a MoveList at least 10x scrabble-solver.

    python bench/bench_moves.py [--rounds 5] [--runs 5]

Peers missing (``../shared/peers/*/setup.sh`` builds them in
``$LEXIGRAPH_PEERS``, default ``~/.cache/lexigraph-peers``): their columns
are skipped with a note.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from common import DATA, data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.leaves import LeaveTable  # noqa: E402
from lexigraph.scrabble.movegen import count_placements, generate, generate_columns  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402

SCRIPTS = Path(os.environ.get("LEXIGRAPH_PEER_SCRIPTS", DATA.parent / "peers"))
PEERS = Path(os.environ.get("LEXIGRAPH_PEERS", Path.home() / ".cache" / "lexigraph-peers"))
WOLGES = PEERS / "wolges" / "target" / "release" / "movegen-bench"
WOLGES_KWG = PEERS / "data" / "TWL06.kwg"
MIDGAME_RACKS = ["AEINRST", "AALNST?", "EIOQRTU", "AEINR??"]


def midgame_positions(lex: lexigraph.Lexicon, game: Game, seeds: list[int], turns: int) -> list[Position]:
    """Boards reached by both sides playing the top-scoring move from a shuffled bag."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        bag = [game.alphabet.label(c).upper() if c else "?" for c, n in enumerate(game.counts_by_code())
               for _ in range(n)]
        rng.shuffle(bag)
        pos = Position(game)
        racks: list[list[str]] = [[], []]
        for turn in range(turns):
            rack = racks[turn % 2]
            while len(rack) < 7 and bag:
                rack.append(bag.pop())
            moves = generate(lex, pos, "".join(rack), top=1)
            if not moves:
                continue
            m = moves[0]
            pos = pos.with_play(m)
            for t in m.tiles:
                rack.remove("?" if t.blank else t.tile.upper())
        out.append(pos)
    return out


def cpu_us(fn, runs: int) -> float:
    """Median thread CPU microseconds of ``runs`` calls."""
    times = []
    for _ in range(runs):
        c = time.thread_time()
        fn()
        times.append(time.thread_time() - c)
    return statistics.median(times) * 1e6


def run_wolges(cgp: Path, runs: int, *options: str) -> list[dict]:
    out = subprocess.run([str(WOLGES), str(WOLGES_KWG), str(cgp), str(runs), "2", *options], capture_output=True,
                         text=True, check=True, timeout=3600).stdout
    return [json.loads(line) for line in out.splitlines() if '"name"' in line]


def setup_solver() -> Path | None:
    if shutil.which("node") is None or not (SCRIPTS / "scrabble-solver" / "setup.sh").exists():
        return None
    try:
        got = subprocess.run(["sh", str(SCRIPTS / "scrabble-solver" / "setup.sh")], capture_output=True, text=True,
                             check=True, timeout=600)
    except (subprocess.SubprocessError, OSError) as e:
        print(f"note: scrabble-solver's setup failed ({e}); its columns are skipped", file=sys.stderr)
        return None
    return Path(got.stdout.strip().splitlines()[-1])


def run_solver(solver: Path, words: Path, positions: Path, runs: int) -> list[dict]:
    out = subprocess.run(["node", str(solver / "moves.js"), str(words), str(positions), str(runs), "2"],
                         capture_output=True, text=True, check=True, timeout=3600)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{") and '"name"' in line]


def med(values: list[float]) -> str:
    if not values:
        return "-"
    m = statistics.median(values)
    return f"{m:,.0f}" if m >= 100 else f"{m:,.1f}"


def ratio(peer: list[float], ours: list[float]) -> tuple[str, float | None]:
    """The median over rounds of peer / ours, and its range."""
    per = [p / max(o, 1e-3) for p, o in zip(peer, ours)]
    if not per:
        return "-", None
    m = statistics.median(per)
    return f"{m:.2f}x ({min(per):.2f}-{max(per):.2f})", m


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    words = data_file("twl06.txt")
    klv = data_file("nwl18-leaves.klv2")
    leaves = LeaveTable.read(klv)
    tmp = Path(tempfile.mkdtemp())
    lexigraph.build(words, tmp / "twl06.lex")
    lex = lexigraph.open(tmp / "twl06.lex")
    game = Game.preset("scrabble")

    rows: list[tuple[str, Position, str]] = []
    shared_positions = SCRIPTS / "scrabble-solver" / "positions.json"
    if shared_positions.exists():
        for p in json.loads(shared_positions.read_text()):
            pos = Position.from_text("\n".join(p["board"]), game)
            for r, c in p.get("blanks", []):
                pos.blanks[r * 15 + c] = True
            rows.append((p["name"], pos, p["rack"]))
    for k, pos in enumerate(midgame_positions(lex, game, [11, 22, 33], 8), 2):
        for rack in MIDGAME_RACKS:
            rows.append((f"midgame-{k}", pos, rack))
    cgp = tmp / "positions.cgp"
    lines = []
    for k, (name, pos, rack) in enumerate(rows):
        p = pos.copy()
        p.racks = [rack, ""]
        lines.append(p.to_cgp().split(" lex")[0] + f" lex TWL06; gid {k}-{name};")
    cgp.write_text("\n".join(lines) + "\n")
    solver_json = tmp / "positions.json"
    solver_json.write_text(json.dumps([{"name": f"{k}-{name}", "rack": rack,
                                        "board": [r.lower() for r in pos.board_text().splitlines()]}
                                       for k, (name, pos, rack) in enumerate(rows)]))
    lower = tmp / "twl06.lower.txt"
    lower.write_text(words.read_text().lower())

    have_wolges = WOLGES.exists() and WOLGES_KWG.exists()
    if not have_wolges:
        print(f"note: {WOLGES} or {WOLGES_KWG} is missing: wolges's columns are skipped", file=sys.stderr)
    solver = setup_solver()
    if solver is None:
        print("note: Node or scrabble-solver is missing: its columns are skipped", file=sys.stderr)

    names = ["count", "top20", "counted", "columns", "all", "built", "w_raw", "w_ranked", "solver"]
    t: dict[str, list[list[float]]] = {n: [[] for _ in rows] for n in names}
    counts = [count_placements(lex, pos, rack) for _n, pos, rack in rows]
    w_counts: list[int | None] = [None] * len(rows)
    w_best: list[float | None] = [None] * len(rows)
    ours_best = [generate(lex, pos, rack, top=1, leaves=leaves)[0].equity for _n, pos, rack in rows]
    for _ in range(args.rounds):
        if have_wolges:
            for k, res in enumerate(run_wolges(cgp, args.runs, "--mode", "raw")):
                t["w_raw"][k].append(res["cpu_median_us"])
                w_counts[k] = res["placements_both_directions"]
            for k, res in enumerate(run_wolges(cgp, args.runs, "--mode", "ranked", "--klv", str(klv), "--exchanges")):
                t["w_ranked"][k].append(res["cpu_median_us"])
                w_best[k] = res["best_equity"]
        if solver is not None:
            for k, res in enumerate(run_solver(solver, lower, solver_json, args.runs)):
                t["solver"][k].append(res["cpu_median_ms"] * 1000)
        for k, (_name, pos, rack) in enumerate(rows):
            t["count"][k].append(cpu_us(lambda: count_placements(lex, pos, rack), args.runs))
            t["top20"][k].append(cpu_us(lambda: generate(lex, pos, rack, top=20, leaves=leaves, count_all=False),
                                        args.runs))
            t["counted"][k].append(cpu_us(lambda: generate(lex, pos, rack, top=20, leaves=leaves), args.runs))
            t["columns"][k].append(cpu_us(lambda: generate_columns(lex, pos, rack, leaves=leaves), args.runs))
            t["all"][k].append(cpu_us(lambda: generate(lex, pos, rack, leaves=leaves), args.runs))
            t["built"][k].append(cpu_us(lambda: list(generate(lex, pos, rack, leaves=leaves)), 1))

    print(f"machine: {os.cpu_count()} cores; load at the end: {os.getloadavg()[0]:.2f} (1 min); "
          f"{args.rounds} rounds x {args.runs} calls; thread CPU microseconds, medians over rounds")
    print()
    print("| # | position | rack | moves | lexigraph count | wolges raw | top 20 by equity | counted | wolges ranked | "
          "ratio ranked/top20 | columns | ratio raw/columns | all (MoveList) | all built | scrabble-solver | "
          "ratio solver/all |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for k, (name, _pos, rack) in enumerate(rows):
        same = "" if w_counts[k] is None or w_counts[k] == counts[k] else f" (wolges {w_counts[k]})"
        r1, _ = ratio(t["w_ranked"][k], t["top20"][k])
        r2, _ = ratio(t["w_raw"][k], t["columns"][k])
        r3, _ = ratio(t["solver"][k], t["all"][k])
        print(f"| {k} | {name} | {rack} | {counts[k]:,}{same} | {med(t['count'][k])} | {med(t['w_raw'][k])} | "
              f"{med(t['top20'][k])} | {med(t['counted'][k])} | {med(t['w_ranked'][k])} | {r1} | "
              f"{med(t['columns'][k])} | {r2} | "
              f"{med(t['all'][k])} | {med(t['built'][k])} | {med(t['solver'][k])} | {r3} |")
    print()

    def total(name: str) -> list[float]:
        """Per round, the sum over positions."""
        return [sum(t[name][k][r] for k in range(len(rows))) for r in range(args.rounds)] if t[name][0] else []

    for peer_name, ours_name, label in (("w_ranked", "top20", "wolges ranked (every move) / lexigraph top 20"),
                                        ("w_ranked", "counted", "wolges ranked / lexigraph top 20, every play counted"),
                                        ("w_raw", "count", "wolges raw / lexigraph count"),
                                        ("w_raw", "columns", "wolges raw / lexigraph columns"),
                                        ("solver", "all", "scrabble-solver / lexigraph every move (MoveList)"),
                                        ("solver", "built", "scrabble-solver / lexigraph every Move built")):
        peer, ours = total(peer_name), total(ours_name)
        if peer and ours:
            text, _ = ratio(peer, ours)
            print(f"total over positions: {label}: {text}; sums {med(peer)} / {med(ours)} us")
    targets = (("w_ranked", "top20", "ranked/top20", 1.0), ("w_raw", "columns", "raw/columns", 1 / 3),
               ("solver", "all", "solver/all", 10.0))
    for peer_name, ours_name, label, target in targets:
        per_row = [ratio(t[peer_name][k], t[ours_name][k])[1] for k in range(len(rows)) if t[peer_name][k]]
        per_row = [r for r in per_row if r is not None]
        if per_row:
            met = sum(1 for r in per_row if r >= target)
            print(f"per position, {label}: lowest {min(per_row):.2f}x, median {statistics.median(per_row):.2f}x, "
                  f"rows >= target ({target:.2f}x): {met} of {len(per_row)}")
    if any(w is not None for w in w_best):
        worst = max(abs((w or 0) - o) for w, o in zip(w_best, ours_best) if w is not None)
        print(f"best equity, lexigraph against wolges: largest difference {worst:.4f} over {len(rows)} positions")
    if any(w is not None and w != c for w, c in zip(w_counts, counts)):
        print("move counts differ from wolges's", file=sys.stderr)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
