"""The databases of tests/upgrade/, made by the importer of an old commit, then dumped.

    .venv/bin/python -m tests.upgrade.make_dumps SERVER_URL [schema_0001.sql schema_0014.sql]

SERVER_URL is a PostgreSQL 15 server where the user may create databases
(postgresql://postgres@localhost/postgres); pg_dump must be on PATH (the test that loads the
dumps needs neither). For each dump the commit's files are taken from git (git archive) into
a temporary folder, sql/ moved to importer/sql where a release ships it, and that importer
is run (python -m importer, PYTHONPATH the folder, this environment's libraries) against a
scratch database, by the commands of ``schema_0001`` and ``schema_0014`` below. Then
``pg_dump --inserts --no-owner --no-privileges``, less the lines only psql reads
(``\\restrict``), is written to tests/upgrade/schema_NNNN.sql.

schema_0001.sql: commit 2624f0f, the last whose schema is 0001 (0002 came with 35c6183)
  forms add orders.form.toml                    orders v1, keyed by order_id
  forms add deliveries v1                       an append form
  submit orders.xlsx --form orders              job 1: 285 rows, 15 rejected
  submit deliveries_200.xlsx --form deliveries  job 2: 200 rows, some rejected
  submit orders_fix.xlsx --form orders          job 3: orders 10001-10003 changed, 2 new
  forms add deliveries v2                       quantity a decimal now, and a carrier
  submit deliveries_50.xlsx --in 30s            job 4: pending on an import timer
  submit deliveries_400.xlsx (50 rows a transaction, a lease of 20 s), stopped after its
  4th commit (IMPORTER_TEST_PAUSE_AT=committed:4) and killed -9: job 5 running, 200 rows in

schema_0014.sql: commit bb7eea2, the last whose schema is 0014 (0015 came with 03306f2)
  forms add orders.form.toml, forms add deliveries v1
  submit orders.xlsx --form orders              job 1: 285 rows, 15 rejected
  submit orders_fix.xlsx --form orders          job 2: 10001-10003 changed (history), 2 new
  submit orders_fix2.xlsx --form orders         job 3: 10001 changed again
  submit deliveries_50.xlsx --in 30s            job 4: pending on an import timer
  submit deliveries_400.xlsx as above           job 5: running, 200 rows in

The workbooks: orders.xlsx is the commit's sample; deliveries_N.xlsx come from the commit's
``python -m sample_data.generate big`` (10 columns, seed 1, 5% invalid for 200 and 400
rows); orders_fix*.xlsx are written here (``FIXES``). Before the dump this waits until the
timer is due and the killed submit's lease has expired, so that whenever the test runs, the
scheduler fires the one and ``resume`` takes the other over.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

import psycopg
import xlsxwriter
from psycopg import sql
from psycopg.conninfo import make_conninfo

from tests.support.jobs import kill_9, wait_until_stopped

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

DELIVERIES_V1 = """name = "deliveries"
description = "Deliveries, one row each (no key: every import adds rows)"
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
# The second version: quantity widened to a decimal, and a field the sheets do not have.
DELIVERIES_V2 = DELIVERIES_V1.replace(
    'name = "quantity"\nheader = "Qty"\ntype = "integer"',
    'name = "quantity"\nheader = "Qty"\ntype = "decimal"',
).replace("min = 1\nmax = 1000", "min = 0.5\nmax = 1000") + (
    '[[fields]]\nname = "carrier"\nheader = "Carrier"\ntype = "string"\n'
)

