"""The facade's part for the web page and the JSON API: jobs as one account sees them. Every
read is scoped in SQL by the account asking (repositories/visible_jobs.py); a job that is
not its own is answered as one that does not exist. Submissions from an account are queued
for the workers and carry its name; a form is chosen among the forms granted to it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from importer.api.base import ImporterBase
from importer.api.requests import SubmitRequest
from importer.errors import Missing, NotFoundError, StateError
from importer.forms.operations import Submitter
from importer.repositories import forms as forms_repo
from importer.repositories import jobs, visible_jobs
from importer.repositories.accounts import Account
from importer.repositories.jobs import Job
from importer.repositories.visible_jobs import RejectedRowPage
from importer.states import JobStatus

if TYPE_CHECKING:
    from importer.intake.submission import Submission
    from importer.report.error_file import ExportSummary


class ViewerMethods(ImporterBase):
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
        """The job and a page of its rejected rows after Excel row ``after``."""
        with self.connection() as conn:
            job = visible_jobs.visible_job(conn, viewer.id, job_id)
            if job.purged_at is not None:
                raise StateError(jobs.purged_message(job, "shown"), job_id=job.id)
            page = visible_jobs.visible_rejected_rows(
                conn, viewer.id, job_id, after=after, limit=limit
            )
        return job, page

    def error_workbook_for(self, viewer: Account, job_id: int, target: Path) -> ExportSummary:
        """The job's error workbook (as `importer errors -o`), written to ``target``."""
        from importer.report.error_file import export_rejected_rows

        with self.connection() as conn:
            job = visible_jobs.visible_job(conn, viewer.id, job_id)
            if job.purged_at is not None:
                raise StateError(jobs.purged_message(job, "exported"), job_id=job.id)
            return export_rejected_rows(conn, job.id, target)

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

    def submit_for(self, viewer: Account, request: SubmitRequest) -> Submission:
        """Check and store a workbook for the account, and queue its job for the workers (the
        same checks and refusals as `submit`). A file already imported by this account is
        its job again; by another account, it is refused without naming that job."""
        from importer.intake.submission import submit_workbook

        if request.form is not None and not viewer.may_use(request.form):
            granted = [f.name for f in self.forms_for(viewer)]
            known = f"; known: {', '.join(granted)}" if granted else ""
            raise NotFoundError(
                f"no form named {request.form!r}{known}", what=Missing.FORM, key=request.form
            )
        forms = None if viewer.every_form else frozenset(viewer.forms)
        submitter = Submitter(viewer.email, viewer.id, forms)
        settings = self.settings
        with self.connection() as conn:
            submission = submit_workbook(
                conn,
                request.source,
                file_name=request.file_name,
                form_name=request.form,
                settings=settings.import_,
                sheet=request.sheet,
                engine=request.engine or settings.reader.engine,
                memory_budget_mb=settings.reader.memory_budget_mb,
                force=request.force,
                column_map=request.column_map,
                header_row=request.header_row,
                options=self.job_options(request.max_rejected, submitter),
            )
            if not submission.created:
                try:
                    visible_jobs.visible_job(conn, viewer.id, submission.job.id)
                except NotFoundError:
                    raise StateError(
                        f"{submission.job.file_name}: this workbook was imported already for"
                        f" form {submission.job.form!r} (sheet {submission.job.sheet!r}) by"
                        " another account; nothing was imported again"
                    ) from None
        return submission
