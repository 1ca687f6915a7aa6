"""Timer jobs and the scheduler, against real PostgreSQL and real `importer timers` processes."""

from __future__ import annotations

import json
import signal
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from importer.config import TimerSettings
from importer.database import Connection
from importer.errors import StateError
from importer.repositories import jobs, timers
from importer.repositories.timers import claim_timers, get_timer, schedule_timer
from importer.retry_policy import RetryPolicy
from importer.timers import kinds
from importer.timers.firing import TimerFirer
from tests.conftest import Cli, CliResult
from tests.support.fleet import EFFECT_LOG_SQL, children, wait_for, waiting_job


def now() -> datetime:
    return datetime.now(UTC)


@pytest.fixture
def effect_log(conn: Connection) -> Connection:
    conn.execute(EFFECT_LOG_SQL)
    return conn


def updates_of(conn: Connection, job_id: int) -> int:
    row = conn.execute(
        "SELECT count(*) AS n FROM test_job_updates WHERE job_id = %s", (job_id,)
    ).fetchone()
    assert row is not None
    return int(row["n"])


def timer_status(conn: Connection, timer_id: int) -> str:
    return get_timer(conn, timer_id).status


# --- repository ----------------------------------------------------------------------------


def test_one_live_timer_per_target_and_rescheduling_moves_it(conn: Connection) -> None:
    first = schedule_timer(
        conn, kind="import_retry", target="7", due_at=now() + timedelta(hours=1), max_attempts=3
    )
    again = schedule_timer(
        conn, kind="import_retry", target="7", due_at=now() + timedelta(hours=2), max_attempts=4
    )
    assert again == first
    assert get_timer(conn, first).max_attempts == 4
    other_kind = schedule_timer(
        conn, kind="scheduled_import", target="7", due_at=now(), max_attempts=3
    )
    assert other_kind != first
    # Being fired right now: refused rather than silently lost.
    claimed = claim_timers(conn, owner="x:1:a", limit=10, lease_seconds=60)
    assert [t.id for t in claimed] == [other_kind]
    with pytest.raises(StateError):
        schedule_timer(conn, kind="scheduled_import", target="7", due_at=now(), max_attempts=3)


def test_schedule_timer_is_part_of_the_callers_transaction(database_url: str) -> None:
    from importer.database import connect

    with connect(database_url) as tx:
        schedule_timer(tx, kind="import_retry", target="1", due_at=now(), max_attempts=1)
        tx.rollback()
        assert timers.list_timers(tx) == []


def test_expired_lease_on_the_last_attempt_fails_before_claiming(conn: Connection) -> None:
    timer_id = schedule_timer(conn, kind="import_retry", target="1", due_at=now(), max_attempts=1)
    assert claim_timers(conn, owner="dead:1:a", limit=5, lease_seconds=0.01)
    conn.execute("SELECT pg_sleep(0.05)")
    assert claim_timers(conn, owner="alive:2:b", limit=5, lease_seconds=60) == []
    timer = get_timer(conn, timer_id)
    assert timer.status == "failed"
    assert timer.last_error is not None and "dead:1:a" in timer.last_error
    assert timer.lease_owner is None and timer.finished_at is not None


def test_a_failing_timer_does_not_hold_back_the_rest_of_its_batch(effect_log: Connection) -> None:
    conn = effect_log
    good = [waiting_job(conn, f"good{i}") for i in range(3)]
    bad = waiting_job(conn, "bad")
    conn.execute(
        """CREATE FUNCTION test_boom() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN RAISE EXCEPTION 'boom for job %', NEW.id; END $$;
           CREATE TRIGGER test_boom BEFORE UPDATE ON import_jobs FOR EACH ROW
           WHEN (OLD.id = """
        + str(bad)
        + ") EXECUTE FUNCTION test_boom()"
    )
    for job_id in [good[0], bad, *good[1:]]:
        schedule_timer(conn, kind="import_retry", target=str(job_id), due_at=now(), max_attempts=2)
    claimed = claim_timers(conn, owner="me:1:a", limit=10, lease_seconds=60)
    report = TimerFirer(conn, "me:1:a", TimerSettings(retry=RetryPolicy((30.0,)))).fire(claimed)
    assert len(report.completed) == 3 and len(report.retried) == 1
    for job_id in good:
        assert updates_of(conn, job_id) == 1  # the rolled-back fast path left no trace
        assert jobs.get_job(conn, job_id).available_at is not None
    retried = get_timer(conn, report.retried[0])
    assert retried.status == "pending" and "boom for job" in (retried.last_error or "")
    assert retried.due_at > now() + timedelta(seconds=20)


