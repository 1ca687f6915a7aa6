"""Retention: remove what finished jobs no longer need (SQL in sql/queries/retention.sql).

For jobs finished longer ago than the cut: their rejected rows and row errors, and each
stored workbook that no job which can still run, or finished within the cut, shares. Also
finished timers older than the cut. Never a form's rows (its table, forms.<name> or the
user's own), never a job's row or counters, never anything of a job that can still run. A
purged job is marked (``purged_at``): it can no longer be retried or have its rejected rows
exported.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, LiteralString

from psycopg.types.json import Jsonb

from importer.database import Connection, queries

RETENTION_KIND = "retention"


@dataclass(frozen=True)
class PurgeReport:
    older_than_seconds: float
    dry_run: bool
    jobs: list[int] = field(default_factory=list)  # the finished jobs purged (or to be)
    workbooks: int = 0
    workbook_bytes: int = 0
    rejected_rows: int = 0
    row_errors: int = 0
    timers: int = 0
    # The history of keyed forms (its own cut, when given): versions removed, and the jobs
    # whose versions they were, which can no longer be undone.
    history_older_than_seconds: float | None = None
    history_jobs: int = 0
    history_rows: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _count(conn: Connection, query: LiteralString, params: dict[str, Any]) -> int:
    row = conn.execute(query, params).fetchone()
    assert row is not None  # an aggregate always yields a row
    return int(row["n"])


def purge_all_history(
    conn: Connection, older_than_seconds: float, *, dry_run: bool = False
) -> tuple[int, int]:
    """The history of every keyed form replaced by jobs that ended before the cut
    (history.purge_history); (jobs, versions)."""
    from importer.repositories.forms import current_forms
    from importer.repositories.history import purge_history

    jobs = rows = 0
    for form, _ in current_forms(conn):
        found = purge_history(conn, form, older_than_seconds, dry_run=dry_run)
        jobs, rows = jobs + found[0], rows + found[1]
    return jobs, rows


# Jobs (and finished timers) a purge removes in one transaction: a purge of a million jobs
# holds their locks, and keeps a `retry` of one of them waiting, for one batch at a time
# (docs/SCALE.md: the longest claim while 1,000,000 jobs were purged).
PURGE_BATCH = 1_000


def purge(
    conn: Connection,
    older_than_seconds: float,
    *,
    dry_run: bool = False,
    batch: int = PURGE_BATCH,
) -> PurgeReport:
    """Purge (or, with dry_run, only count) what is older than the cut, ``batch`` jobs at a
    time, each batch in a transaction of its own (a savepoint inside the caller's, as in a
    timer's firing). What a batch committed stays purged if a later one fails: purging
    again goes on from there."""
    q = queries()
    cut = {"older_than": older_than_seconds, "dry_run": dry_run}
    job_ids: list[int] = []
    workbooks = workbook_bytes = rejected = errors = 0
    seen_files: set[str] = set()
    after = 0
    while True:
        with conn.transaction():
            rows = conn.execute(
                q.purge_candidate_jobs, {**cut, "after": after, "limit": batch}
            ).fetchall()
            if not rows:
                break
            after = int(rows[-1]["id"])
            if not dry_run:
                rows = conn.execute(
                    q.lock_purge_candidate_jobs, {"job_ids": [r["id"] for r in rows]}
                ).fetchall()
            ids = [int(r["id"]) for r in rows]
            # A workbook shared by jobs of several batches is counted (and freed) once.
            files = sorted({str(r["file"]) for r in rows} - seen_files)
            seen_files.update(files)
            if not dry_run and files:
                conn.execute(q.lock_purge_files, {"files": files})
            freed = conn.execute(q.purge_files, {**cut, "files": files}).fetchone()
            assert freed is not None
            by_job = {**cut, "job_ids": ids}
            rejected += _count(conn, q.purge_rejected_rows, by_job)
            errors += _count(conn, q.purge_row_errors, by_job)
            if not dry_run and ids:
                conn.execute(q.mark_jobs_purged, {"job_ids": ids})
        job_ids += ids
        workbooks += int(freed["files"])
        workbook_bytes += int(freed["bytes"])
    timers = 0
    while True:
        with conn.transaction():
            gone = _count(conn, q.purge_timers, {**cut, "limit": None if dry_run else batch})
        timers += gone
        if dry_run or gone < batch:
            break
    return PurgeReport(
        older_than_seconds=older_than_seconds,
        dry_run=dry_run,
        jobs=job_ids,
        workbooks=workbooks,
        workbook_bytes=workbook_bytes,
        rejected_rows=rejected,
        row_errors=errors,
        timers=timers,
    )


def keep_retention_timer(
    conn: Connection,
    older_than_seconds: float,
    max_attempts: int,
    *,
    history_older_than_seconds: float = 0.0,
) -> None:
    """With retention on (either cut > 0), make sure today (UTC) has its retention timer
    (due at once when it is new); with it off, cancel a waiting one."""
    if older_than_seconds > 0 or history_older_than_seconds > 0:
        payload: dict[str, float] = {}
        if older_than_seconds > 0:
            payload["older_than_seconds"] = older_than_seconds
        if history_older_than_seconds > 0:
            payload["history_older_than_seconds"] = history_older_than_seconds
        conn.execute(
            queries().ensure_retention_timer,
            {"payload": Jsonb(payload), "max_attempts": max_attempts},
        )
    else:
        conn.execute(queries().cancel_retention_timer)
