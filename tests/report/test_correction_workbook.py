"""The error workbook knows where it came from: each row's key in a hidden last column and
the import named in the workbook's custom properties, signed; fixed (in openpyxl, saved
again by LibreOffice) and sent back, it is a correction of that import; a key changed by
hand is refused; a group's workbook comes back as one correction per sheet."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import xlsxwriter

from importer.database import Connection
from importer.excel.doc_properties import custom_properties
from importer.report.row_keys import (
    ABOUT_PROPERTY,
    JOBS_PROPERTY,
    SIGNATURE_PROPERTY,
    read_row_key,
    signature_holds,
)
from importer.repositories.corrections import signing_key
from tests.conftest import Cli
from tests.support.corrections import claims, job_row, stored
from tests.support.jobs import PEOPLE_FORM, Book, add_form, counts, orders_book

KEY = 5  # the hidden key column (F): after Order ID, Customer, Amount, Problems, Source row


@pytest.fixture
def origin(conn: Connection, cli: Cli, tmp_path: Path) -> tuple[int, Book]:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 30, bad_every=6)  # rows 7, 13, 19, 25, 31
    assert cli("submit", str(book.path), "--form", "orders", "-q").exit_code == 3
    return 1, book


def error_workbook(cli: Cli, job: int | str, path: Path, *extra: str) -> Path:
    result = cli("errors", str(job), "-o", str(path), *extra)
    assert result.exit_code == 0, result.stderr
    return path


def fix(
    path: Path,
    amounts: dict[int, Any],
    *,
    add: Sequence[list[Any]] = (),
    drop: Collection[int] = (),
) -> Path:
    """The sender's fixes, in openpyxl: each row's Amount by its Source row; rows added at
    the end; rows deleted."""
    book = openpyxl.load_workbook(path)
    sheet = book.worksheets[0]
    for number in sorted(
        (r for r in range(2, sheet.max_row + 1) if sheet.cell(r, 5).value in drop), reverse=True
    ):
        sheet.delete_rows(number)
    for row in sheet.iter_rows(min_row=2):
        source = row[4].value
        if source in amounts:
            row[2].value = amounts[source]
    for cells in add:
        sheet.append(cells)
    book.save(path)
    return path


def libreoffice(path: Path, folder: Path) -> Path:
    """The workbook opened and saved again by LibreOffice (its own .xlsx writer)."""
    soffice = shutil.which("soffice")
    if soffice is None:
        pytest.skip("LibreOffice is not installed (libreoffice-calc-nogui)")
    folder.mkdir()
    subprocess.run(
        [soffice, f"-env:UserInstallation=file://{folder}/profile", "--headless",
         "--convert-to", "xlsx", "--outdir", str(folder), str(path)],
        check=True, capture_output=True, timeout=180,
    )  # fmt: skip
    return folder / path.name


def test_the_error_workbook_carries_signed_keys_in_a_hidden_column_and_its_properties(
    conn: Connection, cli: Cli, origin: tuple[int, Book], tmp_path: Path
) -> None:
    path = error_workbook(cli, 1, tmp_path / "fix.xlsx")
    sheet = openpyxl.load_workbook(path).worksheets[0]
    assert [c.value for c in sheet[1]] == [
        "Order ID", "Customer", "Amount", "Problems", "Source row", "Row key",
    ]  # fmt: skip
    assert sheet.column_dimensions["F"].hidden
    assert not any(sheet.column_dimensions[c].hidden for c in "ABCDE")
    secret = signing_key(conn)
    keys = [read_row_key(secret, row[KEY].value) for row in sheet.iter_rows(min_row=2)]
    assert [(k.origin, k.row) for k in keys if k] == [(1, n) for n in (7, 13, 19, 25, 31)]
    properties = custom_properties(path)
    assert properties[JOBS_PROPERTY] == "Orders=1"
    assert properties[ABOUT_PROPERTY] == "About"
    assert signature_holds(
        secret, properties[JOBS_PROPERTY], "About", properties[SIGNATURE_PROPERTY]
    )
    about = [c.value for row in openpyxl.load_workbook(path)["About"] for c in row]
    assert "importer submit fix.xlsx" in about  # no --form: the workbook says its import


def test_fixed_in_openpyxl_it_comes_back_as_a_correction_and_only_open_rows_go_out_again(
    conn: Connection, cli: Cli, origin: tuple[int, Book], tmp_path: Path
) -> None:
    path = fix(
        error_workbook(cli, 1, tmp_path / "fix.xlsx"),
        {7: 70, 13: 13.5, 19: -1},  # row 19 still wrong
        add=[[500, "a new one", 5]],
        drop={25},  # the sender could not fix row 25: not corrected, still open
    )
    result = cli("submit", str(path))
    assert result.exit_code == 3, result.stderr
    assert "correction of job 1: 4 rows, and 1 added (numbered after its rows: row 32)" in (
        result.stderr
    )
    assert stored(conn, 2) == {
        7: (6, "customer 5", 70.0),
        13: (12, "customer 11", 13.5),
        32: (500, "a new one", 5.0),
    }
    assert job_row(conn, 1)["fixed_rows"] == 2
    assert claims(conn, 1) == {7: 2, 13: 2, 32: 2}

    # Sent out again: the rows still open, 19 as last sent (its fix, its new reason), 25 and 31.
    again = openpyxl.load_workbook(error_workbook(cli, 1, tmp_path / "again.xlsx")).worksheets[0]
    rows = [[c.value for c in row][:5] for row in again.iter_rows(min_row=2)]
    assert [r[4] for r in rows] == [19, 25, 31]
    assert rows[0][2] == -1 and "Amount" in rows[0][3]
    listed = cli("errors", "1")
    assert "3 rejected rows still open" in listed.stdout
    every = cli("errors", "1", "--all")
    assert "fixed later: imported by job 2" in every.stdout
    assert "still open: rejected again by job 2" in every.stdout

    # The rest fixed: nothing open any more.
    assert cli("submit", str(fix(tmp_path / "again.xlsx", {19: 1, 25: 2, 31: 3}))).exit_code == 0
    assert job_row(conn, 1)["fixed_rows"] == 5
    assert "every one of its 5 rejected rows was fixed later" in cli("errors", "1").stdout


@pytest.mark.slow
def test_saved_again_by_libreoffice_and_by_openpyxl_it_is_still_a_correction(
    conn: Connection, cli: Cli, origin: tuple[int, Book], tmp_path: Path
) -> None:
    fixed = fix(error_workbook(cli, 1, tmp_path / "fix.xlsx"), {7: 1, 13: 2, 19: 3, 25: 4, 31: 5})
    by_libreoffice = libreoffice(fixed, tmp_path / "lo")
    assert custom_properties(by_libreoffice)[JOBS_PROPERTY] == "Orders=1"
    sheet = openpyxl.load_workbook(by_libreoffice).worksheets[0]
    assert sheet.column_dimensions["F"].hidden
    result = cli("submit", str(by_libreoffice))
    assert result.exit_code == 0, result.stderr
    assert stored(conn, 2) == {n: (n - 1, f"customer {n - 2}", float(i)) for i, n in
                               enumerate((7, 13, 19, 25, 31), start=1)}  # fmt: skip

    # The same file again: the same correction, found, nothing stored twice.
    before = counts(conn)
    again = cli("submit", str(by_libreoffice))
    assert again.exit_code == 0
    assert "was already sent back as job 2, a correction of job 1" in again.stderr
    assert counts(conn) == before
    # The same fixes saved again by openpyxl (other bytes): nothing left to correct.
    fix(fixed, {})
    before = counts(conn)
    refused = cli("submit", str(fixed))
    assert refused.exit_code == 2
    assert "nothing to correct: its 5 rows of job 1 were imported already, by job 2" in (
        refused.stderr
    )
    assert counts(conn) == before


def test_a_key_changed_in_the_hidden_column_is_refused_and_nothing_stored(
    conn: Connection, cli: Cli, origin: tuple[int, Book], tmp_path: Path
) -> None:
    path = fix(error_workbook(cli, 1, tmp_path / "fix.xlsx"), {7: 1, 13: 2})
    book = openpyxl.load_workbook(path)
    cell = book.worksheets[0].cell(3, KEY + 1)
    cell.value = str(cell.value).replace("-13-", "-14-")  # another row of the same job
    book.save(path)
    before = counts(conn)
    result = cli("submit", str(path))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "row 3's key (the hidden 'Row key' column) was changed" in result.stderr
    assert counts(conn) == before and claims(conn, 1) == {}
    # As new rows, whatever its keys.
    assert cli("submit", str(path), "--as-new", "--form", "orders").exit_code == 3
    assert job_row(conn, 2)["origin_job_id"] is None


def test_the_error_workbook_of_an_undone_job_is_refused_in_one_line(
    conn: Connection, cli: Cli, origin: tuple[int, Book], tmp_path: Path
) -> None:
    path = fix(error_workbook(cli, 1, tmp_path / "fix.xlsx"), {7: 1})
    assert cli("undo", "1").exit_code == 0
    before = counts(conn)
    result = cli("submit", str(path))
    assert result.exit_code == 2
    assert "job 1 was undone on" in result.stderr and result.stderr.count("\n") == 1
    assert counts(conn) == before


def test_a_groups_error_workbook_comes_back_as_a_correction_of_each_sheets_job(
    conn: Connection, cli: Cli, tmp_path: Path
) -> None:
    add_form(conn)
    add_form(conn, PEOPLE_FORM)
    source = tmp_path / "both.xlsx"
    book = xlsxwriter.Workbook(str(source))
    orders = book.add_worksheet("Orders")
    orders.write_row(0, 0, ["Order ID", "Customer", "Amount"])
    for i, amount in enumerate([5, -1, 7, -2], start=1):
        orders.write_row(i, 0, [i, f"c{i}", amount])
    people = book.add_worksheet("People")
    people.write_row(0, 0, ["Name", "Email"])
    for i, email in enumerate(["a@example.com", "not an email", "c@example.com"], start=1):
        people.write_row(i, 0, [f"p{i}", email])
    book.close()
    assert cli("submit", str(source), "--all-sheets", "-q").exit_code == 3

    path = error_workbook(cli, "g1", tmp_path / "fix.xlsx")
    assert custom_properties(path)[JOBS_PROPERTY] == "Orders=1\nPeople=2"
    about = " ".join(str(c.value) for row in openpyxl.load_workbook(path)["About"] for c in row)
    assert "importer submit fix.xlsx --all-sheets" in about and "--form" not in about
    fixed = openpyxl.load_workbook(path)
    fixed["Orders"]["C2"] = 6
    fixed["Orders"]["C3"] = 8
    fixed["People"]["B2"] = "b@example.com"
    fixed.save(path)

    alone = cli("submit", str(path))
    assert alone.exit_code == 2
    assert "holds the rejected rows of 2 imports, a sheet each" in alone.stderr
    result = cli("submit", str(path), "--all-sheets")
    assert result.exit_code == 0, result.stderr
    assert "sheet 'About' left out" in result.stdout + result.stderr
    assert {job_row(conn, j)["origin_job_id"] for j in (3, 4)} == {1, 2}
    assert claims(conn, 1) == {3: 3, 5: 3} and claims(conn, 2) == {3: 4}
    assert job_row(conn, 1)["fixed_rows"] == 2 and job_row(conn, 2)["fixed_rows"] == 1
