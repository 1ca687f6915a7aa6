"""A form's business rules decide every row alike through `check`, a foreground `submit`, a
worker, and a resume after kill -9 in mid-file: cleaning, defaults, a lookup (its id
stored), a computed field, row rules and uniqueness within the file (across batches and
across the resume). Real PostgreSQL, real workbooks, real processes."""

from __future__ import annotations

import subprocess
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import xlsxwriter

from importer.api import CheckRequest, Importer
from importer.database import Connection
from importer.forms.definition import parse_form_text
from importer.repositories.forms import save_form
from tests.conftest import IMPORTER_CMD
from tests.support.jobs import kill_9, only_job_id, wait_until_stopped

SALES_FORM = """
name = "sales"
hook = "sales_rules:check_row"
missing = ["N/A", "-"]
unique = [["customer_id", "order_date"]]

[[fields]]
name = "order_id"
header = "Order ID"
type = "integer"
required = true

[[fields]]
name = "customer_id"
header = "Customer"
type = "integer"
required = true
lookup = { table = "public.customers", match = "name", returns = "id", ignore_case = true }

[[fields]]
name = "email"
header = "Email"
type = "email"
unique = true

[[fields]]
name = "country"
header = "Country"
default = "US"
case = "upper"
replace = { "USA" = "US", "United States" = "US" }

[[fields]]
name = "zip"
header = "Zip"

[[fields]]
name = "order_date"
header = "Order date"
type = "date"
required = true

[[fields]]
name = "ship_date"
header = "Ship date"
type = "date"

[[fields]]
name = "quantity"
header = "Qty"
type = "integer"

[[fields]]
name = "unit_price"
header = "Price"
type = "decimal"

[[fields]]
name = "total"
type = "decimal"
compute = "quantity * unit_price"

[[rules]]
check = "ship_date >= order_date"
columns = ["ship_date"]
message = "the ship date is before the order date"

[[rules]]
when = "country == 'US'"
require = ["zip"]
columns = ["zip"]
message = "a US address needs a zip code"
"""

# The hook: what a form cannot say (given typed values: the order date is a date).
HOOK = """
from datetime import date
from importer.errors import RowError

def check_row(row):
    if row["quantity"] == 5 and row["country"] == "FR" and row["order_date"] > date(2026, 1, 9):
        raise RowError("quantity", "France takes at most 4 a day")
    return row
"""

HEADER = [
    "Order ID",
    "Customer",
    "Email",
    "Country",
    "Zip",
    "Order date",
    "Ship date",
    "Qty",
    "Price",
]
CUSTOMERS = {"ACME Ltd.": 1, "Globex": 2, "Initech": 3}
WRITTEN = ["  acme ltd. ", " Globex ", "INITECH"]  # as senders type them
COUNTRIES = ["usa", "FR", None, "United States"]
ROWS = 60
Problems = dict[int, list[tuple[str, str]]]


def _row(i: int) -> list[Any]:
    order = date(2026, 1, 1) + timedelta(days=i % 28)
    ship: date | None = order + timedelta(days=1)
    customer, country, zip_code = WRITTEN[i % 3], COUNTRIES[i % 4], "10001"
    email = f"u{i}@x.com"
    if i % 11 == 5:
        customer = "Acme Ltd"  # not known: a suggestion
    if i % 7 == 3:
        ship = order - timedelta(days=1)
    if i % 17 == 8:
        country, zip_code = "usa", "N/A"
    if i % 13 == 12:
        email = f"u{i - 1}@x.com"  # the row above's
    if i == 47:
        email = "u20@x.com"  # row 22's: committed before the kill -9 below
    if i % 9 == 4:
        ship = None  # "N/A" in the sheet: empty, so the date rule is skipped
    return [
        i + 1,
        customer,
        email,
        country,
        zip_code,
        order,
        ship,
        i % 5 + 1,
        round(0.1 * (i % 4 + 1), 2),
    ]


def _expected() -> tuple[Problems, dict[int, tuple[Any, ...]]]:
    """Every rejected row's (column, message) list, and each stored row's values."""
    problems: Problems = {}
    stored: dict[int, tuple[Any, ...]] = {}
    for i in range(ROWS):
        number, found = i + 2, []
        if i % 11 == 5:
            found.append(
                ("Customer", "'Acme Ltd' is not a known customer; did you mean 'ACME Ltd.'?")
            )
        if i % 7 == 3 and i % 9 != 4:
            found.append(("Ship date", "the ship date is before the order date"))
        if i % 17 == 8:
            found.append(("Zip", "a US address needs a zip code"))
        row = _row(i)
        if not found and i % 5 == 4 and row[3] == "FR" and row[5] > date(2026, 1, 9):
            found.append(("Qty", "France takes at most 4 a day"))
        if i % 13 == 12 and i + 1 not in problems:  # row i - 1 (Excel row i + 1) was stored
            found.append(("Email", f"duplicate email 'u{i - 1}@x.com': already in row {i + 1}"))
        if i == 47:
            found.append(("Email", "duplicate email 'u20@x.com': already in row 22"))
        if found:
            problems[number] = found
            continue
        country = {"usa": "US", "United States": "US", None: "US"}.get(row[3], row[3])
        total = Decimal(row[7]) * Decimal(repr(row[8]))
        stored[number] = (i % 3 + 1, country, total.normalize())  # WRITTEN[i % 3]'s id
    return problems, stored


