"""Workbooks and forms for the import-job tests: real .xlsx files with known good and bad rows."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import xlsxwriter
from psycopg import sql

from importer.database import Connection
from importer.forms.definition import Form, parse_form_text
from importer.repositories.form_tables import FormTable, create_statements, table_for
from importer.repositories.forms import get_form, save_form

ORDERS_FORM = """
name = "orders"
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
name = "amount"
header = "Amount"
type = "decimal"
min = 0
"""

KEYED_FORM = ORDERS_FORM.replace('name = "orders"', 'name = "ledger"\nkey = ["order_id"]', 1)

HEADER = ["Order ID", "Customer", "Amount"]


# A second form, for the automatic choice between forms.
PEOPLE_FORM = """
name = "people"
[[fields]]
name = "name"
header = "Name"
type = "string"
required = true
[[fields]]
name = "email"
header = "Email"
type = "email"
"""


def add_form(conn: Connection, text: str = ORDERS_FORM) -> None:
    """Store the form; its typed table is made ready with it (see make_table)."""
    form = parse_form_text(text)
    save_form(conn, form)
    if form.table is None and _relation_kind(conn, form.name) != "r":
        make_table(conn, form)


def _relation_kind(conn: Connection, name: str) -> str | None:
    row = conn.execute(
        "SELECT c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = 'forms' AND c.relname = %s",
        (name,),
    ).fetchone()
    return None if row is None else str(row["relkind"])


def make_table(conn: Connection, form: Form) -> FormTable:
    """The form's typed table as ``forms add`` makes it (for a store that did not: a typed
    view in its place is dropped), with a column for each field of this version."""
    table = table_for(form)
    with conn.transaction():
        if _relation_kind(conn, form.name) == "v":
            conn.execute(sql.SQL("DROP VIEW {}").format(table.identifier))
        for statement in create_statements(table):
            conn.execute(statement)
        for column in table.columns:
            conn.execute(
                sql.SQL("ALTER TABLE {} ADD COLUMN IF NOT EXISTS {} {}").format(
                    table.identifier, sql.Identifier(column.name), sql.SQL(column.pg_type)
                )
            )
    return table


def typed_table(conn: Connection, name: str) -> FormTable:
    """The typed table of a form stored some other way (``importer forms add``)."""
    form, _ = get_form(conn, name)
    return make_table(conn, form)


def form_rows(conn: Connection, form: str, where: str = "", *params: Any) -> list[dict[str, Any]]:
    """The rows of a form's table (its fields by field name, and the tool's own columns),
    in row order; ``where``: an SQL condition on them."""
    current, _ = get_form(conn, form)
    table = table_for(current)
    fields = [
        sql.SQL("{} AS {}").format(sql.Identifier(c.name), sql.Identifier(c.field))
        for c in table.columns
    ]
    statement = sql.SQL("SELECT import_job_id, row_number, written_at, {} FROM {} {} ORDER BY 2")
    condition = sql.SQL("WHERE " + where) if where else sql.SQL("")
    found = conn.execute(
        statement.format(sql.SQL(", ").join(fields), table.identifier, condition), params
    ).fetchall()
    return [dict(r) for r in found]


@dataclass
class Book:
    path: Path
    rows: list[list[Any]]  # data rows as written (Excel rows 2..)
    invalid: set[int] = field(default_factory=set)  # Excel row numbers that must be rejected

    @property
    def total(self) -> int:
        return len(self.rows)

    @property
    def valid(self) -> set[int]:
        return {n for n in range(2, 2 + self.total)} - self.invalid

    def expected_data(self) -> dict[int, dict[str, Any]]:
        """row_number -> the stored fields of the valid rows."""
        out = {}
        for offset, (order_id, customer, amount) in enumerate(self.rows):
            number = offset + 2
            if number in self.invalid:
                continue
            out[number] = {"order_id": order_id, "customer": customer, "amount": amount}
        return out


def write_book(path: Path, rows: list[list[Any]], header: list[str] = HEADER) -> None:
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Orders")
    sheet.write_row(0, 0, header)
    for index, row in enumerate(rows, start=1):
        for column, value in enumerate(row):
            if value is not None:
                sheet.write(index, column, value)
    book.close()


def orders_book(path: Path, count: int, *, bad_every: int = 10, start_id: int = 1) -> Book:
    """``count`` orders; every ``bad_every``-th has a negative amount (rejected)."""
    rows: list[list[Any]] = []
    invalid = set()
    for i in range(count):
        amount = -5 if bad_every and i % bad_every == bad_every - 1 else i % 97 + 1
        if amount < 0:
            invalid.add(i + 2)
        rows.append([start_id + i, f"customer {i}", amount])
    write_book(path, rows)
    return Book(path, rows, invalid)


def refuse_writes(conn: Connection, message: str, form: str = "orders") -> None:
    """Every statement inserting into the form's table fails with ``message`` (a server
    that, say, ran out of disk): a task-level failure, nothing about the job is wrong. Undo
    with ``DROP TRIGGER refuse ON forms.<form>``."""
    conn.execute(
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$"
        f" BEGIN RAISE EXCEPTION '{message}'; END $$"
    )
    conn.execute(
        sql.SQL(
            "CREATE TRIGGER refuse BEFORE INSERT ON {} FOR EACH STATEMENT EXECUTE FUNCTION refuse()"
        ).format(sql.Identifier("forms", form))
    )


def data_rows(conn: Connection, job_id: int) -> dict[int, dict[str, Any]]:
    """row_number -> the fields stored for the job's rows (in its form's table)."""
    job = conn.execute("SELECT form FROM import_jobs WHERE id = %s", (job_id,)).fetchone()
    if job is None:
        return {}
    rows = form_rows(conn, job["form"], "import_job_id = %s", job_id)
    own = {"import_job_id", "row_number", "written_at"}
    return {r["row_number"]: {k: v for k, v in r.items() if k not in own} for r in rows}


def normalized(data: dict[int, dict[str, Any]]) -> dict[int, tuple[Any, ...]]:
    """Compare decimals however they are stored (number or canonical string)."""
    return {
        n: (d["order_id"], d["customer"], float(d["amount"]) if d["amount"] is not None else None)
        for n, d in data.items()
    }


def error_rows(conn: Connection, job_id: int) -> list[int]:
    found = conn.execute(
        "SELECT row_number FROM import_row_errors WHERE import_job_id = %s ORDER BY row_number",
        (job_id,),
    ).fetchall()
    return [r["row_number"] for r in found]


def rejected_rows(conn: Connection, job_id: int) -> list[int]:
    found = conn.execute(
        "SELECT row_number FROM import_rejected_rows WHERE import_job_id = %s ORDER BY 1",
        (job_id,),
    ).fetchall()
    return [r["row_number"] for r in found]


def assert_exactly_once(conn: Connection, job_id: int, book: Book) -> None:
    """The promise: every valid row once, every invalid row's errors once, counters = totals."""
    job = conn.execute("SELECT form FROM import_jobs WHERE id = %s", (job_id,)).fetchone()
    assert job is not None
    row_numbers = [
        r["row_number"] for r in form_rows(conn, job["form"], "import_job_id = %s", job_id)
    ]
    assert len(row_numbers) == len(set(row_numbers)), "a row was written twice"
    assert normalized(data_rows(conn, job_id)) == normalized(book.expected_data())
    assert error_rows(conn, job_id) == sorted(book.invalid)  # one error per bad row here
    assert rejected_rows(conn, job_id) == sorted(book.invalid)
    job = conn.execute("SELECT * FROM import_jobs WHERE id = %s", (job_id,)).fetchone()
    assert job is not None
    assert (job["success_rows"], job["failed_rows"]) == (len(book.valid), len(book.invalid))
    assert job["total_rows"] == book.total
    assert job["status"] == ("partially_succeeded" if book.invalid else "succeeded")
    assert job["lease_owner"] is None


