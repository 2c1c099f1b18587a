"""Issue 24: the exact endgame solver beside wolges's ``endgame``, on the same positions, in one run.

    python bench/bench_endgame.py                          # 6 positions, 3 rounds
    python bench/bench_endgame.py --positions 8 --rounds 5 --most-tiles 10

Positions come from self-play (``lexigraph.scrabble.selfplay.autoplay`` with ``keep_games=True``, TWL06 compiled
from ../shared/data/twl06.txt, both players by equity): each game replayed to its first turn with the bag empty
and at most ``--most-tiles`` tiles on the two racks together, the side to move holding 3 to 7
(``lexigraph.scrabble.endgame.first_endgame``); their CGP is written to ``bench/results/endgame-positions.cgp``.

Each round solves every position with both, interleaved (lexigraph, then wolges, position by position):
lexigraph in this process (``solve_endgame``, its CPU time by ``time.thread_time``), wolges as a child
(``endgame english TWL06.kwg FEN RACK``, its CPU time and peak memory by ``resource.getrusage(RUSAGE_CHILDREN)``;
wolges's time includes its word prune, part of its solve). Values must agree (the script exits 1 otherwise).
Reported: each position's value, the median CPU seconds of each and their ratio (lexigraph / wolges; target
<= 3), the ranges over the rounds, and memory: wolges's peak RSS, lexigraph's process peak RSS and its table.

Issue 36, ``--hard FILE`` (CGPs, one a line; ``bench/results/endgame-hard.cgp`` holds the harvest): each position
solved on 1 and on 2 threads (``solve_endgame(..., threads=N)``: wall seconds, and the process's CPU seconds by
``time.process_time``, every thread counted) and by MAGPIE's endgame as a child (``magpie_bench ... endgame FILE
PLIES 0.05``: one thread, its own ``cpu_s``), rounds interleaved; values must agree between the thread counts (and
with MAGPIE's when it searched to the end of the game). ``--harvest N`` first writes that file: self-play games
(``--games``, ``--seed``) replayed to their first endgame of 7 tiles against 7 (``first_endgame``), each tried on
one thread for ``--screen`` seconds, the ones not finished by then or that took more than 10 s of CPU kept (at most
N). ``bench/endgame-hard.cgp`` holds the positions of the issue's figures (lines starting with ``#`` say where they
come from). ``--only lexigraph`` / ``--only magpie`` runs one program, so that two runs side by side use both cores
(each program's time is its own CPU time); ``--magpie-cpu S`` stops MAGPIE past S seconds of CPU (depth -1).
``--threads 1,2`` (the default; 1 first) sets the thread counts compared: per position and count, each thread's
nodes until the answer and CPU seconds (the solution's ``thread_nodes``, ``thread_cpu_seconds``) and the nodes
estimate of the scaling a quiet machine gives, (1-thread nodes) / (the main thread's nodes), beside the main
thread's CPU and wall ratios; ``--positions-like IIJNQR?,EGGILMP`` keeps the positions whose mover holds those racks.
The 2-thread search's node counts vary from run to run (the threads' timing decides which entries each meets; one
thread's do not): ``--repeat K`` solves each position K times a round on every count above 1, and the table lists
every run's nodes estimate beside the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.scrabble.endgame import (  # noqa: E402
    EndgameSolution, _request, endgame_racks, first_endgame, solve_endgame, table_entries,
)
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.movegen import aligned  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402
from lexigraph.scrabble.selfplay import Player, autoplay  # noqa: E402

PEERS = Path(os.environ.get("LEXIGRAPH_PEERS", Path.home() / ".cache" / "lexigraph-peers"))
WOLGES = PEERS / "wolges" / "target" / "release" / "endgame"
WOLGES_KWG = PEERS / "data" / "TWL06.kwg"
RESULTS = ROOT / "bench" / "results"


def twl06() -> lexigraph.Lexicon:
    path = os.path.join(tempfile.mkdtemp(), "twl06.lex")
    lexigraph.build(data_file("twl06.txt"), path, name="TWL06")
    return lexigraph.open(path)


def harvest(lex: lexigraph.Lexicon, count: int, most_tiles: int, seed: int, games: int) -> list[Position]:
    """Distinct self-play endgames: the mover holding 3-7 tiles, at most ``most_tiles`` on both racks."""
    run = autoplay(lex, Game.preset("scrabble"), [Player.equity(None, "a"), Player.equity(None, "b")],
                   games=games, seed=seed, workers=1, keep_games=True)
    out: list[Position] = []
    seen: set[str] = set()
    for k in range(len(run.games)):
        pos = first_endgame(run, k, most_tiles=most_tiles)
        if pos is None or not 3 <= len(pos.racks[0]) <= 7 or pos.to_cgp() in seen:
            continue
        seen.add(pos.to_cgp())
        out.append(pos)
        if len(out) == count:
            break
    return out


def run_wolges(pos: Position) -> tuple[int, float, int]:
    """wolges's value, CPU seconds and peak RSS (KiB) for the position."""
    board, racks = pos.to_cgp().split()[:2]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([str(WOLGES), "english", str(WOLGES_KWG), board, racks.split("/")[0]],
                          capture_output=True, text=True, timeout=3600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = re.search(r"future (-?[0-9.]+)\)", done.stdout)
    if not found:
        sys.exit(f"wolges did not answer for {pos.to_cgp()}:\n{done.stdout}{done.stderr}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return round(float(found.group(1))), cpu, after.ru_maxrss


def run_lexigraph(lex: lexigraph.Lexicon, pos: Position, table_mb: int) -> tuple[int, float, int, int]:
    """lexigraph's value, CPU seconds (this thread), nodes and depth."""
    start = time.thread_time()
    solution = solve_endgame(lex, pos, table_megabytes=table_mb)
    cpu = time.thread_time() - start
    if not solution.complete:
        sys.exit(f"lexigraph did not finish {pos.to_cgp()}")
    return solution.value, cpu, solution.nodes, solution.depth


MAGPIE_DIR = Path(os.environ.get("MAGPIE_DIR", "/work/peers/magpie"))
MAGPIE_BENCH = MAGPIE_DIR / "bin" / "magpie_bench"


def harvest_hard(lex: lexigraph.Lexicon, most: int, games: int, seed: int, screen: float,
                 min_cpu: float = 10.0) -> list[Position]:
    """Self-play endgames of 7 tiles against 7 that one thread does not finish within ``min_cpu`` seconds of CPU:
    each solved with a wall limit of ``screen`` seconds and kept when it took more than ``min_cpu`` seconds of this
    thread's CPU or did not finish (on a loaded machine a wall limit alone keeps easy positions too)."""
    run = autoplay(lex, Game.preset("scrabble"), [Player.equity(None, "a"), Player.equity(None, "b")],
                   games=games, seed=seed, workers=1, keep_games=True)
    out: list[Position] = []
    seen: set[str] = set()
    for k in range(len(run.games)):
        pos = first_endgame(run, k, most_tiles=14)
        if pos is None or (len(pos.racks[0]), len(pos.racks[1])) != (7, 7) or pos.to_cgp() in seen:
            continue
        seen.add(pos.to_cgp())
        start = time.thread_time()
        complete = solve_endgame(lex, pos, time_limit=screen).complete
        cpu = time.thread_time() - start
        print(f"game {k}: {pos.racks[0]} / {pos.racks[1]} complete {complete} CPU {cpu:.2f} s", file=sys.stderr,
              flush=True)
        if not complete or cpu > min_cpu:
            out.append(pos)
            print(f"kept {pos.to_cgp()}", file=sys.stderr, flush=True)
            if len(out) == most:
                break
    return out


def run_threads(lex: lexigraph.Lexicon, pos: Position, threads: int, table_mb: int,
                limit: float | None) -> tuple[int, bool, float, float, float, int, EndgameSolution]:
    """Value, complete, wall seconds, the calling (main search) thread's CPU seconds, the process's CPU seconds
    (every thread), nodes and the solution (its per-thread nodes and CPU seconds) on ``threads`` threads. The main
    thread's CPU time is what the wall time would be with a core for each thread: the machine is shared, so the
    wall time mostly measures the other jobs."""
    wall, main, cpu = time.perf_counter(), time.thread_time(), time.process_time()
    s = solve_endgame(lex, pos, table_megabytes=table_mb, threads=threads, time_limit=limit)
    return (s.value, s.complete, time.perf_counter() - wall, time.thread_time() - main, time.process_time() - cpu,
            s.nodes, s)


def run_magpie(pos: Position, plies: int, cpu_limit: int = 0) -> tuple[int, float, int]:
    """MAGPIE's value, CPU seconds and depth for the position (one thread); past ``cpu_limit`` seconds of CPU
    (0: none) the child is stopped and answers value 0 at depth -1 with the CPU it used."""
    doc, cpu = magpie_answer(pos, plies, cpu_limit)
    if doc is None:
        return 0, cpu, -1
    return int(doc["value"]), float(doc["cpu_s"]), int(doc["depth"])


def magpie_answer(pos: Position, plies: int, cpu_limit: int = 0) -> tuple[dict[str, Any] | None, float]:
    """MAGPIE's BENCH document for the position searched to ``plies`` (one thread: value, cpu_s, depth, nodes, ...)
    and the child's CPU seconds; None past ``cpu_limit`` seconds of CPU (0: none), when the child was stopped."""
    with tempfile.NamedTemporaryFile("w", suffix=".cgp", delete=False) as f:
        f.write(pos.to_cgp().split(" lex ")[0] + "\n")
    settings = "set -lex TWL06 -threads 1 -savesettings false"
    limit = (lambda: resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))) if cpu_limit else None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([str(MAGPIE_BENCH), str(MAGPIE_DIR / "data"), settings, "endgame", f.name, str(plies),
                           "0.05"], capture_output=True, text=True, timeout=7200, preexec_fn=limit)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    os.unlink(f.name)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if cpu_limit and done.returncode < 0:
        return None, cpu
    for line in done.stdout.splitlines():
        if line.startswith("BENCH "):
            return json.loads(line[6:]), cpu
    sys.exit(f"MAGPIE did not answer for {pos.to_cgp()}:\n{done.stdout}{done.stderr}")


