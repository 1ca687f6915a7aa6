"""Rows a table's own constraints refuse (a foreign key, a CHECK, a NOT NULL, a UNIQUE) are
rejected rows naming the constraint, not a failed job: the batch is isolated (on the server,
halving the ranges a constraint refuses) until each refused row stands alone, the others are
stored once, and the cursor moves past all of them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from importer.config import ImportSettings
from importer.database import Connection
from importer.intake.submission import Asked, submit_workbook
from importer.repositories import jobs
from importer.running.job_run import run_job
from tests.conftest import Cli
from tests.support.jobs import add_form, killed_submit, write_book

SETTINGS = ImportSettings(rows_per_transaction=7, lease_seconds=30, max_attempts=3)
OWNER = "me:1:a"
HEADER = ["Order", "Customer", "Amount", "Code"]

SHOP_FORM = """
name = "shop"
table = "public.shop_orders"
job_column = "import_job_id"
[[fields]]
name = "order_id"
header = "Order"
type = "integer"
required = true
[[fields]]
name = "customer_id"
header = "Customer"
type = "integer"
[[fields]]
name = "amount"
header = "Amount"
type = "decimal"
[[fields]]
name = "code"
header = "Code"
type = "string"
"""

TABLE = """
CREATE TABLE customers (id bigint PRIMARY KEY);
INSERT INTO customers SELECT generate_series(1, 5);
CREATE TABLE shop_orders (
    order_id bigint PRIMARY KEY,
    customer_id bigint CONSTRAINT shop_orders_customer_fk REFERENCES customers (id),
    amount numeric CONSTRAINT shop_orders_amount_positive CHECK (amount > 0),
    code text NOT NULL CONSTRAINT shop_orders_code_unique UNIQUE,
    import_job_id bigint
);
"""


KINDS = {
    "shop_orders_customer_fk": "foreign key",
    "shop_orders_amount_positive": "check",
    "shop_orders_code_unique": "unique",
}


def shop(conn: Connection) -> None:
    conn.execute(TABLE)
    add_form(conn, SHOP_FORM)


def rows_and_refusals(count: int = 30) -> tuple[list[list[Any]], dict[int, str]]:
    """``count`` orders; some refused by each constraint: Excel row -> the constraint."""
    rows: list[list[Any]] = []
    refused: dict[int, str] = {}
    for i in range(1, count + 1):
        row: list[Any] = [i, i % 5 + 1, i, f"C{i}"]
        number = i + 1
        if i % 11 == 3:
            row[1], refused[number] = 42, "shop_orders_customer_fk"
        elif i % 11 == 5:
            row[2], refused[number] = -1, "shop_orders_amount_positive"
        elif i % 11 == 7:
            row[3], refused[number] = None, "not-null"
        elif i % 11 == 9:
            row[3], refused[number] = "C1", "shop_orders_code_unique"  # row 2 has it
        rows.append(row)
    return rows, refused


def stored(conn: Connection) -> dict[int, tuple[Any, ...]]:
    found = conn.execute("SELECT * FROM shop_orders ORDER BY order_id").fetchall()
    return {r["order_id"]: (r["customer_id"], r["amount"], r["code"]) for r in found}


def errors_of(conn: Connection, job_id: int) -> dict[int, tuple[str, str]]:
    found = conn.execute(
        "SELECT row_number, column_name, message FROM import_row_errors"
        " WHERE import_job_id = %s ORDER BY row_number",
        (job_id,),
    ).fetchall()
    return {r["row_number"]: (r["column_name"], r["message"]) for r in found}


def assert_refused_exactly(
    conn: Connection, job_id: int, rows: list[list[Any]], refused: dict[int, str]
) -> None:
    errors = errors_of(conn, job_id)
    assert set(errors) == set(refused)
    for number, constraint in refused.items():
        column, message = errors[number]
        if constraint == "not-null":
            assert column == "Code"
            assert 'null value in column "code"' in message and "not-null" in message
        else:
            assert f'violates {KINDS[constraint]} constraint "{constraint}": ' in message
    fk = errors[min(n for n, c in refused.items() if c == "shop_orders_customer_fk")]
    assert fk == (
        "Customer",
        'violates foreign key constraint "shop_orders_customer_fk": '
        'Key (customer_id)=(42) is not present in table "customers".',
    )
    unique = errors[min(n for n, c in refused.items() if c == "shop_orders_code_unique")]
    assert unique == (
        "Code",
        'violates unique constraint "shop_orders_code_unique": Key (code)=(C1) already exists.',
    )
    expected = {
        row[0]: (row[1], row[2], row[3])
        for number, row in enumerate(rows, start=2)
        if number not in refused
    }
    assert {k: (c, float(a), code) for k, (c, a, code) in stored(conn).items()} == {
        k: (c, float(a), code) for k, (c, a, code) in expected.items()
    }
    rejected = conn.execute(
        "SELECT row_number FROM import_rejected_rows WHERE import_job_id = %s ORDER BY 1",
        (job_id,),
    ).fetchall()
    assert [r["row_number"] for r in rejected] == sorted(refused)
    job = jobs.get_job(conn, job_id)
    assert (job.success_rows, job.failed_rows) == (len(rows) - len(refused), len(refused))
    assert job.status == "partially_succeeded" and job.cursor == len(rows)
    owned = conn.execute("SELECT DISTINCT import_job_id FROM shop_orders").fetchall()
    assert [r["import_job_id"] for r in owned] == [job_id]


def import_shop(
    database_url: str,
    conn: Connection,
    path: Path,
    rows: list[list[Any]],
    *,
    batch: int,
    form: str = "shop",
) -> int:
    """The rows as a workbook, imported into the shop's table in batches of ``batch`` rows
    by one run that finishes; the job's id."""
    write_book(path, rows, HEADER)
    settings = ImportSettings(rows_per_transaction=batch, lease_seconds=30, max_attempts=3)
    job = submit_workbook(
        conn, path, Asked(form_name=form, claim_owner=OWNER), settings=settings
    ).job
    outcome = run_job(database_url, job, OWNER, settings)
    assert (outcome.result, outcome.error) == ("finished", None)
    return job.id


