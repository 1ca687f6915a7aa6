"""The rows the columnar checks leave unsettled, rebuilt from their texts and their XML's
types (importer/columnar/rebuilt.py), are the cells the row path's reader gives: each
value and its type, row by row, against the same rows read again exactly."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

from bench import mixed_books
from importer.columnar import sheet as sheet_module
from importer.columnar.batches import with_pads
from importer.columnar.checks import blank
from importer.columnar.sheet import ROW, ColumnarSheet, LoadedPiece
from importer.excel.sniff import make_source
from importer.excel.xlsx_parts import read_xlsx_info
from tests.running.test_columnar_path import write_odd_book


def opened(book: Path) -> ColumnarSheet:
    source = make_source(book, book.name)
    with source.open() as handle, zipfile.ZipFile(handle) as archive:
        info = read_xlsx_info(archive, book.name)
    part = info.sheets[0].path
    assert part is not None
    return ColumnarSheet(source, info, part, sheet_name=info.sheets[0].name, after_row=0)


def every_row(columns: ColumnarSheet) -> Iterator[tuple[LoadedPiece, pl.DataFrame]]:
    """Each piece and all of its rows as the checks hand the unsettled ones over."""
    texts = [f"c{i}" for i in range(len(columns.header))]
    for loaded in columns.pieces():
        frame = loaded.frame.filter(pl.col(ROW) > columns.after_row)
        frame = frame.filter(~pl.all_horizontal([blank(pl.col(c)) for c in texts]))
        frame = with_pads(frame, loaded)
        pads = [c for c in frame.columns if c.startswith("__pad")]
        yield loaded, frame.select(ROW, *texts, *pads)


def typed(cells: list[object]) -> list[tuple[type, object]]:
    return [(type(v), v) for v in cells]


def compared(book: Path) -> tuple[int, list[int]]:
    """How many rows were rebuilt, each equal to its exact read; and the rows read again."""
    rebuilt, others = 0, []
    with opened(book) as columns:
        for loaded, rows in every_row(columns):
            batch, left = columns.rebuilt(loaded, rows)
            again = columns.exact(loaded, batch.numbers)
            assert batch.numbers == again.numbers
            for number, mine, exact in zip(batch.numbers, batch.cells, again.cells, strict=True):
                assert typed(list(mine)) == typed(list(exact)), number
            rebuilt += len(batch.numbers)
            others += left
    return rebuilt, others


@pytest.mark.parametrize("share", [0.1, 0.3])
def test_the_mixed_books_rows_are_rebuilt_every_one_as_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, share: float
) -> None:
    monkeypatch.setattr(sheet_module, "PIECE_BYTES", 64 << 10)  # several pieces
    book = tmp_path / "mixed.xlsx"
    mixed_books._write(book, 1_500, share)
    rebuilt, others = compared(book)
    # Error cells (#N/A in an amount, in the lookup column) included: none is read again.
    assert (rebuilt, others) == (1_500, [])


def test_odd_cells_are_rebuilt_as_read_or_left_to_the_exact_read(tmp_path: Path) -> None:
    book = tmp_path / "odd.xlsx"
    write_odd_book(book)
    rebuilt, others = compared(book)
    # Left to the exact read: the date cells with a time (two), the day before March
    # 1900 (a serial the reader may take for a time of day).
    assert len(others) == 3
    assert rebuilt > 300
