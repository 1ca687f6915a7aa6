"""Showing imports as they run: a live view on a terminal (one line per job, laid out for the
console's width), periodic plain lines otherwise, nothing with --quiet.

Views consume JobProgress events (and, before a submit's job exists, ReadingProgress); they
never touch the database. Every phase that makes the user wait says what it waits for, with
the time it has taken so far.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace
from types import TracebackType
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, Group
from rich.live import Live
from rich.text import Text

from importer.cli.layout import bar, shorten
from importer.cli.output import said
from importer.states import ProgressPhase

if TYPE_CHECKING:
    from importer.intake.submission import ReadingProgress
    from importer.running.job_run import JobProgress

PHASE_TEXT = {
    ProgressPhase.OPENING: "reading workbook",
    ProgressPhase.COUNTING: "counting rows",
    ProgressPhase.SKIPPING: "skipping committed rows",
    ProgressPhase.IMPORTING: "importing",
    ProgressPhase.DONE: "done",
    ProgressPhase.CANCELLED: "cancelled",
    ProgressPhase.STOPPED: "stopped",
    ProgressPhase.LEASE_LOST: "lease lost",
    ProgressPhase.ATTEMPT_FAILED: "attempt failed",
    ProgressPhase.WAITING: "waiting",
}
# Phases whose message says it better than the phase's name.
_MESSAGE_IS_PHASE = {ProgressPhase.COUNTING}
SEP = "  "
ECHO_ROOM = 3  # cells a live line leaves free at its end: room for the echo of ^C
STOPPING = "stopping at the next batch boundary; Ctrl-C again quits at once"


def format_count(value: int | None) -> str:
    return "?" if value is None else f"{value:,}"


def format_duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def format_size(size: int | None) -> str:
    if size is None:
        return "size unknown"
    if size < 1000:
        return f"{size:,} bytes"
    value = float(size)
    for unit in ("KB", "MB", "GB"):
        value /= 1000
        if value < 1000 or unit == "GB":
            break
    return f"{value:,.1f} {unit}"


def eta_seconds(event: JobProgress) -> float | None:
    rate = event.rows_per_second
    if rate is None or event.total_rows is None:
        return None
    return max(0, event.total_rows - event.done_rows) / rate


def _waited(seconds: float | None) -> str:
    # Only a wait long enough to wonder about is timed.
    return f" {seconds:.0f}s" if seconds is not None and seconds >= 1 else ""


@dataclass(frozen=True)
class _Plan:
    """What a job's live line holds at a width: fixed for the whole run (it depends on the
    width, the job, its file name and its total only), so that nothing on the line moves
    while the counts grow."""

    bar: int  # cells of the bar; 0: none
    name: int  # cells of the file name; 0: none
    eta: bool
    rate: str | None  # "long" (rows/s), "short" (/s) or None
    percent: bool
    good: bool


MAX_BAR = 40
BAR_LEAST = 12  # a narrower bar shows little: below this there is none
NAME_LEAST = 12  # a name cut shorter tells little: below this there is none
MAX_NAME = 40
# The room a figure is planned with when its value is not bounded by the total.
ETA_ROOM = len("ETA 0:00")
RATE_ROOM = {"short": len("99,999/s"), "long": len("99,999 rows/s")}
# Waits during which nothing else on the line moves: they show how long they have lasted.
_TIMED = {ProgressPhase.OPENING, ProgressPhase.COUNTING, ProgressPhase.SKIPPING}


def _phase_text(event: JobProgress, seconds: float | None) -> str:
    phase = PHASE_TEXT.get(event.phase, str(event.phase))
    if event.phase is ProgressPhase.SKIPPING:  # however the rows are passed over
        text = f"skipping {event.done_rows:,} committed rows"
    elif event.message and (event.phase in _MESSAGE_IS_PHASE or event.message.startswith(phase)):
        text = event.message
    else:
        text = f"{phase}: {event.message}" if event.message else phase
    return text + (_waited(seconds) if event.phase in _TIMED else "")


def _plan(event: JobProgress, width: int, with_bar: bool) -> _Plan:
    """The richest line that fits ``width`` with every count at its widest: the items in
    the order they are needed (the bar at its least, the ETA, the name at its least, the
    rate, the percentage, the long rate label, the good count, then the rest of the name,
    then a wider bar); one that does not fit is left out and the next is tried."""
    total = format_count(event.total_rows)
    widest = len(total) if event.total_rows is not None else len("9,999,999")
    name = shorten(event.file_name, MAX_NAME)
    used = cell_len(f"job {event.job_id}") + len(SEP) + len(f"{total}/{total}")
    used += len(SEP) + widest + len(" rejected")
    items = {"bar": 0, "name": 0, "eta": 0, "rate": 0, "percent": 0, "long": 0, "good": 0}

    def take(item: str, cells: int) -> None:
        nonlocal used
        if used + cells <= width:
            items[item], used = cells, used + cells

    if with_bar:
        take("bar", len(SEP) + BAR_LEAST)
    take("eta", len(SEP) + ETA_ROOM)
    take("name", 1 + min(NAME_LEAST, cell_len(name)))
    take("rate", len(SEP) + RATE_ROOM["short"])
    if event.total_rows:
        take("percent", len(" 100%"))
    if items["rate"]:
        take("long", RATE_ROOM["long"] - RATE_ROOM["short"])
    take("good", len(SEP) + widest + len(" good"))
    if items["name"]:  # the whole name
        more = min(cell_len(name) + 1 - items["name"], width - used)
        items["name"] += more
        used += more
    if items["bar"]:  # the bar up to a fifth of the line
        more = min(MAX_BAR, max(BAR_LEAST, width // 5)) - BAR_LEAST
        items["bar"] += min(more, width - used)
        used += min(more, width - used)
    return _Plan(
        bar=max(0, items["bar"] - len(SEP)),
        name=max(0, items["name"] - 1),
        eta=bool(items["eta"]),
        rate=("long" if items["long"] else "short") if items["rate"] else None,
        percent=bool(items["percent"]),
        good=bool(items["good"]),
    )


def _stats(
    event: JobProgress, plan: _Plan, seconds: float | None, *, percent: bool = False
) -> list[tuple[str, Text]]:
    """The figures after the bar, each with its name (for leaving out the least needed)."""
    total = event.total_rows
    counts = f"{event.done_rows:,}/{format_count(total)}"
    parts = [("counts", Text(counts))]
    if (plan.percent or percent) and total:
        parts.append(("percent", Text(f" {event.done_rows * 100 // total}%")))
    if event.phase is not ProgressPhase.IMPORTING:
        parts.append(("phase", Text(_phase_text(event, seconds), style="yellow")))
    else:
        rate, eta = event.rows_per_second, eta_seconds(event)
        if plan.eta and eta is not None:
            parts.append(("eta", Text(f"ETA {format_duration(eta)}")))
        if plan.rate and rate:
            unit = " rows/s" if plan.rate == "long" else "/s"
            parts.append(("rate", Text(f"{rate:,.0f}{unit}")))
    if plan.good:
        parts.append(("good", Text(f"{event.success_rows:,} good", style="green")))
    rejected = Text(f"{event.failed_rows:,} rejected", style="red" if event.failed_rows else "")
    parts.append(("rejected", rejected))
    return parts


def _joined(parts: list[tuple[str, Text]]) -> Text:
    line = Text()
    for index, (what, text) in enumerate(parts):
        if index and what != "percent":  # the percentage stays by its counts
            line.append(SEP)
        line.append_text(text)
    return line


# Left out, in this order, when a figure outgrows the room it was planned with (a rate over
# 99,999 rows/s, an ETA over an hour) or a phase's text is long: the name and bar never move.
_GIVE_WAY = ("good", "percent", "rate", "eta")


def progress_line(
    event: JobProgress,
    width: int,
    *,
    with_bar: bool = True,
    phase_seconds: float | None = None,
) -> Text:
    """One job's progress in at most ``width`` cells.

    The job id, the rows done and the rejected count always show; then, as room allows, the
    bar, the ETA, the file name, the rate, the percentage and the good count (a phase's text
    instead of the rate and ETA when not importing). The name and the bar keep one width
    for the whole run. ``phase_seconds``: how long the current phase has lasted."""
    plan = _plan(event, width, with_bar)
    # A phase's text (why it stopped, what it waits for) is worth more than the bar and the
    # name: they give way before it is cut. While importing they keep their planned width.
    plans = [plan]
    if event.phase is not ProgressPhase.IMPORTING:
        plans += [replace(plan, bar=0), replace(plan, bar=0, name=0)]
    for shown in plans:
        line, cut = _line(event, shown, width, phase_seconds)
        if not cut:
            break
    return _line(event, plans[0], width, phase_seconds)[0] if cut else line


def _line(
    event: JobProgress, plan: _Plan, width: int, phase_seconds: float | None
) -> tuple[Text, bool]:
    """The line for ``plan``, and whether its phase's text had to be cut."""
    head = Text.assemble((f"job {event.job_id}", "bold"))
    if plan.name:
        head.append(" " + shorten(shorten(event.file_name, MAX_NAME), plan.name))
    head.append(SEP)
    if plan.bar:
        head.append_text(bar(event.done_rows, event.total_rows, plan.bar))
        head.append(SEP)
    # A phase's line (done, stopped) has no rate or ETA: the percentage may take their room.
    parts = _stats(event, plan, phase_seconds, percent=event.phase is not ProgressPhase.IMPORTING)
    for what in _GIVE_WAY:
        if head.cell_len + _joined(parts).cell_len <= width:
            break
        parts = [part for part in parts if part[0] != what]
    room = width - head.cell_len - _joined(parts).cell_len
    cut = False
    if room < 0:  # a phase's long text is cut, the counts and rejected stay whole
        for index, (what, text) in enumerate(parts):
            if what == "phase":
                keep = max(1, text.cell_len + room)
                parts[index] = (what, Text(shorten(text.plain, keep), style="yellow"))
                cut = True
    line = head + _joined(parts)
    line.truncate(width, overflow="ellipsis")  # narrower than the barest line
    return line, cut


