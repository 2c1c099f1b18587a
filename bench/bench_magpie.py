"""Issue 34: lexigraph beside MAGPIE in one run: best move, every move, self-play and simulation (TWL06).

    MAGPIE_BENCH=/work/peers/magpie/bin/magpie_bench python bench/bench_magpie.py [--rounds 5] [--runs 7]
    python bench/bench_magpie.py --only moves          # or selfplay, sim, threads [--threads 2]

MAGPIE runs through its timing harness ``magpie_bench`` (``../shared/peers/magpie/README.md``; ``MAGPIE_DIR``
defaults to the harness's ``../..``), lexigraph in this process; both on TWL06 with the same leave table (the
shipped ``english-leaves.klv2``, which MAGPIE's set-up copies to ``lexica/TWL06.klv2``), one thread each, rounds
interleaved (MAGPIE's round, then lexigraph's, on the same inputs). Medians over rounds, ranges in brackets;
ratios are lexigraph's speed over MAGPIE's (above 1, lexigraph is faster).

* **best move** by equity on 16 positions (12 of MAGPIE's test positions, 4 of scrabble-solver's):
  ``generate(top=1, count_all=False)`` against MAGPIE's best-move generation, with (``wmp``) and without
  (``kwg``) its word map; thread CPU time, the median of ``--runs`` calls per round; lexigraph with its word map
  (beside the lexicon or cached; built on the first run) bounding the generation, and without it;
* **every move ranked**: ``generate()`` (a ranked ``MoveList``: plays, exchanges) against MAGPIE's move list
  sorted by equity, word map on;
* **self-play**: games per CPU second, static equity players both sides with the shipped table
  (``autoplay``, one worker) against MAGPIE's ``autoplay ... -s1 equity -s2 equity -gp true -threads 1``;
  process CPU time;
* **simulation**: play-outs per CPU second, the 5 best candidates, 2 plies, no early stop
  (``simulate(stopping=False)``) against ``gsim -numplays 5 -plies 2 -sr rr -threshold none``;
* **threads** (lexigraph alone): self-play and simulation on ``--threads`` C threads (default 2) against one
  thread in the same process, rounds interleaved: per wall second, per CPU second (all threads), the CPU seconds
  per thread, the wall-time speed-up, and whether the records are the same bytes.

Checks printed with the figures: the best move (notation) and its equity equal on every position, and the
counts of placements and exchanges equal (on an empty board both list the across plays only: docs/games.md,
"Symmetric openings"). Without ``MAGPIE_BENCH`` (or with it missing) the script says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.leaves import LeaveTable, load_leaves  # noqa: E402
from lexigraph.scrabble.movegen import generate  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402
from lexigraph.scrabble.runs import autoplay  # noqa: E402
from lexigraph.scrabble.selfplay import Player  # noqa: E402
from lexigraph.scrabble.simulation import simulate  # noqa: E402
from lexigraph.scrabble.tables import WORD_MAP_VARIABLE, game_tables  # noqa: E402

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
PEER = "15/15/15/15/5COZY6/5L9/5I9/5PLANET4/8I6/8G6/8H6/6WATER4/10A4/10V4/10E4"
MID2 = "15/15/15/15/15/5QI3D1AVA/4W1LABRETS2/3ZONER2BY3/4VOX3OE3/4E5NE3/4N5I4/4S5N4/10g4/15/15"
MID3 = "15/15/15/15/15/15/2R3I8/GRIM1SNAFUED3/2C3D8/2O2ZANIER4/2T3G8/2TERRAPIN5/2A2AT1FOWLS2/5WE8/15"
MID4 = "15/15/15/15/15/6V8/6O8/5EGO7/6I8/5WE8/5U9/5R5FAVE/2QATS3SWIM2/5T2LOONIE1/5SHOO6"
#: The 16 positions (board, rack of the player on turn; the opponent's rack unknown, scores 0).
POSITIONS = [(EMPTY, "AALNST?"), (EMPTY, "AEINRST"), (EMPTY, "EEIIOUU"), (EMPTY, "QZXJKA?"),
             (PEER, "AALNST?"), (PEER, "AEINRST"), (PEER, "AEINR??"),
             (MID2, "AEINRST"), (MID2, "AALNST?"),
             (MID3, "AEINRST"), (MID3, "AALNST?"), (MID3, "EIOQRTU"), (MID3, "AEINR??"),
             (MID4, "AEINRST"), (MID4, "AALNST?"), (MID4, "AEINR??")]
#: The simulated positions (bag non-empty): rows of POSITIONS.
SIM_ROWS = (7, 11)
SIM_COMMAND = ("gsim -numplays 5 -plies 2 -iterations {n} -sr rr -threshold none -minp 1 -sinfer false "
               "-seed {seed} -pfrequency 0")
AUTOPLAY_COMMAND = "autoplay games {pairs} -s1 equity -s2 equity -r1 best -r2 best -gp true -threads 1 -seed {seed}"


def cgp(row: int) -> str:
    board, rack = POSITIONS[row]
    return f"{board} {rack}/ 0/0 0"


class Magpie:
    """MAGPIE's timing harness: one subprocess per round (its configuration loads outside every timing)."""

    def __init__(self, harness: Path, data: Path) -> None:
        self.harness, self.data = harness, data
        self.positions = Path(tempfile.mkdtemp()) / "positions.cgp"
        self.positions.write_text("".join(cgp(k) + "\n" for k in range(len(POSITIONS))))

    def settings(self, wmp: bool) -> str:
        return (f"set -lex TWL06 -wmp {'true' if wmp else 'false'} -threads 1 -savesettings false "
                "-s1 equity -s2 equity -r1 all -r2 all")

    def run(self, wmp: bool, *args: str) -> list[dict[str, Any]]:
        out = subprocess.run([str(self.harness), str(self.data), self.settings(wmp), *args], capture_output=True,
                             text=True, check=True, timeout=3600).stdout
        return [json.loads(line[6:]) for line in out.splitlines() if line.startswith("BENCH ")]

    def movegen(self, runs: int, wmp: bool) -> list[dict[str, Any]]:
        return self.run(wmp, "movegen", str(self.positions), str(runs), "0")

    def autoplay(self, pairs: int, seed: int) -> float:
        """Games per process CPU second."""
        [row] = self.run(True, "autoplay", AUTOPLAY_COMMAND.format(pairs=pairs, seed=seed))
        return 2 * pairs / float(row["cpu_s"])

    def simulate(self, row: int, playouts: int, seed: int) -> tuple[float, str]:
        """Play-outs per process CPU second, and the best candidate."""
        [out] = self.run(True, "cmd", cgp(row), SIM_COMMAND.format(n=playouts, seed=seed))
        return int(out["iterations"]) / float(out["cpu_s"]), str(out["best"])


