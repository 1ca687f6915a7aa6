"""`importer timers cancel`: a live timer cancelled, with the import job that waits on it."""

from __future__ import annotations

from importer.database import Connection
from importer.repositories import jobs
from importer.repositories import timers as timers_repo
from importer.repositories.jobs import Job
from importer.states import JobStatus
from importer.timers.kinds import IMPORT_KINDS


def cancel_timer(conn: Connection, timer_id: int) -> tuple[timers_repo.Timer, Job | None]:
    """Cancel a live timer, in one transaction. The import job a scheduled_import or
    import_retry timer would start waits on nothing else, so it is cancelled with it (and
    returned)."""
    with conn.transaction():
        timer = timers_repo.cancel_timer(conn, timer_id)
        if timer.kind not in IMPORT_KINDS or not timer.target.isdigit():
            return timer, None
        job = jobs.get_job(conn, int(timer.target))
        if job.status is not JobStatus.PENDING or job.available_at is not None:
            return timer, None  # it no longer waits on this timer
        return timer, jobs.cancel(conn, job.id)
