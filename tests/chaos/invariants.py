"""The outcome a finished job must have, compared with what its workbook is known to hold."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql
from psycopg.rows import dict_row

from tests.chaos.workbooks import FORM_TABLE, Expected

Conn = psycopg.Connection[dict[str, Any]]
TERMINAL = ("succeeded", "partially_succeeded", "failed", "cancelled")


@dataclass
class JobCheck:
    job_id: int
    status: str
    problems: list[str] = field(default_factory=list)
    duplicates: int = 0  # rows stored (or rejected) more than once
    lost: int = 0  # expected rows neither stored nor rejected
    stuck: bool = False  # not terminal

    @property
    def ok(self) -> bool:
        return not self.problems


def _ranges(numbers: set[int], limit: int = 8) -> str:
    shown = sorted(numbers)[:limit]
    more = f" (+{len(numbers) - limit} more)" if len(numbers) > limit else ""
    return ", ".join(map(str, shown)) + more


def check_job(conn: Conn, job_id: int, expected: Expected) -> JobCheck:
    job = conn.execute("SELECT * FROM import_jobs WHERE id = %s", (job_id,)).fetchone()
    if job is None:
        return JobCheck(job_id, "missing", [f"job {job_id}: does not exist"])
    result = JobCheck(job_id, str(job["status"]))
    p = result.problems
    if job["status"] not in TERMINAL:
        result.stuck = True
        p.append(
            f"job {job_id}: still {job['status']} (owner {job['lease_owner']}, cursor "
            f"{job['success_rows']}+{job['failed_rows']}, attempts {job['attempts']}, "
            f"last error {job['last_error']!r})"
        )
    want_status = "partially_succeeded" if expected.bad else "succeeded"
    if job["status"] in TERMINAL and job["status"] != want_status:
        p.append(
            f"job {job_id}: ended {job['status']}, expected {want_status} ({job['last_error']!r})"
        )

    stored = conn.execute(
        sql.SQL("SELECT row_number, {} AS id, {} AS name FROM {} WHERE import_job_id = %s").format(
            sql.Identifier(FORM_TABLE.column("id").name),
            sql.Identifier(FORM_TABLE.column("name").name),
            FORM_TABLE.identifier,
        ),
        (job_id,),
    ).fetchall()
    stored_rows = Counter(int(r["row_number"]) for r in stored)
    twice = {r for r, n in stored_rows.items() if n > 1}
    missing = set(expected.valid) - set(stored_rows)
    extra = set(stored_rows) - set(expected.valid)
    wrong = {
        int(r["row_number"])
        for r in stored
        if r["id"] != r["row_number"] or r["name"] != f"name-{r['row_number']}"
    }
    rejected = Counter(
        int(r["row_number"])
        for r in conn.execute(
            "SELECT row_number FROM import_rejected_rows WHERE import_job_id = %s", (job_id,)
        ).fetchall()
    )
    errors = conn.execute(
        "SELECT row_number, column_name, message FROM import_row_errors WHERE import_job_id = %s",
        (job_id,),
    ).fetchall()
    error_rows = Counter(int(e["row_number"]) for e in errors)
    rej_missing = set(expected.invalid) - set(rejected)
    rej_extra = set(rejected) - set(expected.invalid)
    err_twice = {r for r, n in error_rows.items() if n > 1}
    err_missing = set(expected.invalid) - set(error_rows)

    if twice:
        p.append(f"job {job_id}: rows stored twice: {_ranges(twice)}")
    if missing:
        p.append(f"job {job_id}: valid rows never stored: {_ranges(missing)}")
    if extra:
        p.append(f"job {job_id}: rows stored that are invalid or do not exist: {_ranges(extra)}")
    if wrong:
        p.append(f"job {job_id}: rows stored with wrong data: {_ranges(wrong)}")
    if rej_missing or rej_extra:
        p.append(
            f"job {job_id}: rejected rows differ: missing {_ranges(rej_missing)}; "
            f"unexpected {_ranges(rej_extra)}"
        )
    if err_twice:
        p.append(f"job {job_id}: row errors recorded twice for rows {_ranges(err_twice)}")
    if err_missing:
        p.append(f"job {job_id}: no row error for invalid rows {_ranges(err_missing)}")
    if len(errors) != expected.bad:
        p.append(f"job {job_id}: {len(errors)} row errors, expected {expected.bad}")
    if (job["success_rows"], job["failed_rows"]) != (expected.good, expected.bad):
        p.append(
            f"job {job_id}: counters {job['success_rows']} good / {job['failed_rows']} bad, "
            f"expected {expected.good} / {expected.bad}"
        )
    if job["status"] in TERMINAL and job["total_rows"] != expected.rows:
        p.append(f"job {job_id}: total_rows {job['total_rows']}, expected {expected.rows}")
    if job["status"] in TERMINAL and job["lease_owner"] is not None:
        p.append(f"job {job_id}: finished but still leased to {job['lease_owner']}")
    result.duplicates = len(twice) + len(err_twice) + sum(n - 1 for n in rejected.values() if n > 1)
    result.lost = len(missing) + len(rej_missing)
    return result


def jobs_since(conn: Conn, after_id: int) -> list[int]:
    rows = conn.execute(
        "SELECT id FROM import_jobs WHERE id > %s ORDER BY id", (after_id,)
    ).fetchall()
    return [int(r["id"]) for r in rows]


def max_job_id(conn: Conn) -> int:
    row = conn.execute("SELECT coalesce(max(id), 0) AS m FROM import_jobs").fetchone()
    return int(row["m"]) if row else 0


def connect(url: str) -> Conn:
    return psycopg.connect(url, autocommit=True, row_factory=dict_row, application_name="chaos")
