"""Settings of one database session, and LISTEN for the daemons' wake-ups."""

from __future__ import annotations

from collections.abc import Sequence

from psycopg import sql

from importer.database import Connection, queries


def set_lock_timeout(conn: Connection, milliseconds: int) -> None:
    """Statements of this session give up waiting for a lock after this long (LockTimeout)."""
    conn.execute(queries().set_lock_timeout, {"timeout": f"{milliseconds}ms"})


def set_idle_in_transaction_timeout(conn: Connection, milliseconds: int) -> None:
    """The server ends this session when it sits in an open transaction longer than this."""
    conn.execute(queries().set_idle_in_transaction_timeout, {"timeout": f"{milliseconds}ms"})


def set_statement_timeout(conn: Connection, milliseconds: int) -> None:
    """The server cancels a statement of this session that runs longer than this (one that
    waits on a client gone silent, mid-COPY, included)."""
    conn.execute(queries().set_statement_timeout, {"timeout": f"{milliseconds}ms"})


def listen(conn: Connection, channels: Sequence[str]) -> None:
    """Receive NOTIFYs on these channels (an autocommit connection)."""
    for channel in channels:
        conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
