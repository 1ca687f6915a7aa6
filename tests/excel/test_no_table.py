"""Sheets that hold no table (excel/no_table.py): `forms infer` refuses them as no table,
and keeps the real tables that look like them (a two-column table of names and values)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from importer.errors import InputError
from importer.excel.no_table import column_letters
from importer.forms.inference import infer_workbook_form
from tests.support.layouts import rows_book

FILES = Path(__file__).resolve().parents[1] / "corpus" / "labelled" / "files"


def _refused(path: Path) -> str:
    with pytest.raises(InputError) as refused:
        infer_workbook_form(path, name="x")
    return str(refused.value)


def test_column_letters() -> None:
    assert [column_letters(i) for i in (0, 1, 25, 26, 27, 701, 702)] == [
        "A",
        "B",
        "Z",
        "AA",
        "AB",
        "ZZ",
        "AAA",
    ]


def test_cells_holding_their_own_addresses_are_no_table(tmp_path: Path) -> None:
    rows: list[list[object]] = [[None, *(f"{c}{n}" for c in "BCD")] for n in range(1, 5)]
    assert "hold their own addresses" in _refused(rows_book(tmp_path / "geometry.xlsx", rows))
    named: list[list[object]] = [["A1", "B1"], ["add2", 222], ["x", 3]]
    assert "no table" in _refused(rows_book(tmp_path / "scattered.xlsx", named))


def test_a_list_of_labelled_values_is_no_table_but_a_table_of_names_and_values_is_one(
    tmp_path: Path,
) -> None:
    values: list[list[object]] = [
        ["ASC", "This data is ASC only"],
        ["Date", date(1964, 3, 23)],
        ["Integer", 12345],
        ["Float", 1.29],
        ["Double", 1234567.89],
        ["Formula", 1246912.89],
        ["Big integer", 123456789012],
    ]
    assert "labels with a value each" in _refused(rows_book(tmp_path / "values.xlsx", values))
    table: list[list[object]] = [
        ["name", "value"],
        ["Name", "Clippy"],
        ["Species", "paperclip"],
        ["Date of death", date(2007, 1, 1)],
        ["Weight", 0.9],
    ]
    form = infer_workbook_form(rows_book(tmp_path / "table.xlsx", table), name="t").form
    assert [f.header for f in form.fields] == ["name", "value"]
    prices: list[list[object]] = [["Item", "Price"], *[[f"Item {i}", 1.5 * i] for i in range(1, 9)]]
    assert (
        len(infer_workbook_form(rows_book(tmp_path / "p.xlsx", prices), name="p").form.fields) == 2
    )


def test_a_page_of_prose_is_no_table(tmp_path: Path) -> None:
    prose = "White fields are optional. Light purple fields require input from you; green ones"
    rows: list[list[object]] = [
        [None, prose + " are calculated from the worksheets."],
        [],
        [None, "Savings", 0, None, "Old home value", 0],
        [None, "Checking", 0, None, "Assets", 0],
    ]
    assert "line of prose" in _refused(rows_book(tmp_path / "loan.xlsx", rows))


def test_labelled_paragraphs_are_no_table_but_a_wide_table_under_labels_is_one(
    tmp_path: Path,
) -> None:
    cover: list[list[object]] = [
        ["Indicator name:", "Weight-for-height"],
        ["Numerator:", "Number of children under 5 years of age below the median"],
        ["Denominator:", "Children under 5 years of age in the surveyed population"],
        [],
        ["EAP", "East Asia and the Pacific"],
    ]
    cover += [[f"R{i}", f"Region {i} of the world"] for i in range(6)]
    assert "labelled paragraphs" in _refused(rows_book(tmp_path / "cover.xlsx", cover))
    report: list[list[object]] = [
        ["Country:", "Norway"],
        ["Period:", "2024"],
        [],
        ["Region", "Cases", "Deaths"],
        *[[f"Region {i}", i * 10, i] for i in range(6)],
    ]
    form = infer_workbook_form(rows_book(tmp_path / "report.xlsx", report), name="r").form
    assert [f.header for f in form.fields] == ["Region", "Cases", "Deaths"]


def _samples() -> list[list[object]]:
    """A sheet showing formats: each row the same kind of value in another format, the
    kinds changing down every column."""
    rows: list[list[object]] = [["Font", "Courier New", "Arial Black"]]
    rows += [["RED", "YELLOW", "Sky Blue"], ["Font 12", "Courier 20", "Arial 8"]]
    rows += [[12323, -100, date(1964, 3, 23)], [12323, 23459.08, "KABA"]]
    rows += [["ABCDEFGH", "ABCDEFGH", "ABC"], ["FORMAT", None, None]]
    rows += [[123456.12, -123456.12, 0.0] for _ in range(4)]
    rows += [[date(1964, 3, 23), date(1964, 3, 24), "abc"] for _ in range(3)]
    return rows


def test_columns_each_of_several_kinds_are_samples_not_a_table(tmp_path: Path) -> None:
    book = rows_book(tmp_path / "formats.xlsx", _samples())
    refused = _refused(book)
    assert "every column under row 1 mixes kinds of values, none in 9 cells of 10" in refused
    assert "(Font: 6 numbers, 4 texts, 3 dates;" in refused
    assert "--header-row N" in refused
    named = infer_workbook_form(book, name="x", header_row=1).form  # named: taken as asked
    assert [f.header for f in named.fields] == ["Font", "Courier New", "Arial Black"]
    # One column of one kind among mixed ones: a table, whose mixed columns are noted.
    table = [[*row, n] for n, row in enumerate(_samples())]
    table[0][-1] = "Sample"
    form = infer_workbook_form(rows_book(tmp_path / "t.xlsx", table), name="t").form
    assert [f.header for f in form.fields][-1] == "Sample"


def test_the_real_format_demo_is_no_table() -> None:
    """Spreadsheet::ParseExcel's FmtTest.xls: fonts, colours and number formats."""
    book = FILES / "spreadsheet-parseexcel-0.65" / "FmtTest.xls"
    with pytest.raises(InputError, match="every column under row 1 mixes kinds of values"):
        infer_workbook_form(book, sheet="Format")
