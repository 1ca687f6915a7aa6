"""The import-job repository against a real PostgreSQL: idempotency, claim, lease, fence."""

from __future__ import annotations

import threading

import pytest

from importer.database import Connection, connect
from importer.errors import LeaseLost, NotFoundError, StateError
from importer.repositories import jobs
from importer.states import JobStatus


def new_job(conn: Connection, content: bytes = b"workbook", **changes: object) -> jobs.Job:
    sha = jobs.store_file(conn, content)
    fields: dict[str, object] = {
        "form": "orders",
        "form_version": 1,
        "file": sha,
        "file_name": "orders.xlsx",
        "sheet": "Sheet1",
        "engine": "calamine",
        "header": ["Order ID", "Amount"],
        "total_rows": 10,
        "max_attempts": 3,
    }
    fields.update(changes)
    job, created = jobs.create_job(conn, jobs.NewJob(**fields))  # type: ignore[arg-type]
    assert created
    return job


def set_lease_expired(conn: Connection, job_id: int) -> None:
    conn.execute(
        "UPDATE import_jobs SET lease_expires_at = now() - interval '1 minute' WHERE id = %s",
        (job_id,),
    )


def test_file_bytes_are_stored_once(conn: Connection) -> None:
    first = jobs.store_file(conn, b"same bytes")
    second = jobs.store_file(conn, b"same bytes")
    assert first == second == jobs.file_sha256(b"same bytes")
    row = conn.execute("SELECT count(*) AS n FROM import_files").fetchone()
    assert row is not None and row["n"] == 1
    assert jobs.file_content(conn, first) == b"same bytes"


def test_big_bytes_are_stored_whole_in_chunks(conn: Connection) -> None:
    content = bytes(range(256)) * 4099 + b"\x00end"  # several COPY chunks, and a short one
    sha = jobs.store_file(conn, content)
    assert jobs.file_content(conn, sha) == content
    row = conn.execute("SELECT size_bytes FROM import_files WHERE sha256 = %s", (sha,)).fetchone()
    assert row is not None and row["size_bytes"] == len(content)


def test_two_submits_of_one_new_file_store_it_once(conn: Connection, database_url: str) -> None:
    """The second waits for the first's transaction, then finds the file stored (COPY has
    no ON CONFLICT: without the wait it would fail on the primary key)."""
    done: list[str] = []
    with connect(database_url) as first:
        with first.transaction():
            jobs.store_file(first, b"shared bytes")

            def second() -> None:
                with connect(database_url) as other, other.transaction():
                    done.append(jobs.store_file(other, b"shared bytes"))

            thread = threading.Thread(target=second)
            thread.start()
            thread.join(0.5)
            assert thread.is_alive()  # waiting on the first submit's key
        thread.join(10)
    assert done == [jobs.file_sha256(b"shared bytes")]
    row = conn.execute("SELECT count(*) AS n FROM import_files").fetchone()
    assert row is not None and row["n"] == 1


def test_same_form_sheet_and_file_is_one_job_unless_forced(conn: Connection) -> None:
    job = new_job(conn)
    new = jobs.NewJob("orders", 1, job.file, "copy.xlsx", "Sheet1", "calamine", [], 10, 3)
    again, created = jobs.create_job(conn, new)
    assert (again.id, created) == (job.id, False)

    other_sheet, created = jobs.create_job(conn, jobs.NewJob(**{**new.__dict__, "sheet": "S2"}))
    assert created and other_sheet.id != job.id

    forced, created = jobs.create_job(conn, new, force=True)
    assert created and forced.id not in (job.id, other_sheet.id)
    # The newest import of the file now answers for it.
    assert jobs.find_job_by_key(conn, new.key) == forced
    assert jobs.get_job(conn, job.id).idempotency_key is None


