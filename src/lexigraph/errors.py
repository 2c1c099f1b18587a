"""The exceptions lexigraph raises: every failure a user can cause is a ``LexiconError``."""

from __future__ import annotations


class LexiconError(Exception):
    """Base class of every error lexigraph reports on purpose.

    >>> try:
    ...     raise LexiconError("no such lexicon: x.lex")
    ... except LexiconError as e:
    ...     print(e)
    no such lexicon: x.lex
    """


class SourceError(LexiconError):
    """A word source (list, table, ``.daw``) cannot be read."""


class BuildError(LexiconError):
    """A lexicon cannot be built from otherwise readable words."""


class FileFormatError(LexiconError):
    """A lexicon file is missing, truncated, corrupt or not a lexicon."""


class QueryError(LexiconError, ValueError):
    """A query is malformed: bad pattern, rack, position or argument."""


class AlphabetError(LexiconError):
    """An alphabet definition is invalid, or a word does not fit it."""


class DeadlineExceeded(LexiconError):
    """A query or job ran past its deadline (a ``time.monotonic()`` value) and stopped.

    Engine methods and jobs that may run long take ``deadline: float | None``
    (None: no limit) and raise this once it has passed; the server answers
    it with a 503, the command line with exit 2.
    """


class ResourceBusy(LexiconError):
    """Not enough of a resource (memory, workers) for this job right now; the same request may succeed later.

    ``retry_after`` (seconds) is the server's ``Retry-After``: it answers with
    a 503, the command line with exit 2.

    >>> e = ResourceBusy("no memory for a 4096 MB endgame table now", retry_after=30)
    >>> str(e), e.retry_after
    ('no memory for a 4096 MB endgame table now', 30.0)
    """

    def __init__(self, message: str, *, retry_after: float = 10.0) -> None:
        super().__init__(message)
        self.retry_after = float(retry_after)
