"""Corrections in the database (SQL in sql/queries/corrections.sql, tables of migration 0018).

A correction is an import job with ``origin_job_id`` set: its rows are rows of the origin,
under the origin's Excel row numbers. ``import_corrections`` holds, for each row of an origin
that a correction imported, which one did: its primary key (origin, row) is what makes a
fixed row stored at most once, whatever races. The batch writer takes the rows there in its
transaction (claim_rows), before it stores them; undo gives them back (forget).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from psycopg.types.json import Jsonb

from importer.database import Connection, queries
from importer.database.errors import database_errors
from importer.errors import Missing, NotFoundError
from importer.repositories.jobs import Job, get_job
from importer.repositories.rejected_rows import RowProblem, StoredRejectedRow


@dataclass(frozen=True)
class Origin:
    """What a correction's batches need of its origin."""

    id: int
    last_row: int  # its last Excel row: rows up to it are its own, later ones were added
    family: tuple[int, ...] = ()  # the origin and its live corrections, as the run starts

    @classmethod
    def of(cls, conn: Connection, job: Job) -> Origin | None:
        """The origin of a correction (as it was made); None for any other job."""
        if job.origin_job_id is None:
            return None
        last_row = (job.correction or {}).get("origin_last_row")
        if last_row is None:
            last_row = get_job(conn, job.origin_job_id).last_row
        later = conn.execute(queries().live_correction_ids, {"origin": job.origin_job_id})
        family = (job.origin_job_id, *(int(r["id"]) for r in later))
        return cls(job.origin_job_id, int(last_row or 0), family)


def signing_key(conn: Connection) -> bytes:
    """The database's key for error workbooks (made by migration 0018)."""
    row = conn.execute(queries().signing_key).fetchone()
    assert row is not None, "migration 0018 makes it"
    return bytes(row["secret"])


def lock_origin(conn: Connection, origin: int) -> tuple[Job, int]:
    """The origin, locked until the caller's transaction ends (a correction being made), and
    the number of the first row the correction adds."""
    row = conn.execute(queries().lock_origin, {"origin": origin}).fetchone()
    if row is None:
        raise NotFoundError(f"no import job with id {origin}", what=Missing.JOB, key=origin)
    return Job.from_row(row), int(row["first_new_row"])


def origin_and_held(conn: Connection, origin: int, rows: Sequence[int]) -> tuple[Job, int]:
    """A correction's origin, and how many of ``rows`` of it corrections imported already."""
    row = conn.execute(queries().origin_and_held, {"origin": origin, "rows": list(rows)})
    found = row.fetchone()
    if found is None:
        raise NotFoundError(f"no import job with id {origin}", what=Missing.JOB, key=origin)
    return Job.from_row(found), int(found["held"])


def mark_correction(conn: Connection, job_id: int, origin: int, plan: dict[str, Any]) -> Job:
    """The job is a correction of ``origin``, its rows read as ``plan`` says."""
    row = conn.execute(
        queries().mark_correction, {"id": job_id, "origin": origin, "correction": Jsonb(plan)}
    ).fetchone()
    assert row is not None
    return Job.from_row(row)


def claim_rows(
    conn: Connection, origin: Origin, job_id: int, rows: Sequence[int]
) -> dict[int, int]:
    """Take these rows of the origin for the correction (its batch transaction). Returns
    the rows another correction imported already, with that correction's id."""
    q = queries()
    params = {"origin": origin.id, "id": job_id, "rows": list(rows), "last_row": origin.last_row}
    claimed = {int(r["origin_row"]) for r in conn.execute(q.claim_origin_rows, params)}
    taken = [n for n in rows if n not in claimed]
    if not taken:
        return {}
    return held_by(conn, origin.id, taken)


def held_by(conn: Connection, origin: int, rows: Sequence[int]) -> dict[int, int]:
    """Row -> the correction that imported it, for those of ``rows`` one did."""
    found = conn.execute(queries().origin_rows_held, {"origin": origin, "rows": list(rows)})
    return {int(r["origin_row"]): int(r["correction_job_id"]) for r in found}


def release_rows(conn: Connection, origin: Origin, job_id: int, rows: Sequence[int]) -> None:
    """Rows the correction took but did not store after all (its table refused them)."""
    if rows:
        conn.execute(
            queries().release_origin_rows,
            {"origin": origin.id, "id": job_id, "rows": list(rows), "last_row": origin.last_row},
        )


def forget(conn: Connection, job_ids: Sequence[int]) -> None:
    """These jobs are taken back: the origin rows they imported are open again."""
    conn.execute(queries().forget_corrections, {"jobs": list(job_ids)})


