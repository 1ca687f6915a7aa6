"""The same quirky sheet as .xlsx, .xls and .ods imports the same rows and values.

sample_data/orders.xlsx (xlsxwriter) and LibreOffice's own saves of it as .xls and .ods
(sample_data/libreoffice/, see its NOTE): zip codes are numbers formatted 00000, dates are
numbers with a date format, two prices are error cells. Each must arrive as the sender
sees it: "00501" in a string field, the dates as dates, the error cells as row errors
(never a silent empty), in every format and with every engine that reads it.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from importer.database import Connection
from importer.excel import CellError, NumberText, Row, open_sheet
from importer.forms.definition import parse_form_text
from importer.repositories.forms import save_form
from tests.conftest import Cli
from tests.support.jobs import json_rows

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
FILES = {
    "xlsx": SAMPLES / "orders.xlsx",
    "xls": SAMPLES / "libreoffice" / "orders.xls",
    "ods": SAMPLES / "libreoffice" / "orders.ods",
}
ERROR_ROWS = {235, 258}  # the two prices whose lookup failed


def _rows(path: Path, engine: str) -> list[Row]:
    with open_sheet(path, engine=engine) as reader:
        assert reader.header[7] == "Zip Code"
        return list(reader.rows())


def _alike(rows: list[Row]) -> list[tuple[int, tuple[object, ...]]]:
    """The rows with each error cell as "error": #N/A here, #NAME? once LibreOffice saved it."""
    return [
        (row.number, tuple("error" if type(v) is CellError else v for v in row.values))
        for row in rows
    ]


@pytest.mark.parametrize(
    ("fmt", "engine"),
    [("xlsx", "openpyxl"), ("xls", "auto"), ("xls", "calamine"), ("ods", "auto")],
)
def test_every_format_and_engine_reads_the_cells_alike(fmt: str, engine: str) -> None:
    reference = _rows(FILES["xlsx"], "calamine")
    rows = _rows(FILES[fmt], engine)
    assert _alike(rows) == _alike(reference)
    first = rows[0].values
    assert first[3] == date(2024, 4, 19)  # a number with a date format is a date
    assert first[8] is True  # LibreOffice's TRUE() formula is a boolean
    zips = {v.text for r in rows if type(v := r.values[7]) is NumberText}
    assert "00501" in zips and "02134" in zips  # leading zeros as the format shows them
    errors = {r.number for r in rows if type(r.values[6]) is CellError}
    assert errors == ERROR_ROWS


def _import(cli: Cli, conn: Connection, fmt: str) -> dict[str, list[tuple[int, Any]]]:
    text = (SAMPLES / "orders.form.toml").read_text(encoding="utf-8")
    form = parse_form_text(text.replace('name = "orders"', f'name = "orders_{fmt}"', 1))
    save_form(conn, form)
    result = cli("submit", str(FILES[fmt]), "--form", form.name, "--quiet")
    assert result.exit_code == 3, result.stderr  # finished, with the mistakes rejected
    job = conn.execute("SELECT max(id) AS id FROM import_jobs").fetchone()
    assert job is not None
    stored = [{"row_number": n, "data": d} for n, d in json_rows(conn, int(job["id"])).items()]
    errors = conn.execute(
        "SELECT row_number, column_name FROM import_row_errors WHERE import_job_id = %s"
        " ORDER BY row_number, column_name",
        (job["id"],),
    ).fetchall()
    return {
        "stored": [(r["row_number"], r["data"]) for r in stored],
        "errors": [(e["row_number"], e["column_name"]) for e in errors],
    }


def test_the_same_sheet_in_three_formats_stores_the_same_rows(cli: Cli, conn: Connection) -> None:
    imported = {fmt: _import(cli, conn, fmt) for fmt in FILES}
    reference = imported["xlsx"]
    stored = reference["stored"]
    assert len(stored) == 285  # 300 orders, 15 with mistakes
    assert imported["xls"] == reference
    assert imported["ods"] == reference
    zips = {data["zip"] for _, data in stored}
    assert "00501" in zips and "02134" in zips
    assert {row for row, column in reference["errors"] if column == "Unit Price"} == ERROR_ROWS