def test_claim_takes_available_pending_jobs_oldest_first(conn: Connection) -> None:
    first = new_job(conn, b"1")
    second = new_job(conn, b"2")
    waiting_sha = jobs.store_file(conn, b"3")
    waiting, _ = jobs.create_job(
        conn,
        jobs.NewJob("orders", 1, waiting_sha, "w.xlsx", "S", "calamine", [], 1, 3),
        waiting=True,
    )
    assert waiting.available_at is None

    claimed = jobs.claim_jobs(conn, owner="me:1:a", limit=10, lease_seconds=60)
    assert [j.id for j in claimed] == [first.id, second.id]
    assert all(j.status == "running" and j.lease_owner == "me:1:a" for j in claimed)
    assert all(j.attempts == 1 and j.started_at is not None for j in claimed)
    # A running job with a live lease is nobody else's to take.
    assert jobs.claim_jobs(conn, owner="other:2:b", limit=10, lease_seconds=60) == []

    assert jobs.make_available_now(conn, waiting.id)
    assert [j.id for j in jobs.claim_jobs(conn, owner="x:3:c", limit=1, lease_seconds=60)] == [
        waiting.id
    ]


def test_claim_by_id_and_limit(conn: Connection) -> None:
    a = new_job(conn, b"a")
    b = new_job(conn, b"b")
    got = jobs.claim_jobs(conn, owner="me:1:a", limit=5, lease_seconds=60, job_ids=[b.id])
    assert [j.id for j in got] == [b.id]
    assert [j.id for j in jobs.claim_jobs(conn, owner="me:1:a", limit=1, lease_seconds=60)] == [
        a.id
    ]


def test_expired_lease_is_taken_over_and_the_old_owner_is_fenced(conn: Connection) -> None:
    job = new_job(conn)
    jobs.claim_jobs(conn, owner="old:1:a", limit=1, lease_seconds=60)
    set_lease_expired(conn, job.id)

    taken = jobs.claim_jobs(conn, owner="new:2:b", limit=1, lease_seconds=60)
    assert [(j.id, j.lease_owner, j.attempts) for j in taken] == [(job.id, "new:2:b", 2)]
    assert taken[0].started_at == jobs.get_job(conn, job.id).started_at  # first start kept

    assert not jobs.renew_lease(conn, job.id, "old:1:a", 60)
    assert not jobs.release_job(conn, job.id, "old:1:a")
    with pytest.raises(LeaseLost):
        jobs.finish(conn, job.id, "old:1:a")
    with pytest.raises(LeaseLost):
        jobs.fail_attempt(
            conn, job.id, "old:1:a", "boom", retry_delay_seconds=1, timer_max_attempts=5
        )
    assert jobs.renew_lease(conn, job.id, "new:2:b", 60)


def test_claim_merges_due_and_expired_jobs_oldest_first(conn: Connection) -> None:
    """The due jobs and the running ones whose lease expired are found apart (each on its
    own index) and taken together in creation order."""
    old, middle, young = (new_job(conn, bytes([n])) for n in range(3))
    jobs.claim_jobs(conn, owner="gone:1:a", limit=2, lease_seconds=60)  # old and middle
    set_lease_expired(conn, middle.id)
    got = jobs.claim_jobs(conn, owner="me:2:b", limit=5, lease_seconds=60)
    assert [j.id for j in got] == [middle.id, young.id]  # old's lease is alive
    set_lease_expired(conn, old.id)
    set_lease_expired(conn, young.id)
    got = jobs.claim_jobs(conn, owner="me:3:c", limit=1, lease_seconds=60)
    assert [j.id for j in got] == [old.id]
    later = new_job(conn, b"later")
    got = jobs.claim_jobs(conn, owner="me:4:d", limit=5, lease_seconds=60)
    assert [j.id for j in got] == [young.id, later.id]


