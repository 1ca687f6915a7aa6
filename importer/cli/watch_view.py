"""The `importer watch` dashboard: one snapshot (two cheap queries) per refresh, rendered
with rich — a live screen on a terminal, one plain summary line per refresh otherwise."""

from __future__ import annotations

import threading
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.text import Text

from importer.cli.layout import (
    BarCell,
    Cell,
    Column,
    fitted_table,
    local_clock,
    local_time,
    shorten,
)

if TYPE_CHECKING:
    from importer.daemons.watching import FleetWatch
    from importer.repositories.fleet import FleetSnapshot


def format_age(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{seconds:.0f}s" if seconds >= 10 else f"{seconds:.1f}s"
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}m {secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours}h {minutes:02d}m"
    return f"{hours // 24}d {hours % 24}h"


def _seconds_between(later: datetime, earlier: Any) -> float:
    if not earlier:
        return 0.0
    return (later - datetime.fromisoformat(str(earlier))).total_seconds()


class WatchView:
    """Renders what a FleetWatch reads: a live screen, one snapshot, or plain lines."""

    def __init__(self, watch: FleetWatch) -> None:
        self.watch = watch
        self.target = watch.target
        self._rates: dict[int, float] = {}

    def run(
        self, console: Console, *, live: bool, interval: float, once: bool, stop: threading.Event
    ) -> None:
        try:
            self._run(console, live=live, interval=interval, once=once, stop=stop)
        finally:
            self.watch.close()

    def _run(
        self, console: Console, *, live: bool, interval: float, once: bool, stop: threading.Event
    ) -> None:
        if live:
            with Live(
                self._render_error("connecting…"),
                console=console,
                auto_refresh=False,
                screen=False,
                transient=False,
            ) as screen:
                while not stop.is_set():
                    screen.update(self._frame(console), refresh=True)
                    stop.wait(interval)
            return
        while True:
            snapshot, error = self._snapshot()
            if once and snapshot is not None:
                # A terminal gets tables that fit it; a pipe gets every column in full.
                width = console.width if console.is_terminal else None
                console.print(self._render(snapshot, width))
            else:
                console.print(self._plain_line(snapshot, error))
            if once or stop.wait(interval):
                return

    def _snapshot(self) -> tuple[FleetSnapshot | None, str | None]:
        frame = self.watch.refresh()
        if frame.snapshot is not None:
            self._rates = frame.rates
        return frame.snapshot, frame.error

    # --- rendering -------------------------------------------------------------------------

    def _frame(self, console: Console) -> RenderableType:
        snapshot, error = self._snapshot()
        if snapshot is None:
            return self._render_error(error or "")
        # Room at the end of the last line for the echo of ^C (it would wrap a full line).
        return self._render(snapshot, console.width - 2)

    def _render_error(self, message: str) -> RenderableType:
        return Text(f"importer watch — {self.target} — {message}", style="yellow")

    def _plain_line(self, snapshot: FleetSnapshot | None, error: str | None) -> str:
        stamp = local_clock(datetime.now().astimezone())
        if snapshot is None:
            return f"{stamp} database unavailable: {error}"
        s = snapshot.stats
        oldest = format_age(s.oldest_queued_seconds) if s.oldest_queued_seconds is not None else "-"
        return (
            f"{stamp} queued {s.queued} scheduled {s.scheduled} running {s.running} "
            f"failed {s.failed} oldest-queued {oldest} rows/s {s.rows_per_second:.0f} "
            f"failed-attempts-1h {s.attempts_failed_last_hour} timers-due {s.timers_due} "
            f"workers {s.live_workers} schedulers {s.live_schedulers} "
            f"foreground {s.live_foreground}"
        )

    def _header(self, snapshot: FleetSnapshot, width: int | None) -> Text:
        """The title, then the counts: whole items, as many to a line as the width holds."""
        s = snapshot.stats
        oldest = format_age(s.oldest_queued_seconds) if s.oldest_queued_seconds is not None else "-"
        items = [
            Text.assemble(("queued ", "dim"), str(s.queued)),
            Text.assemble(("scheduled ", "dim"), str(s.scheduled)),
            Text.assemble(("running ", "dim"), (str(s.running), "cyan")),
            Text.assemble(("failed ", "dim"), (str(s.failed), "red" if s.failed else "")),
            Text.assemble(("oldest queued ", "dim"), oldest),
            Text.assemble(("rows/s ", "dim"), f"{s.rows_per_second:,.0f}"),
            Text.assemble(
                ("failed attempts (1h) ", "dim"),
                (str(s.attempts_failed_last_hour), "red" if s.attempts_failed_last_hour else ""),
            ),
            Text.assemble(
                ("timers due ", "dim"), str(s.timers_due), (f" of {s.timers_live} live", "dim")
            ),
            Text.assemble(("workers ", "dim"), str(s.live_workers)),
            Text.assemble(("schedulers ", "dim"), str(s.live_schedulers)),
            Text.assemble(("foreground ", "dim"), str(s.live_foreground)),
        ]
        lines = [_title(self.target, local_clock(s.now), width), Text()]
        for item in items:
            line = lines[-1]
            if line.cell_len and width is not None and line.cell_len + 2 + item.cell_len > width:
                lines.append(Text())
                line = lines[-1]
            if line.cell_len:
                line.append("  ")
            line.append_text(item)
        return Text("\n").join(lines)

    def _render(self, snapshot: FleetSnapshot, width: int | None) -> RenderableType:
        parts: list[RenderableType] = [
            self._header(snapshot, width),
            self._running_table(snapshot, width),
        ]
        if snapshot.workers:
            parts.append(self._workers_table(snapshot, width))
        if snapshot.timers:
            parts.append(self._timers_table(snapshot, width))
        if snapshot.failed:
            parts.append(self._failed_table(snapshot, width))
        return Group(*parts)

    def _running_table(self, snapshot: FleetSnapshot, width: int | None) -> Text:
        rows: list[list[Cell]] = []
        for job in snapshot.running:
            done = int(job["success_rows"]) + int(job["failed_rows"])
            total = job["total_rows"]
            # Between refreshes once seen twice; until then its current run's average.
            rate = self._rates.get(job["id"], job.get("rows_per_second"))
            name = job["file_name"] + (" (cancelling)" if job["cancel_requested"] else "")
            rows.append(
                [
                    str(job["id"]),
                    name,
                    BarCell(done, int(total) if total else None),
                    f"{done:,}/{total:,}" if total else f"{done:,}",
                    f"{int(job['failed_rows']):,}",
                    f"{rate:,.0f}" if rate is not None else "…",
                    # Its process is gone: say so where its owner stands, and what to do.
                    f"gone: importer resume {job['id']}"
                    if job.get("owner_gone")
                    else job["lease_owner"] or "",
                ]
            )
        if not rows:
            rows.append(["-", "none", "", "", "", "", ""])
        table = _titled("running jobs", fitted_table(RUNNING_COLUMNS, rows, width))
        return Text("\n").join([table, *self._corrected(snapshot)])

    @staticmethod
    def _corrected(snapshot: FleetSnapshot) -> list[Text]:
        """A running correction: its import's rejected rows as they stand."""
        lines = []
        for job in snapshot.running:
            origin = job.get("origin")
            if isinstance(origin, dict):
                rejected, fixed = int(origin["failed_rows"]), int(origin["fixed_rows"])
                lines.append(
                    Text(
                        f"job {job['id']} corrects job {origin['id']}: rejected {rejected:,}"
                        f" · fixed later {fixed:,} · still open {max(rejected - fixed, 0):,}"
                    )
                )
        return lines

    def _workers_table(self, snapshot: FleetSnapshot, width: int | None) -> Text:
        now = snapshot.stats.now
        rows: list[list[Cell]] = [
            [
                proc["owner"],
                proc["kind"],
                format_age(_seconds_between(now, proc["started_at"])),
                format_age(_seconds_between(now, proc["heartbeat_at"])) + " ago",
            ]
            for proc in snapshot.workers
        ]
        return _titled("live processes", fitted_table(PROCESS_COLUMNS, rows, width))

    def _timers_table(self, snapshot: FleetSnapshot, width: int | None) -> Text:
        now = snapshot.stats.now
        rows: list[list[Cell]] = []
        for timer in snapshot.timers:
            wait = -_seconds_between(now, timer["due_at"])
            due = f"in {format_age(wait)}" if wait > 0 else f"{format_age(-wait)} ago"
            rows.append(
                [
                    str(timer["id"]),
                    timer["kind"],
                    timer["target"],
                    timer["status"],
                    due,
                    local_time(datetime.fromisoformat(str(timer["due_at"]))),
                    f"{timer['attempts']}/{timer['max_attempts']}",
                ]
            )
        return _titled("next timers", fitted_table(TIMER_COLUMNS, rows, width))

    def _failed_table(self, snapshot: FleetSnapshot, width: int | None) -> Text:
        rows: list[list[Cell]] = [
            [
                str(job["id"]),
                job["file_name"],
                str(job["attempts"]),
                " ".join((job["last_error"] or "").split())[:300],
            ]
            for job in snapshot.failed
        ]
        return _titled("recently failed", fitted_table(FAILED_COLUMNS, rows, width))