def _median_range(xs: list[float]) -> str:
    return f"{statistics.median(xs):.2f} ({min(xs):.2f}-{max(xs):.2f})" if xs else "-"


def _ratio(a: list[float], b: list[float]) -> str:
    return f"{statistics.median(a) / statistics.median(b):.2f}" if a and b else "-"


def print_hard_table(positions: list[Position], rows: dict[int, dict[str, list[float]]],
                     values: dict[int, list[tuple[object, int, object]]]) -> None:
    """The medians (ranges) per position, and the totals of the medians over the positions every column has."""
    med = statistics.median
    print("| position (racks) | values (1 / 2 threads, MAGPIE) | 1 thread CPU s | 2 threads: main thread CPU s | "
          "speed-up | 2 threads: process CPU s | wall 1 / 2 threads s | MAGPIE CPU s | 1 thread / MAGPIE |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for i, pos in enumerate(positions):
        t = rows[i]
        vs = sorted({str(v[1]) + ("" if v[2] is True or v[0] == "magpie" else "?") for v in values[i]})
        walls = " / ".join(f"{med(t[k]):.2f}" if t[k] else "-" for k in ("1w", "2w"))
        print(f"| {pos.racks[0]} / {pos.racks[1]} | {' / '.join(vs)} | {_median_range(t['1t'])} | "
              f"{_median_range(t['2t'])} | {_ratio(t['1t'], t['2t'])} | {_median_range(t['2c'])} | {walls} | "
              f"{_median_range(t['m'])} | {_ratio(t['1t'], t['m'])} |")
    for a, b, label in (("1t", "m", "1 thread / MAGPIE"), ("1t", "2t", "1 / 2 threads (main thread CPU)"),
                        ("1w", "2w", "1 / 2 threads (wall)")):
        both = [i for i in rows if rows[i][a] and rows[i][b]]
        if both:
            ta, tb = sum(med(rows[i][a]) for i in both), sum(med(rows[i][b]) for i in both)
            print(f"Total over {len(both)} positions, {label}: {ta:.2f} s / {tb:.2f} s = {ta / tb:.2f}")


def print_threads_table(positions: list[Position], runs: dict[int, dict[int, list[EndgameSolution]]],
                        walls: dict[int, dict[int, list[float]]], counts: tuple[int, ...]) -> None:
    """Per position and thread count (medians over the rounds): each thread's nodes until the answer and CPU
    seconds, and the scaling a quiet machine with a core per thread would show, (1-thread nodes) / (the main
    thread's nodes on N threads), beside the ratios of the main thread's CPU and of the wall time."""
    med = statistics.median
    print("| position (racks) | threads | nodes per thread (main first) | CPU s per thread | nodes estimate "
          "(1 thread / main) | every run's nodes estimate | main thread CPU ratio | wall ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    totals = {n: [0.0, 0.0, 0.0] for n in counts}  # main nodes, main CPU, wall (summed medians)
    for i, pos in enumerate(positions):
        if 1 not in runs[i] or not runs[i][1]:
            continue
        one_nodes = med(r.thread_nodes[0] for r in runs[i][1])
        one_cpu = med(r.thread_cpu_seconds[0] for r in runs[i][1])
        one_wall = med(walls[i][1])
        for n in counts:
            rs = runs[i].get(n, [])
            if not rs:
                continue
            nodes = [med(r.thread_nodes[k] for r in rs) for k in range(len(rs[0].thread_nodes))]
            cpus = [med(r.thread_cpu_seconds[k] for r in rs) for k in range(len(rs[0].thread_cpu_seconds))]
            wall = med(walls[i][n])
            totals[n][0] += nodes[0]
            totals[n][1] += cpus[0]
            totals[n][2] += wall
            print(f"| {pos.racks[0]} / {pos.racks[1]} | {n} | {' / '.join(f'{x:,.0f}' for x in nodes)} | "
                  f"{' / '.join(f'{x:.2f}' for x in cpus)} | {one_nodes / nodes[0]:.2f} | "
                  f"{', '.join(f'{one_nodes / r.thread_nodes[0]:.2f}' for r in rs)} | {one_cpu / cpus[0]:.2f} | "
                  f"{one_wall / wall:.2f} |")
    if 1 in totals and totals[1][0]:
        for n in counts[1:]:
            t1, tn = totals[1], totals[n]
            print(f"Total, {n} threads against 1: nodes estimate {t1[0] / tn[0]:.2f}, main thread CPU "
                  f"{t1[1] / tn[1]:.2f}, wall {t1[2] / tn[2]:.2f}")
            print(f"Total of each run on {n} threads (its k-th solve of every position): nodes estimate "
                  f"{', '.join(f'{e:.2f}' for e in _run_totals(positions, runs, n))}")


def _run_totals(positions: list[Position], runs: dict[int, dict[int, list[EndgameSolution]]], n: int) -> list[float]:
    """Per run k (the k-th solve of every position on ``n`` threads), the nodes estimate over the positions:
    (the 1-thread main nodes, summed) / (run k's main-thread nodes, summed)."""
    med = statistics.median
    kept = [i for i in range(len(positions)) if runs[i].get(1) and runs[i].get(n)]
    if not kept:
        return []
    one = sum(med(r.thread_nodes[0] for r in runs[i][1]) for i in kept)
    k_runs = min(len(runs[i][n]) for i in kept)
    return [one / sum(runs[i][n][k].thread_nodes[0] for i in kept) for k in range(k_runs)]


def hard_main(args: argparse.Namespace) -> None:
    lex = twl06()
    path = Path(args.hard)
    if args.harvest:
        found = harvest_hard(lex, args.harvest, args.games, args.seed, args.screen)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(p.to_cgp() + "\n" for p in found))
    positions = [Position.from_cgp(line) for line in path.read_text().splitlines()
                 if line.strip() and not line.startswith("#")]
    if args.positions_like:
        positions = [p for p in positions if p.racks[0] in args.positions_like.split(",")]
    with_magpie = MAGPIE_BENCH.exists() and not args.no_magpie and args.only != "lexigraph"
    thread_counts = () if args.only == "magpie" else tuple(int(t) for t in args.threads.split(","))
    print(f"## Hard endgames: {len(positions)} positions, 1 and 2 threads{' and MAGPIE' if with_magpie else ''}, "
          f"{args.rounds} rounds interleaved; load {os.getloadavg()[0]:.2f} at the start")
    rows: dict[int, dict[str, list[float]]] = {i: {"1w": [], "1t": [], "1c": [], "2w": [], "2t": [], "2c": [], "m": []}
                                               for i in range(len(positions))}
    values: dict[int, list[tuple[object, int, object]]] = {i: [] for i in range(len(positions))}
    runs: dict[int, dict[int, list[EndgameSolution]]] = {i: {} for i in range(len(positions))}
    walls: dict[int, dict[int, list[float]]] = {i: {} for i in range(len(positions))}
    for r in range(args.rounds):
        for i, pos in enumerate(positions):
            for threads in (n for n in thread_counts for _ in range(1 if n == 1 else args.repeat)):
                value, complete, wall, main, cpu, nodes, solution = run_threads(lex, pos, threads, args.table_mb,
                                                                                args.limit)
                runs[i].setdefault(threads, []).append(solution)
                walls[i].setdefault(threads, []).append(wall)
                rows[i].setdefault(f"{threads}w", [])
                rows[i].setdefault(f"{threads}t", [])
                rows[i].setdefault(f"{threads}c", [])
                rows[i][f"{threads}w"].append(wall)
                rows[i][f"{threads}t"].append(main)
                rows[i][f"{threads}c"].append(cpu)
                values[i].append((threads, value, complete))
                print(f"round {r + 1} #{i} {pos.racks[0]} {threads} thread(s): {value} complete {complete} wall "
                      f"{wall:.2f} s main thread CPU {main:.2f} s, process CPU {cpu:.2f} s, nodes {nodes:,}; per "
                      f"thread nodes {solution.thread_nodes}, CPU "
                      f"{tuple(round(c, 2) for c in solution.thread_cpu_seconds)}", file=sys.stderr, flush=True)
            if with_magpie:
                m_value, m_cpu, m_depth = run_magpie(pos, args.plies, args.magpie_cpu)
                rows[i]["m"].append(m_cpu)
                values[i].append(("magpie", m_value, m_depth))
                print(f"round {r + 1} #{i} MAGPIE: {m_value} depth {m_depth} CPU {m_cpu:.2f} s", file=sys.stderr,
                      flush=True)
    if thread_counts:
        print_threads_table(positions, runs, walls, thread_counts)
        print()
    if set(thread_counts) <= {1, 2} and (with_magpie or thread_counts == (1, 2)):
        print_hard_table(positions, rows, values)
    print(f"\nLoad at the end {os.getloadavg()[0]:.2f}.")


def depths_main(args: argparse.Namespace) -> None:
    """``--depths N``: per position, one thread's iterative deepening ply by ply (``endgame_iterations``: the nodes
    and CPU seconds by the end of each depth, within ``--limit`` seconds) beside MAGPIE's searches to 1, 2, ... N
    plies (each its own run, within ``--magpie-cpu`` seconds: its nodes, CPU and value), so that where the two
    grow apart shows (move order, the table, the depth at which the value is proved)."""
    lex = twl06()
    positions = [Position.from_cgp(line) for line in Path(args.hard).read_text().splitlines()
                 if line.strip() and not line.startswith("#")]
    if args.positions_like:
        positions = [p for p in positions if p.racks[0] in args.positions_like.split(",")]
    for pos in positions:
        aligned_pos = aligned(lex, pos)
        mine, theirs = endgame_racks(aligned_pos)
        request = _request(lex, aligned_pos, mine, theirs, table_entries(args.table_mb), 1)
        stop = None if args.limit is None else time.monotonic() + args.limit
        rows, complete = lex.engine._native.endgame_iterations(request, args.depths, stop)
        print(f"## {pos.racks[0]} / {pos.racks[1]}: lexigraph {'complete' if complete else 'not complete'} at depth "
              f"{len(rows)}; load {os.getloadavg()[0]:.2f}\n")
        print("| depth | lexigraph nodes (by then) | x previous | CPU s (by then) | MAGPIE nodes | x previous | CPU s "
              "| MAGPIE value |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        previous = [0, 0]
        for depth in range(1, args.depths + 1):
            ours = rows[depth - 1] if depth <= len(rows) else None
            doc, cpu = magpie_answer(pos, depth, args.magpie_cpu) if MAGPIE_BENCH.exists() else (None, 0.0)
            theirs_nodes = int(doc["nodes"]) if doc else 0
            cells = [f"{ours[1]:,}" if ours else "-",
                     f"{ours[1] / previous[0]:.1f}" if ours and previous[0] else "-",
                     f"{ours[2]:.2f}" if ours else "-",
                     f"{theirs_nodes:,}" if doc else "-",
                     f"{theirs_nodes / previous[1]:.1f}" if doc and previous[1] else "-",
                     f"{float(doc['cpu_s']):.2f}" if doc else f"> {cpu:.0f} (stopped)",
                     str(doc["value"]) if doc else "-"]
            print(f"| {depth} | " + " | ".join(cells) + " |", flush=True)
            previous = [ours[1] if ours else 0, theirs_nodes]
            if not ours and not doc:
                break
        print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--most-tiles", type=int, default=9, help="tiles on both racks together, at most")
    parser.add_argument("--games", type=int, default=60, help="self-play games to harvest from")
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--table-mb", type=int, default=64)
    parser.add_argument("--hard", help="issue 36: positions file (CGP a line): 1 vs 2 threads and MAGPIE")
    parser.add_argument("--harvest", type=int, default=0, help="with --hard: harvest this many positions first")
    parser.add_argument("--screen", type=float, default=10.0, help="with --harvest: seconds one thread is given")
    parser.add_argument("--limit", type=float, default=None, help="with --hard: a time limit per solve, seconds")
    parser.add_argument("--plies", type=int, default=25, help="with --hard: MAGPIE's search depth")
    parser.add_argument("--no-magpie", action="store_true", help="with --hard: lexigraph alone")
    parser.add_argument("--only", choices=("lexigraph", "magpie"), help="with --hard: one program alone (two runs "
                        "side by side use both cores; each program's time is its own CPU time)")
    parser.add_argument("--magpie-cpu", type=int, default=0, help="with --hard: stop MAGPIE past this many CPU s")
    parser.add_argument("--threads", default="1,2", help="with --hard: the thread counts compared, 1 first (e.g. 1,2,3)")
    parser.add_argument("--repeat", type=int, default=1, help="with --hard: solves per position and round on each "
                        "thread count above 1 (their node counts vary from run to run)")
    parser.add_argument("--positions-like", default="", help="with --hard: only the positions whose side to move holds "
                        "one of these racks (comma-separated, e.g. IIJNQR?,EGGILMP)")
    parser.add_argument("--depths", type=int, default=0, help="with --hard: nodes per depth to this many plies, "
                        "lexigraph (one thread, within --limit s) beside MAGPIE (within --magpie-cpu s a depth)")
    args = parser.parse_args()
    if args.hard and args.depths:
        depths_main(args)
        return
    if args.hard:
        hard_main(args)
        return
    if not (WOLGES.exists() and WOLGES_KWG.exists()):
        sys.exit(f"wolges's endgame is not built: {WOLGES}, {WOLGES_KWG}")
    lex = twl06()
    positions = harvest(lex, args.positions, args.most_tiles, args.seed, args.games)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "endgame-positions.cgp").write_text("".join(p.to_cgp() + "\n" for p in positions))
    solve_endgame(lex, positions[0])  # the lexicon's one-time checks, outside the timings
    print(f"## Endgame: {len(positions)} positions from self-play (TWL06, seed {args.seed}), {args.rounds} rounds "
          f"interleaved; load {os.getloadavg()[0]:.2f} at the start")
    print()
    times: dict[int, tuple[list[float], list[float]]] = {i: ([], []) for i in range(len(positions))}
    values: dict[int, tuple[int, int]] = {}
    info: dict[int, tuple[int, int]] = {}
    wolges_rss = 0
    for _round in range(args.rounds):
        for i, pos in enumerate(positions):
            value, cpu, nodes, depth = run_lexigraph(lex, pos, args.table_mb)
            w_value, w_cpu, rss = run_wolges(pos)
            print(f"round {_round + 1}, {pos.racks[0]} / {pos.racks[1]}: lexigraph {value} in {cpu:.3f} s, wolges {w_value}"
                  f" in {w_cpu:.3f} s", file=sys.stderr, flush=True)
            times[i][0].append(cpu)
            times[i][1].append(w_cpu)
            values[i] = (value, w_value)
            info[i] = (nodes, depth)
            wolges_rss = max(wolges_rss, rss)
    print("| position (racks) | value lexigraph | value wolges | nodes | depth | lexigraph CPU s (range) | "
          "wolges CPU s (range) | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    agree = True
    total_l = total_w = 0.0
    for i, pos in enumerate(positions):
        lt, wt = times[i]
        ml, mw = statistics.median(lt), statistics.median(wt)
        total_l += ml
        total_w += mw
        agree &= values[i][0] == values[i][1]
        print(f"| {pos.racks[0]} / {pos.racks[1]} | {values[i][0]} | {values[i][1]} | {info[i][0]:,} | {info[i][1]} "
              f"| {ml:.3f} ({min(lt):.3f}-{max(lt):.3f}) | {mw:.3f} ({min(wt):.3f}-{max(wt):.3f}) "
              f"| {ml / mw if mw else float('inf'):.2f} |")
    print(f"| **all** | | | | | {total_l:.3f} | {total_w:.3f} | {total_l / total_w:.2f} |")
    print()
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"Memory: wolges peak RSS {wolges_rss / 1024:.0f} MiB; lexigraph's process peak RSS {own / 1024:.0f} MiB "
          f"(TWL06 mapped, self-play run held) with a {args.table_mb} MiB table. Values agree: {agree}. "
          f"Load at the end {os.getloadavg()[0]:.2f}.")
    if not agree:
        sys.exit(1)


if __name__ == "__main__":
    main()
