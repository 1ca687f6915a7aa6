"""Lines of notes told from rows of a table by its shape (excel/row_shape.py): lines right
under the data with texts where the data hold numbers or dates, and a remark under one
header cell; left out by ``skip_rows = ["notes"]``, counted, and proposed by `forms infer`."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from importer.excel import open_sheet
from importer.excel.layout import HeaderLayout
from importer.forms.inference import infer_workbook_form
from tests.support.layouts import rows_book

HEADER = ["Name", "Profession", "Age", "Has kids", "Date of birth"]


def _people(count: int) -> list[list[object]]:
    return [
        [f"Person {i}", "actor", 40 + i, i % 2 == 0, date(1950 + i, 1, 1)] for i in range(count)
    ]


def _read(path: Path, kinds: tuple[str, ...]) -> tuple[list[int], list[dict[str, object]]]:
    with open_sheet(path, layout=HeaderLayout(row=1, skip_rows=kinds)) as reader:
        numbers = [row.number for row in reader.rows()]
        return numbers, reader.rows_not_read()


def test_lines_under_the_data_without_a_blank_row_that_are_not_its_shape_are_notes(
    tmp_path: Path,
) -> None:
    notes: list[list[object]] = [
        ["Some"],
        [None, "also like to write"],
        [None, None, "at the", "bottom,"],  # texts where the data hold numbers and yes/no
        [None, None, None, None, "too!"],
    ]
    book = rows_book(tmp_path / "deaths.xlsx", [HEADER, *_people(6), *notes])
    numbers, not_read = _read(book, ("notes",))
    assert numbers == list(range(2, 8))
    assert not_read == [{"why": "notes", "rows": 4, "first": 8, "last": 11, "some": [8, 9, 10, 11]}]
    assert _read(book, ())[0] == list(range(2, 12))  # without the kind: every line is a row
    inferred = infer_workbook_form(book, name="deaths")
    assert inferred.form.layout.skip_rows == ("notes",)


def test_a_line_of_texts_that_a_data_row_follows_is_data_and_a_table_of_texts_keeps_its_rows(
    tmp_path: Path,
) -> None:
    odd = [None, None, "unknown", "n/a"]
    book = rows_book(tmp_path / "odd.xlsx", [HEADER, *_people(3), odd, *_people(2)])
    assert _read(book, ("notes",))[0] == list(range(2, 8))
    texts = [["Code", "Name", "City"], *[[f"C{i}", f"N{i}", "Oslo"] for i in range(5)]]
    short = rows_book(tmp_path / "texts.xlsx", [*texts, ["C9", "Last"]])
    assert _read(short, ("notes",))[0] == list(range(2, 8))
    assert infer_workbook_form(short, name="texts").form.layout.skip_rows == ()


def test_a_remark_under_one_header_cell_is_a_note(tmp_path: Path) -> None:
    header = ["Payment", "Balance", "Interest", "Extra"]
    remark: list[object] = [None, None, None, "Payments are entered as negative numbers"]
    data = [[i, 1000.0 - i, 0.06, None] for i in range(1, 6)]
    book = rows_book(tmp_path / "loan.xlsx", [header, remark, *data])
    numbers, not_read = _read(book, ("notes",))
    assert numbers == list(range(3, 8)) and not_read[0]["first"] == 2
    inferred = infer_workbook_form(book, name="loan")
    assert inferred.form.layout.skip_rows == ("notes",)
    named = rows_book(tmp_path / "named.xlsx", [header, ["First", 1.0, 0.1, None], *data])
    assert _read(named, ("notes",))[0] == list(range(2, 8))  # a text where texts are: data
