"""A job's rejected rows, read back for the sender (SQL in sql/queries/jobs.sql), and their
most common reasons (sql/queries/reasons.sql)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from importer.database import Connection, queries
from importer.database.errors import database_errors


@dataclass(frozen=True, slots=True)
class RowProblem:
    """One error of a rejected row."""

    row: int  # the Excel row
    column: str | None  # the sheet's header text; None for the row as a whole
    raw: str | None  # the cell as text
    message: str


@dataclass(frozen=True, slots=True)
class StoredRejectedRow:
    number: int  # the Excel row
    texts: list[str | None]  # every cell as text, in the sheet's column order
    cells: list[Any] | None  # the same cells as typed JSON (cell_json); None before 0007
    problems: list[RowProblem]


def rejected_row_width(conn: Connection, job_id: int) -> int:
    """The most cells any rejected row of the job holds."""
    row = conn.execute(queries().rejected_row_width, {"job_id": job_id}).fetchone()
    return int(row["width"]) if row else 0


def rejected_rows_with_reasons(
    conn: Connection, job_id: int
) -> Iterator[tuple[int, list[Any], list[str]]]:
    """(Excel row, original values, each error of the row as "column: message") in row order."""
    for row in rejected_rows(conn, job_id):
        reasons = [f"{p.column}: {p.message}" if p.column else p.message for p in row.problems]
        yield row.number, row.texts, reasons


def rejected_rows(conn: Connection, job_id: int) -> Iterator[StoredRejectedRow]:
    """Every rejected row of the job with its errors, in row order.

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
            number = int(row["row_number"])
            yield StoredRejectedRow(
                number=number,
                texts=list(row["row_values"]),
                cells=None if row["row_cells"] is None else list(row["row_cells"]),
                problems=[RowProblem(number, *error) for error in row["errors"]],
            )


def first_problems(conn: Connection, job_id: int, rows: int) -> list[RowProblem]:
    """The errors of the job's first ``rows`` rejected rows, in row order."""
    found = conn.execute(queries().rejected_row_errors, {"job_id": job_id, "limit": rows})
    return [
        RowProblem(r["row_number"], r["column_name"], r["raw_value"], r["message"])
        for r in found.fetchall()
    ]


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