def test_new_kinds_can_be_registered(conn: Connection) -> None:
    seen: list[str] = []

    @kinds.register_kind("test_echo")
    def echo(c: Connection, timer: timers.Timer) -> str | None:
        seen.append(timer.target)
        return None if timer.target != "gone" else "target gone"

    try:
        a = schedule_timer(conn, kind="test_echo", target="hello", due_at=now(), max_attempts=1)
        b = schedule_timer(conn, kind="test_echo", target="gone", due_at=now(), max_attempts=1)
        claimed = claim_timers(conn, owner="me:1:a", limit=10, lease_seconds=60)
        TimerFirer(conn, "me:1:a", TimerSettings()).fire(claimed)
        assert sorted(seen) == ["gone", "hello"]
        assert timer_status(conn, a) == "completed"
        assert timer_status(conn, b) == "cancelled"
    finally:
        kinds._EFFECTS.pop("test_echo", None)


def test_a_kind_with_a_batch_effect_fires_a_run_of_timers_in_one_call(conn: Connection) -> None:
    calls: list[list[str]] = []

    def many(c: Connection, batch: Sequence[timers.Timer]) -> list[str | None]:
        calls.append([t.target for t in batch])
        return [None if t.target != "gone" else "target gone" for t in batch]

    @kinds.register_kind("test_many", batch=many)
    def one(c: Connection, timer: timers.Timer) -> str | None:
        calls.append([timer.target])
        return None

    try:
        ids = [
            schedule_timer(conn, kind="test_many", target=t, due_at=now(), max_attempts=1)
            for t in ("a", "gone", "c")
        ]
        claimed = claim_timers(conn, owner="me:1:a", limit=10, lease_seconds=60)
        report = TimerFirer(conn, "me:1:a", TimerSettings()).fire(claimed)
    finally:
        kinds._EFFECTS.pop("test_many", None)
        kinds._BATCH_EFFECTS.pop("test_many", None)
    assert calls == [["a", "gone", "c"]]
    assert sorted(report.completed) == [ids[0], ids[2]] and report.cancelled == [ids[1]]


def test_a_long_batch_renews_its_leases_and_keeps_its_timers(
    conn: Connection, database_url: str
) -> None:
    from importer.database import connect

    stolen: list[int] = []
    lease_valid_when_fired: list[bool] = []

    with connect(database_url, autocommit=True) as rival:

        @kinds.register_kind("test_slow")
        def slow(c: Connection, timer: timers.Timer) -> str | None:
            row = rival.execute(
                "SELECT lease_expires_at > now() AS valid FROM timer_jobs WHERE id = %s",
                (timer.id,),
            ).fetchone()
            assert row is not None
            lease_valid_when_fired.append(row["valid"])
            c.execute("SELECT pg_sleep(0.15)")
            stolen.extend(
                t.id for t in claim_timers(rival, owner="rival:2:b", limit=10, lease_seconds=60)
            )
            return None

        try:
            ids = [
                schedule_timer(conn, kind="test_slow", target=str(i), due_at=now(), max_attempts=1)
                for i in range(4)
            ]
            claimed = claim_timers(conn, owner="me:1:a", limit=10, lease_seconds=0.3)
            report = TimerFirer(conn, "me:1:a", TimerSettings(lease_seconds=0.3)).fire(claimed)
        finally:
            kinds._EFFECTS.pop("test_slow", None)
    assert stolen == [] and report.lost == []
    assert sorted(report.completed) == sorted(ids)
    # Four effects of 0.15 s outlast a 0.3 s lease: each timer's lease was renewed in time.
    assert lease_valid_when_fired == [True] * 4


def test_stopping_mid_batch_fires_the_current_timer_and_releases_the_rest(
    conn: Connection,
) -> None:
    import threading

    stop = threading.Event()

    @kinds.register_kind("test_stopper")
    def stopper(c: Connection, timer: timers.Timer) -> str | None:
        stop.set()  # as if SIGTERM arrived while this timer fires
        return None

    try:
        ids = [
            schedule_timer(conn, kind="test_stopper", target=str(i), due_at=now(), max_attempts=2)
            for i in range(3)
        ]
        claimed = claim_timers(conn, owner="me:1:a", limit=10, lease_seconds=60)
        report = TimerFirer(conn, "me:1:a", TimerSettings(), stop).fire(claimed)
    finally:
        kinds._EFFECTS.pop("test_stopper", None)
    assert report.completed == [ids[0]] and sorted(report.released) == ids[1:]
    for timer_id in ids[1:]:
        timer = get_timer(conn, timer_id)
        assert (timer.status, timer.attempts, timer.lease_owner) == ("pending", 0, None)


# --- real scheduler processes --------------------------------------------------------------


