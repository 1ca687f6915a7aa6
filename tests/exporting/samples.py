"""Forms and rows for the export tests: every field type, the awkward values of each."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from importer.database import Connection
from tests.support.jobs import add_form

TYPES_FORM = """
name = "typed"
[[fields]]
name = "n"
type = "integer"
[[fields]]
name = "label"
type = "string"
[[fields]]
name = "amount"
type = "decimal"
[[fields]]
name = "day"
type = "date"
[[fields]]
name = "at"
type = "datetime"
[[fields]]
name = "ok"
type = "boolean"
[[fields]]
name = "mail"
type = "email"
[[fields]]
name = "row_number"
type = "integer"
"""

FIELDS = ("n", "label", "amount", "day", "at", "ok", "mail", "row_number")

# (job, row, values by field): NULLs, an empty text, quotes, commas, line breaks, a BOM-like
# character, text a spreadsheet would run, far dates, microseconds, big and negative numbers.
ROWS: list[tuple[int, int, dict[str, Any]]] = [
    (
        1,
        2,
        {
            "n": 1,
            "label": "plain",
            "amount": Decimal("1.5"),
            "day": date(2026, 1, 31),
            "at": datetime(2026, 1, 31, 23, 59, 59, 123456, tzinfo=UTC),
            "ok": True,
            "mail": "a@example.com",
            "row_number": 7,
        },
    ),
    (
        1,
        3,
        {
            "n": None,
            "label": "",
            "amount": None,
            "day": None,
            "at": None,
            "ok": None,
            "mail": None,
            "row_number": None,
        },
    ),
    (
        1,
        4,
        {
            "n": -9_007_199_254_740_993,
            "label": 'say "hi", then\nleave\r\nnow',
            "amount": Decimal("-12345678901234.125"),
            "day": date(1, 1, 1),
            "at": datetime(1900, 2, 28, 12, 0, tzinfo=UTC),
            "ok": False,
            "mail": "\ufeffodd@example.com",
            "row_number": 0,
        },
    ),
    (
        2,
        2,
        {
            "n": 9_223_372_036_854_775_807,
            "label": "=1+1",
            "amount": Decimal("0.001"),
            "day": date(9999, 12, 31),
            "at": datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
            "ok": True,
            "mail": "\\N",
            "row_number": 2,
        },
    ),
]


def add_typed_form(conn: Connection) -> None:
    """The form and its table (forms.typed), and import jobs 1 and 2 for it."""
    add_form(conn, TYPES_FORM)
    add_jobs(conn, "typed", 2)


def add_jobs(conn: Connection, form: str, count: int) -> list[int]:
    """``count`` finished import jobs of the form (their rows are put in by the test)."""
    conn.execute(
        "INSERT INTO import_files (sha256, size_bytes, content) VALUES ('f', 0, '')"
        " ON CONFLICT DO NOTHING"
    )
    found = conn.execute(
        "INSERT INTO import_jobs (form, form_version, file, file_name, max_attempts, status)"
        " SELECT %s, 1, 'f', 'a.xlsx', 3, 'succeeded' FROM generate_series(1, %s)"
        " RETURNING id",
        (form, count),
    ).fetchall()
    return sorted(int(r["id"]) for r in found)


def insert_rows(conn: Connection, rows: list[tuple[int, int, dict[str, Any]]] = ROWS) -> None:
    for job, number, values in rows:
        conn.execute(
            "INSERT INTO forms.typed (import_job_id, row_number, n, label, amount, day, at, ok,"
            " mail, row_number_field) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (job, number, *(values[f] for f in FIELDS)),
        )


def expected(rows: list[tuple[int, int, dict[str, Any]]] = ROWS) -> list[dict[str, Any]]:
    """The rows as an export gives them: fields by name (row_number_field for the field named
    like the tool's column), then the tool's columns; in (job, row) order."""
    out = []
    for job, number, values in sorted(rows, key=lambda r: (r[0], r[1])):
        row = {("row_number_field" if k == "row_number" else k): v for k, v in values.items()}
        out.append({**row, "import_job_id": job, "row_number": number})
    return out