ORDER_HEADER = ["Order ID", "Customer", "Email", "Order Date", "Status", "Qty", "Unit Price"]
# Orders sent again, changed: orders.xlsx's 10001-10003 with another status and quantity,
# and two it did not have.
FIXES = {
    "orders_fix.xlsx": [
        [10001, "Ada Lovelace", "ada@example.com", date(2024, 3, 1), "cancelled", 999, 1.5],
        [10002, "Grace Hopper", "grace@example.com", date(2024, 3, 2), "cancelled", 998, 2.5],
        [10003, "Alan Turing", "alan@example.com", date(2024, 3, 3), "cancelled", 997, 3.5],
        [20001, "Radia Perlman", "radia@example.com", date(2024, 3, 4), "new", 1, 10.0],
        [20002, "Ken Thompson", "ken@example.com", date(2024, 3, 5), "paid", 2, 20.0],
    ],
    "orders_fix2.xlsx": [
        [10001, "Ada Lovelace", "ada@example.com", date(2024, 4, 1), "shipped", 5, 1.5],
    ],
}
PAUSED = {
    "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "50",
    "IMPORTER_JOBS_IMPORT_LEASE_SECONDS": "20",
    "IMPORTER_TEST_PAUSE_AT": "committed:4",
}


class OldTool:
    """The importer of one commit, run from its files against one database."""

    def __init__(self, commit: str, work: Path, database_url: str) -> None:
        self.commit = commit
        self.tree = work / "tree"
        self.files = work / "files"
        self.tree.mkdir()
        self.files.mkdir()
        archive = subprocess.run(
            ["git", "archive", commit], cwd=ROOT, capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(self.tree)], input=archive.stdout, check=True)
        if (self.tree / "sql").is_dir():  # shipped as importer.sql
            shutil.move(self.tree / "sql", self.tree / "importer" / "sql")
        self.env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("IMPORTER_", "PYTHON")) and key != "DATABASE_URL"
        }
        self.env.update(
            PYTHONPATH=str(self.tree),
            IMPORTER_DATABASE_URL=database_url,
            IMPORTER_HOME=str(work / "home"),
            NO_COLOR="1",
        )

    def command(self, *args: str | Path) -> list[str]:
        return [sys.executable, "-m", "importer", *(str(a) for a in args)]

    def run(self, *args: str | Path, codes: tuple[int, ...] = (0,)) -> str:
        done = subprocess.run(
            self.command(*args), cwd=self.files, env=self.env, capture_output=True, text=True
        )
        print(f"$ importer {' '.join(str(a) for a in args)}  -> {done.returncode}")
        assert done.returncode in codes, f"{args}: {done.returncode}\n{done.stdout}{done.stderr}"
        return done.stdout

    def generate(self, name: str, rows: int, invalid: float) -> Path:
        path = self.files / name
        args = ["big", str(path), "--rows", str(rows), "--invalid", str(invalid)]
        subprocess.run(
            [sys.executable, "-m", "sample_data.generate", *args],
            cwd=self.tree,
            env=self.env,
            check=True,
        )
        return path

    def form(self, name: str, text: str) -> Path:
        path = self.files / name
        path.write_text(text, encoding="utf-8")
        return path

    def killed_submit(self, book: Path, form: str) -> None:
        """``submit`` stopped after its 4th committed transaction of 50 rows, killed -9."""
        child = subprocess.Popen(
            self.command("submit", book, "--form", form),
            cwd=self.files,
            env={**self.env, **PAUSED},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        wait_until_stopped(child)
        kill_9(child)
        print(f"$ importer submit {book.name} --form {form}  -> killed -9 after 200 rows")


def write_fix(folder: Path, name: str) -> Path:
    path = folder / name
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Orders")
    day = book.add_format({"num_format": "yyyy-mm-dd"})
    sheet.write_row(0, 0, ORDER_HEADER)
    for r, row in enumerate(FIXES[name], start=1):
        for c, value in enumerate(row):
            if isinstance(value, date):
                sheet.write_datetime(r, c, datetime.combine(value, datetime.min.time()), day)
            else:
                sheet.write(r, c, value)
    book.close()
    return path


def schema_0001(tool: OldTool) -> None:
    tool.run("db", "migrate")
    tool.run("forms", "add", tool.tree / "sample_data" / "orders.form.toml")
    tool.run("forms", "add", tool.form("deliveries.form.toml", DELIVERIES_V1))
    tool.run("submit", tool.tree / "sample_data" / "orders.xlsx", "--form", "orders", codes=(3,))
    book = tool.generate("deliveries_200.xlsx", 200, 0.05)
    tool.run("submit", book, "--form", "deliveries", codes=(3,))
    tool.run("submit", write_fix(tool.files, "orders_fix.xlsx"), "--form", "orders")
    tool.run("forms", "add", tool.form("deliveries.form.toml", DELIVERIES_V2))
    later = tool.generate("deliveries_50.xlsx", 50, 0.0)
    tool.run("submit", later, "--form", "deliveries", "--in", "30s")
    tool.killed_submit(tool.generate("deliveries_400.xlsx", 400, 0.05), "deliveries")


def schema_0014(tool: OldTool) -> None:
    tool.run("db", "migrate")
    tool.run("forms", "add", tool.tree / "sample_data" / "orders.form.toml")
    tool.run("forms", "add", tool.form("deliveries.form.toml", DELIVERIES_V1))
    tool.run("submit", tool.tree / "sample_data" / "orders.xlsx", "--form", "orders", codes=(3,))
    tool.run("submit", write_fix(tool.files, "orders_fix.xlsx"), "--form", "orders")
    tool.run("submit", write_fix(tool.files, "orders_fix2.xlsx"), "--form", "orders")
    later = tool.generate("deliveries_50.xlsx", 50, 0.0)
    tool.run("submit", later, "--form", "deliveries", "--in", "30s")
    tool.killed_submit(tool.generate("deliveries_400.xlsx", 400, 0.05), "deliveries")


DUMPS: dict[str, tuple[str, Callable[[OldTool], None]]] = {
    "schema_0001.sql": ("2624f0f0dbf8cbc37f93491f701fa5609bb9f3e9", schema_0001),
    "schema_0014.sql": ("bb7eea22ebde8de01101cf3f5360715ea898acf5", schema_0014),
}

# Lines pg_dump writes for psql alone (15.14 and later: \restrict and \unrestrict).
_PSQL_ONLY = re.compile(r"^\\.*\n", re.MULTILINE)


def wait_until_due(database_url: str) -> None:
    """Until the pending timers are due and the running jobs' leases have expired."""
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT extract(epoch FROM greatest("
            " (SELECT max(due_at) FROM timer_jobs WHERE status = 'pending'),"
            " (SELECT max(lease_expires_at) FROM import_jobs WHERE status = 'running')"
            ") - now())"
        ).fetchone()
    wait = float(row[0]) + 1 if row and row[0] is not None else 0.0
    if wait > 0:
        print(f"# waiting {wait:.0f} s for the timer and the lease")
        time.sleep(wait)


def dump(database_url: str, target: Path) -> None:
    text = subprocess.run(
        ["pg_dump", "--inserts", "--no-owner", "--no-privileges", database_url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    target.write_text(_PSQL_ONLY.sub("", text), encoding="utf-8")


def make(server_url: str, name: str) -> None:
    commit, steps = DUMPS[name]
    dbname = f"upgrade_{name.removesuffix('.sql')}_{uuid.uuid4().hex[:8]}"
    database_url = make_conninfo(server_url, dbname=dbname)
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
    try:
        with tempfile.TemporaryDirectory(prefix="importer-upgrade-") as work:
            print(f"# {name}: commit {commit}")
            steps(OldTool(commit, Path(work), database_url))
        wait_until_due(database_url)
        dump(database_url, HERE / name)
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
            admin.execute(drop.format(sql.Identifier(dbname)))


def main(argv: list[str]) -> int:
    if len(argv) < 1:
        print(__doc__)
        return 2
    for name in argv[1:] or DUMPS:
        make(argv[0], name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
