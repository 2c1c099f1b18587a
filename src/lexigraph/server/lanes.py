"""Where a request's work runs: three lanes, so that cheap work never waits behind long work.

- quick: ``check``, ``children``, ``info``, ``stats`` (bounded by the request's size), on the event loop itself
  (``quick_workers`` 0) or threads of their own;
- query: the other queries and the games, in ``workers`` threads of the server's process;
- heavy: ``endgame``, ``sim``, ``moves``, ``analyze``, ``fill``, ``design``, ``infer``, ``peg`` (long and CPU-bound),
  in ``heavy_workers`` worker processes ``heavy_nice`` steps below the server's CPU priority
  (:mod:`lexigraph.server.workers`).

Each lane bounds the commands running or queued in it (``max_pending``; the heavy lane ``heavy_pending``); a
request beyond that is refused at once with a 503 and a ``Retry-After`` (the lane's recent time per command).
The heavy lane also refuses a request that would wait past its deadline: the commands queued before it, at
the lane's recent time per command, shared by its workers, would take longer than ``timeout`` (a queue of
quick move lists is long, one of endgames short). Each request has a deadline (``timeout`` seconds after it
arrived) that every query checks inside its loops; work still queued when it passes is dropped, never
started. Fills are also bounded together (``max_fills``).

A command reaches the heavy lane's processes by its name in the registry
(:func:`lexigraph.commands.all_commands`); a command handed to the app that is not the registry's runs in the
query lane.

>>> limits = Limits()
>>> sorted(limits.heavy), limits.heavy_workers, limits.heavy_nice
(['analyze', 'design', 'endgame', 'fill', 'infer', 'moves', 'peg', 'sim'], 2, 10)
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Mapping
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

from ..commands import Command, all_commands
from ..errors import DeadlineExceeded, LexiconError
from .answers import ApiError, Failure, answer_command, log_internal_error, time_limit
from .lexicons import LexiconPool
from .workers import run_command, start_pool, stop_pool, timed, worker_ready

log = logging.getLogger("lexigraph.server")

__all__ = ["FILLS", "HEAVY", "QUICK", "Lane", "Limits", "Server", "Work"]

T = TypeVar("T")

#: Commands whose work is a search over a grid; at most ``max_fills`` run at once (a fill's slot suggestions
#: are not counted).
FILLS = frozenset({"fill", "suggest", "suggestions", "design"})
#: Commands whose work is small and bounded by the request's size: they run in a lane of their own.
QUICK = frozenset({"check", "children", "info", "stats"})
#: Commands whose work is long and CPU-bound: they run in the heavy lane's worker processes.
HEAVY = frozenset({"endgame", "sim", "moves", "analyze", "fill", "design", "infer", "peg"})


@dataclass
class Limits:
    """What one request may ask of the server (``lexigraph serve --help`` sets them)."""

    max_body: int = 64 * 1024          # bytes of a POST body
    max_query: int = 8 * 1024          # bytes of a query string
    max_results: int = 1000            # results in one answer; the rest is counted in "total"
    max_values: int = 1000             # values of one list field (patterns, racks, words...) in one request
    timeout: float = 10.0              # seconds a request may take
    workers: int = 2                   # threads running commands (more add latency, not throughput: the GIL)
    quick_workers: int = 0             # threads running the quick commands; 0: on the event loop, at once
    heavy_workers: int = 2             # processes running the heavy commands; 0: in the query lane's threads
    heavy_nice: int = 10               # steps below the server's CPU priority the heavy lane's processes run
    max_pending: int = 128             # commands running or queued (query and quick lanes) before new ones get 503
    heavy_pending: int = 64            # heavy commands running or queued before new ones get 503
    heavy_at_start: bool = False       # the heavy lane's processes started with the server (else with its first command)
    max_fills: int = 2                 # fills running at once
    fills: frozenset[str] = FILLS
    heavy: frozenset[str] = HEAVY
    quick: frozenset[str] = QUICK
    grace: float = 0.5                 # extra seconds a command past its deadline has to hand back its answer
    header_timeout: float = 10.0       # seconds a request's headers may take to arrive (the protocol's)
    body_timeout: float = 10.0         # seconds a request's body may take to arrive
    max_games: int = 100               # games against lexigraph kept at once (the least recently used dropped)
    game_idle: float = 3600.0          # seconds a game is kept after its last request


@dataclass
class Lane:
    """A pool of workers (threads; processes for the heavy lane) and its count of commands running or queued.

    ``seconds`` is a moving average of the time a command runs here: what a client refused for a full lane is
    told to wait (``Retry-After``), and how long the queue is in time (:meth:`wait`).
    """

    name: str
    workers: int
    pending: int
    processes: bool = False
    specs: list[tuple[str, str | None]] = field(default_factory=list)
    nice: int = 0
    executor: Executor | None = None
    busy: int = 0
    seconds: float = 1.0

    def start(self) -> Executor:
        if self.executor is None:
            assert self.workers > 0, "a lane of no threads runs its work on the event loop"
            if self.processes:
                self.executor = start_pool(self.specs, workers=self.workers, nice=self.nice)
            else:
                self.executor = ThreadPoolExecutor(max_workers=self.workers,
                                                   thread_name_prefix=f"lexigraph-{self.name}")
        return self.executor

    def stop(self) -> None:
        if isinstance(self.executor, ProcessPoolExecutor):
            stop_pool(self.executor)
        elif self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
        self.executor = None

    def restart(self, broken: Executor) -> None:
        """A new pool for one whose worker died (the jobs it held failed); another request may have done it."""
        if self.executor is broken:
            self.stop()

    def took(self, seconds: float) -> None:
        self.seconds += 0.2 * (seconds - self.seconds)

    def wait(self) -> float:
        """Seconds a command submitted now would wait before it starts: those ahead of it, shared by the workers."""
        ahead = self.busy - self.workers + 1
        return max(0, ahead) * self.seconds / max(1, self.workers)

    def retry_after(self, limit: float) -> float:
        """Seconds a refused client should wait: about one command's time here, at least 1, at most ``limit``."""
        return float(min(max(1, math.ceil(self.seconds)), max(1, math.ceil(limit))))


