"""The connector: every psycopg error reaches callers as one of the tool's own types."""

from __future__ import annotations

import psycopg
import pytest

from importer.database import Connection, connect
from importer.errors import (
    DatabaseError,
    DatabaseUnavailable,
    ImporterError,
    LockTimeout,
    UniqueViolation,
)
from importer.repositories import jobs, sessions
from importer.repositories.rejected_rows import rejected_rows
from tests.support.jobs import add_form, counts


def _new_job(conn: Connection) -> jobs.Job:
    add_form(conn)
    sha = jobs.store_file(conn, b"workbook")
    new = jobs.NewJob("orders", 1, sha, "a.xlsx", "Sheet1", "calamine", ["Order ID"], 3, 5)
    job, _ = jobs.create_job(conn, new)
    return job


def test_a_lock_wait_past_lock_timeout_is_a_lock_timeout(
    conn: Connection, database_url: str
) -> None:
    job = _new_job(conn)
    [claimed] = jobs.claim_jobs(conn, owner="me:1", limit=1, lease_seconds=60)
    with connect(database_url) as holder, connect(database_url, autocommit=True) as waiter:
        holder.execute("SELECT 1 FROM import_jobs WHERE id = %s FOR UPDATE", (job.id,))
        sessions.set_lock_timeout(waiter, 50)
        with pytest.raises(LockTimeout) as raised:
            jobs.renew_lease(waiter, claimed.id, "me:1", 60)
    assert isinstance(raised.value, DatabaseError) and not isinstance(raised.value, psycopg.Error)
    assert str(raised.value).startswith("database error: ")
    assert isinstance(raised.value.__cause__, psycopg.errors.LockNotAvailable)


def test_a_duplicate_key_is_a_unique_violation_and_the_transaction_rolls_back(
    conn: Connection,
) -> None:
    before = counts(conn)
    with pytest.raises(UniqueViolation) as raised, conn.transaction():
        jobs.store_file(conn, b"one")
        conn.execute(
            "INSERT INTO import_files (sha256, size_bytes, content)"
            " SELECT sha256, size_bytes, content FROM import_files"
        )
    assert counts(conn) == before  # the first insert rolled back with it
    # The server's own facts travel as data: which constraint, and its detail.
    assert raised.value.sqlstate == "23505"
    assert raised.value.constraint == "import_files_pkey"
    assert (raised.value.detail or "").startswith("Key (sha256)=(")


def test_a_dropped_session_is_database_unavailable_naming_the_server(
    conn: Connection, database_url: str
) -> None:
    victim = connect(database_url, autocommit=True)
    pid = victim.info.backend_pid
    conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(DatabaseUnavailable) as raised:
        jobs.db_now(victim)
    assert str(raised.value).startswith("cannot reach PostgreSQL (")
    victim.close()


def test_server_side_cursor_errors_are_translated_too(conn: Connection, database_url: str) -> None:
    job = _new_job(conn)
    with connect(database_url, autocommit=True) as reader:
        rows = rejected_rows(reader, job.id)
        conn.execute("SELECT pg_terminate_backend(%s)", (reader.info.backend_pid,))
        with pytest.raises(ImporterError):
            list(rows)


def test_an_unreachable_server_is_refused_at_connect() -> None:
    with pytest.raises(DatabaseUnavailable) as raised:
        connect("postgresql://u:secret@127.0.0.1:1/nowhere")
    assert "127.0.0.1:1/nowhere" in str(raised.value) and "secret" not in str(raised.value)


def test_a_server_out_of_connections_is_one_plain_line() -> None:
    from importer.database.errors import translate

    refused = psycopg.OperationalError(
        'connection failed: connection to server at "10.0.0.1", port 5432 failed:'
        " FATAL:  sorry, too many clients already"
    )
    error = translate(refused, target="10.0.0.1:5432/db")
    assert isinstance(error, DatabaseUnavailable)
    assert str(error) == "database refused a connection (10.0.0.1:5432/db): too many clients"


def test_a_full_disk_says_so_and_is_not_an_unreachable_server() -> None:
    from importer.database.errors import translate

    full = psycopg.errors.DiskFull(
        'could not extend file "pg_tblspc/16384/PG_18/5/16390": No space left on device'
    )
    error = translate(full, target="db:5432/x")
    assert type(error) is DatabaseError
    assert str(error).startswith("the database is out of disk space: could not extend file")
