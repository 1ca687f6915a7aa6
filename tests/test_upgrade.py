"""Upgrades keep data: a database that an earlier release filled (tests/upgrade/schema_NNNN.sql,
made by that release's own code: tests/upgrade/make_dumps.py says how) is upgraded by the
wheel, installed as a user installs it, and every job, row, rejected row, form, timer and
kept version is still there and usable: status, errors, export, undo, resume, history, the
forms and the timers.

schema_0001.sql is the oldest schema the tool accepts; schema_0014.sql the newest before the
current one, with the values keyed imports overwrote (history, kept from schema 0013 on)."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, LiteralString

import psycopg
import pytest
import xlsxwriter
from openpyxl import load_workbook

from importer.database import available_migrations
from tests.support.release import InstalledTool, clean_environment

pytestmark = pytest.mark.slow

DUMPS = Path(__file__).resolve().parent / "upgrade"
LATEST = available_migrations()[-1].version


@dataclass(frozen=True)
class Dump:
    """A database an earlier release left, and what its jobs were then."""

    file: str
    version: int  # its schema version
    jobs: dict[int, tuple[str, int, int]]  # id -> status, rows imported, rows rejected


# Both: 1 orders.xlsx (keyed by order_id), 4 a scheduled import of deliveries (50 rows),
# 5 deliveries (400 rows, no key) killed -9 after 200 rows.
SCHEMA_0001 = Dump(
    "schema_0001.sql",
    1,
    {
        1: ("partially_succeeded", 285, 15),
        2: ("partially_succeeded", 186, 14),  # deliveries, 200 rows
        3: ("succeeded", 5, 0),  # orders 10001-10003 changed, 20001-20002 new
        4: ("pending", 0, 0),
        5: ("running", 186, 14),
    },
)
SCHEMA_0014 = Dump(
    "schema_0014.sql",
    14,
    {
        1: ("partially_succeeded", 285, 15),
        2: ("succeeded", 5, 0),  # orders 10001-10003 changed, 20001-20002 new
        3: ("succeeded", 1, 0),  # order 10001 changed again
        4: ("pending", 0, 0),
        5: ("running", 186, 14),
    },
)
# The 400 rows of job 5 as one uninterrupted import reads them (5% spoiled, seed 1).
DELIVERIES_400 = (371, 29)


@pytest.fixture
def tool(installed_venv: Path, empty_database_url: str, tmp_path: Path) -> Iterator[InstalledTool]:
    """The installed command on an empty database, run in a folder of its own."""
    yield InstalledTool(installed_venv, tmp_path, clean_environment(empty_database_url, tmp_path))


def load(database_url: str, dump: Dump) -> None:
    """The dump's SQL as it is: psycopg runs a script of many statements given no parameters."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute((DUMPS / dump.file).read_text(encoding="utf-8").encode())


