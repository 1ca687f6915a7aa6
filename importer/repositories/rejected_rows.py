"""A job's rejected rows, read back for the sender (SQL in sql/queries/jobs.sql), and their
most common reasons (sql/queries/reasons.sql)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from importer.database import Connection, queries
from importer.database.errors import database_errors


def rejected_row_width(conn: Connection, job_id: int) -> int:
    """The most cells any rejected row of the job holds."""
    row = conn.execute(queries().rejected_row_width, {"job_id": job_id}).fetchone()
    return int(row["width"]) if row else 0


def rejected_rows(conn: Connection, job_id: int) -> Iterator[tuple[int, list[Any], str]]:
    """(Excel row, original values, every error of the row) in row order.

    A server-side cursor: a job may have many rejected rows; memory stays flat. Its fetches
    bypass the connection's own statements, so they are translated here.
    """
    with (
        database_errors(target=conn.target),
        conn.transaction(),
        conn.cursor(name=f"rejected_rows_{job_id}") as cursor,
    ):
        cursor.itersize = 2000
        cursor.execute(queries().rejected_rows_for_report, {"job_id": job_id})
        for row in cursor:
            yield int(row["row_number"]), list(row["row_values"]), str(row["errors"])


@dataclass(frozen=True)
class Reason:
    """One of the most common reasons a job's rows were rejected."""

    column: str | None
    example: str  # the most frequent message of this reason
    errors: int  # cells rejected for it
    variants: int  # different messages (different values) grouped under it


def top_reasons(conn: Connection, job_id: int, limit: int = 3) -> list[Reason]:
    """The job's most common rejection reasons, most frequent first."""
    rows = conn.execute(
        queries().top_rejection_reasons, {"job_id": job_id, "limit": limit}
    ).fetchall()
    return [
        Reason(row["column_name"], row["example"], int(row["errors"]), int(row["variants"]))
        for row in rows
    ]
