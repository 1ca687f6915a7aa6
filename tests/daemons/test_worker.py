"""The worker fleet: real `importer worker` processes against real PostgreSQL."""

from __future__ import annotations

import json
import signal
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from importer.config import ImportSettings
from importer.database import Connection
from importer.intake.submission import Asked, submit_workbook
from importer.repositories import fleet, jobs
from importer.repositories.timers import get_timer
from tests.conftest import Cli, CliResult
from tests.support.fleet import children, wait_for
from tests.support.jobs import Book, add_form, assert_exactly_once, orders_book

# Every update of an import job, in row-lock order (seq is taken after the row lock): who
# held it, and where its cursor stood.
JOB_LOG_SQL = """
CREATE TABLE test_job_log (
    seq bigserial PRIMARY KEY,
    job_id bigint NOT NULL,
    status text NOT NULL,
    owner text,
    cursor integer NOT NULL,
    cancel_requested boolean NOT NULL
);
CREATE FUNCTION test_log_job() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO test_job_log (job_id, status, owner, cursor, cancel_requested)
    VALUES (NEW.id, NEW.status, NEW.lease_owner, NEW.success_rows + NEW.failed_rows,
            NEW.cancel_requested);
    RETURN NEW;
END $$;
CREATE TRIGGER test_log_job AFTER UPDATE ON import_jobs
    FOR EACH ROW EXECUTE FUNCTION test_log_job();
"""

# Each batch transaction sleeps a little, so a job is still running when a test acts on it.
SLOW_BATCHES_SQL = """
CREATE FUNCTION test_slow_batch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_sleep(0.05); RETURN NULL; END $$;
CREATE TRIGGER test_slow_batch AFTER INSERT ON forms.orders
    FOR EACH STATEMENT EXECUTE FUNCTION test_slow_batch();
"""

SMALL_BATCHES = {"IMPORTER_JOBS_IMPORT_ROWS_PER_TRANSACTION": "50"}


@pytest.fixture
def logged(conn: Connection) -> Connection:
    add_form(conn)
    conn.execute(JOB_LOG_SQL)
    return conn


def submit(conn: Connection, book: Book) -> int:
    submitted = submit_workbook(
        conn, book.path, Asked(form_name="orders"), settings=ImportSettings(max_attempts=5)
    )
    return submitted.job.id


def job_of(conn: Connection, job_id: int) -> jobs.Job:
    return jobs.get_job(conn, job_id)


def owners_in_order(conn: Connection, job_id: int) -> list[str]:
    rows = conn.execute(
        "SELECT owner FROM test_job_log WHERE job_id = %s AND owner IS NOT NULL ORDER BY seq",
        (job_id,),
    ).fetchall()
    return [r["owner"] for r in rows]


def assert_never_two_owners_at_once(conn: Connection, job_id: int) -> list[str]:
    """Owners take turns: once another owner moved the job, an earlier one never returns."""
    sequence = owners_in_order(conn, job_id)
    turns = [owner for i, owner in enumerate(sequence) if i == 0 or sequence[i - 1] != owner]
    assert len(turns) == len(set(turns)), f"job {job_id} went back to an earlier owner: {turns}"
    return turns


def progress_of(conn: Connection, job_id: int) -> int:
    return job_of(conn, job_id).cursor


def terminal(conn: Connection, job_ids: list[int]) -> bool:
    return all(job_of(conn, j).terminal for j in job_ids)


def live_workers(conn: Connection) -> int:
    row = conn.execute("SELECT count(*) AS n FROM workers WHERE kind = 'worker'").fetchone()
    assert row is not None
    return int(row["n"])


