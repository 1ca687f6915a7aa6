"""The facade's part for the web page and the JSON API: jobs as one account sees them. Every
read is scoped in SQL by the account asking (repositories/visible_jobs.py); a job that is
not its own is answered as one that does not exist. Submissions from an account are queued
for the workers and carry its name; a form is chosen among the forms granted to it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from importer.api.review_checks import ReviewMethods
from importer.api.uploads import senders_reword
from importer.database import Connection, connect
from importer.errors import StateError
from importer.repositories import forms as forms_repo
from importer.repositories import jobs, visible_jobs
from importer.repositories.accounts import Account
from importer.repositories.jobs import Job
from importer.repositories.visible_jobs import Progress, RejectedRowPage
from importer.states import JobStatus

if TYPE_CHECKING:
    from importer.report.error_file import ExportSummary


# The name a progress reader's connection carries (pg_stat_activity shows it).
PROGRESS_READER = "importer-progress"


class ProgressReader:
    """How far many (viewer, job) pairs are, read again and again on one kept connection
    (opened at the first read, opened again after it broke): what a server's open streams
    of progress events poll, in one statement for them all. ``close()`` when done."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: Connection | None = None

    def read(self, asked: Sequence[tuple[int, int]]) -> dict[tuple[int, int], Progress]:
        if self._conn is None or self._conn.broken:
            self.close()
            self._conn = connect(self.url, autocommit=True, application_name=PROGRESS_READER)
        try:
            return visible_jobs.visible_progress(self._conn, asked)
        except Exception:
            self.close()  # opened again at the next read
            raise

    def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            conn.close()


class ViewerMethods(ReviewMethods):
    def progress_for(self, viewer: Account, job_id: int) -> Progress:
        """How far the job is, as its progress events show it (NotFoundError: not the
        viewer's, as for a job that does not exist)."""
        with self.connection() as conn:
            found = visible_jobs.visible_progress(conn, [(viewer.id, job_id)])
        if (viewer.id, job_id) not in found:
            raise visible_jobs.not_found(job_id)
        return found[(viewer.id, job_id)]

    def progress_reader(self) -> ProgressReader:
        """A reader of many jobs' progress on one connection (see ProgressReader)."""
        return ProgressReader(self.database.url)

    def job_for(self, viewer: Account, job_id: int) -> Job:
        with self.connection() as conn:
            return visible_jobs.visible_job(conn, viewer.id, job_id)

    def jobs_for(
        self,
        viewer: Account,
        *,
        limit: int = 50,
        before: int | None = None,
        statuses: Sequence[JobStatus] | None = None,
    ) -> list[Job]:
        """The account's jobs, newest first (``before``: older than that id)."""
        with self.connection() as conn:
            return visible_jobs.visible_jobs(
                conn, viewer.id, limit=limit, before=before, statuses=statuses
            )

    def rejected_rows_for(
        self, viewer: Account, job_id: int, *, after: int = 0, limit: int = 50
    ) -> tuple[Job, list[RejectedRowPage]]:
        """The job and a page of its rejected rows after Excel row ``after``, each problem
        as a sender reads it (a lookup's suggestions only where the form shows them)."""
        with self.connection() as conn:
            job = self._open_job(conn, viewer, job_id)
            page = visible_jobs.visible_rejected_rows(
                conn, viewer.id, job_id, after=after, limit=limit
            )
            shown = self._shown(conn, job)
        reword = senders_reword(shown)
        for row in page:
            row.problems[:] = [reword(p) for p in row.problems]
        return job, page

    def error_workbook_for(self, viewer: Account, job_id: int, target: Path) -> ExportSummary:
        """The job's error workbook (as `importer errors -o`), written to ``target``."""
        from importer.report.error_file import export_rejected_rows

        with self.connection() as conn:
            job = visible_jobs.visible_job(conn, viewer.id, job_id)
            if job.purged_at is not None:
                raise StateError(jobs.purged_message(job, "exported"), job_id=job.id)
            reword = senders_reword(self._shown(conn, job))
            return export_rejected_rows(conn, job.id, target, reword=reword)

    def cancel_for(self, viewer: Account, job_id: int) -> Job:
        with self.connection() as conn:
            visible_jobs.visible_job(conn, viewer.id, job_id)
            return jobs.cancel(conn, job_id)

    def retry_for(self, viewer: Account, job_id: int) -> Job:
        with self.connection() as conn:
            visible_jobs.visible_job(conn, viewer.id, job_id)
            return jobs.retry(conn, job_id)

    def forms_for(self, viewer: Account) -> list[forms_repo.FormSummary]:
        """The forms in use the account may submit to."""
        with self.connection() as conn:
            return [f for f in forms_repo.list_forms(conn) if viewer.may_use(f.name)]
