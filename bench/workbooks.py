"""Bench workbooks as Excel writes them: a shared-strings table (a unique text per row),
cell styles, date cells with a date format, ZIP codes as numbers formatted ``00000``, some
text numbers and text dates, about 5% invalid rows. Made once per size, kept under .bench/.

``excel_like(rows)`` is xlsxwriter's normal mode (what Excel writes: shared strings, styles);
``libreoffice_copy(path)`` re-saves it with LibreOffice when ``soffice`` is installed.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tempfile
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".bench"
INVALID = 0.05
STATUSES = ("new", "paid", "shipped", "cancelled")

HEADER = (
    "Order ID",
    "Customer",
    "Email",
    "Order Date",
    "ZIP",
    "Amount",
    "Qty",
    "Status",
    "Paid",
    "Note",
)

FORM_NAME = "bench_orders"
FORM = f"""
name = "{FORM_NAME}"
[[fields]]
name = "order_id"
header = "Order ID"
type = "integer"
required = true
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
formats = ["%d/%m/%Y"]
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
name = "qty"
header = "Qty"
type = "integer"
min = 1
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
name = "note"
header = "Note"
type = "string"
"""


def excel_like(rows: int, invalid: float = INVALID) -> Path:
    """The Excel-like workbook of ``rows`` data rows (made once, then reused)."""
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"excel-like-{rows}-invalid{invalid}.xlsx"
    if not path.exists():
        partial = path.with_suffix(".partial.xlsx")
        # In a process of its own: a child's peak memory as the kernel reports it (wait4's
        # ru_maxrss) starts at what its parent held when it was forked, and a million rows
        # written here made every later command of the bench report 1,440 MB.
        subprocess.run(
            [sys.executable, "-m", "bench.workbooks", str(rows), str(invalid), str(partial)],
            check=True,
            cwd=ROOT,
        )
        partial.replace(path)
    return path


def libreoffice_copy(source: Path) -> Path | None:
    """``source`` re-saved by LibreOffice Calc (None when soffice is not installed)."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        return None
    target = source.with_name(source.stem + "-libreoffice.xlsx")
    if target.exists():
        return target
    with tempfile.TemporaryDirectory() as out:
        profile = Path(out) / "profile"
        subprocess.run(
            [
                soffice,
                f"-env:UserInstallation=file://{profile}",
                "--headless",
                "--convert-to",
                "xlsx:Calc MS Excel 2007 XML",
                "--outdir",
                out,
                str(source),
            ],
            check=True,
            capture_output=True,
            timeout=3600,
        )
        shutil.move(str(Path(out) / source.name), target)
    return target


def _write(path: Path, rows: int, invalid: float) -> None:
    import xlsxwriter

    rng = random.Random(rows)
    book = xlsxwriter.Workbook(str(path), {"strings_to_numbers": False})
    sheet = book.add_worksheet("Orders")
    bold = book.add_format({"bold": True, "bg_color": "#DDEBF7"})
    day = book.add_format({"num_format": "yyyy-mm-dd"})
    zip_code = book.add_format({"num_format": "00000"})
    money = book.add_format({"num_format": "#,##0.00"})
    sheet.write_row(0, 0, HEADER, bold)
    sheet.freeze_panes(1, 0)
    start = date(2024, 1, 1)
    for index in range(rows):
        r = index + 1
        bad = rng.random() < invalid
        flaw = rng.randrange(5) if bad else -1
        sheet.write_number(r, 0, index + 1)
        sheet.write_string(r, 1, f"Customer {index:07d} {rng.choice(('Ltd', 'GmbH', 'SA'))}")
        email = f"buyer{index}@example.com" if flaw != 0 else f"buyer{index} at example"
        sheet.write_string(r, 2, email)
        when = start + timedelta(days=rng.randrange(700))
        if flaw == 1:
            sheet.write_string(r, 3, "soon")
        elif rng.random() < 0.02:
            sheet.write_string(r, 3, when.strftime("%d/%m/%Y"))  # a date typed as text
        else:
            sheet.write_datetime(r, 3, when, day)
        sheet.write_number(r, 4, rng.randrange(501, 99950), zip_code)  # "00501" as Excel shows
        amount = round(rng.uniform(1, 5000), 2)
        if rng.random() < 0.02:
            sheet.write_string(r, 5, f"{amount:,.2f}")  # a number typed as text
        else:
            sheet.write_number(r, 5, amount, money)
        if flaw == 2:
            sheet.write_string(r, 6, "n/a")
        elif rng.random() < 0.02:
            sheet.write_string(r, 6, str(rng.randrange(1, 20)))
        else:
            sheet.write_number(r, 6, rng.randrange(1, 20))
        sheet.write_string(r, 7, "lost" if flaw == 3 else rng.choice(STATUSES))
        sheet.write_boolean(r, 8, rng.random() < 0.5)
        if flaw == 4:
            sheet.write_number(r, 6, 0)  # below min
        if rng.random() < 0.1:
            sheet.write_string(r, 9, rng.choice(("gift", "call first", "fragile")))
    sheet.set_column(0, 9, 14)
    book.close()


if __name__ == "__main__":
    _write(Path(sys.argv[3]), int(sys.argv[1]), float(sys.argv[2]))
