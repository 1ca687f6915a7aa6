"""Run one leased import job: read the stored workbook, validate, write batches.

The transaction contract (see README, "The one promise"): every batch is ONE transaction that
holds its rows (in the form's table), its rejected rows and their errors, the cursor advance,
the heartbeat and the lease extension, fenced by ``id = job AND lease_owner = me AND status =
'running'``. The fence comes before any row reaches the form's table, so a writer that lost
its lease writes nothing there and stops (repositories/batches.py). A resumed run skips the
committed cursor (``success_rows + failed_rows`` rows).

Nothing here prints: progress goes to the ``on_progress`` callback.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from importer.config import Engine, ImportSettings
from importer.database import Connection, connect
from importer.errors import (
    DatabaseUnavailable,
    FormError,
    ImporterError,
    InputError,
    LeaseLost,
    NotFoundError,
    PermanentFailure,
    describe_error,
)
from importer.forms.operations import parse_reject_limit
from importer.repositories import jobs, sessions
from importer.repositories.jobs import Job
from importer.retry_policy import is_permanent
from importer.running.lease_renewer import LeaseRenewer
from importer.running.pause_points import PausePoints, pause_point
from importer.states import JobStatus, ProgressPhase, RunOutcome

if TYPE_CHECKING:
    from importer.columnar.choice import PathChoice
    from importer.columnar.sheet import ColumnarSheet
    from importer.excel.base import SheetReader
    from importer.excel.layout import HeaderLayout
    from importer.forms.definition import Form
    from importer.forms.validation import Validator
    from importer.repositories.batches import BatchWriter, Committed, Prepared
    from importer.repositories.lookups import TableLookups
    from importer.running.commit_thread import Done


@dataclass(frozen=True)
class JobProgress:
    """One progress event of a job."""

    job_id: int
    file_name: str
    phase: ProgressPhase
    status: JobStatus
    total_rows: int | None
    success_rows: int
    failed_rows: int
    run_rows: int  # rows processed by this run (a resumed run starts at 0)
    run_seconds: float  # since this run reached its own rows (after those it skips)
    message: str | None = None

    @classmethod
    def of(
        cls,
        job: Job,
        phase: ProgressPhase,
        message: str | None = None,
        *,
        run_rows: int = 0,
        run_seconds: float = 0.0,
    ) -> JobProgress:
        """The event for the job as it stands (run_rows: what this run committed)."""
        return cls(
            job_id=job.id,
            file_name=job.file_name,
            phase=phase,
            status=job.status,
            total_rows=job.total_rows,
            success_rows=job.success_rows,
            failed_rows=job.failed_rows,
            run_rows=run_rows,
            run_seconds=run_seconds,
            message=message,
        )

    @property
    def done_rows(self) -> int:
        return self.success_rows + self.failed_rows

    @property
    def rows_per_second(self) -> float | None:
        return self.run_rows / self.run_seconds if self.run_seconds > 0 and self.run_rows else None


@dataclass(frozen=True)
class JobOutcome:
    """How run_job ended (see RunOutcome); ``job`` as last seen."""

    job_id: int
    result: RunOutcome
    job: Job | None
    error: str | None = None
    run_rows: int = 0
    run_seconds: float = 0.0
    read_path: str | None = None  # which path read its rows, and why (submit --debug)

    @property
    def status(self) -> JobStatus | None:
        return self.job.status if self.job is not None else None


ProgressCallback = Callable[[JobProgress], None]

DAMAGED = "the stored workbook is damaged or unreadable"


@contextlib.contextmanager
def permanent(reason: str | None = None) -> Iterator[None]:
    """What the block refuses no later attempt can change (the bytes, the form version and
    the header are fixed for the job): a PermanentFailure, with ``reason`` in front."""
    try:
        yield
    except (InputError, NotFoundError, FormError) as exc:
        raise PermanentFailure(f"{reason}: {exc}" if reason else str(exc)) from exc


def record_failure(
    conn: Connection,
    job: Job,
    owner: str,
    exc: BaseException,
    settings: ImportSettings,
) -> Job:
    """Record the failed attempt: retried after the policy's delay for this attempt, or
    failed at once when the failure is permanent (see importer.retry_policy)."""
    error = describe_error(exc)
    final = is_permanent(exc)
    if final:
        error = f"{error} (not retried: another attempt would fail the same way)"
    return jobs.fail_attempt(
        conn,
        job.id,
        owner,
        error,
        retry_delay_seconds=settings.retry.delay(job.attempts),
        timer_max_attempts=settings.retry.timer_max_attempts,
        permanent=final,
    )


@dataclass
class _Run:
    url: str
    job: Job
    owner: str
    settings: ImportSettings
    on_progress: ProgressCallback
    stop: threading.Event
    reader: SheetReader | ColumnarSheet | None = None
    content: bytes | None = None  # the stored workbook, once fetched
    conn: Connection | None = None  # already open for this run (the worker's)
    renewer: LeaseRenewer | None = None
    pause: PausePoints = field(default_factory=pause_point)
    run_rows: int = 0
    started: float = field(default_factory=time.monotonic)
    rows_started: float | None = None
    over_limit: str | None = None  # why the run stops: its reject threshold is crossed
    read_path: str | None = None  # which path reads its rows, and why (importer.columnar)

    # --- events ----------------------------------------------------------------------------

    def seconds(self) -> float:
        return time.monotonic() - (self.rows_started or self.started)

    def emit(self, phase: ProgressPhase, message: str | None = None) -> None:
        event = JobProgress.of(
            self.job, phase, message, run_rows=self.run_rows, run_seconds=self.seconds()
        )
        with contextlib.suppress(Exception):  # a broken view must not break the import
            self.on_progress(event)

    def emit_committed(self, job: Job, run_rows: int) -> None:
        """A batch has committed (on the writer thread): the job as it now stands."""
        event = JobProgress.of(
            job, ProgressPhase.IMPORTING, run_rows=run_rows, run_seconds=self.seconds()
        )
        with contextlib.suppress(Exception):
            self.on_progress(event)

    def outcome(self, result: RunOutcome, error: str | None = None) -> JobOutcome:
        return JobOutcome(
            self.job.id, result, self.job, error, self.run_rows, self.seconds(), self.read_path
        )

    # --- the run ---------------------------------------------------------------------------

    def execute(self) -> JobOutcome:
        lease = self.settings.lease_seconds
        try:
            conn = self.conn or connect(self.url, autocommit=True, dead_after=lease / 3)
        except ImporterError as exc:
            self.close_reader()
            return self.outcome(RunOutcome.ERROR, describe_error(exc))
        try:
            # A frozen or cut-off writer must not hold the job row (and its claimers) beyond
            # its lease: the server ends its session, idle in a transaction or mid-statement.
            sessions.set_idle_in_transaction_timeout(conn, int(lease * 1000))
            sessions.set_statement_timeout(conn, int(lease * 1000))
            with LeaseRenewer(self.url, self.job.id, self.owner, self.settings.lease_seconds) as k:
                self.renewer = k
                try:
                    return self.import_rows(conn, k)
                except LeaseLost as exc:
                    why = str(exc)
                    if k.gave_up:
                        why = (
                            f"import job {self.job.id}: the database did not answer for"
                            f" {lease:g} s (the lease); stopped before another owner takes over"
                        )
                    self.emit(ProgressPhase.LEASE_LOST, why)
                    return self.outcome(RunOutcome.LEASE_LOST, why)
                except Exception as exc:  # task-level: this attempt failed
                    k.stop()
                    return self.fail(conn, exc)
        except ImporterError as exc:  # the connection's own setup failed
            return self.fail(conn, exc)
        finally:
            self.close_reader()
            with contextlib.suppress(Exception):
                conn.close()

    def close_reader(self) -> None:
        if self.reader is not None:
            with contextlib.suppress(Exception):
                self.reader.close()
            self.reader = None

    def layout(self, form: Form) -> HeaderLayout | None:
        """Where the job's header is (chosen at submit) and the form's rows that are not
        data: every run reads the sheet alike."""
        saved = self.job.sheet_layout
        if saved is None:
            first_row = form.layout.excel(None)
            return first_row if first_row.filters else None
        return replace(form.layout.excel(int(saved["row"])), rows=int(saved["rows"]))

    def open_reader(
        self, conn: Connection, layout: HeaderLayout | None
    ) -> tuple[SheetReader, int, int]:
        """The sheet and where this run starts in it: (reader, rows to skip, Excel row to
        start after). The sheet comes from the submit that just read it, else from the
        stored bytes; a resume reads only the rows not yet committed when it can."""
        from importer.excel import open_sheet
        from importer.excel.base import SheetReader

        given, self.reader = self.reader, None
        if (
            isinstance(given, SheetReader)
            and self.job.cursor == 0
            and given.sheet_name == self.job.sheet
        ):
            return given, 0, 0
        if given is not None:
            given.close()
        content = self.content
        if content is None:
            with permanent():
                content = jobs.file_content(conn, self.job.file)
        # A blank row ending the data, a merged cell's value: the rows before the cut count.
        # A correction reads from its first row (its rows are numbered as it reads them).
        cut = (layout is None or not layout.reads_every_row) and self.job.origin_job_id is None
        remaining = self.open_remaining(content, layout) if cut else None
        if remaining is not None:
            assert self.job.last_row is not None
            return remaining, 0, self.job.last_row
        # What auto chose at submit; xlrd or csv (a format's own reader): auto chooses again.
        engine = (
            self.job.engine if self.job.engine in (Engine.CALAMINE, Engine.OPENPYXL) else "auto"
        )
        # checked: these bytes passed open_sheet's safety pass at submit (same sha256).
        with permanent(DAMAGED):
            reader = open_sheet(
                content,
                sheet=self.job.sheet,
                engine=engine,
                file_name=self.job.file_name,
                checked=True,
                layout=layout,
            )
        return reader, self.job.cursor, 0

    def open_remaining(self, content: bytes, layout: HeaderLayout | None) -> SheetReader | None:
        """A resumed job's sheet holding only the rows after its last committed one, when
        the excel package can prove it does (open_rows_after); None: read it whole."""
        from importer.excel import open_rows_after

        job = self.job
        if not (
            job.cursor
            and job.sheet is not None
            and job.header is not None
            and job.header_row is not None
            and job.last_row is not None
            and job.total_rows is not None
        ):
            return None
        reader = open_rows_after(
            content,
            sheet=job.sheet,
            engine=job.engine,
            header=job.header,
            header_row=job.header_row,
            last_row=job.last_row,
            rows_left=job.total_rows - job.cursor,
            file_name=job.file_name,
            layout=layout,
        )
        if reader is not None:
            self.emit(ProgressPhase.SKIPPING, f"reading the rows after row {job.last_row:,} only")
        return reader

    def import_rows(self, conn: Connection, renewer: LeaseRenewer) -> JobOutcome:
        from importer.repositories.batches import (
            BatchWriter,  # heavy imports: only where rows are read
        )
        from importer.repositories.corrections import Origin
        from importer.repositories.forms import get_form

        self.pause("claimed")
        if self.job.cursor:  # a resume: from its start until its own rows
            self.emit(ProgressPhase.SKIPPING, f"skipping {self.job.cursor:,} committed rows")
        else:
            self.emit(ProgressPhase.OPENING)
        with permanent():
            form, _ = get_form(conn, self.job.form, self.job.form_version)
        layout = self.layout(form)
        columnar = self.open_columnar(conn, form)
        if columnar is not None:
            with columnar:
                return self.import_columns(conn, renewer, form, columnar)
        reader, skip, after_row = self.open_reader(conn, layout)
        self.read_path = self.read_path or reader.read_path or "row path"
        with reader, self.lookups(form) as lookups:
            validator = self.validator(conn, form, reader, lookups)
            writer = BatchWriter(
                conn,
                self.job,
                self.owner,
                form,
                reader.header,
                self.settings,
                header_row=reader.header_row,
                origin=Origin.of(conn, self.job),
            )
            if self.job.total_rows is None:
                self.emit(ProgressPhase.COUNTING, f"counting the rows of sheet {reader.sheet_name}")
                with permanent(DAMAGED):
                    total = reader.count_rows()
                writer.set_total_rows(total, reader.rows_not_read())
                self.job = jobs.get_job(conn, self.job.id)
            # A run that ended between the batch over the limit and its failure: fail it now.
            self.over_limit = crossed_limit(self.job)
            if self.over_limit is not None:
                return self.stop_over_limit(conn, renewer, [])
            batches = self.row_batches(conn, reader, skip, after_row)

            def next_batch() -> tuple[Prepared, int] | None:
                with permanent(DAMAGED):
                    batch = next(batches, None)
                if batch is None:
                    return None
                return writer.prepare(batch, validator.validate(batch)), len(batch)

            return self.write_batches(conn, renewer, writer, next_batch)

    def validator(
        self, conn: Connection, form: Form, reader: SheetReader, lookups: TableLookups | None
    ) -> Validator:
        """The job's validator for the sheet's header (its form's hook loaded, its claims
        of unique values seeded with the job's earlier ones)."""
        from importer.forms.hooks import load_hook
        from importer.forms.validation import Validator
        from importer.running.correction_rows import claims_before

        with permanent():
            hook = load_hook(form, self.settings.hooks_allowed)
        with permanent(f"the header no longer matches form {form.name!r}"):
            validator = Validator(
                form,
                reader.header,
                date1904=reader.date1904,
                mapping=self.job.column_map,
                lookups=lookups,
                hook=hook,
                today=self.job.created_at.date(),  # a resumed job decides alike
                on_warning=functools.partial(self.emit, ProgressPhase.WARNING),
            )
        if validator.claims is not None:
            validator.claims.seed(claims_before(conn, self.job))
        return validator

    def row_batches(
        self, conn: Connection, reader: SheetReader, skip: int, after_row: int
    ) -> Iterator[Sequence[Any]]:
        """The rows still to import, in batches (a correction's numbered as its origin's);
        those a resume skips are read past first."""
        from importer.running.correction_rows import NumberedSheet, origin_numbered

        size = self.settings.rows_per_transaction
        batches: Iterator[Sequence[Any]]
        if isinstance(reader, NumberedSheet):  # a correction's rows, read at its submit
            batches = reader.numbered_batches(self.job, size, skip=skip)
        elif self.job.origin_job_id is not None:  # a correction: numbered as its origin's
            batches = origin_numbered(conn, self.job, reader.batches(size), skip=skip, size=size)
        else:
            batches = reader.batches(size, skip=skip, after_row=after_row)
        self.rows_started = time.monotonic()
        if skip:
            self.emit(ProgressPhase.SKIPPING, f"skipping {skip:,} committed rows")
            batches = self.own_rows(batches)
        else:
            self.emit(ProgressPhase.IMPORTING)
        return batches

    def open_columnar(self, conn: Connection, form: Form) -> ColumnarSheet | None:
        """The job's sheet read as columns (importer.columnar), when it can be: an .xlsx
        sheet, a form its checks cover, the path the sheet's costs choose, a run with no
        sheet handed over (a foreground submit's is read already). None: the row path
        reads it (``read_path`` says why, where this run chose)."""
        from importer.columnar import form_not_covered, not_as_columns, open_columnar
        from importer.columnar.choice import PathChoice
        from importer.excel.base import SheetReader

        job = self.job
        given = self.reader
        if given is not None and not isinstance(given, SheetReader):
            self.reader = None  # the sheet split at submit (a foreground run's)
            if not job.cursor:
                self.read_path = str(given.choice or PathChoice(True, "chosen at submit"))
                return given
            given.close()
        if self.reader is not None or job.sheet is None:
            return None
        why = None
        if job.origin_job_id is not None:
            why = "a correction is read row by row"
        elif job.engine not in (Engine.CALAMINE, Engine.AUTO):
            why = f"the job's engine is {job.engine}"
        elif job.cursor and job.last_row is None:
            why = "a resumed job whose last row is not known"
        if why is None and self.content is None:  # the row path reads it too, if not this one
            with permanent():
                self.content = jobs.file_content(conn, job.file)
        # The size first: the form's check may load polars, which a small sheet never needs.
        if why is None and self.content is not None:
            why = not_as_columns(job.file_name, self.content)
            why = why or form_not_covered(form, job.sheet_layout)
        if why is not None:
            self.read_path = str(PathChoice(False, why))
            return None
        assert self.content is not None and job.sheet is not None
        return open_columnar(
            self.content,
            sheet=job.sheet,
            file_name=job.file_name,
            form=form,
            after_row=job.last_row if job.cursor and job.last_row is not None else 0,
            mapping=job.column_map,
            on_choice=self.chose,
        )

    def chose(self, choice: PathChoice) -> None:
        self.read_path = str(choice)

    def import_columns(
        self, conn: Connection, renewer: LeaseRenewer, form: Form, sheet: ColumnarSheet
    ) -> JobOutcome:
        """import_rows for a sheet read as columns: the same job, writer and batches."""
        from importer.columnar.batches import ColumnarBatches
        from importer.forms.validation import Validator
        from importer.repositories.batches import BatchWriter

        with permanent(f"the header no longer matches form {form.name!r}"):
            validator = Validator(
                form,
                sheet.header,
                date1904=sheet.info.date1904,
                mapping=self.job.column_map,
                today=self.job.created_at.date(),
            )
        writer = BatchWriter(
            conn, self.job, self.owner, form, sheet.header, self.settings,
            header_row=sheet.known.row,
        )  # fmt: skip
        if self.job.total_rows is None:
            self.emit(ProgressPhase.COUNTING, f"counting the rows of sheet {sheet.sheet_name}")
            writer.set_total_rows(sheet.count_rows())
            self.job = jobs.get_job(conn, self.job.id)
        self.over_limit = crossed_limit(self.job)
        if self.over_limit is not None:
            return self.stop_over_limit(conn, renewer, [])
        batches = iter(
            ColumnarBatches(sheet, form, validator, writer, self.settings.rows_per_transaction)
        )
        self.rows_started = time.monotonic()
        if self.job.cursor:
            self.emit(
                ProgressPhase.SKIPPING, f"reading the rows after row {self.job.last_row:,} only"
            )
        self.emit(ProgressPhase.IMPORTING)

        def next_batch() -> tuple[Prepared, int] | None:
            with permanent(DAMAGED):
                return next(batches, None)

        return self.write_batches(conn, renewer, writer, next_batch)

    @contextlib.contextmanager
    def lookups(self, form: Form) -> Iterator[TableLookups | None]:
        """A form with lookups resolves them on a connection of its own: on the reading
        thread, while the writer's commits the previous batch."""
        if not any(f.lookup for f in form.fields):
            yield None
            return
        from importer.repositories.lookups import TableLookups

        with connect(self.url, autocommit=True) as conn:
            yield TableLookups(conn, form)

    def own_rows(self, batches: Iterator[Sequence[Any]]) -> Iterator[Sequence[Any]]:
        """The batches after the skipped rows; the rate counts from the first of them, so
        that the time spent passing over committed rows does not drag it down."""
        first = True
        for batch in batches:
            if first:
                self.rows_started = time.monotonic()
                first = False
            yield batch

    def write_batches(
        self,
        conn: Connection,
        renewer: LeaseRenewer,
        writer: BatchWriter,
        next_batch: Callable[[], tuple[Prepared, int] | None],
    ) -> JobOutcome:
        """Read, validate and encode batch N+1 here while batch N commits on the writer
        thread. Stop, cancel and lease are checked at batch boundaries; the connection is
        used here again only once the writer has drained."""
        from importer.running.commit_thread import CommitThread

        first_cursor = self.job.cursor

        def write(batch: Prepared, number: int) -> Committed:
            # On the writer thread: each commit is shown as it happens (the reading thread
            # may be busy with the next piece or wait for room in the queue meanwhile).
            point = f"batch:{number}"
            inside = functools.partial(self.pause, point) if self.pause.armed(point) else None
            committed = writer.write(batch, pause=inside)
            if not committed.cancelled:
                self.emit_committed(committed.job, committed.job.cursor - first_cursor)
                self.pause(f"committed:{number}")
                self.pause.rows(committed.job.cursor)
            return committed

        number = 0
        with CommitThread(write, name=f"job-{self.job.id}-writer") as background:
            while True:
                if self.take(background.collect()):
                    if self.over_limit is not None:
                        return self.stop_over_limit(
                            conn, renewer, background.drain(drop_queued=True)
                        )
                    return self.outcome(RunOutcome.CANCELLED)
                if renewer.lost.is_set():
                    background.drain(drop_queued=True)
                    raise LeaseLost(
                        f"import job {self.job.id}: lease lost to another owner", job_id=self.job.id
                    )
                if self.stop.is_set():
                    if self.take(background.drain(drop_queued=True)):
                        if self.over_limit is not None:
                            return self.stop_over_limit(conn, renewer, [])
                        return self.outcome(RunOutcome.CANCELLED)
                    return self.release(conn, renewer)
                batch = next_batch()
                if batch is None:
                    break
                number += 1
                prepared, rows = batch
                background.submit(prepared, number, rows)
            if self.take(background.drain()):
                if self.over_limit is not None:
                    return self.stop_over_limit(conn, renewer, [])
                return self.outcome(RunOutcome.CANCELLED)
        # A percentage judged on the rows as counted: the rows read decide at the end.
        self.over_limit = crossed_limit(self.job, final=True)
        if self.over_limit is not None:
            return self.stop_over_limit(conn, renewer, [])
        renewer.stop()
        self.job = writer.finish(pause=functools.partial(self.pause, "finish"))
        self.emit(ProgressPhase.DONE)
        cancelled = self.job.status is JobStatus.CANCELLED
        return self.outcome(RunOutcome.CANCELLED if cancelled else RunOutcome.FINISHED)

    def take(self, done: Sequence[Done]) -> bool:
        """Account for committed batches; True when the job was cancelled at a boundary."""
        for item in done:
            self.job = item.committed.job
            if item.committed.cancelled:
                self.emit(ProgressPhase.CANCELLED, "cancelled at a batch boundary")
                return True
            self.run_rows += item.rows  # shown as it committed (emit_committed)
            if self.renewer is not None:
                self.renewer.renewed()  # the batch's fence extended the lease too
            if self.over_limit is None:
                self.over_limit = crossed_limit(self.job)
            if self.over_limit is not None:
                return True
        return False

    def stop_over_limit(
        self, conn: Connection, renewer: LeaseRenewer, done: Sequence[Done]
    ) -> JobOutcome:
        """The reject threshold is crossed: what else committed meanwhile is counted, then the
        job's rows are taken back and it fails, in one transaction (repositories/undo.py)."""
        from importer.repositories.forms import get_form
        from importer.repositories.undo import fail_over_limit

        for item in done:
            if not item.committed.cancelled:
                self.job = item.committed.job
                self.run_rows += item.rows
        renewer.stop()
        # Said with the rows every committed batch rejected (the last may have added some).
        self.over_limit = crossed_limit(self.job) or crossed_limit(self.job, final=True)
        assert self.over_limit is not None
        form, _ = get_form(conn, self.job.form, self.job.form_version)
        self.job = fail_over_limit(conn, self.job.id, self.owner, form, self.over_limit)
        error = self.job.last_error or self.over_limit
        self.emit(ProgressPhase.ATTEMPT_FAILED, error)
        return self.outcome(RunOutcome.ATTEMPT_FAILED, error)

    def release(self, conn: Connection, renewer: LeaseRenewer) -> JobOutcome:
        renewer.stop()
        released = jobs.release_job(conn, self.job.id, self.owner)
        self.job = jobs.get_job(conn, self.job.id)
        if not released:
            raise LeaseLost(
                f"import job {self.job.id}: lease lost before it could be released",
                job_id=self.job.id,
            )
        self.emit(ProgressPhase.STOPPED, "stopped; committed progress kept")
        return self.outcome(RunOutcome.STOPPED)

    def fail(self, conn: Connection, exc: BaseException) -> JobOutcome:
        error = describe_error(exc)
        try:
            if conn.closed or conn.broken:
                dead_after = self.settings.lease_seconds / 3
                silent = isinstance(exc, DatabaseUnavailable)
                if silent and self.renewer and self.renewer.time_left() < 2 * dead_after:
                    # The server is out of reach (a partition?): a fresh connection and its
                    # statement, each given up after dead_after, could outlast the lease. Stop
                    # now, before another host may own the job; its next claim counts the
                    # attempt. (A server that answered, ending the session, is asked.)
                    return self.outcome(RunOutcome.ERROR, error)
                with connect(self.url, autocommit=True, dead_after=dead_after) as fresh:
                    self.job = record_failure(fresh, self.job, self.owner, exc, self.settings)
            else:
                self.job = record_failure(conn, self.job, self.owner, exc, self.settings)
            error = self.job.last_error or error
        except LeaseLost as lost:
            self.emit(ProgressPhase.LEASE_LOST, str(lost))
            return self.outcome(RunOutcome.LEASE_LOST, error)
        except ImporterError:
            # Cannot record it; the lease expires and the next claim counts the attempt.
            return self.outcome(RunOutcome.ERROR, error)
        self.emit(ProgressPhase.ATTEMPT_FAILED, error)
        return self.outcome(RunOutcome.ATTEMPT_FAILED, error)


def crossed_limit(job: Job, *, final: bool = False) -> str | None:
    """Why the job must stop, when its rejected rows are over its threshold (see
    forms/operations.py RejectLimit.crossed); else None."""
    if job.max_rejected is None:
        return None
    limit = parse_reject_limit(job.max_rejected)
    return limit.crossed(job.failed_rows, job.total_rows, job.cursor, final=final)


def run_job(
    url: str,
    job: Job,
    owner: str,
    settings: ImportSettings,
    *,
    on_progress: ProgressCallback | None = None,
    stop: threading.Event | None = None,
    reader: SheetReader | ColumnarSheet | None = None,
    conn: Connection | None = None,
) -> JobOutcome:
    """Run one leased job to its end, or until ``stop`` is set, it is cancelled, or the lease
    is lost. Opens its own connections (safe to call from a thread). Job-level failures are
    recorded (fail_attempt) and reported in the outcome, never raised.

    ``reader``: the job's sheet already open (a foreground submit that just checked it);
    run_job takes it over and closes it. ``conn``: an autocommit connection opened for this
    run (a worker opens it before the run starts); run_job takes it over and closes it."""
    run = _Run(
        url=url,
        job=job,
        owner=owner,
        settings=settings,
        on_progress=on_progress or (lambda event: None),
        stop=stop or threading.Event(),
        reader=reader,
        conn=conn,
    )
    return run.execute()
