"""Import-job repository: submit, claim, lease, fence, finish, cancel, retry (SQL in jobs.sql).

A job's row cursor is ``success_rows + failed_rows``. Only the lease owner of a ``running``
job may move it, and every statement that does is fenced on (id, lease owner, status); a
statement that matches no row means the lease was lost.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from importer.database import Connection, queries
from importer.errors import LeaseLost, Missing, NotFoundError, StateError, bounded_error
from importer.identity import owner_is_gone
from importer.states import JobStatus, Liveness

NOTIFY_CHANNEL = "importer_jobs"


@dataclass(frozen=True)
class Job:
    id: int
    status: JobStatus
    form: str
    form_version: int
    file: str  # sha256 of the stored workbook
    file_name: str
    sheet: str | None
    engine: str
    header: list[str] | None
    column_map: dict[str, str]  # --map / --ignore of the submit ("" = the column is skipped)
    total_rows: int | None
    success_rows: int
    failed_rows: int
    header_row: int | None  # the header's Excel row, once a batch is committed
    last_row: int | None  # the Excel row of the last committed row
    attempts: int
    max_attempts: int
    lease_owner: str | None
    lease_expires_at: datetime | None
    heartbeat_at: datetime | None
    cancel_requested: bool
    last_error: str | None
    idempotency_key: str | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    available_at: datetime | None
    # Retention removed its rejected rows and errors (and its workbook, unless a job that
    # may still need the file shares it): it can no longer be retried or exported.
    purged_at: datetime | None = None
    # Forms with a key: what the good rows did to the stored data (None: no key, or unknown).
    inserted_rows: int | None = None
    updated_rows: int | None = None
    unchanged_rows: int | None = None
    # Where the sheet's header is (migration 0011): {"row", "rows", "above"}; None: row 1.
    sheet_layout: dict[str, Any] | None = None
    # Several sheets submitted together (migration 0012): the group's id, shown g<id>.
    group_id: int | None = None
    # Migration 0013: the reject threshold as written ("50", "2%"), where the job's end is
    # announced ({"url", "secret_env", "events"}), and when `undo` took its rows back.
    max_rejected: str | None = None
    notify: dict[str, Any] | None = None
    reverted_at: datetime | None = None
    history_purged_at: datetime | None = None  # retention removed what its undo restores
    # Migration 0016: the rows with values its import does not read as data, rule by rule
    # (excel/row_filter.py NotReadRows); None: not counted yet.
    rows_not_read: list[dict[str, Any]] | None = None
    # Migration 0017: who submitted it: an account's email (``submitted_by_user`` its id), or
    # the operating system's user of a command line (``submitted_by_user`` None).
    submitted_by: str | None = None
    submitted_by_user: int | None = None
    # Migration 0018: a correction's origin (the job whose rejected rows it carries) and how
    # its rows are read; on an origin, how many of its rejected rows corrections imported.
    origin_job_id: int | None = None
    correction: dict[str, Any] | None = None
    fixed_rows: int = 0

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Job:
        values = {name: row[name] for name in cls.__dataclass_fields__}
        values["status"] = JobStatus(values["status"])
        return cls(**values)

    @property
    def cursor(self) -> int:
        """Rows already processed and committed: a run continues after them."""
        return self.success_rows + self.failed_rows

    @property
    def taken_back(self) -> bool:
        """Failed over its reject limit, its rows taken back: none of them is kept."""
        return self.status is JobStatus.FAILED and self.reverted_at is not None

    @property
    def kept_rows(self) -> int:
        """The good rows that stay imported (``success_rows`` also counts the good rows of
        a run taken back over its reject limit: the cursor runs over them)."""
        return 0 if self.taken_back else self.success_rows

    @property
    def still_open(self) -> int:
        """Of an import's rejected rows, those no correction has imported (a correction's own
        rejected rows are its origin's, counted there)."""
        return max(self.failed_rows - self.fixed_rows, 0)

    @property
    def terminal(self) -> bool:
        return self.status.terminal

    @property
    def keyed_counts(self) -> tuple[int, int, int] | None:
        """(inserted, updated, unchanged) for a form with a key; None otherwise."""
        if self.inserted_rows is None or self.updated_rows is None or self.unchanged_rows is None:
            return None
        return self.inserted_rows, self.updated_rows, self.unchanged_rows

    def to_json(self) -> dict[str, Any]:
        def iso(value: datetime | None) -> str | None:
            return value.isoformat() if value is not None else None

        keyed = self.keyed_counts
        names = ("inserted", "updated", "unchanged")
        counts = {} if keyed is None else dict(zip(names, keyed, strict=True))
        return {
            "id": self.id,
            "status": self.status,
            "form": self.form,
            "form_version": self.form_version,
            "file_name": self.file_name,
            "sha256": self.file,
            "sheet": self.sheet,
            "engine": self.engine,
            "column_map": self.column_map,
            "total_rows": self.total_rows,
            "success_rows": self.success_rows,
            "failed_rows": self.failed_rows,
            **counts,
            "attempts": self.attempts,
            "max_attempts": self.max_attempts,
            "error": self.last_error,
            "cancel_requested": self.cancel_requested,
            "lease_owner": self.lease_owner,
            "lease_expires_at": iso(self.lease_expires_at),
            "heartbeat_at": iso(self.heartbeat_at),
            "created_at": iso(self.created_at),
            "started_at": iso(self.started_at),
            "finished_at": iso(self.finished_at),
            "available_at": iso(self.available_at),
            "purged_at": iso(self.purged_at),
            "reverted_at": iso(self.reverted_at),
            "max_rejected": self.max_rejected,
            "group": f"g{self.group_id}" if self.group_id is not None else None,
            # Rows with values the import did not read as data, and why (never silently).
            "rows_not_read": self.rows_not_read or [],
            "submitted_by": self.submitted_by,
            # A correction names its origin; an import says what became of its rejected rows.
            "origin": self.origin_job_id,
            **(
                {"fixed_later": self.fixed_rows, "still_open": self.still_open}
                if self.origin_job_id is None
                else {}
            ),
        }


