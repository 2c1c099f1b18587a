"""Move generation, side by side with scrabble-solver (Node, GADDAG) on TWL06.

Same positions, racks and word list for both: the peer's example positions
(empty board, one mid-game board) plus mid-game boards made here by playing
the best move from a seeded bag, each with racks of 0, 1 and 2 blanks.
Rounds interleave: each round runs the peer (a Node process timing every
position) and then lexigraph on every position. Per row: the medians over
rounds of each side's median per call, the ratio (peer time / lexigraph
time), the distinct placements each finds (must be equal), and lexigraph's
moves per second.

    python bench/bench_moves.py [--rounds 3] [--runs 5]

lexigraph's time is a full generation: every legal play scored (the C
records); "top 20" adds sorting and building the 20 best as Move objects.
On a loaded machine wall times are bimodal (a call is sometimes preempted);
the CPU-time ratio (the peer's process CPU time per call against ours)
counts only the time each side ran.
Without Node or the peer's setup script, the peer columns are skipped with
a note.
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
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from common import data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.movegen import count_placements, generate  # noqa: E402
from lexigraph.scrabble.position import Position  # noqa: E402

PEER = Path(os.environ.get("LEXIGRAPH_PEERS", Path(os.environ.get("LEXIGRAPH_SHARED_DATA", HERE.parents[1] / "shared" / "data")).parent / "peers")) / "scrabble-solver"
RACKS = {"0 blanks": ["AEINRST", "AALNSTU", "EIOQRTU"], "1 blank": ["AALNST?", "EIRSTV?"], "2 blanks": ["AEINR??"]}


def midgame_positions(lex: lexigraph.Lexicon, game: Game, seeds: list[int], turns: int) -> list[Position]:
    """Boards reached by both sides playing the top-scoring move from a shuffled bag."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        bag = [game.alphabet.label(c).upper() if c else "?" for c, n in enumerate(game.counts_by_code())
               for _ in range(n)]
        rng.shuffle(bag)
        pos = Position(game)
        racks = [[], []]
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


def board_rows(pos: Position) -> list[str]:
    return [row.lower() for row in pos.board_text().splitlines()]


def setup_peer() -> Path | None:
    if shutil.which("node") is None or not (PEER / "setup.sh").exists():
        return None
    try:
        got = subprocess.run(["sh", str(PEER / "setup.sh")], capture_output=True, text=True, check=True, timeout=600)
    except (subprocess.SubprocessError, OSError) as e:
        print(f"note: the peer's setup failed ({e}); peer columns skipped", file=sys.stderr)
        return None
    return Path(got.stdout.strip().splitlines()[-1])


