"""The tool's services in one object: what the CLI calls, and what applications import.

    from importer import Importer

    importer = Importer()                      # IMPORTER_DATABASE_URL, else the embedded server
    job = importer.submit(Path("orders.xlsx"))  # check, store and import it here
    for row in importer.rejected_rows(job.id):
        print(row.row_number, row.reasons)

Each call opens (and closes) its own connection; errors are importer.errors types (an
input refused before any job: InputError, FormError; an unknown id: NotFoundError; an
operation the job's state refuses: StateError; the database: DatabaseError). The schema is
made current on first use. See README, "Python API".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from importer.config import Settings, load_settings
from importer.database import Connection, Database
from importer.errors import NotFoundError, StateError, UsageError
from importer.identity import new_owner
from importer.repositories import fleet, jobs, rejected_rows, retention
from importer.repositories import forms as forms_repo
from importer.repositories import timers as timers_repo
from importer.repositories.jobs import Job
from importer.repositories.rejected_rows import Reason, RowProblem, first_problems
from importer.states import JobStatus, TimerStatus

if TYPE_CHECKING:
    from importer.excel.base import SheetReader
    from importer.forms.definition import Form
    from importer.intake.checking import CheckReport
    from importer.intake.submission import ReadingCallback, Submission
    from importer.report.error_file import ExportSummary
    from importer.running.foreground import ForegroundReport
    from importer.running.job_run import JobProgress

__all__ = ["Importer", "Job", "JobStatus", "RejectedRow", "RetryResult"]


@dataclass(frozen=True)
class ResumePlan:
    job_ids: list[int]  # to drive here, in order
    busy: list[Job]  # running under a live lease elsewhere: left to their owner
    finished: list[Job]  # named, but already finished: nothing to do
    now: datetime | None = None  # the database's clock, to tell how long a busy lease has


@dataclass(frozen=True)
class RejectedRow:
    """A row a job rejected: its Excel row number, its cells as the sheet had them, and each
    reason ("column: message")."""

    row_number: int
    values: list[Any]
    reasons: list[str]


@dataclass(frozen=True)
class RetryResult:
    """One job of a bulk retry: the job as it is now, and why it was not retried (None: it
    was, and is pending again)."""

    job_id: int
    job: Job | None  # None: no such job
    refused: str | None = None

    @property
    def retried(self) -> bool:
        return self.refused is None


def _statuses(
    status: JobStatus | str | Sequence[JobStatus | str] | None,
) -> list[JobStatus] | None:
    if status is None:
        return None
    wanted = [status] if isinstance(status, str) else list(status)
    names = [s.value for s in JobStatus]
    for value in wanted:
        if value not in names:
            raise UsageError(f"status {value!r}: use one of {', '.join(names)}")
    return [JobStatus(value) for value in wanted] or None


class Importer:
    def __init__(self, url: str | None = None, *, settings: Settings | None = None) -> None:
        base = settings if settings is not None else load_settings()
        self.settings = replace(base, database_url=url) if url else base
        self._database: Database | None = None

    @property
    def database(self) -> Database:
        """The resolved server (the embedded one started if needed), schema current."""
        if self._database is None:
            database = Database(self.settings)
            database.ensure_schema()
            self._database = database
        return self._database

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        with self.database.connect(autocommit=True) as conn:
            yield conn

    # --- import jobs -----------------------------------------------------------------------

    def job(self, job_id: int) -> Job:
        with self.connection() as conn:
            return jobs.get_job(conn, job_id)

    def jobs(
        self,
        status: JobStatus | str | Sequence[JobStatus | str] | None = None,
        *,
        statuses: Sequence[JobStatus] | None = None,
        limit: int = 100,
    ) -> list[Job]:
        """The newest ``limit`` jobs (of a status, or of several), oldest first."""
        wanted = _statuses(status) if status is not None else statuses
        with self.connection() as conn:
            return jobs.list_jobs(conn, statuses=wanted, limit=limit)

    def cancel(self, job_id: int) -> Job:
        with self.connection() as conn:
            return jobs.cancel(conn, job_id)

    def retry(self, job_id: int) -> Job:
        """A failed job back to pending, attempts reset (it continues from its cursor)."""
        with self.connection() as conn:
            return jobs.retry(conn, job_id)

    def retry_many(self, job_ids: Sequence[int]) -> list[RetryResult]:
        """Retry each job on its own; one refused (unknown, not failed, purged) is reported
        and does not stop the others."""
        results = []
        with self.connection() as conn:
            for job_id in dict.fromkeys(job_ids):
                try:
                    results.append(RetryResult(job_id, jobs.retry(conn, job_id)))
                except NotFoundError as exc:
                    results.append(RetryResult(job_id, None, str(exc)))
                except StateError as exc:
                    results.append(RetryResult(job_id, jobs.get_job(conn, job_id), str(exc)))
        return results

    def failed_jobs(self, *, form: str | None = None, since: timedelta | None = None) -> list[Job]:
        """Failed jobs (of a form; that failed within ``since``), oldest first."""
        seconds = since.total_seconds() if since is not None else None
        with self.connection() as conn:
            return jobs.failed_jobs(conn, form=form, within_seconds=seconds)

    def jobs_to_resume(self, job_ids: Sequence[int], *, every: bool) -> ResumePlan:
        """The jobs a `resume` drives, in order: the named ones (each must exist) and, with
        ``every``, every job that can be continued (pending, or running with its owner gone
        or its lease expired) first; and the running jobs a live process still holds."""
        with self.connection() as conn:
            # Unknown ids: exit 2 before anything runs. Finished ones are only reported.
            named = [jobs.get_job(conn, job_id) for job_id in dict.fromkeys(job_ids)]
            finished = [job for job in named if job.terminal]
            wanted = [job.id for job in named if not job.terminal]
            if not every:
                return ResumePlan(wanted, [], finished)
            ids = [job.id for job in jobs.resumable_jobs(conn)]
            held = jobs.list_jobs(conn, statuses=[JobStatus.RUNNING], limit=1000)
            busy = [job for job in held if job.id not in ids and job.id not in wanted]
            now = jobs.db_now(conn)
            return ResumePlan(ids + [i for i in wanted if i not in ids], busy, finished, now)

    def submit(
        self,
        source: Path | str | bytes,
        *,
        form: str | None = None,
        sheet: str | None = None,
        file_name: str | None = None,
        wait: bool = True,
        on_progress: Callable[[JobProgress], None] | None = None,
        engine: str | None = None,
        force: bool = False,
    ) -> Job:
        """Check a workbook (a path, or its bytes with ``file_name``) against its form, store
        it and create its job; returns the job.

        ``wait=True``: import it here, now, and return the job as it ended (``status``
        succeeded, partially_succeeded with rejected rows, failed with ``last_error``);
        ``on_progress`` receives each progress event. In the main thread, SIGINT/SIGTERM stop
        the run at a batch boundary (the job is then pending again: ``resume`` continues it).
        ``wait=False``: queue it for `importer worker` processes and return at once.
        The same file for the same form and sheet returns the existing job (``force``:
        import it again). Refusals before any job exists raise InputError / FormError."""
        owner = new_owner()
        submission = self.submit_file(
            Path(source) if isinstance(source, str) else source,
            form=form,
            sheet=sheet,
            file_name=file_name,
            engine=engine,
            force=force,
            claim_owner=owner if wait else None,
            keep_reader=wait,
        )
        job = submission.job
        if not wait or job.terminal:
            if submission.reader is not None:
                submission.reader.close()
            return job
        report = self.run(
            [job.id],
            owner=owner,
            on_progress=on_progress,
            first_claimed=job if submission.created and job.status is JobStatus.RUNNING else None,
            reader=submission.reader,
        )
        return report.results[-1].job if report.results else self.job(job.id)

    def resume(
        self, job_id: int, *, on_progress: Callable[[JobProgress], None] | None = None
    ) -> Job:
        """Run the job here from its committed cursor until it ends (a pending or abandoned
        one; a running one once its owner's lease is gone); a finished job is returned as it
        is. Returns the job as it ended."""
        plan = self.jobs_to_resume([job_id], every=False)
        if not plan.job_ids:
            return plan.finished[0]
        report = self.run(plan.job_ids, on_progress=on_progress, eager=True)
        return report.results[-1].job if report.results else self.job(job_id)

    def rejected_rows(self, job_id: int) -> Iterator[RejectedRow]:
        """The job's rejected rows in row order, read as they are consumed (a connection
        stays open until the iterator is exhausted or closed). An unknown or purged job is
        refused here, before any row."""
        self._check_not_purged(job_id, "exported")
        return self._rejected_rows(job_id)

    def _rejected_rows(self, job_id: int) -> Iterator[RejectedRow]:
        from importer.repositories.rejected_rows import rejected_rows_with_reasons

        with self.connection() as conn:
            for number, values, reasons in rejected_rows_with_reasons(conn, job_id):
                yield RejectedRow(number, values, reasons)

    def _check_not_purged(self, job_id: int, what: str) -> None:
        job = self.job(job_id)
        if job.purged_at is not None:
            raise StateError(jobs.purged_message(job, what))

    def submit_file(
        self,
        path: Path | bytes,
        *,
        file_name: str | None = None,
        form: str | None = None,
        sheet: str | None = None,
        engine: str | None = None,
        force: bool = False,
        claim_owner: str | None = None,
        due_at: datetime | timedelta | None = None,
        keep_reader: bool = False,
        column_map: Mapping[str, str] | None = None,
        on_progress: ReadingCallback | None = None,
    ) -> Submission:
        """Check the workbook (a path, or bytes with ``file_name``) against the form, store it
        and create its job (see submission.submit_workbook); nothing is imported yet.
        ``on_progress`` hears what is being read meanwhile."""
        from importer.intake.submission import submit_workbook

        settings = self.settings
        with self.connection() as conn:
            return submit_workbook(
                conn,
                path,
                file_name=file_name,
                form_name=form,
                settings=settings.import_,
                sheet=sheet,
                engine=engine or settings.reader.engine,
                memory_budget_mb=settings.reader.memory_budget_mb,
                force=force,
                claim_owner=claim_owner,
                due_at=due_at,
                timer_max_attempts=settings.timer.max_attempts,
                keep_reader=keep_reader,
                column_map=column_map,
                on_progress=on_progress,
            )

    def check(
        self,
        path: Path,
        *,
        form: str | None = None,
        sheet: str | None = None,
        engine: str | None = None,
        column_map: Mapping[str, str] | None = None,
        on_rows: Callable[[int], None] | None = None,
    ) -> CheckReport:
        """Read and validate the whole sheet as an import would; write nothing."""
        from importer.intake.checking import check_workbook

        settings = self.settings
        with self.connection() as conn:
            return check_workbook(
                conn,
                path,
                form_name=form,
                sheet=sheet,
                engine=engine or settings.reader.engine,
                memory_budget_mb=settings.reader.memory_budget_mb,
                rows_per_batch=settings.import_.rows_per_transaction,
                column_map=column_map,
                on_rows=on_rows,
            )

    def run(
        self,
        job_ids: list[int],
        *,
        owner: str | None = None,
        on_progress: Callable[[JobProgress], None] | None = None,
        on_note: Callable[[str], None] | None = None,
        first_claimed: Job | None = None,
        eager: bool = True,
        reader: SheetReader | None = None,
        on_signal: Callable[[int], None] | None = None,
    ) -> ForegroundReport:
        """Run the jobs here, one after the other, until each ends (see
        running.foreground.run_in_foreground)."""
        from importer.running.foreground import run_in_foreground

        return run_in_foreground(
            self.database.url,
            self.settings.import_,
            owner or new_owner(),
            job_ids,
            on_progress=on_progress or (lambda event: None),
            on_note=on_note or (lambda text: None),
            first_claimed=first_claimed,
            eager=eager,
            reader=reader,
            on_signal=on_signal,
        )

    def top_reasons(self, job_id: int, limit: int = 3) -> list[Reason]:
        """The job's most common reasons for rejecting rows, most frequent first."""
        with self.connection() as conn:
            return rejected_rows.top_reasons(conn, job_id, limit)

    def export_rejected_rows(self, job_id: int, target: Path) -> ExportSummary:
        from importer.report.error_file import export_rejected_rows

        self._check_not_purged(job_id, "exported")
        with self.connection() as conn:
            return export_rejected_rows(conn, job_id, target)

    def rejected_preview(self, job_id: int, rows: int) -> tuple[Job, list[RowProblem]]:
        """The job and the errors of its first ``rows`` rejected rows (row order)."""
        with self.connection() as conn:
            return jobs.get_job(conn, job_id), first_problems(conn, job_id, rows)

    def purge(self, older_than: timedelta, *, dry_run: bool = False) -> retention.PurgeReport:
        """Retention: remove the stored workbooks, rejected rows and row errors of jobs that
        finished longer ago than ``older_than`` (a workbook only when no job that may still
        run, or finished since, shares it), and finished timers as old; never form_data or a
        job that can still run. ``dry_run``: count only."""
        with self.connection() as conn:
            return retention.purge(conn, older_than.total_seconds(), dry_run=dry_run)

    # --- forms -----------------------------------------------------------------------------

    def add_form(self, form: Form) -> tuple[int, int]:
        """Store the form: (version before, 0 if new; version now)."""
        with self.connection() as conn:
            try:
                _, before = forms_repo.get_form(conn, form.name)
            except UsageError:
                before = 0
            return before, forms_repo.save_form(conn, form)

    def form(self, name: str, version: int | None = None) -> tuple[Form, int]:
        with self.connection() as conn:
            return forms_repo.get_form(conn, name, version)

    def forms(self) -> list[forms_repo.FormSummary]:
        with self.connection() as conn:
            return forms_repo.list_forms(conn)

    # --- timers and the fleet ------------------------------------------------------------

    def timers(
        self, *, statuses: Sequence[TimerStatus] | None = None, limit: int = 100
    ) -> list[timers_repo.Timer]:
        with self.connection() as conn:
            return timers_repo.list_timers(conn, statuses=statuses, limit=limit)

    def cancel_timer(self, timer_id: int) -> tuple[timers_repo.Timer, Job | None]:
        """Cancel a live timer. The import job a scheduled_import or import_retry timer
        would start waits on nothing else, so it is cancelled with it (returned)."""
        from importer.timers.kinds import IMPORT_KINDS

        with self.connection() as conn, conn.transaction():
            timer = timers_repo.cancel_timer(conn, timer_id)
            if timer.kind not in IMPORT_KINDS or not timer.target.isdigit():
                return timer, None
            job = jobs.get_job(conn, int(timer.target))
            if job.status is not JobStatus.PENDING or job.available_at is not None:
                return timer, None  # it no longer waits on this timer
            return timer, jobs.cancel(conn, job.id)

    def stats(self) -> fleet.QueueStats:
        with self.connection() as conn:
            return fleet.queue_stats(conn)

    def figures(self) -> tuple[fleet.QueueStats, fleet.JobTotals]:
        """The queue's figures and every job's totals (a full pass over the jobs): what
        `stats --json` and the metrics report."""
        with self.connection() as conn:
            return fleet.queue_stats(conn), fleet.job_totals(conn)
