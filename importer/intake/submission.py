"""Submitting a workbook: check it against the form, store its bytes, create the job.

Everything that can refuse the input (unreadable file, unknown form or sheet, a header that
lacks required columns) happens before any job exists (exit 2). The same (form, sheet,
sha256) is one job: submitting it again returns the existing job unless ``force``.

A submission is planned first (plan.py: what was asked, the form named, where the header
is, where the job runs, the path that reads the rows now), then carried out by the path's
own function: the header alone for a job that runs elsewhere (``_submit_header``), the rows
as columns (``_submit_columns``) or row by row (``_submit_rows``) for one that runs here.
Each ends in a ``JobStore`` (job_store.py): the header checked, the job found or created.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from importer.config import ImportSettings
from importer.database import Connection
from importer.intake.job_store import JobStore
from importer.intake.plan import (
    Asked,
    ReadingCallback,
    ReadingProgress,
    ReadPath,
    Submission,
    SubmissionPlan,
    choose_for_header,
    plan_submission,
    read_workbook_bytes,
    sheet_layout,
)
from importer.states import JobStatus, ProgressPhase, RunMode

if TYPE_CHECKING:
    from importer.columnar.sheet import ColumnarSheet
    from importer.excel import SheetPeek
    from importer.excel.base import SheetReader

# What callers of a submit name, planned in plan.py.
__all__ = [
    "Asked",
    "ReadingCallback",
    "ReadingProgress",
    "Submission",
    "carry_out",
    "choose_for_header",
    "read_workbook_bytes",
    "sheet_layout",
    "submit_workbook",
]


def submit_workbook(
    conn: Connection,
    source: Path | bytes,
    asked: Asked,
    *,
    settings: ImportSettings,
    file_name: str | None = None,
    on_progress: ReadingCallback | None = None,
) -> Submission:
    """Check, store and create (one transaction). ``conn`` must be in autocommit mode.
    ``source`` and ``file_name``: see plan_submission; ``asked``: see Asked.

    A job that will not run here (no ``claim_owner``, or ``due_at``) gets the same checks
    and header check from peek_sheet, without parsing every row: its total_rows stays NULL
    and the run that reads the rows counts them. ``on_progress`` hears what is being read
    (the workbook, then its rows being counted) before any job exists."""
    plan = plan_submission(
        conn, source, asked, settings, file_name=file_name, on_progress=on_progress
    )
    return carry_out(conn, plan)


def carry_out(conn: Connection, plan: SubmissionPlan) -> Submission:
    """The plan's path, until its job exists (or is found)."""
    from importer.columnar import not_as_columns

    if plan.path is ReadPath.HEADER:
        submitted = _submit_header(conn, plan)
        if submitted is not None:
            return submitted
        why = not_as_columns(plan.workbook.name, plan.workbook.content)
        return _submit_rows(conn, plan, RowReading(why))
    if plan.path is ReadPath.COLUMNS:
        outcome = _submit_columns(conn, plan)
        if isinstance(outcome, Submission):
            return outcome
        return _submit_rows(conn, plan, outcome)
    return _submit_rows(conn, plan, RowReading(plan.why_rows))


@dataclass(frozen=True)
class RowReading:
    """How the row path opens the sheet: why it reads the rows (not the columns), and the
    engine a peek's safety pass over the whole sheet chose (None: as asked, checked then)."""

    why: str | None
    engine: str | None = None

    @property
    def checked(self) -> bool:
        return self.engine is not None


def _submit_header(conn: Connection, plan: SubmissionPlan) -> Submission | None:
    """A job that runs elsewhere, later: the safety and header checks without parsing every
    row. None for a correction: its rows are read now (their keys)."""
    peeked = plan.peek()
    if plan.is_correction(peeked.header):
        return None
    return JobStore.for_header(conn, plan, peeked.header).submit(peeked, None)


