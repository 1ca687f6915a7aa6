"""Running a job in the foreground (`submit`, `resume`) until it ends or the user stops it.

Claims the job if it can, runs it with pipeline.run_job, and keeps going through failed
attempts (waiting until the retry timer is due) and lost leases. A job held by a live process is
followed (its progress shown) until it ends or its lease expires; one held by a process
on this host that no longer exists is taken over at once.

While it drives jobs the process is registered in `workers` (kind "submit"), so `watch` and
`stats` see it beside the workers; a heartbeat thread keeps the row alive, so the import
itself makes no extra round trips.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from importer import jobs
from importer.config import ImportSettings
from importer.db import Connection, connect
from importer.errors import DatabaseUnavailable
from importer.jobs import Job
from importer.pipeline import JobProgress, run_job
from importer.process_loop import Registration

if TYPE_CHECKING:
    from importer.excel.base import SheetReader

# How often a waiting run looks at the job again (progress of another owner, expiry).
WATCH_INTERVAL_SECONDS = 1.0
# The `workers.kind` of a foreground run (submit or resume).
FOREGROUND_KIND = "submit"


@dataclass(frozen=True)
class RunResult:
    job: Job  # the job as last seen
    run_rows: int  # rows this process committed
    run_seconds: float
    interrupted: bool  # the user stopped us: the job is back to pending (or still elsewhere)


def progress_of(job: Job, phase: str, message: str | None = None) -> JobProgress:
    """A progress event built from the stored job (for jobs another process runs)."""
    return JobProgress(
        job_id=job.id,
        file_name=job.file_name,
        phase=phase,
        status=job.status,
        total_rows=job.total_rows,
        success_rows=job.success_rows,
        failed_rows=job.failed_rows,
        run_rows=0,
        run_seconds=0.0,
        message=message,
    )


def describe_wait(seconds: float) -> str:
    seconds = max(0, round(seconds))
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m {secs:02d}s" if minutes else f"{secs}s"


class ForegroundRunner:
    """Drives jobs in this process. Used as a context manager, it stays registered in
    `workers` across several drive() calls; otherwise each drive() registers for its own
    duration."""

    def __init__(
        self,
        url: str,
        settings: ImportSettings,
        owner: str,
        *,
        stop: threading.Event,
        on_progress: Callable[[JobProgress], None],
        on_note: Callable[[str], None],
    ) -> None:
        self.url = url
        self.settings = settings
        self.owner = owner
        self.stop = stop
        self.on_progress = on_progress
        self.on_note = on_note
        self._registration: Registration | None = None
        self._exit = contextlib.ExitStack()

    def __enter__(self) -> ForegroundRunner:
        self._exit.enter_context(self.registered())
        return self

    def __exit__(self, *exc: object) -> None:
        self._exit.close()

    @contextlib.contextmanager
    def registered(self) -> Iterator[None]:
        """This process in `workers` for the block (unless an outer block already is);
        unregistered however the block ends."""
        if self._registration is not None:
            yield
            return
        self._registration = Registration(self.url, self.owner, FOREGROUND_KIND)
        self._registration.start()
        try:
            yield
        finally:
            registration, self._registration = self._registration, None
            registration.stop()

    def drive(
        self,
        job_id: int,
        *,
        claimed: Job | None = None,
        eager: bool = True,
        reader: SheetReader | None = None,
    ) -> RunResult:
        """Run the job to its end. ``claimed``: already leased to us. ``eager``: a job
        waiting for its retry delay or timer is started now (an explicit resume).
        ``reader``: the job's sheet, already open (given to the first run, which closes it)."""
        try:
            with self.registered():
                return self._drive(job_id, claimed, eager, reader)
        finally:
            if reader is not None:
                reader.close()  # no-op when the run already closed it

    def _drive(
        self, job_id: int, claimed: Job | None, eager: bool, reader: SheetReader | None
    ) -> RunResult:
        run_rows = 0
        run_seconds = 0.0
        last_reason = ""
        with connect(self.url, autocommit=True) as conn:
            while True:
                job = claimed or jobs.get_job(conn, job_id)
                if claimed is None:
                    if job.terminal:
                        return RunResult(job, run_rows, run_seconds, interrupted=False)
                    if self.stop.is_set():
                        return RunResult(job, run_rows, run_seconds, interrupted=True)
                    # The process a user started for this job does its retries itself when
                    # they are due; the retry timer then finds nothing left to do.
                    claimed = self._try_claim(conn, job, eager or self._retry_due(conn, job))
                    eager = False
                    if claimed is None:
                        last_reason = self._wait(conn, jobs.get_job(conn, job_id), last_reason)
                        continue
                outcome = run_job(
                    self.url,
                    claimed,
                    self.owner,
                    self.settings,
                    on_progress=self.on_progress,
                    stop=self.stop,
                    reader=reader,
                )
                claimed = reader = None
                run_rows += outcome.run_rows
                run_seconds += outcome.run_seconds
                job = outcome.job or jobs.get_job(conn, job_id)
                if outcome.result in ("finished", "cancelled"):
                    return RunResult(job, run_rows, run_seconds, interrupted=False)
                if outcome.result == "stopped":
                    return RunResult(job, run_rows, run_seconds, interrupted=True)
                if outcome.result == "error":
                    raise DatabaseUnavailable(f"import job {job_id}: {outcome.error}")
                if outcome.result == "lease_lost":
                    self.on_note(f"job {job_id}: another process took the job over; following it")
                elif job.status == "pending":
                    self.on_note(
                        f"job {job_id}: attempt {job.attempts} of {job.max_attempts} failed:"
                        f" {outcome.error}"
                    )

    def _try_claim(self, conn: Connection, job: Job, eager: bool) -> Job | None:
        if job.status == "pending" and eager:
            jobs.make_available_now(conn, job.id)
        elif job.status == "running" and jobs.expire_dead_owner(conn, job):
            self.on_note(
                f"job {job.id}: its process ({job.lease_owner}) is gone; taking over at row"
                f" {job.cursor:,}"
            )
        claimed = jobs.claim_jobs(
            conn,
            owner=self.owner,
            limit=1,
            lease_seconds=self.settings.lease_seconds,
            job_ids=[job.id],
        )
        return claimed[0] if claimed else None

    def _retry_due(self, conn: Connection, job: Job) -> bool:
        if job.status != "pending" or job.available_at is not None:
            return False
        due = jobs.retry_due_at(conn, job.id)
        return due is not None and due <= jobs.db_now(conn)

    def _wait(self, conn: Connection, job: Job, last_reason: str) -> str:
        """Nothing to claim yet: say why (once), show the job, sleep a little."""
        if job.terminal:
            return last_reason
        now = jobs.db_now(conn)
        seconds = WATCH_INTERVAL_SECONDS
        if job.status == "running":
            expires = job.lease_expires_at or now
            left = (expires - now).total_seconds()
            note = (
                f"job {job.id} is being run by {job.lease_owner}; following it (taking over"
                f" if its lease, now {describe_wait(left)} from expiry, runs out)"
            )
            self.on_progress(progress_of(job, "waiting", f"lease expires in {describe_wait(left)}"))
        elif job.available_at is None:
            retry_at = jobs.retry_due_at(conn, job.id)
            if retry_at is None:
                note = f"job {job.id} waits on its timer"
            else:
                left = (retry_at - now).total_seconds()
                seconds = min(seconds, max(0.05, left))
                note = f"job {job.id}: next attempt at {_clock(retry_at)}"
                self.on_progress(
                    progress_of(job, "waiting", f"next attempt in {describe_wait(left)}")
                )
        else:
            left = (job.available_at - now).total_seconds()
            seconds = min(seconds, max(0.05, left))
            note = f"job {job.id}: next attempt at {_clock(job.available_at)}"
            self.on_progress(progress_of(job, "waiting", f"next attempt in {describe_wait(left)}"))
        reason = f"{job.status}|{job.lease_owner}|{job.available_at}"
        if reason != last_reason:  # say it once; the progress line shows the countdown
            self.on_note(note)
        self.stop.wait(seconds)
        return reason


def _clock(moment: datetime) -> str:
    return moment.astimezone().strftime("%H:%M:%S")