# --- real child processes ------------------------------------------------------------------


def wait_until_stopped(proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Wait for a child that stopped itself at a pause point (SIGSTOP)."""
    deadline = time.monotonic() + timeout
    handle = psutil.Process(proc.pid)
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            _out, err = proc.communicate()
            raise AssertionError(f"child exited {proc.returncode} before pausing: {err!r}")
        if handle.status() == psutil.STATUS_STOPPED and _all_threads_stopped(proc.pid):
            return
        time.sleep(0.02)
    raise AssertionError("child never reached its pause point")


def _all_threads_stopped(pid: int) -> bool:
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            state = (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state not in ("T", "t"):
            return False
    return True


def kill_9(proc: subprocess.Popen[bytes]) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)  # reaps it and closes its pipes


def killed_submit(conn: Connection, arguments: list[str], env: dict[str, str]) -> int:
    """``importer submit`` run as a child until its pause point (env's
    IMPORTER_TEST_PAUSE_AT), then killed -9: the job's id."""
    from tests.conftest import IMPORTER_CMD

    child = subprocess.Popen(
        [*IMPORTER_CMD, "submit", *arguments],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    wait_until_stopped(child)
    kill_9(child)
    newest = conn.execute("SELECT max(id) AS id FROM import_jobs").fetchone()
    assert newest is not None and newest["id"] is not None
    return int(newest["id"])


def only_job_id(conn: Connection) -> int:
    rows = conn.execute("SELECT id FROM import_jobs").fetchall()
    assert len(rows) == 1, rows
    return int(rows[0]["id"])


def counts(conn: Connection) -> dict[str, int]:
    """What exists: jobs, stored files, timers and imported rows, in every form's table (a
    refusal leaves none)."""
    row = conn.execute(
        "SELECT (SELECT count(*) FROM import_jobs) AS jobs,"
        " (SELECT count(*) FROM import_files) AS files,"
        " (SELECT count(*) FROM timer_jobs) AS timers"
    ).fetchone()
    assert row is not None
    found = {k: int(v) for k, v in row.items()}
    tables = conn.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'forms' ORDER BY 1"
    ).fetchall()
    found["rows"] = 0
    for table in tables:
        one = conn.execute(
            sql.SQL("SELECT count(*) AS n FROM {}").format(
                sql.Identifier("forms", table["tablename"])
            )
        ).fetchone()
        found["rows"] += int(one["n"]) if one else 0
    return found


def json_rows(conn: Connection, job_id: int) -> dict[int, dict[str, Any]]:
    """row_number -> the job's stored fields as JSON gives them back (numbers, ISO dates and
    moments as text): what a test of a row's values compares with a plain dict."""
    job = conn.execute("SELECT form FROM import_jobs WHERE id = %s", (job_id,)).fetchone()
    if job is None:
        return {}
    form, _ = get_form(conn, job["form"])
    table = table_for(form)
    pairs = [
        sql.SQL("{}, {}").format(sql.Literal(c.field), sql.Identifier(c.name))
        for c in table.columns
    ]
    found = conn.execute(
        sql.SQL(
            "SELECT row_number, jsonb_build_object({}) AS data FROM {}"
            " WHERE import_job_id = %s ORDER BY row_number"
        ).format(sql.SQL(", ").join(pairs), table.identifier),
        (job_id,),
    ).fetchall()
    return {int(r["row_number"]): r["data"] for r in found}