# --- files and submission ------------------------------------------------------------------


def file_sha256(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def idempotency_key(form: str, sheet: str, sha256: str) -> str:
    # Unit separators cannot occur in a form name or sha256; a sheet name may hold anything
    # else, and it is last but one, so the key is unambiguous.
    return f"{form}\x1f{sheet}\x1f{sha256}"


def store_file(conn: Connection, content: bytes, sha256: str | None = None) -> str:
    """Store the workbook bytes once (keyed by sha256); return the sha256. ``sha256``: the
    content's, where the caller has it (hashing 60 MB takes ~0.1 s: once is enough).

    The bytes travel with COPY in chunks, not as one statement parameter: libpq copied a
    parameter whole into its buffer, so a 55 MB workbook cost 70 MB more at this moment (its
    peak, for a streamed import). The caller's transaction holds the file's key until it
    commits, so a second submit of the same new file waits, then finds it stored."""
    sha256 = sha256 or file_sha256(content)
    q = queries()
    conn.execute(q.lock_import_file_key, {"sha256": sha256})
    stored = conn.execute(q.lock_import_file, {"sha256": sha256}).fetchone()
    if stored is None:
        key, size, view = sha256.encode(), len(content), memoryview(content)
        with conn.cursor().copy(q.copy_import_file) as copy:
            copy.write(_COPY_SIGNATURE)
            copy.write(struct.pack("!hi", 3, len(key)) + key + struct.pack("!iqi", 8, size, size))
            for start in range(0, size, _COPY_CHUNK):
                copy.write(view[start : start + _COPY_CHUNK])
            copy.write(struct.pack("!h", -1))
    elif stored["purged_at"] is not None:  # rare: the same bytes after retention purged them
        conn.execute(q.restore_import_file, {"sha256": sha256, "content": content})
    return sha256


_COPY_CHUNK = 128 << 10  # psycopg sends a buffer up to this size without copying it
# COPY BINARY: signature, flags, header extension length.
_COPY_SIGNATURE = b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0)


def file_content(conn: Connection, sha256: str) -> bytes:
    # Binary: the bytes as they are, not as hex text to encode and decode (0.08 s per 11 MB).
    row = conn.execute(queries().import_file_content, {"sha256": sha256}, binary=True).fetchone()
    if row is None:
        raise NotFoundError(
            f"no stored workbook with sha256 {sha256}", what=Missing.WORKBOOK, key=sha256
        )
    if row["purged_at"] is not None:
        raise StateError(
            f"the stored workbook {sha256[:12]}… was purged on {row['purged_at']:%Y-%m-%d}"
            " (retention); submit the file again"
        )
    return bytes(row["content"])


def find_job_by_key(conn: Connection, key: str) -> Job | None:
    row = conn.execute(queries().job_by_idempotency_key, {"key": key}).fetchone()
    return Job.from_row(row) if row else None


