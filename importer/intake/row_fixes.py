"""Rejected rows fixed cell by cell (the page, the API): each row as last sent, with the cells
a sender changed, written as its correction would be (report/correction_book.py) and
checked as `importer check` checks a workbook, by the form's own rules (types, bounds,
lookups, row rules, uniqueness within the rows checked); nothing is stored. The import that
follows is the correction itself, which decides for good (uniqueness with the import and its
corrections too)."""

from __future__ import annotations

from collections.abc import Mapping

from importer.database import Connection
from importer.forms.validation import SOURCE_ROW_COLUMN
from importer.intake.reviewing import Reading
from importer.repositories.jobs import Job

Problem = tuple[str | None, str | None, str]  # column, value, message


def check_rows(
    conn: Connection, job: Job, changes: Mapping[int, Mapping[str, object]], reading: Reading
) -> dict[int, list[Problem]]:
    """Each changed row's problems with its changes ([]: it would be imported). UsageError
    for a row that is not open or a column the sheet lacks; InputError for an import that
    cannot be corrected (undone, purged, not ended)."""
    from importer.intake.checking import check_workbook
    from importer.report.correction_book import correction_workbook
    from importer.repositories.forms import get_form

    origin_id = job.origin_job_id if job.origin_job_id is not None else job.id
    origin = job if origin_id == job.id else None
    form_name = origin.form if origin is not None else job.form
    form, _ = get_form(conn, form_name, job.form_version)
    corrected, content, name = correction_workbook(conn, job.id, changes, form)
    report = check_workbook(
        conn,
        content,
        file_name=name,
        form_name=corrected.form,
        column_map=corrected.column_map,  # its columns matched as the import matched them
        engine=reading.reader.engine,
        memory_budget_mb=reading.reader.memory_budget_mb,
        rows_per_batch=reading.imports.rows_per_transaction,
        hooks_allowed=reading.imports.hooks_allowed,
    )
    where = report.header.index(SOURCE_ROW_COLUMN)
    found: dict[int, list[Problem]] = {int(number): [] for number in changes}
    for rejected in report.rejected:
        source = rejected.values[where] if where < len(rejected.values) else None
        if source is None:
            continue
        found[int(float(source))] = [(e.column, e.raw, e.message) for e in rejected.errors]
    return found
