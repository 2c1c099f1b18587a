"""Progress on the command line: a bar per stage on standard error, drawn only on a terminal.

:class:`TerminalProgress` is the :class:`lexigraph.commands.Progress` the
command line hands a command. It draws with `tqdm <https://tqdm.github.io>`_
(count, rate and time left), only when standard error is a terminal, never
with ``--json``/``--jsonl`` or ``--quiet``, and never on standard output.
A command that ends within :data:`SHOW_AFTER` seconds draws nothing and
never imports tqdm: ``lexigraph check dog`` starts as fast as before. A
``note`` (a line of the command's text ready before the end, such as
``leaves build``'s line for each generation) goes to standard output at
once in text mode, above the bar, and :meth:`TerminalProgress.unshown`
leaves it out of the text printed at the end.

Why tqdm rather than rich: tqdm is one small pure-Python package with no
dependency of its own (colorama on Windows only), kept up for a decade, and
it draws exactly this (a bar, a count, a rate, the time left, a line
printed above the bar); rich brings a rendering engine and two more packages
for the same bar. Both cost tens of milliseconds to import, which is why
either is imported only when a bar is about to be drawn.

>>> import io
>>> out = io.StringIO()
>>> progress = TerminalProgress(draw=True, notes=out, stream=io.StringIO())  # not a terminal: no bar
>>> progress("generation 1 of 2", 10, 10, unit="games", note="generation 1: 10 games")
>>> out.getvalue()
'generation 1: 10 games\\n'
>>> list(progress.unshown(["generation 1: 10 games", "generation 2: 10 games", "done"]))
['generation 2: 10 games', 'done']
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

#: Seconds a command runs before its first bar is drawn: a quick command draws none (and imports no tqdm).
SHOW_AFTER = 0.5
#: Seconds between two redraws at most: a job may report as often as it likes, the bar costs it nothing more.
REDRAW_EVERY = 0.1
#: Seconds between two redraws of a stage that counts nothing (its clock moves).
TICK_EVERY = 0.25
#: The unit of a time budget counted in milliseconds (the fill's time limit): its bar shows the share spent,
#: the time spent and the time left, and no count or rate.
MILLISECONDS = "ms"

_COUNTED = "{desc}: {percentage:3.0f}%|{bar}| {n}/{total}{unit} [{elapsed}<{remaining}, {rate_noinv_fmt}{postfix}]"
_BUDGET = "{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}{postfix}]"
_OPEN_ENDED = "{desc}: {n}{unit} [{elapsed}, {rate_noinv_fmt}{postfix}]"
_STAGE = "{desc} [{elapsed}{postfix}]"


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


def _terminal_size() -> tuple[int, int]:
    """The terminal's columns and lines (80 by 24 when it says 0, as a pseudo-terminal nobody sized does: tqdm
    would draw nothing)."""
    size = shutil.get_terminal_size((80, 24))
    return size.columns or 80, size.lines or 24


def bar_format(total: int, unit: str) -> str:
    """The bar's layout for a report of ``total`` (0: unknown) in ``unit`` ("": nothing counted).

    >>> bar_format(100, "games").startswith("{desc}: {percentage")
    True
    >>> bar_format(0, "")
    '{desc} [{elapsed}{postfix}]'
    """
    if not unit:
        return _STAGE
    if not total:
        return _OPEN_ENDED
    return _BUDGET if unit == MILLISECONDS else _COUNTED


class TerminalProgress:
    """A :class:`lexigraph.commands.Progress` that draws a tqdm bar per stage on ``stream`` (standard error).

    ``draw``: whether bars may be drawn at all (text output, no ``--quiet``);
    they are drawn only when ``stream`` is a terminal too. ``notes``: where
    notes are printed (standard output in text mode; None: nowhere).

    A stage that counts nothing (``unit`` "": the builder's "compiling", the
    KWG export's graph) reports only as it starts; while it lasts a thread
    draws its bar (once the command has run :data:`SHOW_AFTER` seconds) and
    redraws it every :data:`TICK_EVERY` seconds, so that its clock moves.
    Counted stages (self-play, simulation) get no such thread: their jobs
    fork workers, which a thread must not see.
    """

    def __init__(self, *, draw: bool, notes: IO[str] | None, stream: IO[str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream: IO[str] = sys.stderr if stream is None else stream
        self.draw = draw and _is_terminal(self.stream)
        self.notes = notes
        #: The notes printed so far, in order.
        self.shown_notes: list[str] = []
        self._clock = clock
        self._started = clock()
        self._stage: str | None = None
        self._stage_started = self._started
        self._report: tuple[int, int, str, str] = (0, 0, "", "")  # the stage's latest: done, total, unit, detail
        self._last_report = self._started
        self._last_draw = 0.0
        self._bar: Any = None
        self._bar_class: Any = None
        self._lock = threading.Lock()
        self._ticker: tuple[threading.Event, threading.Thread] | None = None

    def __call__(self, stage: str, done: int, total: int, *, unit: str = "", detail: str = "",
                 note: str = "") -> None:
        if note:
            self._print_note(note)
        if not self.draw:
            return
        now = self._clock()
        if stage != self._stage:
            self.close()
            # A stage that reports a count at once did its work since the last report (a batch of games).
            self._stage, self._stage_started = stage, now if done == 0 else self._last_report
            if not unit:
                self._start_ticking()
        self._last_report = now
        with self._lock:
            self._report = (done, total, unit, detail)
            finished = bool(total) and done >= total
            if self._bar is None or now - self._last_draw >= REDRAW_EVERY or finished:
                self._draw(now)

    def close(self) -> None:
        """Clear the bar (the command's output follows it)."""
        self._stop_ticking()
        with self._lock:
            if self._bar is not None:
                self._bar.close()
                self._bar = None
        self._stage = None

    def unshown(self, lines: Iterable[str]) -> Iterator[str]:
        """``lines`` without the notes already printed (each note leaves out one line equal to it, in order)."""
        pending = iter(self.shown_notes)
        waiting = next(pending, None)
        for line in lines:
            if waiting is not None and line == waiting:
                waiting = next(pending, None)
                continue
            yield line

    # -- drawing (under the lock) ----------------------------------------------------------------------

    def _draw(self, now: float) -> None:
        """Draw the stage's latest report: open its bar once the command has run long enough."""
        if self._bar is None and (self._stage is None or now - self._started < SHOW_AFTER or not self._open()):
            return
        done, total, unit, detail = self._report
        bar = self._bar
        self._last_draw = now
        if (total or None) != bar.total:  # a total learned late, or revised (a simulation's dropped candidates)
            bar.total = total or None
            bar.unit = f" {unit}" if unit else ""
            bar.bar_format = bar_format(total, unit)
        bar.ncols, bar.nrows = _terminal_size()  # the terminal may have been resized
        bar.set_postfix_str(detail, refresh=False)
        if done != bar.n:
            bar.update(done - bar.n)
        else:
            bar.refresh()

    def _open(self) -> bool:
        if self._bar_class is None:
            try:
                from tqdm import tqdm  # deferred: 45-150 ms to import, paid only when a bar is drawn
            except ImportError:  # installed without its dependencies: no bar, the job goes on
                self.draw = False
                return False
            # No monitor thread: self-play and simulation fork workers while a bar is up.
            tqdm.monitor_interval = 0
            self._bar_class = tqdm
        _done, total, unit, _detail = self._report
        columns, lines = _terminal_size()
        bar = self._bar_class(
            total=total or None, desc=self._stage, unit=f" {unit}" if unit else "", file=self.stream,
            leave=False, ncols=columns, nrows=lines, mininterval=0, miniters=1, bar_format=bar_format(total, unit))
        # The stage began before its bar: time and rate count from then (on tqdm's own clock).
        began = self._clock() - self._stage_started
        bar.start_t -= began
        bar.last_print_t -= began
        self._bar = bar
        return True

    def _print_note(self, note: str) -> None:
        if self.notes is None:
            return
        self.shown_notes.append(note)
        with self._lock:
            if self._bar is not None:
                self._bar_class.write(note, file=self.notes)
            else:
                self.notes.write(note + "\n")
            self.notes.flush()

    def _start_ticking(self) -> None:
        stop = threading.Event()

        def tick() -> None:
            while not stop.wait(TICK_EVERY):
                with self._lock:
                    if self.draw:
                        self._draw(self._clock())

        thread = threading.Thread(target=tick, name="lexigraph-progress", daemon=True)
        thread.start()
        self._ticker = (stop, thread)

    def _stop_ticking(self) -> None:
        if self._ticker is not None:
            stop, thread = self._ticker
            stop.set()
            thread.join()
            self._ticker = None