def test_expired_job_on_its_last_attempt_fails_instead_of_being_claimed(conn: Connection) -> None:
    job = new_job(conn, max_attempts=1)
    jobs.claim_jobs(conn, owner="dead:1:a", limit=1, lease_seconds=60)
    set_lease_expired(conn, job.id)

    assert jobs.claim_jobs(conn, owner="new:2:b", limit=1, lease_seconds=60) == []
    failed = jobs.get_job(conn, job.id)
    assert failed.status == "failed" and failed.lease_owner is None
    assert failed.finished_at is not None
    assert failed.last_error is not None and "dead:1:a" in failed.last_error
    assert "last attempt (1 of 1)" in failed.last_error


def test_release_keeps_progress_and_gives_the_attempt_back(conn: Connection) -> None:
    job = new_job(conn)
    jobs.claim_jobs(conn, owner="me:1:a", limit=1, lease_seconds=60)
    conn.execute(
        "UPDATE import_jobs SET success_rows = 4, failed_rows = 1 WHERE id = %s", (job.id,)
    )
    assert jobs.release_job(conn, job.id, "me:1:a")
    released = jobs.get_job(conn, job.id)
    assert (released.status, released.attempts, released.cursor) == ("pending", 0, 5)
    assert released.lease_owner is None and released.lease_expires_at is None


def test_failed_attempts_retry_later_then_fail(conn: Connection) -> None:
    job = new_job(conn, max_attempts=2)
    jobs.claim_jobs(conn, owner="me:1:a", limit=1, lease_seconds=60)
    after_first = jobs.fail_attempt(
        conn, job.id, "me:1:a", "disk on fire", retry_delay_seconds=3600, timer_max_attempts=5
    )
    assert after_first.status == "pending" and after_first.last_error == "disk on fire"
    # Waits on an import_retry timer: not claimable until the timer has fired.
    assert after_first.available_at is None
    timer = conn.execute(
        "SELECT status, due_at > now() + interval '59 minutes' AS later FROM timer_jobs"
        " WHERE kind = 'import_retry' AND target = %s",
        (str(job.id),),
    ).fetchone()
    assert timer == {"status": "pending", "later": True}
    assert jobs.claim_jobs(conn, owner="me:1:a", limit=1, lease_seconds=60) == []

    jobs.make_available_now(conn, job.id)
    jobs.claim_jobs(conn, owner="me:1:a", limit=1, lease_seconds=60)
    last = jobs.fail_attempt(
        conn, job.id, "me:1:a", "still on fire", retry_delay_seconds=3600, timer_max_attempts=5
    )
    assert (last.status, last.attempts, last.last_error) == ("failed", 2, "still on fire")
    assert last.finished_at is not None

    retried = jobs.retry(conn, job.id)
    assert (retried.status, retried.attempts, retried.finished_at) == ("pending", 0, None)
    with pytest.raises(StateError, match="only a failed job"):
        jobs.retry(conn, job.id)


def test_finish_sets_the_outcome_from_the_counters(conn: Connection) -> None:
    clean = new_job(conn, b"clean")
    mixed = new_job(conn, b"mixed")
    jobs.claim_jobs(conn, owner="me:1:a", limit=2, lease_seconds=60)
    conn.execute("UPDATE import_jobs SET success_rows = 10 WHERE id = %s", (clean.id,))
    conn.execute(
        "UPDATE import_jobs SET success_rows = 7, failed_rows = 3 WHERE id = %s", (mixed.id,)
    )
    done = jobs.finish(conn, clean.id, "me:1:a")
    partly = jobs.finish(conn, mixed.id, "me:1:a")
    assert (done.status, done.total_rows, done.lease_owner) == ("succeeded", 10, None)
    assert (partly.status, partly.total_rows) == ("partially_succeeded", 10)


