"""Two revisions of lexigraph on the same work, rounds interleaved: did a change make anything slower?

    python bench/bench_revisions.py --before OLD/.venv/bin/python --after NEW/.venv/bin/python
    python bench/bench_revisions.py --before ... --after ... --kinds best,selfplay --rounds 9

Each revision is an installed checkout (``pip install -e`` in a virtual environment of its own: a ``git
worktree`` of the older commit does). Every round runs each kind of work once per revision, in a fresh process
of that revision, the order of the two alternating from round to round; a process reports its own CPU time for
the timed part alone (start-up, opening the lexicon and a warm-up call are left out). Printed: the median and
range of each side, and the median and range of before/after over the rounds (above 1: the after revision is
faster). The machine is shared: trust the ratio and its range, not the seconds.

The work (TWL06 from ``../shared/data``; the lexicon is built once, by the after revision):

* ``best``: the best play by equity on the 16 positions of ``positions16.cgp`` (4 empty boards, 12 mid-game), 20
  times;
* ``moves``: every play ranked on the same positions, 5 times;
* ``selfplay``: 300 games between two equity players, one worker;
* ``selfplay_table``: the same with the shipped leave table (``english-leaves.klv2``, 914,624 leaves);
* ``sim_table``: ``sim`` with the shipped leave table;
* ``sim``: 1,000 play-outs of 5 candidates, 2 plies, no early stop, one worker;
* ``build``: TWL06 compiled into a new file;
* ``queries``: exact anagrams of 6 racks (blanks included) and 4 patterns, 300 times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import DATA  # noqa: E402

KINDS = ("best", "moves", "selfplay", "selfplay_table", "sim", "sim_table", "build", "queries")
def work(kind: str, lexicon: str) -> float:
    """In a process of one revision: the CPU seconds of one kind of work."""
    import lexigraph

    cpu = time.process_time
    if kind == "build":
        with tempfile.TemporaryDirectory() as folder:
            start = cpu()
            lexigraph.build(str(DATA / "twl06.txt"), os.path.join(folder, "twl06.lex"))
            return cpu() - start
    lex = lexigraph.open(lexicon)
    if kind == "queries":
        racks = ["AALNST?", "AEINRST", "RETAINS", "QZXJKA?", "EEIIOUU", "AEINR??"]
        patterns = ["?OR??", "C?T??", "???ING", "??Q?"]
        for rack in racks:
            lex.anagram(rack)
        start = cpu()
        for _ in range(300):
            for rack in racks:
                lex.anagram(rack)
            for pattern in patterns:
                lex.match(pattern)
        return cpu() - start
    from lexigraph.scrabble.game import Game
    from lexigraph.scrabble.movegen import generate
    from lexigraph.scrabble.selfplay import Player, autoplay
    from lexigraph.scrabble.simulation import simulate

    game = Game.preset("scrabble").for_lexicon(lex.alphabet)
    from lexigraph.scrabble.leaves import load_leaves

    table = load_leaves(game.leaves, lex.alphabet) if kind.endswith("_table") else None
    if kind.startswith("selfplay"):
        players = [Player.equity(table), Player.equity(table)]
        autoplay(lex, game, players, games=10, seed=1, workers=1)
        start = cpu()
        autoplay(lex, game, players, games=300, seed=2, workers=1)
        return cpu() - start
    from lexigraph.scrabble.position import Position

    cases = [Position.from_cgp(line, game) for line in CGP_LINES]
    if kind.startswith("sim"):
        simulate(lex, cases[7], leaves=table, candidates=5, plies=2, iterations=50, workers=1, stopping=False)
        start = cpu()
        simulate(lex, cases[7], leaves=table, candidates=5, plies=2, iterations=1000, workers=1, stopping=False)
        return cpu() - start
    best = kind == "best"
    for case in cases:
        generate(lex, case, top=1, count_all=False)
    start = cpu()
    for _ in range(20 if best else 5):
        for case in cases:
            if best:
                generate(lex, case, top=1, count_all=False)
            else:
                generate(lex, case)
    return cpu() - start


#: The 16 positions (CGP): bench_moves.py's rows less the three racks MAGPIE's bag cannot hold (4 empty boards,
#: then mid-game boards with the racks AEINRST, AALNST?, EIOQRTU, AEINR??).
CGP_LINES = [line for line in (Path(__file__).resolve().parent / "positions16.cgp").read_text().splitlines()
             if line.strip() and not line.startswith("#")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="the older revision's python")
    parser.add_argument("--after", default=sys.executable, help="the newer revision's python (default: this one)")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--work", nargs=2, metavar=("KIND", "LEXICON"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.work:
        print(work(*args.work))
        return
    if not args.before:
        parser.error("--before PYTHON is required")
    if not (DATA / "twl06.txt").exists():
        print(f"skipped: {DATA / 'twl06.txt'} is not there")
        return
    kinds = args.kinds.split(",")
    with tempfile.TemporaryDirectory() as folder:
        lexicon = os.path.join(folder, "twl06.lex")
        subprocess.run([args.after, "-m", "lexigraph", "build", str(DATA / "twl06.txt"), "-o", lexicon, "--quiet"],
                       check=True)
        sides = {"before": args.before, "after": args.after}
        seconds: dict[tuple[str, str], list[float]] = {(side, kind): [] for side in sides for kind in kinds}
        for round_no in range(args.rounds):
            for kind in kinds:
                for side in ("before", "after") if round_no % 2 else ("after", "before"):
                    out = subprocess.run([sides[side], __file__, "--work", kind, lexicon], capture_output=True,
                                         text=True, check=True).stdout.split()
                    seconds[side, kind].append(float(out[-1]))
    print(f"{'work':10} {'before s (range)':>22} {'after s (range)':>22} {'before/after (range)':>22}")
    for kind in kinds:
        before, after = seconds["before", kind], seconds["after", kind]
        ratios = sorted(b / a for b, a in zip(before, after))
        print(f"{kind:10} {statistics.median(before):8.3f} ({min(before):.3f}-{max(before):.3f}) "
              f"{statistics.median(after):8.3f} ({min(after):.3f}-{max(after):.3f}) "
              f"{statistics.median(ratios):10.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f})")


if __name__ == "__main__":
    main()
