"""The fleet seen from the database: live processes (by heartbeat) and queue statistics.

Workers, timer schedulers and foreground runs (`submit`, `resume`) register in ``workers``
and heartbeat there; ``watch`` and ``stats`` read it together with the live part of the job
and timer tables, in one or two cheap statements (SQL in sql/queries/fleet.sql).
"""

from __future__ import annotations

import os
import socket
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from importer.database import Connection, queries
from importer.identity import owner_is_gone
from importer.states import JobStatus, ProcessKind, TimerStatus

HEARTBEAT_SECONDS = 5.0
# A process silent for this long is not shown as live (several missed heartbeats).
LIVE_AFTER_SECONDS = 30.0


def register_process(conn: Connection, owner: str, kind: ProcessKind) -> None:
    conn.execute(
        queries().register_process,
        {"owner": owner, "kind": kind, "host": socket.gethostname(), "pid": os.getpid()},
    )


def heartbeat_process(conn: Connection, owner: str, kind: ProcessKind) -> None:
    row = conn.execute(queries().heartbeat_process, {"owner": owner}).fetchone()
    if row is None:  # forgotten (e.g. after a long outage): register again
        register_process(conn, owner, kind)


def unregister_process(conn: Connection, owner: str) -> None:
    conn.execute(queries().unregister_process, {"owner": owner})


@dataclass(frozen=True)
class QueueStats:
    queued: int  # pending and available now
    scheduled: int  # pending, waiting on a timer or a retry delay
    running: int
    failed: int
    oldest_queued_seconds: float | None
    rows_per_second: float  # of the running jobs together, each over its current run
    attempts_failed_last_hour: int
    timers_due: int
    timers_live: int
    timers_failed: int
    # The same two by kind (`notify`: completion notices), kinds with none left out.
    timers_live_by_kind: dict[str, int]
    timers_failed_by_kind: dict[str, int]
    live_workers: int
    live_schedulers: int
    live_foreground: int  # `submit` / `resume` processes running jobs themselves
    now: datetime

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["now"] = self.now.isoformat()
        if self.oldest_queued_seconds is not None:
            data["oldest_queued_seconds"] = round(self.oldest_queued_seconds, 3)
        data["rows_per_second"] = round(self.rows_per_second, 1)
        return data


def _gone_processes(conn: Connection) -> Counter[str]:
    """Processes that look live by their heartbeat but are proven gone on this host, by kind."""
    rows = conn.execute(queries().live_process_owners, {"live_after": LIVE_AFTER_SECONDS})
    return Counter(row["kind"] for row in rows if owner_is_gone(row["owner"]))


def queue_stats(conn: Connection) -> QueueStats:
    with conn.transaction():
        conn.execute(queries().statistics_without_jit)
        row = conn.execute(queries().queue_stats, {"live_after": LIVE_AFTER_SECONDS}).fetchone()
    assert row is not None  # an aggregate always yields a row
    gone = _gone_processes(conn)
    return QueueStats(
        queued=int(row["queued"]),
        scheduled=int(row["scheduled"]),
        running=int(row["running"]),
        failed=int(row["failed"]),
        oldest_queued_seconds=row["oldest_queued_seconds"],
        rows_per_second=float(row["rows_per_second"]),
        attempts_failed_last_hour=int(row["attempts_failed_last_hour"]),
        timers_due=int(row["timers_due"]),
        timers_live=int(row["timers_live"]),
        timers_failed=int(row["timers_failed"]),
        timers_live_by_kind={k: int(n) for k, n in row["timers_live_by_kind"].items()},
        timers_failed_by_kind={k: int(n) for k, n in row["timers_failed_by_kind"].items()},
        live_workers=int(row["live_workers"]) - gone[ProcessKind.WORKER],
        live_schedulers=int(row["live_schedulers"]) - gone[ProcessKind.TIMERS],
        live_foreground=int(row["live_foreground"]) - gone[ProcessKind.FOREGROUND],
        now=row["now"],
    )


@dataclass(frozen=True)
class JobTotals:
    """Every job ever stored, by status, and the rows they wrote (a full pass: for `stats`
    and the metrics, not for every `watch` frame)."""

    jobs: dict[JobStatus, int]  # every status, 0 included
    rows_imported: int
    rows_rejected: int
    attempts_failed: int
    # Completion notices (notify timers) by status, 0 included: completed ones were delivered.
    notices: dict[TimerStatus, int] = field(default_factory=dict)
    # Of the imports' rejected rows (not corrections'): those corrections imported since, and
    # those still open (migration 0018).
    rows_fixed: int = 0
    rows_open: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "jobs": {str(status): count for status, count in self.jobs.items()},
            "rows_imported": self.rows_imported,
            "rows_rejected": self.rows_rejected,
            "rows_fixed_later": self.rows_fixed,
            "rows_still_open": self.rows_open,
            "attempts_failed": self.attempts_failed,
            "notices": {str(status): count for status, count in self.notices.items()},
        }


def job_totals(conn: Connection) -> JobTotals:
    q = queries()
    counts = {status: 0 for status in JobStatus}
    imported = rejected = fixed = still_open = 0
    with conn.transaction():
        conn.execute(q.statistics_without_jit)
        by_status = conn.execute(q.jobs_by_status).fetchall()
        failed = conn.execute(q.attempts_failed_total).fetchone()
        by_notice = conn.execute(q.notices_by_status).fetchall()
    for row in by_status:
        counts[JobStatus(row["status"])] = int(row["jobs"])
        imported += int(row["rows_imported"])
        rejected += int(row["rows_rejected"])
        fixed += int(row["rows_fixed"])
        still_open += int(row["rows_open"])
    assert failed is not None  # an aggregate always yields a row
    notices = {status: 0 for status in TimerStatus}
    for row in by_notice:
        notices[TimerStatus(row["status"])] = int(row["notices"])
    return JobTotals(counts, imported, rejected, int(failed["failed"]), notices, fixed, still_open)


@dataclass(frozen=True)
class FleetSnapshot:
    """Everything `importer watch` shows; lists hold plain JSON objects from the database."""

    stats: QueueStats
    running: list[dict[str, Any]]
    failed: list[dict[str, Any]]
    workers: list[dict[str, Any]]
    timers: list[dict[str, Any]]


def fleet_snapshot(conn: Connection, *, limit: int = 20, failed_limit: int = 5) -> FleetSnapshot:
    stats = queue_stats(conn)
    row = conn.execute(
        queries().fleet_details,
        {"limit": limit, "failed_limit": failed_limit, "live_after": LIVE_AFTER_SECONDS},
    ).fetchone()
    assert row is not None
    running = list(row["running"])
    for job in running:  # a job whose owner is proven gone says so (resume takes it over)
        job["owner_gone"] = owner_is_gone(job["lease_owner"])
    return FleetSnapshot(
        stats=stats,
        running=running,
        failed=list(row["failed"]),
        workers=[w for w in row["workers"] if not owner_is_gone(w["owner"])],
        timers=list(row["timers"]),
    )
