"""Running a job in the foreground (`submit`, `resume`) until it ends or the user stops it.

Claims the job if it can, runs it with pipeline.run_job, and keeps going through failed
attempts (waiting until the retry timer is due) and lost leases. A job held by a live process is
followed (its progress shown) until it ends or its lease expires; one held by a process
on this host that no longer exists is taken over at once.

While it drives jobs the process is registered in `workers` (kind "submit"), so `watch` and
`stats` see it beside the workers; a heartbeat thread keeps the row alive, so the import
itself makes no extra round trips.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from importer.config import ImportSettings
from importer.database import Connection, connect
from importer.errors import DatabaseUnavailable, ImporterError, describe_error
from importer.repositories import jobs, sessions
from importer.repositories.jobs import Job
from importer.running.job_run import JobOutcome, JobProgress, run_job
from importer.running.process import Registration, graceful_signals
from importer.states import JobStatus, ProcessKind, ProgressPhase, RunOutcome

if TYPE_CHECKING:
    from importer.columnar.sheet import ColumnarSheet
    from importer.excel.base import SheetReader

# How often a waiting run looks at the job again (progress of another owner, expiry).
WATCH_INTERVAL_SECONDS = 1.0
# How long a second Ctrl-C may take to give the job back before the process exits anyway.
QUIT_SECONDS = 3.0


@dataclass(frozen=True)
class RunResult:
    job: Job  # the job as last seen
    run_rows: int  # rows this process committed
    run_seconds: float
    interrupted: bool  # the user stopped us: the job is back to pending (or still elsewhere)
    ended: float = field(default_factory=time.monotonic)  # when this process was done with it
    read_path: str | None = None  # which path read its rows here, and why (its last run's)


def progress_of(job: Job, phase: ProgressPhase, message: str | None = None) -> JobProgress:
    """A progress event built from the stored job (for jobs another process runs)."""
    return JobProgress.of(job, phase, message)


def describe_wait(seconds: float) -> str:
    seconds = max(0, round(seconds))
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m {secs:02d}s" if minutes else f"{secs}s"


class ForegroundRunner:
    """Drives jobs in this process. Used as a context manager, it stays registered in
    `workers` across several drive() calls; otherwise each drive() registers for its own
    duration."""

    def __init__(
        self,
        url: str,
        settings: ImportSettings,
        owner: str,
        *,
        stop: threading.Event,
        on_progress: Callable[[JobProgress], None],
        on_note: Callable[[str], None],
    ) -> None:
        self.url = url
        self.settings = settings
        self.owner = owner
        self.stop = stop
        self.on_progress = on_progress
        self.on_note = on_note
        self._registration: Registration | None = None
        self._exit = contextlib.ExitStack()
        self._current: int | None = None  # the job being driven
        self._session: int | None = None  # the server session writing its batches

    @property
    def current(self) -> int | None:
        """The job this runner drives (or drove last)."""
        return self._current

    def __enter__(self) -> ForegroundRunner:
        self._exit.enter_context(self.registered())
        return self

    def __exit__(self, *exc: object) -> None:
        self._exit.close()

    @contextlib.contextmanager
    def registered(self) -> Iterator[None]:
        """This process in `workers` for the block (unless an outer block already is);
        unregistered however the block ends."""
        if self._registration is not None:
            yield
            return
        self._registration = Registration(self.url, self.owner, ProcessKind.FOREGROUND)
        self._registration.start()
        try:
            yield
        finally:
            registration, self._registration = self._registration, None
            registration.stop()

    def drive(
        self,
        job_id: int,
        *,
        claimed: Job | None = None,
        eager: bool = True,
        reader: SheetReader | ColumnarSheet | None = None,
    ) -> RunResult:
        """Run the job to its end. ``claimed``: already leased to us. ``eager``: a job
        waiting for its retry delay or timer is started now (an explicit resume).
        ``reader``: the job's sheet, already open (given to the first run, which closes it)."""
        try:
            with self.registered():
                return self._drive(job_id, claimed, eager, reader)
        finally:
            if reader is not None:
                reader.close()  # no-op when the run already closed it

    def _drive(
        self,
        job_id: int,
        claimed: Job | None,
        eager: bool,
        reader: SheetReader | ColumnarSheet | None,
    ) -> RunResult:
        run_rows = 0
        run_seconds = 0.0
        last_reason = ""
        path: str | None = None
        self._current = job_id
        with connect(self.url, autocommit=True) as conn:
            while True:
                job = claimed or jobs.get_job(conn, job_id)
                if claimed is None:
                    if job.terminal:
                        return RunResult(
                            job, run_rows, run_seconds, interrupted=False, read_path=path
                        )
                    if self.stop.is_set():
                        return RunResult(
                            job, run_rows, run_seconds, interrupted=True, read_path=path
                        )
                    # The process a user started for this job does its retries itself when
                    # they are due; the retry timer then finds nothing left to do.
                    claimed = self._try_claim(conn, job, eager or self._retry_due(conn, job))
                    eager = False
                    if claimed is None:
                        last_reason = self._wait(conn, jobs.get_job(conn, job_id), last_reason)
                        continue
                outcome = self._run(claimed, reader)
                claimed = reader = None
                run_rows += outcome.run_rows
                run_seconds += outcome.run_seconds
                path = outcome.read_path or path
                job = outcome.job or jobs.get_job(conn, job_id)
                if outcome.result in (RunOutcome.FINISHED, RunOutcome.CANCELLED):
                    return RunResult(job, run_rows, run_seconds, interrupted=False, read_path=path)
                if outcome.result is RunOutcome.STOPPED:
                    return RunResult(job, run_rows, run_seconds, interrupted=True, read_path=path)
                if outcome.result is RunOutcome.ERROR:
                    raise DatabaseUnavailable(f"import job {job_id}: {outcome.error}")
                if outcome.result is RunOutcome.LEASE_LOST:
                    self.on_note(f"job {job_id}: another process took the job over; following it")
                elif job.status is JobStatus.PENDING:
                    self.on_note(
                        f"job {job_id}: attempt {job.attempts} of {job.max_attempts} failed:"
                        f" {outcome.error}"
                    )

    def _run(self, job: Job, reader: SheetReader | ColumnarSheet | None) -> JobOutcome:
        """run_job on a connection opened here (as a worker does), so that a second Ctrl-C
        knows which session writes the job's batches."""
        try:
            conn = connect(self.url, autocommit=True, dead_after=self.settings.lease_seconds / 3)
        except ImporterError as exc:  # the reader is closed by drive()
            return JobOutcome(job.id, RunOutcome.ERROR, job, describe_error(exc))
        self._session = sessions.session_id(conn)
        try:
            return run_job(
                self.url,
                job,
                self.owner,
                self.settings,
                on_progress=self.on_progress,
                stop=self.stop,
                reader=reader,
                conn=conn,
            )
        finally:
            self._session = None

    def give_back(self, seconds: float = QUIT_SECONDS) -> Job | None:
        """Quitting at once (a second Ctrl-C): the batch in flight is ended where it stands,
        committed or rolled back whole with its cursor (its session ended), and the job goes
        back to pending as a graceful stop leaves it. The job as it then is; None when the
        database did not answer within ``seconds`` (its lease then runs out)."""
        job_id, session = self._current, self._session
        if job_id is None:
            return None
        left: list[Job] = []

        def give() -> None:
            wait = int(seconds * 1000 / 3)
            with connect(self.url, autocommit=True, dead_after=seconds / 3) as conn:
                sessions.set_lock_timeout(conn, wait)
                sessions.set_statement_timeout(conn, wait)
                if session is not None:
                    sessions.end_session(conn, session, wait)
                jobs.release_job(conn, job_id, self.owner)  # fenced: ours and running only
                left.append(jobs.get_job(conn, job_id))

        thread = threading.Thread(target=_quietly(give), name="give-back", daemon=True)
        thread.start()
        thread.join(seconds)
        return left[0] if left else None

    def _try_claim(self, conn: Connection, job: Job, eager: bool) -> Job | None:
        if job.status is JobStatus.PENDING and eager:
            jobs.make_available_now(conn, job.id)
        elif job.status is JobStatus.RUNNING and jobs.expire_dead_owner(conn, job):
            self.on_note(
                f"job {job.id}: its process ({job.lease_owner}) is gone; taking over at row"
                f" {job.cursor:,}"
            )
        claimed = jobs.claim_jobs(
            conn,
            owner=self.owner,
            limit=1,
            lease_seconds=self.settings.lease_seconds,
            job_ids=[job.id],
        )
        return claimed[0] if claimed else None

    def _retry_due(self, conn: Connection, job: Job) -> bool:
        if job.status is not JobStatus.PENDING or job.available_at is not None:
            return False
        due = jobs.retry_due_at(conn, job.id)
        return due is not None and due <= jobs.db_now(conn)

    def _wait(self, conn: Connection, job: Job, last_reason: str) -> str:
        """Nothing to claim yet: say why (once), show the job, sleep a little."""
        if job.terminal:
            return last_reason
        now = jobs.db_now(conn)
        seconds = WATCH_INTERVAL_SECONDS
        if job.status is JobStatus.RUNNING:
            expires = job.lease_expires_at or now
            left = (expires - now).total_seconds()
            note = (
                f"job {job.id} is being run by {job.lease_owner}; following it (taking over"
                f" if its lease, now {describe_wait(left)} from expiry, runs out)"
            )
            self.on_progress(
                progress_of(job, ProgressPhase.WAITING, f"lease expires in {describe_wait(left)}")
            )
        elif job.available_at is None:
            retry_at = jobs.retry_due_at(conn, job.id)
            if retry_at is None:
                note = f"job {job.id} waits on its timer"
            else:
                left = (retry_at - now).total_seconds()
                seconds = min(seconds, max(0.05, left))
                note = f"job {job.id}: next attempt at {_clock(retry_at)}"
                self.on_progress(
                    progress_of(
                        job, ProgressPhase.WAITING, f"next attempt in {describe_wait(left)}"
                    )
                )
        else:
            left = (job.available_at - now).total_seconds()
            seconds = min(seconds, max(0.05, left))
            note = f"job {job.id}: next attempt at {_clock(job.available_at)}"
            self.on_progress(
                progress_of(job, ProgressPhase.WAITING, f"next attempt in {describe_wait(left)}")
            )
        reason = f"{job.status}|{job.lease_owner}|{job.available_at}"
        if reason != last_reason:  # say it once; the progress line shows the countdown
            self.on_note(note)
        self.stop.wait(seconds)
        return reason


