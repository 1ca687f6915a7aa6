"""The tool's services in one object: what the CLI calls, and what applications import.

    from importer import Importer

    importer = Importer()                      # IMPORTER_DATABASE_URL, else the embedded server
    job = importer.job(12)
    for job in importer.jobs(statuses=[JobStatus.FAILED]):
        importer.retry(job.id)

Each call opens (and closes) its own connection; errors are importer.errors types. The
schema is made current on first use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from importer.config import Settings, load_settings
from importer.database import Connection, Database
from importer.errors import UsageError
from importer.identity import new_owner
from importer.repositories import fleet, jobs, rejected_rows
from importer.repositories import forms as forms_repo
from importer.repositories import timers as timers_repo
from importer.repositories.jobs import Job
from importer.repositories.rejected_rows import Reason
from importer.states import JobStatus, TimerStatus

if TYPE_CHECKING:
    from importer.excel.base import SheetReader
    from importer.forms import Form
    from importer.report import ExportSummary
    from importer.running.foreground import ForegroundReport
    from importer.running.job_run import JobProgress
    from importer.submission import ReadingCallback, Submission


@dataclass(frozen=True)
class ResumePlan:
    job_ids: list[int]  # to drive here, in order
    busy: list[Job]  # running under a live lease elsewhere: left to their owner
    finished: list[Job]  # named, but already finished: nothing to do


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

    def jobs(self, *, statuses: Sequence[JobStatus] | None = None, limit: int = 100) -> list[Job]:
        with self.connection() as conn:
            return jobs.list_jobs(conn, statuses=statuses, limit=limit)

    def cancel(self, job_id: int) -> Job:
        with self.connection() as conn:
            return jobs.cancel(conn, job_id)

    def retry(self, job_id: int) -> Job:
        with self.connection() as conn:
            return jobs.retry(conn, job_id)

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
            return ResumePlan(ids + [i for i in wanted if i not in ids], busy, finished)

    def submit_file(
        self,
        path: Path,
        *,
        form: str | None = None,
        sheet: str | None = None,
        engine: str | None = None,
        force: bool = False,
        claim_owner: str | None = None,
        due_at: datetime | None = None,
        keep_reader: bool = False,
        on_progress: ReadingCallback | None = None,
    ) -> Submission:
        """Check the workbook against the form, store it and create its job (see
        submission.submit_workbook); nothing is imported yet. ``on_progress`` hears what
        is being read meanwhile."""
        from importer.submission import submit_workbook

        settings = self.settings
        with self.connection() as conn:
            return submit_workbook(
                conn,
                path,
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
                on_progress=on_progress,
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
        from importer.report import export_rejected_rows

        with self.connection() as conn:
            return export_rejected_rows(conn, job_id, target)

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
