"""Bench workbooks as people fill them in: cells change type from row to row in several
columns, half and half, as in sheets typed by several hands or pasted from other systems.

- a customer number as a number, or the same number typed as text;
- a unique Unicode name per row (accents, other scripts);
- ZIP codes as numbers formatted ``00000`` beside ZIP codes typed as text;
- date cells (two display formats) beside dates typed as text in three formats: ISO,
  ``DD/MM/YYYY`` and ``DD.MM.YYYY`` (the form reads the last two);
- amounts as numbers, or typed with thousands separators;
- booleans as TRUE/FALSE cells beside ``Yes`` / ``no`` / ``Y`` / ``N`` / ``true`` words;
- empty cells where the form's fields are optional;
- a helper column the form does not read, with ``#N/A`` error cells (a lookup that missed);
- ``invalid`` of the rows with one flaw each, among them ``#N/A`` in an amount.

Made once per size and share of invalid rows, kept under .bench/ (bench/workbooks.py).
"""

from __future__ import annotations

import random
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from bench.workbooks import CACHE, ROOT, STATUSES

LAYOUT = "m1"  # in the cached file's name: a change of layout never reuses an older file
FORM_NAME = "bench_mixed"

HEADER = (
    "Order ID",
    "Customer No",
    "Customer",
    "Email",
    "Order Date",
    "ZIP",
    "Amount",
    "Status",
    "Paid",
    "Lookup",  # not in the form: ignored (a lookup that misses shows #N/A)
    "Region",
)

FORM = f"""name = "{FORM_NAME}"
[[fields]]
name = "order_id"
header = "Order ID"
type = "integer"
required = true
[[fields]]
name = "customer_no"
header = "Customer No"
type = "integer"
required = true
min = 1
[[fields]]
name = "customer"
header = "Customer"
type = "string"
required = true
[[fields]]
name = "email"
header = "Email"
type = "email"
[[fields]]
name = "order_date"
header = "Order Date"
type = "date"
formats = ["%d/%m/%Y", "%d.%m.%Y"]
[[fields]]
name = "zip"
header = "ZIP"
type = "string"
pattern = "^[0-9]{{5}}$"
[[fields]]
name = "amount"
header = "Amount"
type = "decimal"
min = 0
[[fields]]
name = "status"
header = "Status"
type = "enum"
choices = {list(STATUSES)!r}
[[fields]]
name = "paid"
header = "Paid"
type = "boolean"
[[fields]]
name = "region"
header = "Region"
type = "string"
"""

_FIRST = ("Zoë", "José", "Łukasz", "Søren", "Ангелина", "Çağla", "Nguyễn", "Jürgen", "Ana", "李")
_LAST = ("Müller", "Ødegård", "Nuñez", "Dvořák", "Ивanova", "Öztürk", "O'Brien", "Smith", "王")
_REGIONS = ("Nord", "Süd", "Île-de-France", "Østlandet", "Castilla y León")
_FLAWS = 8


def mixed(rows: int, invalid: float) -> Path:
    """The mixed workbook of ``rows`` data rows, ``invalid`` of them invalid (made once)."""
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"mixed-{LAYOUT}-{rows}-invalid{float(invalid)}.xlsx"
    if not path.exists():
        partial = path.with_suffix(".partial.xlsx")
        # A process of its own, as bench/workbooks.py makes its books: the writer's memory
        # never counts in a later command's peak.
        command = [sys.executable, "-m", "bench.mixed_books", str(rows), str(invalid), str(partial)]
        subprocess.run(command, check=True, cwd=ROOT)
        partial.replace(path)
    return path


