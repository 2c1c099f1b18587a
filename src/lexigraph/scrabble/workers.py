"""Where a long job's batches run: in this process, on a local process pool, or on a Dask cluster; and the
lexicons the worker processes open.

A batch is ``job(lexicon, first, count)``: a picklable callable (a
:class:`~lexigraph.scrabble.players.RunSpec`, a simulation player's run) that
a worker calls with the lexicon the run names (:class:`LexiconRef`), opened
once per process and kept (:func:`opened_lexicon`: the next batch costs no
open, no check of the word graph and no game tables: those are kept with the
lexicon). :func:`run_batches` hands out the batches and yields their results
in batch order, whatever order they finish in; a ``reducer`` (a picklable
function) may shrink a batch's result in the worker before it travels back.

Processes are forked where the platform allows it (the workers inherit the
imported modules; spawn re-imports them). A Dask cluster
(``cluster="tcp://host:8786"``; ``pip install 'lexigraph[cluster]'``)
receives the lexicon reference and the job once (scattered to every worker),
and each batch names them.

>>> import lexigraph
>>> ref = LexiconRef.of(lexigraph.open())
>>> opened_lexicon(ref) is opened_lexicon(ref)
True
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ..support.workers import pool_size
from .game import GameError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..engine import Engines

#: A batch's turn and game records (see the engine's ``play_games``).
Records = tuple["np.ndarray", "np.ndarray"]
Reduced = TypeVar("Reduced")

#: A batch: the lexicon, the first game and how many, to the batch's result.
BatchJob = Callable[["Engines", int, int], "Records"]
#: What a worker makes of a batch's turn and game records before they travel back.
Reducer = Callable[["np.ndarray", "np.ndarray"], Reduced]


@dataclass(frozen=True)
class LexiconRef:
    """How a worker reopens a lexicon: the lexicon's own way of being pickled (``Lexicon.__reduce__``: its
    opener and its file's path, or its bytes when it was compiled in memory, and its engine)."""

    opener: Callable[..., Any]
    arguments: tuple[Any, ...]

    @classmethod
    def of(cls, lex: "Engines") -> "LexiconRef":
        """The reference of an open lexicon."""
        reduced = lex.__reduce__()
        if isinstance(reduced, str):
            raise GameError(f"{type(lex).__name__} cannot be sent to a worker: it does not say how to reopen it")
        opener, arguments = reduced[0], reduced[1]
        return cls(opener, tuple(arguments))


_OPEN: dict[LexiconRef, "Engines"] = {}


def opened_lexicon(ref: LexiconRef) -> "Engines":
    """The lexicon ``ref`` names, opened once per process (a worker keeps what it opened)."""
    lex = _OPEN.get(ref)
    if lex is None:
        lex = ref.opener(*ref.arguments)
        if len(_OPEN) > 4:
            _OPEN.clear()
        _OPEN[ref] = lex
    return lex


def kept_records(turns: "np.ndarray", games: "np.ndarray") -> Records:
    """The reducer that keeps a batch's turn and game records whole."""
    return turns, games


def run_batch(ref: LexiconRef, job: BatchJob, first: int, count: int, reducer: "Reducer[Reduced]") -> Reduced:
    """A batch in a worker: ``job`` on the lexicon ``ref`` names, for ``first .. first + count - 1``; or what
    ``reducer`` makes of its (turns, games)."""
    result = job(opened_lexicon(ref), first, count)
    return reducer(*result)


def run_batches(ref: LexiconRef, job: BatchJob, parts: list[tuple[int, int]], *, workers: int | None,
                cluster: str | None, reducer: "Reducer[Reduced]",
                progress: Callable[[int], None] | None = None) -> Iterator[Reduced]:
    """Each batch's result in batch order, whatever order they finish in: in this process (one worker), on a
    local process pool, or on the Dask cluster at ``cluster``."""
    if cluster:
        yield from _dask_batches(ref, job, parts, cluster, reducer, progress)
        return
    n = pool_size(workers, len(parts))
    if n <= 1:
        for first, count in parts:
            result = run_batch(ref, job, first, count, reducer)
            if progress:
                progress(count)
            yield result
        return
    yield from _pool_batches(ref, job, parts, n, reducer, progress)


def _pool_batches(ref: LexiconRef, job: BatchJob, parts: list[tuple[int, int]], n: int,
                  reducer: "Reducer[Reduced]", progress: Callable[[int], None] | None) -> Iterator[Reduced]:
    import multiprocessing  # deferred: a run on one worker needs no pool
    from concurrent.futures import ProcessPoolExecutor

    # fork where the platform has it: the workers inherit the imported modules (spawn re-imports them).
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods and sys.platform != "darwin" else "spawn")
    with ProcessPoolExecutor(max_workers=n, mp_context=context) as pool:
        futures = [pool.submit(run_batch, ref, job, first, count, reducer) for first, count in parts]
        for (_first, count), future in zip(parts, futures):
            result = future.result()
            if progress:
                progress(count)
            yield result


def _dask_batches(ref: LexiconRef, job: BatchJob, parts: list[tuple[int, int]], address: str,
                  reducer: "Reducer[Reduced]", progress: Callable[[int], None] | None) -> Iterator[Reduced]:
    try:
        import distributed  # deferred: Dask is an optional dependency (lexigraph[cluster])
    except ImportError:
        raise GameError("a cluster needs Dask: pip install 'lexigraph[cluster]'") from None
    _reachable(address)
    connect: Any = distributed.Client  # Dask ships no types for it
    try:
        client: Any = connect(address, timeout=10)
    except (OSError, TimeoutError, ValueError) as e:
        raise GameError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    try:
        # The lexicon travels by path when it has one: every machine of the cluster must hold the file there.
        # The job holds the players' leave tables (the English table's keys and values: 14 MiB) and a lexicon
        # made in memory travels as its bytes: both go to every worker once, and each batch's task names them,
        # instead of carrying its own copy in the task graph.
        shared_ref, shared_job = client.scatter([ref, job], broadcast=True)
        futures = [client.submit(run_batch, shared_ref, shared_job, first, count, reducer, pure=False)
                   for first, count in parts]
        for (_first, count), future in zip(parts, futures):
            result = future.result()
            if progress:
                progress(count)
            yield result
    finally:
        client.close()


def _reachable(address: str, wait: float = 3.0) -> None:
    """Refuse at once a scheduler address nothing listens on (Dask itself would retry until its timeout)."""
    import socket  # deferred: only a cluster run connects
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(address if "://" in address else f"tcp://{address}")
        scheme, host, port = parts.scheme, parts.hostname, parts.port
    except ValueError:
        scheme, host, port = "", None, None
    if scheme not in ("tcp", "tls") or not host or not port:
        raise GameError(f"a Dask scheduler's address is tcp://HOST:PORT, not {address!r}")
    try:
        socket.create_connection((host, port), timeout=wait).close()
    except OSError as e:
        raise GameError(f"cannot reach the Dask scheduler at {address}: {e.strerror or e}") from None
