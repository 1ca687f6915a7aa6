"""An upload from the page, looked at before it is imported: its header matched to a form (the
columns to match, with the tool's proposals, where it does not fit one outright), then every
row checked as `importer check` checks it. Nothing here makes a job."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from importer.config import ImportSettings, ReaderSettings
from importer.database import Connection
from importer.errors import InputError
from importer.forms.header_match import ColumnChoice, match_header, propose_columns
from importer.repositories import jobs
from importer.repositories import upload_reviews as reviews
from importer.repositories.jobs import Job
from importer.repositories.upload_reviews import UploadReview

if TYPE_CHECKING:
    from importer.excel import SheetPeek
    from importer.fields.field import Field
    from importer.forms.definition import Form
    from importer.intake.checking import CheckReport


@dataclass(frozen=True)
class ColumnsToMatch:
    """A header that does not fit its form as it is: why, each column with the field
    proposed for it, and the form's fields to choose from (required ones first to fill)."""

    header: list[str]
    choices: list[ColumnChoice]
    fields: list[Field]
    problem: str
    remembered: bool  # the choices are the ones this sender made for this header before


@dataclass(frozen=True)
class Review:
    """Where an upload stands: the form it is for, and either its columns to match or the
    check of its rows (``imported``: this very file was imported for that form already)."""

    upload: UploadReview
    form: str
    forms: list[str]  # the forms the sender may choose instead
    columns: ColumnsToMatch | None = None
    check: CheckReport | None = None
    imported: Job | None = None
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Reading:
    """How this host reads workbooks (the settings a submit reads with)."""

    reader: ReaderSettings
    imports: ImportSettings  # its hooks_allowed: the forms' hooks this host runs


def peek_upload(
    conn: Connection,
    content: bytes,
    file_name: str,
    *,
    form: str | None,
    sheet: str | None,
    header_row: int | None,
    mapping: Mapping[str, str],
    reading: Reading,
    only: Collection[str] | None,
) -> SheetPeek:
    """The checks an upload gets before it is kept (a workbook, safe to read, the sheet asked
    for, a header; InputError as `submit` refuses), and its header."""
    from importer.excel import peek_sheet
    from importer.intake.submission import sheet_layout
    from importer.repositories.forms import get_form

    named = get_form(conn, form) if form is not None else None
    layout = sheet_layout(conn, named, mapping, header_row, file_name, only)
    return peek_sheet(
        content,
        sheet=sheet,
        engine=reading.reader.engine,
        memory_budget_mb=reading.reader.memory_budget_mb,
        file_name=file_name,
        layout=layout,
    )


def review_upload(
    conn: Connection,
    upload: UploadReview,
    *,
    form: str | None,
    reading: Reading,
    only: Collection[str] | None,
    columns: bool = False,
) -> Review:
    """The upload's form (``form``, else the one it was matched for, else the one its header
    is for or comes closest to) and its columns to match, or the check of its rows
    (``columns``: the columns as matched now, to change, even where the header fits)."""
    from importer.excel.row_filter import describe_not_read

    content = jobs.file_content(conn, upload.file)
    wanted = form or upload.form
    mapping = upload.column_map if wanted is None or wanted == upload.form else {}
    peeked = peek_upload(
        conn,
        content,
        upload.file_name,
        form=wanted,
        sheet=upload.sheet,
        header_row=upload.header_row,
        mapping=mapping,
        reading=reading,
        only=only,
    )
    header = [str(text) for text in peeked.header]
    chosen = _form_for(conn, wanted, header, mapping, only)
    forms = [name for name, _ in _allowed(conn, only)]
    try:
        match_header(chosen, header, mapping=mapping)
    except InputError as exc:
        saved = reviews.saved_mapping(conn, upload.user_id, chosen.name, header)
        proposed = propose_columns(chosen, header, saved if saved is not None else mapping)
        to_match = ColumnsToMatch(
            header, proposed, list(chosen.sheet_fields), str(exc), saved is not None
        )
        return Review(upload, chosen.name, forms, columns=to_match)
    if columns:
        proposed = propose_columns(chosen, header, mapping)
        to_match = ColumnsToMatch(header, proposed, list(chosen.sheet_fields), "", False)
        return Review(upload, chosen.name, forms, columns=to_match)
    key = jobs.idempotency_key(chosen.name, peeked.sheet_name, upload.file)
    report = _check(conn, content, upload, chosen.name, mapping, reading, only)
    imported = jobs.find_job_by_key(conn, key)
    notes = [*report.notes, *map(describe_not_read, report.rows_not_read), *report.warnings]
    return Review(upload, chosen.name, forms, check=report, imported=imported, notes=notes)


def _check(
    conn: Connection,
    content: bytes,
    upload: UploadReview,
    form: str,
    mapping: Mapping[str, str],
    reading: Reading,
    only: Collection[str] | None,
) -> CheckReport:
    from importer.forms.operations import parse_reject_limit
    from importer.intake.checking import check_workbook

    report = check_workbook(
        conn,
        content,
        file_name=upload.file_name,
        form_name=form,
        sheet=upload.sheet,
        engine=reading.reader.engine,
        memory_budget_mb=reading.reader.memory_budget_mb,
        rows_per_batch=reading.imports.rows_per_transaction,
        column_map=mapping,
        header_row=upload.header_row,
        hooks_allowed=reading.imports.hooks_allowed,
        only=only,
    )
    if upload.max_rejected is not None:  # the sender's threshold over the form's, as submit
        report.max_rejected = parse_reject_limit(upload.max_rejected)
    return report


def _allowed(conn: Connection, only: Collection[str] | None) -> list[tuple[str, int]]:
    from importer.repositories.forms import current_forms

    return [(f.name, v) for f, v in current_forms(conn) if only is None or f.name in only]


def _form_for(
    conn: Connection,
    wanted: str | None,
    header: list[str],
    mapping: Mapping[str, str],
    only: Collection[str] | None,
) -> Form:
    """The form named, else the one the header is for, else the one it matches most of."""
    from importer.forms.choice import choose_form, score
    from importer.repositories.forms import current_forms, get_form

    if wanted is not None:
        return get_form(conn, wanted)[0]
    candidates = [(f, v) for f, v in current_forms(conn) if only is None or f.name in only]
    try:
        return choose_form(candidates, header, mapping)[0]
    except InputError:
        if not candidates:
            raise
    scored = [score(f, v, header, mapping) for f, v in candidates]
    return max(scored, key=lambda c: (c.matched, -len(c.missing))).form
