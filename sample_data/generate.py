"""Generate the sample workbooks (committed test fixtures) and big workbooks for benchmarks.

    python -m sample_data.generate samples [--out sample_data]
    python -m sample_data.generate big OUT.xlsx --rows 200000 --cols 10 [--invalid 0.05]

The samples are written by more than one program (xlsxwriter, openpyxl, a hand-written
OpenDocument file and CSV) so that both reading engines are proven on each writer's
habits. Generation is deterministic (fixed seeds): re-running gives the same cells.
"""

from __future__ import annotations

import argparse
import random
import sys
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import xlsxwriter

HERE = Path(__file__).resolve().parent

ORDER_HEADER = [
    "Order ID",
    "Customer",
    "Email",
    "Order Date",
    "Status",
    "Qty",
    "Unit Price",
    "Zip Code",
    "Gift Wrap",
    "Notes",
]
STATUSES = ["new", "paid", "shipped", "cancelled"]
FIRST = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Radia", "Tim"]
LAST = ["Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Thompson"]


# --- the demo: orders.xlsx ---------------------------------------------------------------------


def order_rows(count: int, seed: int = 25) -> list[dict[str, Any]]:
    """Order rows; about 5% carry one realistic mistake each (see `_spoil`)."""
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        row: dict[str, Any] = {
            "Order ID": 10001 + i,
            "Customer": f"{first} {last}",
            "Email": f"{first.lower()}.{last.lower()}{i % 97}@example.com",
            "Order Date": date(2024, 1, 1) + timedelta(days=rng.randrange(365)),
            "Status": rng.choice(STATUSES),
            "Qty": rng.randint(1, 20),
            "Unit Price": round(rng.uniform(1, 250), 2),
            "Zip Code": rng.choice([501, 2134, 10001, 94103, 60614, 30301]),
            "Gift Wrap": rng.random() < 0.2,
            "Notes": rng.choice(["", "", "", "leave at door", "call first", "fragile"]),
        }
        if rng.random() < 0.05:
            _spoil(row, rng)
        rows.append(row)
    return rows


def _spoil(row: dict[str, Any], rng: random.Random) -> None:
    kind = rng.randrange(8)
    if kind == 0:
        row["Customer"] = ""  # required field left empty
    elif kind == 1:
        row["Email"] = row["Email"].replace("@", " at ")  # not an email
    elif kind == 2:
        row["Qty"] = -row["Qty"]  # below the minimum
    elif kind == 3:
        row["Qty"] = row["Qty"] + 0.5  # not a whole number
    elif kind == 4:
        row["Status"] = "pending"  # not one of the choices
    elif kind == 5:
        row["Order Date"] = "31/02/2024"  # text date that does not exist
    elif kind == 6:
        row["Unit Price"] = "#N/A"  # a lookup that failed in the sender's sheet
    else:
        row["Zip Code"] = "ABCDE"  # does not match the pattern


def write_orders_xlsx(path: Path, count: int = 300) -> None:
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Orders")
    bold = wb.add_format({"bold": True})
    day = wb.add_format({"num_format": "yyyy-mm-dd"})
    money = wb.add_format({"num_format": "#,##0.00"})
    zip_code = wb.add_format({"num_format": "00000"})
    ws.write_row(0, 0, ORDER_HEADER, bold)
    for r, row in enumerate(order_rows(count), start=1):
        for c, column in enumerate(ORDER_HEADER):
            value = row[column]
            if value == "":
                continue
            if column == "Order Date" and isinstance(value, date):
                ws.write_datetime(r, c, datetime.combine(value, datetime.min.time()), day)
            elif column == "Unit Price" and value == "#N/A":
                ws.write_formula(r, c, "=VLOOKUP(A1,Prices!A:B,2,FALSE)", money, "#N/A")
            elif column == "Unit Price":
                ws.write_number(r, c, value, money)
            elif column == "Zip Code" and isinstance(value, int):
                ws.write_number(r, c, value, zip_code)
            elif isinstance(value, bool):
                ws.write_boolean(r, c, value)
            elif isinstance(value, int | float):
                ws.write_number(r, c, value)
            else:
                ws.write_string(r, c, value)
    ws.set_column(0, len(ORDER_HEADER) - 1, 14)
    ws.freeze_panes(1, 0)
    wb.close()


