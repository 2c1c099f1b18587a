"""Issue 24: the simulation's strength and speed, on TWL06, beside wolges's simmer in one run.

    python bench/bench_sim.py --only speed                 # five positions, rounds interleaved with simmer
    python bench/bench_sim.py --only strength --pairs 1000 --out sim-strength.txt

Strength (``lexigraph autoplay``'s code, TWL06 compiled from ../shared/data/twl06.txt): the simulation
player (``Player.simulation``) against the equity player, both with the shipped table
(``src/lexigraph/data/english-leaves.klv2``), in mirrored pairs; the simulation player's win rate with its
standard error over pairs (target >= 53%). The pairs are played in batches and each batch's totals are
appended to ``--out`` as they finish, so a run cut short still reports a rate.

Speed: on positions harvested from self-play (equity against equity, bag non-empty), the same candidates
(the best 5 by equity), 2 plies and the same leave table (the shipped KLV2), one thread each
(``WOLGES_THREADS=1``), rounds interleaved: iterations per CPU second (an iteration plays out every
candidate still in) and play-outs per CPU second (every candidate's play-outs counted), medians and ranges.
Both stop candidates that cannot win (simmer prunes every 16 iterations, lexigraph at its checkpoints), so
play-outs per second is the like-for-like rate. Target: lexigraph >= a quarter of simmer.
"""

from __future__ import annotations

import argparse
import math
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
from lexigraph.engine.interface import TURN_PLAY  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.leaves import LeaveTable  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402
from lexigraph.scrabble.selfplay import Player, autoplay  # noqa: E402
from lexigraph.scrabble.simulation import simulate  # noqa: E402
from lexigraph.scrabble.tiles import rack_text as tile_rack_text  # noqa: E402

PEERS = Path(os.environ.get("LEXIGRAPH_PEERS", Path.home() / ".cache" / "lexigraph-peers"))
SIMMER = PEERS / "wolges" / "target" / "release" / "simmer"
WOLGES_KWG = PEERS / "data" / "TWL06.kwg"
SHIPPED = ROOT / "src" / "lexigraph" / "data" / "english-leaves.klv2"


def twl06() -> lexigraph.Lexicon:
    path = os.path.join(tempfile.gettempdir(), f"bench-sim-twl06-{os.getpid()}.lex")
    lexigraph.build(data_file("twl06.txt"), path, name="TWL06")
    return lexigraph.open(path)


def harvest(lex: lexigraph.Lexicon, table: LeaveTable, count: int, seed: int = 240_001) -> list[Position]:
    """Positions from self-play (equity against equity): the board before turn 6 of a game, bag non-empty."""
    run = autoplay(lex, Game.preset("scrabble"), [Player.equity(table, "a"), Player.equity(table, "b")],
                   games=2 * count, seed=seed, workers=1, keep_games=True)
    game = run.game
    out = []
    for k in range(0, 2 * count, 2):
        turns = run.game_turns(k)
        at = min(6, len(turns) - 1)
        pos = Position(game)
        totals = [0, 0]
        for t in turns[:at]:
            if t["kind"] == TURN_PLAY:
                n, row, col = game.size, int(t["row"]), int(t["col"])
                for i, b in enumerate(int(x) for x in t["squares"][: t["length"]]):
                    if b:
                        r, c = (row, col + i) if t["across"] else (row + i, col)
                        pos.place(r, c, b & 0x7F, bool(b & 0x80))
            totals[int(t["player"])] = int(t["total"])
        turn = turns[at]
        if int(turn["bag_before"]) == 0:
            continue
        mover = int(turn["player"])
        pos.racks = [tile_rack_text(game, [int(c) for c in turn["rack"][: turn["rack_length"]]]), ""]
        pos.scores = [totals[mover], totals[1 - mover]]
        out.append(pos)
    return out


def rack_text(pos: Position) -> str:
    from lexigraph.scrabble.tiles import parse_rack, rack_text as text

    return text(pos.game, parse_rack(pos.game, pos.racks[0]))


def simmer_round(pos: Position, iterations: int, candidates: int, seed: int) -> tuple[float, float, str]:
    fen = pos.to_cgp().split()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([str(SIMMER), str(WOLGES_KWG), str(SHIPPED), fen, rack_text(pos), str(iterations),
                          str(candidates), str(seed), str(pos.scores[0] - pos.scores[1])], capture_output=True,
                         text=True, check=True, timeout=3600, env={**os.environ, "WOLGES_THREADS": "1"}).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    line = next(x for x in out.splitlines() if x.startswith("SIM "))
    fields = dict(re.findall(r"(\w+)=([\d.]+)", line))
    del before, after  # simmer reports its own thread's CPU time (the prune and the load excluded)
    best = next((x.strip() for x in out.splitlines() if x.strip().startswith("1 obj")), "")
    found = re.search(r"n=(\S+) (.*)$", best)
    return (float(fields["iters_per_cpu_s"]), float(fields["rollouts_per_cpu_s"]),
            f"{found.group(2)} n={found.group(1)}" if found else best)


def lexigraph_round(lex: lexigraph.Lexicon, table: LeaveTable, pos: Position, iterations: int, candidates: int,
                    seed: int) -> tuple[float, float, str]:
    cpu = time.thread_time()
    result = simulate(lex, pos, leaves=table, candidates=candidates, plies=2, iterations=iterations, seed=seed,
                      workers=1)
    spent = time.thread_time() - cpu
    rollouts = sum(p.iterations for p in result.ranked)
    return result.iterations / spent, rollouts / spent, f"{result.best.notation} n={result.iterations}"


