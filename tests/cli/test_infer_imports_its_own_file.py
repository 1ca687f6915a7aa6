"""What `forms infer` proposes imports its own file, typed as a user types it:
`importer forms infer FILE -o FORM.toml`, `importer forms add FORM.toml`, `importer submit
FILE --form NAME`: the rows a person counts are stored, at their Excel row numbers, and
never a refusal of the tool's own making (two rows fitting the form alike, a form that
`forms add` refuses, the data cut at a blank row)."""

from __future__ import annotations

from pathlib import Path

import pytest
import xlsxwriter

from importer.database import Connection
from tests.conftest import Cli
from tests.support.sheets_as_laid_out import CASES

LABELLED = Path(__file__).resolve().parents[1] / "corpus" / "labelled" / "files"


def infer_add_submit(cli: Cli, book: Path, name: str, *infer: str) -> int:
    """The three commands; submit's exit code."""
    toml = book.with_suffix(".toml")
    inferred = cli("forms", "infer", str(book), "--name", name, "-o", str(toml), *infer)
    assert inferred.exit_code == 0, inferred.stderr
    added = cli("forms", "add", str(toml))
    assert added.exit_code == 0, added.stderr + toml.read_text()
    submitted = cli("submit", str(book), "--form", name, "--quiet")
    assert submitted.exit_code in (0, 3), submitted.stderr + toml.read_text()
    return submitted.exit_code


def stored_rows(conn: Connection, form: str) -> list[int]:
    rows = conn.execute(f'SELECT row_number FROM forms."{form}" ORDER BY 1').fetchall()
    return [int(r["row_number"]) for r in rows]


@pytest.mark.parametrize("case", list(CASES))
def test_each_layout_imports_the_rows_a_person_counts(
    cli: Cli, conn: Connection, tmp_path: Path, case: str
) -> None:
    make, _header, data = CASES[case]
    assert infer_add_submit(cli, make(tmp_path / f"{case}.xlsx"), case) == 0
    assert stored_rows(conn, case) == data


def test_a_header_two_rows_fit_alike_is_named_by_its_row_and_submit_takes_it(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    """The small table above holds the big one's names and one more: with the header left
    "auto", submit would find both rows fitting the form and refuse."""
    book = CASES["query_above"][0](tmp_path / "query.xlsx")
    assert infer_add_submit(cli, book, "query") == 0
    assert "header_row = 5" in (tmp_path / "query.toml").read_text()
    assert stored_rows(conn, "query") == list(range(6, 21))
    job = conn.execute("SELECT sheet_layout FROM import_jobs").fetchone()
    assert job is not None and job["sheet_layout"]["row"] == 5


def test_rows_after_a_blank_row_inside_the_data_are_imported(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    book = CASES["blank_inside"][0](tmp_path / "inside.xlsx")
    assert infer_add_submit(cli, book, "inside") == 0
    assert "stop_at_blank_row" not in (tmp_path / "inside.toml").read_text()
    assert len(stored_rows(conn, "inside")) == 20


def test_a_first_column_without_a_name_and_a_total_row_make_a_form_forms_add_takes(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    book = xlsxwriter.Workbook(str(tmp_path / "unnamed.xlsx"))
    sheet = book.add_worksheet()
    sheet.write_row(0, 1, ["Product", "Qty"])
    for n in range(6):
        sheet.write_row(1 + n, 0, [f"#{n}", f"Item {n}", n + 1])
    sheet.write_row(7, 0, ["Total", None, 21])
    book.close()
    assert infer_add_submit(cli, tmp_path / "unnamed.xlsx", "unnamed") == 0
    assert stored_rows(conn, "unnamed") == [2, 3, 4, 5, 6, 7]


def test_a_sheet_whose_first_cell_is_one_space_with_the_header_row_named(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    book = xlsxwriter.Workbook(str(tmp_path / "space.xlsx"))
    sheet = book.add_worksheet("Data")
    sheet.write_string(0, 0, " ")
    sheet.write_row(14, 0, ["Name", "Amount"])
    for n in range(5):
        sheet.write_row(15 + n, 0, [f"n{n}", n * 1.5])
    book.close()
    assert infer_add_submit(cli, tmp_path / "space.xlsx", "space", "--header-row", "15") == 0
    assert stored_rows(conn, "space") == [16, 17, 18, 19, 20]


def test_the_sheet_asked_for_names_the_form_and_the_form_imports_it(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    book = xlsxwriter.Workbook(str(tmp_path / "export.xlsx"))
    book.add_worksheet("Cover").write("A1", "Quarterly export")
    customers = book.add_worksheet("Customers")
    customers.write_row(0, 0, ["Customer ID", "Name"])
    for n in range(3):
        customers.write_row(1 + n, 0, [100 + n, f"Customer {n}"])
    book.close()
    inferred = cli("forms", "infer", "export.xlsx", "--sheet", "Customers", "-o", "c.toml")
    assert inferred.exit_code == 0, inferred.stderr
    assert "after the sheet 'Customers'" in (tmp_path / "c.toml").read_text()
    assert cli("forms", "add", "c.toml").exit_code == 0
    submitted = cli("submit", "export.xlsx", "--sheet", "Customers", "--form", "customers")
    assert submitted.exit_code == 0, submitted.stderr
    assert stored_rows(conn, "customers") == [2, 3, 4]


def test_forms_infer_reads_within_the_configured_memory_budget(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An .xls is read whole: ~12 MB for this 1.6 MB file, refused under a smaller budget.
    book = LABELLED / "hdx-python-utilities-4.2.5" / "downloader" / "test_xls_processing.xls"
    assert cli("forms", "infer", str(book)).exit_code == 0  # within the default budget
    monkeypatch.setenv("IMPORTER_READER_MEMORY_BUDGET_MB", "4")
    refused = cli("forms", "infer", str(book))
    assert refused.exit_code == 2, refused.stdout
    assert "over the reader's memory budget (4 MB, reader.memory_budget_mb)" in refused.stderr