def magpie_notation(text: str) -> str:
    """MAGPIE's notation in lexigraph's: an exchange ``(exch ABC)`` is ``-ABC``."""
    return "-" + text[6:-1] if text.startswith("(exch ") else text


def thread_median(fn: Callable[[], Any], runs: int) -> float:
    """The median thread CPU time of ``runs`` calls, in µs (after one untimed call, as MAGPIE's harness does)."""
    fn()
    times = []
    for _ in range(runs):
        t = time.thread_time()
        fn()
        times.append(time.thread_time() - t)
    return statistics.median(times) * 1e6


def fmt(values: list[float], digits: int = 0) -> str:
    return f"{statistics.median(values):,.{digits}f} [{min(values):,.{digits}f}-{max(values):,.{digits}f}]"


def ratio(peer: list[float], ours: list[float]) -> float:
    """Peer time over ours (speeds: ours over the peer's)."""
    return statistics.median(peer) / statistics.median(ours)


def lexicon(magpie_dir: Path | None) -> lexigraph.Lexicon:
    """TWL06, with its word map (beside it or in the cache; built and cached on the first run)."""
    built = magpie_dir / "data" / "lexica" / "TWL06.lex" if magpie_dir else None
    if built is not None and built.exists():
        lex = lexigraph.open(built)
    else:
        path = os.path.join(tempfile.mkdtemp(), "twl06.lex")
        lexigraph.build(data_file("twl06.txt"), path, name="TWL06")
        lex = lexigraph.open(path)
    lex.word_map()
    return lex


