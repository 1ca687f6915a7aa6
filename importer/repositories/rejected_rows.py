"""A job's rejected rows, read back for the sender (SQL in sql/queries/jobs.sql)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from importer.database import Connection, queries
from importer.database.errors import database_errors


def rejected_row_width(conn: Connection, job_id: int) -> int:
    """The most cells any rejected row of the job holds."""
    row = conn.execute(queries().rejected_row_width, {"job_id": job_id}).fetchone()
    return int(row["width"]) if row else 0


def rejected_rows(conn: Connection, job_id: int) -> Iterator[tuple[int, list[Any], str]]:
    """(Excel row, original values, every error of the row) in row order."""
    for row in _rows(conn, job_id):
        yield int(row["row_number"]), list(row["row_values"]), str(row["errors"])


def rejected_rows_with_reasons(
    conn: Connection, job_id: int
) -> Iterator[tuple[int, list[Any], list[str]]]:
    """(Excel row, original values, each error of the row as "column: message") in row order."""
    for row in _rows(conn, job_id):
        yield int(row["row_number"]), list(row["row_values"]), list(row["reasons"])


def _rows(conn: Connection, job_id: int) -> Iterator[dict[str, Any]]:
    """A server-side cursor: a job may have many rejected rows; memory stays flat. Its fetches
    bypass the connection's own statements, so they are translated here.
    """
    with (
        database_errors(target=conn.target),
        conn.transaction(),
        conn.cursor(name=f"rejected_rows_{job_id}") as cursor,
    ):
        cursor.itersize = 2000
        cursor.execute(queries().rejected_rows_for_report, {"job_id": job_id})
        yield from cursor
