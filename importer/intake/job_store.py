"""Where a checked sheet becomes its job: the header checked against the form, then the job
found for the same file, or created in one transaction (the bytes stored; the job claimed
by its run here, scheduled on a timer, or announced to the workers)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from importer.config import ImportSettings
from importer.database import Connection
from importer.errors import InputError
from importer.intake.plan import Asked, Submission, SubmissionPlan, Workbook, choose_for_header
from importer.repositories import jobs
from importer.states import RunMode

if TYPE_CHECKING:
    from importer.excel import SheetPeek
    from importer.excel.base import SheetReader
    from importer.forms.definition import Form
    from importer.intake.corrections import CorrectionPlan


@dataclass(frozen=True)
class JobStore:
    conn: Connection
    workbook: Workbook
    form: Form
    version: int
    settings: ImportSettings
    asked: Asked
    column_map: dict[str, str]
    correction: CorrectionPlan | None = None  # a correction of an earlier job

    @classmethod
    def for_header(
        cls,
        conn: Connection,
        plan: SubmissionPlan,
        header: list[str],
        correction: CorrectionPlan | None = None,
    ) -> JobStore:
        """Where the sheet of this header becomes its job: the form named, else the one the
        header fits; a correction's is its origin's, with its --map."""
        if correction is not None:
            form, version = correction.form, correction.version
            mapping = correction.mapping
        else:
            named = plan.named
            form, version = named or choose_for_header(conn, header, plan.mapping, plan.only)
            mapping = plan.mapping
        return cls(
            conn, plan.workbook, form, version, plan.settings, plan.asked, mapping, correction
        )

    def submit(
        self, sheet: SheetPeek | SheetReader, count_rows: Callable[[], int] | None
    ) -> Submission:
        """The header check, then the existing job or a new one. ``count_rows``: the sheet
        is parsed already, so count it now (otherwise the job's run does)."""
        from importer.forms.validation import Validator

        # InputError: the header does not fit the form.
        validator = Validator(self.form, sheet.header, mapping=self.column_map)
        new = self.new_job(sheet)
        if not getattr(sheet, "has_rows", True):  # a peek saw a header alone
            raise InputError(
                f"sheet {sheet.sheet_name!r} has a header but no rows to import",
                file=self.workbook.name,
            )
        existing = None if self.asked.force else jobs.find_job_by_key(self.conn, new.key)
        if existing is not None:
            return Submission(existing, created=False)
        if self.correction is not None:
            self.correction.check_not_done(self.conn, self.workbook.name)
        if count_rows is not None:
            new = self._counted(new, sheet, count_rows)
        submission = self._create(new)
        return replace(
            submission, extra_columns=tuple(validator.extra_columns), notes=tuple(sheet.notes)
        )

    def new_job(self, sheet: SheetPeek | SheetReader) -> jobs.NewJob:
        """The job of this sheet, its rows not counted."""
        from importer.excel import SheetPeek

        ops = self.form.operations
        options = self.asked.options
        submitter = options.submitter
        new = jobs.NewJob(
            form=self.form.name,
            form_version=self.version,
            file=jobs.file_sha256(self.workbook.content),
            file_name=self.workbook.name,
            sheet=sheet.sheet_name,
            engine=sheet.engine,  # what auto chose: every run of the job reads alike
            header=list(sheet.header),
            total_rows=None,
            max_attempts=self.settings.max_attempts,
            column_map=self.column_map,
            keyed=bool(self.form.key),
            sheet_layout=sheet.layout if isinstance(sheet, SheetPeek) else sheet.layout_json(),
            group_id=self.asked.group_id,
            max_rejected=str(limit) if (limit := options.reject_limit(ops)) else None,
            notify=options.notify_target(ops),
            submitted_by=submitter.name if submitter else None,
            submitted_by_user=submitter.account if submitter else None,
        )
        if self.correction is None:
            return new
        plan = self.correction
        return replace(new, origin_job_id=plan.origin.id, correction=plan.job_json())

    def _counted(
        self, new: jobs.NewJob, sheet: SheetPeek | SheetReader, count_rows: Callable[[], int]
    ) -> jobs.NewJob:
        from importer.excel import SheetPeek
        from importer.excel.row_filter import describe_not_read

        total = count_rows()
        not_read = [] if isinstance(sheet, SheetPeek) else sheet.rows_not_read()
        if total == 0:
            # A job for no rows would end "succeeded" having imported nothing.
            raise InputError(
                f"sheet {sheet.sheet_name!r} has a header but no rows to import"
                + "".join(f"; {describe_not_read(entry)}" for entry in not_read),
                file=self.workbook.name,
            )
        return replace(new, total_rows=total, rows_not_read=not_read)

    def _create(self, new: jobs.NewJob) -> Submission:
        """The bytes stored and the job created, then claimed by its run here, scheduled, or
        announced to the workers: one transaction."""
        conn, asked = self.conn, self.asked
        with conn.transaction():
            if new.origin_job_id is not None:  # a correction: its origin locked, rows numbered
                from importer.intake.corrections import reserve_numbers

                numbered = reserve_numbers(conn, new.origin_job_id, new.correction or {})
                new = replace(new, correction=numbered)
            jobs.store_file(conn, self.workbook.content, new.file)  # the content's sha256
            waiting = asked.due_at is not None
            job, created = jobs.create_job(conn, new, force=asked.force, waiting=waiting)
            if not created:
                return Submission(job, created=False)
            if new.origin_job_id is not None:
                from importer.repositories.corrections import mark_correction

                job = mark_correction(conn, job.id, new.origin_job_id, new.correction or {})
            if asked.due_at is not None:
                return self._scheduled(job)
            if asked.mode is RunMode.HERE:
                claimed = jobs.claim_jobs(
                    conn,
                    owner=asked.claim_owner or "",
                    limit=1,
                    lease_seconds=self.settings.lease_seconds,
                    job_ids=[job.id],
                )
                job = claimed[0] if claimed else job
            else:
                jobs.notify(conn, job.id)
        return Submission(job, created=True)

    def _scheduled(self, job: jobs.Job) -> Submission:
        """A scheduled_import timer for the new job (in the transaction that made it)."""
        from importer.repositories.timers import schedule_timer_due
        from importer.timers.kinds import SCHEDULED_IMPORT

        assert self.asked.due_at is not None
        timer_id, due = schedule_timer_due(
            self.conn,
            kind=SCHEDULED_IMPORT,
            target=str(job.id),
            due_at=self.asked.due_at,
            max_attempts=self.asked.timer_max_attempts,
        )
        return Submission(job, created=True, scheduled_timer=timer_id, scheduled_for=due)
