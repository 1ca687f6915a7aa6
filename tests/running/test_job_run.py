"""run_job against real PostgreSQL and real workbooks: batches, cursor, fence, cancel, upsert."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

from importer.config import ImportSettings
from importer.database import Connection, connect
from importer.errors import InputError, NotFoundError
from importer.intake.submission import Asked, submit_workbook
from importer.repositories import jobs
from importer.repositories.batches import Committed
from importer.retry_policy import RetryPolicy
from importer.running.commit_thread import SWITCH_INTERVAL_SECONDS, CommitThread
from importer.running.job_run import JobProgress, run_job
from tests.support.jobs import (
    KEYED_FORM,
    add_form,
    assert_exactly_once,
    data_rows,
    error_rows,
    form_rows,
    orders_book,
    write_book,
)

SETTINGS = ImportSettings(
    rows_per_transaction=10, lease_seconds=30, retry=RetryPolicy((0.05,), 0), max_attempts=3
)


def submit(
    conn: Connection,
    path: Path,
    owner: str | None = "me:1:a",
    *,
    settings: ImportSettings = SETTINGS,
    **kw: object,
) -> jobs.Job:
    form = str(kw.pop("form", "orders"))
    sub = submit_workbook(
        conn,
        path,
        Asked(form_name=form, claim_owner=owner, **kw),  # type: ignore[arg-type]
        settings=settings,
    )
    return sub.job


def test_a_job_runs_to_the_end_in_batches(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 95)
    job = submit(conn, book.path)
    assert (job.status, job.total_rows, job.lease_owner) == ("running", 95, "me:1:a")

    events: list[JobProgress] = []
    outcome = run_job(database_url, job, "me:1:a", SETTINGS, on_progress=events.append)

    assert (outcome.result, outcome.status, outcome.run_rows) == (
        "finished",
        "partially_succeeded",
        95,
    )
    assert_exactly_once(conn, job.id, book)
    phases = [e.phase for e in events]
    assert phases[0] == "opening" and phases[-1] == "done"
    done = [e.done_rows for e in events if e.phase == "importing"]
    assert done == sorted(done) and done[-1] == 95 and len(done) == 11  # start + 10 batches
    assert events[-1].success_rows == len(book.valid)


def test_the_short_switch_interval_lasts_only_while_the_writer_runs(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    """The writer thread shortens the process-wide switch interval; the caller gets its own
    back when the import ends."""
    add_form(conn)
    job = submit(conn, orders_book(tmp_path / "orders.xlsx", 35).path)
    during: list[float] = []

    def watch(event: JobProgress) -> None:
        if event.phase == "importing" and event.done_rows:
            during.append(sys.getswitchinterval())

    previous = sys.getswitchinterval()
    sys.setswitchinterval(0.004)  # not the default, so that restoring it is seen
    try:
        outcome = run_job(database_url, job, "me:1:a", SETTINGS, on_progress=watch)
        after = sys.getswitchinterval()
    finally:
        sys.setswitchinterval(previous)
    assert outcome.result == "finished"
    assert during and set(during) == {SWITCH_INTERVAL_SECONDS}
    assert after == 0.004


def test_the_switch_interval_is_given_back_when_the_last_writer_stops() -> None:
    def write(batch: object, number: int) -> Committed:
        raise AssertionError("nothing is submitted")

    previous = sys.getswitchinterval()
    sys.setswitchinterval(0.004)
    try:
        first = CommitThread(write)
        second = CommitThread(write)
        assert sys.getswitchinterval() == SWITCH_INTERVAL_SECONDS
        first.close()
        assert sys.getswitchinterval() == SWITCH_INTERVAL_SECONDS  # the second still runs
        second.close()
        assert sys.getswitchinterval() == 0.004
        with CommitThread(write):
            assert sys.getswitchinterval() == SWITCH_INTERVAL_SECONDS
        assert sys.getswitchinterval() == 0.004
    finally:
        sys.setswitchinterval(previous)


def test_a_stopped_run_releases_and_the_next_run_continues_at_the_cursor(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 64, bad_every=7)
    job = submit(conn, book.path)
    stop = threading.Event()

    def stop_after_three_batches(event: JobProgress) -> None:
        if event.done_rows >= 30:
            stop.set()

    first = run_job(
        database_url, job, "me:1:a", SETTINGS, on_progress=stop_after_three_batches, stop=stop
    )
    assert first.result == "stopped"
    paused = jobs.get_job(conn, job.id)
    assert (paused.status, paused.attempts, paused.lease_owner) == ("pending", 0, None)
    # The batch committing when the stop came is finished (batches commit on their own
    # thread while the next is read, so that may be one more).
    assert paused.cursor == first.run_rows and paused.cursor in (30, 40)
    assert len(data_rows(conn, job.id)) == paused.success_rows

    claimed = jobs.claim_jobs(conn, owner="other:2:b", limit=1, lease_seconds=30)
    second = run_job(database_url, claimed[0], "other:2:b", SETTINGS)
    assert (second.result, second.run_rows) == ("finished", 64 - paused.cursor)
    assert_exactly_once(conn, job.id, book)


def test_a_writer_that_lost_its_lease_writes_nothing(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 40)
    job = submit(conn, book.path)
    conn.execute(
        "UPDATE import_jobs SET lease_expires_at = now() - interval '1 minute' WHERE id = %s",
        (job.id,),
    )
    [taken] = jobs.claim_jobs(conn, owner="new:2:b", limit=1, lease_seconds=30)

    outcome = run_job(database_url, job, "me:1:a", SETTINGS)
    assert outcome.result == "lease_lost"
    assert data_rows(conn, job.id) == {}
    after = jobs.get_job(conn, job.id)
    assert (after.status, after.lease_owner, after.cursor) == ("running", "new:2:b", 0)

    assert run_job(database_url, taken, "new:2:b", SETTINGS).result == "finished"
    assert_exactly_once(conn, job.id, book)


def test_cancel_stops_at_the_next_batch_boundary_keeping_committed_rows(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 80)

    job = submit(conn, book.path)

    def cancel_after_two_batches(event: JobProgress) -> None:
        if event.done_rows == 20:
            with connect(database_url, autocommit=True) as other:
                assert jobs.cancel(other, job.id).cancel_requested

    outcome = run_job(database_url, job, "me:1:a", SETTINGS, on_progress=cancel_after_two_batches)
    assert outcome.result == "cancelled"
    final = jobs.get_job(conn, job.id)
    assert (final.status, final.lease_owner) == ("cancelled", None)
    # It stops at a batch boundary; batches already handed to the writer may commit first.
    assert final.cursor == outcome.run_rows and final.cursor in (20, 30, 40)
    last = final.cursor + 2
    assert sorted(data_rows(conn, job.id)) == [n for n in range(2, last) if n in book.valid]
    assert sorted(set(error_rows(conn, job.id))) == [n for n in range(2, last) if n in book.invalid]


@pytest.mark.slow
def test_the_lease_is_kept_alive_while_a_batch_takes_longer_than_the_lease(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 20)
    short = ImportSettings(rows_per_transaction=10, lease_seconds=1.0, max_attempts=3)
    job = submit(conn, book.path, settings=short)
    stolen: list[jobs.Job] = []

    def slow_between_batches(event: JobProgress) -> None:
        if event.phase == "importing" and event.done_rows == 10:
            for _ in range(5):  # 2.5 lease lengths
                time.sleep(0.5)
                with connect(database_url, autocommit=True) as other:
                    stolen.extend(
                        jobs.claim_jobs(other, owner="thief:9:z", limit=1, lease_seconds=30)
                    )

    outcome = run_job(database_url, job, "me:1:a", short, on_progress=slow_between_batches)
    assert stolen == []
    assert outcome.result == "finished"
    assert_exactly_once(conn, job.id, book)


def test_submission_refuses_bad_input_before_any_job(conn: Connection, tmp_path: Path) -> None:
    add_form(conn)
    write_book(tmp_path / "wrong.xlsx", [[1, 2]], header=["Something", "Else"])
    with pytest.raises(InputError, match="missing required column"):
        submit(conn, tmp_path / "wrong.xlsx")
    with pytest.raises(InputError, match="not found"):
        submit(conn, tmp_path / "absent.xlsx")
    orders_book(tmp_path / "ok.xlsx", 3)
    with pytest.raises(NotFoundError, match="no form named"):
        submit(conn, tmp_path / "ok.xlsx", form="nope")
    assert conn.execute("SELECT count(*) AS n FROM import_jobs").fetchone() == {"n": 0}


def test_resubmitting_the_same_file_returns_the_job_unless_forced(
    conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", 3)
    first = submit(conn, book.path, owner=None)
    copy = tmp_path / "renamed.xlsx"
    copy.write_bytes(book.path.read_bytes())
    again = submit_workbook(
        conn, copy, Asked(form_name="orders", sheet="orders"), settings=SETTINGS
    )
    assert (again.created, again.job.id) == (False, first.id)
    forced = submit_workbook(conn, copy, Asked(form_name="orders", force=True), settings=SETTINGS)
    assert forced.created and forced.job.id != first.id
    assert conn.execute("SELECT count(*) AS n FROM import_files").fetchone() == {"n": 1}


def test_keyed_forms_upsert_and_reject_keys_repeated_in_one_file(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    # Key 3 repeats inside one batch (row 5), key 1 repeats in a later batch (row 14).
    rows: list[list[object]] = [[i, f"c{i}", i] for i in range(1, 13)]
    rows.insert(3, [3, "again", 1])
    rows.insert(12, [1, "later", 1])
    write_book(tmp_path / "v1.xlsx", rows)
    job = submit(conn, tmp_path / "v1.xlsx", form="ledger")
    assert run_job(database_url, job, "me:1:a", SETTINGS).status == "partially_succeeded"
    errors = conn.execute(
        "SELECT row_number, column_name, raw_value, message FROM import_row_errors ORDER BY 1"
    ).fetchall()
    assert [(e["row_number"], e["column_name"], e["raw_value"]) for e in errors] == [
        (5, "Order ID", "3"),
        (14, "Order ID", "1"),
    ]
    assert "row 4" in errors[0]["message"] and "row 2" in errors[1]["message"]
    values = conn.execute("SELECT row_values FROM import_rejected_rows ORDER BY row_number")
    assert [r["row_values"] for r in values] == [["3", "again", "1"], ["1", "later", "1"]]

    # A corrected file updates the rows with the same key, adds new ones.
    write_book(tmp_path / "v2.xlsx", [[2, "fixed", 20], [99, "new", 1]])
    second = submit(conn, tmp_path / "v2.xlsx", form="ledger")
    assert run_job(database_url, second, "me:1:a", SETTINGS).status == "succeeded"
    stored = form_rows(conn, "ledger")
    by_id = {r["order_id"]: r for r in stored}
    assert len(stored) == 13
    assert by_id[2]["customer"] == "fixed" and by_id[2]["import_job_id"] == second.id
    assert by_id[99]["import_job_id"] == second.id and by_id[1]["import_job_id"] == job.id