def plain_line(event: JobProgress) -> str:
    """One self-contained line, for logs and pipes (never cut)."""
    done = event.done_rows
    total = event.total_rows
    percent = f" ({done * 100 // total}%)" if total else ""
    parts = [
        f"job {event.job_id} {event.file_name}: {PHASE_TEXT.get(event.phase, event.phase)}",
        f"{done:,}/{format_count(total)} rows{percent}",
    ]
    rate, eta = event.rows_per_second, eta_seconds(event)
    if event.phase is ProgressPhase.IMPORTING and rate and eta is not None:
        parts += [f"{rate:,.0f} rows/s", f"ETA {format_duration(eta)}"]
    parts.append(f"{event.success_rows:,} good, {event.failed_rows:,} rejected")
    line = " · ".join(parts)
    return f"{line} ({event.message})" if event.message else line


def reading_line(event: ReadingProgress, width: int | None, seconds: float | None = None) -> Text:
    """Before a submit's job exists: what is being read (the file and its size, or the sheet
    whose rows are being counted), and for how long."""
    if event.phase is ProgressPhase.COUNTING:
        what = f"counting the rows of sheet {event.sheet or '?'}"
    elif event.fraction is not None:  # the workbook's size is on the line before
        what = f"reading sheet {event.sheet or '?'}: {min(int(event.fraction * 100), 99)}%"
    else:
        sheet = f", sheet {event.sheet}" if event.sheet else ""
        what = f"reading workbook ({format_size(event.size_bytes)}{sheet})"
    what += "…" + _waited(seconds)
    room = None if width is None else width - cell_len(what) - 2
    name = event.file_name if room is None else shorten(event.file_name, max(room, 1))
    line = Text.assemble(name, ": ", (what, "yellow"))
    if width is not None:
        line.truncate(width, overflow="ellipsis")
    return line


