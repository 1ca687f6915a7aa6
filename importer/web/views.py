"""What the page and the API show of a job: its statuses are the CLI's; the lease owner and
anything of a host never leave the server (an error that named a worker's process says "a
worker" instead)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Protocol

from importer.api.fixes import RowsChecked
from importer.forms.senders import SenderProblem
from importer.repositories.jobs import Job
from importer.repositories.undo import UndoReport
from importer.repositories.visible_jobs import Progress, RejectedRowPage
from importer.states import JobStatus

# A lease owner as importer.identity writes it: host:pid:random[:boot-ns.start].
_OWNER = re.compile(r"[^\s()'\"]+:\d+:[0-9a-f]{8}(?::[0-9a-f]+-\d+\.\d+)?")


class Standing(Protocol):
    """Where a job stands: a whole job, or its progress as a stream reads it."""

    @property
    def status(self) -> JobStatus: ...
    @property
    def total_rows(self) -> int | None: ...
    @property
    def success_rows(self) -> int: ...
    @property
    def failed_rows(self) -> int: ...
    @property
    def available_at(self) -> datetime | None: ...
    @property
    def cursor(self) -> int: ...
    @property
    def terminal(self) -> bool: ...
    @property
    def taken_back(self) -> bool: ...


def public_error(text: str | None) -> str | None:
    """A job's last error as a sender may read it: no process or host named."""
    return None if text is None else _OWNER.sub("a worker", text)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def job_json(job: Job) -> dict[str, Any]:
    """A job for the JSON API (and the page's progress): never its lease or host."""
    keyed = job.keyed_counts
    counts = {}
    if keyed is not None:
        counts = dict(zip(("inserted", "updated", "unchanged"), keyed, strict=True))
    return {
        "id": job.id,
        "status": job.status.value,
        "form": job.form,
        "form_version": job.form_version,
        "file_name": job.file_name,
        "sheet": job.sheet,
        "total_rows": job.total_rows,
        "success_rows": job.kept_rows,  # a run taken back over its limit kept none
        "failed_rows": job.failed_rows,
        **counts,
        "done": job.terminal,
        "percent": percent(job),
        "attempts": job.attempts,
        "max_attempts": job.max_attempts,
        "error": public_error(job.last_error),
        "cancel_requested": job.cancel_requested,
        "submitted_by": job.submitted_by,
        "created_at": _iso(job.created_at),
        "started_at": _iso(job.started_at),
        "finished_at": _iso(job.finished_at),
        "max_rejected": job.max_rejected,
        "rows_not_read": job.rows_not_read or [],
        "correction_of": job.origin_job_id,
        **(
            {"fixed_later": job.fixed_rows, "still_open": job.still_open}
            if job.origin_job_id is None
            else {}
        ),
    }


def percent(job: Standing) -> float | None:
    """How far the job is (None: its rows are not counted yet)."""
    if job.terminal and job.status.value in ("succeeded", "partially_succeeded"):
        return 100.0
    if not job.total_rows:
        return None
    return round(min(100.0, 100.0 * job.cursor / job.total_rows), 1)


def progress_json(progress: Progress, rate: float | None) -> dict[str, Any]:
    """A progress event: the rows committed so far (imported and rejected), their rate per
    second, the status; never the lease or a host."""
    return {
        "id": progress.job_id,
        "status": progress.status.value,
        "total_rows": progress.total_rows,
        "rows": progress.cursor,
        "imported": progress.kept_rows,
        "rejected": progress.failed_rows,
        "rate": rate,
        "percent": percent(progress),
        "done": progress.terminal,
        "state": describe(progress),
        "error": public_error(progress.last_error),
    }


def rejected_json(row: RejectedRowPage) -> dict[str, Any]:
    return {
        "row": row.number,
        "values": row.texts,
        "problems": [
            {"column": p.column, "value": p.raw, "message": p.message} for p in row.problems
        ],
    }


def describe(job: Standing) -> str:
    """One line of where the job stands, as the page says it."""
    if job.status.value == "pending":
        return "waiting for a worker" if job.available_at else "scheduled"
    if job.status.value == "running":
        if job.total_rows is None:
            return "reading the workbook"
        return f"{job.cursor:,} of {job.total_rows:,} rows"
    if job.taken_back:
        return "failed: more rows were rejected than its limit allows, so none is kept"
    if job.status.value == "partially_succeeded" and not job.success_rows:
        return f"nothing was imported: all {job.failed_rows:,} rows were rejected"
    return {
        "succeeded": f"{job.success_rows:,} rows imported",
        "partially_succeeded": (
            f"{job.success_rows:,} rows imported, {job.failed_rows:,} rejected"
        ),
        "failed": "failed",
        "cancelled": "cancelled",
        "reverted": "taken back: none of its rows is kept",
    }.get(job.status.value, job.status.value)


def problem_json(problem: SenderProblem) -> dict[str, Any]:
    return {
        "column": problem.column,
        "value": problem.value,
        "message": problem.message,
        "suggestions": list(problem.suggestions),
    }


def checked_json(checked: RowsChecked) -> dict[str, Any]:
    rows = [
        {"row": row, "fixed": not problems, "problems": [problem_json(p) for p in problems]}
        for row, problems in sorted(checked.problems.items())
    ]
    return {"rows": rows, "ready": checked.ready}


def undo_json(report: UndoReport) -> dict[str, Any]:
    """What an undo took back (or, a dry run, would): each import's rows removed (it
    inserted them) and restored (it overwrote them), and the imports as they are now."""
    return {
        "dry_run": report.dry_run,
        "form": report.form,
        "removed": report.removed,
        "restored": report.restored,
        "imports": [taken.to_json() for taken in report.jobs],
        "reverted": [job_json(job) for job in report.reverted],
    }
