"""Submitting a workbook: check it against the form, store its bytes, create the job.

Everything that can refuse the input (unreadable file, unknown form or sheet, a header that
lacks required columns) happens before any job exists (exit 2). The same (form, sheet,
sha256) is one job: submitting it again returns the existing job unless ``force``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from importer.config import ImportSettings
from importer.database import Connection
from importer.errors import InputError, UsageError
from importer.forms.operations import JobOptions
from importer.repositories import jobs
from importer.repositories.jobs import Job
from importer.states import JobStatus, ProgressPhase

if TYPE_CHECKING:
    from importer.columnar.sheet import ColumnarSheet
    from importer.excel import SheetPeek
    from importer.excel.base import SheetReader
    from importer.excel.layout import HeaderLayout
    from importer.forms.definition import Form
    from importer.intake.corrections import CorrectionPlan


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


def submit_workbook(
    conn: Connection,
    source: Path | bytes,
    *,
    form_name: str | None,
    file_name: str | None = None,
    settings: ImportSettings,
    sheet: str | None = None,
    engine: str = "auto",
    memory_budget_mb: int = 512,
    force: bool = False,
    claim_owner: str | None = None,
    due_at: datetime | timedelta | None = None,
    timer_max_attempts: int = 5,
    keep_reader: bool = False,
    column_map: Mapping[str, str] | None = None,
    on_progress: ReadingCallback | None = None,
    header_row: int | None = None,
    group_id: int | None = None,
    options: JobOptions | None = None,
    correcting: bool = False,
    latest_form: bool = False,
) -> Submission:
    """Check, store and create (one transaction). ``conn`` must be in autocommit mode.

    ``source``: the workbook's path, or its bytes with ``file_name`` (what messages and the
    job call it; required with bytes). With a path, ``file_name`` defaults to its name.

    ``claim_owner``: lease the new job to this owner in the same transaction (a foreground
    run), so no worker can take it first. ``due_at``: the job waits on a scheduled_import
    timer instead (a ``timedelta``: that long from now by the database's clock; a moment
    already past by that clock is refused). Otherwise workers are notified. ``keep_reader``:
    a new job claimed by ``claim_owner`` comes back with the open sheet
    (``Submission.reader``) for its run.

    A job that will not run here (no ``claim_owner``, or ``due_at``) gets the same checks
    and header check from peek_sheet, without parsing every row: its total_rows stays NULL
    and the run that reads the rows counts them. ``on_progress`` hears what is being read
    (the workbook, then its rows being counted) before any job exists.

    ``correcting``: a sheet whose header ends with an error workbook's row keys is a
    correction of the job it came from (intake/corrections.py), read whole at once, and
    validated by that job's form version (``latest_form``: the form's current one).
    """
    from importer.columnar import (
        PathChoice,
        Safety,
        form_not_covered,
        not_as_columns,
        open_columnar,
    )
    from importer.config import Engine
    from importer.excel import open_sheet, peek_sheet
    from importer.forms.validation import has_row_keys
    from importer.intake.corrections import plan_correction
    from importer.repositories.forms import get_form

    # A named form is looked up before the file is read (an unknown name is the error).
    named = get_form(conn, form_name) if form_name is not None else None
    if isinstance(due_at, datetime) and due_at <= jobs.db_now(conn):
        # The database's clock decides: this host's may be minutes off.
        raise UsageError(
            f"the start time {due_at.isoformat()} is in the past by the database's clock;"
            " use a later time"
        )
    tell = on_progress or (lambda event: None)
    if isinstance(source, bytes):
        if not file_name:
            raise UsageError("a workbook given as bytes needs its file name (file_name=...)")
        size: int | None = len(source)
        content, name = source, file_name
        tell(ReadingProgress(name, size, ProgressPhase.OPENING, sheet))
    else:
        # Read first: a file that is not there is the one thing to say, before any progress.
        content = read_workbook_bytes(source)
        name, size = file_name or source.name, len(content)
        tell(ReadingProgress(name, size, ProgressPhase.OPENING, sheet))

    mapping = dict(column_map or {})
    only = options.submitter.forms if options and options.submitter else None
    # Where the header is: --header-row, else among the sheet's first rows (forms/layout.py).
    layout = sheet_layout(conn, named, mapping, header_row, name, only)

    def store_for(header: list[str], plan: CorrectionPlan | None = None) -> _Store:
        if plan is not None:  # a correction: its origin's form, its --map
            form, version = plan.form, plan.version
        else:
            form, version = named or choose_for_header(conn, header, mapping, only)
        return _Store(
            conn,
            content,
            name,
            form,
            version,
            settings,
            force,
            timer_max_attempts,
            plan.mapping if plan is not None else mapping,
            group_id,
            options or JobOptions(),
            plan,
        )

    def keyed(header: list[str]) -> bool:
        return correcting and has_row_keys(header)

    def peek(head_safety: bool = False) -> SheetPeek:
        return peek_sheet(
            content,
            sheet=sheet,
            engine=engine,
            memory_budget_mb=memory_budget_mb,
            file_name=name,
            layout=layout,
            head_safety=head_safety,
        )

    elsewhere = claim_owner is None or due_at is not None
    if elsewhere:
        # Runs elsewhere, later: the safety and header checks without parsing every row.
        peeked = peek()
        if not keyed(peeked.header):  # a correction's rows are read now (their keys)
            return store_for(peeked.header).submit(peeked, None, claim_owner=None, due_at=due_at)

    checked = False
    # Why the rows are read row by row, when its run is this process's (submit --debug).
    row_path = not_as_columns(name, content)
    if claim_owner is not None and due_at is None and row_path is None:
        # Its run may read the rows as columns (importer.columnar): the checks and the header
        # from the sheet's first rows, the rows left to the run, which reads them once. The
        # safety pass measures the first rows now and the rest in the split's pass over them
        # (one pass over the sheet, not two), before the job exists.
        peeked = peek(head_safety=True)
        # A correction is read row by row (its rows are numbered as it reads them).
        store = None if keyed(peeked.header) else store_for(peeked.header)
        columns = None
        chosen: list[PathChoice] = []
        if store is None:
            row_path = "a correction is read row by row"
        elif peeked.engine != Engine.CALAMINE:
            row_path = f"the sheet is read by {peeked.engine}"
        else:
            row_path = form_not_covered(store.form, peeked.layout)
        if store is not None and row_path is None:
            columns = open_columnar(
                content,
                sheet=peeked.sheet_name,
                file_name=name,
                form=store.form,
                after_row=0,
                mapping=store.column_map,
                on_choice=chosen.append,
                safety=Safety(engine, memory_budget_mb) if peeked.safety_pending else None,
                on_progress=lambda fraction: tell(
                    ReadingProgress(
                        name, size, ProgressPhase.OPENING, peeked.sheet_name, fraction=fraction
                    )
                ),
            )
        if columns is not None and store is not None:
            split = columns  # counted by the split's survey

            def count_split() -> int:
                tell(ReadingProgress(name, size, ProgressPhase.COUNTING, peeked.sheet_name))
                return split.count_rows()

            return _submit_open(store, peeked, split, count_split, claim_owner, keep_reader)
        row_path = row_path or (chosen[-1].reason if chosen else None)
        # The safety pass ran: the engine it chose reads the rows, as a job's run does (a
        # format's own reader, csv or xlrd, is chosen again by auto). Where it measured
        # only the first rows, the reader runs it whole, as asked.
        if not peeked.safety_pending:
            checked = True
            engine = (
                peeked.engine if peeked.engine in (Engine.CALAMINE, Engine.OPENPYXL) else "auto"
            )
    reader = open_sheet(
        content,
        sheet=sheet,
        engine=engine,
        memory_budget_mb=memory_budget_mb,
        file_name=name,
        checked=checked,
        layout=layout,
    )
    reader.read_path = str(PathChoice(False, row_path or "the sheet is read row by row"))

    def count_rows() -> int:
        tell(ReadingProgress(name, size, ProgressPhase.COUNTING, reader.sheet_name))
        return reader.count_rows()

    if keyed(reader.header):
        try:
            plan = plan_correction(
                conn, reader, name, named=named, mapping=mapping, latest=latest_form
            )
        except BaseException:
            reader.close()
            raise
        if elsewhere:
            with reader:
                return store_for(reader.header, plan).submit(
                    reader, count_rows, claim_owner=None, due_at=due_at
                )
        store = store_for(reader.header, plan)
        reader = plan.sheet(reader)  # read whole already: its run here reads it no more
    else:
        store = store_for(reader.header)
    assert claim_owner is not None
    return _submit_open(store, reader, reader, count_rows, claim_owner, keep_reader)


def _submit_open(
    store: _Store,
    checked: SheetPeek | SheetReader,
    sheet: SheetReader | ColumnarSheet,
    count_rows: Callable[[], int],
    claim_owner: str,
    keep_reader: bool,
) -> Submission:
    """The job of a sheet already open (``count_rows`` counts it): the foreground run that
    follows reads these very bytes, so a new claimed job takes the open sheet over
    (``Submission.reader``), no second parse; otherwise, or on any error, it is closed."""
    try:
        submission = store.submit(checked, count_rows, claim_owner=claim_owner, due_at=None)
    except BaseException:
        sheet.close()
        raise
    if keep_reader and submission.created and submission.job.status is JobStatus.RUNNING:
        return replace(submission, reader=sheet)
    sheet.close()
    return submission


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


@dataclass(frozen=True)
class _Store:
    conn: Connection
    content: bytes
    file_name: str
    form: Form
    version: int
    settings: ImportSettings
    force: bool
    timer_max_attempts: int
    column_map: dict[str, str]
    group_id: int | None = None
    options: JobOptions = field(default_factory=JobOptions)
    correction: CorrectionPlan | None = None  # a correction of an earlier job

    def submit(
        self,
        sheet: SheetPeek | SheetReader,
        count_rows: Callable[[], int] | None,
        *,
        claim_owner: str | None,
        due_at: datetime | timedelta | None,
    ) -> Submission:
        """The header check, then the existing job or a new one. ``count_rows``: the sheet
        is parsed already, so count it now (otherwise the job's run does)."""
        from importer.excel import SheetPeek
        from importer.excel.row_filter import describe_not_read
        from importer.forms.validation import Validator

        # InputError: the header does not fit the form.
        validator = Validator(self.form, sheet.header, mapping=self.column_map)
        ops = self.form.operations
        new = jobs.NewJob(
            form=self.form.name,
            form_version=self.version,
            file=jobs.file_sha256(self.content),
            file_name=self.file_name,
            sheet=sheet.sheet_name,
            engine=sheet.engine,  # what auto chose: every run of the job reads alike
            header=list(sheet.header),
            total_rows=None,
            max_attempts=self.settings.max_attempts,
            column_map=self.column_map,
            keyed=bool(self.form.key),
            sheet_layout=sheet.layout if isinstance(sheet, SheetPeek) else sheet.layout_json(),
            group_id=self.group_id,
            max_rejected=str(limit) if (limit := self.options.reject_limit(ops)) else None,
            notify=self.options.notify_target(ops),
            submitted_by=submitter.name if (submitter := self.options.submitter) else None,
            submitted_by_user=submitter.account if submitter else None,
        )
        if self.correction is not None:
            plan = self.correction
            new = replace(new, origin_job_id=plan.origin.id, correction=plan.job_json())
        if not getattr(sheet, "has_rows", True):  # a peek saw a header alone
            raise InputError(
                f"sheet {sheet.sheet_name!r} has a header but no rows to import",
                file=self.file_name,
            )
        existing = None if self.force else jobs.find_job_by_key(self.conn, new.key)
        if existing is not None:
            return Submission(existing, created=False)
        if self.correction is not None:
            self.correction.check_not_done(self.conn, self.file_name)
        if count_rows is not None:
            total = count_rows()
            not_read = [] if isinstance(sheet, SheetPeek) else sheet.rows_not_read()
            new = replace(new, total_rows=total, rows_not_read=not_read)
            if total == 0:
                # A job for no rows would end "succeeded" having imported nothing.
                raise InputError(
                    f"sheet {sheet.sheet_name!r} has a header but no rows to import"
                    + "".join(f"; {describe_not_read(entry)}" for entry in not_read),
                    file=self.file_name,
                )
        submission = _create(
            self.conn,
            self.content,
            new,
            self.settings,
            self.force,
            claim_owner,
            due_at,
            self.timer_max_attempts,
        )
        return replace(
            submission, extra_columns=tuple(validator.extra_columns), notes=tuple(sheet.notes)
        )


def _create(
    conn: Connection,
    content: bytes,
    new: jobs.NewJob,
    settings: ImportSettings,
    force: bool,
    claim_owner: str | None,
    due_at: datetime | timedelta | None,
    timer_max_attempts: int,
) -> Submission:
    timer_id: int | None = None
    due: datetime | None = None
    with conn.transaction():
        if new.origin_job_id is not None:  # a correction: its origin locked, its rows numbered
            from importer.intake.corrections import reserve_numbers

            new = replace(
                new, correction=reserve_numbers(conn, new.origin_job_id, new.correction or {})
            )
        jobs.store_file(conn, content, new.file)  # new.file: the content's sha256
        job, created = jobs.create_job(conn, new, force=force, waiting=due_at is not None)
        if not created:
            return Submission(job, created=False)
        if new.origin_job_id is not None:
            from importer.repositories.corrections import mark_correction

            job = mark_correction(conn, job.id, new.origin_job_id, new.correction or {})
        if due_at is not None:
            from importer.repositories.timers import schedule_timer_due
            from importer.timers.kinds import SCHEDULED_IMPORT

            timer_id, due = schedule_timer_due(
                conn,
                kind=SCHEDULED_IMPORT,
                target=str(job.id),
                due_at=due_at,
                max_attempts=timer_max_attempts,
            )
        elif claim_owner is not None:
            claimed = jobs.claim_jobs(
                conn,
                owner=claim_owner,
                limit=1,
                lease_seconds=settings.lease_seconds,
                job_ids=[job.id],
            )
            job = claimed[0] if claimed else job
        else:
            jobs.notify(conn, job.id)
    return Submission(job, created=True, scheduled_timer=timer_id, scheduled_for=due)
