"""A reject threshold (`submit --max-rejected`, a form's `max_rejected`): once crossed, the
job stops at the batch boundary, fails without retries with a reason that says so, and what
it had committed is taken back in the same transaction."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from importer.config import ImportSettings
from importer.database import Connection
from importer.forms.operations import JobOptions, RejectLimit, parse_reject_limit
from importer.intake.submission import Asked, submit_workbook
from importer.repositories import jobs
from importer.running.job_run import run_job
from importer.states import JobStatus
from tests.conftest import IMPORTER_CMD, Cli
from tests.support.jobs import (
    KEYED_FORM,
    ORDERS_FORM,
    add_form,
    kill_9,
    orders_book,
    wait_until_stopped,
    write_book,
)

SETTINGS = ImportSettings(rows_per_transaction=20, lease_seconds=30, max_attempts=3)
OWNER = "me:1:a"


def rows_of(conn: Connection, form: str) -> list[dict[str, Any]]:
    found = conn.execute(f'SELECT * FROM forms."{form}" ORDER BY order_id, row_number')
    return [dict(r) for r in found.fetchall()]


def run(database_url: str, conn: Connection, path: Path, form: str, limit: str | None) -> jobs.Job:
    options = JobOptions(max_rejected=parse_reject_limit(limit) if limit else None)
    job = submit_workbook(
        conn,
        path,
        Asked(form_name=form, claim_owner=OWNER, force=True, options=options),
        settings=SETTINGS,
    ).job
    run_job(database_url, job, OWNER, SETTINGS)
    return jobs.get_job(conn, job.id)


def retry_timers(conn: Connection, job_id: int) -> int:
    found = conn.execute(
        "SELECT count(*) AS n FROM timer_jobs WHERE kind = 'import_retry' AND target = %s",
        (str(job_id),),
    ).fetchone()
    assert found is not None
    return int(found["n"])


def test_ten_percent_bad_rows_over_a_five_percent_limit_leave_nothing(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, ORDERS_FORM)
    orders_book(tmp_path / "a.xlsx", 400, bad_every=10)  # 40 bad of 400: 10%
    job = run(database_url, conn, tmp_path / "a.xlsx", "orders", "5%")
    assert job.status is JobStatus.FAILED
    # 5% of 400 allows 20: the batch that brings the count to 22 (rows 201-220) is over it;
    # the next one may have committed already, while that one was being checked.
    assert (job.failed_rows, job.cursor) in {(22, 220), (24, 240)}
    share = f"{job.failed_rows / 400:.1%}"
    assert job.last_error == (
        f"{job.failed_rows} of 400 rows rejected ({share}), over the limit of 5%: nothing was kept"
    )
    assert rows_of(conn, "orders") == []
    assert retry_timers(conn, job.id) == 0  # not retried: the same rows fail the same way
    # The rejected rows stay, for the sender to fix.
    assert len(conn.execute(
        "SELECT 1 FROM import_rejected_rows WHERE import_job_id = %s", (job.id,)
    ).fetchall()) == job.failed_rows  # fmt: skip


def stored_values(conn: Connection) -> list[dict[str, Any]]:
    """The rows without what differs between two imports of one file (job, when)."""
    rows = rows_of(conn, "orders")
    return [{k: v for k, v in r.items() if k not in ("written_at", "import_job_id")} for r in rows]


def test_one_percent_bad_rows_under_a_five_percent_limit_change_nothing(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, ORDERS_FORM)
    orders_book(tmp_path / "a.xlsx", 400, bad_every=100)  # 4 bad of 400
    limited = run(database_url, conn, tmp_path / "a.xlsx", "orders", "5%")
    with_limit = stored_values(conn)
    conn.execute("DELETE FROM forms.orders")
    plain = run(database_url, conn, tmp_path / "a.xlsx", "orders", None)
    without = stored_values(conn)
    assert limited.status is plain.status is JobStatus.PARTIALLY_SUCCEEDED
    assert (limited.success_rows, limited.failed_rows) == (plain.success_rows, plain.failed_rows)
    assert with_limit == without and len(with_limit) == 396


def test_a_forms_row_count_limit_and_a_keyed_reimport_taken_back(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM.replace('key = ["order_id"]', 'key = ["order_id"]\nmax_rejected = 3'))
    write_book(tmp_path / "v1.xlsx", [[i, f"c{i}", i] for i in range(1, 61)])
    first = run(database_url, conn, tmp_path / "v1.xlsx", "ledger", None)
    assert first.status is JobStatus.SUCCEEDED and first.max_rejected == "3"
    before = rows_of(conn, "ledger")
    # Every row changes; rows 45-48 are bad: the fourth rejected row crosses the limit in
    # the third batch, after two batches overwrote 40 rows.
    rows = [[i, "changed", -1 if 44 <= i <= 47 else i * 3] for i in range(1, 61)]
    write_book(tmp_path / "v2.xlsx", rows)
    second = run(database_url, conn, tmp_path / "v2.xlsx", "ledger", None)
    assert second.status is JobStatus.FAILED
    assert second.last_error == (
        "4 of 60 rows rejected (6.7%), over the limit of 3: nothing was kept"
    )
    assert rows_of(conn, "ledger") == before


def test_the_submits_limit_overrides_the_forms(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, ORDERS_FORM.replace('name = "orders"', 'name = "orders"\nmax_rejected = 0'))
    orders_book(tmp_path / "a.xlsx", 40, bad_every=10)
    job = run(database_url, conn, tmp_path / "a.xlsx", "orders", "10%")
    assert job.status is JobStatus.PARTIALLY_SUCCEEDED and job.max_rejected == "10%"


def test_limits_as_written() -> None:
    assert parse_reject_limit("2%") == RejectLimit(percent=2.0)
    assert parse_reject_limit(50) == RejectLimit(rows=50)
    assert parse_reject_limit(" 0.5 % ") == RejectLimit(percent=0.5)
    assert RejectLimit(percent=2).allowed(1000) == 20
    assert RejectLimit(percent=2).allowed(None) is None
    for bad in ("abc", "-3", "150%", "2.5", True, 1.5):
        with pytest.raises(Exception, match="max_rejected"):
            parse_reject_limit(bad)
    # Before the rows are counted a percentage decides nothing; at the end, the rows read.
    assert RejectLimit(percent=10).crossed(5, None, 20) is None
    assert RejectLimit(percent=10).crossed(5, None, 20, final=True) == (
        "5 of 20 rows rejected (25.0%), over the limit of 10%"
    )


def test_the_cli_says_why_and_exits_1(cli: Cli, conn: Connection, tmp_path: Path) -> None:
    add_form(conn, ORDERS_FORM)
    orders_book(tmp_path / "a.xlsx", 100, bad_every=10)
    result = cli("submit", str(tmp_path / "a.xlsx"), "--max-rejected", "5%", "--json")
    assert result.exit_code == 1, result.stderr
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["status"] == "failed"
    assert "over the limit of 5%: nothing was kept" in data["error"]
    bad = cli("submit", str(tmp_path / "a.xlsx"), "--max-rejected", "lots")
    assert bad.exit_code == 2
    assert "--max-rejected 'lots'" in bad.stderr


def test_a_job_taken_back_says_none_of_its_rows_is_kept_and_refuses_a_correction(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, ORDERS_FORM)
    orders_book(tmp_path / "a.xlsx", 100, bad_every=10)
    result = cli("submit", str(tmp_path / "a.xlsx"), "--max-rejected", "5%")
    assert result.exit_code == 1, result.stderr
    job = jobs.get_job(conn, 1)
    assert job.taken_back and job.kept_rows == 0 and job.success_rows > 0
    assert rows_of(conn, "orders") == []
    # The summary's Imported column, status and jobs say what is stored: nothing.
    table = result.stdout.split("Import summary\n", 1)[1].splitlines()
    assert table[1].split()[2:5] == ["failed", "100", "0"], table
    status = cli("status", "1").stdout
    assert f"0 imported, {job.failed_rows} rejected ({job.success_rows} good rows taken back)" in (
        status
    )
    assert "kept:      none of its rows (taken back" in status
    assert cli("jobs").stdout.splitlines()[1].split()[4:6] == ["100", "0"]
    # The error workbook asks for the whole workbook again, and its correction is refused.
    fix = tmp_path / "fix.xlsx"
    assert cli("errors", "1", "-o", str(fix)).exit_code == 0
    about = [str(c.value) for row in openpyxl.load_workbook(fix)["About"].iter_rows() for c in row]
    assert any("None of the workbook's rows were imported" in text for text in about), about
    assert not any("already imported" in text for text in about)
    refused = cli("submit", str(fix))
    assert refused.exit_code == 2, refused.stdout
    assert "job 1 kept none of its rows (over its reject limit)" in refused.stderr
    assert conn.execute("SELECT count(*) AS n FROM import_jobs").fetchone() == {"n": 1}


@pytest.mark.slow
def test_a_kill_between_the_batch_over_the_limit_and_the_failure(
    cli: Cli, cli_env: dict[str, str], conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, ORDERS_FORM)
    orders_book(tmp_path / "a.xlsx", 100, bad_every=5)  # 20% bad
    env = {
        **cli_env,
        "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "10",
        "IMPORTER_TEST_PAUSE_AT": "committed:2",  # batch 2 committed, over the limit
    }
    child = subprocess.Popen(
        [*IMPORTER_CMD, "submit", str(tmp_path / "a.xlsx"), "--max-rejected", "3"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    wait_until_stopped(child)
    kill_9(child)
    job_id = max(r["id"] for r in conn.execute("SELECT id FROM import_jobs").fetchall())
    crashed = jobs.get_job(conn, job_id)
    assert crashed.status is JobStatus.RUNNING and crashed.failed_rows == 4
    assert len(rows_of(conn, "orders")) == 16
    resumed = cli("resume", str(job_id))
    assert resumed.exit_code == 1
    failed = jobs.get_job(conn, job_id)
    assert failed.status is JobStatus.FAILED and failed.cursor == 20
    assert failed.last_error is not None and failed.last_error.endswith("nothing was kept")
    assert rows_of(conn, "orders") == []


def test_check_says_whether_an_import_would_fail_on_its_threshold(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, ORDERS_FORM.replace('name = "orders"', 'name = "orders"\nmax_rejected = "5%"'))
    orders_book(tmp_path / "a.xlsx", 100, bad_every=10)
    path = str(tmp_path / "a.xlsx")
    over = cli("check", path)
    assert over.exit_code == 1
    assert "an import would fail: 10 of 100 rows rejected (10.0%), over the limit of 5%" in (
        over.stdout
    )
    data = json.loads(cli("check", path, "--json").stdout)
    assert data["max_rejected"] == "5%" and data["over_limit"].startswith("10 of 100")
    assert cli("check", path, "--max-rejected", "20%").exit_code == 3  # the check's wins
    assert rows_of(conn, "orders") == []  # a check stores nothing
