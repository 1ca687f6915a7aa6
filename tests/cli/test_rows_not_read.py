"""Never a row lost without a word: every row with values that an import does not read as
data is counted, and submit --json, status, check and the completion notice say how many,
where and by which rule; a form's skip_rows leaves out totals, sums, a repeated header and
notes below the table, each counted."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from importer.database import Connection
from importer.excel.row_filter import describe_not_read
from importer.excel.total_rows import is_total_label, is_total_row
from importer.repositories import jobs
from importer.timers.notices import notice_body
from tests.conftest import Cli

SALES_FORM = """
name = "{name}"
{layout}
[[fields]]
name = "month"
header = "Month"
required = true
[[fields]]
name = "region"
header = "Region"
[[fields]]
name = "amount"
header = "Amount"
type = "decimal"
"""


def sales_book(path: Path) -> Path:
    """A title, the header on row 3, five months, their total, a blank row, seven more
    months, the header again, one more month, the sum of the rows above, a note."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Sales"
    sheet.append(["Monthly sales 2024"])
    sheet.append([])
    sheet.append(["Month", "Region", "Amount"])
    for month in range(1, 6):  # rows 4-8
        sheet.append([f"2024-{month:02d}", "North", 100 * month])
    sheet.append(["Grand Total:", None, 1500])  # row 9
    sheet.append([])  # row 10
    for month in range(6, 13):  # rows 11-17
        sheet.append([f"2024-{month:02d}", "South", 100 * month])
    sheet.append(["Month", "Region", "Amount"])  # row 18
    sheet.append(["2025-01", "East", 5])  # row 19
    sheet.append([None, None, 6305])  # row 20: the sum since the total above
    sheet.append([])
    sheet.append(["Source: the sales office"])  # row 22
    book.save(path)
    return path


def add(cli: Cli, tmp_path: Path, name: str, layout: str) -> None:
    form = tmp_path / f"{name}.form.toml"
    form.write_text(SALES_FORM.format(name=name, layout=layout), encoding="utf-8")
    assert cli("forms", "add", str(form)).exit_code == 0


def test_a_stop_at_the_first_blank_row_says_what_it_left(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    add(cli, tmp_path, "sales", "stop_at_blank_row = true")
    book = sales_book(tmp_path / "sales.xlsx")
    checked = cli("check", str(book), "--form", "sales")
    assert (
        "not read: 11 rows with values after the blank row 10 (rows 11-22) were not read"
        " (stop_at_blank_row)" in checked.stdout
    )
    assert "not read: 1 row with values above the header (row 1) was not read" in checked.stdout

    summary = cli("submit", str(book), "--form", "sales").stdout
    assert "job 1: 1 row with values above the header (row 1) was not read" in summary
    assert (
        "job 1: 11 rows with values after the blank row 10 (rows 11-22) were not read"
        " (stop_at_blank_row)" in summary
    )
    done = cli("submit", str(book), "--form", "sales", "--json", "--force")
    job = json.loads(done.stdout)
    assert (job["status"], job["success_rows"]) == ("succeeded", 6)
    assert [(e["why"], e["rows"], e["first"], e["last"]) for e in job["rows_not_read"]] == [
        ("above_header", 1, 1, 1),
        ("stop_at_blank_row", 11, 11, 22),
    ]
    status = cli("status", str(job["id"])).stdout
    assert "not read:  1 row with values above the header (row 1) was not read" in status
    assert "11 rows with values after the blank row 10 (rows 11-22) were not read" in status
    notice = json.loads(notice_body(jobs.get_job(conn, job["id"]), "succeeded", []))
    assert notice["rows_not_read"] == job["rows_not_read"]  # the completion notice says it too


def test_skip_rows_leaves_out_totals_sums_a_repeated_header_and_notes_and_counts_them(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    add(cli, tmp_path, "sales", 'skip_rows = ["totals", "sums", "repeated_header", "notes"]')
    done = cli("submit", str(sales_book(tmp_path / "sales.xlsx")), "--form", "sales", "--json")
    job = json.loads(done.stdout)
    stored = conn.execute("SELECT row_number FROM forms.sales ORDER BY row_number").fetchall()
    assert [r["row_number"] for r in stored] == [4, 5, 6, 7, 8, 11, 12, 13, 14, 15, 16, 17, 19]
    left = {e["why"]: e["some"] for e in job["rows_not_read"]}
    # The total labelled "Grand Total:" is also the sum of the rows above: sums names it.
    assert left == {"above_header": [1], "sums": [9, 20], "repeated_header": [18], "notes": [22]}
    status = cli("status", str(job["id"])).stdout
    assert "2 rows of column sums (skip_rows: sums) were left out (rows 9, 20)" in status
    assert "1 row of notes below the table (skip_rows: notes) was left out (row 22)" in status


def test_a_sheet_whose_rows_all_lie_after_the_blank_row_is_refused_saying_so(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    add(cli, tmp_path, "sales", "stop_at_blank_row = true")
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Month", "Region", "Amount"])
    sheet.append([])
    for month in range(1, 13):
        sheet.append([f"2024-{month:02d}", "North", month])
    book.save(tmp_path / "late.xlsx")
    refused = cli("submit", str(tmp_path / "late.xlsx"), "--form", "sales")
    assert refused.exit_code == 2
    assert (
        "has a header but no rows to import; 12 rows with values after the blank row 2"
        " (rows 3-14) were not read (stop_at_blank_row)" in refused.stderr
    )
    assert conn.execute("SELECT count(*) AS n FROM import_jobs").fetchone() == {"n": 0}


@pytest.mark.parametrize(
    "label",
    ["Total", "Grand Total:", "GRAND TOTALS", "First type Total", "Общий итог", "Итого",
     "Summe", "Total général", "合计", "Sous-total"],
)  # fmt: skip
def test_a_totals_label_wherever_it_stands(label: str) -> None:
    assert is_total_label(label)
    assert is_total_row([None, label, 12.0, 3.5])


@pytest.mark.parametrize(
    "row",
    [
        ["Total Wine & More", "orders@totalwine.example", 12.0],  # a customer, with an email
        ["Subtotals of the year are shown elsewhere in this report", 1.0],  # prose
        ["Grand Total:", "Bob", 3.0],  # a text of its own beside the label: data
    ],
)
def test_a_data_row_with_a_totals_word_is_data(row: list[object]) -> None:
    assert not is_total_row(row)


def test_the_words_for_a_single_row_and_for_many() -> None:
    one = {"why": "totals", "rows": 1, "first": 7, "last": 7, "some": [7]}
    many = {"why": "skip_rows_where", "rows": 9, "first": 3, "last": 90, "some": [3, 4, 5, 6, 7]}
    assert describe_not_read(one) == "1 row of totals (skip_rows: totals) was left out (row 7)"
    assert describe_not_read(many) == (
        "9 rows matching skip_rows_where were left out (rows 3, 4, 5, 6, 7 ... 90)"
    )