TITLE = "importer watch"
TARGET_LEAST = 8  # a database cut shorter tells nothing: below this it is left out


def _title(target: str, clock: str, width: int | None) -> Text:
    """The title, the database and the clock; when they do not fit, the database is cut
    (in the middle: its host and its name both tell), then left out; the clock stays."""
    room = None if width is None else width - len(TITLE) - 2 * len("  ") - cell_len(clock)
    if room is not None and room < min(TARGET_LEAST, cell_len(target)):
        title = Text.assemble((TITLE, "bold"), "  ", clock)
    else:
        shown = target if room is None else shorten(target, room, middle=True)
        title = Text.assemble((TITLE, "bold"), "  ", shown, "  ", clock)
    if width is not None:
        title.truncate(width, overflow="ellipsis")  # narrower than the title and the clock
    return title


def _titled(title: str, table: Text) -> Text:
    return Text("\n").join([Text(), Text(title, style="bold"), table])


# At 80 columns the least needed columns go first; the job id, the rows and the bar stay.
RUNNING_COLUMNS = (
    Column("Job", right=True),
    Column("File", soft=16, least=8),
    Column("Progress", soft=12, least=6, bar_width=24),
    Column("Rows", right=True),
    Column("Rejected", right=True),
    Column("Rows/s", right=True, drop=1),
    Column("Owner", soft=12, least=10, middle=True, drop=2),
)
PROCESS_COLUMNS = (
    Column("Owner", soft=24, least=12, middle=True),
    Column("Kind"),
    Column("Up", right=True),
    Column("Heartbeat", right=True),
)
TIMER_COLUMNS = (
    Column("Timer", right=True),
    Column("Kind"),
    Column("Target", right=True),
    Column("Status"),
    Column("Due", right=True),
    Column("Due at", drop=2),
    Column("Attempts", right=True, drop=1),
)
FAILED_COLUMNS = (
    Column("Job", right=True),
    Column("File", soft=16, least=8),
    Column("Attempts", right=True, drop=1),
    Column("Error", soft=24, least=12),
)
