"""Run one leased import job: read the stored workbook, validate, write batches.

The transaction contract (see README, "The one promise"): every batch is ONE transaction that
holds its form_data rows, its rejected rows and their errors, the cursor advance, the heartbeat
and the lease extension, fenced by ``id = job AND lease_owner = me AND status = 'running'``.
The fence is the batch's first statement, so a writer that lost its lease writes nothing and
stops. A resumed run skips the committed cursor (``success_rows + failed_rows`` rows).

Nothing here prints: progress goes to the ``on_progress`` callback.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import psycopg

from importer import jobs
from importer.config import ImportSettings
from importer.db import Connection, connect, translate
from importer.errors import ImporterError, LeaseLost
from importer.jobs import Job

if TYPE_CHECKING:
    from importer.background_writer import Done
    from importer.batch_writer import BatchWriter, Committed, Prepared
    from importer.excel.base import SheetReader

# Test hook (crash tests): "claimed", "batch:N" (inside batch N's transaction, before commit),
# "committed:N" (after it), "finish" (inside the final transaction). The process stops itself
# (SIGSTOP) there, so a test can kill -9 it at an exact point or let its lease expire.
PAUSE_ENV = "IMPORTER_TEST_PAUSE_AT"


@dataclass(frozen=True)
class JobProgress:
    """One progress event. phase: opening | importing | done | cancelled | stopped |
    lease_lost | attempt_failed."""

    job_id: int
    file_name: str
    phase: str
    status: str
    total_rows: int | None
    success_rows: int
    failed_rows: int
    run_rows: int  # rows processed by this run (a resumed run starts at 0)
    run_seconds: float  # since this run started processing rows
    message: str | None = None

    @property
    def done_rows(self) -> int:
        return self.success_rows + self.failed_rows

    @property
    def rows_per_second(self) -> float | None:
        return self.run_rows / self.run_seconds if self.run_seconds > 0 and self.run_rows else None


@dataclass(frozen=True)
class JobOutcome:
    """How run_job ended. result:
    finished       the job succeeded or partially succeeded (see status)
    cancelled      cancel was requested; stopped at a batch boundary
    stopped        the stop event was set: released back to pending, progress kept
    lease_lost     another owner has the job; this run wrote nothing more
    attempt_failed the attempt failed: pending again (retry later) or failed (see status)
    error          the failure could not even be recorded (database gone); the lease expires
    """

    job_id: int
    result: str
    job: Job | None
    error: str | None = None
    run_rows: int = 0
    run_seconds: float = 0.0

    @property
    def status(self) -> str | None:
        return self.job.status if self.job is not None else None


ProgressCallback = Callable[[JobProgress], None]


def describe_error(exc: BaseException) -> str:
    if isinstance(exc, ImporterError):
        return str(exc).strip() or type(exc).__name__
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _pause_point() -> Callable[[str], None]:
    wanted = os.environ.get(PAUSE_ENV, "").strip()

    def pause(point: str) -> None:
        if wanted and point == wanted:
            # Sent to this thread, so it stops before running another line (the whole
            # process stops with it); sent to the process, this thread could run on a bit.
            signal.pthread_kill(threading.get_ident(), signal.SIGSTOP)

    return pause


class LeaseKeeper:
    """Renews the lease from its own connection while the run reads, validates or writes,
    so a long batch (or a slow workbook open) never lets the lease expire."""

    def __init__(self, url: str, job_id: int, owner: str, lease_seconds: float) -> None:
        self.url = url
        self.job_id = job_id
        self.owner = owner
        self.lease_seconds = lease_seconds
        self.interval = max(0.2, lease_seconds / 3)
        self.lost = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"lease-{job_id}", daemon=True)

    def __enter__(self) -> LeaseKeeper:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=self.interval + 5)

    def _run(self) -> None:
        conn: Connection | None = None
        try:
            while not self._stop.wait(self.interval):
                try:
                    if conn is None or conn.closed or conn.broken:
                        conn = connect(self.url, autocommit=True)
                        # A batch transaction holds the job row: don't queue behind it for long,
                        # its own fence extends the lease when it commits.
                        lock_ms = int(self.interval * 1000)
                        conn.execute(
                            "SELECT set_config('lock_timeout', %s, false)", (f"{lock_ms}ms",)
                        )
                    if not jobs.renew_lease(conn, self.job_id, self.owner, self.lease_seconds):
                        self.lost.set()
                        return
                except (ImporterError, psycopg.Error):
                    if conn is not None:
                        with contextlib.suppress(Exception):
                            conn.close()
                    conn = None  # try again next beat; the batch fence decides in the end
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()


@dataclass
class _Run:
    url: str
    job: Job
    owner: str
    settings: ImportSettings
    on_progress: ProgressCallback
    stop: threading.Event
    reader: SheetReader | None = None
    pause: Callable[[str], None] = field(default_factory=_pause_point)
    run_rows: int = 0
    started: float = field(default_factory=time.monotonic)
    rows_started: float | None = None

    # --- events ----------------------------------------------------------------------------

    def seconds(self) -> float:
        return time.monotonic() - (self.rows_started or self.started)

    def emit(self, phase: str, message: str | None = None) -> None:
        job = self.job
        event = JobProgress(
            job_id=job.id,
            file_name=job.file_name,
            phase=phase,
            status=job.status,
            total_rows=job.total_rows,
            success_rows=job.success_rows,
            failed_rows=job.failed_rows,
            run_rows=self.run_rows,
            run_seconds=self.seconds(),
            message=message,
        )
        with contextlib.suppress(Exception):  # a broken view must not break the import
            self.on_progress(event)

    def outcome(self, result: str, error: str | None = None) -> JobOutcome:
        return JobOutcome(self.job.id, result, self.job, error, self.run_rows, self.seconds())

    # --- the run ---------------------------------------------------------------------------

    def execute(self) -> JobOutcome:
        try:
            conn = connect(self.url, autocommit=True)
        except ImporterError as exc:
            self.close_reader()
            return self.outcome("error", describe_error(exc))
        try:
            # A frozen writer must not hold the job row (and its claimers) beyond its lease.
            idle_ms = int(self.settings.lease_seconds * 1000)
            conn.execute(
                "SELECT set_config('idle_in_transaction_session_timeout', %s, false)",
                (f"{idle_ms}ms",),
            )
            with LeaseKeeper(self.url, self.job.id, self.owner, self.settings.lease_seconds) as k:
                try:
                    return self.import_rows(conn, k)
                except LeaseLost as exc:
                    self.emit("lease_lost", str(exc))
                    return self.outcome("lease_lost", str(exc))
                except Exception as exc:  # task-level: this attempt failed
                    k.stop()
                    return self.fail(conn, exc)
        except psycopg.Error as exc:
            return self.fail(conn, translate(exc, self.url))
        finally:
            self.close_reader()
            with contextlib.suppress(Exception):
                conn.close()

    def close_reader(self) -> None:
        if self.reader is not None:
            with contextlib.suppress(Exception):
                self.reader.close()
            self.reader = None

    def open_reader(self, conn: Connection) -> tuple[SheetReader, int, int]:
        """The sheet and where this run starts in it: (reader, rows to skip, Excel row to
        start after). The sheet comes from the submit that just read it, else from the
        stored bytes; a resume reads only the rows not yet committed when it can."""
        from importer.excel import open_sheet

        given, self.reader = self.reader, None
        if given is not None and self.job.cursor == 0 and given.sheet_name == self.job.sheet:
            return given, 0, 0
        if given is not None:
            given.close()
        content = jobs.file_content(conn, self.job.file)
        remaining = self.open_remaining(content)
        if remaining is not None:
            assert self.job.last_row is not None
            return remaining, 0, self.job.last_row
        engine = self.job.engine if self.job.engine in ("calamine", "openpyxl") else "auto"
        # checked: these bytes passed open_sheet's safety pass at submit (same sha256).
        reader = open_sheet(
            content,
            sheet=self.job.sheet,
            engine=engine,
            file_name=self.job.file_name,
            checked=True,
        )
        return reader, self.job.cursor, 0

    def open_remaining(self, content: bytes) -> SheetReader | None:
        """A resumed calamine job on an .xlsx: the workbook without its committed rows
        (xlsx_trim), so that they are not parsed again. Used only when it provably holds
        exactly the rows still to import (same header, as many rows after the last
        committed one as the job has left); None otherwise, and the whole sheet is read."""
        from importer.excel import open_sheet
        from importer.excel.xlsx_trim import without_rows

        job = self.job
        if not (
            job.cursor
            and job.engine == "calamine"
            and job.sheet is not None
            and job.header_row is not None
            and job.last_row is not None
            and job.total_rows is not None
        ):
            return None
        trimmed = without_rows(content, job.sheet, job.header_row, job.last_row)
        if trimmed is None:
            return None
        try:
            reader = open_sheet(
                trimmed, sheet=job.sheet, engine="calamine", file_name=job.file_name, checked=True
            )
        except ImporterError:
            return None
        if (
            reader.engine == "calamine"
            and reader.header == job.header
            and reader.header_row == job.header_row
            and reader.count_rows_after(job.last_row) == job.total_rows - job.cursor
        ):
            self.emit("opening", f"reading the rows after row {job.last_row:,} only")
            return reader
        reader.close()
        return None

    def import_rows(self, conn: Connection, keeper: LeaseKeeper) -> JobOutcome:
        from importer.batch_writer import BatchWriter  # heavy imports: only where rows are read
        from importer.forms_repo import get_form
        from importer.validate import Validator

        self.pause("claimed")
        self.emit("opening")
        form, _ = get_form(conn, self.job.form, self.job.form_version)
        reader, skip, after_row = self.open_reader(conn)
        with reader:
            validator = Validator(form, reader.header, date1904=reader.date1904)
            writer = BatchWriter(
                conn,
                self.job,
                self.owner,
                form,
                reader.header,
                self.settings,
                header_row=reader.header_row,
            )
            if self.job.total_rows is None:
                writer.set_total_rows(reader.count_rows())
                self.job = jobs.get_job(conn, self.job.id)
            batches = reader.batches(
                self.settings.rows_per_transaction, skip=skip, after_row=after_row
            )
            self.rows_started = time.monotonic()
            self.emit("importing")
            return self.write_batches(conn, keeper, writer, validator, batches)

    def write_batches(
        self,
        conn: Connection,
        keeper: LeaseKeeper,
        writer: BatchWriter,
        validator: Any,
        batches: Iterator[Sequence[Any]],
    ) -> JobOutcome:
        """Read, validate and encode batch N+1 here while batch N commits on the writer
        thread. Stop, cancel and lease are checked at batch boundaries; the connection is
        used here again only once the writer has drained."""
        from importer.background_writer import BackgroundWriter

        def write(batch: Prepared, number: int) -> Committed:
            committed = writer.write(batch, pause=functools.partial(self.pause, f"batch:{number}"))
            if not committed.cancelled:
                self.pause(f"committed:{number}")
            return committed

        number = 0
        with BackgroundWriter(write, name=f"job-{self.job.id}-writer") as background:
            while True:
                if self.take(background.collect()):
                    return self.outcome("cancelled")
                if keeper.lost.is_set():
                    background.drain(drop_queued=True)
                    raise LeaseLost(f"import job {self.job.id}: lease lost to another owner")
                if self.stop.is_set():
                    if self.take(background.drain(drop_queued=True)):
                        return self.outcome("cancelled")
                    return self.release(conn, keeper)
                batch = next(batches, None)
                if batch is None:
                    break
                number += 1
                prepared = writer.prepare(batch, validator.validate(batch))
                background.submit(prepared, number, len(batch))
            if self.take(background.drain()):
                return self.outcome("cancelled")
        keeper.stop()
        self.job = writer.finish(pause=functools.partial(self.pause, "finish"))
        self.emit("done")
        return self.outcome("cancelled" if self.job.status == "cancelled" else "finished")

    def take(self, done: Sequence[Done]) -> bool:
        """Account for committed batches; True when the job was cancelled at a boundary."""
        for item in done:
            self.job = item.committed.job
            if item.committed.cancelled:
                self.emit("cancelled", "cancelled at a batch boundary")
                return True
            self.run_rows += item.rows
            self.emit("importing")
        return False

    def release(self, conn: Connection, keeper: LeaseKeeper) -> JobOutcome:
        keeper.stop()
        released = jobs.release_job(conn, self.job.id, self.owner)
        self.job = jobs.get_job(conn, self.job.id)
        if not released:
            raise LeaseLost(f"import job {self.job.id}: lease lost before it could be released")
        self.emit("stopped", "stopped; committed progress kept")
        return self.outcome("stopped")

    def fail(self, conn: Connection, exc: BaseException) -> JobOutcome:
        error = describe_error(exc)
        try:
            if conn.closed or conn.broken:
                with connect(self.url, autocommit=True) as fresh:
                    self.job = jobs.fail_attempt(
                        fresh, self.job.id, self.owner, error, self.settings.retry_delay_seconds
                    )
            else:
                self.job = jobs.fail_attempt(
                    conn, self.job.id, self.owner, error, self.settings.retry_delay_seconds
                )
        except LeaseLost as lost:
            self.emit("lease_lost", str(lost))
            return self.outcome("lease_lost", error)
        except (ImporterError, psycopg.Error):
            # Cannot record it; the lease expires and the next claim counts the attempt.
            return self.outcome("error", error)
        self.emit("attempt_failed", error)
        return self.outcome("attempt_failed", error)


def run_job(
    url: str,
    job: Job,
    owner: str,
    settings: ImportSettings,
    *,
    on_progress: ProgressCallback | None = None,
    stop: threading.Event | None = None,
    reader: SheetReader | None = None,
) -> JobOutcome:
    """Run one leased job to its end, or until ``stop`` is set, it is cancelled, or the lease
    is lost. Opens its own connections (safe to call from a thread). Job-level failures are
    recorded (fail_attempt) and reported in the outcome, never raised.

    ``reader``: the job's sheet already open (a foreground submit that just checked it);
    run_job takes it over and closes it."""
    run = _Run(
        url=url,
        job=job,
        owner=owner,
        settings=settings,
        on_progress=on_progress or (lambda event: None),
        stop=stop or threading.Event(),
        reader=reader,
    )
    return run.execute()
