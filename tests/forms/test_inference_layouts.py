"""`importer forms infer` on sheets as people lay them out: the header a person would pick
(over one row or several), the layout keys that read exactly the rows a person counts, and
the form named after the sheet asked for; also for LibreOffice's copies and the layout
corpus. What a proposal imports through `forms add` and `submit`: tests/cli."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import xlsxwriter

from importer.excel import open_sheet
from importer.forms.definition import Form, parse_form_text
from importer.forms.inference import infer_workbook_form
from importer.forms.layout import choose_layout
from tests.conftest import Cli
from tests.support.sheets_as_laid_out import CASES, saved_by_libreoffice

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
MADE = [
    entry
    for entry in json.loads((CORPUS / "layouts" / "manifest.json").read_text())
    if entry["path"].startswith("layouts/")
]


def inferred(cli: Cli, book: Path, *args: str) -> tuple[Form, str]:
    out = book.with_suffix(".toml")
    result = cli("forms", "infer", str(book), "-o", str(out), "--force", *args)
    assert result.exit_code == 0, result.stderr
    return parse_form_text(out.read_text()), out.read_text()


def read_as_submit_would(path: Path, form: Form, sheet: str | None = None) -> tuple[int, ...]:
    """(header's first row, its last, data rows...) as `header_row = "auto"` reads them."""
    layout = choose_layout([form], {}, row=None, where=path.name)
    with open_sheet(path, sheet=sheet, layout=layout) as reader:
        first = reader.header_first_row or reader.header_row
        return (first, reader.header_row, *(row.number for row in reader.rows()))


@pytest.mark.parametrize("case", list(CASES))
def test_infer_proposes_the_header_a_person_picks_and_reads_the_rows_a_person_counts(
    cli: Cli, tmp_path: Path, case: str
) -> None:
    make, header, data = CASES[case]
    book = make(tmp_path / f"{case}.xlsx")
    form, text = inferred(cli, book)
    assert form.layout.header_rows == header[1] - header[0] + 1, text
    assert read_as_submit_would(book, form) == (*header, *data), text


def test_the_header_names_of_two_and_three_row_headers_are_joined(cli: Cli, tmp_path: Path) -> None:
    groups, _ = inferred(cli, CASES["group_header"][0](tmp_path / "groups.xlsx"))
    assert [f.header for f in groups.fields] == [
        "Order ID",
        "Customer",
        "Q1 Units",
        "Q1 Amount",
        "Q2 Units",
        "Q2 Amount",
    ]
    assert groups.layout.header_rows == 2 and groups.field("q1_amount").type == "decimal"
    units, _ = inferred(cli, CASES["units_header"][0](tmp_path / "units.xlsx"))
    assert [f.header for f in units.fields][:2] == ["Parcel (code)", "Weight (kg)"]


def test_what_is_not_data_is_left_out_by_what_it_is_and_a_stop_only_before_another_shape(
    cli: Cli, tmp_path: Path
) -> None:
    inside, _ = inferred(cli, CASES["blank_inside"][0](tmp_path / "inside.xlsx"))
    assert not inside.layout.stop_at_blank_row and inside.layout.skip_rows == ("notes",)
    below, _ = inferred(cli, CASES["summary_below"][0](tmp_path / "below.xlsx"))
    assert below.layout.stop_at_blank_row
    unnamed, text = inferred(cli, CASES["no_name_first"][0](tmp_path / "unnamed.xlsx"))
    assert unnamed.layout.skip_column is None and "skip_rows_where" not in text
    assert unnamed.layout.skip_rows in (("sums",), ("totals",))


def test_a_header_the_automatic_choice_would_not_find_is_written_with_its_row(
    cli: Cli, tmp_path: Path
) -> None:
    form, text = inferred(cli, CASES["query_above"][0](tmp_path / "query.xlsx"))
    assert form.layout.header_row == 5 and "header_row = 5" in text
    assert "# the header is row 5 (the rows above it are not data)" in text
    plain, text = inferred(cli, CASES["label_pairs"][0](tmp_path / "pairs.xlsx"))
    assert plain.layout.header_row is None and "# the header is row 4" in text


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_libreoffices_copies_read_alike(tmp_path: Path) -> None:
    books = [make(tmp_path / f"{case}.xlsx") for case, (make, _, _) in CASES.items()]
    for suffix, target in ((".ods", "ods"), (".xls", "xls:MS Excel 97")):
        for copy in saved_by_libreoffice(books, suffix, target):
            _, header, data = CASES[copy.name.split(".")[0]]
            form = infer_workbook_form(copy).form
            assert read_as_submit_would(copy, form) == (*header, *data), copy.name


@pytest.mark.parametrize("entry", MADE, ids=lambda e: f"{e['path']}:{e['sheet']}")
def test_the_layout_corpus_is_read_as_the_manifest_counts(entry: dict[str, Any]) -> None:
    path = CORPUS / entry["path"]
    form = infer_workbook_form(path, sheet=entry["sheet"]).form
    first = entry["header_row"] - entry["header_rows"] + 1
    read = read_as_submit_would(path, form, entry["sheet"])
    assert read == (first, entry["header_row"], *entry["data_rows"])


def test_a_first_cell_of_one_space_is_a_blank_cell(cli: Cli, tmp_path: Path) -> None:
    book = xlsxwriter.Workbook(str(tmp_path / "space.xlsx"))
    sheet = book.add_worksheet("Data")
    sheet.write_string(0, 0, " ")
    sheet.write_row(14, 0, ["Name", "Amount"])
    for n in range(5):
        sheet.write_row(15 + n, 0, [f"n{n}", n * 1.5])
    book.close()
    for args in ((), ("--header-row", "15")):
        form, _ = inferred(cli, tmp_path / "space.xlsx", *args)
        assert [f.header for f in form.fields] == ["Name", "Amount"]
        assert read_as_submit_would(tmp_path / "space.xlsx", form) == (15, 15, 16, 17, 18, 19, 20)


def test_a_sheet_asked_for_names_the_form(cli: Cli, tmp_path: Path) -> None:
    book = xlsxwriter.Workbook(str(tmp_path / "crm export.xlsx"))
    book.add_worksheet("Notes").write("A1", "nothing here")
    customers = book.add_worksheet("Customers")
    customers.write_row(0, 0, ["Customer ID", "Name"])
    customers.write_row(1, 0, [1, "Ann"])
    book.close()
    form, text = inferred(cli, tmp_path / "crm export.xlsx", "--sheet", "Customers")
    assert form.name == "customers"
    assert "# named 'customers' after the sheet 'Customers':" in text
    named, _ = inferred(cli, tmp_path / "crm export.xlsx", "--sheet", "Customers", "--name", "x")
    assert named.name == "x"
    whole, text = inferred(cli, tmp_path / "crm export.xlsx")
    assert whole.name == "crm_export" and "after the file" in text


def test_a_sheet_of_values_without_names_is_no_table(cli: Cli, tmp_path: Path) -> None:
    book = xlsxwriter.Workbook(str(tmp_path / "grid.xlsx"))
    sheet = book.add_worksheet()
    for n in range(3):
        sheet.write_row(n, 0, [n * 3 + 1, n * 3 + 2, n * 3 + 3])
    book.close()
    result = cli("forms", "infer", str(tmp_path / "grid.xlsx"))
    assert result.exit_code == 2
    assert "grid.xlsx: no table to infer a form from" in result.stderr
    assert "--header-row N" in result.stderr
    assert cli("forms", "infer", str(tmp_path / "grid.xlsx"), "--header-row", "1").exit_code == 0
