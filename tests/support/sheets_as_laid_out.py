"""Small workbooks laid out as people lay them out, one case each: where a person sees the
header (``HEADER``: first and last Excel row) and the data rows (``DATA``) of each."""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import xlsxwriter

PEOPLE = [
    ("David Bowie", "musician", 69, True, dt.date(1947, 1, 8)),
    ("Carrie Fisher", "actor", 60, True, dt.date(1956, 10, 21)),
    ("Chuck Berry", "musician", 90, True, dt.date(1926, 10, 18)),
    ("Bill Paxton", "actor", 61, True, dt.date(1955, 5, 17)),
    ("Prince", "musician", 57, True, dt.date(1958, 6, 7)),
    ("Alan Rickman", "actor", 69, False, dt.date(1946, 2, 21)),
    ("Harper Lee", "author", 89, False, dt.date(1926, 4, 28)),
    ("Zsa Zsa Gabor", "actor", 99, True, dt.date(1917, 2, 6)),
    ("George Michael", "musician", 53, False, dt.date(1963, 6, 25)),
    ("Vera Rubin", "scientist", 88, True, dt.date(1928, 7, 23)),
]
CUSTOMERS = ["Alpine Bikes", "Baker & Sons", "Cafe Central", "Delta Logistics", "Elmwood"]
REGIONS = ["North", "South", "East", "West"]


def _book(path: Path) -> xlsxwriter.Workbook:
    return xlsxwriter.Workbook(str(path), {"strings_to_numbers": False})


def _people(sheet: object, first: int, date: object) -> int:
    """The people from 0-based row ``first``; the row after them."""
    for n, (name, job, age, kids, born) in enumerate(PEOPLE):
        sheet.write_row(first + n, 0, [name, job, age, kids])  # type: ignore[attr-defined]
        sheet.write_datetime(first + n, 4, dt.datetime.combine(born, dt.time()), date)  # type: ignore[attr-defined]
    return first + len(PEOPLE)


def prose_around(path: Path) -> Path:
    """Prose split across cells above the header (one of its words merged over four
    cells), the header in row 5, ten people, a blank row and two lines of notes."""
    book = _book(path)
    sheet = book.add_worksheet("arts")
    date = book.add_format({"num_format": "yyyy-mm-dd"})
    sheet.write("A1", "Lots of people")
    sheet.write("A2", "simply cannot resist writing")
    sheet.write("F2", "some notes")
    sheet.write_row("A3", ["at", "the", "top", None, "of", "their spreadsheets"])
    sheet.write("A4", "or")
    sheet.merge_range("B4:D4", "merging", None)
    sheet.write("F4", "cells")
    sheet.write_row("A5", ["Name", "Profession", "Age", "Has kids", "Date of birth"])
    end = _people(sheet, 5, date)
    sheet.write(end + 1, 0, "Some also like to write stuff at the bottom,")
    sheet.write(end + 2, 1, "Source: the news, 2016.")
    book.close()
    return path


def label_pairs(path: Path) -> Path:
    """`Label: value` pairs above the header (row 4), twelve customers."""
    book = _book(path)
    sheet = book.add_worksheet("Mailing")
    sheet.write_row("A1", ["PROGRAM/CHANNEL:", "Rewards+", "LETTERSHOP:", "FGS"])
    sheet.write_row("A2", ["DROP DATE:", "2024-03-01", "QTY:", "12000"])
    sheet.write_row("A4", ["Customer ID", "Name", "Segment", "Spend"])
    for n in range(12):
        sheet.write_row(4 + n, 0, [1001 + n, CUSTOMERS[n % 5], "gold" if n % 2 else "silver"])
        sheet.write_number(4 + n, 3, 12.5 * (n + 1))
    book.close()
    return path


def pivot_filter(path: Path) -> Path:
    """A pivot table: its page filter `Country | (All)`, a blank row, the header in row 3,
    four regions and a Grand Total row."""
    book = _book(path)
    sheet = book.add_worksheet("Pivot")
    sheet.write_row("A1", ["Country", "(All)"])
    sheet.write_row("A3", ["Region", "Q1", "Q2", "Q3"])
    totals = [0.0, 0.0, 0.0]
    for n, region in enumerate(REGIONS):
        values = [100.0 * (n + 1) + q for q in range(3)]
        totals = [t + v for t, v in zip(totals, values, strict=True)]
        sheet.write_row(3 + n, 0, [region, *values])
    sheet.write_row(3 + len(REGIONS), 0, ["Grand Total", *totals])
    book.close()
    return path


def column_letters(path: Path) -> Path:
    """Column letters A..F above the names (row 2), fifteen orders."""
    book = _book(path)
    sheet = book.add_worksheet("Orders")
    sheet.write_row("A1", list("ABCDEF"))
    sheet.write_row("A2", ["Order ID", "Customer", "Region", "Qty", "Price", "Paid"])
    for n in range(15):
        sheet.write_row(2 + n, 0, [5001 + n, CUSTOMERS[n % 5], REGIONS[n % 4], n + 1])
        sheet.write_row(2 + n, 4, [9.5 + n, n % 3 == 0])
    book.close()
    return path