def _quietly(work: Callable[[], None]) -> Callable[[], None]:
    def run() -> None:
        with contextlib.suppress(Exception):
            work()

    return run


def _clock(moment: datetime) -> str:
    return moment.astimezone().strftime("%H:%M:%S %Z")  # the user's time, with its zone


# --- a foreground command: several jobs, signals ---------------------------------------------


@dataclass(frozen=True)
class ForegroundReport:
    """What a foreground command did: one result per job it drove, in order."""

    results: list[RunResult]
    signal: int = 0  # the signal that stopped it (0: none)

    @property
    def jobs(self) -> list[Job]:
        """Each job as its run left it, in order."""
        return [r.job for r in self.results]

    @property
    def interrupted(self) -> list[Job]:
        """Jobs the user stopped before they ended (`importer resume` continues them)."""
        return [r.job for r in self.results if r.interrupted and not r.job.terminal]


@dataclass(frozen=True)
class Quit:
    """A second SIGINT/SIGTERM: the process exits at once, after giving its job back."""

    signal: int
    job_id: int | None  # the job it was driving (None: none yet)
    job: Job | None  # as it was left; None: the database did not answer in time


def run_in_foreground(
    url: str,
    settings: ImportSettings,
    owner: str,
    job_ids: list[int],
    *,
    on_progress: Callable[[JobProgress], None],
    on_note: Callable[[str], None],
    first_claimed: Job | None = None,
    eager: bool = True,
    reader: SheetReader | ColumnarSheet | None = None,
    on_signal: Callable[[int], None] | None = None,
    on_quit: Callable[[Quit], None] | None = None,
) -> ForegroundReport:
    """Drive the jobs one after the other in this process until each ends; the first
    SIGINT/SIGTERM stops at the next batch boundary (progress kept, the job back to
    pending) and ends the command; a second quits at once, the job given back all the same
    (ForegroundRunner.give_back). One registration in `workers` covers all the jobs.

    ``on_signal`` hears that first signal at once, from the signal handler: it must only
    take note (a view closes itself on another thread, see progress.LiveView.interrupt).
    ``on_quit`` hears the second once the job is given back, from the signal handler, just
    before the process exits: what it prints, it flushes."""
    stop = threading.Event()
    stopped_by: list[int] = []

    def first_signal(signum: int) -> None:
        stopped_by.append(signum)
        if on_signal is not None:
            on_signal(signum)

    results: list[RunResult] = []
    runner = ForegroundRunner(
        url, settings, owner, stop=stop, on_progress=on_progress, on_note=on_note
    )

    def second_signal(signum: int) -> None:
        job = runner.give_back()
        if on_quit is not None:
            on_quit(Quit(signum, runner.current, job))

    with graceful_signals(stop, first_signal, second_signal), runner:
        for job_id in job_ids:
            first = first_claimed is not None and first_claimed.id == job_id
            results.append(
                runner.drive(
                    job_id,
                    claimed=first_claimed if first else None,
                    eager=eager,
                    reader=reader if first else None,
                )
            )
            if stop.is_set():
                break
    return ForegroundReport(results, stopped_by[0] if stopped_by else 0)
