"""The heavy lane's worker processes: long, CPU-bound commands (endgames, simulations, move lists, fills) run
here, at a lower CPU priority, never in the server's process.

Why processes: the server's event loop answers the cheap commands (``check``, ``children``...) itself. A heavy
command run in one of its threads holds Python's global interpreter lock for its Python parts and takes the
machine's cores at the event loop's priority, so a cheap request waits behind it. In a worker process niced
below the server (``os.nice``; ``SCHED_BATCH`` on Linux: no preempting the server when it wakes) the heavy work
takes only the CPU the server leaves, and shares no lock with it.

Each worker opens the server's lexicons once, by the same names and files (a :class:`LexiconPool` of its own,
following rebuilt files as the server's does), runs a command from the registry by name and hands back the
JSON bytes of its answer, or a :class:`~lexigraph.server.answers.Failure`: plain data, never an exception that
must survive pickling. A program that starts a server from a script guards its main module
(``if __name__ == "__main__":``), as :mod:`multiprocessing` asks: the workers import it.

>>> pool = start_pool([("enable", None)], workers=1, nice=5)
>>> answer = pool.submit(run_command, "check", None, {"words": ["quixotic"]}, 10, float("inf")).result()
>>> b'"valid":true' in answer
True
>>> pool.submit(run_command, "check", "nope", {"words": ["x"]}, 10, float("inf")).result().status
404
>>> pool.submit(worker_status).result()["nice"] >= 5
True
>>> stop_pool(pool)
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import wait
from typing import Any, TypeVar

from ..commands import Command, all_commands
from ..errors import DeadlineExceeded, LexiconError
from .answers import Failure, answer_command, failure_of, one_line
from .lexicons import LexiconPool

__all__ = ["run_command", "start_pool", "stop_pool", "timed", "worker_status"]

T = TypeVar("T")

#: In a worker process: its lexicons and the registry's commands (set by :func:`start_worker`).
_state: dict[str, Any] = {}


def start_pool(specs: Sequence[tuple[str, str | None]], *, workers: int, nice: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes, each serving ``specs`` (``(name, path)`` pairs) ``nice`` steps below
    the caller's CPU priority. Processes start on the first jobs (:func:`worker_ready` is one that does nothing).

    They are spawned (a fresh interpreter each, not a fork of a server that runs threads), and each one ends
    as soon as the server's process does, killed or not: its work would have no one to answer.
    """
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=start_worker,
                               initargs=(list(specs), nice))


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: queued jobs cancelled, running ones ended with their processes (a server that stops
    answers nothing more)."""
    pool.shutdown(wait=False, cancel_futures=True)
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        if process.is_alive():
            process.terminate()


def start_worker(specs: Sequence[tuple[str, str | None]], nice: int) -> None:
    """A worker's start: a lower CPU priority, an end with the server's, its own lexicons, the registry's
    commands."""
    lower_priority(nice)
    end_with_parent()
    _state["commands"] = {c.name: c for c in all_commands()}
    try:
        _state["pool"] = LexiconPool(list(specs))
    except (LexiconError, OSError) as e:  # a served file gone or damaged since the server opened it
        _state["failure"] = Failure(500, type(e).__name__, f"the heavy lane's worker cannot open the served "
                                    f"lexicons: {e}")


def worker_ready() -> bool:
    """Nothing: a job that makes the pool start a process (which runs :func:`start_worker`) before any command."""
    return "pool" in _state


def end_with_parent() -> None:
    """End this process when the one that started it ends (its pipe to us closes), even by SIGKILL."""
    parent = multiprocessing.parent_process()
    if parent is None:  # pragma: no cover - not started by multiprocessing
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="lexigraph-parent-watch", daemon=True).start()


def lower_priority(nice: int) -> None:
    """This process ``nice`` steps below its parent's CPU priority, and (Linux) in the batch scheduling class."""
    if nice > 0 and hasattr(os, "nice"):
        try:
            os.nice(nice)
        except OSError:  # pragma: no cover - a platform that refuses: the work runs, at the same priority
            pass
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_BATCH"):
        try:
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
        except OSError:  # pragma: no cover
            pass


def run_command(name: str, lexicon: str | None, values: Mapping[str, object], max_results: int,
                deadline: float) -> bytes | Failure:
    """In a worker: command ``name`` of the registry on the served lexicon ``lexicon``; the JSON bytes of its
    answer, or its error as a :class:`Failure` (a request whose deadline passed while it waited: not started)."""
    try:
        if time.monotonic() > deadline:
            raise DeadlineExceeded("the request waited past its deadline in the queue and was not started")
        failure: Failure | None = _state.get("failure")
        if failure is not None:
            return failure
        cmd: Command = _state["commands"][name]
        return answer_command(_state["pool"], cmd, lexicon, values, deadline, max_results)
    except LexiconError as e:
        return failure_of(e)
    except MemoryError:
        return Failure(503, "ResourceBusy", "the worker ran out of memory for this request; try again later", 10.0)
    except Exception as e:  # a bug: one line for the server's log, the client's answer a 500
        return Failure(500, "InternalError", one_line(e))


def timed(fn: Callable[[float], T], deadline: float) -> tuple[T, float]:
    """``fn(deadline)`` and the seconds it ran (what a lane learns its commands' cost from)."""
    start = time.monotonic()
    result = fn(deadline)
    return result, time.monotonic() - start


def worker_status() -> dict[str, object]:
    """In a worker: its process id, CPU priority (nice value) and scheduling class (tests, diagnosis)."""
    policy = os.sched_getscheduler(0) if hasattr(os, "sched_getscheduler") else None
    return {"pid": os.getpid(), "nice": os.getpriority(os.PRIO_PROCESS, 0) if hasattr(os, "getpriority") else 0,
            "batch": policy == getattr(os, "SCHED_BATCH", object()), "lexicons": list(_state["pool"].names)}
