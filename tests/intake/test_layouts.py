"""Workbooks as people lay them out, through the real commands: a title above the header,
a Total row and notes below the data, a header over two rows with merged cells; the header
found, or named with --header-row, and kept with the job (a worker, a resume after kill -9
read it there); the error workbook gives the title back and resubmits as is."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import xlsxwriter

from importer.database import Connection
from importer.forms.definition import parse_form_text
from importer.repositories.forms import save_form
from tests.conftest import IMPORTER_CMD, Cli
from tests.support.jobs import kill_9, only_job_id, wait_until_stopped
from tests.support.layouts import TITLE, title_book

ORDERS = """
name = "orders"
stop_at_blank_row = true
skip_rows_where = { column = "Order ID", matches = "^(Total|Sum)\\\\b" }
[[fields]]
name = "order_id"
header = "Order ID"
type = "integer"
required = true
[[fields]]
name = "customer"
header = "Customer"
required = true
[[fields]]
name = "qty"
header = "Qty"
type = "integer"
"""


def stored(conn: Connection) -> list[tuple[Any, ...]]:
    rows = conn.execute("SELECT row_number, order_id FROM forms.orders ORDER BY 1").fetchall()
    return [(r["row_number"], r["order_id"]) for r in rows]


@pytest.fixture
def orders(conn: Connection) -> None:
    save_form(conn, parse_form_text(ORDERS))


@pytest.mark.parametrize("named", [False, True])
def test_a_title_above_the_header_and_a_total_below_import_the_rows_a_person_counts(
    cli: Cli, conn: Connection, orders: None, tmp_path: Path, named: bool
) -> None:
    book = title_book(tmp_path / "orders.xlsx")
    result = cli("submit", str(book), "--quiet", *(["--form", "orders"] if named else []))
    assert result.exit_code == 0, result.stderr
    assert stored(conn) == [(n, n - 5) for n in range(6, 12)]  # Excel rows 6..11
    job = conn.execute("SELECT total_rows, sheet_layout FROM import_jobs").fetchone()
    assert job is not None and job["total_rows"] == 6
    assert job["sheet_layout"]["row"] == 5
    assert [n for n, _ in job["sheet_layout"]["above"]] == [1, 3]


def test_check_and_the_header_row_named_on_the_command_line(
    cli: Cli, conn: Connection, orders: None, tmp_path: Path
) -> None:
    book = title_book(tmp_path / "orders.xlsx", bad=(2,))
    checked = cli("check", str(book))
    assert checked.exit_code == 3 and "6 rows, 5 good" in checked.stdout
    assert "rows to fix (Excel row numbers): 8" in checked.stdout
    wrong = cli("check", str(book), "--form", "orders", "--header-row", "3")
    assert wrong.exit_code == 2 and "Exported 2026-12-01" in wrong.stderr
    blank = cli("check", str(book), "--header-row", "2")
    assert blank.exit_code == 2 and "row 2 is empty" in blank.stderr
    assert cli("submit", str(book), "--header-row", "5", "--quiet").exit_code == 3
    assert [n for n, _ in stored(conn)] == [6, 7, 9, 10, 11]


def test_two_rows_that_could_each_be_the_header_are_refused_naming_them(
    cli: Cli, orders: None, tmp_path: Path
) -> None:
    book = xlsxwriter.Workbook(str(tmp_path / "twice.xlsx"))
    sheet = book.add_worksheet()
    sheet.write_row(0, 0, ["Order ID", "Customer", "Qty"])
    sheet.write_row(1, 0, [1, "Ada", 2])
    sheet.write_row(2, 0, ["Order ID", "Customer", "Qty", "Notes"])  # another table, as good
    sheet.write_row(3, 0, [2, "Bob", 3, "gift"])
    book.close()
    result = cli("submit", str(tmp_path / "twice.xlsx"), "--quiet")
    assert result.exit_code == 2
    assert "row 1 matches 3 of 3, row 3 matches 3 of 3" in result.stderr
    assert "--header-row N" in result.stderr
    assert cli("submit", str(tmp_path / "twice.xlsx"), "--header-row", "3").exit_code == 0


def test_of_two_rows_that_fit_alike_the_one_on_the_data_is_the_header(
    cli: Cli, conn: Connection, orders: None, tmp_path: Path
) -> None:
    book = xlsxwriter.Workbook(str(tmp_path / "stacked.xlsx"))
    sheet = book.add_worksheet()
    sheet.write_row(0, 0, ["Order ID", "Customer", "Qty"])  # a stray copy right above it
    sheet.write_row(1, 0, ["Order ID", "Customer", "Qty", "Notes"])
    sheet.write_row(2, 0, [1, "Ada", 2, "gift"])
    book.close()
    result = cli("submit", str(tmp_path / "stacked.xlsx"), "--quiet")
    assert result.exit_code == 0, result.stderr
    assert stored(conn) == [(3, 1)]


def test_a_header_repeated_below_is_the_first_one(
    cli: Cli, conn: Connection, orders: None, tmp_path: Path
) -> None:
    book = xlsxwriter.Workbook(str(tmp_path / "pages.xlsx"))
    sheet = book.add_worksheet()
    for page in range(2):  # a printed report: the header at the top of every page
        sheet.write_row(page * 3, 0, ["Order ID", "Customer", "Qty"])
        sheet.write_row(page * 3 + 1, 0, [page * 2 + 1, "Ada", 2])
        sheet.write_row(page * 3 + 2, 0, [page * 2 + 2, "Bob", 3])
    book.close()
    result = cli("submit", str(tmp_path / "pages.xlsx"), "--quiet")
    assert result.exit_code == 3  # the second page's header is a row, rejected
    assert [n for n, _ in stored(conn)] == [2, 3, 5, 6]


def test_the_error_workbook_gives_the_title_back_and_resubmits_as_is(
    cli: Cli, conn: Connection, orders: None, tmp_path: Path
) -> None:
    book = title_book(tmp_path / "orders.xlsx", bad=(2, 4))
    assert cli("submit", str(book), "--quiet").exit_code == 3
    fix = tmp_path / "fix.xlsx"
    assert cli("errors", str(only_job_id(conn)), "-o", str(fix)).exit_code == 0
    sheet = openpyxl.load_workbook(fix).worksheets[0]
    assert sheet["A1"].value == TITLE and sheet["A3"].value == "Exported 2026-12-01"
    assert [c.value for c in sheet[5]][:3] == ["Order ID", "Customer", "Qty"]
    assert sheet["A6"].value == "n/a" and sheet.freeze_panes == "A6"
    # The sender fixes the two cells and sends the file back as it is.
    sheet["A6"], sheet["A7"] = 103, 105
    sheet.parent.save(fix)
    again = cli("submit", str(fix), "--quiet")
    assert again.exit_code == 0, again.stderr
    assert sorted(order for _, order in stored(conn)) == [1, 2, 4, 6, 103, 105]


def test_a_header_over_two_rows_with_merged_cells(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    save_form(
        conn,
        parse_form_text(
            'name = "people"\nheader_rows = 2\n'
            '[[fields]]\nname = "name"\nheader = "Name"\nrequired = true\n'
            '[[fields]]\nname = "street"\nheader = "Address Street"\n'
            '[[fields]]\nname = "city"\nheader = "Address City"\n'
        ),
    )
    book = xlsxwriter.Workbook(str(tmp_path / "people.xlsx"))
    sheet = book.add_worksheet()
    sheet.merge_range("A1:A2", "Name")
    sheet.merge_range("B1:C1", "Address")
    sheet.write_row(1, 1, ["Street", "City"])
    sheet.write_row(2, 0, ["Ada", "1 Main St", "Springfield"])
    sheet.write_row(3, 0, ["Bob", "2 Elm St", "Shelbyville"])
    book.close()
    assert cli("submit", str(tmp_path / "people.xlsx"), "--quiet").exit_code == 0
    rows = conn.execute("SELECT row_number, name, city FROM forms.people ORDER BY 1").fetchall()
    assert [tuple(r.values()) for r in rows] == [
        (3, "Ada", "Springfield"),
        (4, "Bob", "Shelbyville"),
    ]


def test_forms_infer_proposes_the_real_header_and_what_is_not_data(
    cli: Cli, tmp_path: Path
) -> None:
    book = title_book(tmp_path / "export.xlsx", rows=30)
    out = tmp_path / "export.toml"
    assert cli("forms", "infer", str(book), "-o", str(out)).exit_code == 0
    form = parse_form_text(out.read_text())
    assert [f.header for f in form.fields] == ["Order ID", "Customer", "Qty"]
    assert form.field("order_id").type == "integer"  # the Total row is not sampled
    # What is not data is left out by what it is: a blank row in the next file's data
    # loses nothing.
    assert form.layout.skip_rows == ("totals", "notes") and not form.layout.stop_at_blank_row
    assert form.layout.header_row is None  # "auto" finds it where infer did
    assert cli("forms", "add", str(out)).exit_code == 0
    assert cli("submit", str(book), "--quiet").exit_code == 0


@pytest.mark.slow
@pytest.mark.parametrize("stop_at_blank_row", [True, False])
def test_killed_mid_file_the_resume_reads_the_header_where_the_submit_found_it(
    conn: Connection, cli_env: dict[str, str], tmp_path: Path, stop_at_blank_row: bool
) -> None:
    """Without stop_at_blank_row the resume parses only the rows after the cut (the header
    found again where the submit found it: tests/excel/test_layout.py) and the note is a
    row, rejected."""
    form = ORDERS if stop_at_blank_row else ORDERS.replace("stop_at_blank_row = true\n", "")
    save_form(conn, parse_form_text(form))
    # Sum rows every 10 rows (not data), 60 rows in 6 batches of 10; killed in the fourth.
    book = title_book(tmp_path / "orders.xlsx", rows=60, sums=True, bad=(7, 33))
    env = {**cli_env, "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "10"}
    child = subprocess.Popen(
        [*IMPORTER_CMD, "submit", str(book), "--quiet"],
        env={**env, "IMPORTER_TEST_PAUSE_AT": "batch:4"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    wait_until_stopped(child)
    kill_9(child)
    assert len(stored(conn)) == 29  # 30 rows committed, one of them rejected
    resumed = subprocess.run(
        [*IMPORTER_CMD, "resume", str(only_job_id(conn)), "--quiet"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert resumed.returncode == 3, resumed.stderr
    orders_seen = [order for _, order in stored(conn)]
    assert orders_seen == [n for n in range(1, 61) if n not in (8, 34)]
    job = conn.execute("SELECT total_rows, success_rows, failed_rows FROM import_jobs").fetchone()
    notes = 0 if stop_at_blank_row else 1
    assert job == {"total_rows": 60 + notes, "success_rows": 58, "failed_rows": 2 + notes}


def test_the_layout_keys_go_through_forms_show_and_bad_ones_are_refused(
    cli: Cli, orders: None, tmp_path: Path
) -> None:
    shown = cli("forms", "show", "orders").stdout
    assert "stop_at_blank_row = true" in shown and "skip_rows_where" in shown
    again = parse_form_text(shown.split("\n", 1)[1])
    assert again.layout == parse_form_text(ORDERS).layout
    filled = parse_form_text(
        ORDERS.replace('header = "Customer"', 'header = "Customer"\nfill_merged = true')
    )
    assert filled.layout.excel(None).fill_columns == ("Customer",)
    for bad, words in [
        ("header_row = 0", "'header_row' must be"),
        ('header_rows = "two"', "'header_rows' must be"),
        ('fill_merged = "yes"', "'fill_merged' must be true or false"),
        ('skip_rows_where = { column = "Nope", matches = "x" }', "'Nope' is not the header"),
        ('skip_rows_where = { column = "Order ID", matches = "(" }', "not a valid regular"),
    ]:
        form = tmp_path / "bad.toml"
        plain = "\n".join(line for line in ORDERS.splitlines() if "skip_rows_where" not in line)
        form.write_text(plain.replace('name = "orders"', f'name = "bad"\n{bad}', 1))
        result = cli("forms", "add", str(form))
        assert result.exit_code == 2 and words in result.stderr, (bad, result.stderr)
