"""Several sheets of one workbook in one submission: each its own job in one group, matched
to its form before any job exists, run in lookup order (orders look customers up), resumed
per sheet after kill -9, and the group's id accepted by status, jobs, resume, cancel and
errors. The workbook is the layout corpus's (saved by LibreOffice in each format too)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from importer.database import Connection
from importer.forms.definition import parse_form_text
from importer.repositories.forms import save_form
from tests.conftest import IMPORTER_CMD, Cli
from tests.support.jobs import kill_9, wait_until_stopped

BOOKS = Path(__file__).resolve().parents[1] / "corpus" / "layouts"
CUSTOMERS = """
name = "customers"
key = ["customer_id"]
[[fields]]
name = "customer_id"
header = "Customer ID"
required = true
[[fields]]
name = "name"
header = "Name"
[[fields]]
name = "email"
header = "Email"
type = "email"
"""
# Orders store the customer's id as the customers' table has it, found by a lookup.
ORDERS = """
name = "orders"
[[fields]]
name = "order_id"
header = "Order ID"
required = true
[[fields]]
name = "customer_id"
header = "Customer ID"
required = true
lookup = { form = "customers", match = "customer_id", returns = "customer_id" }
[[fields]]
name = "amount"
header = "Amount"
type = "decimal"
max = 1000
"""


@pytest.fixture
def forms(conn: Connection) -> None:
    save_form(conn, parse_form_text(CUSTOMERS))
    save_form(conn, parse_form_text(ORDERS))


def _jobs(conn: Connection) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT id, sheet, form, status, group_id, success_rows, failed_rows"
        " FROM import_jobs ORDER BY id"
    ).fetchall()
    return [dict(r) for r in rows]


@pytest.mark.parametrize("suffix", [".xlsx", ".lo.xlsx", ".xls", ".ods"])
def test_all_sheets_are_one_group_in_lookup_order_and_hidden_sheets_noted(
    cli: Cli, conn: Connection, forms: None, tmp_path: Path, suffix: str
) -> None:
    book = tmp_path / f"book{suffix}"
    shutil.copy(BOOKS / f"several_sheets{suffix}", book)
    result = cli("submit", str(book), "--all-sheets")
    assert result.exit_code == 3, result.stderr  # some amounts are over the orders' max
    assert "hidden sheets left out: 'Lists'" in result.stdout + result.stderr
    made = _jobs(conn)
    assert [(j["sheet"], j["form"]) for j in made] == [
        ("Customers", "customers"),
        ("Orders", "orders"),
    ]
    assert len({j["group_id"] for j in made}) == 1
    group = f"g{made[0]['group_id']}"
    assert f"group {group}: 2 sheets, 60 rows" in result.stdout
    # What to run next is the group's error workbook, not one sheet's.
    assert f"next: importer errors {group} -o rejected.xlsx" in result.stdout
    assert f"importer errors {made[1]['id']} -o" not in result.stdout
    # The summary names each job's sheet (both come from the same file).
    header, customers, orders = result.stdout.split("Import summary\n", 1)[1].splitlines()[:3]
    assert header.split()[:3] == ["Job", "File", "Sheet"]
    assert customers.split()[2] == "Customers" and orders.split()[2] == "Orders"
    stored = conn.execute("SELECT count(*) AS n FROM forms.orders").fetchone()
    assert stored is not None and stored["n"] == made[1]["success_rows"]
    assert made[1]["success_rows"] + made[1]["failed_rows"] == 40

    status = cli("status", group)
    assert status.exit_code == 0 and "sheet 'Orders' of group" in status.stdout
    listed = cli("jobs", "--group", group)
    assert listed.exit_code == 0 and listed.stdout.count("book") == 2
    watched = cli("watch", group, "--once")
    assert watched.exit_code == 0 and "importer watch" in watched.stdout
    assert cli("watch", str(made[0]["id"]), "--once").exit_code == 2  # a group, not a job
    fix = tmp_path / "fix.xlsx"
    assert cli("errors", group, "-o", str(fix)).exit_code == 0
    assert openpyxl.load_workbook(fix).sheetnames[:2] == ["Customers", "Orders"]


def test_named_sheets_and_a_sheet_no_form_fits(
    cli: Cli, conn: Connection, forms: None, tmp_path: Path
) -> None:
    book = BOOKS / "several_sheets.xlsx"
    refused = cli("submit", str(book), "--sheet", "Orders=orders", "--sheet", "Lists")
    assert refused.exit_code == 2 and "sheet 'Lists'" in refused.stderr
    assert "--skip-unmatched" in refused.stderr
    assert _jobs(conn) == []  # refused before any job existed
    done = cli(
        "submit",
        str(book),
        "--sheet",
        "Lists",
        "--sheet",
        "Customers=customers",
        "--skip-unmatched",
        "--quiet",
    )
    assert done.exit_code == 0, done.stderr
    assert [(j["sheet"], j["status"]) for j in _jobs(conn)] == [("Customers", "succeeded")]
    assert cli("status", "g99").exit_code == 2


@pytest.mark.slow
def test_killed_in_the_second_sheet_the_group_resumes_each_sheet_from_its_cursor(
    conn: Connection, forms: None, cli_env: dict[str, str]
) -> None:
    env = {**cli_env, "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "10"}
    # Customers: 20 rows, 2 batches; batch 3 is the orders' third (rows 22-31 committed).
    child = subprocess.Popen(
        [*IMPORTER_CMD, "submit", str(BOOKS / "several_sheets.xlsx"), "--all-sheets", "-q"],
        env={**env, "IMPORTER_TEST_PAUSE_AT": "batch:3"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    wait_until_stopped(child)
    kill_9(child)
    first, second = _jobs(conn)
    assert first["status"] == "succeeded" and first["success_rows"] == 20
    assert second["success_rows"] + second["failed_rows"] == 20  # two batches committed
    resumed = subprocess.run(
        [*IMPORTER_CMD, "resume", f"g{first['group_id']}", "--quiet"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert resumed.returncode == 3, resumed.stderr
    again_first, again_second = _jobs(conn)
    assert again_first == first  # the first sheet untouched
    assert again_second["success_rows"] + again_second["failed_rows"] == 40
    numbers = conn.execute("SELECT row_number FROM forms.orders ORDER BY 1").fetchall()
    rows = [r["row_number"] for r in numbers]
    assert len(rows) == len(set(rows)) == again_second["success_rows"]
    customers = conn.execute("SELECT count(*) AS n FROM forms.customers").fetchone()
    assert customers == {"n": 20}


def test_a_sheet_that_looks_another_up_runs_after_it_whatever_the_order_named(
    cli: Cli, conn: Connection, forms: None
) -> None:
    book = BOOKS / "several_sheets.xlsx"
    result = cli("submit", str(book), "--sheet", "Orders=orders", "--sheet", "Customers", "-q")
    assert result.exit_code == 3, result.stderr
    assert [j["sheet"] for j in _jobs(conn)] == ["Customers", "Orders"]  # created and run so
    misses = conn.execute(
        "SELECT count(*) AS n FROM import_row_errors WHERE message LIKE %s", ("%not a known%",)
    ).fetchone()
    assert misses == {"n": 0}  # every order's customer was there when it was looked up
    stored = conn.execute("SELECT count(*) AS n FROM forms.orders").fetchone()
    assert stored == {"n": 30}  # the 10 others are over the form's max amount


def test_a_sheet_whose_header_lacks_its_forms_field_refuses_the_group_before_any_job(
    cli: Cli, conn: Connection, forms: None
) -> None:
    book = BOOKS / "several_sheets.xlsx"
    # Orders fits; Customers is named for the orders form, whose Order ID it lacks.
    refused = cli("submit", str(book), "--sheet", "Orders", "--sheet", "Customers=orders")
    assert refused.exit_code == 2 and "sheet 'Customers'" in refused.stderr
    assert "Order ID" in refused.stderr
    assert _jobs(conn) == []


def test_the_same_workbook_again_is_the_same_jobs_in_one_group(
    cli: Cli, conn: Connection, forms: None
) -> None:
    book = BOOKS / "several_sheets.xlsx"
    assert cli("submit", str(book), "--sheet", "Customers", "-q").exit_code == 0
    again = cli("submit", str(book), "--all-sheets", "-q")
    assert again.exit_code == 3, again.stderr
    made = _jobs(conn)
    assert [j["sheet"] for j in made] == ["Customers", "Orders"]  # the first job found again
    assert made[0]["group_id"] == made[1]["group_id"] is not None
