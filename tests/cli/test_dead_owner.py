"""A job whose process was killed does not look alive: `status` says its owner is gone and
names `importer resume`, `stats` stops counting the dead foreground process, `watch` marks the
job. A real `importer submit` child, stopped in mid-file and killed with SIGKILL."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from importer.database import Connection
from tests.conftest import IMPORTER_CMD, Cli
from tests.support.jobs import add_form, kill_9, only_job_id, orders_book, wait_until_stopped

pytestmark = pytest.mark.slow  # a real child process, stopped and killed


def test_a_killed_submit_is_said_to_be_gone_by_status_stats_and_watch(
    cli: Cli, cli_env: dict[str, str], conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 60)
    env = {
        **cli_env,
        "IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "10",
        "IMPORTER_TEST_PAUSE_AT": "committed:2",
    }
    child = subprocess.Popen(
        [*IMPORTER_CMD, "submit", str(book.path), "--form", "orders", "--quiet"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    wait_until_stopped(child)
    job_id = only_job_id(conn)
    alive = cli("status", str(job_id))
    assert "  note:" not in alive.stdout  # stopped, but its process still exists
    assert json.loads(cli("stats", "--json").stdout)["live_foreground"] == 1

    kill_9(child)
    status = cli("status", str(job_id))
    assert "  status:    running" in status.stdout
    note = next(line for line in status.stdout.splitlines() if line.startswith("  note:"))
    assert note.endswith(f"no longer runs on this host; continue it with: importer resume {job_id}")
    assert json.loads(cli("status", str(job_id), "--json").stdout)["owner"] == "gone"
    assert json.loads(cli("stats", "--json").stdout)["live_foreground"] == 0
    watch = cli("watch", "--once")
    assert f"gone: importer resume {job_id}" in watch.stdout

    resumed = cli("resume", str(job_id), "--quiet")
    assert resumed.exit_code == 3, resumed.stderr
    assert "  note:" not in cli("status", str(job_id)).stdout