def write_sales(path: Path) -> Path:
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Sales")
    day = book.add_format({"num_format": "yyyy-mm-dd"})
    sheet.write_row(0, 0, HEADER)
    for i in range(ROWS):
        for column, value in enumerate(_row(i)):
            if isinstance(value, date):
                sheet.write_datetime(
                    i + 1, column, datetime(value.year, value.month, value.day), day
                )
            elif value is None and column == 6:
                sheet.write_string(i + 1, column, "N/A")
            elif value is not None:
                sheet.write(i + 1, column, value)
    book.close()
    return path


@pytest.fixture
def sales(
    conn: Connection, tmp_path: Path, cli_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> Path:
    (tmp_path / "sales_rules.py").write_text(HOOK)
    monkeypatch.syspath_prepend(str(tmp_path))  # this process's check
    cli_env["PYTHONPATH"] = str(tmp_path)  # the children's
    cli_env["IMPORTER_FORMS_HOOKS_ALLOWED"] = "sales_rules"
    monkeypatch.setenv("IMPORTER_FORMS_HOOKS_ALLOWED", "sales_rules")
    conn.execute("CREATE TABLE public.customers (id integer PRIMARY KEY, name text UNIQUE)")
    for name, number in CUSTOMERS.items():
        conn.execute("INSERT INTO public.customers VALUES (%s, %s)", (number, name))
    save_form(conn, parse_form_text(SALES_FORM))
    return write_sales(tmp_path / "sales.xlsx")


def _stored_problems(conn: Connection, job_id: int) -> Problems:
    rows = conn.execute(
        "SELECT row_number, column_name, message FROM import_row_errors"
        " WHERE import_job_id = %s ORDER BY row_number, id",
        (job_id,),
    ).fetchall()
    found: Problems = {}
    for r in rows:
        found.setdefault(r["row_number"], []).append((r["column_name"], r["message"]))
    return found


def _stored_rows(conn: Connection, job_id: int) -> dict[int, tuple[Any, ...]]:
    rows = conn.execute(
        "SELECT row_number, customer_id, country, total FROM forms.sales WHERE import_job_id = %s",
        (job_id,),
    ).fetchall()
    return {r["row_number"]: (r["customer_id"], r["country"], r["total"].normalize()) for r in rows}


def _child(env: dict[str, str], *args: str, pause: str | None = None) -> subprocess.Popen[bytes]:
    child_env = {**env, "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "10"}
    if pause:
        child_env["IMPORTER_TEST_PAUSE_AT"] = pause
    return subprocess.Popen(
        [*IMPORTER_CMD, *args], env=child_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def _run(env: dict[str, str], *args: str) -> int:
    child = _child(env, *args)
    _out, err = child.communicate(timeout=120)
    assert b"Traceback" not in err, err.decode()
    return child.returncode


def test_check_decides_every_rule_as_specified(
    conn: Connection, sales: Path, cli_env: dict[str, str]
) -> None:
    problems, _stored = _expected()
    assert len(problems) >= 10  # every kind of problem is in the file
    report, _ = Importer().check(CheckRequest(path=sales))
    found = {r.number: [(e.column, e.message) for e in r.errors] for r in report.rejected}
    assert found == problems
    assert report.good == ROWS - len(problems)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["foreground", "worker", "kill_9_then_resume"])
def test_every_way_of_running_decides_every_row_alike(
    conn: Connection, sales: Path, cli_env: dict[str, str], how: str
) -> None:
    problems, stored = _expected()
    if how == "foreground":
        assert _run(cli_env, "submit", str(sales), "--quiet") == 3
    elif how == "worker":
        assert _run(cli_env, "submit", str(sales), "--detach", "--quiet") == 0
        assert _run(cli_env, "worker", "--once") == 0
    else:
        # Killed inside its fourth batch: 30 rows committed, and with them the claims of
        # uniqueness the resume must go on from (row 49 repeats row 22's e-mail).
        child = _child(cli_env, "submit", str(sales), "--quiet", pause="batch:4")
        wait_until_stopped(child)
        kill_9(child)
        job_id = only_job_id(conn)
        claims = conn.execute(
            "SELECT count(*) AS n FROM import_unique_claims WHERE import_job_id = %s", (job_id,)
        ).fetchone()
        assert claims is not None and claims["n"] > 0
        assert _run(cli_env, "resume", str(job_id), "--quiet") == 3
    job_id = only_job_id(conn)
    assert _stored_problems(conn, job_id) == problems
    assert _stored_rows(conn, job_id) == stored


def test_the_error_workbook_shows_what_was_written_and_marks_the_cells_a_rule_names(
    conn: Connection, sales: Path, cli_env: dict[str, str], tmp_path: Path
) -> None:
    assert _run(cli_env, "submit", str(sales), "--quiet") == 3
    out = tmp_path / "fix.xlsx"
    assert _run(cli_env, "errors", str(only_job_id(conn)), "-o", str(out)) == 0
    sheet = openpyxl.load_workbook(out).worksheets[0]
    header = [c.value for c in sheet[1]]
    rows = {r[header.index("Source row")].value: r for r in sheet.iter_rows(min_row=2)}
    ship, zip_code = header.index("Ship date"), header.index("Zip")
    late = rows[3 + 2]  # i = 3: shipped the day before
    assert late[ship].comment is not None and "before the order date" in late[ship].comment.text
    assert late[zip_code].comment is None  # the rule names ship_date only
    unknown = rows[5 + 2]
    assert unknown[1].value == "Acme Ltd"  # as the sender wrote it
    assert "did you mean 'ACME Ltd.'" in unknown[1].comment.text
    no_zip = rows[8 + 2]
    assert no_zip[zip_code].value == "N/A" and no_zip[zip_code].comment is not None
