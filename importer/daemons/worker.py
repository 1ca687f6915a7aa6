"""The worker loop behind `importer worker`: claim import jobs, run them, keep their leases.

The main thread claims (at most ``batch_size`` per scan, never more than ``concurrency``
running), heartbeats, and sleeps until a NOTIFY on ``importer_jobs``, a job finishing, or the
poll interval (the loop itself is running.daemon.Daemon). Each job runs in its own thread with
its own connections (running.job_run.run_job, whose lease renewer keeps the job's lease).
Everything coordinates through the database, so any number of workers on any number of
hosts share one queue.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from importer.config import ImportSettings
from importer.daemons.daemon import Daemon, Wakeup
from importer.database import Connection, connect
from importer.errors import DatabaseUnavailable, describe_error
from importer.identity import new_owner
from importer.repositories import fleet, jobs
from importer.running.process import Backoff, ProcessConnection
from importer.states import ProcessKind, ProgressPhase, RunOutcome
from importer.thread_names import os_named

if TYPE_CHECKING:
    from importer.running.job_run import JobOutcome, JobProgress

# How long a graceful stop waits for running jobs to finish their current batch.
SHUTDOWN_GRACE_SECONDS = 60.0


class WorkerEventKind(StrEnum):
    STARTED = "started"
    CLAIMED = "claimed"
    FINISHED = "finished"
    CRASHED = "crashed"
    WARNING = "warning"  # something about a job only the operator can fix
    DATABASE_LOST = "database_lost"
    DATABASE_BACK = "database_back"
    STOPPING = "stopping"
    STOPPED = "stopped"


@dataclass(frozen=True)
class WorkerEvent:
    kind: WorkerEventKind
    message: str
    job_id: int | None = None
    outcome: JobOutcome | None = None
    error: str | None = None  # CRASHED, DATABASE_LOST: what went wrong


@dataclass
class WorkerSummary:
    claimed: int = 0
    finished: int = 0  # run_job returned (whatever the job's end state)
    crashed: int = 0  # run_job raised: recorded as a failed attempt
    lease_lost: int = 0
    released: int = 0
    abandoned: int = 0  # still running when the shutdown grace ran out
    outcomes: dict[int, JobOutcome] = field(default_factory=dict)


@dataclass
class _Running:
    job: jobs.Job
    stop: threading.Event
    conn: Connection | None = None  # opened for it by the main thread, before it started
    thread: threading.Thread | None = None
    outcome: JobOutcome | None = None
    error: BaseException | None = None
    # Set by the job's thread as its last act: the loop it wakes reaps the job at once,
    # where is_alive() could still be true and leave the job unreported for a poll interval.
    done: threading.Event = field(default_factory=threading.Event)


class Worker(Daemon):
    def __init__(
        self,
        url: str,
        settings: ImportSettings,
        *,
        concurrency: int | None = None,
        once: bool = False,
        owner: str | None = None,
        stop: threading.Event | None = None,
        on_event: Callable[[WorkerEvent], None] | None = None,
        shutdown_grace_seconds: float = SHUTDOWN_GRACE_SECONDS,
    ) -> None:
        self.url = url
        self.settings = settings
        self.concurrency = concurrency or settings.concurrency
        self.owner = owner or new_owner()
        # Called on the main thread, but for a WARNING: on the thread of its job.
        self.on_event = on_event or (lambda event: None)
        self.shutdown_grace_seconds = shutdown_grace_seconds
        self.summary = WorkerSummary()
        self._running: dict[int, _Running] = {}
        super().__init__(
            stop=stop or threading.Event(),
            wakeup=Wakeup(url, [jobs.NOTIFY_CHANNEL]),
            db=ProcessConnection(
                url,
                self.owner,
                ProcessKind.WORKER,
                on_back=self._on_back,
                # A partition must not hold the loop (claims, stop, its jobs' ends) for
                # longer than a job's own connection would wait: a third of the lease.
                dead_after=settings.lease_seconds / 3,
            ),
            once=once,
            startup_delay_seconds=settings.startup_delay_seconds,
        )
        self._next_heartbeat = 0.0
        # A server out of connections: claiming pauses (0.5 s, 1 s ... 5 s) so that the
        # workers that did get connections can use them.
        self._refused = Backoff(cap=5.0)
        self._claim_after = 0.0

    # --- the loop --------------------------------------------------------------------------

    def run(self) -> WorkerSummary:
        self.run_loop()
        self.on_event(WorkerEvent(WorkerEventKind.STOPPED, "worker stopped"))
        return self.summary

    def on_started(self) -> None:
        self.on_event(
            WorkerEvent(
                WorkerEventKind.STARTED, f"worker {self.owner} (concurrency {self.concurrency})"
            )
        )

    def on_database_lost(self, message: str) -> None:
        self.on_event(WorkerEvent(WorkerEventKind.DATABASE_LOST, message, error=message))

    def before_step(self) -> None:
        self._reap()

    def idle(self) -> bool:
        return not self._running

    def step(self) -> tuple[bool, float]:
        """Heartbeat if due, claim into free slots: (claim again at once, else seconds to
        sleep). Each running job's lease is kept by its own run (running.lease_renewer)."""
        conn = self._db.get()
        if time.monotonic() >= self._next_heartbeat:
            self._next_heartbeat = time.monotonic() + fleet.HEARTBEAT_SECONDS
            fleet.heartbeat_process(conn, self.owner, ProcessKind.WORKER)
        free = self.concurrency - len(self._running)
        if free > 0 and time.monotonic() >= self._claim_after:
            limit = min(free, self.settings.batch_size)
            claimed = jobs.claim_jobs(
                conn, owner=self.owner, limit=limit, lease_seconds=self.settings.lease_seconds
            )
            for i, job in enumerate(claimed):
                if not self._start(job, conn):
                    for rest in claimed[i + 1 :]:  # no connection for these either
                        jobs.release_job(conn, rest.id, self.owner)
                    return False, max(0.0, self._claim_after - time.monotonic())
            if claimed:
                self._refused.reset()
            if len(claimed) == limit and len(self._running) < self.concurrency:
                return True, 0.0
        sleep_for = min(
            self.settings.poll_interval_seconds,
            max(0.0, self._next_heartbeat - time.monotonic()),
        )
        return False, sleep_for

    # --- jobs ------------------------------------------------------------------------------

    def _start(self, job: jobs.Job, conn: Connection) -> bool:
        """Run a claimed job in a thread of its own; False when it had to be given back."""
        self.summary.claimed += 1
        if job.id in self._running:
            # Our own lease ran out and we re-claimed it: the thread still running it keeps
            # going under the fresh lease (two threads must never run one job).
            return True
        try:
            # Its connection first: a job claimed by a worker the server has no connection
            # left for would sit leased until its lease ran out, again and again.
            job_conn = connect(
                self.url, autocommit=True, dead_after=self.settings.lease_seconds / 3
            )
        except DatabaseUnavailable as error:
            self._give_back(job, conn, error)
            return False
        running = _Running(job, threading.Event(), job_conn)
        running.thread = threading.Thread(
            target=os_named(functools.partial(self._run_job, running)),
            name=f"job-{job.id}",
            daemon=True,
        )
        self._running[job.id] = running
        at = f" at row {job.cursor}" if job.cursor else ""
        self.on_event(
            WorkerEvent(
                WorkerEventKind.CLAIMED,
                f"job {job.id}: {job.file_name} (attempt {job.attempts}){at}",
                job.id,
            )
        )
        running.thread.start()
        return True

    def _give_back(self, job: jobs.Job, conn: Connection, error: DatabaseUnavailable) -> None:
        """No connection for the job: back to pending at once (the attempt given back),
        claiming paused for a while, and the wake-up's own connection handed back too."""
        jobs.release_job(conn, job.id, self.owner)
        delay = self._refused.next_delay()
        self._claim_after = time.monotonic() + delay
        self._wakeup.pause(delay)
        message = f"{error}; retrying in {delay:g}s"
        self.on_event(WorkerEvent(WorkerEventKind.DATABASE_LOST, message, job.id, error=message))

    def _run_job(self, running: _Running) -> None:
        from importer.running.job_run import (
            run_job,  # late: readers and validation are heavy imports
        )

        job = running.job
        try:
            running.outcome = run_job(
                self.url,
                job,
                self.owner,
                self.settings,
                stop=running.stop,
                conn=running.conn,
                on_progress=self._warnings,
            )
            if running.outcome.result is RunOutcome.STOPPED:
                self.summary.released += 1
            elif self.stop.is_set() and running.outcome.result is not RunOutcome.LEASE_LOST:
                self._release(running)  # fenced: a no-op unless it is still ours and running
        except BaseException as exc:  # never let one job take the worker down
            running.error = exc
            self._record_crash(job, exc)
        finally:
            running.done.set()
            self._wakeup.wake()

    def _warnings(self, event: JobProgress) -> None:
        """A job's progress is not logged, what only the operator can fix is (from the job's
        thread: the log writes each line whole)."""
        if event.phase is ProgressPhase.WARNING:
            self.on_event(
                WorkerEvent(
                    WorkerEventKind.WARNING,
                    f"job {event.job_id}: {event.message}",
                    event.job_id,
                )
            )

    def _record_crash(self, job: jobs.Job, exc: BaseException) -> None:
        from importer.running.job_run import record_failure

        with contextlib.suppress(Exception), connect(self.url, autocommit=True) as conn:
            record_failure(conn, job, self.owner, exc, self.settings)

    def _release(self, running: _Running) -> None:
        """Graceful stop: the job goes back to pending with its progress (no-op if it ended)."""
        with contextlib.suppress(Exception), connect(self.url, autocommit=True) as conn:
            if jobs.release_job(conn, running.job.id, self.owner):
                self.summary.released += 1

    def _reap(self) -> None:
        for job_id, running in list(self._running.items()):
            if running.thread is None or not running.done.is_set():
                continue
            running.thread.join()  # its last act is done: a moment at most
            del self._running[job_id]
            if running.error is not None:
                self.summary.crashed += 1
                error = describe_error(running.error)
                self.on_event(
                    WorkerEvent(
                        WorkerEventKind.CRASHED, f"job {job_id}: {error}", job_id, error=error
                    )
                )
                continue
            self.summary.finished += 1
            outcome = running.outcome
            if outcome is not None:
                self.summary.outcomes[job_id] = outcome
            if outcome is not None and outcome.result is RunOutcome.LEASE_LOST:
                self.summary.lease_lost += 1
            self.on_event(
                WorkerEvent(
                    WorkerEventKind.FINISHED, _describe_outcome(job_id, outcome), job_id, outcome
                )
            )

    def shut_down(self) -> None:
        if self._running:
            self.on_event(
                WorkerEvent(
                    WorkerEventKind.STOPPING,
                    f"stopping: {len(self._running)} running job(s) finish their current batch",
                )
            )
        for running in self._running.values():
            running.stop.set()
        deadline = time.monotonic() + self.shutdown_grace_seconds
        for running in list(self._running.values()):
            if running.thread is not None:
                running.thread.join(max(0.0, deadline - time.monotonic()))
        self._reap()
        self.summary.abandoned = len(self._running)

    # --- connection ------------------------------------------------------------------------

    def _on_back(self) -> None:
        self.on_event(WorkerEvent(WorkerEventKind.DATABASE_BACK, "database reachable again"))


def _describe_outcome(job_id: int, outcome: JobOutcome | None) -> str:
    if outcome is None:
        return f"job {job_id}: done"
    rate = f" ({outcome.run_rows:,} rows in {outcome.run_seconds:.1f}s)" if outcome.run_rows else ""
    what = {
        RunOutcome.FINISHED: outcome.status or "finished",
        RunOutcome.CANCELLED: "cancelled",
        RunOutcome.STOPPED: "back to pending, progress kept",
        RunOutcome.LEASE_LOST: _lease_lost(outcome.error),
        RunOutcome.ATTEMPT_FAILED: f"attempt failed ({outcome.status}): {outcome.error}",
        RunOutcome.ERROR: f"could not record the failure: {outcome.error}",
    }[outcome.result]
    return f"job {job_id}: {what}{rate}"


def _lease_lost(error: str | None) -> str:
    """Why the run stopped: its lease went to another owner, or the database stopped
    answering for as long as the lease (the renewer gave up first)."""
    if error and "did not answer" in error:
        return f"stopped: {error.partition(': ')[2]}"
    return "lease lost to another owner; stopped"
