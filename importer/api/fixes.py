"""The facade's part for fixing rejected rows in place (the page, the API): a sender changes
cells of its import's rejected rows, each row checked again by the form's own rules as it
changes (kept, with what the rules say of it, until it goes back); one value replaced in
every rejected row of a column; the rows fixed imported as a correction of the import,
queued for the workers like any correction (each row imported at most once). A lookup's
suggestions are shown only for the columns whose lookup says so (forms/senders.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from importer.api.requests import SubmitRequest
from importer.api.uploads import UploadMethods
from importer.database import Connection
from importer.errors import StateError, UsageError
from importer.forms.senders import SenderProblem, for_sender, shown_columns
from importer.repositories import corrections, jobs, row_edits, visible_jobs
from importer.repositories.accounts import Account
from importer.repositories.jobs import Job
from importer.repositories.row_edits import RowEdit

if TYPE_CHECKING:
    from importer.intake.submission import Submission

Changes = Mapping[int, Mapping[str, str | None]]  # row -> {column: value as typed}
MAX_REPLACED = 10_000  # rows one "replace in every rejected row" changes at most


@dataclass(frozen=True)
class RowToFix:
    """A rejected row as the sender sees it: its cells (with the sender's changes), its
    problems now, the cells changed, and the correction that imported it (if one did)."""

    number: int
    texts: list[str | None]
    problems: list[SenderProblem]
    changed: dict[str, str | None]
    fixed_by: int | None = None

    @property
    def fixed(self) -> bool:
        """Changed, and the form's rules have nothing against it now."""
        return bool(self.changed) and not self.problems and self.fixed_by is None


@dataclass(frozen=True)
class RowsChecked:
    """Rows changed and checked again: each one's problems now ([]: fixed), and how many
    fixed rows of the import wait to go back."""

    problems: dict[int, list[SenderProblem]]
    ready: int


@dataclass(frozen=True)
class RowsToFix:
    """A page of an import's rejected rows to fix, and how many fixed rows wait to go."""

    job: Job
    header: list[str]
    rows: list[RowToFix]
    ready: int


def _origin_id(job: Job) -> int:
    return job.origin_job_id if job.origin_job_id is not None else job.id


class FixMethods(UploadMethods):
    def _open_job(self, conn: Connection, viewer: Account, job_id: int) -> Job:
        job = visible_jobs.visible_job(conn, viewer.id, job_id)
        if job.purged_at is not None:
            raise StateError(jobs.purged_message(job, "shown"), job_id=job.id)
        return job

    def _shown(self, conn: Connection, job: Job) -> set[str]:
        from importer.repositories.forms import get_form

        form, _ = get_form(conn, job.form, job.form_version)
        return shown_columns(form, list(job.header or []), job.column_map)

    def rows_to_fix_for(
        self, viewer: Account, job_id: int, *, after: int = 0, limit: int = 50
    ) -> RowsToFix:
        """A page of the job's rejected rows after Excel row ``after``, as the sender sees
        them (their changes, their problems now, the ones a correction imported)."""
        with self.connection() as conn:
            job = visible_jobs.visible_job(conn, viewer.id, job_id)
            if job.purged_at is not None or not job.failed_rows:
                return RowsToFix(job, list(job.header or []), [], 0)
            page = visible_jobs.visible_rejected_rows(
                conn, viewer.id, job_id, after=after, limit=limit
            )
            numbers = [row.number for row in page]
            held = corrections.held_by(conn, _origin_id(job), numbers) if numbers else {}
            edited = row_edits.edits(conn, job.id, viewer.id)
            shown = self._shown(conn, job)
        header = list(job.header or [])
        rows = []
        for row in page:
            edit = edited.get(row.number)
            texts = _with_changes(row.texts, header, edit)
            raw = edit.problems if edit else [(p.column, p.raw, p.message) for p in row.problems]
            problems = [for_sender(*problem, shown) for problem in raw]
            changed = dict(edit.cells) if edit else {}
            rows.append(RowToFix(row.number, texts, problems, changed, held.get(row.number)))
        ready = sum(1 for e in edited.values() if e.fixed)
        return RowsToFix(job, header, rows, ready)

    def edit_rows_for(self, viewer: Account, job_id: int, changes: Changes) -> RowsChecked:
        """Change cells of rejected rows (kept with the sender's earlier changes) and check
        each row again: its problems now ([]: fixed). UsageError for a row that is not open
        or a column the sheet lacks."""
        with self.connection() as conn:
            job = self._open_job(conn, viewer, job_id)
            return self._check_and_keep(conn, viewer, job, changes)

    def _check_and_keep(
        self, conn: Connection, viewer: Account, job: Job, changes: Changes
    ) -> RowsChecked:
        from importer.intake.row_fixes import check_rows

        if not changes:
            raise UsageError("say which rows to change, and what to set in each")
        stored = row_edits.edits(conn, job.id, viewer.id, list(changes))
        merged = {
            int(row): {**(stored[row].cells if row in stored else {}), **dict(cells)}
            for row, cells in changes.items()
        }
        found = check_rows(conn, job, merged, self._reading())
        edits = [RowEdit(row, merged[row], found.get(row, [])) for row in sorted(merged)]
        row_edits.save(conn, job.id, viewer.id, edits)
        shown = self._shown(conn, job)
        ready = sum(1 for e in row_edits.edits(conn, job.id, viewer.id).values() if e.fixed)
        return RowsChecked(
            {e.row: [for_sender(*p, shown) for p in e.problems] for e in edits}, ready
        )

    def replace_in_rejected_for(
        self, viewer: Account, job_id: int, column: str, old: str, new: str | None
    ) -> RowsChecked:
        """``old`` replaced by ``new`` in ``column`` of every rejected row still open that
        holds it (as the sender last left it), each row checked again."""
        with self.connection() as conn:
            job = self._open_job(conn, viewer, job_id)
            header = list(job.header or [])
            if column not in header:
                raise UsageError(f"no column {column!r} in import {job.id}'s sheet")
            index = header.index(column)
            edited = row_edits.edits(conn, job.id, viewer.id)
            changes: dict[int, dict[str, str | None]] = {}
            for open_row in corrections.open_rows(conn, corrections.family_of(conn, job)):
                row = open_row.row
                texts = _with_changes(row.texts, header, edited.get(row.number))
                current = texts[index] if index < len(texts) else None
                if (current or "") == old and len(changes) < MAX_REPLACED:
                    changes[row.number] = {column: new}
            if not changes:
                ready = sum(1 for e in edited.values() if e.fixed)
                return RowsChecked({}, ready)
            return self._check_and_keep(conn, viewer, job, changes)

    def import_fixed_rows_for(self, viewer: Account, job_id: int) -> Submission:
        """The rows the sender fixed, imported as a correction of the import (queued for
        the workers); their changes are then forgotten. StateError when none is fixed."""
        from importer.report.correction_book import correction_workbook
        from importer.repositories.forms import get_form

        with self.connection() as conn:
            job = self._open_job(conn, viewer, job_id)
            fixed = {r: e.cells for r, e in row_edits.edits(conn, job.id, viewer.id).items()
                     if e.fixed}  # fmt: skip
            gone = corrections.held_by(conn, _origin_id(job), sorted(fixed)) if fixed else {}
            if gone:  # imported since by another correction (an error workbook sent back)
                row_edits.forget(conn, job.id, viewer.id, sorted(gone))
                fixed = {r: cells for r, cells in fixed.items() if r not in gone}
            if not fixed:
                raise StateError(
                    f"no fixed rows of import {job.id} to import: change the cells of its"
                    " rejected rows until the rules have nothing against them",
                    job_id=job.id,
                )
            form, _ = get_form(conn, job.form, job.form_version)
            origin, content, name = correction_workbook(conn, job.id, fixed, form)
        request = SubmitRequest(content, file_name=name, form=origin.form, run_here=False)
        submission = self._submit(viewer, request, correcting=True)
        with self.connection() as conn:
            row_edits.forget(conn, job.id, viewer.id, sorted(fixed))
        return submission


def _with_changes(
    texts: list[str | None], header: list[str], edit: RowEdit | None
) -> list[str | None]:
    """The row's cells with the sender's changes (each under its column's header)."""
    if edit is None:
        return list(texts)
    out = list(texts) + [None] * max(len(header) - len(texts), 0)
    for column, value in edit.cells.items():
        if column in header:
            out[header.index(column)] = value
    return out
