"""The cardbox with 50,000 cards: an answer graded (a review), the next question (the longest overdue card), and
the due counts, each timed call by call on a file store (WAL, synchronous=FULL); p50, p99 and max in ms.

The issue asks each under 20 ms at p99. The store is filled first (50,000 cards of four quiz types, most with a
review history, due dates spread over a year either side of "now"); then the three operations run interleaved,
one call each per round, so the machine's noise falls on all three alike. A second user's 50,000 cards sit in
the same file, so every query has to pick its user's rows out of 100,000.

Run: python bench/bench_cardbox.py [--cards 50000] [--rounds 2000] [--store PATH]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from lexigraph.study.cardbox import CardBox  # noqa: E402

TYPES = ("anagram", "subanagram", "hooks", "pattern")
NOW = 1_800_000_000.0


def fill(box: CardBox, user: str, cards: int, rng: random.Random) -> None:
    """``cards`` cards for ``user``: added in one transaction per type, then their state written directly as a
    review history would leave it (replaying 50,000 histories through FSRS would only slow the set-up)."""
    per = cards // len(TYPES)
    for kind in TYPES:
        box.add(user, "ENABLE", kind, (f"{kind[:2].upper()}{i:06d}" for i in range(per)), now=NOW)
    conn = box._conn  # noqa: SLF001 - the benchmark forges states in bulk
    rows = conn.execute("SELECT id FROM cards WHERE user = ?", (user,)).fetchall()
    conn.execute("BEGIN")
    for (key,) in rows:
        if rng.random() < 0.1:
            continue  # new: due now
        due = NOW + rng.uniform(-180, 180) * 86400
        conn.execute("UPDATE cards SET state = 2, step = NULL, stability = ?, difficulty = ?, due = ?, "
                     "last_review = ?, reviews = ? WHERE id = ?",
                     (rng.uniform(1, 200), rng.uniform(1, 10), due, due - 86400 * rng.uniform(1, 60),
                      rng.randint(1, 20), key))
    conn.execute("COMMIT")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--store", default=None)
    args = parser.parse_args()
    path = args.store or str(Path(tempfile.mkdtemp()) / "study.sqlite")
    rng = random.Random(37)
    box = CardBox(path)
    t = time.perf_counter()
    fill(box, "me", args.cards, rng)
    fill(box, "other", args.cards, rng)
    print(f"filled {2 * args.cards:,} cards in {time.perf_counter() - t:.1f} s ({path})")
    times: dict[str, list[float]] = {"answer": [], "next question": [], "due counts": []}
    clock = NOW
    for i in range(args.rounds):
        clock += 1.0
        t = time.perf_counter()
        card = box.due("me", "ENABLE", rng.choice(TYPES), limit=1, now=clock)
        times["next question"].append(time.perf_counter() - t)
        prompt = card[0].prompt if card else f"AN{rng.randrange(args.cards // 4):06d}"
        kind = card[0].type if card else "anagram"
        t = time.perf_counter()
        box.review("me", "ENABLE", kind, prompt, correct=rng.random() < 0.7, now=clock)
        times["answer"].append(time.perf_counter() - t)
        t = time.perf_counter()
        box.counts("me", "ENABLE", now=clock)
        times["due counts"].append(time.perf_counter() - t)
    print(f"\n{args.cards:,} cards per user, 2 users, {args.rounds} rounds (ms per call)\n")
    print("| operation | p50 | p99 | max |")
    print("|---|---:|---:|---:|")
    for name, values in times.items():
        ms = [v * 1000 for v in values]
        print(f"| {name} | {statistics.median(ms):.2f} | {percentile(ms, 0.99):.2f} | {max(ms):.2f} |")
    box.close()


if __name__ == "__main__":
    main()
