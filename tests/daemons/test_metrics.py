"""The fleet's figures: `stats --format openmetrics` and /metrics (prometheus-client's own
parsers read them), the same numbers as `stats --json`; rows/s and failed attempts."""

from __future__ import annotations

import json
import re
import socket
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.openmetrics.parser import (
    text_string_to_metric_families as parse_openmetrics,
)
from prometheus_client.parser import text_string_to_metric_families as parse_prometheus

from importer.config import ImportSettings
from importer.database import Connection
from importer.intake.submission import Asked, submit_workbook
from importer.repositories import jobs
from tests.conftest import Cli
from tests.support.fleet import children, wait_for
from tests.support.jobs import add_form, orders_book

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(families: object) -> Samples:
    found: Samples = {}
    for family in families:  # type: ignore[attr-defined]
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def queue(conn: Connection, tmp_path: Path, count: int) -> list[int]:
    ids = []
    for i in range(count):
        book = orders_book(tmp_path / f"q{i}.xlsx", 5, start_id=100 * i)
        submitted = submit_workbook(
            conn, book.path, Asked(form_name="orders"), settings=ImportSettings()
        )
        ids.append(submitted.job.id)
    return ids


def test_openmetrics_parses_and_counts_what_stats_json_counts(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    first, second, third, fourth = queue(conn, tmp_path, 4)
    conn.execute(
        "UPDATE import_jobs SET status = 'succeeded', success_rows = 40, failed_rows = 2"
        " WHERE id = %s",
        (first,),
    )
    conn.execute("UPDATE import_jobs SET status = 'cancelled' WHERE id = %s", (second,))
    claimed = jobs.claim_jobs(conn, owner="test:1:a", limit=1, lease_seconds=60, job_ids=[third])
    assert [job.id for job in claimed] == [third]
    jobs.fail_attempt(  # pending, waits on a timer
        conn, third, "test:1:a", "disk on fire", retry_delay_seconds=60, timer_max_attempts=5
    )
    result = cli("stats", "--format", "openmetrics")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.rstrip().endswith("# EOF")
    found = samples(parse_openmetrics(result.stdout))  # type: ignore[no-untyped-call]
    data = json.loads(cli("stats", "--json").stdout)
    for status, count in data["jobs"].items():
        assert found[("importer_jobs", (("status", status),))] == count
    assert data["jobs"] == {
        "pending": 2,
        "running": 0,
        "succeeded": 1,
        "partially_succeeded": 0,
        "failed": 0,
        "cancelled": 1,
        "reverted": 0,
    }
    assert found[("importer_jobs_queued", ())] == data["queued"] == 1  # the fourth
    assert found[("importer_jobs_scheduled", ())] == data["scheduled"] == 1  # the third
    assert found[("importer_rows_imported_total", ())] == data["rows_imported"] == 40
    assert found[("importer_rows_rejected_total", ())] == data["rows_rejected"] == 2
    assert found[("importer_import_attempts_failed_total", ())] == data["attempts_failed"] == 1
    assert found[("importer_import_attempts_failed_last_hour", ())] == 1
    assert data["attempts_failed_last_hour"] == 1
    assert found[("importer_timers_live", ())] == data["timers_live"] == 1  # the retry
    assert found[("importer_oldest_queued_age_seconds", ())] >= 0
    assert found[("importer_live_processes", (("kind", "worker"),))] == 0
    assert fourth in {job.id for job in jobs.list_jobs(conn)}


def test_stats_and_watch_show_rows_per_second_of_running_jobs(
    cli: Cli, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    (job_id,) = queue(conn, tmp_path, 1)
    jobs.claim_jobs(conn, owner="test:1:a", limit=1, lease_seconds=300, job_ids=[job_id])
    # 500 rows committed by a run that started 10 s ago (from row 100): 50 rows/s.
    conn.execute(
        "UPDATE import_jobs SET success_rows = 600, run_start_cursor = 100,"
        " run_started_at = now() - interval '10 seconds' WHERE id = %s",
        (job_id,),
    )
    data = json.loads(cli("stats", "--json").stdout)
    assert 40 <= data["rows_per_second"] <= 50
    assert "rows/s:          " in cli("stats").stdout
    watch = cli("watch", "--once")
    assert watch.exit_code == 0, watch.stderr
    # 600 rows over the run's 12 s so far, and a little more as the test itself takes time.
    shown = re.search(r"rows/s (\d+)", watch.stdout)
    assert shown is not None and 40 <= int(shown.group(1)) <= 50, watch.stdout
    assert "failed attempts (1h) 0" in watch.stdout
    running_line = next(
        line for line in watch.stdout.splitlines() if line.split()[:1] == [str(job_id)]
    )
    assert 40 <= int(running_line.split()[-2]) <= 50  # the job's own rows/s


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.slow
def test_a_running_worker_serves_metrics(
    conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    add_form(conn)
    queue(conn, tmp_path, 2)
    port = free_port()
    with children(cli_env, tmp_path) as start:
        worker = start("worker", "--metrics-port", str(port))
        wait_for(lambda: "serving metrics" in worker.output(), what="the metrics server")

        def scrape() -> Samples:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
                assert answer.status == 200
                return samples(parse_prometheus(answer.read().decode()))

        def settled() -> Samples | None:
            found = scrape()
            live = found[("importer_live_processes", (("kind", "worker"),))]
            done = found[("importer_jobs", (("status", "succeeded"),))]
            return found if live == 1 and done == 2 else None

        found = wait_for(settled, what="the worker to register and finish both jobs")
        assert found[("importer_database_up", ())] == 1
        assert found[("importer_rows_imported_total", ())] == 10  # 2 x 5 rows
        assert f"127.0.0.1:{port}" in worker.output()
