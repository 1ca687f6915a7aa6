"""Corrections in tests: an origin job with rejected rows, and what comes back fixed."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import xlsxwriter

from importer.database import Connection
from importer.forms.validation import PROBLEMS_COLUMN, ROW_KEY_COLUMN, SOURCE_ROW_COLUMN
from importer.report.row_keys import row_key
from importer.repositories.corrections import signing_key
from tests.support.jobs import HEADER


def keyed_book(
    conn: Connection,
    path: Path,
    origin: int,
    rows: Iterable[tuple[int | None, list[Any]]],
    *,
    key_text: dict[int, str] | None = None,
) -> Path:
    """A workbook laid out as an error workbook: the orders header, Problems, Source row and
    the hidden key column; each row (origin row or None for a row added, its three cells)
    keyed as `importer errors` keys it (``key_text``: a key written instead, by row)."""
    secret = signing_key(conn)
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Orders")
    sheet.write_row(0, 0, [*HEADER, PROBLEMS_COLUMN, SOURCE_ROW_COLUMN, ROW_KEY_COLUMN])
    sheet.set_column(5, 5, None, None, {"hidden": True})
    for index, (number, cells) in enumerate(rows, start=1):
        for column, value in enumerate(cells):
            if value is not None:
                sheet.write(index, column, value)
        if number is not None:
            sheet.write(index, 4, number)
            key = (key_text or {}).get(number, row_key(secret, origin, number))
            sheet.write_string(index, 5, key)
    book.close()
    return path


def stored(conn: Connection, job_id: int) -> dict[int, tuple[Any, ...]]:
    """row_number -> (order_id, customer, amount) of a job's rows in forms.orders."""
    rows = conn.execute(
        "SELECT row_number, order_id, customer, amount FROM forms.orders"
        " WHERE import_job_id = %s ORDER BY row_number",
        (job_id,),
    ).fetchall()
    return {r["row_number"]: (r["order_id"], r["customer"], float(r["amount"])) for r in rows}


def claims(conn: Connection, origin: int) -> dict[int, int]:
    """origin row -> the correction that imported it."""
    rows = conn.execute(
        "SELECT origin_row, correction_job_id FROM import_corrections WHERE origin_job_id = %s",
        (origin,),
    ).fetchall()
    return {r["origin_row"]: r["correction_job_id"] for r in rows}


def job_row(conn: Connection, job_id: int) -> dict[str, Any]:
    row = conn.execute("SELECT * FROM import_jobs WHERE id = %s", (job_id,)).fetchone()
    assert row is not None
    return dict(row)