def start_in_time(fn: Callable[[float], T], deadline: float) -> T:
    """``fn(deadline)``, unless the deadline passed while the work waited in the queue: dropped, never started."""
    if time.monotonic() > deadline:
        raise DeadlineExceeded("the request waited past its deadline in the queue and was not started")
    return fn(deadline)


@dataclass
class Work:
    """One request's work in a lane's pool: the counters it holds until it really ends (not when its request is
    answered: work past its time limit still counts), and how its answer is awaited."""

    server: Server
    lane: Lane
    fill: bool
    what: str
    executor: Executor | None = None  # the pool it was handed to
    answered: bool = False

    def hold(self, executor: Executor) -> None:
        self.executor = executor
        self.lane.busy += 1
        if self.fill:
            self.server.fills_busy += 1

    def done(self, f: "asyncio.Future[tuple[T, float]]") -> None:
        """The work ended (on the event loop): counters released, its time learnt; a bug in work whose request was
        answered already (time limit, client gone) logged in one line, as nobody else will."""
        self.lane.busy -= 1
        if self.fill:
            self.server.fills_busy -= 1
        if f.cancelled():
            return
        e = f.exception()  # an answer nobody waits for any more (time limit, client gone) ends quietly
        if e is None:
            self.lane.took(f.result()[1])
        if self.answered and e is not None and not isinstance(e, (LexiconError, ApiError, BrokenExecutor)):
            log_internal_error(self.what, e)  # ... unless it is a bug: one line

    async def answer(self, waited: "asyncio.Future[tuple[T, float]]", until: float) -> T:
        """The work's result, awaited until ``until`` (the deadline and its grace): then the time limit's 503;
        a 503 too when its worker process died."""
        try:
            # shield: a client that goes away, or the time limit, does not cancel the bookkeeping of done().
            result, _ = await asyncio.wait_for(asyncio.shield(waited), max(0.0, until - time.monotonic()))
        except TimeoutError:
            raise time_limit(self.server.limits.timeout) from None
        except BrokenExecutor:
            if self.executor is not None:
                self.lane.restart(self.executor)
            raise ApiError(503, "WorkerLost", "a worker process ended while it worked on this request (out of "
                           "memory?); try again", retry_after=1) from None
        finally:
            self.answered = True
        return result


