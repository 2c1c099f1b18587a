"""Load on `lexigraph serve` over the loopback interface, beside the same queries through the Python API.

    python bench/bench_serve.py                 # 3 rounds x 3 s per cell, then the 60 s hot-swap run
    python bench/bench_serve.py --quick         # a smoke run: 1 round x 1 s, 5 s swap run

The server runs in its own process (`python -m lexigraph serve` on TWL06, 127.0.0.1 only); the client is this
process: asyncio streams (a minimal keep-alive HTTP/1.1 client), a fixed number of connections each sending one request after another (a closed loop:
the load never exceeds the concurrency), for a bounded time. For each query kind (check, match and, when the
registry has it, moves) and each concurrency (1, 8, 64 clients) it prints requests/s and p50/p99 latency; rounds
are interleaved and the medians shown. The same queries are timed through the Python API (the registry's
command run in-process, no HTTP) beside them. The last run keeps 64 clients busy for 60 s while another
process replaces the served lexicon every second the way `lexigraph build -o same.lex` does (a new file written
beside it and renamed over it; the two versions, with and without 5,000 words, are compiled once beforehand
because a TWL06 build takes longer than a second here), and counts failed requests (target: none).

Both processes share the machine's two cores, so the client's own cost is part of every HTTP figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import data_file  # noqa: E402

import lexigraph  # noqa: E402
from lexigraph.commands import Context, all_commands  # noqa: E402

LEVELS = (1, 8, 64)


# -- queries -------------------------------------------------------------------------------------------------

def make_queries(words: list[str], lex: lexigraph.Lexicon, rng: random.Random, n: int = 400) -> dict[str, list[dict[str, Any]]]:
    """Per kind, a list of parameter dicts (the same for HTTP and the Python API)."""
    check = []
    for _ in range(n):
        w = rng.choice(words)
        if rng.random() < 0.5:  # half of them not words
            i = rng.randrange(len(w))
            w = w[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz") + w[i + 1:]
        check.append({"words": [w]})
    sevens = [w for w in words if len(w) == 7]
    match = []
    for _ in range(n):
        w = rng.choice(sevens)
        keep = set(rng.sample(range(7), 3))
        match.append({"patterns": ["".join(c if i in keep else "?" for i, c in enumerate(w))]})
    out = {"check": check, "match": match}
    moves = moves_queries(lex, rng, n // 8)
    if moves:
        out["moves"] = moves
    return out


def moves_queries(lex: lexigraph.Lexicon, rng: random.Random, n: int) -> list[dict[str, Any]]:
    """Empty-board and mid-game positions (best plays made from bag-drawn racks), each with a fresh rack."""
    if "moves" not in {c.name for c in all_commands()}:
        return []
    from lexigraph.scrabble.game import Game
    from lexigraph.scrabble.movegen import generate
    from lexigraph.scrabble.position import Position

    game = Game.preset("scrabble")
    bag = "".join(t * game.count_of(t) for t in "abcdefghijklmnopqrstuvwxyz").upper() + "??"

    def rack() -> str:
        return "".join(rng.sample(bag, 7))

    positions = [Position(game)]
    pos = Position(game)
    for _ in range(6):
        pos.racks[0] = rack()
        best = generate(lex, pos, top=1)
        if best and best[0].kind == "play":
            pos = pos.with_play(best[0])
            positions.append(pos)
    out = []
    for i in range(n):
        p = positions[i % len(positions)]
        out.append({"position": "empty" if p.is_empty() else p.board_text(), "rack": rack(), "top": 20})
    return out


# -- the server ----------------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(lex_path: str) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "lexigraph", "serve", "--port", str(port), "--lexicon", f"twl={lex_path}",
         "--workers", "4", "--max-pending", "256", "--timeout", "30"],
        stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    import httpx

    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(url + "/healthz", timeout=2)
            return proc, url
        except httpx.HTTPError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start: " + (proc.stderr.read() if proc.stderr else ""))
            time.sleep(0.1)


# -- the client ----------------------------------------------------------------------------------------------

class Conn:
    """One keep-alive HTTP/1.1 connection on asyncio streams: a client light enough not to be the bottleneck."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        self.writer.write(b"POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
                          b"Content-Length: %d\r\n\r\n%s" % (path.encode(), self.host.encode(), len(body), body))
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
        return status, await self.reader.readexactly(length)

    async def answered(self, path: str, body: bytes, failed: list[str]) -> bool:
        """Whether a POST got a 200; otherwise the failure goes into ``failed`` (and a broken connection is
        dropped, to be opened again by the next request)."""
        try:
            status, data = await self.post(path, body)
        except (OSError, asyncio.IncompleteReadError) as e:
            failed.append(f"{type(e).__name__}: {e}")
            self.close()
            return False
        if status != 200:
            failed.append(f"{status} {data[:120]!r}")
        return status == 200

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def load(url: str, kind: str, queries: list[dict[str, Any]], clients: int, seconds: float) -> dict[str, Any]:
    """``clients`` connections, each sending requests back to back for ``seconds``."""
    host, port = url.split("//")[1].split(":")
    bodies = [json.dumps(q).encode() for q in queries]
    lat: list[float] = []
    failed: list[str] = []
    stop = time.perf_counter() + seconds
    path = f"/api/{kind}"

    async def one(i: int) -> None:
        conn = Conn(host, int(port))
        k = i
        try:
            while time.perf_counter() < stop:
                body = bodies[k % len(bodies)]
                k += clients
                t = time.perf_counter()
                if await conn.answered(path, body, failed):
                    lat.append(time.perf_counter() - t)
        finally:
            conn.close()

    t0 = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(clients)))
    elapsed = time.perf_counter() - t0
    lat.sort()
    return {"rps": len(lat) / elapsed, "p50": pct(lat, 50), "p99": pct(lat, 99), "ok": len(lat), "failed": failed}


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(len(values) * p / 100))]


