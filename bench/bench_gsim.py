"""Issue 35: lexigraph's 2-ply simulation by win probability beside MAGPIE's ``gsim`` on the same positions.

Positions: the board before turn 6 of self-play games on TWL06 (equity against equity, bag non-empty; the
harvest of ``bench_sim.py``). For each, MAGPIE simulates its 5 best moves 2 plies deep, round robin with no
early stopping (``-sr rr -threshold none``, ``--iterations`` play-outs in all, one thread), and ranks them by
win percentage; lexigraph simulates **the same 5 moves** (``moves=``) with MAGPIE's own leave table
(``TWL06.klv2``, which lexigraph reads) and its own win table, 2 plies, the same play-outs per move, no early
stopping. Reported per position: MAGPIE's order with its win percentages, its margin of the best over the
second, lexigraph's pick and whether it is MAGPIE's. MAGPIE's margin is *clear* when it is at least
``--clear`` points of win percentage.

    MAGPIE_DIR=/work/peers/magpie python bench/bench_gsim.py --positions 8 --iterations 5000
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_sim import harvest  # noqa: E402
from common import data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.scrabble.leaves import LeaveTable  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402
from lexigraph.scrabble.scoring import score_play  # noqa: E402
from lexigraph.scrabble.simulation import simulate  # noqa: E402
from lexigraph.scrabble.tiles import parse_rack, rack_text  # noqa: E402

MAGPIE = Path(os.environ.get("MAGPIE_DIR", "/work/peers/magpie"))
ROW = re.compile(r"^\s*(\d+): (\S+) (.+?)\s{2,}\S*\s+(\d+)\s+([\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+(\d+)")


def magpie_gsim(pos: Position, iterations: int, seed: int) -> list[tuple[str, float, int]]:
    """MAGPIE's simulated plays, best first: (notation, win %, iterations)."""
    board, *_ = pos.to_cgp().split()
    rack = rack_text(pos.game, parse_rack(pos.game, pos.racks[0]))
    cgp = f"{board} {rack}/ {pos.scores[0]}/{pos.scores[1]} 0"
    commands = (f"cgp {cgp}\ngsim -numplays 5 -plies 2 -iterations {iterations} -sr rr -threshold none -minp 1 "
                f"-sinfer false -seed {seed} -pfrequency 0\n")
    out = subprocess.run([str(MAGPIE / "bin" / "magpie"), "set", "-mode", "sync", "-lex", "TWL06", "-threads", "1",
                          "-savesettings", "false", "-hr", "true"], input=commands, capture_output=True, text=True,
                         cwd=MAGPIE, timeout=3600).stdout
    plays = []
    for line in out.splitlines():
        tail = line.split("┃")[-1] if "┃" in line else line
        for m in re.finditer(r"(\d+): (\S+) (\S+)\s+\S*\s+\d+\s+([\d.]+)\s+[-\d.]+\s+[-\d.]+\s+(\d+)", tail):
            plays.append((f"{m.group(2)} {m.group(3)}", float(m.group(4)), int(m.group(5))))
    return plays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--iterations", type=int, default=5000, help="play-outs in all, over the 5 moves")
    parser.add_argument("--clear", type=float, default=1.0, help="a clear margin, in points of win %%")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    path = os.path.join(tempfile.gettempdir(), f"bench-gsim-twl06-{os.getpid()}.lex")
    lexigraph.build(data_file("twl06.txt"), path, name="TWL06")
    lex = lexigraph.open(path)
    table = LeaveTable.read(str(MAGPIE / "data" / "lexica" / "TWL06.klv2"), lex.store.alphabet)
    clear = agree = agree_clear = 0
    for k, pos in enumerate(harvest(lex, table, args.positions, seed=350_777)):
        plays = magpie_gsim(pos, args.iterations, args.seed)
        if len(plays) < 2:
            print(f"position {k}: MAGPIE listed {len(plays)} plays; skipped")
            continue
        moves = []
        for notation, _w, _n in plays:
            square, word = notation.split(" ", 1)
            moves.append(score_play(lex, pos, f"{square} {word.replace('(', '').replace(')', '')}",
                                    rack=pos.racks[0]))
        per_move = args.iterations // len(plays)
        result = simulate(lex, pos, leaves=table, moves=moves, candidates=len(moves), plies=2,
                          iterations=per_move, seed=args.seed, stopping=False)
        ours = result.ranked[0].move
        pick = next(i for i, m in enumerate(moves) if m is ours)
        margin = plays[0][1] - plays[1][1]
        is_clear = margin >= args.clear
        clear += is_clear
        agree += pick == 0
        agree_clear += is_clear and pick == 0
        ranked = ", ".join(f"{p.move.notation} {100 * p.win_rate:.1f}%" for p in result.ranked)
        print(f"position {k}: {pos.to_cgp()}")
        print(f"  MAGPIE: " + ", ".join(f"{n} {w:.2f}%" for n, w, _ in plays) + f"; margin {margin:.2f}"
              + (" (clear)" if is_clear else ""))
        print(f"  lexigraph: {ranked}; pick {'=' if pick == 0 else '!='} MAGPIE's best", flush=True)
    print(f"lexigraph picks MAGPIE's best on {agree} positions; where MAGPIE's margin is clear (>= {args.clear} "
          f"points): {agree_clear} of {clear}")


if __name__ == "__main__":
    main()
