"""open_rows_after: a resumed read gets only the rows after the last committed one, and
nothing (the caller reads the whole sheet) whenever that cannot be proven."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import xlsxwriter

from importer.excel import SheetReader, open_rows_after, open_sheet
from importer.excel import reader as excel_reader
from importer.excel.values import Row
from tests.forms.test_row_json import _tricky_workbook
from tests.support.jobs import orders_book

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


def _whole(content: bytes, sheet: str) -> tuple[list[str], int, list[Row]]:
    with open_sheet(content, sheet=sheet, engine="calamine", checked=True) as reader:
        return reader.header, reader.header_row, list(reader.rows())


def _after(content: bytes, sheet: str, last: int, /, **changes: object) -> SheetReader | None:
    """open_rows_after with what the whole read says is right, but for ``changes``."""
    header, header_row, rows = _whole(content, sheet)
    asked: dict[str, object] = {
        "sheet": sheet,
        "engine": "calamine",
        "header": header,
        "header_row": header_row,
        "last_row": last,
        "rows_left": sum(1 for row in rows if row.number > last),
        "file_name": "book.xlsx",
    }
    return open_rows_after(content, **{**asked, **changes})  # type: ignore[arg-type]


@pytest.fixture
def tricky(tmp_path: Path) -> bytes:
    return _tricky_workbook(tmp_path / "tricky.xlsx", padded=True).read_bytes()


@pytest.mark.parametrize("last", [2, 1000, 1700, 2400])
def test_the_cut_sheet_gives_exactly_the_rows_after_the_last(tricky: bytes, last: int) -> None:
    header, header_row, rows = _whole(tricky, "Data")
    reader = _after(tricky, "Data", last)
    assert reader is not None
    with reader:
        assert (reader.engine, reader.header, reader.header_row) == ("calamine", header, header_row)
        assert not reader.reads_in_pieces
        later = [row for batch in reader.batches(100, after_row=last) for row in batch]
    assert later == [row for row in rows if row.number > last]


def test_a_streaming_job_is_read_whole(tricky: bytes) -> None:
    assert _after(tricky, "Data", 1000, engine="openpyxl") is None


@pytest.mark.parametrize(
    "changes",
    [
        {"header": ["ID", "Name", "Quantity"]},  # not the header the job was read with
        {"header_row": 2},
        {"rows_left": 5},  # not as many rows left as the job has: the cut is not trusted
        {"last_row": 1},  # nothing committed after the header: nothing to cut
        {"sheet": "No such sheet"},
    ],
)
def test_what_cannot_be_proven_is_read_whole(tricky: bytes, changes: dict[str, object]) -> None:
    assert _after(tricky, "Data", 1000, **changes) is None


@pytest.mark.parametrize("name", ["orders.ods", "orders.xls"])
def test_only_xlsx_packages_are_cut(name: str) -> None:
    content = (SAMPLES / name).read_bytes()
    assert _after(content, "Orders", 10) is None


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every .xlsx sheet over the budget, read in pieces of a row or two."""
    monkeypatch.setattr(excel_reader, "piece_size", lambda *_: 256)
    monkeypatch.setattr(excel_reader, "estimate_calamine_bytes", lambda *_: 1 << 62)
    yield


@pytest.mark.usefixtures("small_pieces")
@pytest.mark.parametrize("last", [2, 150, 301])
def test_a_sheet_in_pieces_starts_at_the_piece_of_the_next_row(tmp_path: Path, last: int) -> None:
    content = orders_book(tmp_path / "orders.xlsx", 300).path.read_bytes()
    _, _, rows = _whole(content, "Orders")
    reader = _after(content, "Orders", last)
    assert reader is not None
    with reader:
        assert reader.reads_in_pieces
        later = [row for batch in reader.batches(10, after_row=last) for row in batch]
    assert later == [row for row in rows if row.number > last]


@pytest.mark.usefixtures("small_pieces")
def test_a_sheet_in_pieces_with_another_header_is_read_whole(tmp_path: Path) -> None:
    content = orders_book(tmp_path / "orders.xlsx", 300).path.read_bytes()
    assert _after(content, "Orders", 150, header=["order", "customer", "amount"]) is None


def test_the_cut_read_pads_only_the_rows_it_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A column of padded numbers broken into a run per row (ZIPs beside texts): the cut
    read's header search passes over the rows above the cut without padding them one by
    one (it did, each call copying the later runs: quadratic, a 200,000-row resume took as
    long as the whole import)."""
    from importer.excel.special_cells import PaddedIndex

    path = tmp_path / "zips.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Data")
    five = book.add_format({"num_format": "00000"})
    sheet.write_row(0, 0, ["Name", "ZIP"])
    for i in range(1, 3001):
        sheet.write(i, 0, f"n{i}")
        if i % 2:
            sheet.write_number(i, 1, i, five)
        else:
            sheet.write_string(i, 1, f"{i:05d}")
    book.close()
    content = path.read_bytes()
    _, _, rows = _whole(content, "Data")
    calls: list[int] = []
    pad = PaddedIndex.pad

    def counted(self: PaddedIndex, raws: Any, numbers: Any, lead: int = 0) -> None:
        calls.append(len(numbers))
        pad(self, raws, numbers, lead)

    monkeypatch.setattr(PaddedIndex, "pad", counted)
    reader = _after(content, "Data", 2900)
    assert reader is not None
    with reader:
        later = [row for batch in reader.batches(50, after_row=2900) for row in batch]
    assert later == [row for row in rows if row.number > 2900]
    assert len(calls) <= len(later), f"{len(calls)} calls to pad for {len(later)} rows"