def python_api(lex: lexigraph.Lexicon, kind: str, queries: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """The registry's command run in this process, one call after another (no HTTP, no JSON)."""
    cmd = {c.name: c for c in all_commands()}[kind]
    defaults = {p.name: ([] if p.many else p.default) for p in cmd.params}
    lat: list[float] = []
    stop = time.perf_counter() + seconds
    k = 0
    t0 = time.perf_counter()
    while time.perf_counter() < stop:
        params = {**defaults, **queries[k % len(queries)]}
        k += 1
        t = time.perf_counter()
        cmd.run(Context(opener=lambda _spec: lex, max_results=1000), params)
        lat.append(time.perf_counter() - t)
    elapsed = time.perf_counter() - t0
    lat.sort()
    return {"rps": len(lat) / elapsed, "p50": pct(lat, 50), "p99": pct(lat, 99)}


# -- hot swap ------------------------------------------------------------------------------------------------

REBUILD = """
import os, sys, tempfile, time, lexigraph
from lexigraph.engine.fileformat import write_atomic
words = open(sys.argv[1]).read().split()
# Two versions of the list, compiled once: a TWL06 build takes 1-3 s on this machine, longer than the period.
d = tempfile.mkdtemp()
versions = []
for i, ws in enumerate((words, words[:-5000])):
    path = os.path.join(d, f"v{i}.lex")
    lexigraph.build(ws, path)
    versions.append(open(path, "rb").read())
print("ready", flush=True)
stop = time.monotonic() + float(sys.argv[3])
n = 0
while time.monotonic() < stop:
    t = time.monotonic()
    write_atomic(sys.argv[2], versions[(n + 1) % 2])   # build's own last step: a temporary file renamed over the served one
    n += 1
    time.sleep(max(0.0, 1.0 - (time.monotonic() - t)))
print(n)
"""


async def swap_run(url: str, words_path: Path, lex_path: str, queries: dict[str, list[dict[str, Any]]],
                   seconds: float, clients: int = 64) -> dict[str, Any]:
    import httpx

    builder = subprocess.Popen([sys.executable, "-c", REBUILD, str(words_path), lex_path, str(seconds)],
                               stdout=subprocess.PIPE, text=True)
    assert builder.stdout is not None
    builder.stdout.readline()  # both versions compiled; the swaps start now
    mixed = [("/api/check", json.dumps(q).encode()) for q in queries["check"]]
    mixed += [("/api/match", json.dumps(q).encode()) for q in queries["match"]]
    random.Random(7).shuffle(mixed)
    host, port = url.split("//")[1].split(":")
    failed: list[str] = []
    done = 0
    t0 = time.perf_counter()
    stop = t0 + seconds

    async def one(i: int) -> None:
        nonlocal done
        conn = Conn(host, int(port))
        k = i
        try:
            while time.perf_counter() < stop:
                path, body = mixed[k % len(mixed)]
                k += clients
                if await conn.answered(path, body, failed):
                    done += 1
        finally:
            conn.close()

    await asyncio.gather(*(one(i) for i in range(clients)))
    elapsed = time.perf_counter() - t0
    rebuilds = int(builder.communicate(timeout=120)[0].strip() or 0)
    status = httpx.get(url + "/api/lexicons").json()["results"][0]
    return {"requests": done, "failed": failed, "rebuilds": rebuilds, "swaps": status["generation"],
            "rps": done / elapsed}


# -- main ----------------------------------------------------------------------------------------------------

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="length of each cell (default 3)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    ap.add_argument("--swap-seconds", type=float, default=60.0, help="length of the hot-swap run (default 60; 0 skips)")
    ap.add_argument("--quick", action="store_true", help="1 round of 1 s cells and a 5 s swap run")
    args = ap.parse_args()
    if args.quick:
        args.seconds, args.rounds, args.swap_seconds = 1.0, 1, 5.0

    words_path = data_file("twl06.txt")
    words = words_path.read_text().split()
    lex_path = os.path.join(tempfile.mkdtemp(prefix="lexigraph-bench-"), "twl06.lex")
    lexigraph.build(words_path, lex_path)
    lex = lexigraph.open(lex_path)
    rng = random.Random(16)
    queries = make_queries(words, lex, rng)
    if "moves" not in queries:
        print("note: no moves command in this build's registry (issue 13); moves rows skipped\n")

    proc, url = start_server(lex_path)
    try:
        http: dict[tuple[str, int], list[dict[str, Any]]] = {}
        api: dict[str, list[dict[str, Any]]] = {}
        for kind, qs in queries.items():   # warm both sides once
            asyncio.run(load(url, kind, qs, 4, 0.3))
            python_api(lex, kind, qs, 0.3)
        for _ in range(args.rounds):
            for kind, qs in queries.items():
                for n in LEVELS:
                    http.setdefault((kind, n), []).append(asyncio.run(load(url, kind, qs, n, args.seconds)))
                api.setdefault(kind, []).append(python_api(lex, kind, qs, args.seconds))

        def med(runs: list[dict[str, Any]], key: str) -> float:
            return statistics.median(r[key] for r in runs)

        print("| query | clients | requests/s | p50 ms | p99 ms | failed | Python API calls/s | HTTP / API |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for kind in queries:
            a = api[kind]
            for n in LEVELS:
                runs = http[(kind, n)]
                fails = sum(len(r["failed"]) for r in runs)
                rps = med(runs, "rps")
                print(f"| {kind} | {n} | {rps:,.0f} | {med(runs, 'p50') * 1e3:.2f} | {med(runs, 'p99') * 1e3:.2f} | "
                      f"{fails} | {med(a, 'rps'):,.0f} | {rps / med(a, 'rps'):.3f}x |")
            print(f"| {kind}: Python API | - | {med(a, 'rps'):,.0f} | {med(a, 'p50') * 1e3:.3f} | "
                  f"{med(a, 'p99') * 1e3:.3f} | - | - | - |")
        for (kind, n), runs in http.items():
            for r in runs:
                for f in r["failed"][:3]:
                    print(f"failed ({kind}, {n} clients): {f}")

        if args.swap_seconds > 0:
            res = asyncio.run(swap_run(url, words_path, lex_path, queries, args.swap_seconds))
            print(f"\nhot swap: {args.swap_seconds:.0f} s at 64 clients (check and match), lexicon rebuilt "
                  f"{res['rebuilds']} times (a new file renamed over it each second), {res['swaps']} swaps made by the server; {res['requests']:,} requests "
                  f"answered ({res['rps']:,.0f}/s), {len(res['failed'])} failed")
            for f in res["failed"][:5]:
                print("  failed:", f)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