def words(text: str, style: str = "") -> Group:
    """``text`` wrapped at words to the console's width (the CLI's consoles soft-wrap, which
    the terminal does at its edge, mid-word); in a Group, since a Text printed alone gives its
    own wrapping up to the console's."""
    return Group(Text(text, style=style, no_wrap=False, overflow="fold"))


class ProgressView:
    """Base: the silent view (--quiet)."""

    def update(self, event: JobProgress) -> None:
        del event

    def reading(self, event: ReadingProgress) -> None:
        """A submit reads its workbook; no job exists yet."""
        del event

    def reading_done(self) -> None:
        """The submit has read its workbook (its job exists, or it was refused)."""

    def note(self, text: str) -> None:
        """A message between updates (waiting for a lease, resuming ...)."""
        del text

    def interrupt(self) -> None:
        """The user pressed Ctrl-C: the run stops at its next batch boundary."""

    def __enter__(self) -> ProgressView:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        pass


class PlainView(ProgressView):
    """A line per job at most every ``interval`` seconds, and at every change of phase."""

    def __init__(self, console: Console, interval: float = 5.0) -> None:
        self.console = console
        self.interval = interval
        self._last: dict[int, tuple[float, str]] = {}
        self._last_reading: tuple[float, str] | None = None
        self._lock = threading.Lock()

    def _width(self) -> int | None:
        # A log keeps whole lines; a dumb terminal gets lines that fit it.
        return self.console.width if self.console.is_terminal else None

    def update(self, event: JobProgress) -> None:
        now = time.monotonic()
        with self._lock:
            last = self._last.get(event.job_id)
            if last is not None and last[1] == event.phase and now - last[0] < self.interval:
                return
            self._last[event.job_id] = (now, event.phase)
        width = self._width()
        if width is None:
            self.console.print(plain_line(event), markup=False, highlight=False)
        else:
            line = progress_line(event, width, with_bar=False)
            self.console.print(line, markup=False, highlight=False)

    def reading(self, event: ReadingProgress) -> None:
        # Before the job exists: a line per phase (reading, counting), so that a log or a
        # pipe too hears at once what the command is doing; how far a big sheet's reading
        # has come at most every ``interval`` seconds.
        now = time.monotonic()
        with self._lock:
            last = self._last_reading
            if (
                event.fraction is not None
                and last is not None
                and last[1] == event.phase
                and now - last[0] < self.interval
            ):
                return
            self._last_reading = (now, event.phase)
        self.console.print(reading_line(event, self._width()), markup=False, highlight=False)

    def note(self, text: str) -> None:
        self.console.print(said(self.console, text), markup=False, highlight=False)

    def interrupt(self) -> None:
        self.note(STOPPING)


