"""Load on `lexigraph serve` over the loopback interface, beside the same queries through the Python API.

    python bench/bench_serve.py                 # 3 rounds x 3 s per cell, the 60 s hot-swap run, the overload run
    python bench/bench_serve.py --quick         # a smoke run: 1 round x 1 s, 5 s swap run, one overload run
    python bench/bench_serve.py --overload-only # only the overload run (3 rounds)
    python bench/bench_serve.py --heavy-only    # only the heavy clients' run (issue 32: 3 rounds of 30 s)

The server runs in its own process (`python -m lexigraph serve` on TWL06, 127.0.0.1 only); the client is this
process: asyncio streams (a minimal keep-alive HTTP/1.1 client), a fixed number of connections each sending one request after another (a closed loop:
the load never exceeds the concurrency), for a bounded time. For each query kind (check, match and, when the
registry has it, moves) and each concurrency (1, 8, 64 clients) it prints requests/s and p50/p99 latency; rounds
are interleaved and the medians shown. The same queries are timed through the Python API (the registry's
command run in-process, no HTTP) beside them. The last run keeps 64 clients busy for 60 s while another
process replaces the served lexicon every second the way `lexigraph build -o same.lex` does (a new file written
beside it and renamed over it; the two versions, with and without 5,000 words, are compiled once beforehand
because a TWL06 build takes longer than a second here), and counts failed requests (target: none).

The overload run (issue 21) starts a fresh server (default limits: `--timeout 10`, 4 query workers, 2 quick
workers, `--max-pending 128` per lane, 2 fills) and sends, all at once on connections of their own, 50
expensive requests of each kind: a thousand `*e*` patterns (at the `--max-values` cap; 5,000 would be refused at
once), a fifteen-blank rack, moves for a rack with two blanks on a mid-game board, a fill of an open 15x15 grid.
Meanwhile 8 connections send one-word `check` requests back to back. It reports the checks' p50/p99 latency
and failures (target: p99 under 100 ms, none failed), how long each expensive request took from its send to
its answer against its deadline plus one second, and, sampling the server's CPU time in /proc every 0.1 s,
how long after the last deadline (the last send plus `--timeout`) the server's CPU fell idle (target: 2 s;
idle: under 5% of one core over 0.5 s).

The heavy clients' run (issue 32) starts a fresh server with its default limits and keeps 32 clients busy
for 30 s a round, each sending its next heavy request when the last is answered (after a 503, once its
Retry-After has passed): 8 endgames of up to 7 + 7 tiles from self-play with 512 MB tables, 8 simulations of a
million iterations, 8 move lists for ??AEIRS on mid-game boards (top 1000), 8 fills of an open 15x15 grid;
one more connection sends one-word checks back to back. It prints the checks' p50, p99 and max (target: p99
under 100 ms) and how each heavy kind was answered. `--serve-args '--heavy-workers 0'` runs the same load on a
server whose heavy commands run in its threads.

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
#: Seconds after which the client opens a new connection rather than reuse an idle one (uvicorn closes at 5).
IDLE_CLOSE = 4.0
#: Extra ``lexigraph serve`` arguments for every server the benchmark starts (``--serve-args``).
SERVE_ARGS: list[str] = []


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


def start_server(lex_path: str, tuned: bool = True) -> tuple[subprocess.Popen[str], str]:
    """The server on TWL06; ``tuned``: the throughput runs' limits, else the defaults (the overload run)."""
    port = free_port()
    limits = ["--workers", "4", "--max-pending", "256", "--timeout", "30"] if tuned else []
    proc = subprocess.Popen(
        [sys.executable, "-m", "lexigraph", "serve", "--port", str(port), "--lexicon", f"twl={lex_path}",
         "--games-db", ":memory:", *limits, *SERVE_ARGS],
        stderr=subprocess.DEVNULL, text=True)
    url = f"http://127.0.0.1:{port}"
    import httpx

    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(url + "/healthz", timeout=2)
            return proc, url
        except httpx.HTTPError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.1)


