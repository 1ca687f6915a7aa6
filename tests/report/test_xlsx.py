"""The error workbook as the sender reads it: a day that does not exist named as such,
booleans shown TRUE/FALSE by any spreadsheet, and an About sheet in plain words with the
command on a line of its own for whoever runs importer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import xlsxwriter

from importer.database import Connection
from tests.conftest import Cli

FORM = """
name = "parcels"
[[fields]]
name = "ref"
header = "Ref"
type = "integer"
required = true
[[fields]]
name = "sent"
header = "Sent"
type = "date"
formats = ["%d/%m/%Y"]
[[fields]]
name = "fragile"
header = "Fragile"
type = "boolean"
"""
ROWS: list[list[Any]] = [
    [1, "05/02/2024", True],
    [2, "31/02/2024", True],
    [3, "29/02/2023", False],
    [4, "13/13/2024", True],
    [5, "07/02/2024", False],
]
BOOLEAN_SHOWN = '"TRUE";"TRUE";"FALSE"'


def _parcels(folder: Path) -> Path:
    (folder / "parcels.form.toml").write_text(FORM)
    path = folder / "parcels.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Parcels")
    sheet.write_row(0, 0, ["Ref", "Sent", "Fragile"])
    for number, (ref, sent, fragile) in enumerate(ROWS, start=1):
        sheet.write_number(number, 0, ref)
        sheet.write_string(number, 1, sent)
        sheet.write_boolean(number, 2, fragile)
    book.close()
    return path


def _about(path: Path) -> list[tuple[str, str]]:
    sheet = openpyxl.load_workbook(path)["About"]
    return [(a or "", b or "") for a, b in sheet.iter_rows(min_row=3, values_only=True)]


def test_check_names_the_missing_day_and_writes_real_booleans(cli: Cli, tmp_path: Path) -> None:
    path = _parcels(tmp_path)
    assert cli("forms", "add", str(tmp_path / "parcels.form.toml")).exit_code == 0
    result = cli("check", str(path), "--form", "parcels", "-o", "errors.xlsx")
    assert result.exit_code == 3, result.stderr
    assert "Sent: February 2024 has no day 31 (1 row)" in result.stdout

    sheet = openpyxl.load_workbook(tmp_path / "errors.xlsx")["Parcels"]
    rows = list(sheet.iter_rows(values_only=True))
    assert [r[3] for r in rows[1:]] == [
        "Sent: '31/02/2024': February 2024 has no day 31",
        "Sent: '29/02/2023': 2023 is not a leap year: February has 28 days",
        "Sent: '13/13/2024': there is no month 13",
    ]
    assert sheet["B2"].comment.text == "'31/02/2024': February 2024 has no day 31"
    # Booleans stay booleans, in the format LibreOffice writes for them (in General it
    # shows some as 1/0).
    fragile = [sheet.cell(row, 3) for row in range(2, 5)]
    assert [c.value for c in fragile] == [True, False, True]
    assert all(c.data_type == "b" and c.number_format == BOOLEAN_SHOWN for c in fragile)

    about = _about(tmp_path / "errors.xlsx")
    assert about[about.index(("", "")) + 1 :] == [
        ("What next", "Nothing from the file was imported yet; this one lists its bad rows only."),
        ("", "1. In the original file, fix each cell filled red here: its comment says"),
        ("", "   what is wrong, and the Problems column lists every problem of the row."),
        ("", "2. Save the original file and send it back to whoever sent you this one."),
        ("", ""),
        ("For the operator", "Whoever runs importer checks the returned file again or imports it:"),
        ("", "importer submit parcels.xlsx --form parcels"),
    ]  # fmt: skip


def test_an_imports_error_file_says_how_to_send_it_back(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    path = _parcels(tmp_path)
    assert cli("forms", "add", str(tmp_path / "parcels.form.toml")).exit_code == 0
    assert cli("submit", str(path), "--form", "parcels", "--quiet").exit_code == 3
    assert cli("errors", "1", "-o", "to_fix.xlsx").exit_code == 0

    sheet = openpyxl.load_workbook(tmp_path / "to_fix.xlsx")["Parcels"]
    assert [sheet.cell(row, 3).number_format for row in range(2, 5)] == [BOOLEAN_SHOWN] * 3
    about = _about(tmp_path / "to_fix.xlsx")
    steps = about[[label for label, _ in about].index("How to resubmit") :]
    assert steps == [
        ("How to resubmit", "1. Fix each cell filled red: its comment says what is wrong, and the"),
        ("", "   Problems column lists every problem of the row."),
        ("", "2. The Problems and Source row columns may stay as they are,"),
        ("", "   or be deleted. Keep the header row."),
        ("", "   Delete a row you cannot fix; add new rows at the end if you have any."),
        ("", "3. Save the file, keeping it an Excel workbook (.xlsx)."),
        ("", "4. Send the file back to whoever sent it to you."),
        ("", "The 2 rows already imported are not in this file."),
        ("", ""),
        ("For the operator", "Whoever runs importer imports the returned file with:"),
        ("", "importer submit to_fix.xlsx"),
        ("", "(a correction of job 1: each fixed row joins that import, once; --as-new imports"
             " the rows as a new job instead)"),
    ]  # fmt: skip
    # Fixed and sent back, its booleans read as booleans: the three rows are imported.
    book = openpyxl.load_workbook(tmp_path / "to_fix.xlsx")
    for row, day in zip(range(2, 5), ["28/02/2024", "28/02/2023", "13/12/2024"], strict=True):
        book["Parcels"].cell(row, 2).value = day
    book.save(tmp_path / "fixed.xlsx")
    again = cli("submit", "fixed.xlsx", "--form", "parcels", "--quiet")
    assert again.exit_code == 0, again.stderr
    stored = conn.execute("SELECT ref, sent, fragile FROM forms.parcels ORDER BY ref").fetchall()
    assert [(r["ref"], str(r["sent"]), r["fragile"]) for r in stored] == [
        (1, "2024-02-05", True),
        (2, "2024-02-28", True),
        (3, "2023-02-28", False),
        (4, "2024-12-13", True),
        (5, "2024-02-07", False),
    ]