@dataclass(frozen=True)
class NewJob:
    form: str
    form_version: int
    file: str
    file_name: str
    sheet: str
    engine: str
    header: list[str]
    total_rows: int | None
    max_attempts: int
    column_map: dict[str, str] = field(default_factory=dict)
    keyed: bool = False  # the form has a key: its rows are inserted, updated or unchanged
    sheet_layout: dict[str, Any] | None = None  # the header below row 1 (Job.sheet_layout)
    group_id: int | None = None  # one of several sheets submitted together
    max_rejected: str | None = None  # "50" or "2%" (forms/operations.py RejectLimit)
    notify: dict[str, Any] | None = None  # where its end is announced; None: nowhere
    rows_not_read: list[dict[str, Any]] | None = None  # counted with total_rows
    submitted_by: str | None = None  # an account's email, or the OS user of a command line
    submitted_by_user: int | None = None  # the account (None: a command line)
    # A correction (migration 0018): its origin, and how its rows are read (Job.correction).
    origin_job_id: int | None = None
    correction: dict[str, Any] | None = None

    @property
    def key(self) -> str:
        plain = idempotency_key(self.form, self.sheet, self.file)
        # The same file as a correction and as a new import (--as-new) are two submissions.
        return plain if self.origin_job_id is None else f"{plain}\x1fcorrects {self.origin_job_id}"


def create_job(
    conn: Connection, new: NewJob, *, force: bool = False, waiting: bool = False
) -> tuple[Job, bool]:
    """Create the job unless one with the same (form, sheet, sha256) exists.

    Returns (job, created). Without ``force`` an existing job is returned as is (created is
    False). With ``force`` a new job is created and takes the key over. ``waiting``: the job
    waits on a timer (available_at NULL) until the timer makes it available.
    """
    q = queries()
    with conn.transaction():
        if force:
            conn.execute(q.release_idempotency_key, {"key": new.key})
        else:
            existing = find_job_by_key(conn, new.key)
            if existing is not None:
                return existing, False
        params = {
            "form": new.form,
            "form_version": new.form_version,
            "file": new.file,
            "file_name": new.file_name,
            "sheet": new.sheet,
            "engine": new.engine,
            "header": Jsonb(new.header),
            "total_rows": new.total_rows,
            "max_attempts": new.max_attempts,
            "key": new.key,
            "waiting": waiting,
            "column_map": Jsonb(new.column_map),
            "keyed": new.keyed,
            "sheet_layout": Jsonb(new.sheet_layout) if new.sheet_layout is not None else None,
            "group_id": new.group_id,
            "max_rejected": new.max_rejected,
            "notify": Jsonb(new.notify) if new.notify is not None else None,
            "rows_not_read": Jsonb(new.rows_not_read) if new.rows_not_read is not None else None,
            "submitted_by": new.submitted_by,
            "submitted_by_user": new.submitted_by_user,
        }
        row = conn.execute(q.insert_import_job, params).fetchone()
        if row is None:  # a concurrent submit of the same file won
            existing = find_job_by_key(conn, new.key)
            if existing is None:
                raise StateError("the same file was submitted concurrently; try again")
            return existing, False
        return Job.from_row(row), True


def notify(conn: Connection, job_id: int) -> None:
    """Wake workers (delivered when the caller's transaction commits)."""
    conn.execute(queries().notify_import_job, {"id": job_id})


# --- claim, lease, finish ------------------------------------------------------------------


def claim_jobs(
    conn: Connection,
    *,
    owner: str,
    limit: int,
    lease_seconds: float,
    job_ids: Sequence[int] | None = None,
) -> list[Job]:
    """Lease up to ``limit`` claimable jobs (oldest first) to ``owner``.

    First, running jobs whose lease expired on their last attempt become failed; then one
    statement (FOR UPDATE SKIP LOCKED) claims pending jobs that are available and running
    jobs whose lease expired. Commit before working on them.
    """
    q = queries()
    ids = list(job_ids) if job_ids is not None else None
    with conn.transaction():
        conn.execute(q.fail_exhausted_import_jobs, {"job_ids": ids})
        rows = conn.execute(
            q.claim_import_jobs,
            {"owner": owner, "limit": limit, "lease_seconds": lease_seconds, "job_ids": ids},
        ).fetchall()
    jobs = [Job.from_row(row) for row in rows]
    jobs.sort(key=lambda j: (j.created_at, j.id))
    return jobs


