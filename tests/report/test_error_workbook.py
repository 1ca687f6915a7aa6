"""The error workbook as the sender gets it, read back with openpyxl: the original sheet name,
header and column order, typed values, each bad cell filled with its reason as a comment, a
frozen bold header, Problems and Source row last; a fixed copy submitted as it is imports
exactly the rejected rows, and a second round trip has the same columns. Also the .csv
variant and `importer errors JOB` without -o."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import xlsxwriter
from openpyxl.worksheet.worksheet import Worksheet
from rich.console import Console

from importer.cli.errors_view import problems_table
from importer.database import Connection
from importer.excel.cell_json import decode_cell, encode_cell, number_from_text
from importer.excel.values import CellError, NumberText
from importer.repositories.rejected_rows import RowProblem
from tests.conftest import Cli
from tests.support.jobs import counts, data_rows, json_rows

FORM = """
name = "deliveries"
[[fields]]
name = "ref"
header = "Ref"
type = "integer"
required = true
min = 1
[[fields]]
name = "customer"
header = "Customer"
type = "string"
required = true
[[fields]]
name = "zip"
header = "Zip"
type = "string"
pattern = '^\\d{5}$'
message = "a zip code is 5 digits"
[[fields]]
name = "shipped"
header = "Shipped"
type = "date"
required = true
formats = ["%d/%m/%Y"]
[[fields]]
name = "weight"
header = "Weight"
type = "decimal"
min = 0
[[fields]]
name = "fragile"
header = "Fragile"
type = "boolean"
"""
HEADER = ["Ref", "Customer", "Zip", "Shipped", "Weight", "Fragile", "Note"]
OWN = ["Problems", "Source row"]
KEYED = [*OWN, "Row key"]  # the .xlsx: each row's key last, hidden (a correction's)
# Excel rows 2..7; rows 3, 4, 6 and 7 are rejected.
ROWS: list[list[Any]] = [
    [1, "Ada", 2134, date(2024, 1, 5), 2.5, True, "first"],
    [2, "Bob", 10001, date(2024, 1, 6), -1, False, None],
    [3, "Cy", "ABC", "31/02/2024", 4, True, "two problems"],
    [4, "Dee", 60614, date(2024, 1, 8), 1.25, False, None],
    [2.5, "Eve", 94103, date(2024, 1, 9), 3, None, "half a ref"],
    [6, None, 2134, date(2024, 1, 10), 7, True, None],
]
REJECTED = [3, 4, 6, 7]
FIXES: dict[int, dict[str, object]] = {
    3: {"Weight": 1},
    4: {"Zip": "12345", "Shipped": datetime(2024, 2, 28)},
    6: {"Ref": 5},
    7: {"Customer": "Fay"},
}
BAD_CELLS = {3: ["Weight"], 4: ["Zip", "Shipped"], 6: ["Ref"], 7: ["Customer"]}


def write_deliveries(path: Path, rows: list[list[Any]] = ROWS) -> Path:
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Deliveries")
    zip_format = book.add_format({"num_format": "00000"})
    day = book.add_format({"num_format": "yyyy-mm-dd"})
    sheet.write_row(0, 0, HEADER)
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row):
            if value is None:
                continue
            if c == 2 and isinstance(value, int):
                sheet.write_number(r, c, value, zip_format)
            elif isinstance(value, date):
                sheet.write_datetime(r, c, datetime.combine(value, datetime.min.time()), day)
            elif isinstance(value, bool):
                sheet.write_boolean(r, c, value)
            else:
                sheet.write(r, c, value)
    book.close()
    return path


@pytest.fixture
def rejected(cli: Cli, tmp_path: Path) -> Path:
    """Job 1: the deliveries workbook imported, 4 of its 6 rows rejected."""
    (tmp_path / "deliveries.form.toml").write_text(FORM)
    assert cli("forms", "add", str(tmp_path / "deliveries.form.toml")).exit_code == 0
    done = cli("submit", str(write_deliveries(tmp_path / "deliveries.xlsx")), "--quiet")
    assert done.exit_code == 3, done.stderr
    return tmp_path


def _export(cli: Cli, job: int, target: Path) -> Path:
    result = cli("errors", str(job), "-o", str(target))
    assert result.exit_code == 0, result.stderr
    return target


def _rows(sheet: Worksheet) -> list[list[Any]]:
    return [list(r) for r in sheet.iter_rows(values_only=True)]


def test_the_error_workbook_is_the_senders_sheet_with_the_problems_marked(
    cli: Cli, rejected: Path
) -> None:
    book = openpyxl.load_workbook(_export(cli, 1, rejected / "errors.xlsx"))
    assert book.sheetnames == ["Deliveries", "About"]
    sheet = book["Deliveries"]
    rows = _rows(sheet)
    assert rows[0] == [*HEADER, *KEYED]
    assert [r[-2] for r in rows[1:]] == REJECTED
    assert sheet.column_dimensions["J"].hidden and not sheet.column_dimensions["I"].hidden

    # Values in their original types and formats.
    bob = rows[1]
    assert bob[:2] == [2, "Bob"] and type(bob[0]) is int
    assert bob[2] == 10001 and sheet["C2"].number_format == "00000"
    assert bob[3] == datetime(2024, 1, 6) and sheet["D2"].is_date
    assert bob[4] == -1 and bob[5] is False and bob[6] is None
    assert rows[2][2:4] == ["ABC", "31/02/2024"]  # text stays text
    assert rows[3][0] == 2.5 and rows[3][5] is None

    # Each bad cell filled and commented with its reason; the others left alone.
    positions = {name: index for index, name in enumerate(HEADER)}
    for line, number in enumerate(REJECTED, start=2):
        for name, index in positions.items():
            cell = sheet.cell(line, index + 1)
            bad = name in BAD_CELLS[number]
            assert (cell.comment is not None) == bad, (number, name)
            assert (cell.fill.fgColor.rgb == "00FFC7CE") == bad, (number, name)
    assert sheet["E2"].comment.text == "'-1' is less than the minimum 0"
    assert sheet["C3"].comment.text == "a zip code is 5 digits"
    assert rows[2][7] == (
        "Zip: a zip code is 5 digits\nShipped: '31/02/2024': February 2024 has no day 31"
    )
    assert rows[4][7] == "Customer: a value is required but the cell is empty"

    # Bold, frozen header; printed landscape, one page wide, the header on every page.
    assert sheet.freeze_panes == "A2" and all(c.font.b for c in sheet[1])
    assert sheet.page_setup.orientation == "landscape" and sheet.page_setup.fitToWidth == 1
    assert sheet.sheet_properties.pageSetUpPr.fitToPage
    assert sheet.print_title_rows == "$1:$1"
    widths = {c: sheet.column_dimensions[c].width for c in "ABH"}
    assert widths["A"] < widths["B"] < widths["H"] <= 48

    about = " ".join(str(v) for r in _rows(book["About"]) for v in r if v)
    assert "deliveries.xlsx" in about and "deliveries (version 1)" in about
    assert "2 imported, 4 rejected" in about
    assert "importer submit errors.xlsx (a correction of job 1" in about


def test_a_fixed_copy_imports_exactly_the_rejected_rows(
    cli: Cli, conn: Connection, rejected: Path
) -> None:
    book = openpyxl.load_workbook(_export(cli, 1, rejected / "errors.xlsx"))
    sheet = book["Deliveries"]
    for line, number in enumerate(REJECTED, start=2):
        for name, value in FIXES[number].items():
            sheet.cell(line, HEADER.index(name) + 1).value = value
    book.save(rejected / "fixed.xlsx")

    done = cli("submit", str(rejected / "fixed.xlsx"), "--form", "deliveries")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "Problems" not in done.stderr and "Source row" not in done.stderr
    assert "correction of job 1: 4 rows" in done.stderr
    imported = json_rows(conn, 2)
    assert sorted(imported) == REJECTED  # every one imported, as the rows it fixes
    assert [d["ref"] for d in imported.values()] == [2, 3, 5, 6]
    assert imported[3] == {
        "ref": 2,
        "customer": "Bob",
        "zip": "10001",
        "shipped": "2024-01-06",
        "weight": 1.0,
        "fragile": False,
    }
    assert imported[4]["zip"] == "12345" and imported[4]["shipped"] == "2024-02-28"
    assert imported[7]["customer"] == "Fay" and imported[7]["zip"] == "02134"
    assert counts(conn)["rows"] == 2 + len(REJECTED)


def test_a_second_round_trip_has_the_same_columns_and_fresh_reasons(
    cli: Cli, rejected: Path
) -> None:
    book = openpyxl.load_workbook(_export(cli, 1, rejected / "errors.xlsx"))
    book["Deliveries"]["E2"].value = -7  # still wrong, differently
    book.save(rejected / "again.xlsx")
    # Every row of the returned file is still wrong: nothing imported (exit 4).
    assert cli("submit", str(rejected / "again.xlsx"), "--quiet").exit_code == 4

    second = openpyxl.load_workbook(_export(cli, 2, rejected / "errors2.xlsx"))
    assert second.sheetnames == ["Deliveries", "About"]
    rows = _rows(second["Deliveries"])
    assert rows[0] == [*HEADER, *KEYED]
    assert [r[-2] for r in rows[1:]] == REJECTED  # a correction's: the rows it fixes
    assert rows[1][7] == "Weight: '-7' is less than the minimum 0"
    assert [r[:7] for r in rows[2:]] == [r[:7] for r in _rows(book["Deliveries"])[2:]]


def test_the_csv_variant_has_the_same_columns_and_round_trips(
    cli: Cli, conn: Connection, rejected: Path
) -> None:
    target = _export(cli, 1, rejected / "errors.csv")
    with target.open(encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.reader(stream))
    assert rows[0] == [*HEADER, *OWN]
    assert rows[1] == [
        "2",
        "Bob",
        "10001",
        "2024-01-06",
        "-1",
        "FALSE",
        "",
        "Weight: '-1' is less than the minimum 0",
        "3",
    ]
    assert rows[2][7].startswith("Zip: a zip code is 5 digits; Shipped: '31/02/2024'")
    assert [r[-1] for r in rows[1:]] == [str(n) for n in REJECTED]
    assert rows[4][2] == "02134"  # shown as the sender saw it

    for row, number in zip(rows[1:], REJECTED, strict=True):
        for name, value in FIXES[number].items():
            fixed = value.date() if isinstance(value, datetime) else value
            row[HEADER.index(name)] = str(fixed)
    fixed_path = rejected / "fixed.csv"
    with fixed_path.open("w", encoding="utf-8", newline="") as stream:
        csv.writer(stream).writerows(rows)
    done = cli("submit", str(fixed_path), "--form", "deliveries")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert sorted(data_rows(conn, 2)) == [2, 3, 4, 5]

    # The error file of a job whose input was an error file: the same columns again.
    # Its rows all still wrong, as sent back: nothing imported (exit 4).
    assert cli("submit", str(target), "--form", "deliveries", "--quiet").exit_code == 4
    with _export(cli, 3, rejected / "again.csv").open(encoding="utf-8-sig") as stream:
        again = list(csv.reader(stream))
    assert again[0] == [*HEADER, *OWN] and [r[-1] for r in again[1:]] == ["2", "3", "4", "5"]
    book = openpyxl.load_workbook(_export(cli, 3, rejected / "again.xlsx"))
    assert book.sheetnames == ["errors", "About"]  # a CSV file's name is the sheet's
    typed = _rows(book["errors"])[1]
    assert typed[:5] == [2, "Bob", 10001, "2024-01-06", -1]  # exact numbers as numbers


def test_errors_without_output_prints_the_problems(cli: Cli, rejected: Path) -> None:
    shown = cli("errors", "1")
    assert shown.exit_code == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0].split() == ["Row", "Column", "Value", "Problem"]
    assert lines[1].split(None, 3) == ["3", "Weight", "-1", "'-1' is less than the minimum 0"]
    assert lines[2].split(None, 3) == ["4", "Zip", "ABC", "a zip code is 5 digits"]
    assert lines[3].split(None, 2)[:2] == ["Shipped", "31/02/2024"]  # same row: no number
    assert lines[5].split(None, 3)[:3] == ["7", "Customer", "(empty)"]
    assert lines[6:] == ["4 rejected rows; to fix and resubmit them:", OUT_HINT]

    first = cli("errors", "1", "--limit", "2").stdout.splitlines()
    assert [line.split()[0] for line in first[1:4]] == ["3", "4", "Shipped"]
    assert first[-2:] == [
        "the first 2 of 4 rejected rows; all of them, with every value, to fix and resubmit:",
        OUT_HINT,
    ]


OUT_HINT = "  importer errors 1 -o rejected.xlsx"


def test_the_problems_table_fits_80_columns() -> None:
    long = "'31/02/2024' is not a date (expected YYYY-MM-DD or DD/MM/YYYY) " * 2
    problems = [
        RowProblem(12, "Shipped date of the parcel", "31/02/2024 and then some text", long),
        RowProblem(12, "Zip", None, "a zip code is 5 digits"),
        RowProblem(1_048_576, None, None, "the same key is already in row 5"),
    ]
    console = Console(file=io.StringIO(), width=80, record=True, color_system=None)
    console.print(problems_table(problems, rich=True))
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    words = " ".join(text.split())
    assert all(word in words for word in long.split())  # wrapped, never cut
    assert "1048576" in words and "(empty)" in words and "(row)" in words


def test_no_rejected_rows(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "d.toml").write_text(FORM)
    cli("forms", "add", str(tmp_path / "d.toml"))
    clean = write_deliveries(tmp_path / "one.xlsx", ROWS[:1])
    assert cli("submit", str(clean), "-q").exit_code == 0
    assert cli("errors", "1").stdout.strip() == "job 1 has no rejected rows"


@pytest.mark.parametrize(
    "value",
    [
        None,
        "text\x00nul",
        42.0,
        -0.5,
        True,
        False,
        date(2024, 2, 29),
        datetime(2024, 2, 29, 13, 5, 7),
        NumberText(123.0, "00123"),
        CellError("#DIV/0!"),
        CellError(""),
    ],
)
def test_typed_cells_round_trip(value: object) -> None:
    import json

    cell = decode_cell(json.loads(json.dumps(encode_cell(value))))
    if isinstance(value, NumberText):
        assert (cell.value, cell.number_format) == (123.0, "00000")
    elif isinstance(value, CellError):
        assert cell.value == (value.code or None) and cell.error == bool(value.code)
    elif isinstance(value, str):
        assert cell.value == "text\ufffdnul"  # PostgreSQL holds no NUL
    else:
        assert cell.value == value and type(cell.value) is type(value)


def test_texts_are_numbers_only_when_they_show_that_number_exactly() -> None:
    assert [number_from_text(t) for t in ("42", "-3.5", "0.25", "1E+20")] == [
        42.0,
        -3.5,
        0.25,
        1e20,
    ]
    for text in ("00123", "1e5", "4,000", "+5", "0.10", "-0", " 1", "NaN", "inf", "12a"):
        assert number_from_text(text) is None, text
