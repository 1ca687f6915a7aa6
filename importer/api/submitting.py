"""The facade's part for submits: one workbook (``submit_workbook``, what the CLI, the
Python API and the page call), or several sheets of one as a group; run here, queued or
scheduled. A request becomes intake's ``Asked`` here, with the settings; intake plans the
submission and carries it out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from importer.api.base import ImporterBase
from importer.api.requests import RunEvents, SheetsRequest, SubmitOutcome, SubmitRequest
from importer.errors import UsageError
from importer.identity import new_owner
from importer.repositories.jobs import Job
from importer.states import JobStatus, ProgressPhase, RunMode

if TYPE_CHECKING:
    from importer.columnar.sheet import ColumnarSheet
    from importer.excel.base import SheetReader
    from importer.forms.operations import Submitter
    from importer.intake.groups import GroupSubmission
    from importer.intake.submission import Asked
    from importer.running.foreground import ForegroundReport
    from importer.running.job_run import JobProgress


def _one_sheet_or_all(source: Path | bytes, file_name: str | None) -> None:
    """A group's error workbook (a sheet per job) sent back: corrected all at once."""
    from importer.intake.groups import error_workbook_sheets

    sheets = error_workbook_sheets(source)
    if len(sheets) > 1:
        name = file_name or (source.name if isinstance(source, Path) else "the workbook")
        shown = ", ".join(f"{sheet!r} (job {job})" for sheet, job in sheets)
        raise UsageError(
            f"{name} holds the rejected rows of {len(sheets)} imports, a sheet each: {shown};"
            " correct them all with --all-sheets, or one with --sheet"
        )


class SubmitMethods(ImporterBase):
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
        request = SubmitRequest(
            Path(source) if isinstance(source, str) else source,
            file_name=file_name,
            form=form,
            sheet=sheet,
            engine=engine,
            force=force,
            run_here=wait,
        )
        events = RunEvents(on_progress=on_progress) if on_progress else RunEvents()
        return self.submit_workbook(request, events).job

    def submit_workbook(
        self, request: SubmitRequest, events: RunEvents | None = None
    ) -> SubmitOutcome:
        """The one submit sequence (the CLI's and ``submit``'s): check the workbook, store it
        and create its job; for ``RunMode.HERE``, the new job is claimed in the same
        transaction and run here on the sheet the check already opened (no second parse),
        or a job found for the same file that has not ended is continued. A group's error
        workbook sent back names the sheet to correct (or goes as --all-sheets)."""
        if not request.as_new and request.sheet is None:
            _one_sheet_or_all(request.source, request.file_name)
        return self._submit_request(request, events or RunEvents())

    def _submit_request(self, request: SubmitRequest, events: RunEvents) -> SubmitOutcome:
        """The submit itself (see submit_workbook), run here when its mode says so."""
        from importer.intake.submission import submit_workbook

        here = request.mode is RunMode.HERE
        owner = new_owner()
        asked = replace(
            self._asked(request, request.submitter),
            form_name=request.form,
            sheet=request.sheet,
            claim_owner=owner if here else None,
            due_at=request.due_at,
            timer_max_attempts=self.settings.timer.max_attempts,
            keep_reader=here,
            latest_form=request.latest_form,
        )
        with self.connection() as conn:
            submission = submit_workbook(
                conn,
                request.source,
                asked,
                settings=self.settings.import_,
                file_name=request.file_name,
                on_progress=events.on_reading,
            )
        try:
            events.on_submitted(submission)
        except BaseException:
            if submission.reader is not None:
                submission.reader.close()
            raise
        job = submission.job
        if not here or job.terminal:
            if submission.reader is not None:
                submission.reader.close()
            return SubmitOutcome(submission)
        claimed = submission.created and job.status is JobStatus.RUNNING
        report = self._run_here(
            [job.id],
            owner=owner,
            events=events,
            first_claimed=job if claimed else None,
            reader=submission.reader,
        )
        return SubmitOutcome(submission, report)

    def _asked(
        self, request: SubmitRequest | SheetsRequest, submitter: Submitter | None = None
    ) -> Asked:
        """What every submit of ``request`` asks, the settings filling in its defaults."""
        from importer.intake.submission import Asked

        reader = self.settings.reader
        return Asked(
            engine=request.engine or reader.engine,
            memory_budget_mb=reader.memory_budget_mb,
            force=request.force,
            column_map=request.column_map,
            header_row=request.header_row,
            options=self.job_options(request.max_rejected, submitter),
            correcting=not request.as_new,
        )

    def submit_sheets(
        self, request: SheetsRequest, events: RunEvents | None = None
    ) -> tuple[GroupSubmission, ForegroundReport | None]:
        """`submit --all-sheets` / several `--sheet`: every sheet matched to its form before
        any job exists, the group's jobs created, then (``run_here``) run here one after
        the other, in lookup order."""
        from importer.intake.groups import SheetChoice, submit_sheets

        events = events or RunEvents()
        choices = (
            None
            if request.sheets is None
            else [SheetChoice(sheet, form) for sheet, form in request.sheets]
        )
        with self.connection() as conn:
            group = submit_sheets(
                conn,
                request.source,
                self._asked(request, request.submitter),
                settings=self.settings.import_,
                file_name=request.file_name,
                choices=choices,
                skip_unmatched=request.skip_unmatched,
                on_progress=events.on_reading,
            )
        for note in group.notes:
            events.on_note(note)
        waiting = [s.job.id for s in group.submissions if not s.job.terminal]
        if not request.run_here or not waiting:
            return group, None
        return group, self._run_here(waiting, owner=new_owner(), events=events)

    def _run_here(
        self,
        job_ids: list[int],
        *,
        owner: str,
        events: RunEvents,
        first_claimed: Job | None = None,
        reader: SheetReader | ColumnarSheet | None = None,
    ) -> ForegroundReport:
        """Run the jobs here, one after the other, until each ends (see
        running.foreground.run_in_foreground)."""
        from importer.running.foreground import run_in_foreground

        def on_progress(event: JobProgress) -> None:
            if event.phase is ProgressPhase.WARNING:
                events.on_warning(f"job {event.job_id}: {event.message}")
            else:
                events.on_progress(event)

        return run_in_foreground(
            self.database.url,
            self.settings.import_,
            owner,
            job_ids,
            on_progress=on_progress,
            on_note=events.on_note,
            first_claimed=first_claimed,
            eager=True,
            reader=reader,
            on_signal=events.on_signal,
            on_quit=events.on_quit,
        )