def without_word_map(lex: lexigraph.Lexicon, game: Game, table: LeaveTable) -> lexigraph.Lexicon:
    """The same lexicon opened again, its game tables made without the word map (the generator as before it)."""
    plain = lexigraph.open(lex.path)
    os.environ[WORD_MAP_VARIABLE] = "0"
    try:
        game_tables(plain, game, table)
    finally:
        del os.environ[WORD_MAP_VARIABLE]
    return plain


def moves(lex: lexigraph.Lexicon, table: LeaveTable, magpie: Magpie, rounds: int, runs: int) -> None:
    game = Game.preset("scrabble")
    positions = [Position.from_cgp(cgp(k), game) for k in range(len(POSITIONS))]
    n = len(positions)
    ours_best: list[list[float]] = [[] for _ in range(n)]
    ours_all: list[list[float]] = [[] for _ in range(n)]
    plain_best: list[list[float]] = [[] for _ in range(n)]
    plain = without_word_map(lex, game, table)
    wmp_best: list[list[float]] = [[] for _ in range(n)]
    kwg_best: list[list[float]] = [[] for _ in range(n)]
    wmp_all: list[list[float]] = [[] for _ in range(n)]
    reference: list[dict[str, Any]] = []
    for _ in range(rounds):
        with_map, without = magpie.movegen(runs, True), magpie.movegen(runs, False)
        reference = with_map
        for k in range(n):
            wmp_best[k].append(with_map[k]["best_us"])
            wmp_all[k].append(with_map[k]["all_us"])
            kwg_best[k].append(without[k]["best_us"])
        for k, pos in enumerate(positions):
            ours_best[k].append(thread_median(lambda: generate(lex, pos, top=1, leaves=table, count_all=False),
                                              runs))
            ours_all[k].append(thread_median(lambda: generate(lex, pos, leaves=table), max(1, runs // 2)))
            plain_best[k].append(thread_median(lambda: generate(plain, pos, top=1, leaves=table, count_all=False),
                                               runs))
    print(f"## Moves: {n} positions, {rounds} rounds of {runs} calls, thread CPU µs (median [range over rounds])")
    print()
    print("| # | rack | lexigraph best | lexigraph best, no word map | MAGPIE best, wmp | MAGPIE best, kwg "
          "| speed vs wmp | vs kwg | lexigraph all ranked | MAGPIE all | speed | same best, equity, counts |")
    print("|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")
    sums: dict[str, list[float]] = {k: [0.0] * rounds for k in ("ob", "pb", "wb", "kb", "oa", "wa")}
    wins_kwg = wins_all = 0
    for k, pos in enumerate(positions):
        for key, series in (("ob", ours_best), ("pb", plain_best), ("wb", wmp_best), ("kb", kwg_best), ("oa", ours_all),
                            ("wa", wmp_all)):
            for r in range(rounds):
                sums[key][r] += series[k][r]
        best = generate(lex, pos, top=1, leaves=table, count_all=False)[0]
        everything = generate(lex, pos, leaves=table)
        ref = reference[k]
        placements = everything.total  # on an empty board the across plays only, as MAGPIE lists them
        exchanges = sum(1 for m in everything if m.kind == "exchange")
        same = (best.notation == magpie_notation(ref["best"]) and abs(best.equity - ref["best_equity"]) < 5e-4
                and placements == ref["placements"] and exchanges == ref["exchanges"])
        note = "yes" if same else (f"NO: {best.notation} {best.equity:.3f} {placements}/{exchanges} against "
                                   f"{ref['best']} {ref['best_equity']:.3f} {ref['placements']}/{ref['exchanges']}")
        wins_kwg += ratio(kwg_best[k], ours_best[k]) >= 1
        wins_all += ratio(wmp_all[k], ours_all[k]) >= 1
        print(f"| {k} | {POSITIONS[k][1]} | {fmt(ours_best[k])} | {fmt(plain_best[k])} | {fmt(wmp_best[k])} | "
              f"{fmt(kwg_best[k])} | "
              f"{ratio(wmp_best[k], ours_best[k]):.2f}x | {ratio(kwg_best[k], ours_best[k]):.2f}x | "
              f"{fmt(ours_all[k])} | {fmt(wmp_all[k])} | {ratio(wmp_all[k], ours_all[k]):.2f}x | {note} |")
    print(f"| sum | | {fmt(sums['ob'])} | {fmt(sums['pb'])} | {fmt(sums['wb'])} | {fmt(sums['kb'])} | "
          f"{ratio(sums['wb'], sums['ob']):.2f}x | {ratio(sums['kb'], sums['ob']):.2f}x | {fmt(sums['oa'])} | "
          f"{fmt(sums['wa'])} | {ratio(sums['wa'], sums['oa']):.2f}x | |")
    print()
    print(f"best move at least MAGPIE-kwg's speed on {wins_kwg} of {n} positions; every move ranked at least "
          f"MAGPIE's on {wins_all} of {n}")
    print()


def selfplay(lex: lexigraph.Lexicon, table: LeaveTable, magpie: Magpie, rounds: int, pairs: int) -> None:
    game = Game.preset("scrabble")
    players = [Player.equity(table, "a"), Player.equity(table, "b")]
    ours: list[float] = []
    theirs: list[float] = []
    autoplay(lex, game, players, games=4, seed=1, workers=1)  # warm: tables made, pages touched
    for r in range(rounds):
        theirs.append(magpie.autoplay(pairs, 1 + r))
        t = time.process_time()
        autoplay(lex, game, players, games=2 * pairs, seed=1 + r, workers=1)
        ours.append(2 * pairs / (time.process_time() - t))
    print(f"## Self-play: static equity players, the shipped table, {2 * pairs:,} games a round, {rounds} rounds")
    print()
    print("| engine | games per CPU second | ratio |")
    print("|---|--:|--:|")
    print(f"| lexigraph | {fmt(ours)} | {statistics.median(ours) / statistics.median(theirs):.2f}x |")
    print(f"| MAGPIE autoplay | {fmt(theirs)} | 1 |")
    print()


def simulation(lex: lexigraph.Lexicon, table: LeaveTable, magpie: Magpie, rounds: int, playouts: int) -> None:
    game = Game.preset("scrabble")
    ours: list[float] = []
    theirs: list[float] = []
    notes: set[str] = set()
    for r in range(rounds):
        for row in SIM_ROWS:
            rate, best = magpie.simulate(row, playouts, 1 + r)
            theirs.append(rate)
            pos = Position.from_cgp(cgp(row), game)
            t = time.process_time()
            result = simulate(lex, pos, leaves=table, candidates=5, plies=2, iterations=playouts // 5, seed=1 + r,
                              workers=1, stopping=False)
            spent = time.process_time() - t
            ours.append(sum(p.iterations for p in result.ranked) / spent)
            notes.add(f"row {row}: lexigraph {result.best.notation}, MAGPIE {best}")
    print(f"## Simulation: 5 candidates, 2 plies, no early stop, {playouts:,} play-outs a run, rows {SIM_ROWS}, "
          f"{rounds} rounds")
    print()
    print("| engine | play-outs per CPU second | ratio |")
    print("|---|--:|--:|")
    print(f"| lexigraph | {fmt(ours)} | {statistics.median(ours) / statistics.median(theirs):.2f}x |")
    print(f"| MAGPIE gsim | {fmt(theirs)} | 1 |")
    print()
    print("best candidates: " + "; ".join(sorted(notes)))
    print()


def threaded(lex: lexigraph.Lexicon, table: LeaveTable, rounds: int, pairs: int, playouts: int,
             threads: int) -> None:
    """Self-play and simulation on ``threads`` C threads against one thread, rounds interleaved: wall time and
    process CPU time (the sum over the threads), and whether the records are the same."""
    game = Game.preset("scrabble")
    players = [Player.equity(table, "a"), Player.equity(table, "b")]
    pos = Position.from_cgp(cgp(SIM_ROWS[0]), game)

    def games(n: int, r: int) -> tuple[float, float, bytes]:
        wall, cpu = time.perf_counter(), time.process_time()
        run = autoplay(lex, game, players, games=2 * pairs, seed=1 + r, workers=1, threads=n, keep_games=True)
        assert run.turns is not None and run.games is not None
        return time.perf_counter() - wall, time.process_time() - cpu, bytes(run.turns) + bytes(run.games)

    def playouts_of(n: int, r: int) -> tuple[float, float, bytes]:
        wall, cpu = time.perf_counter(), time.process_time()
        result = simulate(lex, pos, leaves=table, candidates=5, plies=2, iterations=playouts // 5, seed=1 + r,
                          workers=1, stopping=False, threads=n)
        spent = (time.perf_counter() - wall, time.process_time() - cpu)
        return spent[0], spent[1], json.dumps([p.as_dict() for p in result.ranked]).encode()

    autoplay(lex, game, players, games=4, seed=1, workers=1, threads=threads)  # warm
    print(f"## Threads: {threads} C threads against 1 in one process ({rounds} rounds, interleaved; load average "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)")
    print()
    print("| job | threads | per wall second | per CPU second | CPU s per thread | wall speed-up | same records |")
    print("|---|--:|--:|--:|--:|--:|---|")
    jobs: list[tuple[str, Callable[[int, int], tuple[float, float, bytes]], int]] = [
        ("self-play games", games, 2 * pairs), ("simulation play-outs", playouts_of, playouts)]
    for name, job, units in jobs:
        walls: dict[int, list[float]] = {1: [], threads: []}
        cpus: dict[int, list[float]] = {1: [], threads: []}
        same = True
        for r in range(rounds):
            answers = {}
            for n in (1, threads) if r % 2 == 0 else (threads, 1):
                wall, cpu, answers[n] = job(n, r)
                walls[n].append(wall)
                cpus[n].append(cpu)
            same = same and answers[1] == answers[threads]
        speedups = [a / b for a, b in zip(walls[1], walls[threads])]
        for n in (1, threads):
            print(f"| {name} | {n} | {fmt([units / w for w in walls[n]])} | {fmt([units / c for c in cpus[n]])} | "
                  f"{fmt([c / n for c in cpus[n]], 2)} | {fmt(speedups, 2) + 'x' if n > 1 else '1'} | "
                  f"{'yes' if same else 'NO'} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--pairs", type=int, default=100, help="self-play game pairs a round")
    parser.add_argument("--playouts", type=int, default=2_000, help="simulation play-outs a run")
    parser.add_argument("--only", choices=("moves", "selfplay", "sim", "threads"))
    parser.add_argument("--threads", type=int, default=2,
                        help="C threads of the threads rows (self-play and simulation against one thread)")
    args = parser.parse_args()
    harness = os.environ.get("MAGPIE_BENCH")
    if not harness or not Path(harness).exists():
        print("MAGPIE_BENCH is not set to MAGPIE's timing harness (../shared/peers/magpie/README.md): skipped")
        return
    magpie_dir = Path(os.environ.get("MAGPIE_DIR", Path(harness).resolve().parents[1]))
    magpie = Magpie(Path(harness), magpie_dir / "data")
    lex = lexicon(magpie_dir)
    table = load_leaves(Game.preset("scrabble").leaves, lex.store.alphabet)
    print(f"# lexigraph beside MAGPIE, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} "
          f"cores, load average {os.getloadavg()[0]:.2f}, leave table of {len(table):,} leaves")
    print()
    if args.only in (None, "moves"):
        moves(lex, table, magpie, args.rounds, args.runs)
    if args.only in (None, "selfplay"):
        selfplay(lex, table, magpie, args.rounds, args.pairs)
    if args.only in (None, "sim"):
        simulation(lex, table, magpie, args.rounds, args.playouts)
    if args.only in (None, "threads"):
        threaded(lex, table, args.rounds, args.pairs, args.playouts, args.threads)
    ours = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    theirs = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"peak resident memory: lexigraph {ours / 1024:,.0f} MiB, MAGPIE (largest run) {theirs / 1024:,.0f} MiB")


if __name__ == "__main__":
    main()
