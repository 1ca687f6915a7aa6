"""Connections kept open and lent out, for a process answering many short requests (the web
front end): a new connection costs its setup on both sides (a few milliseconds, and a
process forked by the server) where a request's own statements take a fraction of one.

psycopg's own pool keeps them: a connection is checked as it is lent (one empty statement:
one the server closed meanwhile is replaced, not handed to a request) unless it was given back
within the last ``UNCHECKED_SECONDS`` (it answered a moment ago; a busy server would pay a
round trip a request for nothing), replaced after an hour, and a request waits for one when
all are lent. What leaves here is the tool's own errors:
no connection within ``WAIT_SECONDS`` is DatabaseUnavailable, as a failed connect() is.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from psycopg_pool import ConnectionPool, PoolTimeout

from importer.database.connection import Connection, connection_params
from importer.database.urls import describe_target
from importer.errors import DatabaseUnavailable

# As long as connect() lets a server take to answer (dead_peer_params' connect_timeout).
WAIT_SECONDS = 10.0
UNCHECKED_SECONDS = 0.5


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
            check=self._check,
            timeout=wait_seconds,
            name="importer",
        )

    def _configure(self, conn: Connection) -> None:
        conn.target = self.target

    def _check(self, conn: Connection) -> None:
        if time.monotonic() - conn.given_back_at >= UNCHECKED_SECONDS:
            ConnectionPool.check_connection(conn)

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
            conn.given_back_at = time.monotonic()
            self._pool.putconn(conn)
