"""Bench workbooks as Excel writes them (xlsxwriter's normal mode: a shared-strings table,
cell styles, number formats), with what real sheets mix in one column:

- ZIP codes as numbers formatted ``00000`` beside ZIP codes typed as text;
- date cells (a date format) beside ISO dates typed as text;
- boolean cells beside "Yes" / "no" texts;
- a unique text per row (the customer), an ignored column the form does not declare;
- about ``INVALID`` of the rows invalid (one flaw each).

``violating`` (for the user-owned table of bench/tables.py) makes a share of otherwise valid
rows break that table's constraints: a customer number missing from its customers table, or
an amount over its CHECK; ``violations()`` says which rows, so the bench can check each.
Made once per size, kept under .bench/.
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
LAYOUT = "v2"  # in the cached file's name: a change of layout never reuses an older file
INVALID = 0.05
STATUSES = ("new", "paid", "shipped", "cancelled")
CUSTOMERS = 5_000  # customer numbers 1..CUSTOMERS exist in the user table's customers
AMOUNT_CAP = 5_000  # the user table's CHECK (amount <= AMOUNT_CAP)
FK_CONSTRAINT = "bench_orders_customer_fk"
CHECK_CONSTRAINT = "bench_orders_amount_check"

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
    "Sales Note",  # not in the form: ignored
)

_FIELDS = f"""
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
"""

FORM_NAME = "bench_orders"
FORM = f'name = "{FORM_NAME}"\n{_FIELDS}'

# The same fields into a table of the user's (bench/tables.py creates it).
OWN_FORM_NAME = "bench_own_orders"
OWN_TABLE = "public.bench_orders"
OWN_FORM = (
    f'name = "{OWN_FORM_NAME}"\ntable = "{OWN_TABLE}"\njob_column = "import_job_id"\n{_FIELDS}'
)


def _step(violating: float) -> int:
    return max(2, round(1 / violating))


def violations(rows: int, violating: float) -> dict[str, set[int]]:
    """The Excel row numbers breaking each constraint in ``excel_like(rows, 0, violating)``."""
    found: dict[str, set[int]] = {FK_CONSTRAINT: set(), CHECK_CONSTRAINT: set()}
    if not violating:
        return found
    step = _step(violating)
    for index in range(step // 2, rows, step):
        kind = FK_CONSTRAINT if (index // step) % 2 == 0 else CHECK_CONSTRAINT
        found[kind].add(index + 2)  # the header is row 1
    return found


def excel_like(rows: int, invalid: float = INVALID, violating: float = 0.0) -> Path:
    """The Excel-like workbook of ``rows`` data rows (made once, then reused)."""
    CACHE.mkdir(exist_ok=True)
    shares = f"invalid{float(invalid)}-violating{float(violating)}"  # 0 and 0.0: one file
    path = CACHE / f"excel-like-{LAYOUT}-{rows}-{shares}.xlsx"
    if not path.exists():
        partial = path.with_suffix(".partial.xlsx")
        # In a process of its own: a child's peak memory as the kernel reports it (wait4's
        # ru_maxrss) starts at what its parent held when it was forked, and a million rows
        # written here made every later command of the bench report 1,440 MB.
        subprocess.run(
            [
                sys.executable,
                "-m",
                "bench.workbooks",
                str(rows),
                str(invalid),
                str(violating),
                str(partial),
            ],
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


def _write(path: Path, rows: int, invalid: float, violating: float) -> None:
    import xlsxwriter

    rng = random.Random(rows)
    broken = violations(rows, violating)
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
        excel_row = index + 2
        fk = excel_row in broken[FK_CONSTRAINT]
        over = excel_row in broken[CHECK_CONSTRAINT]
        # A row breaking a constraint is otherwise valid: only the database refuses it.
        flaw = rng.randrange(6) if not (fk or over) and rng.random() < invalid else -1
        sheet.write_number(r, 0, index + 1)
        customer_no = CUSTOMERS + 1 + index if fk else rng.randrange(1, CUSTOMERS + 1)
        sheet.write_number(r, 1, customer_no)
        sheet.write_string(r, 2, f"Customer {index:07d} {rng.choice(('Ltd', 'GmbH', 'SA'))}")
        email = f"buyer{index}@example.com" if flaw != 0 else f"buyer{index} at example"
        sheet.write_string(r, 3, email)
        when = start + timedelta(days=rng.randrange(700))
        if flaw == 1:
            sheet.write_string(r, 4, "soon")
        elif rng.random() < 0.1:
            sheet.write_string(r, 4, when.isoformat())  # an ISO date typed as text
        else:
            sheet.write_datetime(r, 4, when, day)
        zip_number = rng.randrange(501, 99950)
        if flaw == 2:
            sheet.write_string(r, 5, f"Z{zip_number:04d}")
        elif rng.random() < 0.1:
            sheet.write_string(r, 5, f"{zip_number:05d}")  # a ZIP code typed as text
        else:
            sheet.write_number(r, 5, zip_number, zip_code)  # "00501" as Excel shows it
        amount = round(rng.uniform(1, AMOUNT_CAP), 2)
        if over:
            sheet.write_number(r, 6, AMOUNT_CAP + 1 + amount, money)
        elif flaw == 3:
            sheet.write_number(r, 6, -amount, money)  # below min
        elif rng.random() < 0.02:
            sheet.write_string(r, 6, f"{amount:,.2f}")  # a number typed as text
        else:
            sheet.write_number(r, 6, amount, money)
        sheet.write_string(r, 7, "lost" if flaw == 4 else rng.choice(STATUSES))
        paid = rng.random() < 0.5
        if flaw == 5:
            sheet.write_string(r, 8, "maybe")
        elif rng.random() < 0.1:
            sheet.write_string(r, 8, "Yes" if paid else "no")  # yes/no typed as text
        else:
            sheet.write_boolean(r, 8, paid)
        if rng.random() < 0.2:
            sheet.write_string(r, 9, rng.choice(("gift", "call first", "fragile", "VIP")))
    sheet.set_column(0, 9, 14)
    book.close()


if __name__ == "__main__":
    _write(Path(sys.argv[4]), int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]))
