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
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.scrabble.endgame import first_endgame, solve_endgame  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--most-tiles", type=int, default=9, help="tiles on both racks together, at most")
    parser.add_argument("--games", type=int, default=60, help="self-play games to harvest from")
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--table-mb", type=int, default=64)
    args = parser.parse_args()
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