class _Writer:
    """One row at a time, each mixed column choosing its cell's type."""

    def __init__(self, book: Any, sheet: Any, rng: random.Random) -> None:
        self.sheet = sheet
        self.rng = rng
        self.iso_day = book.add_format({"num_format": "yyyy-mm-dd"})
        self.local_day = book.add_format({"num_format": "dd/mm/yyyy"})
        self.zip_code = book.add_format({"num_format": "00000"})
        self.money = book.add_format({"num_format": "#,##0.00"})
        self.start = date(2023, 1, 1)

    def row(self, r: int, index: int, flaw: int) -> None:
        rng, sheet = self.rng, self.sheet
        sheet.write_number(r, 0, index + 1)
        customer_no = rng.randrange(1, 5_000)
        if flaw == 0:
            sheet.write_string(r, 1, f"{customer_no}-A")
        elif rng.random() < 0.5:
            sheet.write_number(r, 1, customer_no)
        else:
            sheet.write_string(r, 1, str(customer_no))  # a number typed as text
        name = f"{rng.choice(_FIRST)} {rng.choice(_LAST)} {index:07d}"
        sheet.write_string(r, 2, name)
        if flaw == 1:
            sheet.write_string(r, 3, f"buyer{index} at example")
        elif rng.random() < 0.85:
            sheet.write_string(r, 3, f"buyer{index}@example.com")
        self.day(r, flaw == 2)
        self.zip(r, flaw == 3)
        self.amount(r, flaw)
        sheet.write_string(r, 7, "lost" if flaw == 6 else rng.choice(STATUSES))
        self.paid(r, flaw == 7)
        if rng.random() < 0.04:
            sheet.write_formula(r, 9, "=NA()", None, "#N/A")
        elif rng.random() < 0.3:
            sheet.write_string(r, 9, rng.choice(("gift", "call first", "fragile", "VIP")))
        if rng.random() < 0.7:
            sheet.write_string(r, 10, rng.choice(_REGIONS))

    def day(self, r: int, flawed: bool) -> None:
        rng = self.rng
        when = self.start + timedelta(days=rng.randrange(900))
        pick = rng.random()
        if flawed:
            self.sheet.write_string(r, 4, rng.choice(("soon", "31/02/2024", "2024-13-01")))
        elif pick < 0.05:
            return  # optional: left empty
        elif pick < 0.5:
            fmt = self.iso_day if rng.random() < 0.5 else self.local_day
            self.sheet.write_datetime(r, 4, when, fmt)
        elif pick < 0.7:
            self.sheet.write_string(r, 4, when.isoformat())
        elif pick < 0.9:
            self.sheet.write_string(r, 4, when.strftime("%d/%m/%Y"))
        else:
            self.sheet.write_string(r, 4, when.strftime("%d.%m.%Y"))

    def zip(self, r: int, flawed: bool) -> None:
        number = self.rng.randrange(501, 99950)
        if flawed:
            self.sheet.write_string(r, 5, f"Z{number:04d}")
        elif self.rng.random() < 0.5:
            self.sheet.write_number(r, 5, number, self.zip_code)  # "00501" as Excel shows it
        else:
            self.sheet.write_string(r, 5, f"{number:05d}")  # typed as text

    def amount(self, r: int, flaw: int) -> None:
        rng = self.rng
        value = round(rng.uniform(1, 5_000), 2)
        if flaw == 4:
            self.sheet.write_number(r, 6, -value, self.money)  # below min
        elif flaw == 5:
            self.sheet.write_formula(r, 6, "=NA()", self.money, "#N/A")
        elif rng.random() < 0.05:
            return  # optional: left empty
        elif rng.random() < 0.2:
            self.sheet.write_string(r, 6, f"{value:,.2f}")  # typed with separators
        else:
            self.sheet.write_number(r, 6, value, self.money)

    def paid(self, r: int, flawed: bool) -> None:
        rng = self.rng
        paid = rng.random() < 0.5
        if flawed:
            self.sheet.write_string(r, 8, "maybe")
        elif rng.random() < 0.5:
            self.sheet.write_boolean(r, 8, paid)
        else:
            words = ("Yes", "Y", "true") if paid else ("no", "N", "false")
            self.sheet.write_string(r, 8, rng.choice(words))


def _write(path: Path, rows: int, invalid: float) -> None:
    import xlsxwriter

    rng = random.Random(rows * 1000 + round(invalid * 1000))
    book = xlsxwriter.Workbook(str(path), {"strings_to_numbers": False})
    sheet = book.add_worksheet("Orders")
    sheet.write_row(0, 0, HEADER, book.add_format({"bold": True}))
    sheet.freeze_panes(1, 0)
    writer = _Writer(book, sheet, rng)
    for index in range(rows):
        flaw = rng.randrange(_FLAWS) if rng.random() < invalid else -1
        writer.row(index + 1, index, flaw)
    sheet.set_column(0, len(HEADER) - 1, 14)
    book.close()


if __name__ == "__main__":
    _write(Path(sys.argv[3]), int(sys.argv[1]), float(sys.argv[2]))