# --- big workbooks for benchmarks ---------------------------------------------------------------

BIG_FORM = """name = "bench"
[[fields]]
name = "id"
header = "ID"
type = "integer"
required = true
[[fields]]
name = "customer"
header = "Customer"
type = "string"
required = true
max_length = 100
[[fields]]
name = "email"
header = "Email"
type = "email"
[[fields]]
name = "quantity"
header = "Qty"
type = "integer"
min = 1
max = 1000
[[fields]]
name = "price"
header = "Price"
type = "decimal"
min = 0
[[fields]]
name = "order_date"
header = "Date"
type = "date"
[[fields]]
name = "status"
header = "Status"
type = "enum"
choices = ["new", "paid", "shipped", "cancelled"]
[[fields]]
name = "paid"
header = "Paid"
type = "boolean"
[[fields]]
name = "note"
header = "Note"
type = "string"
[[fields]]
name = "code"
header = "Code"
type = "string"
"""
BIG_HEADER = ["ID", "Customer", "Email", "Qty", "Price", "Date", "Status", "Paid", "Note", "Code"]


def big_form_text(cols: int = 10) -> str:
    """The form matching a big workbook's first `cols` columns (extra columns are text)."""
    blocks = BIG_FORM.split("[[fields]]")
    text = blocks[0] + "".join("[[fields]]" + b for b in blocks[1 : 1 + min(cols, 10)])
    for extra in range(10, cols):
        text += f'[[fields]]\nname = "extra_{extra + 1}"\nheader = "Extra {extra + 1}"\n'
    return text


def write_big_xlsx(
    path: Path, rows: int, cols: int = 10, invalid: float = 0.0, seed: int = 1
) -> None:
    """A big orders-like sheet, streamed by xlsxwriter (constant memory, inline strings)."""
    rng = random.Random(seed)
    wb = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    ws = wb.add_worksheet("Data")
    day = wb.add_format({"num_format": "yyyy-mm-dd"})
    header = BIG_HEADER[:cols] + [f"Extra {c + 1}" for c in range(10, cols)]
    ws.write_row(0, 0, header)
    base = date(2024, 1, 1)
    for r in range(1, rows + 1):
        bad = invalid > 0 and rng.random() < invalid
        cells: list[Any] = [
            r,
            f"Customer {r % 977}",
            f"c{r}@example.com",
            (r * 7) % 50 + 1,
            round((r * 37 % 10000) / 100, 2),
            base + timedelta(days=r % 365),
            STATUSES[r % 4],
            r % 2 == 0,
            f"note {r % 13}",
            f"X{r:07d}",
        ][:cols] + [f"extra {r % 101}" for _ in range(10, cols)]
        if bad:
            spoil = rng.randrange(3)
            cells[min(spoil * 3, cols - 1)] = "n/a" if spoil != 0 else 1.5
        for c, value in enumerate(cells):
            if isinstance(value, bool):
                ws.write_boolean(r, c, value)
            elif isinstance(value, date):
                ws.write_datetime(r, c, datetime.combine(value, datetime.min.time()), day)
            elif isinstance(value, int | float):
                ws.write_number(r, c, value)
            else:
                ws.write_string(r, c, value)
    wb.close()


# --- command line ------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sample_data.generate")
    sub = parser.add_subparsers(dest="command", required=True)
    samples = sub.add_parser("samples", help="write the small sample files")
    samples.add_argument("--out", type=Path, default=HERE)
    big = sub.add_parser("big", help="write a big workbook for benchmarks")
    big.add_argument("output", type=Path)
    big.add_argument("--rows", type=int, default=200_000)
    big.add_argument("--cols", type=int, default=10)
    big.add_argument("--invalid", type=float, default=0.0, help="share of rows with an error")
    big.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "big":
        if args.rows < 1 or not 1 <= args.cols <= 200 or not 0 <= args.invalid <= 1:
            parser.error("--rows >= 1, --cols 1..200, --invalid 0..1")
        write_big_xlsx(args.output, args.rows, args.cols, args.invalid, args.seed)
        print(f"wrote {args.output} ({args.rows} rows x {args.cols} columns)")
        return 0
    from sample_data import fixtures

    for path in fixtures.write_all(args.out):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