def query(database_url: str, statement: LiteralString, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(database_url) as conn:
        return conn.execute(statement, params).fetchall()


def ok(tool: InstalledTool, *args: str | Path) -> str:
    """The command's output; it must succeed."""
    done = tool.run(*args)
    assert done.returncode == 0, f"{args}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def upgraded(tool: InstalledTool, database_url: str, dump: Dump) -> None:
    """The dump loaded and migrated by the wheel's `db migrate`."""
    load(database_url, dump)
    ok(tool, "db", "migrate")


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def jobs_now(database_url: str) -> dict[int, tuple[str, int, int]]:
    rows = query(database_url, "SELECT id, status, success_rows, failed_rows FROM import_jobs")
    return {r[0]: (r[1], r[2], r[3]) for r in rows}


@pytest.mark.parametrize("dump", [SCHEMA_0001, SCHEMA_0014], ids=["0001", "0014"])
def test_db_migrate_applies_and_names_each_migration_and_keeps_every_job(
    tool: InstalledTool, empty_database_url: str, dump: Dump
) -> None:
    load(empty_database_url, dump)
    version = ok(tool, "--version")
    assert f"schema version {dump.version} (the next command migrates it to {LATEST})" in version
    migrated = ok(tool, "db", "migrate").splitlines()
    pending = [m for m in available_migrations() if m.version > dump.version]
    assert migrated[:-1] == [f"applied {m.version:04d}_{m.name}" for m in pending]
    assert migrated[-1].startswith(f"schema at version {LATEST} on ")
    assert ok(tool, "db", "migrate").splitlines() == migrated[-1:]  # nothing left to apply
    assert jobs_now(empty_database_url) == dump.jobs
    listed = json_lines(ok(tool, "jobs", "--json"))
    assert [(j["id"], j["status"]) for j in listed] == [(i, s[0]) for i, s in dump.jobs.items()]
    status = ok(tool, "status", "1")
    assert "partially_succeeded" in status and "300 total, 285 imported, 15 rejected" in status
    stats = json.loads(ok(tool, "stats", "--json"))  # the totals of 0015 count the old jobs
    ended = [job for job in dump.jobs.values() if job[0] not in ("pending", "running")]
    assert stats["jobs"]["partially_succeeded"] == sum(
        s == "partially_succeeded" for s, *_ in ended
    )
    assert (stats["rows_imported"], stats["rows_rejected"]) == (
        sum(imported for _, imported, _ in dump.jobs.values()),
        sum(rejected for *_, rejected in dump.jobs.values()),
    )
    assert (stats["scheduled"], stats["running"]) == (1, 1)


def rejected_workbook(tool: InstalledTool, job: int) -> list[tuple[Any, ...]]:
    """`errors JOB -o` as the sender gets it: the sheet's rows, header first."""
    path = tool.home / f"rejected-{job}.xlsx"
    assert "rejected rows to " in ok(tool, "errors", str(job), "-o", path)
    book = load_workbook(path, read_only=True)
    try:
        return list(book.worksheets[0].values)
    finally:
        book.close()


def exported(tool: InstalledTool, *args: str) -> list[dict[str, str]]:
    path = tool.home / "export.csv"
    ok(tool, "export", *args, "-o", path)
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def test_rows_and_rejected_rows_of_schema_0001_are_read_back_after_the_upgrade(
    tool: InstalledTool, empty_database_url: str
) -> None:
    upgraded(tool, empty_database_url, SCHEMA_0001)
    # The last column, hidden, is each row's key (a fixed copy comes back as a correction).
    sheet = [row[:-1] for row in rejected_workbook(tool, 1)]
    assert sheet[0][-2:] == ("Problems", "Source row") and len(sheet) == 1 + 15
    rejected = query(
        empty_database_url,
        "SELECT row_number FROM import_rejected_rows WHERE import_job_id = 1 ORDER BY 1",
    )
    assert [row[-1] for row in sheet[1:]] == [r[0] for r in rejected]
    assert all(row[-2] for row in sheet[1:])  # each says what is wrong
    assert len(rejected_workbook(tool, 2)) == 1 + 14

    orders = {int(r["order_id"]): r for r in exported(tool, "orders")}
    assert len(orders) == 285 - 3 + 5  # job 3 changed three orders of job 1 and added two
    changed = orders[10001]
    assert (changed["status"], changed["quantity"], changed["import_job_id"]) == (
        "cancelled",
        "999",
        "3",
    )
    deliveries = exported(tool, "deliveries", "--job", "2")
    assert len(deliveries) == 186 and {r["carrier"] for r in deliveries} == {""}
    assert len({r["row_number"] for r in deliveries}) == 186


@pytest.mark.parametrize("dump", [SCHEMA_0001, SCHEMA_0014], ids=["0001", "0014"])
def test_a_job_left_running_by_the_old_release_resumes_every_row_exactly_once(
    tool: InstalledTool, empty_database_url: str, dump: Dump
) -> None:
    upgraded(tool, empty_database_url, dump)
    resumed = tool.run("resume", "--json")
    assert resumed.returncode == 3, resumed.stderr  # some rows rejected, as the file has
    [job] = json_lines(resumed.stdout)
    assert (job["id"], job["status"], job["total_rows"]) == (5, "partially_succeeded", 400)
    assert (job["success_rows"], job["failed_rows"]) == DELIVERIES_400
    [(stored, distinct)] = query(
        empty_database_url,
        "SELECT count(*), count(DISTINCT row_number) FROM forms.deliveries WHERE import_job_id = 5",
    )
    assert stored == distinct == DELIVERIES_400[0]  # every good row once
    [(rejected, rows)] = query(
        empty_database_url,
        "SELECT count(*), count(DISTINCT row_number) FROM import_rejected_rows"
        " WHERE import_job_id = 5",
    )
    assert rejected == rows == DELIVERIES_400[1]
    assert len(rejected_workbook(tool, 5)) == 1 + DELIVERIES_400[1]
    assert "nothing to resume" in ok(tool, "resume")


@pytest.mark.parametrize("dump", [SCHEMA_0001, SCHEMA_0014], ids=["0001", "0014"])
def test_an_import_scheduled_by_the_old_release_fires_and_runs(
    tool: InstalledTool, empty_database_url: str, dump: Dump
) -> None:
    upgraded(tool, empty_database_url, dump)
    [timer] = json_lines(ok(tool, "timers", "list", "--json"))
    assert (timer["kind"], timer["target"], timer["status"]) == ("scheduled_import", "4", "pending")
    ok(tool, "timers", "--once")
    [timer] = json_lines(ok(tool, "timers", "list", "--json"))
    assert timer["status"] == "completed"
    ok(tool, "worker", "--once")
    assert jobs_now(empty_database_url)[4] == ("succeeded", 50, 0)
    assert len(exported(tool, "deliveries", "--job", "4")) == 50


def test_forms_of_schema_0001_keep_their_versions(
    tool: InstalledTool, empty_database_url: str
) -> None:
    upgraded(tool, empty_database_url, SCHEMA_0001)
    forms = {f["name"]: f for f in json_lines(ok(tool, "forms", "list", "--json"))}
    assert (forms["orders"]["version"], forms["orders"]["key"]) == (1, ["order_id"])
    assert (forms["deliveries"]["version"], forms["deliveries"]["fields"]) == (2, 11)
    first = ok(tool, "forms", "show", "deliveries", "--version", "1")
    assert 'name = "quantity"\nheader = "Qty"\ntype = "integer"' in first
    assert "carrier" not in first
    current = ok(tool, "forms", "show", "deliveries")
    assert 'type = "decimal"' in current and 'name = "carrier"' in current
    shown = tool.home / "deliveries.form.toml"
    shown.write_text(current, encoding="utf-8")
    assert "form 'deliveries' unchanged: version 2" in ok(tool, "forms", "add", shown)
    [(quantity,)] = query(
        empty_database_url,
        "SELECT data_type FROM information_schema.columns"
        " WHERE table_schema = 'forms' AND table_name = 'deliveries' AND column_name = 'quantity'",
    )
    assert quantity == "numeric"  # wide enough for both versions' values


def write_orders(path: Path, rows: list[list[Any]]) -> Path:
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Orders")
    sheet.write_row(0, 0, ["Order ID", "Customer", "Order Date", "Status", "Qty", "Unit Price"])
    for number, row in enumerate(rows, start=1):
        sheet.write_row(number, 0, row)
    book.close()
    return path


def order(database_url: str, order_id: int) -> tuple[Any, ...] | None:
    found = query(
        database_url,
        "SELECT import_job_id, status, quantity FROM forms.orders WHERE order_id = %s",
        order_id,
    )
    return found[0] if found else None


def test_undo_after_the_upgrade_of_jobs_from_before_history_was_kept(
    tool: InstalledTool, empty_database_url: str
) -> None:
    upgraded(tool, empty_database_url, SCHEMA_0001)
    assert "job 2: removed 186 rows" in ok(tool, "undo", "2")  # no key: its rows, gone
    assert jobs_now(empty_database_url)[2][0] == "reverted"
    assert query(empty_database_url, "SELECT count(*) FROM forms.deliveries") == [(186,)]

    # Job 3 overwrote orders of job 1 when nothing kept what it overwrote: taking it back
    # would delete those orders, not give them back. Refused, and nothing changes.
    for job in ("3", "1"):
        refused = tool.run("undo", job)
        assert refused.returncode == 2, refused.stdout + refused.stderr
        assert "before this database was upgraded to keep" in refused.stderr, refused.stderr
    assert order(empty_database_url, 10001) == (3, "cancelled", 999)
    assert len(exported(tool, "orders")) == 287
    history = json.loads(ok(tool, "history", "orders", "10001", "--json"))
    assert (history["current"]["job"], history["earlier"]) == (3, [])

    # What the new release writes over the old rows, it keeps, and gives back.
    book = write_orders(tool.home / "fix.xlsx", [[10002, "Grace", "2024-05-01", "paid", 7, 2]])
    ok(tool, "submit", book, "--form", "orders")
    history = json.loads(ok(tool, "history", "orders", "10002", "--json"))
    assert [v["job"] for v in history["earlier"]] == [3]
    assert history["earlier"][0]["values"]["quantity"] == 998
    assert "job 6: removed 0 rows, restored 1 row" in ok(tool, "undo", "6")
    assert order(empty_database_url, 10002) == (3, "cancelled", 998)


def test_history_kept_at_schema_0014_is_shown_and_undone_after_the_upgrade(
    tool: InstalledTool, empty_database_url: str
) -> None:
    upgraded(tool, empty_database_url, SCHEMA_0014)
    history = json.loads(ok(tool, "history", "orders", "10001", "--json"))
    assert history["current"]["job"] == 3 and history["current"]["values"]["status"] == "shipped"
    assert [(v["job"], v["replaced_by"]) for v in history["earlier"]] == [(2, 3), (1, 2)]
    first = history["earlier"][1]["values"]
    shown = ok(tool, "history", "orders", "10001")
    assert "now" in shown and "cancelled" in shown and first["customer"][:8] in shown

    refused = tool.run("undo", "2")  # job 3 changed its rows since
    assert refused.returncode == 2 and "undo 2 --cascade" in refused.stderr, refused.stderr
    taken = json.loads(ok(tool, "undo", "3", "--json"))
    assert (taken["removed"], taken["restored"]) == (0, 1)
    assert order(empty_database_url, 10001) == (2, "cancelled", 999)
    assert "job 2: removed 2 rows, restored 3 rows" in ok(tool, "undo", "2")

    orders = {int(r["order_id"]): r for r in exported(tool, "orders")}
    assert len(orders) == 285 and {r["import_job_id"] for r in orders.values()} == {"1"}
    assert (orders[10001]["status"], int(orders[10001]["quantity"])) == (
        first["status"],
        first["quantity"],
    )
    history = json.loads(ok(tool, "history", "orders", "10001", "--json"))
    assert (history["current"]["job"], history["earlier"]) == (1, [])
    statuses = jobs_now(empty_database_url)
    assert (statuses[2][0], statuses[3][0]) == ("reverted", "reverted")