def run_peer(peer_dir: Path, words: Path, positions: Path, runs: int) -> list[dict]:
    out = subprocess.run(["node", str(peer_dir / "moves.js"), str(words), str(positions), str(runs), "2"],
                         capture_output=True, text=True, check=True, timeout=3600)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{") and '"name"' in line]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    words = data_file("twl06.txt")
    tmp = Path(tempfile.mkdtemp())
    lex_path = tmp / "twl06.lex"
    lexigraph.build(words, lex_path)
    lex = lexigraph.open(lex_path)
    game = Game.preset("scrabble")

    peer_positions = json.loads((PEER / "positions.json").read_text()) if (PEER / "positions.json").exists() else []
    boards: list[tuple[str, list[str]]] = [("empty", ["." * 15] * 15)]
    for p in peer_positions:
        if p["name"] != "empty" and (p["name"], p["board"]) not in boards:
            boards.append((p["name"], p["board"]))
            break
    for k, pos in enumerate(midgame_positions(lex, game, [11, 22, 33], 8), 2):
        boards.append((f"midgame-{k}", board_rows(pos)))
    rows = []
    for name, board in boards:
        for kind, racks in RACKS.items():
            for rack in racks:
                rows.append({"name": name, "kind": kind, "rack": rack, "board": board})
    pos_file = tmp / "positions.json"
    pos_file.write_text(json.dumps([{"name": f"{r['name']}|{r['rack']}", "rack": r["rack"], "board": r["board"]}
                                    for r in rows]))
    positions = [Position.from_text("\n".join(r["board"]), game) for r in rows]

    peer_dir = setup_peer()
    if peer_dir is None:
        print("note: Node or the scrabble-solver setup is missing: lexigraph figures only", file=sys.stderr)
    ours: list[list[float]] = [[] for _ in rows]
    ours_top: list[list[float]] = [[] for _ in rows]
    peer_ms: list[list[float]] = [[] for _ in rows]
    ours_cpu: list[list[float]] = [[] for _ in rows]
    peer_cpu: list[list[float]] = [[] for _ in rows]
    peer_moves: list[int | None] = [None] * len(rows)
    counts = [count_placements(lex, p, r["rack"]) for p, r in zip(positions, rows)]
    for _ in range(args.rounds):
        if peer_dir is not None:
            for k, res in enumerate(run_peer(peer_dir, words, pos_file, args.runs)):
                peer_ms[k].append(res["median_ms"])
                peer_cpu[k].append(res["cpu_median_ms"])
                peer_moves[k] = res["moves"]
        for k, (p, r) in enumerate(zip(positions, rows)):
            ts, tt, tc = [], [], []
            for _ in range(args.runs):
                c = time.process_time()
                t = time.perf_counter()
                count_placements(lex, p, r["rack"])
                ts.append(time.perf_counter() - t)
                tc.append(time.process_time() - c)
                t = time.perf_counter()
                generate(lex, p, r["rack"], top=20)
                tt.append(time.perf_counter() - t)
            ours[k].append(statistics.median(ts) * 1000)
            ours_cpu[k].append(statistics.median(tc) * 1000)
            ours_top[k].append(statistics.median(tt) * 1000)

    print("| position | rack | placements (lexigraph / peer) | lexigraph ms | top 20 ms | peer ms | "
          "ratio: median (range) over rounds | CPU-time ratio | lexigraph moves/s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    ratios: dict[str, list[float]] = {}
    cpu_ratios: list[float] = []
    for k, r in enumerate(rows):
        mine = statistics.median(ours[k])
        top = statistics.median(ours_top[k])
        peer = statistics.median(peer_ms[k]) if peer_ms[k] else None
        per_round = [pm / om for pm, om in zip(peer_ms[k], ours[k])] if peer_ms[k] else []
        ratio = (f"{statistics.median(per_round):.1f}x ({min(per_round):.1f}-{max(per_round):.1f})"
                 if per_round else "-")
        if per_round:
            ratios.setdefault(r["kind"], []).extend(per_round)
        cpu_rounds = [pc / max(oc, 1e-6) for pc, oc in zip(peer_cpu[k], ours_cpu[k])]
        cpu_ratio = f"{statistics.median(cpu_rounds):.1f}x" if cpu_rounds else "-"
        if cpu_rounds:
            cpu_ratios.append(statistics.median(cpu_rounds))
        pm = peer_moves[k]
        same = "" if pm is None or pm == counts[k] else " (differ)"
        print(f"| {r['name']} | {r['rack']} | {counts[k]:,} / {pm if pm is not None else '-'}{same} | {mine:.3f} | "
              f"{top:.3f} | {f'{peer:.3f}' if peer is not None else '-'} | {ratio} | {cpu_ratio} | {counts[k] / mine * 1000:,.0f} |")
    for kind, rs in ratios.items():
        print(f"{kind}: ratio median {statistics.median(rs):.1f}x, range {min(rs):.1f}-{max(rs):.1f}x")
    row_medians = [statistics.median([pm / om for pm, om in zip(peer_ms[k], ours[k])]) for k in range(len(rows))
                   if peer_ms[k]]
    if row_medians:
        print(f"lowest row median {min(row_medians):.1f}x; rows with a median below 10x: "
              f"{sum(1 for r in row_medians if r < 10)} of {len(row_medians)}")
    if cpu_ratios:
        print(f"CPU time: lowest row {min(cpu_ratios):.1f}x, median row {statistics.median(cpu_ratios):.1f}x; "
              f"rows below 10x: {sum(1 for r in cpu_ratios if r < 10)} of {len(cpu_ratios)}")
    shutil.rmtree(tmp, ignore_errors=True)
    if any(pm is not None and pm != c for pm, c in zip(peer_moves, counts)):
        print("placement counts differ from the peer's", file=sys.stderr)


if __name__ == "__main__":
    main()