def query_above(path: Path) -> Path:
    """A small table describing the query (its header holds the big one's names and one
    more) above the real table: rows 1-3, a blank row, the header in row 5, 15 orders."""
    book = _book(path)
    sheet = book.add_worksheet("Export")
    sheet.write_row("A1", ["Customer", "Region", "Amount", "Filter"])
    sheet.write_row("A2", ["*", "North", ">= 10", "open orders"])
    sheet.write_row("A3", ["*", "South", ">= 10", "open orders"])
    sheet.write_row("A5", ["Customer", "Region", "Amount"])
    for n in range(15):
        sheet.write_row(5 + n, 0, [CUSTOMERS[n % 5], REGIONS[n % 2], 10.0 + n])
    book.close()
    return path


def group_header(path: Path) -> Path:
    """A header over two rows: "Order ID" and "Customer" merged down, "Q1" and "Q2" merged
    across over "Units" and "Amount"; twelve rows."""
    book = _book(path)
    sheet = book.add_worksheet("Sales")
    sheet.merge_range("A1:A2", "Order ID", None)
    sheet.merge_range("B1:B2", "Customer", None)
    sheet.merge_range("C1:D1", "Q1", None)
    sheet.merge_range("E1:F1", "Q2", None)
    sheet.write_row("C2", ["Units", "Amount", "Units", "Amount"])
    for n in range(12):
        sheet.write_row(2 + n, 0, [7001 + n, CUSTOMERS[n % 5], n, 4.5 * n, n + 2, 3.25 * n])
    book.close()
    return path


def units_header(path: Path) -> Path:
    """Names in row 1 over their units in row 2, eight rows."""
    book = _book(path)
    sheet = book.add_worksheet("Parcels")
    sheet.write_row("A1", ["Parcel", "Weight", "Length", "Price"])
    sheet.write_row("A2", ["(code)", "(kg)", "(cm)", "(EUR)"])
    for n in range(8):
        sheet.write_row(2 + n, 0, [f"P-{100 + n}", 1.5 + n, 20 + n, 4.99 + n])
    book.close()
    return path


def blank_inside(path: Path) -> Path:
    """Ten orders, a blank row, ten more, a blank row and a line of notes."""
    book = _book(path)
    sheet = book.add_worksheet("Orders")
    sheet.write_row("A1", ["Order ID", "Customer", "Qty"])
    row = 1
    for n in range(20):
        row += n == 10  # the blank row between the two halves
        sheet.write_row(row, 0, [9001 + n, CUSTOMERS[n % 5], n + 1])
        row += 1
    sheet.write(row + 1, 0, "Orders of November, entered by the sales office.")
    book.close()
    return path


def summary_below(path: Path) -> Path:
    """Twelve orders, a blank row and a block of another shape: who made the list."""
    book = _book(path)
    sheet = book.add_worksheet("Orders")
    date = book.add_format({"num_format": "yyyy-mm-dd"})
    sheet.write_row("A1", ["Order ID", "Order date", "Qty"])
    for n in range(12):
        sheet.write_number(1 + n, 0, 4001 + n)
        sheet.write_datetime(1 + n, 1, dt.datetime(2026, 11, 1 + n), date)
        sheet.write_number(1 + n, 2, n + 1)
    sheet.write_row(14, 0, ["Prepared by", "Ann Smith"])
    sheet.write_row(15, 0, ["Checked by", "Bob Jones"])
    book.close()
    return path


def no_name_first(path: Path) -> Path:
    """The first column has no header (a line number), ten items and a Total row."""
    book = _book(path)
    sheet = book.add_worksheet("Items")
    sheet.write_row("B1", ["Product", "Qty", "Price"])
    for n in range(10):
        sheet.write_row(1 + n, 0, [n + 1, f"Item {n}", n + 1, 2.5 * n])
    sheet.write_row(11, 0, ["Total", None, 55, 112.5])
    book.close()
    return path


CASES: dict[str, tuple[Callable[[Path], Path], tuple[int, int], list[int]]] = {
    "prose_around": (prose_around, (5, 5), list(range(6, 16))),
    "label_pairs": (label_pairs, (4, 4), list(range(5, 17))),
    "pivot_filter": (pivot_filter, (3, 3), list(range(4, 8))),
    "column_letters": (column_letters, (2, 2), list(range(3, 18))),
    "query_above": (query_above, (5, 5), list(range(6, 21))),
    "group_header": (group_header, (1, 2), list(range(3, 15))),
    "units_header": (units_header, (1, 2), list(range(3, 11))),
    "blank_inside": (blank_inside, (1, 1), [*range(2, 12), *range(13, 23)]),
    "summary_below": (summary_below, (1, 1), list(range(2, 14))),
    "no_name_first": (no_name_first, (1, 1), list(range(2, 12))),
}


def saved_by_libreoffice(books: list[Path], suffix: str, target: str) -> list[Path]:
    """Each of ``books`` as LibreOffice Calc saves it (``soffice --convert-to target``),
    beside it as NAME.suffix."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    assert soffice is not None
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        profile = Path(tmp) / "profile"
        subprocess.run(
            [
                soffice,
                f"-env:UserInstallation=file://{profile}",
                "--headless",
                "--convert-to",
                target,
                "--outdir",
                str(out),
                *map(str, books),
            ],
            check=True,
            capture_output=True,
            timeout=180,
        )
        saved = []
        for book in books:
            made = next(out.glob(f"{book.stem}.*"))
            saved.append(shutil.move(made, book.with_name(book.stem + suffix)))
    return [Path(p) for p in saved]
