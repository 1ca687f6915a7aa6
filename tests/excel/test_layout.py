"""Headers below row 1 and over several rows, and the rows that are not data, on every
engine: excel/layout.py with each reader's rehead, and a resume's cut read."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer.errors import InputError
from importer.excel import open_rows_after, open_sheet
from importer.excel.layout import HeaderLayout, candidates, joined
from tests.support.layouts import TITLE, title_book

SKIP_TOTALS = {"skip_column": "Order ID", "skip_matches": r"^(Total|Sum)\b"}


@pytest.mark.parametrize("engine", ["calamine", "openpyxl"])
def test_the_header_moves_to_a_later_row_and_the_title_stays_above(
    tmp_path: Path, engine: str
) -> None:
    book = title_book(tmp_path / "orders.xlsx", rows=12, sums=True)
    with open_sheet(book, engine=engine) as first:
        assert first.header == [TITLE] and first.header_row == 1  # as it always was
    layout = HeaderLayout(row=5, stop_at_blank_row=True, **SKIP_TOTALS)  # type: ignore[arg-type]
    with open_sheet(book, engine=engine, layout=layout) as reader:
        assert (reader.header, reader.header_row) == (["Order ID", "Customer", "Qty"], 5)
        assert [n for n, _ in reader.above] == [1, 3]
        numbers = [row.number for batch in reader.batches(5) for row in batch]
        assert numbers == [*range(6, 16), 17, 18]  # row 16 is a Sum row; Total, note gone
        assert reader.count_rows() == 12 == len(numbers)
        assert reader.count_rows_after(15) == 2
        assert [r.number for b in reader.batches(5, skip=3, after_row=10) for r in b] == [
            14,
            15,
            17,
            18,
        ]


def test_without_stop_at_blank_row_the_note_is_a_row_and_the_totals_are_skipped(
    tmp_path: Path,
) -> None:
    book = title_book(tmp_path / "orders.xlsx", rows=3)
    with open_sheet(book, layout=HeaderLayout(row=5, **SKIP_TOTALS)) as reader:  # type: ignore[arg-type]
        rows = list(reader.rows())
    assert [r.number for r in rows] == [6, 7, 8, 12]
    assert rows[-1].values[0] == "Prices in EUR. Questions: orders@acme.example"


def test_a_resume_cut_finds_the_header_where_the_first_read_did(tmp_path: Path) -> None:
    book = title_book(tmp_path / "orders.xlsx", rows=40)
    content = book.read_bytes()
    layout = HeaderLayout(row=5, **SKIP_TOTALS)  # type: ignore[arg-type]
    cut = open_rows_after(
        content,
        sheet="Orders",
        engine="calamine",
        header=["Order ID", "Customer", "Qty"],
        header_row=5,
        last_row=30,
        rows_left=16,  # rows 31..45 and the note
        file_name="orders.xlsx",
        layout=layout,
    )
    assert cut is not None
    with cut:
        assert [r.number for r in cut.rows()][:2] == [31, 32]
    assert (
        open_rows_after(
            content,
            sheet="Orders",
            engine="calamine",
            header=["Order ID", "Customer", "Qty"],
            header_row=5,
            last_row=30,
            rows_left=16,
            file_name="orders.xlsx",
        )
        is None  # without the layout the cut's header would be the title: not proven
    )


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        # "Address" merged over two columns: each takes it as a prefix.
        (
            [["Order ID", "Address", None, "Amount"], [None, "Street", "City", None]],
            ["Order ID", "Address Street", "Address City", "Amount"],
        ),
        # A group's title over sub-headers that begin right of it (an empty column among
        # them, up to the next title); its own cell, with nothing under it, is no column.
        (
            [["Balance", None, None, None, "Debit"], [None, "Opening", None, "Ending", None]],
            ["", "Balance Opening", "", "Balance Ending", "Debit"],
        ),
        # Three rows: the top title reaches the columns with a text two rows below.
        (
            [["Current", None], [None, None], ["Population", "Share"]],
            ["Current Population", "Current Share"],
        ),
        ([["A", "B"], ["a", None]], ["A a", "B"]),
    ],
)
def test_a_header_over_two_rows_joins_each_column(
    rows: list[list[object]], expected: list[str]
) -> None:
    assert joined(rows) == expected


def test_candidates_and_a_row_that_is_no_header(tmp_path: Path) -> None:
    book = title_book(tmp_path / "orders.xlsx", rows=2)
    with open_sheet(book) as reader:
        found = candidates(reader.leading)
        assert [n for n, _ in found][:4] == [1, 3, 5, 6]
        with pytest.raises(InputError, match="row 2 is empty"):
            reader.rehead(2)
        with pytest.raises(InputError, match="beyond the first 30 rows"):
            reader.rehead(400)


def test_fill_merged_gives_a_merged_cells_value_to_every_cell_it_covers(tmp_path: Path) -> None:
    import xlsxwriter

    path = tmp_path / "regions.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet()
    sheet.write_row(0, 0, ["Region", "City", "Sales"])
    sheet.merge_range("A2:A4", "North")
    sheet.merge_range("A5:A6", "South")
    for i, city in enumerate(["Oslo", "Bergen", "Tromso", "Rome", "Naples"]):
        sheet.write_row(1 + i, 1, [city, i * 10])
    book.close()

    def regions(layout: HeaderLayout | None) -> list[object]:
        with open_sheet(path, engine="calamine", layout=layout) as reader:
            return [row.values[0] for row in reader.rows()]

    assert regions(None) == ["North", None, None, "South", None]  # as stored
    filled = ["North", "North", "North", "South", "South"]
    assert regions(HeaderLayout(fill_columns=())) == filled  # every column
    assert regions(HeaderLayout(fill_columns=("Region",))) == filled  # a field's
    assert regions(HeaderLayout(fill_columns=("Sales",))) == ["North", None, None, "South", None]
