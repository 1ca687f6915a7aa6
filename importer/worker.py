"""The worker loop behind `importer worker`: claim import jobs, run them, keep their leases.

The main thread claims (at most ``batch_size`` per scan, never more than ``concurrency``
running), renews the lease of every job it holds well before expiry, and sleeps until a
NOTIFY on ``importer_jobs``, a job finishing, or the poll interval. Each job runs in its own
thread with its own connection (pipeline.run_job). Everything coordinates through the
database, so any number of workers on any number of hosts share one queue.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import psycopg

from importer import fleet, jobs
from importer.config import ImportSettings
from importer.db import Connection, connect, translate
from importer.errors import DatabaseError
from importer.identity import new_owner
from importer.process_loop import (
    Backoff,
    ProcessConnection,
    Wakeup,
    graceful_signals,
    interruptible_sleep,
)
from importer.timers import describe_error

if TYPE_CHECKING:
    from importer.pipeline import JobOutcome

# How long a graceful stop waits for running jobs to finish their current batch.
SHUTDOWN_GRACE_SECONDS = 60.0
# The loop's lease renewal must not queue behind a batch transaction holding the job row
# (that transaction extends the lease itself when it commits).
RENEW_LOCK_TIMEOUT_MS = 200


@dataclass(frozen=True)
class WorkerEvent:
    """kind: started | claimed | finished | lease_lost | crashed | released |
    database_lost | database_back | stopping | stopped."""

    kind: str
    message: str
    job_id: int | None = None
    outcome: JobOutcome | None = None


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
    thread: threading.Thread | None = None
    lease_lost: bool = False
    outcome: JobOutcome | None = None
    error: BaseException | None = None


class Worker:
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
        self.once = once
        self.owner = owner or new_owner()
        self.stop = stop or threading.Event()
        self.on_event = on_event or (lambda event: None)
        self.shutdown_grace_seconds = shutdown_grace_seconds
        self.summary = WorkerSummary()
        self._running: dict[int, _Running] = {}
        self._wakeup = Wakeup(url, [jobs.NOTIFY_CHANNEL])
        self._db = ProcessConnection(
            url, self.owner, "worker", setup=_set_lock_timeout, on_back=self._on_back
        )
        # Renew well before expiry; the same beat refreshes our row in `workers`.
        self._renew_every = min(settings.lease_seconds / 4, fleet.HEARTBEAT_SECONDS)
        self._next_renewal = 0.0

    # --- the loop --------------------------------------------------------------------------

    def run(self) -> WorkerSummary:
        def on_signal(signum: int) -> None:
            del signum
            self._wakeup.wake()

        try:
            with graceful_signals(self.stop, on_signal):
                self.on_event(
                    WorkerEvent("started", f"worker {self.owner} (concurrency {self.concurrency})")
                )
                interruptible_sleep(self.settings.startup_delay_seconds, self.stop, self._wakeup)
                self._loop()
                self._shut_down()
        finally:
            self._close()
        self.on_event(WorkerEvent("stopped", "worker stopped"))
        return self.summary

    def _loop(self) -> None:
        backoff = Backoff()
        while not self.stop.is_set():
            self._reap()
            try:
                more, sleep_for = self._step()
            except (DatabaseError, psycopg.Error) as exc:
                error = exc if isinstance(exc, DatabaseError) else translate(exc, self.url)
                self._db.drop()
                if self.once and not self._running:
                    raise error from exc
                delay = backoff.next_delay()
                self._db.lost = True
                self.on_event(WorkerEvent("database_lost", f"{error}; retrying in {delay:g}s"))
                interruptible_sleep(delay, self.stop, self._wakeup)
                continue
            backoff.reset()
            if more:
                continue
            if self.once and not self._running:
                return
            self._wakeup.wait(sleep_for)

    def _step(self) -> tuple[bool, float]:
        """Renew if due, claim into free slots: (claim again at once, else seconds to sleep)."""
        conn = self._db.get()
        if time.monotonic() >= self._next_renewal:
            self._renew(conn)
        free = self.concurrency - len(self._running)
        if free > 0:
            limit = min(free, self.settings.batch_size)
            claimed = jobs.claim_jobs(
                conn, owner=self.owner, limit=limit, lease_seconds=self.settings.lease_seconds
            )
            for job in claimed:
                self._start(job)
            if len(claimed) == limit and len(self._running) < self.concurrency:
                return True, 0.0
        sleep_for = min(
            self.settings.poll_interval_seconds,
            max(0.0, self._next_renewal - time.monotonic()),
        )
        return False, sleep_for

    def _renew(self, conn: Connection) -> None:
        self._next_renewal = time.monotonic() + self._renew_every
        fleet.heartbeat_process(conn, self.owner, "worker")
        for running in list(self._running.values()):
            if running.lease_lost or not running.thread or not running.thread.is_alive():
                continue
            try:
                held = jobs.renew_lease(
                    conn, running.job.id, self.owner, self.settings.lease_seconds
                )
            except DatabaseError as exc:
                if isinstance(exc.__cause__, psycopg.errors.LockNotAvailable):
                    continue  # a batch is committing; it extends the lease itself
                raise
            if not held:
                # Stop at once; the pipeline's own fence keeps it from writing anything more.
                running.lease_lost = True
                running.stop.set()

    # --- jobs ------------------------------------------------------------------------------

    def _start(self, job: jobs.Job) -> None:
        self.summary.claimed += 1
        if job.id in self._running:
            # Our own lease ran out and we re-claimed it: the thread still running it keeps
            # going under the fresh lease (two threads must never run one job).
            return
        running = _Running(job, threading.Event())
        running.thread = threading.Thread(
            target=self._run_job, args=(running,), name=f"job-{job.id}", daemon=True
        )
        self._running[job.id] = running
        at = f" at row {job.cursor}" if job.cursor else ""
        self.on_event(
            WorkerEvent(
                "claimed", f"job {job.id}: {job.file_name} (attempt {job.attempts}){at}", job.id
            )
        )
        running.thread.start()

    def _run_job(self, running: _Running) -> None:
        from importer.pipeline import run_job  # late: readers and validation are heavy imports

        job = running.job
        try:
            running.outcome = run_job(self.url, job, self.owner, self.settings, stop=running.stop)
            if running.outcome.result == "stopped":
                self.summary.released += 1
            elif self.stop.is_set() and not running.lease_lost:
                self._release(running)  # fenced: a no-op unless it is still ours and running
        except BaseException as exc:  # never let one job take the worker down
            running.error = exc
            self._record_crash(job, exc)
        finally:
            self._wakeup.wake()

    def _record_crash(self, job: jobs.Job, exc: BaseException) -> None:
        with contextlib.suppress(Exception), connect(self.url, autocommit=True) as conn:
            jobs.fail_attempt(
                conn, job.id, self.owner, describe_error(exc), self.settings.retry_delay_seconds
            )

    def _release(self, running: _Running) -> None:
        """Graceful stop: the job goes back to pending with its progress (no-op if it ended)."""
        with contextlib.suppress(Exception), connect(self.url, autocommit=True) as conn:
            if jobs.release_job(conn, running.job.id, self.owner):
                self.summary.released += 1

    def _reap(self) -> None:
        for job_id, running in list(self._running.items()):
            if running.thread is not None and running.thread.is_alive():
                continue
            del self._running[job_id]
            if running.error is not None:
                self.summary.crashed += 1
                self.on_event(
                    WorkerEvent("crashed", f"job {job_id}: {describe_error(running.error)}", job_id)
                )
                continue
            self.summary.finished += 1
            outcome = running.outcome
            if outcome is not None:
                self.summary.outcomes[job_id] = outcome
            if running.lease_lost or (outcome is not None and outcome.result == "lease_lost"):
                self.summary.lease_lost += 1
            self.on_event(
                WorkerEvent("finished", _describe_outcome(job_id, outcome), job_id, outcome)
            )

    def _shut_down(self) -> None:
        if self._running:
            self.on_event(
                WorkerEvent(
                    "stopping",
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
        self.on_event(WorkerEvent("database_back", "database reachable again"))

    def _close(self) -> None:
        self._db.close()
        self._wakeup.close()


def _describe_outcome(job_id: int, outcome: JobOutcome | None) -> str:
    if outcome is None:
        return f"job {job_id}: done"
    rate = f" ({outcome.run_rows:,} rows in {outcome.run_seconds:.1f}s)" if outcome.run_rows else ""
    what = {
        "finished": outcome.status or "finished",
        "cancelled": "cancelled",
        "stopped": "back to pending, progress kept",
        "lease_lost": "lease lost to another owner; stopped",
        "attempt_failed": f"attempt failed ({outcome.status}): {outcome.error}",
        "error": f"could not record the failure: {outcome.error}",
    }.get(outcome.result, outcome.result)
    return f"job {job_id}: {what}{rate}"


def _set_lock_timeout(conn: Connection) -> None:
    # Lease renewals must not queue behind a batch holding the job's row lock.
    conn.execute("SELECT set_config('lock_timeout', %s, false)", (f"{RENEW_LOCK_TIMEOUT_MS}ms",))
