"""Retention: `importer purge` and the daily retention timer free what finished jobs no longer
need, never a form's rows or anything of a job that can still run."""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from importer.config import TimerSettings, load_settings
from importer.daemons.scheduler import TimerScheduler
from importer.database import Connection
from importer.errors import ConfigError
from importer.repositories.retention import keep_retention_timer, purge
from importer.repositories.timers import schedule_timer
from tests.conftest import Cli
from tests.support.fleet import waiting_job
from tests.support.jobs import add_form, counts, orders_book


def figures(conn: Connection) -> dict[str, int]:
    row = conn.execute(
        "SELECT (SELECT count(*) FROM import_rejected_rows) AS rejected,"
        " (SELECT count(*) FROM import_row_errors) AS errors,"
        " (SELECT count(*) FROM import_files WHERE purged_at IS NULL) AS workbooks,"
        " (SELECT coalesce(sum(octet_length(content)), 0) FROM import_files) AS bytes,"
        " (SELECT count(*) FROM timer_jobs) AS timers,"
        " (SELECT count(*) FROM import_jobs WHERE purged_at IS NOT NULL) AS purged"
    ).fetchone()
    assert row is not None
    return {"rows": counts(conn)["rows"]} | {k: int(v) for k, v in row.items()}


def imported(cli: Cli, conn: Connection, tmp_path: Path) -> tuple[int, int, int]:
    """A finished job with rejected rows, a pending job, and a finished job whose workbook a
    pending one shares (another sheet name spelling: the same bytes, another form)."""
    add_form(conn)
    add_form(conn, FORM_B)
    finished = orders_book(tmp_path / "done.xlsx", 30)
    assert cli("submit", str(finished.path), "-q").exit_code == 3
    waiting = orders_book(tmp_path / "waiting.xlsx", 10, start_id=500)
    assert cli("submit", str(waiting.path), "--detach", "-q").exit_code == 0
    shared = orders_book(tmp_path / "shared.xlsx", 10, start_id=900)
    assert cli("submit", str(shared.path), "--form", "orders", "-q").exit_code == 3
    assert cli("submit", str(shared.path), "--form", "orders_b", "--detach").exit_code == 0
    return 1, 2, 3


FORM_B = """
name = "orders_b"
[[fields]]
name = "order_id"
header = "Order ID"
type = "integer"
"""


def test_purge_dry_run_reports_and_removes_nothing_then_purge_frees_the_workbooks(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    done, pending, shares_with_pending = imported(cli, conn, tmp_path)
    schedule_timer(conn, kind="noop", target="x", due_at=datetime.now(UTC), max_attempts=1)
    conn.execute("UPDATE timer_jobs SET status = 'completed', finished_at = now()")
    before = figures(conn)
    assert before["workbooks"] == 3 and before["rejected"] == 3 + 1 and before["timers"] == 1

    dry = cli("purge", "--older-than", "0s", "--dry-run", "--json")
    assert dry.exit_code == 0, dry.stderr
    report = json.loads(dry.stdout)
    assert report["dry_run"] is True and report["jobs"] == [done, shares_with_pending]
    assert (report["workbooks"], report["rejected_rows"], report["timers"]) == (1, 4, 1)
    assert report["workbook_bytes"] > 0
    assert figures(conn) == before
    assert (
        "would remove: 1 stored workbook" in cli("purge", "--older-than", "0s", "--dry-run").stdout
    )

    recent = cli("purge", "--older-than", "30d", "--json")
    assert json.loads(recent.stdout)["jobs"] == [] and figures(conn) == before

    purged = cli("purge", "--older-than", "0s", "--json")
    assert purged.exit_code == 0 and json.loads(purged.stdout) == {**report, "dry_run": False}
    after = figures(conn)
    assert after["rows"] == before["rows"]  # the forms' tables untouched
    assert (after["rejected"], after["errors"], after["timers"]) == (0, 0, 0)
    assert after["workbooks"] == 2  # the pending job's, and the one it shares
    assert after["bytes"] < before["bytes"] and after["purged"] == 2
    status = cli("status", str(done))
    assert "purged:" in status.stdout and "no longer be resumed" in status.stdout
    assert json.loads(cli("status", str(done), "--json").stdout)["purged_at"] is not None
    exported = cli("errors", str(done), "-o", str(tmp_path / "e.xlsx"))
    assert exported.exit_code == 2 and "was purged" in exported.stderr
    assert cli("status", str(pending), "--json").exit_code == 0
    assert json.loads(cli("status", str(pending), "--json").stdout)["purged_at"] is None

    # The same file again: its bytes are stored again and it imports.
    again = cli("submit", str(tmp_path / "done.xlsx"), "--force", "-q")
    assert again.exit_code == 3, again.stderr
    assert figures(conn)["workbooks"] == 3


def test_a_failed_job_purged_is_not_retried(cli: Cli, conn: Connection, tmp_path: Path) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "f.xlsx", 5)
    assert cli("submit", str(book.path), "--detach").exit_code == 0
    conn.execute("UPDATE import_jobs SET status = 'failed', finished_at = now()")
    assert cli("purge", "--older-than", "0s").exit_code == 0
    refused = cli("retry", "1")
    assert refused.exit_code == 2 and "was purged" in refused.stderr