def renew_lease(conn: Connection, job_id: int, owner: str, lease_seconds: float) -> bool:
    """Extend the lease; False: it was lost (stop and write nothing more)."""
    row = conn.execute(
        queries().renew_import_lease,
        {"id": job_id, "owner": owner, "lease_seconds": lease_seconds},
    ).fetchone()
    return row is not None


def release_job(conn: Connection, job_id: int, owner: str) -> bool:
    """Graceful stop: back to pending (cancelled if that was requested), progress kept.

    False when the lease was already lost (nothing to release).
    """
    row = conn.execute(queries().release_import_job, {"id": job_id, "owner": owner}).fetchone()
    return row is not None


def fail_attempt(
    conn: Connection,
    job_id: int,
    owner: str,
    error: str,
    *,
    retry_delay_seconds: float,
    timer_max_attempts: int,
    permanent: bool = False,
) -> Job:
    """The attempt failed: pending again, waiting on an import_retry timer due after the retry
    delay (`importer timers` fires it), or failed when attempts are used up or the failure is
    ``permanent``. LeaseLost if the job is no longer ours."""
    row = conn.execute(
        queries().fail_import_attempt,
        {
            "id": job_id,
            "owner": owner,
            "error": bounded_error(error),
            "retry_delay_seconds": retry_delay_seconds,
            "timer_max_attempts": timer_max_attempts,
            "permanent": permanent,
        },
    ).fetchone()
    if row is None:
        raise LeaseLost(f"import job {job_id} is no longer leased to this process", job_id=job_id)
    return Job.from_row(row)


def retry_due_at(conn: Connection, job_id: int) -> datetime | None:
    """When the job's pending import_retry timer is due (None: no retry is waiting)."""
    row = conn.execute(queries().import_retry_due_at, {"id": job_id}).fetchone()
    return row["due_at"] if row else None


def finish(conn: Connection, job_id: int, owner: str, *, cancelled: bool = False) -> Job:
    """End a run: succeeded / partially_succeeded (or cancelled); the lease is cleared."""
    row = conn.execute(
        queries().finish_import_job, {"id": job_id, "owner": owner, "cancelled": cancelled}
    ).fetchone()
    if row is None:
        raise LeaseLost(f"import job {job_id} is no longer leased to this process", job_id=job_id)
    return Job.from_row(row)


def expire_dead_owner(conn: Connection, job: Job) -> bool:
    """Void the lease of a running job whose owner is a process on this host that is gone."""
    if (
        job.status is not JobStatus.RUNNING
        or not job.lease_owner
        or not owner_is_gone(job.lease_owner)
    ):
        return False
    row = conn.execute(
        queries().expire_dead_owner_lease, {"id": job.id, "owner": job.lease_owner}
    ).fetchone()
    return row is not None


def make_available_now(conn: Connection, job_id: int) -> bool:
    """A pending job waiting for a retry delay or a timer becomes claimable now."""
    row = conn.execute(queries().make_import_job_available_now, {"id": job_id}).fetchone()
    return row is not None


def make_available_by_timer(conn: Connection, job_id: int) -> bool:
    """A timer's effect (in its firing transaction): the waiting job becomes claimable now.
    False: the job is gone, cancelled or no longer pending."""
    row = conn.execute(queries().make_import_job_available, {"job_id": job_id}).fetchone()
    return row is not None


def make_many_available_by_timer(conn: Connection, job_ids: set[int]) -> set[int]:
    """The same for a run of timers in one statement; returns the jobs made available."""
    rows = conn.execute(
        queries().make_import_jobs_available, {"job_ids": sorted(job_ids)}
    ).fetchall()
    return {int(row["id"]) for row in rows}


# --- reading -------------------------------------------------------------------------------


def get_job(conn: Connection, job_id: int) -> Job:
    row = conn.execute(queries().get_import_job, {"id": job_id}).fetchone()
    if row is None:
        raise NotFoundError(f"no import job with id {job_id}", what=Missing.JOB, key=job_id)
    return Job.from_row(row)


def list_jobs(
    conn: Connection, *, statuses: Sequence[JobStatus] | None = None, limit: int = 100
) -> list[Job]:
    """The newest ``limit`` jobs (optionally of some statuses), oldest first."""
    rows = conn.execute(
        queries().list_import_jobs,
        {"statuses": list(statuses) if statuses else None, "limit": limit},
    ).fetchall()
    return [Job.from_row(row) for row in rows]


