"""The log lines of `importer worker` and `importer timers`: date, time with zone, level and
the job or timer id; --log-format json gives one JSON object per line."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from importer.config import ImportSettings
from importer.database import Connection
from importer.intake.submission import Asked, submit_workbook
from importer.repositories import jobs
from importer.repositories.timers import schedule_timer
from importer.timers.kinds import SCHEDULED_IMPORT
from tests.conftest import Cli
from tests.support.fleet import waiting_job
from tests.support.jobs import add_form, orders_book

TEXT_LINE = re.compile(
    r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2} (INFO|WARNING|ERROR) +\S"
)


def json_lines(text: str) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in text.splitlines()]
    for line in lines:
        assert datetime.fromisoformat(line["ts"]).utcoffset() is not None  # a zone
        assert line["level"] in ("info", "warning", "error")
    return lines


def queue_two(conn: Connection, tmp_path: Path) -> list[int]:
    add_form(conn)
    ids = []
    for i in range(2):
        book = orders_book(tmp_path / f"b{i}.xlsx", 20, start_id=100 * i)
        ids.append(
            submit_workbook(
                conn, book.path, Asked(form_name="orders"), settings=ImportSettings()
            ).job.id
        )
    return ids


def test_worker_json_logs_name_the_job_the_rows_and_the_owner(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    ids = queue_two(conn, tmp_path)
    result = cli("worker", "--once", "--log-format", "json")
    assert result.exit_code == 0, result.stderr
    lines = json_lines(result.stdout)
    assert lines[0]["event"] == "started"
    assert lines[-1]["event"] == "stopped"
    owners = {line["owner"] for line in lines}
    assert len(owners) == 1
    finished = {line["job_id"]: line for line in lines if line["event"] == "finished"}
    assert sorted(finished) == ids
    for line in finished.values():
        assert line["rows"] == 20 and line["status"] == "partially_succeeded"
    claimed = [line["job_id"] for line in lines if line["event"] == "claimed"]
    assert sorted(claimed) == ids


def test_worker_text_logs_carry_date_zone_and_level(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    ids = queue_two(conn, tmp_path)
    conn.execute(
        "UPDATE import_jobs SET file = %s WHERE id = %s", (jobs.store_file(conn, b"x"), ids[0])
    )
    result = cli("worker", "--once")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines and all(TEXT_LINE.match(line) for line in lines), result.stdout
    assert any(f"job {ids[1]}: partially_succeeded" in line for line in lines)
    # The job whose stored bytes are no workbook fails at once (a permanent failure): an error.
    assert any(
        " ERROR " in line and f"job {ids[0]}: attempt failed (failed)" in line for line in lines
    )


def test_scheduler_json_logs_name_each_timer(cli: Cli, conn: Connection) -> None:
    job_id = waiting_job(conn, "later")
    timer_id = schedule_timer(
        conn,
        kind=SCHEDULED_IMPORT,
        target=str(job_id),
        due_at=datetime.now(UTC) - timedelta(seconds=1),
        max_attempts=3,
    )
    result = cli("timers", "--once", "--log-format", "json")
    assert result.exit_code == 0, result.stderr
    lines = json_lines(result.stdout)
    fired = [line for line in lines if line.get("timer_id") == timer_id]
    assert len(fired) == 1 and fired[0]["event"] == "timer_completed"
    assert (fired[0]["kind"], fired[0]["target"]) == (SCHEDULED_IMPORT, str(job_id))
    text = cli("timers", "--once")
    assert text.exit_code == 0 and all(TEXT_LINE.match(line) for line in text.stdout.splitlines())


def test_an_unknown_log_format_is_refused(cli: Cli) -> None:
    result = cli("worker", "--once", "--log-format", "xml")
    assert result.exit_code == 2 and "--log-format" in result.stderr