def speed(lex: lexigraph.Lexicon, positions: int, rounds: int, iterations: int, candidates: int) -> None:
    table = LeaveTable.read(SHIPPED, lex.store.alphabet)
    found = harvest(lex, table, positions)
    have = SIMMER.exists() and WOLGES_KWG.exists()
    print(f"## Speed: {len(found)} positions harvested from self-play, {candidates} candidates, 2 plies, "
          f"{iterations:,} iterations at most, the shipped KLV2, one thread each, {rounds} rounds interleaved "
          f"(load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    print()
    print("| position | rack | bag | lexigraph it/CPU s | simmer it/CPU s | lexigraph play-outs/CPU s | "
          "simmer play-outs/CPU s | play-out ratio | best (lexigraph; simmer) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    ratios = []
    for k, pos in enumerate(found):
        ours_it, ours_ro, theirs_it, theirs_ro = [], [], [], []
        notes = ["", ""]
        for r in range(rounds):
            a, b, notes[0] = lexigraph_round(lex, table, pos, iterations, candidates, 1 + r)
            ours_it.append(a)
            ours_ro.append(b)
            if have:
                c, d, notes[1] = simmer_round(pos, iterations, candidates, 1 + r)
                theirs_it.append(c)
                theirs_ro.append(d)
        med = statistics.median
        ratio = med(ours_ro) / med(theirs_ro) if theirs_ro else float("nan")
        ratios.append(ratio)
        bag = sum(1 for _ in pos.unseen()) - 7
        print(f"| {k + 1} | {rack_text(pos)} | {bag} | {med(ours_it):,.0f} ({min(ours_it):,.0f}-{max(ours_it):,.0f}) | "
              + (f"{med(theirs_it):,.0f} ({min(theirs_it):,.0f}-{max(theirs_it):,.0f}) | " if theirs_it else "- | ")
              + f"{med(ours_ro):,.0f} ({min(ours_ro):,.0f}-{max(ours_ro):,.0f}) | "
              + (f"{med(theirs_ro):,.0f} ({min(theirs_ro):,.0f}-{max(theirs_ro):,.0f}) | " if theirs_ro else "- | ")
              + f"{ratio:.2f}x | {notes[0]}; {notes[1]} |")
        sys.stdout.flush()
    if have:
        print()
        print(f"play-outs per CPU second, lexigraph / simmer: median {statistics.median(ratios):.2f}x, "
              f"range {min(ratios):.2f}-{max(ratios):.2f}x (target >= 0.25x)")
    else:
        print("\n(simmer not built here: its columns are missing)")
    print()


def strength(lex: lexigraph.Lexicon, pairs: int, workers: int, seed: int, candidates: int, iterations: int,
             batch: int, out_path: str | None) -> None:
    table = LeaveTable.read(SHIPPED, lex.store.alphabet)
    sim = Player.simulation(table, candidates=candidates, iterations=iterations, name="sim")
    equity = Player.equity(table, "equity")
    game = Game.preset("scrabble")
    header = (f"## Strength: simulation ({candidates} candidates, {iterations} iterations, 2 plies) against "
              f"equity, the shipped table, TWL06, seed {seed}, {pairs:,} mirrored pairs in batches of {batch}, "
              f"{workers} worker(s), started {time.strftime('%H:%M UTC', time.gmtime())}")
    lines = [header, "", "| pairs done | sim's win rate | standard error | mean spread | minutes |",
             "|---:|---:|---:|---:|---:|"]
    out = open(out_path, "a") if out_path else None

    def emit(text: str) -> None:
        print(text)
        sys.stdout.flush()
        if out:
            out.write(text + "\n")
            out.flush()

    for line in lines:
        emit(line)
    start = time.monotonic()
    results: list[float] = []  # per pair: the sim player's mean result over its two games
    spreads: list[float] = []
    for first in range(0, 2 * pairs, 2 * batch):
        games = min(2 * batch, 2 * pairs - first)
        run = autoplay(lex, game, [sim, equity], games=games, seed=seed, first=first, workers=workers,
                       keep_games=True)
        assert run.games is not None
        diff = run.games["final"][:, 0].astype(int) - run.games["final"][:, 1]
        result = (diff > 0) + 0.5 * (diff == 0)
        results.extend(result.reshape(-1, 2).mean(axis=1).tolist())
        spreads.extend(diff.tolist())
        n = len(results)
        rate = statistics.fmean(results)
        se = statistics.stdev(results) / math.sqrt(n) if n > 1 else float("nan")
        emit(f"| {n:,} | {100 * rate:.1f}% | {100 * se:.1f}% | {statistics.fmean(spreads):+.1f} | "
             f"{(time.monotonic() - start) / 60:.1f} |")
    if out:
        out.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("strength", "speed"))
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--batch", type=int, default=10, help="pairs per batch (a line of results each)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=240_101)
    parser.add_argument("--candidates", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=64)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--speed-iterations", type=int, default=1000)
    parser.add_argument("--out", help="append the strength results here as they come")
    args = parser.parse_args()
    print(f"# Simulation, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}")
    print()
    lex = twl06()
    if args.only != "strength":
        speed(lex, args.positions, args.rounds, args.speed_iterations, args.candidates)
    if args.only != "speed":
        strength(lex, args.pairs, args.workers, args.seed, args.candidates, args.iterations, args.batch, args.out)


if __name__ == "__main__":
    main()