def test_rows_a_constraint_refuses_are_rejected_rows_naming_it(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    shop(conn)
    rows, refused = rows_and_refusals()
    assert set(refused.values()) == {
        "shop_orders_customer_fk",
        "shop_orders_amount_positive",
        "not-null",
        "shop_orders_code_unique",
    }
    write_book(tmp_path / "shop.xlsx", rows, HEADER)
    job = submit_workbook(
        conn, tmp_path / "shop.xlsx", Asked(form_name="shop", claim_owner=OWNER), settings=SETTINGS
    ).job

    outcome = run_job(database_url, job, OWNER, SETTINGS)

    assert (outcome.result, outcome.error) == ("finished", None)
    assert outcome.job is not None and outcome.job.attempts == 1
    assert_refused_exactly(conn, job.id, rows, refused)


def test_a_submit_reports_the_refused_rows_and_stores_the_rest(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    shop(conn)
    rows, refused = rows_and_refusals(25)
    write_book(tmp_path / "shop.xlsx", rows, HEADER)

    result = cli("submit", str(tmp_path / "shop.xlsx"), "--form", "shop", "--json")

    assert result.exit_code == 3, result.stderr  # some rows rejected
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert (data["success_rows"], data["failed_rows"]) == (25 - len(refused), len(refused))
    job_id = int(data["id"])
    assert_refused_exactly(conn, job_id, rows, refused)


def test_isolated_rows_keep_the_file_order_and_the_table_defaults(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    """In one batch, of two rows one unique constraint cannot both hold, the earlier is
    stored; a column the sheet lacks keeps its DEFAULT in isolated batches as in clean ones;
    later batches of a refusing file (isolated from the start) store the same."""
    shop(conn)
    conn.execute("ALTER TABLE shop_orders ADD COLUMN note text NOT NULL DEFAULT 'from excel'")
    rows, refused = rows_and_refusals(60)
    rows[19][3] = "C19"  # row 21 repeats row 20's code, both in the same batch
    refused[21] = "shop_orders_code_unique"

    job_id = import_shop(database_url, conn, tmp_path / "shop.xlsx", rows, batch=12)

    assert errors_of(conn, job_id)[21] == (
        "Code",
        'violates unique constraint "shop_orders_code_unique": Key (code)=(C19) already exists.',
    )
    assert_refused_exactly(conn, job_id, rows, refused)
    notes = conn.execute("SELECT DISTINCT note FROM shop_orders").fetchall()
    assert [r["note"] for r in notes] == ["from excel"]


@pytest.mark.slow
def test_a_run_killed_inside_a_batch_with_refused_rows_resumes_exactly_once(
    cli: Cli, cli_env: dict[str, str], conn: Connection, tmp_path: Path
) -> None:
    shop(conn)
    rows, refused = rows_and_refusals(30)
    write_book(tmp_path / "shop.xlsx", rows, HEADER)
    env = {
        **cli_env,
        "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "7",
        "IMPORTER_TEST_PAUSE_AT": "batch:2",  # inside batch 2's transaction, before commit
    }
    job_id = killed_submit(conn, [str(tmp_path / "shop.xlsx"), "--form", "shop"], env)
    crashed = jobs.get_job(conn, job_id)
    assert crashed.cursor == 7  # batch 2 rolled back with its refused rows
    assert set(errors_of(conn, job_id)) == {n for n in refused if n <= 8}

    resumed = cli("resume", str(job_id))
    assert resumed.exit_code == 3, resumed.stderr
    assert_refused_exactly(conn, job_id, rows, refused)


def test_a_keyed_form_isolates_refused_rows_and_keeps_their_cells(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    """A form with a key upserts its parts under savepoints: a row a CHECK or a foreign key
    refuses is a rejected row carrying its own cells, the others are stored."""
    shop(conn)
    add_form(conn, SHOP_FORM.replace('name = "shop"', 'name = "shop_keyed"\nkey = ["order_id"]'))
    rows = [[i, 1, 10, f"C{i}"] for i in range(1, 13)]
    rows[3][2] = -5  # row 5: the CHECK
    rows[8][1] = 42  # row 10: no customer 42

    job_id = import_shop(
        database_url, conn, tmp_path / "shop.xlsx", rows, batch=12, form="shop_keyed"
    )

    errors = errors_of(conn, job_id)
    assert sorted(errors) == [5, 10]
    assert 'violates check constraint "shop_orders_amount_positive"' in errors[5][1]
    assert errors[10][0] == "Customer"
    cells = conn.execute(
        "SELECT row_number, row_values FROM import_rejected_rows"
        " WHERE import_job_id = %s ORDER BY 1",
        (job_id,),
    ).fetchall()
    assert [(r["row_number"], r["row_values"][:3]) for r in cells] == [
        (5, ["4", "1", "-5"]),
        (10, ["9", "42", "10"]),
    ]
    assert sorted(stored(conn)) == [i for i in range(1, 13) if i not in (4, 9)]
