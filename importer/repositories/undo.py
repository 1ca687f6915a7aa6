"""Taking jobs back: the rows they inserted removed, the rows they overwrote given back the
values they had (from the form's history, repositories/history.py), in one transaction.

A job is undone with the later jobs that overwrote its rows, or not at all: a key's
versions form a chain, and bringing back an earlier link while a later job's version is
current would lose that job's values. So the set to undo is closed over "overwrote rows
of" (``import_job_replacements``); without ``cascade`` a set that would grow is refused,
naming the later jobs. For each key the set holds, the version before the first job of the
set replaced it comes back (with its job, Excel row and written_at); a key a job of the set
inserted is removed. The history the set wrote is forgotten with it, and the jobs become
``reverted`` (their idempotency key released: the same workbook may be imported again).
A keyed job that started before the database kept history (an earlier release's, upgraded)
is refused: what it overwrote was never kept, so its undo could only delete those rows.

Used by ``importer undo`` and, inside a job's own failing transaction, by the reject
threshold (take_back).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from psycopg import sql

from importer.database import Connection, queries
from importer.errors import LeaseLost, Missing, NotFoundError, StateError
from importer.forms.definition import Form
from importer.repositories import corrections
from importer.repositories.form_tables import FormTable, live_table
from importer.repositories.history import history_identifier
from importer.repositories.jobs import Job
from importer.states import JobStatus


class LaterJobsChanged(StateError):
    """Later jobs overwrote rows of the job: undo it with them (``--cascade``) or not."""

    def __init__(self, message: str, *, job_id: int, later: list[int]) -> None:
        super().__init__(message, job_id=job_id)
        self.later = later


@dataclass(frozen=True)
class JobTakenBack:
    job_id: int
    removed: int  # rows it inserted, now gone
    restored: int  # rows it overwrote, back to their previous values

    def to_json(self) -> dict[str, Any]:
        return {"id": self.job_id, "removed": self.removed, "restored": self.restored}


@dataclass(frozen=True)
class UndoReport:
    form: str
    table: str  # schema.name, for messages
    jobs: list[JobTakenBack]  # newest first
    dry_run: bool
    reverted: list[Job] = field(default_factory=list)  # as they are now (empty: dry run)

    @property
    def removed(self) -> int:
        return sum(j.removed for j in self.jobs)

    @property
    def restored(self) -> int:
        return sum(j.restored for j in self.jobs)

    def to_json(self) -> dict[str, Any]:
        return {
            "form": self.form,
            "table": self.table,
            "dry_run": self.dry_run,
            "removed": self.removed,
            "restored": self.restored,
            "jobs": [j.to_json() for j in self.jobs],
        }


_UNDOABLE = frozenset(
    {JobStatus.SUCCEEDED, JobStatus.PARTIALLY_SUCCEEDED, JobStatus.FAILED, JobStatus.CANCELLED}
)


def undo_job(
    conn: Connection, job_id: int, form: Form, *, cascade: bool, dry_run: bool
) -> UndoReport:
    """Undo ``job_id`` (and with ``cascade`` the later jobs that overwrote its rows, newest
    first) in one transaction; ``dry_run``: say what would change and change nothing.

    StateError (nothing changed) for a job that has not ended, was undone already, whose
    history retention removed or that started before history was kept (a keyed form), whose
    table has no column for the job; LaterJobsChanged when later jobs overwrote its rows and
    ``cascade`` is not given."""
    table = live_table(conn, form)
    if table.job_column is None:
        raise StateError(
            f"job {job_id}: its rows cannot be found: form {form.name!r} writes into "
            f"{table.shown}, which has no column for the job; name one in the form with "
            'job_column = "..." (a bigint column) for its later imports to be undone',
            job_id=job_id,
        )
    kept_since = _history_kept_since(conn) if table.key else None
    # A dry run takes the same locks and reads, then rolls back.
    with conn.transaction(force_rollback=dry_run):
        chosen = _closed_set(conn, job_id, form, cascade=cascade, kept_since=kept_since)
        counts = _counts(conn, table, form, chosen)
        taken = [
            JobTakenBack(j, removed=held - restored, restored=restored)
            for j, (held, restored) in sorted(counts.items(), reverse=True)
        ]
        if dry_run:
            return UndoReport(form.name, table.shown, taken, dry_run=True)
        take_back(conn, table, form, chosen)
        reverted = [
            Job.from_row(r)
            for r in conn.execute(queries().mark_reverted, {"jobs": chosen}).fetchall()
        ]
    reverted.sort(key=lambda j: j.id, reverse=True)
    return UndoReport(form.name, table.shown, taken, dry_run=False, reverted=reverted)


def _history_kept_since(conn: Connection) -> datetime | None:
    row = conn.execute(queries().history_kept_since).fetchone()
    return row["applied_at"] if row else None


def _closed_set(
    conn: Connection, job_id: int, form: Form, *, cascade: bool, kept_since: datetime | None
) -> list[int]:
    """The job and, with cascade, every later job that overwrote rows of one in the set;
    each locked, each checked undoable (``kept_since``: a keyed form's history began)."""
    q = queries()
    chosen: list[int] = [job_id]
    while True:
        rows = conn.execute(q.lock_undo_jobs, {"jobs": chosen}).fetchall()
        found = {r["id"]: Job.from_row(r) for r in rows}
        if job_id not in found:
            raise NotFoundError(f"job {job_id} not found", what=Missing.JOB, key=job_id)
        for j in chosen:
            _check_undoable(found[j], form, first=j == job_id, kept_since=kept_since)
        later = conn.execute(q.later_jobs, {"jobs": chosen}).fetchall()
        if not later:
            return chosen
        ids = [int(r["job_id"]) for r in later]
        running = [r for r in later if JobStatus(r["status"]) not in _UNDOABLE]
        if running:
            shown = ", ".join(f"{r['job_id']} ({r['status']})" for r in running)
            raise StateError(
                f"job {job_id}: later jobs that changed its rows have not ended: {shown}; "
                "wait for them or cancel them, then undo",
                job_id=job_id,
            )
        if not cascade:
            raise LaterJobsChanged(
                f"job {job_id}: {_later_jobs(later)}; undo them too, newest first, with"
                f" --cascade (importer undo {job_id} --cascade)",
                job_id=job_id,
                later=sorted(set(ids)),
            )
        chosen = sorted({*chosen, *ids})


def _later_jobs(later: list[dict[str, Any]]) -> str:
    """What the later jobs did: changed the same rows, corrected rejected rows, or both."""
    said = []
    for why, text in (
        ("replaced", "later jobs changed the same rows since"),
        ("corrects", "corrections imported its rejected rows since"),
    ):
        ids = sorted({int(r["job_id"]) for r in later if r["why"] == why})
        if ids:
            said.append(f"{text}: {', '.join(map(str, ids))}")
    return "; ".join(said)


def _check_undoable(job: Job, form: Form, *, first: bool, kept_since: datetime | None) -> None:
    which = f"job {job.id}"
    if job.form != form.name:  # pragma: no cover - replacements stay within one table
        raise StateError(f"{which} is of form {job.form!r}, not {form.name!r}", job_id=job.id)
    if job.status is JobStatus.REVERTED:
        when = job.reverted_at.isoformat(timespec="seconds") if job.reverted_at else "before"
        raise StateError(f"{which} was already undone ({when})", job_id=job.id, status=job.status)
    if job.status not in _UNDOABLE:
        action = "cancel it" if first else "wait for it or cancel it"
        raise StateError(
            f"{which} is {job.status}: {action} (importer cancel {job.id}), then undo it",
            job_id=job.id,
            status=job.status,
        )
    if job.history_purged_at is not None:
        raise StateError(
            f"{which} can no longer be undone: retention removed the values it overwrote "
            f"({job.history_purged_at.date().isoformat()})",
            job_id=job.id,
            status=job.status,
        )
    if kept_since is not None and job.started_at is not None and job.started_at < kept_since:
        raise StateError(
            f"{which} cannot be undone: it ran before this database was upgraded to keep "
            f"the values a keyed import overwrites ({kept_since.date().isoformat()}), so "
            "undoing it would delete the rows it overwrote instead of giving them back",
            job_id=job.id,
            status=job.status,
        )


def _parts(table: FormTable, form: Form) -> dict[str, sql.Composable]:
    ident = sql.Identifier
    assert table.job_column is not None
    parts: dict[str, sql.Composable] = {
        "table": table.identifier,
        "job": ident(table.job_column),
    }
    if table.key:
        q = queries()
        keys = sql.SQL(", ").join(map(ident, table.key))
        history = history_identifier(form.name)
        parts |= {
            "history": history,
            "key_columns": keys,
            "table_key": sql.SQL(", ").join(ident("t", k) for k in table.key),
            "history_key": sql.SQL(", ").join(ident("h", k) for k in table.key),
            "earliest": sql.SQL(q.earliest_versions).format(history=history, key_columns=keys),
        }
    return parts


def _counts(
    conn: Connection, table: FormTable, form: Form, chosen: list[int]
) -> dict[int, tuple[int, int]]:
    """job -> (rows it holds, rows of those that go back to an earlier version)."""
    q = queries()
    parts = _parts(table, form)
    name = q.undo_counts_keyed if table.key else q.undo_counts_append
    rows = conn.execute(sql.SQL(name).format(**parts), {"jobs": chosen}).fetchall()
    counts = {j: (0, 0) for j in chosen}
    counts |= {int(r["job_id"]): (int(r["held"]), int(r["restored"])) for r in rows}
    return counts


def take_back(conn: Connection, table: FormTable, form: Form, chosen: list[int]) -> None:
    """The rows of these jobs removed or restored, their history and replacements forgotten
    (the caller's transaction; the jobs are locked and closed over replacements)."""
    q = queries()
    parts = _parts(table, form)
    params = {"jobs": chosen}
    if table.key:
        # As a keyed batch does before its upsert: the two never interleave (see undo.sql).
        conn.execute(q.lock_form_writes, {"form": form.name})
        conn.execute(sql.SQL(q.lock_job_rows).format(**parts), params)
        ident = sql.Identifier
        own = [c for c in (table.job_column, table.row_column, table.written_column) if c]
        versions = {
            table.job_column: "version_job",
            table.row_column: "version_row",
            table.written_column: "version_written_at",
        }
        values = [c.name for c in table.columns]
        restore = sql.SQL(q.restore_rows).format(
            set_columns=sql.SQL(", ").join(map(ident, [*values, *own])),
            version_columns=sql.SQL(", ").join(
                [*(ident("h", v) for v in values), *(ident("h", versions[c]) for c in own)]
            ),
            **parts,
        )
        conn.execute(restore, params)
    conn.execute(sql.SQL(q.remove_rows).format(**parts), params)
    if table.key:
        conn.execute(sql.SQL(q.forget_versions).format(**parts), params)
    conn.execute(q.forget_replacements, params)
    corrections.forget(conn, chosen)  # the origin rows corrections of the set imported: open


def fail_over_limit(conn: Connection, job_id: int, owner: str, form: Form, reason: str) -> Job:
    """A run that crossed its reject threshold: the job's rows taken back and the job
    failed (not retried) in one transaction; ``reason`` says why and this adds what was
    kept. LeaseLost: the job is no longer this run's (nothing changed)."""
    q = queries()
    with conn.transaction():
        if conn.execute(q.lock_running_job, {"id": job_id, "owner": owner}).fetchone() is None:
            raise LeaseLost(f"import job {job_id}: lease lost; nothing taken back", job_id=job_id)
        table = live_table(conn, form)
        later = conn.execute(q.later_jobs, {"jobs": [job_id]}).fetchall()
        taken_back = False
        if table.job_column is None:
            reason += f"; its rows stay in {table.shown}, which has no column for the job"
        elif later:
            shown = ", ".join(str(r["job_id"]) for r in later)
            reason += (
                f"; its rows were kept: jobs {shown} changed them since "
                f"(importer undo {job_id} --cascade takes them all back)"
            )
        else:
            take_back(conn, table, form, [job_id])
            taken_back = True
            reason += ": nothing was kept"
        row = conn.execute(
            q.fail_over_limit,
            {"id": job_id, "owner": owner, "error": reason, "taken_back": taken_back},
        ).fetchone()
        assert row is not None  # locked above, still ours
    return Job.from_row(row)