# -- the client ----------------------------------------------------------------------------------------------

class Conn:
    """One keep-alive HTTP/1.1 connection on asyncio streams: a client light enough not to be the bottleneck."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.retry_after = 0.0
        self.last = 0.0

    async def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        if self.writer is not None and time.monotonic() - self.last > IDLE_CLOSE:
            self.close()  # the server closes a keep-alive connection idle for 5 s: a new one, as browsers do
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        self.writer.write(b"POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
                          b"Content-Length: %d\r\n\r\n%s" % (path.encode(), self.host.encode(), len(body), body))
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = 0
        self.retry_after = 0.0
        for line in head.split(b"\r\n")[1:]:
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
            elif line[:12].lower() == b"retry-after:":
                self.retry_after = float(line[12:])
        data = await self.reader.readexactly(length)
        self.last = time.monotonic()
        return status, data

    async def post_with_retry(self, path: str, body: bytes) -> tuple[int, bytes, float]:
        """A POST's status, body and the seconds its ``Retry-After`` asks to wait (0 without one)."""
        status, data = await self.post(path, body)
        return status, data, self.retry_after

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


# -- overload: expensive requests in flight, cheap ones beside them ------------------------------------------

OPEN_GRID = "\n".join(["." * 15] * 15) + "\n"


def expensive_requests(lex: lexigraph.Lexicon, rng: random.Random, each: int = 50) -> list[tuple[str, bytes]]:
    """``each`` requests of each expensive kind, interleaved: patterns, fifteen blanks, moves, fills."""
    kinds: list[tuple[str, dict[str, Any]]] = [("/api/match", {"patterns": ["*e*"] * 1000}),
                                                ("/api/anagram", {"racks": ["?" * 15]})]
    names = {c.name for c in all_commands()}
    moves = moves_queries(lex, rng, each) if "moves" in names else []
    if "fill" in names:
        kinds.append(("/api/fill", {"grid_text": OPEN_GRID}))
    out = []
    for i in range(each):
        for path, body in kinds:
            out.append((path, json.dumps(body).encode()))
        if moves:
            q = dict(moves[i % len(moves)], rack="??AEIRS", top=1000)
            out.append(("/api/moves", json.dumps(q).encode()))
    return out


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def overload_run(url: str, pid: int, lex: lexigraph.Lexicon, checks: list[dict[str, Any]], timeout: float,
                       rng: random.Random, cheap_clients: int = 8) -> dict[str, Any]:
    host, port = url.split("//")[1].split(":")
    heavy = expensive_requests(lex, rng)
    check_bodies = [json.dumps(q).encode() for q in checks]
    lat: list[float] = []
    failed: list[str] = []
    ends: list[tuple[str, str, float]] = []
    sent: list[float] = []
    stop_checks = asyncio.Event()
    samples: list[tuple[float, float]] = []

    async def sample() -> None:
        while True:
            samples.append((time.monotonic(), cpu_seconds(pid)))
            await asyncio.sleep(0.1)

    async def cheap(i: int) -> None:
        conn = Conn(host, int(port))
        k = i
        try:
            while not stop_checks.is_set():
                body = check_bodies[k % len(check_bodies)]
                k += cheap_clients
                t = time.perf_counter()
                if await conn.answered("/api/check", body, failed):
                    lat.append(time.perf_counter() - t)
        finally:
            conn.close()

    async def expensive(path: str, body: bytes) -> None:
        conn = Conn(host, int(port))
        t = time.monotonic()
        sent.append(t)
        try:
            code, data = await conn.post(path, body)
            status = str(code) if code == 200 else f"{code} {json.loads(data)['error']['type']}"
        except (OSError, asyncio.IncompleteReadError) as e:
            status = "no answer"
            failed.append(f"{path}: {type(e).__name__}")
        finally:
            conn.close()
        ends.append((path, status, time.monotonic() - t))

    sampler = asyncio.create_task(sample())
    checkers = [asyncio.create_task(cheap(i)) for i in range(cheap_clients)]
    await asyncio.sleep(0.5)  # the checks running before the load arrives
    await asyncio.gather(*(expensive(path, body) for path, body in heavy))
    last_deadline = max(sent) + timeout
    stop_checks.set()  # the checks end with the load: from here on the server should fall idle
    await asyncio.gather(*checkers)
    await asyncio.sleep(max(0.0, last_deadline + 5 - time.monotonic()))
    sampler.cancel()
    idle_after = float("nan")  # seconds after the last deadline when the CPU fell idle
    for i, (t, cpu) in enumerate(samples):
        window = [s for s in samples[i:] if s[0] <= t + 0.6]  # samples 0.1 s apart, give or take
        if t >= last_deadline - 2 and window[-1][0] - t >= 0.5:
            if (window[-1][1] - cpu) / (window[-1][0] - t) < 0.05:
                idle_after = t - last_deadline
                break
    usage = [(round(b[0] - last_deadline, 1), round((b[1] - a[1]) / (b[0] - a[0]), 2))
             for a, b in zip(samples, samples[1:]) if b[0] >= last_deadline - 3]
    lat.sort()
    by_kind: dict[str, list[tuple[str, float]]] = {}
    for path, status, took in ends:
        by_kind.setdefault(path, []).append((status, took))
    return {"checks": len(lat), "p50": pct(lat, 50), "p99": pct(lat, 99), "failed": failed,
            "kinds": by_kind, "idle_after": idle_after, "timeout": timeout, "usage": usage}