def test_two_schedulers_racing_fire_each_timer_exactly_once(
    effect_log: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    conn = effect_log
    job_ids = [waiting_job(conn, f"race{i}") for i in range(120)]
    with conn.transaction():
        for job_id in job_ids:
            schedule_timer(
                conn, kind="scheduled_import", target=str(job_id), due_at=now(), max_attempts=3
            )
    small_batches = {"IMPORTER_JOBS_TIMER_BATCH_SIZE": "3"}
    with children(cli_env, tmp_path) as start:
        racers = [start("timers", "--once", extra_env=small_batches) for _ in range(2)]
        for racer in racers:
            assert racer.wait() == 0, racer.output()
    rows = conn.execute(
        "SELECT job_id, count(*) AS n FROM test_job_updates GROUP BY job_id"
    ).fetchall()
    assert {r["job_id"]: r["n"] for r in rows} == dict.fromkeys(job_ids, 1)
    statuses = conn.execute("SELECT status, attempts FROM timer_jobs").fetchall()
    assert {(r["status"], r["attempts"]) for r in statuses} == {("completed", 1)}
    for job_id in job_ids:
        job = jobs.get_job(conn, job_id)
        assert job.status == "pending" and job.available_at is not None


@pytest.mark.slow
def test_an_expired_timer_lease_is_recovered_with_attempts_incremented(
    effect_log: Connection, cli_env: dict[str, str], tmp_path: Path, database_url: str
) -> None:
    from importer.database import connect

    conn = effect_log
    job_id = waiting_job(conn, "stuck")
    timer_id = schedule_timer(
        conn, kind="import_retry", target=str(job_id), due_at=now(), max_attempts=3
    )
    short_lease = {"IMPORTER_JOBS_TIMER_LEASE_SECONDS": "1"}
    with children(cli_env, tmp_path) as start, connect(database_url) as blocker:
        # Hold the job row so the first scheduler claims the timer and then hangs in its effect.
        blocker.execute("SELECT id FROM import_jobs WHERE id = %s FOR UPDATE", (job_id,))
        first = start("timers", extra_env=short_lease)
        wait_for(
            lambda: conn.execute(
                "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND datname = current_database()"
            ).fetchone(),
            what="the first scheduler to block in its effect",
        )
        held = get_timer(conn, timer_id)
        assert held.status == "processing" and held.attempts == 1
        first.signal(signal.SIGKILL)
        first.wait()
        blocker.rollback()
        assert updates_of(conn, job_id) == 0  # its transaction died with it
        second = start("timers", extra_env=short_lease)
        wait_for(lambda: timer_status(conn, timer_id) == "completed", what="recovery")
        second.signal(signal.SIGTERM)
        assert second.wait() == 0, second.output()
    timer = get_timer(conn, timer_id)
    assert timer.attempts == 2
    assert updates_of(conn, job_id) == 1
    assert jobs.get_job(conn, job_id).available_at is not None


def test_a_target_that_cannot_proceed_cancels_the_timer_with_no_effect(
    effect_log: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    conn = effect_log
    cancelled_job = waiting_job(conn, "cancelled")
    deleted_job = waiting_job(conn, "deleted")
    conn.execute("UPDATE import_jobs SET status = 'cancelled' WHERE id = %s", (cancelled_job,))
    conn.execute("DELETE FROM import_jobs WHERE id = %s", (deleted_job,))
    conn.execute("TRUNCATE test_job_updates")
    timer_ids = [
        schedule_timer(conn, kind="import_retry", target=str(j), due_at=now(), max_attempts=3)
        for j in (cancelled_job, deleted_job)
    ]
    with children(cli_env, tmp_path) as start:
        scheduler = start("timers", "--once")
        assert scheduler.wait() == 0, scheduler.output()
    for timer_id in timer_ids:
        timer = get_timer(conn, timer_id)
        assert timer.status == "cancelled"
        assert "cancelled or no longer pending" in (timer.last_error or "")
    assert updates_of(conn, cancelled_job) == 0
    assert jobs.get_job(conn, cancelled_job).available_at is None


def test_exhausted_attempts_end_failed_with_the_error_kept(
    effect_log: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    conn = effect_log
    job_id = waiting_job(conn, "cursed")
    conn.execute(
        """CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN RAISE EXCEPTION 'the job row refuses updates'; END $$;
           CREATE TRIGGER test_refuse BEFORE UPDATE ON import_jobs
           FOR EACH ROW EXECUTE FUNCTION test_refuse()"""
    )
    timer_id = schedule_timer(
        conn, kind="import_retry", target=str(job_id), due_at=now(), max_attempts=3
    )
    with children(cli_env, tmp_path) as start:
        # Long poll interval: the retries run on time because the loop sleeps until the next
        # due timer, not until the next poll.
        scheduler = start("timers", extra_env={"IMPORTER_JOBS_TIMER_POLL_INTERVAL_SECONDS": "60"})
        wait_for(lambda: timer_status(conn, timer_id) == "failed", what="the timer to fail")
        scheduler.signal(signal.SIGTERM)
        assert scheduler.wait() == 0, scheduler.output()
    timer = get_timer(conn, timer_id)
    assert timer.attempts == 3 == timer.max_attempts
    assert "the job row refuses updates" in (timer.last_error or "")
    assert timer.finished_at is not None and timer.lease_owner is None
    assert jobs.get_job(conn, job_id).available_at is None
    registered = conn.execute("SELECT count(*) AS n FROM workers").fetchone()
    assert registered is not None and registered["n"] == 0  # unregistered on the way out


def test_a_timer_scheduled_while_the_scheduler_sleeps_fires(
    conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    job_id = waiting_job(conn, "later")
    with children(cli_env, tmp_path) as start:
        scheduler = start("timers", extra_env={"IMPORTER_JOBS_TIMER_POLL_INTERVAL_SECONDS": "3600"})
        wait_for(
            lambda: conn.execute("SELECT 1 FROM workers WHERE kind = 'timers'").fetchone(),
            what="the scheduler to register",
        )
        with conn.transaction():
            timer_id = schedule_timer(
                conn,
                kind="scheduled_import",
                target=str(job_id),
                due_at=now() + timedelta(milliseconds=300),
                max_attempts=3,
            )
        wait_for(lambda: timer_status(conn, timer_id) == "completed", what="the timer to fire")
        scheduler.signal(signal.SIGINT)
        assert scheduler.wait() == 0, scheduler.output()
    assert jobs.get_job(conn, job_id).available_at is not None


# Generous: a loaded machine may take its time to connect again (the back-off starts at 0.5 s).
OUTAGE_DEADLINE = 120.0


def _both_connections_open(conn: Connection) -> bool:
    """The scheduler is registered (its working connection) and LISTENs (its other one)."""
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM workers WHERE kind = 'timers') AS registered,"
        " EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database()"
        "  AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %') AS listening"
    ).fetchone()
    return row is not None and bool(row["registered"]) and bool(row["listening"])


def test_a_scheduler_survives_losing_its_database_connections(
    conn: Connection, cli_env: dict[str, str], tmp_path: Path
) -> None:
    job_id = waiting_job(conn, "after-outage")
    with children(cli_env, tmp_path) as start:
        # Registered, it opens its LISTEN connection only then: both are waited for, not
        # the few milliseconds between them (a loaded machine makes them longer).
        scheduler = start("timers")
        wait_for(
            lambda: _both_connections_open(conn),
            timeout=OUTAGE_DEADLINE,
            what="the scheduler's working and LISTEN connections",
        )
        dropped = conn.execute(
            "SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
        assert dropped is not None and dropped["n"] >= 2  # its working and LISTEN connections
        timer_id = schedule_timer(
            conn, kind="scheduled_import", target=str(job_id), due_at=now(), max_attempts=3
        )
        wait_for(
            lambda: timer_status(conn, timer_id) == "completed",
            timeout=OUTAGE_DEADLINE,
            what="the timer to fire",
        )
        scheduler.signal(signal.SIGTERM)
        assert scheduler.wait() == 0, scheduler.output()
    assert jobs.get_job(conn, job_id).available_at is not None


# --- CLI -----------------------------------------------------------------------------------


def test_timers_list_and_cancel(cli: Cli, conn: Connection) -> None:
    job_id = waiting_job(conn, "listed")
    timer_id = schedule_timer(
        conn,
        kind="scheduled_import",
        target=str(job_id),
        due_at=now() + timedelta(hours=1),
        max_attempts=5,
    )
    listed: CliResult = cli("timers", "list", "--json")
    assert listed.exit_code == 0, listed.stderr
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    assert [(r["id"], r["status"], r["target"]) for r in rows] == [
        (timer_id, "pending", str(job_id))
    ]
    assert cli("timers", "list").exit_code == 0
    cancelled = cli("timers", "cancel", str(timer_id))
    assert cancelled.exit_code == 0 and "cancelled" in cancelled.stdout
    again = cli("timers", "cancel", str(timer_id))
    assert again.exit_code == 2 and "already cancelled" in again.stderr
    missing = cli("timers", "cancel", "999999")
    assert missing.exit_code == 2 and "no timer" in missing.stderr
    assert cli("timers", "list", "--status", "nonsense").exit_code == 2
