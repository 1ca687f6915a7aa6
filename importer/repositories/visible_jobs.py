"""Jobs as one account sees them, for the web page and the JSON API (SQL in
sql/queries/visible_jobs.sql): every statement is scoped by the account asking, in SQL, so a
job that is not the viewer's is no row, answered as a job that does not exist."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from importer.database import Connection, queries
from importer.errors import Missing, NotFoundError
from importer.repositories.jobs import Job
from importer.repositories.rejected_rows import RowProblem
from importer.states import JobStatus


def not_found(job_id: int) -> NotFoundError:
    """The one answer for a job that does not exist and for one that is not the viewer's."""
    return NotFoundError(f"no import job with id {job_id}", what=Missing.JOB, key=job_id)


def visible_job(conn: Connection, viewer: int, job_id: int) -> Job:
    row = conn.execute(queries().visible_job, {"viewer": viewer, "id": job_id}).fetchone()
    if row is None:
        raise not_found(job_id)
    return Job.from_row(row)


def visible_jobs(
    conn: Connection,
    viewer: int,
    *,
    limit: int,
    before: int | None = None,
    statuses: Sequence[JobStatus] | None = None,
) -> list[Job]:
    """The viewer's jobs, newest first (``before``: older than that id)."""
    rows = conn.execute(
        queries().visible_jobs,
        {
            "viewer": viewer,
            "limit": limit,
            "before": before,
            "statuses": [s.value for s in statuses] if statuses else None,
        },
    ).fetchall()
    return [Job.from_row(row) for row in rows]


@dataclass(frozen=True)
class RejectedRowPage:
    """One rejected row of a page: its Excel row, its cells as text, its problems."""

    number: int
    texts: list[str | None]
    problems: list[RowProblem]


def visible_rejected_rows(
    conn: Connection, viewer: int, job_id: int, *, after: int, limit: int
) -> list[RejectedRowPage]:
    """A page of the job's rejected rows after Excel row ``after`` (none: not the viewer's,
    or no more)."""
    rows = conn.execute(
        queries().visible_rejected_rows,
        {"viewer": viewer, "job_id": job_id, "after": after, "limit": limit},
    ).fetchall()
    return [
        RejectedRowPage(
            number=int(row["row_number"]),
            texts=list(row["row_values"]),
            problems=[RowProblem(int(row["row_number"]), *error) for error in row["errors"]],
        )
        for row in rows
    ]


@dataclass(frozen=True)
class Progress:
    """How far a job is, as its stream of progress events shows it (no lease, no host)."""

    job_id: int
    status: JobStatus
    total_rows: int | None
    success_rows: int
    failed_rows: int
    available_at: datetime | None
    cancel_requested: bool
    last_error: str | None
    reverted_at: datetime | None = None

    @property
    def cursor(self) -> int:
        return self.success_rows + self.failed_rows

    @property
    def taken_back(self) -> bool:
        """As Job.taken_back: failed over its reject limit, none of its rows kept."""
        return self.status is JobStatus.FAILED and self.reverted_at is not None

    @property
    def kept_rows(self) -> int:
        return 0 if self.taken_back else self.success_rows

    @property
    def terminal(self) -> bool:
        return self.status.terminal


def visible_progress(
    conn: Connection, asked: Sequence[tuple[int, int]]
) -> dict[tuple[int, int], Progress]:
    """(viewer, job) -> how far that job is, for every pair the viewer may see (one
    statement for them all; a pair missing from the answer is a job not, or no longer,
    the viewer's)."""
    if not asked:
        return {}
    rows = conn.execute(
        queries().visible_progress,
        {"viewers": [viewer for viewer, _ in asked], "jobs": [job for _, job in asked]},
    ).fetchall()
    return {
        (int(row["viewer"]), int(row["id"])): Progress(
            job_id=int(row["id"]),
            status=JobStatus(row["status"]),
            total_rows=row["total_rows"],
            success_rows=int(row["success_rows"]),
            failed_rows=int(row["failed_rows"]),
            available_at=row["available_at"],
            cancel_requested=bool(row["cancel_requested"]),
            last_error=row["last_error"],
            reverted_at=row["reverted_at"],
        )
        for row in rows
    }
