"""A submission planned before its sheet is read (``plan_submission``): what was asked
(``Asked``), the workbook, the form named (else the one its header fits), where its header
is, where its job runs and the path that reads the sheet now (``ReadPath``). Carried out by
submission.py."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from importer.config import ImportSettings
from importer.database import Connection
from importer.errors import InputError, UsageError
from importer.forms.operations import JobOptions
from importer.repositories import jobs
from importer.repositories.jobs import Job
from importer.states import ProgressPhase, RunMode

if TYPE_CHECKING:
    from importer.columnar.sheet import ColumnarSheet
    from importer.excel import SheetPeek
    from importer.excel.base import SheetReader
    from importer.excel.layout import HeaderLayout
    from importer.forms.definition import Form


@dataclass(frozen=True)
class Submission:
    job: Job
    created: bool  # False: this file was submitted before; ``job`` is that import
    extra_columns: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # how the workbook was read (a reader fallen back to)
    scheduled_timer: int | None = None
    scheduled_for: datetime | None = None  # the scheduled timer's due time (database clock)
    reader: SheetReader | ColumnarSheet | None = (
        None  # keep_reader: the open sheet, for the job's own run
    )


@dataclass(frozen=True)
class ReadingProgress:
    """What a submit is doing before its job exists (the CLI shows it: a big workbook takes
    seconds to parse). ``phase``: OPENING (reading the workbook) or COUNTING (its rows)."""

    file_name: str
    size_bytes: int | None
    phase: ProgressPhase
    sheet: str | None = None  # the sheet asked for, then the one being read
    fraction: float | None = None  # how much of the sheet's XML is read (a big sheet's split)


ReadingCallback = Callable[[ReadingProgress], None]


def read_workbook_bytes(path: Path) -> bytes:
    try:
        if path.exists() and not path.is_dir() and not path.is_file():  # /dev/zero, a FIFO
            raise InputError(f"{path}: not a regular file (a device, pipe or socket)")
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not a workbook") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read it ({exc.strerror or exc})") from None


@dataclass(frozen=True)
class Asked:
    """What a submit asks, in the terms of this layer (the facade makes it from a
    SubmitRequest and the settings).

    Where the job runs: claimed by ``claim_owner`` in the same transaction (a run here),
    unless ``due_at`` schedules it on a scheduled_import timer (a ``timedelta``: that long
    from now by the database's clock; a moment already past by that clock is refused);
    otherwise workers are notified. ``keep_reader``: a new job claimed here comes back with
    the open sheet (``Submission.reader``) for its run. ``correcting``: a sheet whose header
    ends with an error workbook's row keys is a correction of the job it came from
    (intake/corrections.py), validated by that job's form version (``latest_form``: the
    form's current one)."""

    form_name: str | None = None  # None: the form the header fits
    sheet: str | None = None  # None: the first
    header_row: int | None = None  # the header's Excel row (None: found in the first rows)
    column_map: Mapping[str, str] = field(default_factory=dict)
    engine: str = "auto"
    memory_budget_mb: int = 512
    force: bool = False
    claim_owner: str | None = None
    due_at: datetime | timedelta | None = None
    timer_max_attempts: int = 5
    keep_reader: bool = False
    group_id: int | None = None
    options: JobOptions = field(default_factory=JobOptions)
    correcting: bool = False
    latest_form: bool = False

    @property
    def mode(self) -> RunMode:
        if self.due_at is not None:
            return RunMode.SCHEDULED
        return RunMode.QUEUED if self.claim_owner is None else RunMode.HERE


class ReadPath(StrEnum):
    """What a submit reads of the sheet before its job exists."""

    HEADER = "header"  # the header alone (a peek): the job runs elsewhere and reads the rows
    COLUMNS = "columns"  # the rows as columns where the split takes them, else row by row
    ROWS = "rows"  # the rows, row by row


@dataclass(frozen=True)
class Workbook:
    content: bytes
    name: str  # what messages and the job call it


@dataclass(frozen=True)
class SubmissionPlan:
    """A submission decided before its sheet is read: the workbook, the form named (None:
    the one its header fits, among ``only``), where the header is, where the job runs
    (``asked.mode``) and the path that reads the sheet now."""

    asked: Asked
    workbook: Workbook
    settings: ImportSettings
    named: tuple[Form, int] | None
    only: Collection[str] | None  # the forms the submitter may use (None: any)
    layout: HeaderLayout
    path: ReadPath
    why_rows: str | None = None  # ROWS: why not as columns (submit --debug says it)
    tell: ReadingCallback = field(default=lambda event: None)

    @property
    def mapping(self) -> dict[str, str]:
        return dict(self.asked.column_map)

    def is_correction(self, header: list[str]) -> bool:
        from importer.forms.validation import has_row_keys

        return self.asked.correcting and has_row_keys(header)

    def progress(
        self, phase: ProgressPhase, sheet: str | None, fraction: float | None = None
    ) -> None:
        self.tell(
            ReadingProgress(self.workbook.name, len(self.workbook.content), phase, sheet, fraction)
        )

    def peek(self, *, head_safety: bool = False) -> SheetPeek:
        from importer.excel import peek_sheet

        return peek_sheet(
            self.workbook.content,
            sheet=self.asked.sheet,
            engine=self.asked.engine,
            memory_budget_mb=self.asked.memory_budget_mb,
            file_name=self.workbook.name,
            layout=self.layout,
            head_safety=head_safety,
        )


def plan_submission(
    conn: Connection,
    source: Path | bytes,
    asked: Asked,
    settings: ImportSettings,
    *,
    file_name: str | None = None,
    on_progress: ReadingCallback | None = None,
) -> SubmissionPlan:
    """The plan of a submit (see Asked), the workbook read. ``source``: its path, or its
    bytes with ``file_name`` (required with bytes; with a path, its name by default)."""
    from importer.columnar import not_as_columns
    from importer.repositories.forms import get_form

    # A named form is looked up before the file is read (an unknown name is the error).
    named = get_form(conn, asked.form_name) if asked.form_name is not None else None
    if isinstance(asked.due_at, datetime) and asked.due_at <= jobs.db_now(conn):
        # The database's clock decides: this host's may be minutes off.
        raise UsageError(
            f"the start time {asked.due_at.isoformat()} is in the past by the database's"
            " clock; use a later time"
        )
    workbook = _workbook(source, file_name)
    tell = on_progress or (lambda event: None)
    tell(ReadingProgress(workbook.name, len(workbook.content), ProgressPhase.OPENING, asked.sheet))
    submitter = asked.options.submitter
    only = submitter.forms if submitter else None
    # Where the header is: --header-row, else among the sheet's first rows (forms/layout.py).
    layout = sheet_layout(conn, named, asked.column_map, asked.header_row, workbook.name, only)
    path, why_rows = ReadPath.HEADER, None
    if asked.mode is RunMode.HERE:
        # Why the rows are read row by row, when its run is this process's (submit --debug).
        why_rows = not_as_columns(workbook.name, workbook.content)
        path = ReadPath.COLUMNS if why_rows is None else ReadPath.ROWS
    return SubmissionPlan(asked, workbook, settings, named, only, layout, path, why_rows, tell)


def _workbook(source: Path | bytes, file_name: str | None) -> Workbook:
    if isinstance(source, bytes):
        if not file_name:
            raise UsageError("a workbook given as bytes needs its file name (file_name=...)")
        return Workbook(source, file_name)
    # Read first: a file that is not there is the one thing to say, before any progress.
    content = read_workbook_bytes(source)
    return Workbook(content, file_name or source.name)


def sheet_layout(
    conn: Connection,
    named: tuple[Form, int] | None,
    mapping: Mapping[str, str],
    header_row: int | None,
    where: str,
    only: Collection[str] | None = None,
) -> HeaderLayout:
    """How to find the sheet's header: for the named form, or any current one (``only``:
    of these)."""
    from importer.forms.layout import choose_layout

    forms = [named[0]] if named is not None else [form for form, _ in _current(conn, only)]
    return choose_layout(forms, mapping, row=header_row, where=where)


def choose_for_header(
    conn: Connection,
    header: list[str],
    mapping: dict[str, str],
    only: Collection[str] | None = None,
) -> tuple[Form, int]:
    """No --form: the registered form (current versions; ``only``: of these) this header is
    for."""
    from importer.forms.choice import choose_form

    return choose_form(_current(conn, only), header, mapping)


def _current(conn: Connection, only: Collection[str] | None) -> list[tuple[Form, int]]:
    from importer.repositories.forms import current_forms

    found = current_forms(conn)
    return found if only is None else [(f, v) for f, v in found if f.name in only]