class LiveView(ProgressView):
    """One line per job, redrawn four times a second for the console's current width, and at
    once when its phase changes or a batch commits.

    Lines stay a few cells short of the width: the terminal echoes ^C after the cursor, and
    a line that this pushes past the edge wraps onto a new one, leaving the old one stale. After
    Ctrl-C (``interrupt``) the live display is ended at once, so that a second Ctrl-C, which
    exits without waiting for the view, leaves no hidden cursor behind; its lines are erased,
    and each job's last line is printed in their place when the run ends (a frozen frame left
    above it would show a stale count)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._lock = threading.Lock()
        # Replaced, never changed in place: the refresh thread reads them without the lock.
        self._jobs: dict[int, tuple[JobProgress, float]] = {}  # event, when its phase began
        self._reading: tuple[ReadingProgress, float] | None = None
        self._live: Live | None = None
        self._ended = False  # interrupted or closed: nothing is drawn live any more
        # A change to show at once is drawn by a thread of the view's own: never by the thread
        # that reports it (a batch's writer must not wait for a slow or paused terminal).
        self._dirty = threading.Event()
        self._painter = threading.Thread(target=self._paint, name="view-painter", daemon=True)

    def _width(self) -> int:
        return max(self.console.width - ECHO_ROOM, 1)

    def frame(self) -> Text:
        """What the live display shows now (drawn four times a second)."""
        width = self._width()
        now = time.monotonic()
        jobs, reading = self._jobs, self._reading
        lines = [
            progress_line(event, width, phase_seconds=now - since) for event, since in jobs.values()
        ]
        if not lines and reading is not None:
            lines.append(reading_line(reading[0], width, now - reading[1]))
        return Text("\n").join(lines)

    def _show(self) -> None:
        if self._live is None and not self._ended:
            # Anything else printed meanwhile (stdout or stderr) goes above the live lines.
            self._live = Live(console=self.console, get_renderable=self.frame, refresh_per_second=4)
            self._live.start(refresh=True)
            if not self._painter.is_alive():
                self._painter.start()

    def _paint(self) -> None:
        while True:
            self._dirty.wait()
            self._dirty.clear()
            with self._lock:
                if self._ended:
                    return
                live = self._live
            if live is not None:
                live.refresh()

    def update(self, event: JobProgress) -> None:
        with self._lock:
            previous = self._jobs.get(event.job_id)
            since = (
                previous[1]
                if previous is not None and previous[0].phase == event.phase
                else time.monotonic()
            )
            self._jobs = {**self._jobs, event.job_id: (event, since)}
            changed = (
                previous is None
                or previous[0].phase != event.phase
                or previous[0].done_rows != event.done_rows
            )
            self._show()
        if changed:
            # A new phase, or a batch committed, is shown at once, not at the next tick: what
            # the line says is what is committed, whenever Ctrl-C comes.
            self._dirty.set()

    def reading(self, event: ReadingProgress) -> None:
        with self._lock:
            previous, since = self._reading, time.monotonic()
            if previous is not None and previous[0].phase == event.phase:
                since = previous[1]  # timed from the phase's start, not its latest figure
            self._reading = (event, since)
            self._show()
            live = self._live
        if live is not None:
            live.refresh()

    def reading_done(self) -> None:
        with self._lock:
            self._reading = None
            live = None if self._jobs else self._live
            if live is not None:
                self._live = None  # the job's first event starts it again
        if live is not None:
            live.transient = True  # the reading line goes: the job's line takes its place
            live.stop()

    def note(self, text: str) -> None:
        # Above the live lines, wrapped at words (a process id is long).
        self.console.print(words(text), markup=False, highlight=False)

    def _end(self, *, erase: bool = False) -> bool:
        """Stop drawing live (the last frame stays, or goes with ``erase``); False when it
        was not drawing."""
        with self._lock:
            live, self._live = self._live, None
            self._ended = True
        self._dirty.set()  # the painter ends
        if live is None:
            return False
        live.transient = erase
        live.stop()
        return True

    def interrupt(self) -> None:
        self._end(erase=True)
        self.console.print(words(STOPPING, style="yellow"))

    def close(self) -> None:
        drawn = self._end()
        jobs, self._jobs = self._jobs, {}
        if not drawn:
            # Ended early by Ctrl-C: each job's last state, once, as it stands now.
            width = self._width()
            for event, _ in jobs.values():
                self.console.print(progress_line(event, width), markup=False, highlight=False)


def make_view(console: Console, *, quiet: bool, live: bool, interval: float = 5.0) -> ProgressView:
    if quiet:
        return ProgressView()
    return LiveView(console) if live else PlainView(console, interval)
