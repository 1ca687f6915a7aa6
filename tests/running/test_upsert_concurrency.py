"""Keyed (upsert) imports running at the same time on the same keys: no deadlock, exact rows,
and a deadlock or serialization failure that does happen retries the batch transaction."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from psycopg import sql

from importer.config import ImportSettings
from importer.database import Connection
from importer.intake.submission import Asked, submit_workbook
from importer.repositories.jobs import Job
from importer.retry_policy import CONFLICT_DELAYS_SECONDS
from importer.running.job_run import JobOutcome, run_job
from tests.support.jobs import (
    KEYED_FORM,
    ORDERS_FORM,
    add_form,
    assert_exactly_once,
    form_rows,
    orders_book,
    write_book,
)

KEYS = 300
BATCH = 50
SETTINGS = ImportSettings(rows_per_transaction=BATCH, lease_seconds=30, max_attempts=3)


def _deadlocks(conn: Connection) -> int:
    """Deadlocks PostgreSQL detected in this database (a backend reports its own at exit
    at the latest: wait until the runs' connections are gone)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        others = conn.execute(
            "SELECT count(*) AS n FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
        if others == {"n": 0}:
            break
        time.sleep(0.01)
    conn.execute("SELECT pg_stat_clear_snapshot()")
    row = conn.execute(
        "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()"
    ).fetchone()
    assert row is not None
    return int(row["deadlocks"])


def _book(path: Path, tag: str, *, descending: bool) -> Path:
    """Every batch of BATCH rows holds the same keys in both books, in opposite order."""
    rows: list[list[object]] = []
    for start in range(1, KEYS + 1, BATCH):
        keys = list(range(start, start + BATCH))
        for key in reversed(keys) if descending else keys:
            rows.append([key, f"{tag}{key}", key % 89 + 1])
    write_book(path, rows)
    return path


def _submit(conn: Connection, path: Path, owner: str, form: str = "ledger") -> Job:
    return submit_workbook(
        conn, path, Asked(form_name=form, claim_owner=owner), settings=SETTINGS
    ).job


def _run_together(database_url: str, claimed: list[tuple[Job, str]]) -> list[JobOutcome]:
    start = threading.Barrier(len(claimed))
    outcomes: dict[int, JobOutcome] = {}

    def run(job: Job, owner: str) -> None:
        start.wait()
        outcomes[job.id] = run_job(database_url, job, owner, SETTINGS)

    threads = [threading.Thread(target=run, args=pair) for pair in claimed]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return [outcomes[job.id] for job, _ in claimed]


def test_two_keyed_imports_of_the_same_keys_in_opposite_order_never_deadlock(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn, KEYED_FORM)
    # Deadlocks are found at once (the default waits 1 s), so that a run that has them
    # does not drag on.
    conn.execute(
        sql.SQL("ALTER DATABASE {} SET deadlock_timeout = '20ms'").format(
            sql.Identifier(conn.info.dbname)
        )
    )
    # Each row written takes a moment, so that two upserts running at the same time are
    # both half-way through their keys: in opposite orders, that is a deadlock (without
    # the key order, every run of this test has several).
    conn.execute(
        "CREATE FUNCTION slow_row() RETURNS trigger LANGUAGE plpgsql AS $$"
        " BEGIN PERFORM pg_sleep(0.002); RETURN NEW; END $$"
    )
    conn.execute(
        "CREATE TRIGGER slow_row BEFORE INSERT ON forms.ledger"
        " FOR EACH ROW EXECUTE FUNCTION slow_row()"
    )
    up = _submit(conn, _book(tmp_path / "up.xlsx", "a", descending=False), "host-a:1:w")
    down = _submit(conn, _book(tmp_path / "down.xlsx", "b", descending=True), "host-b:2:w")
    before = _deadlocks(conn)

    outcomes = _run_together(database_url, [(up, "host-a:1:w"), (down, "host-b:2:w")])

    assert [(o.result, o.status, o.error) for o in outcomes] == [
        ("finished", "succeeded", None)
    ] * 2
    assert [(o.job.attempts, o.job.success_rows) for o in outcomes if o.job] == [(1, KEYS)] * 2
    assert _deadlocks(conn) == before
    # Every key once, holding the row of the job that wrote it last (whichever that was).
    stored = form_rows(conn, "ledger")
    assert sorted(r["order_id"] for r in stored) == list(range(1, KEYS + 1))
    tag = {up.id: "a", down.id: "b"}
    for r in stored:
        assert r["customer"] == f"{tag[r['import_job_id']]}{r['order_id']}"


def _conflict_on_first_writes(conn: Connection, count: int, form: str) -> None:
    """The first ``count`` statements writing the form's table fail as a deadlock victim
    would (a sequence counts them: it is not rolled back with the statement)."""
    conn.execute("CREATE SEQUENCE writes")
    conn.execute(
        "CREATE FUNCTION lose_deadlock() RETURNS trigger LANGUAGE plpgsql AS $$"
        f" BEGIN IF nextval('writes') <= {count} THEN"
        " RAISE EXCEPTION 'deadlock detected (injected)' USING ERRCODE = '40P01';"
        " END IF; RETURN NULL; END $$"
    )
    conn.execute(
        sql.SQL(
            "CREATE TRIGGER lose_deadlock BEFORE INSERT ON {}"
            " FOR EACH STATEMENT EXECUTE FUNCTION lose_deadlock()"
        ).format(sql.Identifier("forms", form))
    )


def _writes(conn: Connection) -> int:
    row = conn.execute("SELECT last_value FROM writes").fetchone()
    assert row is not None
    return int(row["last_value"])


@pytest.mark.parametrize("form", ["orders", "ledger"])
def test_a_deadlock_victim_batch_is_written_again_not_a_failed_attempt(
    database_url: str, conn: Connection, tmp_path: Path, form: str
) -> None:
    add_form(conn, ORDERS_FORM if form == "orders" else KEYED_FORM)
    book = orders_book(tmp_path / "orders.xlsx", 3 * BATCH)
    job = _submit(conn, book.path, "me:1:a", form)
    _conflict_on_first_writes(conn, 2, form)

    outcome = run_job(database_url, job, "me:1:a", SETTINGS)

    assert (outcome.result, outcome.error) == ("finished", None)
    assert outcome.job is not None and outcome.job.attempts == 1
    assert _writes(conn) >= 2 + 3  # the two lost tries, then every batch
    if form == "orders":
        assert_exactly_once(conn, job.id, book)
    else:
        row = conn.execute("SELECT count(*) AS n FROM forms.ledger").fetchone()
        assert row == {"n": len(book.valid)}


def test_a_batch_that_keeps_losing_fails_the_attempt_after_its_retries(
    database_url: str, conn: Connection, tmp_path: Path
) -> None:
    add_form(conn)
    book = orders_book(tmp_path / "orders.xlsx", BATCH)
    job = _submit(conn, book.path, "me:1:a", "orders")
    _conflict_on_first_writes(conn, 1000, "orders")

    outcome = run_job(database_url, job, "me:1:a", SETTINGS)

    assert outcome.result == "attempt_failed"
    assert outcome.error is not None and "deadlock detected" in outcome.error
    assert _writes(conn) == 1 + len(CONFLICT_DELAYS_SECONDS)
    row = conn.execute("SELECT count(*) AS n FROM forms.orders").fetchone()
    assert row == {"n": 0}