def test_cancel_pending_at_once_running_at_the_next_boundary(conn: Connection) -> None:
    pending = new_job(conn, b"p")
    cancelled = jobs.cancel(conn, pending.id)
    assert cancelled.status == "cancelled" and cancelled.finished_at is not None

    running = new_job(conn, b"r")
    jobs.claim_jobs(conn, owner="live:1:a", limit=1, lease_seconds=60)
    asked = jobs.cancel(conn, running.id)
    assert (asked.status, asked.cancel_requested) == ("running", True)
    assert jobs.renew_lease(conn, running.id, "live:1:a", 60)  # still its writer's to stop
    stopped = jobs.finish(conn, running.id, "live:1:a", cancelled=True)
    assert stopped.status == "cancelled"

    with pytest.raises(StateError, match="already cancelled"):
        jobs.cancel(conn, running.id)


def test_cancel_of_a_running_job_nobody_writes_is_immediate_and_fences(conn: Connection) -> None:
    job = new_job(conn)
    jobs.claim_jobs(conn, owner="gone:1:a", limit=1, lease_seconds=60)
    set_lease_expired(conn, job.id)
    assert jobs.cancel(conn, job.id).status == "cancelled"
    assert not jobs.renew_lease(conn, job.id, "gone:1:a", 60)


def test_cancel_also_cancels_the_timer_the_job_waits_on(conn: Connection) -> None:
    sha = jobs.store_file(conn, b"t")
    job, _ = jobs.create_job(
        conn, jobs.NewJob("orders", 1, sha, "t.xlsx", "S", "calamine", [], 1, 3), waiting=True
    )
    conn.execute(
        "INSERT INTO timer_jobs (kind, target, due_at, max_attempts)"
        " VALUES ('scheduled_import', %s, now() + interval '1 hour', 3)",
        (str(job.id),),
    )
    jobs.cancel(conn, job.id)
    row = conn.execute("SELECT status FROM timer_jobs").fetchone()
    assert row is not None and row["status"] == "cancelled"


def test_two_claimers_racing_for_one_job_exactly_one_wins(database_url: str) -> None:
    with connect(database_url, autocommit=True) as setup:
        for round_number in range(20):
            new_job(setup, f"race {round_number}".encode())
    winners: dict[str, list[int]] = {"a": [], "b": []}
    barrier = threading.Barrier(2)

    def claimer(name: str) -> None:
        with connect(database_url, autocommit=True) as own:
            for _ in range(20):
                barrier.wait()
                got = jobs.claim_jobs(own, owner=f"{name}:1:x", limit=1, lease_seconds=60)
                winners[name].extend(j.id for j in got)

    threads = [threading.Thread(target=claimer, args=(n,)) for n in winners]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    claimed = winners["a"] + winners["b"]
    assert len(claimed) == len(set(claimed)) == 20  # every job once, never twice
    with connect(database_url, autocommit=True) as check:
        rows = check.execute("SELECT lease_owner, attempts FROM import_jobs").fetchall()
    assert all(r["attempts"] == 1 and r["lease_owner"] for r in rows)


def test_listing_and_lookup(conn: Connection) -> None:
    a = new_job(conn, b"a")
    b = new_job(conn, b"b")
    jobs.cancel(conn, a.id)
    assert [j.id for j in jobs.list_jobs(conn)] == [a.id, b.id]
    assert [j.id for j in jobs.list_jobs(conn, statuses=[JobStatus.PENDING])] == [b.id]
    assert [j.id for j in jobs.list_jobs(conn, limit=1)] == [b.id]
    assert jobs.get_job(conn, b.id).to_json()["status"] == "pending"
    with pytest.raises(NotFoundError):
        jobs.get_job(conn, 999_999)


def test_resumable_jobs_are_pending_or_unowned(conn: Connection) -> None:
    pending = new_job(conn, b"p")
    live = new_job(conn, b"l")
    expired = new_job(conn, b"e")
    jobs.claim_jobs(conn, owner="someone-else:1:a", limit=5, lease_seconds=600, job_ids=[live.id])
    jobs.claim_jobs(
        conn, owner="someone-else:1:a", limit=5, lease_seconds=600, job_ids=[expired.id]
    )
    set_lease_expired(conn, expired.id)
    assert [j.id for j in jobs.resumable_jobs(conn)] == [pending.id, expired.id]
