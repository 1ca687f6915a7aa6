"""The one table that turns psycopg's exceptions into the tool's own (see importer.errors).

Every psycopg error that leaves the database layer passes through ``database_errors()``: the
connections of this package wrap their statements, commits and notifications in it, so no
code above the repositories ever sees a psycopg exception. The first matching row wins.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import errors as pg

from importer.errors import (
    DatabaseError,
    DatabaseUnavailable,
    LockTimeout,
    TransientConflict,
    UniqueViolation,
)

# (psycopg class, ours, message prefix). LockNotAvailable is an OperationalError: it must
# come before the catch-all for unreachable servers.
_TABLE: tuple[tuple[type[psycopg.Error], type[DatabaseError], str], ...] = (
    (pg.LockNotAvailable, LockTimeout, "database error"),
    (pg.DeadlockDetected, TransientConflict, "database error"),
    (pg.SerializationFailure, TransientConflict, "database error"),
    (pg.UniqueViolation, UniqueViolation, "database error"),
    # An OperationalError too, but the server answered: its disk (or tablespace) is full.
    (pg.DiskFull, DatabaseError, "the database is out of disk space"),
    (psycopg.OperationalError, DatabaseUnavailable, "cannot reach PostgreSQL"),
    (psycopg.Error, DatabaseError, "database error"),
)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def translate(
    exc: psycopg.Error, *, target: str | None = None, url: str | None = None
) -> DatabaseError:
    """Our error for a psycopg one. ``target`` (host:port/db) names an unreachable server;
    ``url`` is masked out of the message. No password is ever part of the text."""
    from importer.database.urls import mask_url

    text = _first_line(exc)
    if url:
        text = text.replace(url, mask_url(url))
    if "password" in text.lower():
        text = mask_url(text)
    if isinstance(exc, psycopg.OperationalError) and _refused_for_clients(exc, text):
        # A full server is not a broken one: say so in words, so that a fleet larger than
        # max_connections reads as "wait and retry", not as an outage.
        where = f" ({target})" if target else ""
        return DatabaseUnavailable(f"database refused a connection{where}: too many clients")
    role = _missing_role(exc, text)
    if role is not None:
        # libpq reports it as a failed connection; the server answered, and said no such user.
        where = f" at {target}" if target else ""
        return DatabaseUnavailable(
            f"PostgreSQL{where} has no role {role!r}: connect as an existing user, or create"
            f" it (CREATE ROLE {_identifier(role)} LOGIN)",
            sqlstate="28000",
        )
    diag = exc.diag
    facts = {
        "sqlstate": exc.sqlstate,
        "constraint": diag.constraint_name,
        "detail": diag.message_detail,
    }
    for source, ours, prefix in _TABLE:
        if isinstance(exc, source):
            where = f" ({target})" if target and ours is DatabaseUnavailable else ""
            return ours(f"{prefix}{where}: {text}", **facts)
    raise AssertionError("psycopg.Error is the table's last row")  # pragma: no cover


def _refused_for_clients(exc: psycopg.Error, text: str) -> bool:
    """The server's "sorry, too many clients already" (SQLSTATE 53300), which a failed
    connection attempt reports as text only."""
    whole = f"{text} {exc}".lower()  # libpq puts the server's FATAL on a later line
    # Also "remaining connection slots are reserved for roles with the SUPERUSER attribute"
    # (or pg_use_reserved_connections): full, for everyone else.
    full = "too many clients" in whole or "remaining connection slots are reserved" in whole
    return isinstance(exc, pg.TooManyConnections) or full


_NO_ROLE = re.compile(r'role "([^"]+)" does not exist')


def _missing_role(exc: psycopg.Error, text: str) -> str | None:
    """The role a refused connection named, from the server's FATAL (text only, on a later
    line of the message)."""
    if not isinstance(exc, psycopg.OperationalError):
        return None
    found = _NO_ROLE.search(f"{text} {exc}")
    return found.group(1) if found else None


def _identifier(name: str) -> str:
    """The role as SQL would need it written (quoted unless plain lower case)."""
    plain = name.isascii() and name.isidentifier() and name == name.lower()
    return name if plain else '"' + name.replace('"', '""') + '"'


@contextmanager
def database_errors(*, target: str | None = None, url: str | None = None) -> Iterator[None]:
    """Run a block with psycopg errors raised as ours (the original kept as __cause__)."""
    try:
        yield
    except psycopg.Error as exc:
        raise translate(exc, target=target, url=url) from exc
