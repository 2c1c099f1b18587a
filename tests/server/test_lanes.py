"""The heavy lane: long commands (endgame, sim, moves, analyze, fill) answered by worker processes at a lower CPU
priority, the same answers as in the server's process, bounded, refused with Retry-After when full, recovering
from a worker that dies, and ending with a killed server. No clocks are asserted: the latency figures are
bench/bench_serve.py's (docs/performance.md, issue 32)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the server needs the serve extra: pip install 'lexigraph[serve]'")
httpx = pytest.importorskip("httpx", reason="the API tests need httpx")

from lexigraph.commands.endgame import EXAMPLE  # noqa: E402
from lexigraph.server import create_app  # noqa: E402
from lexigraph.server.app import Limits  # noqa: E402
from lexigraph.server.background import serve_in_thread  # noqa: E402
from lexigraph.server.answers import Failure  # noqa: E402
from lexigraph.server.workers import run_command, worker_ready, worker_status  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GCG = """#character-encoding UTF-8
#player1 a A
#player2 b B
>a: ABEITWA 8D BAWTIE +28 28
>b: AEINRST 9C RETAINS +66 66
"""
#: Requests for each heavy command (small: answered well within a test's time), and their bad twins.
HEAVY_CASES = [
    ("moves", {"position": "empty", "rack": "AEIRS??", "top": 30}),
    ("moves", {"position": "empty", "rack": "QZX", "top": 5, "sort": "score"}),
    ("endgame", {"position": EXAMPLE}),
    ("sim", {"position": "empty", "rack": "QUIZ", "candidates": 2, "iterations": 8, "seed": 3}),
    ("fill", {"grid_text": "....\n....\n....\n....\n", "seed": 1}),
    ("analyze", {"gcg": GCG}),
]
BAD_CASES = [
    ("moves", {"position": "empty", "rack": "AEIRS1"}),
    ("moves", {"position": "ZZZ/QQ", "rack": "A"}),
    ("endgame", {"position": EXAMPLE.replace("GILN/ER", "GILN/EE")}),
    ("endgame", {"position": EXAMPLE, "table_mb": 0}),
    ("sim", {"position": "empty", "rack": "QUIZ", "candidates": 0}),
    ("fill", {"grid_text": "..#\n#.\n"}),
    ("analyze", {"gcg": ">a: ABEITWA 8D BAWTIE +28 28\n>a: QQQQQQQ 8D ZZZZ +1 1\n"}),
    ("moves", {"position": "empty", "rack": "QI", "lexicon": "nope"}),
]
#: Seconds of timing data an answer carries (the only fields that differ between two runs of one request).
CLOCKS = ("seconds", "elapsed", "time")


def without_clocks(doc: Any) -> Any:
    if isinstance(doc, dict):
        return {k: without_clocks(v) for k, v in doc.items() if k not in CLOCKS}
    if isinstance(doc, list):
        return [without_clocks(v) for v in doc]
    return doc


def answers(limits: Limits, cases: list[tuple[str, dict]]) -> list[tuple[int, Any]]:
    app = create_app(limits=limits)
    with serve_in_thread(app) as url:
        out = []
        for name, body in cases:
            r = httpx.post(f"{url}/api/{name}", json=body, timeout=60)
            out.append((r.status_code, without_clocks(r.json())))
        lane = app.state.server.lane_of("moves")
        assert lane.name == ("heavy" if limits.heavy_workers else "query")
    return out


def test_heavy_commands_answer_the_same_from_worker_processes():
    """Every heavy command's answer (and error) from a worker process is the one the server's threads give."""
    cases = HEAVY_CASES + BAD_CASES
    in_processes = answers(Limits(heavy_workers=1, timeout=60), cases)
    in_threads = answers(Limits(heavy_workers=0, timeout=60), cases)
    for (name, body), here, there in zip(cases, in_processes, in_threads):
        assert here == there, (name, body)
    assert [code for code, _ in in_processes[:len(HEAVY_CASES)]] == [200] * len(HEAVY_CASES)
    assert all(code in (400, 404) and set(doc["error"]) == {"type", "message"}
               for code, doc in in_processes[len(HEAVY_CASES):])


def test_the_workers_run_below_the_servers_priority():
    app = create_app(limits=Limits(heavy_workers=1, heavy_nice=7))
    with serve_in_thread(app) as url:
        assert httpx.post(url + "/api/moves", json={"position": "empty", "rack": "QI"}, timeout=60).status_code == 200
        lane = app.state.server.lanes["heavy"]
        status = lane.executor.submit(worker_status).result(timeout=60)
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    assert status["pid"] != os.getpid() and status["lexicons"] == ["enable"]
    assert status["nice"] == min(19, mine + 7)
    if sys.platform.startswith("linux"):
        assert status["batch"]


def long_sim(url: str, out: list) -> None:
    """A simulation that runs to the request's deadline (a million iterations), its answer appended to ``out``."""
    r = httpx.post(url + "/api/sim", json={"position": "empty", "rack": "AEINRST", "candidates": 20,
                                           "iterations": 1_000_000}, timeout=60)
    out.append(r)


