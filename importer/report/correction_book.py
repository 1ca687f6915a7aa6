"""A correction without a workbook (`importer correct`, ``Importer.correct``): the rows of
an import still open, as last sent, with the cells a caller changes, written as the error
workbook would give them (each row keyed), so that they go in as any correction does: the
same submit, checks, batches and runs.

A row is named by its Excel row in the import; a cell by its column's header text or its
field's name (a form's field, matched as a header matches it)."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from importer.database import Connection
from importer.errors import UsageError
from importer.excel.cell_json import TypedCell, decode_cell, encode_cell
from importer.fields.field import normalize_header
from importer.forms.definition import Form
from importer.intake.corrections import check_origin
from importer.report.book import ErrorBook, ErrorRow
from importer.report.error_file import columns_of, job_rows, sheet_name_for
from importer.report.row_keys import workbook_signature
from importer.report.xlsx import write_xlsx
from importer.repositories import corrections
from importer.repositories.jobs import Job, get_job
from importer.repositories.rejected_rows import rejected_row_width

Changes = Mapping[int, Mapping[str, object]]  # row -> {header or field: value}


def correction_workbook(
    conn: Connection, job_id: int, changes: Changes, form: Form
) -> tuple[Job, bytes, str]:
    """(the import corrected, the workbook's bytes, its file name). UsageError for a row
    that is not open (imported already, or never rejected) or a column the sheet lacks;
    InputError for an import undone or purged."""
    job = get_job(conn, job_id)
    origin = get_job(conn, job.origin_job_id) if job.origin_job_id is not None else job
    name = f"correction of job {origin.id}.xlsx"
    check_origin(origin, name)
    if not changes:
        raise UsageError("say which rows to correct, and what to set in each")
    family = corrections.family_of(conn, origin)
    header = columns_of(origin.header, rejected_row_width(conn, origin.id))
    wanted = {int(number): values for number, values in changes.items()}
    rows = [r for r in job_rows(conn, origin, header, every=False, family=family)
            if r.number in wanted]  # fmt: skip
    _check_open(conn, origin, set(wanted) - {r.number for r in rows})
    fixed = [_changed(row, wanted[row.number], header, form, origin) for row in rows]
    book = ErrorBook(sheet_name_for(origin), header, fixed, [], origin=origin.id)
    secret = corrections.signing_key(conn)
    with tempfile.TemporaryDirectory(prefix="importer-correct-") as folder:
        path = Path(folder) / "correction.xlsx"
        write_xlsx(str(path), book, lambda jobs, about: workbook_signature(secret, jobs, about))
        return origin, path.read_bytes(), name


def _check_open(conn: Connection, origin: Job, missing: set[int]) -> None:
    """The rows asked for that are not open: why, in one line."""
    if not missing:
        return
    held = corrections.held_by(conn, origin.id, sorted(missing))
    first = min(missing)
    if first in held:
        raise UsageError(
            f"row {first} of job {origin.id} was imported already, by job {held[first]}:"
            f" nothing to correct (importer errors {origin.id} lists the rows still open)"
        )
    raise UsageError(
        f"row {first} is not one of job {origin.id}'s rejected rows"
        f" (importer errors {origin.id} lists those still open)"
    )


def _changed(
    row: ErrorRow, values: Mapping[str, object], header: list[str], form: Form, origin: Job
) -> ErrorRow:
    cells = list(row.cells)
    for name, value in values.items():
        cells[_column(name, header, form, origin)] = _cell(value)
    return replace(row, cells=cells)


def _cell(value: object) -> TypedCell:
    """A value as a cell: a text as typed (the form's field reads it as it reads any
    sheet's text), a number, date or boolean as such."""
    if value is None or isinstance(value, str):
        return TypedCell(value if value != "" else None)
    return decode_cell(encode_cell(value))


def _column(name: str, header: list[str], form: Form, origin: Job) -> int:
    """The sheet's column of a header text, or of a field (as the import matched it)."""
    texts = [normalize_header(text) for text in header]
    wanted = normalize_header(name)
    if wanted in texts:
        return texts.index(wanted)
    mapped = {field: text for text, field in origin.column_map.items() if field}
    for field in form.fields:
        if field.name != name:
            continue
        if field.name in mapped and normalize_header(mapped[field.name]) in texts:
            return texts.index(normalize_header(mapped[field.name]))
        for index, text in enumerate(texts):
            if text in field.match_keys:
                return index
    shown = ", ".join(repr(text) for text in header)
    raise UsageError(
        f"no column or field {name!r} in job {origin.id}'s sheet (its columns: {shown})"
    )