def print_overload(runs: list[dict[str, Any]]) -> None:
    print("\n| round | checks | check p50 ms | check p99 ms | checks failed | slowest expensive answer, s (deadline "
          "+ 1 s) | CPU idle after the last deadline, s |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for i, r in enumerate(runs, 1):
        slowest = max(took for kind in r["kinds"].values() for _, took in kind)
        print(f"| {i} | {r['checks']:,} | {r['p50'] * 1e3:.1f} | {r['p99'] * 1e3:.1f} | "
              f"{sum(not f.startswith('/') for f in r['failed'])} | {slowest:.2f} ({r['timeout'] + 1:g}) | "
              f"{r['idle_after']:.1f} |")
    print("\n| expensive kind | answers (status: count), all rounds | median s from send to answer | max s |")
    print("|---|---|---:|---:|")
    kinds: dict[str, list[tuple[str, float]]] = {}
    for r in runs:
        for kind, got in r["kinds"].items():
            kinds.setdefault(kind, []).extend(got)
    for kind, got in kinds.items():
        statuses: dict[str, int] = {}
        for status, _ in got:
            statuses[status] = statuses.get(status, 0) + 1
        took = [t for _, t in got]
        print(f"| {kind} | {', '.join(f'{s}: {n}' for s, n in sorted(statuses.items()))} | "
              f"{statistics.median(took):.2f} | {max(took):.2f} |")


def overload(lex_path: str, lex: lexigraph.Lexicon, queries: dict[str, list[dict[str, Any]]], rounds: int) -> None:
    runs = []
    for i in range(rounds):
        proc, url = start_server(lex_path, tuned=False)
        try:
            import httpx

            for path, body in [("/api/match", {"patterns": ["*e*"]}), ("/api/anagram", {"racks": ["?" * 15]})]:
                httpx.post(url + path, json=body, timeout=60)  # the lexicon's derived arrays built once, as in use
            runs.append(asyncio.run(overload_run(url, proc.pid, lex, queries["check"], 10.0, random.Random(21 + i))))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print_overload(runs)
    for r in runs:
        for f in r["failed"][:5]:
            print("  failed:", f)


# -- heavy clients (issue 32): 32 clients keeping the heaviest jobs in flight, one check client beside them --

HEAVY_KINDS = ("endgame", "sim", "moves", "fill")


def endgame_positions(lex: lexigraph.Lexicon, games: int = 12) -> list[str]:
    """CGPs of self-play games' first positions with the bag empty (both racks known): endgames of up to 7 + 7
    tiles, most of which the exact search does not finish within a request's 10 s."""
    from lexigraph.scrabble.endgame import first_endgame
    from lexigraph.scrabble.game import Game
    from lexigraph.scrabble.selfplay import Player, autoplay

    run = autoplay(lex, Game.preset("scrabble"), [Player.equity(None, "a"), Player.equity(None, "b")], games=games,
                   workers=1, keep_games=True, seed=32)
    found = (first_endgame(run, k) for k in range(games))
    return sorted({pos.to_cgp() for pos in found if pos is not None})


def heavy_bodies(lex: lexigraph.Lexicon, rng: random.Random) -> dict[str, list[bytes]]:
    """Per heavy kind, the request bodies its clients cycle through: endgames with 512 MB tables, simulations of
    a million iterations (cut by the deadline), two-blank move lists (every move), fills of an open 15x15 grid."""
    boards = [q["position"] for q in moves_queries(lex, rng, 24)]
    return {
        "endgame": [json.dumps({"position": cgp, "table_mb": 512}).encode() for cgp in endgame_positions(lex)],
        "sim": [json.dumps({"position": board, "rack": "".join(rng.sample("AEINRSTLDGOU", 7)), "candidates": 20,
                            "iterations": 1_000_000, "seed": k}).encode() for k, board in enumerate(boards)],
        "moves": [json.dumps({"position": board, "rack": "??AEIRS", "top": 1000}).encode() for board in boards],
        "fill": [json.dumps({"grid_text": OPEN_GRID}).encode()],
    }


async def heavy_run(url: str, checks: list[dict[str, Any]], heavy: dict[str, list[bytes]], seconds: float,
                    clients: int = 32) -> dict[str, Any]:
    """``clients`` connections (an equal share per heavy kind), each sending its next heavy request when the last
    is answered (after a 503, when its Retry-After has passed), and one connection sending one-word checks back
    to back; for ``seconds``. The checks' latencies, every answer's status per kind."""
    host, port = url.split("//")[1].split(":")
    check_bodies = [json.dumps(q).encode() for q in checks]
    lat: list[float] = []
    failed: list[str] = []
    statuses: dict[str, dict[str, int]] = {kind: {} for kind in heavy}
    started = time.perf_counter()
    stop = started + seconds
    kinds = list(heavy)

    async def one_heavy(i: int) -> None:
        kind = kinds[i % len(kinds)]
        bodies = heavy[kind]
        conn = Conn(host, int(port))
        k = i
        try:
            while time.perf_counter() < stop:
                body = bodies[k % len(bodies)]
                k += 1
                try:
                    code, data, wait = await conn.post_with_retry(f"/api/{kind}", body)
                except (OSError, asyncio.IncompleteReadError) as e:
                    failed.append(f"/api/{kind}: {type(e).__name__}")
                    conn.close()
                    await asyncio.sleep(0.5)
                    continue
                status = str(code) if code == 200 else f"{code} {json.loads(data)['error']['type']}"
                statuses[kind][status] = statuses[kind].get(status, 0) + 1
                if wait:
                    await asyncio.sleep(min(wait, max(0.0, stop - time.perf_counter())))
        finally:
            conn.close()

    async def checker() -> None:
        conn = Conn(host, int(port))
        k = 0
        await asyncio.sleep(2.0)  # the heavy requests in flight first
        try:
            while time.perf_counter() < stop:
                body = check_bodies[k % len(check_bodies)]
                k += 1
                t = time.perf_counter()
                if await conn.answered("/api/check", body, failed):
                    lat.append(time.perf_counter() - t)
        finally:
            conn.close()

    await asyncio.gather(checker(), *(one_heavy(i) for i in range(clients)))
    lat.sort()
    return {"checks": len(lat), "p50": pct(lat, 50), "p99": pct(lat, 99), "max": lat[-1] if lat else float("nan"),
            "failed": failed, "statuses": statuses}


def print_heavy(runs: list[dict[str, Any]], seconds: float, clients: int) -> None:
    print(f"\nheavy clients (issue 32): {clients} clients ({', '.join(HEAVY_KINDS)}: {clients // 4} each) for "
          f"{seconds:g} s, one check client beside them")
    print("| round | checks | check p50 ms | check p99 ms | check max ms | checks failed | load before |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    for i, r in enumerate(runs, 1):
        print(f"| {i} | {r['checks']:,} | {r['p50'] * 1e3:.1f} | {r['p99'] * 1e3:.1f} | {r['max'] * 1e3:.0f} | "
              f"{sum(f.startswith('4') or f.startswith('5') or ':' in f for f in r['failed'])} | {r['load']} |")
    print("\n| heavy kind | answers (status: count), all rounds |")
    print("|---|---|")
    for kind in HEAVY_KINDS:
        total: dict[str, int] = {}
        for r in runs:
            for status, n in r["statuses"].get(kind, {}).items():
                total[status] = total.get(status, 0) + n
        print(f"| {kind} | {', '.join(f'{s}: {n}' for s, n in sorted(total.items()))} |")


def heavy(lex_path: str, lex: lexigraph.Lexicon, queries: dict[str, list[dict[str, Any]]], rounds: int,
          seconds: float, clients: int = 32) -> None:
    bodies = heavy_bodies(lex, random.Random(32))
    runs = []
    for _ in range(rounds):
        proc, url = start_server(lex_path, tuned=False)
        try:
            import httpx

            httpx.post(url + "/api/check", json={"words": ["warm"]}, timeout=60)
            load_before = "%.2f %.2f %.2f" % os.getloadavg()
            run = asyncio.run(heavy_run(url, queries["check"], bodies, seconds, clients))
            run["load"] = load_before
            runs.append(run)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print_heavy(runs, seconds, clients)
    for r in runs:
        for f in r["failed"][:5]:
            print("  failed:", f)


# -- main ----------------------------------------------------------------------------------------------------

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="length of each cell (default 3)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    ap.add_argument("--swap-seconds", type=float, default=60.0, help="length of the hot-swap run (default 60; 0 skips)")
    ap.add_argument("--quick", action="store_true", help="1 round of 1 s cells and a 5 s swap run")
    ap.add_argument("--overload-only", action="store_true", help="only the overload run")
    ap.add_argument("--heavy-only", action="store_true", help="only the heavy clients' run (issue 32)")
    ap.add_argument("--heavy-seconds", type=float, default=30.0,
                    help="length of each heavy clients' round (default 30)")
    ap.add_argument("--heavy-clients", type=int, default=32, help="heavy clients (default 32)")
    ap.add_argument("--serve-args", default="", help="extra arguments for every server started, e.g. "
                    "'--heavy-workers 0' (the heavy commands in the server's threads, as before issue 32)")
    args = ap.parse_args()
    SERVE_ARGS.extend(args.serve_args.split())
    if args.quick:
        args.seconds, args.rounds, args.swap_seconds, args.heavy_seconds = 1.0, 1, 5.0, 10.0
    print(f"load before the run: {os.getloadavg()[0]:.2f} (1-minute average), {os.cpu_count()} cores\n")

    words_path = data_file("twl06.txt")
    words = words_path.read_text().split()
    lex_path = os.path.join(tempfile.mkdtemp(prefix="lexigraph-bench-"), "twl06.lex")
    lexigraph.build(words_path, lex_path)
    lex = lexigraph.open(lex_path)
    rng = random.Random(16)
    queries = make_queries(words, lex, rng)
    if "moves" not in queries:
        print("note: no moves command in this build's registry (issue 13); moves rows skipped\n")
    if args.overload_only:
        overload(lex_path, lex, queries, args.rounds)
        return
    if args.heavy_only:
        heavy(lex_path, lex, queries, args.rounds, args.heavy_seconds, args.heavy_clients)
        return

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
    overload(lex_path, lex, queries, args.rounds)
    heavy(lex_path, lex, queries, args.rounds, args.heavy_seconds, args.heavy_clients)


if __name__ == "__main__":
    main()
