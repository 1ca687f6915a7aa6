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

from importer.database import Connection
from importer.forms.definition import parse_form_text
from importer.repositories.forms import save_form

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


def add_form(conn: Connection, text: str = ORDERS_FORM) -> None:
    save_form(conn, parse_form_text(text))


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
        """row_number -> form_data.data for the valid rows."""
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


def refuse_writes(conn: Connection, message: str) -> None:
    """Every statement inserting into form_data fails with ``message`` (a server that, say,
    ran out of disk): a task-level failure, nothing about the job is wrong. Undo with
    ``DROP TRIGGER refuse ON form_data``."""
    conn.execute(
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$"
        f" BEGIN RAISE EXCEPTION '{message}'; END $$;"
        " CREATE TRIGGER refuse BEFORE INSERT ON form_data"
        " FOR EACH STATEMENT EXECUTE FUNCTION refuse()"
    )


def data_rows(conn: Connection, job_id: int) -> dict[int, dict[str, Any]]:
    found = conn.execute(
        "SELECT row_number, data FROM form_data WHERE import_job_id = %s ORDER BY row_number",
        (job_id,),
    ).fetchall()
    return {r["row_number"]: r["data"] for r in found}


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
    row_numbers = [
        r["row_number"]
        for r in conn.execute(
            "SELECT row_number FROM form_data WHERE import_job_id = %s", (job_id,)
        ).fetchall()
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


def only_job_id(conn: Connection) -> int:
    rows = conn.execute("SELECT id FROM import_jobs").fetchall()
    assert len(rows) == 1, rows
    return int(rows[0]["id"])


def counts(conn: Connection) -> dict[str, int]:
    """What exists: jobs, stored files, timers and imported rows (a refusal leaves none)."""
    row = conn.execute(
        "SELECT (SELECT count(*) FROM import_jobs) AS jobs,"
        " (SELECT count(*) FROM import_files) AS files,"
        " (SELECT count(*) FROM timer_jobs) AS timers,"
        " (SELECT count(*) FROM form_data) AS rows"
    ).fetchone()
    assert row is not None
    return {k: int(v) for k, v in row.items()}
