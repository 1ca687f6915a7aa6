"""The retry policy: one backoff schedule for import attempts and timers, permanent failures
failed at once with their reason, and every attempt budget taken from the settings."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from psycopg.types.json import Jsonb

from importer.config import ImportSettings, TimerSettings, load_settings
from importer.daemons.scheduler import TimerScheduler
from importer.database import Connection
from importer.intake.submission import Asked, submit_workbook
from importer.repositories import jobs, timers
from importer.repositories.jobs import Job
from importer.repositories.timers import claim_timers, get_timer, schedule_timer
from importer.retry_policy import RetryPolicy
from importer.running.job_run import JobOutcome, run_job
from importer.timers import kinds
from importer.timers.firing import TimerFirer
from tests.support.jobs import add_form, assert_exactly_once, orders_book, refuse_writes

# No jitter, so that the waits can be checked to the second.
POLICY = RetryPolicy((60.0, 600.0), jitter=0, timer_max_attempts=7)
SETTINGS = ImportSettings(rows_per_transaction=10, lease_seconds=30, max_attempts=3, retry=POLICY)


def test_the_schedule_steps_through_its_delays_then_keeps_the_last() -> None:
    policy = RetryPolicy()
    middle = 0.5  # rand() == 0.5: no jitter either way
    assert [policy.delay(n, lambda: middle) for n in range(1, 7)] == [2, 10, 30, 30, 30, 30]
    assert policy.delay(0, lambda: middle) == 2  # (an attempt not yet counted: the first)
    # Jitter: up to 20% either way, and never the same for everyone.
    assert (policy.delay(3, lambda: 0.0), policy.delay(3, lambda: 0.999999)) == pytest.approx(
        (24, 36)
    )
    assert len({policy.delay(2) for _ in range(20)}) > 1
    for bad in [(), (0,), (-1, 2), (float("nan"),), (float("inf"),)]:
        with pytest.raises(ValueError):
            RetryPolicy(bad)


def _submit(conn: Connection, path: Path) -> Job:
    return submit_workbook(
        conn, path, Asked(form_name="orders", claim_owner="me:1:a"), settings=SETTINGS
    ).job


def _retry_timer(conn: Connection, job_id: int) -> dict[str, object] | None:
    return conn.execute(
        "SELECT status, max_attempts, due_at - now() AS wait FROM timer_jobs"
        " WHERE kind = 'import_retry' AND target = %s ORDER BY id DESC LIMIT 1",
        (str(job_id),),
    ).fetchone()


def _next_attempt(database_url: str, conn: Connection, job: Job) -> JobOutcome:
    """Let the retry timer come due, fire it, claim the job and run the attempt."""
    conn.execute("UPDATE timer_jobs SET due_at = now() WHERE target = %s", (str(job.id),))
    assert TimerScheduler(database_url, TimerSettings(), once=True).run().handled == 1
    [claimed] = jobs.claim_jobs(conn, owner="me:1:a", limit=1, lease_seconds=30)
    return run_job(database_url, claimed, "me:1:a", SETTINGS)


def test_a_task_level_failure_is_retried_on_the_schedule_until_attempts_run_out(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 15)
    job = _submit(conn, book.path)
    # The server refuses every write (say, its disk is full): nothing about the job is wrong.
    refuse_writes(conn, "could not extend file (injected)")

    first = run_job(database_url, job, "me:1:a", SETTINGS)
    assert first.result == "attempt_failed" and "could not extend file" in (first.error or "")
    again = jobs.get_job(conn, job.id)
    assert (again.status, again.attempts, again.available_at) == ("pending", 1, None)
    timer = _retry_timer(conn, job.id)
    assert timer is not None and timer["status"] == "pending"
    # The first delay of the schedule, and the timer's own budget from jobs.timer.max_attempts.
    assert timedelta(seconds=55) < timer["wait"] <= timedelta(seconds=60)  # type: ignore[operator]
    assert timer["max_attempts"] == 7
    assert jobs.claim_jobs(conn, owner="me:1:a", limit=1, lease_seconds=30) == []  # not yet

    second = _next_attempt(database_url, conn, job)
    assert (second.result, second.status) == ("attempt_failed", "pending")
    timer = _retry_timer(conn, job.id)
    assert timer is not None
    assert timedelta(seconds=590) < timer["wait"] <= timedelta(seconds=600)  # type: ignore[operator]

    conn.execute("DROP TRIGGER refuse ON forms.orders")  # the disk has room again
    third = _next_attempt(database_url, conn, job)
    assert (third.result, third.status) == ("finished", "partially_succeeded")
    assert third.job is not None and third.job.attempts == 3
    assert_exactly_once(conn, job.id, book)


def test_the_last_attempt_fails_the_job_with_its_error(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    job = _submit(conn, orders_book(tmp_path / "orders.xlsx", 5).path)
    conn.execute("UPDATE import_jobs SET max_attempts = 1 WHERE id = %s", (job.id,))
    refuse_writes(conn, "server out of memory (injected)")
    last = run_job(database_url, job, "me:1:a", SETTINGS)
    assert (last.result, last.status) == ("attempt_failed", "failed")
    assert "server out of memory" in (last.error or "") and "not retried" not in (last.error or "")
    assert jobs.get_job(conn, job.id).last_error == last.error
    assert _retry_timer(conn, job.id) is None


def _damage_the_stored_file(conn: Connection, job: Job) -> None:
    conn.execute("UPDATE import_files SET content = %s", (b"PK\x03\x04 truncated",))


def _drop_the_form_version(conn: Connection, job: Job) -> None:
    conn.execute("DELETE FROM form_versions WHERE version = %s", (job.form_version,))


def _require_a_column_the_sheet_lacks(conn: Connection, job: Job) -> None:
    row = conn.execute(
        "SELECT definition FROM form_versions WHERE version = %s", (job.form_version,)
    ).fetchone()
    assert row is not None
    definition = row["definition"]
    definition["fields"].append(
        {"name": "vat", "header": "VAT number", "type": "string", "required": True}
    )
    conn.execute("UPDATE form_versions SET definition = %s", (Jsonb(definition),))


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (_damage_the_stored_file, "the stored workbook is damaged or unreadable"),
        (_drop_the_form_version, "form 'orders' has no version 1"),
        (_require_a_column_the_sheet_lacks, "the header no longer matches form 'orders'"),
    ],
)
def test_a_permanent_failure_fails_the_job_at_once_with_its_reason(
    database_url: str, conn: Connection, tmp_path: Path, damage: object, reason: str
) -> None:
    add_form(conn)
    job = _submit(conn, orders_book(tmp_path / "orders.xlsx", 5).path)
    assert callable(damage)
    damage(conn, job)

    outcome = run_job(database_url, job, "me:1:a", SETTINGS)

    assert (outcome.result, outcome.status) == ("attempt_failed", "failed")
    stored = jobs.get_job(conn, job.id)
    assert stored.attempts == 1 < stored.max_attempts  # not retried: attempts were left
    assert stored.last_error == outcome.error
    assert reason in (stored.last_error or "") and "not retried" in (stored.last_error or "")
    assert stored.finished_at is not None and stored.lease_owner is None
    assert _retry_timer(conn, job.id) is None


def test_a_timer_whose_effect_fails_backs_off_on_the_same_schedule(conn: Connection) -> None:
    @kinds.register_kind("test_always_fails")
    def fails(c: Connection, timer: timers.Timer) -> str | None:
        raise RuntimeError("target service down")

    settings = TimerSettings(retry=replace(POLICY, delays_seconds=(100.0, 1000.0)))
    try:
        timer_id = schedule_timer(
            conn,
            kind="test_always_fails",
            target="x",
            due_at=datetime.now(UTC),
            max_attempts=3,
        )
        waits = []
        for _ in range(3):
            conn.execute("UPDATE timer_jobs SET due_at = now() WHERE id = %s", (timer_id,))
            claimed = claim_timers(conn, owner="me:1:a", limit=5, lease_seconds=60)
            TimerFirer(conn, "me:1:a", settings).fire(claimed)
            timer = get_timer(conn, timer_id)
            waits.append((timer.status, round((timer.due_at - datetime.now(UTC)).total_seconds())))
        assert waits[0] == ("pending", 100) and waits[1] == ("pending", 1000)
        assert waits[2][0] == "failed"
        assert "target service down" in (get_timer(conn, timer_id).last_error or "")
    finally:
        kinds._EFFECTS.pop("test_always_fails", None)


def test_the_schedule_and_budgets_come_from_the_settings(tmp_path: Path) -> None:
    cfg = tmp_path / "importer.toml"
    cfg.write_text("[jobs]\nretry_delays_seconds = [1, 5]\n[jobs.timer]\nmax_attempts = 9\n")
    s = load_settings(cfg, environ={})
    assert s.import_.retry == s.timer.retry == RetryPolicy((1, 5), timer_max_attempts=9)
    env = {"IMPORTER_JOBS_RETRY_DELAYS_SECONDS": "3, 4 ,5"}
    assert load_settings(cfg, environ=env).import_.retry.delays_seconds == (3, 4, 5)
    assert load_settings(environ={"IMPORTER_JOBS_RETRY_DELAYS_SECONDS": "[7]"}).timer.retry == (
        RetryPolicy((7,))
    )


def test_the_old_fixed_delay_still_works_with_a_warning(tmp_path: Path) -> None:
    cfg = tmp_path / "importer.toml"
    cfg.write_text("[jobs.import]\nretry_delay_seconds = 45\n")
    s = load_settings(cfg, environ={})
    assert s.import_.retry.delays_seconds == (45,)
    assert s.timer.retry.delays_seconds == (2, 10, 30)  # the other kind keeps the schedule
    [warning] = s.warnings
    assert "jobs.import.retry_delay_seconds" in warning and "deprecated" in warning
    assert "jobs.retry_delays_seconds" in warning

    env = {
        "IMPORTER_JOBS_TIMER_RETRY_DELAY_SECONDS": "5",
        "IMPORTER_JOBS_RETRY_DELAYS_SECONDS": "1",
    }
    both = load_settings(environ=env)
    assert both.timer.retry.delays_seconds == (1,)  # the new key wins
    assert [w for w in both.warnings if "IMPORTER_JOBS_TIMER_RETRY_DELAY_SECONDS" in w]
    assert all("ignored" in w for w in both.warnings)
