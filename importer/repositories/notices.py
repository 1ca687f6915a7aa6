"""Completion notices as the database keeps them: the notify timers that migration 0014's
trigger creates in the transaction that ends a job (SQL in sql/queries/notices.sql).

A notice's key is its timer's target (``job-<id>-<status>``, ``-2`` and on for a later end
the same way); its payload holds the job as it ended, what delivery needs, and the event.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from importer.database import Connection, queries
from importer.repositories.jobs import Job
from importer.repositories.timers import Timer
from importer.states import TimerStatus

NOTIFY_KIND = "notify"


@dataclass(frozen=True)
class Notice:
    """One notice of a job: its delivery as its timer tells it."""

    timer_id: int
    key: str  # the Idempotency-Key of every request that delivers it
    event: str  # the status it announces
    status: TimerStatus  # completed: delivered (a 2xx answered)
    attempts: int
    max_attempts: int
    last_error: str | None
    due_at: datetime
    finished_at: datetime | None

    @classmethod
    def of(cls, timer: Timer) -> Notice:
        return cls(
            timer_id=timer.id,
            key=timer.target,
            event=str(timer.payload.get("event", "")),
            status=timer.status,
            attempts=timer.attempts,
            max_attempts=timer.max_attempts,
            last_error=timer.last_error,
            due_at=timer.due_at,
            finished_at=timer.finished_at,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "timer": self.timer_id,
            "key": self.key,
            "event": self.event,
            "status": self.status,
            "attempts": self.attempts,
            "max_attempts": self.max_attempts,
            "error": self.last_error,
            "due_at": self.due_at.isoformat(),
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
        }


def job_notices(conn: Connection, job_id: int) -> list[Notice]:
    """The job's notices, oldest first (none when it has no target or has not ended)."""
    rows = conn.execute(queries().job_notices, {"job_id": job_id}).fetchall()
    return [Notice.of(Timer.from_row(row)) for row in rows]


def job_as_it_ended(conn: Connection, snapshot: dict[str, Any]) -> Job:
    """The job a notice's payload holds (``payload["job"]``), typed as the table types it."""
    row = conn.execute(queries().job_as_it_ended, {"job": Jsonb(snapshot)}).fetchone()
    assert row is not None  # a SELECT without FROM yields its row
    return Job.from_row(row)