def failed_jobs(
    conn: Connection, *, form: str | None = None, within_seconds: float | None = None
) -> list[Job]:
    """Failed jobs (of one form; that failed in the last ``within_seconds``), oldest first."""
    rows = conn.execute(
        queries().failed_import_jobs, {"form": form, "within": within_seconds}
    ).fetchall()
    return [Job.from_row(row) for row in rows]


def resumable_jobs(conn: Connection) -> list[Job]:
    """Jobs `resume --all` takes: pending ones, and running ones nobody is writing."""
    jobs = [Job.from_row(row) for row in conn.execute(queries().resumable_import_jobs)]
    now = db_now(conn)
    return [
        job
        for job in jobs
        if job.status is JobStatus.PENDING
        or (job.lease_expires_at is not None and job.lease_expires_at < now)
        or owner_is_gone(job.lease_owner)
    ]


# A running job's heartbeat older than this: its owner may be gone (batches and the lease
# renewer beat far more often than this).
SILENT_AFTER_SECONDS = 60.0


def liveness(job: Job, now: datetime) -> Liveness:
    """How a running job's owner is doing, by the database's clock ``now`` (a job that is
    not running is LIVE: nothing is waiting on an owner)."""
    if job.status is not JobStatus.RUNNING:
        return Liveness.LIVE
    if owner_is_gone(job.lease_owner):
        return Liveness.GONE
    if job.lease_expires_at is not None and job.lease_expires_at <= now:
        return Liveness.EXPIRED
    beat = job.heartbeat_at or job.started_at
    if beat is not None and (now - beat).total_seconds() > SILENT_AFTER_SECONDS:
        return Liveness.SILENT
    return Liveness.LIVE


def db_now(conn: Connection) -> datetime:
    """The database's clock: leases and due times are compared with it, never ours."""
    row = conn.execute(queries().database_now).fetchone()
    assert row is not None
    now: datetime = row["now"]
    return now


# --- user actions --------------------------------------------------------------------------


def cancel(conn: Connection, job_id: int) -> Job:
    """Cancel: a pending job (or one nobody is writing) at once; a running one is asked to
    stop at its next batch boundary. Finished jobs are refused (StateError)."""
    q = queries()
    for _ in range(5):  # the job may change state under us; re-read and decide again
        job = get_job(conn, job_id)
        if job.terminal:
            raise StateError(f"import job {job_id} is already {job.status}; nothing to cancel")
        lease_void = job.lease_expires_at is None or job.lease_expires_at < db_now(conn)
        if job.status is JobStatus.PENDING or lease_void or owner_is_gone(job.lease_owner):
            row = conn.execute(
                q.cancel_import_job_now,
                {"id": job_id, "status": job.status, "owner": job.lease_owner},
            ).fetchone()
        else:
            row = conn.execute(
                q.request_import_cancel, {"id": job_id, "owner": job.lease_owner}
            ).fetchone()
        if row is not None:
            return Job.from_row(row)
    raise StateError(f"import job {job_id} keeps changing state; try again")


def retry(conn: Connection, job_id: int) -> Job:
    """Put a failed job back to pending with its attempts reset (progress kept)."""
    row = conn.execute(queries().retry_import_job, {"id": job_id}).fetchone()
    if row is None:
        job = get_job(conn, job_id)
        if job.status is JobStatus.FAILED and job.purged_at is not None:
            raise StateError(purged_message(job, "retried"))
        raise StateError(f"import job {job_id} is {job.status}; only a failed job can be retried")
    return Job.from_row(row)


def purged_message(job: Job, what: str) -> str:
    when = f"{job.purged_at:%Y-%m-%d}" if job.purged_at else "?"
    return (
        f"import job {job.id} was purged on {when} by retention (its rejected rows and row"
        f" errors are gone, and its stored workbook unless another job still needs it);"
        f" it can no longer be {what}: submit the file again with --force (force=True in"
        " Python), since without it the submit returns this same purged job"
    )


def new_group_id(conn: Connection) -> int:
    row = conn.execute(queries().next_group_id).fetchone()
    assert row is not None
    return int(row["id"])


def group_job_ids(conn: Connection, group_id: int) -> list[int]:
    """The group's jobs in the order they run; NotFoundError when there are none."""
    rows = conn.execute(queries().group_job_ids, {"group_id": group_id}).fetchall()
    if not rows:
        raise NotFoundError(f"no group g{group_id}", what=Missing.GROUP, key=f"g{group_id}")
    return [int(r["id"]) for r in rows]


def join_group(conn: Connection, job_ids: list[int], group_id: int) -> None:
    conn.execute(queries().join_group, {"ids": job_ids, "group_id": group_id})