def wait_until(predicate, seconds: float = 30.0) -> bool:
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def test_a_full_heavy_lane_refuses_with_retry_after_while_cheap_requests_answer():
    app = create_app(limits=Limits(heavy_workers=1, heavy_pending=1, timeout=4))
    server = app.state.server
    with serve_in_thread(app) as url:
        out: list = []
        t = threading.Thread(target=long_sim, args=(url, out))
        t.start()
        assert wait_until(lambda: server.lanes["heavy"].busy == 1)
        r = httpx.post(url + "/api/moves", json={"position": "empty", "rack": "QI"}, timeout=60)
        cheap = httpx.post(url + "/api/check", json={"words": ["quixotic"]}, timeout=60)
        query = httpx.post(url + "/api/match", json={"patterns": ["qu?xot?c"]}, timeout=60)
        t.join()
    assert r.status_code == 503 and r.json()["error"]["type"] == "Busy", r.text
    assert 1 <= int(r.headers["retry-after"]) <= 4
    assert cheap.status_code == 200 and cheap.json()["results"][0]["valid"] is True
    assert query.status_code == 200 and [x["word"] for x in query.json()["results"]] == ["quixotic"]
    # The simulation stops at its deadline: its answer so far, or (the Python engine's play-outs are slow to
    # notice it) the time limit.
    assert (out[0].status_code == 200 and out[0].json()["complete"] is False) or \
        out[0].json()["error"]["type"] == "TimeLimit", out[0].text


def test_the_heavy_lane_starts_with_the_server_when_asked():
    """``heavy_at_start`` (``lexigraph serve``'s default): the worker processes start, and open the lexicons, before
    any long command; without it (``create_app``'s default) the lane has no pool until its first command."""
    lazy = create_app(limits=Limits(heavy_workers=1))
    with serve_in_thread(lazy) as url:
        assert httpx.get(url + "/healthz", timeout=30).status_code == 200
        assert lazy.state.server.lanes["heavy"].executor is None
    eager = create_app(limits=Limits(heavy_workers=2, heavy_at_start=True))
    with serve_in_thread(eager):
        executor = eager.state.server.lanes["heavy"].executor
        assert executor is not None
        assert wait_until(lambda: len(executor._processes) == 2, 60), "the workers did not start"
        assert all(executor.submit(worker_ready).result(timeout=60) for _ in range(2))  # their lexicons open


def test_heavy_work_found_past_its_deadline_is_not_started():
    """A worker that takes a job whose deadline has passed (it waited in the queue behind work that overran)
    does not start it: the answer is the server's time limit."""
    # 60 s: the first request starts the worker, which runs 10 steps below the test's priority (slow to start and
    # to answer on a busy machine); the late job below is refused whatever the limit
    app = create_app(limits=Limits(heavy_workers=1, timeout=60))
    server = app.state.server
    with serve_in_thread(app) as url:
        assert httpx.post(url + "/api/moves", json={"position": "empty", "rack": "QI"}, timeout=60).status_code == 200
        late = server.lanes["heavy"].executor.submit(run_command, "moves", None, {"position": "empty", "rack": "QI"},
                                                     10, time.monotonic() - 0.001).result(timeout=60)
    assert isinstance(late, Failure) and late.type == "DeadlineExceeded"
    error = server.failed(late, "a test")
    assert (error.status, error.type) == (503, "TimeLimit")


def test_a_worker_that_dies_is_a_503_and_the_lane_starts_again():
    app = create_app(limits=Limits(heavy_workers=1, timeout=60))  # the lane's new worker may be slow to start
    server = app.state.server
    with serve_in_thread(app) as url:
        assert httpx.post(url + "/api/moves", json={"position": "empty", "rack": "QI"}, timeout=60).status_code == 200
        pid = server.lanes["heavy"].executor.submit(worker_status).result(timeout=60)["pid"]
        out: list = []
        t = threading.Thread(target=long_sim, args=(url, out))
        t.start()
        assert wait_until(lambda: server.lanes["heavy"].busy == 1)
        time.sleep(0.2)  # the simulation under way in the worker
        os.kill(pid, signal.SIGKILL)
        t.join()
        assert out[0].status_code == 503 and out[0].json()["error"]["type"] == "WorkerLost", out[0].text
        assert int(out[0].headers["retry-after"]) >= 1
        again = httpx.post(url + "/api/moves", json={"position": "empty", "rack": "QI"}, timeout=60)
        assert again.status_code == 200, again.text
        assert server.lanes["heavy"].executor.submit(worker_status).result(timeout=60)["pid"] != pid


