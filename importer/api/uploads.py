"""The facade's part for the page's uploads: a workbook is checked and kept for its sender
before any job exists; its columns are matched to a form's fields where its header does not
fit one outright (the choice kept for this sender, form and header, and proposed again);
its rows are checked as `importer check` checks them; then it is imported, or dropped. An
error workbook sent back is a correction of its import at once, as `submit` takes it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from importer.api.requests import RunEvents, SubmitRequest
from importer.api.submitting import SubmitMethods
from importer.database import Connection
from importer.errors import InputError, Missing, NotFoundError, StateError
from importer.forms.senders import for_sender
from importer.repositories import upload_reviews as reviews
from importer.repositories import visible_jobs
from importer.repositories.accounts import Account
from importer.repositories.rejected_rows import RowProblem
from importer.repositories.upload_reviews import UploadReview

if TYPE_CHECKING:
    from importer.intake.reviewing import Reading, Review
    from importer.intake.submission import Submission
    from importer.report.error_file import ExportSummary


@dataclass(frozen=True)
class Upload:
    """What an upload became: kept for its sender to review, or (an error workbook sent
    back) a correction of its import, made at once."""

    review: UploadReview | None = None
    submission: Submission | None = None


def senders_reword(shown: set[str]) -> Callable[[RowProblem], RowProblem]:
    """A problem as a sender reads it (a lookup's suggestions only in ``shown`` columns)."""

    def reword(problem: RowProblem) -> RowProblem:
        said = for_sender(problem.column, problem.raw, problem.message, shown)
        return replace(problem, message=said.message)

    return reword


def _only(viewer: Account) -> frozenset[str] | None:
    return None if viewer.every_form else frozenset(viewer.forms)


def _form_not_granted(form: str, granted: list[str]) -> NotFoundError:
    known = f"; known: {', '.join(granted)}" if granted else ""
    return NotFoundError(f"no form named {form!r}{known}", what=Missing.FORM, key=form)


class UploadMethods(SubmitMethods):
    def _reading(self) -> Reading:
        from importer.intake.reviewing import Reading

        return Reading(self.settings.reader, self.settings.import_)

    def _granted(self, viewer: Account) -> list[str]:
        from importer.repositories import forms as forms_repo

        with self.connection() as conn:
            return [f.name for f in forms_repo.list_forms(conn) if viewer.may_use(f.name)]

    def _check_form(self, viewer: Account, form: str | None) -> None:
        if form is not None and not viewer.may_use(form):
            raise _form_not_granted(form, self._granted(viewer))

    def upload_for(self, viewer: Account, request: SubmitRequest) -> Upload:
        """Check the upload as `submit` would before its job (a workbook, safe, the sheet, a
        header; InputError) and keep it for the sender; an error workbook of the sender's
        own import comes back as its correction, queued for the workers."""
        from importer.forms.validation import has_row_keys
        from importer.intake.reviewing import peek_upload

        self._check_form(viewer, request.form)
        source = request.source
        content = source if isinstance(source, bytes) else source.read_bytes()
        name = request.file_name or "upload"
        with self.connection() as conn:
            peeked = peek_upload(
                conn,
                content,
                name,
                form=request.form,
                sheet=request.sheet,
                header_row=request.header_row,
                mapping=request.column_map,
                reading=self._reading(),
                only=_only(viewer),
            )
            if has_row_keys([str(text) for text in peeked.header]):
                origins = _check_origins(conn, viewer, content)
            else:
                options = {
                    "form": request.form,
                    "sheet": request.sheet,
                    "header_row": request.header_row,
                    "max_rejected": str(request.max_rejected) if request.max_rejected else None,
                    "column_map": dict(request.column_map),
                }
                return Upload(review=reviews.add_review(conn, viewer.id, content, name, options))
        if len(origins) > 1:  # a group's error workbook: every sheet its import's correction
            return Upload(submission=self._correct_sheets(viewer, request, origins))
        return Upload(submission=self.correct_for(viewer, request))

    def _correct_sheets(
        self, viewer: Account, request: SubmitRequest, origins: list[tuple[str, int]]
    ) -> Submission:
        """Each sheet of a group's error workbook as a correction of its own import (as
        `submit --all-sheets` takes it; a sheet left out would lose its fixes): queued, the
        first sheet's correction shown."""
        from importer.api.requests import SheetsRequest
        from importer.forms.operations import Submitter

        submitter = Submitter(viewer.email, viewer.id, _only(viewer))
        queued = replace(request, run_here=False, as_new=False, submitter=submitter)
        sheets = [(sheet, None) for sheet, _ in origins]
        group, _ = self.submit_sheets(SheetsRequest.like(queued, sheets))
        return group.submissions[0]

    def correct_for(self, viewer: Account, request: SubmitRequest) -> Submission:
        """An error workbook sent back, as a correction of its import (queued)."""
        return self._submit(viewer, request, correcting=True)

    def review_upload_for(
        self, viewer: Account, upload_id: int, form: str | None = None, columns: bool = False
    ) -> Review:
        """Where the upload stands (see intake.reviewing.review_upload); ``form``: look at
        it as a workbook of this form; ``columns``: its columns to match again."""
        from importer.intake.reviewing import review_upload

        self._check_form(viewer, form)
        with self.connection() as conn:
            upload = reviews.review(conn, viewer.id, upload_id)
            found = review_upload(
                conn,
                upload,
                form=form,
                reading=self._reading(),
                only=_only(viewer),
                columns=columns,
            )
            if found.imported is not None:
                try:
                    visible_jobs.visible_job(conn, viewer.id, found.imported.id)
                except NotFoundError:
                    return _without_import(found)
            return found

    def match_columns_for(
        self, viewer: Account, upload_id: int, form: str, fields: Mapping[int, str]
    ) -> UploadReview:
        """The sender's field for each column (by index; "" ignores it), for ``form``: the
        header must then fit it (InputError says why not); kept with the upload, and for
        this sender, form and header."""
        from importer.forms.header_match import mapping_of, match_header
        from importer.intake.reviewing import peek_upload
        from importer.repositories import jobs
        from importer.repositories.forms import get_form

        self._check_form(viewer, form)
        with self.connection() as conn:
            upload = reviews.review(conn, viewer.id, upload_id)
            chosen, _ = get_form(conn, form)
            peeked = peek_upload(
                conn,
                jobs.file_content(conn, upload.file),
                upload.file_name,
                form=form,
                sheet=upload.sheet,
                header_row=upload.header_row,
                mapping={},
                reading=self._reading(),
                only=_only(viewer),
            )
            header = [str(text) for text in peeked.header]
            mapping = mapping_of(header, fields)
            match_header(chosen, header, mapping=mapping)
            reviews.save_mapping(conn, viewer.id, form, header, mapping)
            return reviews.set_options(
                conn, viewer.id, upload_id, upload.options(form=form, column_map=mapping)
            )

    def import_upload_for(self, viewer: Account, upload_id: int) -> Submission:
        """Import the upload as checked (its form and columns): its job, queued; the same
        file imported already is that job again."""
        from importer.forms.operations import parse_reject_limit
        from importer.repositories import jobs

        with self.connection() as conn:
            upload = reviews.review(conn, viewer.id, upload_id)
            content = jobs.file_content(conn, upload.file)
        limit = upload.max_rejected
        request = SubmitRequest(
            content,
            file_name=upload.file_name,
            form=upload.form,
            sheet=upload.sheet,
            column_map=upload.column_map,
            header_row=upload.header_row,
            max_rejected=parse_reject_limit(limit) if limit is not None else None,
            run_here=False,
        )
        submission = self.submit_for(viewer, request)
        with self.connection() as conn:
            reviews.set_job(conn, viewer.id, upload_id, submission.job.id)
        return submission

    def checked_rows_for(self, viewer: Account, upload_id: int, target: Path) -> ExportSummary:
        """ "Fix first": the rows the check rejects, as the error file `check -o` writes."""
        from importer.forms.senders import shown_columns
        from importer.report.error_file import export_checked_rows
        from importer.repositories.forms import get_form

        found = self.review_upload_for(viewer, upload_id)
        if found.check is None:
            raise InputError(found.columns.problem if found.columns else "nothing to check")
        with self.connection() as conn:
            form, _ = get_form(conn, found.form)
        shown = shown_columns(form, found.check.header, found.upload.column_map)
        return export_checked_rows(found.check, target, senders_reword(shown))

    def drop_upload_for(self, viewer: Account, upload_id: int) -> None:
        """The upload goes, not imported."""
        with self.connection() as conn:
            reviews.drop(conn, viewer.id, upload_id)

    def submit_for(self, viewer: Account, request: SubmitRequest) -> Submission:
        """Check and store a workbook for the account, and queue its job for the workers (the
        same checks and refusals as `submit`). A file already imported by this account is
        its job again; by another account, it is refused without naming that job."""
        return self._submit(viewer, request, correcting=False)

    def _submit(self, viewer: Account, request: SubmitRequest, *, correcting: bool) -> Submission:
        """The submit of the CLI and the Python API (``_submit_request``), for the account:
        queued for the workers, of its forms only (an error workbook of several imports
        comes through upload_for, each sheet a correction of its own import)."""
        from importer.forms.operations import Submitter

        self._check_form(viewer, request.form)
        submitter = Submitter(viewer.email, viewer.id, _only(viewer))
        queued = replace(request, run_here=False, as_new=not correcting, submitter=submitter)
        submission = self._submit_request(queued, RunEvents()).submission
        if not submission.created:
            with self.connection() as conn:
                try:
                    visible_jobs.visible_job(conn, viewer.id, submission.job.id)
                except NotFoundError:
                    job = submission.job
                    raise StateError(
                        f"{job.file_name}: this workbook was imported already for form"
                        f" {job.form!r} (sheet {job.sheet!r}) by another account; nothing"
                        " was imported again"
                    ) from None
        return submission


def _check_origins(conn: Connection, viewer: Account, content: bytes) -> list[tuple[str, int]]:
    """An error workbook names the imports it came from, (sheet, job) a sheet: each must be
    the sender's."""
    from importer.intake.groups import error_workbook_sheets

    sheets = error_workbook_sheets(content)
    if not sheets:
        raise InputError(
            "this error workbook does not say which import it came from: send it back as the"
            " page gave it (.xlsx)"
        )
    for _, job_id in sheets:
        visible_jobs.visible_job(conn, viewer.id, job_id)
    return sheets


def _without_import(found: Review) -> Review:
    from dataclasses import replace

    return replace(found, imported=None)
