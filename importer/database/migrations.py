"""Schema migrations: sql/migrations/NNNN_name.sql, applied in order under an advisory lock
and recorded in schema_migrations; a schema newer than the code is refused.

A migration may need a step beyond its SQL, run after the file in its transaction (0004
builds the typed views of the forms already stored, typed from Python's field type
registry). Its file says so on a line ``-- step: what it does``; the step itself is given by
the caller (``migrate(conn, steps={version: function of the connection})``), from the layer
that knows what it does: this one names nothing above it. A step carries what was stored
under the earlier schema into the new one, so a database migrated from empty needs none;
any other database is refused a pending migration whose step its caller did not give.

Version 0005 does not exist, and no version of the code ever had one: the number was
skipped, not lost. Versions need only increase. Do not fill the gap: a database already at
0007 would apply a new 0005 after 0006 and 0007, an empty one before them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import LiteralString

from importer.database.connection import Connection
from importer.database.queries import queries, shipped_sql
from importer.errors import DatabaseError, SchemaError

# pg_advisory_lock key for migrations: any constant unique to this tool.
_MIGRATION_LOCK = 0x1A9_0A7E

_FILE = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")
_STEP = re.compile(r"^--\s*step:\s*(.+?)\s*$", re.MULTILINE)

# What a migration needs done beyond its SQL, in its transaction, given by the caller.
MigrationStep = Callable[[Connection], None]


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: LiteralString
    step: str | None = None  # what it needs beyond its SQL (its "-- step:" line), if anything


def available_migrations() -> list[Migration]:
    folder = resources.files("importer.sql") / "migrations"
    found = []
    for entry in folder.iterdir():
        match = _FILE.fullmatch(entry.name)
        if match:
            text = shipped_sql(entry)
            step = _STEP.search(text)
            what = step.group(1) if step else None
            found.append(Migration(int(match.group(1)), match.group(2), text, what))
    found.sort(key=lambda m: m.version)
    return found


def _applied_versions(conn: Connection) -> set[int]:
    q = queries()
    exists = conn.execute(q.migrations_table_exists).fetchone()
    if not exists or exists["t"] is None:
        return set()
    return {row["version"] for row in conn.execute(q.applied_migrations)}


def schema_version(conn: Connection) -> int | None:
    """The newest migration applied to this database; None before the first."""
    applied = _applied_versions(conn)
    return max(applied) if applied else None


def _check_not_newer(applied: set[int], known: list[Migration]) -> None:
    latest = known[-1].version if known else 0
    newer = sorted(v for v in applied if v > latest)
    if newer:
        raise SchemaError(
            f"the database schema is at version {newer[-1]}, newer than this importer "
            f"(knows up to {latest}); upgrade importer"
        )


def _check_steps(known: list[Migration], steps: Mapping[int, MigrationStep]) -> None:
    """A step given for a migration that declares none is a caller's mistake."""
    declared = {m.version for m in known if m.step}
    stray = sorted(set(steps) - declared)
    if stray:
        raise ValueError(f"steps given for migrations that declare none: {stray}")


def _check_steps_given(
    pending: list[Migration], applied: set[int], steps: Mapping[int, MigrationStep]
) -> None:
    missing = [m for m in pending if m.step and m.version not in steps]
    if missing and applied:
        first = missing[0]
        raise SchemaError(
            f"migration {first.version:04d}_{first.name} needs a step beyond its SQL "
            f"({first.step}) that was not given; the schema stays at version {max(applied)}"
        )


def migrate(conn: Connection, steps: Mapping[int, MigrationStep] | None = None) -> list[Migration]:
    """Apply pending migrations under an advisory lock; return those applied now.
    ``steps``: version -> what that migration needs beyond its SQL (module docstring)."""
    q = queries()
    steps = steps or {}
    known = available_migrations()
    _check_steps(known, steps)
    applied = _applied_versions(conn)
    conn.commit()
    _check_not_newer(applied, known)
    if all(m.version in applied for m in known):
        return []
    done: list[Migration] = []
    conn.execute(q.lock_migrations, {"key": _MIGRATION_LOCK})
    try:
        conn.commit()
        conn.execute(q.create_migrations_table)
        conn.commit()
        applied = _applied_versions(conn)  # another process may have migrated meanwhile
        conn.commit()
        _check_not_newer(applied, known)
        pending = [m for m in known if m.version not in applied]
        _check_steps_given(pending, applied, steps)
        for migration in pending:
            # Each migration and its record commit together, before the lock is released.
            conn.execute(migration.sql)
            step = steps.get(migration.version)
            if step is not None:
                step(conn)
            conn.execute(q.record_migration, {"version": migration.version, "name": migration.name})
            conn.commit()
            done.append(migration)
    except SchemaError:
        raise
    except DatabaseError as exc:
        if not conn.broken:
            conn.rollback()
        text = str(exc).split(": ", 1)[-1]
        raise SchemaError(f"migration failed: {text}") from exc
    finally:
        if not conn.closed and not conn.broken:
            conn.execute(q.unlock_migrations, {"key": _MIGRATION_LOCK})
            conn.commit()
    return done