def children_of(pid: int) -> set[int]:
    """The processes ``pid`` started (Linux /proc), and theirs."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        kids = (task / "children").read_text().split()
        for kid in map(int, kids):
            found |= {kid} | children_of(kid)
    return found


def nice_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
    except (OSError, IndexError, ValueError):
        return None


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_the_workers_end_with_a_killed_server(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "lexigraph", "serve", "--port", str(port), "--games-db",
                             str(tmp_path / "g.sqlite3"), "--heavy-workers", "2"],
                            stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        assert wait_until(lambda: _answers(url), 60), "the server did not start"
        out: list = []
        t = threading.Thread(target=lambda: _ignore_errors(long_sim, url, out), daemon=True)
        t.start()
        # The heavy lane's workers: the server's children that run niced (not the resource tracker).
        niced = min(19, (nice_of(proc.pid) or 0) + 10)
        assert wait_until(lambda: any(nice_of(p) == niced for p in children_of(proc.pid)), 60)
        workers = {p for p in children_of(proc.pid) if nice_of(p) == niced}
        assert workers
        time.sleep(0.3)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        assert wait_until(lambda: not any(alive(w) for w in workers), 30), "a worker outlived the server"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def _answers(url: str) -> bool:
    try:
        return httpx.get(url + "/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _ignore_errors(fn, *args) -> None:
    try:
        fn(*args)
    except httpx.HTTPError:
        pass


def test_health_counts_the_heavy_lane():
    app = create_app(limits=Limits(heavy_workers=1))
    with serve_in_thread(app) as url:
        doc = httpx.get(url + "/healthz").json()
    assert doc["lanes"] == {"query": 0, "quick": 0, "heavy": 0}
    assert json.loads(json.dumps(doc))["ok"] is True


def test_heavy_work_that_would_wait_past_its_deadline_is_refused_at_once():
    """The lane learns its commands' time; a request that would only start after its deadline gets a 503 at once
    (with Retry-After), one that would start in time is queued."""
    app = create_app(limits=Limits(heavy_workers=1, heavy_pending=64, timeout=4))
    lane = app.state.server.lanes["heavy"]
    with serve_in_thread(app) as url:
        out: list = []
        t = threading.Thread(target=long_sim, args=(url, out))
        t.start()
        assert wait_until(lambda: lane.busy == 1)
        lane.seconds = 0.01                                   # as if each command took 10 ms: queued
        answers: list = []
        q = threading.Thread(target=lambda: answers.append(
            httpx.post(url + "/api/moves", json={"position": "empty", "rack": "QI"}, timeout=60)))
        q.start()
        assert wait_until(lambda: lane.busy == 2)
        lane.seconds = 100.0                                  # as if each took 100 s: refused at once
        refused = httpx.post(url + "/api/moves", json={"position": "empty", "rack": "QI"}, timeout=60)
        t.join()
        q.join()
    queued = answers[0]
    assert refused.status_code == 503
    assert refused.json()["error"]["type"] == "Busy" and "would take about" in refused.json()["error"]["message"]
    assert 1 <= int(refused.headers["retry-after"]) <= 4
    assert queued.status_code == 200 or queued.json()["error"]["type"] == "TimeLimit"


def test_a_served_file_gone_before_the_workers_start_is_a_json_error(tmp_path):
    import lexigraph

    path = tmp_path / "small.lex"
    lexigraph.build(["qi", "za", "zax"], path)
    app = create_app([("small", str(path))], limits=Limits(heavy_workers=1))
    path.unlink()  # the server holds it open; the workers, started later, cannot open it
    with serve_in_thread(app) as url:
        r = httpx.post(url + "/api/moves", json={"position": "empty", "rack": "QIZAX"}, timeout=60)
        cheap = httpx.post(url + "/api/check", json={"words": ["zax"]}, timeout=60)
    assert r.status_code == 500 and "cannot open the served lexicons" in r.json()["error"]["message"], r.text
    assert cheap.json()["results"][0]["valid"] is True
