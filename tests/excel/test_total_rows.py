"""Totals as a person tells them (excel/total_rows.py): the label/value lines between two
total rows (an invoice's Subtotal, Tax, Total) and a report template's placeholders
beside a total's label, left out by ``skip_rows = ["totals"]``, counted, and proposed by
`forms infer`; a line under a total that no total follows stays data."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.excel import open_sheet
from importer.excel.layout import HeaderLayout
from importer.excel.total_rows import between_totals, is_placeholder, is_total_row
from importer.forms.inference import infer_workbook_form
from tests.support.layouts import rows_book

LABELLED = Path(__file__).resolve().parents[1] / "corpus" / "labelled" / "files"
HEADER = ["Item", "Qty", "Price", "Amount"]
ITEMS: list[list[object]] = [["Pens", 10, 1.5, 15.0], ["Paper", 2, 4.0, 8.0], ["Ink", 1, 9.0, 9.0]]


def _read(path: Path, kinds: tuple[str, ...]) -> tuple[list[int], list[dict[str, object]]]:
    with open_sheet(path, layout=HeaderLayout(row=1, skip_rows=kinds)) as reader:
        return [r.number for r in reader.rows()], reader.rows_not_read()


def test_the_lines_between_two_totals_are_totals(tmp_path: Path) -> None:
    block: list[list[object]] = [
        [None, None, "Subtotal", 32.0],  # row 5
        [None, None, "Tax", 2.56],
        [None, None, "Shipping", 4.0],
        [None, None, "Total", 38.56],  # row 8
    ]
    book = rows_book(tmp_path / "invoice.xlsx", [HEADER, *ITEMS, *block])
    numbers, not_read = _read(book, ("totals",))
    assert numbers == [2, 3, 4]
    assert not_read == [{"why": "totals", "rows": 4, "first": 5, "last": 8, "some": [5, 6, 7, 8]}]
    assert _read(book, ())[0] == [2, 3, 4, 5, 6, 7, 8]  # without the kind: every line a row
    inferred = infer_workbook_form(book, name="invoice").form
    assert inferred.layout.skip_rows == ("totals",)


def test_a_line_under_a_total_that_no_total_follows_is_data(tmp_path: Path) -> None:
    lines: list[list[object]] = [
        ["Subtotal", None, None, 32.0],  # row 5
        ["Refund", None, None, -2.0],  # a row of its own: no total closes it
        ["Pens", 1, 1.5, 1.5],
    ]
    book = rows_book(tmp_path / "open.xlsx", [HEADER, *ITEMS, *lines])
    assert _read(book, ("totals",)) == (
        [2, 3, 4, 6, 7],
        [{"why": "totals", "rows": 1, "first": 5, "last": 5, "some": [5]}],
    )
    assert not between_totals(["Subtotal", None, None, 32.0], ["Refund", "cash", None, -2.0])


@pytest.mark.parametrize(
    ("text", "placeholder"),
    [("{{t_qty}}", True), ("c({{t_qty}}*{{price}})", True), ("${total}", True),
     ("{price}", False), ("$100", False), ("[kg]", False)],
)  # fmt: skip
def test_a_template_placeholder_is_a_value_to_come(text: str, placeholder: bool) -> None:
    assert is_placeholder(text) is placeholder
    assert is_total_row([None, "Sum", text]) is placeholder


def test_the_real_report_template_reads_its_item_row() -> None:
    """excel-report's template: company, address and title placeholders, the header in
    row 4, one item row of placeholders, Sum/Price/Total of placeholders, a signature."""
    book = LABELLED / "excel-report-1.0.3" / "template.xlsx"
    inferred = infer_workbook_form(book, sheet="Sheet1").form
    assert "totals" in inferred.layout.skip_rows
    with open_sheet(book, sheet="Sheet1", layout=inferred.layout.excel(4)) as reader:
        assert [r.number for r in reader.rows()] == [5]
        left = {entry["why"]: entry["some"] for entry in reader.rows_not_read()}
    assert left["totals"] == [6, 7, 8]
