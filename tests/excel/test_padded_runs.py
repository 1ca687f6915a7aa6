"""Zero-padded numbers read as runs of rows (special_cells): the same values as the streaming
engine, which reads each cell's format itself, however the runs are broken up."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
import xlsxwriter

from importer.excel import NumberText, open_sheet
from importer.excel.special_cells import PaddedIndex, PaddedRun, number_with_format, runs_of
from importer.excel.values import Row


def test_runs_of_splits_where_rows_stop_following_each_other() -> None:
    assert runs_of(4, 5, []) == []
    assert runs_of(4, 5, [7]) == [PaddedRun(4, 7, 7, 5)]
    assert runs_of(1, 3, [2, 3, 4, 6, 7, 10]) == [
        PaddedRun(1, 2, 4, 3),
        PaddedRun(1, 6, 7, 3),
        PaddedRun(1, 10, 10, 3),
    ]


def test_padding_touches_only_numbers_of_the_rows_in_a_run() -> None:
    index = PaddedIndex([PaddedRun(1, 3, 4, 5), PaddedRun(1, 6, 6, 5), PaddedRun(0, 1, 9, 2)])
    rows = [[7.0, 1.0], [7.5, 2.0], [8.0, "x"], [9.0, 4.0], [10.0, 5.0], [123.0, 6.0]]
    numbers = [2, 3, 4, 5, 6, 7]  # row 7 is past every run of column 1
    index.pad(rows, numbers)
    index.pad(rows, numbers)  # twice: nothing more changes
    assert rows == [
        [NumberText(7.0, "07"), 1.0],
        [7.5, NumberText(2.0, "00002")],
        [NumberText(8.0, "08"), "x"],
        [NumberText(9.0, "09"), 4.0],
        [NumberText(10.0, "10"), NumberText(5.0, "00005")],
        [123.0, 6.0],
    ]


@pytest.mark.parametrize(
    "values",
    [
        [501.0, 2134.0, 0.0, -0.0, 99999.0],  # a plain run: padded in one pass
        [501.0, 12.5, 7.0],  # a decimal among them: cell by cell
        [501.0, 123456.0],  # wider than the format
        [501.0, -7.0, float("inf")],
        [501.0, "x", 3.0],  # text where calamine had a number
    ],
)
def test_a_run_pads_each_cell_as_number_with_format_does(values: list[object]) -> None:
    rows = [["n", value] for value in values]
    PaddedIndex([PaddedRun(1, 2, 1 + len(values), 5)]).pad(rows, list(range(2, 2 + len(values))))
    expected = [number_with_format(v, 5) if type(v) is float else v for v in values]
    assert [row[1] for row in rows] == expected
    assert [type(row[1]) for row in rows] == [type(v) for v in expected]


def _workbook(path: Path) -> Path:
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Data")
    five, three = book.add_format({"num_format": "00000"}), book.add_format({"num_format": "000"})
    sheet.write_row(0, 0, ["Name", "ZIP", "Code", "Note"])
    for i in range(1, 400):
        sheet.write(i, 0, f"n{i}")
        if i % 37 == 0:
            sheet.write_string(i, 1, "7")  # text in the padded column: a run ends
        elif i % 53 == 0:
            pass  # no ZIP at all
        elif i % 61 == 0:
            sheet.write_number(i, 1, 12.5, five)  # not a whole number: shown as it is
        elif i % 67 == 0:
            sheet.write_number(i, 1, 1234567, five)  # wider than the format
        elif i % 71 == 0:
            sheet.write_number(i, 1, -42, five)
        else:
            sheet.write_number(i, 1, i * 13 % 1000, five)
        sheet.write_number(i, 2, i % 1000, three if i % 5 else None)  # a second padded column
        if i % 11 == 0:
            sheet.write(i, 3, "note")
    book.close()
    return path


def _values(rows: list[Row]) -> list[tuple[int, tuple[object, ...]]]:
    return [(r.number, tuple(r.values)) for r in rows]


def test_padded_columns_read_alike_by_both_engines(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "padded.xlsx")
    with open_sheet(path, engine="calamine") as fast, open_sheet(path, engine="openpyxl") as slow:
        a, b = list(fast.rows()), list(slow.rows())
    assert _values(a) == _values(b)
    zips = {r.number: r.values[1] for r in a}
    assert zips[2] == NumberText(13.0, "00013") and zips[3] == NumberText(26.0, "00026")
    assert zips[38] == "7" and zips[54] is None and zips[62] == 12.5  # row = i + 1
    assert zips[68] == 1234567.0 and zips[72] == NumberText(-42.0, "-00042")
    assert a[3].values[2] == NumberText(4.0, "004") and a[4].values[2] == 5.0  # row 6: no format


def _rows_out_of_order(path: Path) -> bytes:
    """The workbook with its data rows written in reverse order (the XML, not the numbers)."""
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    xml = parts["xl/worksheets/sheet1.xml"]
    rows = re.findall(rb"<row .*?</row>", xml, re.DOTALL)
    start, end = xml.index(rows[0]), xml.index(rows[-1]) + len(rows[-1])
    parts["xl/worksheets/sheet1.xml"] = xml[:start] + rows[0] + b"".join(rows[:0:-1]) + xml[end:]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize("engine", ["calamine", "openpyxl"])
def test_rows_out_of_order_keep_their_padding(tmp_path: Path, engine: str) -> None:
    content = _rows_out_of_order(_workbook(tmp_path / "padded.xlsx"))
    with open_sheet(_workbook(tmp_path / "again.xlsx"), engine="openpyxl") as reference:
        expected = sorted(_values(list(reference.rows())))
    with open_sheet(content, engine=engine, file_name="reversed.xlsx") as reader:
        assert sorted(_values(list(reader.rows()))) == expected
