"""Small things a user runs into: ids, times in the past, finished jobs, timers that start
jobs, --once."""

from __future__ import annotations

import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from importer.database import Connection
from importer.repositories import jobs
from importer.repositories.timers import get_timer, schedule_timer
from tests.conftest import IMPORTER_CMD, Cli
from tests.support.fleet import waiting_job
from tests.support.jobs import add_form, counts, orders_book


@pytest.mark.parametrize(
    "args",
    [
        ("status", "abc"),
        ("cancel", "1.5"),
        ("retry", "0"),
        ("errors", "twelve"),
        ("resume", "1", "x2"),
        ("timers", "cancel", "three"),
    ],
)
def test_an_id_that_is_not_a_whole_number_is_one_line(
    cli: Cli, cli_env: dict[str, str], args: tuple[str, ...]
) -> None:
    result = cli(*args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "ids are whole numbers such as 12" in result.stderr


def test_at_in_the_past_is_refused_before_any_job(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 5)
    past = (datetime.now(UTC) - timedelta(minutes=5)).isoformat()
    result = cli("submit", str(book.path), "--at", past)
    assert result.exit_code == 2 and "is in the past" in result.stderr
    assert counts(conn) == {"jobs": 0, "files": 0, "timers": 0, "rows": 0}


def test_resuming_a_finished_job_says_so_and_runs_nothing(
    cli: Cli, conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 20)
    assert cli("submit", str(book.path), "--quiet").exit_code == 3
    before = jobs.get_job(conn, 1)
    result = cli("resume", "1")
    assert result.exit_code == 0, result.stderr
    assert "job 1 has already finished (partially_succeeded" in result.stderr
    assert "nothing to resume" in result.stderr and "Import summary" not in result.stdout
    assert jobs.get_job(conn, 1) == before


def test_cancelling_a_scheduled_imports_timer_cancels_the_job_it_would_start(
    cli: Cli, conn: Connection, cli_env: dict[str, str]
) -> None:
    job_id = waiting_job(conn, "scheduled")
    timer_id = schedule_timer(
        conn,
        kind="scheduled_import",
        target=str(job_id),
        due_at=datetime.now(UTC) + timedelta(hours=1),
        max_attempts=5,
    )
    result = cli("timers", "cancel", str(timer_id))
    assert result.exit_code == 0, result.stderr
    assert f"import job {job_id}, which waited on it, is cancelled too" in result.stdout
    assert get_timer(conn, timer_id).status == "cancelled"
    assert jobs.get_job(conn, job_id).status == "cancelled"


def test_a_timer_whose_job_no_longer_waits_leaves_the_job_alone(
    cli: Cli, conn: Connection, cli_env: dict[str, str]
) -> None:
    job_id = waiting_job(conn, "made-available")
    timer_id = schedule_timer(
        conn,
        kind="scheduled_import",
        target=str(job_id),
        due_at=datetime.now(UTC) + timedelta(hours=1),
        max_attempts=5,
    )
    assert jobs.make_available_now(conn, job_id)
    result = cli("timers", "cancel", str(timer_id))
    assert result.exit_code == 0 and "cancelled too" not in result.stdout
    assert jobs.get_job(conn, job_id).status == "pending"


@pytest.mark.parametrize("command", ["worker", "timers"])
def test_once_skips_the_startup_delay(cli_env: dict[str, str], command: str) -> None:
    env = {
        **cli_env,
        "IMPORTER_JOBS_IMPORT_STARTUP_DELAY_SECONDS": "60",
        "IMPORTER_JOBS_TIMER_STARTUP_DELAY_SECONDS": "60",
    }
    started = time.monotonic()
    done = subprocess.run(
        [*IMPORTER_CMD, command, "--once"], env=env, capture_output=True, timeout=50
    )
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - started < 30  # the 60 s delay was not slept