def origins_of(conn: Connection, job_ids: Sequence[int]) -> dict[int, int]:
    """Job -> the import it corrects, for those of ``job_ids`` that are corrections."""
    rows = conn.execute(queries().origins_of_jobs, {"jobs": list(job_ids)}).fetchall()
    return {int(r["id"]): int(r["origin_job_id"]) for r in rows}


def live_corrections(conn: Connection, origin: int) -> list[Job]:
    """The origin's corrections that are not undone, oldest first."""
    rows = conn.execute(queries().live_corrections, {"origin": origin}).fetchall()
    return [Job.from_row(r) for r in rows]


def family_claims(conn: Connection, job_ids: Sequence[int]) -> list[tuple[str, str, int]]:
    """The unique values these jobs' rows took (an origin and its corrections)."""
    rows = conn.execute(queries().family_unique_claims, {"jobs": list(job_ids)}).fetchall()
    return [(r["unique_set"], r["value"], int(r["row_number"])) for r in rows]


@dataclass(frozen=True)
class Family:
    """Where a job's rejected rows stand: ``origin`` (whose row numbers they carry), the jobs
    whose attempts at them count (an import: itself and its live corrections, the newest
    attempt at a row winning; a correction: itself), and ``up_to`` the last row of the
    import's own (the rows its corrections added are theirs)."""

    origin: int
    jobs: list[int]
    up_to: int | None

    @property
    def params(self) -> dict[str, Any]:
        return {"origin": self.origin, "jobs": self.jobs, "up_to": self.up_to}


def family_of(conn: Connection, job: Job) -> Family:
    if job.origin_job_id is not None:
        return Family(job.origin_job_id, [job.id], None)
    later = [c.id for c in live_corrections(conn, job.id)]
    return Family(job.id, [job.id, *later], job.last_row if later else None)


def headers_of(conn: Connection, family: Family) -> dict[int, list[str]]:
    """Each job's sheet header (a correction's may have its columns in another order)."""
    rows = conn.execute(queries().family_headers, {"jobs": family.jobs}).fetchall()
    return {int(r["id"]): list(r["header"] or []) for r in rows}


def first_open_problems(conn: Connection, family: Family, rows: int) -> list[RowProblem]:
    """The errors of the first ``rows`` rows still open, each in its newest attempt."""
    found = conn.execute(queries().open_row_problems, {**family.params, "limit": rows})
    return [
        RowProblem(r["row_number"], r["column_name"], r["raw_value"], r["message"])
        for r in found.fetchall()
    ]


def open_count(conn: Connection, family: Family) -> int:
    row = conn.execute(queries().open_row_count, family.params).fetchone()
    return int(row["n"]) if row else 0


@dataclass(frozen=True, slots=True)
class OpenRow:
    """A rejected row still open, as last sent."""

    job_id: int  # the job whose attempt this is (the origin, or a correction)
    row: StoredRejectedRow  # numbered as the origin's row


def open_rows(conn: Connection, family: Family) -> Iterator[OpenRow]:
    """The family's rejected rows that no correction imported, each in its newest attempt,
    in row order."""
    with (
        database_errors(target=conn.target),
        conn.transaction(),
        conn.cursor(name=f"open_rows_{family.origin}") as cursor,
    ):
        cursor.itersize = 2000
        cursor.execute(queries().open_rejected_rows, family.params)
        for r in cursor:
            number = int(r["row_number"])
            yield OpenRow(
                int(r["job_id"]),
                StoredRejectedRow(
                    number=number,
                    texts=list(r["row_values"]),
                    cells=None if r["row_cells"] is None else list(r["row_cells"]),
                    problems=[RowProblem(number, *error) for error in r["errors"]],
                ),
            )


@dataclass(frozen=True, slots=True)
class RowFate:
    """What became of a rejected row: imported by a correction, or still open."""

    row: int
    fixed_by: int | None  # the correction that imported it
    last_tried: int | None  # the last job that rejected it (the origin or a correction)


def row_fates(conn: Connection, job_id: int, family: Family) -> dict[int, RowFate]:
    """Every rejected row of ``job_id`` and what became of it in its family."""
    params = {"job": job_id, "origin": family.origin, "jobs": family.jobs}
    rows = conn.execute(queries().rejected_row_fates, params).fetchall()
    return {
        int(r["row_number"]): RowFate(int(r["row_number"]), r["fixed_by"], r["last_tried"])
        for r in rows
    }