def old_finished_job(cli: Cli, conn: Connection, tmp_path: Path) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "old.xlsx", 20)
    assert cli("submit", str(book.path), "-q").exit_code == 3
    conn.execute("UPDATE import_jobs SET finished_at = now() - interval '3 days'")


def test_the_daily_retention_timer_fires_once_with_two_schedulers(
    cli: Cli, conn: Connection, tmp_path: Path, database_url: str
) -> None:
    old_finished_job(cli, conn, tmp_path)
    rows = figures(conn)["rows"]
    settings = TimerSettings(startup_delay_seconds=0.01, poll_interval_seconds=0.1)
    schedulers = [
        TimerScheduler(database_url, settings, once=True, retention_seconds=2 * 86400)
        for _ in range(2)
    ]
    threads = [threading.Thread(target=s.run) for s in schedulers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    found = conn.execute(
        "SELECT status, payload FROM timer_jobs WHERE kind = 'retention'"
    ).fetchall()
    assert [r["status"] for r in found] == ["completed"]
    assert found[0]["payload"] == {"older_than_seconds": 2 * 86400}
    after = figures(conn)
    assert after["purged"] == 1 and after["rejected"] == 0 and after["rows"] == rows

    today = datetime.now(UTC).strftime("%Y-%m-%d")
    assert conn.execute("SELECT target FROM timer_jobs").fetchall() == [{"target": today}]
    keep_retention_timer(conn, 2 * 86400, 5)  # what a scheduler does every minute: today ran
    assert len(conn.execute("SELECT id FROM timer_jobs").fetchall()) == 1
    conn.execute("UPDATE timer_jobs SET target = '2000-01-01'")  # as if it ran yesterday
    keep_retention_timer(conn, 2 * 86400, 5)
    keep_retention_timer(conn, 2 * 86400, 5)
    upcoming = conn.execute(
        "SELECT target, due_at <= now() AS due FROM timer_jobs WHERE status = 'pending'"
    ).fetchall()
    assert upcoming == [{"target": today, "due": True}]

    keep_retention_timer(conn, 0, 5)  # retention turned off: the waiting one is cancelled
    statuses = conn.execute(
        "SELECT status FROM timer_jobs WHERE kind = 'retention' ORDER BY id"
    ).fetchall()
    assert [r["status"] for r in statuses] == ["completed", "cancelled"]


def test_importer_timers_reads_the_retention_setting(
    cli: Cli, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old_finished_job(cli, conn, tmp_path)
    waiting_job(conn, "still-waiting")
    monkeypatch.setenv("IMPORTER_RETENTION_OLDER_THAN_DAYS", "1")
    result = cli("timers", "--once", "--log-format", "json")
    assert result.exit_code == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert any(e.get("kind") == "retention" and e["event"] == "timer_completed" for e in events)
    assert figures(conn)["purged"] == 1


def test_retention_is_off_by_default_and_zero_turns_it_off() -> None:
    assert load_settings(environ={}).retention.older_than_days == 0
    on = load_settings(environ={"IMPORTER_RETENTION_OLDER_THAN_DAYS": "30"})
    assert on.retention.older_than_days == 30
    off = load_settings(environ={"IMPORTER_RETENTION_OLDER_THAN_DAYS": "0"})
    assert off.retention.older_than_days == 0


@pytest.mark.parametrize("value", ["-1", "abc", "nan", "inf", ""])
def test_retention_must_be_a_positive_number_or_zero(value: str) -> None:
    with pytest.raises(ConfigError, match=r"retention\.older_than_days.*or 0: off"):
        load_settings(environ={"IMPORTER_RETENTION_OLDER_THAN_DAYS": value})


def test_a_purge_in_batches_finds_and_counts_what_one_batch_does(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    """Batches of one job: the same jobs, each workbook counted once though jobs of two
    batches share it, and what the dry run said is what is removed."""
    imported(cli, conn, tmp_path)
    again = cli("submit", str(tmp_path / "done.xlsx"), "--form", "orders_b", "-q")
    assert again.exit_code in (0, 3), again.stderr  # a third finished job, done.xlsx's bytes
    whole = purge(conn, 0.0, dry_run=True)
    assert len(whole.jobs) == 3 and whole.workbooks == 1
    assert purge(conn, 0.0, dry_run=True, batch=1) == whole
    report = purge(conn, 0.0, batch=1)
    assert report == replace(whole, dry_run=False)
    after = figures(conn)
    assert after["purged"] == 3 and (after["rejected"], after["errors"]) == (0, 0)
    assert purge(conn, 0.0, batch=1).jobs == []
