"""Workbooks laid out as people make them: a title above the header, totals and notes below."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import openpyxl
import xlsxwriter

TITLE = "ACME Corp - Orders export, December 2026"


def title_book(path: Path, rows: int = 6, *, bad: tuple[int, ...] = (), sums: bool = False) -> Path:
    """A title in A1 (merged), a date line in A3, the header in row 5, data from row 6, a
    blank row, a Total row, a blank row and a note. ``bad``: data rows (0-based) whose
    order id is not a number; ``sums``: a "Sum" row after every 10 rows."""
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Orders")
    sheet.merge_range("A1:C1", TITLE, book.add_format({"bold": True}))
    sheet.write("A3", "Exported 2026-12-01")
    sheet.write_row(4, 0, ["Order ID", "Customer", "Qty"])
    at = 5
    for i in range(rows):
        sheet.write_row(at, 0, ["n/a" if i in bad else i + 1, f"Customer {i}", i % 7])
        at += 1
        if sums and (i + 1) % 10 == 0:
            sheet.write_row(at, 0, ["Sum", None, 99])
            at += 1
    sheet.write_row(at + 1, 0, ["Total", None, 999])
    sheet.write(at + 3, 0, "Prices in EUR. Questions: orders@acme.example")
    book.close()
    return path


def rows_book(path: Path, rows: Sequence[Sequence[object]]) -> Path:
    """A workbook of one sheet holding ``rows`` from A1 down (an empty list: a blank row)."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path
