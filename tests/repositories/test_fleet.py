"""The figures behind `stats` and /metrics: the ended jobs' totals, kept by triggers
(migration 0015), always equal a count over every job, whichever way jobs end or come back."""

from __future__ import annotations

from importer.database import Connection
from importer.repositories import fleet, jobs
from importer.states import JobStatus, TimerStatus
from tests.repositories.test_jobs import new_job


def counted(conn: Connection) -> tuple[dict[JobStatus, int], int, int, int]:
    """What job_totals must say, counted over every row."""
    by_status = {status: 0 for status in JobStatus}
    for row in conn.execute("SELECT status, count(*) AS n FROM import_jobs GROUP BY status"):
        by_status[JobStatus(row["status"])] = int(row["n"])
    sums = conn.execute(
        "SELECT coalesce(sum(success_rows), 0) AS ok, coalesce(sum(failed_rows), 0) AS bad,"
        " (SELECT count(*) FROM import_attempt_failures) AS failures FROM import_jobs"
    ).fetchone()
    assert sums is not None
    return by_status, int(sums["ok"]), int(sums["bad"]), int(sums["failures"])


def totals(conn: Connection) -> tuple[dict[JobStatus, int], int, int, int]:
    found = fleet.job_totals(conn)
    return found.jobs, found.rows_imported, found.rows_rejected, found.attempts_failed


def test_totals_follow_every_way_a_job_ends_and_comes_back(conn: Connection) -> None:
    assert totals(conn) == counted(conn)
    done, partial, failing, cancelled, gone = (
        new_job(conn, bytes([n]), max_attempts=1) for n in range(5)
    )
    jobs.claim_jobs(conn, owner="me:1:a", limit=5, lease_seconds=60)
    conn.execute(
        "UPDATE import_jobs SET success_rows = 7, failed_rows = 2 WHERE id = %s", (partial.id,)
    )
    conn.execute("UPDATE import_jobs SET success_rows = 10 WHERE id = %s", (done.id,))
    assert totals(conn) == counted(conn)  # running jobs: counted live
    jobs.finish(conn, done.id, "me:1:a")
    jobs.finish(conn, partial.id, "me:1:a")
    jobs.fail_attempt(
        conn, failing.id, "me:1:a", "boom", retry_delay_seconds=1, timer_max_attempts=5
    )
    jobs.finish(conn, cancelled.id, "me:1:a", cancelled=True)
    jobs.finish(conn, gone.id, "me:1:a")
    found = totals(conn)
    assert found == counted(conn)
    assert found[0][JobStatus.SUCCEEDED] == 2 and found[0][JobStatus.FAILED] == 1
    assert (found[1], found[2], found[3]) == (17, 2, 1)

    jobs.retry(conn, failing.id)  # failed -> pending: out of the ended totals
    conn.execute("UPDATE import_jobs SET status = 'reverted' WHERE id = %s", (done.id,))
    conn.execute("UPDATE import_jobs SET failed_rows = 5 WHERE id = %s", (partial.id,))
    conn.execute("DELETE FROM import_jobs WHERE id = %s", (gone.id,))
    conn.execute("DELETE FROM import_attempt_failures")
    found = totals(conn)
    assert found == counted(conn)
    assert found[0][JobStatus.REVERTED] == 1 and found[0][JobStatus.PENDING] == 1
    assert found[3] == 0


def test_recount_rebuilds_the_totals_after_a_load_without_triggers(conn: Connection) -> None:
    for n in range(3):
        new_job(conn, bytes([n]))
    conn.execute("SET session_replication_role = replica")
    conn.execute("UPDATE import_jobs SET status = 'succeeded', success_rows = 4")
    conn.execute("SET session_replication_role = origin")
    assert totals(conn) != counted(conn)
    conn.execute("SELECT import_totals_recount()")
    assert totals(conn) == counted(conn)


def test_notice_totals_follow_their_timers(conn: Connection) -> None:
    """Completion notices by status equal a count over the notify timers, as they are
    created, delivered, failed, purged, or a timer changes kind."""

    def by_status() -> dict[TimerStatus, int]:
        found = {status: 0 for status in TimerStatus}
        for row in conn.execute(
            "SELECT status, count(*) AS n FROM timer_jobs WHERE kind = 'notify' GROUP BY status"
        ):
            found[TimerStatus(row["status"])] = int(row["n"])
        return found

    conn.execute(
        "INSERT INTO timer_jobs (kind, target, due_at, max_attempts)"
        " SELECT k, k || n, now(), 3 FROM generate_series(1, 4) n,"
        " unnest(ARRAY['notify', 'import_retry']) k"
    )
    assert fleet.job_totals(conn).notices == by_status()
    conn.execute(
        "UPDATE timer_jobs SET status = 'completed' WHERE target IN ('notify1', 'notify2')"
    )
    conn.execute("UPDATE timer_jobs SET status = 'failed' WHERE target = 'notify3'")
    conn.execute("UPDATE timer_jobs SET kind = 'notify' WHERE target = 'import_retry1'")
    conn.execute("DELETE FROM timer_jobs WHERE target = 'notify1'")
    found = fleet.job_totals(conn).notices
    assert found == by_status()
    assert (found[TimerStatus.COMPLETED], found[TimerStatus.FAILED]) == (1, 1)
    assert found[TimerStatus.PENDING] == 2
