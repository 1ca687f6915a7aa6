"""Every state the tool stores or reports, as StrEnum: a typo is a type error, and each
member still equals (and is stored as) its lowercase string."""

from __future__ import annotations

from enum import StrEnum


class JobStatus(StrEnum):
    """An import job's status (import_jobs.status)."""

    PENDING = "pending"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    PARTIALLY_SUCCEEDED = "partially_succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"
    REVERTED = "reverted"  # `importer undo` took its rows back (an end, like the others)

    @property
    def terminal(self) -> bool:
        return self in TERMINAL_JOB_STATUSES


TERMINAL_JOB_STATUSES = frozenset(
    {
        JobStatus.SUCCEEDED,
        JobStatus.PARTIALLY_SUCCEEDED,
        JobStatus.FAILED,
        JobStatus.CANCELLED,
        JobStatus.REVERTED,
    }
)


class TimerStatus(StrEnum):
    """A timer's status (timer_jobs.status)."""

    PENDING = "pending"
    PROCESSING = "processing"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


LIVE_TIMER_STATUSES = frozenset({TimerStatus.PENDING, TimerStatus.PROCESSING})


class RunOutcome(StrEnum):
    """How one run of a job ended (running.job_run.run_job)."""

    FINISHED = "finished"  # the job succeeded or partially succeeded (see its status)
    CANCELLED = "cancelled"  # cancel was requested; stopped at a batch boundary
    STOPPED = "stopped"  # the stop event was set: released back to pending, progress kept
    LEASE_LOST = "lease_lost"  # another owner has the job; this run wrote nothing more
    ATTEMPT_FAILED = "attempt_failed"  # pending again (retry later) or failed (see status)
    ERROR = "error"  # the failure could not even be recorded (database gone)


class ProgressPhase(StrEnum):
    """What a job's progress event reports."""

    OPENING = "opening"
    COUNTING = "counting"  # counting the sheet's rows (before the first is imported)
    SKIPPING = "skipping"  # passing over rows an earlier run committed
    IMPORTING = "importing"
    DONE = "done"
    CANCELLED = "cancelled"
    STOPPED = "stopped"
    LEASE_LOST = "lease_lost"
    ATTEMPT_FAILED = "attempt_failed"
    WAITING = "waiting"
    # Something about the job only the operator can fix (a lookup table's duplicates): the
    # message says what. Not a step of the run: a log or a warning line, never the view.
    WARNING = "warning"


class ProcessKind(StrEnum):
    """What a process registered in `workers` is."""

    WORKER = "worker"
    TIMERS = "timers"
    FOREGROUND = "submit"  # `submit` or `resume` running jobs itself


class Liveness(StrEnum):
    """Whether the process that holds a running job's lease is still at work on it."""

    LIVE = "live"
    GONE = "gone"  # proven gone: its process no longer runs on this host
    EXPIRED = "expired"  # its lease ran out: any `resume` or worker may take the job over
    SILENT = "silent"  # no heartbeat for a while: it may be gone (another host, a pause)


class Role(StrEnum):
    """What an account may do on the web page and the JSON API (users.role)."""

    SENDER = "sender"  # submits workbooks; sees its own jobs, of the forms granted to it
    OPERATOR = "operator"  # sees and acts on every job of its forms
    ADMIN = "admin"  # every form and job


class RunMode(StrEnum):
    """Where a submitted job runs."""

    HERE = "here"  # imported in this process, now (a foreground submit)
    QUEUED = "queued"  # left to `importer worker` processes (--detach)
    SCHEDULED = "scheduled"  # made available by `importer timers` at its time (--at, --in)
