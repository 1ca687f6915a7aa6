"""The `importer watch` dashboard: one snapshot (two cheap queries) per refresh, rendered
with rich — a live screen on a terminal, one plain summary line per refresh otherwise."""

from __future__ import annotations

import contextlib
import threading
import time
from datetime import datetime
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from importer.database import Connection, connect
from importer.repositories.fleet import FleetSnapshot, fleet_snapshot


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
    def __init__(self, url: str, target: str) -> None:
        self.url = url
        self.target = target
        self._conn: Connection | None = None
        # job id -> (rows done, monotonic time): rows/s between refreshes
        self._last_done: dict[int, tuple[int, float]] = {}
        self._rates: dict[int, float] = {}

    def run(
        self, console: Console, *, live: bool, interval: float, once: bool, stop: threading.Event
    ) -> None:
        try:
            self._run(console, live=live, interval=interval, once=once, stop=stop)
        finally:
            if self._conn is not None:
                with contextlib.suppress(Exception):
                    self._conn.close()
            self._conn = None

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
                    screen.update(self._frame(), refresh=True)
                    stop.wait(interval)
            return
        while True:
            snapshot, error = self._snapshot()
            if once and snapshot is not None:
                console.print(self._render(snapshot))
            else:
                console.print(self._plain_line(snapshot, error))
            if once or stop.wait(interval):
                return

    # --- data ------------------------------------------------------------------------------

    def _snapshot(self) -> tuple[FleetSnapshot | None, str | None]:
        try:
            if self._conn is None or self._conn.broken:
                self._conn = connect(self.url, autocommit=True)
            snapshot = fleet_snapshot(self._conn)
        except Exception as exc:  # shown on screen; watch keeps trying
            if self._conn is not None:
                with contextlib.suppress(Exception):
                    self._conn.close()
            self._conn = None
            return None, str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        self._update_rates(snapshot)
        return snapshot, None

    def _update_rates(self, snapshot: FleetSnapshot) -> None:
        now = time.monotonic()
        seen: dict[int, tuple[int, float]] = {}
        for job in snapshot.running:
            done = int(job["success_rows"]) + int(job["failed_rows"])
            seen[job["id"]] = (done, now)
            before = self._last_done.get(job["id"])
            if before is not None and now > before[1]:
                rate = (done - before[0]) / (now - before[1])
                old = self._rates.get(job["id"])
                self._rates[job["id"]] = rate if old is None else 0.5 * old + 0.5 * rate
        self._last_done = seen
        self._rates = {k: v for k, v in self._rates.items() if k in seen}

    # --- rendering -------------------------------------------------------------------------

    def _frame(self) -> RenderableType:
        snapshot, error = self._snapshot()
        return self._render(snapshot) if snapshot is not None else self._render_error(error or "")

    def _render_error(self, message: str) -> RenderableType:
        return Text(f"importer watch — {self.target} — {message}", style="yellow")

    def _plain_line(self, snapshot: FleetSnapshot | None, error: str | None) -> str:
        stamp = f"{datetime.now():%H:%M:%S}"
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

    def _render(self, snapshot: FleetSnapshot) -> RenderableType:
        s = snapshot.stats
        oldest = format_age(s.oldest_queued_seconds) if s.oldest_queued_seconds is not None else "-"
        header = Text.assemble(
            ("importer watch", "bold"),
            f"  {self.target}  {s.now.astimezone():%H:%M:%S}\n",
            ("queued ", "dim"), str(s.queued), ("  scheduled ", "dim"), str(s.scheduled),
            ("  running ", "dim"), (str(s.running), "cyan"),
            ("  failed ", "dim"), (str(s.failed), "red" if s.failed else ""),
            ("  oldest queued ", "dim"), oldest,
            ("  rows/s ", "dim"), f"{s.rows_per_second:,.0f}",
            ("  failed attempts (1h) ", "dim"),
            (str(s.attempts_failed_last_hour), "red" if s.attempts_failed_last_hour else ""),
            ("  timers due ", "dim"), str(s.timers_due), (f" of {s.timers_live} live", "dim"),
            ("  workers ", "dim"), str(s.live_workers),
            ("  schedulers ", "dim"), str(s.live_schedulers),
            ("  foreground ", "dim"), str(s.live_foreground),
        )  # fmt: skip
        parts: list[RenderableType] = [header, self._running_table(snapshot)]
        if snapshot.workers:
            parts.append(self._workers_table(snapshot))
        if snapshot.timers:
            parts.append(self._timers_table(snapshot))
        if snapshot.failed:
            parts.append(self._failed_table(snapshot))
        return Group(*parts)

    def _running_table(self, snapshot: FleetSnapshot) -> Table:
        table = Table(title="running jobs", title_justify="left", expand=False)
        for column in ("job", "file", "progress", "rows", "rejected", "rows/s", "owner"):
            table.add_column(column, no_wrap=True)
        if not snapshot.running:
            table.add_row("-", "none", "", "", "", "", "")
        for job in snapshot.running:
            done = int(job["success_rows"]) + int(job["failed_rows"])
            total = job["total_rows"]
            bar = ProgressBar(total=float(total or 0) or None, completed=done, width=24)
            rows = f"{done:,}/{total:,}" if total else f"{done:,}"
            # Between refreshes once seen twice; until then its current run's average.
            rate = self._rates.get(job["id"], job.get("rows_per_second"))
            name = job["file_name"] + (" (cancelling)" if job["cancel_requested"] else "")
            table.add_row(
                str(job["id"]),
                name,
                bar,
                rows,
                f"{int(job['failed_rows']):,}",
                f"{rate:,.0f}" if rate is not None else "…",
                job["lease_owner"] or "",
            )
        return table

    def _workers_table(self, snapshot: FleetSnapshot) -> Table:
        table = Table(title="live processes", title_justify="left")
        for column in ("owner", "kind", "up", "heartbeat"):
            table.add_column(column, no_wrap=True)
        now = snapshot.stats.now
        for proc in snapshot.workers:
            table.add_row(
                proc["owner"],
                proc["kind"],
                format_age(_seconds_between(now, proc["started_at"])),
                format_age(_seconds_between(now, proc["heartbeat_at"])) + " ago",
            )
        return table

    def _timers_table(self, snapshot: FleetSnapshot) -> Table:
        table = Table(title="next timers", title_justify="left")
        for column in ("timer", "kind", "target", "status", "due", "attempts"):
            table.add_column(column, no_wrap=True)
        now = snapshot.stats.now
        for timer in snapshot.timers:
            wait = -_seconds_between(now, timer["due_at"])
            due = f"in {format_age(wait)}" if wait > 0 else f"due {format_age(-wait)} ago"
            table.add_row(
                str(timer["id"]),
                timer["kind"],
                timer["target"],
                timer["status"],
                due,
                f"{timer['attempts']}/{timer['max_attempts']}",
            )
        return table

    def _failed_table(self, snapshot: FleetSnapshot) -> Table:
        table = Table(title="recently failed", title_justify="left")
        for column in ("job", "file", "attempts", "error"):
            table.add_column(column)
        for job in snapshot.failed:
            error = (job["last_error"] or "")[:120]
            table.add_row(str(job["id"]), job["file_name"], str(job["attempts"]), error)
        return table