def _submit_columns(conn: Connection, plan: SubmissionPlan) -> Submission | RowReading:
    """A run here that may read the rows as columns (importer.columnar): the checks and the
    header from the sheet's first rows, the rows left to the run, which reads them once.
    The safety pass measures the first rows now and the rest in the split's pass over them
    (one pass over the sheet, not two), before the job exists. Where the columns do not
    take the sheet, how the row path reads it instead."""
    from importer.columnar import PathChoice, Safety, open_columnar
    from importer.config import Engine

    peeked = plan.peek(head_safety=True)
    # A correction is read row by row (its rows are numbered as it reads them).
    store = (
        None
        if plan.is_correction(peeked.header)
        else JobStore.for_header(conn, plan, peeked.header)
    )
    why = _why_not_columns(peeked, store)
    chosen: list[PathChoice] = []
    if store is not None and why is None:
        asked = plan.asked
        columns = open_columnar(
            plan.workbook.content,
            sheet=peeked.sheet_name,
            file_name=plan.workbook.name,
            form=store.form,
            after_row=0,
            mapping=store.column_map,
            on_choice=chosen.append,
            safety=Safety(asked.engine, asked.memory_budget_mb) if peeked.safety_pending else None,
            on_progress=lambda fraction: plan.progress(
                ProgressPhase.OPENING, peeked.sheet_name, fraction
            ),
        )
        if columns is not None:  # counted by the split's survey
            count = _counting(plan, columns.count_rows, peeked.sheet_name)
            return _submit_open(store, peeked, columns, count, plan.asked)
    why = why or (chosen[-1].reason if chosen else None)
    if peeked.safety_pending:  # it measured only the first rows: the reader runs it whole
        return RowReading(why)
    # The safety pass ran: the engine it chose reads the rows, as a job's run does (a
    # format's own reader, csv or xlrd, is chosen again by auto).
    engine = peeked.engine if peeked.engine in (Engine.CALAMINE, Engine.OPENPYXL) else "auto"
    return RowReading(why, engine)


def _why_not_columns(peeked: SheetPeek, store: JobStore | None) -> str | None:
    from importer.columnar import form_not_covered
    from importer.config import Engine

    if store is None:
        return "a correction is read row by row"
    if peeked.engine != Engine.CALAMINE:
        return f"the sheet is read by {peeked.engine}"
    return form_not_covered(store.form, peeked.layout)


def _submit_rows(conn: Connection, plan: SubmissionPlan, reading: RowReading) -> Submission:
    """The sheet opened and read row by row (a correction's whole, its keys checked)."""
    from importer.columnar import PathChoice
    from importer.excel import open_sheet
    from importer.intake.corrections import plan_correction

    asked = plan.asked
    reader = open_sheet(
        plan.workbook.content,
        sheet=asked.sheet,
        engine=reading.engine or asked.engine,
        memory_budget_mb=asked.memory_budget_mb,
        file_name=plan.workbook.name,
        checked=reading.checked,
        layout=plan.layout,
    )
    reader.read_path = str(PathChoice(False, reading.why or "the sheet is read row by row"))
    if not plan.is_correction(reader.header):
        store = JobStore.for_header(conn, plan, reader.header)
        return _submit_open(store, reader, reader, _counting_sheet(plan, reader), asked)
    try:
        correction = plan_correction(
            conn,
            reader,
            plan.workbook.name,
            named=plan.named,
            mapping=plan.mapping,
            latest=asked.latest_form,
        )
    except BaseException:
        reader.close()
        raise
    store = JobStore.for_header(conn, plan, reader.header, correction)
    if asked.mode is not RunMode.HERE:
        with reader:
            return store.submit(reader, _counting_sheet(plan, reader))
    numbered = correction.sheet(reader)  # read whole already: its run here reads it no more
    return _submit_open(store, numbered, numbered, _counting_sheet(plan, numbered), asked)


def _counting(plan: SubmissionPlan, count: Callable[[], int], sheet: str) -> Callable[[], int]:
    """``count``, told as the rows being counted."""

    def count_rows() -> int:
        plan.progress(ProgressPhase.COUNTING, sheet)
        return count()

    return count_rows


def _counting_sheet(plan: SubmissionPlan, reader: SheetReader) -> Callable[[], int]:
    return _counting(plan, reader.count_rows, reader.sheet_name)


def _submit_open(
    store: JobStore,
    checked: SheetPeek | SheetReader,
    sheet: SheetReader | ColumnarSheet,
    count_rows: Callable[[], int],
    asked: Asked,
) -> Submission:
    """The job of a sheet already open (``count_rows`` counts it): the foreground run that
    follows reads these very bytes, so a new claimed job takes the open sheet over
    (``Submission.reader``), no second parse; otherwise, or on any error, it is closed."""
    try:
        submission = store.submit(checked, count_rows)
    except BaseException:
        sheet.close()
        raise
    if asked.keep_reader and submission.created and submission.job.status is JobStatus.RUNNING:
        return replace(submission, reader=sheet)
    sheet.close()
    return submission
