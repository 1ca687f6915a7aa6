"""Rows holding the sums of the rows under them (excel/group_sums.py): a pivot table's
subtotal above its group is left out by ``skip_rows = ["group_sums"]``, counted, proposed
by `forms infer`; rows that merely add up by chance stay data, and the filter reads at most
its window of rows ahead."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from importer.excel import open_sheet
from importer.excel.group_sums import WINDOW, GroupSums, window_rows
from importer.excel.layout import HeaderLayout
from importer.excel.values import Row
from importer.forms.inference import infer_workbook_form
from tests.support.layouts import rows_book

LABELLED = Path(__file__).resolve().parents[1] / "corpus" / "labelled" / "files"


def _read(
    path: Path, row: int, kinds: tuple[str, ...]
) -> tuple[list[int], list[dict[str, object]]]:
    with open_sheet(path, layout=HeaderLayout(row=row, skip_rows=kinds)) as reader:
        numbers = [r.number for r in reader.rows()]
        return numbers, reader.rows_not_read()


# A pivot table laid out compact: each month's subtotal on the month's row, above the
# countries it sums; a blank-free block ending in the grand total.
PIVOT: list[list[object]] = [
    ["Returns per month and province"],
    ["Row Labels", "Faryab", "Herat", "Kabul", "Total Result"],  # row 2
    ["January", 6, 17, 11, 34],  # row 3: rows 4-6
    ["Iran", None, 5, 1, 6],
    ["Pakistan", 6, 12, 8, 26],
    ["Other", None, None, 2, 2],
    ["February", 3, 4, 5, 12],  # row 7: rows 8-9
    ["Iran", 1, 4, None, 5],
    ["Pakistan", 2, None, 5, 7],
    ["Total Result", 9, 21, 16, 46],  # row 10
]


def test_a_subtotal_above_the_rows_it_sums_is_left_out_and_counted(tmp_path: Path) -> None:
    book = rows_book(tmp_path / "pivot.xlsx", PIVOT)
    numbers, not_read = _read(book, 2, ("group_sums", "totals"))
    assert numbers == [4, 5, 6, 8, 9]
    assert not_read == [
        {"why": "above_header", "rows": 1, "first": 1, "last": 1, "some": [1], "header_row": 2},
        {"why": "group_sums", "rows": 2, "first": 3, "last": 7, "some": [3, 7]},
        {"why": "totals", "rows": 1, "first": 10, "last": 10, "some": [10]},
    ]
    assert _read(book, 2, ("totals",))[0] == [3, 4, 5, 6, 7, 8, 9]  # without the kind: data
    inferred = infer_workbook_form(book, name="pivot").form
    assert "group_sums" in inferred.layout.skip_rows


def test_the_real_pivot_reads_its_three_countries() -> None:
    """hdx-python-utilities' pivot of Afghan returns: January's subtotal over three
    countries, then Total Result."""
    book = LABELLED / "hdx-python-utilities-4.2.5" / "file_hashing" / "test.xlsx"
    inferred = infer_workbook_form(book, sheet="Afghan_VolRep").form
    assert "group_sums" in inferred.layout.skip_rows
    with open_sheet(book, sheet="Afghan_VolRep", layout=inferred.layout.excel(3)) as reader:
        assert [r.number for r in reader.rows()] == [5, 6, 7]


def test_rows_that_add_up_by_chance_stay_data(tmp_path: Path) -> None:
    rows: list[list[object]] = [
        ["Item", "Units", "Price"],
        ["a", 5, 10],  # the sum of the next two rows, but the data goes on after them
        ["b", 2, 4],
        ["c", 3, 6],
        ["d", 7, 1],
        ["e", 4, 3],  # the sum of a row of zeros and one other: one row with numbers
        ["f", 0, 0],
        ["g", 4, 3],
    ]
    rows += [["h", 3, 1], ["i", 1, 0], ["j", 2, 1], ["k", 2, 0], ["l", 1, 0], ["m", 1, 0]]
    rows += [["n", 7, 2], ["o", 9, 5]]  # 3 sums the next two, 2 the two after: data goes on
    book = rows_book(tmp_path / "chance.xlsx", rows)
    assert _read(book, 1, ("group_sums",)) == (list(range(2, 17)), [])
    assert "group_sums" not in infer_workbook_form(book, name="chance").form.layout.skip_rows


def _rows(values: Sequence[Sequence[object]], read: list[int]) -> Iterator[Row]:
    for number, cells in enumerate(values, start=2):
        read.append(number)
        yield Row(number, tuple(cells))


def test_the_filter_holds_a_window_of_rows_and_a_longer_group_is_data() -> None:
    long = [[float(WINDOW + 10)], *([[1.0]] * (WINDOW + 10))]  # a group longer than the window
    read: list[int] = []
    left: list[int] = []
    rows = GroupSums(left.append).rows(_rows(long, read))
    first = next(rows)
    assert first.number == 2 and len(read) == WINDOW + 1  # read ahead: its window, no more
    assert [first, *rows][-1].number == WINDOW + 12 and left == []
    short = [[4.0], *([[1.0]] * 4)]
    assert [r.number for r in GroupSums(left.append).rows(_rows(short, []))] == [3, 4, 5, 6]
    assert left == [2]
    assert window_rows(4) == WINDOW and window_rows(16_384) < WINDOW  # fewer when wide
