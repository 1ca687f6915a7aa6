"""The job commands end to end: submit, resume, status, jobs, errors, cancel, retry."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from importer.database import Connection
from tests.conftest import IMPORTER_CMD, Cli, CliResult
from tests.support.jobs import (
    add_form,
    assert_exactly_once,
    orders_book,
    refuse_writes,
    wait_until_stopped,
    write_book,
)


@pytest.fixture
def orders(conn: Connection, cli_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    add_form(conn)
    monkeypatch.setenv("IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION", "10")


def job_json(result: CliResult) -> dict[str, object]:
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    assert len(lines) == 1, result.stdout
    data: dict[str, object] = json.loads(lines[0])
    return data


def test_submit_imports_in_the_foreground(
    cli: Cli, conn: Connection, orders: None, tmp_path: Path
) -> None:
    book = orders_book(tmp_path / "orders.xlsx", 45)
    result = cli("submit", str(book.path), "--form", "orders")
    assert result.exit_code == 3, result.stderr  # finished with rejected rows
    assert "Import summary" in result.stdout and "partially_succeeded" in result.stdout
    assert "done · 45/45 rows (100%)" in result.stdout  # plain progress lines off a terminal
    job_id = int(conn.execute("SELECT id FROM import_jobs").fetchone()["id"])  # type: ignore[index]
    assert_exactly_once(conn, job_id, book)

    clean = orders_book(tmp_path / "clean.xlsx", 12, bad_every=0)
    result = cli("submit", str(clean.path), "--form", "orders", "--json")
    assert result.exit_code == 0, result.stderr
    data = job_json(result)
    assert {k: data[k] for k in ("status", "total_rows", "success_rows", "failed_rows")} == {
        "status": "succeeded",
        "total_rows": 12,
        "success_rows": 12,
        "failed_rows": 0,
    }
    assert {"id", "attempts", "error"} <= set(data)


def test_submitting_the_same_file_again_reports_the_existing_job(
    cli: Cli, conn: Connection, orders: None, tmp_path: Path
) -> None:
    book = orders_book(tmp_path / "orders.xlsx", 20)
    first = cli("submit", str(book.path), "--form", "orders", "--json", "--quiet")
    again = cli("submit", str(book.path), "--form", "orders", "--json")
    assert (first.exit_code, again.exit_code) == (3, 3)
    assert job_json(again)["id"] == job_json(first)["id"]
    assert job_json(again)["already_submitted"] is True
    assert "already submitted" in again.stderr and "--force" in again.stderr
    rows = conn.execute("SELECT count(*) AS n FROM forms.orders").fetchone()
    assert rows == {"n": len(book.valid)}  # nothing imported twice

    forced = cli("submit", str(book.path), "--form", "orders", "--force", "--json", "--quiet")
    assert forced.exit_code == 3 and job_json(forced)["id"] != job_json(first)["id"]


def test_bad_input_is_refused_with_exit_2_and_no_job(
    cli: Cli, conn: Connection, orders: None, tmp_path: Path
) -> None:
    write_book(tmp_path / "wrong.xlsx", [[1]], header=["Nothing useful"])
    result = cli("submit", str(tmp_path / "wrong.xlsx"), "--form", "orders")
    assert result.exit_code == 2 and "missing required column" in result.stderr
    assert cli("submit", str(tmp_path / "nope.xlsx"), "--form", "orders").exit_code == 2
    (tmp_path / "text.xlsx").write_text("this is not a workbook")
    assert cli("submit", str(tmp_path / "text.xlsx"), "--form", "orders").exit_code == 2
    book = orders_book(tmp_path / "ok.xlsx", 2)
    assert cli("submit", str(book.path), "--form", "nope").exit_code == 2
    assert cli("submit", str(book.path), "--form", "orders", "--engine", "x").exit_code == 2
    assert cli("submit", str(book.path), "--form", "orders", "--sheet", "Nope").exit_code == 2
    assert conn.execute("SELECT count(*) AS n FROM import_jobs").fetchone() == {"n": 0}


def test_detach_then_resume(cli: Cli, conn: Connection, orders: None, tmp_path: Path) -> None:
    book = orders_book(tmp_path / "orders.xlsx", 30)
    queued = cli("submit", str(book.path), "--form", "orders", "--detach", "--json")
    assert queued.exit_code == 0
    job = job_json(queued)
    assert job["status"] == "pending" and job["total_rows"] is None  # counted by the run

    status = cli("status", str(job["id"]), "--json")
    assert job_json(status)["status"] == "pending"

    resumed = cli("resume", str(job["id"]), "--json", "--quiet")
    assert resumed.exit_code == 3, resumed.stderr
    assert job_json(resumed)["success_rows"] == len(book.valid)
    assert_exactly_once(conn, int(job["id"]), book)  # type: ignore[call-overload]

    assert cli("resume", "--all").stdout.strip() == "nothing to resume"
    assert cli("resume", "999").exit_code == 2


def test_jobs_listing_and_status(cli: Cli, orders: None, tmp_path: Path) -> None:
    done = orders_book(tmp_path / "a.xlsx", 5, bad_every=0)
    cli("submit", str(done.path), "--form", "orders", "--quiet")
    waiting = orders_book(tmp_path / "b.xlsx", 5, start_id=100)
    cli("submit", str(waiting.path), "--form", "orders", "--detach")

    listing = cli("jobs")
    assert listing.exit_code == 0
    assert "succeeded" in listing.stdout and "pending" in listing.stdout
    lines = cli("jobs", "--status", "pending", "--json").stdout.splitlines()
    assert [json.loads(line)["file_name"] for line in lines] == ["b.xlsx"]
    assert cli("jobs", "--status", "nonsense").exit_code == 2

    status = cli("status", "1")
    assert "succeeded" in status.stdout and "5 imported" in status.stdout
    assert cli("status", "42").exit_code == 2


def test_errors_export(cli: Cli, orders: None, tmp_path: Path) -> None:
    book = orders_book(tmp_path / "orders.xlsx", 30)
    cli("submit", str(book.path), "--form", "orders", "--quiet")
    out = tmp_path / "fix" / "rejected.csv"
    out.parent.mkdir()
    result = cli("errors", "1", "-o", str(out))
    assert result.exit_code == 0 and "wrote 3 rejected rows" in result.stdout
    with out.open(encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.reader(stream))
    assert rows[0] == ["Order ID", "Customer", "Amount", "Problems", "Source row"]
    assert [r[-1] for r in rows[1:]] == [str(n) for n in sorted(book.invalid)]
    assert all(r[2] == "-5" and r[3].startswith("Amount:") for r in rows[1:])
    assert cli("errors", "1", "-o", str(tmp_path / "x.pdf")).exit_code == 2


def test_cancel_and_retry(cli: Cli, conn: Connection, orders: None, tmp_path: Path) -> None:
    book = orders_book(tmp_path / "orders.xlsx", 10)
    cli("submit", str(book.path), "--form", "orders", "--detach")
    cancelled = cli("cancel", "1")
    assert cancelled.exit_code == 0 and "cancelled" in cancelled.stdout
    assert cli("cancel", "1").exit_code == 2
    refused = cli("retry", "1")
    assert refused.exit_code == 2 and "only a failed job" in refused.stderr

    conn.execute("UPDATE import_jobs SET status = 'failed', last_error = 'boom' WHERE id = 1")
    retried = cli("retry", "1")
    assert retried.exit_code == 0 and "importer resume 1" in retried.stdout
    assert job_json(cli("status", "1", "--json"))["status"] == "pending"


def test_a_failing_job_exits_1_with_its_error(
    cli: Cli, conn: Connection, orders: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IMPORTER_JOBS_IMPORT_MAX_ATTEMPTS", "2")
    monkeypatch.setenv("IMPORTER_JOBS_RETRY_DELAYS_SECONDS", "0.1")
    book = orders_book(tmp_path / "orders.xlsx", 10)
    cli("submit", str(book.path), "--form", "orders", "--detach")
    refuse_writes(conn, "disk full (injected)")
    result = cli("resume", "1")
    assert result.exit_code == 1
    assert "attempt 1 of 2 failed" in result.stdout
    assert "import job 1 failed" in result.stderr and "disk full" in result.stderr
    assert job_json(cli("status", "1", "--json"))["attempts"] == 2

    # A damaged stored workbook is not retried: the job fails on its first attempt.
    cli("submit", str(book.path), "--form", "orders", "--detach", "--force")
    conn.execute("UPDATE import_files SET content = %s", (b"PK\x03\x04 broken",))
    damaged = cli("resume", "2")
    assert damaged.exit_code == 1 and "attempt 1 of" not in damaged.stdout
    assert "damaged or unreadable" in damaged.stderr and "not retried" in damaged.stderr
    assert job_json(cli("status", "2", "--json"))["attempts"] == 1


def test_scheduled_submission_waits_on_a_timer(
    cli: Cli, conn: Connection, orders: None, tmp_path: Path
) -> None:
    book = orders_book(tmp_path / "orders.xlsx", 4)
    result = cli("submit", str(book.path), "--form", "orders", "--in", "10m", "--json")
    assert result.exit_code == 0, result.stderr
    job = job_json(result)
    assert job["status"] == "pending" and job["available_at"] is None
    timer = conn.execute("SELECT kind, target, due_at - now() AS wait FROM timer_jobs").fetchone()
    assert timer is not None and (timer["kind"], timer["target"]) == ("scheduled_import", "1")
    assert 9 * 60 < timer["wait"].total_seconds() <= 10 * 60

    at = cli("submit", str(book.path), "--form", "orders", "--force", "--at", "2031-01-01T10:00")
    assert at.exit_code == 0 and "scheduled for 2031-01-01 10:00" in at.stdout
    assert cli("submit", str(book.path), "--form", "orders", "--in", "soon").exit_code == 2
    assert (
        cli("submit", str(book.path), "--form", "orders", "--in", "1m", "--at", "x").exit_code == 2
    )


def test_ctrl_c_releases_the_job_and_says_how_to_resume(
    cli: Cli, cli_env: dict[str, str], conn: Connection, orders: None, tmp_path: Path
) -> None:
    book = orders_book(tmp_path / "orders.xlsx", 60)
    env = {
        **cli_env,
        "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "10",
        "IMPORTER_TEST_PAUSE_AT": "committed:2",
    }
    child = subprocess.Popen(
        [*IMPORTER_CMD, "submit", str(book.path), "--form", "orders"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    wait_until_stopped(child)
    os.kill(child.pid, signal.SIGINT)  # delivered when it continues
    os.kill(child.pid, signal.SIGCONT)
    _out, err = child.communicate(timeout=60)
    assert child.returncode == 128 + signal.SIGINT, err
    assert b"continue with: importer resume 1" in err
    job = conn.execute("SELECT * FROM import_jobs").fetchone()
    assert job is not None
    assert (job["status"], job["lease_owner"]) == ("pending", None)
    # Paused after batch 2; a batch already read when Ctrl-C came may still commit.
    assert job["success_rows"] + job["failed_rows"] in (20, 30, 40)
    resumed = cli("resume", "1", "--quiet")
    assert resumed.exit_code == 3
    assert_exactly_once(conn, 1, book)
