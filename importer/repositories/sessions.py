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


def session_id(conn: Connection) -> int:
    """The server's id of this session (its backend pid), for end_session."""
    return conn.info.backend_pid


def end_session(conn: Connection, session: int, milliseconds: int) -> bool:
    """End another session of this tool (its open transaction rolled back, its locks freed),
    waiting up to ``milliseconds`` until it is gone; False when it was not found or outlived
    the wait."""
    row = conn.execute(queries().end_session, {"pid": session, "timeout": milliseconds}).fetchone()
    return bool(row and row["ended"])


def listen(conn: Connection, channels: Sequence[str]) -> None:
    """Receive NOTIFYs on these channels (an autocommit connection)."""
    for channel in channels:
        conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
