"""Connections kept open and lent out, for a process answering many short requests (the web
front end): a new connection costs its setup on both sides (a few milliseconds, and a
process forked by the server) where a request's own statements take a fraction of one.

psycopg's own pool keeps them: a connection is checked as it is lent (one empty statement:
one the server closed meanwhile is replaced, not handed to a request), replaced after an hour,
and a request waits for one when all are lent. What leaves here is the tool's own errors:
no connection within ``WAIT_SECONDS`` is DatabaseUnavailable, as a failed connect() is.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from psycopg_pool import ConnectionPool, PoolTimeout

from importer.database.connection import Connection, connection_params
from importer.database.urls import describe_target
from importer.errors import DatabaseUnavailable

# As long as connect() lets a server take to answer (dead_peer_params' connect_timeout).
WAIT_SECONDS = 10.0


class SharedConnections:
    """Up to ``size`` autocommit connections to ``url``, lent one at a time."""

    def __init__(self, url: str, size: int, *, wait_seconds: float = WAIT_SECONDS) -> None:
        self.target = describe_target(url)
        self.wait_seconds = wait_seconds
        self._pool = ConnectionPool(
            url,
            connection_class=Connection,
            kwargs=connection_params(autocommit=True),
            min_size=1,
            max_size=max(1, size),
            open=False,
            configure=self._configure,
            check=ConnectionPool.check_connection,
            timeout=wait_seconds,
            name="importer",
        )

    def _configure(self, conn: Connection) -> None:
        conn.target = self.target

    def open(self) -> None:
        self._pool.open()

    def close(self) -> None:
        self._pool.close()

    @contextmanager
    def lend(self) -> Iterator[Connection]:
        """A connection of the pool for the block; given back after it (one left broken or
        in a transaction is rolled back or replaced by the pool)."""
        try:
            conn = self._pool.getconn()
        except PoolTimeout:
            raise DatabaseUnavailable(
                f"cannot reach PostgreSQL ({self.target}): no connection within"
                f" {self.wait_seconds:g} s"
            ) from None
        try:
            yield conn
        finally:
            self._pool.putconn(conn)
