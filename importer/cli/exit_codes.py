"""The one place where outcomes become process exit codes (README, "Exit codes").

0 succeeded; 3 finished with rejected rows; 4 finished with nothing imported (every row was
rejected); 1 the job failed (or was cancelled) or a runtime error; 2 bad usage, or an input
refused before any job was created; 128+N stopped by signal N.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING

import typer

from importer.errors import ImporterError, JobFailed, UsageError
from importer.states import JobStatus

if TYPE_CHECKING:
    from importer.repositories.jobs import Job


class ExitCode(IntEnum):
    OK = 0
    FAILED = 1
    USAGE = 2
    REJECTED_ROWS = 3
    NOTHING_IMPORTED = 4  # finished, but every row was rejected: a script must not read success


SIGNAL_BASE = 128

# The first matching row wins: an error's class decides its code.
_ERRORS: tuple[tuple[type[ImporterError], ExitCode], ...] = (
    (UsageError, ExitCode.USAGE),  # arguments, settings, forms, inputs, unknown ids, states
    (ImporterError, ExitCode.FAILED),  # the database, a lost lease, a failed job
)

_JOBS: dict[JobStatus, ExitCode] = {
    JobStatus.SUCCEEDED: ExitCode.OK,
    JobStatus.PARTIALLY_SUCCEEDED: ExitCode.REJECTED_ROWS,
    JobStatus.FAILED: ExitCode.FAILED,
    JobStatus.CANCELLED: ExitCode.FAILED,
    JobStatus.REVERTED: ExitCode.FAILED,  # its rows were taken back: none of it is kept
}


def for_error(exc: ImporterError) -> ExitCode:
    for kind, code in _ERRORS:
        if isinstance(exc, kind):
            return code
    raise AssertionError("ImporterError is the table's last row")  # pragma: no cover


def for_job(job: Job) -> ExitCode:
    """A job as it is now; pending or running: nothing went wrong (yet)."""
    if nothing_imported(job):
        return ExitCode.NOTHING_IMPORTED
    return _JOBS.get(job.status, ExitCode.OK)


def nothing_imported(job: Job) -> bool:
    """A job that finished with rows, every one of them rejected."""
    return (
        job.status is JobStatus.PARTIALLY_SUCCEEDED and not job.success_rows and job.failed_rows > 0
    )


def for_jobs(jobs: Iterable[Job], *, signal: int = 0) -> int:
    """128+N after signal N, else the worst of the jobs' codes (1, then 4, then 3, then 0)."""
    if signal:
        return SIGNAL_BASE + signal
    codes = {for_job(job) for job in jobs}
    for worst in (ExitCode.FAILED, ExitCode.NOTHING_IMPORTED, ExitCode.REJECTED_ROWS):
        if worst in codes:
            return worst
    return ExitCode.OK


def for_rejected(rejected: int, good: int) -> ExitCode:
    """A check, as an import of the file would end: 3 when some rows would be rejected, 4
    when every row would be."""
    if rejected and not good:
        return ExitCode.NOTHING_IMPORTED
    return ExitCode.REJECTED_ROWS if rejected else ExitCode.OK


def job_failure(job: Job) -> JobFailed | None:
    """The error a command ends with for a job that failed or was cancelled."""
    if job.status is JobStatus.FAILED:
        return JobFailed(
            f"import job {job.id} failed: {job.last_error or 'unknown error'}",
            job_id=job.id,
            status=job.status,
        )
    if job.status is JobStatus.CANCELLED:
        return JobFailed(f"import job {job.id} was cancelled", job_id=job.id, status=job.status)
    return None


def end_with(jobs: Sequence[Job], *, signal: int = 0) -> None:
    """End the command as its jobs ended: the first failed or cancelled job's one-line error
    (exit 1), else their code (128+N after signal N); nothing to do for 0."""
    if not signal:
        for job in jobs:
            failure = job_failure(job)
            if failure is not None:
                raise failure
    code = for_jobs(jobs, signal=signal)
    if code:
        raise typer.Exit(code)
