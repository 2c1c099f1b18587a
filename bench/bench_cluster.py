"""Issue 23: Dask and Ray on a local cluster, running self-play batches (the measurement behind docs/selfplay.md).

    pip install 'dask[distributed]' ray
    python bench/bench_cluster.py                 # 2 worker processes, 3 rounds
    python bench/bench_cluster.py --workers 4 --games 8000

Per engine: the seconds to start a local cluster of single-threaded worker processes and connect; the wall
seconds of a run of ``--games`` games in batches of 200 (the equity player with NWL18's table against the score
player, ENABLE), and of 400 one-game tasks (the dispatch cost); the same run on the local process pool for
reference; then the cluster's shutdown. Each result must equal the process pool's game for game. Medians and
ranges over the rounds, the engines interleaved.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import DATA  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.scrabble.game import Game  # noqa: E402
from lexigraph.scrabble.leaves import LeaveTable  # noqa: E402
from lexigraph.scrabble.selfplay import LexiconRef, Player, batches, run_batch, run_batches, run_spec  # noqa: E402
from lexigraph.scrabble.workers import kept_records  # noqa: E402


def request_and_ref() -> tuple[Any, LexiconRef]:
    lex = lexigraph.open()
    table = LeaveTable.read(DATA / "nwl18-leaves.klv2", lex.store.alphabet)
    # the run as its workers take it (picklable): each worker makes the lexicon's game tables once
    request = run_spec(Game.preset("scrabble").for_lexicon(lex.store.alphabet), [Player.equity(table), Player.score()],
                       1)
    return request, LexiconRef.of(lex)


def dask_round(workers: int, request: Any, ref: LexiconRef, games: int) -> dict[str, Any]:
    from distributed import Client, LocalCluster

    t0 = time.perf_counter()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           silence_logs=50)
    client = Client(cluster)
    t1 = time.perf_counter()
    run = [f.result() for f in [client.submit(run_batch, ref, request, a, n, kept_records, pure=False)
                                for a, n in batches(0, games)]]
    t2 = time.perf_counter()
    [f.result() for f in [client.submit(run_batch, ref, request, i, 1, kept_records, pure=False) for i in range(400)]]
    t3 = time.perf_counter()
    client.close()
    cluster.close()
    t4 = time.perf_counter()
    return {"start": t1 - t0, "run": t2 - t1, "tiny": t3 - t2, "stop": t4 - t3, "games": run}


def ray_round(workers: int, request: Any, ref: LexiconRef, games: int) -> dict[str, Any]:
    import ray

    t0 = time.perf_counter()
    ray.init(num_cpus=workers, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    remote = ray.remote(num_cpus=1)(run_batch)
    ray.get([remote.remote(ref, request, 0, 1, kept_records) for _ in range(workers)])  # the workers up (Ray starts them lazily)
    t1 = time.perf_counter()
    run = ray.get([remote.remote(ref, request, a, n, kept_records) for a, n in batches(0, games)])
    t2 = time.perf_counter()
    ray.get([remote.remote(ref, request, i, 1, kept_records) for i in range(400)])
    t3 = time.perf_counter()
    ray.shutdown()
    t4 = time.perf_counter()
    return {"start": t1 - t0, "run": t2 - t1, "tiny": t3 - t2, "stop": t4 - t3, "games": run}


def pool_round(workers: int, request: Any, ref: LexiconRef, games: int) -> dict[str, Any]:
    t1 = time.perf_counter()
    run = list(run_batches(ref, request, batches(0, games), workers=workers, cluster=None,
                          reducer=kept_records))
    t2 = time.perf_counter()
    return {"start": 0.0, "run": t2 - t1, "tiny": float("nan"), "stop": 0.0, "games": run}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    request, ref = request_and_ref()
    engines = {"process pool": pool_round, "Dask": dask_round, "Ray": ray_round}
    got: dict[str, list[dict[str, Any]]] = {k: [] for k in engines}
    for _ in range(args.rounds):
        for name, fn in engines.items():
            try:
                got[name].append(fn(args.workers, request, ref, args.games))
            except ImportError as e:
                print(f"{name}: not installed ({e})", file=sys.stderr)
    reference = [bytes(g) for t, g in got["process pool"][0]["games"]]
    print(f"# {args.games:,} games in batches of 200, {args.workers} single-threaded workers, "
          f"{args.rounds} rounds, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load average {os.getloadavg()[0]:.2f}")
    print()
    print("| engine | start (s) | run (s) | games/s | 400 one-game tasks (s) | shutdown (s) | same games |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, rounds in got.items():
        if not rounds:
            continue

        def cell(key: str, rounds: list[dict[str, Any]] = rounds) -> str:
            xs = [r[key] for r in rounds]
            if any(x != x for x in xs):
                return "-"
            return f"{statistics.median(xs):.2f} ({min(xs):.2f}-{max(xs):.2f})"

        same = all([bytes(g) for t, g in r["games"]] == reference for r in rounds)
        rate = args.games / statistics.median(r["run"] for r in rounds)
        print(f"| {name} | {cell('start')} | {cell('run')} | {rate:.0f} | {cell('tiny')} | {cell('stop')} | "
              f"{'yes' if same else 'NO'} |")


if __name__ == "__main__":
    main()
