"""Issue 23: self-play's strength and speed, on TWL06, beside wolges in one run.

    python bench/bench_selfplay.py                       # 10,000 mirrored pairs each, one worker
    python bench/bench_selfplay.py --pairs 2000 --workers 2
    python bench/bench_selfplay.py --only speed

Strength (``lexigraph autoplay``'s code, TWL06 compiled from ../shared/data/twl06.txt):

* the equity player with the shipped table (``src/lexigraph/data/english-leaves.klv2``) against the
  score-only player: player A's win rate over the pairs, with its standard error (target >= 54%);
* the shipped table against ``nwl18-leaves.klv2`` head to head, both by equity (target >= 48%).

Speed, side by side with wolges (``leave english-compare KWG KLV_A KLV_B PAIRS SEED``, ``WOLGES_THREADS=1``)
with the same players: by equity with the NWL18 table (wolges's build of it) against by equity with no leave
values ("-"). Each side plays the same number of pairs per round, rounds interleaved; games per second per
core is games over the CPU seconds the process used (the machine is shared: CPU time, not wall time), medians
and ranges over the rounds. Target: lexigraph >= a quarter of wolges.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import DATA, ROOT, data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.leaves import LeaveTable  # noqa: E402
from lexigraph.scrabble.selfplay import Player, autoplay  # noqa: E402

PEERS = Path(os.environ.get("LEXIGRAPH_PEERS", Path.home() / ".cache" / "lexigraph-peers"))
WOLGES = PEERS / "wolges" / "target" / "release" / "leave"
WOLGES_KWG = PEERS / "data" / "TWL06.kwg"
WOLGES_KLV = PEERS / "data" / "nwl18.klv2"
SHIPPED = ROOT / "src" / "lexigraph" / "data" / "english-leaves.klv2"


def twl06() -> lexigraph.Lexicon:
    path = os.path.join(tempfile.mkdtemp(), "twl06.lex")
    lexigraph.build(data_file("twl06.txt"), path, name="TWL06")
    return lexigraph.open(path)


def strength(lex: lexigraph.Lexicon, pairs: int, workers: int, seed: int) -> None:
    game = Game.preset("scrabble")
    shipped = LeaveTable.read(SHIPPED, lex.store.alphabet)
    nwl18 = LeaveTable.read(DATA / "nwl18-leaves.klv2", lex.store.alphabet)
    print(f"## Strength: {pairs:,} mirrored pairs ({2 * pairs:,} games), TWL06, seed {seed}, {workers} worker(s)")
    print()
    print("| player A | player B | A's win rate | standard error | mean spread | bingos/game | games/s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for a, b in ((Player.equity(shipped, "equity, shipped table"), Player.score("score only")),
                 (Player.equity(shipped, "equity, shipped table"), Player.equity(nwl18, "equity, nwl18-leaves")),
                 (Player.equity(nwl18, "equity, nwl18-leaves"), Player.score("score only"))):
        run = autoplay(lex, game, [a, b], games=2 * pairs, seed=seed, workers=workers)
        t = run.totals
        print(f"| {a.name} | {b.name} | {100 * t.win_rate:.2f}% | {100 * t.standard_error:.2f}% | "
              f"{t.mean_spread:+.2f} | {t.bingos_per_game:.3f} | {t.games_per_second:.0f} |", flush=True)
    print()


def wolges_round(pairs: int, seed: int) -> tuple[float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([str(WOLGES), "english-compare", str(WOLGES_KWG), str(WOLGES_KLV), "-", str(pairs),
                          str(seed)], capture_output=True, text=True, check=True, timeout=3600,
                         env={**os.environ, "WOLGES_THREADS": "1"}).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    wins = next((line.strip() for line in out.splitlines() if line.strip().startswith("p0 (klv0)")), "")
    return 2 * pairs / cpu, wins


def lexigraph_round(lex: lexigraph.Lexicon, table: LeaveTable, pairs: int, seed: int) -> tuple[float, float]:
    game = Game.preset("scrabble")
    cpu = time.process_time()
    run = autoplay(lex, game, [Player.equity(table, "nwl18"), Player.equity(None, "none")], games=2 * pairs,
                   seed=seed, workers=1)
    return 2 * pairs / (time.process_time() - cpu), run.totals.win_rate


def speed(lex: lexigraph.Lexicon, pairs: int, rounds: int) -> None:
    table = LeaveTable.read(WOLGES_KLV, lex.store.alphabet)
    ours: list[float] = []
    theirs: list[float] = []
    rates: list[float] = []
    notes: list[str] = []
    have_wolges = WOLGES.exists() and WOLGES_KWG.exists()
    for r in range(rounds):
        g, rate = lexigraph_round(lex, table, pairs, 100 + r)
        ours.append(g)
        rates.append(rate)
        if have_wolges:
            w, note = wolges_round(pairs, 100 + r)
            theirs.append(w)
            notes.append(note)
    load = os.getloadavg()
    print(f"## Speed: equity with NWL18's table against equity without leaves, {pairs:,} pairs a round, "
          f"{rounds} rounds interleaved, one core each (load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")
    print()
    print("| engine | games per CPU second (median) | range | player A's win rate |")
    print("|---|---:|---|---|")
    print(f"| lexigraph (C game loop, DAWG) | {statistics.median(ours):.0f} | {min(ours):.0f}-{max(ours):.0f} | "
          f"{', '.join(f'{100 * x:.1f}%' for x in rates)} |")
    if theirs:
        print(f"| wolges (Rust, KWG) | {statistics.median(theirs):.0f} | {min(theirs):.0f}-{max(theirs):.0f} | "
              f"{'; '.join(notes)} |")
        print()
        print(f"lexigraph / wolges: {statistics.median(ours) / statistics.median(theirs):.2f}x (target >= 0.25x)")
    else:
        print("\n(wolges not built here: its row is missing)")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--speed-pairs", type=int, default=1_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=230_001)
    parser.add_argument("--only", choices=("strength", "speed"))
    args = parser.parse_args()
    print(f"# Self-play, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}")
    print()
    lex = twl06()
    if args.only != "speed":
        strength(lex, args.pairs, args.workers, args.seed)
    if args.only != "strength":
        speed(lex, args.speed_pairs, args.rounds)


if __name__ == "__main__":
    main()
