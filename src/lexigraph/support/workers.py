"""How many processes a local pool starts: what was asked, never more than the work can use.

``sim``, ``autoplay`` and ``leaves build`` split their work into pieces (ranges of
play-outs, batches of games) and hand them to a process pool. A pool with more
processes than pieces forks processes that never get work (and on Linux, where
the pool forks, Python starts every process at once): ``sim --workers 1024
--candidates 2 --iterations 8`` would fork hundreds for eight play-outs. So the
pool is as large as asked, but no larger than the pieces of work nor than
:data:`MAX_WORKERS`; the answers do not depend on it (each piece is seeded by
its own number).

>>> pool_size(1024, 8), pool_size(2, 100), pool_size(None, 1)
(8, 2, 1)
"""

from __future__ import annotations

import os

#: Most processes a pool may be asked for: far above the cores of one machine (more only add forks and memory).
MAX_WORKERS = 256


def pool_size(requested: int | None, pieces: int) -> int:
    """The processes for ``pieces`` pieces of work: ``requested`` (None: every core), at most ``pieces`` and
    :data:`MAX_WORKERS`, at least 1."""
    wanted = requested if requested is not None else (os.cpu_count() or 1)
    return max(1, min(wanted, pieces, MAX_WORKERS))