def test_three_workers_share_ten_jobs_each_held_by_one_owner_at_a_time(
    logged: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    conn = logged
    books = [orders_book(tmp_path / f"b{i}.xlsx", 400, start_id=i * 1000) for i in range(10)]
    with children(cli_env, tmp_path) as start:
        workers = [start("worker", "--concurrency", "2", extra_env=SMALL_BATCHES) for _ in range(3)]
        wait_for(lambda: live_workers(conn) == 3, what="three workers to register")
        with conn.transaction():  # one commit: every worker hears of all ten at once
            job_ids = [submit(conn, book) for book in books]
        wait_for(lambda: terminal(conn, job_ids), timeout=120, what="every job to finish")
        for worker in workers:
            worker.signal(signal.SIGTERM)
        for worker in workers:
            assert worker.wait() == 0, worker.output()
    all_owners: set[str] = set()
    for job_id, book in zip(job_ids, books, strict=True):
        assert_exactly_once(conn, job_id, book)
        all_owners.update(assert_never_two_owners_at_once(conn, job_id))
    assert len(all_owners) >= 2, "the work was not shared"
    assert live_workers(conn) == 0  # each unregistered on its way out


@pytest.mark.slow
def test_sigterm_returns_the_running_job_to_pending_with_progress_kept(
    logged: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    conn = logged
    conn.execute(SLOW_BATCHES_SQL)
    book = orders_book(tmp_path / "big.xlsx", 2000)
    job_id = submit(conn, book)
    with children(cli_env, tmp_path) as start:
        worker = start("worker", extra_env=SMALL_BATCHES)
        wait_for(lambda: progress_of(conn, job_id) >= 200, what="some committed progress")
        worker.signal(signal.SIGTERM)
        assert worker.wait() == 0, worker.output()
        stopped = job_of(conn, job_id)
        assert stopped.status == "pending" and stopped.lease_owner is None
        assert 200 <= stopped.cursor < book.total
        assert stopped.attempts == 0  # the interrupted attempt was given back
        kept = conn.execute(
            "SELECT count(*) AS n FROM forms.orders WHERE import_job_id = %s", (job_id,)
        ).fetchone()
        assert kept is not None and kept["n"] == stopped.success_rows

        conn.execute("DROP TRIGGER test_slow_batch ON forms.orders")
        again = start("worker", "--once", extra_env=SMALL_BATCHES)
        assert again.wait() == 0, again.output()
    assert_exactly_once(conn, job_id, book)
    cursors = [
        r["cursor"]
        for r in conn.execute(
            "SELECT cursor FROM test_job_log WHERE job_id = %s ORDER BY seq", (job_id,)
        ).fetchall()
    ]
    assert cursors == sorted(cursors), "the resumed run went back over committed rows"


@pytest.mark.slow
def test_a_killed_workers_job_is_resumed_by_another_after_its_lease_expires(
    logged: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    conn = logged
    conn.execute(SLOW_BATCHES_SQL)
    book = orders_book(tmp_path / "big.xlsx", 1500)
    job_id = submit(conn, book)
    short_lease = {**SMALL_BATCHES, "IMPORTER_JOBS_IMPORT_LEASE_SECONDS": "2"}
    with children(cli_env, tmp_path) as start:
        doomed = start("worker", extra_env=short_lease)
        wait_for(lambda: progress_of(conn, job_id) >= 100, what="some committed progress")
        doomed.signal(signal.SIGKILL)
        doomed.wait()
        at_death = job_of(conn, job_id)
        assert at_death.status == "running"
        conn.execute("DROP TRIGGER test_slow_batch ON forms.orders")
        rescuer = start("worker", extra_env=short_lease)
        wait_for(lambda: terminal(conn, [job_id]), timeout=60, what="the job to be resumed")
        rescuer.signal(signal.SIGTERM)
        assert rescuer.wait() == 0, rescuer.output()
    assert_exactly_once(conn, job_id, book)
    turns = assert_never_two_owners_at_once(conn, job_id)
    assert len(turns) == 2 and turns[0] == at_death.lease_owner
    assert job_of(conn, job_id).attempts == 2
    first_of_rescuer = conn.execute(
        "SELECT min(cursor) AS c FROM test_job_log WHERE job_id = %s AND owner = %s",
        (job_id, turns[1]),
    ).fetchone()
    assert first_of_rescuer is not None and first_of_rescuer["c"] >= at_death.cursor


def test_cancel_is_noticed_within_one_batch_and_the_worker_carries_on(
    logged: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    conn = logged
    conn.execute(SLOW_BATCHES_SQL)
    doomed = submit(conn, orders_book(tmp_path / "doomed.xlsx", 2000))
    with children(cli_env, tmp_path) as start:
        worker = start("worker", "--concurrency", "1", extra_env=SMALL_BATCHES)
        wait_for(lambda: progress_of(conn, doomed) >= 100, what="the job to be under way")
        jobs.cancel(conn, doomed)
        wait_for(lambda: job_of(conn, doomed).status == "cancelled", what="the cancel")
        later_book = orders_book(tmp_path / "later.xlsx", 30, start_id=90_000)
        later = submit(conn, later_book)
        wait_for(lambda: terminal(conn, [later]), what="the next job")
        worker.signal(signal.SIGTERM)
        assert worker.wait() == 0, worker.output()
    advances = conn.execute(
        "SELECT count(DISTINCT cursor) AS n FROM test_job_log"
        " WHERE job_id = %s AND cancel_requested AND status = 'running'",
        (doomed,),
    ).fetchone()
    assert advances is not None and advances["n"] <= 2  # the cursor at the request + one batch
    cancelled = job_of(conn, doomed)
    assert 100 <= cancelled.cursor < 2000 and cancelled.lease_owner is None
    assert_exactly_once(conn, later, later_book)


def test_one_jobs_failure_never_stops_the_worker(
    logged: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    conn = logged
    good = [orders_book(tmp_path / f"g{i}.xlsx", 20, start_id=i * 100) for i in range(2)]
    broken = orders_book(tmp_path / "broken.xlsx", 20, start_id=5000)
    broken_id = submit(conn, broken)
    good_ids = [submit(conn, book) for book in good]
    # The stored workbook is damaged after submission: every attempt at it fails.
    job = job_of(conn, broken_id)
    conn.execute(
        "UPDATE import_files SET content = 'not a workbook' WHERE sha256 = %s", (job.file,)
    )
    conn.execute("UPDATE import_jobs SET max_attempts = 1 WHERE id = %s", (broken_id,))
    with children(cli_env, tmp_path) as start:
        worker = start("worker", "--once", "--concurrency", "3")
        assert worker.wait() == 0, worker.output()
    for job_id, book in zip(good_ids, good, strict=True):
        assert_exactly_once(conn, job_id, book)
    failed = job_of(conn, broken_id)
    assert failed.status == "failed" and failed.last_error


def test_a_lost_database_connection_is_retried_and_work_carries_on(
    logged: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    conn = logged
    with children(cli_env, tmp_path) as start:
        worker = start("worker")
        wait_for(lambda: live_workers(conn) == 1, what="the worker to register")
        # Its LISTEN connection opens just after it registers: wait for both.
        wait_for(lambda: _other_sessions(conn) >= 2, what="the worker's connections")
        # Drop every connection the worker has (its LISTEN one too), as a failover would.
        dropped = conn.execute(
            "SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
        assert dropped is not None and dropped["n"] >= 2
        book = orders_book(tmp_path / "after.xlsx", 30)
        job_id = submit(conn, book)
        wait_for(lambda: terminal(conn, [job_id]), what="the job after the outage")
        worker.signal(signal.SIGTERM)
        assert worker.wait() == 0, worker.output()
    assert_exactly_once(conn, job_id, book)


def test_a_second_signal_exits_at_once_and_the_lease_is_left_to_expire(
    logged: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    conn = logged
    conn.execute(SLOW_BATCHES_SQL.replace("0.05", "2"))
    job_id = submit(conn, orders_book(tmp_path / "slow.xlsx", 500))
    with children(cli_env, tmp_path) as start:
        worker = start("worker", extra_env=SMALL_BATCHES)
        wait_for(
            lambda: conn.execute(
                # Only the batch's move from staging into the form's table sleeps (its
                # trigger).
                "SELECT 1 FROM pg_stat_activity WHERE query LIKE '%%INSERT INTO \"forms\"%%'"
                " AND wait_event = 'PgSleep' AND datname = current_database()"
            ).fetchone(),
            what="a batch to be under way",
        )
        worker.signal(signal.SIGTERM)
        wait_for(lambda: "stopping" in worker.output(), what="the graceful stop to begin")
        worker.signal(signal.SIGTERM)
        assert worker.wait(timeout=10) == 128 + signal.SIGTERM
    assert job_of(conn, job_id).status == "running"  # nobody released it: the lease expires


# --- seeing the fleet ----------------------------------------------------------------------


def test_stats_and_watch_show_the_queue(cli: Cli, logged: Connection, tmp_path: Path) -> None:
    conn = logged
    queued = submit(conn, orders_book(tmp_path / "q.xlsx", 5))
    failing = submit(conn, orders_book(tmp_path / "f.xlsx", 5, start_id=50))
    conn.execute(
        "UPDATE import_jobs SET status = 'failed', last_error = 'boom' WHERE id = %s", (failing,)
    )
    stats: CliResult = cli("stats", "--json")
    assert stats.exit_code == 0, stats.stderr
    data = json.loads(stats.stdout)
    assert (data["queued"], data["running"], data["failed"]) == (1, 0, 1)
    assert data["oldest_queued_seconds"] >= 0 and data["timers_due"] == 0
    plain = cli("stats")
    assert plain.exit_code == 0 and "oldest queued" in plain.stdout
    watch = cli("watch", "--once")
    assert watch.exit_code == 0, watch.stderr
    assert "running jobs" in watch.stdout and "boom" in watch.stdout
    assert str(queued)  # the queued job is counted above


@pytest.mark.slow
def test_a_scheduled_import_waits_for_its_timer_then_a_worker_runs_it(
    logged: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    conn = logged
    book = orders_book(tmp_path / "nightly.xlsx", 40)
    due = datetime.now(UTC) + timedelta(seconds=1)
    submitted = submit_workbook(
        conn, book.path, Asked(form_name="orders", due_at=due), settings=ImportSettings()
    )
    job_id, timer_id = submitted.job.id, submitted.scheduled_timer
    assert timer_id is not None
    with children(cli_env, tmp_path) as start:
        worker = start("worker")
        scheduler = start("timers")
        wait_for(lambda: terminal(conn, [job_id]), what="the scheduled job to run")
        for child in (worker, scheduler):
            child.signal(signal.SIGTERM)
            assert child.wait() == 0, child.output()
    assert_exactly_once(conn, job_id, book)
    timer = get_timer(conn, timer_id)
    assert timer.status == "completed" and timer.attempts == 1
    started = job_of(conn, job_id).started_at
    assert started is not None and started >= due  # never claimed before its time


def _other_sessions(conn: Connection) -> int:
    row = conn.execute(
        "SELECT count(*) AS n FROM pg_stat_activity"
        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
    ).fetchone()
    return int(row["n"]) if row is not None else 0


def test_worker_once_reports_a_finished_job_when_it_ends_not_at_its_next_heartbeat(
    logged: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    # The job's thread wakes the loop as its last act; a loop that then found the thread
    # still alive reported the job (and exited) only at its next heartbeat, seconds later.
    env = {**cli_env, "IMPORTER_JOBS_IMPORT_POLL_INTERVAL_SECONDS": "120"}
    book = orders_book(tmp_path / "one.xlsx", 20)
    job_id = submit(logged, book)
    with children(env, tmp_path) as start:
        worker = start("worker", "--once")
        assert worker.wait() == 0, worker.output()
        lines = worker.output().splitlines()
    done = [line for line in lines if f"job {job_id}: " in line and "succeeded" in line]
    assert len(done) == 1, lines
    reported = datetime.fromisoformat(done[0][:29])
    finished = job_of(logged, job_id).finished_at
    assert finished is not None
    gap = (reported - finished).total_seconds()
    assert gap < fleet.HEARTBEAT_SECONDS / 2, f"reported {gap:.1f} s after the job finished"
    assert_exactly_once(logged, job_id, book)
