"""Workbooks laid out as people make them, for the layout tests of `importer`.

    python -m tests.corpus.layouts.generate [--libreoffice] [OUTDIR]

writes NAME.xlsx for each layout below into OUTDIR (default: this folder), with fixed
contents and a fixed creation date, so that a run gives the same workbooks again. With
--libreoffice, each is then saved by LibreOffice Calc (`soffice --headless --convert-to`)
as NAME.xls, NAME.ods and NAME.lo.xlsx (LibreOffice's own .xlsx).

- title_rows: a bold title merged over A1:F1, a blank row, an "Exported ..." line, a blank
  row, the header in row 5, the orders, a blank row, a "Total" row (sums as values), a
  blank row and a line of notes.
- two_row_header: the header over rows 1-2: "Order ID", "Customer" and "Amount" merged
  down over both rows, "Address" merged across C1:D1 over "Street" and "City".
- sum_rows: the header in row 1, a "Sum" row (the subtotal) after every 10 invoices and a
  "Total" row at the end.
- several_sheets: "Customers" and "Orders" (the orders refer to customers by id) and a
  hidden sheet "Lists".
- notes_below: the header in row 1, 20 products, a blank row and 3 lines of notes in A.

tests/corpus/layouts/manifest.json says, for each file, where its header and its data rows
are: worked out by reading the files written here and LibreOffice's copies.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import xlsxwriter
from xlsxwriter.workbook import Workbook

HERE = Path(__file__).resolve().parent
CREATED = dt.datetime(2026, 12, 1, 9, 0, 0)
CUSTOMERS = [
    "Alpine Bikes GmbH",
    "Baker & Sons Ltd",
    "Café Central",
    "Delta Logistics BV",
    "Elmwood Dental",
    "Fjord Fisheries AS",
    "Green Leaf Market",
    "Hôtel du Lac",
    "Iberia Tiles SL",
    "Juniper Studio",
    "Kestrel Aviation",
    "Lumen Optics",
    "Meadow Farm Dairy",
    "Nordic Knitwear",
    "Orchard Cider Co",
    "Pioneer Tools",
    "Quarry Stoneworks",
    "Riverside Bakery",
    "Saffron Kitchen",
    "Tidewater Boats",
]
STREETS = [
    "12 Market Street",
    "4 Rue de la Paix",
    "88 Harbour Road",
    "Hauptstraße 7",
    "3 Mill Lane",
    "Calle Mayor 21",
    "19 Station Road",
    "Via Roma 45",
    "2 Church Walk",
    "Kungsgatan 10",
]
CITIES = ["Leeds", "Paris", "Bristol", "Munich", "York", "Madrid", "Cardiff", "Rome", "Bath"]
PRODUCTS = [
    "Bolt M6x20",
    "Bolt M8x30",
    "Nut M6",
    "Nut M8",
    "Washer 6 mm",
    "Washer 8 mm",
    "Hinge 60 mm",
    "Hinge 80 mm",
    "Bracket L 40",
    "Bracket L 60",
    "Screw 4x30",
    "Screw 4x40",
    "Screw 5x50",
    "Anchor 6 mm",
    "Anchor 8 mm",
    "Chain 1 m",
    "Hook S 40",
    "Rivet 4 mm",
    "Spring 20 mm",
    "Pin 3x20",
]


def new_book(path: Path) -> Workbook:
    book = xlsxwriter.Workbook(str(path), {"strings_to_numbers": False})
    book.set_properties({"title": path.stem, "author": "importer tests", "created": CREATED})
    return book


def title_rows(path: Path) -> None:
    rng = random.Random(1)
    book = new_book(path)
    sheet = book.add_worksheet("Orders")
    bold = book.add_format({"bold": True, "font_size": 14})
    head = book.add_format({"bold": True, "bottom": 1})
    day = book.add_format({"num_format": "yyyy-mm-dd"})
    money = book.add_format({"num_format": "#,##0.00"})
    total_label = book.add_format({"bold": True, "top": 1})
    total_money = book.add_format({"bold": True, "top": 1, "num_format": "#,##0.00"})
    total_qty = book.add_format({"bold": True, "top": 1})
    sheet.merge_range("A1:F1", "ACME Corp - Orders export, December 2026", bold)
    sheet.write_string("A3", "Exported 2026-12-01")
    header = ["Order ID", "Customer", "Order date", "Qty", "Unit price", "Total"]
    sheet.write_row("A5", header, head)
    row = 5  # 0-based: Excel row 6
    qty_sum, money_sum = 0, 0.0
    for n in range(30):
        qty = rng.randint(1, 40)
        price = rng.choice([4.5, 9.99, 12.0, 19.9, 25.0, 49.5, 120.0])
        total = round(qty * price, 2)
        qty_sum += qty
        money_sum += total
        sheet.write_number(row, 0, 50001 + n)
        sheet.write_string(row, 1, CUSTOMERS[rng.randrange(len(CUSTOMERS))])
        sheet.write_datetime(row, 2, dt.datetime(2026, 11, 1 + n % 30), day)
        sheet.write_number(row, 3, qty)
        sheet.write_number(row, 4, price, money)
        sheet.write_number(row, 5, total, money)
        row += 1
    row += 1  # a blank row
    sheet.write_string(row, 0, "Total", total_label)
    sheet.write_blank(row, 1, None, total_label)
    sheet.write_blank(row, 2, None, total_label)
    sheet.write_number(row, 3, qty_sum, total_qty)
    sheet.write_blank(row, 4, None, total_label)
    sheet.write_number(row, 5, round(money_sum, 2), total_money)
    row += 2  # a blank row, then the notes
    sheet.write_string(row, 0, "Prices in EUR. Questions: orders@acme.example")
    sheet.set_column("A:A", 10)
    sheet.set_column("B:B", 22)
    sheet.set_column("C:F", 12)
    book.close()


def two_row_header(path: Path) -> None:
    rng = random.Random(2)
    book = new_book(path)
    sheet = book.add_worksheet("Orders")
    head = book.add_format({"bold": True, "align": "center", "valign": "vcenter", "border": 1})
    money = book.add_format({"num_format": "#,##0.00"})
    sheet.merge_range("A1:A2", "Order ID", head)
    sheet.merge_range("B1:B2", "Customer", head)
    sheet.merge_range("C1:D1", "Address", head)
    sheet.write_string("C2", "Street", head)
    sheet.write_string("D2", "City", head)
    sheet.merge_range("E1:E2", "Amount", head)
    for n in range(25):
        row = 2 + n  # Excel rows 3..27
        sheet.write_string(row, 0, f"SO-{2001 + n}")
        sheet.write_string(row, 1, CUSTOMERS[rng.randrange(len(CUSTOMERS))])
        sheet.write_string(row, 2, STREETS[rng.randrange(len(STREETS))])
        sheet.write_string(row, 3, CITIES[rng.randrange(len(CITIES))])
        sheet.write_number(row, 4, rng.randint(1000, 250000) / 100, money)
    sheet.set_column("A:A", 10)
    sheet.set_column("B:C", 22)
    sheet.set_column("D:E", 12)
    book.close()


def sum_rows(path: Path) -> None:
    rng = random.Random(3)
    book = new_book(path)
    sheet = book.add_worksheet("Invoices")
    head = book.add_format({"bold": True, "bottom": 1})
    day = book.add_format({"num_format": "yyyy-mm-dd"})
    money = book.add_format({"num_format": "#,##0.00"})
    sub = book.add_format({"bold": True, "italic": True})
    sub_money = book.add_format({"bold": True, "italic": True, "num_format": "#,##0.00"})
    sheet.write_row(0, 0, ["Invoice", "Invoice date", "Customer", "Amount"], head)
    row = 1
    grand = 0.0
    for group in range(4):
        subtotal = 0.0
        for n in range(10):
            k = group * 10 + n
            amount = rng.randint(500, 90000) / 100
            subtotal += amount
            sheet.write_string(row, 0, f"INV-{3001 + k}")
            sheet.write_datetime(row, 1, dt.datetime(2026, 9 + group, 1 + 2 * n), day)
            sheet.write_string(row, 2, CUSTOMERS[rng.randrange(len(CUSTOMERS))])
            sheet.write_number(row, 3, amount, money)
            row += 1
        sheet.write_string(row, 0, "Sum", sub)
        sheet.write_number(row, 3, round(subtotal, 2), sub_money)
        grand += subtotal
        row += 1
    sheet.write_string(row, 0, "Total", sub)
    sheet.write_number(row, 3, round(grand, 2), sub_money)
    sheet.set_column("A:B", 12)
    sheet.set_column("C:C", 22)
    sheet.set_column("D:D", 12)
    book.close()


def several_sheets(path: Path) -> None:
    rng = random.Random(4)
    book = new_book(path)
    head = book.add_format({"bold": True, "bottom": 1})
    money = book.add_format({"num_format": "#,##0.00"})
    customers = book.add_worksheet("Customers")
    orders = book.add_worksheet("Orders")
    lists = book.add_worksheet("Lists")
    customers.write_row(0, 0, ["Customer ID", "Name", "Email"], head)
    ids = [f"C{101 + n}" for n in range(len(CUSTOMERS))]
    for n, (cid, name) in enumerate(zip(ids, CUSTOMERS, strict=True)):
        slug = "".join(ch for ch in name.lower().split()[0] if ch.isascii() and ch.isalnum())
        customers.write_row(n + 1, 0, [cid, name, f"billing@{slug}.example"])
    orders.write_row(0, 0, ["Order ID", "Customer ID", "Amount"], head)
    for n in range(40):
        orders.write_string(n + 1, 0, f"SO-{7001 + n}")
        orders.write_string(n + 1, 1, ids[rng.randrange(len(ids))])
        orders.write_number(n + 1, 2, rng.randint(1000, 150000) / 100, money)
    lists.write_row(0, 0, ["Currency", "Payment terms"], head)
    for n, (currency, terms) in enumerate(
        [("EUR", "Net 14"), ("USD", "Net 30"), ("GBP", "Net 60"), ("CHF", "Prepaid")]
    ):
        lists.write_row(n + 1, 0, [currency, terms])
    lists.hide()
    for sheet in (customers, orders):
        sheet.set_column("A:A", 12)
        sheet.set_column("B:C", 26)
    book.close()


def notes_below(path: Path) -> None:
    rng = random.Random(5)
    book = new_book(path)
    sheet = book.add_worksheet("Stock")
    head = book.add_format({"bold": True, "bottom": 1})
    money = book.add_format({"num_format": "#,##0.00"})
    note = book.add_format({"italic": True})
    sheet.write_row(0, 0, ["Product code", "Product", "In stock", "Unit price"], head)
    for n, product in enumerate(PRODUCTS):
        sheet.write_string(n + 1, 0, f"P-{4001 + n}")
        sheet.write_string(n + 1, 1, product)
        sheet.write_number(n + 1, 2, rng.randint(0, 900))
        sheet.write_number(n + 1, 3, rng.randint(5, 2500) / 100, money)
    first_note = len(PRODUCTS) + 2  # 0-based, after one blank row
    for n, text in enumerate(
        [
            "Stock counted on 2026-11-30 at the Leeds warehouse.",
            "Prices exclude VAT and are in EUR.",
            "Corrections to stock@acme.example before the 5th of the month.",
        ]
    ):
        sheet.write_string(first_note + n, 0, text, note)
    sheet.set_column("A:A", 13)
    sheet.set_column("B:B", 16)
    sheet.set_column("C:D", 11)
    book.close()


LAYOUTS: dict[str, Callable[[Path], None]] = {
    "title_rows": title_rows,
    "two_row_header": two_row_header,
    "sum_rows": sum_rows,
    "several_sheets": several_sheets,
    "notes_below": notes_below,
}
# LibreOffice's filter for each copy: (suffix of the copy, --convert-to argument)
COPIES = [
    (".xls", "xls:MS Excel 97"),
    (".ods", "ods:calc8"),
    (".lo.xlsx", "xlsx:Calc MS Excel 2007 XML"),
]


def libreoffice_copies(source: Path) -> list[Path]:
    """NAME.xls, NAME.ods and NAME.lo.xlsx beside `source`, each saved by LibreOffice."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        raise SystemExit("soffice is not installed (Debian: libreoffice-calc-nogui)")
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp) / "profile"
        for suffix, target in COPIES:
            out = Path(tmp) / suffix.strip(".").replace(".", "_")
            subprocess.run(
                [
                    soffice,
                    f"-env:UserInstallation=file://{profile}",
                    "--headless",
                    "--convert-to",
                    target,
                    "--outdir",
                    str(out),
                    str(source),
                ],
                check=True,
                capture_output=True,
                timeout=300,
            )
            written = out / (source.stem + "." + target.split(":")[0])
            copy = source.with_name(source.stem + suffix)
            shutil.move(str(written), copy)
            made.append(copy)
    return made


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.corpus.layouts.generate")
    parser.add_argument("--libreoffice", action="store_true", help="also LibreOffice's copies")
    parser.add_argument("outdir", nargs="?", type=Path, default=HERE)
    args = parser.parse_args(argv)
    args.outdir.mkdir(parents=True, exist_ok=True)
    for name, write in LAYOUTS.items():
        path = args.outdir / f"{name}.xlsx"
        write(path)
        made = [path] + (libreoffice_copies(path) if args.libreoffice else [])
        for each in made:
            print(f"{each.name}: {each.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
