"""The tool's services in one object: what every CLI command calls, and what applications
import.

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
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from importer.api.accounts import AccountMethods
from importer.api.changes import ChangeMethods
from importer.api.exports import ExportMethods
from importer.api.fleet import FleetMethods
from importer.api.requests import (
    CheckRequest,
    CorrectResult,
    RejectedPreview,
    RejectedRow,
    ResumePlan,
    RetryResult,
    RunEvents,
    SubmitRequest,
)
from importer.api.viewing import ViewerMethods
from importer.errors import FormError, NotFoundError, StateError, UsageError
from importer.identity import new_owner
from importer.repositories import forms as forms_repo
from importer.repositories import jobs, rejected_rows, retention
from importer.repositories.jobs import Job
from importer.repositories.rejected_rows import Reason, first_problems
from importer.states import JobStatus, Liveness

if TYPE_CHECKING:
    from importer.forms.definition import Form
    from importer.forms.inference import InferredForm
    from importer.intake.checking import CheckReport
    from importer.report.error_file import ExportSummary
    from importer.running.foreground import ForegroundReport
    from importer.running.job_run import JobProgress

__all__ = ["Importer"]


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


class Importer(FleetMethods, ChangeMethods, ExportMethods, AccountMethods, ViewerMethods):
    """The services in one object (see the module docstring)."""

    # --- import jobs -----------------------------------------------------------------------

    def job(self, job_id: int) -> Job:
        with self.connection() as conn:
            return jobs.get_job(conn, job_id)

    def job_with_liveness(self, job_id: int) -> tuple[Job, Liveness, datetime]:
        """The job, how its owner is doing (see repositories.jobs.liveness), and the
        database's clock it was judged by."""
        with self.connection() as conn:
            job = jobs.get_job(conn, job_id)
            now = jobs.db_now(conn)
        return job, jobs.liveness(job, now), now

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

    def group_jobs(self, group_id: int) -> list[int]:
        """The jobs of a group (several sheets submitted together), in the order they run;
        NotFoundError when there is no such group."""
        with self.connection() as conn:
            return jobs.group_job_ids(conn, group_id)

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

    def resume(
        self, job_id: int, *, on_progress: Callable[[JobProgress], None] | None = None
    ) -> Job:
        """Run the job here from its committed cursor until it ends (a pending or abandoned
        one; a running one once its owner's lease is gone); a finished job is returned as it
        is. Returns the job as it ended."""
        plan, report = self.resume_jobs(
            [job_id],
            every=False,
            events=RunEvents(on_progress=on_progress or RunEvents().on_progress),
        )
        if report is not None and report.results:
            return report.results[-1].job
        return plan.finished[0] if plan.finished else self.job(job_id)

    def resume_jobs(
        self,
        job_ids: Sequence[int],
        *,
        every: bool,
        events: RunEvents | None = None,
        on_plan: Callable[[ResumePlan], None] | None = None,
    ) -> tuple[ResumePlan, ForegroundReport | None]:
        """`importer resume`: the jobs to continue (see jobs_to_resume; ``on_plan`` hears
        them before any runs), each run here until it ends. No report when nothing ran."""
        plan = self.jobs_to_resume(job_ids, every=every)
        if on_plan is not None:
            on_plan(plan)
        if not plan.job_ids:
            return plan, None
        return plan, self._run_here(plan.job_ids, owner=new_owner(), events=events or RunEvents())

    def correct(
        self,
        job_id: int,
        changes: Mapping[int, Mapping[str, object]],
        events: RunEvents | None = None,
    ) -> CorrectResult:
        """Correct rejected rows of an import without a workbook: ``changes`` maps each of
        its Excel rows still open to {column header or field name: value}; the rows, as last
        sent with those cells changed, run here as a correction of the import (validated by
        its form version: types, lookups, row rules, uniqueness with the import and its
        corrections) and each is imported at most once. Returns what still fails, row by
        row. UsageError for a row that is not open or a column the sheet lacks."""
        from importer.report.correction_book import correction_workbook
        from importer.repositories.rejected_rows import rejected_rows_with_reasons

        with self.connection() as conn:
            job = jobs.get_job(conn, job_id)
            form, _ = forms_repo.get_form(conn, job.form, job.form_version)
            origin, content, name = correction_workbook(conn, job_id, changes, form)
        request = SubmitRequest(content, file_name=name, form=origin.form)
        outcome = self.submit_workbook(request, events)
        with self.connection() as conn:
            failing = {n: r for n, _, r in rejected_rows_with_reasons(conn, outcome.job.id)}
            now = jobs.get_job(conn, origin.id)  # as the correction left it
        rows = sorted(int(n) for n in changes)
        return CorrectResult(outcome.job, now, rows, failing)

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

    def check(
        self, request: CheckRequest, on_rows: Callable[[int], None] | None = None
    ) -> tuple[CheckReport, ExportSummary | None]:
        """Read and validate the whole sheet as an import would; store nothing. With
        ``errors_to``, the rows it would reject are written there (the file name is checked
        before the sheet is read)."""
        from importer.intake.checking import check_workbook
        from importer.report.error_file import check_target, export_checked_rows

        if request.errors_to is not None:
            check_target(request.errors_to)
        settings = self.settings
        with self.connection() as conn:
            report = check_workbook(
                conn,
                request.path,
                form_name=request.form,
                sheet=request.sheet,
                engine=request.engine or settings.reader.engine,
                memory_budget_mb=settings.reader.memory_budget_mb,
                rows_per_batch=settings.import_.rows_per_transaction,
                column_map=request.column_map,
                header_row=request.header_row,
                on_rows=on_rows,
                hooks_allowed=settings.forms.hooks_allowed,
            )
        if request.max_rejected is not None:
            report.max_rejected = request.max_rejected
        written = None
        if request.errors_to is not None:
            written = export_checked_rows(report, request.errors_to)
        return report, written

    def top_reasons(self, job_id: int, limit: int = 3) -> list[Reason]:
        """The job's most common reasons for rejecting rows, most frequent first."""
        with self.connection() as conn:
            return rejected_rows.top_reasons(conn, job_id, limit)

    def export_group_rows(
        self, group_id: int, target: Path, *, every: bool = False
    ) -> ExportSummary:
        """A group's rejected rows in one .xlsx, a sheet per job (see export_rejected_rows)."""
        from importer.report.error_file import export_group_rows

        job_ids = self.group_jobs(group_id)
        for job_id in job_ids:
            self._check_not_purged(job_id, "exported")
        with self.connection() as conn:
            return export_group_rows(conn, job_ids, target, every=every)

    def export_rejected_rows(
        self, job_id: int, target: Path, *, every: bool = False
    ) -> ExportSummary:
        """The job's error file: its rejected rows that no correction has imported since,
        each as last sent (``every``: every rejected row, and what became of it); in an
        .xlsx each row keyed, so that the fixed file comes back as a correction."""
        from importer.report.error_file import export_rejected_rows

        self._check_not_purged(job_id, "exported")
        with self.connection() as conn:
            return export_rejected_rows(conn, job_id, target, every=every)

    def rejected_preview(self, job_id: int, rows: int, *, every: bool = False) -> RejectedPreview:
        """The job and the errors of its first ``rows`` rejected rows still open (row order;
        ``every``: of every rejected row, with what became of each)."""
        from importer.repositories import corrections

        with self.connection() as conn:
            job = jobs.get_job(conn, job_id)
            if job.purged_at is not None and job.failed_rows:
                raise StateError(jobs.purged_message(job, "shown"), job_id=job.id)
            family = corrections.family_of(conn, job)
            if every:
                fates = corrections.row_fates(conn, job.id, family)
                problems = first_problems(conn, job_id, rows)
                return RejectedPreview(job, problems, job.failed_rows, fates)
            if family.jobs == [job.id] and job.origin_job_id is None:  # never corrected
                return RejectedPreview(job, first_problems(conn, job_id, rows), job.failed_rows)
            problems = corrections.first_open_problems(conn, family, rows)
            return RejectedPreview(job, problems, corrections.open_count(conn, family))

    def purge(
        self,
        older_than: timedelta | None,
        *,
        dry_run: bool = False,
        history_older_than: timedelta | None = None,
    ) -> retention.PurgeReport:
        """Retention: remove the stored workbooks, rejected rows and row errors of jobs that
        finished longer ago than ``older_than`` (a workbook only when no job that may still
        run, or finished since, shares it), and finished timers as old; never a form's rows
        or a job that can still run. ``history_older_than``: also the earlier versions that
        keyed jobs which ended longer ago replaced (those jobs can no longer be undone).
        ``dry_run``: count only."""
        if older_than is None and history_older_than is None:
            raise UsageError("say what to purge: --older-than, --history-older-than or both")
        with self.connection() as conn:
            if older_than is not None:
                report = retention.purge(conn, older_than.total_seconds(), dry_run=dry_run)
            else:
                report = retention.PurgeReport(older_than_seconds=0.0, dry_run=dry_run)
            if history_older_than is None:
                return report
            cut = history_older_than.total_seconds()
            found = retention.purge_all_history(conn, cut, dry_run=dry_run)
            return replace(
                report,
                history_older_than_seconds=cut,
                history_jobs=found[0],
                history_rows=found[1],
            )

    # --- forms -----------------------------------------------------------------------------

    def add_form(self, form: Form, confirmed: bool = False) -> tuple[int, int, tuple[str, ...]]:
        """Store the form: (version before, 0 if new; version now; notes on it and its
        table). A new version that loses anything of the stored one (its key, a field, a
        requirement, a rule, its table) raises FormError unless ``confirmed``; the losses
        are then among the notes. A retired form added again is in use again."""
        with self.connection() as conn:
            try:
                _, before = forms_repo.get_form(conn, form.name, retired=True)
            except NotFoundError:
                before = 0  # a new form
            except FormError:  # a version this code no longer reads (an older dialect)
                listed = forms_repo.list_forms(conn, retired=True)
                before = next(f.version for f in listed if f.name == form.name)
            from importer.repositories.lookups import check_lookups

            # FormError (exit 2): a lookup's table cannot be read.
            looked = check_lookups(conn, form)
            saved = forms_repo.save_form(conn, form, confirmed=confirmed)
            return before, saved.version, (*saved.notes, *looked)

    def add_form_file(
        self, path: Path, confirmed: bool = False
    ) -> tuple[Form, int, int, tuple[str, ...]]:
        """`forms add FILE`: parse the definition and store it (see add_form)."""
        from importer.forms.definition import load_form_file

        form = load_form_file(path)
        return (form, *self.add_form(form, confirmed=confirmed))

    def retire_form(self, name: str) -> forms_repo.RetiredForm:
        """`forms remove NAME`: retire the form (no longer listed, chosen for a workbook nor
        submitted to; its table, rows and finished jobs' errors stay). StateError while a
        pending or running job needs it. `add_form` of the same name brings it back."""
        with self.connection() as conn:
            return forms_repo.retire_form(conn, name)

    def form(self, name: str, version: int | None = None) -> tuple[Form, int]:
        with self.connection() as conn:
            return forms_repo.get_form(conn, name, version)

    def forms(self, *, retired: bool = False) -> list[forms_repo.FormSummary]:
        """The forms in use (``retired``: the retired ones too)."""
        with self.connection() as conn:
            return forms_repo.list_forms(conn, retired=retired)

    # --- forms without a database ----------------------------------------------------------

    def infer_form(
        self,
        workbook: Path,
        *,
        sheet: str | None = None,
        name: str | None = None,
        header_row: int | None = None,
    ) -> InferredForm:
        """A starting form definition from a sheet's header and cell types (no database)."""
        from importer.forms.inference import infer_workbook_form

        return infer_workbook_form(
            workbook,
            sheet=sheet,
            name=name,
            header_row=header_row,
            memory_budget_mb=self.settings.reader.memory_budget_mb,
        )
