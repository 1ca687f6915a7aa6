"""Connections shared by a server's requests: lent, given back, replaced when the server
closed them, and a wait for one that ends as the tool's own error."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

from importer.config import Settings
from importer.database import Database
from importer.database.pool import UNCHECKED_SECONDS, SharedConnections
from importer.errors import DatabaseError, DatabaseUnavailable


def _pid(database: Database) -> int:
    with database.autocommit() as conn:
        row = conn.execute("SELECT pg_backend_pid() AS pid").fetchone()
    assert row is not None
    return int(row["pid"])


def _closed_by_the_server(database: Database, database_url: str) -> int:
    """The shared connection's server process, ended by the server (as a restart would)."""
    pid = _pid(database)
    with psycopg.connect(database_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    return pid


def test_while_sharing_the_same_connection_is_lent_again(settings: Settings) -> None:
    database = Database(settings)
    alone = {_pid(database) for _ in range(3)}
    assert len(alone) == 3  # a new connection each time
    with database.sharing_connections(1):
        shared = {_pid(database) for _ in range(3)}
    assert len(shared) == 1
    assert _pid(database) not in shared  # the block over: new connections again


def test_a_connection_the_server_closed_is_replaced_not_lent(
    settings: Settings, database_url: str
) -> None:
    database = Database(settings)
    with database.sharing_connections(1):
        first = _closed_by_the_server(database, database_url)
        time.sleep(UNCHECKED_SECONDS)  # given back longer ago: checked as it is lent
        assert _pid(database) != first


def test_a_connection_given_back_a_moment_ago_is_lent_unchecked(
    settings: Settings, database_url: str
) -> None:
    # The check's round trip is saved for a connection that just answered: one the server
    # closed within that moment fails the one statement that meets it, and is replaced.
    database = Database(settings)
    with database.sharing_connections(1):
        first = _closed_by_the_server(database, database_url)
        with pytest.raises(DatabaseUnavailable):
            _pid(database)
        assert _pid(database) != first


def test_a_failed_statement_leaves_the_connection_usable(settings: Settings) -> None:
    database = Database(settings)
    with database.sharing_connections(1):
        with pytest.raises(DatabaseError), database.autocommit() as conn:
            conn.execute("SELECT 1/0")
        with database.autocommit() as conn:
            assert conn.execute("SELECT 2 AS two").fetchone() == {"two": 2}


def test_no_connection_free_in_time_is_database_unavailable(database_url: str) -> None:
    shared = SharedConnections(database_url, 1, wait_seconds=0.2)
    shared.open()
    try:
        lent = threading.Event()
        give_back = threading.Event()

        def hold() -> None:
            with shared.lend():
                lent.set()
                give_back.wait(10)

        holder = threading.Thread(target=hold)
        holder.start()
        assert lent.wait(10)
        with (
            pytest.raises(DatabaseUnavailable, match=r"no connection within 0\.2 s"),
            shared.lend(),
        ):
            pass
        give_back.set()
        holder.join()
        with shared.lend() as conn:  # given back: lent again
            assert conn.execute("SELECT 1 AS one").fetchone() == {"one": 1}
    finally:
        shared.close()
