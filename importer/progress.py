"""Showing imports as they run: a rich live view per job on a terminal, periodic plain lines
otherwise, nothing with --quiet; and the final summary table.

Views consume pipeline.JobProgress events; they never touch the database.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn
from rich.table import Table

from importer.repositories.jobs import Job
from importer.running.job_run import JobProgress
from importer.states import ProgressPhase

PHASE_TEXT = {
    ProgressPhase.OPENING: "reading workbook",
    ProgressPhase.IMPORTING: "importing",
    ProgressPhase.DONE: "done",
    ProgressPhase.CANCELLED: "cancelled",
    ProgressPhase.STOPPED: "stopped",
    ProgressPhase.LEASE_LOST: "lease lost",
    ProgressPhase.ATTEMPT_FAILED: "attempt failed",
    ProgressPhase.WAITING: "waiting",
}


def format_count(value: int | None) -> str:
    return "?" if value is None else f"{value:,}"


def format_rate(rows_per_second: float | None) -> str:
    if not rows_per_second:
        return "- rows/s"
    return f"{rows_per_second:,.0f} rows/s"


def format_duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def eta_seconds(event: JobProgress) -> float | None:
    rate = event.rows_per_second
    if rate is None or event.total_rows is None:
        return None
    return max(0, event.total_rows - event.done_rows) / rate


def plain_line(event: JobProgress) -> str:
    """One self-contained line, for logs and pipes."""
    done = event.done_rows
    total = event.total_rows
    percent = f" ({done * 100 // total}%)" if total else ""
    parts = [
        f"job {event.job_id} {event.file_name}: {PHASE_TEXT.get(event.phase, event.phase)}",
        f"{done:,}/{format_count(total)} rows{percent}",
        format_rate(event.rows_per_second),
    ]
    if event.phase is ProgressPhase.IMPORTING:
        parts.append(f"ETA {format_duration(eta_seconds(event))}")
    parts.append(f"{event.success_rows:,} good, {event.failed_rows:,} rejected")
    line = " · ".join(parts)
    return f"{line} ({event.message})" if event.message else line


class ProgressView:
    """Base: the silent view (--quiet)."""

    def update(self, event: JobProgress) -> None:
        del event

    def note(self, text: str) -> None:
        """A message between updates (waiting for a lease, resuming ...)."""
        del text

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
        self._lock = threading.Lock()

    def update(self, event: JobProgress) -> None:
        now = time.monotonic()
        with self._lock:
            last = self._last.get(event.job_id)
            if last is not None and last[1] == event.phase and now - last[0] < self.interval:
                return
            self._last[event.job_id] = (now, event.phase)
        self.console.print(plain_line(event), markup=False, highlight=False)

    def note(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False)


class LiveView(ProgressView):
    """rich progress bars: rows done / total, rows/s, ETA, good and rejected counts."""

    def __init__(self, console: Console) -> None:
        self.progress = Progress(
            TextColumn("job {task.fields[job_id]} {task.description}", markup=False),
            BarColumn(bar_width=20),
            TextColumn("{task.fields[done]}/{task.fields[total_text]}"),
            TextColumn("{task.fields[rate]}"),
            TextColumn("ETA {task.fields[eta]}"),
            TextColumn(
                "[green]{task.fields[good]} good[/] [red]{task.fields[rejected]} rejected[/]"
            ),
            TextColumn("{task.fields[phase]}", markup=False),
            console=console,
            refresh_per_second=4,
        )
        self._tasks: dict[int, TaskID] = {}
        self._started = False

    def update(self, event: JobProgress) -> None:
        if not self._started:
            self.progress.start()
            self._started = True
        fields: dict[str, Any] = {
            "job_id": event.job_id,
            "done": format_count(event.done_rows),
            "total_text": format_count(event.total_rows),
            "rate": format_rate(event.rows_per_second),
            "eta": format_duration(eta_seconds(event)),
            "good": format_count(event.success_rows),
            "rejected": format_count(event.failed_rows),
            "phase": PHASE_TEXT.get(event.phase, event.phase),
        }
        task = self._tasks.get(event.job_id)
        if task is None:
            name = event.file_name if len(event.file_name) <= 30 else event.file_name[:29] + "…"
            task = self.progress.add_task(name, total=event.total_rows, **fields)
            self._tasks[event.job_id] = task
        self.progress.update(
            task, completed=event.done_rows, total=event.total_rows or None, **fields
        )

    def note(self, text: str) -> None:
        self.progress.console.print(text, markup=False, highlight=False)

    def close(self) -> None:
        if self._started:
            self.progress.stop()
            self._started = False


def make_view(console: Console, *, quiet: bool, live: bool, interval: float = 5.0) -> ProgressView:
    if quiet:
        return ProgressView()
    return LiveView(console) if live else PlainView(console, interval)


def plain_table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> str:
    """Aligned columns without box drawing: for pipes and logs, never truncated."""
    widths = [max(len(str(c)) for c in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        parts = [
            str(c).rjust(w) if i in right else str(c).ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([line(headers), *(line(r) for r in rows)])


@dataclass(frozen=True)
class SummaryRow:
    job: Job
    run_seconds: float | None = None
    run_rows: int = 0


SUMMARY_COLUMNS = ("Job", "File", "Status", "Rows", "Imported", "Rejected", "Time", "Rows/s")
_SUMMARY_RIGHT = {0, 3, 4, 5, 6, 7}


def _summary_cells(row: SummaryRow) -> list[str]:
    job = row.job
    rate = row.run_rows / row.run_seconds if row.run_seconds and row.run_rows else None
    return [
        str(job.id),
        job.file_name,
        job.status,
        format_count(job.total_rows),
        format_count(job.success_rows),
        format_count(job.failed_rows),
        format_duration(row.run_seconds),
        f"{rate:,.0f}" if rate else "-",
    ]


def summary_table(rows: Sequence[SummaryRow], *, rich: bool = True) -> Table | str:
    """The final summary: a rich table on a terminal, aligned plain text otherwise."""
    cells = [_summary_cells(row) for row in rows]
    if not rich:
        return "Import summary\n" + plain_table(SUMMARY_COLUMNS, cells, _SUMMARY_RIGHT)
    table = Table(
        title="Import summary",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
    )
    for index, name in enumerate(SUMMARY_COLUMNS):
        # Every column keeps its full width; only the file name gives way on a narrow terminal.
        widest = max([len(name), *(len(c[index]) for c in cells)])
        table.add_column(
            name,
            justify="right" if index in _SUMMARY_RIGHT else "left",
            no_wrap=True,
            overflow="ellipsis",
            min_width=4 if name == "File" else widest,
        )
    for row_cells in cells:
        table.add_row(*row_cells)
    return table
