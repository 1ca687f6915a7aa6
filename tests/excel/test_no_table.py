"""Sheets that hold no table (excel/no_table.py): `forms infer` refuses them as no table,
and keeps the real tables that look like them (a two-column table of names and values)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

import openpyxl
import pytest

from importer.errors import InputError
from importer.excel.no_table import column_letters
from importer.forms.inference import infer_workbook_form


def _book(path: Path, rows: Sequence[Sequence[object]]) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


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
    assert "hold their own addresses" in _refused(_book(tmp_path / "geometry.xlsx", rows))
    named: list[list[object]] = [["A1", "B1"], ["add2", 222], ["x", 3]]
    assert "no table" in _refused(_book(tmp_path / "scattered.xlsx", named))


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
    assert "labels with a value each" in _refused(_book(tmp_path / "values.xlsx", values))
    table: list[list[object]] = [
        ["name", "value"],
        ["Name", "Clippy"],
        ["Species", "paperclip"],
        ["Date of death", date(2007, 1, 1)],
        ["Weight", 0.9],
    ]
    form = infer_workbook_form(_book(tmp_path / "table.xlsx", table), name="t").form
    assert [f.header for f in form.fields] == ["name", "value"]
    prices: list[list[object]] = [["Item", "Price"], *[[f"Item {i}", 1.5 * i] for i in range(1, 9)]]
    assert len(infer_workbook_form(_book(tmp_path / "p.xlsx", prices), name="p").form.fields) == 2


def test_a_page_of_prose_is_no_table(tmp_path: Path) -> None:
    prose = "White fields are optional. Light purple fields require input from you; green ones"
    rows: list[list[object]] = [
        [None, prose + " are calculated from the worksheets."],
        [],
        [None, "Savings", 0, None, "Old home value", 0],
        [None, "Checking", 0, None, "Assets", 0],
    ]
    assert "line of prose" in _refused(_book(tmp_path / "loan.xlsx", rows))


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
    assert "labelled paragraphs" in _refused(_book(tmp_path / "cover.xlsx", cover))
    report: list[list[object]] = [
        ["Country:", "Norway"],
        ["Period:", "2024"],
        [],
        ["Region", "Cases", "Deaths"],
        *[[f"Region {i}", i * 10, i] for i in range(6)],
    ]
    form = infer_workbook_form(_book(tmp_path / "report.xlsx", report), name="r").form
    assert [f.header for f in form.fields] == ["Region", "Cases", "Deaths"]
