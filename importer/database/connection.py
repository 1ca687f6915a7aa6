"""The connector: connections whose errors leave them as the tool's own.

``connect()`` returns a ``Connection``: a psycopg connection (dict rows) whose statements,
commits, rollbacks, transactions and notifications run inside ``database_errors()``. So the
translation happens in exactly one place and callers above the repositories catch only
``importer.errors`` types (``LockTimeout``, ``DatabaseUnavailable``, ...).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from contextlib import contextmanager
from typing import Any, Self, overload

import psycopg
from psycopg import sql
from psycopg.abc import Params, Query, QueryNoTemplate
from psycopg.copy import Writer
from psycopg.rows import DictRow, dict_row

from importer.database.errors import database_errors, translate
from importer.database.urls import describe_target


class _Cursor(psycopg.Cursor[DictRow]):
    # psycopg's own overloads: a statement is a LiteralString (a named query), bytes or a
    # psycopg.sql composition, with parameters; or a template, which carries its own.
    @overload
    def execute(
        self,
        query: QueryNoTemplate,
        params: Params | None = None,
        *,
        prepare: bool | None = None,
        binary: bool | None = None,
    ) -> Self: ...

    @overload
    def execute(
        self, query: Query, *, prepare: bool | None = None, binary: bool | None = None
    ) -> Self: ...

    def execute(
        self,
        query: Query,
        params: Params | None = None,
        *,
        prepare: bool | None = None,
        binary: bool | None = None,
    ) -> Self:
        conn = self.connection
        target = conn.target if isinstance(conn, Connection) else None
        with database_errors(target=target):
            if isinstance(query, str | bytes | sql.SQL | sql.Composed):
                super().execute(query, params, prepare=prepare, binary=binary)
            elif params is not None:
                raise TypeError("a template query carries its parameters; give none besides")
            else:
                super().execute(query, prepare=prepare, binary=binary)
        return self

    @contextmanager
    def copy(
        self,
        statement: Query,
        params: Params | None = None,
        *,
        writer: Writer | None = None,
    ) -> Iterator[psycopg.Copy]:
        conn = self.connection
        target = conn.target if isinstance(conn, Connection) else None
        with database_errors(target=target), super().copy(statement, params, writer=writer) as cp:
            yield cp


class Connection(psycopg.Connection[DictRow]):
    """A psycopg connection that raises importer.errors types (see module docstring)."""

    target: str | None = None  # host:port/db, for messages about an unreachable server
    given_back_at = 0.0  # shared connections: when it was last given back (monotonic)

    def commit(self) -> None:
        with database_errors(target=self.target):
            super().commit()

    def rollback(self) -> None:
        with database_errors(target=self.target):
            super().rollback()

    @contextmanager
    def transaction(
        self, savepoint_name: str | None = None, force_rollback: bool = False
    ) -> Iterator[psycopg.Transaction]:
        with (
            database_errors(target=self.target),
            super().transaction(savepoint_name, force_rollback) as tx,
        ):
            yield tx

    def notifies(
        self, *, timeout: float | None = None, stop_after: int | None = None
    ) -> Generator[psycopg.Notify]:
        with database_errors(target=self.target):
            yield from super().notifies(timeout=timeout, stop_after=stop_after)


# A server that stops answering (a partition: packets dropped, no reset) must not hang a
# connection for the kernel's default of 15+ minutes: TCP keepalives probe an idle socket and
# tcp_user_timeout fails a send nobody acknowledges. libpq ignores both on Unix sockets.
DEAD_PEER_SECONDS = 60.0


def dead_peer_params(seconds: float) -> dict[str, Any]:
    """libpq parameters that give up on a silent server after about ``seconds``."""
    seconds = max(2.0, seconds)
    idle = max(1, int(seconds / 3))
    return {
        "connect_timeout": max(2, min(10, round(seconds))),
        "keepalives": 1,
        "keepalives_idle": idle,
        "keepalives_interval": max(1, int(seconds / 6)),
        "keepalives_count": 3,
        "tcp_user_timeout": int(seconds * 1000),
    }


def connection_params(
    *,
    autocommit: bool = False,
    application_name: str = "importer",
    dead_after: float = DEAD_PEER_SECONDS,
) -> dict[str, Any]:
    """How every connection of the tool is made (connect()'s and the pool's)."""
    return {
        "autocommit": autocommit,
        "row_factory": dict_row,
        "cursor_factory": _Cursor,
        "application_name": application_name,
        **dead_peer_params(dead_after),
    }


def connect(
    url: str,
    *,
    autocommit: bool = False,
    application_name: str = "importer",
    dead_after: float = DEAD_PEER_SECONDS,
) -> Connection:
    """``dead_after``: seconds after which a server that stopped answering counts as gone
    (the connection fails with DatabaseUnavailable instead of waiting on a dead socket)."""
    try:
        conn = Connection.connect(
            url,
            **connection_params(
                autocommit=autocommit, application_name=application_name, dead_after=dead_after
            ),
        )
    except psycopg.Error as exc:
        raise translate(exc, target=describe_target(url), url=url) from None
    conn.target = describe_target(url)
    return conn