@dataclass
class Server:
    """The state behind one app: lexicons, commands, the lanes of workers and their counters."""

    pool: LexiconPool
    commands: dict[str, Command]
    limits: Limits = field(default_factory=Limits)
    fills_busy: int = 0
    lanes: dict[str, Lane] = field(default_factory=dict)
    registry: dict[str, Command] = field(default_factory=dict)

    def __post_init__(self) -> None:
        lim = self.limits
        if not self.lanes:
            specs = [(name, self.pool.served(name).path) for name in self.pool.names]
            self.lanes = {"query": Lane("query", lim.workers, lim.max_pending),
                          "quick": Lane("quick", lim.quick_workers, lim.max_pending),
                          "heavy": Lane("heavy", lim.heavy_workers, lim.heavy_pending, processes=True, specs=specs,
                                        nice=lim.heavy_nice)}
        if not self.registry:
            self.registry = {c.name: c for c in all_commands()}

    @property
    def busy(self) -> int:
        """Commands running or queued, in every lane."""
        return sum(lane.busy for lane in self.lanes.values())

    def lane_of(self, command: str) -> Lane:
        """The lane a command runs in: quick for the cheap commands, heavy for the long ones of the registry (when
        the heavy lane has workers), query for the rest."""
        if command in self.limits.quick:
            return self.lanes["quick"]
        cmd = self.commands.get(command)
        if command in self.limits.heavy and self.lanes["heavy"].workers and cmd is not None \
                and self.registry.get(command) is cmd:
            return self.lanes["heavy"]
        return self.lanes["query"]

    def start(self) -> None:
        """Start the thread lanes; the heavy lane's processes now too with ``heavy_at_start`` (``lexigraph serve``:
        their start, seconds of imports and lexicons opened, is then not taken from the first long command's time
        limit), else with its first command."""
        for lane in self.lanes.values():
            if lane.workers and not lane.processes:
                lane.start()
            elif lane.workers and self.limits.heavy_at_start:
                executor = lane.start()
                for _ in range(lane.workers):  # a job each: the pool starts a process per job while none is idle
                    executor.submit(worker_ready)

    def stop(self) -> None:
        for lane in self.lanes.values():
            lane.stop()

    def job(self, cmd: Command, lexicon: str | None, values: Mapping[str, object],
            lane: Lane) -> Callable[[float], bytes | Failure]:
        """The work of one command, as its lane runs it: in a worker process by name, or here."""
        if lane.processes:
            return partial(run_command, cmd.name, lexicon, values, self.limits.max_results)
        return lambda deadline: answer_command(self.pool, cmd, lexicon, values, deadline, self.limits.max_results)

    def refuse(self, lane: Lane, fill: bool) -> None:
        """A 503 with Retry-After when the lane (or, for a fill, the fills' limit) is full."""
        lim = self.limits
        if lane.busy >= lane.pending:
            raise ApiError(503, "Busy", f"the server is busy ({lane.pending} {lane.name} requests in progress); "
                           "try again", retry_after=lane.retry_after(lim.timeout))
        if lane.processes and lane.wait() > lim.timeout:
            raise ApiError(503, "Busy", f"the server is busy: the long requests queued would take about "
                           f"{lane.wait():.0f} s, more than the limit of {lim.timeout:g} s; try again",
                           retry_after=lane.retry_after(lim.timeout))
        if fill and self.fills_busy >= lim.max_fills:
            raise ApiError(503, "Busy", f"{lim.max_fills} long jobs (fills) are running already; try again",
                           retry_after=lane.retry_after(lim.timeout))

    async def run(self, fn: Callable[[float], T], fill: bool = False, lane: Lane | None = None,
                  what: str = "a request", arrived: float | None = None) -> T:
        """Run ``fn(deadline)`` in a lane's pool; 503 when it is saturated or past the time limit.

        The deadline is ``timeout`` seconds after the request ``arrived`` (its
        first byte, when the protocol noted it; else now); work still queued
        when it passes is dropped, not started. The busy counters drop when the
        work really finishes, so work that overran its time still counts
        against the limits until it ends. A worker process's answer that is a
        :class:`Failure` is raised here as the error it stands for.
        """
        lane = lane or self.lanes["query"]
        self.refuse(lane, fill)
        now = time.monotonic()
        deadline = min(now, arrived if arrived is not None else now) + self.limits.timeout
        if not lane.workers:  # a lane of no threads: the work runs on the event loop itself, at once
            lane.busy += 1
            try:
                return fn(deadline)
            finally:
                lane.busy -= 1
        work = Work(self, lane, fill, what)
        result = await work.answer(self.submit(fn, lane, deadline, work), deadline + self.limits.grace)
        if isinstance(result, Failure):
            raise self.failed(result, what)
        return result

    def submit(self, fn: Callable[[float], T], lane: Lane, deadline: float,
               work: Work) -> "asyncio.Future[tuple[T, float]]":
        """``fn`` handed to the lane's pool (a thread drops it when its deadline passed while it waited; a worker
        process does the same itself); the future the event loop awaits. The work holds its counters from now."""
        executor = lane.start()
        try:
            fut = executor.submit(timed, fn if lane.processes else partial(start_in_time, fn), deadline)
        except BrokenExecutor:
            lane.restart(executor)
            raise ApiError(503, "Busy", "the heavy lane's workers are starting again; try again", retry_after=1)
        work.hold(executor)
        waited = asyncio.wrap_future(fut)  # its callbacks run on the event loop, as the counters need
        waited.add_done_callback(work.done)
        return waited

    def failed(self, failure: Failure, what: str) -> Exception:
        """The error a worker's :class:`Failure` stands for (a bug in the worker: logged here, in one line)."""
        if failure.type == "DeadlineExceeded":
            return time_limit(self.limits.timeout)
        if failure.status == 500 and failure.type == "InternalError":
            log.error("internal error on %s: %s", what, failure.message)
            return ApiError(500, "InternalError", f"internal error: {failure.message.split(':')[0]}")
        return failure.error()
